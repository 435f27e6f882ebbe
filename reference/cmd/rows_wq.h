/* Private to libnicref: the command rows of SQs, RQs and RMPs (PRM §12.10, §12.11, §12.13).
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. */
#ifndef NICREF_CMD_ROWS_WQ_H
#define NICREF_CMD_ROWS_WQ_H

struct cmd_ctx;

#define NICREF_CMDS_WQ(X)

#endif
