/* ACCESS_REG (PRM §12.4.1). */
#include "cmd/cmd_table.h"

enum nicref_cmd_rule cmd_access_reg(struct cmd_ctx *c)
{
	(void)c;
	return NICREF_RULE_UNMODELLED_OPCODE;
}
