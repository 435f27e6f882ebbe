/* Reports of a vector run. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

void report_init(struct report *r)
{
	memset(r, 0, sizeof *r);
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
	fputc('\n', out);
}

static const char *outcome_name(enum test_outcome o)
{
	return o == TEST_PASS ? "pass" : o == TEST_FAIL ? "fail" : o == TEST_ERROR ? "error" : "skip";
}

int report_write_json(const struct report *r, const char *path)
{
	json_t *root = json_object(), *tests = json_array();
	json_object_set_new(root, "passed", json_integer((json_int_t)r->passed));
	json_object_set_new(root, "failed", json_integer((json_int_t)r->failed));
	json_object_set_new(root, "skipped", json_integer((json_int_t)r->skipped));
	for (size_t i = 0; i < r->n; i++) {
		const struct test_result *t = &r->tests[i];
		json_t *o = json_object();
		json_object_set_new(o, "file", json_string(t->file));
		json_object_set_new(o, "feature", json_string(t->feature ? t->feature : ""));
		json_object_set_new(o, "tcId", json_integer(t->tc_id));
		json_object_set_new(o, "comment", json_string(t->comment ? t->comment : ""));
		json_object_set_new(o, "cite", json_string(t->cite ? t->cite : ""));
		json_object_set_new(o, "result", json_string(t->result ? t->result : ""));
		json_object_set_new(o, "outcome", json_string(outcome_name(t->outcome)));
		if (t->failures)
			json_object_set_new(o, "failures", json_string(t->failures));
		json_array_append_new(tests, o);
	}
	json_object_set_new(root, "tests", tests);
	int rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	return rc;
}

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f); break;
		}
	}
}

int report_write_junit(const struct report *r, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", r->n,
		r->failed, r->skipped);
	/* One suite per vector file, in run order. */
	for (size_t i = 0; i < r->n;) {
		size_t j = i, fails = 0, skips = 0;
		while (j < r->n && strcmp(r->tests[j].file, r->tests[i].file) == 0) {
			fails += r->tests[j].outcome == TEST_FAIL;
			skips += r->tests[j].outcome == TEST_SKIP;
			j++;
		}
		fprintf(f, "  <testsuite name=\"");
		xml_text(f, r->tests[i].file);
		fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", j - i, fails, skips);
		for (size_t k = i; k < j; k++) {
			const struct test_result *t = &r->tests[k];
			fprintf(f, "    <testcase classname=\"");
			xml_text(f, t->feature);
			fprintf(f, "\" name=\"tc%ld ", t->tc_id);
			xml_text(f, t->comment);
			fprintf(f, "\">");
			if (t->outcome == TEST_FAIL) {
				fprintf(f, "<failure message=\"");
				xml_text(f, t->cite);
				fprintf(f, "\">");
				xml_text(f, t->failures);
				fprintf(f, "</failure>");
			} else if (t->outcome == TEST_SKIP) {
				fprintf(f, "<skipped message=\"");
				xml_text(f, t->failures);
				fprintf(f, "\"/>");
			}
			fprintf(f, "</testcase>\n");
		}
		fprintf(f, "  </testsuite>\n");
		i = j;
	}
	fprintf(f, "</testsuites>\n");
	return fclose(f);
}
