/* ECN and CNP ([IBTA-A17] §A17.9; seed 004 L135-143; D-ROCE-9, D-ROCE-16): a packet that
 * arrives Congestion Experienced makes its receiver's notification point send a CNP (opcode
 * 0x81, BECN set, 16 reserved bytes) to the sending QP, at most one per interval per QP; the
 * sender's reaction point counts it (connectx) or halves the outstanding window for
 * CNP_TIMER_THRD (seed004). Here the sender is a QP of the same device (its GID is local), so
 * the CNP comes back through the loopback queue. */
#include <criterion/criterion.h>

#include "roce_util.h"

static struct rt_qp a, b;

/* a's datagram to b, as the wire would bring it, CE-marked (IP ECN 11b; the ICRC masks the
 * TOS, the IPv4 checksum is made again). */
static size_t ce_frame(uint8_t *f)
{
	rt_ud_send(&a, b.qpn, RT_QKEY, 9, 0, 16, false, 0);
	cr_assert_eq(rt.nframes, 1);
	size_t n = rt.frames[0].len;
	memcpy(f, rt.frames[0].b, n);
	rt.nframes = 0;
	f[14 + 1] |= 3;
	rt_readdress_ipv4(f, n, 2);
	return n;
}

static void up(unsigned roce_profile)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.roce_profile = (uint8_t)roce_profile;
	rt_setup_profile(&p);
	a = rt_ud();
	b = rt_ud();
	for (unsigned i = 0; i < 4; i++)
		rt_recv(&b, 0x1000 + 0x400 * i, 256);
	tl_mark(&rt.q.t->tr);
}

Test(roce_cc, ce_mark_makes_a_cnp_rate_limited_per_qp, .fini = rt_teardown)
{
	up(0);
	uint8_t f[256];
	size_t n = ce_frame(f);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	/* b's notification point sent a CNP to a (its packet's source QP), which a's reaction
	 * point received. */
	cr_assert_eq(rt_count(NICREF_EV_ROCE_CNP), 2);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_CNP, 0)->arg[0], b.qpn);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_CNP, 0)->arg[1], 0);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_CNP, 1)->arg[0], a.qpn);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_CNP, 1)->arg[1], 1);
	const struct nicref_event *tx = rt_ev(NICREF_EV_ROCE_TX, 0);
	cr_expect_eq(tx->arg[2], a.qpn, "the CNP's DestQP");
	cr_expect_eq(tx->arg[3], 0x81);
	cr_expect_eq(tx->arg[5], 14 + 20 + 8 + 12 + 16 + 4, "BTH, 16 reserved bytes, ICRC");
	cr_expect_eq(rt_count(NICREF_EV_CQE), 1, "the datagram was received too");
	/* connectx: at most one CNP per 4 us per QP (D-ROCE-9). */
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_CNP), 2, "within the interval: none");
	nicref_clock_advance(rt.q.t->dev, 4000);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_CNP), 4, "after it: one more");
	cr_expect_eq(rt_count(NICREF_EV_ROCE_CC), 0, "connectx: no window change");
	struct nicref_stats s;
	nicref_stats_get(rt.q.t->dev, &s);
	cr_expect_eq(s.roce_ecn_marked, 3);
	cr_expect_eq(s.roce_cnps_sent, 2);
	cr_expect_eq(s.roce_cnps_received, 2);
}

Test(roce_cc, seed004_halves_the_window_until_the_cnp_timer, .fini = rt_teardown)
{
	up(1);
	uint8_t f[256];
	size_t n = ce_frame(f);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	/* seed 004 L137-143: 16 -> 8, an event, restored after CNP_TIMER_THRD. */
	cr_assert_eq(rt_count(NICREF_EV_ROCE_CC), 1);
	const struct nicref_event *cc = rt_ev(NICREF_EV_ROCE_CC, 0);
	cr_expect_eq(cc->arg[0], a.qpn);
	cr_expect_eq(cc->arg[1], 8);
	cr_expect_eq(cc->arg[2], 0);
	nicref_clock_advance(rt.q.t->dev, 99999);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_CC), 1, "not yet");
	nicref_clock_advance(rt.q.t->dev, 1);
	cr_assert_eq(rt_count(NICREF_EV_ROCE_CC), 2);
	cc = rt_ev(NICREF_EV_ROCE_CC, 1);
	cr_expect_eq(cc->arg[1], 16);
	cr_expect_eq(cc->arg[2], 1);
}
