/* Private to libnicref: the commands the model implements. Each row names its handler, its
 * input and output layouts (whose sizes are the minimum lengths, PRM §12.2 T128 0x50/0x51) and
 * the op_mod values the PRM describes for it (T100: "if there is no description, then op_mod
 * must be 0"). A command of T127 without a row here answers BAD_OP and is reported as
 * unmodelled. */
#ifndef NICREF_CMD_TABLE_H
#define NICREF_CMD_TABLE_H

#include "core/dev.h"

/* What a handler sees: the gathered input and the zeroed output (status and syndrome are
 * written by dispatch). It returns NICREF_RULE_NONE or the rule that refuses the command. */
struct cmd_ctx {
	struct nicref_dev *dev;
	unsigned slot;
	const uint8_t *in;
	size_t in_len;
	uint8_t *out;
	size_t out_len;
	uint16_t op_mod;
};
typedef enum nicref_cmd_rule (*cmd_handler)(struct cmd_ctx *c);

#define OPMOD(v) (1ull << (v))

enum nicref_cmd_rule cmd_nop(struct cmd_ctx *c);

/* X(OPCODE_ID, handler, in_layout, out_layout, allowed op_mod mask) */
#define NICREF_MODELLED_COMMANDS(X) X(NOP, cmd_nop, nop_in, nop_out, OPMOD(0))

#endif
