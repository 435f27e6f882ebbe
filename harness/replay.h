/* `nicref replay SETUP CAPTURE` (docs/replay.md): a capture through the model's receive path,
 * one prediction per frame, compared with an implementation's log when asked. */
#ifndef NICREF_REPLAY_H
#define NICREF_REPLAY_H

#include "cli.h"

extern const char replay_usage[];
int cmd_replay(const struct cli_call *call, int argc, char **argv);

#define REPLAY_CLI_ROW                                                                          \
	{ "replay", "replay a capture through a receive setup: one prediction per frame",       \
	  replay_usage, cmd_replay, NULL }

#endif
