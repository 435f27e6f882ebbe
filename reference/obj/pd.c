/* Protection domains: ALLOC_PD and DEALLOC_PD (PRM §12.3.13-§12.3.14). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_alloc_pd(struct cmd_ctx *c)
{
	/* T145 64h[20:16]: at most 2^log_max_pd PDs; beyond is EXCEED_LIM (D-OBJ-2). */
	int64_t pd = handle_alloc(&c->dev->pd);
	if (pd < 0)
		return NICREF_RULE_PD_EXHAUSTED;
	PRM_SET(alloc_pd_out, pd, c->out, c->out_len, (uint64_t)pd);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_dealloc_pd(struct cmd_ctx *c)
{
	/* T128 BAD_RESOURCE: "reserved or unallocated resource". */
	uint32_t pd = (uint32_t)PRM_GET(dealloc_pd_in, pd, c->in, c->in_len);
	return handle_free(&c->dev->pd, pd) ? NICREF_RULE_PD_NOT_ALLOCATED : NICREF_RULE_NONE;
}
