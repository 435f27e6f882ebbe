/* Target: dll, the PCIe data link layer (seed 003, PCI Express Base Specification §3.6): two
 * ends of reference/pcie/ joined by the link of nicref_pcie_link, TLPs offered by both
 * transaction layers, faults drawn from the input's seed.
 *
 * Input (every byte string is one; bytes past the end read as 0):
 *   0      link: delay (bits 3:0) * 16 symbol times, symbol_cost 1 + bits 5:4, bit 6 the
 *          priority replay_first (T11), bit 7 Extended Synch
 *   1      REPLAY_TIMER limit: 256 + 64 * byte (both Extended Synch values; small so replays
 *          come often)
 *   2      ack_latency_limit: 8 * byte
 *   3-8    faults, each byte * 128 / 65536 (at most 49.8%): TLP LCRC corrupted, TLP nullified by
 *          the link, TLP duplicated, DLLP dropped, DLLP CRC corrupted, Ack delayed
 *   9      Ack delay: 16 * byte symbol times
 *   10-17  the fault stream's seed (big-endian)
 *   18-    ops, one byte and an operand byte each. Codes 0-4 are fixed; 5-255 are reserved:
 *          their two bytes are consumed and nothing happens.
 *          0/1 end A / B's TL queues a TLP of 1 + operand % 32 bytes
 *          2/3 end A / B's TL queues a TLP to transmit nullified (T6): never delivered
 *          4   run the link for (operand + 1) * 32 symbol times
 *   At the end the link runs until it is idle (at most DLL_FUZZ_DRAIN symbol times).
 *
 * Properties (PCIe Base §3.6.1, L11: the layer delivers every TLP intact, once, in order):
 * - every TLP handed to a receiving TL is the next non-nullified TLP its peer's TL queued:
 *   exactly once and in order, byte for byte;
 * - the retry buffer never holds an acknowledged TLP: a TLP leaves it (ACKED) only after the
 *   other end delivered it, and what it holds is exactly what was sent and not acknowledged
 *   (at most 2047);
 * - counters within their widths: NEXT_TRANSMIT_SEQ, ACKD_SEQ, NEXT_RCV_SEQ < 4096,
 *   REPLAY_NUM < 4;
 * - REPLAY_NUM rolls over (a retrain asked) only at the fourth replay trigger without forward
 *   progress: three replays transmitted since progress (T10(3), L90), and a fourth replay
 *   only after that retrain (a replay triggered before a forward progress, and transmitted
 *   after it, counts before the progress);
 * - once the link is idle, every queued non-nullified TLP was delivered. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"
#include "nicref/pcie.h"

#define DLL_FUZZ_TLP_MAX 32u
#define DLL_FUZZ_MAX_TLPS 512u
#define DLL_FUZZ_DRAIN 4000000u /* symbol times to reach idle at the end */

struct tl {
	uint8_t data[DLL_FUZZ_MAX_TLPS][DLL_FUZZ_TLP_MAX];
	uint8_t len[DLL_FUZZ_MAX_TLPS];
	bool nullify[DLL_FUZZ_MAX_TLPS];
	unsigned n, offered;
	unsigned expect[DLL_FUZZ_MAX_TLPS]; /* indices of the non-nullified TLPs, in order */
	unsigned nexpect;
};

struct side {
	struct tl tl;          /* this end's transmission queue */
	unsigned delivered;    /* of the peer's non-nullified TLPs, delivered here */
	unsigned sent;         /* non-nullified TLPs accepted by this end */
	unsigned acked;        /* of those, acknowledged (left the retry buffer) */
	unsigned replays;      /* replays begun since forward progress */
	bool retrained;        /* a rollover since the last replay */
	bool uncounted;        /* the next replay was triggered before the last progress */
};

static struct {
	struct nicref_pcie_link link;
	uint8_t *store;
	struct side s[2];
} F;

static int init(void)
{
	F.store = malloc(nicref_pcie_link_storage_bytes(DLL_FUZZ_TLP_MAX));
	return F.store ? 0 : -1;
}

static bool tl_next(void *ctx, unsigned end, const uint8_t **tlp, size_t *len, bool *nullify)
{
	(void)ctx;
	struct tl *t = &F.s[end].tl;
	if (t->offered == t->n)
		return false;
	*tlp = t->data[t->offered];
	*len = t->len[t->offered];
	*nullify = t->nullify[t->offered];
	t->offered++;
	if (!*nullify)
		F.s[end].sent++;
	return true;
}

static void on_tx(unsigned e, const struct nicref_pcie_event *ev)
{
	struct side *s = &F.s[e];
	if (ev->is_dllp)
		return;
	if (ev->replay) {
		/* A replay begins at the oldest unacknowledged TLP (L100). */
		bool begins = ev->replay_begins;
		uint16_t oldest = (uint16_t)((F.link.end[e].ackd_seq + 1u) & 0xFFFu);
		if (begins && ev->seq != oldest)
			fuzz_property_failed("replay_order", __FILE__, __LINE__,
					     "end %u: a replay begins at %u, the oldest is %u", e,
					     ev->seq, oldest);
		if (begins && s->uncounted) {
			/* Triggered (REPLAY_NUM incremented) before the progress that reset it. */
			s->uncounted = false;
		} else if (begins) {
			s->replays++;
			/* The fourth replay without progress comes only after the retrain. */
			if (s->replays % 4 == 0 && !s->retrained)
				fuzz_property_failed("replay_num_rollover", __FILE__, __LINE__,
						     "end %u: replay %u since progress with no retrain",
						     e, s->replays);
			s->retrained = false;
		}
	}
}

static void on_event(void *ctx, unsigned e, const struct nicref_pcie_event *ev)
{
	(void)ctx;
	struct side *s = &F.s[e], *peer = &F.s[1 - e];
	fuzz_trace("event end %u kind %u t %llu seq %u%s%s error %u replay_num %u", e, ev->kind,
		   (unsigned long long)ev->t, ev->seq, ev->is_dllp ? " dllp" : "",
		   ev->replay ? " replay" : "", ev->error, F.link.end[e].replay_num);
	switch (ev->kind) {
	case NICREF_PCIE_EV_TX:
		on_tx(e, ev);
		break;
	case NICREF_PCIE_EV_DELIVER: {
		/* Exactly once, in order, intact: the peer's next non-nullified TLP. */
		if (s->delivered >= peer->tl.nexpect)
			fuzz_property_failed("exactly_once", __FILE__, __LINE__,
					     "end %u delivered TLP %u; its peer queued %u", e,
					     s->delivered, peer->tl.nexpect);
		unsigned k = peer->tl.expect[s->delivered];
		if (ev->len != peer->tl.len[k] || memcmp(ev->tlp, peer->tl.data[k], ev->len))
			fuzz_property_failed("in_order", __FILE__, __LINE__,
					     "end %u delivered a TLP other than the peer's #%u (seq %u)",
					     e, s->delivered, ev->seq);
		s->delivered++;
		break;
	}
	case NICREF_PCIE_EV_ACKED: {
		unsigned n = ((ev->seq - ev->first) & 0xFFFu) + 1u;
		s->acked += n;
		/* Acknowledged implies delivered at the peer: the retry buffer never keeps a TLP
		 * the peer has not received, never drops one it has not. */
		if (s->acked > peer->delivered)
			fuzz_property_failed("acked_delivered", __FILE__, __LINE__,
					     "end %u: %u TLPs acknowledged, the peer delivered %u", e,
					     s->acked, peer->delivered);
		s->replays = 0;
		s->retrained = false;
		s->uncounted = F.link.end[e].replay_pending;
		break;
	}
	case NICREF_PCIE_EV_RETRAIN:
		if (s->replays % 4 != 3)
			fuzz_property_failed("replay_num_rollover", __FILE__, __LINE__,
					     "end %u: rollover after %u replays since progress", e,
					     s->replays);
		s->retrained = true;
		break;
	default:
		break;
	}
}

static void check_state(void)
{
	for (unsigned e = 0; e < 2; e++) {
		const struct nicref_pcie_dll *d = &F.link.end[e];
		const struct side *s = &F.s[e];
		NICREF_FUZZ_CHECK(d->next_transmit_seq < 4096 && d->ackd_seq < 4096);
		NICREF_FUZZ_CHECK(d->next_rcv_seq < 4096 && d->replay_num < 4);
		unsigned held = nicref_pcie_retry_count(d);
		if (held != s->sent - s->acked || held > 2047)
			fuzz_property_failed("retry_buffer", __FILE__, __LINE__,
					     "end %u holds %u TLPs; sent %u, acknowledged %u", e, held,
					     s->sent, s->acked);
		if (held && nicref_pcie_retry_seq(d, 0) != (s->acked & 0xFFFu))
			fuzz_property_failed("retry_buffer", __FILE__, __LINE__,
					     "end %u: oldest held seq %u, first unacknowledged %u", e,
					     nicref_pcie_retry_seq(d, 0), s->acked & 0xFFFu);
	}
}

static void queue(unsigned e, unsigned operand, bool nullify)
{
	struct tl *t = &F.s[e].tl;
	if (t->n == DLL_FUZZ_MAX_TLPS)
		return;
	unsigned k = t->n++;
	t->len[k] = (uint8_t)(1u + operand % DLL_FUZZ_TLP_MAX);
	for (unsigned i = 0; i < t->len[k]; i++)
		t->data[k][i] = (uint8_t)(k * 31u + i * 7u + e * 101u + operand);
	t->nullify[k] = nullify;
	if (!nullify)
		t->expect[t->nexpect++] = k;
}

static void one_input(const uint8_t *data, size_t len)
{
	uint8_t h[18] = { 0 };
	memcpy(h, data, len < sizeof h ? len : sizeof h);
	memset(F.s, 0, sizeof F.s);
	struct nicref_pcie_params p;
	nicref_pcie_params_default(&p);
	p.priority = (h[0] >> 6) & 1u;
	p.extended_synch = h[0] >> 7;
	p.replay_limit = p.replay_limit_es1 = 256u + 64u * h[1];
	p.ack_latency_limit = 8u * h[2];
	struct nicref_pcie_link_params lp;
	nicref_pcie_link_params_default(&lp);
	lp.delay = 16u * (h[0] & 0xFu);
	lp.symbol_cost = 1u + ((h[0] >> 4) & 3u);
	uint16_t *f[] = { &lp.faults.tlp_lcrc,	 &lp.faults.tlp_nullify, &lp.faults.tlp_dup,
			  &lp.faults.dllp_drop, &lp.faults.dllp_crc,    &lp.faults.ack_delay };
	for (unsigned i = 0; i < 6; i++)
		*f[i] = (uint16_t)(h[3 + i] * 128u);
	lp.faults.ack_delay_symbols = 16u * h[9];
	lp.seed = 0;
	for (unsigned i = 10; i < 18; i++)
		lp.seed = lp.seed << 8 | h[i];
	struct nicref_pcie_link_ops ops = { .event = on_event, .tl_next = tl_next };
	NICREF_FUZZ_CHECK(nicref_pcie_link_init(&F.link, &p, &lp, &ops, DLL_FUZZ_TLP_MAX, F.store,
						nicref_pcie_link_storage_bytes(DLL_FUZZ_TLP_MAX)) == 0);
	for (size_t i = sizeof h; i < len; i += 2) {
		unsigned op = data[i], operand = i + 1 < len ? data[i + 1] : 0;
		if (op > 4)
			continue; /* reserved: consumed, nothing happens */
		fuzz_trace("op %u %u", op, operand);
		if (op < 4)
			queue(op & 1u, operand, op >= 2);
		else if (op == 4)
			nicref_pcie_link_run(&F.link, F.link.now + (operand + 1u) * 32u);
		check_state();
	}
	uint64_t end = F.link.now + DLL_FUZZ_DRAIN;
	while (F.link.now < end) {
		nicref_pcie_link_run(&F.link, F.link.now + 4096u);
		check_state();
		if (nicref_pcie_link_idle(&F.link) && F.s[0].tl.offered == F.s[0].tl.n &&
		    F.s[1].tl.offered == F.s[1].tl.n)
			break;
	}
	if (nicref_pcie_link_idle(&F.link))
		for (unsigned e = 0; e < 2; e++)
			if (F.s[e].delivered != F.s[1 - e].tl.nexpect)
				fuzz_property_failed("all_delivered", __FILE__, __LINE__,
						     "idle, end %u delivered %u of %u", e,
						     F.s[e].delivered, F.s[1 - e].tl.nexpect);
}

NICREF_FUZZ_TARGET(init, one_input)
