/* The families' invariants fire (nicref/invariants.h, -100 and below), each on a device that
 * holds one object of every family, corrupted on purpose in one field, then put back. And when
 * several are broken, the one reported is the first of the order nicref_dev_check meets them
 * in: the device's own, references, reference counts, then the families in table order, each
 * family's types in its own order (obj/obj_check.c walks every table once and judges after). */
#include <criterion/criterion.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_mkey.h"
#include "driver_steer.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "testlib.h"

struct fx {
	struct tl_dev *t;
	struct nicref_dev *dev;
	uint32_t pd, td, eqn, cqn, tisn, sqn, rqn, rmpn, rqtn, tir_direct, tir_indirect, mkey;
	uint32_t ft, fg;
};

static struct fx up(void)
{
	struct fx f = { .t = tl_up(NULL) };
	struct tl_dev *t = f.t;
	f.dev = t->dev;
	f.pd = tl_alloc_pd(t);
	f.td = tl_alloc_td(t);
	f.eqn = tl_eq(t, 4, 0, 0).eqn;
	f.cqn = tl_cq(t, 4, f.eqn).cqn;
	cr_assert_eq(refdrv_create_tis(&t->d, f.td, 0, &f.tisn), 0, "%s", t->d.error);
	f.sqn = tl_sq(t, f.pd, f.tisn);
	f.rqn = tl_rq(t, f.pd);
	uint64_t buf = tl_hostmem(t, 0x10000);
	struct refdrv_rmp_attr rmp = { .wq = { .buf = buf, .dbr = buf + 0xF000, .wq_type = 1,
					       .log_wq_sz = 4, .log_wq_stride = 6, .pd = f.pd } };
	cr_assert_eq(refdrv_create_rmp(&t->d, &rmp, &f.rmpn), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_create_rqt(&t->d, 2, &f.rqn, 1, &f.rqtn), 0, "%s", t->d.error);
	struct refdrv_tir_attr direct = { .inline_rqn = f.rqn, .td = f.td };
	cr_assert_eq(refdrv_create_tir(&t->d, &direct, &f.tir_direct), 0, "%s", t->d.error);
	struct refdrv_tir_attr indirect = { .indirect = true, .rqt = f.rqtn, .hash_fn = 1,
					    .td = f.td };
	cr_assert_eq(refdrv_create_tir(&t->d, &indirect, &f.tir_indirect), 0, "%s", t->d.error);
	struct refdrv_mkey_attr m = { .access_mode = 0, .pd = f.pd, .len = 4096 };
	cr_assert_eq(refdrv_create_mkey(&t->d, &m, &f.mkey), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_create_flow_table(&t->d, 0, 0, 4, 0, 0, &f.ft), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_create_flow_group(&t->d, 0, f.ft, 0, 15, 0, NULL, &f.fg), 0, "%s",
		     t->d.error);
	struct refdrv_fte e = { .group_id = f.fg, .action = 4, .ndest = 1 };
	e.dest[0].type = 2, e.dest[0].id = f.tir_direct;
	cr_assert_eq(refdrv_set_fte(&f.t->d, 0, f.ft, 3, 0, 0, &e), 0, "%s", t->d.error);
	cr_assert_eq(nicref_dev_check(f.dev), 0);
	return f;
}

static void *get(struct fx *f, enum obj_type type, uint32_t h)
{
	void *o = obj_get(f->dev, type, h);
	cr_assert_not_null(o);
	return o;
}

/* Both entry points return `code`, whose row is `id`. */
static void expect(struct fx *f, int code, const char *id, unsigned line)
{
	char buf[256];
	int rc = nicref_dev_check(f->dev);
	cr_expect_eq(rc, code, "line %u: %s expected (%d), got %d (%s)", line, id, code, rc,
		     nicref_invariant_name(rc) ? nicref_invariant_name(rc) : "?");
	cr_expect_eq(nicref_dev_check_explain(f->dev, buf, sizeof buf), code, "line %u", line);
	cr_expect_str_eq(nicref_invariant_name(code), id, "line %u", line);
}

/* lv set to v breaks invariant ID; put back, the device is whole again. */
#define BREAK(f, lv, v, ID)                                                                     \
	do {                                                                                    \
		__typeof__(lv) old_ = (lv);                                                     \
		(lv) = (v);                                                                     \
		expect((f), NICREF_INV_##ID, #ID, __LINE__);                                    \
		(lv) = old_;                                                                    \
		cr_expect_eq(nicref_dev_check((f)->dev), 0, "line %u: %s put back", __LINE__,   \
			     #ID);                                                              \
	} while (0)

Test(invariant_family, eq)
{
	struct fx f = up();
	struct eq *eq = get(&f, OBJ_EQ, f.eqn);
	struct eq_dev *d = &f.dev->eqd;
	BREAK(&f, eq->hdr.handle, f.eqn + 1, EQ_HANDLE);
	BREAK(&f, eq->st, 0, EQ_STATE);
	BREAK(&f, eq->status, 1, EQ_STATUS);
	BREAK(&f, eq->pc, 1u << 24, EQ_COUNTER_WIDTH);
	BREAK(&f, eq->pc, (eq->cc + (1u << eq->log_size) + 1) & 0xFFFFFF, EQ_WITHIN_SIZE);
	BREAK(&f, eq->intr, (uint8_t)d->nvec, EQ_BUFFER_AND_VECTOR);
	BREAK(&f, eq->mapped, eq->mapped | 1, EQ_TYPE0_UNMAPPED);
	BREAK(&f, eq->mapped, eq->mapped ^ 1ull << 40, EQ_MAP_AGREES);
	/* type 40 mapped to this EQ, which does not take it: the EQ's check sees it first */
	BREAK(&f, d->type_eq[40], (uint16_t)(f.eqn + 1), EQ_MAP_AGREES);
	/* type 40 mapped to an EQ that is not live: no live EQ disagrees, the map does */
	BREAK(&f, d->type_eq[40], 200, EQ_TYPE_MAPPED_LIVE);
	BREAK(&f, d->vec_held, d->vec_held + 1, EQ_HELD_VECTORS_COUNTED);
	d->vec_flags[d->nvec - 1] |= EQ_VEC_HELD; /* the last vector, past the 8-byte steps */
	expect(&f, NICREF_INV_EQ_HELD_VECTORS_COUNTED, "EQ_HELD_VECTORS_COUNTED", __LINE__);
	d->vec_held++;
	cr_expect_eq(nicref_dev_check(f.dev), 0);
	d->vec_flags[d->nvec - 1] &= (uint8_t)~EQ_VEC_HELD;
	d->vec_held--;
	tl_down(f.t);
}

Test(invariant_family, cq)
{
	struct fx f = up();
	struct cq *cq = get(&f, OBJ_CQ, f.cqn);
	struct cq_dev *d = &f.dev->eqd.cq;
	BREAK(&f, cq->hdr.handle, f.cqn + 1, CQ_HANDLE);
	BREAK(&f, cq->st, 0, CQ_STATE);
	BREAK(&f, cq->status, 1, CQ_STATUS);
	BREAK(&f, cq->sn, 4, CQ_FIELD_WIDTH);
	BREAK(&f, cq->pc, 1u << 24, CQ_COUNTER_WIDTH);
	BREAK(&f, cq->log_size, 23, CQ_BUFFER);
	uint8_t st = cq->st;
	cq->st = CQ_ST_FIRED;
	BREAK(&f, cq->pending, true, CQ_HELD_ONLY_ARMED);
	cq->st = st;
	BREAK(&f, cq->on_timers, true, CQ_TIMER_IFF_PERIOD);
	/* on the list without being marked on it */
	BREAK(&f, d->timers, cq, CQ_TIMER_LIST_LINKED);
	BREAK(&f, d->ntimers, d->ntimers + 1, CQ_TIMER_LIST_COUNTED);
	tl_down(f.t);
}

Test(invariant_family, sq_rq_rmp)
{
	struct fx f = up();
	struct sq *sq = get(&f, OBJ_SQ, f.sqn);
	struct rq *rq = get(&f, OBJ_RQ, f.rqn);
	struct rmp *rmp = get(&f, OBJ_RMP, f.rmpn);
	BREAK(&f, sq->hdr.handle, f.sqn + 1, WQ_HANDLE);
	BREAK(&f, sq->state, 2, SQ_STATE);
	BREAK(&f, sq->wq.npas, 0, WQ_PAGE_LIST);
	cr_assert_eq(sq->state, WQ_RST);
	BREAK(&f, sq->wq.sw_counter, 1, WQ_RST_COUNTERS_ZERO);
	BREAK(&f, sq->bf_reg, 8, SQ_BF_REGISTER);
	BREAK(&f, rq->hdr.handle, f.rqn + 1, WQ_HANDLE);
	BREAK(&f, rq->state, 2, RQ_STATE);
	BREAK(&f, rq->wq.hw_counter, 1, WQ_RST_COUNTERS_ZERO);
	BREAK(&f, rq->ntaken, 1, RQ_TAKES_ONLY_FROM_RMP);
	/* An RQ on the RMP holding a WQE in RST; the reference moved with it (PD to RMP). */
	struct obj_hdr *pd = get(&f, OBJ_PD, f.pd);
	pd->refs--, rmp->hdr.refs++;
	rq->on_rmp = true, rq->rmpn = f.rmpn, rq->taken_cap = 1;
	cr_assert_eq(rq->state, WQ_RST);
	BREAK(&f, rq->ntaken, 1, RQ_RST_HOLDS_NOTHING);
	pd->refs++, rmp->hdr.refs--;
	rq->on_rmp = false, rq->rmpn = 0, rq->taken_cap = 0;
	cr_expect_eq(nicref_dev_check(f.dev), 0);
	BREAK(&f, rmp->hdr.handle, f.rmpn + 1, WQ_HANDLE);
	BREAK(&f, rmp->state, WQ_RST, RMP_STATE);
	BREAK(&f, rmp->wq.npas, 0, WQ_PAGE_LIST);
	BREAK(&f, rmp->lwm, rmp->lwm + 1, RMP_LWM_SHOWN);
	tl_down(f.t);
}

Test(invariant_family, mkey)
{
	struct fx f = up();
	struct mkey *m = get(&f, OBJ_MKEY, f.mkey);
	BREAK(&f, m->hdr.handle, f.mkey + 1, MKEY_HANDLE);
	BREAK(&f, m->lr, false, MKEY_CONTEXT_VALID);
	BREAK(&f, m->octwords, m->octword_size + 1, MKEY_TRANSLATIONS);
	BREAK(&f, m->log_entity_size, 12, MKEY_ENTITY_SIZE);
	BREAK(&f, m->length64, true, MKEY_LENGTH64);
	/* delivered and announced, beyond the table's room */
	uint32_t size = m->octword_size, room = m->room;
	m->octword_size = room + 2;
	BREAK(&f, m->octwords, room + 1, MKEY_ROOM);
	m->octword_size = size;
	cr_expect_eq(nicref_dev_check(f.dev), 0);
	/* MKEY_UNREFERENCED cannot be reached through nicref_dev_check: a reference count on an
	 * MKey no object holds breaks REFCOUNT_MATCHES first. */
	BREAK(&f, m->hdr.refs, 1, REFCOUNT_MATCHES);
	/* A KLM MKey of two entries: the second starts where the first ends. */
	struct refdrv_klm klm[2] = { { 0x1000, f.mkey << 8, 0 }, { 0x800, f.mkey << 8, 0x1000 } };
	struct refdrv_mkey_attr ka = { .access_mode = MKEY_AM_KLM, .pd = f.pd, .len = 0x1800,
				       .klm = klm, .nklm = 2 };
	uint32_t ki;
	cr_assert_eq(refdrv_create_mkey(&f.t->d, &ka, &ki), 0, "%s", f.t->d.error);
	struct mkey *k = get(&f, OBJ_MKEY, ki);
	cr_assert_eq(k->octwords, 2);
	cr_expect_eq(nicref_dev_check(f.dev), 0);
	uint64_t *start = (uint64_t *)mkey_klm_starts_c(k);
	cr_assert_eq(start[1], 0x1000);
	BREAK(&f, start[1], 0x800, MKEY_KLM_OFFSETS);
	BREAK(&f, start[0], 1, MKEY_KLM_OFFSETS);
	tl_down(f.t);
}

Test(invariant_family, tir_rqt_tis)
{
	struct fx f = up();
	struct tir *direct = get(&f, OBJ_TIR, f.tir_direct);
	struct tir *indirect = get(&f, OBJ_TIR, f.tir_indirect);
	struct rqt *rqt = get(&f, OBJ_RQT, f.rqtn);
	struct tis *tis = get(&f, OBJ_TIS, f.tisn);
	BREAK(&f, direct->hdr.handle, f.tir_direct + 7, TIR_HANDLE_DISP);
	BREAK(&f, indirect->disp_type, 2, TIR_HANDLE_DISP);
	BREAK(&f, indirect->rx_hash_fn, 0, TIR_CONTEXT_VALID);
	BREAK(&f, direct->lro_enable_mask, 4, TIR_CONTEXT_VALID);
	BREAK(&f, direct->lro_timeout, 32, TIR_LRO_TIMEOUT);
	BREAK(&f, direct->indirect_table, f.rqtn, TIR_DISPATCH_FIELDS);
	BREAK(&f, indirect->inline_rqn, f.rqn, TIR_DISPATCH_FIELDS);
	BREAK(&f, rqt->hdr.handle, f.rqtn + 1, RQT_HANDLE);
	BREAK(&f, rqt->max_size, 3, RQT_SIZES);
	cr_assert_eq(rqt->actual_size, 1);
	BREAK(&f, rqt->rq[1], f.rqn, RQT_TAIL_EMPTY);
	BREAK(&f, tis->prio, 16, TIS_CONTEXT);
	BREAK(&f, tis->hdr.handle, f.tisn + 1, TIS_CONTEXT);
	tl_down(f.t);
}

Test(invariant_family, flow_tables)
{
	struct fx f = up();
	struct flow_table *ft = get(&f, OBJ_FT, f.ft);
	struct flow_group *fg = get(&f, OBJ_FG, f.fg);
	struct fte *e = ft->fte[3];
	cr_assert_not_null(e);
	BREAK(&f, ft->type, 2, FT_HANDLE_TYPE);
	BREAK(&f, fg->end, 16, FG_RANGES);
	BREAK(&f, e->index, 4, FTE_IN_GROUP);
	BREAK(&f, e->hash, e->hash ^ 1, FTE_INDEXED); /* its group's chain no longer finds it */
	BREAK(&f, ft->nfte, ft->nfte + 1, FT_COUNTS);
	BREAK(&f, f.dev->flow.ntables[0], f.dev->flow.ntables[0] + 1, FT_TYPE_COUNTS);
	BREAK(&f, f.dev->flow.root[0], f.ft + 100, FT_ROOTS);
	tl_down(f.t);
}

/* Several broken at once: the first in nicref_dev_check's order, whatever order the one walk
 * met them in. */
Test(invariant_family, first_broken_in_check_order)
{
	struct fx f = up();
	struct rq *rq = get(&f, OBJ_RQ, f.rqn);
	struct rmp *rmp = get(&f, OBJ_RMP, f.rmpn);
	struct tir *tir = get(&f, OBJ_TIR, f.tir_direct);
	struct tis *tis = get(&f, OBJ_TIS, f.tisn);
	struct eq *eq = get(&f, OBJ_EQ, f.eqn);
	struct cq *cq = get(&f, OBJ_CQ, f.cqn);
	struct mkey *m = get(&f, OBJ_MKEY, f.mkey);
	char buf[256];
	uint8_t rmp_state = rmp->state, eq_st = eq->st, cq_st = cq->st, prio = tis->prio;

	/* SQ/RQ/RMP checks RQs before RMPs (RMP's table comes first by type) */
	rmp->state = WQ_RST;
	rq->state = 2;
	expect(&f, NICREF_INV_RQ_STATE, "RQ_STATE", __LINE__);
	rq->state = WQ_RST;
	expect(&f, NICREF_INV_RMP_STATE, "RMP_STATE", __LINE__);
	rmp->state = rmp_state;
	/* TIR/RQT/TIS checks TIRs, then RQTs, then TISs (TIS's table comes first by type) */
	tis->prio = 16;
	tir->lro_enable_mask = 4;
	expect(&f, NICREF_INV_TIR_CONTEXT_VALID, "TIR_CONTEXT_VALID", __LINE__);
	/* the families in order: EQ before CQ, CQ before SQ/RQ/RMP and TIR/RQT/TIS */
	cq->st = 0;
	expect(&f, NICREF_INV_CQ_STATE, "CQ_STATE", __LINE__);
	eq->st = 0;
	expect(&f, NICREF_INV_EQ_STATE, "EQ_STATE", __LINE__);
	/* a reference count broken comes before every family */
	m->hdr.refs = 3;
	expect(&f, NICREF_INV_REFCOUNT_MATCHES, "REFCOUNT_MATCHES", __LINE__);
	/* a reference naming nothing before that; in the SQ/RQ/RMP report, the RQ's first */
	uint32_t cqn = rq->cqn, pd = rmp->pd;
	rmp->pd = 777;
	rq->cqn = 999;
	expect(&f, NICREF_INV_REFERENCE_NAMES_LIVE, "REFERENCE_NAMES_LIVE", __LINE__);
	nicref_dev_check_explain(f.dev, buf, sizeof buf);
	cr_expect_str_eq(buf, "a reference held by SQ/RQ/RMP names CQ 999, not live");
	rq->cqn = cqn;
	nicref_dev_check_explain(f.dev, buf, sizeof buf);
	cr_expect_str_eq(buf, "a reference held by SQ/RQ/RMP names PD 777, not live");
	/* and an EQ's before both: the EQ report comes first */
	uint32_t uar = eq->uar;
	eq->uar = 4000;
	nicref_dev_check_explain(f.dev, buf, sizeof buf);
	cr_expect_str_eq(buf, "a reference held by EQ names UAR 4000, not live");
	/* a table's own bounds before every reference, the last table's too */
	f.dev->obj_charged[OBJ_FT]++;
	expect(&f, NICREF_INV_ICM_CHARGED, "ICM_CHARGED", __LINE__);
	f.dev->obj_charged[OBJ_FT]--;

	eq->uar = uar, rmp->pd = pd, m->hdr.refs = 0, eq->st = eq_st, cq->st = cq_st;
	tir->lro_enable_mask = 0, tis->prio = prio;
	cr_expect_eq(nicref_dev_check(f.dev), 0);
	tl_down(f.t);
}
