/* The expectation language (docs/vectors.md "Expectations"): comparators, any_of, clauses and
 * capabilities a group lowers. Each feature is shown holding and, on the same completion,
 * failing: a matcher that should fail must fail. */
#include "vectest.h"
#include "vectors_int.h"

/* Runs a NOP with the expectation and returns the outcome. */
static int nop_with(const char *expect, struct vt *t)
{
	char json[4096];
	snprintf(json, sizeof json, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":"
					   "{\"opcode\":\"NOP\"},\"expect\":%s}}"),
		 expect);
	vt_run(t, json);
	return t->rc;
}

static void expect_outcome(const char *expect, int rc)
{
	struct vt t;
	cr_expect_eq(nop_with(expect, &t), rc, "%s -> %s", expect, t.out);
	vt_free(&t);
}

/* NOP on an initialized device: delivery OK, status OK (0), syndrome 0, token 0xA5. */
Test(comparators, each_matcher_holds_and_fails)
{
	expect_outcome("{\"status\":{\"in\":[\"BAD_PARAM\",\"OK\"]}}", VEC_PASSED);
	expect_outcome("{\"status\":{\"in\":[\"BAD_PARAM\",\"BAD_OP\"]}}", VEC_FAILED);
	expect_outcome("{\"status\":{\"ne\":\"BAD_OP\"}}", VEC_PASSED);
	expect_outcome("{\"status\":{\"ne\":\"OK\"}}", VEC_FAILED);
	expect_outcome("{\"syndrome\":{\"le\":0}}", VEC_PASSED);
	expect_outcome("{\"status\":{\"ge\":1}}", VEC_FAILED);
	expect_outcome("{\"entry\":{\"token\":{\"mask\":\"0xf0\",\"eq\":\"0xa0\"}}}", VEC_PASSED);
	expect_outcome("{\"entry\":{\"token\":{\"mask\":\"0xf0\",\"eq\":\"0xb0\"}}}", VEC_FAILED);
	/* Keys combine with AND. */
	expect_outcome("{\"entry\":{\"token\":{\"ge\":\"0xa0\",\"le\":\"0xa5\"}}}", VEC_PASSED);
	expect_outcome("{\"entry\":{\"token\":{\"ge\":\"0xa0\",\"le\":\"0xa4\"}}}", VEC_FAILED);
}

Test(comparators, a_failure_shows_the_matcher)
{
	struct vt t;
	nop_with("{\"status\":{\"in\":[\"BAD_PARAM\",\"BAD_OP\"]}}", &t);
	cr_expect(vt_has(&t, "output.status: expected {\"in\":[\"BAD_PARAM\",\"BAD_OP\"]}, got OK "
			     "(0x0)"),
		  "%s", t.out);
	vt_free(&t);
}

Test(comparators, in_bar_reads_and_events)
{
	struct vt t;
	/* fw_rev_major is 12 in the default profile (docs/caps.md). */
	vt_run(&t, VT_ONE("{\"bar_read\":{\"field\":\"fw_rev_major\",\"expect\":{\"ge\":12}}}"));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE("{\"bar_read\":{\"field\":\"fw_rev_major\",\"expect\":{\"ge\":13}}}"));
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(VT_NOP("{}") ",{\"events\":{\"expect\":[{\"event\":\"cmd_done\",\"opcode\":"
				 "{\"in\":[\"NOP\",\"QUERY_ISSI\"]},\"syndrome\":{\"le\":0}}]}}"));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(VT_NOP("{}") ",{\"events\":{\"expect\":[{\"event\":\"cmd_done\",\"opcode\":"
				 "{\"in\":[\"QUERY_ISSI\"]}}]}}"));
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	vt_free(&t);
}

Test(any_of, the_alternative_that_held_is_noted)
{
	struct vt t;
	nop_with("{\"syndrome\":0,\"any_of\":[{\"reading\":\"strict\",\"status\":\"BAD_PARAM\"},"
		 "{\"reading\":\"lenient\",\"status\":\"OK\"}]}",
		 &t);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	cr_assert_eq(t.rep.n, 1);
	cr_assert(t.rep.tests[0].notes);
	cr_expect(strstr(t.rep.tests[0].notes, "step 0 (command): any_of[1] (\"lenient\") held"),
		  "%s", t.rep.tests[0].notes);
	vt_free(&t);
}

Test(any_of, a_failure_shows_every_alternative)
{
	struct vt t;
	nop_with("{\"any_of\":[{\"reading\":\"strict\",\"status\":\"BAD_PARAM\"},{\"status\":"
		 "\"BAD_OP\"}]}",
		 &t);
	cr_expect_eq(t.rc, VEC_FAILED);
	cr_expect(vt_has(&t, "step 0 (command): no alternative of any_of held"), "%s", t.out);
	cr_expect(vt_has(&t, "any_of[0] (\"strict\"): slot 0 output.status: expected BAD_PARAM"),
		  "%s", t.out);
	cr_expect(vt_has(&t, "any_of[1]: slot 0 output.status: expected BAD_OP"), "%s", t.out);
	vt_free(&t);
}

Test(any_of, the_expectation_keys_hold_in_every_alternative)
{
	/* The alternative holds, the expectation's own syndrome does not: a failure. */
	expect_outcome("{\"syndrome\":1,\"any_of\":[{\"status\":\"OK\"},{\"status\":\"BAD_OP\"}]}",
		       VEC_FAILED);
	/* Defaults (delivery OK, ownership 0) apply to each alternative unless it says. */
	expect_outcome("{\"any_of\":[{\"delivery\":\"TOKEN\"},{\"status\":\"OK\"}]}", VEC_PASSED);
	expect_outcome("{\"any_of\":[{\"delivery\":\"TOKEN\"},{\"ownership\":1}]}", VEC_FAILED);
}

Test(any_of, events_and_memory)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{}") ",{\"events\":{\"any_of\":[{\"expect\":[{\"event\":"
				 "\"cmd_fail\"}]},{\"reading\":\"done\",\"expect\":[{\"event\":"
				 "\"cmd_done\",\"opcode\":\"NOP\"}]}]}}"));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(VT_NOP("{}") ",{\"events\":{\"any_of\":[{\"expect\":[{\"event\":"
				 "\"cmd_fail\"}]},{\"expect\":[{\"event\":\"unmodelled\"}]}]}}"));
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE("{\"mem_write\":{\"addr\":\"0x4000\",\"hex\":\"00 01\"}},{\"mem_expect\":"
			  "{\"any_of\":[{\"addr\":\"0x4000\",\"hex\":\"00 02\"},{\"addr\":"
			  "\"0x4000\",\"hex\":\"00 01\"}]}}"));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE("{\"mem_write\":{\"addr\":\"0x4000\",\"hex\":\"00 01\"}},{\"mem_expect\":"
			  "{\"any_of\":[{\"addr\":\"0x4000\",\"hex\":\"00 02\"},{\"addr\":"
			  "\"0x4000\",\"hex\":\"00 03\"}]}}"));
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	cr_expect(vt_has(&t, "any_of[1]: memory[0x4001]: expected 0x03, got 0x01"), "%s", t.out);
	vt_free(&t);
}

Test(any_of, a_violation_matched_in_the_alternative_that_held_is_expected)
{
	/* A bad entry type is a violation (ENTRY_BAD_TYPE, PRM §7.14.1 T96). */
	struct vt t;
	vt_run(&t, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			  "\"entry\":{\"type\":5},\"expect\":{\"delivery\":\"BAD_TYPE\"}}},"
			  "{\"events\":{\"any_of\":[{\"expect\":[{\"event\":\"violation\",\"rule\":"
			  "\"ENTRY_SIGNATURE\"}]},{\"expect\":[{\"event\":\"violation\",\"rule\":"
			  "\"ENTRY_BAD_TYPE\"}]}]}}"));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
}

Test(clause, boundaries)
{
	cr_expect(clause_matches("PRM §7.14.1 T96", "PRM §7.14.1"));
	cr_expect(clause_matches("PRM §7.14.1 T96", "PRM §7.14"));
	cr_expect(clause_matches("PRM §7.14.1 T96", "PRM §7"));
	cr_expect(!clause_matches("PRM §7.14.1 T96", "PRM §7.1"));
	cr_expect(!clause_matches("PRM §7.14 T96", "PRM §7.14.1"));
	cr_expect(!clause_matches("PRM §7.140", "PRM §7.14"));
	cr_expect(clause_matches("PRM §7.1, §8.2", "PRM §8.2"));
	cr_expect(clause_matches("PRM §8.2.", "PRM §8.2"), "a sentence's full stop");
	cr_expect(!clause_matches("", "PRM §8.2"));
}

Test(clause, violations_refusals_and_completions)
{
	struct vt t;
	const char *bad_type = "{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			       "\"entry\":{\"type\":5},\"expect\":{\"delivery\":\"BAD_TYPE\"}}},";
	char json[2048];
	snprintf(json, sizeof json,
		 VT_ONE("%s{\"events\":{\"expect\":[{\"event\":\"violation\",\"clause\":\"PRM "
			"§7.14\"}]}}"),
		 bad_type);
	vt_run(&t, json);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	/* §7.1 is not §7.14: the violation is not matched, and then unexpected. */
	snprintf(json, sizeof json,
		 VT_ONE("%s{\"events\":{\"expect\":[{\"event\":\"violation\",\"clause\":\"PRM "
			"§7.1\"}]}}"),
		 bad_type);
	vt_run(&t, json);
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	vt_free(&t);
	/* Before ENABLE_HCA, SET_ISSI is refused by HCA_NOT_ENABLED (PRM §8.2). */
	const char *early = VT_HEAD("") "\"numberOfTests\":1,\"testGroups\":[{\"setup\":[{"
			    "\"bring_up\":{\"to\":\"queue\"}}],\"tests\":[{\"tcId\":1,\"comment\":"
			    "\"c\",\"cite\":\"PRM §8.2\",\"flags\":[],\"result\":\"invalid\","
			    "\"steps\":[{\"command\":{\"layout\":\"set_issi_in\",\"fields\":{\"opcode\":"
			    "\"SET_ISSI\",\"current_issi\":1},\"expect\":{\"status\":\"BAD_SYS_STATE\",\"clause\":"
			    "\"PRM §8.%d\"}}},{\"events\":{\"expect\":[{\"event\":\"cmd_fail\","
			    "\"clause\":\"PRM §8.%d\"}]}}]}]}]}";
	snprintf(json, sizeof json, early, 2, 2);
	vt_run(&t, json);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	snprintf(json, sizeof json, early, 3, 2);
	vt_run(&t, json);
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	cr_expect(vt_has(&t, "expected the syndrome of a rule citing PRM §8.3"), "%s", t.out);
	vt_free(&t);
	snprintf(json, sizeof json, early, 2, 3);
	vt_run(&t, json);
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	vt_free(&t);
}

/* QUERY_HCA_CAP of the general capabilities, op_mod 0 (maximum) or 1 (current), with the
 * field of hca_cap (at 10h of the output, T143) compared. */
#define QUERY_CAP(op_mod, expect)                                                                \
	"{\"command\":{\"layout\":\"query_hca_cap_in\",\"fields\":{\"opcode\":\"QUERY_HCA_CAP\","  \
	"\"op_mod\":" #op_mod "},\"output_length\":\"0x1010\",\"expect\":{\"status\":\"OK\","     \
	"\"output\":{\"layout\":\"hca_cap\",\"at\":\"0x10\",\"fields\":{\"cq_moderation\":"       \
	#expect "}}}}}"

Test(caps, a_group_lowers_a_capability_in_max_and_cur)
{
	struct vt t;
	vt_run(&t, VT_ONE_IN("\"caps\":{\"hca_cap.cq_moderation\":0},",
			     QUERY_CAP(0, 0) "," QUERY_CAP(1, 0)));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	/* The default profile offers it: the same expectation fails. */
	vt_run(&t, VT_ONE(QUERY_CAP(0, 0)));
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	vt_free(&t);
}

Test(caps, a_raise_is_bad_input)
{
	struct vt t;
	vt_run(&t, VT_ONE_IN("\"caps\":{\"hca_cap.log_max_eq\":8},", VT_NOP("{}")));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "group 0: caps.hca_cap.log_max_eq: 8 is above what the device offers"),
		  "%s", t.out);
	vt_free(&t);
}
