/* The schema interpreter the runner applies (harness/jschema.h, jsregex.h): ECMA regex
 * semantics where POSIX or Python would differ, a refusal of any keyword it does not
 * implement, and a vector schema that agrees with the tables it describes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jschema.h"
#include "jsregex.h"
#include "nicref/trace.h"
#include "vector_schema.h"
#include "vectors_int.h"

static bool search(const char *pattern, const char *s)
{
	char err[160];
	struct jsregex *re = jsregex_compile(pattern, err, sizeof err);
	cr_assert(re, "%s: %s", pattern, err);
	bool m = jsregex_search(re, s, strlen(s));
	jsregex_free(re);
	return m;
}

static bool compiles(const char *pattern)
{
	char err[160];
	struct jsregex *re = jsregex_compile(pattern, err, sizeof err);
	jsregex_free(re);
	return re != NULL;
}

Test(jsregex, ecma_semantics)
{
	cr_expect(search("^[a-z0-9_]+$", "cmdq_2"));
	cr_expect(!search("^[a-z0-9_]+$", "cmdq\n"), "$ is the very end (Python's also before \\n)");
	cr_expect(search("^[0-9a-f :_\\n]*$", "00 01\n02"), "\\n in brackets is a newline");
	cr_expect(!search("^[\\n]$", "n"), "not the letter n (POSIX brackets)");
	cr_expect(!search("^[\\n]$", "\\"), "not a backslash (POSIX brackets)");
	cr_expect(search("(PRM|seed|00[0-4]|ADP) ", "see PRM §7"), "a pattern searches");
	cr_expect(!search("(PRM|seed|00[0-4]|ADP) ", "PRM§7"));
	cr_expect(search("^(0[xX][0-9a-fA-F]+|[0-9]+)$", "0x1F"));
	cr_expect(!search("^(0[xX][0-9a-fA-F]+|[0-9]+)$", "0x"));
	cr_expect(search("^PRM §[0-9]+(\\.[0-9]+)*$", "PRM §7.14.1"));
	cr_expect(!search("^PRM §[0-9]+(\\.[0-9]+)*$", "PRM §7.14."));
	cr_expect(search("^.$", "§"), ". takes one whole character");
	cr_expect(search("^a{2,3}$", "aaa") && !search("^a{2,3}$", "aaaa"));
	cr_expect(search("^(ab)*c$", "ababc") && !search("^(ab)*c$", "abac"));
	cr_expect(search("^\\d\\w\\s$", "1_ "));
}

Test(jsregex, outside_the_subset_is_refused)
{
	cr_expect(!compiles("(?=a)"));
	cr_expect(!compiles("a*?"));
	cr_expect(!compiles("\\bword"));
	cr_expect(!compiles("(a)\\1"));
	cr_expect(!compiles("\\u0041"));
	cr_expect(!compiles("[§]"), "non-ASCII in a class");
	cr_expect(!compiles("§+"), "a quantifier on one byte of a character");
	cr_expect(!compiles("a{2"));
	cr_expect(!compiles("(a"));
	cr_expect(!compiles("a)"));
	cr_expect(!compiles("*a"));
}

static struct jschema *compile_text(const char *text, char *err, size_t len)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	cr_assert(j, "%s", je.text);
	struct jschema *s = jschema_compile(j, err, len);
	json_decref(j);
	return s;
}

Test(jschema, unsupported_keywords_are_refused)
{
	char err[256];
	cr_expect_null(compile_text("{\"type\":\"string\",\"format\":\"date\"}", err, sizeof err));
	cr_expect(strstr(err, "unsupported keyword \"format\""), "%s", err);
	cr_expect_null(compile_text("{\"properties\":{\"a\":{\"uniqueItems\":true}}}", err,
				    sizeof err));
	cr_expect(strstr(err, "schema /properties/a"), "%s", err);
	cr_expect_null(compile_text("{\"$ref\":\"#/definitions/x\"}", err, sizeof err));
	cr_expect_null(compile_text("{\"definitions\":{\"x\":{}},\"properties\":{\"a\":{\"$ref\":"
				    "\"#/definitions/x\",\"type\":\"string\"}}}",
				    err, sizeof err),
		       "$ref with siblings");
	cr_expect_null(compile_text("{\"pattern\":\"(?=x)\"}", err, sizeof err));
	cr_expect_null(compile_text("{\"then\":{}}", err, sizeof err), "then without if");
}

struct msgs {
	char text[2048];
};

static void collect(void *ctx, const struct jpath *at, const char *msg)
{
	struct msgs *m = ctx;
	size_t len = strlen(m->text);
	snprintf(m->text + len, sizeof m->text - len, "%u:%s|", at->n, msg);
}

static const char *validate(const char *schema, const char *inst, struct msgs *m)
{
	char err[256];
	struct jschema *s = compile_text(schema, err, sizeof err);
	cr_assert(s, "%s", err);
	json_t *j = json_loads(inst, JSON_DECODE_ANY, NULL);
	cr_assert(j);
	m->text[0] = '\0';
	jschema_validate(s, j, collect, m);
	json_decref(j);
	jschema_free(s);
	return m->text;
}

Test(jschema, messages)
{
	struct msgs m;
	const char *num = "{\"definitions\":{\"num\":{\"title\":\"a number\",\"oneOf\":[{\"type\":"
			  "\"integer\",\"minimum\":0},{\"type\":\"string\",\"pattern\":\"^[0-9]+$\"}]},"
			  "\"m\":{\"type\":\"object\",\"additionalProperties\":false,\"properties\":"
			  "{\"ge\":{\"$ref\":\"#/definitions/num\"}}}},\"type\":\"object\","
			  "\"required\":[\"a\"],\"additionalProperties\":false,\"properties\":{\"a\":"
			  "{\"anyOf\":[{\"$ref\":\"#/definitions/num\"},{\"$ref\":\"#/definitions/m\"}]}}}";
	cr_expect_str_eq(validate(num, "{\"a\":\"banana\"}", &m), "1:\"banana\" is not a number|",
			 "a titled schema speaks for itself");
	cr_expect_str_eq(validate(num, "{\"a\":{\"ge\":-1}}", &m), "2:-1 is not a number|",
			 "the alternative whose type fits is the one reported");
	cr_expect_str_eq(validate(num, "{\"a\":{\"gt\":1}}", &m), "1:unknown key \"gt\"|");
	cr_expect_str_eq(validate(num, "{}", &m), "0:missing key \"a\"|");
	cr_expect_str_eq(validate(num, "[]", &m), "0:[] is not an object|");
	cr_expect_str_eq(validate(num, "{\"a\":1.5}", &m),
			 "1:1.5 is not an object, a string or an integer|",
			 "no alternative takes a real: the types that would");
	cr_expect_str_eq(validate(num, "{\"a\":7}", &m), "");
}

/* ---- the vector schema ---- */

static json_t *schema_json(void)
{
	json_t *j = json_loads(vector_schema_json, JSON_REJECT_DUPLICATES, NULL);
	cr_assert(j);
	return j;
}

Test(vector_schema, compiled_in_is_the_file)
{
	FILE *f = fopen("vectors/schemas/vector_file.schema.json", "rb");
	cr_assert(f, "run from the repository root");
	static char text[1 << 20];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	cr_expect_str_eq(vector_schema_json, text);
	char err[256];
	json_t *j = schema_json();
	struct jschema *s = jschema_compile(j, err, sizeof err);
	cr_expect(s, "%s", err);
	jschema_free(s);
	json_decref(j);
}

/* The then-branch of the event kind's if/then in definitions/event. */
static const json_t *event_props(const json_t *schema, const char *kind)
{
	size_t i;
	json_t *branch;
	const json_t *ev = json_object_get(json_object_get(schema, "definitions"), "event");
	json_array_foreach(json_object_get(ev, "allOf"), i, branch)
	{
		const json_t *c = json_object_get(json_object_get(json_object_get(
							  json_object_get(branch, "if"), "properties"),
						  "event"),
					  "const");
		if (json_is_string(c) && !strcmp(json_string_value(c), kind))
			return json_object_get(json_object_get(branch, "then"), "properties");
	}
	return NULL;
}

/* Kinds the schema names ahead of the trace: the send engine's events (TX_SPEC "Frames out"),
 * which the send engine adds to NICREF_EVENT_KINDS; once it does, they are checked like any. */
static const char *const awaited_kinds[] = { "frame_out", "tx_loopback", "tx_discard" };

Test(vector_schema, events_are_the_trace_kinds)
{
	json_t *s = schema_json();
	const json_t *kinds = json_object_get(json_object_get(json_object_get(
		json_object_get(json_object_get(s, "definitions"), "event"), "properties"), "event"),
		"enum");
	size_t awaited = 0;
	for (size_t i = 0; i < sizeof awaited_kinds / sizeof awaited_kinds[0]; i++) {
		awaited += nicref_event_kind_find(awaited_kinds[i]) < 0;
		cr_expect(event_props(s, awaited_kinds[i]), "no if/then for %s", awaited_kinds[i]);
	}
	cr_expect_eq(json_array_size(kinds), NICREF_EV_COUNT + awaited,
		     "the schema's event kinds: the trace's and the awaited ones not in it yet");
	for (unsigned k = 0; k < NICREF_EV_COUNT; k++) {
		const char *name = nicref_event_name((enum nicref_event_kind)k);
		const json_t *props = event_props(s, name);
		cr_assert(props, "no if/then for %s", name);
		bool clause = k == NICREF_EV_VIOLATION || k == NICREF_EV_CMD_FAIL;
		cr_expect_eq(json_object_size(props), 1 + nicref_event_nargs(k) + clause,
			     "%s: event, its arguments%s", name, clause ? " and clause" : "");
		for (unsigned a = 0; a < nicref_event_nargs(k); a++) {
			const char *arg = nicref_event_arg_name(k, a);
			cr_expect(json_object_get(props, arg), "%s.%s not in the schema", name, arg);
			cr_expect(ev_arg_find(k, arg), "%s.%s has no width in the runner", name, arg);
		}
	}
	json_decref(s);
}

static bool same_keys(const json_t *a, const json_t *b, const char *const *except)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v)
	{
		bool skip = false;
		for (unsigned i = 0; except[i]; i++)
			skip = skip || !strcmp(except[i], k);
		if (!skip && !json_equal(v, json_object_get(b, k)))
			return false;
	}
	return true;
}

Test(vector_schema, expectations_agree)
{
	/* expect, its alternatives and completion list the same keys (the schema language has no
	 * way to say "these keys and those", so they are written three times). */
	json_t *s = schema_json();
	const json_t *d = json_object_get(s, "definitions");
	const json_t *e = json_object_get(json_object_get(d, "expect"), "properties");
	const json_t *a = json_object_get(json_object_get(d, "expectAlternative"), "properties");
	const json_t *c = json_object_get(json_object_get(d, "completion"), "properties");
	static const char *const none[] = { NULL }, *const any[] = { "any_of", NULL },
				 *const reading[] = { "reading", NULL },
				 *const slot[] = { "slot", NULL };
	cr_expect(same_keys(e, c, none) && same_keys(c, e, slot), "completion = expect + slot");
	cr_expect(same_keys(e, a, any) && same_keys(a, e, reading),
		  "an alternative = expect - any_of + reading");
	json_decref(s);
}
