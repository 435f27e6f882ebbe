/* RC packets to per-flow records, acknowledgements paired with their flows (adp_pkt.h; the
 * rules and their order: docs/captures.md "How flows are paired", D-CAPT-2). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_pkt.h"

#define PSN_MASK 0xffffffu

#define ADP_PAIR_NAME(id, name) name,
static const char *const paired_names[] = { ADP_PAIRINGS(ADP_PAIR_NAME) };
#undef ADP_PAIR_NAME

const char *adp_paired_name(enum adp_paired p)
{
	return (unsigned)p < sizeof paired_names / sizeof paired_names[0] ? paired_names[p] : NULL;
}

void adp_addr_format(uint8_t ipver, const uint8_t *a, char *buf, size_t len)
{
	roce_addr_format(ipver, a, buf, len);
}

/* a <= b in PSN order, modulo 2^24 (IBTA §9.7.2: b - a in [0, 2^23)). */
static bool psn_le(uint32_t a, uint32_t b)
{
	return ((b - a) & PSN_MASK) < (1u << 23);
}

/* ---- hash tables: open addressing, linear probing, doubled at half full ---- */

/* (ipver, a, b, x): a flow (src, dst, DestQP), an address pair (x 0), a requester QP (ack
 * destination, ack source, QP), a UDP source port, a CM connection end. Built zeroed, so the
 * whole struct is the key. */
struct hkey {
	uint8_t a[16], b[16];
	uint32_t x;
	uint8_t ipver, pad[3];
};
_Static_assert(sizeof(struct hkey) == 40, "hkey hashes as five words");
/* An entry: the key, its value and a count the caller keeps. Entries sit densely in insertion
 * order; the slots (8 bytes: the hash's high half, the entry index + 1) are what is probed, so a
 * probe touches one small array and a key is compared only when the hashes match. */
struct hslot {
	struct hkey k;
	uint32_t v, n;
};
struct htab {
	uint64_t *slot;
	size_t cap;
	struct hslot *e;
	size_t count, ecap;
};

static struct hkey key(uint8_t ipver, const uint8_t *a, const uint8_t *b, uint32_t x)
{
	struct hkey k;
	memset(&k, 0, sizeof k);
	memcpy(k.a, a, 16);
	memcpy(k.b, b, 16);
	k.x = x;
	k.ipver = ipver;
	return k;
}

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

static uint64_t hkey_hash(const struct hkey *k)
{
	uint64_t w[5], h = 0x9e3779b97f4a7c15ull;
	memcpy(w, k, sizeof w);
	for (int i = 0; i < 5; i++)
		h = (h ^ w[i]) * 0x100000001b3ull + (h >> 29);
	return mix(h);
}

static struct hslot *hfind(const struct htab *t, const struct hkey *k)
{
	if (!t->cap)
		return NULL;
	uint64_t h = hkey_hash(k);
	uint32_t tag = (uint32_t)(h >> 32);
	for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		uint64_t s = t->slot[i];
		if (!s)
			return NULL;
		if ((uint32_t)(s >> 32) == tag && !memcmp(&t->e[(uint32_t)s - 1].k, k, sizeof *k))
			return &t->e[(uint32_t)s - 1];
	}
}

/* The entry of k, new (v = n = 0) when absent; NULL without memory. The pointer holds until the
 * next hput. */
static struct hslot *hput(struct htab *t, const struct hkey *k)
{
	struct hslot *old = hfind(t, k);
	if (old)
		return old;
	if (t->count == t->ecap) {
		size_t nc = t->ecap ? 2 * t->ecap : 64;
		struct hslot *g = realloc(t->e, nc * sizeof *g);
		if (!g)
			return NULL;
		t->e = g;
		t->ecap = nc;
	}
	if (2 * (t->count + 1) > t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 128;
		uint64_t *ns = calloc(nc, sizeof *ns);
		if (!ns)
			return NULL;
		for (size_t i = 0; i < t->count; i++) {
			uint64_t h = hkey_hash(&t->e[i].k);
			size_t j = h & (nc - 1);
			while (ns[j])
				j = (j + 1) & (nc - 1);
			ns[j] = (h >> 32) << 32 | (uint64_t)(i + 1);
		}
		free(t->slot);
		t->slot = ns;
		t->cap = nc;
	}
	uint64_t h = hkey_hash(k);
	size_t i = h & (t->cap - 1);
	while (t->slot[i])
		i = (i + 1) & (t->cap - 1);
	t->slot[i] = (h >> 32) << 32 | (uint64_t)(t->count + 1);
	struct hslot *e = &t->e[t->count++];
	e->k = *k;
	e->v = e->n = 0;
	return e;
}

static void hfree(struct htab *t)
{
	free(t->slot);
	free(t->e);
}

/* (address pair, PSN) -> the flow that first sent a request with that PSN, and whether another
 * flow of the pair sent one too: 16 bytes a slot, one per first transmission. */
struct pslot {
	uint64_t k; /* (pair << 24 | psn) + 1; 0 empty */
	uint32_t flow, shared;
};
struct ptab {
	struct pslot *s;
	size_t cap, count;
};

static struct pslot *pput(struct ptab *t, uint64_t k)
{
	k++;
	if (2 * (t->count + 1) > t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 1024;
		struct pslot *ns = calloc(nc, sizeof *ns);
		if (!ns)
			return NULL;
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->s[i].k)
				continue;
			size_t j = mix(t->s[i].k) & (nc - 1);
			while (ns[j].k)
				j = (j + 1) & (nc - 1);
			ns[j] = t->s[i];
		}
		free(t->s);
		t->s = ns;
		t->cap = nc;
	}
	size_t i = mix(k) & (t->cap - 1);
	while (t->s[i].k && t->s[i].k != k)
		i = (i + 1) & (t->cap - 1);
	if (!t->s[i].k) {
		t->s[i] = (struct pslot){ .k = k, .flow = ~0u };
		t->count++;
	}
	return &t->s[i];
}

static const struct pslot *pfind(const struct ptab *t, uint64_t k)
{
	k++;
	if (!t->cap)
		return NULL;
	for (size_t i = mix(k) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		if (!t->s[i].k)
			return NULL;
		if (t->s[i].k == k)
			return &t->s[i];
	}
}

/* ---- the build ---- */

struct pairinfo {
	uint32_t first, count; /* its first flow, how many flows A->B */
};

struct build {
	struct adp_flowset *fs;
	size_t cap_flows;
	struct htab flows, addrs, sports, learned, cm, reqs;
	struct ptab psns;
	uint32_t *pkt_flow; /* per request packet: its flow (pass 1 for pass 2) */
	struct pairinfo *pairs;
	size_t npairs, cap_pairs;
	const struct adp_pair *opt;
	size_t nopt;
	char *err;
	size_t errlen;
};

static void build_free(struct build *b)
{
	hfree(&b->flows);
	hfree(&b->addrs);
	hfree(&b->sports);
	hfree(&b->learned);
	hfree(&b->cm);
	hfree(&b->reqs);
	free(b->psns.s);
	free(b->pkt_flow);
	free(b->pairs);
}

/* AETH syndrome (IBTA §9.3.5 Table 43): bits 6:5 = 00 ACK, 01 RNR NAK, 11 NAK with the code
 * in bits 4:0 (0 = PSN sequence error). */
static enum adp_rec_kind aeth_kind(uint8_t syndrome)
{
	switch ((syndrome >> 5) & 3) {
	case 0:
		return ADP_REC_ACK;
	case 3:
		return (syndrome & 0x1f) == 0 ? ADP_REC_NAK_SEQ : ADP_REC_OTHER;
	default:
		return ADP_REC_OTHER;
	}
}

/* A new flow for request k: -1 without memory. */
static int new_flow(struct build *b, const struct roce_pkt *k, struct hslot *slot)
{
	struct adp_flowset *fs = b->fs;
	uint32_t f = (uint32_t)fs->nflows;
	slot->v = f;
	if (fs->nflows == b->cap_flows) {
		size_t nc = b->cap_flows ? 2 * b->cap_flows : 64;
		struct adp_flow *g = realloc(fs->flows, nc * sizeof *g);
		if (!g)
			return -1;
		fs->flows = g;
		b->cap_flows = nc;
	}
	struct adp_flow *nf = &fs->flows[fs->nflows++];
	memset(nf, 0, sizeof *nf);
	nf->dqp = k->dqp;
	nf->ipver = k->ipver;
	nf->roce_ver = k->roce_ver;
	memcpy(nf->src, k->src, 16);
	memcpy(nf->dst, k->dst, 16);
	nf->ack_qp = ~0u;
	nf->sport = k->sport;
	struct hkey ak = key(k->ipver, k->src, k->dst, 0);
	struct hslot *a = hput(&b->addrs, &ak);
	if (!a)
		return -1;
	if (a->n == 0) {
		if (b->npairs == b->cap_pairs) {
			size_t nc = b->cap_pairs ? 2 * b->cap_pairs : 64;
			struct pairinfo *g = realloc(b->pairs, nc * sizeof *g);
			if (!g)
				return -1;
			b->pairs = g;
			b->cap_pairs = nc;
		}
		a->v = (uint32_t)b->npairs++;
		b->pairs[a->v] = (struct pairinfo){ .first = f };
	} else {
		/* Linked newest first: the pair's list is only walked to count candidates. */
		nf->next_in_pair = b->pairs[a->v].first + 1;
		b->pairs[a->v].first = f;
	}
	a->n = 1;
	nf->pair = a->v;
	b->pairs[a->v].count++;
	return 0;
}

/* The CM exchange: each ConnectReply answering a ConnectRequest of the capture ties the two
 * QPs of a connection (both directions). */
static int cm_connections(struct build *b, const struct cm_msg *cms, size_t ncm)
{
	for (size_t i = 0; i < ncm; i++) {
		const struct cm_msg *m = &cms[i];
		if (m->kind == CM_REQ) {
			struct hkey k = key(m->ipver, m->src, m->dst, m->local_comm);
			struct hslot *s = hput(&b->reqs, &k);
			if (!s)
				return -1;
			s->v = m->qpn;
		} else if (m->kind == CM_REP) {
			/* The REP travels back: the REQ went from its destination to its source. */
			struct hkey k = key(m->ipver, m->dst, m->src, m->remote_comm);
			const struct hslot *r = hfind(&b->reqs, &k);
			if (!r)
				continue;
			uint32_t req_qp = r->v;
			struct hkey x = key(m->ipver, m->dst, m->src, req_qp);
			struct hkey y = key(m->ipver, m->src, m->dst, m->qpn);
			struct hslot *s = hput(&b->cm, &x);
			if (!s)
				return -1;
			s->v = m->qpn;
			if (!(s = hput(&b->cm, &y)))
				return -1;
			s->v = req_qp;
		}
	}
	return 0;
}

static bool outstanding(const struct adp_flow *fl, uint32_t psn)
{
	return fl->sent && psn_le(fl->una, psn) && psn_le(psn, fl->end) &&
	       psn_le(fl->una, fl->end) && ((fl->end + 1) & PSN_MASK) != fl->una;
}

/* The flow an acknowledgement k (B -> A) answers: >= 0, -1 (no flow of the capture), -2
 * (ambiguous: b->err says so). *how: the rule that decided. */
static long pair_ack(struct build *b, const struct roce_pkt *k, enum adp_paired *how)
{
	const struct adp_flowset *fs = b->fs;
	const uint8_t *A = k->dst, *B = k->src;
	struct hkey lk = key(k->ipver, A, B, k->dqp);
	const struct hslot *s = hfind(&b->learned, &lk);
	if (s) {
		*how = ADP_PAIRED_NONE; /* already tied */
		return s->v;
	}
	for (size_t i = 0; i < b->nopt; i++) {
		if (b->opt[i].ack_qp != k->dqp)
			continue;
		struct hkey fk = key(k->ipver, A, B, b->opt[i].data_qp);
		s = hfind(&b->flows, &fk);
		*how = ADP_PAIRED_OPTION;
		return s ? (long)s->v : -1;
	}
	if ((s = hfind(&b->cm, &lk)) != NULL) {
		struct hkey fk = key(k->ipver, A, B, s->v);
		if ((s = hfind(&b->flows, &fk)) != NULL) {
			*how = ADP_PAIRED_CM;
			return s->v;
		}
	}
	struct hkey ak = key(k->ipver, A, B, 0);
	if ((s = hfind(&b->addrs, &ak)) == NULL)
		return -1;
	const struct pairinfo *pi = &b->pairs[s->v];
	uint32_t pair = s->v;
	if (pi->count == 1) {
		*how = ADP_PAIRED_UNIQUE;
		return pi->first;
	}
	if (k->roce_ver == 2) {
		struct hkey pk = key(k->ipver, A, B, k->sport);
		/* A port is trusted only where the PSN agrees: rxe derives each side's port from
		 * its own QPN, so with crossed QP numbers an ACK can carry another flow's port
		 * (D-CAPT-3). */
		if ((s = hfind(&b->sports, &pk)) != NULL && s->n == 1 &&
		    fs->flows[s->v].ack_qp == ~0u && outstanding(&fs->flows[s->v], k->psn)) {
			*how = ADP_PAIRED_UDP_SPORT;
			return s->v;
		}
	}
	*how = ADP_PAIRED_PSN;
	const struct pslot *ps = pfind(&b->psns, (uint64_t)pair << 24 | k->psn);
	if (ps && !ps->shared && fs->flows[ps->flow].ack_qp == ~0u &&
	    outstanding(&fs->flows[ps->flow], k->psn))
		return ps->flow;
	/* Several flows sent this PSN, or it lies inside a READ's responses: every flow of the
	 * pair not yet paired (a responder QP answers one requester QP), by its outstanding
	 * window. */
	uint32_t cand[8], nc = 0;
	for (uint32_t f = pi->first + 1; f; f = fs->flows[f - 1].next_in_pair)
		if (fs->flows[f - 1].ack_qp == ~0u && outstanding(&fs->flows[f - 1], k->psn)) {
			if (nc < 8)
				cand[nc] = f - 1;
			nc++;
		}
	if (nc == 1)
		return cand[0];
	if (nc == 0)
		return -1;
	char a[48], bb[48], list[200] = "";
	size_t o = 0;
	roce_addr_format(k->ipver, A, a, sizeof a);
	roce_addr_format(k->ipver, B, bb, sizeof bb);
	for (uint32_t i = 0; i < nc && i < 8 && o < sizeof list; i++) {
		int w = snprintf(list + o, sizeof list - o, "%s0x%x", i ? ", " : "",
				 fs->flows[cand[i]].dqp);
		o += w > 0 ? (size_t)w : 0;
	}
	snprintf(b->err, b->errlen,
		 "frame %u: acknowledgement %s -> %s to QP 0x%06x (PSN %u) could answer %u request "
		 "flows %s -> %s (to QP %s%s): no CM exchange in the capture ties QP 0x%x, its UDP "
		 "source port %u is not one flow's, and the PSN is outstanding in each; name its "
		 "flow with --ack-qp DATA_QP:0x%x",
		 k->frame, bb, a, k->dqp, k->psn, nc, a, bb, list, nc > 8 ? ", ..." : "", k->dqp,
		 k->sport, k->dqp);
	return -2;
}

/* Pass 1: the flows, in order of their first request; their address pairs and source ports. */
static int find_flows(struct build *b, const struct roce_pkt *pkts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct roce_pkt *k = &pkts[i];
		if (!roce_opcode_is_rc_request(k->opcode))
			continue;
		struct hkey fk = key(k->ipver, k->src, k->dst, k->dqp);
		struct hslot *s = hput(&b->flows, &fk);
		if (!s)
			return -1;
		if (!s->n) {
			s->n = 1;
			if (new_flow(b, k, s) != 0)
				return -1;
		} else if (b->fs->flows[s->v].sport != k->sport) {
			b->fs->flows[s->v].sport_mixed = 1;
		}
		b->pkt_flow[i] = s->v;
	}
	/* A UDP source port singles out a flow when only that flow of its address pair uses
	 * it, and uses no other. */
	for (size_t f = 0; f < b->fs->nflows; f++) {
		const struct adp_flow *fl = &b->fs->flows[f];
		if (fl->roce_ver != 2)
			continue;
		struct hkey pk = key(fl->ipver, fl->src, fl->dst, fl->sport);
		struct hslot *s = hput(&b->sports, &pk);
		if (!s)
			return -1;
		s->v = (uint32_t)f;
		s->n += fl->sport_mixed ? 2 : 1;
	}
	return 0;
}

/* A request of flow f in capture order: its PSN window and the PSN index. */
static int track_request(struct build *b, uint32_t f, const struct roce_pkt *k)
{
	struct adp_flow *fl = &b->fs->flows[f];
	uint32_t last = (k->psn + k->span - 1) & PSN_MASK;
	if (fl->sent && psn_le(k->psn, fl->end))
		return 0; /* a retransmission */
	if (!fl->sent || ((fl->end + 1) & PSN_MASK) == fl->una)
		fl->una = k->psn; /* nothing was outstanding */
	fl->sent = 1;
	fl->end = last;
	if (fl->ack_qp != ~0u)
		return 0; /* already paired: its PSNs need no index */
	struct pslot *p = pput(&b->psns, (uint64_t)fl->pair << 24 | k->psn);
	if (!p)
		return -1;
	if (p->flow == ~0u)
		p->flow = f;
	else if (p->flow != f)
		p->shared = 1;
	return 0;
}

int adp_flows_build(const struct roce_pkt *pkts, size_t n, const struct cm_msg *cms, size_t ncm,
		    const struct adp_pair *pairs, size_t npairs, struct adp_flowset *out, char *err,
		    size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct build b = { .fs = out, .opt = pairs, .nopt = npairs, .err = err, .errlen = errlen };
	out->recs = calloc(n ? n : 1, sizeof *out->recs);
	b.pkt_flow = malloc((n ? n : 1) * sizeof *b.pkt_flow);
	if (!out->recs || !b.pkt_flow || find_flows(&b, pkts, n) != 0 || cm_connections(&b, cms, ncm) != 0)
		goto nomem;
	/* Pass 2: records in capture order, acknowledgements paired with their flow. */
	for (size_t i = 0; i < n; i++) {
		const struct roce_pkt *k = &pkts[i];
		struct adp_rec r = { .psn = k->psn, .t_ns = k->t_ns, .frame = k->frame };
		if (roce_opcode_is_rc_request(k->opcode)) {
			r.flow = b.pkt_flow[i];
			r.kind = ADP_REC_DATA;
			out->flows[r.flow].ndata++;
			if (track_request(&b, r.flow, k) != 0)
				goto nomem;
		} else if (k->has_aeth) {
			enum adp_paired how = ADP_PAIRED_NONE;
			long f = pair_ack(&b, k, &how);
			if (f == -2) {
				build_free(&b);
				adp_flows_free(out);
				return -1;
			}
			if (f < 0) {
				out->ignored_acks++;
				continue;
			}
			struct adp_flow *fl = &out->flows[f];
			if (how != ADP_PAIRED_NONE) {
				/* An RC requester QP talks to one responder QP: its later ACKs go
				 * to the same flow. */
				struct hkey lk = key(k->ipver, k->dst, k->src, k->dqp);
				struct hslot *s = hput(&b.learned, &lk);
				if (!s)
					goto nomem;
				s->v = (uint32_t)f;
				if (fl->ack_qp == ~0u) {
					fl->ack_qp = k->dqp;
					fl->paired_by = (uint8_t)how;
				}
			}
			r.flow = (uint32_t)f;
			r.kind = (uint8_t)aeth_kind(k->syndrome);
			fl->nack++;
			uint32_t upto = r.kind == ADP_REC_ACK	  ? k->psn
					: r.kind == ADP_REC_NAK_SEQ ? (k->psn - 1) & PSN_MASK
								    : fl->una - 1;
			if (fl->sent && psn_le(fl->una, upto) && psn_le(upto, fl->end))
				fl->una = (upto + 1) & PSN_MASK;
		} else {
			continue; /* READ response middle: no AETH */
		}
		out->recs[out->nrecs++] = r;
	}
	build_free(&b);
	return 0;
nomem:
	build_free(&b);
	adp_flows_free(out);
	snprintf(err, errlen, "out of memory");
	return -1;
}

void adp_flows_free(struct adp_flowset *fs)
{
	free(fs->flows);
	free(fs->recs);
	fs->flows = NULL;
	fs->recs = NULL;
	fs->nflows = fs->nrecs = 0;
}
