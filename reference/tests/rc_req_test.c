/* The RC requester (roce/rc_req.c) against ACKs and NAKs written by hand: the outstanding
 * window ([S004] L126-133), coalesced and ghost ACKs (IBTA Vol. 1 §9.7.4), go-back-N on a
 * timeout, a NAK sequence error and an RNR NAK with the original opcodes (IBTA Vol. 1
 * §9.7.4.1, D-ROCE-RC-5), the retry counters (retry_cnt, rnr_retry with 7 = infinite) and
 * their exhaustion (mlx5 CQE syndromes 0x15, 0x16), the fatal NAKs (0x12, 0x13, 0x14), PSN
 * wrap. */
#include <stdlib.h>

#include "rc_util.h"

static struct rc_pkt ack_of(uint32_t psn, uint8_t syn)
{
	struct rc_pkt p;
	memset(&p, 0, sizeof p);
	p.opcode = RC_BTH_ACK;
	p.psn = psn;
	p.has_aeth = true;
	p.syndrome = syn;
	return p;
}

static void rx(struct ru *u, uint32_t psn, uint8_t syn, uint64_t now)
{
	struct rc_pkt p = ack_of(psn, syn);
	rc_req_rx(&u->q, &p, &ru_req_ops, u, now);
}

#define ACK 0x1F
#define NAK_SEQ 0x60

/* An RNR NAK for PSN 0 at 1000 ns (Table 45 code 1: 10 us): the wait runs to 11000. */
static void rnr_nak_at_1000(struct ru *u)
{
	rx(u, 0, 0x21, 1000);
	cr_expect_eq(rc_req_deadline(&u->q), 11000);
}

/* A pair at PSN 0 (retry_cnt, rnr_retry 7, no limit) with a SEND of send_len bytes (PSN 0), a
 * READ of 600 bytes (PSNs 1, 2, 3) and a SEND of 10 (PSN 4) posted, run at time 0. */
static struct ru *send_read_send(uint8_t retry_cnt, uint32_t send_len)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, retry_cnt, 7, 0);
	ru_post(u, RC_MSG_SEND, send_len, 0);
	ru_post(u, RC_MSG_READ, 600, RU_VA);
	ru_post(u, RC_MSG_SEND, 10, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	return u;
}

/* [S004] L132: 16 messages outstanding; an ACK frees the slots of the messages it completes. */
Test(rc_req, window_of_sixteen)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 16);
	for (int i = 0; i < 20; i++)
		ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 16);
	cr_expect_eq(rc_req_outstanding(&u->q), 16);
	rx(u, 3, ACK, 10); /* PSNs 0..3: four messages */
	cr_expect_eq(u->ndone, 4);
	cr_expect_eq(u->nreq, 20);
	cr_expect_eq(u->req_out[19].p.psn, 19);
	ru_free(u);
}

/* The connectx profile: no message limit. */
Test(rc_req, no_window)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	for (int i = 0; i < 40; i++)
		ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 40);
	ru_free(u);
}

/* One ACK covers every PSN up to its own (coalescing); the timer stops when nothing is left. */
Test(rc_req, coalesced_ack_completes_in_order)
{
	struct ru *u = ru_new();
	ru_connect(u, 100, 7, 7, 0);
	ru_post(u, RC_MSG_SEND, 600, 0); /* PSN 100..102 */
	ru_post(u, RC_MSG_WRITE, 10, RU_VA); /* 103 */
	ru_post(u, RC_MSG_SEND, 0, 0); /* 104 */
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 5);
	cr_expect_neq(u->q.deadline_ns, 0);
	rx(u, 103, ACK, 5);
	cr_expect_eq(u->ndone, 2);
	cr_expect_neq(u->q.deadline_ns, 0, "one message still unacknowledged");
	rx(u, 104, ACK, 6);
	cr_expect_eq(u->ndone, 3);
	cr_expect_eq(u->done_order[0], 0);
	cr_expect_eq(u->done_order[2], 2);
	cr_expect_eq(u->q.deadline_ns, 0);
	cr_expect_eq(u->q.una_psn, 105);
	ru_free(u);
}

/* D-ROCE-RC-6: an ACK for a PSN not sent, or older than the last acknowledged, is ignored. */
Test(rc_req, ghost_acks_ignored)
{
	struct ru *u = ru_new();
	ru_connect(u, 10, 7, 7, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	rx(u, 12, ACK, 1); /* not sent yet */
	rx(u, 5, ACK, 1);  /* long ago */
	cr_expect_eq(u->ndone, 0);
	rx(u, 10, ACK, 1);
	cr_expect_eq(u->ndone, 1);
	rx(u, 10, ACK, 2); /* a duplicate ACK: nothing more */
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->nretx, 0);
	ru_free(u);
}

/* IBTA §9.7.4.1, D-ROCE-RC-5: a timeout goes back to the oldest unacknowledged PSN and sends the
 * packets as they were: a WRITE resumed at its third packet sends WRITE_MIDDLE without RETH,
 * then WRITE_LAST. */
Test(rc_req, timeout_goes_back_with_original_opcodes)
{
	struct ru *u = ru_new();
	ru_connect(u, 200, 7, 7, 0);
	ru_post(u, RC_MSG_WRITE, 1000, RU_VA); /* 200 FIRST, 201 MIDDLE, 202 MIDDLE, 203 LAST */
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 4);
	rx(u, 201, ACK, 1000);
	uint64_t t = u->q.deadline_ns;
	cr_expect_eq(t, 1000 + 67108864ull, "timer restarted on progress (4.096 us x 2^14)");
	rc_req_tick(&u->q, &ru_req_ops, u, t - 1);
	cr_expect_eq(u->nreq, 4);
	rc_req_tick(&u->q, &ru_req_ops, u, t);
	cr_expect_eq(u->retx[RC_RETX_TIMEOUT], 1);
	cr_expect_eq(u->retx_psn[0], 202);
	cr_assert_eq(u->nreq, 6);
	cr_expect_eq(u->req_out[4].p.psn, 202);
	cr_expect_eq(u->req_out[4].p.opcode, RC_BTH_WRITE_MIDDLE);
	cr_expect(!u->req_out[4].p.has_reth);
	cr_expect_eq(u->req_out[4].off, 512);
	cr_expect_eq(u->req_out[5].p.opcode, RC_BTH_WRITE_LAST);
	cr_expect_eq(u->req_out[5].p.len, 232);
	cr_expect(u->req_out[5].p.ackreq);
	/* a restart at the first PSN re-sends FIRST with the original RETH */
	rc_req_tick(&u->q, &ru_req_ops, u, u->q.deadline_ns);
	cr_expect_eq(u->req_out[6].p.psn, 202);
	ru_free(u);
}

Test(rc_req, timeout_from_first_sends_reth)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_WRITE, 300, RU_VA + 16);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	rc_req_tick(&u->q, &ru_req_ops, u, u->q.deadline_ns);
	cr_assert_eq(u->nreq, 4);
	cr_expect_eq(u->req_out[2].p.opcode, RC_BTH_WRITE_FIRST);
	cr_expect(u->req_out[2].p.has_reth);
	cr_expect_eq(u->req_out[2].p.va, RU_VA + 16);
	cr_expect_eq(u->req_out[2].p.dma_len, 300);
	ru_free(u);
}

/* IBTA §9.7.5.2: a NAK sequence error acknowledges the PSNs before it and the requester goes
 * back to its PSN. */
Test(rc_req, nak_sequence_error)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_SEND, 600, 0); /* 0,1,2 */
	ru_post(u, RC_MSG_SEND, 600, 0); /* 3,4,5 */
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	rx(u, 4, NAK_SEQ, 50);
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->retx[RC_RETX_NAK_SEQ], 1);
	cr_assert_eq(u->nreq, 8);
	cr_expect_eq(u->req_out[6].p.psn, 4);
	cr_expect_eq(u->req_out[6].p.opcode, RC_BTH_SEND_MIDDLE);
	cr_expect_eq(u->req_out[7].p.opcode, RC_BTH_SEND_LAST);
	ru_free(u);
}

/* NAK sequence errors use retry_cnt too (IBTA; D-ADP-17): retry_cnt 1, the NAK takes the one
 * retry; a copy of the same NAK (the link duplicated it) is the same loss and takes none
 * (D-ROCE-RC-22, F4); the ACK timer then finds the retries spent: 0x15. */
Test(rc_req, nak_sequence_retries_exhausted)
{
	struct ru *u = ru_sending(1, 7, 1);
	rx(u, 0, NAK_SEQ, 1);
	cr_expect_eq(u->nfail, 0);
	cr_expect_eq(u->retx[RC_RETX_NAK_SEQ], 1);
	struct rc_pkt copy = ack_of(0, NAK_SEQ);
	cr_expect(!rc_req_rx(&u->q, &copy, &ru_req_ops, u, 2), "a copy of the NAK acted on changes nothing");
	cr_expect_eq(u->nfail, 0, "a duplicated NAK is not a second loss");
	cr_expect_eq(u->retx[RC_RETX_NAK_SEQ], 1);
	cr_expect_eq(u->nreq, 2);
	rc_req_tick(&u->q, &ru_req_ops, u, u->q.deadline_ns);
	cr_expect_eq(u->nfail, 1);
	cr_expect_eq(u->fail_syn, RC_SYN_RETRY_EXC);
	cr_expect_eq(u->q.state, RC_REQ_ERR);
	ru_free(u);
}

/* F4 (D-ROCE-RC-21): going back does not unsend. An RNR NAK for PSN 0, then a NAK sequence
 * error for PSN 0 (the responder saw PSN 1 first), then the responder executes a late copy of
 * PSN 0 and PSN 1 and acknowledges PSN 1: that ACK names PSNs the requester sent, so it
 * completes both SENDs (IBTA §9.7.4: an ACK of PSN p acknowledges every request up to p). */
Test(rc_req, ack_after_go_back_is_taken)
{
	struct ru *u = ru_sending(7, 7, 2);
	rx(u, 0, 0x21, 1);
	rx(u, 0, NAK_SEQ, 2);
	cr_expect_eq(u->retx[RC_RETX_NAK_SEQ], 0, "the RNR wait resends from PSN 0 anyway");
	struct rc_pkt a = ack_of(1, ACK);
	cr_expect(rc_req_rx(&u->q, &a, &ru_req_ops, u, 3), "an ACK of a PSN sent is taken");
	cr_expect_eq(u->ndone, 2);
	cr_expect_eq(u->nfail, 0);
	cr_expect_eq(rc_req_outstanding(&u->q), 0);
	cr_expect_eq(u->nreq, 2, "nothing acknowledged is sent again");
	ru_free(u);
}

/* F4 (D-ROCE-RC-23): an RNR wait ends when progress acknowledges everything sent (a later copy
 * of the refused request was executed): nothing is resent at the wait's deadline, and what is
 * posted next goes at once. */
Test(rc_req, rnr_wait_ends_when_all_acknowledged)
{
	struct ru *u = ru_sending(7, 7, 2);
	rnr_nak_at_1000(u);
	rx(u, 1, ACK, 2000);
	cr_expect_eq(u->ndone, 2);
	cr_expect_eq(u->q.state, RC_REQ_RUN);
	cr_expect_eq(rc_req_deadline(&u->q), 0, "nothing outstanding, nothing to wait for");
	ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 3000);
	cr_assert_eq(u->nreq, 3, "a new message is not held by an RNR wait that ended");
	cr_expect_eq(u->req_out[2].p.psn, 2);
	rc_req_tick(&u->q, &ru_req_ops, u, 11000);
	cr_expect_eq(u->retx[RC_RETX_RNR], 0);
	cr_expect_eq(u->nreq, 3);
	ru_free(u);
}

/* D-ROCE-RC-25: progress during an RNR wait that leaves requests unacknowledged (sent after the
 * refused one: the responder discarded them while it waited for that one) does not end the
 * wait; at its end the requester resends them from the oldest unacknowledged PSN (roce_retx
 * reason 2), not the refused PSN (acknowledged) and not a local ACK timeout later (IBTA Vol. 1
 * §9.7.5.2.8: the retry comes when the RNR NAK's timer has run out). Before D-ROCE-RC-25 the
 * ACK ended the wait and PSN 1 waited for the ACK timer (67.1 ms in rc_requester #51). */
Test(rc_req, rnr_wait_with_requests_left_resends_at_its_end)
{
	struct ru *u = ru_sending(7, 7, 3);
	rnr_nak_at_1000(u);
	rx(u, 0, ACK, 2000);
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->q.state, RC_REQ_RNR, "PSNs 1 and 2 are left: the wait goes on");
	cr_expect_eq(rc_req_deadline(&u->q), 11000, "the RNR wait's deadline, not the ACK timer's");
	cr_expect_eq(u->nreq, 3, "nothing resent before the RNR NAK's timer has run out");
	rc_req_tick(&u->q, &ru_req_ops, u, 10999);
	cr_expect_eq(u->nreq, 3);
	rc_req_tick(&u->q, &ru_req_ops, u, 11000);
	cr_expect_eq(u->retx[RC_RETX_RNR], 1);
	cr_expect_eq(u->retx_psn[0], 1, "from the oldest unacknowledged PSN");
	cr_assert_eq(u->nreq, 5, "PSNs 1 and 2 again, PSN 0 never");
	cr_expect_eq(u->req_out[3].p.psn, 1);
	cr_expect_eq(u->req_out[4].p.psn, 2);
	cr_expect_eq(u->q.state, RC_REQ_RUN);
	rx(u, 2, ACK, 12000);
	cr_expect_eq(u->ndone, 3);
	cr_expect_eq(rc_req_deadline(&u->q), 0);
	ru_free(u);
}

/* D-ROCE-RC-25 with a READ: an ACK beyond a READ whose responses are missing during an RNR
 * wait (the wait resends from the READ; no second go-back now, no retry of retry_cnt taken),
 * the READ asked again from its first response when the wait ends. */
Test(rc_req, rnr_wait_and_read_gap_resend_at_its_end)
{
	struct ru *u = send_read_send(1, 100);
	cr_assert_eq(u->nreq, 3);
	rx(u, 0, 0x21, 1000);
	rx(u, 4, ACK, 2000); /* beyond the READ: its responses were lost */
	cr_expect_eq(u->ndone, 1, "the SEND before the READ completes");
	cr_expect_eq(u->q.una_psn, 1);
	cr_expect_eq(u->q.state, RC_REQ_RNR);
	cr_expect_eq(u->nretx, 0, "the wait resends; no go-back of its own");
	rc_req_tick(&u->q, &ru_req_ops, u, 11000);
	cr_expect_eq(u->retx[RC_RETX_RNR], 1);
	cr_expect_eq(u->retx_psn[0], 1);
	cr_assert_geq(u->nreq, 4);
	cr_expect_eq(u->req_out[3].p.opcode, RC_BTH_READ_REQUEST);
	cr_expect_eq(u->req_out[3].p.psn, 1);
	cr_expect_eq(u->nfail, 0);
	ru_free(u);
}

/* F4 (D-ROCE-RC-22): an ACK beyond a READ whose responses are missing asks the READ again once;
 * the same ACK again (the ACK of a duplicate request the go-back itself caused) is not a new
 * loss: no second retry, so retry_cnt 1 is not exhausted; the responses then complete the READ. */
Test(rc_req, read_gap_asked_once)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 1, 7, 0);
	ru_post(u, RC_MSG_READ, 600, RU_VA); /* PSNs 0, 1, 2 */
	ru_post(u, RC_MSG_SEND, 10, 0);      /* PSN 3 */
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	rx(u, 3, ACK, 5);
	cr_expect_eq(u->retx[RC_RETX_READ_GAP], 1);
	struct rc_pkt a = ack_of(3, ACK);
	cr_expect(!rc_req_rx(&u->q, &a, &ru_req_ops, u, 6), "the same gap shown again is not taken");
	cr_expect_eq(u->retx[RC_RETX_READ_GAP], 1);
	cr_expect_eq(u->nfail, 0, "no retry used by a copy");
	uint8_t data[256];
	memset(data, 0x5A, sizeof data);
	static const uint8_t ops[3] = { RC_BTH_READ_RESP_FIRST, RC_BTH_READ_RESP_MIDDLE, RC_BTH_READ_RESP_LAST };
	for (uint32_t k = 0; k < 3; k++) {
		struct rc_pkt r = ack_of(k, ACK);
		r.opcode = ops[k];
		r.has_aeth = k != 1;
		r.payload = data;
		r.len = k < 2 ? 256 : 88;
		cr_expect(rc_req_rx(&u->q, &r, &ru_req_ops, u, 7 + k));
	}
	cr_expect_eq(u->ndone, 1, "the READ completes");
	rx(u, 3, ACK, 20);
	cr_expect_eq(u->ndone, 2);
	cr_expect_eq(u->nfail, 0);
	ru_free(u);
}

/* IBTA §9.7.5.2, Table 45: an RNR NAK (code 1: 10 us) holds the requester; then it sends again
 * from the NAK's PSN. rnr_retry 2: the third RNR NAK fails the WQE with 0x16. */
Test(rc_req, rnr_wait_and_exhaustion)
{
	struct ru *u = ru_new();
	ru_connect(u, 7, 7, 2, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	rx(u, 7, 0x21, 1000);
	cr_expect_eq(u->q.state, RC_REQ_RNR);
	cr_expect_eq(rc_req_deadline(&u->q), 11000);
	rc_req_tick(&u->q, &ru_req_ops, u, 10999);
	cr_expect_eq(u->nreq, 1);
	rc_req_tick(&u->q, &ru_req_ops, u, 11000);
	cr_expect_eq(u->nreq, 2);
	cr_expect_eq(u->req_out[1].p.psn, 7);
	cr_expect_eq(u->retx[RC_RETX_RNR], 1);
	rx(u, 7, 0x21, 20000);
	rc_req_tick(&u->q, &ru_req_ops, u, 30000);
	cr_expect_eq(u->nreq, 3);
	rx(u, 7, 0x21, 40000);
	cr_expect_eq(u->nfail, 1);
	cr_expect_eq(u->fail_syn, RC_SYN_RNR_RETRY_EXC);
	cr_expect_eq(u->fail_idx, 0);
	ru_free(u);
}

/* rnr_retry 7 means retry without end (IBTA §9.7.5.2). */
Test(rc_req, rnr_retry_seven_is_infinite)
{
	struct ru *u = ru_sending(7, 7, 1);
	uint64_t now = 0;
	for (int i = 0; i < 50; i++) {
		rx(u, 0, 0x20 | 14, now);
		now += 1280000;
		rc_req_tick(&u->q, &ru_req_ops, u, now);
	}
	cr_expect_eq(u->nfail, 0);
	cr_expect_eq(u->nreq, 51);
	ru_free(u);
}

/* Progress makes the RNR budget whole again: rnr_retry 1, RNR, then an ACK, then RNR again:
 * no failure. */
Test(rc_req, rnr_budget_restored_by_progress)
{
	struct ru *u = ru_sending(7, 1, 2);
	rx(u, 0, 0x21, 0);
	rc_req_tick(&u->q, &ru_req_ops, u, 10000);
	rx(u, 0, ACK, 10001);
	rx(u, 1, 0x21, 10002);
	cr_expect_eq(u->nfail, 0);
	cr_expect_eq(u->q.state, RC_REQ_RNR);
	ru_free(u);
}

/* Classic timer, retry_cnt 2: the first send and two retries, then 0x15 and the QP stops. */
Test(rc_req, timeout_retries_exhausted)
{
	struct ru *u = ru_sending(2, 7, 2);
	for (int i = 0; i < 3; i++)
		rc_req_tick(&u->q, &ru_req_ops, u, u->q.deadline_ns);
	cr_expect_eq(u->timeouts, 3);
	cr_expect_eq(u->timeout_fail, 1);
	cr_expect_eq(u->nreq, 6, "2 packets, twice retried");
	cr_expect_eq(u->nfail, 1);
	cr_expect_eq(u->fail_idx, 0);
	cr_expect_eq(u->fail_syn, RC_SYN_RETRY_EXC);
	cr_expect_eq(u->q.state, RC_REQ_ERR);
	cr_expect_eq(rc_req_deadline(&u->q), 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 6, "nothing more after the error");
	ru_free(u);
}

/* Fatal NAKs (IBTA §9.7.5.2 NAK codes 1..3) complete the WQE with the mlx5 syndromes. */
Test(rc_req, fatal_naks)
{
	static const uint8_t syn[3] = { 0x61, 0x62, 0x63 };
	static const uint8_t cqe[3] = { 0x12, 0x13, 0x14 };
	for (int i = 0; i < 3; i++) {
		struct ru *u = ru_new();
		ru_connect(u, 0, 7, 7, 0);
		ru_post(u, RC_MSG_SEND, 100, 0);
		ru_post(u, RC_MSG_WRITE, 100, RU_VA);
		rc_req_run(&u->q, &ru_req_ops, u, 0);
		rx(u, 1, syn[i], 1);
		cr_expect_eq(u->ndone, 1, "the NAK acknowledged PSN 0");
		cr_expect_eq(u->fail_idx, 1);
		cr_expect_eq(u->fail_syn, cqe[i]);
		cr_expect_eq(u->q.state, RC_REQ_ERR);
		ru_free(u);
	}
}

/* D-ROCE-RC-27: a fatal NAK (Remote Access, 0x62) for PSN 3, the SEND after a READ of PSNs 0-2
 * whose responses never came: the error names the SEND (WQE 1, 0x13), not the READ; the READ
 * is not completed and not asked again (the layer flushes it: a fatal NAK puts the responder's
 * QP in Error, IBTA Vol. 1 §10.7.3.1, so a READ asked again would never be answered). Before
 * D-ROCE-RC-27 the READ's WQE 0 took the NAK's syndrome. */
Test(rc_req, fatal_nak_after_read_names_its_wqe)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_READ, 600, RU_VA); /* PSNs 0, 1, 2 */
	ru_post(u, RC_MSG_SEND, 10, 0);      /* PSN 3 */
	ru_post(u, RC_MSG_SEND, 10, 0);      /* PSN 4 */
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	rx(u, 3, 0x62, 1);
	cr_expect_eq(u->nfail, 1);
	cr_expect_eq(u->fail_idx, 1, "the WQE the NAK is for");
	cr_expect_eq(u->fail_syn, 0x13);
	cr_expect_eq(u->ndone, 0, "the READ has no responses: not completed");
	cr_expect_eq(u->nretx, 0, "no go-back");
	cr_expect_eq(u->q.state, RC_REQ_ERR);
	ru_free(u);
}

/* A fatal NAK for the READ's own PSN names the READ (D-ROCE-RC-27). */
Test(rc_req, fatal_nak_for_read_names_it)
{
	struct ru *u = send_read_send(7, 10);
	rx(u, 1, 0x62, 1);
	cr_expect_eq(u->ndone, 1, "the NAK acknowledged the SEND");
	cr_expect_eq(u->fail_idx, 1);
	cr_expect_eq(u->fail_syn, 0x13);
	ru_free(u);
}

/* A WQE the requester cannot run ([S004] L68): the QP faults with 0x02. */
Test(rc_req, bad_wqe_faults_the_qp)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	ru_post(u, RC_MSG_NONE, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 1);
	cr_expect_eq(u->fail_idx, 1);
	cr_expect_eq(u->fail_syn, RC_SYN_LOCAL_QP_OP);
	ru_free(u);
}

/* PSNs wrap at 2^24 (IBTA §9.7.1). */
Test(rc_req, psn_wrap)
{
	struct ru *u = ru_new();
	ru_connect(u, 0xFFFFFE, 7, 7, 0);
	ru_post(u, RC_MSG_SEND, 1000, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_assert_eq(u->nreq, 4);
	cr_expect_eq(u->req_out[1].p.psn, 0xFFFFFF);
	cr_expect_eq(u->req_out[2].p.psn, 0);
	cr_expect_eq(u->req_out[3].p.psn, 1);
	rx(u, 0, ACK, 1);
	cr_expect_eq(u->ndone, 0);
	rx(u, 1, ACK, 1);
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->q.una_psn, 2);
	ru_free(u);
}

/* A READ takes one PSN per response (IBTA §9.7.2): the next request's PSN is after them. */
Test(rc_req, read_request_takes_response_psns)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_READ, 700, RU_VA);
	ru_post(u, RC_MSG_SEND, 10, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_assert_eq(u->nreq, 2);
	cr_expect_eq(u->req_out[0].p.opcode, RC_BTH_READ_REQUEST);
	cr_expect_eq(u->req_out[0].p.dma_len, 700);
	cr_expect_eq(u->req_out[1].p.psn, 3);
	/* an ACK beyond the READ without its responses: they were lost; the READ is asked again */
	rx(u, 3, ACK, 5);
	cr_expect_eq(u->ndone, 0);
	cr_expect_eq(u->retx[RC_RETX_READ_GAP], 1);
	cr_expect_eq(u->req_out[2].p.opcode, RC_BTH_READ_REQUEST);
	cr_expect_eq(u->req_out[2].p.psn, 0);
	ru_free(u);
}

/* WQEs of several WQEBBs: the next WQE's index is the first WQEBB after it (mlx5 WQE counter),
 * and the window still counts messages. */
Test(rc_req, multi_wqebb_wqes)
{
	struct ru *u = ru_new();
	u->bbs = 3;
	ru_connect(u, 0, 7, 7, 2);
	ru_post(u, RC_MSG_SEND, 100, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	cr_expect_eq(u->q.pi, 9);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 2, "a window of two messages");
	cr_expect_eq(u->req_out[1].wqe, 3);
	rx(u, 1, ACK, 1);
	cr_expect_eq(u->ndone, 2);
	cr_expect_eq(u->done_order[1], 3);
	cr_expect_eq(u->nreq, 3);
	cr_expect_eq(u->req_out[2].wqe, 6);
	rx(u, 2, ACK, 2);
	cr_expect_eq(u->q.una, 9);
	cr_expect_eq(rc_req_outstanding(&u->q), 0);
	ru_free(u);
}

/* A gather that fails (an L_Key without local read): the WQE fails with the gather's syndrome
 * (0x04 LOCAL_PROT_ERR) and nothing of it is sent. */
Test(rc_req, gather_failure_fails_the_wqe)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	u->gather_fail_wqe = 2;
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	cr_expect_eq(u->nreq, 1);
	cr_expect_eq(u->fail_idx, 1);
	cr_expect_eq(u->fail_syn, RC_SYN_LOCAL_PROT);
	ru_free(u);
}

/* D-ROCE-RC-19: a clock moved far at once: one expiry, handled at the time the clock moved to
 * (its packet leaves then, and its timer runs from then): no second retry before the first
 * could be answered. */
Test(rc_req, one_long_tick_one_expiry)
{
	struct ru *u = ru_sending(2, 7, 1);
	uint64_t t = u->q.deadline_ns;
	rc_req_tick(&u->q, &ru_req_ops, u, 10000000000ull);
	cr_expect_eq(u->timeouts, 1);
	cr_expect_eq(u->nreq, 2);
	cr_expect_eq(u->q.deadline_ns, 10000000000ull + t, "armed from the time the clock reached");
	cr_expect_eq(u->nfail, 0);
	ru_free(u);
}

/* D-ROCE-RC-6: what the requester does not take is said (the device names it a
 * response_unexpected drop): a ghost ACK, a stray READ response; an ACK it takes is taken. */
Test(rc_req, unexpected_responses_are_reported)
{
	struct ru *u = ru_sending(7, 7, 1);
	struct rc_pkt g = ack_of(0xFFFFFF, ACK);
	cr_expect(!rc_req_rx(&u->q, &g, &ru_req_ops, u, 1),
		  "PSN 0xFFFFFF before anything was acknowledged: a ghost");
	g.psn = 5;
	cr_expect(!rc_req_rx(&u->q, &g, &ru_req_ops, u, 1), "a ghost ACK beyond what was sent");
	struct rc_pkt r = ack_of(0, 0x1F);
	r.opcode = RC_BTH_READ_RESP_ONLY;
	cr_expect(!rc_req_rx(&u->q, &r, &ru_req_ops, u, 1), "a READ response while only a SEND waits");
	cr_expect_eq(u->ndone, 0);
	struct rc_pkt a = ack_of(0, ACK);
	cr_expect(rc_req_rx(&u->q, &a, &ru_req_ops, u, 2));
	cr_expect_eq(u->ndone, 1);
	cr_expect(rc_req_rx(&u->q, &a, &ru_req_ops, u, 3), "a duplicate ACK of the last acknowledged");
	ru_free(u);
}
