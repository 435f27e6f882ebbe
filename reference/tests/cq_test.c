/* Completion queues, their commands: CREATE/DESTROY/QUERY/MODIFY_CQ (PRM §12.7, T260-T279) with
 * each validity rule, and resize (§7.12.6). CQEs and arming: cq_cqe_test.c; completion event
 * moderation: cq_moderation_test.c. Decisions: docs/cq.md. Shared tools: cq_util.h. */
#include <string.h>

#include "cq_util.h"

/* ---- CREATE_CQ / QUERY_CQ / MODIFY_CQ ------------------------------------------------------ */

struct named {
	const char *name;
	uint64_t v;
};

static uint64_t value_of(const struct named *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return v[i].v;
	cr_assert_fail("CQC field %s has no test value", name);
	return 0;
}

/* Creates a CQ with every CQC field of T76 that CREATE_CQ carries (create_cq_in 10h-4Fh) set
 * from v[], then checks QUERY_CQ returns each of them. */
/* The CQC fields of T76 at 10h-4Fh: not the UMEM fields beyond PRM Rev 0.40 (dbr_umem_valid,
 * dbr_umem_id; docs/umem.md, tested in umem_test.c). */
static bool t76_field(const struct nicref_field *f)
{
	return f->prm_offset >= 0x10 && f->prm_offset < 0x50 && strncmp(f->name, "dbr_umem", 8) != 0;
}

static uint32_t round_trip(struct tl_dev *t, const struct named *v, size_t n, uint32_t in_len)
{
	const struct nicref_layout *in = nicref_layout_find("create_cq_in");
	tl_begin(t, "create_cq_in", "CREATE_CQ");
	for (uint32_t i = 0; i < in->nfields; i++) {
		const struct nicref_field *f = &in->fields[i];
		if (t76_field(f))
			tl_set(t, "create_cq_in", f->name, value_of(v, n, f->name));
	}
	uint64_t buf = tl_hostmem(t, 0x40000);
	for (uint32_t k = 0; k < (in_len - 0x110) / 8; k++)
		tl_set_elem(t, "create_cq_in", "pas", k, buf + 0x2000ull * k);
	cr_assert_eq(tl_run_paged(t, in_len, 0x10), 0, "%s", tl_rule_of(t->d.last_syndrome));
	uint32_t cqn = (uint32_t)tl_get(t, "create_cq_out", "cqn");
	cr_assert_eq(refdrv_query_cq(&t->d, cqn, t->out, in_len), 0);
	for (uint32_t i = 0; i < in->nfields; i++) {
		const struct nicref_field *f = &in->fields[i];
		if (t76_field(f))
			cr_expect_eq(tl_get(t, "query_cq_out", f->name), value_of(v, n, f->name),
				     "QUERY_CQ %s", f->name);
	}
	/* T76: the device's fields of a new CQ: status OK, FIRED (D-CQ-3), counters 0. */
	cr_expect_eq(tl_get(t, "query_cq_out", "cq_status"), 0);
	cr_expect_eq(tl_get(t, "query_cq_out", "st"), 0xA);
	cr_expect_eq(tl_get(t, "query_cq_out", "producer_counter"), 0);
	cr_expect_eq(tl_get(t, "query_cq_out", "last_notified_index"), 0);
	cr_expect_eq(tl_get(t, "query_cq_out", "last_solicit_index"), 0);
	for (uint32_t k = 0; k < (in_len - 0x110) / 8; k++)
		cr_expect_eq(tl_get_elem(t, "query_cq_out", "pas", k), buf + 0x2000ull * k);
	return cqn;
}

Test(cq_create, query_round_trips_every_field)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	uint64_t dbr = tl_hostmem(t, 8);
	/* 2^5 CQEs of 128 B = 4 KB: one 8 KB page; every option on that can go with it. */
	const struct named a[] = {
		{ "cqe_sz", 1 },	    { "cc", 1 },	       { "scqe_break_moderation_en", 1 },
		{ "oi", 1 },		    { "cq_period_mode", 1 },   { "cqe_compression_en", 0 },
		{ "mini_cqe_res_format", 1 }, { "page_offset", 0 },  { "log_cq_size", 5 },
		{ "uar_page", t->uar },	    { "cq_period", 0xABC },    { "cq_max_count", 0x1234 },
		{ "c_eqn", eq.eqn },	    { "log_page_size", 1 },    { "consumer_counter", 0 },
		{ "dbr_addr", dbr },
	};
	round_trip(t, a, sizeof a / sizeof a[0], 0x118);
	/* Compression (64-byte CQEs only) and its mini CQE format; 2^11 CQEs over 8 KB pages: 16
	 * pages. */
	const struct named b[] = {
		{ "cqe_sz", 0 },	    { "cc", 0 },	       { "scqe_break_moderation_en", 0 },
		{ "oi", 0 },		    { "cq_period_mode", 0 },   { "cqe_compression_en", 1 },
		{ "mini_cqe_res_format", 1 }, { "page_offset", 0 },  { "log_cq_size", 11 },
		{ "uar_page", t->uar },	    { "cq_period", 1 },	       { "cq_max_count", 1 },
		{ "c_eqn", eq.eqn },	    { "log_page_size", 1 },    { "consumer_counter", 0 },
		{ "dbr_addr", dbr + 8 },
	};
	round_trip(t, b, sizeof b / sizeof b[0], 0x110 + 8 * 16);
	tl_down(t);
}

Test(cq_modify, round_trips_and_moves_the_eq_reference)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq1 = tl_eq(t, 2, 0, 0), eq2 = tl_eq(t, 2, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 2, .eqn = eq1.eqn, .oi = true };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	struct refdrv_cq_attr m = { .cq_period = 0x321, .cq_max_count = 0xBEEF, .oi = false,
				    .eqn = eq2.eqn };
	/* T275: bits 0-3 cq_period, cq_max_count, oi, c_eqn. */
	cr_assert_eq(refdrv_modify_cq(&t->d, &cq, 0xF, &m), 0);
	cr_expect_eq(q(t, &cq, "cq_period"), 0x321);
	cr_expect_eq(q(t, &cq, "cq_max_count"), 0xBEEF);
	cr_expect_eq(q(t, &cq, "oi"), 0);
	cr_expect_eq(q(t, &cq, "c_eqn"), eq2.eqn);
	cr_expect_eq(q(t, &cq, "log_cq_size"), 2, "not selected: unchanged");
	/* §7.12.9 / D-EQ-1: the CQ now reports to eq2. */
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq1.eqn), 0);
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq2.eqn), 0x09);
	/* Only the selected field changes. */
	m.cq_period = 7;
	m.cq_max_count = 8;
	cr_assert_eq(refdrv_modify_cq(&t->d, &cq, 0x2, &m), 0);
	cr_expect_eq(q(t, &cq, "cq_period"), 0x321);
	cr_expect_eq(q(t, &cq, "cq_max_count"), 8);
	tl_down(t);
}

/* A CREATE_CQ input: 2 64-byte CQEs at buf, 4 KB pages, on EQ eqn. */
static void create_in(struct tl_dev *t, uint32_t eqn, uint64_t buf, uint64_t dbr)
{
	tl_begin(t, "create_cq_in", "CREATE_CQ");
	tl_set(t, "create_cq_in", "log_cq_size", 1);
	tl_set(t, "create_cq_in", "uar_page", t->uar);
	tl_set(t, "create_cq_in", "c_eqn", eqn);
	tl_set(t, "create_cq_in", "dbr_addr", dbr);
	tl_set_elem(t, "create_cq_in", "pas", 0, buf);
}

#define REFUSE1(field, value, rule)                                                             \
	do {                                                                                    \
		create_in(t, eq.eqn, buf, dbr);                                                 \
		tl_set(t, "create_cq_in", field, value);                                         \
		tl_refused(t, tl_run_paged(t, 0x118, 0x10), rule);                                \
	} while (0)
#define REFUSE2(f1, v1, f2, v2, rule)                                                           \
	do {                                                                                    \
		create_in(t, eq.eqn, buf, dbr);                                                 \
		tl_set(t, "create_cq_in", f1, v1);                                               \
		tl_set(t, "create_cq_in", f2, v2);                                               \
		tl_refused(t, tl_run_paged(t, 0x118, 0x10), rule);                                \
	} while (0)

Test(cq_create, each_validity_rule)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	uint64_t buf = tl_hostmem(t, 0x1000), dbr = tl_hostmem(t, 8);
	REFUSE1("cqe_sz", 2, CQ_CQE_SIZE_INVALID);                           /* T76 cqe_sz */
	REFUSE2("cqe_sz", 1, "cqe_compression_en", 1, CQ_COMPRESSION_WITH_128B);
	REFUSE2("cqe_compression_en", 1, "mini_cqe_res_format", 2, CQ_MINI_CQE_FORMAT_INVALID);
	REFUSE1("cq_period_mode", 2, CQ_PERIOD_MODE_UNSUPPORTED);
	REFUSE1("page_offset", 1, CQ_PAGE_OFFSET_NOT_ZERO);                  /* "Must be 0" */
	REFUSE1("consumer_counter", 1, CQ_CONSUMER_COUNTER_NOT_ZERO);        /* "Must be 0x0" */
	REFUSE1("dbr_addr", dbr + 4, CQ_DBR_NOT_ALIGNED);                    /* §7.12.2 8 B */
	REFUSE1("log_cq_size", 23, CQ_LOG_SIZE_BEYOND_CAP);                  /* T76: 22 */
	REFUSE1("c_eqn", eq.eqn + 1, CQ_EQ_NOT_FOUND);
	REFUSE1("c_eqn", 128, CQ_EQ_OUT_OF_RANGE); /* beyond 2^log_max_eq EQs (D-OBJ-2) */
	REFUSE1("uar_page", t->uar + 1, CQ_UAR_NOT_ALLOCATED);
	REFUSE1("uar_page", 0xFFFFFF, CQ_UAR_OUT_OF_RANGE); /* beyond the UAR area (D-OBJ-2) */
	REFUSE1("log_cq_size", 7, CQ_PAS_SHORT); /* 8 KB: two 4 KB pages, one given */
	create_in(t, eq.eqn, buf + 0x10, dbr);
	tl_refused(t, tl_run_paged(t, 0x118, 0x10), CQ_PAS_NOT_ALIGNED); /* T139 */
	/* The capabilities T76 names (T145 44h). */
	tl_set_cap(t, "cq_period_start_from_cqe", 0);
	REFUSE1("cq_period_mode", 1, CQ_PERIOD_MODE_UNSUPPORTED);
	tl_set_cap(t, "scqe_break_moderation", 0);
	REFUSE1("scqe_break_moderation_en", 1, CQ_SCQE_BREAK_UNSUPPORTED);
	tl_set_cap(t, "log_max_cq_sz", 10);
	REFUSE1("log_cq_size", 11, CQ_LOG_SIZE_BEYOND_CAP);
	/* oi and moderation at create need no capability: T145 cq_oi / cq_moderation are about
	 * MODIFY_CQ. */
	create_in(t, eq.eqn, buf, dbr);
	tl_set(t, "create_cq_in", "oi", 1);
	tl_set(t, "create_cq_in", "cq_max_count", 4);
	cr_expect_eq(tl_run_paged(t, 0x118, 0x10), 0);
	tl_down(t);
}

Test(cq_create, exhausts_at_two_to_log_max_cq)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_max_objects = 1; /* T145 log_max_cq = 1: CQs 1 and 2 (D-OBJ-2) */
	struct tl_dev *t = tl_up(&p);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	cr_expect_eq(tl_cq(t, 1, eq.eqn).cqn, 1);
	struct refdrv_cq two = tl_cq(t, 1, eq.eqn);
	cr_expect_eq(two.cqn, 2);
	create_in(t, eq.eqn, tl_hostmem(t, 0x1000), tl_hostmem(t, 8));
	tl_refused(t, tl_run_paged(t, 0x118, 0x10), CQ_EXHAUSTED);
	cr_expect_eq(refdrv_destroy_cq(&t->d, 1), 0);
	cr_expect_eq(tl_cq(t, 1, eq.eqn).cqn, 1, "the lowest free number");
	tl_down(t);
}

Test(cq_commands, unknown_cq_and_cq_in_use)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn);
	cr_expect_eq(refdrv_destroy_cq(&t->d, cq.cqn + 1), 0x05);
	tl_refused(t, 0x05, CQ_NOT_FOUND);
	/* D-OBJ-2: numbers outside the CQ range (0, or beyond 2^log_max_cq from 1) are
	 * BAD_INDEX (T128 0x0A "beyond table size"), as every object's. */
	cr_expect_eq(refdrv_query_cq(&t->d, 0xFFFFFF, t->out, 0x110), 0x0A);
	tl_refused(t, 0x0A, CQ_INDEX_OUT_OF_RANGE);
	cr_expect_eq(refdrv_destroy_cq(&t->d, 0), 0x0A);
	tl_refused(t, 0x0A, CQ_INDEX_OUT_OF_RANGE);
	struct refdrv_cq far = cq;
	far.cqn = 0xFFFFFF;
	struct refdrv_cq_attr none = { 0 };
	cr_expect_eq(refdrv_modify_cq(&t->d, &far, 1, &none), 0x0A);
	tl_refused(t, 0x0A, CQ_INDEX_OUT_OF_RANGE);
	struct refdrv_cq ghost = cq;
	ghost.cqn = 77;
	struct refdrv_cq_attr m = { 0 };
	cr_expect_eq(refdrv_modify_cq(&t->d, &ghost, 1, &m), 0x05);
	tl_refused(t, 0x05, CQ_NOT_FOUND);
	/* D-CQ-1: a CQ an SQ or RQ names (their reference, D-OBJ-1) is not destroyed. */
	struct obj_hdr *h = obj_get(t->dev, OBJ_CQ, cq.cqn);
	h->refs++;
	cr_expect_eq(refdrv_destroy_cq(&t->d, cq.cqn), 0x09);
	tl_refused(t, 0x09, CQ_IN_USE);
	h->refs--;
	cr_expect_eq(refdrv_destroy_cq(&t->d, cq.cqn), 0);
	tl_down(t);
}

/* A MODIFY_CQ input of op_mod for cq, field_select sel, and the CQ's current sizes. */
static void modify_in(struct tl_dev *t, const struct refdrv_cq *cq, unsigned op_mod, uint32_t sel)
{
	tl_begin(t, "modify_cq_in", "MODIFY_CQ");
	tl_set(t, "modify_cq_in", "op_mod", op_mod);
	tl_set(t, "modify_cq_in", "cqn", cq->cqn);
	tl_set(t, "modify_cq_in", "field_select", sel);
	tl_set(t, "modify_cq_in", "log_cq_size", cq->a.log_cq_size);
	tl_set(t, "modify_cq_in", "c_eqn", cq->a.eqn);
}

Test(cq_modify, each_validity_rule)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn);
	uint64_t nbuf = tl_hostmem(t, 0x4000);
	modify_in(t, &cq, 0, 1u << 4); /* T275 defines bits 0-3 */
	tl_refused(t, tl_run(t, 0x110, 0x10), CQ_MODIFY_SELECT_UNKNOWN);
	modify_in(t, &cq, 0, 1u << 3);
	tl_set(t, "modify_cq_in", "c_eqn", eq.eqn + 1);
	tl_refused(t, tl_run(t, 0x110, 0x10), CQ_EQ_NOT_FOUND);
	modify_in(t, &cq, 0, 1u << 3);
	tl_set(t, "modify_cq_in", "c_eqn", 0xFF); /* beyond 2^log_max_eq EQs (D-OBJ-2) */
	tl_refused(t, tl_run(t, 0x110, 0x10), CQ_EQ_OUT_OF_RANGE);
	modify_in(t, &cq, 1, 1u << 3); /* T277 defines bits 0-2 */
	tl_refused(t, tl_run(t, 0x118, 0x10), CQ_MODIFY_SELECT_UNKNOWN);
	modify_in(t, &cq, 1, 1u << 1);
	tl_set(t, "modify_cq_in", "page_offset", 2);
	tl_set_elem(t, "modify_cq_in", "pas", 0, nbuf);
	tl_refused(t, tl_run(t, 0x118, 0x10), CQ_PAGE_OFFSET_NOT_ZERO);
	modify_in(t, &cq, 1, 1u << 0);
	tl_set(t, "modify_cq_in", "log_cq_size", 23);
	tl_refused(t, tl_run(t, 0x118, 0x10), CQ_LOG_SIZE_BEYOND_CAP);
	modify_in(t, &cq, 1, 1u << 0);
	tl_set(t, "modify_cq_in", "cqe_sz", 3);
	tl_refused(t, tl_run(t, 0x118, 0x10), CQ_CQE_SIZE_INVALID);
	modify_in(t, &cq, 1, 1u << 0);
	tl_set(t, "modify_cq_in", "log_cq_size", 8); /* 16 KB: 4 pages */
	tl_set_elem(t, "modify_cq_in", "pas", 0, nbuf);
	tl_refused(t, tl_run(t, 0x118, 0x10), CQ_PAS_SHORT);
	modify_in(t, &cq, 2, 0); /* T273 op_mod: 0 and 1 only */
	tl_refused(t, tl_run(t, 0x110, 0x10), BAD_OP_MOD);
	/* T275 / T145 44h: each field behind its capability (D-CQ-10). */
	tl_set_cap(t, "cq_moderation", 0);
	tl_set_cap(t, "cq_oi", 0);
	tl_set_cap(t, "cq_eq_remap", 0);
	for (unsigned b = 0; b < 4; b++) {
		modify_in(t, &cq, 0, 1u << b);
		tl_refused(t, tl_run(t, 0x110, 0x10), CQ_MODIFY_NOT_SUPPORTED);
	}
	tl_set_cap(t, "cq_resize", 0); /* §7.12.6: resize only with resize_cq_en (cq_resize) */
	modify_in(t, &cq, 1, 1u << 0);
	tl_set_elem(t, "modify_cq_in", "pas", 0, nbuf);
	tl_refused(t, tl_run(t, 0x118, 0x10), CQ_RESIZE_NOT_SUPPORTED);
	cr_expect_eq(q(t, &cq, "log_cq_size"), 1, "nothing changed");
	tl_down(t);
}

/* ---- Resize (§7.12.6) ----------------------------------------------------------------------- */

Test(cq_resize, resize_cqe_in_the_old_buffer)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 2, eq.eqn); /* 4 CQEs */
	struct refdrv_cq_attr old = cq.a;
	uint8_t c[64];
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(post(t, &cq, (uint16_t)(0x10 + i), false), 0);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1); /* update_ci 1: 2 outstanding */
	tl_mark(&t->tr);
	cr_assert_eq(refdrv_resize_cq(&t->d, &cq, tl_hostmem(t, 0x1000), 3, 0, 0), 0);
	/* §7.12.6 / T72: a Resize CQE (opcode 5) in the old buffer at pc = 3, owner
	 * (3 >> 2) & 1 = 0; the counters stay (D-CQ-7). */
	read_cqe(t, &old, 3, c);
	cr_expect_eq(c[0x3F], 0x50);
	cr_expect_eq(tl_xor_index(c, 64, 3), 0xFF);
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_CQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[1], 3);
	cr_expect_eq(ev->arg[2], 5);
	cr_expect_eq(q(t, &cq, "producer_counter"), 3);
	cr_expect_eq(q(t, &cq, "log_cq_size"), 3);
	cr_assert_eq(refdrv_query_cq(&t->d, cq.cqn, t->out, 0x118), 0);
	cr_expect_eq(tl_get_elem(t, "query_cq_out", "pas", 0), cq.a.buf, "the new buffer");
	/* The next CQE goes to the new buffer at 3 & 7, owner (3 >> 3) & 1 = 0. */
	cr_assert_eq(post(t, &cq, 0x13, false), 0);
	read_cqe(t, &cq.a, 3, c);
	cr_expect_eq(c[0x3D], 0x13);
	cr_expect_eq(c[0x3F], 0x00);
	/* Software drains the old buffer up to the Resize CQE, then continues in the new. */
	uint16_t got[3];
	for (unsigned i = 0; i < 3; i++) {
		cr_assert_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
		got[i] = (uint16_t)(c[0x3C] << 8 | c[0x3D]);
	}
	cr_expect_eq(got[0], 0x11);
	cr_expect_eq(got[1], 0x12);
	cr_expect_eq(got[2], 0x13);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 0);
	tl_down(t);
}

/* D-CQ-14: a CQ in error (CQ_OVERFLOW here) takes no more CQEs, the Resize CQE included
 * (§7.12.1 "Transfers the CQ to the appropriate error state"): the old buffer keeps the
 * oldest unconsumed CQE; the resize itself still completes (D-CQ-14). */
Test(cq_resize, no_resize_cqe_into_a_cq_in_error)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 4, 1ull << 0x04, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn); /* 2 CQEs */
	struct refdrv_cq_attr old = cq.a;
	uint8_t c[64];
	cr_assert_eq(post(t, &cq, 0x11, false), 0);
	cr_assert_eq(post(t, &cq, 0x22, false), 0);
	cr_assert_eq(post(t, &cq, 0x33, false), -1); /* overrun: CQ_OVERFLOW */
	cr_assert_eq(q(t, &cq, "cq_status"), 0x9);
	tl_mark(&t->tr);
	cr_assert_eq(refdrv_resize_cq(&t->d, &cq, tl_hostmem(t, 0x1000), 3, 0, 0), 0);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CQE), 0, "no Resize CQE into a CQ in error");
	read_cqe(t, &old, 0, c);
	cr_expect_eq(c[0x3F], 0x00, "entry 0 still the first CQE (requester, opcode 0, owner 0)");
	cr_expect_eq(c[0x3D], 0x11, "entry 0 still the first CQE's wqe_counter");
	cr_expect_eq(q(t, &cq, "log_cq_size"), 3, "the resize completed");
	cr_expect_eq(q(t, &cq, "cq_status"), 0x9, "still in error (D-CQ-14)");
	tl_down(t);
}

/* §7.12.6 "it is advised that the driver reserves room for one extra CQE": a resize of a CQ
 * whose old buffer is full (pc - update_ci == size) has no room for the Resize CQE, a driver
 * violation; the Resize CQE is written anyway over the oldest unconsumed CQE (D-CQ-7). */
Test(cq_resize, full_old_buffer_is_a_violation)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn); /* 2 CQEs */
	struct refdrv_cq_attr old = cq.a;
	uint8_t c[64];
	cr_assert_eq(post(t, &cq, 0x11, false), 0);
	cr_assert_eq(post(t, &cq, 0x22, false), 0); /* full: pc 2, update_ci 0 */
	tl_mark(&t->tr);
	cr_assert_eq(refdrv_resize_cq(&t->d, &cq, tl_hostmem(t, 0x1000), 3, 0, 0), 0);
	tl_violation(t, CQ_RESIZE_NO_ROOM, cq.cqn);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CQE), 1, "the Resize CQE is written (D-CQ-7)");
	read_cqe(t, &old, 0, c);
	cr_expect_eq(c[0x3F], 0x51, "Resize CQE at entry 2 & 1 = 0, owner (2 >> 1) & 1 = 1");
	/* One consumed first: room for it, no violation. */
	struct refdrv_cq cq2 = tl_cq(t, 1, eq.eqn);
	cr_assert_eq(post(t, &cq2, 0x11, false), 0);
	cr_assert_eq(post(t, &cq2, 0x22, false), 0);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq2, c), 1); /* update_ci 1 */
	tl_mark(&t->tr);
	cr_assert_eq(refdrv_resize_cq(&t->d, &cq2, tl_hostmem(t, 0x1000), 3, 0, 0), 0);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_VIOLATION), 0);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CQE), 1);
	tl_down(t);
}

Test(cq_resize, smaller_than_outstanding_is_bad_size)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 2, eq.eqn);
	uint8_t c[64];
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(post(t, &cq, (uint16_t)i, false), 0);
	tl_mark(&t->tr);
	/* T128 0x40: 3 outstanding, 2 entries asked for. */
	cr_expect_eq(refdrv_resize_cq(&t->d, &cq, tl_hostmem(t, 0x1000), 1, 0, 0), 0x40);
	tl_refused(t, 0x40, CQ_RESIZE_TOO_SMALL);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CQE), 0, "no Resize CQE");
	read_cqe(t, &cq.a, 3, c);
	cr_expect_eq(c[0x3F], 0xF1, "entry 3 as initialised (D-CQ-8)");
	cr_expect_eq(q(t, &cq, "log_cq_size"), 2);
	/* Three outstanding fit in 4 (the same size). */
	cr_expect_eq(refdrv_resize_cq(&t->d, &cq, tl_hostmem(t, 0x1000), 2, 1, 0), 0);
	cr_expect_eq(q(t, &cq, "cqe_sz"), 1, "cqe_sz goes with log_cq_size (D-CQ-9)");
	tl_down(t);
}

/* D-OBJ-2, D-CQ-21: a c_eqn outside the EQ numbers (0 to 2^log_max_eq - 1 = 127, T145) is
 * BAD_INDEX (T128 0x0A "beyond table size") in CREATE_CQ and in MODIFY_CQ's remap, as every
 * object's number; one in them that names no EQ stays BAD_RESOURCE (0x05). Nothing changes. */
Test(cq_commands, c_eqn_beyond_the_eq_numbers_is_bad_index)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	uint64_t buf = tl_hostmem(t, 0x1000), dbr = tl_hostmem(t, 8);
	create_in(t, 128, buf, dbr);
	cr_expect_eq(tl_run_paged(t, 0x118, 0x10), 0x0A, "c_eqn 128");
	create_in(t, 127, buf, dbr);
	cr_expect_eq(tl_run_paged(t, 0x118, 0x10), 0x05, "c_eqn 127: in range, no EQ");
	cr_expect_eq(dev_obj_count(t->dev, OBJ_CQ), 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn);
	modify_in(t, &cq, 0, 1u << 3);
	tl_set(t, "modify_cq_in", "c_eqn", 255);
	cr_expect_eq(tl_run(t, 0x110, 0x10), 0x0A, "remap to 255");
	modify_in(t, &cq, 0, 1u << 3);
	tl_set(t, "modify_cq_in", "c_eqn", 127);
	cr_expect_eq(tl_run(t, 0x110, 0x10), 0x05, "remap to 127: in range, no EQ");
	cr_expect_eq(q(t, &cq, "c_eqn"), eq.eqn, "still on its EQ");
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	tl_down(t);
}
