/* QUERY_HCA_CAP and SET_HCA_CAP (PRM §12.3.3-§12.3.4). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_query_hca_cap(struct cmd_ctx *c)
{
	(void)c;
	return NICREF_RULE_UNMODELLED_OPCODE;
}

enum nicref_cmd_rule cmd_set_hca_cap(struct cmd_ctx *c)
{
	(void)c;
	return NICREF_RULE_UNMODELLED_OPCODE;
}
