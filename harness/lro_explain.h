/* `nicref lro explain` (docs/lro_explain.md): a capture of TCP segments replayed into a device
 * whose one RQ sits behind a Direct TIR with the given LRO settings (PRM §3.3.6, T45), and what
 * LRO made of it: each session (the frames merged, why it ended, its CQE's fields) and each
 * frame that went on its own, with its cause. */
#ifndef NICREF_LRO_EXPLAIN_H
#define NICREF_LRO_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "nicref/nicref.h"

/* The subcommands of `nicref lro`, and its row in the tool's command table. */
extern const struct cli_cmd lro_commands[];
#define LRO_CLI_ROW { "lro", "Large Receive Offload: explain a capture", NULL, NULL, lro_commands }

struct lro_explain_opts {
	const char *capture;
	bool json;
	unsigned enable_mask, timeout_usecs, max_msg_sz; /* T45; defaults 3, 32, 64 */
	struct nicref_profile profile;                   /* --profile and --caps applied */
	bool progress;                                   /* a progress line on stderr */
};

/* The default options: the TIR's LRO defaults, the default profile with room for the buffers. */
void lro_explain_defaults(struct lro_explain_opts *o);
/* Applies one --profile NAME=VALUE / --caps LAYOUT.FIELD=VALUE. 0, or -1 with a message. */
int lro_explain_profile_set(struct lro_explain_opts *o, const char *kv, char *err, size_t len);
int lro_explain_caps_set(struct lro_explain_opts *o, const char *kv, char *err, size_t len);
/* Replays o->capture and writes the explanation (text, or JSON with o->json) to out; messages
 * to err. Returns the exit status: 0 explained, 2 bad input (the file and the frame named). */
int lro_explain_run(const struct lro_explain_opts *o, FILE *out, FILE *err);

#endif
