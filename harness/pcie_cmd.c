/* `nicref pcie check [--json] TRACE`: the verdict of harness/pcie_check.c, per direction. */
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "pcie_check.h"
#include "pcie_cmd.h"

static const char check_usage[] =
	"usage: nicref pcie check [--json] TRACE\n"
	"Judges a recorded PCIe link trace (JSON Lines, format nicref_dll_trace_v1: a header,\n"
	"then TLP, DLLP and PHY records; docs/pcie.md) against the data link layer rules of both\n"
	"ends (PCI Express Base Specification §3.6, seed 003), and prints per direction (down: end\n"
	"A's violations, up: end B's) \"ok\" or the first violation: its rule, citation, instant\n"
	"and line.\n"
	"\n"
	"  --json      one JSON object: {\"trace\", \"down\", \"up\"}, each direction {\"verdict\":\n"
	"              \"ok\"} or {\"verdict\": \"violation\", \"rule\", \"cite\", \"t\", \"line\",\n"
	"              \"cause_line\", \"message\"}\n"
	"  -h, --help  print this usage and exit\n"
	"\n"
	"Exit status: 0 both directions conform, 1 a violation, 2 bad input (the message names the\n"
	"file and line) or a usage error.\n";

static json_t *verdict_json(const struct pcie_verdict *v)
{
	if (!v->violation)
		return json_pack("{s:s}", "verdict", "ok");
	return json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:s}", "verdict", "violation", "rule",
			 pcie_check_rule_name(v->rule), "cite", pcie_check_rule_citation(v->rule),
			 "t", (json_int_t)v->t, "line", (json_int_t)v->line, "cause_line",
			 (json_int_t)v->cause_line, "message", v->message);
}

static int cmd_check(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_JSON = 0x100 };
	static const struct option longopts[] = { { "json", no_argument, NULL, OPT_JSON },
						  CLI_HELP_OPTION,
						  { 0 } };
	bool json = false;
	int o;
	while ((o = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		if (o == OPT_JSON)
			json = true;
		else
			return cli_getopt_exit(o);
	}
	if (optind + 1 != argc)
		return cli_usage_error(call, optind == argc ? "a TRACE is needed"
							    : "one TRACE at a time");
	const char *path = argv[optind];
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "nicref pcie check: %s: %s\n", path, strerror(errno));
		return 2;
	}
	struct pcie_check_result res;
	int rc = pcie_check_stream(f, path, &res);
	fclose(f);
	if (rc == 2) {
		fprintf(stderr, "nicref pcie check: %s\n", res.error);
		return 2;
	}
	static const char *const dirs[2] = { "down", "up" };
	if (json) {
		json_t *j = json_pack("{s:s,s:o,s:o}", "trace", path, "down",
				      verdict_json(&res.dir[0]), "up", verdict_json(&res.dir[1]));
		char *s = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
		if (s)
			printf("%s\n", s);
		free(s);
		json_decref(j);
		return rc;
	}
	for (unsigned d = 0; d < 2; d++) {
		const struct pcie_verdict *v = &res.dir[d];
		if (!v->violation)
			printf("%s: ok\n", dirs[d]);
		else
			printf("%s: %s at t=%llu (line %ld): %s: %s\n", dirs[d],
			       pcie_check_rule_name(v->rule), (unsigned long long)v->t, v->line,
			       pcie_check_rule_citation(v->rule), v->message);
	}
	return rc;
}

const struct cli_cmd pcie_commands[] = {
	{ "check", "check a PCIe link trace against the data link layer rules", check_usage,
	  cmd_check, NULL },
	{ 0 }
};
