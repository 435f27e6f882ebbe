/* The handles SQ, RQ and RMP commands name (D-OBJ-2, D-MKC-13): a handle outside its table's
 * range answers BAD_INDEX (PRM T128 0x0A "Index out of range (might be beyond table size ...)"),
 * one in range but not live BAD_RESOURCE (0x05 "unallocated resource ... not existing CQ when
 * creating SQ/RQ"), as the TIS/TIR/RQT commands answer (docs/tir.md). */
#include <stdint.h>

#include "wq_util.h"

TestSuite(wq_handles, .init = setup_graph, .fini = teardown);

#define BAD_INDEX 0x0Au
#define FAR 0xFFFFFFu /* beyond every table: log_max_objects 16 gives [1, 2^16 + 1) */
#define NEAR 77u      /* in range, never handed out in these tests */

/* DESTROY_SQ 0x906, DESTROY_RQ 0x90A, DESTROY_RMP 0x90E; QUERY_SQ 0x907, QUERY_RQ 0x90B,
 * QUERY_RMP 0x90F (T318-T381: the number at 08h[23:0]). */
Test(wq_handles, destroy_and_query_beyond_the_table_are_bad_index)
{
	static const struct {
		uint16_t op;
		enum nicref_cmd_rule beyond, missing;
	} cases[] = {
		{ 0x906, NICREF_RULE_SQ_INDEX_OUT_OF_RANGE, NICREF_RULE_SQ_NOT_FOUND },
		{ 0x90A, NICREF_RULE_RQ_INDEX_OUT_OF_RANGE, NICREF_RULE_RQ_NOT_FOUND },
		{ 0x90E, NICREF_RULE_RMP_INDEX_OUT_OF_RANGE, NICREF_RULE_RMP_NOT_FOUND },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cmd16(cases[i].op, FAR, NULL);
		tl_expect_refused(tdev, BAD_INDEX, cases[i].beyond);
		cmd16(cases[i].op, 0, NULL); /* below the base (D-OBJ-2: from 1) */
		tl_expect_refused(tdev, BAD_INDEX, cases[i].beyond);
		cmd16(cases[i].op, NEAR, NULL);
		tl_expect_refused(tdev, BAD_RESOURCE, cases[i].missing);
	}
	/* QUERY takes a longer output: through the raw command with a 0x110-byte output. */
	static const uint16_t queries[] = { 0x907, 0x90B, 0x90F };
	static const enum nicref_cmd_rule qbeyond[] = { NICREF_RULE_SQ_INDEX_OUT_OF_RANGE,
							NICREF_RULE_RQ_INDEX_OUT_OF_RANGE,
							NICREF_RULE_RMP_INDEX_OUT_OF_RANGE };
	for (size_t i = 0; i < 3; i++) {
		uint8_t in[16] = { 0 }, out[0x110];
		tl_setf(in, 0x00, 31, 16, queries[i]);
		tl_setf(in, 0x08, 23, 0, FAR);
		(void)tl_cmd(tdev, in, sizeof in, out, sizeof out);
		tl_expect_refused(tdev, BAD_INDEX, qbeyond[i]);
	}
	tl_mark(&tdev->tr);
}

/* MODIFY_SQ 0x905 / MODIFY_RQ 0x909 / MODIFY_RMP 0x90D RST2RDY (RMP: RDY2RDY) of a number
 * beyond the table. */
Test(wq_handles, modify_beyond_the_table_is_bad_index)
{
	cr_assert_eq(refdrv_modify_sq(&tdev->d, FAR, 0, 1), BAD_INDEX);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_SQ_INDEX_OUT_OF_RANGE);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, FAR, 0, 1), BAD_INDEX);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_RQ_INDEX_OUT_OF_RANGE);
	cr_assert_eq(refdrv_modify_rmp_lwm(&tdev->d, FAR, 1), BAD_INDEX);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_RMP_INDEX_OUT_OF_RANGE);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, NEAR, 0, 1), BAD_RESOURCE);
	tl_expect_refused(tdev, BAD_RESOURCE, NICREF_RULE_SQ_NOT_FOUND);
	tl_mark(&tdev->tr);
}

/* CREATE_SQ naming a CQ, PD, TIS or UAR beyond its table: BAD_INDEX; in range, not live:
 * BAD_RESOURCE. */
Test(wq_handles, create_sq_names_beyond_their_tables_are_bad_index)
{
	uint32_t sqn;
	struct refdrv_sq_attr a = sq_attr();
	a.cqn = FAR;
	refdrv_create_sq(&tdev->d, &a, &sqn);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_WQ_CQ_OUT_OF_RANGE);
	a = sq_attr();
	a.wq.pd = 0;
	refdrv_create_sq(&tdev->d, &a, &sqn);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_WQ_PD_OUT_OF_RANGE);
	a = sq_attr();
	a.tisn = FAR;
	refdrv_create_sq(&tdev->d, &a, &sqn);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_SQ_TIS_OUT_OF_RANGE);
	a = sq_attr();
	a.uar = FAR;
	refdrv_create_sq(&tdev->d, &a, &sqn);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_SQ_UAR_OUT_OF_RANGE);
	/* In range but not live: BAD_RESOURCE, as before. */
	a = sq_attr();
	a.tisn = NEAR;
	refdrv_create_sq(&tdev->d, &a, &sqn);
	tl_expect_refused(tdev, BAD_RESOURCE, NICREF_RULE_SQ_TIS_MISSING);
	a = sq_attr();
	a.cqn = NEAR;
	refdrv_create_sq(&tdev->d, &a, &sqn);
	tl_expect_refused(tdev, BAD_RESOURCE, NICREF_RULE_WQ_CQ_MISSING);
	/* Nothing was created by the refusals: the next SQ is number 1 (D-OBJ-2). */
	a = sq_attr();
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_expect_eq(sqn, 1u);
	tl_mark(&tdev->tr);
}

/* CREATE_RQ naming a CQ, a PD (inline) or an RMP (RMP RQ) beyond its table; CREATE_RMP a PD. */
Test(wq_handles, create_rq_and_rmp_names_beyond_their_tables_are_bad_index)
{
	uint32_t n;
	struct refdrv_rq_attr r = rq_attr();
	r.cqn = 0;
	refdrv_create_rq(&tdev->d, &r, &n);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_WQ_CQ_OUT_OF_RANGE);
	r = rq_attr();
	r.wq.pd = FAR;
	refdrv_create_rq(&tdev->d, &r, &n);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_WQ_PD_OUT_OF_RANGE);
	r = rq_attr();
	r.on_rmp = true;
	r.rmpn = FAR;
	refdrv_create_rq(&tdev->d, &r, &n);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_RQ_RMP_OUT_OF_RANGE);
	r.rmpn = NEAR;
	refdrv_create_rq(&tdev->d, &r, &n);
	tl_expect_refused(tdev, BAD_RESOURCE, NICREF_RULE_RQ_RMP_MISSING);
	struct refdrv_rmp_attr m = rmp_attr();
	m.wq.pd = FAR;
	refdrv_create_rmp(&tdev->d, &m, &n);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_WQ_PD_OUT_OF_RANGE);
	m.wq.pd = NEAR;
	refdrv_create_rmp(&tdev->d, &m, &n);
	tl_expect_refused(tdev, BAD_RESOURCE, NICREF_RULE_WQ_PD_MISSING);
	tl_mark(&tdev->tr);
}
