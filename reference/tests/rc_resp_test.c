/* The RC responder (roce/rc_resp.c) against packets written by hand: the checks and their
 * order per profile ([S004] L88-101 RC_CHK; IBTA Vol. 1 §9.7.5.1; D-ROCE-RC-10), PSN valid /
 * duplicate / out of sequence with the NAK-sent latch, RNR, the NAK codes and the fatal errors,
 * placement exactly once, the ACK policy (D-ROCE-RC-9), READ responses and receive completions
 * with immediate. */
#include <stdlib.h>

#include "rc_util.h"

static struct rc_pkt req(uint8_t op, uint32_t psn, uint32_t len)
{
	static const uint8_t data[4096] = { 1, 2, 3, 4, 5 };
	struct rc_pkt p;
	memset(&p, 0, sizeof p);
	p.opcode = op;
	p.psn = psn;
	p.pkey = 0xFFFF;
	p.len = len;
	p.payload = data;
	const struct rc_op_info *oi = rc_op_info(op);
	if (oi != NULL && oi->reth) {
		p.has_reth = true;
		p.va = RU_VA;
		p.rkey = RU_RKEY;
		p.dma_len = len;
	}
	return p;
}

static enum rc_verdict in(struct ru *u, const struct rc_pkt *p)
{
	return rc_resp_rx(&u->r, &u->env, p, &ru_resp_ops, u);
}

static struct ru *up(bool seed004)
{
	struct ru *u = ru_new();
	ru_connect(u, 100, 7, 7, 0);
	u->env.seed004 = seed004;
	return u;
}

Test(rc_resp, send_only_placed_completed_acked)
{
	struct ru *u = up(false);
	u->rq_posted = 1;
	struct rc_pkt p = req(RC_BTH_SEND_ONLY, 100, 5);
	cr_expect_eq(in(u, &p), RC_V_OK);
	cr_expect_eq(u->rq_used, 1);
	cr_expect_eq(u->rq_len[0], 5);
	cr_expect_eq(u->rq_buf[0][4], 5);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.psn, 100);
	cr_expect_eq(u->resp_out[0].p.syndrome, 0x1F);
	cr_expect_eq(u->resp_out[0].p.msn, 1);
	cr_expect_eq(u->r.epsn, 101);
	ru_free(u);
}

/* IBTA §9.7.5.1.2: a duplicate is answered with an ACK of the last PSN received in order and
 * placed nowhere. */
Test(rc_resp, duplicate_write_reacked_not_placed)
{
	struct ru *u = up(false);
	struct rc_pkt p = req(RC_BTH_WRITE_ONLY, 100, 8);
	cr_expect_eq(in(u, &p), RC_V_OK);
	cr_expect_eq(u->puts_per_byte[0], 1);
	cr_expect_eq(in(u, &p), RC_V_DUP);
	cr_expect_eq(u->puts_per_byte[0], 1, "placed once");
	cr_assert_eq(u->nresp, 2);
	cr_expect_eq(u->resp_out[1].p.psn, 100);
	cr_expect_eq(u->resp_out[1].p.syndrome, 0x1F);
	cr_expect_eq(u->resp_out[1].p.msn, 1);
	ru_free(u);
}

/* IBTA §9.7.5.1.2: out of sequence: one NAK sequence error carrying the expected PSN, then
 * silence (the latch) until the expected PSN arrives. */
Test(rc_resp, nak_sent_latch)
{
	struct ru *u = up(false);
	struct rc_pkt a = req(RC_BTH_WRITE_ONLY, 102, 8);
	cr_expect_eq(in(u, &a), RC_V_NAK_SEQ);
	cr_expect_eq(in(u, &a), RC_V_NAK_SEQ);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.syndrome, 0x60);
	cr_expect_eq(u->resp_out[0].p.psn, 100);
	cr_expect_eq(u->puts_per_byte[0], 0);
	struct rc_pkt b = req(RC_BTH_WRITE_ONLY, 100, 8);
	cr_expect_eq(in(u, &b), RC_V_OK);
	cr_expect_eq(u->nresp, 2);
	struct rc_pkt c = req(RC_BTH_WRITE_ONLY, 105, 8);
	cr_expect_eq(in(u, &c), RC_V_NAK_SEQ);
	cr_assert_eq(u->nresp, 3, "the latch opened when the expected PSN came");
	cr_expect_eq(u->resp_out[2].p.psn, 101);
	ru_free(u);
}

/* IBTA §9.7.5.2.8 / [S004] L98: no receive WQE: RNR NAK with the QP's min_rnr_nak code and the
 * request's PSN; the expected PSN stays. */
Test(rc_resp, rnr_nak)
{
	struct ru *u = up(false);
	u->env.min_rnr = 14;
	struct rc_pkt p = req(RC_BTH_SEND_ONLY, 100, 5);
	cr_expect_eq(in(u, &p), RC_V_RNR);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.syndrome, 0x2E);
	cr_expect_eq(u->resp_out[0].p.psn, 100);
	cr_expect_eq(u->r.epsn, 100);
	u->rq_posted = 1;
	cr_expect_eq(in(u, &p), RC_V_OK);
	ru_free(u);
}

/* A SEND_MIDDLE between messages: NAK invalid request, the QP to ERR, then nothing. */
Test(rc_resp, opcode_sequence_invalid)
{
	struct ru *u = up(false);
	u->rq_posted = 2;
	struct rc_pkt p = req(RC_BTH_SEND_MIDDLE, 100, 256);
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.syndrome, 0x61);
	cr_expect_eq(u->fatal, 1);
	struct rc_pkt q = req(RC_BTH_SEND_ONLY, 100, 5);
	cr_expect_eq(in(u, &q), RC_V_DROP);
	cr_expect_eq(u->nresp, 1);
	ru_free(u);
}

/* A WRITE_FIRST inside a SEND: invalid request. */
Test(rc_resp, opcode_sequence_mixed)
{
	struct ru *u = up(false);
	u->rq_posted = 2;
	struct rc_pkt a = req(RC_BTH_SEND_FIRST, 100, 256);
	cr_expect_eq(in(u, &a), RC_V_OK);
	cr_expect_eq(u->nresp, 0, "no AckReq, not the end: no ACK (D-ROCE-RC-9)");
	struct rc_pkt b = req(RC_BTH_WRITE_LAST, 101, 10);
	cr_expect_eq(in(u, &b), RC_V_NAK_INV);
	ru_free(u);
}

/* [S004] L95: FIRST and MIDDLE carry exactly the MTU, LAST 1..MTU. */
Test(rc_resp, lengths)
{
	static const struct {
		uint8_t op;
		uint32_t len;
		enum rc_verdict v;
	} cases[] = {
		{ RC_BTH_SEND_FIRST, 255, RC_V_NAK_INV }, { RC_BTH_SEND_FIRST, 257, RC_V_NAK_INV },
		{ RC_BTH_SEND_ONLY, 257, RC_V_NAK_INV },  { RC_BTH_SEND_ONLY, 256, RC_V_OK },
		{ RC_BTH_SEND_ONLY, 0, RC_V_OK },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ru *u = up(false);
		u->rq_posted = 1;
		struct rc_pkt p = req(cases[i].op, 100, cases[i].len);
		cr_expect_eq(in(u, &p), cases[i].v, "case %zu", i);
		ru_free(u);
	}
	struct ru *u = up(false);
	u->rq_posted = 1;
	struct rc_pkt f = req(RC_BTH_SEND_FIRST, 100, 256);
	in(u, &f);
	struct rc_pkt l = req(RC_BTH_SEND_LAST, 101, 0);
	cr_expect_eq(in(u, &l), RC_V_NAK_INV, "a LAST of 0 bytes");
	ru_free(u);
	/* D-ROCE-RC-11: seed004 takes [S004] L95 as written: Last <= MTU, 0 included */
	u = up(true);
	u->rq_posted = 1;
	in(u, &f);
	cr_expect_eq(in(u, &l), RC_V_OK, "seed004: a LAST of 0 bytes");
	cr_expect_eq(u->rq_len[0], 256);
	ru_free(u);
}

/* A SEND longer than the receive WQE ([S004] L95 "Send <= RQ buffer"). */
Test(rc_resp, send_longer_than_receive_wqe)
{
	struct ru *u = up(false);
	u->rq_posted = 1;
	u->rq_size = 100;
	struct rc_pkt p = req(RC_BTH_SEND_ONLY, 100, 101);
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	cr_expect_eq(u->rq_used, 1, "the WQE completes in error");
	cr_expect_eq(u->rq_syn[0], RC_SYN_LOCAL_LENGTH);
	ru_free(u);
}

/* [S004] L99: a bad R_Key or a range outside the region: NAK remote access error. */
Test(rc_resp, rkey_and_rights)
{
	struct ru *u = up(false);
	struct rc_pkt p = req(RC_BTH_WRITE_ONLY, 100, 8);
	p.rkey = 0x999;
	cr_expect_eq(in(u, &p), RC_V_NAK_ACC);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.syndrome, 0x62);
	cr_expect_eq(u->fatal, 1);
	ru_free(u);
	u = up(false);
	u->env.rwe = false;
	p = req(RC_BTH_WRITE_ONLY, 100, 8);
	cr_expect_eq(in(u, &p), RC_V_NAK_ACC, "remote write not enabled on the QP");
	ru_free(u);
	/* IBTA C9-88: a zero-length RDMA WRITE checks no R_Key */
	u = up(false);
	p = req(RC_BTH_WRITE_ONLY, 100, 0);
	p.rkey = 0x999;
	cr_expect_eq(in(u, &p), RC_V_OK);
	ru_free(u);
}

/* The WRITE's packets must carry the RETH's DMA length. */
Test(rc_resp, write_length_against_reth)
{
	struct ru *u = up(false);
	struct rc_pkt f = req(RC_BTH_WRITE_FIRST, 100, 256);
	f.dma_len = 300;
	cr_expect_eq(in(u, &f), RC_V_OK);
	struct rc_pkt l = req(RC_BTH_WRITE_LAST, 101, 100);
	cr_expect_eq(in(u, &l), RC_V_NAK_INV);
	ru_free(u);
}

/* [S004] L100: the receive CQ cannot take the completion: fatal, no NAK. */
Test(rc_resp, cq_overflow_fatal)
{
	struct ru *u = up(true);
	u->rq_posted = 1;
	u->cq_full = true;
	struct rc_pkt p = req(RC_BTH_SEND_ONLY, 100, 5);
	cr_expect_eq(in(u, &p), RC_V_FATAL);
	cr_expect_eq(u->nresp, 0);
	cr_expect_eq(u->fatal, 1);
	ru_free(u);
}

/* D-ROCE-RC-12 (D-ROCE-8): IBTA's P_Key rule under both profiles (seed 004's bit 14 read as
 * IBTA's membership bit 15). */
Test(rc_resp, pkey_rules)
{
	static const struct {
		uint16_t pkt, qp;
		bool ok;
	} cases[] = {
		{ 0xFFFF, 0xFFFF, true },  /* the default key */
		{ 0x7FFF, 0x7FFF, false }, /* two limited members */
		{ 0x8001, 0x0001, true },  /* one full member */
		{ 0x0001, 0x8001, true },
		{ 0x8001, 0x8002, false }, /* different keys */
		{ 0x8000, 0x8000, false }, /* the invalid key */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int s = 0; s < 2; s++) {
			struct ru *u = up(s == 1);
			u->env.pkey = cases[i].qp;
			struct rc_pkt p = req(RC_BTH_WRITE_ONLY, 100, 8);
			p.pkey = cases[i].pkt;
			cr_expect_eq(in(u, &p), cases[i].ok ? RC_V_OK : RC_V_DROP, "case %zu profile %d", i, s);
			if (!cases[i].ok)
				cr_expect_eq(u->nresp, 0, "a P_Key mismatch is dropped silently");
			ru_free(u);
		}
	}
}

/* The QP does not receive (not RTR/RTS): dropped. */
Test(rc_resp, destqp_not_receiving)
{
	struct ru *u = up(true);
	u->env.receives = false;
	struct rc_pkt p = req(RC_BTH_WRITE_ONLY, 100, 8);
	cr_expect_eq(in(u, &p), RC_V_DROP);
	cr_expect_eq(u->nresp, 0);
	ru_free(u);
}

/* D-ROCE-RC-10: the order differs. An out-of-sequence packet of a bad length: seed004 checks the
 * length first ([S004] L95 before L101): NAK invalid request; IBTA checks the PSN first: NAK
 * sequence error. */
Test(rc_resp, order_length_before_psn)
{
	struct ru *u = up(true);
	struct rc_pkt p = req(RC_BTH_WRITE_FIRST, 105, 100);
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	ru_free(u);
	u = up(false);
	cr_expect_eq(in(u, &p), RC_V_NAK_SEQ);
	ru_free(u);
}

/* D-ROCE-RC-15: under seed004's order the length check runs before the PSN check, so a
 * malformed request AHEAD of the expected PSN (100) is NAKed Invalid Request. A NAK
 * acknowledges every PSN before its own (IBTA Vol. 1 §9.7.5.1): it carries the expected PSN,
 * never 105 (which would acknowledge 100..104, never received). A malformed request AT the
 * expected PSN keeps its own (the same number). Adapted from the revroce review. */
Test(rc_resp, seed004_fatal_nak_ahead_carries_the_expected_psn)
{
	struct ru *u = up(true);
	struct rc_pkt p = req(RC_BTH_WRITE_FIRST, 105, 100); /* a FIRST shorter than the MTU */
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.psn, 100, "the expected PSN, not the packet's (%u)",
		     u->resp_out[0].p.psn);
	cr_expect_eq(u->resp_out[0].p.syndrome, 0x61, "NAK Invalid Request (IBTA Table 44)");
	ru_free(u);
	u = up(true);
	p.psn = 100;
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.psn, 100);
	ru_free(u);
	/* A packet ahead across the PSN wrap: expected 0xFFFFFE, packet 3. */
	u = ru_new();
	ru_connect(u, 0xFFFFFE, 7, 7, 0);
	u->env.seed004 = true;
	p.psn = 3;
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.psn, 0xFFFFFE);
	ru_free(u);
}

/* D-ROCE-21: the BTH SE of a message's last packet reaches its receive completion (IBTA Vol. 1
 * §9.2 SE, §11.4.2.2): a SEND ONLY with SE, a SEND FIRST/LAST with SE on the LAST only, a
 * WRITE with immediate with SE; a SEND without SE stays unsolicited. */
Test(rc_resp, bth_se_of_the_last_packet_reaches_the_completion)
{
	struct ru *u = up(false);
	u->rq_posted = 4;
	struct rc_pkt p = req(RC_BTH_SEND_ONLY, 100, 5);
	p.se = true;
	cr_expect_eq(in(u, &p), RC_V_OK);
	p = req(RC_BTH_SEND_ONLY, 101, 5);
	cr_expect_eq(in(u, &p), RC_V_OK);
	p = req(RC_BTH_SEND_FIRST, 102, u->env.pmtu);
	cr_expect_eq(in(u, &p), RC_V_OK);
	p = req(RC_BTH_SEND_LAST, 103, 5);
	p.se = true;
	cr_expect_eq(in(u, &p), RC_V_OK);
	p = req(RC_BTH_WRITE_ONLY_IMM, 104, 8);
	p.has_imm = true;
	p.imm = 0x1234;
	p.se = true;
	cr_expect_eq(in(u, &p), RC_V_OK);
	cr_assert_eq(u->rq_used, 4);
	static const bool want[4] = { true, false, true, true };
	for (unsigned i = 0; i < 4; i++)
		cr_expect_eq(u->rq_se[i], want[i], "WQE %u: se", i);
	ru_free(u);
}

/* A duplicate SEND with no receive WQE: seed004 checks the RQ before the PSN ([S004] L98 before
 * L101): RNR NAK; IBTA: the duplicate is acknowledged. */
Test(rc_resp, order_rq_before_psn)
{
	struct ru *u = up(true);
	u->rq_posted = 1;
	struct rc_pkt p = req(RC_BTH_SEND_ONLY, 100, 5);
	cr_expect_eq(in(u, &p), RC_V_OK);
	cr_expect_eq(in(u, &p), RC_V_RNR);
	ru_free(u);
	u = up(false);
	u->rq_posted = 1;
	cr_expect_eq(in(u, &p), RC_V_OK);
	cr_expect_eq(in(u, &p), RC_V_DUP);
	cr_expect_eq(u->rq_used, 1, "never placed twice");
	ru_free(u);
}

/* seed004 runs Send and Write only ([S004] L35): READ and immediates are invalid requests. */
Test(rc_resp, seed004_operation_set)
{
	struct ru *u = up(true);
	struct rc_pkt p = req(RC_BTH_READ_REQUEST, 100, 0);
	p.dma_len = 8;
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	ru_free(u);
	u = up(true);
	u->rq_posted = 1;
	p = req(RC_BTH_SEND_ONLY_IMM, 100, 4);
	cr_expect_eq(in(u, &p), RC_V_NAK_INV);
	ru_free(u);
}

/* READ: responses FIRST/MIDDLE/LAST with PSNs from the request's, AETH on first and last;
 * ePSN moves past them; a duplicate READ is executed again. */
Test(rc_resp, read_responses)
{
	struct ru *u = up(false);
	for (int i = 0; i < 600; i++)
		u->mem[i] = (uint8_t)(i ^ 0x5A);
	struct rc_pkt p = req(RC_BTH_READ_REQUEST, 100, 0);
	p.dma_len = 600;
	cr_expect_eq(in(u, &p), RC_V_OK);
	cr_assert_eq(u->nresp, 3);
	cr_expect_eq(u->resp_out[0].p.opcode, RC_BTH_READ_RESP_FIRST);
	cr_expect_eq(u->resp_out[1].p.opcode, RC_BTH_READ_RESP_MIDDLE);
	cr_expect_eq(u->resp_out[2].p.opcode, RC_BTH_READ_RESP_LAST);
	cr_expect_eq(u->resp_out[2].p.psn, 102);
	cr_expect_eq(u->resp_out[2].p.len, 88);
	cr_expect_eq(u->resp_out[2].data[0], (uint8_t)(512 ^ 0x5A));
	cr_expect(u->resp_out[0].p.has_aeth && !u->resp_out[1].p.has_aeth);
	cr_expect_eq(u->r.epsn, 103);
	cr_expect_eq(in(u, &p), RC_V_DUP);
	cr_expect_eq(u->nresp, 6, "the duplicate READ answered again");
	cr_expect_eq(u->resp_out[3].p.psn, 100);
	/* remote read not enabled: access error */
	struct ru *v = up(false);
	v->env.rre = false;
	cr_expect_eq(in(v, &p), RC_V_NAK_ACC);
	ru_free(v);
	ru_free(u);
}

/* RDMA WRITE with immediate takes a receive WQE at its last packet; its completion carries the
 * message length and the immediate. No receive WQE: RNR. */
Test(rc_resp, write_imm_completion)
{
	struct ru *u = up(false);
	struct rc_pkt f = req(RC_BTH_WRITE_FIRST, 100, 256);
	f.dma_len = 300;
	cr_expect_eq(in(u, &f), RC_V_OK);
	struct rc_pkt l = req(RC_BTH_WRITE_LAST_IMM, 101, 44);
	l.has_imm = true;
	l.imm = 0xABCD;
	cr_expect_eq(in(u, &l), RC_V_RNR);
	u->rq_posted = 1;
	cr_expect_eq(in(u, &l), RC_V_OK);
	cr_expect_eq(u->rq_used, 1);
	cr_expect_eq(u->rq_len[0], 300);
	cr_expect(u->rq_has_imm[0]);
	cr_expect_eq(u->rq_imm[0], 0xABCD);
	cr_expect_eq(u->rq_msg[0], RC_MSG_WRITE_IMM);
	ru_free(u);
}

/* D-ROCE-RC-9: an ACK for AckReq or the end of a message, none otherwise. */
Test(rc_resp, ack_policy)
{
	struct ru *u = up(false);
	struct rc_pkt f = req(RC_BTH_WRITE_FIRST, 100, 256);
	f.dma_len = 768;
	in(u, &f);
	cr_expect_eq(u->nresp, 0);
	struct rc_pkt m = req(RC_BTH_WRITE_MIDDLE, 101, 256);
	m.ackreq = true;
	in(u, &m);
	cr_assert_eq(u->nresp, 1);
	cr_expect_eq(u->resp_out[0].p.psn, 101);
	cr_expect_eq(u->resp_out[0].p.msn, 0, "the message is not complete");
	struct rc_pkt l = req(RC_BTH_WRITE_LAST, 102, 256);
	in(u, &l);
	cr_expect_eq(u->nresp, 2);
	cr_expect_eq(u->resp_out[1].p.msn, 1);
	ru_free(u);
}

/* A duplicate READ runs again, so its R_Key is checked again: a duplicate naming memory outside
 * the region is a remote access error, not a read of it. */
Test(rc_resp, duplicate_read_checks_rkey)
{
	struct ru *u = up(false);
	struct rc_pkt p = req(RC_BTH_READ_REQUEST, 100, 0);
	p.dma_len = 100;
	cr_expect_eq(in(u, &p), RC_V_OK);
	p.va = RU_VA + RU_MEM - 10;
	cr_expect_eq(in(u, &p), RC_V_NAK_ACC);
	cr_expect_eq(u->nresp, 2, "one response, then the NAK");
	cr_expect_eq(u->resp_out[1].p.syndrome, 0x62);
	ru_free(u);
}

/* A receive completion the CQ refuses (rq_done fails), for rc_resp_flush. */
static int refuse_done(void *ctx, const struct rc_rwqe_ref *ref, enum rc_msg m, uint32_t n,
		       bool has_imm, uint32_t imm, uint8_t syn, bool se)
{
	(void)ctx, (void)ref, (void)m, (void)n, (void)has_imm, (void)imm, (void)syn, (void)se;
	return -1;
}

/* F6, D-ROCE-RC-18, IBTA Vol. 1 §10.3.1: the QP enters ERR while a SEND's FIRST holds receive
 * WQE 0: rc_resp_flush completes WQE 0 with WR_FLUSH_ERR (0x05), once; WQE 1, never taken, is
 * left to the layer's flush of the posted ones. A CQ that refuses the completion leaves the WQE
 * held (the flush of the later ones must wait: they complete in order). */
Test(rc_resp, flush_completes_the_held_wqe_once)
{
	struct ru *u = up(false);
	u->rq_posted = 2;
	cr_expect_eq(rc_resp_flush(&u->r, &ru_resp_ops, u), 0, "nothing held: nothing to do");
	cr_expect_eq(u->rq_used, 0);
	struct rc_pkt f = req(RC_BTH_SEND_FIRST, 100, 256);
	cr_assert_eq(in(u, &f), RC_V_OK);
	cr_assert_eq(u->rq_taken, 1, "the FIRST took WQE 0");
	cr_assert_eq(u->rq_used, 0, "the message is not complete");
	struct rc_resp_ops no_room = ru_resp_ops;
	no_room.rq_done = refuse_done;
	cr_expect_eq(rc_resp_flush(&u->r, &no_room, u), -1);
	cr_expect(u->r.rwqe_held, "still held: its completion is still owed");
	cr_expect_eq(rc_resp_flush(&u->r, &ru_resp_ops, u), 0);
	cr_assert_eq(u->rq_used, 1, "WQE 0 completed");
	cr_expect_eq(u->rq_syn[0], 0x05, "WR_FLUSH_ERR");
	cr_expect_eq(u->rq_msg[0], RC_MSG_SEND);
	cr_expect_eq(u->rq_taken, 1, "WQE 1 not taken by the flush");
	cr_expect_eq(rc_resp_flush(&u->r, &ru_resp_ops, u), 0);
	cr_expect_eq(u->rq_used, 1, "completed once");
	ru_free(u);
}

/* The same for a WQE the FIRST took from the QP's SRQ/RMP (D-ROCE-RC-18: "taken from the RQ or
 * the SRQ"): the flush completes that WQE, by the RMP's index and as the RMP's (the layer's
 * CQE names the SRQ's WQE), with WR_FLUSH_ERR, once; nothing else is taken from the SRQ (it
 * keeps the WQEs no QP took). */
Test(rc_resp, flush_completes_a_wqe_held_from_the_srq)
{
	struct ru *u = up(false);
	u->rq_posted = 2;
	u->rmp_base = 5; /* the SRQ's WQEs 5 and 6 */
	struct rc_pkt f = req(RC_BTH_SEND_FIRST, 100, 256);
	cr_assert_eq(in(u, &f), RC_V_OK);
	cr_assert_eq(u->rq_taken, 1, "the FIRST took the SRQ's WQE 5");
	cr_assert_eq(u->rq_used, 0);
	cr_expect_eq(rc_resp_flush(&u->r, &ru_resp_ops, u), 0);
	cr_assert_eq(u->rq_used, 1, "the held WQE completed");
	cr_expect_eq(u->rq_syn[5], 0x05, "WR_FLUSH_ERR, WQE 5");
	cr_expect(u->rq_done_rmp[5], "completed as the RMP's WQE");
	cr_expect_eq(u->rq_msg[5], RC_MSG_SEND);
	cr_expect_eq(u->rq_taken, 1, "nothing more taken from the SRQ");
	cr_expect_eq(rc_resp_flush(&u->r, &ru_resp_ops, u), 0);
	cr_expect_eq(u->rq_used, 1, "completed once");
	ru_free(u);
}
