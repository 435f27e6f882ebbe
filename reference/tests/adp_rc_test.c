/* The ADP engine inside the RC requester (reference/roce/rc_req.c): the total timeout of seed 001
 * L45-49 as the requester runs it (D-ADP-11). Expected values worked out by hand from the seed
 * text and the example profile E of adp_util.h (time_base 4 us, total 4000 << 12 = 16384000 ns,
 * range 0 = [1, 4]). */
#include "adp_util.h"
#include "rc_util.h"

static struct ru *ru_adp(const struct nicref_adp_profile *p, uint8_t timeout, uint8_t retry_cnt)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, retry_cnt, 7, 0);
	u->mode = mode_of(p);
	struct nicref_adp_qp_attr aa = { timeout, retry_cnt };
	struct rc_req_attr a = { 0, 256, 7, 0, 0 };
	rc_req_init(&u->q, &a, &u->mode, &aa, 0, 0); /* RTS at t = 0; draw 0: e0 = 2 (16 us) */
	return u;
}

/* seed 001 L49 "If no forward progress is made within the total timeout": the QP's first SEND
 * leaves at 100 ms, after 100 ms with nothing outstanding, and is lost. No progress was owed
 * while idle, so its first expiry retransmits (one go-back-N), it does not fail the QP. */
Test(adp_rc, idle_then_first_loss_retransmits)
{
	struct nicref_adp_profile p = example();
	struct ru *u = ru_adp(&p, 14, 7);
	ru_post(u, RC_MSG_SEND, 100, 0);
	uint64_t t = 100000000ull;
	rc_req_run(&u->q, &ru_req_ops, u, t);
	cr_assert_eq(u->nreq, 1);
	cr_expect_eq(rc_req_deadline(&u->q), t + 16000);
	rc_req_tick(&u->q, &ru_req_ops, u, rc_req_deadline(&u->q));
	cr_expect_eq(u->timeouts, 1);
	cr_expect_eq(u->timeout_fail, 0, "the QP failed at its first expiry after 100 ms idle");
	cr_expect_eq(u->nreq, 2, "one retransmission expected");
	cr_expect_eq(u->q.state, RC_REQ_RUN);
	ru_free(u);
}

/* Only a send with nothing outstanding restarts the clock: a second SEND while the first is
 * unacknowledged does not. qp_total_timeout 1, QP timeout 1, retry_cnt 1: total = 1 * 4096 << 1
 * = 8192 ns (seed 001 L47); every armed value is min(4000 << e, 8192) = 8192 for e0 = 2 (seed 001
 * L43). A at 0 (from idle), B at 5000 (A outstanding): the expiry at 8192 is 8192 ns after the
 * send from idle, so the QP fails (a restart at B would leave 3192 ns and retransmit). */
Test(adp_rc, send_while_outstanding_keeps_the_clock)
{
	struct nicref_adp_profile p = example();
	p.qp_total_timeout = 1;
	struct ru *u = ru_adp(&p, 1, 1);
	ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(rc_req_deadline(&u->q), 8192);
	ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 5000);
	cr_assert_eq(u->nreq, 2);
	cr_expect_eq(rc_req_deadline(&u->q), 8192, "the timer runs from the first send");
	rc_req_tick(&u->q, &ru_req_ops, u, 8192);
	cr_expect_eq(u->timeout_fail, 1);
	cr_expect_eq(u->nreq, 2, "no retransmission after the total timeout");
	cr_expect_eq(u->q.state, RC_REQ_ERR);
	ru_free(u);
}
