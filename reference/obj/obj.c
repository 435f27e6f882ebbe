/* The object tables, their handle ranges and ICM page costs (PRM §3.1, §5.1; D-OBJ-2, D-PG-4),
 * the objects with no context (PD, UAR, TD), and the objects' row of the subsystem table (their
 * invariants: obj/obj_check.c). */
#include <stdlib.h>

#include "cmd/ctl_dev.h"

/* Handle width of each type: EQ numbers are 8 bits (T244 eq_number 08h[7:0]), UAR indices
 * those of the UAR area, every other handle 24 bits (T194 pd, T261 cqn, ...). */
/* A table as wide as the handles the profile lets INIT_HCA open ([base, base + 2^log), D-OBJ-2;
 * the capabilities never exceed the profile's), so a device's directories follow its
 * capabilities: 2^(log + 1) handles, at most 2^24. EQs: 8-bit eqn; UARs: the UAR area. */
static uint32_t table_capacity(const struct nicref_profile *p, enum obj_type t)
{
	unsigned log;
	switch (t) {
	case OBJ_EQ:
		return 1u << 8;
	case OBJ_UAR:
		return DEV_MAX_UARS;
	case OBJ_FC:
		return 1u << 16; /* T436 flow_counter_id 15:0 */
	case OBJ_QP:
		return qp_table_capacity(p); /* D-QP-3 */
	case OBJ_PD:
		log = p->log_max_pd;
		break;
	case OBJ_TD:
		log = p->log_max_transport_domain;
		break;
	default:
		log = p->log_max_objects;
		break;
	}
	return log + 1 < OBJTAB_MAX_LOG ? 1u << (log + 1) : 1u << OBJTAB_MAX_LOG;
}

/* The profile's settings for the object tables: handle ranges the PRM's fields hold (D-OBJ-2),
 * UARs after the init segment (D-UAR-1), a context cost (D-PG-4); the vport's inline mode, one
 * of §7.9.3.1 (4 is reserved, T16's field is 3 bits). */
static int obj_profile_ok(const struct nicref_profile *p)
{
	return p->uar_base != 0 && p->log_max_pd <= DEV_LOG_MAX_PD &&
	       p->log_max_transport_domain <= DEV_LOG_MAX_TD &&
	       p->log_max_objects <= OBJTAB_MAX_LOG && p->contexts_per_page != 0 &&
	       p->vport_min_wqe_inline_mode <= 7 && p->vport_min_wqe_inline_mode != 4 &&
	       p->roce_profile <= ROCE_PROFILE_SEED004;
}

static int obj_create(struct nicref_dev *dev, void **state)
{
	(void)state;
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		if (objtab_init(&dev->obj[t],
				table_capacity(&dev->core.cfg.profile, (enum obj_type)t)) != 0)
			return -1;
	if (eq_dev_init(dev) || mkey_dev_init(dev) || tir_dev_init(dev) || vport_dev_init(dev) ||
	    uar_db_init(dev) || roce_addr_init(dev))
		return -1;
	hca_release_objects(dev);
	return 0;
}

static void obj_destroy(struct nicref_dev *dev, void *state)
{
	(void)state;
	if (dev->obj[OBJ_TYPE_COUNT - 1].dir)
		hca_release_objects(dev);
	roce_addr_fini(dev);
	uar_db_fini(dev);
	vport_dev_fini(dev);
	tir_dev_fini(dev);
	mkey_dev_fini(dev);
	eq_dev_fini(dev);
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		objtab_fini(&dev->obj[t]);
}

static void obj_reset(struct nicref_dev *dev, void *state)
{
	(void)state;
	hca_release_objects(dev);
}

/* Virtual time moved: held completion events (PRM §7.13.14) and held interrupts (§7.13.15) fire
 * in the order of their deadlines, each at its deadline, as a device running continuously
 * would: a released completion event requests its interrupt at its own deadline, against the
 * vector's timer as it stood then, so the outcome does not depend on how the clock was stepped
 * (D-CQ-6, D-EQ-11). At equal deadlines the completion event goes first, so its request
 * coalesces into the held interrupt. */
static void obj_tick(struct nicref_dev *dev, void *state)
{
	(void)state;
	const uint64_t now = dev->core.now_ns;
	for (;;) {
		uint64_t cq = 0, eq = 0;
		bool c = cq_next_due(dev, &cq) && cq <= now;
		bool e = eq_next_due(dev, &eq) && eq <= now;
		if (c && (!e || cq <= eq))
			cq_fire_next(dev);
		else if (e)
			eq_fire_next(dev);
		else
			return;
	}
}

/* The earliest held completion event or held interrupt (a scan of the held CQs and, when one is
 * held, of the vectors): the clock stops there (core/subsys.h), so each fires at its deadline
 * even when other rows' deadlines fall in the same advance. */
static bool obj_next_deadline(const struct nicref_dev *dev, const void *state, uint64_t *t)
{
	(void)state;
	uint64_t cq = 0, eq = 0;
	bool c = cq_next_due(dev, &cq), e = eq_next_due(dev, &eq);
	if (c || e)
		*t = !e || (c && cq <= eq) ? cq : eq;
	return c || e;
}

static void free_obj(void *ctx, void *obj)
{
	dev_free(ctx, obj); /* ctx: the device */
}

void hca_release_objects(struct nicref_dev *dev)
{
	/* What the layers above hold for the objects goes first, without completions: the CQs
	 * go too (LRO sessions, D-LRO-10). */
	dev_notify(dev, DEV_NOTE_OBJECTS_RELEASED, 0);
	/* The reverse of the creation order of §3.1, so nothing is freed while named. */
	flow_dev_reset(dev);
	tir_dev_reset(dev);
	wq_dev_reset(dev);
	cq_dev_reset(dev);
	eq_dev_reset(dev);
	mkey_dev_reset(dev);
	vport_dev_reset(dev);
	uar_db_reset(dev);
	roce_addr_reset(dev);
	qp_dev_release(dev);
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++) {
		objtab_reset(&dev->obj[t], 0, 0, free_obj, dev);
		dev->obj_charged[t] = 0;
	}
}

void *obj_get(const struct nicref_dev *dev, enum obj_type type, uint32_t h)
{
	return (unsigned)type < OBJ_TYPE_COUNT ? objtab_get(&dev->obj[type], h) : NULL;
}

bool obj_in_range(const struct nicref_dev *dev, enum obj_type type, uint32_t h)
{
	return (unsigned)type < OBJ_TYPE_COUNT && h >= dev->obj[type].base &&
	       h < dev->obj[type].limit;
}

void *obj_find(const struct nicref_dev *dev, enum obj_type type, uint32_t h,
	       enum nicref_cmd_rule beyond, enum nicref_cmd_rule missing, enum nicref_cmd_rule *r)
{
	void *o = obj_get(dev, type, h);
	*r = o ? NICREF_RULE_NONE : obj_in_range(dev, type, h) ? missing : beyond;
	return o;
}

/* 2^log handles from base, within the table. */
static void open_range(struct nicref_dev *dev, enum obj_type t, uint32_t base, uint64_t log)
{
	uint64_t limit = (uint64_t)base + (1ull << (log < 32 ? log : 32));
	objtab_reset(&dev->obj[t], base, limit > UINT32_MAX ? UINT32_MAX : (uint32_t)limit, NULL,
		     NULL);
}

void obj_open_tables(struct nicref_dev *dev)
{
	/* T145 counts: 2^log_max_<type> objects of each type (D-OBJ-2). */
	open_range(dev, OBJ_PD, DEV_PD_BASE, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_pd));
	open_range(dev, OBJ_TD, DEV_TD_BASE,
		   CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_transport_domain));
	open_range(dev, OBJ_MKEY, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_mkey));
	open_range(dev, OBJ_EQ, 0, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_eq));
	open_range(dev, OBJ_CQ, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_cq));
	open_range(dev, OBJ_TIS, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_tis));
	open_range(dev, OBJ_SQ, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_sq));
	open_range(dev, OBJ_RMP, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_rmp));
	open_range(dev, OBJ_RQ, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_rq));
	open_range(dev, OBJ_RQT, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_rqt));
	open_range(dev, OBJ_TIR, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_tir));
	flow_open_tables(dev);
	qp_open_table(dev);
	/* mlx5_ifc.h names no UMEM limit: umem_ids from 1, as many as the profile's other 24-bit
	 * objects (docs/umem.md D-UMEM-1). */
	open_range(dev, OBJ_UMEM, 1, dev->core.cfg.profile.log_max_objects);
	/* PRM §7.2, T145: UAR area = 1 MB * 2^uar_sz; a UAR page is 4 KB * 2^log_uar_page_sz.
	 * D-UAR-1: the first profile.uar_base 4 KB pages of BAR0 hold the init segment; UARs
	 * start at the first UAR page past them. */
	unsigned uar_sz = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, uar_sz);
	unsigned log_page = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_uar_page_sz);
	uint64_t uars = log_page > 8 + uar_sz ? 1 : 1ull << (8 + uar_sz - log_page);
	uint64_t page = 4096ull << (log_page < 32 ? log_page : 32);
	uint64_t base = ((uint64_t)dev->core.cfg.profile.uar_base * 4096 + page - 1) / page;
	objtab_reset(&dev->obj[OBJ_UAR], (uint32_t)(base < DEV_MAX_UARS ? base : DEV_MAX_UARS),
		     uars < DEV_MAX_UARS ? (uint32_t)uars : DEV_MAX_UARS, NULL, NULL);
}

/* Regular pages the contexts of one type take beyond the init pages. D-PG-5: the init pages
 * hold the first page of EQ contexts, since the first EQ must exist before a Page Request
 * (PRM §7.13.10.2, an EQE) could ask for its page: the first contexts_per_page EQs are free. */
static uint32_t pages_for(const struct nicref_dev *dev, enum obj_type type, uint32_t contexts)
{
	uint32_t per = dev->core.cfg.profile.contexts_per_page;
	uint32_t pages = (uint32_t)(((uint64_t)contexts + per - 1) / per);
	return type == OBJ_EQ && pages > 0 ? pages - 1 : pages;
}

uint32_t obj_pages_required(const struct nicref_dev *dev)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		n += pages_for(dev, (enum obj_type)t, dev->obj_charged[t]);
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

int obj_charge(struct nicref_dev *dev, enum obj_type type)
{
	if (!obj_takes_icm(type))
		return 0;
	uint32_t now = pages_for(dev, type, dev->obj_charged[type]);
	uint32_t after = pages_for(dev, type, dev->obj_charged[type] + 1);
	const struct nicref_profile *p = &dev->core.cfg.profile;
	uint64_t need = (uint64_t)p->boot_pages + p->init_pages + obj_pages_required(dev) +
			(after - now);
	if (need > dev->core.pages.count) {
		/* PRM §7.13.10.2 T91/T92: the device asks for what it misses (num_pages > 0, D-PG-1),
		 * once until the next MANAGE_PAGES (L3969). */
		uint32_t missing = (uint32_t)(need - dev->core.pages.count);
		if (need > dev->hca.pages_wanted)
			dev->hca.pages_wanted = (uint32_t)need;
		if (dev->hca.page_request_armed) {
			uint8_t eqe[EQE_SIZE] = { 0 };
			PRM_SET(eqe_page_request, num_pages, eqe, sizeof eqe, missing);
			dev->hca.page_request_armed = false;
			/* D-PG-6: a command waits only when SW was told (the EQE written). */
			dev->hca.page_request_posted =
				eq_post_event(dev, EQ_EVENT_PAGE_REQUEST, eqe) == 0;
		}
		return -1;
	}
	dev->obj_charged[type]++;
	return 0;
}

void obj_uncharge(struct nicref_dev *dev, enum obj_type type)
{
	if (!obj_takes_icm(type))
		return;
	NICREF_ASSERT(dev->obj_charged[type] > 0);
	dev->obj_charged[type]--;
}

int64_t obj_alloc_plain(struct nicref_dev *dev, enum obj_type type)
{
	struct obj_hdr *o = dev_calloc(dev, 1, sizeof *o);
	if (!o)
		return -2;
	int64_t h = objtab_alloc(&dev->obj[type], o);
	if (h < 0)
		dev_free(dev, o);
	else
		o->handle = (uint32_t)h;
	return h;
}

int obj_free_plain(struct nicref_dev *dev, enum obj_type type, uint32_t h)
{
	struct obj_hdr *o = obj_get(dev, type, h);
	if (!o)
		return -1;
	if (o->refs)
		return -2; /* D-OBJ-1 */
	dev_free(dev, objtab_remove(&dev->obj[type], h));
	return 0;
}

/* The objects' row of the subsystem table (core/subsys.h). */
const struct dev_subsys obj_subsys = {
	.name = "objects",
	.profile_ok = obj_profile_ok,
	.create = obj_create,
	.destroy = obj_destroy,
	.reset = obj_reset,
	.tick = obj_tick,
	.next_deadline = obj_next_deadline,
	.check = obj_dev_check,
	/* for the whole control plane (cmd/ctl_snap.c) */
	.snap_save = ctl_snap_save,
	.snap_restore = ctl_snap_restore,
	.snap_free = ctl_snap_free,
};
