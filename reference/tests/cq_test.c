/* Completion queues: CREATE/DESTROY/QUERY/MODIFY_CQ (PRM §12.7, T260-T279), CQEs in host memory
 * (§7.12.1, §7.12.3, T67/T68) written through cq_post (the work queues' entry point), overrun
 * and the CQ error event (§7.12.1, §7.12.5, T84/T85), the CQ doorbell and doorbell record
 * (§7.2.2 T13/T14, §7.12.2 T69/T70), arming (§7.12.4), completion event moderation (§7.13.14)
 * and resize (§7.12.6). Decisions: docs/cq.md. */
#include <string.h>

#include "core/dev.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "obj/cq.h"
#include "testlib.h"

/* ---- CQEs as a work queue hands them to cq_post (T67/T73) ---------------------------------- */

static void cqe_set(uint8_t *c, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(c, 64, tl_field("cqe", name), v), 0);
}

/* A requester CQE (opcode 0) of wqe_counter wc, solicited or not. */
static void req_cqe(uint8_t c[64], uint16_t wc, bool se)
{
	memset(c, 0, 64);
	cqe_set(c, "opcode", 0);
	cqe_set(c, "wqe_counter", wc);
	cqe_set(c, "s_wqe_opcode", 0x0A);
	cqe_set(c, "srqn_user_index", 0x123456);
	cqe_set(c, "se", se);
}

static int post(struct tl_dev *t, const struct refdrv_cq *cq, uint16_t wc, bool se)
{
	uint8_t c[64];
	req_cqe(c, wc, se);
	return cq_post(t->dev, cq->cqn, c);
}

/* The 64-byte CQE of entry `index` of the CQ's (current) buffer. */
static void read_cqe(struct tl_dev *t, const struct refdrv_cq_attr *a, unsigned index, uint8_t c[64])
{
	uint32_t esz = 64u << a->cqe_sz;
	tl_mem_read(t, a->buf + (uint64_t)esz * index + esz - 64, c, 64);
}

static uint64_t q(struct tl_dev *t, const struct refdrv_cq *cq, const char *field)
{
	cr_assert_eq(refdrv_query_cq(&t->d, cq->cqn, t->out, 0x110), 0);
	return tl_get(t, "query_cq_out", field);
}

/* An EQ taking CQ errors (type 0x04) for the CQs' completion events too. */
static struct refdrv_eq async_eq(struct tl_dev *t)
{
	return tl_eq(t, 4, 1ull << 0x04, 0);
}

static void set_cap(struct tl_dev *t, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(t->dev->caps.cur[CAP_GENERAL], CAP_BYTES,
				      tl_field("hca_cap", name), v),
		     0);
}

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
static uint32_t round_trip(struct tl_dev *t, const struct named *v, size_t n, uint32_t in_len)
{
	const struct nicref_layout *in = nicref_layout_find("create_cq_in");
	tl_begin(t, "create_cq_in", "CREATE_CQ");
	for (uint32_t i = 0; i < in->nfields; i++) {
		const struct nicref_field *f = &in->fields[i];
		if (f->prm_offset >= 0x10 && f->prm_offset < 0x50)
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
		if (f->prm_offset >= 0x10 && f->prm_offset < 0x50)
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
	REFUSE1("uar_page", t->uar + 1, CQ_UAR_NOT_ALLOCATED);
	REFUSE1("log_cq_size", 7, CQ_PAS_SHORT); /* 8 KB: two 4 KB pages, one given */
	create_in(t, eq.eqn, buf + 0x10, dbr);
	tl_refused(t, tl_run_paged(t, 0x118, 0x10), CQ_PAS_NOT_ALIGNED); /* T139 */
	/* The capabilities T76 names (T145 44h). */
	set_cap(t, "cq_period_start_from_cqe", 0);
	REFUSE1("cq_period_mode", 1, CQ_PERIOD_MODE_UNSUPPORTED);
	set_cap(t, "scqe_break_moderation", 0);
	REFUSE1("scqe_break_moderation_en", 1, CQ_SCQE_BREAK_UNSUPPORTED);
	set_cap(t, "log_max_cq_sz", 10);
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
	cr_expect_eq(refdrv_query_cq(&t->d, 0xFFFFFF, t->out, 0x110), 0x05);
	tl_refused(t, 0x05, CQ_NOT_FOUND);
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
	set_cap(t, "cq_moderation", 0);
	set_cap(t, "cq_oi", 0);
	set_cap(t, "cq_eq_remap", 0);
	for (unsigned b = 0; b < 4; b++) {
		modify_in(t, &cq, 0, 1u << b);
		tl_refused(t, tl_run(t, 0x110, 0x10), CQ_MODIFY_NOT_SUPPORTED);
	}
	set_cap(t, "cq_resize", 0); /* §7.12.6: resize only with resize_cq_en (cq_resize) */
	modify_in(t, &cq, 1, 1u << 0);
	tl_set_elem(t, "modify_cq_in", "pas", 0, nbuf);
	tl_refused(t, tl_run(t, 0x118, 0x10), CQ_RESIZE_NOT_SUPPORTED);
	cr_expect_eq(q(t, &cq, "log_cq_size"), 1, "nothing changed");
	tl_down(t);
}

/* ---- CQEs ----------------------------------------------------------------------------------- */

Test(cq_post, ownership_signature_and_wrap)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn); /* 2 CQEs */
	uint8_t c[64], want[64];
	tl_mark(&t->tr);
	cr_assert_eq(post(t, &cq, 0x1234, false), 0);
	cr_assert_eq(post(t, &cq, 0x1235, false), 0);
	for (unsigned i = 0; i < 2; i++) {
		read_cqe(t, &cq.a, i, c);
		req_cqe(want, (uint16_t)(0x1234 + i), false);
		/* Every byte as given but the signature (3Dh... byte 3Eh) and owner (3Fh bit 0):
		 * owner (pc >> 1) & 1 = 0 on the first pass (§7.12.3.1). */
		cr_expect_eq(memcmp(c, want, 0x3E), 0, "CQE %u content", i);
		cr_expect_eq(c[0x3F], 0x00, "opcode 0, owner 0");
		cr_expect_eq(tl_xor_index(c, 64, i), 0xFF, "T68 signature with index %u (D-CQE-1)", i);
		const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_CQE, i);
		cr_assert(ev);
		cr_expect_eq(ev->arg[0], cq.cqn);
		cr_expect_eq(ev->arg[1], i);
		cr_expect_eq(ev->arg[2], 0);
		cr_expect_eq(ev->arg[4], 0x1234 + i);
	}
	/* Software consumes both (update_ci 2 in the record) and the device wraps: index 0,
	 * owner (2 >> 1) & 1 = 1. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 0);
	cr_assert_eq(post(t, &cq, 0x1236, false), 0);
	read_cqe(t, &cq.a, 0, c);
	cr_expect_eq(c[0x3F], 0x01);
	cr_expect_eq(tl_xor_index(c, 64, 2), 0xFF);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(q(t, &cq, "producer_counter"), 3);
	cr_expect_eq(q(t, &cq, "consumer_counter"), 2, "the update_ci the device read (T76)");
	tl_down(t);
}

Test(cq_post, cqe_128_bytes_and_error_cqe)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 2, .eqn = eq.eqn, .cqe_sz = 1 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t e[128], c[64];
	memset(c, 0, 64);
	/* T73/T74: requester error, syndrome 0x4 Local_Protection, wqe_counter 9. */
	cr_assert_eq(nicref_field_set(c, 64, tl_field("err_cqe", "opcode"), 13), 0);
	cr_assert_eq(nicref_field_set(c, 64, tl_field("err_cqe", "syndrome"), 4), 0);
	cr_assert_eq(nicref_field_set(c, 64, tl_field("err_cqe", "wqe_counter"), 9), 0);
	tl_mark(&t->tr);
	cr_assert_eq(cq_post(t->dev, cq.cqn, c), 0);
	tl_mem_read(t, cq.a.buf, e, 128);
	/* D-CQE-2: the 64-byte CQE in bytes 40h-7Fh; the first half zero; owner at 7Fh. */
	static const uint8_t zero[64];
	cr_expect_eq(memcmp(e, zero, 64), 0);
	cr_expect_eq(e[0x40 + 0x37], 4);
	cr_expect_eq(e[0x7F], 0xD0, "opcode 13, owner 0");
	cr_expect_eq(tl_xor_index(e, 128, 0), 0xFF);
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_CQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[2], 13);
	cr_expect_eq(ev->arg[3], 4, "T74 syndrome traced");
	cr_expect_eq(ev->arg[4], 9);
	/* The driver polls the 128-byte entry. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(c[0x3F] >> 4, 13);
	tl_down(t);
}

Test(cq_post, overrun_is_the_cq_error_event)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = async_eq(t);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn);
	uint8_t before[64], after[64], e[64];
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	read_cqe(t, &cq.a, 0, before);
	tl_mark(&t->tr);
	/* §7.12.1: pc - update_ci == 2 == CQ size: full. oi = 0: the CQ to error, the WQ to
	 * error (cq_post -1), the event, and the CQE not written (§7.12.5). */
	cr_expect_eq(post(t, &cq, 3, false), -1);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CQE), 0);
	tl_violation(t, CQ_OVERRUN, cq.cqn);
	read_cqe(t, &cq.a, 0, after);
	cr_expect_eq(memcmp(before, after, 64), 0);
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_EQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[0], eq.eqn);
	cr_expect_eq(ev->arg[2], 0x04, "T79 CQ_Error");
	tl_mem_read(t, eq.a.buf, e, 64);
	cr_expect_eq((uint32_t)e[0x21] << 16 | e[0x22] << 8 | e[0x23], cq.cqn, "T85 cqn 00h");
	cr_expect_eq(e[0x2B], 0x1, "T85 syndrome 08h: CQ_overrun");
	cr_expect_eq(q(t, &cq, "cq_status"), 0x9, "T76 CQ_OVERFLOW");
	/* The CQ takes nothing more, even with room again. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, e), 1);
	tl_mark(&t->tr);
	cr_expect_eq(post(t, &cq, 4, false), -1);
	cr_expect_eq(t->tr.n, 0);
	tl_down(t);
}

Test(cq_post, overrun_ignore_and_record_violation)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 1, .eqn = eq.eqn, .oi = true };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64];
	for (unsigned i = 0; i < 3; i++)
		cr_expect_eq(post(t, &cq, (uint16_t)i, false), 0, "T76 oi: old CQEs overwritten");
	read_cqe(t, &cq.a, 0, c);
	cr_expect_eq(c[0x3D], 2, "entry 0 holds the third CQE");
	cr_expect_eq(c[0x3F], 0x01);

	struct refdrv_cq cq2 = tl_cq(t, 1, eq.eqn);
	uint8_t rec[4] = { 0, 0, 0, 5 }; /* update_ci 5 with nothing written */
	tl_mem_write(t, cq2.a.dbr, rec, 4);
	tl_mark(&t->tr);
	cr_expect_eq(post(t, &cq2, 0, false), 0);
	tl_violation(t, CQ_DBR_CI_BEYOND_PC, (uint64_t)cq2.cqn << 24 | 5);
	tl_down(t);
}

Test(cq_post, write_failure)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = async_eq(t);
	struct refdrv_cq cq = tl_cq(t, 2, eq.eqn);
	cr_assert_eq(nicref_hostmem_fault(t->dev, cq.a.buf, 64, NICREF_FAULT_WRITE), 0);
	tl_mark(&t->tr);
	cr_expect_eq(post(t, &cq, 1, false), -1);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_DMA_ERROR), 1);
	cr_expect_eq(q(t, &cq, "cq_status"), 0xA, "T76 CQ_WRITE_FAIL");
	uint8_t e[64];
	tl_mem_read(t, eq.a.buf, e, 64);
	cr_expect_eq(e[0x2B], 0x2, "T85 syndrome 0x2 (D-CQ-12)");
	tl_down(t);
}

/* ---- Arming (§7.12.4) ----------------------------------------------------------------------- */

static size_t completions(const struct tl_dev *t, uint32_t cqn)
{
	size_t n = 0;
	for (size_t i = 0; i < t->tr.n; i++)
		if (t->tr.ev[i].kind == NICREF_EV_EQE && t->tr.ev[i].arg[2] == 0)
			n++;
	(void)cqn;
	return n;
}

Test(cq_arm, one_event_per_arm_and_cmd_sn)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	uint8_t c[64], e[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false); /* ARM_NEXT, cmd_sn 0 ("0 for the first DoorBell") */
	cr_expect_eq(q(t, &cq, "st"), 0x9, "NOTIFICATION_REQUEST_ARMED");
	cr_expect_eq(completions(t, cq.cqn), 0);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	/* §7.12.4 condition 1: one completion event, an EQE of type 0 with the CQN (T81). */
	cr_assert_eq(completions(t, cq.cqn), 1);
	tl_mem_read(t, eq.a.buf, e, 64);
	cr_expect_eq(e[1], 0);
	cr_expect_eq((uint32_t)e[0x39] << 16 | e[0x3A] << 8 | e[0x3B], cq.cqn, "T81 18h");
	cr_expect_eq(q(t, &cq, "st"), 0xA, "FIRED");
	cr_expect_eq(q(t, &cq, "last_notified_index"), 0, "D-CQ-11");
	cr_assert_eq(post(t, &cq, 2, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "no event before a new request");
	/* D-CQ-4: an arm with the old cmd_sn (0; one event delivered) is stale. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(q(t, &cq, "st"), 0xA);
	/* With cmd_sn 1 it arms; everything consumed: no event now, one at the next CQE. */
	refdrv_cq_event_seen(&cq);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(q(t, &cq, "st"), 0x9);
	cr_expect_eq(completions(t, cq.cqn), 1);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 2);
	cr_expect_eq(q(t, &cq, "last_notified_index"), 2);
	tl_down(t);
}

Test(cq_arm, immediate_event_when_armed_with_unconsumed_cqes)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	tl_mark(&t->tr);
	/* §7.12.4: CQEs posted and not consumed: "an event will be generated immediately". */
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(completions(t, cq.cqn), 1);
	cr_expect_eq(q(t, &cq, "st"), 0xA);
	tl_down(t);
}

Test(cq_arm, solicited)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(q(t, &cq, "st"), 0x6, "SOLICITED_NOTIFICATION_REQUEST_ARMED");
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0, "an unsolicited CQE does not fire ARM_SOLICITED");
	cr_assert_eq(post(t, &cq, 2, true), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "§7.12.4 condition 2: SE set");
	cr_expect_eq(q(t, &cq, "last_solicit_index"), 1);
	/* Arming solicited with an unconsumed unsolicited CQE only: no event; with the solicited
	 * one not consumed: at once. */
	refdrv_cq_event_seen(&cq);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1); /* cc 1: CQE 1 (solicited) unread */
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(completions(t, cq.cqn), 2);
	refdrv_cq_event_seen(&cq);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(completions(t, cq.cqn), 2, "only an unsolicited CQE unread");
	/* D-CQ-5: an error CQE fires ARM_SOLICITED. */
	uint8_t err[64] = { 0 };
	err[0x3F] = 14 << 4;
	cr_assert_eq(cq_post(t->dev, cq.cqn, err), 0);
	cr_expect_eq(completions(t, cq.cqn), 3);
	/* ARM_NEXT after ARM_SOLICITED: ARMED; an ARMED CQ stays ARMED on ARM_SOLICITED (T71). */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, true);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(q(t, &cq, "st"), 0x9);
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(q(t, &cq, "st"), 0x9);
	tl_down(t);
}

Test(cq_arm, doorbell_violations)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	uint32_t page = (uint32_t)refdrv_uar_offset(&t->d, t->uar);
	uint32_t uar2;
	cr_assert_eq(refdrv_alloc_uar(&t->d, &uar2), 0);
	uint32_t page2 = (uint32_t)refdrv_uar_offset(&t->d, uar2);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x20, 0);
	nicref_bar_write32(t->dev, page + 0x24, 99); /* T14 cqn 99: none */
	tl_violation(t, CQ_DB_NO_CQ, 99);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page2 + 0x20, 0);
	nicref_bar_write32(t->dev, page2 + 0x24, cq.cqn); /* §7.2 item 4 */
	tl_violation(t, CQ_DB_WRONG_UAR, cq.cqn);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x24, cq.cqn); /* §7.2.2.2: lower dword first */
	tl_violation(t, CQ_DB_SPLIT, (uint64_t)t->uar << 16 | 0x24);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x20, 0);
	nicref_bar_write32(t->dev, page + 0x48, eq.eqn << 24); /* another doorbell in between */
	tl_violation(t, CQ_DB_SPLIT, (uint64_t)t->uar << 16 | 0x48);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x20, 3); /* ci 3, nothing written */
	nicref_bar_write32(t->dev, page + 0x24, cq.cqn);
	tl_violation(t, CQ_ARM_CI_BEYOND_PC, cq.cqn);
	cr_expect_eq(q(t, &cq, "st"), 0xA, "no arm took effect");
	struct refdrv_cq_attr m = { .oi = true };
	cr_assert_eq(refdrv_modify_cq(&t->d, &cq, 1u << 2, &m), 0);
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false); /* T76 oi: arm doorbells "should not be rung" */
	tl_violation(t, CQ_DB_WITH_OI, cq.cqn);
	cr_expect_eq(q(t, &cq, "st"), 0xA);
	tl_down(t);
}

/* ---- Completion event moderation (§7.13.14) ------------------------------------------------- */

Test(cq_moderation, by_count)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_max_count = 3 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0, "2 completions < cq_max_count 3");
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "the third completion (D-CQ-6)");
	/* After the event the count starts again. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 4, false), 0);
	cr_assert_eq(post(t, &cq, 5, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1);
	cr_assert_eq(post(t, &cq, 6, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 2);
	tl_down(t);
}

Test(cq_moderation, by_period_upon_event)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_period = 10 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint64_t t0 = nicref_clock_now(t->dev); /* the timer starts with the CQ (D-CQ-6) */
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0, "held: the 10 us timer runs");
	nicref_clock_advance(t->dev, 9999);
	cr_expect_eq(completions(t, cq.cqn), 0);
	nicref_clock_advance(t->dev, 1);
	cr_assert_eq(completions(t, cq.cqn), 1, "timer expired with an event pending");
	cr_expect_eq(tl_nth(&t->tr, NICREF_EV_EQE, 0)->time_ns, t0 + 10000);
	/* T76 upon_event: the timer restarted at the event. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	nicref_clock_advance(t->dev, 4000);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	nicref_clock_advance(t->dev, 5999);
	cr_expect_eq(completions(t, cq.cqn), 1);
	nicref_clock_advance(t->dev, 1);
	cr_expect_eq(completions(t, cq.cqn), 2);
	/* A CQE long after the last event: the timer has expired, the event goes at once. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	nicref_clock_advance(t->dev, 20000);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 3);
	tl_down(t);
}

Test(cq_moderation, by_period_upon_cqe)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_period = 10,
				    .cq_period_mode = 1 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	nicref_clock_advance(t->dev, 50000);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	/* T76 upon_cqe: the timer restarted at this CQE; 10 us of quiet releases the event. */
	cr_expect_eq(completions(t, cq.cqn), 0);
	nicref_clock_advance(t->dev, 6000);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	nicref_clock_advance(t->dev, 6000);
	cr_expect_eq(completions(t, cq.cqn), 0, "restarted by the second CQE");
	nicref_clock_advance(t->dev, 4000);
	cr_expect_eq(completions(t, cq.cqn), 1);
	tl_down(t);
}

Test(cq_moderation, solicited_breaks_moderation_and_modify_releases)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_max_count = 100,
				    .scqe_break_moderation_en = true };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0);
	cr_assert_eq(post(t, &cq, 2, true), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "T76: a solicited CQE causes immediate EQE");
	/* Moderation off (MODIFY_CQ cq_max_count 0) releases a held event at once. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1);
	struct refdrv_cq_attr m = { .cq_max_count = 0 };
	cr_assert_eq(refdrv_modify_cq(&t->d, &cq, 1u << 1, &m), 0);
	cr_expect_eq(completions(t, cq.cqn), 2);
	tl_down(t);
}

Test(cq_moderation, timers_fire_in_deadline_then_cqn_order)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 2, .eqn = eq.eqn, .cq_period = 5 };
	struct refdrv_cq c1 = tl_cq_attr(t, &a), c2 = tl_cq_attr(t, &a);
	a.cq_period = 3;
	struct refdrv_cq c3 = tl_cq_attr(t, &a);
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &c2, false);
	refdrv_cq_arm(&t->d, &c1, false);
	refdrv_cq_arm(&t->d, &c3, false);
	cr_assert_eq(post(t, &c2, 1, false), 0);
	cr_assert_eq(post(t, &c1, 1, false), 0);
	cr_assert_eq(post(t, &c3, 1, false), 0);
	nicref_clock_advance(t->dev, 100000); /* all three due within one advance */
	cr_assert_eq(completions(t, 0), 3);
	uint8_t e[64];
	uint32_t order[3];
	for (unsigned i = 0; i < 3; i++) {
		tl_mem_read(t, eq.a.buf + 64u * i, e, 64);
		order[i] = (uint32_t)e[0x39] << 16 | e[0x3A] << 8 | e[0x3B];
	}
	cr_expect_eq(order[0], c3.cqn, "the 3 us period is due first");
	cr_expect_eq(order[1], c1.cqn, "then the lower cqn");
	cr_expect_eq(order[2], c2.cqn);
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
