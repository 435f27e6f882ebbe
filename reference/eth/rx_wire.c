/* The receive path's entry (PRM §7.3, §7.11, §3.4; docs/rx.md): a frame from a port
 * (nicref_wire_rx) or from the send path's loopback (rx_loopback, the hook of eth/eth.h) is
 * traced, checked for size (D-RX-5), parsed once (eth/pkt_parse.h), taken or not by the vport
 * (rx_vport.c, D-RX-6), counted (D-RX-7), classified through the NIC_RX flow tables (steering,
 * §7.11.2) and delivered, one copy per TIR the verdict names (rx_tir.c). */
#include "eth/pkt_hdr.h"
#include "eth/rx.h"

/* The L2 header the MTU leaves out, as the send path measures it (D-TX-6, D-RX-5): the Ethernet
 * header and the tags the device parses, up to two of 802.1Q (8100h) or 802.1ad (88A8h)
 * (D-PARSE-1, D-TXO-6). A third tag, or another TPID (9100h), is L3 payload to the MTU. */
static size_t l2_len(const uint8_t *f, size_t len)
{
	size_t l2 = HDR_ETH_LEN;
	for (unsigned tags = 0; tags < PKT_MAX_TAGS && l2 + RX_TAG_LEN <= len; tags++) {
		unsigned t = hdr_get16(f + l2 - 2);
		if (t != HDR_TPID_CTAG && t != HDR_TPID_STAG)
			break;
		l2 += RX_TAG_LEN;
	}
	return l2;
}

/* D-RX-5: the MTU counts the L3 payload (D-REG-5): the port's oper_mtu, or the vport's mtu
 * (T16) when it is smaller, for the function's port (p: the port, looked up once a frame). */
static uint32_t rx_mtu(struct nicref_dev *dev, unsigned port, const struct port *p)
{
	uint32_t m = p->oper_mtu;
	if (port == TX_PORT && dev->vport && dev->vport->mtu && dev->vport->mtu < m)
		m = dev->vport->mtu;
	return m;
}

/* T486 RX counters by destination. */
static const enum vport_counter vport_rx[] = {
	[PORT_UNICAST] = VPORT_CNT_RX_UNICAST,
	[PORT_MULTICAST] = VPORT_CNT_RX_MULTICAST,
	[PORT_BROADCAST] = VPORT_CNT_RX_BROADCAST,
};

/* NIC_RX classification (§7.11.2) and one copy per TIR of the verdict (§7.11.2: each
 * destination receives the packet; the order of the list, D-FT-20 in docs/steer.md). */
static void classify(struct nicref_dev *dev, const struct rx_pkt *p)
{
	struct steer_verdict v;
	steer_classify_frame(dev, STEER_NIC_RX, p->frame, p->len, p->pi, &v);
	/* §7.11.2: DROP, and the NIC_RX default with no root (§7.11.2.5: whatever the frame) or
	 * on a miss, drop the frame. */
	if (v.action != STEER_DELIVER || v.ntirs == 0) {
		rx_drop(dev, RX_DROP_STEERING, v.why, p);
		return;
	}
	unsigned n = v.ntirs < STEER_MAX_TIRS ? v.ntirs : STEER_MAX_TIRS;
	for (unsigned i = 0; i < n; i++) {
		struct rx_pkt c = *p;
		c.flow_tag = v.flow_tag[i];
		rx_deliver(dev, v.tirn[i], &c);
	}
}

/* From the parse on, the same for the wire and the loopback. */
static void receive(struct nicref_dev *dev, struct rx_pkt *p)
{
	struct pkt_info pi;
	pkt_parse(p->frame, p->len, &pi);
	p->pi = &pi;
	enum rx_drop_reason r = rx_vport_accept(dev, p->frame, p->len, &pi);
	if (r) {
		rx_drop(dev, r, 0, p);
		return;
	}
	/* D-RX-7: the vport received it (T486 "Received ETH unicast/multicast/broadcast"), once
	 * whatever steering makes of it; octets as D-REG-9 (the FCS included). */
	vport_count(dev, vport_rx[rx_cast(p->frame, p->len)], (uint64_t)p->len + 4);
	classify(dev, p);
}

int nicref_wire_rx(struct nicref_dev *dev, unsigned port, const uint8_t *frame, size_t len)
{
	struct rx_state *rs = dev ? rx_state_of(dev) : NULL;
	const struct port *pt = rs ? port_get(dev, port) : NULL;
	if (!pt || (!frame && len))
		return -1;
	rs->frames_in++;
	dev_emit3(dev, NICREF_EV_FRAME_IN, port, len,
		  dev_traced(dev, NICREF_EV_FRAME_IN) ? eth_crc32(frame, len) : 0);
	struct rx_pkt p = { .frame = frame, .len = len, .port = port };
	/* PRM §9.2.2: a device halted by a fatal error starts no new operation (D-H-2). */
	if (dev->core.halted) {
		rx_drop(dev, RX_DROP_HALTED, port, &p);
		return 0;
	}
	if (pt->oper_status != PORT_OPER_UP) {
		rx_drop(dev, RX_DROP_PORT_DOWN, port, &p);
		return 0;
	}
	/* D-RX-5: §3.3.8's 64 bytes with the FCS; the MTU as the send path counts it. */
	if (len < RX_MIN_FRAME) {
		rx_drop(dev, RX_DROP_UNDERSIZE, port, &p);
		return 0;
	}
	if (len - l2_len(frame, len) > rx_mtu(dev, port, pt)) {
		rx_drop(dev, RX_DROP_OVER_MTU, port, &p);
		return 0;
	}
	/* D-RX-7: a good frame the port received (PPCNT, D-REG-9), at its tag's priority. */
	port_count(dev, port, PORT_RX, rx_cast(frame, len), rx_frame_prio(frame, len),
		   (uint32_t)len);
	/* D-ROCE-1: RoCEv2 to one of the port's GIDs is the RDMA transport's (roce/). */
	if (dev->datapath.roce_rx && dev->datapath.roce_rx(dev, port, frame, len))
		return 0;
	/* The function's vport is on its port (D-TX-7); another port's frames are not its. */
	if (port != TX_PORT) {
		rx_drop(dev, RX_DROP_VPORT_FILTER, port, &p);
		return 0;
	}
	receive(dev, &p);
	return 0;
}

void rx_loopback(struct nicref_dev *dev, void *rx_state, const struct eth_lb_frame *f)
{
	(void)rx_state;
	/* D-RX-12: a looped frame crossed no MAC: no size check, no port counter; the send
	 * path already held it to the MTU (D-TX-6). It needs an Ethernet header to be
	 * classified. */
	struct rx_pkt p = { .frame = f->frame, .len = f->len, .port = f->port, .lb = f };
	if (f->len < HDR_ETH_LEN) {
		rx_drop(dev, RX_DROP_UNDERSIZE, f->port, &p);
		return;
	}
	receive(dev, &p);
}
