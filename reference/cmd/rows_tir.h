/* Private to libnicref: the command rows of TIRs, TISs and RQTs (PRM §12.8, §12.9, §12.12).
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. */
#ifndef NICREF_CMD_ROWS_TIR_H
#define NICREF_CMD_ROWS_TIR_H

struct cmd_ctx;

#define NICREF_CMDS_TIR(X)

#endif
