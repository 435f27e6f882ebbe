/* RQT: CREATE/MODIFY/DESTROY/QUERY_RQT (PRM §7.8 T58/T59, §12.12 T349-T364). Decisions:
 * docs/tir.md (D-RQT-*). */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/tir.h"
#include "testlib.h"

static int create_rqt(struct tl_dev *t, unsigned max, unsigned actual, const uint32_t *rq,
		      unsigned n)
{
	tl_begin(t, "create_rqt_in", "CREATE_RQT");
	tl_set(t, "create_rqt_in", "rqt_max_size", max);
	tl_set(t, "create_rqt_in", "rqt_actual_size", actual);
	for (unsigned i = 0; i < n; i++)
		tl_set_elem(t, "create_rqt_in", "rq_num", i, rq[i]);
	return tl_run_paged(t, 0x110 + 4 * n, 16);
}

static uint32_t rqt(struct tl_dev *t, unsigned max, const uint32_t *rq, unsigned n)
{
	cr_assert_eq(create_rqt(t, max, n, rq, n), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	return (uint32_t)tl_get(t, "create_rqt_out", "rqtn");
}

static int modify_rqt(struct tl_dev *t, uint32_t rqtn, uint64_t mask, unsigned actual,
		      const uint32_t *rq, unsigned n)
{
	tl_begin(t, "modify_rqt_in", "MODIFY_RQT");
	tl_set(t, "modify_rqt_in", "rqtn", rqtn);
	tl_set(t, "modify_rqt_in", "modify_bitmask_63_32", mask >> 32);
	tl_set(t, "modify_rqt_in", "modify_bitmask_31_0", mask & 0xFFFFFFFF);
	tl_set(t, "modify_rqt_in", "rqt_actual_size", actual);
	for (unsigned i = 0; i < n; i++)
		tl_set_elem(t, "modify_rqt_in", "rq_num", i, rq[i]);
	return tl_run_paged(t, 0x110 + 4 * n, 16);
}

static int query_rqt(struct tl_dev *t, uint32_t rqtn, uint32_t out_len)
{
	tl_begin(t, "query_rqt_in", "QUERY_RQT");
	tl_set(t, "query_rqt_in", "rqtn", rqtn);
	return tl_run_paged(t, 16, out_len);
}

static int destroy_rqt(struct tl_dev *t, uint32_t rqtn)
{
	tl_begin(t, "destroy_rqt_in", "DESTROY_RQT");
	tl_set(t, "destroy_rqt_in", "rqtn", rqtn);
	return tl_run_paged(t, 16, 16);
}

static uint32_t rq_refs(struct tl_dev *t, uint32_t rqn)
{
	struct obj_hdr *h = obj_get(t->dev, OBJ_RQ, rqn);
	cr_assert(h);
	return h->refs;
}

#define expect_list(t, ...)                                                                     \
	do {                                                                                    \
		const uint32_t want[] = { __VA_ARGS__ };                                        \
		cr_expect_eq(tl_get((t), "query_rqt_out", "rqt_actual_size"),                    \
			     sizeof want / sizeof want[0]);                                     \
		for (uint32_t i = 0; i < sizeof want / sizeof want[0]; i++)                     \
			cr_expect_eq(tl_get_elem((t), "query_rqt_out", "rq_num", i), want[i],     \
				     "rq_num[%u]", i);                                          \
	} while (0)

Test(rqt, query_round_trip_and_modify)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	uint32_t r[4];
	for (int i = 0; i < 4; i++)
		r[i] = tl_rq(t, pd);
	/* T59: sizes powers of two, the same RQN may appear several times. */
	const uint32_t list[] = { r[1], r[0], r[1], r[3] };
	uint32_t n = rqt(t, 8, list, 4);
	cr_assert_eq(query_rqt(t, n, 0x110 + 16), 0);
	cr_expect_eq(tl_get(t, "query_rqt_out", "rqt_max_size"), 8);
	expect_list(t, r[1], r[0], r[1], r[3]);
	/* D-RQT-2: one reference per entry. */
	cr_expect_eq(rq_refs(t, r[0]), 1);
	cr_expect_eq(rq_refs(t, r[1]), 2);
	cr_expect_eq(rq_refs(t, r[2]), 0);
	cr_expect_eq(rq_refs(t, r[3]), 1);

	/* MODIFY_RQT bit 0 (T354): a new size and list; rqt_max_size stays (not in the mask). */
	const uint32_t all3[] = { r[2], r[2], r[2], r[2], r[2], r[2], r[2], r[1] };
	tl_begin(t, "modify_rqt_in", "MODIFY_RQT");
	cr_assert_eq(modify_rqt(t, n, 1, 8, all3, 8), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	cr_assert_eq(query_rqt(t, n, 0x110 + 32), 0);
	cr_expect_eq(tl_get(t, "query_rqt_out", "rqt_max_size"), 8);
	expect_list(t, r[2], r[2], r[2], r[2], r[2], r[2], r[2], r[1]);
	cr_expect_eq(rq_refs(t, r[0]), 0);
	cr_expect_eq(rq_refs(t, r[1]), 1);
	cr_expect_eq(rq_refs(t, r[2]), 7);
	cr_expect_eq(rq_refs(t, r[3]), 0);

	/* T59 14h: above rqt_max_size "the command fails and RQT does not change". */
	const uint32_t sixteen[16] = { r[0], r[0], r[0], r[0], r[0], r[0], r[0], r[0],
				       r[0], r[0], r[0], r[0], r[0], r[0], r[0], r[0] };
	tl_refused(t, modify_rqt(t, n, 1, 16, sixteen, 16), RQT_ACTUAL_BEYOND_MAX);
	cr_assert_eq(query_rqt(t, n, 0x110 + 32), 0);
	expect_list(t, r[2], r[2], r[2], r[2], r[2], r[2], r[2], r[1]);
	/* An empty bitmask changes nothing. With a size in the context it is refused: the field
	 * is not selected, so reserved (T354 20h, D-MOD-1: 38h[15:0]); the list past 110h is not
	 * the fixed layout's and is not judged (D-CMD-8). */
	cr_assert_eq(modify_rqt(t, n, 0, 0, list, 1), 0);
	tl_reserved(t, modify_rqt(t, n, 0, 1, list, 1), 0x38ull << 32 | 1);
	cr_assert_eq(query_rqt(t, n, 0x110 + 32), 0);
	cr_expect_eq(tl_get(t, "query_rqt_out", "rqt_actual_size"), 8);
	/* rqt_max_size is never selectable (34h[15:0]). */
	tl_begin(t, "modify_rqt_in", "MODIFY_RQT");
	tl_set(t, "modify_rqt_in", "rqtn", n);
	tl_set(t, "modify_rqt_in", "modify_bitmask_31_0", 1);
	tl_set(t, "modify_rqt_in", "rqt_max_size", 16);
	tl_set(t, "modify_rqt_in", "rqt_actual_size", 1);
	tl_set_elem(t, "modify_rqt_in", "rq_num", 0, r[3]);
	tl_reserved(t, tl_run_paged(t, 0x114, 16), 0x34ull << 32 | 16);
	cr_assert_eq(query_rqt(t, n, 0x110 + 32), 0);
	cr_expect_eq(tl_get(t, "query_rqt_out", "rqt_max_size"), 8);
	cr_expect_eq(tl_get(t, "query_rqt_out", "rqt_actual_size"), 8);

	/* D-RQ-1: an RQ an RQT lists cannot be destroyed; once unlisted it can. */
	tl_refused(t, refdrv_destroy_rq(&t->d, r[2]), RQ_IN_USE);
	cr_assert_eq(modify_rqt(t, n, 1, 1, &r[3], 1), 0);
	cr_expect_eq(refdrv_destroy_rq(&t->d, r[2]), 0);
	cr_expect_eq(destroy_rqt(t, n), 0);
	cr_expect_eq(rq_refs(t, r[3]), 0);
	tl_refused(t, query_rqt(t, n, 0x120), RQT_NOT_FOUND);
	tl_down_clean(t);
}

Test(rqt, refusals)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	uint32_t r = tl_rq(t, pd);
	const uint32_t one[] = { r, r, r, r };
	/* T59 14h/18h: powers of two (0 is none), actual <= max. */
	tl_refused(t, create_rqt(t, 0, 1, one, 1), RQT_MAX_SIZE_NOT_POW2);
	tl_refused(t, create_rqt(t, 6, 1, one, 1), RQT_MAX_SIZE_NOT_POW2);
	tl_refused(t, create_rqt(t, 4, 0, one, 0), RQT_ACTUAL_SIZE_NOT_POW2);
	tl_refused(t, create_rqt(t, 4, 3, one, 3), RQT_ACTUAL_SIZE_NOT_POW2);
	tl_refused(t, create_rqt(t, 2, 4, one, 4), RQT_ACTUAL_BEYOND_MAX);
	/* T59 14h: within HCA_CAP.log_max_rqt_size (8 in the default profile: 256). */
	cr_assert_eq(CAPS_CUR(t->dev, CAP_GENERAL, hca_cap, log_max_rqt_size), 8);
	tl_refused(t, create_rqt(t, 512, 1, one, 1), RQT_MAX_SIZE_TOO_LARGE);
	cr_expect_eq(create_rqt(t, 256, 1, one, 1), 0);
	/* The list must be in the input (T350). */
	tl_refused(t, create_rqt(t, 4, 4, one, 2), RQT_ENTRIES_BEYOND_INPUT);
	/* Each entry an RQ: 0 is outside the RQ numbers (from 1, D-OBJ-2), r + 1 is free. */
	const uint32_t zero[] = { r, 0 }, free_rq[] = { r + 1, r }, far[] = { 0xFFFFFF, r };
	tl_refused(t, create_rqt(t, 2, 2, zero, 2), RQT_RQ_OUT_OF_RANGE);
	tl_refused(t, create_rqt(t, 2, 2, free_rq, 2), RQT_RQ_INVALID);
	tl_refused(t, create_rqt(t, 2, 2, far, 2), RQT_RQ_OUT_OF_RANGE);
	cr_expect_eq(rq_refs(t, r), 1, "refused creates took no reference");

	uint32_t n = rqt(t, 4, one, 2);
	tl_refused(t, query_rqt(t, 0, 0x120), RQT_INDEX_OUT_OF_RANGE);
	tl_refused(t, query_rqt(t, n + 1, 0x120), RQT_NOT_FOUND);
	tl_refused(t, destroy_rqt(t, n + 1), RQT_NOT_FOUND);
	tl_refused(t, destroy_rqt(t, 1u << 23), RQT_INDEX_OUT_OF_RANGE);
	tl_refused(t, modify_rqt(t, n + 1, 1, 1, one, 1), RQT_NOT_FOUND);
	/* T354: bit 0 only. */
	tl_refused(t, modify_rqt(t, n, 3, 1, one, 1), RQT_MODIFY_BITMASK);
	tl_refused(t, modify_rqt(t, n, 1ull << 63 | 1, 1, one, 1), RQT_MODIFY_BITMASK);
	tl_refused(t, modify_rqt(t, n, 1, 2, one, 1), RQT_ENTRIES_BEYOND_INPUT);
	tl_refused(t, modify_rqt(t, n, 1, 2, free_rq, 2), RQT_RQ_INVALID);
	tl_refused(t, modify_rqt(t, n, 1, 0, one, 0), RQT_ACTUAL_SIZE_NOT_POW2);
	/* QUERY_RQT: the output must hold the list (D-RQT-3): 0x110 + 2 * 4. */
	tl_refused(t, query_rqt(t, n, 0x114), RQT_OUTPUT_TOO_SHORT);
	cr_expect_eq(query_rqt(t, n, 0x118), 0);
	cr_expect_eq(rq_refs(t, r), 3);
	tl_down_clean(t);
}

Test(rqt, count_limit)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_max_objects = 1; /* 2^1 RQTs (T145 log_max_rqt follows the profile) */
	struct tl_dev *t = tl_up(&p);
	uint32_t pd = tl_alloc_pd(t);
	uint32_t r = tl_rq(t, pd);
	rqt(t, 1, &r, 1);
	rqt(t, 1, &r, 1);
	tl_refused(t, create_rqt(t, 1, 1, &r, 1), RQT_EXHAUSTED);
	cr_expect_eq(rq_refs(t, r), 2);
	tl_down_clean(t);
}

/* T59 F0h: rq_num[] holds the RQN in bits 23:0; bits 31:24 are reserved (D-RQT-4, D-CMD-8):
 * each entry with one set is a violation at its input dword (110h + 4i); the strict profile
 * refuses CREATE_RQT and MODIFY_RQT, the permissive one runs them with the RQN of bits 23:0. */
Test(rqt, entry_bits_31_24_are_reserved)
{
	for (int strict = 1; strict >= 0; strict--) {
		struct nicref_profile p;
		nicref_profile_default(&p);
		p.reserved_check = (uint8_t)strict;
		struct tl_dev *t = tl_up(&p);
		uint32_t pd = tl_alloc_pd(t);
		uint32_t r0 = tl_rq(t, pd), r1 = tl_rq(t, pd);
		/* An RQT first, so that the ICM page is held and no command below is retried by
		 * the driver's page dance (a retry would report the violation again). */
		const uint32_t good[] = { r0, r1 };
		uint32_t n = rqt(t, 2, good, 2);
		const uint32_t bad[] = { r0, 0x01000000u | r1 };
		int st = create_rqt(t, 2, 2, bad, 2);
		if (strict) {
			tl_reserved(t, st, 0x114ull << 32 | 0x01000000);
			cr_expect_eq(rq_refs(t, r1), 1, "nothing created");
			cr_expect_eq(t->dev->obj[OBJ_RQT].nlive, 1);
		} else {
			cr_assert_eq(st, 0);
			cr_expect_eq(t->tr.violations, 1);
			cr_expect_eq(t->tr.last_violation_arg, 0x114ull << 32 | 0x01000000);
			t->tr.violations = 0;
			uint32_t m = (uint32_t)tl_get(t, "create_rqt_out", "rqtn");
			cr_assert_eq(query_rqt(t, m, 0x118), 0);
			expect_list(t, r0, r1);
			cr_expect_eq(t->out[0x114], 0, "bits 31:24 read 0");
			cr_expect_eq(rq_refs(t, r1), 2);
			cr_expect_eq(destroy_rqt(t, m), 0);
		}
		const uint32_t bad1[] = { 0x80000000u | r0 };
		st = modify_rqt(t, n, 1, 1, bad1, 1);
		if (strict) {
			tl_reserved(t, st, 0x110ull << 32 | 0x80000000);
		} else {
			cr_assert_eq(st, 0);
			cr_expect_eq(t->tr.violations, 1);
			cr_expect_eq(t->tr.last_violation_arg, 0x110ull << 32 | 0x80000000);
			t->tr.violations = 0;
		}
		cr_assert_eq(query_rqt(t, n, 0x118), 0);
		if (strict)
			expect_list(t, r0, r1);
		else
			expect_list(t, r0);
		tl_down_clean(t);
	}
}
