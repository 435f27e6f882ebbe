/* Protection domains: ALLOC_PD and DEALLOC_PD (PRM §12.3.13-§12.3.14). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_alloc_pd(struct cmd_ctx *c)
{
	/* T145 64h[20:16]: at most 2^log_max_pd PDs; beyond is EXCEED_LIM (D-OBJ-2). */
	int64_t pd = obj_alloc_plain(c->dev, OBJ_PD);
	if (pd < 0)
		return pd == -1 ? NICREF_RULE_PD_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	PRM_SET(alloc_pd_out, pd, c->out, c->out_len, (uint64_t)pd);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_dealloc_pd(struct cmd_ctx *c)
{
	/* T128 BAD_RESOURCE: "reserved or unallocated resource"; a PD an MKey or work queue
	 * still names is refused (D-OBJ-1). */
	uint32_t pd = (uint32_t)PRM_GET(dealloc_pd_in, pd, c->in, c->in_len);
	switch (obj_free_plain(c->dev, OBJ_PD, pd)) {
	case 0:
		return NICREF_RULE_NONE;
	case -2:
		return NICREF_RULE_PD_IN_USE;
	default:
		return NICREF_RULE_PD_NOT_ALLOCATED;
	}
}
