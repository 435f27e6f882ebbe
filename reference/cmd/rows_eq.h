/* Private to libnicref: the command rows of EQs (PRM §12.6): CREATE/DESTROY/QUERY_EQ, GEN_EQE.
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. */
#ifndef NICREF_CMD_ROWS_EQ_H
#define NICREF_CMD_ROWS_EQ_H

struct cmd_ctx;

#define NICREF_CMDS_EQ(X)

#endif
