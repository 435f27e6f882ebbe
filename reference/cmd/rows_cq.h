/* Private to libnicref: the command rows of CQs (PRM §12.7): CREATE/DESTROY/QUERY/MODIFY_CQ.
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. MODIFY_CQ has op_mod 0
 * modify_cq and 1 resize_cq (T273); the others none (T100). */
#ifndef NICREF_CMD_ROWS_CQ_H
#define NICREF_CMD_ROWS_CQ_H

struct cmd_ctx;

/* obj/cq_cmd.c */
enum nicref_cmd_rule cmd_create_cq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_cq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_cq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_cq(struct cmd_ctx *c);

#define NICREF_CMDS_CQ(X)                                                                       \
	X(CREATE_CQ, cmd_create_cq, create_cq_in, create_cq_out, OPMOD(0), S_INI)               \
	X(DESTROY_CQ, cmd_destroy_cq, destroy_cq_in, destroy_cq_out, OPMOD(0), S_INI)           \
	X(QUERY_CQ, cmd_query_cq, query_cq_in, query_cq_out, OPMOD(0), S_INI)                   \
	X(MODIFY_CQ, cmd_modify_cq, modify_cq_in, modify_cq_out, OPMODS(2), S_INI)

#endif
