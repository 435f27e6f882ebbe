/* The Unreliable Datagram service ([IBTA] §9.8, §10.2.4, §11.4.1.1; [MLX5] the datagram
 * segment): a send WQE is one packet (UD_SEND_ONLY, with immediate) to the QP and address its
 * datagram segment names, with the DETH (the Q_Key, the source QP); a received packet passes
 * the Q_Key check, takes one receive WQE and lands after the 40-byte GRH area; nothing is
 * acknowledged, a packet with no WQE to take is dropped. Decisions D-ROCE-13..15. */
#include <string.h>

#include "roce/roce.h"

/* [IBTA] §10.2.4 C10-15: "if the high-order bit of the Q_Key in the work request is set, the
 * QP's own Q_Key is used" (a controlled Q_Key cannot be forged by the sender). */
#define QKEY_USE_QP 0x80000000u

/* The completion of a send WQE: the CQE its CE mode asks for (PRM §7.4.4.1 T26, D-ROCE-20;
 * ce 11b makes it solicited); then the SQ moves past it. */
static void complete(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_swqe *w,
		     uint8_t syndrome)
{
	if (roce_sq_cqe_wanted(qp, w->ce, syndrome)) {
		struct roce_cqe c = { .se = w->ce == WQE_CE_AND_EVENT,
				      .opcode = syndrome ? ROCE_CQE_REQ_ERR : ROCE_CQE_REQ,
				      .syndrome = syndrome, .s_wqe_opcode = w->opcode,
				      .wqe_counter = w->index };
		(void)roce_cqe(dev, qp, &c);
	}
	qp->sq.hw_counter = (uint16_t)(w->index + w->bbs);
	qp->sq_head = qp->sq.hw_counter;
}

void roce_ud_run(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct roce_state *rs = roce_state_of(dev);
	uint32_t guard = 1u << qp->sq.log_size;
	while (qp->qp->state == QP_RTS && qp->sq.hw_counter != qp->sq.sw_counter && guard--) {
		struct roce_swqe w;
		uint8_t syn = roce_sq_wqe(dev, qp, qp->sq.hw_counter, &w);
		/* D-ROCE-13: a UD message is one packet: at most the path MTU ([IBTA] §9.8?
		 * C9-?: "UD messages are limited to the PMTU"). */
		if (!syn && w.length > qp->pmtu)
			syn = ROCE_SYND_LOCAL_LENGTH_ERR;
		if (!syn && w.length)
			syn = roce_gather(dev, qp, &w, 0, rs->msg, w.length);
		if (syn) {
			if (!w.bbs)
				w.bbs = 1;
			complete(dev, qp, &w, syn);
			roce_qp_error(dev, qp); /* D-ROCE-13: a local error puts the QP in ERR */
			return;
		}
		struct roce_tx_hdr h = {
			.opcode = w.opcode == ROCE_WQE_SEND_IMM ? NICREF_ROCE_OP_UD_SEND_ONLY_IMM
								: NICREF_ROCE_OP_UD_SEND_ONLY,
			.se = w.se,
			.psn = qp->ud_psn,
			.dest_qp = w.ud_dqpn,
			.deth_qkey = w.ud_qkey & QKEY_USE_QP ? qp->qkey : w.ud_qkey,
			.deth_src_qp = qp->qpn,
			.imm = w.imm,
			.av = &w.av,
		};
		qp->ud_psn = roce_psn_add(qp->ud_psn, 1);
		(void)roce_tx(dev, qp, &h, rs->msg, w.length);
		complete(dev, qp, &w, 0);
	}
}

/* D-ROCE-14: the GRH area ([IBTA] §11.4.1.1: the first 40 bytes of a UD receive buffer take
 * the GRH): the IPv6 header as received, or for IPv4 20 zero bytes then the IPv4 header (its
 * first 20 bytes), where mlx5 puts it (rdma-core and Linux read an IPv4 header at offset 20). */
static void grh_area(const struct roce_pkt *p, uint8_t grh[NICREF_ROCE_GRH_LEN])
{
	memset(grh, 0, NICREF_ROCE_GRH_LEN);
	const uint8_t *ip = p->frame + p->l3_off;
	if (p->ipver == 6)
		memcpy(grh, ip, NICREF_ROCE_GRH_LEN);
	else
		memcpy(grh + 20, ip, 20);
}

void roce_ud_rx(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_pkt *p)
{
	/* [IBTA] §10.2.4 C10-?: the DETH Q_Key must be the QP's. */
	if (p->deth_qkey != qp->qkey) {
		roce_drop(dev, p->port, NICREF_ROCE_DROP_QKEY, qp->qpn, p->psn);
		return;
	}
	if (p->payload_len > qp->pmtu) {
		roce_drop(dev, p->port, NICREF_ROCE_DROP_UD_LENGTH, qp->qpn, p->psn);
		return;
	}
	struct roce_rwqe w;
	int t = roce_rq_take(dev, qp, &w);
	if (t == -2) {
		roce_drop(dev, p->port, NICREF_ROCE_DROP_UD_NO_WQE, qp->qpn, p->psn);
		return;
	}
	if (t < 0) {
		roce_qp_error(dev, qp);
		return;
	}
	uint32_t total = NICREF_ROCE_GRH_LEN + p->payload_len;
	uint8_t grh[NICREF_ROCE_GRH_LEN];
	grh_area(p, grh);
	uint8_t syn = total > w.length ? ROCE_SYND_LOCAL_LENGTH_ERR
				       : roce_scatter(dev, qp, &w, 0, grh, NICREF_ROCE_GRH_LEN);
	if (!syn && p->payload_len)
		syn = roce_scatter(dev, qp, &w, NICREF_ROCE_GRH_LEN, p->payload, p->payload_len);
	bool imm = (p->hdrs & NICREF_ROCE_H_IMMDT) != 0;
	const uint8_t *f = p->frame;
	bool tagged = p->l3_off > 14;
	struct roce_cqe c = {
		.recv = true,
		.se = p->se && !syn, /* D-ROCE-21: IBTA Vol. 1 §9.2 BTH SE, PRM T68 se */
		.opcode = syn ? ROCE_CQE_RESP_ERR : imm ? ROCE_CQE_RESP_SEND_IMM : ROCE_CQE_RESP_SEND,
		.syndrome = syn,
		.wqe_counter = (uint16_t)w.index,
		.byte_cnt = total, /* [IBTA] §11.4.1.1: the GRH counts in the length */
		.imm = imm ? p->imm : 0,
		.src_qp = p->deth_src_qp,
		.grh = true,
		.l3_type = p->ipver == 6 ? 1 : 2,
		.vlan_present = tagged,
		.vlan = tagged ? (uint16_t)(f[14] << 8 | f[15]) : 0,
	};
	(void)roce_cqe(dev, qp, &c);
	/* D-ROCE-15: a local length or protection error completes the WQE in error and puts the
	 * QP in ERR ([IBTA] §10.8.3 Class D responder errors on an unreliable service). */
	if (syn)
		roce_qp_error(dev, qp);
}
