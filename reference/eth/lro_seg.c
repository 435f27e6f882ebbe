/* What a TCP segment is to LRO (eth/lro.h): its LRO Flow ID (PRM §3.3.6.1, D-LRO-1), the fields
 * a merge compares and accumulates (§3.3.6.4, T5), and the first condition of session creation
 * (§3.3.6.2) it fails, in the order D-LRO-8 lists (not the cause table's: no_resources is
 * listed fourth there, and checked last, by lro_rx.c). The same
 * conditions end an open session (§3.3.6.3); no_resources is lro_rx.c's (it only concerns an
 * open). Every read is inside the frame: the parse reports only whole headers. */
#include <string.h>

#include "eth/csum.h"
#include "eth/lro.h"
#include "eth/pkt_hdr.h"

enum {
	TCP_FIN = 0x01, TCP_PSH = 0x08, TCP_CWR = 0x80,
	TCP_RESERVED = 0x0E, /* byte 12 bits 3:1 (RFC 9293 §3.1; bit 0 is NS, RFC 3540) */
	TCP_SEQ = 4, TCP_ACKN = 8, TCP_WIN = 14, TCP_DOFF_BYTE = 12,
	IP_ECN = 0x03,
};

/* What the eligibility conditions read. */
struct lro_ctx {
	struct nicref_dev *dev;
	const struct tir *t;
	const struct pkt_info *pi;
	const uint8_t *f;
	const struct lro_seg *g;
};

#define ETH_CAP(c, n) CAPS_CUR((c)->dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps, n)

/* §3.3.6.2 "LRO is enabled when creating TIR context by setting lro_enable_mask": T45 bit 0
 * IPv4, bit 1 IPv6. */
static bool not_enabled(const struct lro_ctx *c)
{
	return !(c->t->lro_enable_mask & (c->g->ipv6 ? 2u : 1u));
}

/* T45 10h: below the smallest supported period "LRO will not work in this TIR" (D-TIR-4); an
 * lro_max_msg_sz of 0 leaves no room for any payload (D-LRO-6). */
static bool inactive(const struct lro_ctx *c)
{
	return c->t->lro_timeout_eff == 0 || c->t->lro_max_msg_sz == 0;
}

/* §3.3.6.2 "No LLC/SNAP" (the parser finds no IP behind SNAP, so a TCP segment never is). */
static bool llc_snap(const struct lro_ctx *c)
{
	return c->pi->llc_snap;
}

/* §3.3.6.2 "Packet validation is OK, e.g. packet is not malformed, TCP/IP checksum is OK": the
 * datagram's length fits the frame and covers the TCP header, the IPv4 header checksum
 * verifies, and the TCP checksum verifies where it can be checked (not in a fragment, nor
 * behind a source route: the conditions after this one report those). */
static bool invalid(const struct lro_ctx *c)
{
	const struct pkt_info *pi = c->pi;
	if (pi->ip_end == 0 || pi->ip_end < pi->l4_off + pi->l4_hdr_len)
		return true;
	if (pi->l3 == PKT_L3_IPV4 && !pi->ip_csum_ok)
		return true;
	return csum_l4_applies(pi) && !pi->l4_csum_ok;
}

/* §3.3.6.2 "TCP flags are clear: SYN, URG, RST, FIN, NS and Reserved flags". */
static bool tcp_flags(const struct lro_ctx *c)
{
	uint16_t bad = TCP_FIN | HDR_TCP_SYN | HDR_TCP_RST | HDR_TCP_URG | HDR_TCP_NS;
	return (c->pi->tcp_flags & bad) || (c->g->tcp[TCP_DOFF_BYTE] & TCP_RESERVED);
}

/* §3.3.6.2 "When HCA_CAP.lro_psh_flag is disabled, PSH flag should also be clear". */
static bool psh(const struct lro_ctx *c)
{
	return c->g->psh && !ETH_CAP(c, lro_psh_flag);
}

/* §3.3.6.2 "No TCP options other than timestamp" (D-LRO-2: NOP beside it, EOL ends the list). */
static bool tcp_options(const struct lro_ctx *c)
{
	return c->pi->tcp_opt_other;
}

/* §3.3.6.2 "When HCA_CAP.lro_time_stamp is disabled, TCP timestamp option must not appear". */
static bool timestamp_off(const struct lro_ctx *c)
{
	return c->g->ts && !ETH_CAP(c, lro_time_stamp);
}

/* §3.3.6.2 "No IPv4 options or IPv6 extension headers". */
static bool ip_options(const struct lro_ctx *c)
{
	return c->g->ipv6 ? c->pi->ipv6_ext : c->pi->ip_opts;
}

/* §3.3.6.2 "The packet is not an IP fragment". */
static bool fragment(const struct lro_ctx *c)
{
	return c->pi->fragment;
}

/* §3.3.6.2 "Segment TCP payload size is >= HCA_CAP.lro_min_mss_size" (> 0: a pure ACK never
 * opens a session). */
static bool small(const struct lro_ctx *c)
{
	return c->g->payload_len < ETH_CAP(c, lro_min_mss_size);
}

/* The conditions in the cause table's order (D-LRO-8). */
static const struct {
	enum nicref_lro_cause cause;
	bool (*fails)(const struct lro_ctx *c);
} conditions[] = {
	{ NICREF_LRO_NOT_ENABLED, not_enabled }, { NICREF_LRO_INACTIVE, inactive },
	{ NICREF_LRO_LLC_SNAP, llc_snap },	 { NICREF_LRO_INVALID, invalid },
	{ NICREF_LRO_TCP_FLAGS, tcp_flags },	 { NICREF_LRO_PSH, psh },
	{ NICREF_LRO_TCP_OPTIONS, tcp_options }, { NICREF_LRO_TIMESTAMP_OFF, timestamp_off },
	{ NICREF_LRO_IP_OPTIONS, ip_options },	 { NICREF_LRO_FRAGMENT, fragment },
	{ NICREF_LRO_SMALL, small },
};

uint16_t lro_sum16(uint64_t sum)
{
	return (uint16_t)~csum_fold(sum); /* csum_fold complements: undo it */
}

/* The flow id (D-LRO-1) and the IP fields a merge compares (§3.3.6.4). */
static void ip_fields(const uint8_t *f, const struct pkt_info *pi, struct lro_seg *g)
{
	const uint8_t *ip = f + pi->l3_off;
	g->ttl = pi->ttl;
	if (g->ipv6) {
		memcpy(g->key.src, ip + 8, 16);
		memcpy(g->key.dst, ip + 24, 16);
		memcpy(g->ip_cmp, ip, 40);
		g->ecn_ip = (ip[1] >> 4) & IP_ECN; /* traffic class bits 1:0 */
		g->ip_cmp[1] &= 0xCF;
		memset(g->ip_cmp + 4, 0, 2); /* payload length */
		g->ip_cmp[7] = 0;	     /* hop limit */
		return;
	}
	memcpy(g->key.src, ip + 12, 4);
	memcpy(g->key.dst, ip + 16, 4);
	memcpy(g->ip_cmp, ip, 20); /* no options: an IPv4 header with them is never merged */
	g->ecn_ip = ip[1] & IP_ECN;
	g->ip_cmp[1] &= (uint8_t)~IP_ECN;
	memset(g->ip_cmp + 2, 0, 4); /* total length, identification */
	g->ip_cmp[8] = 0;	     /* TTL */
	memset(g->ip_cmp + 10, 0, 2); /* header checksum */
}

bool lro_classify(struct nicref_dev *dev, const struct tir *t, uint32_t rqn,
		  const struct rx_pkt *p, struct lro_seg *g)
{
	const struct pkt_info *pi = p->pi;
	/* D-LRO-9: TCP over IPv4/IPv6 with its whole header (a fragment other than the first has
	 * none: received as always). */
	if (pi->l3 == PKT_L3_NONE || pi->l4_rx != PKT_L4_TCP)
		return false;
	memset(g, 0, sizeof *g);
	const uint8_t *f = p->frame;
	g->ipv6 = pi->l3 == PKT_L3_IPV6;
	g->key.tirn = t->hdr.handle;
	g->key.rqn = rqn;
	g->key.ntags = pi->ntags;
	g->key.ipv6 = g->ipv6;
	g->key.sport = pi->sport;
	g->key.dport = pi->dport;
	for (unsigned i = 0; i < pi->ntags && i < 2; i++)
		g->key.vid[i] = pi->tag[i].vid;
	ip_fields(f, pi, g);
	g->tcp = f + pi->l4_off;
	g->tcp_len = pi->l4_hdr_len;
	g->ip_end = pi->ip_end;
	size_t data = pi->l4_off + pi->l4_hdr_len;
	if (pi->ip_end > data) {
		g->payload = f + data;
		g->payload_len = pi->ip_end - data;
	}
	g->seq = hdr_get32(g->tcp + TCP_SEQ);
	g->ack = hdr_get32(g->tcp + TCP_ACKN);
	g->win = hdr_get16(g->tcp + TCP_WIN);
	g->psh = pi->tcp_flags & TCP_PSH;
	g->ack_flag = pi->tcp_flags & HDR_TCP_ACK;
	g->ecn_tcp = (uint8_t)(pi->tcp_flags & (HDR_TCP_ECE | TCP_CWR));
	if (pi->tcp_ts_off) {
		/* RFC 7323 §3: TSval then TSecr, 4 bytes each. */
		g->ts = true;
		g->tsval = hdr_get32(f + pi->tcp_ts_off);
		g->tsecr = hdr_get32(f + pi->tcp_ts_off + 4);
	}
	struct lro_ctx c = { .dev = dev, .t = t, .pi = pi, .f = f, .g = g };
	for (size_t i = 0; i < sizeof conditions / sizeof conditions[0]; i++)
		if (conditions[i].fails(&c)) {
			g->cause = conditions[i].cause;
			break;
		}
	return true;
}
