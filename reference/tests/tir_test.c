/* TIR: CREATE/MODIFY/DESTROY/QUERY_TIR (PRM §7.5 T44-T48, §12.8 T281-T296). Decisions:
 * docs/tir.md (D-TIR-*). */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/tir.h"
#include "testlib.h"

#define ETH_CAP(t, n)                                                                           \
	(t)->dev->core.caps.cur[CAP_ETH_OFFLOAD], CAP_BYTES,                                         \
		PRM_FIELD(per_protocol_networking_offload_caps, n)

struct tir_in {
	unsigned disp_type, lro_timeout, lro_mask, lro_msg, hash_fn, self_lb;
	bool symmetric, tunneled;
	uint32_t inline_rqn, table, td, outer, inner;
	const uint8_t *key; /* 40 bytes or NULL */
};

static void put_ctx(struct tl_dev *t, const char *L, const struct tir_in *a)
{
	tl_set(t, L, "disp_type", a->disp_type);
	tl_set(t, L, "lro_timeout_period_usecs", a->lro_timeout);
	tl_set(t, L, "lro_enable_mask", a->lro_mask);
	tl_set(t, L, "lro_max_msg_sz", a->lro_msg);
	tl_set(t, L, "inline_rqn", a->inline_rqn);
	tl_set(t, L, "rx_hash_symmetric", a->symmetric);
	tl_set(t, L, "tunneled_offload_en", a->tunneled);
	tl_set(t, L, "indirect_table", a->table);
	tl_set(t, L, "rx_hash_fn", a->hash_fn);
	tl_set(t, L, "self_lb_en", a->self_lb);
	tl_set(t, L, "transport_domain", a->td);
	if (a->key)
		tl_set_bytes(t, L, "rx_hash_toeplitz_key", a->key, 40);
	tl_set(t, L, "rx_hash_field_selector_outer", a->outer);
	tl_set(t, L, "rx_hash_field_selector_inner", a->inner);
}

static int create_tir(struct tl_dev *t, const struct tir_in *a)
{
	tl_begin(t, "create_tir_in", "CREATE_TIR");
	put_ctx(t, "create_tir_in", a);
	return tl_run_paged(t, 0x110, 16);
}

static uint32_t tir(struct tl_dev *t, const struct tir_in *a)
{
	cr_assert_eq(create_tir(t, a), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	return (uint32_t)tl_get(t, "create_tir_out", "tirn");
}

static int modify_tir(struct tl_dev *t, uint32_t tirn, uint64_t mask, const struct tir_in *a)
{
	tl_begin(t, "modify_tir_in", "MODIFY_TIR");
	tl_set(t, "modify_tir_in", "tirn", tirn);
	tl_set(t, "modify_tir_in", "modify_bitmask_63_32", mask >> 32);
	tl_set(t, "modify_tir_in", "modify_bitmask_31_0", mask & 0xFFFFFFFF);
	put_ctx(t, "modify_tir_in", a);
	return tl_run_paged(t, 0x110, 16);
}

static int by_tirn(struct tl_dev *t, const char *opcode, const char *layout, uint32_t tirn,
		   uint32_t out_len)
{
	tl_begin(t, layout, opcode);
	tl_set(t, layout, "tirn", tirn);
	return tl_run_paged(t, 16, out_len);
}
#define query_tir(t, n) by_tirn((t), "QUERY_TIR", "query_tir_in", (n), 0x110)
#define destroy_tir(t, n) by_tirn((t), "DESTROY_TIR", "destroy_tir_in", (n), 16)

static uint32_t make_rqt(struct tl_dev *t, uint32_t rqn)
{
	tl_begin(t, "create_rqt_in", "CREATE_RQT");
	tl_set(t, "create_rqt_in", "rqt_max_size", 1);
	tl_set(t, "create_rqt_in", "rqt_actual_size", 1);
	tl_set_elem(t, "create_rqt_in", "rq_num", 0, rqn);
	cr_assert_eq(tl_run_paged(t, 0x114, 16), 0);
	return (uint32_t)tl_get(t, "create_rqt_out", "rqtn");
}

static uint32_t refs(struct tl_dev *t, enum obj_type type, uint32_t h)
{
	struct obj_hdr *o = obj_get(t->dev, type, h);
	cr_assert(o);
	return o->refs;
}

struct env {
	struct tl_dev *t;
	uint32_t pd, td, rq, rq2, rqt;
};

static struct env up(const struct nicref_profile *p)
{
	struct env e = { tl_up(p), 0, 0, 0, 0, 0 };
	e.pd = tl_alloc_pd(e.t);
	e.td = tl_alloc_td(e.t);
	e.rq = tl_rq(e.t, e.pd);
	e.rq2 = tl_rq(e.t, e.pd);
	e.rqt = make_rqt(e.t, e.rq2);
	return e;
}

static const uint8_t key40[40] = { 0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
				   0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
				   0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
				   0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa };

struct expect {
	const char *name;
	uint64_t v;
};

static void expect_ctx(struct tl_dev *t, const struct expect *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(tl_get(t, "query_tir_out", x[i].name), x[i].v, "%s: 0x%llx", x[i].name,
			     (unsigned long long)tl_get(t, "query_tir_out", x[i].name));
}

Test(tir, query_round_trips_every_context_field)
{
	struct env e = up(NULL);
	struct tl_dev *t = e.t;
	/* The default profile's LRO periods (T147 30h-3Ch): 8, 16, 32, 1024 µs. */
	cr_assert_eq(prm_get(ETH_CAP(t, lro_timer_supported_periods_0)), 8);
	cr_assert_eq(prm_get(ETH_CAP(t, lro_timer_supported_periods_1)), 16);
	cr_assert_eq(prm_get(ETH_CAP(t, lro_timer_supported_periods_2)), 32);
	cr_assert_eq(prm_get(ETH_CAP(t, lro_timer_supported_periods_3)), 1024);

	/* Indirect, Toeplitz, outer selector IPv6 + every field (T47 bits 0-4). */
	struct tir_in ind = { .disp_type = 1, .lro_timeout = 1024, .lro_mask = 3, .lro_msg = 0xFF,
			      .hash_fn = 2, .self_lb = 3, .symmetric = true, .table = e.rqt,
			      .td = e.td, .outer = 0x8000001F, .key = key40 };
	uint32_t a = tir(t, &ind);
	cr_assert_eq(query_tir(t, a), 0);
	struct expect xa[] = {
		{ "disp_type", 1 },	     { "lro_timeout_period_usecs", 1024 },
		{ "lro_enable_mask", 3 },   { "lro_max_msg_sz", 0xFF },
		{ "inline_rqn", 0 },	     { "rx_hash_symmetric", 1 },
		{ "tunneled_offload_en", 0 }, { "indirect_table", e.rqt },
		{ "rx_hash_fn", 2 },	     { "self_lb_en", 3 },
		{ "transport_domain", e.td }, { "rx_hash_field_selector_outer", 0x8000001F },
		{ "rx_hash_field_selector_inner", 0 },
	};
	expect_ctx(t, xa, sizeof xa / sizeof xa[0]);
	uint8_t key[40];
	tl_get_bytes(t, "query_tir_out", "rx_hash_toeplitz_key", key, sizeof key);
	cr_expect_arr_eq(key, key40, 40, "T45 28h-4Ch Toeplitz key");

	/* Indirect, inverted XOR8, inner selector (needs tunneled_offload_en, D-TIR-2). */
	struct tir_in inner = { .disp_type = 1, .hash_fn = 1, .tunneled = true, .table = e.rqt,
				.td = e.td, .inner = 0x40000003 };
	uint32_t b = tir(t, &inner);
	cr_assert_eq(query_tir(t, b), 0);
	struct expect xb[] = {
		{ "tunneled_offload_en", 1 }, { "rx_hash_fn", 1 },
		{ "rx_hash_field_selector_inner", 0x40000003 },
		{ "rx_hash_field_selector_outer", 0 }, { "lro_enable_mask", 0 },
	};
	expect_ctx(t, xb, sizeof xb / sizeof xb[0]);
	tl_get_bytes(t, "query_tir_out", "rx_hash_toeplitz_key", key, sizeof key);
	for (int i = 0; i < 40; i++)
		cr_expect_eq(key[i], 0, "no key for XOR8");

	/* Direct, IPv4 LRO at a supported period. */
	struct tir_in dir = { .disp_type = 0, .lro_timeout = 32, .lro_mask = 1, .lro_msg = 0x40,
			      .self_lb = 2, .inline_rqn = e.rq, .td = e.td };
	uint32_t c = tir(t, &dir);
	cr_assert_eq(query_tir(t, c), 0);
	struct expect xc[] = {
		{ "disp_type", 0 },	      { "lro_timeout_period_usecs", 32 },
		{ "lro_enable_mask", 1 },    { "lro_max_msg_sz", 0x40 },
		{ "inline_rqn", e.rq },      { "indirect_table", 0 },
		{ "rx_hash_fn", 0 },	      { "self_lb_en", 2 },
		{ "transport_domain", e.td },
	};
	expect_ctx(t, xc, sizeof xc / sizeof xc[0]);
	/* Every field of T45 was set to a non-default value in one of the three. */
	const struct nicref_layout *l = nicref_layout_find("tirc");
	for (uint32_t i = 0; i < l->nfields; i++) {
		const char *f = l->fields[i].name;
		bool seen = !strcmp(f, "rx_hash_toeplitz_key") ||
			    !strcmp(f, "tunneled_offload_en") ||
			    !strcmp(f, "rx_hash_field_selector_inner");
		for (size_t k = 0; k < sizeof xa / sizeof xa[0]; k++)
			seen |= !strcmp(f, xa[k].name) && xa[k].v != 0;
		for (size_t k = 0; k < sizeof xc / sizeof xc[0]; k++)
			seen |= !strcmp(f, xc[k].name) && xc[k].v != 0;
		cr_expect(seen, "T45 field %s round-tripped at a non-default value", f);
	}
	/* D-OBJ-1: each names its domain and its RQ or RQT. */
	cr_expect_eq(refs(t, OBJ_TD, e.td), 3);
	cr_expect_eq(refs(t, OBJ_RQT, e.rqt), 2);
	cr_expect_eq(refs(t, OBJ_RQ, e.rq), 1);
	tl_down_clean(t);
}

Test(tir, lro_period_is_adjusted)
{
	struct env e = up(NULL);
	struct tl_dev *t = e.t;
	/* T45 10h: an unsupported period becomes the nearest supported one below it; below the
	 * smallest LRO does not work (0). D-TIR-4. */
	static const struct { unsigned mask, want, got; } cases[] = {
		{ 1, 20, 16 }, { 2, 7, 0 }, { 3, 5000, 1024 }, { 1, 8, 8 }, { 1, 1023, 32 },
	}; /* with LRO off the period is reserved: tir/reserved_by_setting */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tir_in d = { .lro_mask = cases[i].mask, .lro_timeout = cases[i].want,
				    .lro_msg = 8, .inline_rqn = e.rq, .td = e.td };
		uint32_t n = tir(t, &d);
		cr_assert_eq(query_tir(t, n), 0);
		cr_expect_eq(tl_get(t, "query_tir_out", "lro_timeout_period_usecs"), cases[i].got,
			     "requested %u", cases[i].want);
		cr_expect_eq(tl_get(t, "query_tir_out", "lro_max_msg_sz"), 8);
	}
	tl_down_clean(t);
}

Test(tir, modify_groups)
{
	struct env e = up(NULL);
	struct tl_dev *t = e.t;
	struct tir_in ind = { .disp_type = 1, .hash_fn = 2, .table = e.rqt, .td = e.td,
			      .outer = 0x3, .key = key40 };
	uint32_t a = tir(t, &ind);
	uint32_t rqt2 = make_rqt(t, e.rq);

	/* Bit 0 LRO only, the other groups left 0 (T286 "Only fields requested by the mask
	 * should be valid. Other fields are reserved", D-MOD-1): the others stay. */
	struct tir_in m = { .lro_mask = 2, .lro_timeout = 40, .lro_msg = 3 };
	cr_assert_eq(modify_tir(t, a, 1, &m), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	cr_assert_eq(query_tir(t, a), 0);
	struct expect x0[] = { { "lro_enable_mask", 2 }, { "lro_timeout_period_usecs", 32 },
			       { "lro_max_msg_sz", 3 },	 { "rx_hash_fn", 2 },
			       { "indirect_table", e.rqt }, { "self_lb_en", 0 },
			       { "rx_hash_field_selector_outer", 3 } };
	expect_ctx(t, x0, sizeof x0 / sizeof x0[0]);

	/* Bit 1 indirect_table, bit 2 hash, bit 4 self_lb_en together (atomic). */
	struct tir_in m2 = { .hash_fn = 1, .symmetric = true, .outer = 0x4000000C, .table = rqt2,
			     .self_lb = 1 };
	cr_assert_eq(modify_tir(t, a, 0x16, &m2), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	cr_assert_eq(query_tir(t, a), 0);
	struct expect x1[] = { { "indirect_table", rqt2 },
			       { "rx_hash_fn", 1 },
			       { "rx_hash_symmetric", 1 },
			       { "rx_hash_field_selector_outer", 0x4000000C },
			       { "self_lb_en", 1 },
			       { "lro_enable_mask", 2 } };
	expect_ctx(t, x1, sizeof x1 / sizeof x1[0]);
	uint8_t key[40];
	tl_get_bytes(t, "query_tir_out", "rx_hash_toeplitz_key", key, sizeof key);
	for (int i = 0; i < 40; i++)
		cr_expect_eq(key[i], 0, "the key is reserved for XOR8");
	/* The reference moved from the first RQT to the second (D-OBJ-1). */
	cr_expect_eq(refs(t, OBJ_RQT, e.rqt), 0);
	cr_expect_eq(refs(t, OBJ_RQT, rqt2), 1);

	/* Atomic: a valid LRO change with an invalid hash change changes nothing. */
	struct tir_in bad = { .lro_mask = 1, .lro_timeout = 8, .hash_fn = 0 };
	tl_refused(t, modify_tir(t, a, 0x5, &bad), TIR_INDIRECT_NO_HASH);
	cr_assert_eq(query_tir(t, a), 0);
	expect_ctx(t, x1, sizeof x1 / sizeof x1[0]);

	/* T48: bits 3 and 5-63 are not defined. */
	tl_refused(t, modify_tir(t, a, 0x9, &m), TIR_MODIFY_BITMASK);
	tl_refused(t, modify_tir(t, a, 1ull << 32 | 1, &m), TIR_MODIFY_BITMASK);
	/* Bit 1 on a Direct TIR; bit 2 with a hash function on it. */
	struct tir_in dir = { .inline_rqn = e.rq, .td = e.td };
	uint32_t d = tir(t, &dir);
	struct tir_in tab = { .table = rqt2 };
	tl_refused(t, modify_tir(t, d, 0x2, &tab), TIR_MODIFY_TABLE_DIRECT);
	struct tir_in h = { .hash_fn = 2 };
	tl_refused(t, modify_tir(t, d, 0x4, &h), TIR_DIRECT_HASH);
	/* Bit 1 naming no RQT. */
	struct tir_in none = { .table = rqt2 + 5 };
	tl_refused(t, modify_tir(t, a, 0x2, &none), TIR_RQT_INVALID);
	/* Bit 4 needs HCA_CAP.self_lb_en_modifiable (T147 00h[23]; the test clears it). */
	prm_set(ETH_CAP(t, self_lb_en_modifiable), 0);
	struct tir_in lb = { .self_lb = 1 };
	tl_refused(t, modify_tir(t, a, 0x10, &lb), TIR_MODIFY_SELF_LB_FIXED);
	prm_set(ETH_CAP(t, self_lb_en_modifiable), 1);
	tl_refused(t, modify_tir(t, a + 100, 1, &m), TIR_NOT_FOUND);
	tl_refused(t, modify_tir(t, 0, 1, &m), TIR_INDEX_OUT_OF_RANGE);
	tl_down_clean(t);
}

Test(tir, create_refusals)
{
	struct env e = up(NULL);
	struct tl_dev *t = e.t;
	struct tir_in ok = { .disp_type = 1, .hash_fn = 2, .table = e.rqt, .td = e.td, .outer = 3 };
	struct tir_in x;
#define REFUSE(field, value, rule)                                                              \
	do {                                                                                    \
		x = ok;                                                                         \
		x.field = value;                                                                \
		tl_refused(t, create_tir(t, &x), rule);                                          \
	} while (0)
	REFUSE(disp_type, 2, TIR_DISP_TYPE);
	REFUSE(hash_fn, 3, TIR_HASH_FN);
	REFUSE(hash_fn, 0, TIR_INDIRECT_NO_HASH);
	REFUSE(inner, 1, TIR_HASH_BOTH_SELECTORS);
	REFUSE(outer, 0x20, TIR_HASH_FIELDS_RESERVED);
	REFUSE(outer, 0x20000000, TIR_HASH_FIELDS_RESERVED);
	REFUSE(lro_mask, 4, TIR_LRO_MASK_RESERVED);
	REFUSE(td, e.td + 1, TIR_TD_INVALID);
	REFUSE(td, 0, TIR_TD_OUT_OF_RANGE);
	REFUSE(table, e.rqt + 1, TIR_RQT_INVALID);
	REFUSE(table, 0, TIR_RQT_OUT_OF_RANGE);
	x = ok;
	x.outer = 0;
	x.inner = 1;
	tl_refused(t, create_tir(t, &x), TIR_INNER_NOT_TUNNELED);
	struct tir_in dir = { .inline_rqn = e.rq, .td = e.td };
	ok = dir;
	REFUSE(hash_fn, 1, TIR_DIRECT_HASH);
	REFUSE(inline_rqn, e.rq2 + 1, TIR_RQ_INVALID);
	REFUSE(inline_rqn, 0, TIR_RQ_OUT_OF_RANGE);
	REFUSE(inline_rqn, 0xFFFFFF, TIR_RQ_OUT_OF_RANGE);
	/* Fields a setting makes reserved (D-TIR-3): tir/reserved_by_setting. */
	/* Capabilities (T147, not writable by SET_HCA_CAP: the test clears them). */
	prm_set(ETH_CAP(t, lro_cap), 0);
	REFUSE(lro_mask, 1, TIR_LRO_UNSUPPORTED);
	prm_set(ETH_CAP(t, lro_cap), 1);
	prm_set(ETH_CAP(t, self_lb_uc), 0);
	REFUSE(self_lb, 1, TIR_SELF_LB_UNSUPPORTED);
	struct tir_in mc_only = { .inline_rqn = e.rq, .td = e.td, .self_lb = 2 };
	cr_expect_eq(create_tir(t, &mc_only), 0);
	prm_set(ETH_CAP(t, self_lb_uc), 1);
	prm_set(ETH_CAP(t, self_lb_mc), 0);
	REFUSE(self_lb, 2, TIR_SELF_LB_UNSUPPORTED);
	prm_set(ETH_CAP(t, self_lb_mc), 1);
#undef REFUSE
	cr_expect_eq(refs(t, OBJ_RQ, e.rq), 1, "refused creates took no reference");
	tl_down_clean(t);
}

Test(tir, references_and_destroy)
{
	struct env e = up(NULL);
	struct tl_dev *t = e.t;
	struct tir_in dir = { .inline_rqn = e.rq, .td = e.td };
	struct tir_in ind = { .disp_type = 1, .hash_fn = 1, .table = e.rqt, .td = e.td,
			      .outer = 1 };
	uint32_t d = tir(t, &dir), i = tir(t, &ind);
	/* D-OBJ-1 / D-RQ-1: what a TIR names cannot go first. */
	tl_refused(t, refdrv_destroy_rq(&t->d, e.rq), RQ_IN_USE);
	tl_begin(t, "destroy_rqt_in", "DESTROY_RQT");
	tl_set(t, "destroy_rqt_in", "rqtn", e.rqt);
	tl_refused(t, tl_run_paged(t, 16, 16), RQT_IN_USE);
	uint8_t in[16] = { 0 }, out[16];
	nicref_field_set(in, 16, tl_field("dealloc_transport_domain_in", "opcode"),
			 (uint64_t)nicref_opcode_find("DEALLOC_TRANSPORT_DOMAIN"));
	nicref_field_set(in, 16, tl_field("dealloc_transport_domain_in", "transport_domain"), e.td);
	tl_refused(t, refdrv_cmd(&t->d, in, 16, out, 16), TD_IN_USE);
	/* D-TIR-1: a TIR a flow table entry names (simulated: flow tables come later). */
	struct obj_hdr *h = obj_get(t->dev, OBJ_TIR, d);
	h->refs++;
	tl_refused(t, destroy_tir(t, d), TIR_IN_USE);
	h->refs--;
	tl_refused(t, destroy_tir(t, i + 1), TIR_NOT_FOUND);
	tl_refused(t, destroy_tir(t, 1u << 22), TIR_INDEX_OUT_OF_RANGE);
	tl_refused(t, query_tir(t, i + 1), TIR_NOT_FOUND);
	cr_expect_eq(destroy_tir(t, d), 0);
	cr_expect_eq(destroy_tir(t, i), 0);
	cr_expect_eq(refdrv_destroy_rq(&t->d, e.rq), 0);
	tl_begin(t, "destroy_rqt_in", "DESTROY_RQT");
	tl_set(t, "destroy_rqt_in", "rqtn", e.rqt);
	cr_expect_eq(tl_run_paged(t, 16, 16), 0);
	cr_expect_eq(refdrv_cmd(&t->d, in, 16, out, 16), 0);
	tl_down_clean(t);
}

Test(tir, count_limit_and_reset)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_max_objects = 1; /* 2^1 TIRs (T145 log_max_tir follows the profile) */
	struct env e = up(&p);
	struct tl_dev *t = e.t;
	struct tir_in dir = { .inline_rqn = e.rq, .td = e.td };
	tir(t, &dir);
	tir(t, &dir);
	tl_refused(t, create_tir(t, &dir), TIR_EXHAUSTED);
	cr_expect_eq(refs(t, OBJ_RQ, e.rq), 2);
	/* TEARDOWN/reset destroys TIRs, RQTs and TISs with everything else. */
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	nicref_dev_reset(t->dev);
	struct nicref_hca_info info;
	nicref_hca_info(t->dev, &info);
	cr_expect_eq(info.tirs + info.rqts + info.tiss + info.rqs, 0);
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	refdrv_fini(&t->d);
	nicref_dev_destroy(t->dev);
	free(t);
}

/* Every field of the TIR, TIS and RQT contexts at the coordinates of its PRM row (T45, T47,
 * T50, T59; tunneled_offload_en, which T44 does not place, at the public mlx5 interface
 * layout's 20h[29], D-TIR-2, D-TIR-8), and no other field. */
Test(tir, layouts_at_prm_coordinates)
{
	static const struct {
		const char *layout, *name;
		unsigned off, msb, lsb, bits;
	} rows[] = {
		{ "tirc", "disp_type", 0x04, 31, 28, 4 },
		{ "tirc", "lro_timeout_period_usecs", 0x10, 27, 12, 16 },
		{ "tirc", "lro_enable_mask", 0x10, 11, 8, 4 },
		{ "tirc", "lro_max_msg_sz", 0x10, 7, 0, 8 },
		{ "tirc", "inline_rqn", 0x1C, 23, 0, 24 },
		{ "tirc", "rx_hash_symmetric", 0x20, 31, 31, 1 },
		{ "tirc", "tunneled_offload_en", 0x20, 29, 29, 1 },
		{ "tirc", "indirect_table", 0x20, 23, 0, 24 },
		{ "tirc", "rx_hash_fn", 0x24, 31, 28, 4 },
		{ "tirc", "self_lb_en", 0x24, 25, 24, 2 },
		{ "tirc", "transport_domain", 0x24, 23, 0, 24 },
		{ "tirc", "rx_hash_toeplitz_key", 0x28, 31, 0, 320 },
		{ "tirc", "rx_hash_field_selector_outer", 0x50, 31, 0, 32 },
		{ "tirc", "rx_hash_field_selector_inner", 0x54, 31, 0, 32 },
		{ "rx_hash_field_select", "l3_prot_type", 0x00, 31, 31, 1 },
		{ "rx_hash_field_select", "l4_prot_type", 0x00, 30, 30, 1 },
		{ "rx_hash_field_select", "selected_fields", 0x00, 29, 0, 30 },
		{ "tisc", "prio", 0x00, 19, 16, 4 },
		{ "tisc", "transport_domain", 0x24, 23, 0, 24 },
		{ "rqtc", "rqt_max_size", 0x14, 15, 0, 16 },
		{ "rqtc", "rqt_actual_size", 0x18, 15, 0, 16 },
		{ "rqtc", "rq_num", 0xF0, 31, 0, 32 },
	};
	const char *layouts[] = { "tirc", "rx_hash_field_select", "tisc", "rqtc" };
	unsigned n[4] = { 0 };
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct nicref_field *f = tl_field(rows[i].layout, rows[i].name);
		cr_expect_eq(f->prm_offset, rows[i].off, "%s.%s offset", rows[i].layout,
			     rows[i].name);
		cr_expect_eq(f->msb, rows[i].msb, "%s.%s msb", rows[i].layout, rows[i].name);
		cr_expect_eq(f->lsb, rows[i].lsb, "%s.%s lsb", rows[i].layout, rows[i].name);
		cr_expect_eq(f->bit_width, rows[i].bits, "%s.%s width", rows[i].layout,
			     rows[i].name);
		for (unsigned k = 0; k < 4; k++)
			n[k] += !strcmp(rows[i].layout, layouts[k]);
	}
	for (unsigned k = 0; k < 4; k++)
		cr_expect_eq(nicref_layout_find(layouts[k])->nfields, n[k], "%s: no other field",
			     layouts[k]);
	/* The sizes: T44 to ECh (F0h bytes), T46 one dword, T49 to 9Ch, T58 F0h fixed. */
	cr_expect_eq(nicref_layout_find("tirc")->size, 0xF0);
	cr_expect_eq(nicref_layout_find("rx_hash_field_select")->size, 4);
	cr_expect_eq(nicref_layout_find("tisc")->size, 0xA0);
	cr_expect_eq(nicref_layout_find("rqtc")->size, 0xF0);
}

/* T286 20h: "Only fields requested by the mask should be valid. Other fields are reserved"
 * (D-MOD-1). Each field of the context given with its group's bit clear, or a field T48 has no
 * bit for, is a reserved bit: one violation at its input dword, refused under the strict
 * profile; under the permissive one (reserved_check 0) reported and not used. */
Test(tir, modify_unselected_fields_are_reserved)
{
	static const struct {
		uint64_t mask;
		struct tir_in in;
		uint64_t arg; /* input dword offset << 32 | the bits */
	} cases[] = {
		/* LRO (bit 0) given with bit 2: ctx 10h = input 30h. */
		{ 0x4, { .hash_fn = 2, .outer = 3, .lro_mask = 1 }, 0x30ull << 32 | 0x100 },
		/* hash fn with bit 0: ctx 24h[31:28] = input 44h. */
		{ 0x1, { .hash_fn = 1 }, 0x44ull << 32 | 0x10000000 },
		/* the table with bit 0: ctx 20h[23:0] = input 40h. */
		{ 0x1, { .table = 9 }, 0x40ull << 32 | 9 },
		/* self-loopback with bit 1 (and its table): ctx 24h[25:24]. */
		{ 0x2, { .table = 1, .self_lb = 2 }, 0x44ull << 32 | 0x02000000 },
		/* not modifiable at all: disp_type 04h, inline_rqn 1Ch, tunneled_offload_en
		 * 20h[29], transport_domain 24h[23:0]. */
		{ 0x1, { .disp_type = 1 }, 0x24ull << 32 | 0x10000000 },
		{ 0x1, { .inline_rqn = 5 }, 0x3Cull << 32 | 5 },
		{ 0x1, { .tunneled = true }, 0x40ull << 32 | 0x20000000 },
		{ 0x10, { .td = 3 }, 0x44ull << 32 | 3 },
	};
	for (int strict = 1; strict >= 0; strict--) {
		struct nicref_profile p;
		nicref_profile_default(&p);
		p.reserved_check = (uint8_t)strict;
		struct env e = up(&p);
		struct tl_dev *t = e.t;
		struct tir_in ind = { .disp_type = 1, .hash_fn = 2, .table = e.rqt, .td = e.td,
				      .outer = 0x3, .key = key40 };
		uint32_t a = tir(t, &ind);
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			struct tir_in in = cases[i].in;
			if (cases[i].mask & 0x2)
				in.table = e.rqt; /* bit 1: the same, valid table */
			int st = modify_tir(t, a, cases[i].mask, &in);
			if (strict) {
				tl_reserved(t, st, cases[i].arg);
			} else {
				cr_expect_eq(st, 0, "case %zu: rule %s", i,
					     tl_rule_of(t->d.last_syndrome));
				cr_expect_eq(t->tr.violations, 1, "case %zu", i);
				cr_expect_eq(t->tr.last_violation_arg, cases[i].arg, "case %zu", i);
				t->tr.violations = 0;
			}
			/* The unselected fields were not taken. */
			cr_assert_eq(query_tir(t, a), 0);
			struct expect x[] = {
				{ "disp_type", 1 },	      { "inline_rqn", 0 },
				{ "tunneled_offload_en", 0 }, { "indirect_table", e.rqt },
				{ "transport_domain", e.td }, { "self_lb_en", 0 },
				{ "lro_enable_mask", 0 },
			};
			expect_ctx(t, x, sizeof x / sizeof x[0]);
		}
		tl_down_clean(t);
	}
}

/* T45's fields that another field's value makes reserved ("Reserved for disp_type != direct",
 * "Reserved when disp_type != Indirect", "Reserved for HASH_NONE", "Reserved when rx_hash_fn is
 * not HASH_TOEPLITZ", "Reserved when LRO is disabled on this TIR"): D-CMD-8's one rule, as
 * D-WQ-8 applies it to T53/T61 (D-TIR-3). Strict: BAD_PARAM RESERVED_NOT_ZERO with the
 * violation at the input dword; permissive: the command runs, the violation is reported and the
 * field is not used (QUERY_TIR reads it 0). */
static const uint8_t key_dw0[40] = { 0x12, 0x34, 0x56, 0x78 }; /* the key's first dword only */

Test(tir, reserved_by_setting)
{
	for (int strict = 1; strict >= 0; strict--) {
		struct nicref_profile p;
		nicref_profile_default(&p);
		p.reserved_check = (uint8_t)strict;
		struct env e = up(&p);
		struct tl_dev *t = e.t;
		const struct tir_in dir = { .inline_rqn = e.rq, .td = e.td };
		const struct tir_in ind = { .disp_type = 1, .hash_fn = 1, .table = e.rqt,
					    .td = e.td, .outer = 3 };
		const struct {
			struct tir_in in;
			uint64_t arg; /* input dword offset << 32 | the bits (context at 20h) */
			const char *field;
		} cases[] = {
			{ { .inline_rqn = e.rq, .td = e.td, .table = e.rqt },
			  0x40ull << 32 | e.rqt, "indirect_table" },
			{ { .inline_rqn = e.rq, .td = e.td, .symmetric = true },
			  0x40ull << 32 | 0x80000000u, "rx_hash_symmetric" },
			{ { .inline_rqn = e.rq, .td = e.td, .outer = 3 },
			  0x70ull << 32 | 3, "rx_hash_field_selector_outer" },
			{ { .inline_rqn = e.rq, .td = e.td, .inner = 3, .tunneled = true },
			  0x74ull << 32 | 3, "rx_hash_field_selector_inner" },
			{ { .inline_rqn = e.rq, .td = e.td, .key = key_dw0 },
			  0x48ull << 32 | 0x12345678, NULL },
			{ { .inline_rqn = e.rq, .td = e.td, .lro_timeout = 0x64, .lro_msg = 8 },
			  0x30ull << 32 | 0x64008, "lro_timeout_period_usecs" },
			{ { .disp_type = 1, .hash_fn = 1, .table = e.rqt, .td = e.td, .outer = 3,
			    .inline_rqn = e.rq },
			  0x3Cull << 32 | e.rq, "inline_rqn" },
			{ { .disp_type = 1, .hash_fn = 1, .table = e.rqt, .td = e.td, .outer = 3,
			    .key = key_dw0 },
			  0x48ull << 32 | 0x12345678, NULL },
		};
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			int st = create_tir(t, &cases[i].in);
			if (strict) {
				tl_reserved(t, st, cases[i].arg);
				continue;
			}
			cr_expect_eq(st, 0, "case %zu: rule %s", i, tl_rule_of(t->d.last_syndrome));
			/* Each run reports it (tl_run_paged runs a create again once it gave the
			 * ICM pages the first asked for, D-PG-4). */
			cr_expect_geq(t->tr.violations, 1, "case %zu", i);
			for (unsigned v = 0; v < t->tr.violations; v++)
				cr_expect_eq(tl_nth(&t->tr, NICREF_EV_VIOLATION, v)->arg[1], cases[i].arg,
					     "case %zu: violation %u", i, v);
			tl_mark(&t->tr);
			cr_assert_eq(query_tir(t, (uint32_t)tl_get(t, "create_tir_out", "tirn")), 0);
			if (cases[i].field)
				cr_expect_eq(tl_get(t, "query_tir_out", cases[i].field), 0,
					     "case %zu: %s not used, read 0", i, cases[i].field);
		}
		/* MODIFY_TIR: the LRO group with LRO off and a period; the hash group with XOR8
		 * and a key. */
		uint32_t d = tir(t, &dir), n = tir(t, &ind);
		struct tir_in lro_off = { .lro_timeout = 0x64 };
		int st = modify_tir(t, d, 0x1, &lro_off);
		struct tir_in xor_key = { .hash_fn = 1, .outer = 3, .key = key_dw0 };
		int st2;
		if (strict) {
			tl_reserved(t, st, 0x30ull << 32 | 0x64000);
			st2 = modify_tir(t, n, 0x4, &xor_key);
			tl_reserved(t, st2, 0x48ull << 32 | 0x12345678);
		} else {
			cr_expect_eq(st, 0);
			st2 = modify_tir(t, n, 0x4, &xor_key);
			cr_expect_eq(st2, 0);
			cr_expect_eq(t->tr.violations, 2);
			tl_mark(&t->tr);
		}
		tl_down_clean(t);
	}
}

/* The TIR contexts Linux mlx5e builds (en/tir.c: build_inline, build_rqt + build_direct
 * (INVERTED_XOR8 on a one-entry RQT), build_rss (Toeplitz, its key, symmetric, selectors),
 * build_lro only when LRO is on) set no field their settings make reserved: accepted under the
 * default (strict) profile with no violation. */
Test(tir, linux_mlx5e_contexts_are_accepted)
{
	struct env e = up(NULL);
	struct tl_dev *t = e.t;
	const struct tir_in ctxs[] = {
		{ .inline_rqn = e.rq, .td = e.td, .self_lb = 1 },
		{ .disp_type = 1, .hash_fn = 1, .table = e.rqt, .td = e.td },
		{ .disp_type = 1, .hash_fn = 2, .symmetric = true, .key = key40, .table = e.rqt,
		  .td = e.td, .outer = 0x0000000F },
		{ .disp_type = 1, .hash_fn = 2, .symmetric = true, .key = key40, .table = e.rqt,
		  .td = e.td, .outer = 0x3, .lro_mask = 3, .lro_timeout = 32, .lro_msg = 0xFF },
		{ .disp_type = 1, .hash_fn = 2, .key = key40, .table = e.rqt, .td = e.td,
		  .tunneled = true, .inner = 0x3 },
	};
	uint32_t n = 0;
	for (size_t i = 0; i < sizeof ctxs / sizeof ctxs[0]; i++)
		n = tir(t, &ctxs[i]);
	/* mlx5e_tir_modify: the hash group (Toeplitz), and the LRO group turning LRO off with
	 * every LRO field 0. */
	struct tir_in rss = { .hash_fn = 2, .key = key40, .outer = 0x7 };
	cr_expect_eq(modify_tir(t, n, 0x4, &rss), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	struct tir_in lro_off = { 0 };
	cr_expect_eq(modify_tir(t, n, 0x1, &lro_off), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	cr_expect_eq(t->tr.violations, 0);
	tl_down_clean(t);
}
