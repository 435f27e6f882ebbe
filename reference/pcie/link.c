/* A link of two ends in virtual time, see docs/pcie.md "The link of two ends": each direction
 * carries one packet at once: n bytes occupy it n * symbol_cost symbol times, and delivers it
 * `delay` later, in order; faults drawn from a splitmix64 stream seeded by the caller; a
 * retrain (REPLAY_NUM rollover, T10(3)) takes the whole link out of L0 for retrain_symbols. The
 * ends are paced: they transmit only when their direction is free. */
#include <string.h>

#include "pcie/pcie_int.h"

static uint64_t draw(struct nicref_pcie_link *l)
{
	/* splitmix64 (public-domain constants). */
	uint64_t z = (l->prng += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* A fault of probability p/65536; no draw when p is 0, so a run without faults draws nothing. */
static bool chance(struct nicref_pcie_link *l, uint16_t p)
{
	return p && (draw(l) & 0xFFFFu) < p;
}

void nicref_pcie_link_params_default(struct nicref_pcie_link_params *p)
{
	*p = (struct nicref_pcie_link_params){ .symbol_cost = 1, .delay = 100,
					       .retrain_symbols = 2000, .seed = 1 };
}

static size_t wire_slot(uint32_t tlp_max)
{
	return (size_t)tlp_max + NICREF_PCIE_SEQHDR_BYTES + NICREF_PCIE_LCRC_BYTES;
}

size_t nicref_pcie_link_storage_bytes(uint32_t tlp_max)
{
	return 2 * nicref_pcie_storage_bytes(tlp_max) +
	       2 * (size_t)NICREF_PCIE_LINK_INFLIGHT * wire_slot(tlp_max);
}

static void enqueue(struct nicref_pcie_link *l, unsigned dir, const uint8_t *b, size_t len,
		    bool is_dllp, bool edb)
{
	struct nicref_pcie_wire *w = &l->wire[dir];
	unsigned i = (w->head + w->n) % NICREF_PCIE_LINK_INFLIGHT;
	w->q[i] = (struct nicref_pcie_inflight){ l->now + l->p.delay,
						 (uint32_t)(i * wire_slot(l->tlp_max)),
						 (uint16_t)len, is_dllp, edb };
	memcpy(w->bytes + w->q[i].off, b, len);
	w->n++;
}

/* The wire bytes of a packet the end hands over, and what the link does to it. */
static void put_on_wire(struct nicref_pcie_link *l, unsigned dir, const struct nicref_pcie_event *ev)
{
	const struct nicref_pcie_faults *f = &l->p.faults;
	uint8_t b[NICREF_PCIE_TLP_MAX + 6];
	size_t len;
	unsigned faults = 0;
	bool edb = false;
	if (ev->is_dllp) {
		memcpy(b, ev->dllp, NICREF_PCIE_DLLP_BYTES);
		len = NICREF_PCIE_DLLP_BYTES;
		if (b[0] == NICREF_PCIE_DLLP_ACK && chance(l, f->ack_delay)) {
			/* Held back: a later Ack replaces it (collapse, L138). */
			struct nicref_pcie_wire *w = &l->wire[dir];
			memcpy(w->held_dllp, b, len);
			w->held = true;
			w->held_until = l->now + f->ack_delay_symbols;
			return;
		}
		/* An Ack or Nak going out supersedes an Ack still held back (its sequence number
		 * is the same or later, R5): sent after it, the held one would be stale. */
		if (b[0] == NICREF_PCIE_DLLP_ACK || b[0] == NICREF_PCIE_DLLP_NAK)
			l->wire[dir].held = false;
	} else {
		nicref_pcie_seqhdr(ev->seq, 0, b);
		memcpy(b + 2, ev->tlp, ev->len);
		for (unsigned k = 0; k < 4; k++)
			b[2 + ev->len + k] = (uint8_t)(ev->lcrc >> (8 * k));
		len = ev->len + 6u;
		edb = ev->nullified;
	}
	struct nicref_pcie_wire *w = &l->wire[dir];
	w->busy_until = l->now + (uint64_t)len * l->p.symbol_cost;
	uint8_t sent[NICREF_PCIE_TLP_MAX + 6];
	memcpy(sent, b, len);
	bool lost = false, dup = false;
	if (ev->is_dllp) {
		lost = chance(l, f->dllp_drop);
		if (!lost && chance(l, f->dllp_crc)) {
			b[4] ^= 1u;
			faults |= NICREF_PCIE_LF_CORRUPT;
		}
	} else {
		if (chance(l, f->tlp_nullify) && !edb) {
			/* The link nullifies it (EDB, inverted LCRC): the receiver drops it (R2). */
			edb = true;
			for (unsigned k = 0; k < 4; k++)
				b[len - 4 + k] ^= 0xFFu;
			lost = true;
		} else if (chance(l, f->tlp_lcrc)) {
			b[len - 4] ^= 1u;
			faults |= NICREF_PCIE_LF_CORRUPT;
		}
		dup = chance(l, f->tlp_dup);
	}
	if (lost)
		faults |= NICREF_PCIE_LF_LOST;
	if (dup)
		faults |= NICREF_PCIE_LF_DUP;
	if (l->ops.wire)
		l->ops.wire(l->ops.ctx, dir, l->now, ev->is_dllp, sent, len, ev->nullified, faults);
	if (!lost || edb) /* a link-nullified TLP still reaches the receiver, which drops it */
		enqueue(l, dir, b, len, ev->is_dllp, edb);
	if (dup)
		enqueue(l, dir, b, len, ev->is_dllp, edb);
}

static void recovery_start(struct nicref_pcie_link *l, unsigned asked)
{
	if (l->recovery)
		return;
	l->recovery = true;
	l->recovery_until = l->now + l->p.retrain_symbols;
	l->recovery_end = asked;
	nicref_pcie_phy_recovery(&l->end[1 - asked]);
	if (l->ops.phy)
		l->ops.phy(l->ops.ctx, asked, l->now, true);
}

static void end_event(void *ctx, const struct nicref_pcie_event *ev)
{
	struct nicref_pcie_wire *w = ctx;
	struct nicref_pcie_link *l = w->link;
	if (ev->kind == NICREF_PCIE_EV_TX)
		put_on_wire(l, w->end, ev);
	if (l->ops.event)
		l->ops.event(l->ops.ctx, w->end, ev);
	if (ev->kind == NICREF_PCIE_EV_RETRAIN)
		recovery_start(l, w->end);
}

int nicref_pcie_link_init(struct nicref_pcie_link *l, const struct nicref_pcie_params *dll,
			  const struct nicref_pcie_link_params *lp,
			  const struct nicref_pcie_link_ops *ops, uint32_t tlp_max,
			  uint8_t *storage, size_t storage_len)
{
	if (!lp || lp->symbol_cost == 0 || tlp_max == 0 || tlp_max > NICREF_PCIE_TLP_MAX ||
	    !storage || storage_len < nicref_pcie_link_storage_bytes(tlp_max) ||
	    nicref_pcie_params_check(dll) != 0)
		return -1;
	memset(l, 0, sizeof *l);
	l->p = *lp;
	if (ops)
		l->ops = *ops;
	l->prng = lp->seed;
	l->tlp_max = tlp_max;
	size_t rs = nicref_pcie_storage_bytes(tlp_max);
	uint8_t *wb = storage + 2 * rs;
	for (unsigned e = 0; e < 2; e++) {
		l->wire[e].link = l;
		l->wire[e].end = e;
		l->wire[e].bytes = wb + e * NICREF_PCIE_LINK_INFLIGHT * wire_slot(tlp_max);
		struct nicref_pcie_ops eo = { &l->wire[e], end_event };
		if (nicref_pcie_init(&l->end[e], dll, &eo, storage + e * rs, rs) != 0)
			return -1;
		nicref_pcie_set_paced(&l->end[e], true);
		/* Packets take time here: REPLAY_TIMER counts from their last symbol (D-DLL-22). */
		l->end[e].symbol_cost = lp->symbol_cost;
	}
	return 0;
}

static void deliver(struct nicref_pcie_link *l, unsigned dir)
{
	struct nicref_pcie_wire *w = &l->wire[dir];
	while (w->n && w->q[w->head].arrive <= l->now) {
		struct nicref_pcie_inflight p = w->q[w->head];
		w->head = (w->head + 1) % NICREF_PCIE_LINK_INFLIGHT;
		w->n--;
		if (p.is_dllp)
			nicref_pcie_rx_dllp(&l->end[1 - dir], w->bytes + p.off, false);
		else
			nicref_pcie_rx_tlp(&l->end[1 - dir], w->bytes + p.off, p.len, p.edb, false);
	}
}

/* Direction dir is free: the end's next packet (by its priority), else the TL's next TLP. */
static void offer(struct nicref_pcie_link *l, unsigned dir)
{
	struct nicref_pcie_wire *w = &l->wire[dir];
	struct nicref_pcie_dll *d = &l->end[dir];
	if (l->recovery || w->busy_until > l->now || w->n + 2 > NICREF_PCIE_LINK_INFLIGHT)
		return;
	if (w->held && w->held_until <= l->now) {
		w->held = false;
		if (l->ops.wire)
			l->ops.wire(l->ops.ctx, dir, l->now, true, w->held_dllp,
				    NICREF_PCIE_DLLP_BYTES, false, NICREF_PCIE_LF_DELAYED);
		enqueue(l, dir, w->held_dllp, NICREF_PCIE_DLLP_BYTES, true, false);
		w->busy_until = l->now + NICREF_PCIE_DLLP_BYTES * (uint64_t)l->p.symbol_cost;
		return;
	}
	if (nicref_pcie_pump(d))
		return;
	const uint8_t *tlp;
	size_t len;
	bool nullify;
	if (l->ops.tl_next && nicref_pcie_can_accept(d) &&
	    l->ops.tl_next(l->ops.ctx, dir, &tlp, &len, &nullify))
		(void)nicref_pcie_tl_send(d, tlp, len, nullify);
}

static uint64_t next_event(const struct nicref_pcie_link *l)
{
	uint64_t t = UINT64_MAX;
	for (unsigned e = 0; e < 2; e++) {
		const struct nicref_pcie_wire *w = &l->wire[e];
		if (w->n && w->q[w->head].arrive < t)
			t = w->q[w->head].arrive;
		if (w->busy_until > l->now && w->busy_until < t)
			t = w->busy_until;
		if (w->held && w->held_until < t)
			t = w->held_until > l->now ? w->held_until : l->now + 1;
		uint64_t due = nicref_pcie_next_due(&l->end[e]);
		if (due != UINT64_MAX && l->now + due < t)
			t = l->now + due;
	}
	if (l->recovery && l->recovery_until < t)
		t = l->recovery_until;
	return t;
}

void nicref_pcie_link_run(struct nicref_pcie_link *l, uint64_t until)
{
	for (;;) {
		for (unsigned d = 0; d < 2; d++)
			deliver(l, d);
		if (l->recovery && l->now >= l->recovery_until) {
			l->recovery = false;
			if (l->ops.phy)
				l->ops.phy(l->ops.ctx, l->recovery_end, l->now, false);
			for (unsigned e = 0; e < 2; e++)
				nicref_pcie_retrain_done(&l->end[e]);
		}
		for (unsigned d = 0; d < 2; d++)
			offer(l, d);
		uint64_t t = next_event(l);
		if (t > until)
			t = until;
		if (t < l->now)
			t = l->now;
		/* The link's clock moves first: what an end does as its timers run (a retrain
		 * asked) happens at the link's new instant. */
		uint64_t dt = t - l->now;
		l->now = t;
		for (unsigned e = 0; e < 2; e++)
			nicref_pcie_advance(&l->end[e], dt);
		if (dt == 0 && l->now >= until)
			return;
	}
}

bool nicref_pcie_link_idle(const struct nicref_pcie_link *l)
{
	if (l->recovery)
		return false;
	for (unsigned e = 0; e < 2; e++) {
		const struct nicref_pcie_dll *d = &l->end[e];
		/* NAK_SCHEDULED may stay set for good (R8: only an in-sequence TLP clears it), and
		 * with it no Ack is due (R7) for TLPs a Nak already covered: no work left. */
		if (l->wire[e].n || l->wire[e].held || retry_count(d) || nicref_pcie_tx_pending(d) ||
		    (d->rx_unacked && !d->nak_scheduled) || d->replay_pending)
			return false;
	}
	return true;
}
