/* Transport domains: ALLOC_TRANSPORT_DOMAIN and DEALLOC_TRANSPORT_DOMAIN (PRM §3.4,
 * §12.3.18-§12.3.19). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_alloc_transport_domain(struct cmd_ctx *c)
{
	/* T145 64h[28:24]: at most 2^log_max_transport_domain. */
	int64_t td = handle_alloc(&c->dev->td);
	if (td < 0)
		return NICREF_RULE_TD_EXHAUSTED;
	PRM_SET(alloc_transport_domain_out, transport_domain, c->out, c->out_len, (uint64_t)td);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_dealloc_transport_domain(struct cmd_ctx *c)
{
	uint32_t td =
		(uint32_t)PRM_GET(dealloc_transport_domain_in, transport_domain, c->in, c->in_len);
	return handle_free(&c->dev->td, td) ? NICREF_RULE_TD_NOT_ALLOCATED : NICREF_RULE_NONE;
}
