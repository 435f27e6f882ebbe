/* A vector file before anything runs: JSON without duplicate keys, the schema (compiled in,
 * harness/jschema.h), then what a schema cannot say: tcIds unique, numberOfTests right, every
 * flag explained in notes, the group's profile and capabilities possible, and every step
 * checked by the step itself (vectors_steps.c) with r->checking set: names, widths, address
 * ranges, slots posted before a completion, fault ranges per test. A file the schema refuses
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

static void check_tests(struct run *r, const json_t *doc, struct report *rep)
{
	const json_t *notes = json_object_get(doc, "notes");
	size_t gi, ti, count = 0;
	json_t *g, *t;
	json_array_foreach(json_object_get(doc, "testGroups"), gi, g)
	{
		struct posted after_setup[MAX_SLOTS];
		unsigned faults_after_setup;
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
		r->in_setup = true;
		size_t si;
		json_t *step;
		json_array_foreach(json_object_get(g, "setup"), si, step) vec_step(r, step, si);
		r->in_setup = false;
		memcpy(after_setup, r->slot, sizeof after_setup);
		faults_after_setup = r->dma_faults;
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
			memcpy(r->slot, after_setup, sizeof r->slot);
			r->dma_faults = faults_after_setup;
			json_array_foreach(json_object_get(t, "steps"), si, step) vec_step(r, step, si);
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
	unsigned before = r->refusals;
	r->file = path;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!doc) {
		vbad(r, NULL, "not a JSON file: %s (line %d, column %d)", jerr.text, jerr.line,
		     jerr.column);
		vec_flush_bad(r, rep, 0);
		return NULL;
	}
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
