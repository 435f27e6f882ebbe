/* nicref: the command-line tool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_cmd.h"
#include "jsonval.h"
#include "nicref/nicref.h"
#include "report.h"
#include "vectors.h"

static int usage(FILE *f)
{
	fputs("usage:\n"
	      "  nicref vectors [--json FILE] [--junit FILE] [--trace FILE] [--corpus DIR]\n"
	      "                 [--summary] [-v] PATH...   run golden vectors (files or folders)\n"
	      "  nicref decode LAYOUT HEX|@FILE            print a structure field by field\n"
	      "  nicref layouts [--tsv]                    every PRM layout the model knows\n"
	      "  nicref conformance [PATH...]              the conformance matrix (markdown)\n"
	      "  nicref adp timeline|check ...             ADP timeline and capture check (docs/adp.md)\n",
	      f);
	return 2;
}

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
	  "modelled")

static int cmd_layouts(int argc, char **argv)
{
	int tsv = argc > 0 && strcmp(argv[0], "--tsv") == 0;
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

static int cmd_decode(int argc, char **argv)
{
	if (argc != 2)
		return usage(stderr);
	const struct nicref_layout *l = nicref_layout_find(argv[0]);
	if (!l) {
		fprintf(stderr, "nicref decode: no layout '%s' (see nicref layouts)\n", argv[0]);
		return 2;
	}
	static uint8_t buf[1 << 18];
	long n = read_hex_arg(argv[1], buf, sizeof buf);
	if (n < 0) {
		fprintf(stderr, "nicref decode: not hex (or too long): %s\n", argv[1]);
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

static int cmd_vectors(int argc, char **argv)
{
	struct vec_options opt = { 0 };
	const char *json = NULL, *junit = NULL, *trace = NULL;
	int summary = 0;
	char **paths = calloc((size_t)argc + 1, sizeof *paths);
	int npaths = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if ((!strcmp(a, "--json") || !strcmp(a, "--junit") || !strcmp(a, "--trace") ||
		     !strcmp(a, "--corpus")) &&
		    i + 1 == argc) {
			free(paths);
			return usage(stderr);
		}
		if (!strcmp(a, "--json"))
			json = argv[++i];
		else if (!strcmp(a, "--junit"))
			junit = argv[++i];
		else if (!strcmp(a, "--trace"))
			trace = argv[++i];
		else if (!strcmp(a, "--corpus"))
			opt.corpus_dir = argv[++i];
		else if (!strcmp(a, "--summary"))
			summary = 1;
		else if (!strcmp(a, "-v"))
			opt.verbose = true;
		else if (a[0] == '-') {
			free(paths);
			return usage(stderr);
		} else
			paths[npaths++] = argv[i];
	}
	if (npaths == 0) {
		free(paths);
		return usage(stderr);
	}
	if (trace && !(opt.trace = fopen(trace, "w"))) {
		fprintf(stderr, "nicref vectors: cannot write %s\n", trace);
		free(paths);
		return 2;
	}
	struct report rep;
	report_init(&rep);
	int rc = vectors_run_paths(paths, npaths, &opt, &rep, stdout);
	if (opt.trace)
		fclose(opt.trace);
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
	free(paths);
	return rc;
}

/* The conformance matrix, generated from the tables and a run of the vectors, so it cannot
 * drift from the code: ci/check_conformance_doc.sh compares it with docs/conformance.md. */
static int cmd_conformance(int argc, char **argv)
{
	char *dflt[] = { "vectors" };
	struct vec_options opt = { 0 };
	struct report rep;
	FILE *null = fopen("/dev/null", "w");
	report_init(&rep);
	vectors_run_paths(argc ? argv : dflt, argc ? argc : 1, &opt, &rep, null ? null : stderr);
	if (null)
		fclose(null);
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
		printf("| 0x%03X | %s | §%s | %s | %zu | %zu | %zu |\n", op, nicref_opcode_name(op),
		       nicref_opcode_section(op),
		       nicref_opcode_modelled(op) ? "modelled" : "unmodelled", ok, refused, posted);
	}
	int failed = rep.failed > 0;
	report_free(&rep);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "vectors"))
		return cmd_vectors(argc - 2, argv + 2);
	if (!strcmp(argv[1], "decode"))
		return cmd_decode(argc - 2, argv + 2);
	if (!strcmp(argv[1], "layouts"))
		return cmd_layouts(argc - 2, argv + 2);
	if (!strcmp(argv[1], "conformance"))
		return cmd_conformance(argc - 2, argv + 2);
	if (!strcmp(argv[1], "adp"))
		return adp_main(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
		return usage(stdout), 0;
	return usage(stderr);
}
