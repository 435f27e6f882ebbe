/* The match key of a frame: fte_match_param (PRM §12.14.6 T407-T416) as the packet fills it,
 * through the layout (prm/layouts_steer.h). What the frame does not have reads 0 (D-FT-5):
 * VLAN fields without a tag, IP fields without a complete IP header, ports without a complete
 * TCP/UDP header (none in a fragment other than the first). The parse is eth/pkt_parse's (one
 * parser for every stage). */
#include <string.h>

#include "eth/pkt_hdr.h"
#include "prm/layouts.h"
#include "steer/steer.h"

#define K(n) PRM_FIELD(fte_match_param, n)

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put(uint8_t *key, const struct nicref_field *f, uint64_t v)
{
	prm_set(key, STEER_KEY_LEN, f, v);
}

/* VLAN tag i (0 first, 1 second) of the frame: T410 0Ch/10h for the first, T416 08h/0Ch for
 * the second. cvlan 0x8100, svlan 0x88A8 (T410 writes "0x8a88": D-FT-10). */
static void put_tag(uint8_t *key, const uint8_t *tag, unsigned i)
{
	uint32_t tpid = be16(tag), tci = be16(tag + 2);
	bool c = tpid == HDR_TPID_CTAG, s = tpid == HDR_TPID_STAG;
	if (i == 0) {
		put(key, K(outer_cvlan_tag), c);
		put(key, K(outer_svlan_tag), s);
		put(key, K(outer_first_prio), tci >> 13);
		put(key, K(outer_first_cfi), (tci >> 12) & 1);
		put(key, K(outer_first_vid), tci & 0xFFF);
	} else {
		put(key, K(outer_second_cvlan_tag), c);
		put(key, K(outer_second_svlan_tag), s);
		put(key, K(outer_second_prio), tci >> 13);
		put(key, K(outer_second_cfi), (tci >> 12) & 1);
		put(key, K(outer_second_vid), tci & 0xFFF);
	}
}

static void put_ip(uint8_t *key, const uint8_t *p, size_t len, const struct pkt_info *pi)
{
	const uint8_t *ip = p + pi->l3_off;
	uint32_t tos;
	uint8_t src[16] = { 0 }, dst[16] = { 0 };
	if (pi->l3 == PKT_L3_IPV4) { /* RFC 791: TOS 1, addresses 12 and 16; T413 in the last dword */
		tos = ip[1];
		memcpy(src + 12, ip + 12, 4);
		memcpy(dst + 12, ip + 16, 4);
	} else { /* RFC 8200: traffic class 4 bits into byte 0, flow label 20 bits; addresses 8, 24 */
		tos = (be16(ip) >> 4) & 0xFF;
		put(key, K(outer_ipv6_flow_label), be32(ip) & 0xFFFFF);
		memcpy(src, ip + 8, 16);
		memcpy(dst, ip + 24, 16);
	}
	(void)len;
	put(key, K(outer_ip_dscp), tos >> 2);
	put(key, K(outer_ip_ecn), tos & 3);
	/* IPv4 protocol / the IPv6 next header that ends the extension chain (D-FT-3). */
	put(key, K(outer_ip_protocol), pi->ip_proto);
	put(key, K(outer_frag), pi->fragment);
	(void)nicref_field_set_bytes(key, STEER_KEY_LEN, K(outer_src_ip), src, sizeof src);
	(void)nicref_field_set_bytes(key, STEER_KEY_LEN, K(outer_dst_ip), dst, sizeof dst);
}

void steer_key_build(const uint8_t *frame, size_t len, const struct pkt_info *pi,
		     uint8_t key[STEER_KEY_LEN])
{
	memset(key, 0, STEER_KEY_LEN);
	if (len < HDR_ETH_LEN)
		return; /* no Ethernet header: nothing to match but zeros */
	/* T410 00h-0Ch: the addresses' bytes in the order of the frame. */
	put(key, K(outer_dmac_47_16), be32(frame));
	put(key, K(outer_dmac_15_0), be16(frame + 4));
	put(key, K(outer_smac_47_16), be32(frame + 6));
	put(key, K(outer_smac_15_0), be16(frame + 10));
	unsigned ntags = pi->ntags < PKT_MAX_TAGS ? pi->ntags : PKT_MAX_TAGS;
	for (unsigned i = 0; i < ntags && 12 + 4 * (size_t)i + 4 <= len; i++)
		put_tag(key, frame + 12 + 4 * i, i);
	size_t et = 12 + 4 * (size_t)ntags; /* "the Ethertype following the last VLAN tag" */
	if (et + 2 <= len)
		put(key, K(outer_ethertype), be16(frame + et));
	if (pi->l3 != PKT_L3_NONE)
		put_ip(key, frame, len, pi);
	/* A fragment other than the first carries no TCP/UDP header, only payload: its ports and
	 * flags read 0 (D-FT-5, D-PARSE-7: the receive path's view of L4, l4_rx). */
	const uint8_t *l4 = frame + pi->l4_off;
	if (pi->l4_rx == PKT_L4_TCP) { /* RFC 793/3540: flags 8 bits at 13, NS the low bit of 12 */
		put(key, K(outer_tcp_sport), be16(l4));
		put(key, K(outer_tcp_dport), be16(l4 + 2));
		put(key, K(outer_tcp_flags), (uint32_t)(l4[12] & 1) << 8 | l4[13]);
	} else if (pi->l4_rx == PKT_L4_UDP) {
		put(key, K(outer_udp_sport), be16(l4));
		put(key, K(outer_udp_dport), be16(l4 + 2));
	}
}
