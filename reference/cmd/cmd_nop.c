/* NOP: PRM §12.18.1. It does nothing; only the completion (and, once EQs exist, the
 * command-completion event) is visible. */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_nop(struct cmd_ctx *c)
{
	(void)c;
	return NICREF_RULE_NONE;
}
