/* The RC requester and responder of roce/rc.h talking to each other through rc_util.h's wire,
 * which loses packets by number: SEND, WRITE and READ go through with their completions; a lost
 * request is recovered by the NAK sequence error from the right PSN, a lost last packet or ACK
 * by the timer, an RNR by the RNR retry; data is placed exactly once; retry exhaustion fails the
 * WQE with 0x15. Expectations from IBTA Vol. 1 §9.7 and D-ROCE-RC-*, by hand. */
#include <stdlib.h>

#include "rc_util.h"

static void settle(struct ru *u, struct ru_wire *w, uint64_t *now, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		ru_pump(u, w, *now);
		uint64_t d = rc_req_deadline(&u->q);
		if (d == 0)
			return;
		*now = d;
		rc_req_tick(&u->q, &ru_req_ops, u, *now);
	}
}

Test(rc_pair, send_write_read)
{
	struct ru *u = ru_new();
	ru_connect(u, 0xFFFFF0, 7, 7, 0);
	u->rq_posted = 2;
	ru_post(u, RC_MSG_SEND, 1000, 0);
	ru_post(u, RC_MSG_WRITE, 700, RU_VA + 100);
	ru_post(u, RC_MSG_SEND_IMM, 10, 0);
	ru_post(u, RC_MSG_READ, 700, RU_VA + 100);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	struct ru_wire w = { 0 };
	uint64_t now = 0;
	settle(u, &w, &now, 10);
	cr_expect_eq(u->ndone, 4);
	cr_expect_eq(u->nretx, 0);
	cr_expect_eq(u->rq_used, 2);
	cr_expect_eq(u->rq_len[0], 1000);
	cr_expect_eq(memcmp(u->rq_buf[0], &u->src[0], 1000), 0);
	cr_expect_eq(u->rq_len[1], 10);
	cr_expect(u->rq_has_imm[1]);
	cr_expect_eq(u->rq_imm[1], 0xC0DE0002u);
	cr_expect_eq(memcmp(&u->mem[100], &u->src[4096], 700), 0);
	cr_expect_eq(memcmp(&u->rdst[3 * 4096], &u->src[4096], 700), 0, "READ brought the WRITE's bytes");
	cr_expect_eq(u->q.una_psn, u->q.npsn);
	cr_expect_eq(u->r.epsn, u->q.npsn);
	cr_expect_eq(u->r.msn, 4);
	ru_free(u);
}

/* Request packet 1 (PSN 1, SEND_MIDDLE) lost: the responder NAKs PSN 1 once, the requester
 * goes back to PSN 1 with SEND_MIDDLE; every byte placed once. */
Test(rc_pair, lost_request_nak_sequence)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	u->rq_posted = 1;
	ru_post(u, RC_MSG_SEND, 1000, 0);
	ru_post(u, RC_MSG_WRITE, 600, RU_VA);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	struct ru_wire w = { .req_loss = 1u << 1 };
	uint64_t now = 0;
	settle(u, &w, &now, 10);
	cr_expect_eq(u->ndone, 2);
	cr_expect_eq(u->retx[RC_RETX_NAK_SEQ], 1);
	cr_expect_eq(u->retx_psn[0], 1);
	cr_expect_eq(u->req_out[7].p.psn, 1);
	cr_expect_eq(u->req_out[7].p.opcode, RC_BTH_SEND_MIDDLE);
	cr_expect_eq(u->rq_used, 1);
	cr_expect_eq(memcmp(u->rq_buf[0], &u->src[0], 1000), 0);
	for (int i = 0; i < 600; i++)
		cr_assert_eq(u->puts_per_byte[i], 1, "byte %d placed once", i);
	cr_expect_eq(u->timeouts, 0);
	ru_free(u);
}

/* The last packet (the only one asking for an ACK) lost: the timer goes back to PSN 3. */
Test(rc_pair, lost_last_packet_timeout)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_WRITE, 1000, RU_VA);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	struct ru_wire w = { .req_loss = 1u << 3 };
	uint64_t now = 0;
	settle(u, &w, &now, 10);
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->timeouts, 1);
	cr_expect_eq(u->retx[RC_RETX_TIMEOUT], 1);
	cr_expect_eq(u->retx_psn[0], 0, "nothing acknowledged: back to the first PSN");
	/* PSNs 0..2 come again as duplicates: acknowledged, not placed */
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(u->puts_per_byte[i], 1, "byte %d placed once", i);
	ru_free(u);
}

/* The ACK lost: the timer resends; the responder sees a duplicate, acknowledges it again and
 * places nothing. */
Test(rc_pair, lost_ack_duplicate_not_placed)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	ru_post(u, RC_MSG_WRITE, 100, RU_VA);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	struct ru_wire w = { .resp_loss = 1u };
	uint64_t now = 0;
	settle(u, &w, &now, 10);
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->timeouts, 1);
	cr_expect_eq(u->puts_per_byte[0], 1, "placed once");
	cr_expect_eq(u->nresp, 2);
	ru_free(u);
}

/* No receive WQE: RNR NAK; a WQE is posted; the RNR retry delivers. */
Test(rc_pair, rnr_then_delivered)
{
	struct ru *u = ru_sending(7, 3, 1);
	struct ru_wire w = { 0 };
	uint64_t now = 0;
	ru_pump(u, &w, now);
	cr_expect_eq(u->q.state, RC_REQ_RNR);
	u->rq_posted = 1;
	settle(u, &w, &now, 10);
	cr_expect_eq(now, 10000, "the RNR wait of code 1 (IBTA Table 45: 0.01 ms)");
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->retx[RC_RETX_RNR], 1);
	cr_expect_eq(u->rq_used, 1);
	ru_free(u);
}

/* Everything lost: retry_cnt 3: four transmissions, then 0x15 on the WQE. */
Test(rc_pair, retry_exhaustion)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 3, 7, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	ru_post(u, RC_MSG_SEND, 100, 0);
	u->rq_posted = 2;
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	struct ru_wire w = { .req_loss = ~0ull };
	uint64_t now = 0;
	settle(u, &w, &now, 10);
	cr_expect_eq(u->nreq, 8);
	cr_expect_eq(u->nfail, 1);
	cr_expect_eq(u->fail_idx, 0);
	cr_expect_eq(u->fail_syn, 0x15);
	cr_expect_eq(u->q.state, RC_REQ_ERR);
	cr_expect_eq(now, 4 * 67108864ull, "four classic timeouts of 4.096 us x 2^14");
	ru_free(u);
}

/* A READ response lost: the next one shows the gap; the READ is asked again from the missing
 * response's PSN with VA and length advanced (IBTA §9.7.4.1.4). */
Test(rc_pair, read_response_lost)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, 7, 7, 0);
	for (int i = 0; i < 1000; i++)
		u->mem[i] = (uint8_t)(i * 13);
	ru_post(u, RC_MSG_READ, 1000, RU_VA);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	struct ru_wire w = { .resp_loss = 1u << 1 };
	uint64_t now = 0;
	settle(u, &w, &now, 10);
	cr_expect_eq(u->ndone, 1);
	cr_expect_eq(u->retx[RC_RETX_READ_GAP], 1);
	cr_assert_geq(u->nreq, 2);
	cr_expect_eq(u->req_out[1].p.psn, 1);
	cr_expect_eq(u->req_out[1].p.va, RU_VA + 256);
	cr_expect_eq(u->req_out[1].p.dma_len, 744);
	cr_expect_eq(memcmp(u->rdst, u->mem, 1000), 0);
	ru_free(u);
}
