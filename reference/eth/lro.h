/* Private to libnicref: the Large Receive Offload engine (PRM §3.3.6, T5, T45, T68, T147).
 * Decisions D-LRO-* are in docs/lro.md; the causes and their names in nicref/lro.h.
 *
 * A TCP segment reaching an RQ through a TIR whose lro_enable_mask is not 0 enters lro_rx
 * (from rx_tir.c) instead of the ordinary RQ stage. One stage per file:
 *  - lro_seg.c    what the segment is: its flow id and the first eligibility condition it
 *                 fails (§3.3.6.2), in the order of the cause table (D-LRO-8);
 *  - lro_rx.c     the segment against its flow's session: open (§3.3.6.2), merge (§3.3.6.4,
 *                 §3.3.6.5), end and restart (§3.3.6.3), or on its own;
 *  - lro_end.c    a session completes: its CQE (§3.3.6.6, T5, T68), the timer (D-LRO-5), the
 *                 flushes of D-LRO-10 (the control plane's dev_notify), the invariants;
 *  - lro_state.c  the session table: preallocated at create (profile lro_max_sessions), found
 *                 by flow hash in O(1), kept in open order; nothing allocates per segment.
 * The receive WQE a session holds is the RQ stage's (rx_rq.c rx_rq_place / rx_rq_append /
 * rx_rq_complete): the first frame is scattered as any frame, each merged payload follows it. */
#ifndef NICREF_ETH_LRO_H
#define NICREF_ETH_LRO_H

#include "eth/rx.h"
#include "nicref/lro.h"

#define LRO_NIL UINT32_MAX
#define LRO_MAX_SESSIONS 4096u /* the profile's bound on lro_max_sessions */

/* D-LRO-1: the LRO Flow ID of §3.3.6.1 (VLAN ID, source and destination IP, ports, TCP) per
 * TIR and destination RQ. Every byte is set (hashed and compared as a whole). */
struct lro_key {
	uint32_t tirn, rqn;
	uint16_t vid[2]; /* the tags' VLAN IDs, outermost first (0 past ntags) */
	uint8_t ntags;
	uint8_t ipv6;
	uint16_t sport, dport;
	uint8_t src[16], dst[16]; /* IPv4: the first 4 bytes, the rest 0 */
	uint8_t zero[2];	  /* no padding: every byte is a member */
};

/* The IP header fields a merge compares (§3.3.6.4): the header with the fields that may
 * differ zeroed (TTL / Hop Limit, IPv4 checksum, total length, identification, IPv6 payload
 * length) and the ECN bits (compared on their own, cause ecn). */
#define LRO_IP_CMP 40u

/* One segment as the engine sees it (lro_seg.c). */
struct lro_seg {
	struct lro_key key;
	enum nicref_lro_cause cause; /* the first eligibility condition failed, or NONE */
	bool ipv6;
	const uint8_t *tcp;          /* the TCP header in the frame */
	size_t tcp_len;              /* its length with options */
	const uint8_t *payload;
	size_t payload_len;
	size_t ip_end;               /* the datagram's end in the frame */
	uint32_t seq, ack;
	uint16_t win;
	uint8_t ttl, ecn_ip, ecn_tcp;
	bool psh, ack_flag, ts;
	uint32_t tsval, tsecr;
	uint8_t ip_cmp[LRO_IP_CMP];
};

/* An open session (or a free slot of the table). */
struct lro_session {
	struct lro_key key;
	uint32_t hnext;       /* the next session of its hash bucket */
	uint32_t prev, next;  /* open order (the free list through next) */
	uint32_t gen;         /* counts opens of this slot: a flush names (index, gen) */
	bool open;
	uint64_t opened_ns, deadline_ns, period_ns;
	struct rx_slot slot;  /* the WQE and the first frame's CQE fields (rx.h) */
	uint32_t flow_tag;    /* the first frame's, for the CQE */
	struct rss_result rss;
	unsigned port;
	uint32_t first_end;   /* the first segment's datagram end as scattered */
	uint32_t byte_cnt;    /* first_end + merged payload: where the next payload goes */
	uint32_t ip_payload;  /* TCP header + all TCP payload (lro_max_msg_sz mode 0, D-LRO-6) */
	uint32_t merged;      /* payload bytes merged after the first segment */
	uint32_t next_seq, ack, tsval, tsecr;
	uint16_t win;
	uint8_t num_seg, min_ttl, ecn_ip, ecn_tcp;
	bool psh, any_ack, ts;
	uint64_t csum;        /* the one's complement sum of the TCP payload so far (D-LRO-7) */
	bool csum_odd;        /* that stream has an odd length */
	uint8_t ip_cmp[LRO_IP_CMP];
};

struct lro_state {
	struct lro_session *s; /* max of them */
	uint32_t max;
	uint32_t *bucket;      /* nbucket heads */
	uint32_t nbucket;      /* a power of two, at least 2 · max */
	uint32_t *todo;        /* 2 · max (index, gen) pairs: what flushes and the timer end */
	uint32_t top;          /* entries of todo in use */
	uint32_t free, head, tail, nopen;
	uint64_t opened, ended, merged; /* nicref_stats since reset */
};

/* lro_state.c */
struct lro_state *lro_create(struct nicref_dev *dev);
void lro_destroy(struct lro_state *ls);
void lro_reset(struct lro_state *ls);
/* Forgets the open sessions, without completions (TEARDOWN_HCA: their objects go). */
void lro_reset_sessions(struct lro_state *ls);
struct lro_state *lro_state_of(struct nicref_dev *dev);
struct lro_session *lro_find(struct lro_state *ls, const struct lro_key *k);
/* A free session opened under k at the tail of the open order, or NULL (none free). */
struct lro_session *lro_alloc(struct lro_state *ls, const struct lro_key *k);
/* Unlinks an open session and frees its slot. */
void lro_release(struct lro_state *ls, struct lro_session *s);
/* Collects the open sessions `want` selects, in open order, as entries [*base, *base + n) of
 * ls->todo (index, gen); n. The caller sets ls->top back to *base when done. */
typedef bool (*lro_want_fn)(const struct lro_session *s, uint64_t arg);
uint32_t lro_collect(struct lro_state *ls, lro_want_fn want, uint64_t arg, uint32_t *base);
/* Entry i of ls->todo when that session is still the one collected, else NULL. */
struct lro_session *lro_todo(struct lro_state *ls, uint32_t i);

/* lro_seg.c: false when the frame is no LRO candidate (not TCP over IP with its whole header):
 * it is received as always. */
bool lro_classify(struct nicref_dev *dev, const struct tir *t, uint32_t rqn,
		  const struct rx_pkt *p, struct lro_seg *g);
/* The one's complement sum of n bytes folded to 16 bits, not complemented. */
uint16_t lro_sum16(uint64_t sum);

/* lro_rx.c: one copy of a frame to RQ rqn through TIR t (t->lro_enable_mask != 0). */
enum rx_outcome lro_rx(struct nicref_dev *dev, const struct tir *t, uint32_t rqn,
		       struct rx_pkt *p);

/* lro_end.c */
/* Completes s for cause c (its lro_end event, then its CQE); rq_leaving: the RQ is leaving
 * RDY (a CQ that takes no CQE does not put it in ERR again). */
void lro_end(struct nicref_dev *dev, struct lro_state *ls, struct lro_session *s,
	     enum nicref_lro_cause c, bool rq_leaving);
/* Ends s with a completion with error of syndrome (cause wqe_space, D-LRO-3). */
void lro_fail(struct nicref_dev *dev, struct lro_state *ls, struct lro_session *s,
	      uint8_t syndrome);
void lro_tick(struct nicref_dev *dev, struct lro_state *ls);
/* The earliest deadline of an open session: true with *t, or false when none is open. */
bool lro_next_deadline(const struct lro_state *ls, uint64_t *t);
void lro_notify(struct nicref_dev *dev, struct lro_state *ls, enum dev_note note, uint32_t num);
int lro_check(const struct nicref_dev *dev, const struct lro_state *ls, char *buf, size_t len);
void lro_counters(const struct lro_state *ls, struct nicref_stats *out);

#endif
