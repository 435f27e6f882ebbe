/* Private to libnicref: the command rows of CQs (PRM §12.7): CREATE/DESTROY/QUERY/MODIFY_CQ.
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. */
#ifndef NICREF_CMD_ROWS_CQ_H
#define NICREF_CMD_ROWS_CQ_H

struct cmd_ctx;

#define NICREF_CMDS_CQ(X)

#endif
