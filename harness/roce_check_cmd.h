/* `nicref roce check` (docs/roce_check.md). */
#ifndef NICREF_ROCE_CHECK_CMD_H
#define NICREF_ROCE_CHECK_CMD_H

#include "cli.h"

/* The subcommands of `nicref roce`, and its row in the tool's command table. */
extern const struct cli_cmd roce_commands[];
#define ROCE_CLI_ROW                                                                            \
	{ "roce", "RoCE: check a capture against the transport's rules", NULL, NULL, roce_commands }

#endif
