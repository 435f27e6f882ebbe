/* One packet out ([IBTA-A17] §A17.4: Ethernet, IPv4 or IPv6, UDP to 4791, the IB transport
 * headers, the payload, the pad, the ICRC): built from the QP's address path or a UD WQE's
 * address vector and the GID table entry it names (SET_ROCE_ADDRESS: the source MAC, IP and
 * VLAN), then sent the way Ethernet frames leave (frame_out, PPCNT, ops.wire_tx) or, for a
 * destination that is a GID of the port, queued for the local receive path (D-ROCE-12). */
#include <stdlib.h>
#include <string.h>

#include "eth/eth.h"
#include "roce/roce.h"

#define ETH_LEN 14u
#define IPV4_LEN 20u
#define IPV6_LEN 40u
#define UDP_LEN 8u
/* The loopback queue (D-ROCE-12): room for windows of full packets of many QPs. */
#define ROCE_LB_CAP (4u << 20)

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* The GID entry of (port, index) when it is a RoCEv2 one ([IFC] roce_version 2). */
static const uint8_t *gid_entry(const struct nicref_dev *dev, unsigned port, unsigned index)
{
	const uint8_t *e = roce_addr_entry(dev, port, index);
	if (!e || PRM_GET(roce_addr_layout, roce_version, e, ROCE_ADDR_BYTES) != 2)
		return NULL;
	return e;
}

/* Whether a RoCEv2 entry of the port's table holds gid. Every packet sent asks it of all
 * ROCE_ADDR_ENTRIES entries, most of them empty (all zero): the address is compared first, as
 * two words read in place, and only an entry that holds it has its version read (the same
 * answer as the version first: both must hold). */
_Static_assert(PRMB_roce_addr_layout__source_l3_address % 8 == 0 &&
		       PRMW_roce_addr_layout__source_l3_address == 128,
	       "source_l3_address: 16 whole bytes");
bool roce_gid_is_local(const struct nicref_dev *dev, unsigned port, const uint8_t gid[16])
{
	const uint8_t *e = roce_addr_entry(dev, port, 0);
	if (!e)
		return false; /* no such port: no entry at all */
	uint64_t want[2];
	memcpy(want, gid, 16);
	/* A port's entries lie one after the other (obj/qp.h). */
	for (unsigned i = 0; i < ROCE_ADDR_ENTRIES; i++, e += ROCE_ADDR_BYTES) {
		uint64_t g[2];
		memcpy(g, e + PRMB_roce_addr_layout__source_l3_address / 8, 16);
		if (g[0] == want[0] && g[1] == want[1] && gid_entry(dev, port, i))
			return true;
	}
	return false;
}

/* D-ROCE-23: whether a RoCEv2 entry of the port that holds gid has the frame's destination MAC
 * for its source_mac, and the frame's outermost C-VLAN for its VLAN where the entry names one
 * (as D-L2-2 matches an L2 table entry). */
bool roce_gid_owns_dmac(const struct nicref_dev *dev, unsigned port, const uint8_t gid[16],
			const uint8_t *frame, size_t len)
{
	if (!frame || len < ETH_LEN)
		return false;
	uint64_t dmac = 0;
	for (unsigned i = 0; i < 6; i++)
		dmac = dmac << 8 | frame[i];
	bool tagged = len >= ETH_LEN + 4 && frame[12] == 0x81 && frame[13] == 0x00;
	unsigned vid = tagged ? ((unsigned)frame[14] << 8 | frame[15]) & 0xFFF : 0;
	for (unsigned i = 0; i < ROCE_ADDR_ENTRIES; i++) {
		const uint8_t *e = roce_addr_entry(dev, port, i);
		/* The address first, as roce_gid_is_local; the version only of an entry holding it. */
		if (!e || memcmp(e + PRMB_roce_addr_layout__source_l3_address / 8, gid, 16) != 0 ||
		    !gid_entry(dev, port, i))
			continue;
		uint64_t mac = PRM_GET(roce_addr_layout, source_mac_47_32, e, ROCE_ADDR_BYTES) << 32 |
			       PRM_GET(roce_addr_layout, source_mac_31_0, e, ROCE_ADDR_BYTES);
		if (mac != dmac)
			continue;
		if (!PRM_GET(roce_addr_layout, vlan_valid, e, ROCE_ADDR_BYTES) ||
		    (tagged && PRM_GET(roce_addr_layout, vlan_id, e, ROCE_ADDR_BYTES) == vid))
			return true;
	}
	return false;
}

static uint16_t ipv4_csum(const uint8_t *h)
{
	uint32_t s = 0;
	for (unsigned i = 0; i < IPV4_LEN; i += 2)
		s += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)~s;
}

/* The headers after the BTH, in [IBTA] §9.2 Figure 87's order, as the opcode has them. */
static size_t put_ext(uint8_t *o, unsigned hdrs, const struct roce_tx_hdr *h)
{
	size_t n = 0;
	if (hdrs & NICREF_ROCE_H_DETH) {
		put32(o + n, h->deth_qkey);
		put32(o + n + 4, h->deth_src_qp & ROCE_PSN_MASK);
		n += NICREF_ROCE_DETH_LEN;
	}
	if (hdrs & NICREF_ROCE_H_RETH) {
		put32(o + n, (uint32_t)(h->reth_va >> 32));
		put32(o + n + 4, (uint32_t)h->reth_va);
		put32(o + n + 8, h->reth_rkey);
		put32(o + n + 12, h->reth_len);
		n += NICREF_ROCE_RETH_LEN;
	}
	if (hdrs & NICREF_ROCE_H_AETH) {
		put32(o + n, (uint32_t)h->aeth_syndrome << 24 | (h->aeth_msn & ROCE_PSN_MASK));
		n += NICREF_ROCE_AETH_LEN;
	}
	if (hdrs & NICREF_ROCE_H_IMMDT) {
		put32(o + n, h->imm);
		n += NICREF_ROCE_IMMDT_LEN;
	}
	return n;
}

/* Builds the frame into rs->frame: its length, or 0 with *why set. */
static size_t build(struct nicref_dev *dev, unsigned port, uint16_t pkey, uint16_t sport,
		    const struct roce_av *av, const struct roce_tx_hdr *h, const uint8_t *payload,
		    uint32_t len, enum nicref_roce_drop *why)
{
	struct roce_state *rs = roce_state_of(dev);
	const struct nicref_roce_opcode_info *op = nicref_roce_opcode(h->opcode);
	const uint8_t *e = gid_entry(dev, port, av->sgid_index);
	if (!op || !e) {
		*why = NICREF_ROCE_DROP_TX_NO_GID;
		return 0;
	}
	bool v6 = PRM_GET(roce_addr_layout, roce_l3_type, e, ROCE_ADDR_BYTES) == 1;
	unsigned pad = (4 - len % 4) % 4;
	size_t l4_len = UDP_LEN + roce_hdr_len(h->opcode) + len + pad + NICREF_ROCE_ICRC_LEN;
	size_t l3_len = (v6 ? IPV6_LEN : IPV4_LEN) + l4_len;
	bool vlan = PRM_GET(roce_addr_layout, vlan_valid, e, ROCE_ADDR_BYTES) != 0;
	size_t l2 = ETH_LEN + (vlan ? 4 : 0);
	const struct port *pt = port_get(dev, port);
	/* D-ROCE-11, D-VP-2: on the function's port the vport down is the port down to it (T475
	 * admin_state "0x0: down - set port to down state"). */
	if (!pt || pt->oper_status != PORT_OPER_UP || (port == VPORT_PORT && !vport_is_up(dev))) {
		*why = NICREF_ROCE_DROP_TX_LINK_DOWN;
		return 0;
	}
	if (l3_len > pt->oper_mtu || l2 + l3_len > rs->frame_cap) {
		*why = NICREF_ROCE_DROP_TX_OVER_MTU; /* D-TX-6's MTU: the L3 length */
		return 0;
	}
	uint8_t *f = rs->frame;
	memcpy(f, av->rmac, 6);
	uint64_t hi = PRM_GET(roce_addr_layout, source_mac_47_32, e, ROCE_ADDR_BYTES);
	uint64_t lo = PRM_GET(roce_addr_layout, source_mac_31_0, e, ROCE_ADDR_BYTES);
	put16(f + 6, (uint32_t)hi);
	put32(f + 8, (uint32_t)lo);
	if (vlan) {
		put16(f + 12, 0x8100);
		put16(f + 14, (uint32_t)PRM_GET(roce_addr_layout, vlan_id, e, ROCE_ADDR_BYTES));
	}
	put16(f + l2 - 2, v6 ? 0x86DD : 0x0800);
	uint8_t sgid[16];
	(void)nicref_field_get_bytes(e, ROCE_ADDR_BYTES,
				     PRM_FIELD(roce_addr_layout, source_l3_address), sgid, 16);
	uint8_t *ip = f + l2;
	size_t l4;
	if (v6) {
		put32(ip, 6u << 28 | (uint32_t)av->tclass << 20 | (av->flow_label & 0xFFFFF));
		put16(ip + 4, (uint32_t)l4_len);
		ip[6] = 17;
		ip[7] = av->hop_limit;
		memcpy(ip + 8, sgid, 16);
		memcpy(ip + 24, av->rgid, 16);
		l4 = l2 + IPV6_LEN;
	} else {
		/* [IBTA-A17] §A17.4.3? IPv4: DF set, identification 0, no options. */
		ip[0] = 0x45;
		ip[1] = av->tclass;
		put16(ip + 2, (uint32_t)l3_len);
		put16(ip + 4, 0);
		put16(ip + 6, 0x4000);
		ip[8] = av->hop_limit;
		ip[9] = 17;
		put16(ip + 10, 0);
		memcpy(ip + 12, sgid + 12, 4);
		memcpy(ip + 16, av->rgid + 12, 4);
		put16(ip + 10, ipv4_csum(ip));
		l4 = l2 + IPV4_LEN;
	}
	uint8_t *u = f + l4;
	put16(u, sport);
	put16(u + 2, NICREF_ROCE_UDP_PORT);
	put16(u + 4, (uint32_t)l4_len);
	put16(u + 6, 0); /* [IBTA-A17]: the UDP checksum is 0 (not used; the ICRC covers) */
	uint8_t *b = u + UDP_LEN;
	b[0] = h->opcode;
	b[1] = (uint8_t)((h->se ? 0x80 : 0) | pad << 4); /* M 0, TVer 0 */
	put16(b + 2, pkey);
	/* [IBTA-A17] §A17.9.1: a CNP has BECN set (as Scapy's cnp() writes it). */
	put32(b + 4, (op->kind == NICREF_ROCE_K_CNP ? 0x40000000u : 0) |
			     (h->dest_qp & ROCE_PSN_MASK));
	put32(b + 8, (h->ackreq ? 0x80000000u : 0) | (h->psn & ROCE_PSN_MASK));
	size_t o = NICREF_ROCE_BTH_LEN + put_ext(b + NICREF_ROCE_BTH_LEN, op->headers, h);
	if (len)
		memcpy(b + o, payload, len);
	memset(b + o + len, 0, pad);
	size_t n = l2 + l3_len;
	uint32_t icrc = 0;
	(void)nicref_roce_icrc(ip, l3_len, &icrc);
	uint8_t *t = f + n - NICREF_ROCE_ICRC_LEN;
	t[0] = (uint8_t)icrc;
	t[1] = (uint8_t)(icrc >> 8);
	t[2] = (uint8_t)(icrc >> 16);
	t[3] = (uint8_t)(icrc >> 24);
	/* IEEE 802.3 minFrameSize (PRM §3.3.8: 64 bytes with the FCS the model's frames do not
	 * carry, D-TX-2): a short packet (a zero-length SEND or WRITE over IPv4) is padded with
	 * zeros after its ICRC; the IP length still ends the packet (D-ROCE-19). */
	if (n < TX_MIN_FRAME) {
		memset(f + n, 0, TX_MIN_FRAME - n);
		n = TX_MIN_FRAME;
	}
	return n;
}

/* D-ROCE-12: a frame for a local GID waits in the loopback queue. */
static void queue_local(struct nicref_dev *dev, unsigned port, const uint8_t *f, size_t n,
			uint32_t qpn, uint32_t psn)
{
	struct roce_state *rs = roce_state_of(dev);
	/* Made at the first local packet (a device that never loops keeps its memory small). */
	if (!rs->lb && (rs->lb = malloc(ROCE_LB_CAP)) != NULL)
		rs->lb_cap = ROCE_LB_CAP;
	if (rs->lb_tail + 8 + ((n + 7) & ~(size_t)7) > rs->lb_cap) {
		roce_drop(dev, port, NICREF_ROCE_DROP_LOOPBACK_FULL, qpn, psn);
		return;
	}
	uint8_t *q = rs->lb + rs->lb_tail;
	put32(q, (uint32_t)n);
	put32(q + 4, port);
	memcpy(q + 8, f, n);
	rs->lb_tail += 8 + ((n + 7) & ~(size_t)7);
}

static int send(struct nicref_dev *dev, unsigned port, uint32_t qpn, const struct roce_av *av,
		const struct roce_tx_hdr *h, size_t n)
{
	struct roce_state *rs = roce_state_of(dev);
	const uint8_t *f = rs->frame;
	rs->cnt.pkts_out++;
	uint64_t a[6] = { port, qpn, h->dest_qp & ROCE_PSN_MASK, h->opcode, h->psn & ROCE_PSN_MASK,
			  n };
	dev_emit(dev, NICREF_EV_ROCE_TX, a, 6);
	/* T486, D-VP-2: the vport sent it, to the wire or to a local GID (as D-TX-7 counts the
	 * Ethernet path's); octets with the FCS (D-REG-9). */
	if (port == VPORT_PORT)
		vport_count(dev, vport_counter_of(false, f, n), (uint64_t)n + 4);
	if (roce_gid_is_local(dev, port, av->rgid)) {
		dev_emit3(dev, NICREF_EV_TX_LOOPBACK, qpn, port, 1);
		queue_local(dev, port, f, n, h->dest_qp, h->psn);
		return 0;
	}
	port_count(dev, port, PORT_TX, f[0] & 1 ? PORT_MULTICAST : PORT_UNICAST, 0, (uint32_t)n);
	const struct nicref_host_ops *ops = &dev->core.cfg.ops;
	if (ops->wire_tx)
		ops->wire_tx(ops->ctx, port, f, n);
	dev_emit3(dev, NICREF_EV_FRAME_OUT, port, n, eth_crc32(f, n));
	return 0;
}

int roce_tx_raw(struct nicref_dev *dev, unsigned port, uint16_t pkey, const struct roce_av *av,
		const struct roce_tx_hdr *h, const uint8_t *payload, uint32_t len)
{
	enum nicref_roce_drop why = NICREF_ROCE_DROP_NONE;
	uint16_t sport = av->udp_sport ? av->udp_sport : 0xC000;
	size_t n = build(dev, port, pkey, sport, av, h, payload, len, &why);
	if (!n) {
		roce_drop(dev, port, why, 0, h->psn);
		return -1;
	}
	return send(dev, port, 0, av, h, n);
}

int roce_tx(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_tx_hdr *h,
	    const uint8_t *payload, uint32_t len)
{
	enum nicref_roce_drop why = NICREF_ROCE_DROP_NONE;
	/* D-ROCE-RC-24: the QP's path is read from its context for each packet (not kept twice). */
	struct roce_av path;
	if (!h->av)
		roce_qp_av(qp, &path);
	const struct roce_av *av = h->av ? h->av : &path;
	uint16_t sport = h->av && h->av->udp_sport ? h->av->udp_sport : roce_qp_sport(qp);
	/* An RC packet goes to the connected QP ([IFC] qpc remote_qpn). */
	struct roce_tx_hdr hh = *h;
	if (qp->st == QP_ST_RC)
		hh.dest_qp = qp->remote_qpn;
	size_t n = build(dev, qp->port, qp->pkey, sport, av, &hh, payload, len, &why);
	if (!n) {
		roce_drop(dev, qp->port, why, qp->qpn, h->psn);
		return -1;
	}
	return send(dev, qp->port, qp->qpn, av, &hh, n);
}
