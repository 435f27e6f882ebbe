/* A TCP segment on an LRO TIR against its flow's session (eth/lro.h): it joins the open
 * session (PRM §3.3.6.4) with its payload placed after what the WQE holds (§3.3.6.5), or ends
 * it (§3.3.6.3) and then opens the next (the four causes marked (*)) or goes on its own; with
 * no session open it opens one (§3.3.6.2) or goes on its own. Decisions D-LRO-* (docs/lro.md). */
#include <string.h>

#include "eth/csum.h"
#include "eth/lro.h"

/* lro_num_seg is 8 bits (T68): a session holds at most this many segments (D-LRO-6). */
#define LRO_MAX_SEGS 255u

/* The one's complement sum of the payload as it continues the session's byte stream: an odd
 * stream so far shifts it by a byte (RFC 1071 §2 (B), byte order independence). */
static uint64_t sum_after(const struct lro_session *s, const uint8_t *p, size_t n)
{
	uint16_t v = lro_sum16(csum_add(0, p, n));
	return s->csum_odd ? (uint16_t)(v << 8 | v >> 8) : v;
}

/* T45 lro_max_msg_sz × 256 bytes against what the session would hold with the segment: mode 0
 * (start_from_TCP_header) the TCP header and all payload, mode 1 (start_from_L2_header) from the
 * L2 header as scattered (T147 lro_max_msg_sz_mode; D-LRO-6). */
static bool over_size(struct nicref_dev *dev, const struct tir *t, const struct lro_session *s,
		      const struct lro_seg *g)
{
	uint64_t limit = (uint64_t)t->lro_max_msg_sz * 256u;
	uint64_t mode = CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps,
				 lro_max_msg_sz_mode);
	uint64_t have = mode == 1 ? s->byte_cnt : s->ip_payload;
	return have + g->payload_len > limit || s->num_seg >= LRO_MAX_SEGS;
}

/* §3.3.6.4 (after the creation conditions, lro_seg.c), in the order of D-LRO-8: the first
 * condition for merging the segment fails, or NONE. */
static enum nicref_lro_cause merge_cause(struct nicref_dev *dev, const struct tir *t,
					 const struct lro_session *s, const struct lro_seg *g)
{
	/* "Matching on TCP Sequence Number" (§3.3.6.3 "Out of order segment"). */
	if (g->seq != s->next_seq)
		return NICREF_LRO_OUT_OF_ORDER;
	/* "Matching on all IP fields, except: TTL/Hop Limit, IPv4.Checksum, IPv4.Total Length and
	 * IPv4.Identification/IPv6.Payload Length" (the ECN bits are the ecn cause's). */
	if (memcmp(g->ip_cmp, s->ip_cmp, LRO_IP_CMP) != 0)
		return NICREF_LRO_IP_MISMATCH;
	/* "Coalescing the new segment will not exhaust TIR lro_max_ip_payload_size" (*). */
	if (over_size(dev, t, s, g))
		return NICREF_LRO_MAX_SIZE;
	/* Timestamps (*): present now and not before; older than the session's; absent now. */
	if (g->ts && !s->ts)
		return NICREF_LRO_TS_PREV_ABSENT;
	if (g->ts && g->tsval < s->tsval)
		return NICREF_LRO_TS_OLDER;
	if (!g->ts && s->ts)
		return NICREF_LRO_TS_ABSENT;
	/* "Matching on ECN flags (ECE and CWR) in the TCP header", and the IP ECN field (*). */
	if (g->ecn_tcp != s->ecn_tcp || g->ecn_ip != s->ecn_ip)
		return NICREF_LRO_ECN;
	return NICREF_LRO_NONE;
}

/* The segment's state becomes the session's latest (T5: window, ACK, timestamps of the last
 * segment; minimum TTL; PSH and ACK accumulated; TSecr of the latest segment whose TSecr is
 * valid). */
static void take_latest(struct lro_session *s, const struct lro_seg *g)
{
	s->num_seg++;
	s->next_seq = g->seq + (uint32_t)g->payload_len;
	s->ack = g->ack;
	s->win = g->win;
	s->tsval = g->tsval;
	/* T68 lro_timestamp_echo: "of the header of the latest coalesced segment with valid TSecr
	 * field"; RFC 7323 §3.2: TSecr is valid only with ACK (D-LRO-13). Before any segment had
	 * ACK (T5: not valid then, L4_hdr_type 1), the latest segment's. */
	if (g->ack_flag || !s->any_ack)
		s->tsecr = g->tsecr;
	s->ts = g->ts;
	s->ecn_ip = g->ecn_ip;
	s->ecn_tcp = g->ecn_tcp;
	if (g->ttl < s->min_ttl)
		s->min_ttl = g->ttl;
	s->psh |= g->psh;
	s->any_ack |= g->ack_flag;
}

static enum rx_outcome pass(struct nicref_dev *dev, uint32_t rqn, struct rx_pkt *p,
			    const struct lro_seg *g, enum nicref_lro_cause c)
{
	uint64_t a[3] = { g->key.tirn, rqn, c };
	dev_emit(dev, NICREF_EV_LRO_PASS, a, 3);
	return rx_deliver_rq(dev, rqn, p);
}

/* §3.3.6.2, §3.3.6.5: the segment is scattered into the RQ's next WQE as any frame, and no CQE
 * is reported. */
static enum rx_outcome open_session(struct nicref_dev *dev, struct lro_state *ls,
				    const struct tir *t, uint32_t rqn, struct rx_pkt *p,
				    const struct lro_seg *g)
{
	if (ls->free == LRO_NIL)
		return pass(dev, rqn, p, g, NICREF_LRO_NO_RESOURCES);
	struct rx_slot slot;
	enum rx_outcome o = rx_rq_place(dev, rqn, p, &slot);
	if (o != RX_DELIVERED)
		return o; /* dropped (no WQE, RQ not RDY) or completed in error, as any frame */
	struct lro_session *s = lro_alloc(ls, &g->key);
	NICREF_ASSERT(s); /* a free one was there, and placing the frame opens none */
	s->slot = slot;
	s->flow_tag = p->flow_tag;
	s->rss = p->rss;
	s->port = p->port;
	s->opened_ns = nicref_clock_now(dev);
	/* D-LRO-5: the TIR's period in force (D-TIR-4) from the open. */
	s->period_ns = (uint64_t)t->lro_timeout_eff * 1000u;
	s->deadline_ns = s->opened_ns + s->period_ns;
	/* D-LRO-3: the data continues at the end of the first datagram as scattered (any L2
	 * padding after it is not TCP data). */
	s->first_end = (uint32_t)(g->ip_end - (slot.strip ? RX_TAG_LEN : 0));
	s->byte_cnt = s->first_end;
	s->ip_payload = (uint32_t)(g->tcp_len + g->payload_len);
	/* T4 LRO: "Checksum of the merged TCP segment payload" (D-LRO-7): the payloads only. */
	s->csum = csum_add(0, g->payload, g->payload_len);
	s->csum_odd = g->payload_len & 1;
	memcpy(s->ip_cmp, g->ip_cmp, LRO_IP_CMP);
	s->min_ttl = g->ttl;
	take_latest(s, g);
	uint64_t a[4] = { g->key.tirn, rqn, slot.wqe_counter, slot.byte_cnt };
	dev_emit(dev, NICREF_EV_LRO_OPEN, a, 4);
	return RX_DELIVERED;
}

/* §3.3.6.4-§3.3.6.5: the payload follows in the session's WQE; a WQE without room ends the
 * session with a completion with error, and the segment then meets an RQ in ERR (D-LRO-3). */
static enum rx_outcome merge(struct nicref_dev *dev, struct lro_state *ls, struct lro_session *s,
			     uint32_t rqn, struct rx_pkt *p, const struct lro_seg *g)
{
	uint8_t syndrome = rx_rq_append(dev, &s->slot, s->byte_cnt, g->payload, g->payload_len);
	if (syndrome) {
		lro_fail(dev, ls, s, syndrome);
		return pass(dev, rqn, p, g, NICREF_LRO_WQE_SPACE);
	}
	s->csum += sum_after(s, g->payload, g->payload_len);
	s->csum_odd ^= g->payload_len & 1;
	s->byte_cnt += (uint32_t)g->payload_len;
	s->ip_payload += (uint32_t)g->payload_len;
	s->merged += (uint32_t)g->payload_len;
	take_latest(s, g);
	ls->merged++;
	uint64_t a[5] = { g->key.tirn, rqn, s->slot.wqe_counter, s->num_seg, s->byte_cnt };
	dev_emit(dev, NICREF_EV_LRO_MERGE, a, 5);
	return RX_DELIVERED;
}

enum rx_outcome lro_rx(struct nicref_dev *dev, const struct tir *t, uint32_t rqn,
		       struct rx_pkt *p)
{
	struct lro_state *ls = lro_state_of(dev);
	struct lro_seg g;
	if (!ls || !lro_classify(dev, t, rqn, p, &g))
		return rx_deliver_rq(dev, rqn, p); /* D-LRO-9: not a candidate, no lro_* event */
	struct lro_session *s = lro_find(ls, &g.key);
	enum nicref_lro_cause c = g.cause;
	if (!s)
		return c ? pass(dev, rqn, p, &g, c) : open_session(dev, ls, t, rqn, p, &g);
	if (c == NICREF_LRO_NONE)
		c = merge_cause(dev, t, s, &g);
	if (c == NICREF_LRO_NONE)
		return merge(dev, ls, s, rqn, p, &g);
	/* §3.3.6.3: the session completes without the segment; then the segment "can be a
	 * candidate for a new session" after a (*) cause, else "generates a regular completion as
	 * a standalone incoming packet". */
	lro_end(dev, ls, s, c, false);
	if (nicref_lro_cause_restarts(c))
		return open_session(dev, ls, t, rqn, p, &g);
	return pass(dev, rqn, p, &g, c);
}
