/* `nicref roce check`: one RC request flow with its responses (rules in roce_check.h,
 * docs/roce_check.md "Flow rules"). PSNs are unwrapped to 64 bits against the latest one seen
 * (24-bit serial arithmetic, IBTA §9.7.2: a PSN is within 2^23 of the reference). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roce_check.h"

#define PSN_MASK 0xffffffu
#define NO_END UINT64_MAX

/* What the first transmission at one PSN was (its first packet for a READ). */
struct orig {
	uint8_t op;
	uint32_t payload;
	uint64_t va;
	uint32_t rkey, dlen;
	uint64_t read_first; /* its PSN (unwrapped): a READ's first */
	uint64_t span;       /* READ: the PSNs its responses take; else 1 */
	uint32_t frame;
};

struct msg {
	uint64_t last; /* NO_END while its LAST is not sent */
};

struct st {
	const struct rck_opts *o;
	const struct rck_frames *fr;
	bool started;
	int64_t ref;     /* unwrapping reference */
	uint64_t u0;     /* the flow's first PSN */
	uint64_t next;   /* the PSN of the next first transmission */
	uint64_t una;    /* oldest unacknowledged */
	uint32_t una_frame;
	uint64_t ack_max; /* highest PSN an RC_ACKNOWLEDGE carried, +1 (0: none) */
	uint32_t ack_max_frame;
	uint32_t pmtu;
	uint8_t open_kind; /* enum rck_op_kind of the message open, OPK_NONE */
	/* A READ whose span is not known yet (no path MTU): its first PSN and the range of the
	 * next request's PSN. */
	bool read_pending;
	uint64_t rp_first, rp_min, rp_max;
	struct orig *tab; /* first transmissions, ascending PSN */
	size_t ntab, captab;
	struct msg *msgs;
	size_t mhead, mtail, mcap;
	bool in_burst;
	uint64_t retx_next;
	uint64_t rnr_until, rnr_t, rnr_ns;
	bool nak_seen;    /* the latest NAK PSN sequence error: its PSN and frame */
	uint64_t nak_u;
	uint32_t nak_frame;
	size_t cnp_i;     /* CNPs before the current frame, and the latest one's time */
	uint64_t cnp_t;
	bool cnp_seen;
	uint32_t rnr_frame;
	uint64_t rnr_psn; /* the request the RNR NAK refused (unwrapped) */
};

static const uint32_t mtus[] = { 256, 512, 1024, 2048, 4096 };

static bool mtu_legal(uint32_t m)
{
	for (size_t i = 0; i < sizeof mtus / sizeof mtus[0]; i++)
		if (mtus[i] == m)
			return true;
	return false;
}

static uint64_t unwrap(struct st *s, uint32_t psn)
{
	int64_t d = (int64_t)((psn - (uint32_t)(s->ref & PSN_MASK)) & PSN_MASK);
	if (d >= (1 << 23))
		d -= 1 << 24;
	int64_t u = s->ref + d;
	if (u > s->ref)
		s->ref = u;
	return (uint64_t)u;
}

static uint32_t wrap(uint64_t u)
{
	return (uint32_t)(u & PSN_MASK);
}

__attribute__((format(printf, 4, 5))) static int viol(struct rck_violation *v, enum rck_rule r,
						       const struct rck_pkt *p, const char *fmt, ...)
{
	va_list ap;
	v->rule = (uint8_t)r;
	v->frame = p->frame;
	v->t_ns = p->t_ns;
	v->psn = p->psn;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	return 1;
}

/* A new first transmission at u (above every PSN recorded): its entry, NULL with no memory. The
 * entries are one per request packet, in PSN order, so a READ of a large length costs one. */
static struct orig *record(struct st *s, uint64_t u)
{
	if (s->ntab == s->captab) {
		size_t nc = s->captab ? s->captab * 2 : 64;
		struct orig *g = realloc(s->tab, nc * sizeof *g);
		if (!g)
			return NULL;
		s->tab = g;
		s->captab = nc;
	}
	struct orig *o = &s->tab[s->ntab++];
	memset(o, 0, sizeof *o);
	o->read_first = u;
	o->span = 1;
	return o;
}

/* The first transmission whose PSNs hold u: the last entry at or below u, if its span reaches
 * u (a READ whose span is not known yet reaches the most it can take). */
static const struct orig *find(const struct st *s, uint64_t u)
{
	size_t lo = 0, hi = s->ntab;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->tab[mid].read_first <= u)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct orig *o = &s->tab[lo - 1];
	uint64_t span = s->read_pending && o->read_first == s->rp_first ? s->rp_max - s->rp_first
									 : o->span;
	return u < o->read_first + span ? o : NULL;
}

static int msg_push(struct st *s, uint64_t last)
{
	if (s->mtail == s->mcap) {
		if (s->mhead > 0) {
			memmove(s->msgs, s->msgs + s->mhead, (s->mtail - s->mhead) * sizeof *s->msgs);
			s->mtail -= s->mhead;
			s->mhead = 0;
		} else {
			size_t nc = s->mcap ? s->mcap * 2 : 32;
			struct msg *g = realloc(s->msgs, nc * sizeof *g);
			if (!g)
				return -1;
			s->msgs = g;
			s->mcap = nc;
		}
	}
	s->msgs[s->mtail++] = (struct msg){ last };
	return 0;
}

/* Messages still outstanding: sent, and not acknowledged through their last PSN. */
static size_t outstanding(struct st *s)
{
	while (s->mhead < s->mtail && s->msgs[s->mhead].last != NO_END &&
	       s->msgs[s->mhead].last < s->una)
		s->mhead++;
	return s->mtail - s->mhead;
}

/* The READ of unknown span ends where the next first transmission starts. */
static void read_fix(struct st *s, uint64_t span)
{
	/* the READ is the last entry recorded */
	if (s->ntab && s->tab[s->ntab - 1].read_first == s->rp_first)
		s->tab[s->ntab - 1].span = span;
	s->next = s->rp_first + span;
	if (s->mtail > s->mhead && s->msgs[s->mtail - 1].last == NO_END)
		s->msgs[s->mtail - 1].last = s->next - 1;
	s->read_pending = false;
}

/* The last PSN sent so far. */
static uint64_t sent_max(const struct st *s)
{
	return s->read_pending ? s->rp_max - 1 : s->next - 1;
}

/* The latest CNP before frame `frame` (the CNPs are in capture order and so are the calls). */
static uint64_t last_cnp_before(struct st *s, const uint32_t *cnp, size_t ncnp, uint32_t frame,
				bool *have)
{
	while (s->cnp_i < ncnp && cnp[s->cnp_i] < frame) {
		const struct rck_pkt *c = rck_frames_find(s->fr, cnp[s->cnp_i++]);
		if (c) {
			s->cnp_t = c->t_ns;
			s->cnp_seen = true;
		}
	}
	*have = s->cnp_seen;
	return s->cnp_t;
}

static int first_tx(struct st *s, const struct rck_pkt *p, const struct rck_op *op, uint64_t u,
		    const uint32_t *cnp, size_t ncnp, struct rck_violation *v)
{
	const struct rck_opts *o = s->o;
	s->in_burst = false;
	/* Opcode sequence (first transmissions): FIRST, MIDDLE..., LAST of one kind. */
	if (op->pos == OPP_MIDDLE || op->pos == OPP_LAST) {
		if (s->open_kind != op->kind)
			return viol(v, RCK_REQ_OPCODE, p, "%s at PSN %u, but %s", op->name, p->psn,
				    s->open_kind == OPK_NONE ? "no message is open (a FIRST is due)"
				    : s->open_kind == OPK_SEND ? "a SEND message is open"
							       : "an RDMA WRITE message is open");
	} else if (s->open_kind != OPK_NONE) {
		return viol(v, RCK_REQ_OPCODE, p, "%s at PSN %u while the %s message begun before "
			    "has not had its LAST", op->name, p->psn,
			    s->open_kind == OPK_SEND ? "SEND" : "RDMA WRITE");
	}
	/* Packetisation by the path MTU. */
	if (op->pos == OPP_FIRST || op->pos == OPP_MIDDLE) {
		if (!s->pmtu) {
			if (!mtu_legal(p->payload))
				return viol(v, RCK_REQ_LENGTH, p, "%s carries %u bytes: a FIRST or "
					    "MIDDLE carries the path MTU (256, 512, 1024, 2048 or "
					    "4096)", op->name, p->payload);
			s->pmtu = p->payload;
		} else if (p->payload != s->pmtu) {
			return viol(v, RCK_REQ_LENGTH, p, "%s carries %u bytes, not the path MTU %u",
				    op->name, p->payload, s->pmtu);
		}
	} else if ((op->pos == OPP_LAST || op->pos == OPP_ONLY) && op->payload == 1) {
		uint32_t lim = s->pmtu ? s->pmtu : 4096;
		if (p->payload > lim || (op->pos == OPP_LAST && p->payload == 0))
			return viol(v, RCK_REQ_LENGTH, p, "%s carries %u bytes: a LAST carries 1 to "
				    "%u, an ONLY at most %u (the path MTU%s)", op->name, p->payload,
				    lim, lim, s->pmtu ? "" : " can be no more");
	}
	/* The outstanding window (seed 004 profile): a new message needs a free slot. */
	bool starts = op->pos == OPP_FIRST || op->pos == OPP_ONLY;
	if (starts && o->seed004_window) {
		bool have;
		uint64_t tc = last_cnp_before(s, cnp, ncnp, p->frame, &have);
		bool reduced = have && p->t_ns < tc + o->cnp_timer_ns && !o->at_senders;
		uint32_t lim = reduced ? o->cnp_window : o->window;
		size_t n = outstanding(s) + 1;
		if (n > lim)
			return viol(v, reduced ? RCK_CNP_WINDOW : RCK_REQ_WINDOW, p,
				    "PSN %u starts message %zu outstanding; the window is %u%s",
				    p->psn, n, lim, reduced ? " after the CNP (until CNP_TIMER_THRD)"
							    : "");
	}
	struct orig *t = record(s, u);
	if (!t)
		return -1;
	*t = (struct orig){ .op = p->opcode, .payload = p->payload, .va = p->va, .rkey = p->rkey,
			    .dlen = p->dlen, .read_first = u, .span = 1, .frame = p->frame };
	if (starts && msg_push(s, op->pos == OPP_ONLY && op->kind != OPK_READ ? u : NO_END) != 0)
		return -1;
	if (op->pos == OPP_FIRST)
		s->open_kind = op->kind;
	if (op->pos == OPP_LAST) {
		s->open_kind = OPK_NONE;
		if (s->mtail > s->mhead)
			s->msgs[s->mtail - 1].last = u;
	}
	if (op->kind == OPK_READ) {
		uint64_t len = p->dlen ? p->dlen : 1;
		if (s->pmtu) {
			s->rp_first = u;
			read_fix(s, (len + s->pmtu - 1) / s->pmtu);
			return 0;
		}
		s->read_pending = true;
		s->rp_first = u;
		s->rp_min = u + (len + 4095) / 4096;
		s->rp_max = u + (len + 255) / 256;
		s->next = s->rp_min;
		return 0;
	}
	s->next = u + 1;
	return 0;
}

static int retx(struct st *s, const struct rck_pkt *p, const struct rck_op *op, uint64_t u,
		struct rck_violation *v, struct rck_flow_stats *stt)
{
	stt->retransmissions++;
	const struct orig *t = find(s, u);
	if (!t)
		return 0; /* sent before the capture began: nothing to compare */
	/* Go-Back-N: a burst starts at the oldest unacknowledged PSN; its followers go on one by
	 * one. */
	if (!s->in_burst || u != s->retx_next) {
		if (s->o->at_senders ? u > s->una : u != s->una)
			return viol(v, RCK_RETX_START, p, "a retransmission starts at PSN %u; the "
				    "oldest unacknowledged PSN is %u%s", p->psn, wrap(s->una),
				    u < s->una ? " (this one was acknowledged)" : "");
	}
	if (p->t_ns < s->rnr_until && !s->o->at_senders)
		return viol(v, RCK_RETX_RNR, p, "PSN %u resent %llu ns after the RNR NAK of frame "
			    "%u, whose timer is %llu ns", p->psn,
			    (unsigned long long)(p->t_ns - s->rnr_t), s->rnr_frame,
			    (unsigned long long)s->rnr_ns);
	const struct rck_op *oop = rck_op(t->op);
	if (t->op == 0x0C) {
		if (p->opcode != 0x0C)
			return viol(v, RCK_RETX_OPCODE, p, "PSN %u lies in the RDMA READ of frame "
				    "%u: resent as %s, not RC_RDMA_READ_REQUEST", p->psn, t->frame,
				    op->name);
		uint64_t k = u - t->read_first;
		if (k == 0) {
			if (p->va != t->va || p->rkey != t->rkey || p->dlen != t->dlen)
				return viol(v, RCK_RETX_RETH, p, "the retried RDMA READ at PSN %u "
					    "asks VA 0x%llx R_Key 0x%x length %u; the original (frame "
					    "%u) asked VA 0x%llx R_Key 0x%x length %u", p->psn,
					    (unsigned long long)p->va, p->rkey, p->dlen, t->frame,
					    (unsigned long long)t->va, t->rkey, t->dlen);
		} else {
			uint64_t adv = s->pmtu ? k * s->pmtu : p->va - t->va;
			bool ok = p->rkey == t->rkey && p->va == t->va + adv && adv < t->dlen &&
				  p->dlen == t->dlen - adv && (s->pmtu || (adv && adv % 256 == 0));
			if (!ok)
				return viol(v, RCK_RETX_RETH, p, "the RDMA READ resumed at PSN %u (%llu "
					    "responses into the READ of frame %u) asks VA 0x%llx length "
					    "%u R_Key 0x%x; expected VA 0x%llx length %llu R_Key 0x%x",
					    p->psn, (unsigned long long)k, t->frame,
					    (unsigned long long)p->va, p->dlen, p->rkey,
					    (unsigned long long)(t->va + (s->pmtu ? adv : 0)),
					    (unsigned long long)(t->dlen - (s->pmtu ? adv : 0)), t->rkey);
		}
		uint64_t span = s->read_pending && t->read_first == s->rp_first
					? s->rp_max - t->read_first
					: t->span;
		s->retx_next = t->read_first + span;
		s->in_burst = true;
		return 0;
	}
	if (p->opcode != t->op || p->payload != t->payload)
		return viol(v, RCK_RETX_OPCODE, p, "PSN %u resent as %s with %u bytes; the original "
			    "(frame %u) was %s with %u bytes", p->psn, op->name, p->payload, t->frame,
			    oop ? oop->name : "?", t->payload);
	if (op->reth && (p->va != t->va || p->rkey != t->rkey || p->dlen != t->dlen))
		return viol(v, RCK_RETX_RETH, p, "PSN %u resent with RETH VA 0x%llx R_Key 0x%x "
			    "length %u; the original (frame %u) had VA 0x%llx R_Key 0x%x length %u",
			    p->psn, (unsigned long long)p->va, p->rkey, p->dlen, t->frame,
			    (unsigned long long)t->va, t->rkey, t->dlen);
	s->in_burst = true;
	s->retx_next = u + 1;
	return 0;
}

static int response(struct st *s, const struct rck_pkt *p, const struct rck_op *op, uint64_t u,
		    struct rck_violation *v, struct rck_flow_stats *stt)
{
	stt->responses++;
	uint64_t top = sent_max(s);
	if (op->kind == OPK_READ_RESP && !s->pmtu &&
	    (op->pos == OPP_FIRST || op->pos == OPP_MIDDLE) && mtu_legal(p->payload)) {
		s->pmtu = p->payload; /* a READ response FIRST/MIDDLE carries the path MTU */
		if (s->read_pending) {
			const struct orig *r = find(s, s->rp_first);
			uint64_t len = r && r->dlen ? r->dlen : 1;
			read_fix(s, (len + s->pmtu - 1) / s->pmtu);
			top = sent_max(s);
		}
	}
	if (!p->has_aeth) {
		/* READ response MIDDLE: the responses before it arrived. */
		if (u > top)
			return viol(v, RCK_ACK_UNSENT, p, "%s at PSN %u: no request took that PSN "
				    "(the last sent is %u)", op->name, p->psn, wrap(top));
		if (u + 1 > s->una)
			s->una = u + 1;
		return 0;
	}
	uint8_t syn = p->syndrome;
	uint8_t cls = syn >> 5;
	if (cls == 0) {
		/* ACK (or a READ response with its AETH): every PSN up to u. */
		if (u > top)
			return viol(v, RCK_ACK_UNSENT, p, "%s acknowledges PSN %u, which no request "
				    "took (the last sent is %u)", op->name, p->psn, wrap(top));
		if (op->kind == OPK_ACK) {
			if (s->ack_max && u + 1 < s->ack_max)
				return viol(v, RCK_ACK_REGRESS, p, "ACK of PSN %u after the ACK of "
					    "PSN %u (frame %u)", p->psn, wrap(s->ack_max - 1),
					    s->ack_max_frame);
			if (u + 1 > s->ack_max) {
				s->ack_max = u + 1;
				s->ack_max_frame = p->frame;
			}
		}
		if (u + 1 > s->una)
			s->una = u + 1;
		/* D-ROCE-RC-25: C9-130 holds back the request the RNR NAK refused ("waits for at
		 * least the time interval specified in the RNR NAK before retrying its request");
		 * once that one is acknowledged (a later copy executed) the wait binds nothing:
		 * what is left may be resent at once (reading 1) or at the wait's end (2). */
		if (s->rnr_until && u >= s->rnr_psn)
			s->rnr_until = 0;
		return 0;
	}
	if (cls == 1) {
		/* RNR NAK: u is the request that found no receive WQE; the ones before arrived. */
		stt->rnr_naks++;
		if (u > top)
			return viol(v, RCK_ACK_UNSENT, p, "RNR NAK of PSN %u, which no request took "
				    "(the last sent is %u)", p->psn, wrap(top));
		if (u > s->una)
			s->una = u;
		s->rnr_t = p->t_ns;
		s->rnr_ns = rck_rnr_ns(syn & 31);
		s->rnr_until = p->t_ns + s->rnr_ns;
		s->rnr_frame = p->frame;
		s->rnr_psn = u;
		s->in_burst = false;
		return 0;
	}
	if (cls == 3) {
		stt->naks++;
		if ((syn & 31) == 0) {
			/* PSN sequence error: the responder expected u and received a later PSN. */
			if (u < s->una || u >= top)
				return viol(v, RCK_NAK_SEQ, p, "NAK PSN sequence error at PSN %u: %s",
					    p->psn, u < s->una
						? "that PSN was acknowledged already"
						: "no request after it was sent, so nothing was out of "
						  "sequence");
			if (s->nak_seen && u == s->nak_u)
				return viol(v, RCK_NAK_LATCH, p, "a second NAK PSN sequence error for "
					    "PSN %u (the first: frame %u); the responder NAKs once until "
					    "that PSN arrives, and it cannot have arrived", p->psn,
					    s->nak_frame);
			s->nak_seen = true;
			s->nak_u = u;
			s->nak_frame = p->frame;
			s->in_burst = false;
		} else if (u > top) {
			return viol(v, RCK_ACK_UNSENT, p, "NAK (syndrome 0x%02x) of PSN %u, which no "
				    "request took (the last sent is %u)", syn, p->psn, wrap(top));
		}
		if (u > s->una)
			s->una = u;
	}
	return 0;
}

int rck_check_flow(const struct rck_opts *o, const struct rck_frames *fr, const uint32_t *ev,
		   size_t nev, const uint32_t *cnp, size_t ncnp, bool ack_known,
		   struct rck_violation *v, struct rck_flow_stats *stt)
{
	struct st s = { .o = o, .fr = fr, .pmtu = o->pmtu };
	memset(v, 0, sizeof *v);
	v->rule = RCK_NONE;
	memset(stt, 0, sizeof *stt);
	stt->cnps = (uint32_t)ncnp;
	/* A CE mark is answered by a CNP after it or within the interval before it: the latest
	 * CNP decides. */
	bool any_cnp = false;
	uint64_t cnp_max = 0;
	for (size_t k = 0; k < ncnp; k++) {
		const struct rck_pkt *c = rck_frames_find(fr, cnp[k]);
		if (c && (!any_cnp || c->t_ns > cnp_max)) {
			cnp_max = c->t_ns;
			any_cnp = true;
		}
	}
	int rc = 0;
	for (size_t i = 0; i < nev && rc == 0; i++) {
		const struct rck_pkt *p = rck_frames_find(fr, ev[i]);
		if (!p)
			continue;
		if (p->rule != RCK_NONE) {
			char why[sizeof v->message];
			rck_pkt_why(p, why, sizeof why);
			rc = viol(v, (enum rck_rule)p->rule, p, "%s", why);
			break;
		}
		const struct rck_op *op = rck_op(p->opcode);
		if (!op)
			continue;
		bool request = op->kind == OPK_SEND || op->kind == OPK_WRITE ||
			       op->kind == OPK_READ || op->kind == OPK_ATOMIC;
		if (!s.started && !request)
			continue; /* responses to requests the capture does not hold */
		if (!s.started) {
			s.started = true;
			s.ref = ((int64_t)1 << 32) + p->psn;
			s.u0 = s.next = s.una = (uint64_t)s.ref;
		}
		uint64_t u = unwrap(&s, p->psn);
		if (!request) {
			rc = response(&s, p, op, u, v, stt);
			continue;
		}
		stt->requests++;
		if (p->ecn == 3) {
			stt->ce_marked++;
			bool answered = any_cnp && cnp_max + o->cnp_interval_ns >= p->t_ns;
			if (ack_known && !answered) {
				rc = viol(v, RCK_CNP_MISSING, p, "PSN %u arrived CE-marked; no CNP to "
					  "the requester QP followed (nor one within %llu ns before)",
					  p->psn, (unsigned long long)o->cnp_interval_ns);
				break;
			}
		}
		if (s.read_pending && u > s.rp_first) {
			/* After a READ of unknown span: the READ resumed, or the next request, whose
			 * PSN fixes the span. */
			const struct orig *r = find(&s, s.rp_first);
			bool resume = p->opcode == 0x0C && r && p->rkey == r->rkey && p->va > r->va &&
				      p->dlen < r->dlen && p->va - r->va == r->dlen - p->dlen &&
				      u < s.rp_max;
			if (!resume && u >= s.rp_min && u <= s.rp_max) {
				read_fix(&s, u - s.rp_first);
			} else if (!resume) {
				rc = viol(v, RCK_REQ_PSN, p, "PSN %u after the RDMA READ at PSN %u of "
					  "%u bytes, whose responses take PSNs %u to %u at most",
					  p->psn, wrap(s.rp_first), r ? r->dlen : 0, wrap(s.rp_first),
					  wrap(s.rp_max - 1));
				break;
			}
		}
		if (u == s.next && !s.read_pending)
			rc = first_tx(&s, p, op, u, cnp, ncnp, v);
		else if (u < s.next || (s.read_pending && u < s.rp_max))
			rc = retx(&s, p, op, u, v, stt);
		else
			rc = viol(v, RCK_REQ_PSN, p, "PSN %u: the next PSN is %u (%u skipped)", p->psn,
				  wrap(s.next), (unsigned)(u - s.next));
	}
	free(s.tab);
	free(s.msgs);
	return rc < 0 ? -1 : 0;
}
