/* Private to libnicref: the command rows of EQs (PRM §12.6): CREATE/DESTROY/QUERY_EQ, GEN_EQE.
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. None of them defines an
 * op_mod (T244, T248, T252, T256: "must be 0", T100). */
#ifndef NICREF_CMD_ROWS_EQ_H
#define NICREF_CMD_ROWS_EQ_H

struct cmd_ctx;

/* obj/eq_cmd.c */
enum nicref_cmd_rule cmd_create_eq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_eq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_eq(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_gen_eqe(struct cmd_ctx *c);

#define NICREF_CMDS_EQ(X)                                                                       \
	X(CREATE_EQ, cmd_create_eq, create_eq_in, create_eq_out, OPMOD(0), S_INI)               \
	X(DESTROY_EQ, cmd_destroy_eq, destroy_eq_in, destroy_eq_out, OPMOD(0), S_INI)           \
	X(QUERY_EQ, cmd_query_eq, query_eq_in, query_eq_out, OPMOD(0), S_INI)                   \
	X(GEN_EQE, cmd_gen_eqe, gen_eqe_in, gen_eqe_out, OPMOD(0), S_INI)

#endif
