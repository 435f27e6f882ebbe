/* A QP's completions ([MLX5] device.h struct mlx5_cqe64 / mlx5_err_cqe, the qp_cqe layout):
 * requester CQEs on the send CQ (MLX5_CQE_REQ with the WQE's opcode; MLX5_CQE_REQ_ERR with a
 * syndrome), responder CQEs on the receive CQ (MLX5_CQE_RESP_SEND, _SEND_IMM, _WR_IMM;
 * MLX5_CQE_RESP_ERR), written through cq_post (owner, signature, the completion event), as the
 * Ethernet queues' are. A CQE the CQ cannot take puts the QP in ERR (D-ROCE-10: PRM §7.12.1's
 * rule for work queues, applied to the QP). */
#include <string.h>

#include "roce/roce.h"

#define QC(n, v) PRM_SET(qp_cqe, n, b, sizeof b, (v))

int roce_cqe(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_cqe *c)
{
	uint8_t b[64];
	memset(b, 0, sizeof b);
	bool err = c->opcode == ROCE_CQE_REQ_ERR || c->opcode == ROCE_CQE_RESP_ERR;
	QC(opcode, c->opcode);
	QC(wqe_counter, c->wqe_counter);
	QC(qpn, qp->qpn);
	if (err) {
		QC(syndrome, c->syndrome);
		QC(vendor_err_synd, c->vendor_syndrome);
		QC(s_wqe_opcode, c->recv ? 0 : c->s_wqe_opcode);
	} else if (!c->recv) {
		QC(s_wqe_opcode, c->s_wqe_opcode);
		QC(byte_cnt, c->byte_cnt);
	} else {
		QC(byte_cnt, c->byte_cnt);
		QC(immediate, c->imm);
		if (qp->qp->holds & QP_HOLDS_RMP)
			QC(srqn, qp->qp->rmpn);
		if (qp->st == QP_ST_UD) {
			QC(rqpn, c->src_qp & ROCE_PSN_MASK);
			QC(grh, c->grh ? 1 : 0);
			QC(roce_l3_type, c->l3_type);
			QC(vlan_present, c->vlan_present ? 1 : 0);
			QC(vlan_info, c->vlan);
		}
	}
	uint32_t cqn = c->recv ? qp->qp->cqn_rcv : qp->qp->cqn_snd;
	if (cq_post(dev, cqn, b) == 0)
		return 0;
	roce_qp_error(dev, qp);
	return -1;
}
