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

Test(pcie_check, links_with_slower_symbols_conform)
{
	/* 2 and 3 symbol times a byte (the header's symbol_cost): the ends' REPLAY_TIMER from the
	 * last symbol of the TLP sent and of the Ack received is the checker's (D-DLL-22). */
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct pcie_link_trace_opts o;
		pcie_link_trace_defaults(&o);
		o.link.seed = seed;
		o.link.symbol_cost = 2 + (uint32_t)(seed % 2);
		o.link.faults = (struct nicref_pcie_faults){ 1311, 1311, 1311, 2622, 1311, 0, 0 };
		o.link.delay = (uint32_t)(seed * 53 % 300);
		o.tolerance = 4000; /* a TLP in flight each way and the Ack behind them, at 3x */
		o.tlps[0] = 200, o.tlps[1] = 150;
		char what[48];
		snprintf(what, sizeof what, "seed %llu, symbol_cost %u", (unsigned long long)seed,
			 o.link.symbol_cost);
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

/* ---- hand-made traces: the REPLAY_TIMER limit's range and the packets' last symbols ---- */

/* A trace written line by line. */
struct tr {
	char *buf;
	size_t len;
	FILE *f;
};

static void tr_open(struct tr *w, const char *header_keys)
{
	w->buf = NULL;
	w->f = open_memstream(&w->buf, &w->len);
	cr_assert(w->f);
	fprintf(w->f, "{\"format\": \"nicref_dll_trace_v1\"%s%s}\n", *header_keys ? ", " : "",
		header_keys);
}

/* A TLP of n bytes (0, 1, 2, ... mod 256) with sequence number seq and its LCRC, sent at t in
 * direction dir; flag: "" or ", \"lost\": true" etc. */
static void tr_tlp(struct tr *w, uint64_t t, const char *dir, unsigned seq, size_t n,
		   const char *flag)
{
	uint8_t data[NICREF_PCIE_TLP_MAX], hdr[2];
	for (size_t i = 0; i < n; i++)
		data[i] = (uint8_t)i;
	nicref_pcie_seqhdr((uint16_t)seq, 0, hdr);
	fprintf(w->f, "{\"t\": %llu, \"dir\": \"%s\", \"tlp\": {\"seq\": %u, \"data\": \"",
		(unsigned long long)t, dir, seq);
	for (size_t i = 0; i < n; i++)
		fprintf(w->f, "%02x", data[i]);
	fprintf(w->f, "\", \"lcrc\": \"0x%08x\"}%s}\n", nicref_pcie_lcrc(hdr, data, n), flag);
}

static void tr_dllp(struct tr *w, uint64_t t, const char *dir, bool nak, unsigned seq)
{
	struct nicref_pcie_dllp p = { nak ? NICREF_PCIE_DLLP_NAK : NICREF_PCIE_DLLP_ACK, 0,
				      (uint16_t)seq, 0 };
	uint8_t body[NICREF_PCIE_DLLP_BYTES];
	nicref_pcie_dllp_encode(&p, body);
	fprintf(w->f, "{\"t\": %llu, \"dir\": \"%s\", \"dllp\": {\"type\": \"%s\", \"seq\": %u, "
		      "\"crc\": \"0x%04x\"}}\n",
		(unsigned long long)t, dir, nak ? "nak" : "ack", seq, nicref_pcie_dllp_crc(body));
}

/* Checks the trace: "ok" both ways, or the rule (and the deadline or instant t) of the
 * direction given; the other direction conforms. */
static void tr_expect(struct tr *w, unsigned dir, const char *rule, uint64_t t, const char *what)
{
	fclose(w->f);
	struct pcie_check_result res;
	int rc = check_text(w->buf, &res);
	cr_assert_neq(rc, 2, "%s: %s", what, res.error);
	cr_expect(!res.dir[1 - dir].violation, "%s: %s", what, res.dir[1 - dir].message);
	if (!rule) {
		cr_expect_eq(rc, 0, "%s: %s", what, res.dir[dir].message);
	} else {
		cr_expect_eq(rc, 1, "%s: conforms, %s expected", what, rule);
		if (res.dir[dir].violation) {
			cr_expect_str_eq(pcie_check_rule_name(res.dir[dir].rule), rule, "%s: %s", what,
					 res.dir[dir].message);
			cr_expect_eq(res.dir[dir].t, t, "%s: t %llu", what,
				     (unsigned long long)res.dir[dir].t);
		}
	}
	free(w->buf);
}

/* End A sends TLP 0 (n bytes) at 0, lost; it is retransmitted at `replay` and acknowledged
 * 300 later. The TLP lasts n + 6 symbol times at one symbol per byte on one lane: REPLAY_TIMER
 * runs from n + 6. */
static void replay_at(const char *header, size_t n, uint64_t replay, const char *rule, uint64_t t,
		      const char *what)
{
	struct tr w;
	tr_open(&w, header);
	tr_tlp(&w, 0, "down", 0, n, ", \"lost\": true");
	tr_tlp(&w, replay, "down", 0, n, "");
	tr_dllp(&w, replay + 300, "up", false, 0);
	tr_expect(&w, 0, rule, t, what);
}

Test(pcie_check, a_replay_anywhere_in_the_limit_range_conforms)
{
	/* PCIe Base §3.6.2.1 (seed 003 L124-126): the Simplified REPLAY_TIMER Limit is 24000 to
	 * 31000 symbol times with Extended Synch 0, 80000 to 100000 with 1 (D-DLL-3): a device
	 * may expire anywhere in the range. A 12-byte TLP: REPLAY_TIMER from 18. */
	replay_at("", 12, 18 + 24000, NULL, 0, "ES 0, limit 24000");
	replay_at("", 12, 18 + 30000, NULL, 0, "ES 0, limit 30000");
	replay_at("", 12, 18 + 31000 + 2000, NULL, 0, "ES 0, limit 31000, the tolerance used");
	replay_at("", 12, 18 + 23999, "tx.replay_early", 18 + 23999, "ES 0, below 24000");
	replay_at("", 12, 18 + 33001, "tx.replay_late", 18 + 33000, "ES 0, past 31000 + 2000");
	replay_at("\"extended_synch\": 1", 12, 18 + 80000, NULL, 0, "ES 1, limit 80000");
	replay_at("\"extended_synch\": 1", 12, 18 + 100000, NULL, 0, "ES 1, limit 100000");
	replay_at("\"extended_synch\": 1", 12, 18 + 79999, "tx.replay_early", 18 + 79999,
		  "ES 1, below 80000");
	replay_at("\"extended_synch\": 1", 12, 18 + 102001, "tx.replay_late", 18 + 102000,
		  "ES 1, past 100000 + 2000");
	/* A device's own range. */
	replay_at("\"replay_limit_min\": 25000, \"replay_limit_max\": 26000", 12, 18 + 24999,
		  "tx.replay_early", 18 + 24999, "min 25000");
	replay_at("\"replay_limit_min\": 25000, \"replay_limit_max\": 26000", 12, 18 + 28000, NULL,
		  0, "max 26000 and the tolerance");
	replay_at("\"replay_limit_min\": 25000, \"replay_limit_max\": 26000", 12, 18 + 28001,
		  "tx.replay_late", 18 + 28000, "past max 26000 + 2000");
	/* "replay_limit" pins both ends: a device known to expire at 30000. */
	replay_at("\"replay_limit\": 30000", 12, 18 + 24500, "tx.replay_early", 18 + 24500,
		  "replay_limit 30000, a replay at 24500");
	replay_at("\"replay_limit\": 30000", 12, 18 + 32000, NULL, 0, "replay_limit 30000");
	replay_at("\"replay_limit\": 30000", 12, 18 + 32001, "tx.replay_late", 18 + 32000,
		  "replay_limit 30000, past it + 2000");
}

Test(pcie_check, replay_timer_runs_from_a_tlps_last_symbol)
{
	/* L33, L134: REPLAY_TIMER starts at the last symbol of the TLP transmitted. A TLP of
	 * 4116 bytes is 4122 bytes with its sequence number and LCRC (Fig. 3-14): 4122 symbol
	 * times at one symbol per byte on one lane (D-DLL-22). */
	replay_at("", 4116, 4122 + 24000, NULL, 0, "x1, the limit 24000 from the last symbol");
	replay_at("", 4116, 4122 + 23999, "tx.replay_early", 4122 + 23999, "x1, before it");
	replay_at("", 4116, 4122 + 33000, NULL, 0, "x1, 31000 + 2000 from the last symbol");
	replay_at("", 4116, 4122 + 33001, "tx.replay_late", 4122 + 33000, "x1, past it");
	/* Two symbol times a byte: 8244. Sixteen lanes: ceil(4122 / 16) = 258. */
	replay_at("\"symbol_cost\": 2", 4116, 8244 + 24000, NULL, 0, "symbol_cost 2");
	replay_at("\"symbol_cost\": 2", 4116, 8244 + 23999, "tx.replay_early", 8244 + 23999,
		  "symbol_cost 2, before");
	replay_at("\"link_width\": 16", 4116, 258 + 24000, NULL, 0, "x16");
	replay_at("\"link_width\": 16", 4116, 258 + 23999, "tx.replay_early", 258 + 23999,
		  "x16, before");
}

Test(pcie_check, replay_timer_restarts_at_an_acks_last_symbol)
{
	/* L35, L134: an Ack acknowledging TLP 0 with TLP 1 outstanding restarts REPLAY_TIMER at
	 * its last symbol received: the 6-byte DLLP arrives at 1000 (delay 0), ends at 1006. */
	const uint64_t restart = 1000 + 6;
	for (int k = 0; k < 2; k++) {
		struct tr w;
		tr_open(&w, "");
		tr_tlp(&w, 0, "down", 0, 12, "");
		tr_tlp(&w, 18, "down", 1, 12, ", \"lost\": true");
		tr_dllp(&w, 1000, "up", false, 0);
		tr_tlp(&w, restart + 24000 - (uint64_t)k, "down", 1, 12, "");
		tr_dllp(&w, restart + 24500, "up", false, 1);
		tr_expect(&w, 0, k ? "tx.replay_early" : NULL, restart + 24000 - (uint64_t)k,
			  k ? "a replay one symbol time early" : "a replay 24000 after the Ack ended");
	}
}

Test(pcie_check, ack_and_nak_run_from_a_tlps_last_symbol)
{
	/* L295: the Ack latency runs from the last symbol of the TLP received to the first of
	 * the Ack: a 4116-byte TLP sent at 0 with delay 100 ends at 100 + 4122 at B; the limit
	 * 1000 and the tolerance 2000 allow the Ack until 7222. A Nak for a bad TLP (L210-214)
	 * is owed from the same instant, within the tolerance. */
	const uint64_t end = 100 + 4122;
	for (int k = 0; k < 2; k++) {
		struct tr w;
		tr_open(&w, "\"delay\": 100");
		tr_tlp(&w, 0, "down", 0, 4116, "");
		tr_dllp(&w, end + 3000 + (uint64_t)k, "up", false, 0);
		tr_expect(&w, 1, k ? "rx.ack_late" : NULL, end + 3000, k ? "Ack late" : "Ack in time");
	}
	for (int k = 0; k < 2; k++) {
		struct tr w;
		tr_open(&w, "\"delay\": 100");
		tr_tlp(&w, 0, "down", 0, 4116, ", \"corrupt\": true");
		tr_dllp(&w, end + 2000 + (uint64_t)k, "up", true, 4095);
		tr_tlp(&w, end + 2200 + (uint64_t)k, "down", 0, 4116, "");
		tr_dllp(&w, end + 3000, "up", false, 0);
		tr_expect(&w, 1, k ? "rx.missed_nak" : NULL, end + 2000,
			  k ? "Nak late" : "Nak in time");
	}
}

Test(pcie_check, bad_replay_limits_and_lengths_are_refused)
{
	static const struct {
		const char *header, *error;
	} bad[] = {
		{ "\"replay_limit\": 30000, \"replay_limit_min\": 24000",
		  "trace:1: replay_limit is shorthand for replay_limit_min and replay_limit_max: "
		  "give either, not both" },
		{ "\"replay_limit_min\": 31001",
		  "trace:1: replay_limit_min: 31001 is above replay_limit_max 31000" },
		{ "\"link_width\": 0", "trace:1: link_width: 0 lanes" },
		{ "\"link_width\": 33", "trace:1: link_width: 33 is above 32" },
		{ "\"symbol_cost\": 1001", "trace:1: symbol_cost: 1001 is above 1000" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[256];
		snprintf(text, sizeof text, "{\"format\": \"nicref_dll_trace_v1\", %s}\n",
			 bad[i].header);
		struct pcie_check_result res;
		cr_expect_eq(check_text(text, &res), 2, "%s", bad[i].header);
		cr_expect_str_eq(res.error, bad[i].error);
	}
}
