/* The rules a test is credited with (struct test_result rules: the per-rule view of
 * docs/conformance.md): named by an expectation, or matched by clause and then counted as the
 * rule that actually refused; only expectations that held, only the alternative of any_of that
 * held; a fixed set per test. And the per-rule view's check (harness/conformance.c). */
#include "conformance.h"
#include "vectest.h"
#include "vectors_int.h"

/* A NOP with op_mod 1: refused by BAD_OP_MOD (BAD_OP, PRM §7.14.1.2 T100). */
#define NOP_OP_MOD(expect)                                                                       \
	"{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\",\"op_mod\":1},"      \
	"\"expect\":" expect "}}"
/* A NOP whose entry type is not 7: the violation ENTRY_BAD_TYPE (PRM §7.14.1 T96). */
#define NOP_BAD_TYPE                                                                             \
	"{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},\"entry\":{\"type\":5}," \
	"\"expect\":{\"delivery\":\"BAD_TYPE\"}}}"

static void run_one(struct vt *t, const char *json, int rc)
{
	vt_run(t, json);
	cr_assert_eq(t->rc, rc, "%s", t->out);
	cr_assert_eq(t->rep.n, 1);
}

/* The test's rules are exactly want[0..n). */
static void expect_rules(const struct vt *t, const unsigned *want, unsigned n)
{
	const struct test_result *r = &t->rep.tests[0];
	cr_expect_eq(r->nrules, n, "%u rules credited, %u expected", r->nrules, n);
	for (unsigned i = 0; i < n && i < r->nrules; i++)
		cr_expect_eq(r->rules[i], want[i], "rule %u: %s, expected %s", i,
			     conformance_rule_name(r->rules[i]), conformance_rule_name(want[i]));
	cr_expect_eq(r->rules_dropped, 0);
}

Test(rules, expect_rule_is_credited)
{
	struct vt t;
	run_one(&t, VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\",\"rule\":\"BAD_OP_MOD\"}")),
		VEC_PASSED);
	expect_rules(&t, (unsigned[]){ NICREF_RULE_BAD_OP_MOD }, 1);
	vt_free(&t);
}

Test(rules, expect_clause_is_credited_as_the_rule_that_refused)
{
	struct vt t;
	/* §7.14 is cited by several rules; the one credited is the one whose syndrome came. */
	run_one(&t, VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\",\"clause\":\"PRM §7.14\"}")),
		VEC_PASSED);
	expect_rules(&t, (unsigned[]){ NICREF_RULE_BAD_OP_MOD }, 1);
	vt_free(&t);
}

Test(rules, a_status_alone_credits_nothing)
{
	struct vt t;
	run_one(&t, VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\"}")), VEC_PASSED);
	expect_rules(&t, NULL, 0);
	vt_free(&t);
}

Test(rules, an_expectation_that_fails_credits_nothing)
{
	struct vt t;
	/* The rule holds, the status does not. */
	run_one(&t, VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_PARAM\",\"rule\":\"BAD_OP_MOD\"}")),
		VEC_FAILED);
	expect_rules(&t, NULL, 0);
	vt_free(&t);
	/* A clause no refusal of this command cites. */
	run_one(&t, VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\",\"clause\":\"PRM §12.2\"}")),
		VEC_FAILED);
	expect_rules(&t, NULL, 0);
	vt_free(&t);
}

Test(rules, only_the_alternative_that_held_is_credited)
{
	struct vt t;
	/* any_of[0] matches the rule but not the status; any_of[1] holds and names nothing. */
	run_one(&t,
		VT_ONE(NOP_OP_MOD("{\"any_of\":[{\"status\":\"BAD_PARAM\",\"rule\":\"BAD_OP_MOD\"},"
				  "{\"status\":\"BAD_OP\"}]}")),
		VEC_PASSED);
	expect_rules(&t, NULL, 0);
	vt_free(&t);
	run_one(&t,
		VT_ONE(NOP_OP_MOD("{\"any_of\":[{\"status\":\"BAD_PARAM\"},{\"status\":\"BAD_OP\","
				  "\"clause\":\"PRM §7.14.1.2\"}]}")),
		VEC_PASSED);
	expect_rules(&t, (unsigned[]){ NICREF_RULE_BAD_OP_MOD }, 1);
	vt_free(&t);
}

Test(rules, events_credit_the_rule_they_carry)
{
	struct vt t;
	/* cmd_fail by clause: the event's rule. */
	run_one(&t,
		VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\"}") ",{\"events\":{\"expect\":[{\"event\":"
							  "\"cmd_fail\",\"clause\":\"PRM §7.14\"}]}}"),
		VEC_PASSED);
	expect_rules(&t, (unsigned[]){ NICREF_RULE_BAD_OP_MOD }, 1);
	vt_free(&t);
	/* A violation by clause, then a refusal by rule: both, violations marked as such. */
	run_one(&t,
		VT_ONE(NOP_BAD_TYPE ",{\"events\":{\"expect\":[{\"event\":\"violation\",\"clause\":"
				    "\"PRM §7.14.1\"}]}}," NOP_OP_MOD("{\"status\":\"BAD_OP\"}") ","
				    "{\"events\":{\"expect\":[{\"event\":\"cmd_fail\",\"rule\":"
				    "\"BAD_OP_MOD\"}]}}"),
		VEC_PASSED);
	expect_rules(&t,
		     (unsigned[]){ REPORT_RULE_VIOLATION | NICREF_VIO_ENTRY_BAD_TYPE,
				   NICREF_RULE_BAD_OP_MOD },
		     2);
	vt_free(&t);
}

Test(rules, events_that_name_no_rule_credit_nothing)
{
	struct vt t;
	run_one(&t,
		VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\"}") ",{\"events\":{\"expect\":[{\"event\":"
							  "\"cmd_fail\",\"opcode\":\"NOP\"}]}}"),
		VEC_PASSED);
	expect_rules(&t, NULL, 0);
	vt_free(&t);
	/* A violation matched by its argument only is expected (the test passes) but not
	 * credited: the vector does not say which rule. */
	run_one(&t,
		VT_ONE(NOP_BAD_TYPE ",{\"events\":{\"expect\":[{\"event\":\"violation\",\"arg\":"
				    "{\"ne\":\"0xffffffffffffffff\"}}]}}"),
		VEC_PASSED);
	expect_rules(&t, NULL, 0);
	vt_free(&t);
}

Test(rules, events_any_of_and_failures)
{
	struct vt t;
	/* The alternative that held: [1], by clause. [0] matched the refusal by rule but wanted
	 * an event that did not come. */
	run_one(&t,
		VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\"}") ",{\"events\":{\"any_of\":[{\"expect\":"
							  "[{\"event\":\"cmd_fail\",\"rule\":"
							  "\"BAD_OP_MOD\"},{\"event\":\"ready\"}]},"
							  "{\"expect\":[{\"event\":\"cmd_fail\","
							  "\"clause\":\"PRM §7.14.1.2\"}]}]}}"),
		VEC_PASSED);
	expect_rules(&t, (unsigned[]){ NICREF_RULE_BAD_OP_MOD }, 1);
	vt_free(&t);
	/* A list that does not hold credits none of its events. */
	run_one(&t,
		VT_ONE(NOP_OP_MOD("{\"status\":\"BAD_OP\"}") ",{\"events\":{\"expect\":[{\"event\":"
							  "\"cmd_fail\",\"rule\":\"BAD_OP_MOD\"},"
							  "{\"event\":\"ready\"}]}}"),
		VEC_FAILED);
	expect_rules(&t, NULL, 0);
	vt_free(&t);
}

Test(rules, each_rule_once_and_the_set_is_bounded)
{
	struct run r = { 0 };
	struct diffs d = { 0 };
	for (unsigned i = 1; i <= REPORT_MAX_RULES + 4; i++) {
		diff_rule(&d, i);
		diff_rule(&d, i); /* twice: counted once */
	}
	cr_expect_eq(d.nrules, REPORT_MAX_RULES);
	cr_expect_eq(d.dropped, 8); /* 4 rules past the room, each added twice */
	diffs_credit(&r, &d);
	cr_expect_eq(r.nrules, REPORT_MAX_RULES);
	for (unsigned i = 0; i < REPORT_MAX_RULES; i++)
		cr_expect_eq(r.rules[i], i + 1);
	cr_expect_eq(r.rules_dropped, 8);
	/* Crediting the same rules again adds nothing. */
	struct diffs again = { 0 };
	diff_rule(&again, 1);
	diffs_credit(&r, &again);
	cr_expect_eq(r.nrules, REPORT_MAX_RULES);
	cr_expect_eq(r.rules_dropped, 8);
	/* An expectation with a difference credits nothing. */
	struct run r2 = { 0 };
	diff_add(&again, "a difference");
	diffs_credit(&r2, &again);
	cr_expect_eq(r2.nrules, 0);
	lines_free(&again.l);
}

/* ---- the per-rule view ---- */

/* A report in which every rule but `missing` (and the unreachable ones) is credited to one
 * passing test each, and `extra` (if not 0) too; tests hold REPORT_MAX_RULES rules at most. */
static void full_report(struct report *rep, unsigned missing, unsigned extra)
{
	report_init(rep);
	struct test_result tr = { 0 };
	long tc = 1;
	/* command rules from 1, violations from 0, RoCE drop reasons from 1 */
	static const unsigned bases[3] = { 0, REPORT_RULE_VIOLATION, REPORT_RULE_ROCE_DROP };
	static const unsigned counts[3] = { NICREF_RULE_COUNT, NICREF_VIO_COUNT,
					    NICREF_ROCE_DROP_COUNT };
	for (unsigned table = 0; table < 3; table++) {
		unsigned base = bases[table], n = counts[table];
		for (unsigned i = table == 1 ? 0 : 1; i <= n; i++) {
			unsigned id = base | i;
			if (i < n && (id == missing || conformance_unreachable(id)))
				continue;
			if (i < n)
				tr.rules[tr.nrules++] = (uint16_t)id;
			if (tr.nrules == REPORT_MAX_RULES || (i == n && tr.nrules)) {
				tr.file = strdup("v.json");
				tr.tc_id = tc++;
				tr.outcome = TEST_PASS;
				report_add(rep, &tr);
				memset(&tr, 0, sizeof tr);
			}
		}
	}
	if (extra) {
		tr.file = strdup("x.json");
		tr.tc_id = 99;
		tr.outcome = TEST_PASS;
		tr.rules[tr.nrules++] = (uint16_t)extra;
		report_add(rep, &tr);
	}
}

static unsigned check(const struct report *rep, char **text)
{
	size_t len;
	FILE *err = open_memstream(text, &len);
	unsigned gaps = conformance_rules_check(rep, err);
	fclose(err);
	return gaps;
}

Test(rules_view, every_rule_named_or_unreachable_passes)
{
	struct report rep;
	char *text;
	full_report(&rep, ~0u, 0);
	cr_expect_eq(check(&rep, &text), 0, "%s", text);
	free(text);
	report_free(&rep);
}

Test(rules_view, a_rule_without_a_vector_is_a_gap)
{
	struct report rep;
	char *text;
	full_report(&rep, NICREF_RULE_CQ_EXHAUSTED, 0);
	cr_expect_eq(check(&rep, &text), 1, "%s", text);
	cr_expect(strstr(text, "rule CQ_EXHAUSTED (PRM §7.12, T145 log_max_cq) has no passing "
			       "vector and is not listed as unreachable"),
		  "%s", text);
	free(text);
	report_free(&rep);
	full_report(&rep, REPORT_RULE_VIOLATION | NICREF_VIO_CQ_DBR_CI_BEYOND_PC, 0);
	cr_expect_eq(check(&rep, &text), 1, "%s", text);
	cr_expect(strstr(text, "violation CQ_DBR_CI_BEYOND_PC"), "%s", text);
	free(text);
	report_free(&rep);
	full_report(&rep, REPORT_RULE_ROCE_DROP | NICREF_ROCE_DROP_QKEY, 0);
	cr_expect_eq(check(&rep, &text), 1, "%s", text);
	cr_expect(strstr(text, "RoCE drop reason qkey ("), "%s", text);
	free(text);
	report_free(&rep);
}

Test(rules_view, a_failing_vector_does_not_count)
{
	struct report rep;
	char *text;
	full_report(&rep, ~0u, 0);
	/* The only test crediting the first rules fails. */
	rep.tests[0].outcome = TEST_FAIL;
	cr_expect_eq(conformance_rule_count(&rep, rep.tests[0].rules[0]), 0);
	cr_expect_eq(check(&rep, &text), rep.tests[0].nrules, "%s", text);
	free(text);
	report_free(&rep);
}

Test(rules_view, an_unreachable_rule_a_vector_names_is_a_gap)
{
	struct report rep;
	char *text;
	cr_assert(conformance_unreachable(NICREF_RULE_OBJ_NO_MEMORY));
	cr_expect_null(conformance_unreachable(NICREF_RULE_CQ_EXHAUSTED));
	full_report(&rep, ~0u, NICREF_RULE_OBJ_NO_MEMORY);
	cr_expect_eq(check(&rep, &text), 1, "%s", text);
	cr_expect(strstr(text, "rule OBJ_NO_MEMORY is listed as unreachable"), "%s", text);
	free(text);
	report_free(&rep);
}

Test(rules_view, a_test_with_more_rules_than_it_holds_is_a_gap)
{
	struct report rep;
	char *text;
	full_report(&rep, ~0u, 0);
	rep.tests[0].rules_dropped = 2;
	cr_expect_eq(check(&rep, &text), 1, "%s", text);
	cr_expect(strstr(text, "v.json#1 matched 2 rules more than"), "%s", text);
	free(text);
	report_free(&rep);
}

Test(rules_view, the_table_lists_every_rule_with_its_vectors)
{
	struct report rep;
	char *text;
	size_t len;
	report_init(&rep);
	/* CQ_EXHAUSTED credited to 6 passing tests and one failing one. */
	for (long i = 1; i <= 7; i++) {
		struct test_result tr = { .file = strdup("vectors/cq/x.json"), .tc_id = i,
					  .outcome = i == 4 ? TEST_FAIL : TEST_PASS, .nrules = 1 };
		tr.rules[0] = NICREF_RULE_CQ_EXHAUSTED;
		report_add(&rep, &tr);
	}
	FILE *out = open_memstream(&text, &len);
	conformance_rules_print(&rep, out);
	fclose(out);
	cr_expect(strstr(text, "| CQ_EXHAUSTED | EXCEED_LIM | PRM §7.12, T145 log_max_cq | 6 | "
			       "vectors/cq/x.json#1, vectors/cq/x.json#2, vectors/cq/x.json#3, "
			       "vectors/cq/x.json#5 (+2 more) |\n"),
		  "%s", text);
	cr_expect(strstr(text, "| CQ_IN_USE | BAD_RES_STATE | PRM §3.2.1, §12.7.2; D-CQ-1 | 0 |  |\n"),
		  "%s", text);
	cr_expect(strstr(text, "| OBJ_NO_MEMORY | NO_RESOURCES | PRM §12.2 T128 | 0 | "
			       "*unreachable*: "),
		  "%s", text);
	cr_expect(strstr(text, "| CQ_DBR_CI_BEYOND_PC | PRM §7.12.2 T70, §7.12.1 | 0 |  |\n"),
		  "%s", text);
	cr_expect_null(strstr(text, "| NONE |"), "NONE refuses nothing: not a rule of the view");
	free(text);
	report_free(&rep);
}
