/* The command line of `nicref replay` (harness/cli.h conventions, docs/nicref.1). */
#include <stdlib.h>
#include <string.h>

#include "dut_diff.h"
#include "replay.h"
#include "replay_int.h"

const char replay_usage[] =
	"usage: nicref replay [OPTIONS] SETUP CAPTURE\n"
	"Injects every frame of CAPTURE (pcap or pcapng) into a model device set up by SETUP (a\n"
	"JSON receive configuration: vector steps and high-level steps, docs/replay.md), each at\n"
	"its capture time, and predicts what the device does with it: the CQE of each copy\n"
	"delivered (its RQ and fields) or the drop (reason and counters). The replay is the\n"
	"driver: it consumes the CQEs and re-posts the receive WQEs. A summary goes to stdout.\n"
	"\n"
	"  --jsonl FILE      one JSON object per frame (the format of docs/replay.md; - for stdout)\n"
	"  --pcap-dir DIR    what each RQ received: DIR/rq<i>.pcap, one per RQ\n"
	"  --expect FILE     compare with an implementation's log in the --jsonl format, frame by\n"
	"                    frame and field by field; each difference is printed\n"
	"  --ignore F,...    fields --expect does not compare (e.g. timestamp,checksum)\n"
	"  --json FILE       with --expect: a JSON report (docs/schemas/report.schema.json)\n"
	"  --junit FILE      with --expect: a JUnit XML report\n"
	"  --dut LIB         also drive the device under test LIB (nicref/dut.h, docs/dut.md)\n"
	"                    with the setup and every frame; the first thing a host would see\n"
	"                    differ from the model is printed with its frame; a DUT that\n"
	"                    crashes or hangs is reported with its stimulus (exit 1)\n"
	"  --dut-timeout S   with --dut: a call into the DUT that runs S seconds is a hang\n"
	"                    (default 60; 0 no limit)\n"
	"  --port N          the port frames arrive on (default 1)\n"
	"  --no-repost       never give a WQE back: shows what a starved ring does\n"
	"  --no-pad          inject frames shorter than 60 bytes as captured (dropped as\n"
	"                    undersize) instead of padding them as the sending MAC did\n"
	"  --progress        a progress line on stderr even when it is not a terminal\n"
	"  --no-progress     no progress line (default: only when stderr is a terminal)\n"
	"  -h, --help        print this usage and exit\n"
	"\n"
	"Exit status: 0 replayed (and every frame agrees with --expect, the DUT with the model),\n"
	"1 a disagreement with --expect or a DUT that differs, 2 bad input (the setup, the\n"
	"capture, an option, a DUT library that cannot be loaded) or a usage error.\n";

int cmd_replay(const struct cli_call *call, int argc, char **argv)
{
	enum { O_JSONL = 0x100, O_PCAPDIR, O_EXPECT, O_IGNORE, O_JSON, O_JUNIT, O_PORT, O_NOREPOST,
	       O_NOPAD, O_PROGRESS, O_NOPROGRESS, O_DUT, O_DUT_TIMEOUT };
	static const struct option longopts[] = {
		{ "jsonl", required_argument, NULL, O_JSONL },
		{ "pcap-dir", required_argument, NULL, O_PCAPDIR },
		{ "expect", required_argument, NULL, O_EXPECT },
		{ "ignore", required_argument, NULL, O_IGNORE },
		{ "json", required_argument, NULL, O_JSON },
		{ "junit", required_argument, NULL, O_JUNIT },
		{ "port", required_argument, NULL, O_PORT },
		{ "no-repost", no_argument, NULL, O_NOREPOST },
		{ "no-pad", no_argument, NULL, O_NOPAD },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "no-progress", no_argument, NULL, O_NOPROGRESS },
		{ "dut", required_argument, NULL, O_DUT },
		{ "dut-timeout", required_argument, NULL, O_DUT_TIMEOUT },
		CLI_HELP_OPTION,
		{ 0 }
	};
	struct replay_opts o = { .port = 1, .progress = -1,
				 .dut_timeout_ms = DUT_DIFF_TIMEOUT_DEFAULT_MS };
	bool dut_timeout = false;
	int opt;
	while ((opt = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		char *end;
		switch (opt) {
		case O_JSONL: o.jsonl = optarg; break;
		case O_PCAPDIR: o.pcap_dir = optarg; break;
		case O_EXPECT: o.expect = optarg; break;
		case O_IGNORE: o.ignore = optarg; break;
		case O_JSON: o.json = optarg; break;
		case O_JUNIT: o.junit = optarg; break;
		case O_PORT:
			o.port = (unsigned)strtoul(optarg, &end, 10);
			if (*end || !*optarg || o.port == 0 || o.port > 255)
				return cli_usage_error(call, "--port '%s': a port number, 1 to 255", optarg);
			break;
		case O_NOREPOST: o.no_repost = true; break;
		case O_NOPAD: o.no_pad = true; break;
		case O_PROGRESS: o.progress = 1; break;
		case O_NOPROGRESS: o.progress = 0; break;
		case O_DUT: o.dut = optarg; break;
		case O_DUT_TIMEOUT:
			if (dut_diff_timeout_arg(optarg, &o.dut_timeout_ms) != 0)
				return cli_usage_error(call, "--dut-timeout '%s': seconds, a number "
							     ">= 0 (0: no limit)", optarg);
			dut_timeout = true;
			break;
		default: return cli_getopt_exit(opt);
		}
	}
	if (argc - optind != 2)
		return cli_usage_error(call, "expected SETUP and CAPTURE, got %d operand%s",
				       argc - optind, argc - optind == 1 ? "" : "s");
	if ((o.json || o.junit || o.ignore) && !o.expect)
		return cli_usage_error(call, "--json, --junit and --ignore report on --expect: give "
					     "--expect FILE");
	if (dut_timeout && !o.dut)
		return cli_usage_error(call, "--dut-timeout limits the calls into a DUT: give --dut LIB");
	o.setup = argv[optind];
	o.capture = argv[optind + 1];
	return replay_run(&o);
}
