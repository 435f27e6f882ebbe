/* The JSON Schema subset of jschema.h: a compile step that refuses whatever it does not
 * support, and a validator that walks schema and instance together. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jschema.h"
#include "jsregex.h"

#define DRAFT07 "http://json-schema.org/draft-07/schema#"
#define REF_PREFIX "#/definitions/"

struct pattern {
	const json_t *node; /* the schema object holding the pattern */
	struct jsregex *re;
};

struct jschema {
	json_t *root;
	const json_t *defs;
	struct pattern *pat;
	size_t npat, cappat;
};

/* ---- compiling: every keyword known and well-formed ---- */

struct compile {
	struct jschema *s;
	char *err;
	size_t errlen;
	char where[512]; /* schema path, for messages */
};

static int refuse(struct compile *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "schema %s: %s", c->where[0] ? c->where : "(root)", msg);
	return -1;
}

static bool is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

static const char *const type_names[] = { "object", "array",   "string", "integer",
					  "number", "boolean", "null" };

static bool known_type(const json_t *v)
{
	for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
		if (json_is_string(v) && strcmp(json_string_value(v), type_names[i]) == 0)
			return true;
	return false;
}

static int compile_node(struct compile *c, const json_t *node, bool root);

/* Compiles the schema under key (a child of the current one), extending the path. */
static int compile_child(struct compile *c, const json_t *node, const char *key, long index)
{
	size_t len = strlen(c->where);
	if (index >= 0)
		snprintf(c->where + len, sizeof c->where - len, "/%s/%ld", key, index);
	else
		snprintf(c->where + len, sizeof c->where - len, "/%s", key);
	int rc = compile_node(c, node, false);
	c->where[len] = '\0';
	return rc;
}

static int compile_list(struct compile *c, const json_t *v, const char *key)
{
	size_t i;
	json_t *sub;
	if (!json_is_array(v) || json_array_size(v) == 0)
		return refuse(c, "%s must be a non-empty array of schemas", key);
	json_array_foreach(v, i, sub) if (compile_child(c, sub, key, (long)i) != 0) return -1;
	return 0;
}

static int compile_pattern(struct compile *c, const json_t *node, const json_t *v)
{
	char err[160];
	if (!json_is_string(v))
		return refuse(c, "pattern must be a string");
	struct jsregex *re = jsregex_compile(json_string_value(v), err, sizeof err);
	if (!re)
		return refuse(c, "pattern %s: %s", json_string_value(v), err);
	struct jschema *s = c->s;
	if (s->npat == s->cappat) {
		size_t cap = s->cappat ? 2 * s->cappat : 16;
		struct pattern *p = realloc(s->pat, cap * sizeof *p);
		if (!p) {
			jsregex_free(re);
			return refuse(c, "out of memory");
		}
		s->pat = p;
		s->cappat = cap;
	}
	s->pat[s->npat++] = (struct pattern){ node, re };
	return 0;
}

static int compile_keyword(struct compile *c, const json_t *node, const char *k, const json_t *v,
			   bool root)
{
	if (!strcmp(k, "$schema"))
		return root && json_is_string(v) && !strcmp(json_string_value(v), DRAFT07)
			       ? 0
			       : refuse(c, "$schema must be \"%s\", at the root", DRAFT07);
	if (!strcmp(k, "$id") || !strcmp(k, "$comment") || !strcmp(k, "title") ||
	    !strcmp(k, "description"))
		return json_is_string(v) ? 0 : refuse(c, "%s must be a string", k);
	if (!strcmp(k, "definitions")) {
		const char *name;
		json_t *sub;
		if (!root || !json_is_object(v))
			return refuse(c, "definitions must be an object, at the root");
		json_object_foreach((json_t *)v, name, sub) if (compile_child(c, sub, name, -1) != 0) return -1;
		return 0;
	}
	if (!strcmp(k, "$ref")) {
		const char *ref = json_is_string(v) ? json_string_value(v) : "";
		if (json_object_size(node) != 1)
			return refuse(c, "$ref must stand alone (draft-07 ignores its siblings)");
		if (strncmp(ref, REF_PREFIX, strlen(REF_PREFIX)) != 0 || !c->s->defs ||
		    !json_object_get(c->s->defs, ref + strlen(REF_PREFIX)))
			return refuse(c, "$ref %s resolves to no definition", ref);
		return 0;
	}
	if (!strcmp(k, "type")) {
		size_t i;
		json_t *t;
		if (json_is_array(v)) {
			json_array_foreach(v, i, t) if (!known_type(t)) return refuse(c, "bad type");
			return json_array_size(v) ? 0 : refuse(c, "empty type list");
		}
		return known_type(v) ? 0 : refuse(c, "bad type");
	}
	if (!strcmp(k, "const"))
		return 0;
	if (!strcmp(k, "enum"))
		return json_is_array(v) && json_array_size(v) ? 0 : refuse(c, "enum must be a list");
	if (!strcmp(k, "properties")) {
		const char *name;
		json_t *sub;
		if (!json_is_object(v))
			return refuse(c, "properties must be an object");
		json_object_foreach((json_t *)v, name, sub)
		{
			size_t len = strlen(c->where);
			snprintf(c->where + len, sizeof c->where - len, "/properties");
			int rc = compile_child(c, sub, name, -1);
			c->where[len] = '\0';
			if (rc)
				return -1;
		}
		return 0;
	}
	if (!strcmp(k, "required")) {
		size_t i;
		json_t *t;
		if (!json_is_array(v))
			return refuse(c, "required must be a list of names");
		json_array_foreach(v, i, t) if (!json_is_string(t)) return refuse(c, "required: names");
		return 0;
	}
	if (!strcmp(k, "additionalProperties"))
		return json_is_false(v) ? 0 : compile_child(c, v, k, -1);
	if (!strcmp(k, "items") || !strcmp(k, "if") || !strcmp(k, "then"))
		return compile_child(c, v, k, -1);
	if (!strcmp(k, "allOf") || !strcmp(k, "anyOf") || !strcmp(k, "oneOf"))
		return compile_list(c, v, k);
	if (!strcmp(k, "pattern"))
		return compile_pattern(c, node, v);
	if (!strcmp(k, "minProperties") || !strcmp(k, "maxProperties") || !strcmp(k, "minItems") ||
	    !strcmp(k, "maxItems") || !strcmp(k, "minLength") || !strcmp(k, "maxLength"))
		return is_count(v) ? 0 : refuse(c, "%s must be an integer >= 0", k);
	if (!strcmp(k, "minimum") || !strcmp(k, "maximum"))
		return json_is_integer(v) ? 0 : refuse(c, "%s must be an integer", k);
	return refuse(c, "unsupported keyword \"%s\" (the runner would not apply it)", k);
}

static int compile_node(struct compile *c, const json_t *node, bool root)
{
	const char *k;
	json_t *v;
	if (!json_is_object(node))
		return refuse(c, "a schema must be an object");
	if (json_object_get(node, "then") && !json_object_get(node, "if"))
		return refuse(c, "then without if");
	json_object_foreach((json_t *)node, k, v) if (compile_keyword(c, node, k, v, root) != 0) return -1;
	return 0;
}

struct jschema *jschema_compile(const json_t *schema, char *err, size_t errlen)
{
	struct jschema *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->root = json_deep_copy(schema);
	s->defs = json_object_get(s->root, "definitions");
	struct compile c = { s, err, errlen, "" };
	if (!s->root || compile_node(&c, s->root, true) != 0) {
		if (!s->root)
			snprintf(err, errlen, "out of memory");
		jschema_free(s);
		return NULL;
	}
	return s;
}

void jschema_free(struct jschema *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->npat; i++)
		jsregex_free(s->pat[i].re);
	free(s->pat);
	json_decref(s->root);
	free(s);
}

/* ---- validating ---- */

struct err {
	struct jpath where;
	char *msg;
};

struct errs {
	struct err *v;
	size_t n, cap;
};

static void errs_free(struct errs *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].msg);
	free(e->v);
	memset(e, 0, sizeof *e);
}

static void errs_add(struct errs *e, const struct jpath *where, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 8;
		struct err *v = realloc(e->v, cap * sizeof *v);
		if (!v)
			return;
		e->v = v;
		e->cap = cap;
	}
	char *m = strdup(msg);
	if (!m)
		return;
	e->v[e->n].where = *where;
	e->v[e->n].msg = m;
	e->n++;
}

/* Moves every failure of from into to. */
static void errs_move(struct errs *to, struct errs *from)
{
	for (size_t i = 0; i < from->n; i++) {
		errs_add(to, &from->v[i].where, "%s", from->v[i].msg);
	}
	errs_free(from);
}

void jschema_value_text(const json_t *v, char *buf, size_t len)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	if (!s) {
		snprintf(buf, len, "?");
		return;
	}
	size_t n = strlen(s);
	if (n < len) {
		memcpy(buf, s, n + 1);
	} else if (len > 4) {
		size_t cut = len - 4;
		while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut--; /* never split a UTF-8 character */
		memcpy(buf, s, cut);
		memcpy(buf + cut, "...", 4);
	} else if (len) {
		buf[0] = '\0';
	}
	free(s);
}

static const char *kind_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "object";
	case JSON_ARRAY:
		return "array";
	case JSON_STRING:
		return "string";
	case JSON_INTEGER:
		return "integer";
	case JSON_REAL:
		return "number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "boolean";
	default:
		return "null";
	}
}

static const char *article(const char *type)
{
	return strchr("aeiou", type[0]) ? "an" : "a";
}

static bool type_admits(const char *type, const json_t *v)
{
	if (!strcmp(type, "number"))
		return json_is_number(v);
	return !strcmp(type, kind_of(v));
}

static bool types_admit(const json_t *t, const json_t *v)
{
	size_t i;
	json_t *one;
	if (json_is_string(t))
		return type_admits(json_string_value(t), v);
	json_array_foreach(t, i, one) if (type_admits(json_string_value(one), v)) return true;
	return false;
}

static const json_t *resolve(const struct jschema *s, const json_t *node)
{
	const json_t *ref;
	while ((ref = json_object_get(node, "$ref")))
		node = json_object_get(s->defs, json_string_value(ref) + strlen(REF_PREFIX));
	return node;
}

/* Whether the value's JSON type could satisfy the schema (used to pick, among failed
 * alternatives, the one the author meant). */
static bool could_admit(const struct jschema *s, const json_t *node, const json_t *v)
{
	node = resolve(s, node);
	const json_t *t = json_object_get(node, "type"), *alts;
	if (t)
		return types_admit(t, v);
	if ((alts = json_object_get(node, "anyOf")) || (alts = json_object_get(node, "oneOf"))) {
		size_t i;
		json_t *a;
		json_array_foreach(alts, i, a) if (could_admit(s, a, v)) return true;
		return false;
	}
	if ((t = json_object_get(node, "const")))
		return json_typeof(t) == json_typeof(v);
	if ((alts = json_object_get(node, "enum"))) {
		size_t i;
		json_t *a;
		json_array_foreach(alts, i, a) if (json_typeof(a) == json_typeof(v)) return true;
		return false;
	}
	return true;
}

/* The JSON types a schema could accept, as bits of type_names (all when it says nothing). */
static unsigned admitted_types(const struct jschema *s, const json_t *node)
{
	unsigned all = (1u << (sizeof type_names / sizeof type_names[0])) - 1, m = 0;
	node = resolve(s, node);
	const json_t *t = json_object_get(node, "type"), *alts;
	size_t i;
	json_t *a;
	if (t) {
		for (size_t k = 0; k < sizeof type_names / sizeof type_names[0]; k++) {
			json_t *name = json_string(type_names[k]);
			bool in = json_is_string(t) ? json_equal(t, name) : false;
			json_array_foreach(json_is_array(t) ? t : NULL, i, a) in = in || json_equal(a, name);
			json_decref(name);
			if (in)
				m |= 1u << k;
		}
		return m;
	}
	if ((alts = json_object_get(node, "anyOf")) || (alts = json_object_get(node, "oneOf"))) {
		json_array_foreach(alts, i, a) m |= admitted_types(s, a);
		return m;
	}
	return all;
}

static struct jsregex *pattern_of(const struct jschema *s, const json_t *node)
{
	for (size_t i = 0; i < s->npat; i++)
		if (s->pat[i].node == node)
			return s->pat[i].re;
	return NULL;
}

static size_t utf8_chars(const char *p)
{
	size_t n = 0;
	for (; *p; p++)
		n += ((unsigned char)*p & 0xC0) != 0x80;
	return n;
}

static size_t check(const struct jschema *s, const json_t *node, const json_t *v,
		    struct jpath *at, struct errs *e);

static void push_key(struct jpath *at, const char *key)
{
	if (at->n < JPATH_MAX) {
		at->seg[at->n].key = key;
		at->seg[at->n].index = 0;
	}
	at->n++;
}

static void push_index(struct jpath *at, size_t i)
{
	if (at->n < JPATH_MAX) {
		at->seg[at->n].key = NULL;
		at->seg[at->n].index = i;
	}
	at->n++;
}

static size_t check_object(const struct jschema *s, const json_t *node, const json_t *v,
			   struct jpath *at, struct errs *e)
{
	size_t before = e->n, i;
	const json_t *props = json_object_get(node, "properties");
	const json_t *extra = json_object_get(node, "additionalProperties");
	const json_t *req = json_object_get(node, "required"), *r, *lim;
	const char *k;
	json_t *x;
	json_array_foreach(req, i, r)
	{
		if (!json_object_get(v, json_string_value(r)))
			errs_add(e, at, "missing key \"%s\"", json_string_value(r));
	}
	json_object_foreach((json_t *)v, k, x)
	{
		const json_t *sub = json_object_get(props, k);
		if (!sub && json_is_false(extra)) {
			errs_add(e, at, "unknown key \"%s\"", k);
			continue;
		}
		if (!sub)
			sub = extra;
		if (sub) {
			push_key(at, k);
			check(s, sub, x, at, e);
			at->n--;
		}
	}
	size_t n = json_object_size(v);
	if ((lim = json_object_get(node, "minProperties")) && n < (size_t)json_integer_value(lim))
		errs_add(e, at, "has %zu key%s, at least %lld needed", n, n == 1 ? "" : "s",
			 (long long)json_integer_value(lim));
	if ((lim = json_object_get(node, "maxProperties")) && n > (size_t)json_integer_value(lim))
		errs_add(e, at, "has %zu keys, at most %lld allowed", n,
			 (long long)json_integer_value(lim));
	return e->n - before;
}

static size_t check_array(const struct jschema *s, const json_t *node, const json_t *v,
			  struct jpath *at, struct errs *e)
{
	size_t before = e->n, n = json_array_size(v), i;
	const json_t *items = json_object_get(node, "items"), *lim;
	json_t *x;
	if ((lim = json_object_get(node, "minItems")) && n < (size_t)json_integer_value(lim))
		errs_add(e, at, "has %zu item%s, at least %lld needed", n, n == 1 ? "" : "s",
			 (long long)json_integer_value(lim));
	if ((lim = json_object_get(node, "maxItems")) && n > (size_t)json_integer_value(lim))
		errs_add(e, at, "has %zu items, at most %lld allowed", n,
			 (long long)json_integer_value(lim));
	if (items)
		json_array_foreach(v, i, x)
		{
			push_index(at, i);
			check(s, items, x, at, e);
			at->n--;
		}
	return e->n - before;
}

static void check_scalar(const struct jschema *s, const json_t *node, const json_t *v,
			 struct jpath *at, struct errs *e)
{
	const json_t *k;
	char text[96] = "";
#define TEXT() (text[0] ? text : (jschema_value_text(v, text, sizeof text), text))
	if ((k = json_object_get(node, "const")) && !json_equal((json_t *)k, (json_t *)v)) {
		char want[96];
		jschema_value_text(k, want, sizeof want);
		errs_add(e, at, "%s is not %s", TEXT(), want);
	}
	if ((k = json_object_get(node, "enum"))) {
		size_t i;
		json_t *one;
		bool found = false;
		json_array_foreach(k, i, one) found = found || json_equal(one, (json_t *)v);
		if (!found) {
			/* Every allowed value, or as many as fit and how many more: a list cut
			 * without saying so would tell the user a name is not allowed. */
			char list[768] = "", item[64];
			json_array_foreach(k, i, one)
			{
				jschema_value_text(one, item, sizeof item);
				size_t len = strlen(list);
				if (len + strlen(item) + 2 + 24 >= sizeof list) {
					snprintf(list + len, sizeof list - len, ", ... (%zu more)",
						 json_array_size(k) - i);
					break;
				}
				snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", item);
			}
			errs_add(e, at, "%s is not one of %s", TEXT(), list);
		}
	}
	if (json_is_string(v)) {
		const char *str = json_string_value(v);
		struct jsregex *re = pattern_of(s, node);
		size_t chars = utf8_chars(str);
		if (re && !jsregex_search(re, str, json_string_length(v)))
			errs_add(e, at, "%s does not match %s", TEXT(),
				 json_string_value(json_object_get(node, "pattern")));
		if ((k = json_object_get(node, "minLength")) && chars < (size_t)json_integer_value(k))
			errs_add(e, at, "%s is shorter than %lld character%s", TEXT(),
				 (long long)json_integer_value(k), json_integer_value(k) == 1 ? "" : "s");
		if ((k = json_object_get(node, "maxLength")) && chars > (size_t)json_integer_value(k))
			errs_add(e, at, "%s is longer than %lld characters", TEXT(),
				 (long long)json_integer_value(k));
	}
	if (json_is_integer(v)) {
		json_int_t x = json_integer_value(v);
		if ((k = json_object_get(node, "minimum")) && x < json_integer_value(k))
			errs_add(e, at, "%s is below the minimum %lld", TEXT(),
				 (long long)json_integer_value(k));
		if ((k = json_object_get(node, "maximum")) && x > json_integer_value(k))
			errs_add(e, at, "%s is above the maximum %lld", TEXT(),
				 (long long)json_integer_value(k));
	}
#undef TEXT
}

/* anyOf / oneOf: count the alternatives that hold; when none does, report the failures of the
 * one alternative whose types admit the value, or one line. */
static void check_alternatives(const struct jschema *s, const json_t *node, const char *kw,
			       const json_t *v, struct jpath *at, struct errs *e)
{
	const json_t *alts = json_object_get(node, kw), *a;
	size_t i, held = 0, admitting = 0;
	struct errs best = { 0 };
	json_array_foreach(alts, i, a)
	{
		struct errs one = { 0 };
		if (check(s, a, v, at, &one) == 0) {
			held++;
		} else if (could_admit(s, a, v)) {
			admitting++;
			if (admitting == 1) {
				best = one;
				continue;
			}
		}
		errs_free(&one);
	}
	char text[96];
	if (held == 1 || (held > 1 && strcmp(kw, "oneOf"))) {
		errs_free(&best);
		return; /* the common case: no message */
	}
	if (held == 0 && admitting == 1) {
		errs_move(e, &best);
		return;
	}
	jschema_value_text(v, text, sizeof text);
	if (held == 0 && admitting == 0) {
		/* The value's type fits no alternative: say which types would. */
		unsigned m = 0;
		char want[160] = "";
		size_t len = 0, n = 0, k;
		json_array_foreach(alts, i, a) m |= admitted_types(s, a);
		for (k = 0; k < sizeof type_names / sizeof type_names[0]; k++)
			n += m >> k & 1u;
		for (k = 0, i = 0; k < sizeof type_names / sizeof type_names[0]; k++)
			if (m >> k & 1u) {
				i++;
				len += (size_t)snprintf(want + len, len < sizeof want ? sizeof want - len : 0,
							"%s%s %s", i == 1 ? "" : i == n ? " or " : ", ",
							article(type_names[k]), type_names[k]);
			}
		errs_add(e, at, "%s is not %s", text, want);
	} else if (held == 0)
		errs_add(e, at, "%s is none of the forms allowed here", text);
	else if (held > 1 && !strcmp(kw, "oneOf"))
		errs_add(e, at, "%s matches more than one form (oneOf)", text);
	errs_free(&best);
}

static size_t check_untitled(const struct jschema *s, const json_t *node, const json_t *v,
			     struct jpath *at, struct errs *e)
{
	size_t before = e->n, i;
	const json_t *t = json_object_get(node, "type"), *sub;
	json_t *a;
	if (json_object_get(node, "$ref"))
		return check(s, resolve(s, node), v, at, e);
	if (t && !types_admit(t, v)) {
		char text[96], want[160] = "";
		jschema_value_text(v, text, sizeof text);
		if (json_is_string(t)) {
			snprintf(want, sizeof want, "%s %s", article(json_string_value(t)),
				 json_string_value(t));
		} else {
			json_array_foreach(t, i, a)
			{
				size_t len = strlen(want);
				snprintf(want + len, sizeof want - len, "%s%s %s", i ? " or " : "",
					 article(json_string_value(a)), json_string_value(a));
			}
		}
		errs_add(e, at, "%s is not %s", text, want);
		return e->n - before;
	}
	check_scalar(s, node, v, at, e);
	if (json_is_object(v))
		check_object(s, node, v, at, e);
	if (json_is_array(v))
		check_array(s, node, v, at, e);
	json_array_foreach(json_object_get(node, "allOf"), i, a) check(s, a, v, at, e);
	if (json_object_get(node, "anyOf"))
		check_alternatives(s, node, "anyOf", v, at, e);
	if (json_object_get(node, "oneOf"))
		check_alternatives(s, node, "oneOf", v, at, e);
	if ((sub = json_object_get(node, "if"))) {
		struct errs cond = { 0 };
		size_t failed = check(s, sub, v, at, &cond);
		errs_free(&cond);
		if (!failed && (sub = json_object_get(node, "then")))
			check(s, sub, v, at, e);
	}
	return e->n - before;
}

static size_t check(const struct jschema *s, const json_t *node, const json_t *v,
		    struct jpath *at, struct errs *e)
{
	const json_t *title = json_object_get(node, "title");
	if (!title || node == s->root)
		return check_untitled(s, node, v, at, e);
	struct errs inner = { 0 };
	size_t n = check_untitled(s, node, v, at, &inner);
	errs_free(&inner);
	if (n) {
		char text[96];
		jschema_value_text(v, text, sizeof text);
		errs_add(e, at, "%s is not %s", text, json_string_value(title));
		return 1;
	}
	return 0;
}

size_t jschema_validate(const struct jschema *s, const json_t *inst, jschema_report_fn report,
			void *ctx)
{
	struct errs e = { 0 };
	struct jpath at;
	at.n = 0;
	check(s, s->root, inst, &at, &e);
	size_t n = e.n;
	for (size_t i = 0; i < e.n; i++)
		report(ctx, &e.v[i].where, e.v[i].msg);
	errs_free(&e);
	return n;
}
