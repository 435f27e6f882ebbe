/* The reports CI systems read: JUnit XML valid against docs/schemas/junit.xsd and well-formed
 * whatever a comment or message holds, the JSON report of docs/schemas/report.schema.json, and
 * the closing line. Run from the repository root (the schemas are read from docs/schemas/). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"

static bool near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void add(struct report *r, const char *file, long id, enum test_outcome o,
		const char *comment, const char *failures, const char *notes, double seconds)
{
	struct test_result t = { .file = dup_or_null(file), .tc_id = id, .outcome = o,
				 .feature = strdup("cmdq"), .comment = dup_or_null(comment),
				 .cite = strdup("PRM §7.14.1 T96"), .result = strdup("invalid"),
				 .failures = dup_or_null(failures), .notes = dup_or_null(notes),
				 .seconds = seconds };
	cr_assert_eq(report_add(r, &t), 0);
}

/* One result of each outcome over two files; the run started at 2026-01-02T03:04:05 UTC. */
static void four_outcomes(struct report *r)
{
	report_init(r);
	r->started = 1767323045;
	add(r, "a.json", 1, TEST_PASS, "passes", NULL, "any_of: alternative 2 matched", 0.25);
	add(r, "a.json", 2, TEST_FAIL, "fails",
	    "slot 0 output.status: expected BAD_PARAM (0x3), got OK (0x0)\n"
	    "slot 0 output.syndrome: expected 0x00000001, got 0x00000000\n",
	    NULL, 1.5);
	add(r, "a.json", 3, TEST_SKIP, "skipped", "not modelled yet", NULL, 0.000001);
	add(r, "b.json", 4, TEST_ERROR, "refused", "step 2 command.fields.bogus: unknown field",
	    NULL, 2);
}

/* Writes the report with `write` to a fresh file; returns its path (static) and its bytes. */
static const char *written(const struct report *r, int (*write)(const struct report *, const char *),
			   char **bytes)
{
	static char path[64];
	strcpy(path, "/tmp/nicref_report_XXXXXX");
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	cr_assert_eq(write(r, path), 0, "cannot write %s", path);
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0;
	*bytes = malloc(cap);
	for (size_t got; (got = fread(*bytes + n, 1, cap - n - 1, f)) > 0;) {
		n += got;
		if (n + 1 == cap)
			*bytes = realloc(*bytes, cap *= 2);
	}
	(*bytes)[n] = 0;
	fclose(f);
	return path;
}

static int run(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* xmllint says "PATH validates" on stderr when it does: only its complaints are shown. */
static void expect_valid_junit(const char *path)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd,
		 "xmllint --noout --schema docs/schemas/junit.xsd %s 2>%s.err || { cat %s.err; false; }",
		 path, path, path);
	cr_expect_eq(run(cmd), 0, "%s is not valid against docs/schemas/junit.xsd", path);
	snprintf(cmd, sizeof cmd, "%s.err", path);
	unlink(cmd);
}

static void expect_valid_json(const char *path)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "/usr/bin/python3 -c 'import json, jsonschema; jsonschema.Draft7Validator(json.load("
		 "open(\"docs/schemas/report.schema.json\"))).validate(json.load(open(\"%s\")))'",
		 path);
	cr_expect_eq(run(cmd), 0, "%s is not valid against docs/schemas/report.schema.json", path);
}

Test(report, junit_has_counts_times_and_one_element_per_outcome)
{
	struct report r;
	char *x;
	four_outcomes(&r);
	const char *path = written(&r, report_write_junit, &x);
	expect_valid_junit(path);
	/* No skipped attribute on testsuites (the format has none there); sums of the cases. */
	cr_expect(strstr(x, "<testsuites name=\"nicref vectors\" tests=\"4\" failures=\"1\" "
			    "errors=\"1\" time=\"3.750001\">"), "%s", x);
	cr_expect(strstr(x, "<testsuite name=\"a.json\" tests=\"3\" failures=\"1\" errors=\"0\" "
			    "skipped=\"1\" time=\"1.750001\" timestamp=\"2026-01-02T03:04:05\">"), "%s", x);
	/* The second file started after the first file's 1.75 s. */
	cr_expect(strstr(x, "<testsuite name=\"b.json\" tests=\"1\" failures=\"0\" errors=\"1\" "
			    "skipped=\"0\" time=\"2.000000\" timestamp=\"2026-01-02T03:04:06\">"), "%s", x);
	cr_expect(strstr(x, "<testcase name=\"tc1 passes\" classname=\"cmdq\" time=\"0.250000\" "
			    "file=\"a.json\">"), "%s", x);
	/* The message is the first difference; the content every difference. */
	cr_expect(strstr(x, "<failure message=\"slot 0 output.status: expected BAD_PARAM (0x3), got OK "
			    "(0x0)\">slot 0 output.status: expected BAD_PARAM (0x3), got OK (0x0)\n"
			    "slot 0 output.syndrome: expected 0x00000001, got 0x00000000\n</failure>"),
		  "%s", x);
	cr_expect(strstr(x, "<skipped message=\"not modelled yet\">not modelled yet</skipped>"), "%s",
		  x);
	cr_expect(strstr(x, "<error message=\"step 2 command.fields.bogus: unknown field\">"), "%s", x);
	/* The citation in its own element; notes and the citation where every consumer shows them. */
	cr_expect(strstr(x, "<properties><property name=\"cite\" value=\"PRM §7.14.1 T96\"/>"
			    "<property name=\"result\" value=\"invalid\"/></properties>"), "%s", x);
	cr_expect(strstr(x, "<system-out>cite: PRM §7.14.1 T96\nany_of: alternative 2 matched"
			    "</system-out>"), "%s", x);
	free(x);
	unlink(path);
	report_free(&r);
}

/* Every byte of s is part of a well-formed UTF-8 character that XML 1.0 allows. */
static void expect_xml_chars_only(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		cr_assert(*p >= 0x20 || *p == '\n' || *p == '\t', "raw control 0x%02x at offset %td", *p,
			  (const char *)p - s);
		cr_assert(*p != 0xFF && *p != 0xC0 && !(*p == 0xED && (p[1] & 0xE0) == 0xA0) &&
				  !(*p == 0xEF && p[1] == 0xBF && p[2] >= 0xBE),
			  "byte 0x%02x at offset %td cannot be in XML", *p, (const char *)p - s);
	}
}

/* Control characters, markup, "]]>", quotes, ill-formed UTF-8 (a lone 0xFF, an overlong '/',
 * a UTF-16 surrogate, a truncated sequence), U+FFFE, an empty comment and NULL fields. */
#define HOSTILE                                                                                 \
	"\x01\x02\x1b[31m\x7f bell\a tab\t cr\r nl\n <b>&amp;</b> \"q\" 'a' ]]> "                 \
	"\xff \xc0\xaf \xed\xa0\x80 \xef\xbf\xbe é \xe2\x82"

Test(report, junit_is_well_formed_whatever_the_strings_hold)
{
	struct report r;
	char *x;
	report_init(&r);
	add(&r, HOSTILE, 1, TEST_FAIL, HOSTILE, HOSTILE "\nsecond " HOSTILE, HOSTILE, NAN);
	add(&r, HOSTILE, 2, TEST_SKIP, "", HOSTILE, NULL, -1);
	add(&r, NULL, 0, TEST_ERROR, NULL, NULL, NULL, INFINITY);
	struct test_result bare = { .outcome = TEST_FAIL }; /* every string NULL */
	cr_assert_eq(report_add(&r, &bare), 0);
	const char *path = written(&r, report_write_junit, &x);
	expect_xml_chars_only(x);
	expect_valid_junit(path);
	cr_expect(strstr(x, "name=\"tc1 \\x01\\x02\\x1b[31m\x7f bell\\x07 tab&#9; cr&#13; nl&#10; "
			    "&lt;b&gt;&amp;amp;&lt;/b&gt; &quot;q&quot; 'a' ]]&gt; \\xff \\xc0\\xaf "
			    "\\xed\\xa0\\x80 \\xef\\xbf\\xbe é \\xe2\\x82\""), "%s", x);
	/* In content, tab and newline stay; the message attribute stops at the first newline. */
	cr_expect(strstr(x, "bell\\x07 tab\t cr&#13; nl\n &lt;b&gt;"), "%s", x);
	cr_expect(strstr(x, "<failure message=\"\\x01\\x02\\x1b[31m\x7f bell\\x07 tab&#9; cr&#13; nl\">"),
		  "%s", x);
	cr_expect(strstr(x, "<testcase name=\"tc2\" classname=\"cmdq\" time=\"0.000000\""), "%s", x);
	cr_expect(strstr(x, "<testcase name=\"(file)\" classname=\"cmdq\" time=\"0.000000\" file=\"\">"),
		  "%s", x);
	cr_expect(strstr(x, "<error message=\"the runner could not check this test\">"), "%s", x);
	cr_expect(strstr(x, "<testcase name=\"(file)\" classname=\"nicref\" time=\"0.000000\" "
			    "file=\"\">\n      <failure message=\"failed\">failed</failure>"), "%s", x);
	free(x);
	unlink(path);
	report_free(&r);
}

static json_t *load(const char *path)
{
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	cr_assert_not_null(j, "%s: %s", path, e.text);
	return j;
}

static const char *str_at(const json_t *tests, size_t i, const char *key)
{
	return json_string_value(json_object_get(json_array_get(tests, i), key));
}

Test(report, json_has_version_errors_outcomes_times_and_notes)
{
	struct report r;
	char *x;
	four_outcomes(&r);
	const char *path = written(&r, report_write_json, &x);
	expect_valid_json(path);
	json_t *j = load(path), *tests = json_object_get(j, "tests");
	cr_expect_eq(json_integer_value(json_object_get(j, "schema_version")), 1);
	cr_expect_eq(json_integer_value(json_object_get(j, "errors")), 1);
	cr_expect_eq(json_integer_value(json_object_get(j, "failed")), 1);
	cr_expect(near(json_real_value(json_object_get(j, "seconds")), 3.750001));
	cr_expect(strstr(x, "\"seconds\": 3.750001,"), "%s", x); /* as written, not 3.7500010000000001 */
	const char *outcomes[] = { "pass", "fail", "skip", "error" };
	for (size_t i = 0; i < 4; i++)
		cr_expect_str_eq(str_at(tests, i, "outcome"), outcomes[i]);
	json_t *pass = json_array_get(tests, 0), *fail = json_array_get(tests, 1);
	cr_expect(near(json_real_value(json_object_get(pass, "seconds")), 0.25));
	cr_expect_str_eq(json_string_value(json_array_get(json_object_get(pass, "notes"), 0)),
			 "any_of: alternative 2 matched");
	cr_expect_eq(json_array_size(json_object_get(pass, "failures")), 0);
	json_t *lines = json_object_get(fail, "failures");
	cr_expect_eq(json_array_size(lines), 2);
	cr_expect_str_eq(json_string_value(json_array_get(lines, 1)),
			 "slot 0 output.syndrome: expected 0x00000001, got 0x00000000");
	cr_expect_str_eq(str_at(tests, 2, "skip"), "not modelled yet");
	cr_expect_eq(json_array_size(json_object_get(json_array_get(tests, 2), "failures")), 0);
	cr_expect_null(json_object_get(fail, "skip"));
	json_decref(j);
	free(x);
	unlink(path);
	report_free(&r);
}

Test(report, json_keeps_hostile_strings_and_nulls)
{
	struct report r;
	char *x;
	report_init(&r);
	add(&r, HOSTILE, 1, TEST_FAIL, HOSTILE, HOSTILE, NULL, NAN);
	add(&r, NULL, 0, TEST_ERROR, NULL, "cannot read: not JSON", NULL, -1);
	struct test_result bare = { .outcome = TEST_FAIL }; /* every string NULL */
	cr_assert_eq(report_add(&r, &bare), 0);
	const char *path = written(&r, report_write_json, &x);
	expect_valid_json(path);
	json_t *j = load(path), *tests = json_object_get(j, "tests");
	cr_assert_eq(json_array_size(tests), 3, "%s", x);
	/* Control characters are JSON escapes; bytes that are not UTF-8 become the text \xNN. */
	cr_expect_str_eq(str_at(tests, 0, "comment"),
			 "\x01\x02\x1b[31m\x7f bell\a tab\t cr\r nl\n <b>&amp;</b> \"q\" 'a' ]]> "
			 "\\xff \\xc0\\xaf \\xed\\xa0\\x80 \xef\xbf\xbe é \\xe2\\x82");
	cr_expect_eq(json_array_size(json_object_get(json_array_get(tests, 0), "failures")), 2);
	json_t *err = json_array_get(tests, 1);
	cr_expect(json_is_null(json_object_get(err, "tcId")));
	cr_expect(json_is_null(json_object_get(err, "comment")));
	cr_expect_str_eq(json_string_value(json_object_get(err, "file")), "");
	cr_expect_eq(json_real_value(json_object_get(err, "seconds")), 0);
	/* Nothing given at all: nulls, and still a message for the failure. */
	json_t *none = json_array_get(tests, 2);
	const char *keys[] = { "feature", "tcId", "comment", "cite", "result" };
	for (size_t i = 0; i < 5; i++)
		cr_expect(json_is_null(json_object_get(none, keys[i])), "%s", keys[i]);
	cr_expect_str_eq(json_string_value(json_array_get(json_object_get(none, "failures"), 0)),
			 "failed");
	json_decref(j);
	free(x);
	unlink(path);
	report_free(&r);
}

Test(report, closing_line_counts_errors)
{
	struct report r;
	char *out = NULL;
	size_t len = 0;
	four_outcomes(&r);
	FILE *f = open_memstream(&out, &len);
	report_closing_line(&r, f);
	add(&r, "c.json", 1, TEST_ERROR, "again", "refused", NULL, 0);
	report_closing_line(&r, f);
	fclose(f);
	cr_expect_str_eq(out, "1 passed, 1 failed, 1 skipped, 1 error\n"
			      "1 passed, 1 failed, 1 skipped, 2 errors\n");
	free(out);
	report_free(&r);
}
