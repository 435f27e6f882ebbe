/* Device lifetime, clock, PRNG, DMA routing and invariants: core's part of each, then the walk
 * of the subsystem table (core/subsys.h) for the rest. */
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"

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
	p->cmdif_checksum = 1;          /* D-CMD-5: T145 "initial_state", not checked on input */
	p->init_delay_ns = 0;
	p->health_period_ns = 1000000; /* D-H-1: 1 ms */
	p->timer_khz = 156000;         /* D-TS-1: 156 MHz, device_frequency_mhz 156 */
	p->max_mailbox_blocks = 512;   /* D-CMD-10 */
	p->hostmem_max_pages = 16384;  /* 64 MiB of host memory */
	p->reserved_check = 1;         /* D-CMD-8: strict */
	p->boot_pages = 2;             /* D-PG-2 */
	p->init_pages = 6;
	p->page_wait = 1;              /* D-PG-6: as firmware */
	p->max_icm_pages = 4096;       /* 16 MiB */
	p->supported_issi = 0x3;       /* D-ISSI-1: ISSI 0 and 1 */
	p->msix_vectors = 64;
	p->num_ports = 1;
	p->uar_base = 5;               /* D-UAR-1 */
	p->log_max_pd = 16;
	p->log_max_transport_domain = 16;
	p->log_max_objects = 16;
	p->contexts_per_page = 64; /* D-PG-4 */
	p->lro_max_sessions = 256; /* D-LRO-1 */
	p->lro_min_mss_size = 1;   /* §3.3.6.2: any payload (> 0) */
	p->lro_max_msg_sz_mode = 0; /* D-LRO-6: start_from_TCP_header */
	p->roce_profile = 0; /* docs/roce.md: connectx */
	p->driver_version = 1;
	p->vport_min_wqe_inline_mode = 1; /* D-VP-3: L2 (§7.9.3.1 mode 1) */
	p->adp_max_range_num = NICREF_ADP_MAX_RANGES; /* D-ADP-*: docs/decisions.md */
	p->adp_max_profile_id = 7;
	p->adp_base_timeout_min_ns = 4000; /* seed 001: 4 us */
}

void nicref_config_default(struct nicref_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	nicref_profile_default(&cfg->profile);
}

/* Core's settings of the profile; each subsystem checks its own (profile_ok of its row). */
static int core_profile_ok(const struct nicref_profile *p)
{
	/* The page pool's bound (2^24 pages) with room for the boot and init pages (D-PG-2);
	 * driver_version is a 1-bit capability (T145 4Ch[30]). */
	if (p->max_icm_pages > (1u << 24) ||
	    (uint64_t)p->boot_pages + p->init_pages > p->max_icm_pages || p->driver_version > 1)
		return 0;
	return caps_profile_ok(p);
}

static int profile_ok(const struct nicref_profile *p, const struct dev_subsys *const *rows,
		      unsigned n)
{
	if (!core_profile_ok(p))
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (rows[i]->profile_ok && !rows[i]->profile_ok(p))
			return 0;
	return 1;
}

struct nicref_dev *dev_create(const struct nicref_config *cfg,
			      const struct dev_subsys *const *rows, unsigned n, size_t size)
{
	NICREF_ASSERT(size >= sizeof(struct dev_core));
	if (!profile_ok(&cfg->profile, rows, n))
		return NULL;
	struct nicref_dev *dev = calloc(1, size);
	if (!dev)
		return NULL;
	struct dev_core *c = dev_core(dev);
	c->cfg = *cfg;
	c->mem.tracked = cfg->snapshots;
	c->subsys = rows;
	c->nsubsys = n;
	if (!(c->state = calloc(n ? n : 1, sizeof *c->state)) ||
	    !(c->ticking = calloc(n ? n : 1, sizeof *c->ticking)) ||
	    hostmem_init(&c->hostmem, cfg->profile.hostmem_max_pages) != 0 ||
	    page_pool_init(&c->pages, cfg->profile.max_icm_pages) != 0) {
		nicref_dev_destroy(dev);
		return NULL;
	}
	for (unsigned i = 0; i < n; i++)
		if (rows[i]->tick)
			c->ticking[c->nticking++] = i;
	caps_init(dev);
	for (unsigned i = 0; i < n; i++) {
		c->ncreated = i + 1;
		if (rows[i]->create && rows[i]->create(dev, &c->state[i]) != 0) {
			nicref_dev_destroy(dev);
			return NULL;
		}
	}
	nicref_dev_reset(dev);
	return dev;
}

void nicref_dev_destroy(struct nicref_dev *dev)
{
	if (!dev)
		return;
	struct dev_core *c = dev_core(dev);
	/* Rows go in reverse order, each no longer counted as created before it goes: a row's
	 * destroy may dev_notify the rows still there (the objects releasing, LRO). */
	while (c->ncreated > 0) {
		unsigned i = --c->ncreated;
		if (c->subsys[i]->destroy)
			c->subsys[i]->destroy(dev, c->state[i]);
	}
	dev_mem_fini(&c->mem);
	hostmem_fini(&c->hostmem);
	page_pool_fini(&c->pages);
	free(c->state);
	free(c->ticking);
	free(dev);
}

void nicref_dev_reset(struct nicref_dev *dev)
{
	struct dev_core *c = dev_core(dev);
	c->now_ns = 0;
	/* splitmix64 cannot stay at zero, so any seed is a valid state. */
	c->prng = c->cfg.seed;
	c->trace_seq = 0;
	c->halted = false; /* §7.13.9.1: the hardware reset recovers from a fatal error (D-H-2) */
	c->snap_last = 0; /* every snapshot restores from here by copying all it holds */
	memset(&c->stats, 0, sizeof c->stats);
	page_pool_clear(&c->pages);
	caps_reset(dev);
	for (unsigned i = 0; i < c->nsubsys; i++)
		if (c->subsys[i]->reset)
			c->subsys[i]->reset(dev, c->state[i]);
}

/* The earliest deadline of a row (core/subsys.h next_deadline) before `bound`, or bound; the
 * walk stops early at one not after `floor` (nothing can come before it). */
static uint64_t earliest(const struct nicref_dev *dev, const struct dev_core *c, uint64_t floor,
			 uint64_t bound)
{
	uint64_t at = bound;
	if (c->halted) /* D-H-2: a halted device starts nothing at a deadline */
		return bound;
	for (unsigned k = 0; k < c->nticking && at > floor; k++) {
		unsigned i = c->ticking[k];
		uint64_t t;
		if (c->subsys[i]->next_deadline &&
		    c->subsys[i]->next_deadline(dev, c->state[i], &t) && t < at)
			at = t;
	}
	return at;
}

int nicref_clock_next_deadline(const struct nicref_dev *dev, uint64_t *t)
{
	const struct dev_core *c = dev_core_c(dev);
	uint64_t at = earliest(dev, c, 0, UINT64_MAX);
	if (at == UINT64_MAX) {
		if (c->halted)
			return 0;
		/* Nothing below the bound: a row's deadline may still be UINT64_MAX itself. */
		for (unsigned k = 0; k < c->nticking; k++) {
			unsigned i = c->ticking[k];
			if (c->subsys[i]->next_deadline &&
			    c->subsys[i]->next_deadline(dev, c->state[i], t))
				return 1;
		}
		return 0;
	}
	*t = at;
	return 1;
}

/* The next stop of the clock on its way to `target`: the earliest deadline of a row, not before
 * now, not after target. */
static uint64_t next_stop(const struct nicref_dev *dev, const struct dev_core *c, uint64_t target)
{
	uint64_t at = earliest(dev, c, c->now_ns, target);
	return at > c->now_ns ? at : c->now_ns;
}

/* At most this many stops in one advance. A timer that re-arms for ever (an RC requester with
 * rnr_retry 7 against a peer that always answers RNR NAK, every 10 us) would otherwise make one
 * advance of 2^40 ns cost 10^8 ticks: the work of one call must stay bounded whatever the input
 * (a fuzz input, a vector's advance_ns). Past the cap the clock jumps to the target and every
 * row ticks once there, as before session 30 (what was due acts once, at the target). 1024 stops
 * is far beyond what a vector or a capture needs between two of its own steps. */
#define CLOCK_STOPS_MAX 1024u

/* Time moves to the target through every deadline on the way: at each the clock stops and every
 * row ticks (table order at one time), as a device running continuously would act, so one
 * advance of a + b gives the trace of an advance of a and one of b (docs/architecture.md "The
 * clock"), up to CLOCK_STOPS_MAX stops. The first stop may be now (something already due); each
 * later one is past the one before, since a row's deadline moves past the time it ticked at
 * (asserted: a row that left it there would stop the clock for ever). */
void nicref_clock_advance(struct nicref_dev *dev, uint64_t ns)
{
	struct dev_core *c = dev_core(dev);
	const uint64_t target = ns > UINT64_MAX - c->now_ns ? UINT64_MAX : c->now_ns + ns;
	for (unsigned stops = 0;; stops++) {
		uint64_t stop = stops < CLOCK_STOPS_MAX ? next_stop(dev, c, target) : target;
		NICREF_ASSERT(stops == 0 || stop > c->now_ns);
		c->now_ns = stop;
		/* D-H-2: a halted device (PRM §9.2.2) lets time pass and acts on nothing. */
		for (unsigned k = 0; k < c->nticking && !c->halted; k++) {
			unsigned i = c->ticking[k];
			c->subsys[i]->tick(dev, c->state[i]);
		}
		if (stop == target)
			return;
	}
}

void dev_notify(struct nicref_dev *dev, enum dev_note note, uint32_t num)
{
	struct dev_core *c = dev_core(dev);
	for (unsigned i = 0; i < c->ncreated; i++)
		if (c->subsys[i]->notify)
			c->subsys[i]->notify(dev, c->state[i], note, num);
}

uint64_t nicref_clock_now(const struct nicref_dev *dev)
{
	return dev_core_c(dev)->now_ns;
}

uint64_t nicref_prng_next(struct nicref_dev *dev)
{
	/* splitmix64 (adp/prng.c): fast, seedable, full period 2^64; the ADP tools share it. */
	return nicref_splitmix64(&dev_core(dev)->prng);
}

int nicref_hostmem_write(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len)
{
	return hostmem_write(&dev_core(dev)->hostmem, addr, buf, len);
}

int nicref_hostmem_read(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len)
{
	return hostmem_read(&dev_core(dev)->hostmem, addr, buf, len);
}

void nicref_hostmem_clear(struct nicref_dev *dev)
{
	hostmem_clear(&dev_core(dev)->hostmem);
}

int nicref_hostmem_fault(struct nicref_dev *dev, uint64_t addr, uint64_t len, unsigned flags)
{
	return hostmem_add_fault(&dev_core(dev)->hostmem, addr, len, flags);
}

size_t nicref_hostmem_pages(const struct nicref_dev *dev)
{
	return dev_core_c(dev)->hostmem.used;
}

/* The fault list is looked at only when it holds a fault (the common case, none, costs no
 * call: a frame makes about ten accesses). */
int dev_dma_read_any(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len)
{
	struct dev_core *c = dev_core(dev);
	int rc = c->cfg.ops.dma_read ? c->cfg.ops.dma_read(c->cfg.ops.ctx, addr, buf, len)
		 : c->hostmem.nfault && hostmem_faulted(&c->hostmem, addr, len, NICREF_FAULT_READ)
			 ? -1
			 : hostmem_read(&c->hostmem, addr, buf, len);
	if (rc != 0) {
		c->stats.dma_errors++;
		dev_emit3(dev, NICREF_EV_DMA_ERROR, addr, len, 0);
	}
	return rc;
}

int dev_dma_write_any(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len)
{
	struct dev_core *c = dev_core(dev);
	int rc = c->cfg.ops.dma_write ? c->cfg.ops.dma_write(c->cfg.ops.ctx, addr, buf, len)
		 : c->hostmem.nfault && hostmem_faulted(&c->hostmem, addr, len, NICREF_FAULT_WRITE)
			 ? -1
			 : hostmem_write(&c->hostmem, addr, buf, len);
	if (rc != 0) {
		c->stats.dma_errors++;
		dev_emit3(dev, NICREF_EV_DMA_ERROR, addr, len, 1);
	}
	return rc;
}

void nicref_stats_get(const struct nicref_dev *dev, struct nicref_stats *out)
{
	const struct dev_core *c = dev_core_c(dev);
	*out = c->stats;
	for (unsigned i = 0; i < c->nsubsys; i++)
		if (c->subsys[i]->counters)
			c->subsys[i]->counters(dev, c->state[i], out);
}

/* nicref_dev_check and nicref_dev_check_explain: core's invariants, then each row's in table
 * order; the first broken, and what it saw. */
static int dev_check(const struct nicref_dev *dev, char *buf, size_t len)
{
	const struct dev_core *c = dev_core_c(dev);
	if (c->hostmem.used > c->hostmem.max_pages)
		return dev_broken(buf, len, NICREF_INV_HOSTMEM_WITHIN_BOUND,
				  "host memory uses %zu pages, bound %zu", c->hostmem.used,
				  c->hostmem.max_pages);
	if (c->stats.events != c->trace_seq)
		return dev_broken(buf, len, NICREF_INV_EVENTS_COUNTED,
				  "%llu events counted, trace seq %llu",
				  (unsigned long long)c->stats.events,
				  (unsigned long long)c->trace_seq);
	for (unsigned i = 0; i < c->nsubsys; i++) {
		int rc = c->subsys[i]->check ? c->subsys[i]->check(dev, c->state[i], buf, len) : 0;
		if (rc)
			return rc;
	}
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
