/* RoCEv2 frames to per-QP records (see adp_pkt.h for the public formats used). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_pkt.h"

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* UDP datagram (RFC 768) carrying BTH (IBTA §9.2) and maybe AETH (§9.3.5). */
static enum roce_parse parse_udp(const uint8_t *p, size_t len, struct roce_pkt *out)
{
	if (len < 8)
		return ROCE_PARSE_OTHER; /* not even a UDP header: not recognisably RoCE */
	if (be16(p + 2) != ROCE_UDP_PORT)
		return ROCE_PARSE_OTHER;
	size_t ulen = be16(p + 4);
	if (ulen < 8)
		return ROCE_PARSE_TRUNCATED;
	if (ulen > len)
		return ROCE_PARSE_TRUNCATED; /* snap length cut the datagram */
	const uint8_t *b = p + 8;
	size_t blen = ulen - 8;
	if (blen < 12)
		return ROCE_PARSE_TRUNCATED;
	/* BTH: 0 OpCode | 1 SE M PadCnt TVer | 2-3 P_Key | 4 FECN BECN resv | 5-7 DestQP |
	 * 8 AckReq resv | 9-11 PSN. */
	out->opcode = b[0];
	out->dqp = be24(b + 5);
	out->psn = be24(b + 9);
	out->has_aeth = 0;
	out->syndrome = 0;
	out->msn = 0;
	if (roce_opcode_has_aeth(out->opcode)) {
		/* AETH: 0 Syndrome | 1-3 MSN. */
		if (blen < 16)
			return ROCE_PARSE_TRUNCATED;
		out->has_aeth = 1;
		out->syndrome = b[12];
		out->msn = be24(b + 13);
	}
	return ROCE_PARSE_OK;
}

/* IPv4 (RFC 791): only unfragmented datagrams or first fragments carry the UDP header. */
static enum roce_parse parse_ipv4(const uint8_t *p, size_t len, struct roce_pkt *out)
{
	if (len < 20 || p[0] >> 4 != 4)
		return ROCE_PARSE_OTHER;
	size_t ihl = (size_t)(p[0] & 0xf) * 4;
	size_t total = be16(p + 2);
	if (ihl < 20 || total < ihl)
		return ROCE_PARSE_OTHER;
	if ((be16(p + 6) & 0x1fff) != 0 || p[9] != 17)
		return ROCE_PARSE_OTHER; /* later fragment, or not UDP */
	if (total > len)
		return ROCE_PARSE_TRUNCATED;
	out->ipver = 4;
	memset(out->src, 0, sizeof out->src);
	memset(out->dst, 0, sizeof out->dst);
	memcpy(out->src, p + 12, 4);
	memcpy(out->dst, p + 16, 4);
	return parse_udp(p + ihl, total - ihl, out);
}

/* IPv6 (RFC 8200), skipping hop-by-hop (0), routing (43) and destination-options (60)
 * headers; a fragment header (44) with a non-zero offset is a later fragment. */
static enum roce_parse parse_ipv6(const uint8_t *p, size_t len, struct roce_pkt *out)
{
	if (len < 40 || p[0] >> 4 != 6)
		return ROCE_PARSE_OTHER;
	size_t plen = be16(p + 4);
	if (40 + plen > len)
		return ROCE_PARSE_TRUNCATED;
	uint8_t next = p[6];
	size_t off = 40, end = 40 + plen;
	for (int hops = 0; next != 17; hops++) {
		if (hops == 8 || off + 8 > end)
			return ROCE_PARSE_OTHER;
		if (next == 0 || next == 43 || next == 60) {
			next = p[off];
			off += ((size_t)p[off + 1] + 1) * 8;
		} else if (next == 44) {
			if ((be16(p + off + 2) & 0xfff8) != 0)
				return ROCE_PARSE_OTHER;
			next = p[off];
			off += 8;
		} else {
			return ROCE_PARSE_OTHER;
		}
	}
	if (off > end)
		return ROCE_PARSE_OTHER;
	out->ipver = 6;
	memcpy(out->src, p + 8, 16);
	memcpy(out->dst, p + 24, 16);
	return parse_udp(p + off, end - off, out);
}

static enum roce_parse parse_l3(uint32_t ethertype, const uint8_t *p, size_t len,
				struct roce_pkt *out)
{
	if (ethertype == 0x0800)
		return parse_ipv4(p, len, out);
	if (ethertype == 0x86dd)
		return parse_ipv6(p, len, out);
	return ROCE_PARSE_OTHER;
}

enum roce_parse roce_parse_frame(const uint8_t *p, size_t len, enum roce_link link,
				 struct roce_pkt *out)
{
	switch (link) {
	case ROCE_LINK_ETHERNET: {
		/* Ethernet II: dst 6, src 6, EtherType; 802.1Q/802.1ad tags are 4 bytes each. */
		size_t off = 12;
		for (int tags = 0;; tags++) {
			if (off + 2 > len)
				return ROCE_PARSE_OTHER;
			uint32_t type = be16(p + off);
			if ((type == 0x8100 || type == 0x88a8) && tags < 2) {
				off += 4;
				continue;
			}
			return parse_l3(type, p + off + 2, len - off - 2, out);
		}
	}
	case ROCE_LINK_RAW_IP:
		if (len < 1)
			return ROCE_PARSE_OTHER;
		return parse_l3(p[0] >> 4 == 6 ? 0x86dd : 0x0800, p, len, out);
	case ROCE_LINK_LINUX_SLL:
		/* Linux cooked capture: 16-byte header, protocol type at offset 14. */
		if (len < 16)
			return ROCE_PARSE_OTHER;
		return parse_l3(be16(p + 14), p + 16, len - 16, out);
	}
	return ROCE_PARSE_OTHER;
}

int roce_opcode_is_rc_request(uint8_t op)
{
	/* RC: SEND 0x00-0x05, RDMA WRITE 0x06-0x0B, RDMA READ request 0x0C, CmpSwap 0x13,
	 * FetchAdd 0x14, SEND last/only with invalidate 0x16/0x17. */
	return op <= 0x0C || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
}

int roce_opcode_has_aeth(uint8_t op)
{
	/* RC READ response first 0x0D, last 0x0F, only 0x10, Acknowledge 0x11, ATOMIC
	 * Acknowledge 0x12 carry an AETH; READ response middle 0x0E does not. */
	return op == 0x0D || op == 0x0F || op == 0x10 || op == 0x11 || op == 0x12;
}

void adp_addr_format(uint8_t ipver, const uint8_t *a, char *buf, size_t len)
{
	if (ipver == 4) {
		snprintf(buf, len, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		return;
	}
	/* RFC 5952: lower-case hex, the longest run (>= 2) of zero groups as "::". */
	int best = -1, bestlen = 1;
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && be16(a + 2 * j) == 0)
			j++;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
		i = j > i ? j : i + 1;
	}
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < 8 && o < len; i++) {
		int w;
		if (i == best) {
			w = snprintf(buf + o, len - o, "::");
			i += bestlen - 1;
		} else {
			bool sep = i > 0 && i != best + bestlen;
			w = snprintf(buf + o, len - o, sep ? ":%x" : "%x", be16(a + 2 * i));
		}
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

static int same_addr(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a, b, 16) == 0;
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

/* Flows by key, so that grouping a capture costs one probe per packet (a linear search of the
 * flows made it quadratic in their number). Open addressing with linear probing in tables sized
 * once from the capture (a power of two at least twice the packets, so never more than half
 * full), FNV-1a over the key bytes: no allocation per packet. Slots hold a flow index + 1.
 *  - by_flow: (dqp, ipver, src, dst) -> the data flow;
 *  - by_addr: (ipver, src, dst) -> the first flow between these addresses, with the number of
 *    flows between them and the last one in pair_n[] / pair_last[] (an acknowledgement B->A
 *    matches every flow A->B). */
struct flow_index {
	uint32_t *by_flow, *by_addr;
	size_t mask;
	uint32_t *pair_n, *pair_last; /* per first flow of an address pair */
};

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t addr_hash(uint8_t ipver, const uint8_t *src, const uint8_t *dst)
{
	uint64_t h = fnv(0xcbf29ce484222325ull, &ipver, 1);
	return fnv(fnv(h, src, 16), dst, 16);
}

static uint64_t flow_hash(uint32_t dqp, uint8_t ipver, const uint8_t *src, const uint8_t *dst)
{
	const uint8_t q[4] = { (uint8_t)(dqp >> 24), (uint8_t)(dqp >> 16), (uint8_t)(dqp >> 8),
			       (uint8_t)dqp };
	return fnv(addr_hash(ipver, src, dst), q, 4);
}

static int index_init(struct flow_index *ix, size_t npkts)
{
	size_t slots = 16;
	while (slots < 2 * npkts + 2)
		slots *= 2;
	ix->mask = slots - 1;
	ix->by_flow = calloc(slots, sizeof *ix->by_flow);
	ix->by_addr = calloc(slots, sizeof *ix->by_addr);
	ix->pair_n = calloc(npkts ? npkts : 1, sizeof *ix->pair_n);
	ix->pair_last = calloc(npkts ? npkts : 1, sizeof *ix->pair_last);
	return ix->by_flow && ix->by_addr && ix->pair_n && ix->pair_last ? 0 : -1;
}

static void index_free(struct flow_index *ix)
{
	free(ix->by_flow);
	free(ix->by_addr);
	free(ix->pair_n);
	free(ix->pair_last);
}

/* The slot of flow (dqp, ipver, src, dst): holding it, or the empty one where it goes. */
static uint32_t *flow_slot(const struct flow_index *ix, const struct adp_flow *flows, uint32_t dqp,
			   uint8_t ipver, const uint8_t *src, const uint8_t *dst)
{
	for (size_t i = flow_hash(dqp, ipver, src, dst) & ix->mask;; i = (i + 1) & ix->mask) {
		uint32_t *s = &ix->by_flow[i];
		if (!*s)
			return s;
		const struct adp_flow *f = &flows[*s - 1];
		if (f->dqp == dqp && f->ipver == ipver && same_addr(f->src, src) &&
		    same_addr(f->dst, dst))
			return s;
	}
}

/* The slot of the address pair (ipver, src, dst), likewise. */
static uint32_t *addr_slot(const struct flow_index *ix, const struct adp_flow *flows,
			   uint8_t ipver, const uint8_t *src, const uint8_t *dst)
{
	for (size_t i = addr_hash(ipver, src, dst) & ix->mask;; i = (i + 1) & ix->mask) {
		uint32_t *s = &ix->by_addr[i];
		if (!*s)
			return s;
		const struct adp_flow *f = &flows[*s - 1];
		if (f->ipver == ipver && same_addr(f->src, src) && same_addr(f->dst, dst))
			return s;
	}
}

int adp_flows_build(const struct roce_pkt *pkts, size_t n, const struct adp_pair *pairs,
		    size_t npairs, struct adp_flowset *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct flow_index ix = { 0 };
	out->flows = calloc(n ? n : 1, sizeof *out->flows);
	out->recs = calloc(n ? n : 1, sizeof *out->recs);
	if (!out->flows || !out->recs || index_init(&ix, n) != 0) {
		index_free(&ix);
		adp_flows_free(out);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Pass 1: the data flows, in order of their first request. */
	for (size_t i = 0; i < n; i++) {
		const struct roce_pkt *k = &pkts[i];
		if (i > 0 && k->t_ns < pkts[i - 1].t_ns) {
			snprintf(err, errlen, "frame %u: timestamp earlier than frame %u's",
				 k->frame, pkts[i - 1].frame);
			index_free(&ix);
			adp_flows_free(out);
			return -1;
		}
		if (!roce_opcode_is_rc_request(k->opcode))
			continue;
		uint32_t *s = flow_slot(&ix, out->flows, k->dqp, k->ipver, k->src, k->dst);
		if (*s)
			continue;
		uint32_t f = (uint32_t)out->nflows++;
		struct adp_flow *nf = &out->flows[f];
		nf->dqp = k->dqp;
		nf->ipver = k->ipver;
		memcpy(nf->src, k->src, 16);
		memcpy(nf->dst, k->dst, 16);
		nf->ack_qp = ~0u;
		*s = f + 1;
		uint32_t *a = addr_slot(&ix, out->flows, k->ipver, k->src, k->dst);
		if (!*a)
			*a = f + 1;
		ix.pair_n[*a - 1]++;
		ix.pair_last[*a - 1] = f;
	}
	/* Pass 2: records in capture order, acknowledgements assigned to their flow. */
	for (size_t i = 0; i < n; i++) {
		const struct roce_pkt *k = &pkts[i];
		struct adp_rec r = { .psn = k->psn, .t_ns = k->t_ns, .frame = k->frame };
		if (roce_opcode_is_rc_request(k->opcode)) {
			uint32_t f =
				*flow_slot(&ix, out->flows, k->dqp, k->ipver, k->src, k->dst) - 1;
			r.flow = f;
			r.kind = ADP_REC_DATA;
			out->flows[f].ndata++;
		} else if (k->has_aeth) {
			/* It travels B->A: the flows A->B, or the one a pair names. */
			const uint32_t none = ~0u;
			uint32_t want = none;
			for (size_t p = 0; p < npairs; p++)
				if (pairs[p].ack_qp == k->dqp)
					want = pairs[p].data_qp;
			size_t found = 0, f = 0;
			if (want != none) {
				uint32_t s =
					*flow_slot(&ix, out->flows, want, k->ipver, k->dst, k->src);
				found = s != 0;
				f = s ? s - 1 : 0;
			} else {
				uint32_t s = *addr_slot(&ix, out->flows, k->ipver, k->dst, k->src);
				found = s ? ix.pair_n[s - 1] : 0;
				f = s ? ix.pair_last[s - 1] : 0;
			}
			if (found == 0) {
				out->ignored_acks++;
				continue;
			}
			if (found > 1) {
				char a[48], b[48];
				adp_addr_format(k->ipver, k->src, a, sizeof a);
				adp_addr_format(k->ipver, k->dst, b, sizeof b);
				snprintf(err, errlen,
					 "frame %u: acknowledgement %s -> %s to QP 0x%06x matches %zu "
					 "request flows; name its flow with --ack-qp DATA_QP:ACK_QP",
					 k->frame, a, b, k->dqp, found);
				index_free(&ix);
				adp_flows_free(out);
				return -1;
			}
			r.flow = (uint32_t)f;
			r.kind = (uint8_t)aeth_kind(k->syndrome);
			out->flows[f].ack_qp = k->dqp;
			out->flows[f].nack++;
		} else {
			continue; /* READ response middle, non-RC transports */
		}
		out->recs[out->nrecs++] = r;
	}
	index_free(&ix);
	return 0;
}

void adp_flows_free(struct adp_flowset *fs)
{
	free(fs->flows);
	free(fs->recs);
	fs->flows = NULL;
	fs->recs = NULL;
	fs->nflows = fs->nrecs = 0;
}
