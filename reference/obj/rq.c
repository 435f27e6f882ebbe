/* Receive queues: CREATE/MODIFY/DESTROY/QUERY_RQ (PRM §7.7, §12.11, T52/T53, T56, T57), the
 * RQ error semantics and flush (§7.7.2), and how an RQ takes receive WQEs (its own WQ or its
 * RMP, T57). */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/modify_mask.h"

void rq_free(struct nicref_dev *dev, struct rq *rq)
{
	wq_free(dev, &rq->wq);
	dev_free(dev, rq->taken);
	dev_free(dev, rq);
}

/* The RQ an rqn of MODIFY/DESTROY/QUERY_RQ names (D-OBJ-2: BAD_INDEX beyond the table). */
static struct rq *rq_named(struct nicref_dev *dev, uint32_t rqn, enum nicref_cmd_rule *r)
{
	return obj_find(dev, OBJ_RQ, rqn, NICREF_RULE_RQ_INDEX_OUT_OF_RANGE,
			NICREF_RULE_RQ_NOT_FOUND, r);
}

/* ---- The WQEs an RMP RQ holds (§7.7.2.2) ----------------------------------------------------
 * A ring of slots sized once, at CREATE_RQ: each slot holds the stride index of a WQE taken
 * from the RMP, TAKEN_DONE once it completed out of order. */

#define TAKEN_DONE (1u << 31) /* stride indices are 16 bits (T55 counters, T43) */
#define TAKEN_MAX (1u << 16)  /* more cannot be told apart by a 16-bit index */

/* Sizes the ring for the RMP: an RQ holds at most every stride of it (D-RQ-7); the RMP's size
 * is bounded by HCA_CAP log_max_wq_sz (D-WQ-1). 0, or -1 out of memory. */
static int taken_init(struct nicref_dev *dev, struct rq *rq, const struct rmp *rmp)
{
	uint32_t cap = rmp->wq.log_size < 16 ? 1u << rmp->wq.log_size : TAKEN_MAX;
	rq->taken = dev_malloc(dev, (size_t)cap * sizeof *rq->taken);
	if (!rq->taken)
		return -1;
	rq->taken_cap = cap;
	return 0;
}

static uint32_t *taken_slot(const struct rq *rq, uint32_t i)
{
	return &rq->taken[(rq->taken_head + i) & (rq->taken_cap - 1u)];
}

static void taken_clear(struct rq *rq)
{
	rq->taken_head = rq->taken_len = rq->ntaken = 0;
}

/* Whether a slot is free, dropping the done slots among those in use to make one. */
static bool taken_room(struct rq *rq)
{
	if (rq->taken_len < rq->taken_cap)
		return true;
	uint32_t kept = 0;
	for (uint32_t i = 0; i < rq->taken_len; i++)
		if (!(*taken_slot(rq, i) & TAKEN_DONE))
			*taken_slot(rq, kept++) = *taken_slot(rq, i);
	rq->taken_len = kept;
	return kept < rq->taken_cap;
}

static void taken_push(struct rq *rq, uint32_t index)
{
	NICREF_ASSERT(rq->taken_len < rq->taken_cap); /* taken_room said so */
	*taken_slot(rq, rq->taken_len++) = index;
	rq->ntaken++;
}

enum nicref_cmd_rule cmd_create_rq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	enum nicref_cmd_rule r;

	/* T53 04h: user_index "Reserved if HCA_CAP.cqe_version==0". */
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 0 &&
	    (r = wq_reserved_field(c, &nicref_layout_create_rq_in,
				   PRMF_create_rq_in__user_index)) != NICREF_RULE_NONE)
		return r;
	/* §7.7 Figure 16, T56: the state is given at CREATE and an RQ starts in RST. */
	if (PRM_GET(create_rq_in, state, in, n) != WQ_RST)
		return NICREF_RULE_RQ_STATE_NOT_RST;
	/* T53 00h[27:24]: 0 MEMORY_RQ_INLINE, 1 MEMORY_RQ_RMP. */
	unsigned type = (unsigned)PRM_GET(create_rq_in, mem_rq_type, in, n);
	if (type > 1)
		return NICREF_RULE_RQ_MEM_TYPE_BAD;
	bool on_rmp = type == 1;
	/* T53: rmpn "Reserved for non RMP RQs"; flush_in_error_en "Reserved for mem_rq_type ==
	 * MEMORY_RQ_RMP". */
	r = wq_reserved_field(c, &nicref_layout_create_rq_in,
			      on_rmp ? PRMF_create_rq_in__flush_in_error_en
				     : PRMF_create_rq_in__rmpn);
	if (r != NICREF_RULE_NONE)
		return r;
	struct wq w;
	memset(&w, 0, sizeof w);
	if (!on_rmp) {
		/* An RMP RQ has no buffer of its own (§7.7): its WQ is not used (D-RQ-4). */
		struct wq_rules wr = {
			WQ_KIND_RQ,
			(unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_min_stride_sz_rq),
			(unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_stride_sz_rq),
		};
		if ((r = wq_parse(c, &wr, &w)) != NICREF_RULE_NONE)
			return r;
	}
	/* §3.2.1 / Figure 3: the CQ and the PD (inline) or the RMP exist before the RQ. */
	uint32_t cqn = (uint32_t)PRM_GET(create_rq_in, cqn, in, n);
	uint32_t pd = on_rmp ? 0 : (uint32_t)PRM_GET(create_rq_in, pd, in, n);
	uint32_t rmpn = on_rmp ? (uint32_t)PRM_GET(create_rq_in, rmpn, in, n) : 0;
	/* A handle outside its table is BAD_INDEX, one in range not live BAD_RESOURCE
	 * (D-OBJ-2, T128). */
	if (obj_find(dev, OBJ_CQ, cqn, NICREF_RULE_WQ_CQ_OUT_OF_RANGE, NICREF_RULE_WQ_CQ_MISSING,
		      &r) &&
	    (on_rmp || obj_find(dev, OBJ_PD, pd, NICREF_RULE_WQ_PD_OUT_OF_RANGE,
				  NICREF_RULE_WQ_PD_MISSING, &r)) &&
	    (!on_rmp || obj_find(dev, OBJ_RMP, rmpn, NICREF_RULE_RQ_RMP_OUT_OF_RANGE,
				 NICREF_RULE_RQ_RMP_MISSING, &r)) &&
	    obj_charge(dev, OBJ_RQ))
		r = NICREF_RULE_ICM_PAGES_SHORT; /* D-PG-4 */
	if (r != NICREF_RULE_NONE) {
		wq_free(dev, &w);
		return r;
	}
	struct rq *rq = dev_calloc(dev, 1, sizeof *rq);
	if (rq && on_rmp && taken_init(dev, rq, obj_get(dev, OBJ_RMP, rmpn)) != 0) {
		dev_free(dev, rq);
		rq = NULL;
	}
	int64_t h = rq ? objtab_alloc(&dev->obj[OBJ_RQ], rq) : -2;
	if (h < 0) {
		obj_uncharge(dev, OBJ_RQ);
		wq_free(dev, &w);
		if (rq)
			dev_free(dev, rq->taken);
		dev_free(dev, rq);
		return h == -1 ? NICREF_RULE_RQ_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	rq->hdr.handle = (uint32_t)h;
	rq->state = WQ_RST;
	rq->on_rmp = on_rmp;
	rq->flush_in_error_en = !on_rmp && PRM_GET(create_rq_in, flush_in_error_en, in, n);
	rq->cqn = cqn;
	rq->pd = pd;
	rq->rmpn = rmpn;
	rq->user_index = (uint32_t)PRM_GET(create_rq_in, user_index, in, n);
	rq->wq = w;
	wq_ctx_store(rq->ctx, &nicref_layout_create_rq_in, in, n);
	wq_ref(dev, OBJ_CQ, cqn);
	if (on_rmp)
		wq_ref(dev, OBJ_RMP, rmpn);
	else
		wq_ref(dev, OBJ_PD, pd);
	PRM_SET(create_rq_out, rqn, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

/* The stride after `at` in a linked-list WQ (T55 wq_type 0): T42/T43, a linked-list receive WQE
 * starts with its next segment, Next_WQE_index (in stride units) in bits 15:0 of its first
 * dword. 0, or -1 when the segment cannot be read. */
static int ll_next(struct nicref_dev *dev, const struct wq *wq, uint16_t at, uint16_t *next)
{
	uint8_t seg[4];
	if (wq_read(dev, wq, at, 0, seg, sizeof seg))
		return -1;
	*next = (uint16_t)PRM_GET(srq_wqe_next, next_wqe_index, seg, sizeof seg);
	return 0;
}

/* The stride the device takes when a linked list leads to `head` (D-RX-16, D-RMP-1). T43
 * Next_WQE_index is an "Index (pointer) in the WQE buffer", which holds 2^log_wq_sz strides
 * (T55); a value at or beyond that points outside it, which the PRM does not define. The device
 * addresses the buffer as the circular buffer it is (§7.4.1: every index modulo the ring, as
 * wq_addr/wq_read do), so it takes that stride modulo the ring and names the stride it took
 * everywhere (wqe_counter, the signature's index, flush CQEs); the driver broke T43, which the
 * device reports on the queue taking the WQE (obj/wq.h). */
uint16_t rq_ll_take(struct nicref_dev *dev, const struct wq *wq, uint16_t head, uint32_t rqn)
{
	uint16_t stride = (uint16_t)(head & ((1u << wq->log_size) - 1u));
	if (stride != head)
		dev_violation(dev, NICREF_VIO_RX_LL_NEXT_BEYOND_RING,
			      (uint64_t)rqn << 32 | (uint32_t)head << 16 | stride);
	return stride;
}

/* §7.7.2: entering ERR. catastrophic: the RQ failed to take a WQE from an RMP in ERR (T57). */
static void rq_error(struct nicref_dev *dev, struct rq *rq, enum wq_cause cause, bool catastrophic)
{
	uint32_t rqn = rq->hdr.handle;
	wq_set_state(dev, WQ_KIND_RQ, rqn, &rq->state, WQ_ERR, cause);
	if (catastrophic)
		wq_post_event(dev, EQ_EVENT_RQ_CATASTROPHIC, 1, rqn); /* T57 (D-EV-1) */
	if (!rq->on_rmp) {
		/* §7.7.2.1, T53 00h[18]: with flush_in_error_en, the WQEs posted (hw_counter up to
		 * the record's counter) are flushed in error; otherwise not forced (D-SQ-4). */
		uint16_t db;
		if (!rq->flush_in_error_en || wq_dbr_read(dev, &rq->wq, false, &db))
			return;
		rq->wq.sw_counter = db;
		while (rq->wq.hw_counter != db) {
			/* The CQE names the WQE as a completion would: the counter (cyclic) or
			 * the stride along the list (linked list, D-RX-16). */
			uint16_t index = rq->wq.hw_counter, next = 0;
			if (rq->wq.type == 0) {
				index = rq_ll_take(dev, &rq->wq, rq->head, rqn);
				if (ll_next(dev, &rq->wq, index, &next))
					return; /* the list cannot be followed: the rest stays posted */
			}
			if (wq_flush_cqe(dev, rq->cqn, false, index, 0, rq->user_index))
				return; /* the CQ took no CQE (§7.12.1): the rest stays posted */
			rq->wq.hw_counter++;
			rq->head = next;
		}
		return;
	}
	/* §7.7.2.2: only the WQEs this RQ took from the RMP are flushed; the RMP is not
	 * affected. Then the Last WQE Reached event (T79 0x13, T82/T83 type 1 RQ), at once when
	 * nothing was to be flushed. */
	for (uint32_t i = 0; i < rq->taken_len; i++) {
		uint32_t index = *taken_slot(rq, i);
		if (index & TAKEN_DONE)
			continue;
		if (wq_flush_cqe(dev, rq->cqn, false, (uint16_t)index, 0, rq->user_index))
			break; /* the CQ took no CQE (§7.12.1): the rest is dropped with it */
	}
	taken_clear(rq);
	wq_post_event(dev, EQ_EVENT_LAST_WQE_REACHED, 1, rqn);
}

void rq_enter_error(struct nicref_dev *dev, struct rq *rq, enum wq_cause cause)
{
	rq_error(dev, rq, cause, false);
}

void rq_hw_error(struct nicref_dev *dev, struct rq *rq)
{
	/* §7.12.1 step 2, §4.5: a CQ overrun or a scatter error of a RDY RQ puts it in ERR. */
	if (rq->state == WQ_RDY)
		rq_error(dev, rq, WQ_CAUSE_DEVICE, false);
}

static int rq_take_from_rmp(struct nicref_dev *dev, struct rq *rq, uint32_t *index)
{
	struct rmp *rmp = obj_get(dev, OBJ_RMP, rq->rmpn);
	NICREF_ASSERT(rmp); /* named since create (D-OBJ-1) */
	uint16_t db = 0;
	/* §7.7.2.2: "If failure occurs while de-queuing a WQE, the RMP moves to the error
	 * state" (the record or the linked-list pointer cannot be read). */
	if (rmp->state == WQ_RDY && wq_dbr_read(dev, &rmp->wq, false, &db))
		rmp_hw_error(dev, rmp);
	if (rmp->state == WQ_ERR) {
		/* T57, RMP in ERR, RQ RDY: "the RQ is placed in the ERR state and RQ Catastrophic
		 * Error event is generated". */
		rq_error(dev, rq, WQ_CAUSE_DEVICE, true);
		return -1;
	}
	rmp->wq.sw_counter = db;
	uint16_t posted = (uint16_t)(db - rmp->wq.hw_counter);
	/* D-RQ-7: an RQ holding every stride of the RMP has no room for another: SW posted into
	 * strides the device still holds. Nothing is taken. */
	if (!posted || !taken_room(rq))
		return -2;
	uint32_t idx = rmp->wq.hw_counter;
	if (rmp->wq.type == 0) {
		/* D-RMP-1: the list starts at stride 0 and follows each WQE's next segment. */
		idx = rq_ll_take(dev, &rmp->wq, rmp->head, rq->hdr.handle);
		if (ll_next(dev, &rmp->wq, (uint16_t)idx, &rmp->head)) {
			rmp_hw_error(dev, rmp);
			rq_error(dev, rq, WQ_CAUSE_DEVICE, true);
			return -1;
		}
	}
	rmp->wq.hw_counter++;
	taken_push(rq, idx);
	/* T55 04h lwm: "when WQE count drops below this limit, an event is fired"; the event
	 * [PUB 0x14] fires once and disarms the limit (D-WQ-2). */
	if (rmp->lwm && (uint16_t)(posted - 1) < rmp->lwm) {
		rmp->lwm = 0;
		PRM_SET(wq, lwm, rmp->ctx + WQ_IN_CTX, WQ_CTX_BYTES - WQ_IN_CTX, 0);
		wq_post_event(dev, EQ_EVENT_RMP_LIMIT, 0, rmp->hdr.handle);
	}
	*index = idx;
	return 0;
}

int rq_dequeue(struct nicref_dev *dev, struct rq *rq, uint32_t *index)
{
	/* T57: only a RDY RQ receives. */
	if (rq->state != WQ_RDY)
		return -1;
	if (rq->on_rmp)
		return rq_take_from_rmp(dev, rq, index);
	uint16_t db;
	if (wq_dbr_read(dev, &rq->wq, false, &db))
		return -2; /* nothing readable is posted */
	rq->wq.sw_counter = db;
	if (db == rq->wq.hw_counter)
		return -2;
	if (rq->wq.type == 1) {
		/* §7.4.1.2: WQEs "executed in the order of their appearance in the buffer". */
		*index = rq->wq.hw_counter++;
		return 0;
	}
	/* T55 wq_type 0, allowed for an RQ (D-RX-16): the WQEs are taken along the list from
	 * stride 0, as an RMP's (D-RMP-1); the record still counts the WQEs posted (T24). When the
	 * next segment cannot be read the WQE cannot either: its read fails the copy and the RQ
	 * goes to ERR (eth/rx_rq.c, D-RX-2). */
	rq->wq.hw_counter++;
	uint16_t at = rq_ll_take(dev, &rq->wq, rq->head, rq->hdr.handle), next;
	*index = at;
	if (ll_next(dev, &rq->wq, at, &next) == 0)
		rq->head = next;
	return 0;
}

void rq_wqe_done(struct rq *rq, uint32_t index)
{
	/* The oldest WQE of that index; receive WQEs complete in order, so it is the first. */
	uint32_t i = 0;
	while (i < rq->taken_len && *taken_slot(rq, i) != index)
		i++;
	if (i == rq->taken_len)
		return;
	*taken_slot(rq, i) |= TAKEN_DONE;
	rq->ntaken--;
	while (rq->taken_len && (*taken_slot(rq, 0) & TAKEN_DONE)) {
		rq->taken_head = (rq->taken_head + 1u) & (rq->taken_cap - 1u);
		rq->taken_len--;
	}
}

/* T56: state is required in every transition, vsd (vlan_strip_disable) is bit 1; every other
 * field, and vsd with bit 1 clear, is reserved in a MODIFY_RQ input (D-MOD-1). */
static const struct modify_sel rq_modify_sel[] = {
	{ PRMF_modify_rq_in__state, MODIFY_ALWAYS },
	{ PRMF_modify_rq_in__vlan_strip_disable, 1 },
};

enum nicref_cmd_rule cmd_modify_rq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	uint64_t mask = PRM_GET(modify_rq_in, modify_bitmask_63_32, in, n) << 32 |
			PRM_GET(modify_rq_in, modify_bitmask_31_0, in, n);
	/* T337 20h: "Only fields requested by the mask should be valid Other fields are
	 * reserved." */
	enum nicref_cmd_rule r = modify_check_unselected(
		c, &nicref_layout_modify_rq_in, WQ_CTX_OFF, rq_modify_sel,
		sizeof rq_modify_sel / sizeof rq_modify_sel[0], mask);
	if (r != NICREF_RULE_NONE)
		return r;
	struct rq *rq = rq_named(dev, (uint32_t)PRM_GET(modify_rq_in, rqn, in, n), &r);
	if (!rq)
		return r;
	/* §12.11.2 L7908: the current state must match (BAD_RESOURCE_STATE). */
	if (PRM_GET(modify_rq_in, rq_state, in, n) != rq->state)
		return NICREF_RULE_WQ_CURRENT_STATE_MISMATCH;
	/* T56: bit 1, vsd, is the only bit. */
	if (mask & ~2ull)
		return NICREF_RULE_WQ_BITMASK_BAD;
	unsigned to = (unsigned)PRM_GET(modify_rq_in, state, in, n);
	if (!wq_transition_ok(WQ_KIND_RQ, rq->state, to))
		return NICREF_RULE_WQ_TRANSITION_REFUSED; /* D-SQ-1 */
	/* T56: vsd is "O" in RST2RDY and RDY2RDY, in no other transition. */
	if (mask & 2 && to != WQ_RDY)
		return NICREF_RULE_WQ_BITMASK_NOT_IN_TRANSITION;
	if (mask & 2)
		PRM_SET(rqc, vlan_strip_disable, rq->ctx, WQ_CTX_BYTES,
			PRM_GET(modify_rq_in, vlan_strip_disable, in, n));
	if (to == WQ_ERR) {
		rq_enter_error(dev, rq, WQ_CAUSE_COMMAND);
	} else {
		if (to == WQ_RST) {
			/* T57: SW zeroes the record before RST2RDY; the queue starts over and WQEs
			 * taken from an RMP are dropped (D-RQ-5). */
			rq->wq.hw_counter = rq->wq.sw_counter = 0;
			rq->head = 0; /* a linked list starts again at stride 0 (D-RX-16) */
			rq->rx_drop_counter = 0; /* D-RX-4 */
			taken_clear(rq);
		}
		wq_set_state(dev, WQ_KIND_RQ, rq->hdr.handle, &rq->state, (uint8_t)to,
			     WQ_CAUSE_COMMAND);
	}
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_destroy_rq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint32_t rqn = (uint32_t)PRM_GET(destroy_rq_in, rqn, c->in, c->in_len);
	enum nicref_cmd_rule r;
	struct rq *rq = rq_named(dev, rqn, &r);
	if (!rq)
		return r;
	/* D-RQ-1 (D-OBJ-1): a TIR (inline_rqn) or an RQT (rq_num[]) still names it. */
	if (rq->hdr.refs)
		return NICREF_RULE_RQ_IN_USE;
	if (rq->state == WQ_RDY) /* D-LRO-10: its LRO sessions complete first */
		dev_notify(dev, DEV_NOTE_RQ_LEAVES_RDY, rqn);
	wq_unref(dev, OBJ_CQ, rq->cqn);
	if (rq->on_rmp)
		wq_unref(dev, OBJ_RMP, rq->rmpn);
	else
		wq_unref(dev, OBJ_PD, rq->pd);
	objtab_remove(&dev->obj[OBJ_RQ], rqn);
	obj_uncharge(dev, OBJ_RQ);
	rq_free(dev, rq);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_rq(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	struct rq *rq = rq_named(c->dev, (uint32_t)PRM_GET(query_rq_in, rqn, c->in, c->in_len), &r);
	if (!rq)
		return r;
	/* §12.11.4: a snapshot. An RMP RQ's WQ is returned as given, its counters 0 (D-RQ-4). */
	wq_query_out(c, rq->ctx, rq->on_rmp ? NULL : &rq->wq, rq->state);
	return NICREF_RULE_NONE;
}
