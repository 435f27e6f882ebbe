/* The RoCE steps of the runner (docs/vectors.md "RoCE"): harness/tests/roce_vectors/runner.json
 * (qp_setup on one and two devices, qp_post and qp_recv where the public layouts put their
 * bytes, the link's delay, loss and duplication between two devices' Ethernet queues) passes
 * whole; a step's "dev" reaches device b alone: b's events go to b's events step and not a's,
 * b's unexpected violation fails the test, --trace marks b's events. */
#include "vectest.h"

Test(vectors_roce, runner_vectors_pass)
{
	struct vec_options opt = { 0 };
	struct report rep;
	char path[] = "harness/tests/roce_vectors/runner.json", *paths[] = { path };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	report_init(&rep);
	int rc = vectors_run_paths(paths, 1, &opt, &rep, f);
	fclose(f);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert_eq(rep.passed, 11, "%s", out);
	cr_assert_eq(rep.failed + rep.errors + rep.skipped, 0, "%s", out);
	report_free(&rep);
	free(out);
}

/* A NOP with a wrong entry signature: the violation ENTRY_SIGNATURE (PRM §7.14.1 T96; the
 * device checks signatures with cmdif_checksum 3). */
#define BAD_NOP                                                                                   \
	"\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},\"entry\":{\"signature\":" \
	"54},\"expect\":{\"delivery\":\"SIGNATURE\"}}"
#define TWO_DEV(steps)                                                                             \
	VT_HEAD("") "\"numberOfTests\":1,\"testGroups\":[{\"devices\":2,"                       \
		    "\"profile\":{\"cmdif_checksum\":3},\"setup\":["                 \
		    "{\"bring_up\":{\"to\":\"initialized\"},\"dev\":\"a\"},"                           \
		    "{\"bring_up\":{\"to\":\"initialized\"},\"dev\":\"b\"}],"                          \
		    "\"tests\":[{\"tcId\":7,\"comment\":\"c\",\"cite\":\"PRM §7.14.1\",\"flags\":[],"  \
		    "\"result\":\"valid\",\"steps\":[" steps "]}]}]}"

Test(vectors_roce, device_b_events_are_its_own)
{
	struct vt t;
	vt_run(&t, TWO_DEV("{\"dev\":\"b\"," BAD_NOP "},"
			   "{\"dev\":\"a\",\"events\":{\"expect\":[],\"exact\":true}},"
			   "{\"dev\":\"b\",\"events\":{\"expect\":[{\"event\":\"violation\","
			   "\"rule\":\"ENTRY_SIGNATURE\"}],\"exact\":false}}"));
	cr_assert_eq(t.rc, 0, "%s", t.out);
	vt_free(&t);
}

Test(vectors_roce, device_b_violation_nobody_expected_fails)
{
	struct vt t;
	vt_run(&t, TWO_DEV("{\"dev\":\"b\"," BAD_NOP "},"
			   "{\"dev\":\"a\",\"events\":{\"expect\":[{\"event\":\"violation\"}],"
			   "\"exact\":false}}"));
	cr_assert_eq(t.rc, 1, "%s", t.out);
	cr_assert(vt_has(&t, "not found"), "%s", t.out);
	cr_assert(vt_has(&t, "unexpected violation ENTRY_SIGNATURE"), "%s", t.out);
	vt_free(&t);
}

Test(vectors_roce, trace_marks_device_b)
{
	struct vt t;
	char *buf = NULL;
	size_t len = 0;
	FILE *tr = open_memstream(&buf, &len);
	struct vec_options opt = { .trace = tr };
	vt_run_opt(&t, TWO_DEV("{\"dev\":\"b\"," BAD_NOP "},"
			       "{\"dev\":\"b\",\"events\":{\"expect\":[{\"event\":\"violation\"}],"
			       "\"exact\":false}}"),
		   &opt);
	fclose(tr);
	cr_assert_eq(t.rc, 0, "%s", t.out);
	cr_assert(strstr(buf, "#7 b ") != NULL, "%s", buf);
	cr_assert(strstr(buf, "#7 b ") && strstr(strstr(buf, "#7 b "), "violation"), "%s", buf);
	free(buf);
	vt_free(&t);
}
