/* Private to libnicref: the command rows of MKeys (PRM §12.5): CREATE/QUERY/DESTROY_MKEY and
 * QUERY_SPECIAL_CONTEXTS. Rows and handlers as in cmd/cmd_table.h, which includes this file. */
#ifndef NICREF_CMD_ROWS_MKEY_H
#define NICREF_CMD_ROWS_MKEY_H

struct cmd_ctx;

/* obj/mkey.c */
enum nicref_cmd_rule cmd_create_mkey(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_mkey(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_mkey(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_special_contexts(struct cmd_ctx *c);

/* QUERY_MKEY op_mod: T231 describes 0 (PAS/KLMs) and 2 (BSFs); 2 is refused by the handler with
 * its own rule (D-MKC-2), every other value by dispatch (T100). */
#define NICREF_CMDS_MKEY(X)                                                                     \
	X(CREATE_MKEY, cmd_create_mkey, create_mkey_in, create_mkey_out, OPMOD(0), S_INI)      \
	X(QUERY_MKEY, cmd_query_mkey, query_mkey_in, query_mkey_out, OPMOD(0) | OPMOD(2),       \
	  S_INI)                                                                                \
	X(DESTROY_MKEY, cmd_destroy_mkey, destroy_mkey_in, destroy_mkey_out, OPMOD(0), S_INI)   \
	X(QUERY_SPECIAL_CONTEXTS, cmd_query_special_contexts, query_special_contexts_in,        \
	  query_special_contexts_out, OPMOD(0), S_INI)

#endif
