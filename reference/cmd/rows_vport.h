/* Private to libnicref: the command rows of the vport, its counters and the L2 table (PRM §12.15-§12.17).
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. */
#ifndef NICREF_CMD_ROWS_VPORT_H
#define NICREF_CMD_ROWS_VPORT_H

struct cmd_ctx;

#define NICREF_CMDS_VPORT(X)

#endif
