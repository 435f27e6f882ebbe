/* A send WQE's completion (PRM §7.12, T67/T68 requester CQE, T73/T74 completion with error,
 * T26 CE): the CQE its ce mode asks for, written through cq_post (obj/cq.h), then the device's
 * counter moved past the WQE; an error moves the SQ to ERR, which flushes what is posted after
 * it (§7.9.2, §7.12.7). Decisions D-TX-8, D-TX-9 (docs/tx.md). */
#include "eth/eth.h"

/* T26 CE. */

/* T67/T68, requester ("SQ" column): user_index (cqe_version 1), the timer sample, the WQE's
 * opcode and counter, se. owner and signature are cq_post's. */
static int post_ok(const struct tx_wqe *w)
{
	struct nicref_dev *dev = w->dev;
	uint8_t cqe[PRM_SIZE_cqe64] = { 0 };
	uint64_t ts = init_seg_timer(dev); /* §7.12.10 "a sample of the device internal timer" */
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 1)
		PRM_SET(cqe64, srqn_user_index, cqe, sizeof cqe, w->sq->user_index & 0xFFFFFF);
	PRM_SET(cqe64, timestamp_h, cqe, sizeof cqe, ts >> 32);
	PRM_SET(cqe64, timestamp_l, cqe, sizeof cqe, ts & 0xFFFFFFFFu);
	PRM_SET(cqe64, s_wqe_opcode, cqe, sizeof cqe, w->opcode);
	PRM_SET(cqe64, wqe_counter, cqe, sizeof cqe, w->index);
	PRM_SET(cqe64, opcode, cqe, sizeof cqe, CQE_OP_REQ);
	/* T68 SE; CE 11 "Generate CQE and EQE (local Solicited event)" (D-TX-8). */
	PRM_SET(cqe64, se, cqe, sizeof cqe, w->se || w->ce == WQE_CE_AND_EVENT);
	return cq_post(dev, w->sq->cqn, cqe);
}

/* T73/T74: the syndrome, the WQE's opcode and counter, user_index; opcode 13 "requester
 * error". */
static int post_error(const struct tx_wqe *w, uint8_t syndrome)
{
	struct nicref_dev *dev = w->dev;
	uint8_t cqe[PRM_SIZE_err_cqe] = { 0 };
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 1)
		PRM_SET(err_cqe, srqn_user_index, cqe, sizeof cqe, w->sq->user_index & 0xFFFFFF);
	PRM_SET(err_cqe, syndrome, cqe, sizeof cqe, syndrome);
	PRM_SET(err_cqe, s_wqe_opcode, cqe, sizeof cqe, w->opcode);
	PRM_SET(err_cqe, wqe_counter, cqe, sizeof cqe, w->index);
	PRM_SET(err_cqe, opcode, cqe, sizeof cqe, CQE_OP_REQ_ERR);
	return cq_post(dev, w->sq->cqn, cqe);
}

void tx_complete(struct tx_wqe *w, uint8_t syndrome, uint16_t bbs)
{
	struct sq *sq = w->sq;
	int rc = 0;
	if (wqe_ce_wants_cqe(w->ce, syndrome != 0, sq->last_wqe_err))
		rc = syndrome ? post_error(w, syndrome) : post_ok(w);
	sq->last_wqe_err = syndrome != 0;
	sq->wq.hw_counter = (uint16_t)(sq->wq.hw_counter + bbs);
	/* §7.12.1 step 2: a CQE the CQ did not take puts the SQ in error; §7.9.2 / §7.12.7: so
	 * does a WQE completed in error, and what is posted after it is flushed. */
	if (syndrome || rc)
		sq_hw_error(w->dev, sq);
}
