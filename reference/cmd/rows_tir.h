/* Private to libnicref: the command rows of TIRs, TISs and RQTs (PRM §12.8, §12.9, §12.12).
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. Every one of these has
 * op_mod "Must be 0" (T282, T286, T290, T294, T299, T303, T307, T311, T350, T354, T358, T362)
 * and needs an initialized HCA (D-INIT-2). */
#ifndef NICREF_CMD_ROWS_TIR_H
#define NICREF_CMD_ROWS_TIR_H

struct cmd_ctx;

/* obj/tir.c */
enum nicref_cmd_rule cmd_create_tir(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_tir(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_tir(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_tir(struct cmd_ctx *c);
/* obj/tis.c */
enum nicref_cmd_rule cmd_create_tis(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_tis(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_tis(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_tis(struct cmd_ctx *c);
/* obj/rqt.c */
enum nicref_cmd_rule cmd_create_rqt(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_rqt(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_rqt(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_rqt(struct cmd_ctx *c);

#define NICREF_CMDS_TIR(X)                                                                      \
	X(CREATE_TIR, cmd_create_tir, create_tir_in, create_tir_out, OPMOD(0), S_INI)           \
	X(MODIFY_TIR, cmd_modify_tir, modify_tir_in, modify_tir_out, OPMOD(0), S_INI)           \
	X(DESTROY_TIR, cmd_destroy_tir, destroy_tir_in, destroy_tir_out, OPMOD(0), S_INI)       \
	X(QUERY_TIR, cmd_query_tir, query_tir_in, query_tir_out, OPMOD(0), S_INI)               \
	X(CREATE_TIS, cmd_create_tis, create_tis_in, create_tis_out, OPMOD(0), S_INI)           \
	X(MODIFY_TIS, cmd_modify_tis, modify_tis_in, modify_tis_out, OPMOD(0), S_INI)           \
	X(DESTROY_TIS, cmd_destroy_tis, destroy_tis_in, destroy_tis_out, OPMOD(0), S_INI)       \
	X(QUERY_TIS, cmd_query_tis, query_tis_in, query_tis_out, OPMOD(0), S_INI)               \
	X(CREATE_RQT, cmd_create_rqt, create_rqt_in, create_rqt_out, OPMOD(0), S_INI)           \
	X(MODIFY_RQT, cmd_modify_rqt, modify_rqt_in, modify_rqt_out, OPMOD(0), S_INI)           \
	X(DESTROY_RQT, cmd_destroy_rqt, destroy_rqt_in, destroy_rqt_out, OPMOD(0), S_INI)       \
	X(QUERY_RQT, cmd_query_rqt, query_rqt_in, query_rqt_out, OPMOD(0), S_INI)

#endif
