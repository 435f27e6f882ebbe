/* Target: dll_rx, one PCIe data link layer end (seed 003, PCI Express Base Specification §3.6;
 * reference/pcie/, docs/pcie.md) fed raw packets from the input, as the wire would bring them:
 * TLPs (sequence header, TLP bytes, LCRC) and DLLPs (6 bytes), with the end's own TL sending
 * TLPs the DLLPs can acknowledge, time, and PHY events. The dll target runs two ends whose every
 * packet the model builds itself; here the packet bytes are the input's.
 *
 * Fix-up (this target): each TLP's LCRC (PCIe Base §3.6.2.1, T3: zlib's CRC-32 of the sequence
 * header and the TLP, little-endian after it; inverted for a TLP ended with EDB, §3.6.3.1 L206)
 * and each DLLP's 16-bit CRC (§3.6.2.2 L143-147: polynomial 100Bh, initial FFFFh, reflected,
 * complemented; bits 7:0 in byte 4) are computed here, so a mutated packet reaches the
 * sequence-number rules (R4), delivery and the Ack/Nak processing (T8) behind the checks R3 and
 * D2. Twin: dll_rx_crc (DLL_RX_KEEP_CRC), the same with each LCRC and CRC taken from the input,
 * so the checks themselves (R2, R3, D2) are fuzzed. The CRCs are this file's own bitwise code,
 * written apart from reference/pcie/crc.c and checked at start against CRC-32's check value.
 *
 * Input: a head of 3 bytes (missing bytes read as 0), then ops, an op byte and its operands:
 *   head  0: bit 0 Extended Synch, bit 1 the priority replay_first (T11); 1: REPLAY_TIMER limit
 *         256 + 64 * byte (both Extended Synch values); 2: ack_latency_limit 8 * byte
 *   0x00 TLP   flags:u8 hdr:u16 n:u8 data[n % 64] (dll_rx_crc: then lcrc[4], the wire's bytes)
 *              flags bit 0 EDB (nullified), bit 1 a receiver (PHY) error; hdr is the sequence
 *              header as on the wire (4 reserved bits, 12-bit seq); n % 64 = 0 makes a packet
 *              too short to carry a TLP
 *   0x01 DLLP  flags:u8 body[4] (dll_rx_crc: then crc[2]); flags bit 0 a receiver error
 *   0x02 SEND  n:u8: the end's TL offers a TLP of 1 + n % 32 bytes
 *   0x03 TIME  dt:u16: dt * 4 symbol times pass
 *   0x04 PHY   sel:u8 % 3: Recovery (the peer's retrain), back in L0, DL_Inactive (link down)
 *   0x05-0xFF  reserved: the op byte alone, nothing happens
 * At most DLL_RX_MAX_OPS ops run.
 *
 * Properties (the harness keeps its own NEXT_RCV_SEQ and transmit accounting), after every op:
 *  - DELIVER_IFF: a TLP is delivered exactly when it arrived without a receiver error nor EDB,
 *    long enough, its LCRC right and its seq the next expected (R1-R4, L258-268), once, its
 *    bytes the TLP's;
 *  - BAD_TLP: no error for a receiver error (R1) nor a rightly nullified TLP (R2); exactly one
 *    bad_tlp for a short packet, a wrong LCRC, a nullified one with an LCRC not inverted (R2,
 *    R3, erratum E5); at most one for a TLP out of sequence (R4, D-DLL-7);
 *  - BAD_DLLP: a DLLP with a wrong CRC reports exactly one bad_dllp and acknowledges nothing;
 *    a right one never reports bad_dllp; one with a receiver error does nothing at all (D1);
 *  - TX_DLLP: every Ack/Nak sent has a right CRC and AckNak_Seq_Num = NEXT_RCV_SEQ - 1 (R5);
 *  - TX_TLP: every TLP sent has a right LCRC, new ones the next seq, a replay the original
 *    bytes (L100);
 *  - ACKED: TLPs leave the retry buffer only on an Ack or Nak with a right CRC, oldest first,
 *    never more than were sent; the retry buffer holds exactly the sent and unacknowledged;
 *    the counters stay within their widths (NEXT_TRANSMIT_SEQ, ACKD_SEQ, NEXT_RCV_SEQ < 4096,
 *    REPLAY_NUM < 4). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader.h"
#include "fuzz_target.h"
#include "nicref/pcie.h"

#ifndef DLL_RX_KEEP_CRC
#define DLL_RX_KEEP_CRC 0
#endif

#define DLL_RX_MAX_OPS 512u
#define DLL_RX_TLP_MAX 64u  /* bytes of a TLP from the input (n % 64) */
#define DLL_RX_SEND_MAX 32u /* bytes of a TLP the end's TL sends */
#define SEQ_MASK 0xFFFu

enum { OP_TLP, OP_DLLP, OP_SEND, OP_TIME, OP_PHY };

/* The end under test and its retry buffer's storage (nicref_pcie_init resets the end). */
static struct {
	struct nicref_pcie_dll d;
	uint8_t *store;
} E;

/* What the harness follows, zeroed per input. */
static struct {
	/* The receiver as the harness follows it. */
	uint16_t expect;     /* NEXT_RCV_SEQ */
	/* The op being run and what it caused. */
	unsigned op;
	bool acknak_ok;      /* a DLLP op whose CRC is right and which no receiver error hit */
	const uint8_t *tlp;  /* a TLP op's TLP bytes and length */
	size_t tlp_len;
	unsigned delivered, bad_tlp, bad_dllp, acked_events;
	/* The transmitter: TLPs sent and acknowledged since the last link down. */
	unsigned sent, acked;
} F;

/* The bytes of each TLP sent (slot seq % 2048), for the replay check; only the slots of TLPs
 * sent are read, so they are not cleared between inputs. */
static struct {
	uint8_t len[NICREF_PCIE_RETRY_SLOTS];
	uint8_t data[NICREF_PCIE_RETRY_SLOTS][DLL_RX_SEND_MAX];
} R;

/* ---- the check values, written apart from the model (reference/pcie/crc.c) ---- */

/* CRC-32 register after bytes: reflected polynomial EDB88320h (04C11DB7h), LSB first. */
static uint32_t crc32_run(uint32_t reg, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		reg ^= p[i];
		for (unsigned b = 0; b < 8; b++)
			reg = (reg >> 1) ^ (0xEDB88320u & (0u - (reg & 1u)));
	}
	return reg;
}

/* T3: the LCRC value of seqhdr || tlp (zlib's crc32). */
static uint32_t lcrc_of(const uint8_t hdr[2], const uint8_t *tlp, size_t n)
{
	return ~crc32_run(crc32_run(0xFFFFFFFFu, hdr, 2), tlp, n);
}

/* §3.6.2.2: polynomial 100Bh, initial FFFFh, reflected (LSB first: 100Bh reversed is D008h),
 * complemented. */
static uint16_t dllp_crc_of(const uint8_t body[4])
{
	uint16_t reg = 0xFFFFu;
	for (unsigned i = 0; i < 4; i++) {
		reg ^= body[i];
		for (unsigned b = 0; b < 8; b++)
			reg = (uint16_t)((reg >> 1) ^ (0xD008u & (0u - (reg & 1u))));
	}
	return (uint16_t)~reg;
}

/* ---- what the end does ---- */

static void on_tx(const struct nicref_pcie_event *ev)
{
	if (ev->is_dllp) {
		const uint8_t *b = ev->dllp;
		uint16_t seq = (uint16_t)((b[2] & 0xFu) << 8 | b[3]);
		if ((b[0] != NICREF_PCIE_DLLP_ACK && b[0] != NICREF_PCIE_DLLP_NAK) ||
		    dllp_crc_of(b) != (uint16_t)(b[4] | b[5] << 8) ||
		    seq != ((F.expect + SEQ_MASK) & SEQ_MASK))
			fuzz_property_failed("TX_DLLP", __FILE__, __LINE__,
					     "op %u: DLLP %02x %02x %02x %02x %02x %02x sent; its CRC "
					     "0x%04x, NEXT_RCV_SEQ %u",
					     F.op, b[0], b[1], b[2], b[3], b[4], b[5], dllp_crc_of(b),
					     F.expect);
		return;
	}
	uint8_t hdr[2] = { (uint8_t)(ev->seq >> 8 & 0xFu), (uint8_t)ev->seq };
	if (ev->nullified || ev->len > DLL_RX_SEND_MAX || ev->lcrc != lcrc_of(hdr, ev->tlp, ev->len))
		fuzz_property_failed("TX_TLP", __FILE__, __LINE__,
				     "op %u: TLP seq %u (%u bytes%s) sent with LCRC 0x%08x", F.op,
				     ev->seq, ev->len, ev->nullified ? ", nullified" : "", ev->lcrc);
	unsigned slot = ev->seq % NICREF_PCIE_RETRY_SLOTS;
	if (!ev->replay) {
		if (ev->seq != (F.sent & SEQ_MASK) || F.sent - F.acked >= NICREF_PCIE_WINDOW)
			fuzz_property_failed("TX_TLP", __FILE__, __LINE__,
					     "op %u: new TLP seq %u; %u sent, %u acknowledged", F.op,
					     ev->seq, F.sent, F.acked);
		R.len[slot] = (uint8_t)ev->len;
		memcpy(R.data[slot], ev->tlp, ev->len);
		F.sent++;
		return;
	}
	/* L100: a replay sends the TLPs still held, with their bytes. */
	unsigned back = (F.sent - ev->seq) & SEQ_MASK;
	if (back == 0 || back > F.sent - F.acked || ev->len != R.len[slot] ||
	    memcmp(ev->tlp, R.data[slot], ev->len) != 0)
		fuzz_property_failed("TX_TLP", __FILE__, __LINE__,
				     "op %u: replay of seq %u, not a held TLP as sent (%u sent, %u "
				     "acknowledged)",
				     F.op, ev->seq, F.sent, F.acked);
}

static void on_event(void *ctx, const struct nicref_pcie_event *ev)
{
	(void)ctx;
	fuzz_trace("event kind %u t %llu seq %u%s%s error %u rule %u", ev->kind,
		   (unsigned long long)ev->t, ev->seq, ev->is_dllp ? " dllp" : "",
		   ev->replay ? " replay" : "", ev->error, ev->rule);
	switch (ev->kind) {
	case NICREF_PCIE_EV_TX:
		on_tx(ev);
		break;
	case NICREF_PCIE_EV_DELIVER:
		if (F.op != OP_TLP || F.tlp == NULL || F.delivered || ev->seq != F.expect ||
		    ev->len != F.tlp_len || memcmp(ev->tlp, F.tlp, ev->len) != 0)
			fuzz_property_failed("DELIVER_IFF", __FILE__, __LINE__,
					     "op %u: TLP seq %u (%u bytes) delivered; NEXT_RCV_SEQ %u, "
					     "the op's TLP %zu bytes",
					     F.op, ev->seq, ev->len, F.expect, F.tlp_len);
		F.delivered++;
		F.expect = (F.expect + 1u) & SEQ_MASK;
		break;
	case NICREF_PCIE_EV_ERROR:
		if (ev->error == NICREF_PCIE_ERR_BAD_TLP)
			F.bad_tlp++;
		else if (ev->error == NICREF_PCIE_ERR_BAD_DLLP)
			F.bad_dllp++;
		break;
	case NICREF_PCIE_EV_ACKED: {
		unsigned n = ((ev->seq - ev->first) & SEQ_MASK) + 1u;
		if (!F.acknak_ok || ev->first != (F.acked & SEQ_MASK) || n > F.sent - F.acked)
			fuzz_property_failed("ACKED", __FILE__, __LINE__,
					     "op %u: seq %u..%u acknowledged; %u sent, %u acknowledged%s",
					     F.op, ev->first, ev->seq, F.sent, F.acked,
					     F.acknak_ok ? "" : ", not on a right Ack/Nak");
		F.acked += n;
		F.acked_events++;
		break;
	}
	default:
		break;
	}
}

static void check_state(void)
{
	const struct nicref_pcie_dll *d = &E.d;
	NICREF_FUZZ_CHECK(d->next_transmit_seq < 4096 && d->ackd_seq < 4096);
	NICREF_FUZZ_CHECK(d->next_rcv_seq < 4096 && d->replay_num < 4);
	unsigned held = nicref_pcie_retry_count(d);
	if (held != F.sent - F.acked || (held && nicref_pcie_retry_seq(d, 0) != (F.acked & SEQ_MASK)))
		fuzz_property_failed("ACKED", __FILE__, __LINE__,
				     "the retry buffer holds %u TLPs (oldest %u); %u sent, %u "
				     "acknowledged",
				     held, held ? nicref_pcie_retry_seq(d, 0) : 0, F.sent, F.acked);
}

/* ---- ops ---- */

static void op_tlp(struct reader *r)
{
	uint8_t pkt[2 + DLL_RX_TLP_MAX + 4];
	uint8_t flags = rd8(r);
	pkt[0] = rd8(r);
	pkt[1] = rd8(r);
	size_t n = rd8(r) % DLL_RX_TLP_MAX;
	for (size_t i = 0; i < n; i++)
		pkt[2 + i] = rd8(r);
	bool edb = flags & 1u, phy = flags & 2u;
	uint32_t calc = lcrc_of(pkt, pkt + 2, n), lcrc;
#if DLL_RX_KEEP_CRC
	lcrc = 0; /* the wire's 4 bytes, little-endian (T3) */
	for (unsigned i = 0; i < 4; i++)
		lcrc |= (uint32_t)rd8(r) << (8 * i);
#else
	lcrc = edb ? ~calc : calc; /* the fix-up: what a right transmitter sends (T3, L206) */
#endif
	for (unsigned i = 0; i < 4; i++)
		pkt[2 + n + i] = (uint8_t)(lcrc >> (8 * i));
	uint16_t seq = (uint16_t)((pkt[0] & 0xFu) << 8 | pkt[1]);
	bool good = n > 0 && !edb && lcrc == calc;
	bool want = !phy && good && seq == F.expect;
	F.tlp = pkt + 2;
	F.tlp_len = n;
	nicref_pcie_rx_tlp(&E.d, pkt, 2 + n + 4, edb, phy);
	F.tlp = NULL;
	if ((F.delivered != 0) != want)
		fuzz_property_failed("DELIVER_IFF", __FILE__, __LINE__,
				     "op %u: TLP seq %u (%zu bytes%s%s, LCRC %s) %s; NEXT_RCV_SEQ "
				     "was %u",
				     F.op, seq, n, edb ? ", EDB" : "", phy ? ", receiver error" : "",
				     lcrc == calc ? "right" : lcrc == ~calc ? "inverted" : "wrong",
				     want ? "not delivered" : "delivered", (F.expect - F.delivered) & SEQ_MASK);
	/* R1: the PHY reports; R2: a rightly nullified TLP is silent; R2/R3/E5: one bad_tlp for a
	 * short packet, a wrong LCRC, a nullified one not inverted; R4 (D-DLL-7): at most one. */
	unsigned want_min, want_max;
	if (phy || (edb && n > 0 && lcrc == ~calc) || want)
		want_min = want_max = 0;
	else if (!good)
		want_min = want_max = 1;
	else
		want_min = 0, want_max = 1;
	if (F.bad_tlp < want_min || F.bad_tlp > want_max || F.bad_dllp)
		fuzz_property_failed("BAD_TLP", __FILE__, __LINE__,
				     "op %u: TLP seq %u (%zu bytes%s%s, LCRC %s) reported %u bad_tlp, "
				     "%u bad_dllp",
				     F.op, seq, n, edb ? ", EDB" : "", phy ? ", receiver error" : "",
				     lcrc == calc ? "right" : lcrc == ~calc ? "inverted" : "wrong",
				     F.bad_tlp, F.bad_dllp);
}

static void op_dllp(struct reader *r)
{
	uint8_t b[6];
	uint8_t flags = rd8(r);
	for (unsigned i = 0; i < 4; i++)
		b[i] = rd8(r);
	uint16_t calc = dllp_crc_of(b);
#if DLL_RX_KEEP_CRC
	b[4] = rd8(r);
	b[5] = rd8(r);
#else
	b[4] = (uint8_t)calc; /* the fix-up: bits 7:0 in byte 4, 15:8 in byte 5 */
	b[5] = (uint8_t)(calc >> 8);
#endif
	bool phy = flags & 1u, ok = (uint16_t)(b[4] | b[5] << 8) == calc;
	F.acknak_ok = !phy && ok;
	nicref_pcie_rx_dllp(&E.d, b, phy);
	F.acknak_ok = false;
	bool bad = !phy && !ok;
	if (F.bad_dllp != (unsigned)bad || F.bad_tlp || ((phy || !ok) && F.acked_events))
		fuzz_property_failed("BAD_DLLP", __FILE__, __LINE__,
				     "op %u: DLLP %02x %02x %02x %02x, CRC %s%s: %u bad_dllp, %u "
				     "bad_tlp, %u acknowledgements",
				     F.op, b[0], b[1], b[2], b[3], ok ? "right" : "wrong",
				     phy ? ", receiver error" : "", F.bad_dllp, F.bad_tlp,
				     F.acked_events);
}

static void op_send(struct reader *r)
{
	uint8_t n = rd8(r), t[DLL_RX_SEND_MAX];
	size_t len = 1u + n % DLL_RX_SEND_MAX;
	for (size_t i = 0; i < len; i++)
		t[i] = (uint8_t)(F.sent * 31u + i * 7u + n);
	(void)nicref_pcie_tl_send(&E.d, t, len, false);
}

static void op_phy(struct reader *r)
{
	switch (rd8(r) % 3u) {
	case 0:
		nicref_pcie_phy_recovery(&E.d);
		break;
	case 1:
		nicref_pcie_retrain_done(&E.d);
		break;
	default:
		/* DL_Inactive: every reset value (L23-29, L184-194): seq 0 both ways, nothing held. */
		nicref_pcie_link_down(&E.d);
		F.expect = 0;
		F.sent = F.acked = 0;
		break;
	}
}

static int init(void)
{
	static const uint8_t check[] = "123456789";
	/* CRC-32's check value (zlib, ISO-HDLC): this file's CRC is the standard one. */
	NICREF_FUZZ_CHECK(~crc32_run(0xFFFFFFFFu, check, 9) == 0xCBF43926u);
	E.store = malloc(nicref_pcie_storage_bytes(DLL_RX_SEND_MAX));
	return E.store ? 0 : -1;
}

static void one_input(const uint8_t *data, size_t len)
{
	struct reader r = { data, len };
	uint8_t h0 = rd8(&r), h1 = rd8(&r), h2 = rd8(&r);
	struct nicref_pcie_params p;
	nicref_pcie_params_default(&p);
	p.extended_synch = h0 & 1u;
	p.priority = (h0 >> 1) & 1u;
	p.replay_limit = p.replay_limit_es1 = 256u + 64u * h1;
	p.ack_latency_limit = 8u * h2;
	struct nicref_pcie_ops ops = { .event = on_event };
	memset(&F, 0, sizeof F);
	NICREF_FUZZ_CHECK(nicref_pcie_init(&E.d, &p, &ops, E.store,
					   nicref_pcie_storage_bytes(DLL_RX_SEND_MAX)) == 0);
	check_state();
	for (unsigned ops_run = 0; r.n && ops_run < DLL_RX_MAX_OPS;) {
		unsigned op = rd8(&r);
		if (op > OP_PHY)
			continue; /* reserved: the op byte alone */
		ops_run++;
		F.op = op;
		F.delivered = F.bad_tlp = F.bad_dllp = F.acked_events = 0;
		fuzz_trace("op %u", op);
		switch (op) {
		case OP_TLP:
			op_tlp(&r);
			break;
		case OP_DLLP:
			op_dllp(&r);
			break;
		case OP_SEND:
			op_send(&r);
			break;
		case OP_TIME:
			nicref_pcie_advance(&E.d, 4u * rdn(&r, 2));
			break;
		default:
			op_phy(&r);
			break;
		}
		check_state();
	}
}

NICREF_FUZZ_TARGET(init, one_input)
