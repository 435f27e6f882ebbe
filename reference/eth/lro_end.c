/* An LRO session completes (eth/lro.h): its lro_end event, then its CQE (PRM §3.3.6.6 T5, T68;
 * D-LRO-7) through the RQ stage's completion (rx_rq.c, rx_cqe.c), or its completion with error
 * when its WQE has no room (§3.3.6.4, D-LRO-3). What ends sessions without a segment: the timer
 * (§3.3.6.3, T45, T147; D-LRO-5), the TIR modified or destroyed (§3.3.6.1), the RQ leaving RDY
 * (D-LRO-10), each in open order (the timer: in deadline order, then open order). And the
 * engine's invariants and counters. */
#include "eth/lro.h"

/* T68 l4_hdr_type: 1 TCP, 4 TCP ACK with data (a session always carries data). */
enum { L4T_TCP = 1, L4T_TCP_ACK_DATA = 4 };

/* The completion's view of a closed session: its slot with the merged CQE fields. */
static void cqe_view(const struct lro_session *s, enum nicref_lro_cause c, struct rx_slot *sl,
		     struct rx_pkt *p, struct rx_lro_cqe *l)
{
	*sl = s->slot;
	/* T4 "Checksum of the merged TCP segment payload" (T5 adds the TCP header: the other
	 * reading), the 16-bit one's complement sum, not complemented (D-LRO-7, as D-RX-10). */
	sl->h.checksum = lro_sum16(s->csum);
	/* T5 L4_hdr_type: ACK "in one of the next merged segments" shows in the CQE. */
	sl->h.l4_hdr_type = s->any_ack ? L4T_TCP_ACK_DATA : L4T_TCP;
	/* T5 byte_cnt: "the total length of messages", from the MAC header. */
	sl->byte_cnt = s->byte_cnt;
	*p = (struct rx_pkt){ .flow_tag = s->flow_tag, .rss = s->rss, .port = s->port };
	int abrt = nicref_lro_cause_abrt(c);
	*l = (struct rx_lro_cqe){ .num_seg = s->num_seg, .abrt = (uint8_t)(abrt < 0 ? 2 : abrt),
				  .min_ttl = s->min_ttl, .psh = s->psh, .ts_valid = s->ts,
				  .win = s->win, .ack = s->ack, .tsval = s->tsval,
				  .tsecr = s->tsecr };
}

/* Takes the session out of the table (before anything is written: writing may flush others)
 * and says so in the trace. */
static struct lro_session detach(struct nicref_dev *dev, struct lro_state *ls,
				 struct lro_session *s, enum nicref_lro_cause c)
{
	struct lro_session d = *s;
	lro_release(ls, s);
	ls->ended++;
	uint64_t a[6] = { d.key.tirn, d.key.rqn, d.slot.wqe_counter, c, d.num_seg, d.byte_cnt };
	dev_emit(dev, NICREF_EV_LRO_END, a, 6);
	d.slot.rq = obj_get(dev, OBJ_RQ, d.key.rqn);
	NICREF_ASSERT(d.slot.rq); /* an RQ leaving RDY or destroyed ends its sessions first */
	return d;
}

void lro_end(struct nicref_dev *dev, struct lro_state *ls, struct lro_session *s,
	     enum nicref_lro_cause c, bool rq_leaving)
{
	struct lro_session d = detach(dev, ls, s, c);
	struct rx_slot sl;
	struct rx_pkt p;
	struct rx_lro_cqe l;
	cqe_view(&d, c, &sl, &p, &l);
	rx_rq_complete(dev, &sl, &p, &l, rq_leaving);
}

void lro_fail(struct nicref_dev *dev, struct lro_state *ls, struct lro_session *s,
	      uint8_t syndrome)
{
	/* §3.3.6.4: "otherwise the LRO session is flushed and completion with error is
	 * generated" (T74 syndrome; the RQ goes to ERR as for any receive error, §7.12.7). */
	struct lro_session d = detach(dev, ls, s, NICREF_LRO_WQE_SPACE);
	struct rx_pkt p = { .flow_tag = d.flow_tag, .rss = d.rss, .port = d.port };
	rx_rq_fail(dev, &d.slot, &p, syndrome);
}

/* Ends the collected sessions [base, base + n) of ls->todo in that order. */
static void end_collected(struct nicref_dev *dev, struct lro_state *ls, uint32_t base, uint32_t n,
			  enum nicref_lro_cause c, bool rq_leaving)
{
	for (uint32_t i = base; i < base + n; i++) {
		struct lro_session *s = lro_todo(ls, i);
		if (s)
			lro_end(dev, ls, s, c, rq_leaving);
	}
	ls->top = base;
}

/* Ends every session `want` selects, in open order. */
static void end_all(struct nicref_dev *dev, struct lro_state *ls, lro_want_fn want,
		    uint64_t arg, enum nicref_lro_cause c, bool rq_leaving)
{
	uint32_t base, n = lro_collect(ls, want, arg, &base);
	end_collected(dev, ls, base, n, c, rq_leaving);
}

/* Puts the collected entries [base, base + n) (open order) in the order of their deadlines,
 * keeping open order at equal deadlines: an insertion sort, linear when they share one
 * deadline, as the sessions one tick ends do when the clock stops at each deadline
 * (nicref_clock_advance). */
static void by_deadline(struct lro_state *ls, uint32_t base, uint32_t n)
{
	uint32_t *e = ls->todo + 2 * (size_t)base;
	for (uint32_t i = 1; i < n; i++) {
		uint32_t idx = e[2 * i], gen = e[2 * i + 1], j = i;
		uint64_t d = ls->s[idx].deadline_ns;
		for (; j > 0 && ls->s[e[2 * (j - 1)]].deadline_ns > d; j--) {
			e[2 * j] = e[2 * (j - 1)];
			e[2 * j + 1] = e[2 * (j - 1) + 1];
		}
		e[2 * j] = idx;
		e[2 * j + 1] = gen;
	}
}

/* D-LRO-5: the period N in force when the session opened; it ends when virtual time reaches
 * t0 + N (T147: "expiration period can fluctuate between N and 2N"). */
static bool expired(const struct lro_session *s, uint64_t now)
{
	return now >= s->deadline_ns;
}

static bool of_tir(const struct lro_session *s, uint64_t tirn)
{
	return s->key.tirn == tirn;
}

static bool of_rq(const struct lro_session *s, uint64_t rqn)
{
	return s->key.rqn == rqn;
}

/* The expired sessions end in the order of their deadlines, then of opening (D-LRO-5: each at
 * t0 + N; T147 lets a session of period N end by 2N, so one of a short period opened after one
 * of a long period ends first). */
void lro_tick(struct nicref_dev *dev, struct lro_state *ls)
{
	if (!ls->nopen)
		return;
	uint32_t base, n = lro_collect(ls, expired, nicref_clock_now(dev), &base);
	by_deadline(ls, base, n);
	end_collected(dev, ls, base, n, NICREF_LRO_TIMER, false);
}

bool lro_next_deadline(const struct lro_state *ls, uint64_t *t)
{
	/* A scan of the open sessions (periods differ by TIR, so open order is not deadline
	 * order); nothing when none is open. */
	for (uint32_t i = ls->head; i != LRO_NIL; i = ls->s[i].next)
		if (i == ls->head || ls->s[i].deadline_ns < *t)
			*t = ls->s[i].deadline_ns;
	return ls->head != LRO_NIL;
}

void lro_notify(struct nicref_dev *dev, struct lro_state *ls, enum dev_note note, uint32_t num)
{
	if (!ls->nopen)
		return;
	if (note == DEV_NOTE_OBJECTS_RELEASED) {
		lro_reset_sessions(ls); /* the TIRs, RQs and CQs go: nothing to complete into */
		return;
	}
	/* §3.3.6.1: DESTROY_TIR and MODIFY_TIR (LRO) first complete the TIR's sessions; an RQ
	 * leaving RDY completes its own while it can still take their CQEs (D-LRO-10). */
	if (note == DEV_NOTE_RQ_LEAVES_RDY)
		end_all(dev, ls, of_rq, num, NICREF_LRO_RQ_STATE, true);
	else if (note == DEV_NOTE_TIR_LRO || note == DEV_NOTE_TIR_DESTROY)
		end_all(dev, ls, of_tir, num, NICREF_LRO_TIR_CHANGE, false);
}

int lro_check(const struct nicref_dev *dev, const struct lro_state *ls, char *buf, size_t len)
{
	uint32_t n = 0;
	uint64_t now = nicref_clock_now(dev);
	for (uint32_t i = ls->head; i != LRO_NIL; i = ls->s[i].next, n++) {
		const struct lro_session *s = &ls->s[i];
		const struct rq *rq = obj_get(dev, OBJ_RQ, s->key.rqn);
		if (!s->open || !rq || rq->state != WQ_RDY)
			return dev_broken(buf, len, NICREF_INV_LRO_SESSION_RQ_RDY,
					  "session %u on RQ %u: %s", i, s->key.rqn,
					  !s->open ? "not open" : !rq ? "no such RQ" : "not RDY");
		if (s->period_ns == 0 || now >= s->opened_ns + 2 * s->period_ns)
			return dev_broken(buf, len, NICREF_INV_LRO_SESSION_TIMER,
					  "session %u opened at %llu ns, period %llu ns, now %llu",
					  i, (unsigned long long)s->opened_ns,
					  (unsigned long long)s->period_ns, (unsigned long long)now);
		if (s->byte_cnt != s->first_end + s->merged || s->num_seg == 0 ||
		    s->num_seg - 1u > s->merged || s->ip_payload < s->merged)
			return dev_broken(buf, len, NICREF_INV_LRO_SESSION_BYTES,
					  "session %u: byte_cnt %u, first %u, merged %u in %u "
					  "segments",
					  i, s->byte_cnt, s->first_end, s->merged, s->num_seg);
	}
	if (n != ls->nopen || ls->nopen > ls->max)
		return dev_broken(buf, len, NICREF_INV_LRO_SESSIONS_WITHIN_LIMIT,
				  "%u sessions listed, %u counted open, limit %u", n, ls->nopen,
				  ls->max);
	return 0;
}

void lro_counters(const struct lro_state *ls, struct nicref_stats *out)
{
	out->lro_sessions_opened += ls->opened;
	out->lro_sessions_ended += ls->ended;
	out->lro_segments_merged += ls->merged;
}
