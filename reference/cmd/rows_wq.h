/* Private to libnicref: the command rows of SQs, RQs and RMPs (PRM §12.10, §12.11, §12.13).
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. Every one of these has
 * op_mod "Must be 0" (T316, T320, T324, T328, T333, T337, T341, T345, T367, T371, T375, T379)
 * and needs an initialized HCA (D-INIT-2). */
#ifndef NICREF_CMD_ROWS_WQ_H
#define NICREF_CMD_ROWS_WQ_H

struct cmd_ctx;

/* obj/sq.c */
enum nicref_cmd_rule cmd_create_sq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_sq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_sq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_sq(struct cmd_ctx *c);
/* obj/rq.c */
enum nicref_cmd_rule cmd_create_rq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_rq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_rq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_rq(struct cmd_ctx *c);
/* obj/rmp.c */
enum nicref_cmd_rule cmd_create_rmp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_rmp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_rmp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_rmp(struct cmd_ctx *c);

#define NICREF_CMDS_WQ(X)                                                                       \
	X(CREATE_SQ, cmd_create_sq, create_sq_in, create_sq_out, OPMOD(0), S_INI)               \
	X(MODIFY_SQ, cmd_modify_sq, modify_sq_in, modify_sq_out, OPMOD(0), S_INI)               \
	X(DESTROY_SQ, cmd_destroy_sq, destroy_sq_in, destroy_sq_out, OPMOD(0), S_INI)           \
	X(QUERY_SQ, cmd_query_sq, query_sq_in, query_sq_out, OPMOD(0), S_INI)                   \
	X(CREATE_RQ, cmd_create_rq, create_rq_in, create_rq_out, OPMOD(0), S_INI)               \
	X(MODIFY_RQ, cmd_modify_rq, modify_rq_in, modify_rq_out, OPMOD(0), S_INI)               \
	X(DESTROY_RQ, cmd_destroy_rq, destroy_rq_in, destroy_rq_out, OPMOD(0), S_INI)           \
	X(QUERY_RQ, cmd_query_rq, query_rq_in, query_rq_out, OPMOD(0), S_INI)                   \
	X(CREATE_RMP, cmd_create_rmp, create_rmp_in, create_rmp_out, OPMOD(0), S_INI)           \
	X(MODIFY_RMP, cmd_modify_rmp, modify_rmp_in, modify_rmp_out, OPMOD(0), S_INI)           \
	X(DESTROY_RMP, cmd_destroy_rmp, destroy_rmp_in, destroy_rmp_out, OPMOD(0), S_INI)       \
	X(QUERY_RMP, cmd_query_rmp, query_rmp_in, query_rmp_out, OPMOD(0), S_INI)

#endif
