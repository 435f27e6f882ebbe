/* The ctrl segment (PRM §7.4.4.1.1 T26; eth/wqe_ctrl.c, eth/tx_cqe.c): opcode, WQE index, SQ
 * number, DS, fence, the signature (§9.2.3, D-TX-8), the NOP (T41), the four CE modes and the
 * requester CQE they produce (§7.12, T67/T68). Shared tools: tx_util.h. */
#include "tx_util.h"

TestSuite(tx_ctrl, .init = tx_setup, .fini = tx_teardown);

/* A malformed WQE completes with error 0x2 (D-TX-9), the SQ goes to ERR; one violation. */
static void expect_refused(enum nicref_violation rule, uint8_t syndrome)
{
	uint8_t cqe[64];
	tl_expect_one_violation(&tdev->tr, rule);
	cr_assert_eq(tx_poll(cqe), 1, "an error CQE");
	cr_expect_eq(ERR_CQE(cqe, "opcode"), 13, "T68 requester error");
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), syndrome);
	cr_expect_eq(tx_query().state, 3, "§7.9.2: ERR");
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_FRAME_OUT), 0);
}

Test(tx_ctrl, unknown_opcode)
{
	struct wqe w;
	w_ctrl(&w, 0x0B, 2); /* T26 names 0x00, 0x0A, 0x25 (and LSO, D-TX-1) */
	tx_send(&w);
	expect_refused(NICREF_VIO_TX_WQE_OPCODE, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(tdev->tr.last_violation_arg, (uint64_t)tx.sqn << 32 | 0x0B);
}

Test(tx_ctrl, wqe_index_must_be_the_wqebb_counter)
{
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_post(&w);
	seg_set(&w, 0, "send_wqe_ctrl", "wqe_index", 7);
	tl_mem_write(tdev, tx.sq_buf, w.b, w.len);
	tx_ring(&w);
	expect_refused(NICREF_VIO_TX_WQE_INDEX, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(tdev->tr.last_violation_arg, (uint64_t)tx.sqn << 32 | 0u << 16 | 7u);
}

Test(tx_ctrl, sq_number_must_be_the_sq)
{
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_post(&w);
	seg_set(&w, 0, "send_wqe_ctrl", "sq_number", tx.sqn + 1);
	tl_mem_write(tdev, tx.sq_buf, w.b, w.len);
	tx_ring(&w);
	expect_refused(NICREF_VIO_TX_WQE_SQ_NUMBER, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_ctrl, ds_zero)
{
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_post(&w);
	seg_set(&w, 0, "send_wqe_ctrl", "ds", 0);
	tl_mem_write(tdev, tx.sq_buf, w.b, w.len);
	tx_ring(&w);
	expect_refused(NICREF_VIO_TX_WQE_DS_ZERO, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_ctrl, nop_takes_only_zero_length_padding)
{
	/* §7.2.2.1: a NOP padded with a zero-length data segment is a NOP. */
	struct wqe w;
	uint8_t cqe[64], d[4] = { 1, 2, 3, 4 };
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	w_inline(&w, d, 0);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(tdev->tr.violations, 0);
	/* T41: anything else in a NOP is not part of it. */
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	w_inline(&w, d, 4);
	tx_send(&w);
	expect_refused(NICREF_VIO_TX_NOP_SEGMENTS, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_ctrl, fence_modes)
{
	/* T26 FM: 000 and 001 are defined; the model runs in order (D-TX-8). */
	struct wqe w;
	uint8_t cqe[64];
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	seg_set(&w, 0, "send_wqe_ctrl", "fm", 1);
	tx_send(&w);
	cr_expect_eq(tdev->tr.violations, 0);
	cr_expect_eq(tx_poll(cqe), 1);
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	seg_set(&w, 0, "send_wqe_ctrl", "fm", 5);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_WQE_FENCE_RESERVED);
	cr_expect_eq(tx_poll(cqe), 1, "executed all the same");
	cr_expect_eq(CQE(cqe, "opcode"), 0);
}

/* ---- CE modes (T26) -------------------------------------------------------------------------- */

Test(tx_ctrl, ce_00_and_01_report_success_with_no_cqe)
{
	struct wqe w;
	uint8_t cqe[64];
	for (unsigned ce = 0; ce < 2; ce++) {
		w_ctrl(&w, NICREF_SEND_OP_NOP, ce);
		tx_send(&w);
	}
	cr_expect_eq(tx_poll(cqe), 0, "CE 00/01: CQEs only on errors");
	cr_expect_eq(tx_query().hw_counter, 2, "both ran");
}

Test(tx_ctrl, ce_10_cqe_fields)
{
	/* T68, "SQ" column: wqe_counter, s_wqe_opcode, user_index (cqe_version 1), the timestamp
	 * (§7.12.10), se, owner; signature covers the CQE (cq_post). */
	struct wqe w;
	uint8_t cqe[64];
	nicref_clock_advance(tdev->dev, 1000000); /* 1 ms of virtual time */
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_send(&w);
	uint32_t h = nicref_bar_read32(tdev->dev, 0x1000), l = nicref_bar_read32(tdev->dev, 0x1004);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(CQE(cqe, "wqe_counter"), 0);
	cr_expect_eq(CQE(cqe, "s_wqe_opcode"), 0x00);
	cr_expect_eq(CQE(cqe, "srqn_user_index"), 0x123456, "T61 user_index (cqe_version 1)");
	cr_expect_eq(CQE(cqe, "timestamp_h"), h, "the internal timer (T8 1000h)");
	cr_expect_eq(CQE(cqe, "timestamp_l"), l, "T8 1004h, sampled when the CQE was written");
	cr_expect_neq(l, 0);
	cr_expect_eq(CQE(cqe, "se"), 0);
	cr_expect_eq(CQE(cqe, "byte_cnt"), 0, "T68: receive completions only");
	cr_expect_eq(tl_xor_index(cqe, 64, 0), 0xFF, "T68 signature with the CQE index");
	/* ctrl se is copied (T68 SE). */
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	seg_set(&w, 0, "send_wqe_ctrl", "se", 1);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "se"), 1);
	cr_expect_eq(CQE(cqe, "wqe_counter"), 1);
}

Test(tx_ctrl, ce_11_is_a_solicited_event)
{
	/* T26 CE 11 "Generate CQE and EQE (local Solicited event)" (D-TX-8): se = 1, so a CQ armed
	 * for solicited events fires. */
	refdrv_cq_arm(&tdev->d, &tx.cq, true);
	tl_mark(&tdev->tr);
	struct wqe w;
	uint8_t cqe[64];
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_send(&w);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 0, "CE 10 is not solicited");
	w_ctrl(&w, NICREF_SEND_OP_NOP, 3);
	tx_send(&w);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 1, "the completion event");
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "se"), 0);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "se"), 1);
}

Test(tx_ctrl, ce_01_reports_only_the_first_error)
{
	/* T26 CE 01: "if CQE on previous WQE completed in error, no CQE will be generated". Three
	 * bad WQEs posted at once: the first fails (CE 01, CQE), the others are flushed (§7.9.2)
	 * and the one of CE 01 after an error has no flush CQE. */
	struct wqe w[3];
	for (int i = 0; i < 3; i++) {
		w_ctrl(&w[i], 0x0B, i == 2 ? 2 : 1);
		tx_post(&w[i]);
	}
	tx_ring(&w[2]);
	uint8_t cqe[64];
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(ERR_CQE(cqe, "wqe_counter"), 0);
	cr_assert_eq(tx_poll(cqe), 1, "WQE 2 (CE 10) flushed");
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_WR_FLUSHED);
	cr_expect_eq(ERR_CQE(cqe, "wqe_counter"), 2);
	cr_expect_eq(tx_poll(cqe), 0);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_WQE_OPCODE);
}

Test(tx_ctrl, ce_00_reports_errors)
{
	struct wqe w;
	w_ctrl(&w, 0x0B, 0);
	tx_send(&w);
	expect_refused(NICREF_VIO_TX_WQE_OPCODE, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

/* ---- The signature (§9.2.3) ------------------------------------------------------------------ */

static void signed_sq(void)
{
	struct tx_opts o = tx_default_opts();
	o.wq_signature = true;
	tx_setup_opts(&o);
}

Test(tx_ctrl, signature_checked_when_wq_signature, .init = signed_sq)
{
	struct wqe w;
	uint8_t cqe[64];
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_send(&w); /* tx_post signs it (D-TX-8) */
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(tdev->tr.violations, 0);
	/* One bit off: the XOR is no longer 0xFF. */
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_post(&w);
	w.b[9] ^= 0x01;
	tl_mem_write(tdev, tx.sq_buf + 64u * w.index, w.b, w.len);
	tx_ring(&w);
	expect_refused(NICREF_VIO_TX_WQE_SIGNATURE, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(tdev->tr.last_violation_arg & 0xFF, 0xFE, "the XOR found");
}

Test(tx_ctrl, signature_covers_the_sq_number_and_index, .init = signed_sq)
{
	/* §9.2.3: "the SQ/RQ number ... and the index of that particular WQE are considered": a
	 * WQE signed over its bytes alone fails. */
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	tx_post(&w);
	seg_set(&w, 0, "send_wqe_ctrl", "signature", 0);
	uint8_t x = 0;
	for (size_t i = 0; i < w.len; i++)
		x ^= w.b[i];
	seg_set(&w, 0, "send_wqe_ctrl", "signature", 0xFF ^ x);
	tl_mem_write(tdev, tx.sq_buf, w.b, w.len);
	tx_ring(&w);
	expect_refused(NICREF_VIO_TX_WQE_SIGNATURE, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_ctrl, no_signature_check_without_wq_signature)
{
	struct wqe w;
	uint8_t cqe[64];
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	seg_set(&w, 0, "send_wqe_ctrl", "signature", 0x12);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(tdev->tr.violations, 0);
}
