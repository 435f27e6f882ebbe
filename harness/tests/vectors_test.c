/* The runner must be able to fail, and to refuse: wrong expectations, unexpected violations and
 * lost tests are reported with the differing field named; what it cannot check is bad input
 * (exit 2), before anything runs. */
#include <sys/stat.h>
#include <time.h>

#include "vectest.h"

Test(vectors, correct_expectation_passes)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{\"delivery\":\"OK\",\"status\":\"OK\"}")));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	cr_expect_eq(t.rep.failed, 0);
	cr_expect_eq(t.rc, VEC_PASSED);
	vt_free(&t);
}

Test(vectors, wrong_status_fails_naming_the_field)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{\"status\":\"BAD_OP\"}")));
	cr_expect_eq(t.rep.failed, 1);
	cr_expect_eq(t.rc, VEC_FAILED);
	cr_expect(vt_has(&t, "#7: step 0 (command): slot 0 output.status: expected BAD_OP (0x2), "
			     "got OK"),
		  "%s", t.out);
	vt_free(&t);
}

Test(vectors, wrong_delivery_fails)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{\"delivery\":\"TOKEN\"}")));
	cr_expect_eq(t.rep.failed, 1);
	cr_expect(vt_has(&t, "expected TOKEN (0x2), got OK (0x0)"), "%s", t.out);
	vt_free(&t);
}

Test(vectors, unexpected_violation_fails)
{
	/* A bad type is a driver violation; nothing in the test expects it. */
	struct vt t;
	vt_run(&t, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			  "\"entry\":{\"type\":5},\"expect\":{\"delivery\":\"BAD_TYPE\"}}}"));
	cr_expect_eq(t.rep.failed, 1);
	cr_expect(vt_has(&t, "unexpected violation ENTRY_BAD_TYPE"), "%s", t.out);
	vt_free(&t);
}

Test(vectors, unexpected_should_warning_is_a_note_not_a_failure)
{
	/* T98's next pointer of the chain's last block "should be 0": a warning (D-CMD-19). The
	 * test expects nothing of it, so it passes, and its report keeps the warning as a note. */
	struct vt t;
	vt_run(&t, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			  "\"length\":1552,\"mailbox_in\":[{\"block\":2,\"fields\":"
			  "{\"next_pointer_31_10\":1027}}],\"expect\":{\"delivery\":\"OK\"}}}"));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	cr_expect_eq(t.rep.failed, 0, "%s", t.out);
	cr_assert_eq(t.rep.n, 1);
	cr_expect(t.rep.tests[0].notes &&
			  strstr(t.rep.tests[0].notes, "unexpected warning MAILBOX_NEXT_NOT_ZERO"),
		  "notes: %s", t.rep.tests[0].notes ? t.rep.tests[0].notes : "(none)");
	vt_free(&t);
}

Test(vectors, expected_violation_passes)
{
	struct vt t;
	vt_run(&t, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			  "\"entry\":{\"type\":5},\"expect\":{\"delivery\":\"BAD_TYPE\"}}},"
			  "{\"events\":{\"expect\":[{\"event\":\"violation\",\"rule\":"
			  "\"ENTRY_BAD_TYPE\"}]}}"));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	vt_free(&t);
}

Test(vectors, missing_event_fails)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{}") ",{\"events\":{\"expect\":[{\"event\":\"unmodelled\"}]}}"));
	cr_expect_eq(t.rep.failed, 1);
	cr_expect(vt_has(&t, "not found"), "%s", t.out);
	vt_free(&t);
}

/* ---- refusals: bad input, nothing runs ---- */

Test(vectors, number_of_tests_mismatch_is_refused)
{
	struct vt t;
	vt_run(&t, VT_HEAD("") "\"numberOfTests\":2," VT_GROUP_TEST("", VT_NOP("{}")));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect_eq(t.rep.passed + t.rep.failed, 0, "nothing runs");
	cr_expect(vt_has(&t, ": numberOfTests: 2, but the file has 1 test"), "%s", t.out);
	vt_free(&t);
}

Test(vectors, unknown_field_is_refused_before_running)
{
	struct vt t;
	vt_run(&t, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcod\":1}}}"));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect_eq(t.rep.errors, 1);
	cr_expect(vt_has(&t, "tcId 7: step 0 (command): fields.opcod: layout nop_in has no field "
			     "\"opcod\""),
		  "%s", t.out);
	cr_expect(vt_has(&t, "nothing was run"), "%s", t.out);
	vt_free(&t);
}

Test(vectors, unknown_key_in_expect_is_refused)
{
	/* Today's typo that used to pass: "statu" instead of "status". */
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{\"statu\":\"BAD_OP\"}")));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "expect: unknown key \"statu\""), "%s", t.out);
	vt_free(&t);
}

Test(vectors, enumerations_and_widths_are_checked)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{\"ownership\":\"banana\"}")));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "expect.ownership: \"banana\" is not a number"), "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(VT_NOP("{\"ownership\":2}")));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "expect.ownership: 2 does not fit in 1 bit"), "%s", t.out);
	vt_free(&t);
}

Test(vectors, block_number_past_the_chain_is_refused)
{
	/* 2^64-1 used to become block -1: the entry was patched instead. */
	struct vt t;
	vt_run(&t, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			  "\"mailbox_in\":[{\"block\":\"18446744073709551615\",\"fields\":"
			  "{\"token\":1}}]}}"));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "mailbox_in[0].block: 18446744073709551615 is past the input chain"),
		  "%s", t.out);
	vt_free(&t);
}

Test(vectors, wrapping_ranges_are_refused)
{
	struct vt t;
	vt_run(&t, VT_ONE("{\"mem_expect\":{\"addr\":\"0xfffffffffffffff0\",\"hex\":"
			  "\"00000000000000000000000000000000ff\"}}"));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "0xfffffffffffffff0 + 17 bytes wraps past 2^64"), "%s", t.out);
	vt_free(&t);
}

Test(vectors, decimal_strings_are_decimal)
{
	/* "016" is sixteen, the output NOP needs; read as octal it was 14, too short. */
	struct vt t;
	vt_run(&t, VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			  "\"output_length\":\"016\",\"expect\":{\"status\":\"OK\"}}}"));
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
}

Test(vectors, all_skipped_is_bad_input)
{
	struct vt t;
	vt_run(&t, VT_HEAD("") "\"numberOfTests\":1,\"testGroups\":[{\"tests\":[{\"tcId\":1,"
			  "\"comment\":\"c\",\"cite\":\"PRM §8.2\",\"flags\":[],\"result\":\"valid\","
			  "\"skip\":\"later\",\"steps\":[{\"bar_read\":{\"field\":"
			  "\"initializing\",\"expect\":0}}]}]}]}");
	cr_expect_eq(t.rep.skipped, 1, "%s", t.out);
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, ": no vector was run (1 skipped)"), "%s", t.out);
	vt_free(&t);
}

Test(vectors, empty_folder_and_missing_path_are_bad_input)
{
	char dir[] = "/tmp/nicref_vdir_XXXXXX";
	cr_assert(mkdtemp(dir));
	char missing[64];
	snprintf(missing, sizeof missing, "%s/none.json", dir);
	char *paths[] = { dir, missing };
	struct report rep;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct vec_options opt = { 0 };
	report_init(&rep);
	int rc = vectors_run_paths(paths, 2, &opt, &rep, f);
	fclose(f);
	cr_expect_eq(rc, VEC_BAD_INPUT);
	cr_expect(strstr(out, "no vector files (*.json) in this folder"), "%s", out);
	cr_expect(strstr(out, "none.json: cannot read: No such file"), "%s", out);
	report_free(&rep);
	free(out);
	rmdir(dir);
}

Test(vectors, runtime_refusal_is_an_error)
{
	/* Host memory full is found only by running: the test is an ERROR, the run bad input. */
	struct vt t;
	char hex[2 * 65536 + 1];
	memset(hex, '0', sizeof hex - 1);
	hex[sizeof hex - 1] = '\0';
	char *json = malloc(sizeof hex + 1024);
	snprintf(json, sizeof hex + 1024,
		 VT_ONE_IN("\"profile\":{\"hostmem_max_pages\":16},",
			   "{\"mem_write\":{\"addr\":\"0x40000000\",\"hex\":\"%s\"}},"
			   "{\"mem_expect\":{\"addr\":\"0x40000000\",\"hex\":\"00\"}}"),
		 hex);
	vt_run(&t, json);
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect_eq(t.rep.errors, 1, "%s", t.out);
	cr_expect(vt_has(&t, "host memory refused 65536 bytes at 0x40000000"), "%s", t.out);
	vt_free(&t);
	free(json);
}

Test(vectors, huge_advance_allocates_nothing)
{
	/* 2^64-1 ns used to be recorded as 2^32 ops (18 GB) for the seed corpus. */
	char dir[] = "/tmp/nicref_vcorpus_XXXXXX";
	cr_assert(mkdtemp(dir));
	char sub[64];
	snprintf(sub, sizeof sub, "%s/cmdq", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof sub, "%s/cmd", dir);
	mkdir(sub, 0700);
	struct vec_options opt = { .corpus_dir = dir };
	struct vt t;
	clock_t c0 = clock();
	vt_run_opt(&t,
		   VT_ONE("{\"advance_ns\":\"18446744073709551615\"},{\"bar_read\":{\"field\":"
			  "\"initializing\",\"expect\":0}}"),
		   &opt);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	cr_expect_lt((double)(clock() - c0) / CLOCKS_PER_SEC, 2.0);
	vt_free(&t);
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(vectors, results_carry_their_time)
{
	struct vt t;
	vt_run(&t, VT_ONE(VT_NOP("{}")));
	cr_assert_eq(t.rep.n, 1);
	cr_expect_gt(t.rep.tests[0].seconds, 0.0);
	cr_expect_lt(t.rep.tests[0].seconds, 10.0);
	vt_free(&t);
}
