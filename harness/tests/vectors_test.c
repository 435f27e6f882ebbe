/* The runner must be able to fail: wrong expectations, unexpected violations and a lost test
 * are reported, with the differing field named. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vectors.h"

static char path[64];

static void write_file(const char *json)
{
	strcpy(path, "/tmp/nicref_vec_XXXXXX");
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(json, f);
	fclose(f);
}

/* Runs the file; returns the printed output (caller frees) and fills the report. */
static char *run(const char *json, struct report *rep)
{
	write_file(json);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct vec_options opt = { 0 };
	char *paths[] = { path };
	report_init(rep);
	vectors_run_paths(paths, 1, &opt, rep, out);
	fclose(out);
	unlink(path);
	return buf;
}

#define FILE_HEAD                                                                               \
	"{\"schema\":\"nicref_vectors_v1\",\"feature\":\"cmdq\",\"header\":[],\"notes\":{},"
#define NOP_STEP(expect)                                                                        \
	"{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},\"expect\":" expect "}}"
#define ONE_TEST(steps)                                                                         \
	FILE_HEAD "\"numberOfTests\":1,\"testGroups\":[{\"setup\":[{\"bring_up\":{}}],\"tests\":[" \
		  "{\"tcId\":7,\"comment\":\"c\",\"cite\":\"PRM §7.14.1\",\"flags\":[],"       \
		  "\"result\":\"valid\",\"steps\":[" steps "]}]}]}"

Test(vectors, correct_expectation_passes)
{
	struct report rep;
	char *out = run(ONE_TEST(NOP_STEP("{\"delivery\":\"OK\",\"status\":\"OK\"}")), &rep);
	cr_expect_eq(rep.passed, 1, "%s", out);
	cr_expect_eq(rep.failed, 0);
	report_free(&rep);
	free(out);
}

Test(vectors, wrong_status_fails_naming_the_field)
{
	struct report rep;
	char *out = run(ONE_TEST(NOP_STEP("{\"status\":\"BAD_OP\"}")), &rep);
	cr_expect_eq(rep.failed, 1);
	cr_expect(strstr(out, "#7") && strstr(out, "output.status: expected BAD_OP (0x2), got OK"),
		  "%s", out);
	report_free(&rep);
	free(out);
}

Test(vectors, wrong_delivery_fails)
{
	struct report rep;
	char *out = run(ONE_TEST(NOP_STEP("{\"delivery\":\"TOKEN\"}")), &rep);
	cr_expect_eq(rep.failed, 1);
	cr_expect(strstr(out, "expected TOKEN (0x2), got OK (0x0)"), "%s", out);
	report_free(&rep);
	free(out);
}

Test(vectors, unexpected_violation_fails)
{
	/* A bad type is a driver violation; nothing in the test expects it. */
	struct report rep;
	char *out = run(ONE_TEST("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":"
				 "\"NOP\"},\"entry\":{\"type\":5},\"expect\":{\"delivery\":"
				 "\"BAD_TYPE\"}}}"),
			&rep);
	cr_expect_eq(rep.failed, 1);
	cr_expect(strstr(out, "unexpected violation ENTRY_BAD_TYPE"), "%s", out);
	report_free(&rep);
	free(out);
}

Test(vectors, expected_violation_passes)
{
	struct report rep;
	char *out = run(ONE_TEST("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":"
				 "\"NOP\"},\"entry\":{\"type\":5},\"expect\":{\"delivery\":"
				 "\"BAD_TYPE\"}}},{\"events\":{\"expect\":[{\"event\":\"violation\","
				 "\"rule\":\"ENTRY_BAD_TYPE\"}]}}"),
			&rep);
	cr_expect_eq(rep.passed, 1, "%s", out);
	report_free(&rep);
	free(out);
}

Test(vectors, missing_event_fails)
{
	struct report rep;
	char *out = run(ONE_TEST(NOP_STEP("{}") ",{\"events\":{\"expect\":[{\"event\":"
						 "\"unmodelled\"}]}}"),
			&rep);
	cr_expect_eq(rep.failed, 1);
	cr_expect(strstr(out, "not found"), "%s", out);
	report_free(&rep);
	free(out);
}

Test(vectors, number_of_tests_mismatch_fails)
{
	struct report rep;
	char *json = strdup(ONE_TEST(NOP_STEP("{}")));
	char *n = strstr(json, "\"numberOfTests\":1");
	n[16] = '2';
	char *out = run(json, &rep);
	cr_expect_eq(rep.failed, 1);
	cr_expect(strstr(out, "numberOfTests is 2 but the file has 1 tests"), "%s", out);
	report_free(&rep);
	free(out);
	free(json);
}

Test(vectors, unknown_field_and_step_fail)
{
	struct report rep;
	char *out = run(ONE_TEST("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcod\":1}}},"
				 "{\"frobnicate\":{}}"),
			&rep);
	cr_expect_eq(rep.failed, 1);
	cr_expect(strstr(out, "layout nop_in has no field 'opcod'"), "%s", out);
	cr_expect(strstr(out, "unknown step 'frobnicate'"), "%s", out);
	report_free(&rep);
	free(out);
}

Test(vectors, skipped_test_counts_as_skipped)
{
	struct report rep;
	char *json = strdup(ONE_TEST(NOP_STEP("{}")));
	char *at = strstr(json, "\"steps\"");
	size_t k = (size_t)(at - json);
	char *full = malloc(strlen(json) + 32);
	memcpy(full, json, k);
	strcpy(full + k, "\"skip\":\"later\",");
	strcat(full, json + k);
	char *out = run(full, &rep);
	cr_expect_eq(rep.skipped, 1, "%s", out);
	cr_expect_eq(rep.failed, 0);
	report_free(&rep);
	free(out);
	free(json);
	free(full);
}
