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

/* An any_of anywhere under v whose alternatives differ in more than their reading. */
static bool has_open_any_of(const json_t *v)
{
	const char *key;
	const json_t *x;
	size_t i;
	if (json_is_array(v)) {
		json_array_foreach(v, i, x) if (has_open_any_of(x)) return true;
		return false;
	}
	if (!json_is_object(v))
		return false;
	json_object_foreach((json_t *)v, key, x)
	{
		if (!strcmp(key, "any_of") && json_is_array(x)) {
			for (i = 1; i < json_array_size(x); i++) {
				json_t *a = json_deep_copy(json_array_get(x, 0));
				json_t *b = json_deep_copy(json_array_get(x, i));
				json_object_del(a, "reading");
				json_object_del(b, "reading");
				bool differ = !json_equal(a, b);
				json_decref(a);
				json_decref(b);
				if (differ)
					return true;
			}
		} else if (has_open_any_of(x)) {
			return true;
		}
	}
	return false;
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
	if (r->open_cmps || has_open_any_of(json_object_get(t, "steps")))
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
			if (!compares)
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
		vbad(r, NULL, "not a JSON file: %s (line %d, column %d)", jerr.text, jerr.line,
		     jerr.column);
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
