/* Send queues: CREATE/MODIFY/DESTROY/QUERY_SQ (PRM §7.9, §12.10, T60-T63), the SQ's error
 * semantics and flush (§7.9.2, §7.12.7). Doorbells are in obj/sq_db.c. */
#include <stdlib.h>

#include "cmd/cmd_table.h"
#include "obj/modify_mask.h"

void sq_free(struct nicref_dev *dev, struct sq *sq)
{
	wq_free(dev, &sq->wq);
	dev_free(dev, sq);
}

/* The SQ an sqn of MODIFY/DESTROY/QUERY_SQ names (D-OBJ-2: BAD_INDEX beyond the table). */
static struct sq *sq_named(struct nicref_dev *dev, uint32_t sqn, enum nicref_cmd_rule *r)
{
	return obj_find(dev, OBJ_SQ, sqn, NICREF_RULE_SQ_INDEX_OUT_OF_RANGE,
			NICREF_RULE_SQ_NOT_FOUND, r);
}

enum nicref_cmd_rule cmd_create_sq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	enum nicref_cmd_rule r;

	/* T61 04h: user_index "Reserved if HCA_CAP.cqe_version==0". */
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 0 &&
	    (r = wq_reserved_field(c, &nicref_layout_create_sq_in,
				   PRMF_create_sq_in__user_index)) != NICREF_RULE_NONE)
		return r;
	/* §7.9 Figure 17, T62: the state is given at CREATE and an SQ starts in RST. */
	if (PRM_GET(create_sq_in, state, in, n) != WQ_RST)
		return NICREF_RULE_SQ_STATE_NOT_RST;
	/* T61 20h/2Ch: "only a single TIS is supported". */
	if (PRM_GET(create_sq_in, tis_lst_sz, in, n) != 1)
		return NICREF_RULE_SQ_TIS_LIST_SIZE;
	/* §7.9.3.1: modes 0-3 and 5-7; 4 is reserved. */
	unsigned mode = (unsigned)PRM_GET(create_sq_in, min_wqe_inline_mode, in, n);
	if (mode == 4)
		return NICREF_RULE_SQ_INLINE_MODE_RESERVED;
	/* §7.9.3: with HCA_CAP.wqe_inline_mode 1 (T147) the SQ's mode must be at least the NIC
	 * vport's (T15 00h[26:24]); modes 0 and 2 take no per-SQ mode. */
	if (CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps, wqe_inline_mode) ==
		    1 &&
	    mode < vport_min_wqe_inline_mode(dev))
		return NICREF_RULE_SQ_INLINE_MODE_BELOW_VPORT;
	struct wq_rules wr = {
		WQ_KIND_SQ,
		(unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_min_stride_sz_sq),
		(unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_stride_sz_sq),
	};
	struct wq w;
	if ((r = wq_parse(c, &wr, &w)) != NICREF_RULE_NONE)
		return r;
	/* §3.2.1 / Figure 3: the CQ, PD, TIS and UAR exist before the SQ: a handle outside its
	 * table is BAD_INDEX, one in range not live BAD_RESOURCE (D-OBJ-2, T128). */
	uint32_t cqn = (uint32_t)PRM_GET(create_sq_in, cqn, in, n);
	uint32_t pd = (uint32_t)PRM_GET(create_sq_in, pd, in, n);
	uint32_t tisn = (uint32_t)PRM_GET(create_sq_in, tis_num_0, in, n);
	uint32_t uar = (uint32_t)PRM_GET(create_sq_in, uar_page, in, n);
	if (obj_find(dev, OBJ_CQ, cqn, NICREF_RULE_WQ_CQ_OUT_OF_RANGE, NICREF_RULE_WQ_CQ_MISSING,
		      &r) &&
	    obj_find(dev, OBJ_PD, pd, NICREF_RULE_WQ_PD_OUT_OF_RANGE, NICREF_RULE_WQ_PD_MISSING,
		      &r) &&
	    obj_find(dev, OBJ_TIS, tisn, NICREF_RULE_SQ_TIS_OUT_OF_RANGE,
		      NICREF_RULE_SQ_TIS_MISSING, &r) &&
	    obj_find(dev, OBJ_UAR, uar, NICREF_RULE_SQ_UAR_OUT_OF_RANGE,
		      NICREF_RULE_SQ_UAR_MISSING, &r) &&
	    obj_charge(dev, OBJ_SQ))
		r = NICREF_RULE_ICM_PAGES_SHORT; /* D-PG-4 */
	if (r != NICREF_RULE_NONE) {
		wq_free(dev, &w);
		return r;
	}
	struct sq *sq = dev_calloc(dev, 1, sizeof *sq);
	int64_t h = sq ? qp_sq_alloc(dev, OBJ_SQ, sq) : -2; /* D-ROCE-2 */
	if (h < 0) {
		obj_uncharge(dev, OBJ_SQ);
		wq_free(dev, &w);
		dev_free(dev, sq);
		/* T145 log_max_sq: the count of SQs (EXCEED_LIM, D-OBJ-2). */
		return h == -1 ? NICREF_RULE_SQ_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	sq->hdr.handle = (uint32_t)h;
	sq->state = WQ_RST;
	sq->flush_in_error_en = PRM_GET(create_sq_in, flush_in_error_en, in, n) != 0;
	sq->bf_reg = -1;
	sq->cqn = cqn;
	sq->pd = pd;
	sq->tisn = tisn;
	sq->uar = uar;
	sq->user_index = (uint32_t)PRM_GET(create_sq_in, user_index, in, n);
	sq->wq = w;
	wq_ctx_store(sq->ctx, &nicref_layout_create_sq_in, in, n);
	wq_ref(dev, OBJ_CQ, cqn);
	wq_ref(dev, OBJ_PD, pd);
	wq_ref(dev, OBJ_TIS, tisn);
	wq_ref(dev, OBJ_UAR, uar);
	PRM_SET(create_sq_out, sqn, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

void sq_flush(struct nicref_dev *dev, struct sq *sq)
{
	/* T61 00h[28], §7.9.2: with flush_in_error_en the WQEs posted (hw_counter up to the
	 * record's sq_wqebb_counter, §7.4.3) complete with a flush error; otherwise HW "is not
	 * forced to flush" and the model does not (D-SQ-4). */
	uint16_t db;
	if (!sq->flush_in_error_en || wq_dbr_read(dev, &sq->wq, true, &db))
		return;
	sq->wq.sw_counter = db;
	while (sq->wq.hw_counter != db) {
		/* T26: the ctrl segment gives the WQE's opcode, size (ds, 16-byte units: it takes
		 * ceil(ds/4) WQEBBs, §7.4.1.1) and completion mode (ce). */
		uint8_t ctrl[16];
		if (wq_read(dev, &sq->wq, sq->wq.hw_counter, 0, ctrl, sizeof ctrl))
			return; /* the WQE cannot be read: it stays posted */
		unsigned ds = (unsigned)PRM_GET(send_wqe_ctrl, ds, ctrl, sizeof ctrl);
		unsigned ce = (unsigned)PRM_GET(send_wqe_ctrl, ce, ctrl, sizeof ctrl);
		uint8_t opcode = (uint8_t)PRM_GET(send_wqe_ctrl, opcode, ctrl, sizeof ctrl);
		uint16_t left = (uint16_t)(db - sq->wq.hw_counter);
		uint16_t bbs = ds ? (uint16_t)((ds + 3) / 4) : 1; /* D-SQ-5: ds 0 takes one WQEBB */
		/* §7.4.3: HW owns the WQEBBs the record covers. A WQE running past the record is
		 * not wholly posted: the flush ends there and it stays posted (D-SQ-5, as the run
		 * does, D-TX-3, with the same violation); a later record covering it flushes it
		 * whole. */
		if (bbs > left) {
			dev_violation(dev, NICREF_VIO_TX_WQE_BEYOND_RECORD,
				      (uint64_t)sq->hdr.handle << 32 |
					  (uint64_t)sq->wq.hw_counter << 16 | ds);
			return;
		}
		/* T26 CE: a flush is an error completion (wqe_ce_wants_cqe). */
		if (wqe_ce_wants_cqe(ce, true, sq->last_wqe_err) &&
		    wq_flush_cqe(dev, sq->cqn, true, sq->wq.hw_counter, opcode, sq->user_index))
			return; /* the CQ took no CQE (§7.12.1): the rest stays posted */
		sq->last_wqe_err = true;
		sq->wq.hw_counter = (uint16_t)(sq->wq.hw_counter + bbs);
	}
}

void sq_enter_error(struct nicref_dev *dev, struct sq *sq, enum wq_cause cause)
{
	wq_set_state(dev, WQ_KIND_SQ, sq->hdr.handle, &sq->state, WQ_ERR, cause);
	sq_flush(dev, sq);
}

void sq_hw_error(struct nicref_dev *dev, struct sq *sq)
{
	/* §7.12.1 step 2, §7.9.2: an error of a RDY SQ's WQE or CQ puts it in ERR. */
	if (sq->state == WQ_RDY)
		sq_enter_error(dev, sq, WQ_CAUSE_DEVICE);
}

/* T62: state is required in every transition; bit 0 (packet_pacing_rate_limit_index) has no
 * position in T60 (D-SQ-2). Every other field is reserved in a MODIFY_SQ input (D-MOD-1): the
 * layout has no row for them, and a row added later is reserved unless listed here. */
static const struct modify_sel sq_modify_sel[] = { { PRMF_modify_sq_in__state, MODIFY_ALWAYS } };

enum nicref_cmd_rule cmd_modify_sq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint64_t mask = PRM_GET(modify_sq_in, modify_bitmask_63_32, c->in, c->in_len) << 32 |
			PRM_GET(modify_sq_in, modify_bitmask_31_0, c->in, c->in_len);
	/* T320 20h: "Only fields requested by the mask should be valid. Other fields are
	 * reserved." */
	enum nicref_cmd_rule r = modify_check_unselected(
		c, &nicref_layout_modify_sq_in, WQ_CTX_OFF, sq_modify_sel,
		sizeof sq_modify_sel / sizeof sq_modify_sel[0], mask);
	if (r != NICREF_RULE_NONE)
		return r;
	struct sq *sq = sq_named(dev, (uint32_t)PRM_GET(modify_sq_in, sqn, c->in, c->in_len), &r);
	if (!sq)
		return r;
	/* §12.10.2 L7724: "If the current state from the input does not match the existing SQ
	 * state, then the command fails (return code BAD_RESOURCE_STATE)". */
	if (PRM_GET(modify_sq_in, sq_state, c->in, c->in_len) != sq->state)
		return NICREF_RULE_WQ_CURRENT_STATE_MISMATCH;
	/* T62: bit 0 (packet_pacing_rate_limit_index, "O" in every transition) is the only one;
	 * the field has no position in T60, so it is accepted and changes nothing (D-SQ-2). */
	if (mask & ~1ull)
		return NICREF_RULE_WQ_BITMASK_BAD;
	unsigned to = (unsigned)PRM_GET(modify_sq_in, state, c->in, c->in_len);
	if (!wq_transition_ok(WQ_KIND_SQ, sq->state, to))
		return NICREF_RULE_WQ_TRANSITION_REFUSED; /* D-SQ-1 */
	if (to == WQ_ERR) {
		sq_enter_error(dev, sq, WQ_CAUSE_COMMAND);
	} else {
		if (to == WQ_RST) {
			/* T63: SW zeroes the record before RST2RDY; the queue starts over. */
			sq->wq.hw_counter = sq->wq.sw_counter = 0;
			sq->last_wqe_err = false;
			sq->umr_fence_due = false;
		}
		wq_set_state(dev, WQ_KIND_SQ, sq->hdr.handle, &sq->state, (uint8_t)to,
			     WQ_CAUSE_COMMAND);
	}
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_destroy_sq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint32_t sqn = (uint32_t)PRM_GET(destroy_sq_in, sqn, c->in, c->in_len);
	enum nicref_cmd_rule r;
	struct sq *sq = sq_named(dev, sqn, &r);
	if (!sq)
		return r;
	/* §12.10.3: in any state; nothing names an SQ. */
	wq_unref(dev, OBJ_CQ, sq->cqn);
	wq_unref(dev, OBJ_PD, sq->pd);
	wq_unref(dev, OBJ_TIS, sq->tisn);
	wq_unref(dev, OBJ_UAR, sq->uar);
	objtab_remove(&dev->obj[OBJ_SQ], sqn);
	obj_uncharge(dev, OBJ_SQ);
	sq_free(dev, sq);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_sq(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	struct sq *sq = sq_named(c->dev, (uint32_t)PRM_GET(query_sq_in, sqn, c->in, c->in_len), &r);
	if (!sq)
		return r;
	wq_query_out(c, sq->ctx, &sq->wq, sq->state); /* §12.10.4: a snapshot, no side effect */
	return NICREF_RULE_NONE;
}
