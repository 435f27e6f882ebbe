/* EQ commands (PRM §12.6): CREATE_EQ, DESTROY_EQ, QUERY_EQ, GEN_EQE. Decisions: docs/eq.md. */
#include <stdlib.h>
#include <string.h>

#include "obj/eq_qbuf.h"

#define IN(n) PRM_GET(create_eq_in, n, c->in, c->in_len)

/* §7.14 L4142: "the CREATE_EQ command that maps EQ to the command queue must be posted to the
 * command queue while it is empty and no other command should be posted". Returns the slots,
 * other than the running one, whose entries are owned by the device. */
static uint32_t other_posted_slots(struct nicref_dev *dev, unsigned slot)
{
	const struct nicref_profile *p = &dev->core.cfg.profile;
	uint32_t busy = 0;
	for (unsigned s = 0; s < (1u << p->log_cmdq_size) && s < 32; s++) {
		uint8_t own;
		if (s == slot)
			continue;
		uint64_t at = dev->iseg.cmdq_addr + ((uint64_t)s << p->log_cmdq_stride) + 0x3F;
		if (dev_dma_read(dev, at, &own, 1) == 0 && (own & 1u)) /* T96 ownership */
			busy |= 1u << s;
	}
	return busy;
}

enum nicref_cmd_rule cmd_create_eq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint64_t log_size = IN(log_eq_size), uar = IN(uar_page), intr = IN(intr);
	uint64_t bitmask = IN(event_bitmask);

	/* T94: page_offset "Must be 0"; the counters must (should) be 0 at creation. */
	if (IN(page_offset) != 0)
		return NICREF_RULE_EQ_PAGE_OFFSET_NOT_ZERO;
	if (IN(consumer_counter) != 0 || IN(producer_counter) != 0)
		return NICREF_RULE_EQ_COUNTER_NOT_ZERO;
	/* T244: "bitmask[0] is reserved" (completion events are mapped per CQ, §12.6). */
	if (bitmask & 1u)
		return NICREF_RULE_EQ_EVENT_BITMASK_BIT0;
	/* T94 intr: an MSI-X table entry of the device (D-EQ-8). */
	if (intr >= dev->eqd.nvec)
		return NICREF_RULE_EQ_INTR_BEYOND_VECTORS;
	/* §7.13.1: "The maximum supported EQ size is retrieved by ... log_max_eq_sz" (D-EQ-7). */
	if (log_size > CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_eq_sz))
		return NICREF_RULE_EQ_LOG_SIZE_BEYOND_CAP;
	/* T94 uar_page: "UAR page this EQ can be accessed through" (D-OBJ-2: BAD_INDEX beyond
	 * the UAR area, BAD_RESOURCE for one in it not allocated). */
	enum nicref_cmd_rule r;
	if (!obj_find(dev, OBJ_UAR, (uint32_t)uar, NICREF_RULE_EQ_UAR_OUT_OF_RANGE,
		      NICREF_RULE_EQ_UAR_NOT_ALLOCATED, &r))
		return r;
	const struct objtab *tab = &dev->obj[OBJ_EQ];
	if (tab->nlive >= tab->limit - tab->base) /* T145 log_max_eq */
		return NICREF_RULE_EQ_EXHAUSTED;

	struct qbuf buf;
	enum nicref_cmd_rule rule =
		qbuf_load(c, 0x110, (uint64_t)EQE_SIZE << log_size,
			  (unsigned)IN(log_page_size), NICREF_RULE_EQ_PAS_SHORT,
			  NICREF_RULE_EQ_PAS_NOT_ALIGNED, &buf);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* D-PG-4: the context takes room in the pages given to the device. */
	if (obj_charge(dev, OBJ_EQ) != 0) {
		qbuf_free(dev, &buf);
		return NICREF_RULE_ICM_PAGES_SHORT;
	}
	struct eq *eq = dev_calloc(dev, 1, sizeof *eq);
	int64_t eqn = eq ? objtab_alloc(&dev->obj[OBJ_EQ], eq) : -2;
	if (eqn < 0) {
		dev_free(dev, eq);
		qbuf_free(dev, &buf);
		obj_uncharge(dev, OBJ_EQ);
		return eqn == -1 ? NICREF_RULE_EQ_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	eq->hdr.handle = (uint32_t)eqn;
	eq->buf = buf;
	eq->uar = (uint32_t)uar;
	eq->log_size = (uint8_t)log_size;
	eq->intr = (uint8_t)intr;
	eq->ec = IN(ec) != 0;
	eq->oi = IN(oi) != 0;
	eq->status = EQ_STATUS_OK;
	/* D-EQ-2: created FIRED (st is reserved at create; §7.13.4: a polled EQ is "created in
	 * fired state and never armed"). */
	eq->st = EQ_ST_FIRED;
	((struct obj_hdr *)obj_get(dev, OBJ_UAR, eq->uar))->refs++; /* D-OBJ-1 */

	if (bitmask >> EQ_TYPE_CMD_COMPLETION & 1u) {
		uint32_t busy = other_posted_slots(dev, c->slot);
		if (busy)
			dev_violation(dev, NICREF_VIO_EQ_CMD_EVENTS_QUEUE_BUSY, busy);
		/* L6810: no event for the CREATE_EQ that maps the command completion event. */
		dev->eqd.cmd_no_event = true;
	}
	/* §12.6.1: "For each bit set in the bitmask, the corresponding event group will be
	 * mapped to the EQ", moved from any EQ that had it (L6806). */
	eq_map(dev, eq, bitmask);
	PRM_SET(create_eq_out, eq_number, c->out, c->out_len, (uint64_t)eqn);
	return NICREF_RULE_NONE;
}

/* The EQ a command names, or NULL with *r the rule (D-OBJ-2: BAD_INDEX outside the EQ
 * numbers 0 to 2^log_max_eq - 1, BAD_RESOURCE for a number in them that names no EQ). */
static struct eq *eq_of(struct cmd_ctx *c, enum nicref_cmd_rule *r)
{
	/* T248/T252/T256: eq_number at 08h[7:0] in all three inputs. */
	return obj_find(c->dev, OBJ_EQ,
			(uint32_t)PRM_GET(destroy_eq_in, eq_number, c->in, c->in_len),
			NICREF_RULE_EQ_INDEX_OUT_OF_RANGE, NICREF_RULE_EQ_NOT_FOUND, r);
}

enum nicref_cmd_rule cmd_destroy_eq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	enum nicref_cmd_rule r;
	struct eq *eq = eq_of(c, &r);
	if (!eq)
		return r;
	/* D-EQ-1: a CQ still reports to it (c_eqn); "if DESTROY_EQ fails, the events are still
	 * mapped to the EQ" (L6865). */
	if (eq->hdr.refs)
		return NICREF_RULE_EQ_IN_USE;
	/* L6865: "there will be no event on destroy EQ for the EQ that the event is mapped to". */
	if (eq->mapped >> EQ_TYPE_CMD_COMPLETION & 1u)
		dev->eqd.cmd_no_event = true;
	eq_unmap_all(dev, eq); /* L6808 */
	((struct obj_hdr *)obj_get(dev, OBJ_UAR, eq->uar))->refs--;
	objtab_remove(&dev->obj[OBJ_EQ], eq->hdr.handle);
	obj_uncharge(dev, OBJ_EQ);
	qbuf_free(dev, &eq->buf);
	dev_free(dev, eq);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_eq(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	const struct eq *eq = eq_of(c, &r);
	if (!eq)
		return r;
	/* §12.6.3: a snapshot of the EQC (T93/T94) as the device holds it, the event types mapped
	 * to it now (D-EQ-5) and its pages. */
#define OUT(n, v) PRM_SET(query_eq_out, n, c->out, c->out_len, (v))
	OUT(eq_status, eq->status);
	OUT(ec, eq->ec);
	OUT(oi, eq->oi);
	OUT(st, eq->st);
	OUT(page_offset, 0);
	OUT(log_eq_size, eq->log_size);
	OUT(uar_page, eq->uar);
	OUT(intr, eq->intr);
	OUT(log_page_size, eq->buf.log_page_size);
	OUT(consumer_counter, eq->cc);
	OUT(producer_counter, eq->pc);
	OUT(event_bitmask, eq->mapped);
#undef OUT
	qbuf_query(&eq->buf, c, 0x110);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_gen_eqe(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	struct eq *eq = eq_of(c, &r);
	if (!eq)
		return r;
	/* §12.6.4: "generates EQE on the specified EQ": the EQE of T256 10h-4Fh, written as any
	 * EQE is (owner, signature, overrun, arming: §7.13.2, §7.13.12). */
	uint8_t eqe[EQE_SIZE] = { 0 };
	size_t n = c->in_len > 0x10 ? c->in_len - 0x10 : 0;
	memcpy(eqe, c->in + 0x10, n < EQE_SIZE ? n : EQE_SIZE);
	(void)eq_write_eqe(c->dev, eq, eqe);
	return NICREF_RULE_NONE;
}
