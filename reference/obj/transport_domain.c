/* Transport domains: ALLOC_TRANSPORT_DOMAIN and DEALLOC_TRANSPORT_DOMAIN (PRM §12.3.18-§12.3.19). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_alloc_transport_domain(struct cmd_ctx *c)
{
	/* T145 64h[28:24]: at most 2^log_max_transport_domain; beyond is EXCEED_LIM (D-OBJ-2). */
	int64_t td = obj_alloc_plain(c->dev, OBJ_TD);
	if (td < 0)
		return td == -1 ? NICREF_RULE_TD_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	PRM_SET(alloc_transport_domain_out, transport_domain, c->out, c->out_len, (uint64_t)td);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_dealloc_transport_domain(struct cmd_ctx *c)
{
	uint32_t td = (uint32_t)PRM_GET(dealloc_transport_domain_in, transport_domain, c->in,
					c->in_len);
	switch (obj_free_plain(c->dev, OBJ_TD, td)) {
	case 0:
		return NICREF_RULE_NONE;
	case -2:
		return NICREF_RULE_TD_IN_USE; /* a TIR or TIS names it (D-OBJ-1) */
	default:
		return NICREF_RULE_TD_NOT_ALLOCATED;
	}
}
