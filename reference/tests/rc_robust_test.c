/* The RC state machines under arbitrary input (roce/rc_req.c, rc_resp.c): seeded random packets
 * of every opcode, PSN, length and header at a responder and a requester, and random losses on
 * the pure pair. Whatever comes: no crash, no byte placed twice, the responder's expected PSN
 * only moves forward by what it executed, the requester never has more messages out than its
 * window, and every posted WQE completes at most once. (The fuzz targets of item 11 come later;
 * this is their invariant set on a fixed seed.) */
#include <stdlib.h>

#include "rc_util.h"

static uint64_t rnd(uint64_t *s)
{
	return nicref_splitmix64(s);
}

Test(rc_robust, responder_random_packets)
{
	uint64_t s = 0x5EED;
	for (int round = 0; round < 40; round++) {
		struct ru *u = ru_new();
		ru_connect(u, (uint32_t)(rnd(&s) & RC_PSN_MASK), 7, 7, 0);
		u->env.seed004 = rnd(&s) & 1;
		u->rq_posted = (int)(rnd(&s) % 9);
		uint32_t base = u->r.epsn;
		for (int i = 0; i < 300 && !u->r.err; i++) {
			static uint8_t data[4096];
			struct rc_pkt p;
			memset(&p, 0, sizeof p);
			p.opcode = (uint8_t)(rnd(&s) % 0x20);
			p.psn = rc_psn_add(u->r.epsn, (uint32_t)(rnd(&s) % 5)) - 2u;
			p.psn &= RC_PSN_MASK;
			p.pkey = rnd(&s) % 16 ? 0xFFFF : (uint16_t)rnd(&s);
			p.ackreq = rnd(&s) & 1;
			p.len = (uint32_t)(rnd(&s) % 4 ? 256 : rnd(&s) % 600);
			p.payload = data;
			p.has_reth = rnd(&s) & 1;
			p.va = RU_VA + rnd(&s) % (RU_MEM + 512);
			p.rkey = rnd(&s) % 8 ? RU_RKEY : (uint32_t)rnd(&s);
			p.dma_len = (uint32_t)(rnd(&s) % 2048);
			uint32_t before = u->r.epsn;
			enum rc_verdict v = rc_resp_rx(&u->r, &u->env, &p, &ru_resp_ops, u);
			cr_assert_lt(v, RC_V_COUNT);
			int32_t moved = rc_psn_diff(u->r.epsn, before);
			cr_assert_geq(moved, 0, "round %d packet %d: ePSN went back", round, i);
			if (v != RC_V_OK)
				cr_assert_eq(moved, 0, "round %d packet %d: ePSN moved on %s", round,
					     i, rc_verdict_name(v));
		}
		for (int b = 0; b < RU_MEM; b++)
			cr_assert_leq(u->puts_per_byte[b], 64);
		cr_assert_leq(u->rq_used, u->rq_posted);
		(void)base;
		ru_free(u);
	}
}

Test(rc_robust, requester_random_responses)
{
	uint64_t s = 0xACC;
	for (int round = 0; round < 40; round++) {
		struct ru *u = ru_new();
		uint8_t limit = (uint8_t)(rnd(&s) % 2 ? 16 : 0);
		ru_connect(u, (uint32_t)(rnd(&s) & RC_PSN_MASK), (uint8_t)(rnd(&s) % 8),
			   (uint8_t)(rnd(&s) % 8), limit);
		for (int i = 0; i < 24; i++)
			ru_post(u, (enum rc_msg)(rnd(&s) % 5), (uint32_t)(rnd(&s) % 900), RU_VA);
		uint64_t now = 0;
		rc_req_run(&u->q, &ru_req_ops, u, now);
		for (int i = 0; i < 400; i++) {
			static uint8_t data[4096];
			struct rc_pkt p;
			memset(&p, 0, sizeof p);
			p.opcode = (uint8_t)(0x0D + rnd(&s) % 5);
			p.psn = (u->q.una_psn + (uint32_t)(rnd(&s) % 8) - 2u) & RC_PSN_MASK;
			p.has_aeth = rnd(&s) % 8 != 0;
			p.syndrome = (uint8_t)(rnd(&s) % 4 ? 0x1F : rnd(&s));
			p.len = (uint32_t)(rnd(&s) % 2 ? 256 : rnd(&s) % 300);
			p.payload = data;
			now += rnd(&s) % 200000;
			if (rnd(&s) % 3 == 0)
				rc_req_tick(&u->q, &ru_req_ops, u, now);
			else
				rc_req_rx(&u->q, &p, &ru_req_ops, u, now);
			if (limit)
				cr_assert_leq(rc_req_outstanding(&u->q), limit, "round %d step %d", round, i);
			int32_t out = rc_psn_diff(u->q.npsn, u->q.una_psn);
			cr_assert_geq(out, 0, "round %d step %d: una beyond next", round, i);
		}
		for (int i = 0; i < RU_SQ; i++)
			cr_assert_leq(u->done[i], 1, "round %d: WQE %d completed twice", round, i);
		cr_assert_leq(u->nfail, 1);
		ru_free(u);
	}
}

/* The pure pair over a wire that loses a random tenth of the packets both ways: every message
 * completes in order, each byte of each WRITE placed once... or the QP fails with 0x15. */
Test(rc_robust, lossy_pair_places_once)
{
	uint64_t s = 0x1055;
	for (int round = 0; round < 30; round++) {
		struct ru *u = ru_new();
		ru_connect(u, (uint32_t)(rnd(&s) & RC_PSN_MASK), 7, 7, 16);
		u->rq_posted = 8;
		int nmsg = 6;
		for (int i = 0; i < nmsg; i++)
			ru_post(u, i % 2 ? RC_MSG_SEND : RC_MSG_WRITE, 600, RU_VA + (uint64_t)i * 1024);
		struct ru_wire w = { 0 };
		for (int b = 0; b < 64; b++)
			if (rnd(&s) % 10 == 0)
				w.req_loss |= 1ull << b;
		for (int b = 0; b < 64; b++)
			if (rnd(&s) % 10 == 0)
				w.resp_loss |= 1ull << b;
		rc_req_run(&u->q, &ru_req_ops, u, 0);
		uint64_t now = 0;
		for (int i = 0; i < 60; i++) {
			ru_pump(u, &w, now);
			uint64_t d = rc_req_deadline(&u->q);
			if (d == 0)
				break;
			now = d;
			rc_req_tick(&u->q, &ru_req_ops, u, now);
		}
		if (u->nfail == 0) {
			cr_expect_eq(u->ndone, nmsg, "round %d", round);
			for (int i = 0; i < nmsg; i++)
				cr_expect_eq(u->done_order[i], i);
		}
		for (int b = 0; b < RU_MEM; b++)
			cr_assert_leq(u->puts_per_byte[b], 1, "round %d byte %d placed twice", round, b);
		cr_assert_leq(u->rq_used, 3);
		ru_free(u);
	}
}
