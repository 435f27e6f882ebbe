/* `nicref pcie check` (harness/pcie_check.c) on traces of reference/pcie/'s link
 * (harness/pcie_link_trace.c): two conforming ends give conforming traces whatever faults the
 * link injects; a trace changed to break one rule is caught with that rule, in the right
 * direction; malformed traces are refused with the file and line. The example traces of
 * examples/pcie/ (an independent model's verdicts) are checked by make pcie-gen-check. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcie_check.h"
#include "pcie_link_trace.h"

/* The trace of a link run, in memory. */
static char *run_trace(const struct pcie_link_trace_opts *o, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	cr_assert(f);
	cr_assert_eq(pcie_link_trace(f, o), 0, "the link did not become idle");
	fclose(f);
	return buf;
}

static int check_text(const char *text, struct pcie_check_result *res)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	cr_assert(f);
	int rc = pcie_check_stream(f, "trace", res);
	fclose(f);
	return rc;
}

static void expect_ok(const struct pcie_link_trace_opts *o, const char *what)
{
	size_t len;
	char *t = run_trace(o, &len);
	struct pcie_check_result res;
	int rc = check_text(t, &res);
	cr_expect_eq(rc, 0, "%s: %s: down %s (line %ld: %s), up %s (line %ld: %s)", what,
		     res.error, res.dir[0].violation ? pcie_check_rule_name(res.dir[0].rule) : "ok",
		     res.dir[0].line, res.dir[0].message,
		     res.dir[1].violation ? pcie_check_rule_name(res.dir[1].rule) : "ok",
		     res.dir[1].line, res.dir[1].message);
	cr_expect_gt(res.records, 100, "%s: only %ld records", what, res.records);
	free(t);
}

Test(pcie_check, clean_link_conforms)
{
	struct pcie_link_trace_opts o;
	pcie_link_trace_defaults(&o);
	expect_ok(&o, "no faults");
}

Test(pcie_check, faulty_links_conform)
{
	/* 2% of each fault but the Ack delay (a delayed Ack may be late: a violation by design).
	 * The recommended priority: under replay_first a long replay may hold a Nak or an Ack
	 * back past the tolerance, which the checker rightly reports. */
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct pcie_link_trace_opts o;
		pcie_link_trace_defaults(&o);
		o.link.seed = seed;
		o.link.faults = (struct nicref_pcie_faults){ 1311, 1311, 1311, 1311, 1311, 0, 0 };
		o.link.delay = (uint32_t)(seed * 37 % 400);
		o.tlps[0] = 300, o.tlps[1] = 200;
		char what[32];
		snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
		expect_ok(&o, what);
	}
}

Test(pcie_check, rollover_and_retrain_conform)
{
	/* A quarter of each fault and a short REPLAY_TIMER: REPLAY_NUM rolls over, the link
	 * retrains, several times. */
	struct pcie_link_trace_opts o;
	pcie_link_trace_defaults(&o);
	o.dll.replay_limit = 600;
	o.link.faults = (struct nicref_pcie_faults){ 16384, 16384, 16384, 16384, 16384, 0, 0 };
	o.link.seed = 5;
	size_t len;
	char *t = run_trace(&o, &len);
	cr_assert(strstr(t, "\"retrain_done\""), "no retrain in the run");
	struct pcie_check_result res;
	cr_expect_eq(check_text(t, &res), 0, "down line %ld %s; up line %ld %s", res.dir[0].line,
		     res.dir[0].message, res.dir[1].line, res.dir[1].message);
	free(t);
}

/* Removes the n-th line that contains `needle` (1-based among those). */
static void drop_line(char *t, const char *needle, int n)
{
	for (char *p = t; (p = strstr(p, needle)); p++) {
		if (--n)
			continue;
		char *s = p;
		while (s > t && s[-1] != '\n')
			s--;
		char *e = strchr(p, '\n');
		memmove(s, e + 1, strlen(e + 1) + 1);
		return;
	}
	cr_assert_fail("no line with %s", needle);
}

Test(pcie_check, a_removed_nak_is_found_in_both_directions)
{
	/* B's first Nak taken out of a run: B missed it (up: rx.missed_nak), and A's replay,
	 * which that Nak caused, now has no cause (down: tx.replay_early). */
	struct pcie_link_trace_opts o;
	pcie_link_trace_defaults(&o);
	o.link.faults.tlp_lcrc = 6554;
	o.link.seed = 3;
	o.tlps[1] = 0;
	/* Small enough that B's next Nak (418 symbol times later) comes too late for the first
	 * bad TLP; large enough for every wait for the wire of this run. */
	o.tolerance = 300;
	size_t len;
	char *t = run_trace(&o, &len);
	struct pcie_check_result res;
	cr_assert_eq(check_text(t, &res), 0, "the run itself: %s / %s", res.dir[0].message,
		     res.dir[1].message);
	drop_line(t, "\"nak\"", 1);
	cr_assert_eq(check_text(t, &res), 1);
	cr_assert(res.dir[0].violation && res.dir[1].violation, "down %s / up %s", res.dir[0].message, res.dir[1].message);
	cr_expect_str_eq(pcie_check_rule_name(res.dir[0].rule), "tx.replay_early");
	cr_expect_str_eq(pcie_check_rule_name(res.dir[1].rule), "rx.missed_nak");
	free(t);
}

Test(pcie_check, a_corrupted_ack_crc_is_the_senders)
{
	struct pcie_link_trace_opts o;
	pcie_link_trace_defaults(&o);
	size_t len;
	char *t = run_trace(&o, &len);
	char *crc = strstr(strstr(t, "\"up\", \"dllp\""), "\"crc\": \"0x") + 11;
	*crc = *crc == '0' ? '1' : '0';
	struct pcie_check_result res;
	cr_assert_eq(check_text(t, &res), 1);
	cr_expect(!res.dir[0].violation, "down: %s", res.dir[0].message);
	cr_assert(res.dir[1].violation);
	cr_expect_str_eq(pcie_check_rule_name(res.dir[1].rule), "dllp.crc");
	free(t);
}

Test(pcie_check, bad_input_names_the_line)
{
	struct pcie_check_result res;
	const char *t = "{\"format\": \"nicref_dll_trace_v1\"}\n"
			"{\"t\": 5, \"dir\": \"down\", \"dllp\": {\"type\": \"ack\", \"seq\": 4095, "
			"\"crc\": \"0xa825\"}}\n"
			"{\"t\": 4, \"dir\": \"up\", \"phy\": \"retrain\"}\n";
	cr_assert_eq(check_text(t, &res), 2);
	cr_expect_str_eq(res.error, "trace:3: t decreases");
	cr_assert_eq(check_text("{\"format\": \"x\"}\n", &res), 2);
	cr_expect(strstr(res.error, "trace:1:"));
	cr_assert_eq(check_text("{\"format\": \"nicref_dll_trace_v1\"}\n{\"t\": 1, \"dir\": \"up\", "
				"\"tlp\": {\"seq\": 4096, \"data\": \"00\", \"lcrc\": 0}}\n",
				&res),
		     2);
	cr_expect_str_eq(res.error, "trace:2: tlp.seq: 4096 is above 4095");
}
