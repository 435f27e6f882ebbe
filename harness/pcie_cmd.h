/* `nicref pcie check` (docs/pcie.md "Trace format"). */
#ifndef NICREF_PCIE_CMD_H
#define NICREF_PCIE_CMD_H

#include "cli.h"

/* The subcommands of `nicref pcie`, and its row in the tool's command table. */
extern const struct cli_cmd pcie_commands[];
#define PCIE_CLI_ROW { "pcie", "PCIe data link layer: check a link trace", NULL, NULL, pcie_commands }

#endif
