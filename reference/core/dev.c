/* Device lifetime, clock, PRNG, DMA routing and invariants. */
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"

static int dev_objects_init(struct nicref_dev *dev);
static void hca_reset(struct nicref_dev *dev);

void nicref_profile_default(struct nicref_profile *p)
{
	memset(p, 0, sizeof *p);
	p->fw_rev_major = 12;
	p->fw_rev_minor = 0;
	p->fw_rev_subminor = 0;
	p->cmd_interface_rev = 5;       /* D-INIT-4 */
	p->log_cmdq_size = 5;           /* D-CMD-1: 32 entries */
	p->log_cmdq_stride = 6;         /* D-CMD-1: 64-byte entries */
	p->nic_interface_supported = 1; /* full_driver only */
	p->cmdif_checksum = 3;          /* D-CMD-5: checked and generated */
	p->init_delay_ns = 0;
	p->health_period_ns = 1000000; /* D-H-1: 1 ms */
	p->timer_khz = 156250;         /* D-TS-1 */
	p->max_mailbox_blocks = 512;   /* D-CMD-10 */
	p->hostmem_max_pages = 16384;  /* 64 MiB of host memory */
	p->reserved_check = 1;         /* D-CMD-8: strict */
	p->boot_pages = 2;             /* D-PG-2 */
	p->init_pages = 6;
	p->max_icm_pages = 4096;       /* 16 MiB */
	p->supported_issi = 0x3;       /* D-ISSI-1: ISSI 0 and 1 */
	p->msix_vectors = 64;
	p->num_ports = 1;
	p->uar_base = 5;               /* D-UAR-1 */
	p->log_max_pd = 16;
	p->log_max_transport_domain = 16;
	p->log_max_objects = 16;
	p->contexts_per_page = 64; /* D-PG-4 */
	p->driver_version = 1;
	p->adp_max_range_num = NICREF_ADP_MAX_RANGES; /* D-ADP-*: docs/decisions.md */
	p->adp_max_profile_id = 7;
	p->adp_base_timeout_min_ns = 4000; /* seed 001: 4 us */
}

void nicref_config_default(struct nicref_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	nicref_profile_default(&cfg->profile);
}

static int profile_ok(const struct nicref_profile *p)
{
	/* PRM §7.14.1: the queue lives in one 4 KiB chunk; an entry is 64 bytes (T95). */
	if (p->log_cmdq_stride < 6 || p->log_cmdq_size > 5 ||
	    (1u << p->log_cmdq_size) << p->log_cmdq_stride > 4096u)
		return 0;
	if (p->cmdif_checksum == 2 || p->cmdif_checksum > 3)
		return 0;
	if (p->num_ports == 0 || p->num_ports > NICREF_MAX_PORTS || p->msix_vectors == 0 ||
	    p->msix_vectors > 2048 || p->max_icm_pages > (1u << 24) ||
	    (uint64_t)p->boot_pages + p->init_pages > p->max_icm_pages || p->uar_base == 0 ||
	    p->log_max_pd > DEV_LOG_MAX_PD || p->log_max_transport_domain > DEV_LOG_MAX_TD ||
	    p->log_max_objects > OBJTAB_MAX_LOG || p->contexts_per_page == 0 ||
	    p->driver_version > 1)
		return 0;
	if (p->nic_interface_supported > 7 || p->max_mailbox_blocks == 0 ||
	    p->max_mailbox_blocks > 8192 || p->health_period_ns == 0 || p->timer_khz == 0)
		return 0;
	/* ROCE_ACCL capabilities (seed 000 L63-87): 1-4 ranges (4 timeout_range[] entries), a
	 * profile id 1-7 (3 bits), a 20-bit minimum; the ADP options name their readings. */
	if (p->adp_max_range_num == 0 || p->adp_max_range_num > NICREF_ADP_MAX_RANGES ||
	    p->adp_max_profile_id == 0 || p->adp_max_profile_id > 7 ||
	    p->adp_base_timeout_min_ns > 0xFFFFFu || !nicref_adp_options_ok(&p->adp))
		return 0;
	return caps_profile_ok(p);
}

struct nicref_dev *nicref_dev_create(const struct nicref_config *cfg)
{
	if (!profile_ok(&cfg->profile))
		return NULL;
	struct nicref_dev *dev = calloc(1, sizeof *dev);
	if (!dev)
		return NULL;
	dev->cfg = *cfg;
	/* 16 inline bytes plus the mailbox data of the longest chain (PRM §7.14.1). */
	dev->cmd_buf_len = 16 + (size_t)cfg->profile.max_mailbox_blocks * 512;
	dev->cmd_in = malloc(dev->cmd_buf_len);
	dev->cmd_out = malloc(dev->cmd_buf_len);
	dev->out_block_addr = calloc(cfg->profile.max_mailbox_blocks, sizeof(uint64_t));
	dev->out_block_ctrl = calloc(cfg->profile.max_mailbox_blocks, 0x40);
	if (!dev->cmd_in || !dev->cmd_out || !dev->out_block_addr || !dev->out_block_ctrl ||
	    hostmem_init(&dev->hostmem, cfg->profile.hostmem_max_pages) != 0 ||
	    dev_objects_init(dev) != 0) {
		nicref_dev_destroy(dev);
		return NULL;
	}
	caps_init(dev);
	nicref_dev_reset(dev);
	return dev;
}

void nicref_dev_destroy(struct nicref_dev *dev)
{
	if (!dev)
		return;
	hostmem_fini(&dev->hostmem);
	page_pool_fini(&dev->pages);
	obj_dev_fini(dev);
	free(dev->int_min_delay);
	free(dev->cmd_in);
	free(dev->cmd_out);
	free(dev->out_block_addr);
	free(dev->out_block_ctrl);
	free(dev);
}

void nicref_dev_reset(struct nicref_dev *dev)
{
	dev->now_ns = 0;
	/* splitmix64 cannot stay at zero, so any seed is a valid state. */
	dev->prng = dev->cfg.seed;
	dev->trace_seq = 0;
	memset(&dev->stats, 0, sizeof dev->stats);
	init_seg_reset(dev);
	hca_reset(dev);
}

/* Handle spaces sized for the largest limits the capabilities allow (T145), so no command
 * allocates. PD and TD: 2^log_max_pd / 2^log_max_transport_domain; UAR: the UAR area over
 * the smallest UAR page. */
static int dev_objects_init(struct nicref_dev *dev)
{
	const struct nicref_profile *p = &dev->cfg.profile;
	return page_pool_init(&dev->pages, p->max_icm_pages) != 0 || obj_dev_init(dev) != 0 ||
			       !(dev->int_min_delay = calloc(p->msix_vectors, sizeof(uint16_t)))
		       ? -1
		       : 0;
}

/* Power-on state of everything behind the command interface. */
static void hca_reset(struct nicref_dev *dev)
{
	memset(&dev->hca, 0, sizeof dev->hca);
	dev->hca.state = HCA_DISABLED;
	page_pool_clear(&dev->pages);
	caps_reset(dev);
	hca_release_objects(dev);
	memset(dev->int_min_delay, 0, dev->cfg.profile.msix_vectors * sizeof(uint16_t));
	port_reset(dev);
	roce_accl_reset(dev);
}


uint32_t dev_pages_required(const struct nicref_dev *dev)
{
	switch (dev->hca.state) {
	case HCA_ENABLED:
	case HCA_INITIALIZED:
	{
		/* D-PG-2: boot and init pages, and the pages the live contexts take; or more while
		 * a Page Request is not yet answered (D-PG-4). */
		uint64_t n = (uint64_t)dev->cfg.profile.boot_pages + dev->cfg.profile.init_pages +
			     obj_pages_required(dev);
		if (n < dev->hca.pages_wanted)
			n = dev->hca.pages_wanted;
		return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	}
	default:
		return 0;
	}
}

void nicref_hca_info(const struct nicref_dev *dev, struct nicref_hca_info *out)
{
	memset(out, 0, sizeof *out);
	out->state = (enum nicref_hca_state)dev->hca.state;
	out->issi = dev->hca.issi;
	out->pages = dev->pages.count;
	for (unsigned k = 0; k < 3; k++)
		out->query_pages[k] = pages_query(dev, k + 1);
	out->pds = dev_obj_count(dev, OBJ_PD);
	out->uars = dev_obj_count(dev, OBJ_UAR);
	out->tds = dev_obj_count(dev, OBJ_TD);
	out->mkeys = dev_obj_count(dev, OBJ_MKEY);
	out->eqs = dev_obj_count(dev, OBJ_EQ);
	out->cqs = dev_obj_count(dev, OBJ_CQ);
	out->tiss = dev_obj_count(dev, OBJ_TIS);
	out->sqs = dev_obj_count(dev, OBJ_SQ);
	out->rmps = dev_obj_count(dev, OBJ_RMP);
	out->rqs = dev_obj_count(dev, OBJ_RQ);
	out->rqts = dev_obj_count(dev, OBJ_RQT);
	out->tirs = dev_obj_count(dev, OBJ_TIR);
}

void nicref_clock_advance(struct nicref_dev *dev, uint64_t ns)
{
	dev->now_ns = ns > UINT64_MAX - dev->now_ns ? UINT64_MAX : dev->now_ns + ns;
	init_seg_tick(dev);
	cq_tick(dev);
	eq_tick(dev);
}

uint64_t nicref_clock_now(const struct nicref_dev *dev)
{
	return dev->now_ns;
}

uint64_t nicref_prng_next(struct nicref_dev *dev)
{
	/* splitmix64 (adp/prng.c): fast, seedable, full period 2^64; the ADP tools share it. */
	return nicref_splitmix64(&dev->prng);
}

int nicref_hostmem_write(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len)
{
	return hostmem_write(&dev->hostmem, addr, buf, len);
}

int nicref_hostmem_read(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len)
{
	return hostmem_read(&dev->hostmem, addr, buf, len);
}

void nicref_hostmem_clear(struct nicref_dev *dev)
{
	hostmem_clear(&dev->hostmem);
}

int nicref_hostmem_fault(struct nicref_dev *dev, uint64_t addr, uint64_t len, unsigned flags)
{
	return hostmem_add_fault(&dev->hostmem, addr, len, flags);
}

size_t nicref_hostmem_pages(const struct nicref_dev *dev)
{
	return dev->hostmem.used;
}

int dev_dma_read(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len)
{
	int rc = dev->cfg.ops.dma_read
			 ? dev->cfg.ops.dma_read(dev->cfg.ops.ctx, addr, buf, len)
		 : hostmem_faulted(&dev->hostmem, addr, len, NICREF_FAULT_READ)
			 ? -1
			 : hostmem_read(&dev->hostmem, addr, buf, len);
	if (rc != 0) {
		dev->stats.dma_errors++;
		dev_emit3(dev, NICREF_EV_DMA_ERROR, addr, len, 0);
	}
	return rc;
}

int dev_dma_write(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len)
{
	int rc = dev->cfg.ops.dma_write
			 ? dev->cfg.ops.dma_write(dev->cfg.ops.ctx, addr, buf, len)
		 : hostmem_faulted(&dev->hostmem, addr, len, NICREF_FAULT_WRITE)
			 ? -1
			 : hostmem_write(&dev->hostmem, addr, buf, len);
	if (rc != 0) {
		dev->stats.dma_errors++;
		dev_emit3(dev, NICREF_EV_DMA_ERROR, addr, len, 1);
	}
	return rc;
}

void nicref_stats_get(const struct nicref_dev *dev, struct nicref_stats *out)
{
	*out = dev->stats;
}

/* nicref_dev_check and nicref_dev_check_explain: each check, in order, and what it saw. */
static int dev_check(const struct nicref_dev *dev, char *buf, size_t len)
{
	const struct init_seg *s = &dev->iseg;
	if (s->cmdq_valid && (s->cmdq_addr & 0xFFF) != 0)
		return dev_broken(buf, len, NICREF_INV_CMDQ_ADDR_ALIGNED,
				  "command queue address 0x%llx latched",
				  (unsigned long long)s->cmdq_addr);
	if (!s->cmdq_valid && !s->initializing)
		return dev_broken(buf, len, NICREF_INV_INITIALIZING_UNTIL_LATCHED,
				  "initializing 0 with no queue address latched");
	if (dev->hostmem.used > dev->hostmem.max_pages)
		return dev_broken(buf, len, NICREF_INV_HOSTMEM_WITHIN_BOUND,
				  "host memory uses %zu pages, bound %zu", dev->hostmem.used,
				  dev->hostmem.max_pages);
	if (dev->stats.events != dev->trace_seq)
		return dev_broken(buf, len, NICREF_INV_EVENTS_COUNTED,
				  "%llu events counted, trace seq %llu",
				  (unsigned long long)dev->stats.events,
				  (unsigned long long)dev->trace_seq);
	if ((unsigned)dev->hca.state > HCA_PANIC)
		return dev_broken(buf, len, NICREF_INV_HCA_STATE_VALID, "HCA state %u",
				  (unsigned)dev->hca.state);
	/* pages: within the limit, and none held while disabled (D-INIT-7) */
	if (dev->pages.count > dev->pages.capacity ||
	    (dev->hca.state == HCA_DISABLED && dev->pages.count))
		return dev_broken(buf, len, NICREF_INV_PAGES_WITHIN_LIMIT,
				  "%u pages held, pool of %u, HCA %s", dev->pages.count,
				  dev->pages.capacity, dev_state_name(dev->hca.state));
	/* objects live only while INITIALIZED, each table within its range, and every
	 * reference count what the objects that hold it say (obj/obj.c) */
	int rc = obj_dev_check(dev, buf, len);
	if (rc)
		return rc;
	if ((rc = roce_accl_check(dev)) != 0)
		return dev_broken(buf, len, NICREF_INV_ROCE_ACCL_STORED,
				  "ROCE_ACCL active_profile_id %u (capability %u), %s",
				  dev->roce_accl.active_profile_id,
				  dev->cfg.profile.adp_max_profile_id,
				  rc == -1 ? "id above the capability"
					   : "the profile fails validation");
	/* INIT_HCA needs the boot and init pages, and they stay until TEARDOWN_HCA */
	if (dev->hca.state == HCA_INITIALIZED &&
	    dev->pages.count < dev->cfg.profile.boot_pages + dev->cfg.profile.init_pages)
		return dev_broken(buf, len, NICREF_INV_INIT_PAGES_HELD,
				  "INITIALIZED with %u pages, boot %u + init %u",
				  dev->pages.count, dev->cfg.profile.boot_pages,
				  dev->cfg.profile.init_pages);
	return 0;
}

int nicref_dev_check(const struct nicref_dev *dev)
{
	return dev_check(dev, NULL, 0);
}

int nicref_dev_check_explain(const struct nicref_dev *dev, char *buf, size_t len)
{
	if (len > 0)
		buf[0] = '\0';
	return dev_check(dev, buf, len);
}
