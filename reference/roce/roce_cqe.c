/* A QP's completions ([MLX5] device.h struct mlx5_cqe64 / mlx5_err_cqe, the qp_cqe layout):
 * requester CQEs on the send CQ (MLX5_CQE_REQ with the WQE's opcode; MLX5_CQE_REQ_ERR with a
 * syndrome), responder CQEs on the receive CQ (MLX5_CQE_RESP_SEND, _SEND_IMM, _WR_IMM;
 * MLX5_CQE_RESP_ERR), written through cq_post (owner, signature, the completion event), as the
 * Ethernet queues' are. A CQE the CQ cannot take puts the QP in ERR (D-ROCE-10: PRM §7.12.1's
 * rule for work queues, applied to the QP). */
#include <string.h>

#include "roce/roce.h"

#define QC(n, v) PRM_SET(qp_cqe, n, b, sizeof b, (v))

/* T26 CE (D-ROCE-20, as the Ethernet SQ's D-TX-8): 00 and 01 report errors only, 01 not after
 * a WQE that completed in error ("if CQE on previous WQE completed in error, no CQE will be
 * generated"); 10 and 11 every completion. A QP's WQE in error puts it in ERR, so under 01 the
 * flush of the WQEs after it writes no CQE. */
bool roce_sq_cqe_wanted(struct roce_qp *qp, uint8_t ce, uint8_t syndrome)
{
	bool prev_err = qp->sq_prev_err;
	qp->sq_prev_err = syndrome != 0;
	return wqe_ce_wants_cqe(ce, syndrome != 0, prev_err);
}

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
	/* T68 se (cqe64 3Ch bit 1, the PRM's own CQE layout: one declaration): a solicited CQE
	 * fires a CQ armed for solicited events (PRM §7.13.2; cq_post reads it). D-ROCE-20: a
	 * requester CQE of CE 11b; D-ROCE-21: a receive CQE of a message whose last packet carried
	 * BTH SE. */
	if (c->se)
		PRM_SET(cqe64, se, b, sizeof b, 1);
	uint32_t cqn = c->recv ? qp->qp->cqn_rcv : qp->qp->cqn_snd;
	if (cq_post(dev, cqn, b) == 0)
		return 0;
	roce_qp_error(dev, qp);
	return -1;
}
