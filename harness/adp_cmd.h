/* `nicref adp timeline` and `nicref adp check` (docs/adp.md "Tools"). */
#ifndef NICREF_ADP_CMD_H
#define NICREF_ADP_CMD_H

#include <jansson.h>
#include <stdbool.h>

#include "adp_profile.h"
#include "cli.h"
#include "nicref/adp.h"

/* The subcommands of `nicref adp`, and its row in the tool's command table. */
extern const struct cli_cmd adp_commands[];
#define ADP_CLI_ROW { "adp", "ADP timeline and capture check", NULL, NULL, adp_commands }

/* `nicref adp ARGS...`: argv[0] is the subcommand. Exit status: 0 done / conforming, 1
 * non-conforming (check), 2 bad input or a usage error. */
int adp_main(int argc, char **argv);

/* PROFILE, QP and OPTIONS: the setup both subcommands share (setup_opt). */
#define ADP_SETUP_USAGE                                                                         \
	"\n"                                                                                    \
	"PROFILE (one of):\n"                                                                   \
	"  --profile FILE.json          a profile, its fields by name (docs/adp.md)\n"          \
	"  --profile-hex HEX|@FILE      30h bytes of adp_retx_profile, or 40h bytes of the\n"   \
	"                               ROCE_ACCL register data\n"                              \
	"  --classic                    ADP off: the classic IB timer\n"                        \
	"QP:\n"                                                                                 \
	"  --timeout T                  local ACK timeout, 0-31 (default 14; 0 = no timer)\n"   \
	"  --retry-cnt N                retry count, 0-7 (default 7)\n"                         \
	"  --base-min-ns N              adp_retx_base_timeout_min in ns (default 4000)\n"       \
	"OPTIONS (readings the ADP documents leave open; the first is the default):\n"          \
	"  --first-timeout retry-once|escalate   --dec by-name|by-amount|by-factor\n"           \
	"  --init-range exclusive|inclusive      --dec-trigger every-progress|clean-progress\n"   \
	"  --retry-uses arms|retransmissions\n"

/* What every `nicref adp` run needs: the timer mode and the QP. */
struct adp_setup {
	struct nicref_adp_mode mode;
	struct nicref_adp_qp_attr attr;
	char source[320]; /* where the profile came from, for the headings */
	bool classic, have_profile, base_min_set;
	struct adp_reg_image img;
	struct nicref_adp_options opt;
	const char *tool; /* how messages name the command ("nicref adp"; set after init) */
};

/* The setup options open both subcommands' getopt_long tables, row k with code OPT_SETUP + k,
 * so the code finds the name setup_opt takes. */
enum { OPT_SETUP = 0x100, OPT_SETUP_END = OPT_SETUP + 10, OPT_OWN = 0x200 };
#define ADP_SETUP_OPTIONS                                                                       \
	{ "classic", no_argument, NULL, OPT_SETUP },                                            \
	{ "profile", required_argument, NULL, OPT_SETUP + 1 },                                  \
	{ "profile-hex", required_argument, NULL, OPT_SETUP + 2 },                              \
	{ "timeout", required_argument, NULL, OPT_SETUP + 3 },                                  \
	{ "retry-cnt", required_argument, NULL, OPT_SETUP + 4 },                                \
	{ "base-min-ns", required_argument, NULL, OPT_SETUP + 5 },                              \
	{ "first-timeout", required_argument, NULL, OPT_SETUP + 6 },                            \
	{ "dec", required_argument, NULL, OPT_SETUP + 7 },                                      \
	{ "init-range", required_argument, NULL, OPT_SETUP + 8 },                               \
	{ "dec-trigger", required_argument, NULL, OPT_SETUP + 9 },                              \
	{ "retry-uses", required_argument, NULL, OPT_SETUP + 10 }

/* Defaults before the options: QP timeout 14 (67.1 ms), retry_cnt 7, the 4 us minimum. */
void adp_setup_init(struct adp_setup *s);
/* One setup option (its name without "--", its value or NULL): 0 taken, -1 bad (a message
 * said why). */
int adp_setup_opt(struct adp_setup *s, const char *name, const char *v);
/* The mode from what was given; 0, or -1 after a message (no profile, a profile the register
 * would refuse). */
int adp_setup_finish(struct adp_setup *s);
/* The setup as JSON ("mode", "source", "profile", "options", "qp") and as one line. */
json_t *adp_setup_json(const struct adp_setup *s);
void adp_setup_line(const struct adp_setup *s, char *buf, size_t len);

#endif
