/* The link-trace checker (docs/pcie.md "Trace format"): both ends' rules replayed over a trace.
 *
 * Each end has a transmitter view (its own TLPs, and the Acks and Naks it receives) and a
 * receiver view (the other end's TLPs as they arrive, and the Acks and Naks it sends). A packet
 * of direction d arrives at the other end `delay` after its record; arrivals and deadlines are
 * taken in time order before each record (an arrival at the instant of a deadline first; a
 * record at a deadline's instant still meets it). Obligations (a replay owed, a Nak owed, an Ack
 * owed) carry deadlines; while the link retrains, none falls due and they move by the retrain's
 * length. An obligation runs from the last symbol of the packet that opens it (L33-34, L102,
 * L134, L295; D-DLL-22): t, plus the packet's length in symbol times. The checker accepts
 * whatever the seed allows where nicref's model chose one reading: a REPLAY_TIMER limit anywhere
 * in the header's range (L124-126, D-DLL-3), a replay may skip TLPs acknowledged meanwhile
 * (L106), a Nak during a replay allows another replay without requiring one (L109-113), a Nak
 * or an Ack answers a duplicate. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pcie_check.h"
#include "pcie_trace.h"

#define NEVER UINT64_MAX

static const struct {
	const char *name, *cite;
} rules[] = {
#define ROW(id, name, cite) { name, cite },
	PCIE_CHECK_RULES(ROW)
#undef ROW
};

const char *pcie_check_rule_name(unsigned r)
{
	return r < PCIE_CK_COUNT ? rules[r].name : NULL;
}

const char *pcie_check_rule_citation(unsigned r)
{
	return r < PCIE_CK_COUNT ? rules[r].cite : NULL;
}

static uint16_t sdiff(uint16_t a, uint16_t b)
{
	return (uint16_t)((a - b) & 0xFFFu);
}

/* A TLP as first sent: a retransmission must be the same. */
struct txslot {
	uint32_t lcrc, len;
	uint64_t hash;
};

/* An end's transmitter as the trace shows it. */
struct tx {
	uint16_t nts, ackd;
	struct txslot slot[NICREF_PCIE_RETRY_SLOTS];
	bool timer_running;
	uint64_t timer_start;
	long timer_line;
	bool nak_owed;        /* a Nak received, a replay not yet begun */
	uint64_t nak_at;
	long nak_line;
	bool nak_since_replay; /* a replay now has a cause (L84) */
	bool replaying;
	uint16_t cursor, end;
	unsigned replay_num;   /* replays since forward progress, mod 4 */
	uint64_t retrain_done_at;
	bool retrained;
};

/* An end's receiver of the other end's TLPs. */
struct rx {
	uint16_t nrs;
	bool nak_sched;
	bool nak_due, ack_due;
	uint64_t nak_from, ack_from; /* when the obligation began */
	uint64_t ack_within;         /* the Ack's allowance: tolerance (a duplicate), or the Ack
				      * latency limit and the tolerance (a forwarded TLP) */
	long nak_line, ack_line;
};

/* A packet on its way to the other end. */
struct arrival {
	uint64_t at;   /* its first symbol reaches the other end: it is taken then */
	uint64_t last; /* its last symbol reaches the other end: obligations count from here */
	long line;
	bool dllp;
	uint8_t type;
	uint16_t seq;
	bool ok;     /* TLP: LCRC good, not corrupt; DLLP: CRC good, not corrupt */
	bool silent; /* a nullified TLP with the inverted LCRC: dropped without a word (R2) */
};
struct queue {
	struct arrival *a;
	size_t head, n, cap;
};

struct ck {
	struct pcie_trace_header h;
	struct tx tx[2];
	struct rx rx[2];
	struct queue q[2]; /* q[d]: sent by end d, arriving at end 1-d */
	struct pcie_check_result *res;
	long line;
	bool frozen;
	uint64_t freeze_start;
};

static void violate(struct ck *c, unsigned end, unsigned rule, uint64_t t, long cause,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void violate(struct ck *c, unsigned end, unsigned rule, uint64_t t, long cause,
		    const char *fmt, ...)
{
	struct pcie_verdict *v = &c->res->dir[end];
	if (v->violation)
		return;
	*v = (struct pcie_verdict){ true, rule, t, c->line, cause, "" };
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
}

static unsigned unacked(const struct tx *x)
{
	return sdiff(x->nts, x->ackd) - 1u;
}

static bool is_unacked(const struct tx *x, uint16_t seq)
{
	return sdiff(seq, (uint16_t)(x->ackd + 1u)) < unacked(x);
}

/* a + b, saturated: a deadline past the clock's range is never due. */
static uint64_t add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Symbol times from a packet's first symbol to the end of its last (D-DLL-22): n bytes, one per
 * lane per symbol time at symbol_cost each; the PHY's framing (§4, not in the seed) is not
 * counted, the tolerance absorbs it. */
static uint64_t span(const struct ck *c, size_t bytes)
{
	return ((uint64_t)bytes * c->h.symbol_cost + c->h.link_width - 1) / c->h.link_width;
}

static uint64_t tlp_end(const struct ck *c, const struct pcie_rec *r)
{
	return add(r->t, span(c, NICREF_PCIE_SEQHDR_BYTES + r->len + NICREF_PCIE_LCRC_BYTES));
}

static uint64_t fnv(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* ---- deadlines ---- */

/* When end e's replay is late, and the record that caused it. */
static uint64_t tx_deadline(const struct ck *c, unsigned e, long *cause)
{
	const struct tx *x = &c->tx[e];
	if (unacked(x) == 0 || x->replaying)
		return NEVER;
	/* why: the earliest instant the replay may be due (a Nak; REPLAY_TIMER at the range's
	 * lower end); late: past the latest (the Nak and the tolerance; the upper end and the
	 * tolerance: the device's limit may be anywhere in the range, L124-126). */
	uint64_t why = NEVER, late = NEVER;
	if (x->nak_owed) {
		why = x->nak_at, late = add(x->nak_at, c->h.tolerance), *cause = x->nak_line;
	}
	if (x->timer_running && add(x->timer_start, c->h.replay_limit_min) < why) {
		why = add(x->timer_start, c->h.replay_limit_min);
		late = add(add(x->timer_start, c->h.replay_limit_max), c->h.tolerance);
		*cause = x->timer_line;
	}
	if (why == NEVER)
		return NEVER;
	/* The replay that rolls REPLAY_NUM over waits for the retrain (L90). */
	if (x->replay_num == 3) {
		if (!x->retrained || x->retrain_done_at < why)
			return NEVER;
		uint64_t after = add(x->retrain_done_at, c->h.tolerance);
		return after > late ? after : late;
	}
	return late;
}

/* The earliest deadline: which end, which rule. */
static uint64_t next_deadline(const struct ck *c, unsigned *end, unsigned *rule, long *cause)
{
	uint64_t best = NEVER;
	if (c->frozen)
		return best;
	for (unsigned e = 0; e < 2; e++) {
		long cl = 0;
		uint64_t d = tx_deadline(c, e, &cl);
		if (d < best)
			best = d, *end = e, *rule = PCIE_CK_TX_REPLAY_LATE, *cause = cl;
		const struct rx *r = &c->rx[e];
		if (r->nak_due && r->nak_from + c->h.tolerance < best)
			best = r->nak_from + c->h.tolerance, *end = e, *rule = PCIE_CK_RX_MISSED_NAK,
			*cause = r->nak_line;
		if (r->ack_due && r->ack_from + r->ack_within < best)
			best = r->ack_from + r->ack_within, *end = e, *rule = PCIE_CK_RX_ACK_LATE,
			*cause = r->ack_line;
	}
	return best;
}

static void fire(struct ck *c, unsigned e, unsigned rule, uint64_t at, long cause)
{
	switch (rule) {
	case PCIE_CK_TX_REPLAY_LATE:
		violate(c, e, rule, at, cause,
			"no replay begun by %llu (a Nak or REPLAY_TIMER expiry of line %ld)",
			(unsigned long long)at, cause);
		c->tx[e].nak_owed = false;
		c->tx[e].timer_running = false;
		break;
	case PCIE_CK_RX_MISSED_NAK:
		violate(c, e, rule, at, cause, "no Nak by %llu for the TLP of line %ld",
			(unsigned long long)at, cause);
		c->rx[e].nak_due = false;
		break;
	default:
		violate(c, e, rule, at, cause, "no Ack by %llu for the TLP of line %ld",
			(unsigned long long)at, cause);
		c->rx[e].ack_due = false;
		break;
	}
}

/* ---- arrivals ---- */

static int push(struct queue *q, const struct arrival *a)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		struct arrival *p = malloc(cap * sizeof *p);
		if (!p)
			return -1;
		for (size_t i = 0; i < q->n; i++)
			p[i] = q->a[(q->head + i) % q->cap];
		free(q->a);
		q->a = p, q->cap = cap, q->head = 0;
	}
	q->a[(q->head + q->n) % q->cap] = *a;
	q->n++;
	return 0;
}

/* A TLP of the other end reaches end e's receiver (R1-R4 as the checker sees them). */
static void tlp_arrives(struct ck *c, unsigned e, const struct arrival *a)
{
	struct rx *r = &c->rx[e];
	if (a->silent)
		return;
	bool lost = a->ok && a->seq != r->nrs && sdiff(r->nrs, a->seq) > NICREF_PCIE_WINDOW;
	if (!a->ok || lost) {
		/* R2/R3/R4: a Nak owed when NAK_SCHEDULED was clear; no Ack while it is set. */
		if (!r->nak_sched) {
			r->nak_sched = true;
			/* A Nak still owed keeps its own deadline (R8: it stays scheduled). */
			if (!r->nak_due) {
				r->nak_due = true;
				r->nak_from = a->last;
				r->nak_line = a->line;
			}
		}
		r->ack_due = false;
		return;
	}
	if (a->seq != r->nrs) {
		/* A duplicate: an Ack at once (L244). */
		if (!r->ack_due || r->ack_from + r->ack_within > a->last + c->h.tolerance) {
			r->ack_due = true;
			r->ack_from = a->last;
			r->ack_within = c->h.tolerance;
			r->ack_line = a->line;
		}
		return;
	}
	r->nrs = (uint16_t)((r->nrs + 1u) & 0xFFFu);
	r->nak_sched = false;
	if (!r->ack_due) {
		/* The Ack latency runs from the TLP's last symbol received (L295). */
		r->ack_due = true;
		r->ack_from = a->last;
		r->ack_within = c->h.ack_latency_limit + c->h.tolerance;
		r->ack_line = a->line;
	}
}

/* An Ack or Nak of the other end reaches end e's transmitter (T8). */
static void dllp_arrives(struct ck *c, unsigned e, const struct arrival *a)
{
	struct tx *x = &c->tx[e];
	bool ack = a->type == NICREF_PCIE_DLLP_ACK, nak = a->type == NICREF_PCIE_DLLP_NAK;
	if (!a->ok || (!ack && !nak) || sdiff(a->seq, x->ackd) > unacked(x))
		return; /* a Bad DLLP, another type, or a protocol error at e: discarded */
	if (a->seq != x->ackd) {
		x->ackd = a->seq;
		x->replay_num = 0;
		x->nak_owed = false; /* a later Ack supersedes a Nak (L113) */
		/* T7(c): from the last symbol of the Ack received (L35, L134). */
		x->timer_running = unacked(x) > 0;
		x->timer_start = a->last;
		x->timer_line = a->line;
	}
	if (nak && unacked(x) > 0) {
		x->nak_since_replay = true;
		if (!x->replaying && !x->nak_owed) {
			x->nak_owed = true;
			x->nak_at = a->last;
			x->nak_line = a->line;
			x->timer_running = false; /* T7(e): held until the replay */
		}
	}
}

/* Arrivals up to t and deadlines before t, in time order. */
static void advance_to(struct ck *c, uint64_t t)
{
	for (;;) {
		unsigned e = 0, rule = 0, d = 2;
		long cause = 0;
		uint64_t dl = next_deadline(c, &e, &rule, &cause), at = NEVER;
		for (unsigned k = 0; k < 2; k++)
			if (c->q[k].n && c->q[k].a[c->q[k].head].at < at)
				at = c->q[k].a[c->q[k].head].at, d = k;
		if (d < 2 && at <= t && at <= dl) {
			struct queue *q = &c->q[d];
			struct arrival a = q->a[q->head];
			q->head = (q->head + 1) % q->cap, q->n--;
			if (a.dllp)
				dllp_arrives(c, 1 - d, &a);
			else
				tlp_arrives(c, 1 - d, &a);
			continue;
		}
		if (dl < t) {
			fire(c, e, rule, dl, cause);
			continue;
		}
		return;
	}
}

/* ---- records ---- */

static void replay_tlp(struct ck *c, unsigned e, const struct pcie_rec *r, uint32_t calc)
{
	struct tx *x = &c->tx[e];
	const struct txslot *s = &x->slot[r->seq % NICREF_PCIE_RETRY_SLOTS];
	/* Other data is the replay's fault (L100: the TLPs as first sent) whatever its LCRC;
	 * the same data with another LCRC is the LCRC's. */
	if (s->len != r->len || s->hash != fnv(r->data, r->len))
		violate(c, e, PCIE_CK_TX_REPLAY_ORDER, r->t, c->line,
			"TLP %u retransmitted with other data than it was sent with", r->seq);
	else if (!r->corrupt && r->lcrc != s->lcrc)
		violate(c, e, PCIE_CK_TX_LCRC, r->t, c->line,
			"TLP %u retransmitted with LCRC 0x%08x, not its original 0x%08x", r->seq,
			r->lcrc, s->lcrc);
	(void)calc;
	x->cursor = (uint16_t)((r->seq + 1u) & 0xFFFu);
	if (x->cursor == x->end)
		x->replaying = false;
	if (!x->timer_running && unacked(x) > 0) {
		x->timer_running = true, x->timer_start = tlp_end(c, r), x->timer_line = c->line;
	}
}

static void start_replay(struct ck *c, unsigned e, const struct pcie_rec *r, uint32_t calc)
{
	struct tx *x = &c->tx[e];
	/* Early only below the range's lower end: a device's limit may be any in it. */
	uint64_t expiry = add(x->timer_start, c->h.replay_limit_min);
	bool expired = x->timer_running && r->t >= expiry;
	uint64_t why = x->nak_owed ? x->nak_at : expiry;
	if (!x->nak_since_replay && !expired)
		violate(c, e, PCIE_CK_TX_REPLAY_EARLY, r->t, c->line,
			"TLP %u retransmitted with no Nak received and REPLAY_TIMER at %llu, below "
			"the lowest limit %llu",
			r->seq,
			(unsigned long long)(x->timer_running && r->t > x->timer_start
						     ? r->t - x->timer_start
						     : 0),
			(unsigned long long)c->h.replay_limit_min);
	else if (r->seq != (uint16_t)((x->ackd + 1u) & 0xFFFu))
		violate(c, e, PCIE_CK_TX_REPLAY_ORDER, r->t, c->line,
			"the replay starts at TLP %u, not at the oldest unacknowledged %u", r->seq,
			(x->ackd + 1u) & 0xFFFu);
	x->replay_num = (x->replay_num + 1u) & 3u;
	if (x->replay_num == 0 && !(x->retrained && x->retrain_done_at >= why))
		violate(c, e, PCIE_CK_TX_NO_RETRAIN, r->t, c->line,
			"the fourth replay without progress (REPLAY_NUM 11b -> 00b) with no "
			"retrain_done before it");
	x->replaying = true;
	x->end = x->nts;
	x->nak_owed = x->nak_since_replay = false;
	x->timer_running = false;
	replay_tlp(c, e, r, calc);
	/* T7(b): restarted at the last symbol of the first TLP of the replay (L34, L102). */
	x->timer_running = unacked(x) > 0, x->timer_start = tlp_end(c, r), x->timer_line = c->line;
}

static void new_tlp(struct ck *c, unsigned e, const struct pcie_rec *r, uint32_t calc)
{
	struct tx *x = &c->tx[e];
	if (sdiff(x->nts, x->ackd) >= NICREF_PCIE_WINDOW)
		violate(c, e, PCIE_CK_TX_WINDOW, r->t, c->line,
			"TLP %u sent with (NEXT_TRANSMIT_SEQ - ACKD_SEQ) mod 4096 = %u >= 2048", r->seq,
			sdiff(x->nts, x->ackd));
	if (!r->corrupt && r->lcrc != calc)
		violate(c, e, PCIE_CK_TX_LCRC, r->t, c->line,
			"TLP %u sent with LCRC 0x%08x, computed 0x%08x", r->seq, r->lcrc, calc);
	x->slot[r->seq % NICREF_PCIE_RETRY_SLOTS].lcrc = r->corrupt ? calc : r->lcrc;
	x->slot[r->seq % NICREF_PCIE_RETRY_SLOTS].len = (uint32_t)r->len;
	x->slot[r->seq % NICREF_PCIE_RETRY_SLOTS].hash = fnv(r->data, r->len);
	x->nts = (uint16_t)((x->nts + 1u) & 0xFFFu);
	if (!x->timer_running) {
		/* T7(a) (L33): from the last symbol of the TLP. */
		x->timer_running = true, x->timer_start = tlp_end(c, r), x->timer_line = c->line;
	}
}

/* A TLP end e transmits: its transmitter's rules (T1-T10). */
static void tx_tlp(struct ck *c, unsigned e, const struct pcie_rec *r, uint32_t calc)
{
	struct tx *x = &c->tx[e];
	if (r->nullified) {
		if (!r->corrupt && r->lcrc != ~calc)
			violate(c, e, PCIE_CK_TX_LCRC, r->t, c->line,
				"nullified TLP %u with LCRC 0x%08x, not the inverse 0x%08x", r->seq,
				r->lcrc, ~calc);
		if (r->seq != x->nts)
			violate(c, e, PCIE_CK_TX_SEQ, r->t, c->line,
				"nullified TLP with seq %u, NEXT_TRANSMIT_SEQ is %u", r->seq, x->nts);
		return;
	}
	if (x->replaying) {
		/* The next of the replay, or a later one when those between were acknowledged
		 * meanwhile (L106); a new TLP only once the rest is acknowledged. */
		uint16_t prev = (uint16_t)((r->seq - 1u) & 0xFFFu);
		bool in_range = sdiff(r->seq, x->cursor) < sdiff(x->end, x->cursor);
		if (r->seq == x->cursor || (in_range && !is_unacked(x, prev))) {
			replay_tlp(c, e, r, calc);
			return;
		}
		if (r->seq != x->nts || unacked(x) != 0)
			violate(c, e, PCIE_CK_TX_REPLAY_ORDER, r->t, c->line,
				"TLP %u during a replay whose next TLP is %u", r->seq, x->cursor);
		/* The replay is over (finished or broken off); the TLP is judged as what it is,
		 * so the other direction is judged against what was really sent. */
		x->replaying = false;
	}
	if (r->seq == x->nts)
		new_tlp(c, e, r, calc);
	else if (is_unacked(x, r->seq) || (unacked(x) > 0 && r->seq == ((x->ackd + 1u) & 0xFFFu)))
		start_replay(c, e, r, calc);
	else
		violate(c, e, PCIE_CK_TX_SEQ, r->t, c->line,
			"TLP with seq %u: neither NEXT_TRANSMIT_SEQ %u nor unacknowledged", r->seq,
			x->nts);
}

/* An Ack or Nak end e transmits: its receiver's rules (R5, T8 at the other end). */
static void tx_dllp(struct ck *c, unsigned e, const struct pcie_rec *r)
{
	uint8_t body[6];
	struct nicref_pcie_dllp p = { r->type, r->dreserved, r->seq, 0 };
	nicref_pcie_dllp_encode(&p, body);
	uint16_t calc = nicref_pcie_dllp_crc(body);
	if (!r->corrupt && r->crc != calc)
		violate(c, e, PCIE_CK_DLLP_CRC, r->t, c->line,
			"DLLP sent with CRC 0x%04x, computed 0x%04x", r->crc, calc);
	if (r->type != NICREF_PCIE_DLLP_ACK && r->type != NICREF_PCIE_DLLP_NAK)
		return;
	struct rx *x = &c->rx[e];
	const struct tx *o = &c->tx[1 - e];
	uint16_t want = (uint16_t)((x->nrs - 1u) & 0xFFFu);
	bool sent = sdiff(r->seq, o->ackd) <= unacked(o);
	if (r->seq != want) {
		uint16_t ahead = sdiff(r->seq, want);
		if (ahead > 0 && ahead < NICREF_PCIE_WINDOW && sent)
			violate(c, e, PCIE_CK_RX_ACCEPTED_BAD, r->t, c->line,
				"%s of %u: only TLPs through %u were received good and in sequence",
				r->type ? "Nak" : "Ack", r->seq, want);
		else if (!sent)
			violate(c, e, PCIE_CK_RX_ACK_UNSENT, r->t, c->line,
				"%s of %u: the other end has sent through %u, acknowledged %u",
				r->type ? "Nak" : "Ack", r->seq, (o->nts - 1u) & 0xFFFu, o->ackd);
		else
			violate(c, e, PCIE_CK_RX_ACK_SEQ, r->t, c->line,
				"%s of %u, NEXT_RCV_SEQ - 1 is %u", r->type ? "Nak" : "Ack", r->seq,
				want);
		return;
	}
	x->ack_due = false;
	if (r->type == NICREF_PCIE_DLLP_NAK)
		x->nak_due = false;
}

/* A time s of an obligation across a retrain from..done: one begun before it moves by its
 * length, one begun during it starts at its end, one that begins after it (a packet's last
 * symbol still to come) stays. */
static void moved(uint64_t *s, uint64_t from, uint64_t done)
{
	if (*s < from)
		*s = add(*s, done - from);
	else if (*s < done)
		*s = done;
}

static void phy(struct ck *c, const struct pcie_rec *r)
{
	struct tx *x = &c->tx[r->dir];
	if (!r->retrain_done) {
		if (!c->frozen)
			c->frozen = true, c->freeze_start = r->t;
		return;
	}
	uint64_t from = c->frozen ? c->freeze_start : r->t;
	if (!c->frozen && x->replay_num == 3 && x->nak_owed && x->nak_at < from)
		from = x->nak_at;
	c->frozen = false;
	x->retrained = true;
	x->retrain_done_at = r->t;
	/* T7(f): the timers hold while the link is out of L0, and nothing can be sent: what
	 * began before the retrain moves by its length, what began during it starts at its end. */
	for (unsigned e = 0; e < 2; e++) {
		moved(&c->tx[e].timer_start, from, r->t);
		moved(&c->tx[e].nak_at, from, r->t);
		moved(&c->rx[e].nak_from, from, r->t);
		moved(&c->rx[e].ack_from, from, r->t);
	}
}

static int record(struct ck *c, const struct pcie_rec *r)
{
	advance_to(c, r->t);
	if (r->kind == PCIE_REC_PHY) {
		phy(c, r);
		return 0;
	}
	struct arrival a = { .at = add(r->t, c->h.delay), .line = c->line, .seq = r->seq,
			     .dllp = r->kind == PCIE_REC_DLLP, .type = r->type };
	a.last = add(a.at, span(c, r->kind == PCIE_REC_TLP ? NICREF_PCIE_SEQHDR_BYTES + r->len +
								     NICREF_PCIE_LCRC_BYTES
							   : NICREF_PCIE_DLLP_BYTES));
	if (r->kind == PCIE_REC_TLP) {
		uint8_t hdr[2];
		nicref_pcie_seqhdr(r->seq, r->reserved, hdr);
		uint32_t calc = nicref_pcie_lcrc(hdr, r->data, r->len);
		a.ok = !r->corrupt && !r->nullified && r->lcrc == calc;
		a.silent = r->nullified && !r->corrupt && r->lcrc == ~calc;
		if (!r->duplicate)
			tx_tlp(c, r->dir, r, calc);
	} else {
		uint8_t body[6];
		struct nicref_pcie_dllp p = { r->type, r->dreserved, r->seq, 0 };
		nicref_pcie_dllp_encode(&p, body);
		a.ok = !r->corrupt && r->crc == nicref_pcie_dllp_crc(body);
		if (!r->duplicate)
			tx_dllp(c, r->dir, r);
	}
	if (r->lost)
		return 0;
	return push(&c->q[r->dir], &a);
}

int pcie_check_stream(FILE *f, const char *name, struct pcie_check_result *res)
{
	memset(res, 0, sizeof *res);
	struct ck *c = calloc(1, sizeof *c);
	struct pcie_rec *r = malloc(sizeof *r);
	char *line = NULL, err[400];
	size_t cap = 0;
	int rc = 2;
	if (!c || !r) {
		snprintf(res->error, sizeof res->error, "%s: out of memory", name);
		goto out;
	}
	c->res = res;
	for (unsigned e = 0; e < 2; e++)
		c->tx[e].ackd = 0xFFF; /* L25 */
	uint64_t last = 0;
	while (getline(&line, &cap, f) >= 0) {
		c->line++;
		if (c->line == 1) {
			if (pcie_trace_header(line, &c->h, err, sizeof err) != 0) {
				snprintf(res->error, sizeof res->error, "%s:1: %s", name, err);
				goto out;
			}
			continue;
		}
		int k = pcie_trace_record(line, r, err, sizeof err);
		if (k < 0 || (k > 0 && r->t < last)) {
			snprintf(res->error, sizeof res->error, "%s:%ld: %s", name, c->line,
				 k < 0 ? err : "t decreases");
			goto out;
		}
		if (k == 0)
			continue;
		last = r->t;
		res->records++;
		if (record(c, r) != 0) {
			snprintf(res->error, sizeof res->error, "%s: out of memory", name);
			goto out;
		}
	}
	if (c->line == 0) {
		snprintf(res->error, sizeof res->error, "%s: empty: no header", name);
		goto out;
	}
	advance_to(c, last);
	rc = res->dir[0].violation || res->dir[1].violation;
out:
	free(line);
	free(r);
	if (c)
		for (unsigned d = 0; d < 2; d++)
			free(c->q[d].a);
	free(c);
	return rc;
}
