/* Completions with error on the send path (PRM §7.12.7 T73/T74, §7.9.2, §7.12.1; eth/tx_cqe.c,
 * D-TX-9): the error CQE's fields, the SQ moving to ERR by the device, the WQEs posted behind
 * the failed one flushed, WQEs posted after ERR flushed at their doorbell, a CQ that takes no
 * CQE, and the public names of opcodes and syndromes. Shared tools: tx_util.h. */
#include "tx_util.h"

TestSuite(tx_error, .init = tx_setup, .fini = tx_teardown);

Test(tx_error, error_cqe_fields_and_err)
{
	struct wqe w;
	uint8_t cqe[64];
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	tl_mark(&tdev->tr);
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2); /* no Eth segment: malformed */
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	/* T73/T74: opcode 13, the syndrome, the WQE's opcode and counter, user_index; owner and
	 * signature as every CQE. */
	cr_expect_eq(ERR_CQE(cqe, "opcode"), 13);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(ERR_CQE(cqe, "vendor_error_syndrome"), 0);
	cr_expect_eq(ERR_CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_SEND);
	cr_expect_eq(ERR_CQE(cqe, "wqe_counter"), 1);
	cr_expect_eq(ERR_CQE(cqe, "srqn_user_index"), 0x123456);
	cr_expect_eq(tl_xor_index(cqe, 64, 1), 0xFF, "signature with the CQE index");
	/* §7.9.2: the device moves the SQ to ERR (wq_state cause 1). */
	const struct nicref_event *st = tl_only(&tdev->tr, NICREF_EV_WQ_STATE);
	cr_expect_eq(st->arg[0], 0, "SQ");
	cr_expect_eq(st->arg[1], tx.sqn);
	cr_expect_eq(st->arg[2], 1);
	cr_expect_eq(st->arg[3], 3);
	cr_expect_eq(st->arg[4], 1, "by the device");
	/* D-TX-9: no EQE: T79 lists no SQ error event; the error CQE reports it. */
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 0);
	struct refdrv_wq_status q = tx_query();
	cr_expect_eq(q.state, 3);
	cr_expect_eq(q.hw_counter, 2, "past the failed WQE");
}

Test(tx_error, the_wqes_behind_a_failure_are_flushed)
{
	/* §7.12.7: "subsequent WQEs posted to the RQ/SQ will result in reporting a completion
	 * with error (flushed)"; T61 flush_in_error_en. Three WQEs, one doorbell: the first
	 * fails, the two others are flushed, none runs. */
	struct wqe w[3];
	uint8_t pkt[64], cqe[64];
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	w_ctrl(&w[0], 0x0B, 2);
	tx_post(&w[0]);
	w_send_packet(&w[1], 2, pkt, sizeof pkt, 64, 0);
	tx_post(&w[1]);
	w_ctrl(&w[2], NICREF_SEND_OP_NOP, 0); /* CE 00: flushes are errors, reported */
	tx_post(&w[2]);
	tx_ring(&w[2]);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	for (uint16_t i = 1; i < 3; i++) {
		cr_assert_eq(tx_poll(cqe), 1);
		cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_WR_FLUSHED);
		cr_expect_eq(ERR_CQE(cqe, "wqe_counter"), w[i].index);
	}
	cr_expect_eq(tx.nframes, 0, "a flushed SEND sends nothing");
	/* Posted after ERR: flushed at its doorbell (T63). */
	struct wqe late;
	w_ctrl(&late, NICREF_SEND_OP_NOP, 2);
	tx_send(&late);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_WR_FLUSHED);
	cr_expect_eq(ERR_CQE(cqe, "wqe_counter"), late.index);
}

/* Rings for `named` with the record at `record` (not tx.pc): a record that covers only part
 * of what was posted. */
static void ring_at(uint16_t record, const struct wqe *named)
{
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, tx.sq_dbr, true, record), 0);
	refdrv_sq_doorbell(&tdev->d, tdev->uar, 0, tx.sqn, named->index, named->b[3],
			   (unsigned)named->len / 16);
}

Test(tx_error, a_wqe_past_the_record_is_not_flushed_until_covered)
{
	/* §7.4.3: HW owns the WQEBBs the record covers; D-SQ-5: "a WQE that runs past the
	 * record ends the flush there" and stays posted (as a run does, D-TX-3). WQE 0 fails
	 * (ERR), WQE 1 takes WQEBBs 1-2 and the record stops at 2: WQE 1 is not flushed, and
	 * hw_counter stays at its first WQEBB. A later record covering it and a NOP at 3 flush
	 * both whole: no CQE for a phantom WQE read out of WQE 1's data. */
	struct wqe w0, w1, w2;
	uint8_t cqe[64], data[80], hdr[14] = { 0 };
	memset(data, 0x01, sizeof data); /* WQEBB 2 reads as a ctrl segment of ds 1 */
	w_ctrl(&w0, 0x0B, 2);
	tx_post(&w0);
	w_ctrl(&w1, NICREF_SEND_OP_SEND, 2);
	w_eth(&w1, 0, 0, 0, hdr, 0);
	w_inline(&w1, data, sizeof data); /* 16 + 16 + 96 = 128 bytes: two WQEBBs */
	tx_post(&w1);
	cr_assert_eq(w1.index, 1);
	cr_assert_eq(w1.len, 128);
	ring_at(2, &w0);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(tx_poll(cqe), 0, "WQE 1 is not wholly posted: no flush CQE");
	cr_expect_eq(tx_query().hw_counter, 1, "the flush ends at WQE 1's first WQEBB");
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_TX_WQE_BEYOND_RECORD], 1, "D-TX-3's violation");
	tl_mark(&tdev->tr);
	w_ctrl(&w2, NICREF_SEND_OP_NOP, 2);
	tx_post(&w2);
	cr_assert_eq(w2.index, 3);
	ring_at(4, &w2);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_WR_FLUSHED);
	cr_expect_eq(ERR_CQE(cqe, "wqe_counter"), 1);
	cr_expect_eq(ERR_CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_SEND);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_WR_FLUSHED);
	cr_expect_eq(ERR_CQE(cqe, "wqe_counter"), 3);
	cr_expect_eq(ERR_CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_NOP);
	cr_expect_eq(tx_poll(cqe), 0);
	cr_expect_eq(tx_query().hw_counter, 4);
	cr_expect_eq(tdev->tr.violations, 0, "the record now covers WQE 1");
}

static void no_flush_sq(void)
{
	struct tx_opts o = tx_default_opts();
	o.flush_in_error_en = false;
	tx_setup_opts(&o);
}

Test(tx_error, without_flush_in_error_en_nothing_is_flushed, .init = no_flush_sq)
{
	/* T63 ERR: "an SQ is not forced to flush" (D-SQ-4). */
	struct wqe w[2];
	uint8_t cqe[64];
	w_ctrl(&w[0], 0x0B, 2);
	tx_post(&w[0]);
	w_ctrl(&w[1], NICREF_SEND_OP_NOP, 2);
	tx_post(&w[1]);
	tx_ring(&w[1]);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(tx_poll(cqe), 0);
	cr_expect_eq(tx_query().hw_counter, 1, "the NOP stays posted");
}

static void tiny_cq(void)
{
	tx_setup();
	/* A second CQ of two CQEs and an SQ on it. */
	struct refdrv_cq small = tl_cq(tdev, 1, tx.eq.eqn);
	tx.cq = small;
	struct tx_opts o = tx_default_opts();
	tx.sq_buf = tl_hostmem(tdev, 64ull << o.log_sq);
	tx.sq_dbr = tl_hostmem(tdev, 8);
	struct refdrv_sq_attr a = {
		.wq = { .buf = tx.sq_buf,
			.dbr = tx.sq_dbr,
			.wq_type = 1,
			.log_wq_sz = o.log_sq,
			.log_wq_stride = 6,
			.pd = tx.pd },
		.cqn = small.cqn,
		.tisn = tx.tisn,
		.uar = tdev->uar,
		.min_wqe_inline_mode = 1,
		.flush_in_error_en = false,
	};
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &tx.sqn), 0);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, tx.sqn, 0, 1), 0);
	tx.pc = 0;
	tl_mark(&tdev->tr);
}

Test(tx_error, a_full_cq_puts_the_sq_in_err, .init = tiny_cq)
{
	/* §7.12.1: a CQE for a full CQ: the CQ to error, "Transfers the RQ/SQ to the error
	 * state", the event. Nothing polled: the third CQE overruns. */
	struct wqe w;
	for (int i = 0; i < 3; i++) {
		w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
		tx_send(&w);
	}
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 2);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_CQ_OVERRUN], 1);
	cr_expect_eq(tx_query().state, 3, "ERR");
	tl_mark(&tdev->tr);
}

Test(tx_error, names_of_opcodes_and_syndromes)
{
	cr_expect_str_eq(nicref_send_opcode_name(0x0A), "SEND");
	cr_expect_str_eq(nicref_send_opcode_name(0x25), "UMR");
	cr_expect_eq(nicref_send_opcode_find("LSO"), 0x0E);
	cr_expect_eq(nicref_send_opcode_find("NOP"), 0x00);
	cr_expect_null(nicref_send_opcode_name(0x0B));
	cr_expect_eq(nicref_send_opcode_find("RDMA_WRITE"), -1);
	cr_expect_str_eq(nicref_cqe_syndrome_name(0x01), "LOCAL_LENGTH");
	cr_expect_str_eq(nicref_cqe_syndrome_name(0x05), "WR_FLUSHED");
	cr_expect_eq(nicref_cqe_syndrome_find("LOCAL_PROTECTION"), 0x04);
	cr_expect_eq(nicref_cqe_syndrome_find("LOCAL_QP_OPERATION"), 0x02);
	cr_expect_null(nicref_cqe_syndrome_name(0x03));
}

Test(tx_error, every_send_rule_cites_its_section)
{
	/* Rules carry "PRM §x.y" so vectors can match them by clause (docs/vectors.md). */
	static const char *const rules[] = {
#define RULE_NAME(id, cite, text) #id,
		NICREF_VIOLATIONS_TX(RULE_NAME)
#undef RULE_NAME
	};
	for (size_t i = 0; i < TL_NELEM(rules); i++) {
		int r = nicref_violation_find(rules[i]);
		cr_assert_geq(r, 0, "%s is a violation", rules[i]);
		cr_expect(strstr(nicref_violation_citation((unsigned)r), "PRM §") != NULL, "%s: %s",
			  rules[i], nicref_violation_citation((unsigned)r));
	}
}
