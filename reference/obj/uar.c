/* User access regions: ALLOC_UAR and DEALLOC_UAR (PRM §7.2, §12.3.15-§12.3.16). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_alloc_uar(struct cmd_ctx *c)
{
	/* §7.2: UAR n is the n-th UAR page of the BAR; the first pages hold the init segment
	 * (D-UAR-1), the area ends at 1 MB * 2^uar_sz (T145 48h). */
	int64_t uar = handle_alloc(&c->dev->uar);
	if (uar < 0)
		return NICREF_RULE_UAR_EXHAUSTED;
	PRM_SET(alloc_uar_out, uar, c->out, c->out_len, (uint64_t)uar);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_dealloc_uar(struct cmd_ctx *c)
{
	uint32_t uar = (uint32_t)PRM_GET(dealloc_uar_in, uar, c->in, c->in_len);
	return handle_free(&c->dev->uar, uar) ? NICREF_RULE_UAR_NOT_ALLOCATED : NICREF_RULE_NONE;
}
