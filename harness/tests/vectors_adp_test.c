/* The adp_timeline step (docs/vectors.md "adp_timeline"): any_of of whole timelines, one per
 * reading (D-ADP-14's timeout_retry_num after progress is the case the vectors need), and the
 * retry_uses option that runs the other reading. The timelines below are worked out from seed
 * 001 and seed 000 L227 (and agree with vectors/adp/gen/adp_indep.py): profile time_base 4 us,
 * initial e 3 (32 us), one range [3, 5] with timeout_retry_num 2; message 0's first send lost,
 * its retransmission acknowledged at 33,000 ns; message 1 lost three times.
 *   arms (default): a2 33,000 e3 keep; a3 65,000 e3 retry_same; a4 97,000 e4 double (the
 *     second expiry at e3 since progress escalates); a5 161,000 e4 retry_same, acknowledged.
 *   retransmissions: a4 97,000 e3 retry_same (two retransmissions at e3 after progress); a5
 *     129,000 e4 double, acknowledged. */
#include "vectest.h"

#define PROFILE                                                                                  \
	"\"profile\":{\"time_base\":4,\"range_num\":1,\"retx_total_timeout\":16,"                \
	"\"timeout_init_low_bound\":3,\"timeout_init_range_size\":1,\"timeout_range\":"          \
	"[{\"timeout_retry_num\":2,\"range_low_bound\":3,\"range_size\":2}]},"                   \
	"\"qp\":{\"timeout\":14,\"retry_cnt\":7},\"rtt_ns\":1000,\"messages\":2,"                \
	"\"loss\":[0,2,3,4],"

#define HEAD4                                                                                    \
	"{\"attempt\":0,\"e\":3,\"reason\":\"init\"},{\"attempt\":1,\"e\":3,\"reason\":"         \
	"\"enter_range\"},{\"attempt\":2,\"sent_ns\":33000,\"e\":3,\"reason\":\"keep\"},"        \
	"{\"attempt\":3,\"sent_ns\":65000,\"e\":3,\"reason\":\"retry_same\"}"
#define ARMS                                                                                     \
	"\"attempts\":[" HEAD4 ",{\"attempt\":4,\"sent_ns\":97000,\"e\":4,\"reason\":\"double\"},"  \
	"{\"attempt\":5,\"sent_ns\":161000,\"e\":4,\"reason\":\"retry_same\",\"lost\":0}]"
#define RETX                                                                                     \
	"\"attempts\":[" HEAD4 ",{\"attempt\":4,\"sent_ns\":97000,\"e\":3,\"reason\":"            \
	"\"retry_same\"},{\"attempt\":5,\"sent_ns\":129000,\"e\":4,\"reason\":\"double\","        \
	"\"lost\":0}]"
#define ALT_ARMS "{\"reading\":\"D-ADP-14 arms\"," ARMS "}"
#define ALT_RETX "{\"reading\":\"D-ADP-14 retransmissions\"," RETX "}"

/* One adp_timeline step after a NOP bring-up: the step's own keys (options), its expect. */
#define STEP(own, expect) "{\"adp_timeline\":{" PROFILE own "\"expect\":" expect "}}"


Test(vectors_adp, each_reading_alone)
{
	struct vt t;
	vt_run(&t, VT_ONE(STEP("", "{\"end\":\"done\"," ARMS "}")));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(STEP("\"options\":{\"retry_uses\":\"retransmissions\"},",
				"{\"end\":\"done\"," RETX "}")));
	cr_expect_eq(t.rc, VEC_PASSED, "the option runs the other reading: %s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(STEP("\"options\":{\"retry_uses\":1},", "{\"end\":\"done\"," ARMS "}")));
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	cr_expect(vt_has(&t, "adp_timeline attempt 4 e: expected 4 (0x4), got 3"), "%s", t.out);
	vt_free(&t);
}

Test(vectors_adp, any_of_holds_under_either_reading)
{
	struct vt t;
	vt_run(&t, VT_ONE(STEP("", "{\"end\":\"done\",\"any_of\":[" ALT_ARMS "," ALT_RETX "]}")));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	cr_expect_eq(t.rep.passed, 1);
	cr_expect(t.rep.n > 0 && t.rep.tests[0].notes &&
			  strstr(t.rep.tests[0].notes, "any_of[0] (\"D-ADP-14 arms\") held"),
		  "%s", t.rep.n > 0 && t.rep.tests[0].notes ? t.rep.tests[0].notes : "(no notes)");
	vt_free(&t);
	vt_run(&t, VT_ONE(STEP("\"options\":{\"retry_uses\":\"retransmissions\"},",
				"{\"end\":\"done\",\"any_of\":[" ALT_ARMS "," ALT_RETX "]}")));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	cr_expect(t.rep.n > 0 && t.rep.tests[0].notes &&
			  strstr(t.rep.tests[0].notes, "any_of[1] (\"D-ADP-14 retransmissions\") held"),
		  "%s", t.rep.n > 0 && t.rep.tests[0].notes ? t.rep.tests[0].notes : "(no notes)");
	vt_free(&t);
}

/* The expectation's own keys hold in every alternative: a wrong end fails both. */
Test(vectors_adp, any_of_none_holds)
{
	struct vt t;
	vt_run(&t,
		VT_ONE(STEP("", "{\"end\":\"retry_exc\",\"any_of\":[" ALT_ARMS "," ALT_RETX "]}")));
	cr_expect_eq(t.rc, VEC_FAILED, "%s", t.out);
	cr_expect(vt_has(&t, "step 0 (adp_timeline): no alternative of any_of held"), "%s", t.out);
	cr_expect(vt_has(&t, "any_of[0] (\"D-ADP-14 arms\"): adp_timeline end: expected retry_exc, "
			     "got done"),
		  "%s", t.out);
	cr_expect(vt_has(&t, "any_of[1] (\"D-ADP-14 retransmissions\"): adp_timeline end: "
			     "expected retry_exc, got done"),
		  "%s", t.out);
	cr_expect(vt_has(&t, "any_of[1] (\"D-ADP-14 retransmissions\"): adp_timeline attempt 4 e: "
			     "expected 3 (0x3), got 4"),
		  "%s", t.out);
	vt_free(&t);
}

/* An any_of of two timelines says what an acceptable test accepts. */
Test(vectors_adp, any_of_makes_a_test_acceptable)
{
	struct vt t;
	const char *json =
		VT_HEAD("") "\"numberOfTests\":1,\"testGroups\":[{\"setup\":[{\"bring_up\":{\"to\":"
			    "\"initialized\"}}],\"tests\":[{\"tcId\":7,\"comment\":\"c\",\"cite\":"
			    "\"seed 001 L29\",\"flags\":[],\"result\":\"acceptable\",\"steps\":[" STEP(
				    "", "{\"end\":\"done\",\"any_of\":[" ALT_ARMS "," ALT_RETX
					"]}") "]}]}]}";
	vt_run(&t, json);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
}
