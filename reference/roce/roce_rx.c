/* The transport's entries: a frame from a port (dev->datapath.roce_rx, D-ROCE-1), a send
 * doorbell naming a QP (dev->datapath.qp_run, D-ROCE-2), and the loopback queue both drain at
 * the end (D-ROCE-12). A taken packet passes the checks every service shares, in [IBTA] §9.6's
 * order (after the parse's length, ICRC, TVer and opcode): the destination QP exists and is not
 * QP0/QP1, its state receives, the opcode's service is the QP's, the P_Key matches; then the
 * notification point sees its ECN, then UD or RC (rocerc's rc_rx) takes it. */
#include <string.h>

#include "eth/rx.h"
#include "roce/roce.h"

#define PKEY_MEMBER 0x8000u

/* [IBTA] §10.9.3 (C10-?): the low 15 bits equal, and one of the two a full member (bit 15).
 * seed 004's RC_CHK writes the same rule with bit 14 (L95): read as IBTA's bit 15. */
static bool pkey_ok(uint16_t pkt, uint16_t qp)
{
	return (pkt & 0x7FFF) == (qp & 0x7FFF) && ((pkt | qp) & PKEY_MEMBER);
}

/* [IBTA] §10.3.1: RTR, RTS, SQD and SQE receive; Reset, Init and Error do not. */
static bool receives(uint8_t state)
{
	return state == QP_RTR || state == QP_RTS || state == QP_SQD || state == QP_SQER;
}

static bool service_ok(const struct roce_qp *qp, const struct roce_pkt *p)
{
	return (p->op->service == NICREF_ROCE_SVC_RC && qp->st == QP_ST_RC) ||
	       (p->op->service == NICREF_ROCE_SVC_UD && qp->st == QP_ST_UD);
}

static void deliver(struct nicref_dev *dev, struct roce_pkt *p, int parsed)
{
	struct roce_state *rs = roce_state_of(dev);
	rs->cnt.pkts_in++;
	uint64_t a[5] = { p->port, p->dest_qp, p->opcode, p->psn, p->frame_len };
	dev_emit(dev, NICREF_EV_ROCE_RX, a, 5);
	if (parsed) {
		roce_drop(dev, p->port, (enum nicref_roce_drop)parsed, p->dest_qp, p->psn);
		return;
	}
	struct qp *q = obj_get(dev, OBJ_QP, p->dest_qp);
	struct roce_qp *qp = q ? q->xport : NULL;
	enum nicref_roce_drop why = NICREF_ROCE_DROP_NONE;
	if (p->op->kind == NICREF_ROCE_K_CNP) {
		/* [IBTA-A17] §A17.9: a CNP names the QP whose packets were marked: a sender. */
		if (!qp || !(qp->qp->state == QP_RTS || qp->qp->state == QP_SQD))
			why = NICREF_ROCE_DROP_CNP_NO_QP;
		else if (!pkey_ok(p->pkey, qp->pkey))
			why = NICREF_ROCE_DROP_PKEY;
		if (why)
			roce_drop(dev, p->port, why, p->dest_qp, p->psn);
		else
			roce_rp_cnp(dev, qp);
		return;
	}
	if (p->dest_qp < 2)
		why = NICREF_ROCE_DROP_QP_RESERVED; /* seed 004 L42-44, D-QP-3 */
	else if (!q)
		why = NICREF_ROCE_DROP_NO_QP;
	else if (!qp || !receives(q->state))
		why = NICREF_ROCE_DROP_QP_STATE;
	else if (!service_ok(qp, p))
		why = NICREF_ROCE_DROP_SERVICE;
	else if (!pkey_ok(p->pkey, qp->pkey))
		why = NICREF_ROCE_DROP_PKEY;
	if (why) {
		roce_drop(dev, p->port, why, p->dest_qp, p->psn);
		return;
	}
	roce_np_packet(dev, qp, p);
	if (qp->st == QP_ST_UD)
		roce_ud_rx(dev, qp, p);
	else
		rc_rx(dev, qp, p);
}

/* T486, D-VP-2: a frame the transport takes on the function's port is one the vport received
 * (Received ETH unicast/multicast/broadcast by its destination, octets with the FCS as D-RX-7),
 * whatever the transport's checks then make of it, as the Ethernet path counts before
 * steering. */
static void vport_received(struct nicref_dev *dev, unsigned port, const uint8_t *frame,
			   size_t len)
{
	if (port == VPORT_PORT)
		vport_count(dev, vport_counter_of(true, frame, len), (uint64_t)len + 4);
}

/* D-ROCE-23: on the function's port a RoCE frame is one of the vport's Ethernet frames (D-VP-2)
 * and passes its filter first (PRM §7.3 T16, rx_vport.c: the vport up, the destination one of
 * the function's addresses or allowed by promisc, the vlan list), the MAC of the GID entry
 * that holds the destination IP counting as one of its addresses (as D-L2-2 counts an L2 table
 * entry's). 0 taken, else the Ethernet path's drop reason. Other ports have no vport. */
static enum rx_drop_reason vport_takes(struct nicref_dev *dev, unsigned port,
				       const uint8_t *frame, size_t len, const uint8_t dip[16])
{
	if (port != VPORT_PORT)
		return 0;
	/* The GID entries are searched only for a frame the lists refuse (the same answer as
	 * searching first: owning the address changes nothing else): a frame to the vport's own
	 * address, the common case, costs no walk of the table. */
	enum rx_drop_reason r = rx_vport_accept_owned(dev, frame, len, false);
	if (r == RX_DROP_VPORT_FILTER && roce_gid_owns_dmac(dev, port, dip, frame, len))
		r = rx_vport_accept_owned(dev, frame, len, true);
	return r;
}

static void take(struct nicref_dev *dev, unsigned port, const uint8_t *frame, size_t len)
{
	/* D-ROCE-23: a looped frame meets the vport's filter as the Ethernet path's looped frames
	 * do (rx_wire.c receive); one it refuses is dropped there as theirs (rx_drop, no port
	 * counter: it crossed no MAC, D-RX-12). */
	uint8_t dip[16];
	if (roce_rx_candidate(frame, len, dip)) {
		enum rx_drop_reason r = vport_takes(dev, port, frame, len, dip);
		if (r) {
			const struct eth_lb_frame lb = { .frame = frame, .len = len, .port = port };
			const struct rx_pkt rp = { .frame = frame, .len = len, .port = port, .lb = &lb };
			rx_drop(dev, r, 0, &rp);
			return;
		}
	}
	struct roce_pkt p;
	int r = roce_parse(frame, len, port, roce_state_of(dev)->check_icrc, &p);
	if (r == ROCE_NOT_ROCE)
		return;
	vport_received(dev, port, frame, len);
	deliver(dev, &p, r);
}

static unsigned be16_at(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* Whether the frame reaches roce_parse's UDP port check and carries 4791 there: the walk of
 * its parse_l3 (up to two tags, IPv4 not a later fragment or IPv6, UDP), with the destination
 * address as parse_l3 writes it (IPv4-mapped) into dip. A frame refused here is one roce_parse
 * calls ROCE_NOT_ROCE; most of the Ethernet path's frames stop at the EtherType or the port,
 * before the parse's clearing, copies and ICRC. */
bool roce_rx_candidate(const uint8_t *f, size_t len, uint8_t dip[16])
{
	size_t l2 = 14, l4;
	if (!f || len < l2)
		return false;
	unsigned type = be16_at(f + 12);
	for (unsigned tags = 0; tags < 2 && (type == 0x8100 || type == 0x88A8); tags++) {
		if (len < l2 + 4)
			return false;
		type = be16_at(f + l2 + 2);
		l2 += 4;
	}
	const uint8_t *ip = f + l2;
	if (type == 0x0800) {
		if (len < l2 + 20 || ip[0] >> 4 != 4)
			return false;
		size_t ihl = (size_t)(ip[0] & 0xF) * 4;
		if (ihl < 20 || len < l2 + ihl + 8 || ip[9] != 17 || (be16_at(ip + 6) & 0x1FFF) != 0)
			return false;
		l4 = l2 + ihl;
		if (be16_at(f + l4 + 2) != NICREF_ROCE_UDP_PORT)
			return false;
		memset(dip, 0, 10);
		dip[10] = dip[11] = 0xFF;
		memcpy(dip + 12, ip + 16, 4);
		return true;
	}
	if (type != 0x86DD || len < l2 + 40 + 8 || ip[0] >> 4 != 6 || ip[6] != 17)
		return false;
	l4 = l2 + 40;
	if (be16_at(f + l4 + 2) != NICREF_ROCE_UDP_PORT)
		return false;
	memcpy(dip, ip + 24, 16);
	return true;
}

/* D-ROCE-1: the transport takes RoCEv2 to one of the port's GIDs. The parse has no effect but
 * its result, so the address is asked first: a frame to another address is the Ethernet
 * path's whatever the parse would say of it. On the function's port the vport's filter comes
 * before the transport (D-ROCE-23): while the vport is down (D-VP-2), or for a destination MAC
 * or VLAN the vport does not take, the frame is not the transport's, and the Ethernet path
 * drops it as it drops every such frame (vport_down, vport_filter). */
bool roce_rx(struct nicref_dev *dev, unsigned port, const uint8_t *frame, size_t len)
{
	uint8_t dip[16];
	if (!roce_rx_candidate(frame, len, dip) || !roce_gid_is_local(dev, port, dip) ||
	    vport_takes(dev, port, frame, len, dip))
		return false;
	struct roce_pkt p;
	int r = roce_parse(frame, len, port, roce_state_of(dev)->check_icrc, &p);
	if (r == ROCE_NOT_ROCE)
		return false;
	vport_received(dev, port, frame, len);
	roce_enter(dev);
	deliver(dev, &p, r);
	roce_leave(dev);
	return true;
}

void roce_enter(struct nicref_dev *dev)
{
	roce_state_of(dev)->depth++;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void roce_leave(struct nicref_dev *dev)
{
	struct roce_state *rs = roce_state_of(dev);
	if (rs->depth == 1) {
		/* D-ROCE-12: the packets to local GIDs, in the order they were sent; what they
		 * cause is queued behind them. */
		while (rs->lb_head < rs->lb_tail) {
			const uint8_t *q = rs->lb + rs->lb_head;
			size_t n = rd32(q);
			unsigned port = rd32(q + 4);
			rs->lb_head += 8 + ((n + 7) & ~(size_t)7);
			take(dev, port, q + 8, n);
		}
		rs->lb_head = rs->lb_tail = 0;
	}
	rs->depth--;
}

void roce_qp_run(struct nicref_dev *dev, struct qp *q, const struct sq_db *db, bool bf_ok)
{
	struct roce_qp *qp = q->xport;
	if (!qp || PRM_GET(qpc, no_sq, q->ctx, QP_CTX_BYTES))
		return;
	/* D-DB-2 as an SQ's (obj/sq_db.c): the record's SQ counter (dword 1, mlx5), the index in
	 * [the device's counter, record). The WQE is read from memory: a Blue Flame copy is not
	 * used (D-ROCE-17). */
	uint16_t rec;
	if (roce_qp_dbr(dev, qp, true, &rec))
		return;
	uint16_t index = db->wqe_index;
	if ((uint16_t)(index - qp->sq.hw_counter) >= (uint16_t)(rec - qp->sq.hw_counter)) {
		if ((uint16_t)(index - rec) < 0x8000u)
			dev_violation(dev, NICREF_VIO_SQ_DB_AHEAD_OF_RECORD,
				      (uint64_t)qp->qpn << 32 | (uint64_t)index << 16 | rec);
		return;
	}
	uint64_t a[5] = { qp->qpn, index, db->opcode, db->ds, bf_ok ? 1u : 0u };
	dev_emit(dev, NICREF_EV_SQ_DOORBELL, a, 5);
	qp->sq.sw_counter = rec;
	roce_enter(dev);
	if (q->state == QP_ERR)
		roce_qp_flush(dev, qp);
	else if (q->state == QP_RTS && qp->st == QP_ST_UD)
		roce_ud_run(dev, qp);
	else if (q->state == QP_RTS && qp->st == QP_ST_RC)
		rc_sq_run(dev, qp);
	roce_leave(dev);
}
