/* The command-line conventions every `nicref` command follows (docs/nicref.1):
 *
 * - each command is one row of a table: its name, a one-line summary for the overview, its
 *   usage text (the only one: `--help` prints it on stdout, a usage error on stderr) and its
 *   handler; a group (`adp`) is a row whose subcommands are another table;
 * - options are parsed with getopt_long: `--opt value` and `--opt=value`, short options where
 *   they exist, `-h`/`--help` everywhere, options and operands in any order, `--` ends options;
 * - a usage error (unknown option, missing argument, wrong operands) prints one line naming the
 *   command, then the command's usage, on stderr, and exits 2;
 * - exit status: 0 ok, 1 a disagreement (a vector fails, a capture does not conform), 2 bad
 *   input or usage. */
#ifndef NICREF_CLI_H
#define NICREF_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

enum cli_status { CLI_OK = 0, CLI_DISAGREE = 1, CLI_BAD = 2 };

struct cli_call;

struct cli_cmd {
	const char *name;    /* as typed after `nicref` (or after the group's name) */
	const char *summary; /* one line in the overview */
	const char *usage;   /* the whole usage text, "usage: nicref NAME ..." first */
	/* argv[0] is the command's name, argv[1..argc) what followed it (a copy the handler may
	 * permute); returns the exit status. NULL for a group. */
	int (*run)(const struct cli_call *call, int argc, char **argv);
	const struct cli_cmd *sub; /* a group's subcommands, ended by a row with name NULL */
};

/* A command being run: how messages name it ("nicref adp timeline"). */
struct cli_call {
	const struct cli_cmd *cmd;
	char name[64];
};

/* Runs the row of `table` (ended by a NULL name) that argv[0] names, as command of `group`
 * ("" for the top level, "adp" for its subcommands). A group row dispatches to its subtable
 * (`nicref adp --help` prints the group's usage, made from the subtable). */
int cli_dispatch(const char *group, const struct cli_cmd *table, int argc, char **argv);

/* The group's usage: synopsis and one line per subcommand, to f. */
void cli_group_usage(const char *group, const struct cli_cmd *table, FILE *f);

/* The next option, as getopt_long returns it (optarg holds its value, *longindex the row of
 * longopts when it was given long). `-h`/`--help` is handled here: the usage goes to stdout
 * and CLI_HELP is returned (the handler returns 0). A usage error prints its line and the
 * usage on stderr and returns CLI_ERROR (the handler returns 2). -1 at the end: operands are
 * argv[optind..argc). shortopts must contain "h", longopts a "help" row (CLI_HELP_OPTION). */
enum { CLI_HELP = -2, CLI_ERROR = -3 };
#define CLI_HELP_OPTION { "help", no_argument, NULL, 'h' }
int cli_getopt(const struct cli_call *call, int argc, char **argv, const char *shortopts,
	       const struct option *longopts, int *longindex);

/* What a handler returns for CLI_HELP / CLI_ERROR. */
int cli_getopt_exit(int opt);

/* A usage error found by the handler (operands, an option combination): "nicref CMD: ...",
 * the usage, on stderr; returns CLI_BAD. */
int cli_usage_error(const struct cli_call *call, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
