/* Command tables, getopt_long and the messages of usage errors (harness/cli.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct cli_cmd *find(const struct cli_cmd *table, const char *name)
{
	for (const struct cli_cmd *c = table; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void cli_group_usage(const char *group, const struct cli_cmd *table, FILE *f)
{
	fprintf(f, "usage: nicref %s SUBCOMMAND [OPTIONS] [OPERANDS]\n\nsubcommands:\n", group);
	for (const struct cli_cmd *c = table; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n`nicref %s SUBCOMMAND --help` prints a subcommand's usage.\n", group);
}

/* A group's own options are -h/--help; anything else before the subcommand is an error. */
static int run_group(const struct cli_call *call, int argc, char **argv)
{
	static const struct option longopts[] = { CLI_HELP_OPTION, { 0 } };
	const char *group = call->name + strlen("nicref ");
	FILE *f = stderr;
	int o = getopt_long(argc, argv, "+:h", longopts, NULL);
	if (o == 'h')
		f = stdout;
	else if (o != -1)
		fprintf(stderr, "%s: unrecognized option '%s'\n", call->name, argv[optind - 1]);
	else if (optind == argc)
		fprintf(stderr, "%s: missing subcommand\n", call->name);
	else if (find(call->cmd->sub, argv[optind]))
		return cli_dispatch(group, call->cmd->sub, argc - optind, argv + optind);
	else
		fprintf(stderr, "%s: unknown subcommand '%s'\n", call->name, argv[optind]);
	cli_group_usage(group, call->cmd->sub, f);
	return f == stdout ? CLI_OK : CLI_BAD;
}

int cli_dispatch(const char *group, const struct cli_cmd *table, int argc, char **argv)
{
	const struct cli_cmd *c = find(table, argv[0]);
	if (!c)
		return CLI_BAD; /* the caller checked the name */
	struct cli_call call = { .cmd = c };
	snprintf(call.name, sizeof call.name, "nicref %s%s%s", group, *group ? " " : "", c->name);
	/* getopt_long permutes argv: the handler gets a copy (callers may pass constant
	 * strings), and a fresh parse (optind 0 reinitializes glibc's getopt). */
	char **copy = calloc((size_t)argc + 1, sizeof *copy);
	if (!copy) {
		fprintf(stderr, "%s: out of memory\n", call.name);
		return CLI_BAD;
	}
	memcpy(copy, argv, (size_t)argc * sizeof *copy);
	optind = 0;
	opterr = 0;
	int rc = c->run ? c->run(&call, argc, copy) : run_group(&call, argc, copy);
	free(copy);
	return rc;
}

int cli_usage_error(const struct cli_call *call, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", call->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(call->cmd->usage, stderr);
	return CLI_BAD;
}

/* getopt's own messages are off (opterr 0) so that every one names the command; these are its
 * wordings. */
static int getopt_error(const struct cli_call *call, int o, const char *shortopts,
			const struct option *longopts, char **argv)
{
	const char *arg = argv[optind - 1];
	bool is_long = strncmp(arg, "--", 2) == 0;
	size_t len = strcspn(arg, "=");
	if (o == ':' && is_long)
		return cli_usage_error(call, "option '%s' requires an argument", arg);
	if (o == ':')
		return cli_usage_error(call, "option requires an argument -- '%c'", optopt);
	/* '?': an unknown short option has optopt set to it; a known long option given a value
	 * it does not take has optopt set to its code; an unknown or ambiguous long option 0. */
	bool known = optopt != 0 && (optopt > 0xFF || strchr(shortopts, optopt));
	if (optopt != 0 && !known)
		return cli_usage_error(call, "invalid option -- '%c'", optopt);
	if (known && is_long)
		return cli_usage_error(call, "option '%.*s' doesn't allow an argument", (int)len,
				       arg);
	unsigned matches = 0;
	for (const struct option *lo = longopts; is_long && lo->name; lo++)
		matches += strncmp(lo->name, arg + 2, len - 2) == 0;
	if (matches > 1)
		return cli_usage_error(call, "option '%.*s' is ambiguous", (int)len, arg);
	return cli_usage_error(call, "unrecognized option '%s'", arg);
}

int cli_getopt(const struct cli_call *call, int argc, char **argv, const char *shortopts,
	       const struct option *longopts, int *longindex)
{
	/* A leading ':' makes getopt return ':' for a missing argument. */
	char so[64];
	snprintf(so, sizeof so, ":%s", shortopts);
	int o = getopt_long(argc, argv, so, longopts, longindex);
	if (o == 'h') {
		fputs(call->cmd->usage, stdout);
		return CLI_HELP;
	}
	if (o == '?' || o == ':') {
		getopt_error(call, o, shortopts, longopts, argv);
		return CLI_ERROR;
	}
	return o;
}

int cli_getopt_exit(int opt)
{
	return opt == CLI_HELP ? CLI_OK : CLI_BAD;
}
