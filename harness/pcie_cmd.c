/* `nicref pcie check [--json] TRACE`: the verdict of harness/pcie_check.c, per direction. */
#include <errno.h>
#include <stdlib.h>
#include <jansson.h>
#include <string.h>

#include "pcie_check.h"
#include "pcie_cmd.h"
#include "pcie_link_trace.h"

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

static const char link_usage[] =
	"usage: nicref pcie link [OPTION...]\n"
	"Runs two ends of nicref's PCIe data link layer model (reference/pcie/) joined by a link\n"
	"in virtual time, both transaction layers sending TLPs, with seeded faults, and prints\n"
	"the run as a link trace (docs/pcie.md \"Trace format\"), which `nicref pcie check`\n"
	"judges conforming.\n"
	"\n"
	"  --seed N           the fault stream's seed (default 1)\n"
	"  --tlps N           TLPs end A sends (default 100); --tlps-b N those of end B (100)\n"
	"  --bytes N          bytes of each TLP, 4 to 64 (default 16)\n"
	"  --delay N          symbol times from transmission to arrival (default 100)\n"
	"  --faults N         probability of each fault in 1/65536 (TLP LCRC, TLP nullified by\n"
	"                     the link, TLP duplicated, DLLP lost, DLLP CRC; default 0)\n"
	"  --ack-delay N:S    an Ack held back S symbol times with probability N/65536\n"
	"  --replay-limit N   REPLAY_TIMER limit in symbol times (default 24000)\n"
	"  --ack-latency N    ack_latency_limit in symbol times (default 1000)\n"
	"  --priority NAME    recommended (default) or replay_first\n"
	"  --tolerance N      the header's tolerance (default 2000)\n"
	"  -o, --output FILE  write the trace there (default: standard output)\n"
	"  -h, --help         print this usage and exit\n"
	"\n"
	"Exit status: 0 the link delivered everything and fell idle, 1 it did not within 10^9\n"
	"symbol times, 2 a usage error.\n";

static int num_arg(const struct cli_call *call, const char *opt, const char *v,
		   unsigned long long max, unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || end == v || *end || v[0] == '-' || x > max)
		return cli_usage_error(call, "%s: '%s' is not a number from 0 to %llu", opt, v, max);
	*out = x;
	return 0;
}

static int cmd_link(const struct cli_call *call, int argc, char **argv)
{
	enum { O_SEED = 0x100, O_TLPS, O_TLPS_B, O_BYTES, O_DELAY, O_FAULTS, O_ACK_DELAY,
	       O_REPLAY, O_ACKLAT, O_PRIO, O_TOL };
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, O_SEED },
		{ "tlps", required_argument, NULL, O_TLPS },
		{ "tlps-b", required_argument, NULL, O_TLPS_B },
		{ "bytes", required_argument, NULL, O_BYTES },
		{ "delay", required_argument, NULL, O_DELAY },
		{ "faults", required_argument, NULL, O_FAULTS },
		{ "ack-delay", required_argument, NULL, O_ACK_DELAY },
		{ "replay-limit", required_argument, NULL, O_REPLAY },
		{ "ack-latency", required_argument, NULL, O_ACKLAT },
		{ "priority", required_argument, NULL, O_PRIO },
		{ "tolerance", required_argument, NULL, O_TOL },
		{ "output", required_argument, NULL, 'o' },
		CLI_HELP_OPTION,
		{ 0 }
	};
	struct pcie_link_trace_opts o;
	pcie_link_trace_defaults(&o);
	o.max_symbols = 1000000000ull;
	const char *path = NULL;
	unsigned long long v = 0;
	int opt, li = -1;
	while ((opt = cli_getopt(call, argc, argv, "ho:", longopts, &li)) != -1) {
		const char *name = li >= 0 ? longopts[li].name : "o";
		li = -1;
		switch (opt) {
		case O_SEED:
			if (num_arg(call, name, optarg, UINT64_MAX, &v))
				return 2;
			o.link.seed = v;
			break;
		case O_TLPS:
		case O_TLPS_B:
			if (num_arg(call, name, optarg, 1000000, &v))
				return 2;
			o.tlps[opt == O_TLPS_B] = (unsigned)v;
			break;
		case O_BYTES:
			if (num_arg(call, name, optarg, 64, &v))
				return 2;
			if (v < 4)
				return cli_usage_error(call, "bytes: 4 to 64");
			o.tlp_bytes = (unsigned)v;
			break;
		case O_DELAY:
		case O_TOL:
		case O_REPLAY:
		case O_ACKLAT:
			if (num_arg(call, name, optarg, UINT32_MAX, &v))
				return 2;
			if (opt == O_DELAY)
				o.link.delay = (uint32_t)v;
			else if (opt == O_TOL)
				o.tolerance = (unsigned)v;
			else if (opt == O_ACKLAT)
				o.dll.ack_latency_limit = (uint32_t)v;
			else if (v == 0)
				return cli_usage_error(call, "replay-limit: at least 1");
			else
				o.dll.replay_limit = (uint32_t)v;
			break;
		case O_FAULTS:
			if (num_arg(call, name, optarg, 65535, &v))
				return 2;
			o.link.faults.tlp_lcrc = o.link.faults.tlp_nullify = o.link.faults.tlp_dup =
				o.link.faults.dllp_drop = o.link.faults.dllp_crc = (uint16_t)v;
			break;
		case O_ACK_DELAY: {
			char *colon = strchr(optarg, ':');
			unsigned long long s = 0;
			if (!colon)
				return cli_usage_error(call, "ack-delay: N:S expected");
			*colon = 0;
			if (num_arg(call, name, optarg, 65535, &v) ||
			    num_arg(call, name, colon + 1, UINT32_MAX, &s))
				return 2;
			o.link.faults.ack_delay = (uint16_t)v;
			o.link.faults.ack_delay_symbols = (uint32_t)s;
			break;
		}
		case O_PRIO:
			if (!strcmp(optarg, "recommended"))
				o.dll.priority = NICREF_PCIE_PRIO_RECOMMENDED;
			else if (!strcmp(optarg, "replay_first"))
				o.dll.priority = NICREF_PCIE_PRIO_REPLAY_FIRST;
			else
				return cli_usage_error(call, "priority: recommended or replay_first");
			break;
		case 'o':
			path = optarg;
			break;
		default:
			return cli_getopt_exit(opt);
		}
	}
	if (optind < argc)
		return cli_usage_error(call, "unexpected operand '%s'", argv[optind]);
	FILE *f = path ? fopen(path, "w") : stdout;
	if (!f) {
		fprintf(stderr, "nicref pcie link: %s: %s\n", path, strerror(errno));
		return 2;
	}
	int rc = pcie_link_trace(f, &o);
	if (path)
		fclose(f);
	if (rc)
		fprintf(stderr, "nicref pcie link: the link was not idle after %llu symbol times\n",
			o.max_symbols);
	return rc ? 1 : 0;
}

const struct cli_cmd pcie_commands[] = {
	{ "link", "run two DLL ends over a faulty link and print the trace", link_usage, cmd_link,
	  NULL },
	{ "check", "check a PCIe link trace against the data link layer rules", check_usage,
	  cmd_check, NULL },
	{ 0 }
};
