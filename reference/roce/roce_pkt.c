/* What a frame is to the transport (D-ROCE-1) and its headers read once ([IBTA-A17] §A17.2-
 * §A17.4: Ethernet, optional VLAN tags, IPv4 or IPv6, UDP to 4791, then the IB transport
 * headers of [IBTA] §9.2-§9.3 and the ICRC). The L3/L4 decide whether the frame is RoCEv2 at
 * all (ROCE_NOT_ROCE: the Ethernet path's); from the UDP port on every inconsistency is a drop
 * reason of nicref/roce.h, in the order of [IBTA] §9.6's header checks: the packet's length and
 * its ICRC first (§9.6.1.1: invalid packets are discarded before anything is looked at), then
 * TVer, then the opcode. */
#include <string.h>

#include "roce/roce.h"

#define ETH_LEN 14u
#define TAG_LEN 4u
#define IPV4_MIN 20u
#define IPV6_LEN 40u
#define UDP_LEN 8u

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The IPv4 header checksum (RFC 791): the one's complement sum of the header is 0xFFFF. */
static bool ipv4_csum_ok(const uint8_t *h, size_t ihl)
{
	uint32_t s = 0;
	for (size_t i = 0; i < ihl; i += 2)
		s += be16(h + i);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return s == 0xFFFF;
}

/* The L2 and L3 headers up to the UDP header: 0 (l4 and end set) or ROCE_NOT_ROCE. */
static int parse_l3(const uint8_t *f, size_t len, struct roce_pkt *p, size_t *l4, size_t *end,
		    bool *bad)
{
	size_t l2 = ETH_LEN;
	if (len < ETH_LEN)
		return ROCE_NOT_ROCE;
	memcpy(p->dmac, f, 6);
	memcpy(p->smac, f + 6, 6);
	unsigned type = be16(f + 12);
	/* Up to two tags, as the send path measures the L2 header (D-TX-6). */
	for (unsigned tags = 0; tags < 2 && (type == 0x8100 || type == 0x88A8); tags++) {
		if (len < l2 + TAG_LEN)
			return ROCE_NOT_ROCE;
		type = be16(f + l2 + 2);
		l2 += TAG_LEN;
	}
	const uint8_t *ip = f + l2;
	p->l3_off = l2;
	if (type == 0x0800) {
		if (len < l2 + IPV4_MIN || ip[0] >> 4 != 4)
			return ROCE_NOT_ROCE;
		size_t ihl = (size_t)(ip[0] & 0xF) * 4;
		/* Not a first fragment, or no UDP: not RoCE (no UDP header to read). */
		if (ihl < IPV4_MIN || len < l2 + ihl + UDP_LEN || ip[9] != 17 ||
		    (be16(ip + 6) & 0x1FFF) != 0)
			return ROCE_NOT_ROCE;
		p->ipver = 4;
		memset(p->sip, 0, 16);
		memset(p->dip, 0, 16);
		p->sip[10] = p->sip[11] = p->dip[10] = p->dip[11] = 0xFF; /* IPv4-mapped */
		memcpy(p->sip + 12, ip + 12, 4);
		memcpy(p->dip + 12, ip + 16, 4);
		p->dscp = ip[1] >> 2;
		p->ecn = ip[1] & 3;
		p->hop_limit = ip[8];
		size_t tot = be16(ip + 2);
		/* More fragments, a bad checksum or a total length beyond the frame: malformed. */
		*bad = (be16(ip + 6) & 0x2000) || !ipv4_csum_ok(ip, ihl) || tot < ihl + UDP_LEN ||
		       l2 + tot > len;
		*l4 = l2 + ihl;
		*end = *bad ? len : l2 + tot;
	} else if (type == 0x86DD) {
		if (len < l2 + IPV6_LEN + UDP_LEN || ip[0] >> 4 != 6 || ip[6] != 17)
			return ROCE_NOT_ROCE;
		p->ipver = 6;
		memcpy(p->sip, ip + 8, 16);
		memcpy(p->dip, ip + 24, 16);
		unsigned tc = (unsigned)((ip[0] & 0xF) << 4 | ip[1] >> 4);
		p->dscp = (uint8_t)(tc >> 2);
		p->ecn = (uint8_t)(tc & 3);
		p->flow_label = (uint32_t)(ip[1] & 0xF) << 16 | be16(ip + 2);
		p->hop_limit = ip[7];
		size_t pl = be16(ip + 4);
		*bad = pl < UDP_LEN || l2 + IPV6_LEN + pl > len;
		*l4 = l2 + IPV6_LEN;
		*end = *bad ? len : l2 + IPV6_LEN + pl;
	} else {
		return ROCE_NOT_ROCE;
	}
	if (be16(f + *l4 + 2) != NICREF_ROCE_UDP_PORT)
		return ROCE_NOT_ROCE;
	p->udp_sport = be16(f + *l4);
	return 0;
}

/* The extension headers in the order of [IBTA] §9.2 Figure 87 (the opcode's, each present). */
static size_t parse_ext(const uint8_t *h, unsigned hdrs, struct roce_pkt *p)
{
	size_t o = 0;
	if (hdrs & NICREF_ROCE_H_DETH) {
		p->deth_qkey = be32(h + o);
		p->deth_src_qp = be32(h + o + 4) & ROCE_PSN_MASK;
		o += NICREF_ROCE_DETH_LEN;
	}
	if (hdrs & NICREF_ROCE_H_RETH) {
		p->reth_va = (uint64_t)be32(h + o) << 32 | be32(h + o + 4);
		p->reth_rkey = be32(h + o + 8);
		p->reth_len = be32(h + o + 12);
		o += NICREF_ROCE_RETH_LEN;
	}
	if (hdrs & NICREF_ROCE_H_ATOMICETH)
		o += NICREF_ROCE_ATOMICETH_LEN;
	if (hdrs & NICREF_ROCE_H_AETH) {
		p->aeth_syndrome = h[o];
		p->aeth_msn = be32(h + o) & ROCE_PSN_MASK;
		o += NICREF_ROCE_AETH_LEN;
	}
	if (hdrs & NICREF_ROCE_H_ATOMICACKETH)
		o += NICREF_ROCE_ATOMICACKETH_LEN;
	if (hdrs & NICREF_ROCE_H_IMMDT) {
		p->imm = be32(h + o);
		o += NICREF_ROCE_IMMDT_LEN;
	}
	if (hdrs & NICREF_ROCE_H_IETH) {
		p->ieth_rkey = be32(h + o);
		o += NICREF_ROCE_IETH_LEN;
	}
	return o;
}

int roce_parse(const uint8_t *frame, size_t len, unsigned port, bool check_icrc,
	       struct roce_pkt *p)
{
	memset(p, 0, sizeof *p);
	p->port = port;
	p->frame = frame;
	p->frame_len = len;
	size_t l4, end;
	bool bad = false;
	if (!frame || parse_l3(frame, len, p, &l4, &end, &bad))
		return ROCE_NOT_ROCE;
	if (bad)
		return NICREF_ROCE_DROP_MALFORMED;
	/* The UDP length covers the rest of the IP packet ([IBTA-A17] §A17.4 the packet
	 * format); the BTH and the ICRC must fit. */
	size_t udp_len = be16(frame + l4 + 4);
	size_t after = l4 + UDP_LEN;
	if (udp_len != end - l4 || end < after + NICREF_ROCE_BTH_LEN + NICREF_ROCE_ICRC_LEN)
		return NICREF_ROCE_DROP_MALFORMED;
	const uint8_t *b = frame + after;
	p->opcode = b[0];
	p->se = b[1] >> 7 & 1;
	p->m = b[1] >> 6 & 1;
	p->padcnt = b[1] >> 4 & 3;
	p->tver = b[1] & 0xF;
	p->pkey = be16(b + 2);
	p->fecn = b[4] >> 7 & 1;
	p->becn = b[4] >> 6 & 1;
	p->dest_qp = be32(b + 4) & ROCE_PSN_MASK;
	p->ackreq = b[8] >> 7 & 1;
	p->psn = be32(b + 8) & ROCE_PSN_MASK;
	/* [IBTA] §7.8.1, §9.6.1.1: the ICRC of the packet as received; a mismatch discards it. */
	if (check_icrc) {
		uint32_t icrc;
		const uint8_t *t = frame + end - NICREF_ROCE_ICRC_LEN;
		uint32_t carried = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
				   (uint32_t)t[3] << 24;
		if (nicref_roce_icrc(frame + p->l3_off, end - p->l3_off, &icrc) || icrc != carried)
			return NICREF_ROCE_DROP_ICRC;
	}
	/* [IBTA] §9.2.3 C9-7? TVer 0 is the only version. */
	if (p->tver != 0)
		return NICREF_ROCE_DROP_TVER;
	p->op = nicref_roce_opcode(p->opcode);
	if (!p->op)
		return NICREF_ROCE_DROP_OPCODE_UNKNOWN;
	if (p->op->kind == NICREF_ROCE_K_ATOMIC || p->op->kind == NICREF_ROCE_K_ATOMIC_ACK)
		return NICREF_ROCE_DROP_ATOMIC;
	if (p->op->headers & NICREF_ROCE_H_IETH)
		return NICREF_ROCE_DROP_OPCODE_UNKNOWN; /* SEND with invalidate: D-ROCE-6 */
	p->hdrs = p->op->headers;
	size_t ext = nicref_roce_ext_len(p->opcode);
	size_t room = end - after - NICREF_ROCE_BTH_LEN - NICREF_ROCE_ICRC_LEN;
	if (room < ext + p->padcnt)
		return NICREF_ROCE_DROP_MALFORMED;
	parse_ext(b + NICREF_ROCE_BTH_LEN, p->hdrs, p);
	size_t pl = room - ext - p->padcnt;
	/* [IBTA] §9.2.2? the pad makes the payload a multiple of 4; packets without a payload
	 * carry none; the CNP carries its 16 reserved bytes ([IBTA-A17] §A17.9.1). */
	bool plen_ok = (pl + p->padcnt) % 4 == 0;
	if (!(p->hdrs & NICREF_ROCE_H_PAYLOAD))
		plen_ok = plen_ok && pl == 0 && p->padcnt == 0;
	if (p->op->kind == NICREF_ROCE_K_CNP)
		plen_ok = plen_ok && pl == NICREF_ROCE_CNP_PAYLOAD;
	if (!plen_ok)
		return NICREF_ROCE_DROP_MALFORMED;
	p->payload = b + NICREF_ROCE_BTH_LEN + ext;
	p->payload_len = (uint32_t)pl;
	return 0;
}
