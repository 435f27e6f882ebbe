/* Reports of a vector run: the closing line, the JSON report (docs/schemas/report.schema.json)
 * and JUnit XML (docs/schemas/junit.xsd). docs/vectors.md, "Reports", says what every field
 * means and which CI system reads which. */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

void report_init(struct report *r)
{
	memset(r, 0, sizeof *r);
	r->started = time(NULL);
}

static void result_free(struct test_result *t)
{
	free(t->file);
	free(t->feature);
	free(t->comment);
	free(t->cite);
	free(t->result);
	free(t->failures);
	free(t->notes);
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->n; i++)
		result_free(&r->tests[i]);
	free(r->tests);
	memset(r, 0, sizeof *r);
}

int report_add(struct report *r, const struct test_result *t)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct test_result *p = realloc(r->tests, cap * sizeof *p);
		if (!p)
			return -1;
		r->tests = p;
		r->cap = cap;
	}
	r->tests[r->n++] = *t;
	if (t->outcome == TEST_PASS)
		r->passed++;
	else if (t->outcome == TEST_FAIL)
		r->failed++;
	else if (t->outcome == TEST_ERROR)
		r->errors++;
	else
		r->skipped++;
	return 0;
}

void report_closing_line(const struct report *r, FILE *out)
{
	fprintf(out, "%zu passed, %zu failed", r->passed, r->failed);
	if (r->skipped)
		fprintf(out, ", %zu skipped", r->skipped);
	if (r->errors)
		fprintf(out, ", %zu %s", r->errors, r->errors == 1 ? "error" : "errors");
	fputc('\n', out);
}

static const char *outcome_name(enum test_outcome o)
{
	return o == TEST_PASS ? "pass" : o == TEST_FAIL ? "fail" : o == TEST_ERROR ? "error" : "skip";
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* What a failure, error or skip says. The runner always gives a message; a report stays valid
 * (a message for every failure) if it did not. */
static const char *outcome_text(const struct test_result *t)
{
	if (t->failures && t->failures[strspn(t->failures, "\n")])
		return t->failures;
	return t->outcome == TEST_FAIL	? "failed" :
	       t->outcome == TEST_ERROR ? "the runner could not check this test" :
					  "skipped";
}

/* A test's wall time in whole microseconds, the unit both reports are written in, so the JUnit
 * suite times are exact sums; a time that is not a finite non-negative number counts as 0. */
static unsigned long long micros(double seconds)
{
	if (!isfinite(seconds) || seconds <= 0)
		return 0;
	return (unsigned long long)((seconds < 1e9 ? seconds : 1e9) * 1e6 + 0.5);
}

/* Length of the well-formed UTF-8 sequence (RFC 3629: shortest form, no surrogates, at most
 * U+10FFFF) that starts s, of at most n bytes, and its code point in *cp; 0 when ill-formed. */
static size_t utf8_char(const unsigned char *s, size_t n, unsigned long *cp)
{
	static const unsigned long min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 :
		     s[0] < 0xF5 ? 4 : 0;
	if (len == 0 || len > n)
		return 0;
	unsigned long c = len == 1 ? s[0] : s[0] & (0x7F >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

/* ---- JSON ---- */

/* s[0..n) as a JSON string; bytes that are not well-formed UTF-8 (jansson refuses those)
 * become the text \xNN. */
static json_t *json_text(const char *s, size_t n)
{
	unsigned long cp;
	size_t i = 0, len;
	while (i < n && (len = utf8_char((const unsigned char *)s + i, n - i, &cp)) != 0)
		i += len;
	if (i == n)
		return json_stringn(s, n);
	char *fixed = malloc(4 * n + 1), *o = fixed;
	if (!fixed)
		return NULL;
	for (i = 0; i < n; i += len) {
		len = utf8_char((const unsigned char *)s + i, n - i, &cp);
		if (len == 0) {
			o += sprintf(o, "\\x%02x", (unsigned char)s[i]);
			len = 1;
		} else {
			memcpy(o, s + i, len);
			o += len;
		}
	}
	json_t *j = json_stringn(fixed, (size_t)(o - fixed));
	free(fixed);
	return j;
}

static json_t *json_text_or_null(const char *s)
{
	return s ? json_text(s, strlen(s)) : json_null();
}

/* Newline-separated messages as an array of lines (empty lines dropped). */
static json_t *json_lines(const char *s)
{
	json_t *a = json_array();
	for (const char *p = s; a && p && *p;) {
		size_t n = strcspn(p, "\n");
		if (n && json_array_append_new(a, json_text(p, n)) != 0) {
			json_decref(a);
			return NULL;
		}
		p += n + (p[n] == '\n');
	}
	return a;
}

/* json_object_set_new, counting failures (a NULL value included) into *bad. */
static void put(json_t *o, const char *key, json_t *v, int *bad)
{
	*bad |= json_object_set_new(o, key, v) != 0;
}

static json_t *json_test(const struct test_result *t, int *bad)
{
	json_t *o = json_object();
	bool failed = t->outcome == TEST_FAIL || t->outcome == TEST_ERROR;
	put(o, "file", json_text(nz(t->file), strlen(nz(t->file))), bad);
	put(o, "feature", json_text_or_null(t->feature), bad);
	put(o, "tcId", t->tc_id >= 1 ? json_integer(t->tc_id) : json_null(), bad);
	put(o, "comment", json_text_or_null(t->comment), bad);
	put(o, "cite", json_text_or_null(t->cite), bad);
	put(o, "result", json_text_or_null(t->result), bad);
	put(o, "outcome", json_string(outcome_name(t->outcome)), bad);
	put(o, "seconds", json_real((double)micros(t->seconds) / 1e6), bad);
	put(o, "failures", json_lines(failed ? outcome_text(t) : NULL), bad);
	put(o, "notes", json_lines(t->notes), bad);
	const char *reason = outcome_text(t);
	if (t->outcome == TEST_SKIP)
		put(o, "skip", json_text(reason, strlen(reason)), bad);
	return o;
}

int report_write_json(const struct report *r, const char *path)
{
	json_t *root = json_object(), *tests = json_array();
	int bad = !root || !tests;
	unsigned long long us = 0;
	for (size_t i = 0; i < r->n && !bad; i++) {
		json_t *t = json_test(&r->tests[i], &bad);
		bad |= json_array_append_new(tests, t) != 0;
		us += micros(r->tests[i].seconds);
	}
	put(root, "schema_version", json_integer(REPORT_SCHEMA_VERSION), &bad);
	put(root, "passed", json_integer((json_int_t)r->passed), &bad);
	put(root, "failed", json_integer((json_int_t)r->failed), &bad);
	put(root, "skipped", json_integer((json_int_t)r->skipped), &bad);
	put(root, "errors", json_integer((json_int_t)r->errors), &bad);
	put(root, "seconds", json_real((double)us / 1e6), &bad);
	put(root, "tests", tests, &bad);
	if (!bad)
		/* 15 significant digits print whole microseconds as they are (0.000734, not
		 * 0.00073399999999999995) */
		bad = json_dump_file(root, path,
				     JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(15)) != 0;
	json_decref(root);
	return bad ? -1 : 0;
}

/* ---- JUnit XML ---- */

/* s[0..n) as XML 1.0 character data (attr: inside a double-quoted attribute value). Markup
 * characters become references, so "]]>" cannot end anything; in attributes tab, newline and
 * carriage return become references too, so parsers do not turn them into spaces. A byte that is
 * not part of a character XML 1.0 allows (control characters, ill-formed UTF-8, U+FFFE/U+FFFF;
 * XML 1.0 §2.2) cannot be written even as a reference: it becomes the visible text \xNN. */
static void xml_put(FILE *f, const char *s, size_t n, bool attr)
{
	for (size_t i = 0, len; i < n; i += len) {
		unsigned long c;
		len = utf8_char((const unsigned char *)s + i, n - i, &c);
		if (len == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE ||
		    c == 0xFFFF) {
			fprintf(f, "\\x%02x", (unsigned char)s[i]);
			len = 1;
		} else if (c == '<' || c == '>' || c == '&' || c == '"') {
			fputs(c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : "&quot;", f);
		} else if (c == '\r' || (attr && (c == '\t' || c == '\n'))) {
			fprintf(f, "&#%lu;", c);
		} else {
			fwrite(s + i, 1, len, f);
		}
	}
}

static void xml_str(FILE *f, const char *s, bool attr)
{
	xml_put(f, nz(s), strlen(nz(s)), attr);
}

/* Counts of a run of results (a suite, or all of them) as JUnit attributes. */
struct tally {
	size_t tests, failures, errors, skipped;
	unsigned long long us;
};

static struct tally tally(const struct test_result *t, size_t n)
{
	struct tally c = { .tests = n };
	for (size_t i = 0; i < n; i++) {
		c.failures += t[i].outcome == TEST_FAIL;
		c.errors += t[i].outcome == TEST_ERROR;
		c.skipped += t[i].outcome == TEST_SKIP;
		c.us += micros(t[i].seconds);
	}
	return c;
}

static void put_time(FILE *f, unsigned long long us)
{
	fprintf(f, " time=\"%llu.%06llu\"", us / 1000000, us % 1000000);
}

/* failure, error or skipped: the first line as the message, all of it as the content (Jenkins
 * and the GitHub reporters show the message, GitLab the content). */
static void xml_outcome(FILE *f, const char *tag, const char *text)
{
	const char *first = text + strspn(text, "\n");
	fprintf(f, "\n      <%s message=\"", tag);
	xml_put(f, first, strcspn(first, "\n"), true);
	fputs("\">", f);
	xml_str(f, text, false);
	fprintf(f, "</%s>", tag);
}

static void xml_testcase(FILE *f, const struct test_result *t)
{
	fputs("    <testcase name=\"", f);
	if (t->tc_id >= 1)
		fprintf(f, "tc%ld", t->tc_id);
	else
		fputs("(file)", f); /* the file itself could not be read as vectors */
	if (t->comment && *t->comment) {
		fputc(' ', f);
		xml_str(f, t->comment, true);
	}
	fputs("\" classname=\"", f);
	xml_str(f, t->feature ? t->feature : "nicref", true);
	fputc('"', f);
	put_time(f, micros(t->seconds));
	fputs(" file=\"", f);
	xml_str(f, t->file, true);
	fputs("\">", f);
	if (t->cite || t->result) {
		fputs("\n      <properties>", f);
		const char *name[2] = { "cite", "result" }, *value[2] = { t->cite, t->result };
		for (int i = 0; i < 2; i++) {
			if (!value[i])
				continue;
			fprintf(f, "<property name=\"%s\" value=\"", name[i]);
			xml_str(f, value[i], true);
			fputs("\"/>", f);
		}
		fputs("</properties>", f);
	}
	static const char *const tag[] = { [TEST_FAIL] = "failure", [TEST_ERROR] = "error",
					   [TEST_SKIP] = "skipped" };
	if (t->outcome != TEST_PASS)
		xml_outcome(f, tag[t->outcome], outcome_text(t));
	/* What a reader wants beside the outcome, in the one element every consumer shows. */
	if (t->cite || t->notes) {
		fputs("\n      <system-out>", f);
		if (t->cite) {
			fputs("cite: ", f);
			xml_str(f, t->cite, false);
			fputc('\n', f);
		}
		xml_str(f, t->notes, false);
		fputs("</system-out>", f);
	}
	fputs("\n    </testcase>\n", f);
}

int report_write_junit(const struct report *r, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	struct tally all = tally(r->tests, r->n);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"nicref vectors\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\"",
		all.tests, all.failures, all.errors);
	put_time(f, all.us);
	fputs(">\n", f);
	/* One suite per vector file, in run order. Tests run one after another, so a suite started
	 * when the run did plus the time of the tests before it. */
	unsigned long long before = 0;
	for (size_t i = 0, j; i < r->n; i = j) {
		for (j = i + 1; j < r->n && !strcmp(nz(r->tests[j].file), nz(r->tests[i].file)); j++)
			;
		struct tally s = tally(r->tests + i, j - i);
		time_t start = r->started + (time_t)(before / 1000000);
		struct tm tm;
		char stamp[32] = "1970-01-01T00:00:00";
		if (gmtime_r(&start, &tm))
			strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
		fputs("  <testsuite name=\"", f);
		xml_str(f, r->tests[i].file, true);
		fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\"", s.tests,
			s.failures, s.errors, s.skipped);
		put_time(f, s.us);
		fprintf(f, " timestamp=\"%s\">\n", stamp);
		for (size_t k = i; k < j; k++)
			xml_testcase(f, &r->tests[k]);
		fputs("  </testsuite>\n", f);
		before += s.us;
	}
	fputs("</testsuites>\n", f);
	int err = ferror(f);
	return fclose(f) != 0 || err ? -1 : 0;
}
