/* The RC transport's tables (roce/rc_seg.c): PSN arithmetic (IBTA Vol. 1 §9.7.1), the opcode
 * table (IBTA Vol. 1 Table 38), packetisation by path MTU (IBTA Vol. 1 §9.7.2), the AckReq
 * policy (D-ROCE-RC-3) and the RNR NAK timer (IBTA Vol. 1 Table 45). Values by hand. */
#include <criterion/criterion.h>

#include "roce/rc.h"

Test(rc_seg, psn_arithmetic)
{
	cr_expect_eq(rc_psn_add(0xFFFFFF, 1), 0);
	cr_expect_eq(rc_psn_add(0xFFFFFE, 5), 3);
	cr_expect_eq(rc_psn_diff(0, 0xFFFFFF), 1);
	cr_expect_eq(rc_psn_diff(0xFFFFFF, 0), -1);
	cr_expect_eq(rc_psn_diff(0x7FFFFF, 0), 0x7FFFFF);
	cr_expect_eq(rc_psn_diff(0x800000, 0), -0x800000); /* the half point counts as behind */
	cr_expect_eq(rc_psn_diff(5, 5), 0);
	cr_expect_eq(rc_psn_diff(0x1000005, 5), 0); /* bits above 24 are not part of a PSN */
}

Test(rc_seg, packets_per_message)
{
	cr_expect_eq(rc_npkts(0, 256), 1);
	cr_expect_eq(rc_npkts(1, 256), 1);
	cr_expect_eq(rc_npkts(256, 256), 1);
	cr_expect_eq(rc_npkts(257, 256), 2);
	cr_expect_eq(rc_npkts(1000, 256), 4);
	cr_expect_eq(rc_npkts(4096, 4096), 1);
	cr_expect_eq(rc_npkts(0x80000000u, 256), 0x800000u);
}

Test(rc_seg, send_first_middle_last)
{
	static const uint8_t ops[4] = { 0x00, 0x01, 0x01, 0x02 };
	static const uint32_t lens[4] = { 256, 256, 256, 232 };
	for (uint32_t k = 0; k < 4; k++) {
		struct rc_seg s;
		rc_seg_of(RC_MSG_SEND, 1000, 256, k, &s);
		cr_expect_eq(s.opcode, ops[k], "packet %u", k);
		cr_expect_eq(s.off, k * 256);
		cr_expect_eq(s.len, lens[k]);
		cr_expect_eq(s.reth, false);
		cr_expect_eq(s.imm, false);
		cr_expect_eq(s.ackreq, k == 3, "AckReq on the last packet only (k %u)", k);
	}
}

Test(rc_seg, only_packets_and_immediates)
{
	struct rc_seg s;
	rc_seg_of(RC_MSG_SEND, 0, 256, 0, &s);
	cr_expect_eq(s.opcode, 0x04);
	cr_expect_eq(s.len, 0);
	cr_expect(s.ackreq);
	rc_seg_of(RC_MSG_SEND_IMM, 10, 256, 0, &s);
	cr_expect_eq(s.opcode, 0x05);
	cr_expect(s.imm);
	rc_seg_of(RC_MSG_WRITE_IMM, 100, 256, 0, &s);
	cr_expect_eq(s.opcode, 0x0B);
	cr_expect(s.imm && s.reth);
	rc_seg_of(RC_MSG_WRITE, 256, 256, 0, &s);
	cr_expect_eq(s.opcode, 0x0A);
	cr_expect(s.reth && !s.imm);
	/* SEND_IMM of 3 packets: the immediate rides the last one only */
	rc_seg_of(RC_MSG_SEND_IMM, 600, 256, 0, &s);
	cr_expect_eq(s.opcode, 0x00);
	cr_expect(!s.imm);
	rc_seg_of(RC_MSG_SEND_IMM, 600, 256, 2, &s);
	cr_expect_eq(s.opcode, 0x03);
	cr_expect(s.imm);
	cr_expect_eq(s.len, 88);
}

Test(rc_seg, write_reth_on_first_only)
{
	struct rc_seg s;
	rc_seg_of(RC_MSG_WRITE, 600, 256, 0, &s);
	cr_expect_eq(s.opcode, 0x06);
	cr_expect(s.reth);
	rc_seg_of(RC_MSG_WRITE, 600, 256, 1, &s);
	cr_expect_eq(s.opcode, 0x07);
	cr_expect(!s.reth);
	rc_seg_of(RC_MSG_WRITE_IMM, 600, 256, 2, &s);
	cr_expect_eq(s.opcode, 0x09);
	cr_expect(!s.reth && s.imm);
}

/* D-ROCE-RC-3: AckReq on every 8th packet of a message and on its last. */
Test(rc_seg, ackreq_every_eighth)
{
	unsigned asked = 0;
	for (uint32_t k = 0; k < 20; k++) {
		struct rc_seg s;
		rc_seg_of(RC_MSG_WRITE, 20 * 256, 256, k, &s);
		if (s.ackreq)
			asked |= 1u << k;
	}
	cr_expect_eq(asked, (1u << 7) | (1u << 15) | (1u << 19));
}

Test(rc_seg, read_response_opcodes)
{
	cr_expect_eq(rc_read_resp_op(0, 1), 0x10);
	cr_expect_eq(rc_read_resp_op(0, 3), 0x0D);
	cr_expect_eq(rc_read_resp_op(1, 3), 0x0E);
	cr_expect_eq(rc_read_resp_op(2, 3), 0x0F);
}

Test(rc_seg, opcode_table)
{
	cr_assert_not_null(rc_op_info(0x0C));
	cr_expect(rc_op_info(0x0C)->reth);
	cr_expect_eq(rc_op_info(0x0C)->msg, RC_MSG_READ);
	cr_expect(rc_op_info(0x0D)->aeth && rc_op_info(0x0D)->resp);
	cr_expect(!rc_op_info(0x0E)->aeth);
	cr_expect(rc_op_info(0x11)->aeth);
	cr_expect(rc_op_info(0x06)->reth && !rc_op_info(0x07)->reth);
	cr_expect_null(rc_op_info(0x13)); /* atomics: not modelled */
	cr_expect_null(rc_op_info(0x64));
}

/* Linux mlx5 MLX5_OPCODE_*. */
Test(rc_seg, mlx5_opcodes)
{
	cr_expect_eq(rc_msg_of_mlx5(0x0A), RC_MSG_SEND);
	cr_expect_eq(rc_msg_of_mlx5(0x0B), RC_MSG_SEND_IMM);
	cr_expect_eq(rc_msg_of_mlx5(0x08), RC_MSG_WRITE);
	cr_expect_eq(rc_msg_of_mlx5(0x09), RC_MSG_WRITE_IMM);
	cr_expect_eq(rc_msg_of_mlx5(0x10), RC_MSG_READ);
	cr_expect_eq(rc_msg_of_mlx5(0x11), RC_MSG_NONE); /* atomic CS */
	cr_expect_eq(rc_msg_of_mlx5(0x25), RC_MSG_NONE); /* UMR */
}

/* IBTA Vol. 1 Table 45: code 0 is 655.36 ms, 1 is 0.01 ms, ..., 31 is 491.52 ms. */
Test(rc_seg, rnr_timer_table)
{
	cr_expect_eq(rc_rnr_timer_ns(0), 655360000ull);
	cr_expect_eq(rc_rnr_timer_ns(1), 10000ull);
	cr_expect_eq(rc_rnr_timer_ns(5), 60000ull);
	cr_expect_eq(rc_rnr_timer_ns(14), 1280000ull);
	cr_expect_eq(rc_rnr_timer_ns(18), 5120000ull);
	cr_expect_eq(rc_rnr_timer_ns(25), 61440000ull); /* not 61.41 ms */
	cr_expect_eq(rc_rnr_timer_ns(31), 491520000ull);
	for (unsigned c = 2; c < 32; c++)
		cr_expect_gt(rc_rnr_timer_ns(c), rc_rnr_timer_ns(c - 1), "code %u", c);
}

Test(rc_seg, aeth_syndromes)
{
	cr_expect_eq(rc_aeth_syn(RC_AETH_ACK, RC_AETH_CREDIT_INVALID), 0x1F);
	cr_expect_eq(rc_aeth_syn(RC_AETH_RNR, 14), 0x2E);
	cr_expect_eq(rc_aeth_syn(RC_AETH_NAK, RC_NAK_PSN_SEQ), 0x60);
	cr_expect_eq(rc_aeth_syn(RC_AETH_NAK, RC_NAK_REM_ACCESS), 0x62);
	cr_expect_eq(rc_aeth_kind_of(0x61), RC_AETH_NAK);
	cr_expect_eq(rc_aeth_kind_of(0x21), RC_AETH_RNR);
}
