/* User access regions: ALLOC_UAR and DEALLOC_UAR (PRM §7.2, §12.3.15-§12.3.16), and the
 * doorbell writes that reach a UAR page through BAR0. */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_alloc_uar(struct cmd_ctx *c)
{
	/* §7.2: UAR n is the n-th UAR page of the BAR; the first pages hold the init segment
	 * (D-UAR-1), the area ends at 1 MB * 2^uar_sz (T145 48h). */
	int64_t uar = obj_alloc_plain(c->dev, OBJ_UAR);
	if (uar < 0)
		return uar == -1 ? NICREF_RULE_UAR_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	PRM_SET(alloc_uar_out, uar, c->out, c->out_len, (uint64_t)uar);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_dealloc_uar(struct cmd_ctx *c)
{
	uint32_t uar = (uint32_t)PRM_GET(dealloc_uar_in, uar, c->in, c->in_len);
	switch (obj_free_plain(c->dev, OBJ_UAR, uar)) {
	case 0:
		return NICREF_RULE_NONE;
	case -2:
		return NICREF_RULE_UAR_IN_USE; /* an EQ, CQ or SQ rings through it (D-OBJ-1) */
	default:
		return NICREF_RULE_UAR_NOT_ALLOCATED;
	}
}

/* PRM §7.2 T13: the registers of a UAR page. The page size is 4 KB << log_uar_page_sz; the
 * registers sit in its first 4 KB. */
void uar_write32(struct nicref_dev *dev, uint32_t offset, uint32_t value)
{
	unsigned log_page = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_uar_page_sz);
	uint32_t shift = 12 + (log_page < 8 ? log_page : 8);
	uint32_t uar = offset >> shift, in_page = offset & ((1u << shift) - 1);
	/* §7.2: software rings only the UAR pages it was given. */
	if (dev->hca.state != HCA_INITIALIZED || !obj_get(dev, OBJ_UAR, uar)) {
		dev_violation(dev, NICREF_VIO_UAR_DB_NOT_ALLOCATED, offset);
		return;
	}
	if (in_page == 0x20 || in_page == 0x24)
		cq_uar_write(dev, uar, in_page, value); /* CQ doorbell, 64 bits (T13/T14) */
	else if (in_page == 0x40 || in_page == 0x48)
		eq_uar_write(dev, uar, in_page, value); /* EQ doorbells (T13) */
	else if (in_page >= 0x800 && in_page < 0x1000)
		sq_uar_write(dev, uar, in_page, value); /* Blue Flame registers (§7.2.1) */
	else
		dev_violation(dev, NICREF_VIO_UAR_DB_RESERVED, offset);
}
