/* Private to libnicref: the command rows of user memory objects (issue 14 M2; beyond PRM Rev
 * 0.40: the public mlx5 interface, docs/umem.md). Rows and handlers as in cmd/cmd_table.h,
 * which includes this file. op_mod is 0 (mlx5_ifc.h names no op_mod value for them); a UMEM
 * needs an initialized HCA like every object (D-INIT-2). */
#ifndef NICREF_CMD_ROWS_UMEM_H
#define NICREF_CMD_ROWS_UMEM_H

struct cmd_ctx;

/* obj/umem.c */
enum nicref_cmd_rule cmd_create_umem(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_umem(struct cmd_ctx *c);

#define NICREF_CMDS_UMEM(X)                                                                     \
	X(CREATE_UMEM, cmd_create_umem, create_umem_in, create_umem_out, OPMOD(0), S_INI)       \
	X(DESTROY_UMEM, cmd_destroy_umem, destroy_umem_in, destroy_umem_out, OPMOD(0), S_INI)

#endif
