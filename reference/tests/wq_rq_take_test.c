/* Receive WQE consumption (obj/rq.c rq_dequeue, rq_wqe_done): the WQEs an RQ takes from its RMP
 * (PRM §7.7.2.2, T57) live in a ring the RQ owns from CREATE_RQ, sized by the RMP (D-RQ-7), so
 * that taking and completing WQEs never allocate; WQEs completed out of order leave the others
 * to the flush in the order they were taken. Shared tools: wq_util.h. */
#include <stdint.h>

#include "wq_util.h"

TestSuite(rq_take, .init = setup_graph, .fini = teardown);

/* An RDY RQ on a new cyclic RMP of 2^4 strides (rmp_attr), nothing posted yet. */
static struct rq *rmp_rq(uint32_t *rmpn, uint32_t *rqn)
{
	struct refdrv_rmp_attr m = rmp_attr();
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, rmpn), OK);
	struct refdrv_rq_attr a = rq_attr();
	a.on_rmp = true;
	a.rmpn = *rmpn;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, rqn), OK);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, *rqn, 0, 1), OK); /* RST2RDY */
	struct rq *rq = obj_get(tdev->dev, OBJ_RQ, *rqn);
	cr_assert_not_null(rq);
	return rq;
}

Test(rq_take, ring_sized_at_create_and_never_reallocated)
{
	uint32_t rmpn, rqn;
	struct rq *rq = rmp_rq(&rmpn, &rqn);
	/* The ring exists before the first take, one slot per stride of the RMP (2^4). */
	cr_assert_not_null(rq->taken);
	cr_expect_eq(rq->taken_cap, 16u);
	uint32_t *ring = rq->taken;
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, RMP_DBR, false, 16), 0);
	uint32_t idx;
	for (uint32_t i = 0; i < 16; i++) {
		cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0, "take %u", i);
		cr_expect_eq(idx, i, "a cyclic RMP hands out its counter (§7.4.1.2)");
	}
	cr_expect_eq(rq->ntaken, 16u);
	for (uint32_t i = 0; i < 16; i++)
		rq_wqe_done(rq, i);
	cr_expect_eq(rq->ntaken, 0u);
	cr_expect_eq(rq->taken, ring, "the same memory after 16 takes and 16 completions");
	cr_expect_eq(rq->taken_cap, 16u);
	/* An inline RQ takes from its own WQ: no ring. */
	struct refdrv_rq_attr a = rq_attr();
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, &rqn), OK);
	struct rq *inl = obj_get(tdev->dev, OBJ_RQ, rqn);
	cr_expect_null(inl->taken);
	cr_expect_eq(inl->taken_cap, 0u);
}

Test(rq_take, holding_every_stride_takes_no_more)
{
	uint32_t rmpn, rqn;
	struct rq *rq = rmp_rq(&rmpn, &rqn);
	/* SW posts 18 WQEs into an RMP of 16 strides: the record runs past strides the RQ still
	 * holds (D-RQ-7). The RQ takes 16, then nothing: the RMP's counter stays at 16. */
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, RMP_DBR, false, 18), 0);
	uint32_t idx;
	for (uint32_t i = 0; i < 16; i++)
		cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0, "take %u", i);
	tl_mark(&tdev->tr);
	cr_expect_eq(rq_dequeue(tdev->dev, rq, &idx), -2, "every stride held: nothing taken");
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rmp(&tdev->d, rmpn, &st), OK);
	cr_expect_eq(st.hw_counter, 16, "the WQE stays posted in the RMP");
	cr_expect_eq(st.state, 1, "the RMP stays RDY");
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 0, "no event");
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 0);
	/* A WQE completing out of order frees one slot: the 17th WQE is taken. */
	rq_wqe_done(rq, 5);
	cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
	cr_expect_eq(idx, 16);
	cr_expect_eq(rq_dequeue(tdev->dev, rq, &idx), -2, "full again");
	/* RDY2ERR flushes the 16 held, in the order taken, 5 excluded; then Last WQE Reached
	 * (§7.7.2.2, T82/T83). */
	tl_mark(&tdev->tr);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 1, 3), OK);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 16);
	static const uint16_t order[16] = { 0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	for (unsigned i = 0; i < 16; i++)
		cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, i)->arg[4], order[i],
			     "flush CQE %u: wqe_counter", i);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_EQE, 0)->arg[2], 0x13);
	cr_expect_eq(rq->ntaken, 0u);
}

Test(rq_take, completions_out_of_order_keep_the_flush_order)
{
	uint32_t rmpn, rqn;
	struct rq *rq = rmp_rq(&rmpn, &rqn);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, RMP_DBR, false, 6), 0);
	uint32_t idx;
	for (uint32_t i = 0; i < 6; i++)
		cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
	/* 2 and 0 complete (the oldest first after 2), 9 was never taken: no effect. */
	rq_wqe_done(rq, 2);
	rq_wqe_done(rq, 0);
	rq_wqe_done(rq, 9);
	cr_expect_eq(rq->ntaken, 4u);
	tl_mark(&tdev->tr);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 1, 3), OK);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 4);
	static const uint16_t order[4] = { 1, 3, 4, 5 };
	for (unsigned i = 0; i < 4; i++)
		cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, i)->arg[4], order[i]);
	/* Back to RST and RDY: the RQ holds nothing and takes on from the RMP (D-RQ-5). */
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 3, 0), OK);
	cr_expect_eq(rq->ntaken, 0u);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 0, 1), OK);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, RMP_DBR, false, 7), 0);
	cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
	cr_expect_eq(idx, 6);
}

Test(rq_take, linked_list_rmp_follows_next_wqe_index)
{
	/* PRM §7.4.4.4 T42/T43: a shared receive WQE starts with Next_WQE_index 00h[15:0] (the
	 * next WQE of a linked-list RMP, in strides) and the WQE signature 04h[31:24]; D-RMP-1:
	 * the list starts at stride 0. */
	tl_pin("srq_wqe_next", "next_wqe_index", 0x00, 15, 0);
	tl_pin("srq_wqe_next", "signature", 0x04, 31, 24);
	struct refdrv_rmp_attr m = rmp_attr();
	m.wq.wq_type = 0; /* T55: linked list */
	uint32_t rmpn, rqn;
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, &rmpn), OK);
	struct refdrv_rq_attr a = rq_attr();
	a.on_rmp = true;
	a.rmpn = rmpn;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, &rqn), OK);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 0, 1), OK);
	struct rq *rq = obj_get(tdev->dev, OBJ_RQ, rqn);
	/* Strides of 2^5 bytes: 0 -> 9 -> 4. The bits around the index are not the index. */
	uint8_t next[4];
	tl_put32(next, 0xABCD0000u | 9);
	tl_mem_write(tdev, RMP_BUF + 32 * 0, next, sizeof next);
	tl_put32(next, 0xFFFF0000u | 4);
	tl_mem_write(tdev, RMP_BUF + 32 * 9, next, sizeof next);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, RMP_DBR, false, 3), 0);
	uint32_t idx;
	static const uint32_t want[3] = { 0, 9, 4 };
	for (unsigned i = 0; i < 3; i++) {
		cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
		cr_expect_eq(idx, want[i], "take %u", i);
	}
}
