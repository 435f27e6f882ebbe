/* Receive memory pools: CREATE/MODIFY/DESTROY/QUERY_RMP (PRM §7.10, §12.13, T64-T66) and the
 * RMP's error state (§7.7.2.2, §7.10.1). RQs take WQEs from it in obj/rq.c. */
#include <stdlib.h>

#include "cmd/cmd_table.h"
#include "obj/modify_mask.h"

void rmp_free(struct nicref_dev *dev, struct rmp *rmp)
{
	wq_free(dev, &rmp->wq);
	dev_free(dev, rmp);
}

/* The RMP an rmpn of MODIFY/DESTROY/QUERY_RMP names (D-OBJ-2: BAD_INDEX beyond the table). */
static struct rmp *rmp_named(struct nicref_dev *dev, uint32_t rmpn, enum nicref_cmd_rule *r)
{
	return obj_find(dev, OBJ_RMP, rmpn, NICREF_RULE_RMP_INDEX_OUT_OF_RANGE,
			NICREF_RULE_RMP_NOT_FOUND, r);
}

enum nicref_cmd_rule cmd_create_rmp(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	enum nicref_cmd_rule r;

	/* T65 00h[23:20]: "Must be RDY for CREATE_RMP" (§7.10.1: RDY is the initial state). */
	if (PRM_GET(create_rmp_in, state, in, n) != WQ_RDY)
		return NICREF_RULE_RMP_STATE_NOT_RDY;
	/* T65 04h[31]: "Valid only if HCA_CAP.basic_cyclic_rcv_wqe==1 and wq.wq_type==WQ_CYCLIC". */
	if (PRM_GET(create_rmp_in, basic_cyclic_rcv_wqe, in, n) &&
	    (!CAPS_CUR(dev, CAP_GENERAL, hca_cap, basic_cyclic_rcv_wqe) ||
	     PRM_GET(create_rmp_in, wq_type, in, n) != 1))
		return NICREF_RULE_RMP_BASIC_CYCLIC_BAD;
	/* The RMP holds receive WQEs: the RQ stride range (T145 74h, §7.4.1.2). */
	struct wq_rules wr = {
		WQ_KIND_RMP,
		(unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_min_stride_sz_rq),
		(unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_stride_sz_rq),
	};
	struct wq w;
	if ((r = wq_parse(c, &wr, &w)) != NICREF_RULE_NONE)
		return r;
	uint32_t pd = (uint32_t)PRM_GET(create_rmp_in, pd, in, n);
	/* §3.2.1: the PD first (D-OBJ-2: BAD_INDEX beyond its table, BAD_RESOURCE not live). */
	if (obj_find(dev, OBJ_PD, pd, NICREF_RULE_WQ_PD_OUT_OF_RANGE, NICREF_RULE_WQ_PD_MISSING,
		      &r) &&
	    obj_charge(dev, OBJ_RMP))
		r = NICREF_RULE_ICM_PAGES_SHORT; /* D-PG-4 */
	if (r != NICREF_RULE_NONE) {
		wq_free(dev, &w);
		return r;
	}
	struct rmp *rmp = dev_calloc(dev, 1, sizeof *rmp);
	int64_t h = rmp ? objtab_alloc(&dev->obj[OBJ_RMP], rmp) : -2;
	if (h < 0) {
		obj_uncharge(dev, OBJ_RMP);
		wq_free(dev, &w);
		dev_free(dev, rmp);
		return h == -1 ? NICREF_RULE_RMP_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	rmp->hdr.handle = (uint32_t)h;
	rmp->state = WQ_RDY;
	rmp->lwm = (uint16_t)PRM_GET(create_rmp_in, lwm, in, n);
	rmp->pd = pd;
	rmp->wq = w;
	wq_ctx_store(rmp->ctx, &nicref_layout_create_rmp_in, in, n);
	wq_ref(dev, OBJ_PD, pd);
	PRM_SET(create_rmp_out, rmpn, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

void rmp_hw_error(struct nicref_dev *dev, struct rmp *rmp)
{
	/* §7.7.2.2: a de-queue failure moves the RMP to ERR "and an affiliated asynchronous
	 * event is generated" ([PUB] 0x12, D-EV-1). */
	if (rmp->state != WQ_RDY)
		return;
	wq_set_state(dev, WQ_KIND_RMP, rmp->hdr.handle, &rmp->state, WQ_ERR, WQ_CAUSE_DEVICE);
	wq_post_event(dev, EQ_EVENT_RMP_CATASTROPHIC, 0, rmp->hdr.handle);
}

/* T66: state is required, lwm is bit 0; every other field, and lwm with bit 0 clear, is
 * reserved in a MODIFY_RMP input (D-MOD-1). */
static const struct modify_sel rmp_modify_sel[] = {
	{ PRMF_modify_rmp_in__state, MODIFY_ALWAYS },
	{ PRMF_modify_rmp_in__lwm, 0 },
};

enum nicref_cmd_rule cmd_modify_rmp(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	uint64_t mask = PRM_GET(modify_rmp_in, modify_bitmask_63_32, in, n) << 32 |
			PRM_GET(modify_rmp_in, modify_bitmask_31_0, in, n);
	/* T371 20h: "Only fields requested by the mask should be valid, other fields are
	 * reserved." */
	enum nicref_cmd_rule r = modify_check_unselected(
		c, &nicref_layout_modify_rmp_in, WQ_CTX_OFF, rmp_modify_sel,
		sizeof rmp_modify_sel / sizeof rmp_modify_sel[0], mask);
	if (r != NICREF_RULE_NONE)
		return r;
	struct rmp *rmp = rmp_named(dev, (uint32_t)PRM_GET(modify_rmp_in, rmpn, in, n), &r);
	if (!rmp)
		return r;
	/* §12.13.2 L8289: the current state must match (BAD_RESOURCE_STATE). */
	if (PRM_GET(modify_rmp_in, rmp_state, in, n) != rmp->state)
		return NICREF_RULE_WQ_CURRENT_STATE_MISMATCH;
	/* T66: bit 0, lwm, is the only bit. */
	if (mask & ~1ull)
		return NICREF_RULE_WQ_BITMASK_BAD;
	/* T66: RDY2RDY is the one command transition (an RMP in ERR is recovered by destroying
	 * it, §7.7.2.2). */
	if (!wq_transition_ok(WQ_KIND_RMP, rmp->state, (unsigned)PRM_GET(modify_rmp_in, state, in, n)))
		return NICREF_RULE_WQ_TRANSITION_REFUSED;
	if (mask & 1) {
		/* T66 bit 0, T55 04h[15:0]: a new limit, 0 disarms (D-WQ-2). */
		rmp->lwm = (uint16_t)PRM_GET(modify_rmp_in, lwm, in, n);
		PRM_SET(wq, lwm, rmp->ctx + WQ_IN_CTX, WQ_CTX_BYTES - WQ_IN_CTX, rmp->lwm);
	}
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_destroy_rmp(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint32_t rmpn = (uint32_t)PRM_GET(destroy_rmp_in, rmpn, c->in, c->in_len);
	enum nicref_cmd_rule r;
	struct rmp *rmp = rmp_named(dev, rmpn, &r);
	if (!rmp)
		return r;
	/* §7.7.2.2 L2804: "SW has to destroy all RQs that are attached to the RMP and then
	 * destroy the RMP" (D-OBJ-1: refused while attached). */
	if (rmp->hdr.refs)
		return NICREF_RULE_RMP_IN_USE;
	wq_unref(dev, OBJ_PD, rmp->pd);
	objtab_remove(&dev->obj[OBJ_RMP], rmpn);
	obj_uncharge(dev, OBJ_RMP);
	rmp_free(dev, rmp);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_rmp(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	struct rmp *rmp = rmp_named(c->dev, (uint32_t)PRM_GET(query_rmp_in, rmpn, c->in, c->in_len),
				    &r);
	if (!rmp)
		return r;
	wq_query_out(c, rmp->ctx, &rmp->wq, rmp->state); /* §12.13.4: a snapshot */
	return NICREF_RULE_NONE;
}
