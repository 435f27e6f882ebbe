/* `nicref repro FILE --target T` (docs/repro.md): a crash or divergence input of a fuzz target
 * replayed, minimised, its trace printed, and turned into a draft golden vector (and, when
 * frames cross the wire, a pcap). */
#ifndef NICREF_REPRO_H
#define NICREF_REPRO_H

#include "cli.h"

extern const char repro_usage[];
int cmd_repro(const struct cli_call *call, int argc, char **argv);

#define REPRO_CLI_ROW                                                                           \
	{ "repro", "turn a fuzz finding into a minimised input, its trace, a draft vector, a pcap", \
	  repro_usage, cmd_repro, NULL }

#endif
