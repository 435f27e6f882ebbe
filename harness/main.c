/* nicref: the command-line tool. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_cmd.h"
#include "cli.h"
#include "conformance.h"
#include "drive.h"
#include "jsonval.h"
#include "lro_explain.h"
#include "nicref/nicref.h"
#include "pcap_write.h"
#include "replay.h"
#include "repro.h"
#include "pcie_cmd.h"
#include "roce_check_cmd.h"
#include "report.h"
#include "vectors.h"
#include "dut_diff.h"

/* Features other than single opcodes, with their state; one row each in the matrix. The
 * vector count of a feature is the number of tests in vector files whose "feature" is its key. */
#define FEATURES(X)                                                                             \
	X("init_seg", "BAR0 initialization segment", "PRM §4.3 T7/T8", "modelled")              \
	X("cmdq", "command queue transport and delivery status", "PRM §7.14.1 T95-T98",           \
	  "modelled")                                                                           \
	X("dispatch", "opcode dispatch and return-status precedence", "PRM §12.1-12.2 T127/T128", \
	  "modelled")                                                                           \
	X("init", "bring-up, lifecycle, pages, ISSI and the general commands",                   \
	  "PRM §8.2-8.3, §12.3, §12.18", "modelled")                                            \
	X("caps", "device capabilities (QUERY/SET_HCA_CAP)", "PRM §12.3.3-12.3.4 T144-T157",      \
	  "modelled")                                                                           \
	X("reg", "ACCESS_REG and the port registers", "PRM §12.4.1, T104-T126", "modelled")       \
	X("adp", "adaptive retransmission: the ROCE_ACCL register and the ADP engine",           \
	  "seeds 000/001", "modelled")                                                          \
	X("pcie_dll", "PCIe data link layer: LCRC, sequence numbers, retry buffer, REPLAY_TIMER, " \
	  "Ack/Nak, the TLP receiver (both ends)", "PCIe Base §3.6 (seed 003)", "modelled")         \
	X("uar", "UAR pages and their doorbell registers", "PRM §7.2 T13/T14", "modelled")       \
	X("mkey", "memory keys, translation and protection", "PRM §6, §12.5 T9-T12", "modelled") \
	X("eq", "event queues, EQEs, arming and interrupts", "PRM §7.13, §12.6 T77-T94",         \
	  "modelled")                                                                           \
	X("cq", "completion queues, CQEs, arming, moderation, resize", "PRM §7.12, §12.7 T67-T76", \
	  "modelled")                                                                           \
	X("tir", "transport interface receive objects", "PRM §7.5, §12.8 T44-T48", "modelled")   \
	X("tis", "transport interface send objects", "PRM §7.6, §12.9 T49-T51", "modelled")      \
	X("wq", "SQs, RQs, RMPs, work queues, doorbells and flush", "PRM §7.4, §7.7-§7.10, "     \
	  "§12.10, §12.11, §12.13", "modelled")                                                 \
	X("rqt", "RQ tables", "PRM §7.8, §12.12 T58/T59", "modelled")                            \
	X("vport", "NIC vport, vport counters and the L2 table", "PRM §7.3, §12.15-§12.17 T15-T20", \
	  "modelled")                                                                           \
	X("tx_sq", "send queue execution: doorbells, the record, Blue Flame, the WQEBB ring, CE "  \
	  "modes", "PRM §7.2.2.1, §7.4.1.1, §7.4.3, §9.2.3", "modelled")                          \
	X("tx_wqe", "send WQE formats: ctrl, Eth and data segments, inline headers, padding, the "  \
	  "minimum frame", "PRM §7.4.4.1-§7.4.4.2 T25-T41, §3.3.8", "modelled")                   \
	X("tx_csum", "TX checksum offload: IPv4 header, TCP/UDP over IPv4 and IPv6",              \
	  "PRM §3.3.1, T28", "modelled")                                                        \
	X("tx_lso", "large send offload", "PRM §3.3.2, T28", "modelled")                          \
	X("tx_errors", "send completions with error, the SQ in error and flush",                  \
	  "PRM §7.12.7 T73/T74, §7.9.2", "modelled")                                            \
	X("tx_inline", "send inline-header modes", "PRM §7.9.3, §7.9.3.1, T61", "modelled")       \
	X("tx_counters", "TX counters: vport and PPCNT", "PRM §12.17.1, §11.1.5", "modelled")     \
	X("tx_umr", "UMR WQEs", "PRM §7.4.4.1.3 T31-T37, §10.1.1", "modelled")                    \
	X("steer", "flow steering: tables, groups, entries, counters, the root; classification "  \
	  "(frames: vectors/rx/steer_frames.json)", "PRM §7.11, §12.14 T383-T456, T148-T153",     \
	  "modelled")                                                                           \
	X("rx_rss", "RSS through an Indirect TIR: every field selection, symmetric, XOR8, "      \
	  "Microsoft's verification values", "PRM §3.3.3, T45-T47, T68", "modelled")              \
	X("rx_cqe", "responder CQEs: header fields, checksum, flow tag, 64/128-byte CQEs",        \
	  "PRM §7.12.1.1 T67/T68, §3.3.1", "modelled")                                            \
	X("rx_scatter", "receive WQEs: scatter, Null entry, signature, padding, VLAN strip, no "   \
	  "WQE, errors and flush", "PRM §7.4.1.2, §7.4.4.1.5, §7.10, §3.3.7-§3.3.10, §7.12.7",     \
	  "modelled")                                                                           \
	X("rx_vport", "vport acceptance of received frames, size checks, RX counters",            \
	  "PRM §7.3 T16, §3.3.8, §12.16, §12.17", "modelled")                                     \
	X("rx_steer", "NIC_RX flow steering with frames: match fields, actions, miss, multi-path, " \
	  "flow counters", "PRM §7.11.2, §12.14.9 T429-T434, T153", "modelled")                    \
	X("rx_loopback", "local loopback through NIC_TX and NIC_RX steering, self-loopback",      \
	  "PRM §3.4, T45 self_lb_en, §7.11.2", "modelled")                                      \
	X("rx_counters", "RX counters: PPCNT groups moved once per frame, drops, the link down", \
	  "PRM §11.1.5 T114-T124, §11.1.3, §12.17.1", "modelled")                               \
	X("rx_events", "the receive CQ: overrun, CQE timestamp, se, completion event; RMP limit", \
	  "PRM §7.12.1, §7.12.10, §7.10 T55", "modelled")                                       \
	X("lro", "large receive offload: sessions, merging, termination, the timer, LRO CQEs",   \
	  "PRM §3.3.6, T5, T45, T68, T147", "modelled")                                         \
	/* Beyond PRM Rev 0.40 (issue 17, docs/roce.md): the public mlx5 QP interface and the      \
	 * RoCEv2 transport. */                                                                 \
	X("qp_create", "QPs (beyond PRM Rev 0.40): CREATE/DESTROY/QUERY_QP, the QPN space, ICM", \
	  "Linux mlx5_ifc.h; seed 004 L42-44", "modelled")                                       \
	X("qp_state", "QP state machine: every transition command, the wrong-state refusal",     \
	  "IBTA Vol. 1 §10.3, §11.2.4; mlx5_ifc.h", "modelled")                                  \
	X("qp_attrs", "QP attributes per transition: required, optional (opt_param_mask), values", \
	  "IBTA Vol. 1 §11.2.4.2; mlx5 opt_mask", "modelled")                                    \
	X("qp_refs", "objects a QP holds: PD, CQs, RMP, UAR", "mlx5_ifc.h; D-OBJ-1", "modelled")  \
	X("qp_gid", "the GID table: SET/QUERY_ROCE_ADDRESS", "mlx5_ifc.h roce_addr_layout",       \
	  "modelled")                                                                           \
	X("qp_seed004", "the seed004 profile's QP rules", "seed 004 L33-44, L126-150", "modelled") \
	X("roce_rc_responder", "RoCEv2 RC responder: checks in order, placement, ACK/NAK/RNR "   \
	  "NAK, duplicates, READ responses, receive CQEs (no atomics)",                           \
	  "IBTA Vol. 1 §9.7, §9.9; RoCEv2 Annex A17; seed 004", "partial")                       \
	X("roce_rc_requester", "RoCEv2 RC requester: packets by path MTU, PSNs, ACK/NAK, "       \
	  "Go-Back-N, RNR, retry exhaustion, ADP timing (no atomics)",                            \
	  "IBTA Vol. 1 §9.7, §9.9; seeds 000/001/004", "partial")                                \
	X("roce_ud", "RoCEv2 UD: DETH, Q_Key, the GRH area, P_Key, drops",                        \
	  "IBTA Vol. 1 §9.8, §10.2.5; RoCEv2 Annex A17", "modelled")                             \
	X("roce_ecn_cnp", "ECN and CNPs: the notification and the reaction point",               \
	  "RoCEv2 Annex A17.9; seed 004", "modelled")                                            \
	X("roce_pair", "two devices over nicref_link: loss, duplication, reordering, CE marks",  \
	  "IBTA Vol. 1 §9.7", "modelled")                                                       \
	X("umem", "UMEMs (beyond PRM Rev 0.40): CREATE/DESTROY_UMEM, CQs and WQs in UMEMs",       \
	  "Linux mlx5_ifc.h, devx.c; docs/umem.md", "partial")

static const char layouts_usage[] =
	"usage: nicref layouts [--tsv]\n"
	"Lists every PRM structure layout the model knows and its fields: byte offset of the\n"
	"dword and bit range as the PRM prints them, width, name.\n"
	"\n"
	"  --tsv       one tab-separated line per field: layout, field, bit_offset, bit_width,\n"
	"              source (bit_offset counts from the most significant bit of byte 0)\n"
	"  -h, --help  print this usage and exit\n"
	"\n"
	"Exit status: 0 listed, 2 a usage error.\n";

static int cmd_layouts(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_TSV = 0x100 };
	static const struct option longopts[] = { { "tsv", no_argument, NULL, OPT_TSV },
						  CLI_HELP_OPTION,
						  { 0 } };
	int tsv = 0, o;
	while ((o = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		if (o == OPT_TSV)
			tsv = 1;
		else
			return cli_getopt_exit(o);
	}
	if (optind < argc)
		return cli_usage_error(call, "unexpected operand '%s'", argv[optind]);
	size_t n;
	const struct nicref_layout *const *all = nicref_layouts(&n);
	for (size_t i = 0; i < n; i++) {
		const struct nicref_layout *l = all[i];
		if (!tsv)
			printf("%s (%u bytes, %s)\n", l->name, l->size, l->source);
		for (uint32_t k = 0; k < l->nfields; k++) {
			const struct nicref_field *f = &l->fields[k];
			if (tsv)
				printf("%s\t%s\t%u\t%u\t%s%s\n", l->name, f->name, f->bit_offset,
				       f->bit_width, l->source,
				       f->flags & NICREF_FIELD_ARRAY ? " (array element)" : "");
			else
				printf("  %04Xh %2u:%-2u %6u bits  %s\n", f->prm_offset, f->msb,
				       f->lsb, f->bit_width, f->name);
		}
	}
	return 0;
}

static long read_hex_arg(const char *arg, uint8_t *buf, size_t cap)
{
	if (arg[0] != '@')
		return hex_parse(arg, buf, cap);
	FILE *f = fopen(arg + 1, "r");
	if (!f)
		return -1;
	static char text[1 << 20];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	return hex_parse(text, buf, cap);
}

static const char decode_usage[] =
	"usage: nicref decode LAYOUT HEX|@FILE\n"
	"Prints a structure field by field: LAYOUT is a name `nicref layouts` lists, the bytes\n"
	"are hex digits on the command line or in FILE (spaces, newlines and a 0x prefix are\n"
	"ignored). Fields the bytes do not reach are marked missing.\n"
	"\n"
	"  -h, --help  print this usage and exit\n"
	"\n"
	"Exit status: 0 decoded, 2 bad input (no such layout, not hex) or a usage error.\n";

static int cmd_decode(const struct cli_call *call, int argc, char **argv)
{
	static const struct option longopts[] = { CLI_HELP_OPTION, { 0 } };
	int o = cli_getopt(call, argc, argv, "h", longopts, NULL); /* -h is the only option */
	if (o != -1)
		return cli_getopt_exit(o);
	if (argc - optind != 2)
		return cli_usage_error(call, "takes 2 operands, LAYOUT and HEX|@FILE (%d given)",
				       argc - optind);
	const char *layout = argv[optind], *input = argv[optind + 1];
	const struct nicref_layout *l = nicref_layout_find(layout);
	if (!l) {
		fprintf(stderr, "nicref decode: no layout '%s' (see nicref layouts)\n", layout);
		return 2;
	}
	static uint8_t buf[1 << 18];
	long n = read_hex_arg(input, buf, sizeof buf);
	if (n < 0) {
		fprintf(stderr, "nicref decode: not hex (or too long): %s\n", input);
		return 2;
	}
	printf("%s (%s): %ld bytes\n", l->name, l->source, n);
	if ((unsigned long)n < l->size)
		printf("  (shorter than the layout's %u bytes: missing fields are marked)\n",
		       l->size);
	for (uint32_t k = 0; k < l->nfields; k++) {
		const struct nicref_field *f = &l->fields[k];
		uint32_t count = 1;
		if (f->flags & NICREF_FIELD_ARRAY)
			count = (uint64_t)n * 8 > f->bit_offset
					? (uint32_t)(((uint64_t)n * 8 - f->bit_offset) / f->bit_width)
					: 0;
		for (uint32_t e = 0; e < count; e++) {
			struct nicref_field one = nicref_field_element(f, e);
			char name[128];
			if (f->flags & NICREF_FIELD_ARRAY)
				snprintf(name, sizeof name, "%s[%u]", f->name, e);
			else
				snprintf(name, sizeof name, "%s", f->name);
			uint64_t v;
			if (one.bit_width <= 64) {
				if (nicref_field_get(buf, (size_t)n, &one, &v) == 0)
					printf("  %-36s 0x%llx (%llu)\n", name,
					       (unsigned long long)v, (unsigned long long)v);
				else
					printf("  %-36s (missing)\n", name);
				continue;
			}
			static uint8_t bytes[4096];
			static char hex[8193];
			if (nicref_field_get_bytes(buf, (size_t)n, &one, bytes, one.bit_width / 8)) {
				printf("  %-36s (missing)\n", name);
				continue;
			}
			hex_format(bytes, one.bit_width / 8, hex);
			printf("  %-36s %s\n", name, hex);
		}
	}
	return 0;
}

static const char vectors_usage[] =
	"usage: nicref vectors [OPTIONS] PATH...\n"
	"Runs the golden vectors of each PATH (a vector file, or a folder searched recursively\n"
	"for *.json, in sorted order) against the model: one line per failure, then\n"
	"\"N passed, N failed, ...\". The format is docs/vectors.md.\n"
	"\n"
	"  --json FILE     also write the results as JSON (docs/vectors.md, \"Reports\")\n"
	"  --junit FILE    also write the results as JUnit XML\n"
	"  --trace FILE    write the canonical event trace of every test to FILE\n"
	"  --pcap FILE     write every frame every test transmitted to FILE (pcap,\n"
	"                  Ethernet, timestamps from virtual time)\n"
	"  --corpus DIR    export fuzzing seed corpora (command queue op streams, command\n"
	"                  inputs) from the vectors into DIR/cmdq and DIR/cmd\n"
	"  --summary       then a summary per vector file and the count of modelled commands\n"
	"  --dut LIB       also drive the device under test LIB (a shared library of the ABI\n"
	"                  of nicref/dut.h, docs/dut.md) with every test's stimuli; a DUT that\n"
	"                  differs from the model in what a host observes fails the test; one\n"
	"                  that crashes or hangs is reported with its test and stimulus (exit 1)\n"
	"  --dut-timeout S with --dut: a call into the DUT that runs S seconds is a hang\n"
	"                  (default 60; 0 no limit)\n"
	"  -v, --verbose   print passing tests too\n"
	"  -h, --help      print this usage and exit\n"
	"\n"
	"Exit status: 0 every vector passed, 1 a vector disagreed with the model (or the DUT\n"
	"with the model), 2 bad input (a DUT library that cannot be loaded, a path, file, vector or step the runner cannot check, a run that executed no vector,\n"
	"a report that cannot be written) or a usage error.\n";

static int cmd_vectors(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_JSON = 0x100, OPT_JUNIT, OPT_TRACE, OPT_CORPUS, OPT_SUMMARY, OPT_PCAP, OPT_DUT,
	       OPT_DUT_TIMEOUT };
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, OPT_JSON },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "pcap", required_argument, NULL, OPT_PCAP },
		{ "corpus", required_argument, NULL, OPT_CORPUS },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "dut", required_argument, NULL, OPT_DUT },
		{ "dut-timeout", required_argument, NULL, OPT_DUT_TIMEOUT },
		{ "verbose", no_argument, NULL, 'v' },
		CLI_HELP_OPTION,
		{ 0 }
	};
	struct vec_options opt = { 0 };
	const char *json = NULL, *junit = NULL, *trace = NULL, *pcap = NULL, *dut = NULL;
	int summary = 0, o;
	unsigned dut_ms = DUT_DIFF_TIMEOUT_DEFAULT_MS;
	bool dut_ms_given = false;
	while ((o = cli_getopt(call, argc, argv, "hv", longopts, NULL)) != -1) {
		if (o == OPT_JSON)
			json = optarg;
		else if (o == OPT_JUNIT)
			junit = optarg;
		else if (o == OPT_TRACE)
			trace = optarg;
		else if (o == OPT_PCAP)
			pcap = optarg;
		else if (o == OPT_CORPUS)
			opt.corpus_dir = optarg;
		else if (o == OPT_SUMMARY)
			summary = 1;
		else if (o == OPT_DUT)
			dut = optarg;
		else if (o == OPT_DUT_TIMEOUT) {
			if (dut_diff_timeout_arg(optarg, &dut_ms) != 0)
				return cli_usage_error(call, "--dut-timeout '%s': seconds, a number "
							     ">= 0 (0: no limit)", optarg);
			dut_ms_given = true;
		}
		else if (o == 'v')
			opt.verbose = true;
		else
			return cli_getopt_exit(o);
	}
	char **paths = argv + optind;
	int npaths = argc - optind;
	if (npaths == 0)
		return cli_usage_error(call, "no PATH given");
	if (dut_ms_given && !dut)
		return cli_usage_error(call, "--dut-timeout limits the calls into a DUT: give --dut LIB");
	if (dut) {
		char err[1200];
		if (dut_diff_use(dut, err, sizeof err) != 0) {
			fprintf(stderr, "nicref vectors: %s\n", err);
			return 2;
		}
		if (dut_diff_guard(dut_ms) != 0) {
			fprintf(stderr, "nicref vectors: --dut: cannot install the guard against a "
					"DUT that crashes or hangs: %s\n", strerror(errno));
			return 2;
		}
		opt.dut = true;
	}
	if (trace && !(opt.trace = fopen(trace, "w"))) {
		fprintf(stderr, "nicref vectors: cannot write %s\n", trace);
		return 2;
	}
	if (pcap && !(opt.pcap = pcap_out_open(pcap))) {
		fprintf(stderr, "nicref vectors: cannot write %s\n", pcap);
		if (opt.trace)
			fclose(opt.trace);
		return 2;
	}
	struct report rep;
	report_init(&rep);
	int rc = vectors_run_paths(paths, npaths, &opt, &rep, stdout);
	if (opt.trace)
		fclose(opt.trace);
	if (opt.pcap && pcap_out_close(opt.pcap) != 0)
		fprintf(stderr, "nicref vectors: cannot write %s\n", pcap), rc = VEC_BAD_INPUT;
	if (json && report_write_json(&rep, json) != 0)
		fprintf(stderr, "nicref vectors: cannot write %s\n", json), rc = VEC_BAD_INPUT;
	if (junit && report_write_junit(&rep, junit) != 0)
		fprintf(stderr, "nicref vectors: cannot write %s\n", junit), rc = VEC_BAD_INPUT;
	if (summary) {
		unsigned modelled = 0;
		for (unsigned i = 0; i < nicref_opcode_count(); i++)
			modelled += nicref_opcode_modelled(nicref_opcode_at(i)) != 0;
		printf("conformance summary (%zu vectors)\n", rep.n);
		/* Per feature, in the order the files ran. */
		for (size_t i = 0; i < rep.n;) {
			size_t j = i, p = 0, f = 0, s = 0;
			while (j < rep.n && strcmp(rep.tests[j].file, rep.tests[i].file) == 0) {
				p += rep.tests[j].outcome == TEST_PASS;
				f += rep.tests[j].outcome == TEST_FAIL;
				s += rep.tests[j].outcome == TEST_SKIP;
				j++;
			}
			printf("  %-40s %4zu passed %4zu failed %4zu skipped\n", rep.tests[i].file, p,
			       f, s);
			i = j;
		}
		printf("  commands of PRM T127: %u modelled, %u answer BAD_OP as unmodelled "
		       "(docs/conformance.md)\n",
		       modelled, nicref_opcode_count() - modelled);
	}
	report_closing_line(&rep, stdout);
	report_free(&rep);
	return rc;
}

/* The conformance matrix, generated from the tables and a run of the vectors, so it cannot
 * drift from the code: ci/check_conformance_doc.sh compares it with docs/conformance.md. */
static const char conformance_usage[] =
	"usage: nicref conformance [--check-rules] [PATH...]\n"
	"Runs the golden vectors of each PATH (default: vectors) and prints the conformance\n"
	"matrix in Markdown: every feature and every command of PRM T127 with its state and the\n"
	"vectors that exercise it, then every rule of the rule tables with the passing vectors\n"
	"that name it. docs/conformance.md is this output for vectors/. What the vectors report\n"
	"(failures, refused input) goes to stderr.\n"
	"\n"
	"  --check-rules  also fail when a rule has no passing vector and is not listed as\n"
	"                 unreachable, or is listed and a vector names it (each to stderr)\n"
	"  -h, --help     print this usage and exit\n"
	"\n"
	"Exit status: 0 every vector passed (and, with --check-rules, every rule is named or\n"
	"unreachable), 1 a vector failed or a rule is not (the matrix is printed), 2 bad input\n"
	"(no matrix is printed) or a usage error.\n";

static int cmd_conformance(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_CHECK_RULES = 0x100 };
	static const struct option longopts[] = {
		{ "check-rules", no_argument, NULL, OPT_CHECK_RULES }, CLI_HELP_OPTION, { 0 }
	};
	int check_rules = 0, o;
	while ((o = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		if (o == OPT_CHECK_RULES)
			check_rules = 1;
		else
			return cli_getopt_exit(o);
	}
	char *dflt[] = { "vectors" };
	struct vec_options opt = { 0 };
	struct report rep;
	report_init(&rep);
	int rc = optind < argc ? vectors_run_paths(argv + optind, argc - optind, &opt, &rep, stderr)
			       : vectors_run_paths(dflt, 1, &opt, &rep, stderr);
	if (rc == VEC_BAD_INPUT) {
		fprintf(stderr, "nicref conformance: the vectors could not all be checked (see "
				"above); no matrix\n");
		report_free(&rep);
		return 2;
	}
	/* A vector file whose feature has no row would count nowhere: refuse, never omit it. */
	{
#define FEATURE_KEY(key, what, src, state) key,
		static const char *const keys[] = { FEATURES(FEATURE_KEY) };
#undef FEATURE_KEY
		for (size_t i = 0; i < rep.n; i++) {
			const char *f = rep.tests[i].feature;
			size_t k = 0;
			while (f && k < sizeof keys / sizeof keys[0] && strcmp(keys[k], f) != 0)
				k++;
			if (f && k == sizeof keys / sizeof keys[0]) {
				fprintf(stderr, "nicref conformance: feature \"%s\" (%s) has no row in the "
						"features table (harness/main.c FEATURES)\n", f,
					rep.tests[i].file ? rep.tests[i].file : "?");
				report_free(&rep);
				return 1;
			}
		}
	}
	printf("# Conformance matrix\n\n"
	       "Generated by `nicref conformance` from the model's tables and a run of the golden\n"
	       "vectors; `make check` fails when this file differs from what the tool prints.\n"
	       "A vector counts for an opcode when it posts that command. States: *modelled* (all\n"
	       "rules of the section implemented), *partial*, *unmodelled* (answers BAD_OP and\n"
	       "emits an `unmodelled` trace event, never a silent success).\n\n"
	       "Vectors: %zu passed, %zu failed, %zu skipped.\n\n",
	       rep.passed, rep.failed, rep.skipped);
	printf("## Features\n\n| feature | source | state | vectors |\n|---|---|---|---|\n");
#define FEATURE_ROW(key, what, src, state)                                                      \
	{                                                                                       \
		size_t c = 0;                                                                   \
		for (size_t i = 0; i < rep.n; i++)                                              \
			c += rep.tests[i].feature && strcmp(rep.tests[i].feature, key) == 0;   \
		printf("| %s | %s | %s | %zu |\n", what, src, state, c);                        \
	}
	FEATURES(FEATURE_ROW)
#undef FEATURE_ROW
	printf("\n## Commands (PRM §12.1 T127)\n\nCounts are of passing vectors: *ok* vectors see "
	       "the command complete with status OK, *refused* vectors see it refused (a delivery "
	       "or return status other than OK), *posted in* is every vector that posts it.\n\n"
	       "| opcode | command | section | state | ok | refused | posted in |\n"
	       "|---|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < nicref_opcode_count(); i++) {
		unsigned op = nicref_opcode_at(i);
		size_t posted = 0, ok = 0, refused = 0;
		for (size_t t = 0; t < rep.n; t++) {
			const struct test_result *tr = &rep.tests[t];
			for (unsigned k = 0; k < tr->nopcodes; k++)
				posted += tr->opcodes[k] == op;
			if (tr->outcome != TEST_PASS)
				continue;
			for (unsigned k = 0; k < tr->nok; k++)
				ok += tr->ok_ops[k] == op;
			for (unsigned k = 0; k < tr->nrefused; k++)
				refused += tr->refused_ops[k] == op;
		}
		/* A PRM section number, or the public source of a command beyond the PRM. */
		const char *sec = nicref_opcode_section(op);
		bool prm = sec[0] >= '0' && sec[0] <= '9';
		printf("| 0x%03X | %s | %s%s | %s | %zu | %zu | %zu |\n", op, nicref_opcode_name(op),
		       prm ? "§" : "beyond PRM Rev 0.40: ", sec,
		       nicref_opcode_modelled(op) ? "modelled" : "unmodelled", ok, refused, posted);
	}
	conformance_beyond_print(stdout);
	conformance_rules_print(&rep, stdout);
	if (check_rules && conformance_rules_check(&rep, stderr) && rc == VEC_PASSED)
		rc = VEC_FAILED;
	report_free(&rep);
	return rc;
}

static const char help_usage[] =
	"usage: nicref help [COMMAND [SUBCOMMAND]]\n"
	"Prints the overview of the commands, or the usage of COMMAND (the same text as\n"
	"`nicref COMMAND --help`).\n"
	"\n"
	"  -h, --help  print this usage and exit\n"
	"\n"
	"Exit status: 0 printed, 2 no such command or a usage error.\n";

static int cmd_help(const struct cli_call *call, int argc, char **argv);

/* Every command: `nicref NAME ...` runs the row's handler. */
static const struct cli_cmd commands[] = {
	{ "vectors", "run golden vectors against the model; JSON/JUnit reports, traces",
	  vectors_usage, cmd_vectors, NULL },
	{ "decode", "print a structure field by field", decode_usage, cmd_decode, NULL },
	{ "layouts", "list every PRM layout the model knows", layouts_usage, cmd_layouts, NULL },
	{ "conformance", "print the conformance matrix (docs/conformance.md)", conformance_usage,
	  cmd_conformance, NULL },
	ADP_CLI_ROW,
	LRO_CLI_ROW,
	REPLAY_CLI_ROW,
	REPRO_CLI_ROW,
	{ "drive", "run a user-space driver on the model through VFIO; its violations",
	  drive_usage, cmd_drive, NULL },
	PCIE_CLI_ROW,
	ROCE_CLI_ROW,
	{ "help", "print this overview, or a command's usage", help_usage, cmd_help, NULL },
	{ 0 }
};

static void overview(FILE *f)
{
	fprintf(f, "usage: nicref [-h | --help] [-V | --version] COMMAND [ARGS...]\n"
		   "The nicref tool: golden-vector conformance runs, reports and structure\n"
		   "decoding for an mlx5-class NIC (ConnectX-4 PRM Rev 0.40), on libnicref, its\n"
		   "reference model.\n\ncommands:\n");
	for (const struct cli_cmd *c = commands; c->name; c++) {
		if (!c->sub) {
			fprintf(f, "  %-14s %s\n", c->name, c->summary);
			continue;
		}
		for (const struct cli_cmd *s = c->sub; s->name; s++) {
			char name[64];
			snprintf(name, sizeof name, "%s %s", c->name, s->name);
			fprintf(f, "  %-14s %s\n", name, s->summary);
		}
	}
	fprintf(f, "\n`nicref COMMAND --help` or `nicref help COMMAND` prints a command's usage;\n"
		   "`man nicref` describes them all.\n"
		   "\n"
		   "Exit status: 0 ok, 1 a disagreement (a vector fails, a capture does not\n"
		   "conform), 2 bad input or a usage error.\n");
}

static const struct cli_cmd *find_command(const char *name)
{
	for (const struct cli_cmd *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* `nicref help X Y` is `nicref X Y --help`. */
static int cmd_help(const struct cli_call *call, int argc, char **argv)
{
	static const struct option longopts[] = { CLI_HELP_OPTION, { 0 } };
	int o = cli_getopt(call, argc, argv, "h", longopts, NULL); /* -h is the only option */
	if (o != -1)
		return cli_getopt_exit(o);
	if (optind == argc) {
		overview(stdout);
		return 0;
	}
	const struct cli_cmd *c = find_command(argv[optind]);
	int words = argc - optind;
	if (!c)
		return cli_usage_error(call, "no command '%s'", argv[optind]);
	if (words > (c->sub ? 2 : 1))
		return cli_usage_error(call, "unexpected operand '%s'",
				       argv[optind + (c->sub ? 2 : 1)]);
	char help[] = "--help";
	char *args[3] = { argv[optind], help, NULL };
	if (words > 1)
		args[1] = argv[optind + 1], args[2] = help;
	int n = words + 1;
	return cli_dispatch("", commands, n, args);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = { { "version", no_argument, NULL, 'V' },
						  { "help", no_argument, NULL, 'h' },
						  { 0 } };
	opterr = 0;
	int o = getopt_long(argc, argv, "+:hV", longopts, NULL);
	if (o == 'h') {
		overview(stdout);
		return 0;
	}
	if (o == 'V') {
		printf("nicref %s\n", nicref_version());
		return 0;
	}
	if (o != -1)
		fprintf(stderr, "nicref: unrecognized option '%s'\n", argv[optind - 1]);
	else if (optind == argc)
		fprintf(stderr, "nicref: missing command\n");
	else if (!find_command(argv[optind]))
		fprintf(stderr, "nicref: unknown command '%s'\n", argv[optind]);
	else
		return cli_dispatch("", commands, argc - optind, argv + optind);
	overview(stderr);
	return 2;
}
