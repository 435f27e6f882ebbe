/* The send offloads' packet parser (eth/pkt_parse.h): Ethernet II with up to two 802.1Q/802.1ad
 * tags, IPv4 with options, IPv6 with extension headers, TCP, UDP. Each step checks that the
 * bytes it reads lie within the length given before it reads them. */
#include "eth/pkt_parse.h"

#include <string.h>

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
	pi->fragment = (hdr_get16(p + at + HDR_IPV4_FRAG) & HDR_IPV4_FRAG_MASK) != 0;
	size_t tot = hdr_get16(p + at + HDR_IPV4_TOT_LEN);
	if (tot >= hl && has(len, at, tot))
		pi->ip_end = at + tot;
	return true;
}

static const struct ext_kind *ext_kind(uint8_t nh)
{
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
	uint8_t nh = p[at + HDR_IPV6_NEXT];
	size_t off = at + HDR_IPV6_LEN;
	const struct ext_kind *k;
	/* Every extension header is at least 8 bytes, so the walk ends within len / 8 steps. */
	while ((k = ext_kind(nh)) != NULL) {
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
		nh = p[off];
		off += hl;
	}
	pi->ip_proto = nh;
	pi->l4_off = off;
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

/* The L3 headers, by the EtherType after the tags. */
static const struct l3_kind {
	uint16_t ethertype;
	bool (*parse)(const uint8_t *p, size_t len, struct pkt_info *pi);
} l3_kinds[] = {
	{ HDR_ETHERTYPE_IPV4, parse_ipv4 },
	{ HDR_ETHERTYPE_IPV6, parse_ipv6 },
};

void pkt_parse(const uint8_t *p, size_t len, struct pkt_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	if (!has(len, 0, HDR_ETH_LEN))
		return;
	size_t type_at = HDR_ETH_TYPE;
	uint16_t type = hdr_get16(p + type_at);
	while (is_tag(type) && pi->ntags < PKT_MAX_TAGS) {
		type_at += HDR_TAG_LEN;
		if (!has(len, type_at, 2))
			return;
		type = hdr_get16(p + type_at);
		pi->ntags++;
	}
	pi->l3_off = type_at + 2;
	for (size_t i = 0; i < sizeof(l3_kinds) / sizeof(l3_kinds[0]); i++)
		if (type == l3_kinds[i].ethertype && l3_kinds[i].parse(p, len, pi) && pi->l4_off)
			parse_l4(p, len, pi);
}
