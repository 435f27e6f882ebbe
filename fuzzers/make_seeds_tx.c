/* make_seeds: the tx target's seeds (fuzzers/tx_ops.h; the WQE operands are tx_fuzz.c's). Part
 * of build/seeds/make_seeds (fuzzers/make_seeds.c has the whole list). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "make_seeds.h"
#include "nicref/rules_tx.h"
#include "tx_ops.h"

/* ---- tx: op lists (fuzzers/tx_ops.h; the WQE operands are tx_fuzz.c's) ----------------- */

struct tx_in {
	uint8_t b[4096];
	size_t n;
};

static void tx_bytes(struct tx_in *s, const uint8_t *p, size_t n)
{
	if (n > sizeof s->b - s->n) {
		fprintf(stderr, "make_seeds: a tx seed is too long\n");
		exit(1);
	}
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

#define TX(s, ...)                                                                              \
	tx_bytes((s), (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))
#define U16(v) (uint8_t)((v) >> 8), (uint8_t)(v)

/* A SEND or LSO WQE (tx_fuzz.c's operands): ctrl (ce | se << 2 | fm << 3), tmpl, var, cs, the
 * ihs selector, payload bytes, mss, segs (count | inline mask << 3), the payload's offset, key;
 * no header mutation. */
static void tx_send(struct tx_in *s, unsigned kind, unsigned ctrl, unsigned tmpl, unsigned var,
		    unsigned cs, unsigned ihs, unsigned plen, unsigned mss, unsigned segs,
		    unsigned poff, unsigned key)
{
	TX(s, TX_OP_WQE, (uint8_t)kind, (uint8_t)ctrl, (uint8_t)tmpl, (uint8_t)var, (uint8_t)cs,
	   (uint8_t)ihs, U16(plen), U16(mss), (uint8_t)segs, U16(poff), (uint8_t)key, 0);
}

static void tx_ring(struct tx_in *s, unsigned mode)
{
	TX(s, TX_OP_RING, (uint8_t)mode, 0);
}

static void tx_seed(const char *name, const struct tx_in *s)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/tx", seeds_corpora_dir);
	seeds_write_file(dir, name, s->b, s->n);
}

/* A UMR of four KLMs over the data MKey (64 B each 1 KB apart): inline (flags bit 0) or through
 * the UMR pointer; check_free 01 (the MKey must be free), every defined mask bit but the tag. */
static void tx_umr(struct tx_in *s, unsigned ctrl, unsigned flags)
{
	TX(s, TX_OP_WQE, TX_KIND_UMR, (uint8_t)ctrl, (uint8_t)flags, 4, 0, U16(0x1F7), U16(0),
	   U16(0x400), 0x01);
	for (unsigned i = 0; i < 4; i++)
		TX(s, 0, U16(0x100 + 0x200 * i), U16(0x400));
}

void tx_seeds(void)
{
	enum { CE_ALWAYS = 2, CE_EVENT = 3, CS = 3, SMALL_FENCE = 1 << 3 };
	struct tx_in s;

	/* SEND: a pointer, IPv4/TCP with both checksums, doorbell; then UDP over a pointer and
	 * an inline segment through Blue Flame */
	s.n = 0;
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_TCP, 0, CS, 0, 1000, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_UDP, 0, CS, 0, 40, 0, 2 | 2 << 3, 8, 0);
	tx_ring(&s, TX_RING_BF);
	tx_seed("seed-send-ptr-inline", &s);

	/* every template with 0, 1 and 2 VLAN tags (802.1Q, then 802.1ad), checksums asked */
	s.n = 0;
	for (unsigned t = 0; t < 8; t++) {
		for (unsigned tags = 0; tags < 3; tags++)
			tx_send(&s, TX_KIND_SEND, CE_ALWAYS, t | tags << 3 | (tags == 2) << 6,
				(t & 3) << 3, CS, 0, 100 + 37 * t, 0, 2, 32 * t, 0);
		tx_ring(&s, TX_RING_DB);
	}
	tx_seed("seed-send-templates", &s);

	/* where the checksums do not apply (D-TXO-2, -7): LSRR, an option list that cannot be
	 * walked, an IPv6 routing header, an IPv4 fragment; UDP with checksum fields 0 and no
	 * payload (D-TXO-3) */
	s.n = 0;
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_OPT_TCP, 1 << 3, CS, 0, 300, 0, 1, 0, 0);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_OPT_TCP, 3 << 3, CS, 0, 300, 0, 1, 0, 0);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V6_EXT_UDP, 1 << 3, CS, 0, 300, 0, 1, 0, 0);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_UDP, 0, CS | 8, 0, 300, 0, 1, 0, 0);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V6_UDP, 1 << 5, CS, 0, 0, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-send-csum-exclusions", &s);

	/* LSO: IPv4/TCP with timestamps, FIN|PSH and CWR; IPv6 with extension headers behind a
	 * VLAN tag, the payload in three segments, not a multiple of mss; one segment */
	s.n = 0;
	tx_send(&s, TX_KIND_LSO, CE_ALWAYS, TX_T_V4_TCP, 1 << 2 | 1 << 6 | 1 << 7, 0, 0, 8000,
		1400, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	tx_send(&s, TX_KIND_LSO, CE_ALWAYS, TX_T_V6_EXT_TCP | 1 << 3, 2 << 3, CS, 0, 3000, 536, 3,
		64, 0);
	tx_send(&s, TX_KIND_LSO, CE_ALWAYS, TX_T_V4_TCP, 0, CS, 0, 100, 1400, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-lso", &s);

	/* LSO refused (D-TXO-12): not TCP, mss 0, the headers not inline, more than max_lso_cap;
	 * the SQ recovered after each */
	s.n = 0;
	static const unsigned lso_bad[4][4] = { /* tmpl, ihs, payload, mss */
		{ TX_T_V4_UDP, 0, 3000, 1000 }, { TX_T_V4_TCP, 0, 3000, 0 },
		{ TX_T_V4_TCP, 3, 3000, 1000 }, { TX_T_V4_TCP, 0, 0xFFFF, 9000 } };
	for (unsigned i = 0; i < 4; i++) {
		tx_send(&s, TX_KIND_LSO, CE_ALWAYS, lso_bad[i][0], 0, 0, lso_bad[i][1],
			lso_bad[i][2], lso_bad[i][3], 1, 0, 0);
		tx_ring(&s, TX_RING_DB);
		TX(&s, TX_OP_SQ_MODIFY, TX_SQ_RECOVER);
	}
	tx_seed("seed-lso-refused", &s);

	/* NOPs of every ce mode (11 with se), padded for Blue Flame, even and odd buffers */
	s.n = 0;
	for (unsigned ce = 0; ce < 4; ce++) {
		TX(&s, TX_OP_WQE, TX_KIND_NOP, (uint8_t)(ce | (ce == 3) << 2), (uint8_t)ce);
		tx_ring(&s, ce & 1 ? TX_RING_BF : TX_RING_DB);
	}
	tx_seed("seed-nop-ce-bf", &s);

	/* the ring wraps (64 WQEBBs): 40 SENDs of two WQEBBs, signalled and rung every fourth */
	s.n = 0;
	for (unsigned i = 0; i < 40; i++) {
		tx_send(&s, TX_KIND_SEND, i % 4 == 3 ? CE_ALWAYS : 0, TX_T_V4_UDP, 0, CS, 2, 60, 0,
			1, i, 0);
		if (i % 4 == 3)
			tx_ring(&s, i % 8 == 3 ? TX_RING_DB : TX_RING_BF);
	}
	tx_seed("seed-ring-wrap", &s);

	/* UMR (§10.1.1): inline KLMs, check_free 01 on the free UMR MKey, which the mask makes
	 * not free; a SEND through it (small fence). Then check_free 01 again through the UMR
	 * pointer: not free, an error. After recovery, a UMR with no check and a SEND without
	 * the fence (TX_UMR_FENCE_MISSING). */
	s.n = 0;
	tx_umr(&s, CE_ALWAYS, 0x01 | 1 << 1);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS | SMALL_FENCE, TX_T_V4_TCP, 0, CS, 0, 1000, 0, 1, 0, 1);
	tx_ring(&s, TX_RING_DB);
	tx_umr(&s, CE_ALWAYS, 1 << 1);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_SQ_MODIFY, TX_SQ_RECOVER);
	tx_umr(&s, CE_ALWAYS, 0);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V6_TCP, 0, CS, 0, 1000, 0, 1, 0, 1);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-umr", &s);

	/* errors: a malformed WQE (raw: opcode 01h, the ctrl fields fixed), the SQ in ERR, what
	 * follows flushed (ce 00, 01, 10), a doorbell in ERR; recovery and a SEND */
	s.n = 0;
	TX(&s, TX_OP_WQE_RAW, 0, 0x03, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, 0, 0);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, 1, 0);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_TCP, 0, CS, 0, 100, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 0);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_SQ_MODIFY, TX_SQ_RECOVER);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_TCP, 0, CS, 0, 100, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-error-flush-recover", &s);

	/* a bad l_key (local protection), a 2 GB pointer, an address past the MKey, no inline
	 * headers (short of the inline mode: dropped, §7.9.3.1) */
	s.n = 0;
	static const unsigned bad[4][2] = { { 0, 2 }, { 0, 4 }, { 0, 8 }, { 1, 0 } };
	for (unsigned i = 0; i < 4; i++) {
		tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_TCP, 0, CS, bad[i][0], 100, 0, 1, 0,
			bad[i][1]);
		tx_ring(&s, TX_RING_DB);
		TX(&s, TX_OP_SQ_MODIFY, TX_SQ_RECOVER);
	}
	tx_seed("seed-send-errors", &s);

	/* MTU: the vport's 600 (a SEND and an LSO over it dropped), the port's 1000, the vport
	 * down */
	s.n = 0;
	TX(&s, TX_OP_MTU, 1, U16(600));
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_TCP, 0, CS, 0, 700, 0, 1, 0, 0);
	tx_send(&s, TX_KIND_LSO, CE_ALWAYS, TX_T_V4_TCP, 0, CS, 0, 3000, 1000, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_MTU, 0, U16(1000));
	TX(&s, TX_OP_MTU, 1, U16(0));
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V6_UDP | 2 << 3, 0, CS, 0, 990, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_VPORT, 0);
	tx_send(&s, TX_KIND_SEND, CE_ALWAYS, TX_T_V4_TCP, 0, CS, 0, 100, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-mtu-vport", &s);

	/* loopback (D-TX-5): multicast, broadcast, the vport's own address; the CQ armed,
	 * solicited, and time */
	s.n = 0;
	for (unsigned dst = 1; dst < 4; dst++)
		tx_send(&s, TX_KIND_SEND, CE_EVENT, TX_T_V4_UDP, dst, CS, 0, 64, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_CQ_ARM, 1);
	tx_send(&s, TX_KIND_SEND, CE_EVENT, TX_T_V4_UDP, 0, CS, 0, 64, 0, 1, 0, 0);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_TIME, 0x0F, 0x42, 0x40);
	tx_seed("seed-loopback-arm", &s);

	/* doorbells (D-TX-3, D-TX-4, D-DB-4): the record alone, the doorbell alone, an index
	 * behind and one ahead, Blue Flame register 1, reserved bits, a record past the ring;
	 * raw Blue Flame dwords then their doorbell */
	s.n = 0;
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 1);
	tx_ring(&s, TX_RING_RECORD);
	tx_ring(&s, TX_RING_DB_ONLY);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 0);
	TX(&s, TX_OP_RING, TX_RING_DB_INDEX, 0xFF);
	TX(&s, TX_OP_RING, TX_RING_DB_INDEX, 0x05);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 0);
	tx_ring(&s, TX_RING_DB_OTHER);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 0);
	tx_ring(&s, TX_RING_DB_RESVD);
	TX(&s, TX_OP_DBR, 1, U16(200));
	tx_ring(&s, TX_RING_DB_ONLY);
	TX(&s, TX_OP_BF_WRITE, 0, 2, 0, 0, 0, 0);
	TX(&s, TX_OP_BF_WRITE, 0, 3, 0, 0, 0, 0);
	TX(&s, TX_OP_BF_WRITE, 0, 0, 0, 0, 0x05, 0x00);
	TX(&s, TX_OP_BF_WRITE, 0, 1, 0, 0, 0, 0x02);
	tx_seed("seed-doorbells", &s);

	/* Blue Flame alternation (§7.2.2.1, D-DB-4): postings of ds 2 NOPs, even, odd, a plain
	 * doorbell (even), Blue Flame (odd); then BF_AGAIN makes a posting reuse the odd buffer
	 * (SQ_DB_BF_ALTERNATE), a plain one reuse it (no violation), and register 1 alternates
	 * apart */
	s.n = 0;
	for (unsigned i = 0; i < 4; i++) {
		TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 1);
		tx_ring(&s, i == 2 ? TX_RING_DB : TX_RING_BF);
	}
	TX(&s, TX_OP_BF_AGAIN, 0);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 1);
	tx_ring(&s, TX_RING_BF);
	TX(&s, TX_OP_BF_AGAIN, 0);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 1);
	tx_ring(&s, TX_RING_DB);
	TX(&s, TX_OP_BF_AGAIN, 1);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 1);
	tx_ring(&s, TX_RING_DB_OTHER);
	TX(&s, TX_OP_WQE, TX_KIND_NOP, CE_ALWAYS, 1);
	tx_ring(&s, TX_RING_BF);
	tx_seed("seed-bf-alternate", &s);

	/* raw WQEs: a SEND whose pointer the target points into the data region (flags 7), a
	 * payload written with MEM first */
	s.n = 0;
	TX(&s, TX_OP_MEM, 0, 0x20, 0, 3, 15, 0x45, 0x00, 0x00, 0x40);
	TX(&s, TX_OP_WQE_RAW, 3, 0x07,
	   /* ctrl: SEND, ce 10 */
	   0, 0, 0, 0x0A, 0, 0, 0, 3, 0, 0, 0, 0x08, 0, 0, 0, 0,
	   /* Eth: l3cs|l4cs, 14 inline header bytes */
	   0, 0, 0, 0, 0xC0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0E, 0x02, 0x11,
	   0x22, 0x33, 0x44, 0x55, 0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x08, 0x00, 0, 0, 0, 0,
	   /* a pointer: 1024 bytes at data + 0x2000 */
	   0, 0, 0x04, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0x00);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-raw-send", &s);

	/* the inline modes (§7.9.3.1): IP, then TCP/UDP with signatures checked (§9.2.3); SENDs
	 * inlining the L2 header, through L3, all the headers; a raw NOP signed, one not */
	s.n = 0;
	for (unsigned mode = 2; mode < 4; mode++) {
		TX(&s, TX_OP_SQ_CONFIG, (uint8_t)(mode | (mode == 3) << 2));
		for (unsigned ihs = 0; ihs < 4; ihs++)
			tx_send(&s, TX_KIND_SEND, CE_ALWAYS, ihs & 1 ? TX_T_V6_EXT_TCP : TX_T_V4_UDP,
				0, CS, (uint8_t[]){ 2, 3, 0, 4 }[ihs], 200, 0, 1, 0, 0);
		tx_ring(&s, TX_RING_DB);
	}
	TX(&s, TX_OP_WQE_RAW, 0, 0x0B, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0);
	TX(&s, TX_OP_WQE_RAW, 0, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-inline-modes-signature", &s);

	/* the finding of FRAME_MAX (tests/tx_frame_tags_test.c): the port at max_mtu 9978, a raw
	 * SEND whose 814 inline header bytes stack 200 802.1Q tags, then 9978 bytes: dropped */
	s.n = 0;
	TX(&s, TX_OP_MTU, 0, U16(9978));
	uint8_t w[16 * 54] = { 0, 0, 0, NICREF_SEND_OP_SEND, 0, 0, 0, 0, 0, 0, 0, 0x08 };
	size_t ihs = 12 + 4 * 200 + 2;
	uint8_t *eth = w + 16, *hdr = eth + 14;
	eth[12] = (uint8_t)(ihs >> 8);
	eth[13] = (uint8_t)ihs;
	static const uint8_t macs[12] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
					  0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE };
	memcpy(hdr, macs, sizeof macs);
	for (unsigned i = 0; i < 200; i++)
		memcpy(hdr + 12 + 4 * i, (const uint8_t[]){ 0x81, 0x00, 0x00, 0x64 }, 4);
	memcpy(hdr + 12 + 800, (const uint8_t[]){ 0x08, 0x00 }, 2);
	uint8_t *ptr = w + sizeof w - 16; /* 9978 bytes at data + 0x2000 */
	memcpy(ptr, (const uint8_t[]){ 0, 0, 0x26, 0xFA, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0 },
	       16);
	TX(&s, TX_OP_WQE_RAW, sizeof w / 16 - 1, 0x07);
	tx_bytes(&s, w, sizeof w);
	tx_ring(&s, TX_RING_DB);
	tx_seed("seed-stacked-vlan-tags", &s);
}
