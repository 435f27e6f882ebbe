/* Test results and their reports: the closing line, JSON (docs/schemas/report.schema.json) and
 * JUnit XML (docs/schemas/junit.xsd), described in docs/vectors.md, "Reports". */
#ifndef NICREF_REPORT_H
#define NICREF_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The JSON report's "schema_version": raised whenever a change could break a reader (a key
 * removed or renamed, a type or meaning changed, a new outcome); docs/vectors.md, "Reports". */
#define REPORT_SCHEMA_VERSION 1

/* PASS and FAIL are verdicts on the implementation; ERROR is a vector or file the runner refused
 * to check (malformed, unreadable, names nothing it knows): the run exits 2, never 0. */
enum test_outcome { TEST_PASS, TEST_FAIL, TEST_SKIP, TEST_ERROR };

/* Distinct opcodes a test may post (every command of T127 fits). */
#define REPORT_MAX_OPS 128

/* Distinct rules one test's expectations may be credited with (the per-rule view of
 * docs/conformance.md); a rule beyond is counted in rules_dropped and not credited. A command
 * rule r (NICREF_CMD_RULES) is stored as r, a driver violation v (NICREF_VIOLATIONS) as
 * REPORT_RULE_VIOLATION | v, a RoCE drop reason as below. */
#define REPORT_MAX_RULES 16
#define REPORT_RULE_VIOLATION 0x8000u
/* A RoCE drop reason d (NICREF_ROCE_DROPS, nicref/roce.h), credited when a roce_drop event a
 * test expects names it: REPORT_RULE_ROCE_DROP | d. */
#define REPORT_RULE_ROCE_DROP 0x4000u
#define REPORT_RULE_TABLE_MASK (REPORT_RULE_VIOLATION | REPORT_RULE_ROCE_DROP)

struct test_result {
	char *file;    /* vector file, relative as given */
	char *feature; /* the file's "feature" */
	long tc_id;
	char *comment;
	char *cite;
	char *result; /* valid / invalid / acceptable */
	enum test_outcome outcome;
	char *failures; /* newline-separated messages, the first difference first; for SKIP, the
			 * reason; NULL when passed */
	char *notes;    /* newline-separated information that is not a failure (which any_of
			 * alternative matched, ...); NULL when none */
	double seconds; /* wall time the test took (reports only; never in the trace) */
	unsigned opcodes[REPORT_MAX_OPS]; /* distinct opcodes the test posted (conformance counts) */
	unsigned nopcodes;
	/* distinct opcodes the test saw complete with status OK, and refused (delivery or
	 * return status not OK): a command is covered both ways when some test does each */
	unsigned ok_ops[REPORT_MAX_OPS], nok;
	unsigned refused_ops[REPORT_MAX_OPS], nrefused;
	/* rules an expectation that held named (expect.rule, an event's rule) or matched by
	 * clause, as the rule that actually refused (the event's rule, the rule whose syndrome
	 * the completion carries); in any_of, only the alternative that held counts */
	uint16_t rules[REPORT_MAX_RULES];
	unsigned nrules, rules_dropped;
};

struct report {
	struct test_result *tests;
	size_t n, cap;
	size_t passed, failed, skipped, errors;
	time_t started; /* when the run started (report_init), for JUnit timestamps */
};

void report_init(struct report *r);
void report_free(struct report *r);
/* Takes ownership of the strings in t. */
int report_add(struct report *r, const struct test_result *t);
void report_closing_line(const struct report *r, FILE *out);
int report_write_json(const struct report *r, const char *path);
int report_write_junit(const struct report *r, const char *path);

#endif
