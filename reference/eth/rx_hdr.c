/* What a received frame's headers make of its CQE (PRM T68 l2_ok .. vid, T4 checksum; §3.3.1,
 * §3.3.7): computed from the frame and its parse (eth/pkt_parse.h), once per copy that reaches
 * a CQE. Decisions D-RX-3, D-RX-9, D-RX-10 (docs/rx.md). Every read is within the frame: the
 * parse only reports headers that lie wholly in it. Computed whatever csum_cap says: the CQE
 * writer (rx_cqe.c) leaves l3_ok, l4_ok and the checksum out on a device without it (D-RX-17). */
#include "eth/csum.h"
#include "eth/pkt_hdr.h"
#include "eth/rx.h"

/* T68 l3_hdr_type by enum pkt_l3, l4_hdr_type of UDP and of TCP by its ACK flag and payload. */
static const uint8_t l3_type[] = { [PKT_L3_NONE] = 0, [PKT_L3_IPV6] = 1, [PKT_L3_IPV4] = 2 };
enum { L4T_NONE = 0, L4T_TCP = 1, L4T_UDP = 2, L4T_TCP_ACK_EMPTY = 3, L4T_TCP_ACK_DATA = 4 };
#define TCP_ACK 0x10u

/* T68 ip_ext_opts: "Supported Ipv6 extensions in the device: Hop By Hop, Routing, Fragment,
 * Destination, Authentication, Mobile" (RFC 8200 §4, RFC 4302, RFC 6275 numbers). */
static const uint8_t ipv6_ext[] = { 0, 43, 44, 60, 51, 135 };

static bool ipv6_has_ext(uint8_t nh)
{
	for (size_t i = 0; i < sizeof ipv6_ext; i++)
		if (ipv6_ext[i] == nh)
			return true;
	return false;
}

unsigned rx_frame_prio(const uint8_t *frame, size_t len)
{
	/* IEEE 802.1Q: the PCP, bits 15:13 of the TCI after any recognised TPID. */
	if (len < RX_TAG_AT + RX_TAG_LEN)
		return 0;
	uint16_t tpid = hdr_get16(frame + RX_TAG_AT);
	if (tpid != HDR_TPID_CTAG && tpid != HDR_TPID_STAG)
		return 0;
	return frame[RX_TAG_AT + 2] >> 5;
}

/* The end of the IP datagram: its length field's when consistent, else the frame's. */
static size_t ip_end(const struct pkt_info *pi, size_t len)
{
	return pi->ip_end ? pi->ip_end : len;
}

/* D-RX-9: l3_ok. IPv4: the header is whole, its length fields are consistent and its
 * checksum verifies (pkt_parse's ip_csum_ok, RFC 791). IPv6 has no header checksum: the header
 * is whole and its payload length consistent. */
static bool l3_ok(const struct pkt_info *pi)
{
	if (pi->l3 == PKT_L3_NONE || pi->ip_end == 0)
		return false;
	return pi->l3 == PKT_L3_IPV6 || pi->ip_csum_ok;
}

/* D-RX-9: l4_ok. A TCP or UDP header in a datagram whose L3 is ok, and its checksum verifies
 * (pkt_parse's l4_csum_ok: not a fragment, no source route (§3.3.1), the pseudo-header, UDP over
 * IPv4 with checksum 0 carrying none (RFC 768); D-PARSE-8). */
static bool l4_ok(const struct pkt_info *pi, bool l3)
{
	return l3 && pi->l4_csum_ok;
}

static uint8_t l4_type(size_t len, const struct pkt_info *pi)
{
	/* D-RX-10: a fragment other than the first, IPv4 or IPv6, carries no L4 header
	 * (pkt_parse's l4_rx, D-PARSE-5). */
	if (pi->l4_rx == PKT_L4_NONE)
		return L4T_NONE;
	if (pi->l4_rx == PKT_L4_UDP)
		return L4T_UDP;
	if (!(pi->tcp_flags & TCP_ACK))
		return L4T_TCP;
	size_t end = ip_end(pi, len), data = pi->l4_off + pi->l4_hdr_len;
	return end > data ? L4T_TCP_ACK_DATA : L4T_TCP_ACK_EMPTY;
}

void rx_hdr_fields(const uint8_t *f, size_t len, const struct pkt_info *pi, struct rx_hdr *h)
{
	*h = (struct rx_hdr){ 0 };
	/* D-RX-9: l2_ok, the Ethernet header and the tags it announces (up to two) are whole. */
	h->l2_ok = pi->l2_complete;
	/* T68 cv: "cVLAN was present in the incoming frame" (D-RX-3: the outermost tag, the one
	 * §3.3.7 strips; the RQ stage clears cv when it keeps the tag, eth/rx_rq.c). */
	if (h->l2_ok && pi->ntags > 0 && pi->tag[0].tpid == RX_CTAG_TPID) {
		h->cv = h->strip_tag = true;
		h->up = pi->tag[0].prio;
		h->cfi = pi->tag[0].cfi;
		h->vid = pi->tag[0].vid;
	}
	h->l3_hdr_type = l3_type[pi->l3];
	if (pi->l3 == PKT_L3_NONE)
		return; /* T4: checksum "invalid" for a non-IP packet: 0 (D-RX-10) */
	h->ip_frag = pi->fragment;
	h->ip_ext_opts = pi->l3 == PKT_L3_IPV4 ? pi->ip_opts
					       : ipv6_has_ext(f[pi->l3_off + HDR_IPV6_NEXT]);
	h->l3_ok = l3_ok(pi);
	h->l4_ok = l4_ok(pi, h->l3_ok);
	h->l4_hdr_type = l4_type(len, pi);
	/* T4, §3.3.1 "1's complement 16-bit sum": over the IP header and payload, to the
	 * datagram's end (L2 padding excluded), folded and not complemented (D-RX-10). */
	size_t end = ip_end(pi, len);
	uint64_t s;
	/* The L4 bytes to the datagram's end were summed by pkt_parse's L4 check: the IP headers
	 * (an even length, so the 16-bit words line up) plus that sum is congruent modulo 0xFFFF
	 * and zero exactly when every byte is, so it folds to the same checksum. An IPv4
	 * header's sum is the parse's too (ip_hdr_sum: the bytes l3_off .. l4_off). */
	if (pi->l4_sum_end == end && end > pi->l4_off && pi->l4_off >= pi->l3_off &&
	    (pi->l4_off - pi->l3_off) % 2 == 0)
		s = (pi->l3 == PKT_L3_IPV4 ? pi->ip_hdr_sum
					   : csum_add(0, f + pi->l3_off, pi->l4_off - pi->l3_off)) +
		    pi->l4_sum;
	else
		s = csum_add(0, f + pi->l3_off, end - pi->l3_off);
	h->checksum = (uint16_t)~csum_fold(s);
}
