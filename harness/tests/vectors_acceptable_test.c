/* result "acceptable" (docs/vectors.md "Test"): a test says mechanically what the spec leaves
 * open, by an any_of whose alternatives differ, a matcher that admits more than one value of its
 * width (and refuses one), or a flag whose note (bugType PROFILE) names the decision whose
 * reading the test pins. Anything else, however it is dressed, is refused before anything
 * runs. */
#include "vectest.h"
#include "vectors_int.h"

/* One NOP test with result acceptable, flags and notes as given. */
static int acceptable(const char *notes, const char *flags, const char *expect, struct vt *t)
{
	char json[8192];
	snprintf(json, sizeof json,
		 "{\"schema\":\"nicref_vectors_v1\",\"feature\":\"cmdq\",\"header\":[],\"notes\":{%s},"
		 "\"numberOfTests\":1,\"testGroups\":[{\"setup\":[{\"bring_up\":{\"to\":"
		 "\"initialized\"}}],\"tests\":[{\"tcId\":7,\"comment\":\"c\",\"cite\":\"PRM §12.18.1\","
		 "\"flags\":[%s],\"result\":\"acceptable\",\"steps\":[{\"command\":{\"layout\":"
		 "\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},\"expect\":%s}}]}]}]}",
		 notes, flags, expect);
	vt_run(t, json);
	return t->rc;
}

#define REFUSAL "tcId 7: result: \"acceptable\", yet nothing says what is acceptable"

static void refused(const char *notes, const char *flags, const char *expect)
{
	struct vt t;
	cr_expect_eq(acceptable(notes, flags, expect, &t), VEC_BAD_INPUT, "%s -> %s", expect, t.out);
	cr_expect(vt_has(&t, REFUSAL), "%s -> %s", expect, t.out);
	cr_expect_eq(t.rep.passed, 0);
	vt_free(&t);
}

static void accepted(const char *notes, const char *flags, const char *expect)
{
	struct vt t;
	cr_expect_eq(acceptable(notes, flags, expect, &t), VEC_PASSED, "%s -> %s", expect, t.out);
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	vt_free(&t);
}

Test(acceptable, a_pinned_expectation_is_refused)
{
	refused("", "", "{\"status\":\"OK\",\"syndrome\":0}");
}

Test(acceptable, the_same_expectation_is_fine_when_valid)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{\"status\":\"OK\",\"syndrome\":0}")));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
}

Test(acceptable, an_any_of_of_two_outcomes_says_it)
{
	accepted("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"reading\":\"b\","
			 "\"status\":\"BAD_OP\"}]}");
}

Test(acceptable, an_any_of_that_differs_only_in_its_readings_does_not)
{
	refused("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"reading\":\"b\","
			"\"status\":\"OK\"}]}");
}

Test(acceptable, an_open_matcher_says_it)
{
	accepted("", "", "{\"status\":{\"in\":[\"OK\",\"BAD_OP\"]}}");
	accepted("", "", "{\"status\":{\"ne\":\"BAD_OP\"}}");
	accepted("", "", "{\"syndrome\":{\"le\":1}}");
	accepted("", "", "{\"syndrome\":{\"mask\":\"0xff00\",\"eq\":0}}");
}

/* Each admits one value of its width, or every value: nothing is said to be open. */
Test(acceptable, a_matcher_that_admits_one_value_or_all_does_not)
{
	refused("", "", "{\"status\":{\"eq\":\"OK\"}}");
	refused("", "", "{\"status\":{\"in\":[\"OK\",\"OK\"]}}");
	refused("", "", "{\"status\":{\"ge\":0,\"le\":0}}");
	refused("", "", "{\"status\":{\"le\":255}}");
	refused("", "", "{\"syndrome\":{\"ge\":0}}");
	refused("", "", "{\"status\":{\"mask\":\"0xff\",\"eq\":0}}");
}

Test(acceptable, a_profile_flag_naming_a_decision_says_it)
{
	accepted("\"Pinned\":{\"bugType\":\"PROFILE\",\"description\":\"pins the default reading "
		 "of D-CMD-8\"}",
		 "\"Pinned\"", "{\"status\":\"OK\"}");
}

Test(acceptable, a_flag_without_a_decision_or_of_another_type_does_not)
{
	refused("\"Pinned\":{\"bugType\":\"PROFILE\",\"description\":\"the model's value\"}",
		"\"Pinned\"", "{\"status\":\"OK\"}");
	refused("\"Open\":{\"bugType\":\"AMBIGUOUS_SPEC\",\"description\":\"see D-CMD-8\"}",
		"\"Open\"", "{\"status\":\"OK\"}");
	refused("\"Pinned\":{\"bugType\":\"PROFILE\",\"description\":\"D- D-x D-CMD D-CMD-\"}",
		"\"Pinned\"", "{\"status\":\"OK\"}");
}

Test(acceptable, cmp_open_finds_both_sides)
{
	json_t *c;
#define OPEN(text, bits, want)                                                                  \
	c = json_loads(text, 0, NULL);                                                          \
	cr_expect_eq(cmp_open(c, NS_NONE, bits), want, "%s on %u bits", text, bits);            \
	json_decref(c)
	OPEN("{\"ne\":0}", 1, false); /* admits only 1 */
	OPEN("{\"ne\":0}", 2, true);
	OPEN("{\"ne\":0}", 64, true);
	OPEN("{\"ge\":1}", 64, true);
	OPEN("{\"le\":\"0xfffffffffffffffe\"}", 64, true);
	OPEN("{\"le\":\"0xffffffffffffffff\"}", 64, false);
	OPEN("{\"ge\":1,\"le\":1}", 8, false);
	OPEN("{\"mask\":1,\"eq\":1}", 1, false);
	OPEN("{\"mask\":1,\"eq\":1}", 2, true);
	OPEN("{\"mask\":\"0x8000000000000000\",\"eq\":0}", 64, true);
	OPEN("{\"in\":[0,1]}", 1, false);
	OPEN("{\"in\":[3,3,3]}", 8, false);
	OPEN("{\"in\":[3,4]}", 8, true);
	OPEN("5", 8, false);
#undef OPEN
}

/* revrunner F4: alternatives are compared by what they expect, not by their JSON text. */
Test(acceptable, alternatives_that_are_one_outcome_written_twice_do_not)
{
	refused("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"reading\":\"b\","
			"\"status\":0}]}");
	refused("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"reading\":\"b\","
			"\"status\":\"0x00\"}]}");
	refused("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"BAD_OP\"},{\"reading\":\"b\","
			"\"status\":{\"eq\":2}}]}");
	refused("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":{\"in\":[\"BAD_OP\","
			"\"BAD_OP\"]}},{\"reading\":\"b\",\"status\":\"0x2\"}]}");
	refused("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"reading\":\"b\","
			"\"status\":\"OK\",\"delivery\":\"OK\",\"ownership\":0}]}");
	refused("", "", "{\"any_of\":[{\"reading\":\"a\",\"output_hex\":\"00 00\"},"
			"{\"reading\":\"b\",\"output_hex\":\"0x0000\"}]}");
}

Test(acceptable, alternatives_that_differ_in_value_still_say_it)
{
	accepted("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"reading\":\"b\","
			 "\"status\":1}]}");
	accepted("", "", "{\"any_of\":[{\"reading\":\"a\",\"syndrome\":{\"in\":[0,1]}},"
			 "{\"reading\":\"b\",\"syndrome\":{\"in\":[0,2]}}]}");
	accepted("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"reading\":\"b\","
			 "\"status\":\"OK\",\"delivery\":\"TOKEN\"}]}");
}

/* revrunner F5: each alternative of an acceptable test's any_of names its reading. */
Test(acceptable, an_alternative_without_a_reading_is_refused)
{
	struct vt t;
	acceptable("", "", "{\"any_of\":[{\"reading\":\"a\",\"status\":\"OK\"},{\"status\":"
			   "\"BAD_OP\"}]}", &t);
	cr_expect_eq(t.rc, VEC_BAD_INPUT, "%s", t.out);
	cr_expect(vt_has(&t, "tcId 7: step 0 (command): expect.any_of[1]: no \"reading\": in an "
			     "acceptable test each alternative names the reading of the spec it "
			     "follows"), "%s", t.out);
	vt_free(&t);
}
