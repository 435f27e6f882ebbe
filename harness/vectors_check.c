/* A vector file before anything runs: JSON without duplicate keys, the schema (compiled in,
 * harness/jschema.h), then what a schema cannot say: tcIds unique, numberOfTests right, every
 * flag explained in notes, the group's profile and capabilities possible, and every step
 * checked by the step itself (vectors_steps.c, vectors_tx.c) with r->checking set: names,
 * widths, address ranges, slots posted before a completion, fault ranges per test, a send
 * queue set up before a WQE is posted to it. A file the schema refuses
 * gets only the schema's messages (the rest would repeat them). */
#include <stdlib.h>
#include <string.h>

#include "vectors_int.h"

/* "testGroups/0/tests/3/steps/2/command/expect/ownership": the location (group, test, step)
 * into r and the rest as "expect.ownership". */
static void schema_report(void *ctx, const struct jpath *at, const char *msg)
{
	struct run *r = ctx;
	const json_t *doc = r->doc;
	unsigned n = at->n < JPATH_MAX ? at->n : JPATH_MAX, i = 0;
	char field[512] = "";
	size_t len = 0;
	const json_t *g = NULL;
#define SEG(k, name) (i + (k) < n && at->seg[i + (k)].key && !strcmp(at->seg[i + (k)].key, name))
#define IDX(k) (i + (k) < n && !at->seg[i + (k)].key)
	if (SEG(0, "testGroups") && IDX(1)) {
		r->group = (long)at->seg[i + 1].index;
		g = json_array_get(json_object_get(doc, "testGroups"), at->seg[i + 1].index);
		i += 2;
		if (SEG(0, "tests") && IDX(1)) {
			const json_t *t = json_array_get(json_object_get(g, "tests"), at->seg[i + 1].index);
			const json_t *id = json_object_get(t, "tcId");
			if (json_is_integer(id) && json_integer_value(id) >= 0) {
				r->tc_id = (long)json_integer_value(id);
			} else {
				len += (size_t)snprintf(field, sizeof field, "tests[%zu]",
							at->seg[i + 1].index);
			}
			i += 2;
			if (SEG(0, "steps") && IDX(1)) {
				r->step = (long)at->seg[i + 1].index;
				i += 2;
			}
		} else if (SEG(0, "setup") && IDX(1)) {
			r->step = (long)at->seg[i + 1].index;
			r->in_setup = true;
			i += 2;
		}
		if (r->step >= 0 && i < n && at->seg[i].key) {
			r->kind = at->seg[i].key;
			i++;
		}
	}
	for (; i < n; i++) {
		if (at->seg[i].key)
			len += (size_t)snprintf(field + len, len < sizeof field ? sizeof field - len : 0,
						"%s%s", len ? "." : "", at->seg[i].key);
		else
			len += (size_t)snprintf(field + len, len < sizeof field ? sizeof field - len : 0,
						"[%zu]", at->seg[i].index);
	}
#undef SEG
#undef IDX
	if (len >= sizeof field)
		field[sizeof field - 1] = '\0';
	vbad(r, field[0] ? field : (at->n ? NULL : "top level"), "%s", msg);
	r->group = r->tc_id = r->step = -1;
	r->in_setup = false;
	r->kind = NULL;
}

/* Whether a step compares something with the device (docs/vectors.md "Test": a test whose
 * steps compare nothing would pass whatever the device did). A command rung checks at least
 * its delivery and ownership; the LRO group's commands their status (default OK); a list of
 * frames, CQEs or events compares when it lists one or says nothing else came (exact). The
 * stimuli and the setups by the reference driver (bring_up, tx_setup, rx_setup, steer,
 * qp_setup, ...) compare nothing of the test's own. */
static bool list_compares(const json_t *v, bool exact_default)
{
	const json_t *ex = json_object_get(v, "exact");
	return json_object_get(v, "any_of") || json_array_size(json_object_get(v, "expect")) ||
	       (ex ? json_is_true(ex) : exact_default);
}

static bool step_compares(const json_t *step)
{
	static const char *const always[] = { "completion",    "mem_expect", "flow_counters",
					      "adp_timeline",  "expect",     "link_counters",
					      "modify_tir",    "destroy_tir", "rq_state" };
	const char *kind;
	const json_t *v;
	json_object_foreach((json_t *)step, kind, v)
	{
		if (!strcmp(kind, "dev"))
			continue;
		for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
			if (!strcmp(kind, always[i]))
				return true;
		if (!strcmp(kind, "command"))
			return !json_is_false(json_object_get(v, "ring"));
		if (!strcmp(kind, "bar_read"))
			return json_object_get(v, "expect") != NULL;
		if (!strcmp(kind, "events"))
			return list_compares(v, false);
		if (!strcmp(kind, "frames") || !strcmp(kind, "cqes"))
			return list_compares(v, true);
	}
	return false;
}

/* ---- whether an any_of's alternatives are different outcomes (result "acceptable") ----
 * Alternatives are compared by what they expect, not by their JSON text: "OK" and 0 are one
 * status, "0x00" and 0 one number, "0x00 01" and "0001" the same bytes, {"eq": 3} and 3 one
 * comparator, {"in": [1, 0]} and {"in": [0, 1, 1]} one set, a missing delivery or ownership
 * their default, a missing exact its step's default. (A matcher that holds for every value or
 * for none never gets here: cmp_check refused it.) */

/* The name space of a position's names, by its key (the check took each name in its own). */
static enum name_space key_space(const char *key)
{
	static const struct {
		const char *key;
		enum name_space ns;
	} spaces[] = { { "status", NS_STATUS },	      { "delivery", NS_DELIVERY },
		       { "opcode", NS_OPCODE },	      { "s_wqe_opcode", NS_WQE_OPCODE },
		       { "cause", NS_LRO_CAUSE },     { "rule", NS_VIOLATION } };
	for (size_t i = 0; key && i < sizeof spaces / sizeof spaces[0]; i++)
		if (!strcmp(key, spaces[i].key))
			return spaces[i].ns;
	return NS_NONE;
}

static int resolve(const char *key, const json_t *v, uint64_t *out)
{
	enum name_space ns = key_space(key);
	if (jv_num(v, ns, 64, out, NULL, 0) == 0)
		return 0;
	return ns == NS_VIOLATION ? jv_num(v, NS_CMD_RULE, 64, out, NULL, 0) : -1;
}

static bool is_matcher(const json_t *v)
{
	static const char *const keys[] = { "eq", "ne", "ge", "le", "in", "mask" };
	const char *key;
	const json_t *x;
	if (!json_is_object(v) || !json_object_size(v))
		return false;
	json_object_foreach((json_t *)v, key, x)
	{
		size_t k = 0;
		while (k < sizeof keys / sizeof keys[0] && strcmp(keys[k], key))
			k++;
		if (k == sizeof keys / sizeof keys[0])
			return false;
	}
	return true;
}

/* A comparator's keys as numbers: a plain value x is {"eq": x}; eq and in one sorted set. */
struct canon {
	uint64_t mask, lo, hi, ne;
	bool has_ne, has_set;
	uint64_t set[64];
	size_t n;
	bool too_big; /* more than 64 listed values: compared as JSON */
};

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void canon_add(struct canon *c, uint64_t v)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->set[i] == v)
			return;
	if (c->n == sizeof c->set / sizeof c->set[0])
		c->too_big = true;
	else
		c->set[c->n++] = v;
}

static int canon_of(const char *key, const json_t *v, struct canon *c)
{
	const json_t *x, *one;
	uint64_t w;
	size_t i;
	*c = (struct canon){ .mask = UINT64_MAX, .hi = UINT64_MAX };
	if (!json_is_object(v)) {
		if (resolve(key, v, &w))
			return -1;
		c->has_set = true;
		canon_add(c, w);
		return 0;
	}
	if ((x = json_object_get(v, "mask")) && resolve(NULL, x, &c->mask))
		return -1;
	if ((x = json_object_get(v, "ge")) && resolve(key, x, &c->lo))
		return -1;
	if ((x = json_object_get(v, "le")) && resolve(key, x, &c->hi))
		return -1;
	if ((x = json_object_get(v, "ne"))) {
		if (resolve(key, x, &c->ne))
			return -1;
		c->has_ne = true;
	}
	if ((x = json_object_get(v, "eq"))) {
		if (resolve(key, x, &w))
			return -1;
		c->has_set = true;
		canon_add(c, w);
	}
	if ((x = json_object_get(v, "in"))) {
		struct canon in = { 0 };
		json_array_foreach(x, i, one)
		{
			if (resolve(key, one, &w))
				return -1;
			canon_add(&in, w);
		}
		if (c->has_set) { /* eq and in: eq if it is listed, else nothing */
			bool listed = false;
			for (i = 0; i < in.n; i++)
				listed = listed || in.set[i] == c->set[0];
			c->n = listed ? 1 : 0;
		} else {
			memcpy(c->set, in.set, sizeof c->set);
			c->n = in.n;
			c->too_big = in.too_big;
			c->has_set = true;
		}
	}
	qsort(c->set, c->n, sizeof c->set[0], u64_cmp);
	return 0;
}

static bool same_canon(const struct canon *a, const struct canon *b)
{
	return a->mask == b->mask && a->lo == b->lo && a->hi == b->hi &&
	       a->has_ne == b->has_ne && (!a->has_ne || a->ne == b->ne) &&
	       a->has_set == b->has_set && a->n == b->n &&
	       !memcmp(a->set, b->set, a->n * sizeof a->set[0]);
}

/* Hex bytes of both (a wide field, a hex or output_hex), the same. */
static bool same_hex(const json_t *a, const json_t *b, bool *same)
{
	long na = json_is_string(a) ? hex_length(json_string_value(a)) : -1;
	long nb = json_is_string(b) ? hex_length(json_string_value(b)) : -1;
	if (na < 0 || nb < 0)
		return false;
	*same = false;
	if (na == nb) {
		uint8_t *x = malloc((size_t)na + 1), *y = malloc((size_t)nb + 1);
		*same = x && y && hex_parse(json_string_value(a), x, (size_t)na) == na &&
			hex_parse(json_string_value(b), y, (size_t)nb) == nb &&
			!memcmp(x, y, (size_t)na);
		free(x);
		free(y);
	}
	return true;
}

/* The default of a key an alternative leaves out (NULL: none; the alternatives differ). */
static const json_t *key_default(const char *key, bool exact_default)
{
	if (!strcmp(key, "exact"))
		return exact_default ? json_true() : json_false();
	return NULL;
}

static bool same_value(const char *key, const json_t *a, const json_t *b, bool exact_default);

static bool same_object(const json_t *a, const json_t *b, bool exact_default)
{
	const char *key;
	const json_t *x, *y;
	for (int pass = 0; pass < 2; pass++) {
		json_object_foreach((json_t *)(pass ? b : a), key, x)
		{
			if (!strcmp(key, "reading"))
				continue;
			y = json_object_get(pass ? a : b, key);
			if (pass && y)
				continue; /* compared in the first pass */
			if (!y && (!strcmp(key, "delivery") || !strcmp(key, "ownership"))) {
				/* the defaults OK and 0 (docs/vectors.md "expect") */
				uint64_t w;
				if (is_matcher(x) || resolve(key, x, &w) || w)
					return false;
				continue;
			}
			if (!y && !(y = key_default(key, exact_default)))
				return false;
			if (!(pass ? same_value(key, y, x, exact_default)
				   : same_value(key, x, y, exact_default)))
				return false;
		}
	}
	return true;
}

static bool same_value(const char *key, const json_t *a, const json_t *b, bool exact_default)
{
	struct canon ca, cb;
	bool same;
	size_t i;
	if (is_matcher(a) || is_matcher(b) || (!json_is_object(a) && !json_is_array(a) &&
					       !json_is_object(b) && !json_is_array(b))) {
		if (canon_of(key, a, &ca) == 0 && canon_of(key, b, &cb) == 0 && !ca.too_big &&
		    !cb.too_big)
			return same_canon(&ca, &cb);
		if (same_hex(a, b, &same))
			return same;
		return json_equal(a, b);
	}
	if (json_is_object(a) && json_is_object(b))
		return same_object(a, b, exact_default);
	if (json_is_array(a) && json_is_array(b)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		for (i = 0; i < json_array_size(a); i++)
			if (!same_value(key, json_array_get(a, i), json_array_get(b, i), exact_default))
				return false;
		return true;
	}
	return false;
}

/* An any_of anywhere under v whose alternatives are different outcomes. */
static bool has_open_any_of(const json_t *v, bool exact_default)
{
	const char *key;
	const json_t *x;
	size_t i;
	if (json_is_array(v)) {
		json_array_foreach(v, i, x) if (has_open_any_of(x, exact_default)) return true;
		return false;
	}
	if (!json_is_object(v))
		return false;
	json_object_foreach((json_t *)v, key, x)
	{
		if (!strcmp(key, "any_of") && json_is_array(x)) {
			for (i = 1; i < json_array_size(x); i++)
				if (!same_value(NULL, json_array_get(x, 0), json_array_get(x, i),
						exact_default))
					return true;
		} else if (has_open_any_of(x, exact_default)) {
			return true;
		}
	}
	return false;
}

/* Each step's any_of, with the step's default of exact (events false, frames and cqes true). */
static bool steps_open_any_of(const json_t *steps)
{
	size_t i;
	const json_t *step;
	json_array_foreach(steps, i, step)
	{
		bool exact_default = !json_object_get(step, "events");
		if (has_open_any_of(step, exact_default))
			return true;
	}
	return false;
}

/* Every alternative of an acceptable test's any_of names its reading (docs/vectors.md "Test"):
 * a report says which reading the device followed. */
static void check_readings(struct run *r, const json_t *v, char *at, size_t len, size_t used)
{
	const char *key;
	const json_t *x;
	size_t i;
	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
		{
			int n = snprintf(at + used, len - used, "[%zu]", i);
			check_readings(r, x, at, len, used + (size_t)n < len ? used + (size_t)n : used);
			at[used] = '\0';
		}
		return;
	}
	json_object_foreach((json_t *)v, key, x)
	{
		int n = snprintf(at + used, len - used, "%s%s", used ? "." : "", key);
		size_t u = used + (size_t)n < len ? used + (size_t)n : used;
		if (!strcmp(key, "any_of") && json_is_array(x)) {
			const json_t *alt;
			json_array_foreach(x, i, alt)
			{
				snprintf(at + u, len - u, "[%zu]", i);
				if (!json_object_get(alt, "reading"))
					vbad(r, at, "no \"reading\": in an acceptable test each "
						    "alternative names the reading of the spec it "
						    "follows");
			}
		} else if (json_is_object(x) || json_is_array(x)) {
			check_readings(r, x, at, len, u);
		}
		at[used] = '\0';
	}
}

/* A flag whose note says the test pins a reading the device profile selects: bugType PROFILE
 * and a description naming the decision (D-XXX-N, docs/decisions.md) whose reading it is. */
static bool names_pinned_reading(const json_t *notes, const json_t *flag)
{
	const json_t *note = json_object_get(notes, json_string_value(flag));
	const char *type = json_string_value(json_object_get(note, "bugType"));
	const char *d = json_string_value(json_object_get(note, "description"));
	if (!type || strcmp(type, "PROFILE") || !d)
		return false;
	for (; (d = strstr(d, "D-")) != NULL; d += 2) {
		const char *p = d + 2;
		while (*p >= 'A' && *p <= 'Z')
			p++;
		if (p > d + 2 && *p == '-' && p[1] >= '0' && p[1] <= '9')
			return true;
	}
	return false;
}

/* result "acceptable" (docs/vectors.md "Test"): the test must say mechanically what is
 * acceptable, by an any_of whose alternatives differ, a matcher that admits more than one
 * value (counted by cmp_check while the steps were checked), or a flag naming the reading
 * of a profile setting it pins. */
static void check_acceptable(struct run *r, const json_t *notes, const json_t *t)
{
	size_t fi;
	json_t *flag;
	const char *result = json_string_value(json_object_get(t, "result"));
	if (!result || strcmp(result, "acceptable"))
		return;
	size_t si;
	const json_t *step;
	json_array_foreach(json_object_get(t, "steps"), si, step)
	{
		const char *kind;
		const json_t *v;
		r->step = (long)si;
		json_object_foreach((json_t *)step, kind, v)
		{
			char at[512] = "";
			if (!strcmp(kind, "dev"))
				continue;
			r->kind = kind;
			if (json_object_get(v, "any_of"))
				check_readings(r, v, at, sizeof at, 0);
			else if (json_is_object(json_object_get(v, "expect")))
				check_readings(r, json_object_get(v, "expect"), strcpy(at, "expect"),
					       sizeof at, strlen("expect"));
		}
	}
	r->step = -1;
	r->kind = NULL;
	if (r->open_cmps || steps_open_any_of(json_object_get(t, "steps")))
		return;
	json_array_foreach(json_object_get(t, "flags"), fi, flag) if (names_pinned_reading(notes, flag))
		return;
	vbad(r, "result", "\"acceptable\", yet nothing says what is acceptable: give the outcomes "
			  "the spec allows (an any_of, or a matcher such as {\"ge\": 1} or {\"in\": "
			  "[...]}), or a flag whose note (bugType PROFILE) names the decision whose "
			  "reading the test pins");
}

static void check_tests(struct run *r, const json_t *doc, struct report *rep)
{
	const json_t *notes = json_object_get(doc, "notes");
	size_t gi, ti, count = 0;
	json_t *g, *t;
	json_array_foreach(json_object_get(doc, "testGroups"), gi, g)
	{
		struct posted after_setup[MAX_SLOTS];
		unsigned faults_after_setup;
		struct vec_tx tx_after_setup;
		struct vec_rx rx_after_setup;
		r->group = (long)gi;
		r->cfg = (struct nicref_config){ 0 };
		nicref_config_default(&r->cfg);
		if (vec_profile(r, &r->cfg.profile, g) != 0) {
			/* Its steps cannot be checked against an unknown profile. */
			count += json_array_size(json_object_get(g, "tests"));
			vec_flush_bad(r, rep, 0);
			continue;
		}
		if (json_object_get(g, "profile") || json_object_get(g, "caps")) {
			struct nicref_dev *dev = nicref_dev_create(&r->cfg);
			if (!dev)
				vbad(r, "profile", "the device refuses this profile (an impossible "
						   "combination of settings: nicref_dev_create)");
			nicref_dev_destroy(dev);
		}
		/* The setup is checked once; each test starts from the slots it posted. */
		memset(r->slot, 0, sizeof r->slot);
		r->dma_faults = 0;
		r->tx = (struct vec_tx){ .stage = -1 };
		vec_rx_start(r);
		vec_roce_group(r, g);
		r->in_setup = true;
		size_t si;
		json_t *step;
		json_array_foreach(json_object_get(g, "setup"), si, step) vec_step(r, step, si);
		r->in_setup = false;
		memcpy(after_setup, r->slot, sizeof after_setup);
		faults_after_setup = r->dma_faults;
		tx_after_setup = r->tx;
		rx_after_setup = r->rx;
		vec_roce_save(r);
		vec_flush_bad(r, rep, 0);
		json_array_foreach(json_object_get(g, "tests"), ti, t)
		{
			long id = (long)json_integer_value(json_object_get(t, "tcId"));
			size_t fi;
			json_t *flag;
			count++;
			r->tc_id = id;
			/* tcIds are unique in a file: a report names a test by file and tcId. */
			size_t gj, tj;
			json_t *g2, *t2;
			bool seen = false;
			json_array_foreach(json_object_get(doc, "testGroups"), gj, g2)
			{
				json_array_foreach(json_object_get(g2, "tests"), tj, t2)
				{
					if (t2 == t)
						goto done;
					seen = seen ||
					       json_integer_value(json_object_get(t2, "tcId")) == id;
				}
			}
		done:
			if (seen)
				vbad(r, "tcId", "%ld is the tcId of an earlier test too", id);
			json_array_foreach(json_object_get(t, "flags"), fi, flag)
			{
				char field[32];
				snprintf(field, sizeof field, "flags[%zu]", fi);
				if (!json_object_get(notes, json_string_value(flag)))
					vbad(r, field, "\"%s\" is not explained in notes",
					     json_string_value(flag));
			}
			vec_roce_restore(r);
			memcpy(r->slot, after_setup, sizeof r->slot);
			r->dma_faults = faults_after_setup;
			r->tx = tx_after_setup;
			r->rx = rx_after_setup;
			r->open_cmps = 0;
			bool compares = false;
			json_array_foreach(json_object_get(t, "steps"), si, step)
			{
				vec_step(r, step, si);
				compares = compares || step_compares(step);
			}
			/* A replay's SETUP (vectors_stack.c) has a placeholder test, never run. */
			if (!compares && !r->setup_only)
				vbad(r, "steps", "nothing is compared: the test would pass whatever the "
						 "device did (give a command that is rung, a completion, a "
						 "bar_read with expect, a mem_expect, events or frames that "
						 "list one or are exact, cqes, counters or an adp_timeline)");
			check_acceptable(r, notes, t);
			vec_flush_bad(r, rep, id);
			r->tc_id = -1;
		}
	}
	r->group = -1;
	json_int_t declared = json_integer_value(json_object_get(doc, "numberOfTests"));
	if ((size_t)declared != count)
		vbad(r, "numberOfTests", "%lld, but the file has %zu test%s", (long long)declared,
		     count, count == 1 ? "" : "s");
	vec_flush_bad(r, rep, 0);
}

json_t *vec_check_file(struct run *r, const char *path, struct report *rep)
{
	json_error_t jerr;
	r->file = path;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!doc) {
		/* jansson reads integers as json_int_t: 2^63-1 at most (docs/vectors.md "Numbers
		 * and names": a larger number is a string). */
		bool too_big = !strncmp(jerr.text, "too big integer", 15);
		vbad(r, NULL, "not a JSON file: %s (line %d, column %d)%s", jerr.text, jerr.line,
		     jerr.column,
		     too_big ? ": a JSON integer is at most 2^63-1; give a larger number as a "
			       "string (\"0x8000000000000000\" or decimal digits)"
			     : "");
		vec_flush_bad(r, rep, 0);
		return NULL;
	}
	return vec_check_doc(r, path, doc, rep);
}

json_t *vec_check_doc(struct run *r, const char *path, json_t *doc, struct report *rep)
{
	unsigned before = r->refusals;
	r->file = path;
	r->doc = doc;
	if (jschema_validate(r->schema, doc, schema_report, r) == 0)
		check_tests(r, doc, rep);
	vec_flush_bad(r, rep, 0);
	r->doc = NULL;
	memset(r->slot, 0, sizeof r->slot);
	if (r->refusals != before) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
