/* User access regions: ALLOC_UAR and DEALLOC_UAR (PRM §7.2, §12.3.15-§12.3.16). The writes
 * that reach a UAR page through BAR0 are the doorbell layer's (obj/uar_db.c). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_alloc_uar(struct cmd_ctx *c)
{
	/* §7.2: UAR n is the n-th UAR page of the BAR; the first pages hold the init segment
	 * (D-UAR-1), the area ends at 1 MB * 2^uar_sz (T145 48h). */
	int64_t uar = obj_alloc_plain(c->dev, OBJ_UAR);
	if (uar < 0)
		return uar == -1 ? NICREF_RULE_UAR_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	/* Its registers (obj/uar_db.c), so that no doorbell write allocates. */
	if (uar_db_open(c->dev, (uint32_t)uar) != 0) {
		(void)obj_free_plain(c->dev, OBJ_UAR, (uint32_t)uar);
		return NICREF_RULE_OBJ_NO_MEMORY;
	}
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
		return NICREF_RULE_UAR_IN_USE; /* an EQ, CQ, SQ or QP rings through it (D-OBJ-1) */
	default:
		return NICREF_RULE_UAR_NOT_ALLOCATED;
	}
}
