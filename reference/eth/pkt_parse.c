/* The data path's packet parser (eth/pkt_parse.h): Ethernet II with up to two 802.1Q/802.1ad
 * tags, LLC/SNAP, IPv4 with options, IPv6 with extension headers, TCP, UDP, the IPsec SPI and the
 * checksums' validity. Each step checks that the bytes it reads lie within the length given
 * before it reads them. */
#include "eth/pkt_parse.h"

#include <string.h>

#include "core/memzero.h"
#include "eth/csum.h"
#include "eth/pkt_hdr.h"

/* The tag TPIDs a tag is recognised by, in any position (D-TXO-6). */
static const uint16_t tag_tpids[] = { HDR_TPID_CTAG, HDR_TPID_STAG };

/* How the length of an IPv6 extension header is written (RFC 8200 §4, RFC 4302 §2.2). */
enum ext_form {
	EXT_LEN8,  /* Hdr Ext Len: 8-byte units, not counting the first 8 */
	EXT_FIXED, /* 8 bytes: the fragment header */
	EXT_AH,    /* Payload Len: 4-byte units, minus 2 */
};

/* The IPv6 extension headers the parser walks (D-TXO-6). A next header not here ends the chain:
 * TCP and UDP are the L4 headers, anything else (ESP, No Next Header, ICMPv6, ...) leaves no L4
 * header the offloads know. */
static const struct ext_kind {
	uint8_t nh;
	uint8_t form;      /* enum ext_form */
	bool routing;      /* PRM §3.3.1: no L4 checksum with a routing header */
	bool fragment;     /* the fragment header: a fragment unless offset and M are 0 */
} ext_kinds[] = {
	{ 0, EXT_LEN8, false, false },    /* Hop-by-Hop Options, RFC 8200 §4.3 */
	{ 43, EXT_LEN8, true, false },    /* Routing, RFC 8200 §4.4 */
	{ 44, EXT_FIXED, false, true },   /* Fragment, RFC 8200 §4.5 */
	{ 51, EXT_AH, false, false },     /* Authentication Header, RFC 4302 */
	{ 60, EXT_LEN8, false, false },   /* Destination Options, RFC 8200 §4.6 */
	{ 135, EXT_LEN8, false, false },  /* Mobility, RFC 6275 */
	{ 139, EXT_LEN8, false, false },  /* Host Identity Protocol, RFC 7401 */
	{ 140, EXT_LEN8, false, false },  /* Shim6, RFC 5533 */
};

/* The L4 headers: their protocol number and least length. */
static const struct l4_kind {
	uint8_t proto;
	uint8_t kind; /* enum pkt_l4 */
	uint8_t min_len;
} l4_kinds[] = {
	{ HDR_PROTO_TCP, PKT_L4_TCP, HDR_TCP_MIN_LEN },
	{ HDR_PROTO_UDP, PKT_L4_UDP, HDR_UDP_LEN },
};

/* The IPv4 options that make the L4 checksum unsupported (PRM §3.3.1). */
static const uint8_t src_route_opts[] = { HDR_IPV4_OPT_LSRR, HDR_IPV4_OPT_SSRR };

/* n bytes at off lie within len (written so that no sum can wrap). */
static bool has(size_t len, size_t off, size_t n)
{
	return off <= len && n <= len - off;
}

static bool is_tag(uint16_t type)
{
	for (size_t i = 0; i < sizeof(tag_tpids) / sizeof(tag_tpids[0]); i++)
		if (type == tag_tpids[i])
			return true;
	return false;
}

/* The IPv4 options (RFC 791 §3.1) in opt[0..n): true when a source route is among them, or
 * when the list cannot be walked (a length byte missing, below 2 or past the header): the
 * device could not then tell that no source route is there (D-TXO-2). */
static bool ipv4_src_route(const uint8_t *opt, size_t n)
{
	size_t o = 0;
	while (o < n && opt[o] != HDR_IPV4_OPT_EOL) {
		if (opt[o] == HDR_IPV4_OPT_NOP) {
			o++;
			continue;
		}
		if (n - o < 2 || opt[o + 1] < 2 || opt[o + 1] > n - o)
			return true;
		for (size_t i = 0; i < sizeof(src_route_opts); i++)
			if (opt[o] == src_route_opts[i])
				return true;
		o += opt[o + 1];
	}
	return false;
}

/* IPv4 at pi->l3_off: a complete header of version 4 and IHL >= 5 (RFC 791). */
static bool parse_ipv4(const uint8_t *p, size_t len, struct pkt_info *pi)
{
	size_t at = pi->l3_off;
	if (!has(len, at, HDR_IPV4_MIN_LEN) || p[at + HDR_IPV4_VER_IHL] >> 4 != 4)
		return false;
	size_t hl = (size_t)(p[at + HDR_IPV4_VER_IHL] & 0xF) * 4;
	if (hl < HDR_IPV4_MIN_LEN || !has(len, at, hl))
		return false;
	pi->l3 = PKT_L3_IPV4;
	pi->ip_proto = p[at + HDR_IPV4_PROTO];
	pi->l4_off = at + hl;
	pi->src_route = ipv4_src_route(p + at + HDR_IPV4_MIN_LEN, hl - HDR_IPV4_MIN_LEN);
	uint16_t frag = hdr_get16(p + at + HDR_IPV4_FRAG);
	pi->fragment = (frag & HDR_IPV4_FRAG_MASK) != 0;
	size_t tot = hdr_get16(p + at + HDR_IPV4_TOT_LEN);
	if (tot >= hl && has(len, at, tot))
		pi->ip_end = at + tot;
	pi->l3_complete = true;
	pi->tos = p[at + HDR_IPV4_TOS];
	pi->ttl = p[at + HDR_IPV4_TTL];
	pi->ip_len = (uint16_t)tot;
	pi->frag_off = frag & HDR_IPV4_OFF_MASK;
	pi->more_frags = (frag & HDR_IPV4_MF) != 0;
	pi->ip_opts = hl > HDR_IPV4_MIN_LEN;
	/* RFC 1071: the header with its checksum sums to 0xFFFF, whose fold complements to 0. */
	pi->ip_hdr_sum = csum_add(0, p + at, hl);
	pi->ip_csum_ok = csum_fold(pi->ip_hdr_sum) == 0;
	return true;
}

static const struct ext_kind *ext_kind(uint8_t nh)
{
	if (nh == HDR_PROTO_TCP || nh == HDR_PROTO_UDP)
		return NULL; /* the usual end of the chain, none of the table's */
	for (size_t i = 0; i < sizeof(ext_kinds) / sizeof(ext_kinds[0]); i++)
		if (ext_kinds[i].nh == nh)
			return &ext_kinds[i];
	return NULL;
}

/* IPv6 at pi->l3_off (RFC 8200): the fixed header, then the extension headers of ext_kinds as
 * long as each is complete. Returns false when the fixed header is not there; a truncated
 * chain leaves l4_off at 0 (no L4 header). */
static bool parse_ipv6(const uint8_t *p, size_t len, struct pkt_info *pi)
{
	size_t at = pi->l3_off;
	if (!has(len, at, HDR_IPV6_LEN) || p[at] >> 4 != 6)
		return false;
	pi->l3 = PKT_L3_IPV6;
	pi->tos = (uint8_t)(hdr_get16(p + at) >> 4);
	pi->ttl = p[at + HDR_IPV6_HLIM];
	pi->ip_len = hdr_get16(p + at + HDR_IPV6_PLEN);
	uint8_t nh = p[at + HDR_IPV6_NEXT];
	size_t off = at + HDR_IPV6_LEN;
	const struct ext_kind *k;
	/* Every extension header is at least 8 bytes, so the walk ends within len / 8 steps. */
	while ((k = ext_kind(nh)) != NULL) {
		pi->ipv6_ext = true;
		if (!has(len, off, 8))
			return true;
		size_t hl = k->form == EXT_FIXED ? 8
			    : k->form == EXT_AH  ? ((size_t)p[off + 1] + 2) * 4
						 : ((size_t)p[off + 1] + 1) * 8;
		if (!has(len, off, hl))
			return true;
		pi->src_route |= k->routing;
		if (k->fragment &&
		    (hdr_get16(p + off + HDR_IPV6_FRAG_OFF) & HDR_IPV6_FRAG_MASK) != 0)
			pi->fragment = true;
		if (k->fragment && !pi->ipv6_frag_hdr) {
			/* The first fragment header is the one the offset and M are read from. */
			uint16_t fo = hdr_get16(p + off + HDR_IPV6_FRAG_OFF);
			pi->ipv6_frag_hdr = true;
			pi->frag_off = fo >> 3;
			pi->more_frags = (fo & HDR_IPV6_FRAG_M) != 0;
		}
		if (nh == HDR_PROTO_AH && !pi->has_spi) {
			pi->has_spi = true;
			pi->spi = hdr_get32(p + off + HDR_AH_SPI);
		}
		/* The offset alone: a first fragment (offset 0, M 1) carries the rest of the
		 * headers, the upper layer's included (RFC 8200 §4.5), so its walk goes on. */
		bool later_fragment = k->fragment && (hdr_get16(p + off + HDR_IPV6_FRAG_OFF) &
						      HDR_IPV6_FRAG_OFF_MASK) != 0;
		nh = p[off];
		off += hl;
		/* RFC 8200 §4.5: behind the Fragment header of a fragment other than the first is
		 * fragment data, not the headers its next header names (D-PARSE-5): the walk stops,
		 * ip_proto is that next header. */
		if (later_fragment)
			break;
	}
	pi->ip_proto = nh;
	pi->l4_off = off;
	pi->l3_complete = true;
	size_t end = at + HDR_IPV6_LEN + hdr_get16(p + at + HDR_IPV6_PLEN);
	if (end >= off && end <= len)
		pi->ip_end = end;
	return true;
}

/* TCP or UDP at pi->l4_off: a complete header (TCP: data offset >= 5 and all of it there). */
static void parse_l4(const uint8_t *p, size_t len, struct pkt_info *pi)
{
	const struct l4_kind *k = NULL;
	for (size_t i = 0; i < sizeof(l4_kinds) / sizeof(l4_kinds[0]); i++)
		if (l4_kinds[i].proto == pi->ip_proto)
			k = &l4_kinds[i];
	if (!k || !has(len, pi->l4_off, k->min_len))
		return;
	size_t hl = k->min_len;
	if (k->kind == PKT_L4_TCP)
		hl = (size_t)(p[pi->l4_off + HDR_TCP_DOFF] >> 4) * 4;
	if (hl < k->min_len || !has(len, pi->l4_off, hl))
		return;
	pi->l4 = k->kind;
	pi->l4_hdr_len = hl;
}

/* The TCP options (RFC 9293 §3.2) of the complete header at pi->l4_off: a Timestamps option
 * (RFC 7323 §3: kind 8, length 10) is noted, anything else but EOL and NOP, a second Timestamps
 * or a list that cannot be walked sets tcp_opt_other. */
static void parse_tcp_opts(const uint8_t *p, struct pkt_info *pi)
{
	size_t at = pi->l4_off + HDR_TCP_MIN_LEN, n = pi->l4_hdr_len - HDR_TCP_MIN_LEN, o = 0;
	while (o < n && p[at + o] != HDR_TCP_OPT_EOL) {
		if (p[at + o] == HDR_TCP_OPT_NOP) {
			o++;
			continue;
		}
		if (n - o < 2 || p[at + o + 1] < 2 || p[at + o + 1] > n - o) {
			pi->tcp_opt_other = true;
			return;
		}
		if (p[at + o] == HDR_TCP_OPT_TS && p[at + o + 1] == HDR_TCP_OPT_TS_LEN &&
		    pi->tcp_ts_off == 0)
			pi->tcp_ts_off = at + o + 2;
		else
			pi->tcp_opt_other = true;
		o += p[at + o + 1];
	}
}

/* The receive path's view of the L4 header (D-PARSE-5): none in a fragment other than the
 * first; the ports, the TCP flags and options, the UDP length. */
static void parse_l4_rx(const uint8_t *p, struct pkt_info *pi)
{
	if (pi->l4 == PKT_L4_NONE || pi->frag_off != 0)
		return;
	const uint8_t *h = p + pi->l4_off;
	pi->l4_rx = pi->l4;
	pi->sport = hdr_get16(h + HDR_L4_SPORT);
	pi->dport = hdr_get16(h + HDR_L4_DPORT);
	if (pi->l4 == PKT_L4_UDP) {
		pi->udp_len = hdr_get16(h + HDR_UDP_LENGTH);
		return;
	}
	pi->tcp_flags = (uint16_t)((h[HDR_TCP_DOFF] & 1u) << 8 | h[HDR_TCP_FLAGS]);
	pi->tcp_opts = pi->l4_hdr_len > HDR_TCP_MIN_LEN;
	parse_tcp_opts(p, pi);
}

/* Where each L3 header keeps its source and destination addresses (adjacent, source first),
 * by enum pkt_l3: the pseudo-header's addresses. */
static const struct { uint8_t at, len; } rx_pseudo_addrs[] = {
	[PKT_L3_IPV4] = { HDR_IPV4_SRC, 2 * HDR_IPV4_ADDR_LEN },
	[PKT_L3_IPV6] = { HDR_IPV6_SRC, 2 * HDR_IPV6_ADDR_LEN },
};

/* Whether the TCP/UDP checksum verifies (D-PARSE-8). The L4 length is what the IP length leaves
 * after the IP headers; UDP's own length must lie within it (RFC 768) and is what is summed. */
static bool l4_csum_ok(const uint8_t *p, struct pkt_info *pi)
{
	if (pi->l4_rx == PKT_L4_NONE || pi->fragment || pi->src_route || pi->ip_end == 0 ||
	    pi->ip_end - pi->l4_off < pi->l4_hdr_len)
		return false;
	size_t n = pi->ip_end - pi->l4_off;
	if (pi->l4_rx == PKT_L4_UDP) {
		if (pi->udp_len < HDR_UDP_LEN || pi->udp_len > n)
			return false;
		n = pi->udp_len;
		if (hdr_get16(p + pi->l4_off + HDR_UDP_CSUM) == 0)
			return pi->l3 == PKT_L3_IPV4; /* "no checksum": IPv4 only (RFC 8200 §8.1) */
	}
	uint64_t sum = csum_add(0, p + pi->l3_off + rx_pseudo_addrs[pi->l3].at,
				rx_pseudo_addrs[pi->l3].len);
	sum += pi->ip_proto + (uint64_t)(n >> 16) + (n & 0xFFFF);
	/* csum_add(sum, ...) is sum + csum_add(0, ...): the same value, the L4 part kept */
	pi->l4_sum = csum_add(0, p + pi->l4_off, n);
	pi->l4_sum_end = pi->l4_off + n;
	return csum_fold(sum + pi->l4_sum) == 0;
}

/* IPsec: the SPI of an ESP header, or of an IPv4 AH (IPv6 AH is an extension header, read in the
 * chain), at the end of the L3 headers (D-PARSE-7). An IPv4 AH ends the parse: no L4 header is
 * looked for behind it (D-PARSE-10; the other reading walks it as IPv6 does). */
static void parse_spi(const uint8_t *p, size_t len, struct pkt_info *pi)
{
	static const struct { uint8_t proto, at; } spi_at[] = {
		{ HDR_PROTO_ESP, HDR_ESP_SPI },
		{ HDR_PROTO_AH, HDR_AH_SPI },
	};
	if (pi->frag_off != 0) {
		pi->has_spi = false; /* payload, not a header */
		pi->spi = 0;
		return;
	}
	for (size_t i = 0; i < sizeof(spi_at) / sizeof(spi_at[0]) && !pi->has_spi; i++)
		if (pi->l4_off && pi->ip_proto == spi_at[i].proto &&
		    has(len, pi->l4_off + spi_at[i].at, HDR_SPI_LEN)) {
			pi->has_spi = true;
			pi->spi = hdr_get32(p + pi->l4_off + spi_at[i].at);
		}
}

/* The L3 headers, by the EtherType after the tags. */
static const struct l3_kind {
	uint16_t ethertype;
	bool (*parse)(const uint8_t *p, size_t len, struct pkt_info *pi);
} l3_kinds[] = {
	{ HDR_ETHERTYPE_IPV4, parse_ipv4 },
	{ HDR_ETHERTYPE_IPV6, parse_ipv6 },
};

/* An 802.3 length where the EtherType would be: LLC, and SNAP behind AA-AA-03 (RFC 1042), whose
 * EtherType is the frame's last (D-PARSE-2). IP is not looked for behind it (D-TX-12). */
static void parse_llc(const uint8_t *p, size_t len, struct pkt_info *pi)
{
	size_t at = pi->l3_off;
	pi->llc = true;
	pi->ethertype = 0;
	if (has(len, at, HDR_LLC_LEN + HDR_SNAP_LEN) && p[at] == HDR_LLC_SAP_SNAP &&
	    p[at + 1] == HDR_LLC_SAP_SNAP && p[at + 2] == HDR_LLC_CTRL_UI) {
		pi->llc_snap = true;
		pi->ethertype = hdr_get16(p + at + HDR_LLC_LEN + HDR_SNAP_TYPE);
	}
}

void pkt_parse(const uint8_t *p, size_t len, struct pkt_info *pi)
{
	memzero_small(pi, sizeof(*pi)); /* not `rep stos` (core/memzero.h) */
	if (!has(len, 0, HDR_ETH_LEN))
		return;
	size_t type_at = HDR_ETH_TYPE;
	uint16_t type = hdr_get16(p + type_at);
	while (is_tag(type) && pi->ntags < PKT_MAX_TAGS) {
		type_at += HDR_TAG_LEN;
		if (!has(len, type_at, 2))
			return;
		/* IEEE 802.1Q clause 9.6: TPID, then the TCI, then the next EtherType. */
		uint16_t tci = hdr_get16(p + type_at - HDR_TAG_LEN + HDR_TAG_TCI);
		pi->tag[pi->ntags] = (struct pkt_tag){ .tpid = type,
						       .prio = (uint8_t)(tci >> 13),
						       .cfi = (uint8_t)(tci >> 12 & 1),
						       .vid = tci & 0xFFF };
		type = hdr_get16(p + type_at);
		pi->ntags++;
	}
	pi->l2_complete = true;
	pi->ethertype = type;
	pi->l3_off = type_at + 2;
	if (type < HDR_ETHERTYPE_MIN) {
		parse_llc(p, len, pi);
		return;
	}
	for (size_t i = 0; i < sizeof(l3_kinds) / sizeof(l3_kinds[0]); i++)
		if (type == l3_kinds[i].ethertype && l3_kinds[i].parse(p, len, pi)) {
			if (pi->l4_off)
				parse_l4(p, len, pi);
			parse_l4_rx(p, pi);
			parse_spi(p, len, pi);
			pi->l4_csum_ok = l4_csum_ok(p, pi);
		}
}
