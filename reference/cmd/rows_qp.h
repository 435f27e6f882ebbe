/* Private to libnicref: the command rows of queue pairs and the RoCE GID table (issue 17 stage
 * 1; beyond PRM Rev 0.40: the public mlx5 interface, docs/roce.md). Rows and handlers as in
 * cmd/cmd_table.h, which includes this file. op_mod is 0 for all of them (mlx5_ifc.h names no
 * op_mod value for these commands); they need an initialized HCA (D-INIT-2). */
#ifndef NICREF_CMD_ROWS_QP_H
#define NICREF_CMD_ROWS_QP_H

struct cmd_ctx;

/* obj/qp.c */
enum nicref_cmd_rule cmd_create_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_qp(struct cmd_ctx *c);
/* obj/qp_modify.c */
enum nicref_cmd_rule cmd_rst2init_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_init2init_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_init2rtr_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_rtr2rts_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_rts2rts_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_sqerr2rts_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_sqd2rts_qp(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_qp_2err(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_qp_2rst(struct cmd_ctx *c);
/* obj/roce_addr.c */
enum nicref_cmd_rule cmd_set_roce_address(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_roce_address(struct cmd_ctx *c);

#define NICREF_CMDS_QP(X)                                                                       \
	X(CREATE_QP, cmd_create_qp, create_qp_in, create_qp_out, OPMOD(0), S_INI)               \
	X(DESTROY_QP, cmd_destroy_qp, destroy_qp_in, destroy_qp_out, OPMOD(0), S_INI)           \
	X(RST2INIT_QP, cmd_rst2init_qp, rst2init_qp_in, rst2init_qp_out, OPMOD(0), S_INI)       \
	X(INIT2INIT_QP, cmd_init2init_qp, init2init_qp_in, init2init_qp_out, OPMOD(0), S_INI)   \
	X(INIT2RTR_QP, cmd_init2rtr_qp, init2rtr_qp_in, init2rtr_qp_out, OPMOD(0), S_INI)       \
	X(RTR2RTS_QP, cmd_rtr2rts_qp, rtr2rts_qp_in, rtr2rts_qp_out, OPMOD(0), S_INI)           \
	X(RTS2RTS_QP, cmd_rts2rts_qp, rts2rts_qp_in, rts2rts_qp_out, OPMOD(0), S_INI)           \
	X(SQERR2RTS_QP, cmd_sqerr2rts_qp, sqerr2rts_qp_in, sqerr2rts_qp_out, OPMOD(0), S_INI)   \
	X(SQD_RTS_QP, cmd_sqd2rts_qp, sqd2rts_qp_in, sqd2rts_qp_out, OPMOD(0), S_INI)           \
	X(2ERR_QP, cmd_qp_2err, qp_2err_in, qp_2err_out, OPMOD(0), S_INI)                       \
	X(2RST_QP, cmd_qp_2rst, qp_2rst_in, qp_2rst_out, OPMOD(0), S_INI)                       \
	X(QUERY_QP, cmd_query_qp, query_qp_in, query_qp_out, OPMOD(0), S_INI)                   \
	X(SET_ROCE_ADDRESS, cmd_set_roce_address, set_roce_address_in, set_roce_address_out,    \
	  OPMOD(0), S_INI)                                                                      \
	X(QUERY_ROCE_ADDRESS, cmd_query_roce_address, query_roce_address_in,                    \
	  query_roce_address_out, OPMOD(0), S_INI)

#endif
