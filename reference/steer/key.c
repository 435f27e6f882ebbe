/* The match key of a frame: fte_match_param (PRM §12.14.6 T407-T416) as the packet fills it,
 * through the layout (prm/layouts_steer.h). What the frame does not have reads 0 (D-FT-5):
 * VLAN fields without a tag, IP fields without a complete IP header, ports without a complete
 * TCP/UDP header. The parse is eth/pkt_parse's (one parser for every stage). */
#include <string.h>

#include "core/memzero.h"
#include "eth/pkt_hdr.h"
#include "prm/layouts.h"
#include "steer/steer.h"

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A field of the key (PRM_SET: its offset and width known when compiling). */
#define PUT(key, n, v) PRM_SET(fte_match_param, n, key, STEER_KEY_LEN, v)

/* VLAN tag i (0 first, 1 second) of the frame: T410 0Ch/10h for the first, T416 08h/0Ch for
 * the second. cvlan 0x8100, svlan 0x88A8 (T410 writes "0x8a88": D-FT-10). */
static void put_tag(uint8_t *key, const struct pkt_tag *t, unsigned i)
{
	bool c = t->tpid == HDR_TPID_CTAG, s = t->tpid == HDR_TPID_STAG;
	if (i == 0) {
		PUT(key, outer_cvlan_tag, c);
		PUT(key, outer_svlan_tag, s);
		PUT(key, outer_first_prio, t->prio);
		PUT(key, outer_first_cfi, t->cfi);
		PUT(key, outer_first_vid, t->vid);
	} else {
		PUT(key, outer_second_cvlan_tag, c);
		PUT(key, outer_second_svlan_tag, s);
		PUT(key, outer_second_prio, t->prio);
		PUT(key, outer_second_cfi, t->cfi);
		PUT(key, outer_second_vid, t->vid);
	}
}

/* The 128-bit address fields are whole bytes: their bytes go in at their offsets (the key
 * starts zeroed, so an IPv4 address's leading 12 bytes stay 0). */
#define KEY_BYTE(n) (PRMB_fte_match_param__##n / 8)
_Static_assert(PRMB_fte_match_param__outer_src_ip % 8 == 0 &&
		       PRMW_fte_match_param__outer_src_ip == 128 &&
		       PRMB_fte_match_param__outer_dst_ip % 8 == 0 &&
		       PRMW_fte_match_param__outer_dst_ip == 128 &&
		       KEY_BYTE(outer_src_ip) + 16 <= STEER_KEY_LEN &&
		       KEY_BYTE(outer_dst_ip) + 16 <= STEER_KEY_LEN,
	       "the address fields are 16 whole bytes of the key");

static void put_ip(uint8_t *key, const uint8_t *p, const struct pkt_info *pi)
{
	const uint8_t *ip = p + pi->l3_off;
	if (pi->l3 == PKT_L3_IPV4) { /* RFC 791: addresses at 12 and 16; T413 in the last dword */
		memcpy(key + KEY_BYTE(outer_src_ip) + 12, ip + 12, 4);
		memcpy(key + KEY_BYTE(outer_dst_ip) + 12, ip + 16, 4);
	} else { /* RFC 8200: flow label 20 bits; addresses at 8 and 24 */
		PUT(key, outer_ipv6_flow_label, be32(ip) & 0xFFFFF);
		memcpy(key + KEY_BYTE(outer_src_ip), ip + 8, 16);
		memcpy(key + KEY_BYTE(outer_dst_ip), ip + 24, 16);
	}
	/* TOS / traffic class: DSCP 7:2, ECN 1:0 (RFC 2474, RFC 3168). */
	PUT(key, outer_ip_dscp, pi->tos >> 2);
	PUT(key, outer_ip_ecn, pi->tos & 3);
	/* IPv4 protocol / the IPv6 next header that ends the extension chain (D-FT-3). */
	PUT(key, outer_ip_protocol, pi->ip_proto);
	PUT(key, outer_frag, pi->fragment);
}

void steer_key_build(const uint8_t *frame, size_t len, const struct pkt_info *pi,
		     uint8_t key[STEER_KEY_LEN])
{
	memzero_small(key, STEER_KEY_LEN); /* not `rep stos` (core/memzero.h) */
	if (len < HDR_ETH_LEN)
		return; /* no Ethernet header: nothing to match but zeros */
	/* T410 00h-0Ch: the addresses' bytes in the order of the frame. */
	PUT(key, outer_dmac_47_16, be32(frame));
	PUT(key, outer_dmac_15_0, be16(frame + 4));
	PUT(key, outer_smac_47_16, be32(frame + 6));
	PUT(key, outer_smac_15_0, be16(frame + 10));
	for (unsigned i = 0; i < pi->ntags && i < PKT_MAX_TAGS; i++)
		put_tag(key, &pi->tag[i], i);
	/* "the Ethertype following the last VLAN tag"; an LLC/SNAP frame's SNAP type, an 802.3
	 * length without SNAP 0 (D-PARSE-2). */
	PUT(key, outer_ethertype, pi->ethertype);
	if (pi->l3 != PKT_L3_NONE)
		put_ip(key, frame, pi);
	/* Ports and flags only where an L4 header is: not in a fragment other than the first,
	 * whose bytes are payload (D-PARSE-5). */
	if (pi->l4_rx == PKT_L4_TCP) { /* RFC 9293 / 3540: the 8 flags and NS as bit 8 */
		PUT(key, outer_tcp_sport, pi->sport);
		PUT(key, outer_tcp_dport, pi->dport);
		PUT(key, outer_tcp_flags, pi->tcp_flags);
	} else if (pi->l4_rx == PKT_L4_UDP) {
		PUT(key, outer_udp_sport, pi->sport);
		PUT(key, outer_udp_dport, pi->dport);
	}
}
