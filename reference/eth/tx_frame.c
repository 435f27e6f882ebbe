/* Each frame the offloads produce (PRM §7.4.4.1, §3.3, §3.4): dropped when the vport is down
 * (D-VP-2), the frame exceeds the MTU (§11.1.1 T106, T16 mtu) or a NIC_TX flow drops it
 * (§7.11.4.2, D-TX-16), otherwise looped back and/or
 * put on the wire through ops.wire_tx with a frame_out event, and counted in the vport's TX
 * counters (§12.17 T486) and the port's PPCNT groups (§11.1.5, D-REG-9). Decisions D-TX-2,
 * D-TX-5, D-TX-6, D-TX-7, D-TX-16 (docs/tx.md). */
#include "eth/eth.h"

/* The L2 header the MTU leaves out (D-TX-6): the Ethernet header and the VLAN tags the device
 * parses, up to two of 802.1Q (8100h) or 802.1ad (88A8h) (D-TXO-6). A third tag, or another
 * TPID, is L3 payload to the MTU: no frame is longer than the MTU and 22 bytes. */
#define TX_MTU_TAGS 2u
static size_t l2_len(const uint8_t *f, size_t len)
{
	size_t l2 = 14;
	for (unsigned tags = 0; tags < TX_MTU_TAGS && l2 + 4 <= len; tags++) {
		unsigned t = (unsigned)f[l2 - 2] << 8 | f[l2 - 1];
		if (t != 0x8100 && t != 0x88A8)
			break;
		l2 += 4;
	}
	return l2;
}

/* D-TX-6: the MTU counts the L3 payload (D-REG-5): the port's oper_mtu, and the vport's mtu
 * (T16 24h "MTU size required for Vport", 0: the port's) when it is smaller. */
static uint32_t mtu(struct nicref_dev *dev)
{
	const struct port *p = port_get(dev, TX_PORT);
	uint32_t m = p ? p->oper_mtu : 0;
	if (dev->vport && dev->vport->mtu && dev->vport->mtu < m)
		m = dev->vport->mtu;
	return m;
}

static enum port_cast cast_of(const uint8_t *f, size_t len)
{
	static const uint8_t bcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	if (len < 6 || !(f[0] & 1))
		return PORT_UNICAST;
	for (unsigned i = 0; i < 6; i++)
		if (f[i] != bcast[i])
			return PORT_MULTICAST;
	return PORT_BROADCAST;
}

/* T486 TX counters by destination (PRM "Transmitted ETH unicast/multicast/broadcast"). */
static const enum vport_counter vport_tx[] = {
	[PORT_UNICAST] = VPORT_CNT_TX_UNICAST,
	[PORT_MULTICAST] = VPORT_CNT_TX_MULTICAST,
	[PORT_BROADCAST] = VPORT_CNT_TX_BROADCAST,
};

void tx_discard(struct tx_wqe *w, enum tx_discard_reason reason, size_t len)
{
	(void)len;
	/* D-TX-6: RFC 2863 ifOutDiscards ("chosen to be discarded even though no errors had been
	 * detected"), PPCNT T117/T118. */
	port_counter_add(w->dev, TX_PORT, PORT_CNT_if_out_discards, 0, 1);
	dev_emit3(w->dev, NICREF_EV_TX_DISCARD, w->sq->hdr.handle, w->index, reason);
	w->es->discards++;
}

void tx_frame_emit(void *ctx, const uint8_t *frame, size_t len)
{
	struct tx_wqe *w = ctx;
	struct nicref_dev *dev = w->dev;
	struct eth_state *es = w->es;
	uint32_t sqn = w->sq->hdr.handle;
	if (!vport_is_up(dev)) {
		tx_discard(w, TX_DISCARD_VPORT_DOWN, len); /* D-VP-2 */
		return;
	}
	size_t l2 = l2_len(frame, len);
	if (len > l2 && len - l2 > mtu(dev)) {
		tx_violation(w, NICREF_VIO_TX_FRAME_OVER_MTU, len);
		tx_discard(w, TX_DISCARD_MTU, len);
		return;
	}
	/* D-TX-16: NIC_TX steering sees the frame the checks above let go, before the loopback
	 * decision (§7.11.4.2: NIC_TX sits on the transmit path); a DROP is a discard like the
	 * others, not a frame sent. */
	if (!tx_steer_allows(dev, frame, len)) {
		tx_discard(w, TX_DISCARD_STEERING, len);
		return;
	}
	enum tx_lb lb = tx_loopback_decide(dev, frame, len);
	enum port_cast cast = cast_of(frame, len);
	/* D-TX-7: the vport sent it, on the wire or not; octets as D-REG-9 counts them (the FCS
	 * included). */
	vport_count(dev, vport_tx[cast], (uint64_t)len + 4);
	const struct tis *tis = obj_get(dev, OBJ_TIS, w->sq->tisn);
	if (lb != TX_LB_LOCAL) {
		/* T50 prio: "Ethernet Priority in prio[3:1]" (D-TIS-3). Looped frames are not
		 * port traffic (D-REG-9). */
		unsigned prio = tis ? (tis->prio >> 1) & 7u : 0;
		port_count(dev, TX_PORT, PORT_TX, cast, prio, (uint32_t)len);
		const struct nicref_host_ops *ops = &dev->core.cfg.ops;
		if (ops->wire_tx)
			ops->wire_tx(ops->ctx, TX_PORT, frame, len);
		dev_emit3(dev, NICREF_EV_FRAME_OUT, TX_PORT, len,
			  dev_traced(dev, NICREF_EV_FRAME_OUT) ? eth_crc32(frame, len) : 0);
		es->frames++;
	}
	if (lb != TX_LB_WIRE) {
		dev_emit3(dev, NICREF_EV_TX_LOOPBACK, sqn, TX_PORT, lb);
		struct eth_lb_frame f = {
			frame, len, TX_PORT, sqn, tis ? tis->td : 0, cast != PORT_UNICAST
		};
		if (es->rx_loopback)
			es->rx_loopback(dev, es->rx_state, &f);
	}
}
