/* `nicref adp timeline` and `nicref adp check` (docs/adp.md "Tools"). */
#ifndef NICREF_ADP_CMD_H
#define NICREF_ADP_CMD_H

#include "cli.h"

/* The subcommands of `nicref adp`, and its row in the tool's command table. */
extern const struct cli_cmd adp_commands[];
#define ADP_CLI_ROW { "adp", "ADP timeline and capture check", NULL, NULL, adp_commands }

/* `nicref adp ARGS...`: argv[0] is the subcommand. Exit status: 0 done / conforming, 1
 * non-conforming (check), 2 bad input or a usage error. */
int adp_main(int argc, char **argv);

#endif
