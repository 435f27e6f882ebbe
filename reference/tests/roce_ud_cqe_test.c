/* The completion modes of a UD send WQE and the solicited bit of its CQEs, on one device (two
 * GIDs: the packet goes through the loopback queue, D-ROCE-12). Expected values from PRM
 * §7.4.4.1 T26 (CE: "00 - Generate CQE only on WQE completion with error. 01 - Generate CQE
 * only on first WQE completion with error (i.e if CQE on previous WQE completed in error, no
 * CQE will be generated) 10 - Generate CQE on WQE completion (good or bad) 11 - Generate CQE
 * and EQE (local Solicited event)"), T68 se ("This CQE cause EQE generation for solicited
 * event"), IBTA Vol. 1 §9.2 (BTH SE) and §11.4.2.2 (solicited completions); D-ROCE-20, -21. */
#include <criterion/criterion.h>

#include "roce_util.h"

TestSuite(roce_ud_cqe, .init = rt_setup, .fini = rt_teardown);

static struct rt_qp a, b;
static const uint8_t rgid_b[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 1, 2 };

/* T26 dword 2: CE 3:2, SE 1. */
static uint32_t ctrl2(unsigned ce, bool se)
{
	return (uint32_t)ce << 2 | (se ? 2u : 0u);
}

static void pair(void)
{
	a = rt_ud();
	b = rt_ud();
	rt_recv(&b, 0x1000, 256);
}

static void send_ctrl(unsigned ce, bool se)
{
	rt_ud_wqe(&a, b.qpn, RT_QKEY, 0, rgid_b, 0, 8, false, 0, ctrl2(ce, se), true);
}

/* op_own (3Fh): opcode 7:4, se 1 (T68, 3Ch bit 1). */
static unsigned cqe_opcode(const uint8_t c[64])
{
	return c[0x3F] >> 4;
}
static unsigned cqe_se(const uint8_t c[64])
{
	return c[0x3F] >> 1 & 1;
}

/* CE 11b: a's send CQE on success, solicited; the CQ armed for solicited events fires on it.
 * Before D-ROCE-20 only CE 10b made a success CQE: no send CQE at all, no event. */
Test(roce_ud_cqe, ce_11b_makes_a_solicited_send_cqe)
{
	pair();
	refdrv_cq_arm(&rt.q.t->d, &rt.cq, true); /* solicited only */
	tl_mark(&rt.q.t->tr);
	send_ctrl(3, false);
	cr_assert_eq(rt_count(NICREF_EV_ROCE_TX), 1);
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2, "a's send CQE and b's receive CQE");
	uint8_t c[64];
	rt_cqe(0, c);
	cr_expect_eq(cqe_opcode(c), 0x0, "MLX5_CQE_REQ");
	cr_expect_eq(cqe_se(c), 1, "CE 11b: a local solicited event (op_own 0x%02x)", c[0x3F]);
	rt_cqe(1, c);
	cr_expect_eq(cqe_opcode(c), 0x2, "MLX5_CQE_RESP_SEND");
	cr_expect_eq(cqe_se(c), 0, "the packet had no BTH SE");
	cr_expect_eq(rt_count(NICREF_EV_EQE), 1, "the solicited send CQE fired the CQ");
}

/* CE 10b: the CQE, not solicited (control for the above: the armed CQ stays quiet). */
Test(roce_ud_cqe, ce_10b_makes_an_unsolicited_send_cqe)
{
	pair();
	refdrv_cq_arm(&rt.q.t->d, &rt.cq, true);
	tl_mark(&rt.q.t->tr);
	send_ctrl(2, false);
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2);
	uint8_t c[64];
	rt_cqe(0, c);
	cr_expect_eq(cqe_opcode(c), 0x0);
	cr_expect_eq(cqe_se(c), 0);
	cr_expect_eq(rt_count(NICREF_EV_EQE), 0, "nothing solicited");
}

/* IBTA Vol. 1 §9.2 BTH SE / PRM T68 se: a SEND whose packet carries SE completes on b with a
 * solicited receive CQE, so b's CQ armed for solicited events raises its event. Before
 * D-ROCE-21 the receive CQE never carried it. */
Test(roce_ud_cqe, bth_se_makes_a_solicited_receive_cqe)
{
	pair();
	refdrv_cq_arm(&rt.q.t->d, &rt.cq, true);
	tl_mark(&rt.q.t->tr);
	send_ctrl(0, true); /* CE 00: no send CQE; SE set */
	cr_assert_eq(rt_count(NICREF_EV_CQE), 1, "b's receive CQE only");
	uint8_t c[64];
	rt_cqe(0, c);
	cr_expect_eq(cqe_opcode(c), 0x2, "MLX5_CQE_RESP_SEND");
	cr_expect_eq(cqe_se(c), 1, "the packet's BTH SE (op_own 0x%02x)", c[0x3F]);
	cr_expect_eq(rt_count(NICREF_EV_EQE), 1, "the solicited completion event");
}

/* Two WQEs behind one doorbell: the first longer than the path MTU (LOCAL_LENGTH_ERR, the QP
 * to ERR, D-ROCE-13), the second flushed (WR_FLUSH_ERR). Under CE `ce` both: 00 writes both
 * error CQEs, 01 the first only ("if CQE on previous WQE completed in error, no CQE"). */
static void two_errors(unsigned ce, size_t want)
{
	a = rt_ud();
	b = rt_ud();
	tl_mark(&rt.q.t->tr);
	uint16_t first = rt_ud_wqe(&a, b.qpn, RT_QKEY, 0, rgid_b, 0, 0x8000, false, 0,
				   ctrl2(ce, false), false);
	rt_ud_wqe(&a, b.qpn, RT_QKEY, 0, rgid_b, 0, 8, false, 0, ctrl2(ce, false), false);
	refdrv_sq_doorbell(&rt.q.t->d, rt.q.t->uar, 0, a.qpn, first, 0x0A, 5);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_TX), 0, "nothing sent");
	cr_assert_eq(rt_count(NICREF_EV_CQE), want, "CE %u: %zu error CQEs", ce, want);
	static const uint8_t syn[2] = { 0x01, 0x05 };
	for (size_t i = 0; i < want; i++) {
		uint8_t c[64];
		rt_cqe(i, c);
		cr_expect_eq(cqe_opcode(c), 0xD, "MLX5_CQE_REQ_ERR");
		cr_expect_eq(c[0x37], syn[i], "CQE %zu: syndrome", i);
		cr_expect_eq(tl_get32(c + 0x3C) >> 16, 2 * i, "CQE %zu: wqe_counter", i);
	}
}

Test(roce_ud_cqe, ce_00b_reports_every_error)
{
	two_errors(0, 2);
}

/* Before D-ROCE-20 the flush CQE of the second WQE was written whatever its CE. */
Test(roce_ud_cqe, ce_01b_reports_the_first_error_only)
{
	two_errors(1, 1);
}
