/* The SETUP of `nicref replay` (docs/replay.md): a JSON object with a vector group's "profile",
 * "caps" and "setup" steps (docs/vectors.md), where the setup may also use the high-level steps
 * below. Each high-level step is expanded into the vector steps it stands for, then the whole
 * list is checked and run by the vector runner (vectors_stack.h), so a SETUP means exactly
 * what the same steps mean in a vector. Messages name the file and the step. */
#include <stdio.h>
#include <string.h>

#include "nicref/layout.h"
#include "replay_int.h"

static int bad(const char *path, size_t step, const char *kind, const char *fmt, const char *arg)
{
	fprintf(stderr, "BAD %s: setup step %zu (%s): ", path, step, kind);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return -1;
}

/* ---- rq_fill: every ring of the rx_setup full of WQEs ---- */

/* The rx_setup step among the steps expanded so far (NULL: none). */
static const json_t *rx_setup_of(const json_t *steps)
{
	size_t i;
	const json_t *s;
	json_array_foreach(steps, i, s) if (json_object_get(s, "rx_setup")) return json_object_get(s, "rx_setup");
	return NULL;
}

static json_int_t num_or(const json_t *o, const char *key, json_int_t dflt)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

/* {"rq_fill": {"byte_count": 16384, "offset": 0}}: an rq_post of a whole ring of WQEs, each one
 * entry at offset of byte_count bytes, for every RQ of the rx_setup (to the RMP once for the
 * RQs on it). Every WQE may describe the same buffer: the replay reads each frame's CQE (and
 * its data, --pcap-dir) before the next frame arrives. */
static int rq_fill(const char *path, size_t at, const json_t *v, json_t *out)
{
	const json_t *rx = rx_setup_of(out), *rqs;
	const char *key;
	json_t *x;
	if (!rx)
		return bad(path, at, "rq_fill", "%s", "needs an rx_setup step before it");
	if (!json_is_object(v))
		return bad(path, at, "rq_fill", "%s", "an object: {\"byte_count\": N, \"offset\": N}");
	json_object_foreach((json_t *)v, key, x)
	{
		if (strcmp(key, "byte_count") && strcmp(key, "offset"))
			return bad(path, at, "rq_fill", "unknown key \"%s\" (byte_count, offset)", key);
		if (!json_is_integer(x) && !json_is_string(x))
			return bad(path, at, "rq_fill", "%s: a number", key);
	}
	json_t *entry = json_object();
	json_object_set_new(entry, "offset",
			    json_object_get(v, "offset") ? json_deep_copy(json_object_get(v, "offset"))
							 : json_integer(0));
	json_object_set_new(entry, "byte_count",
			    json_object_get(v, "byte_count")
				    ? json_deep_copy(json_object_get(v, "byte_count"))
				    : json_integer(16384));
	rqs = json_object_get(rx, "rqs");
	size_t n = rqs ? json_array_size(rqs) : 1;
	bool rmp = false;
	for (size_t i = 0; i < n; i++) {
		const json_t *q = json_array_get(rqs, i);
		if (num_or(q, "on_rmp", 0)) {
			rmp = true;
			continue;
		}
		json_int_t lsz = num_or(q, "log_wq_sz", 4);
		json_array_append_new(out, json_pack("{s:{s:I, s:[O], s:I}}", "rq_post", "rq",
						     (json_int_t)i, "entries", entry, "count",
						     (json_int_t)1 << (lsz & 31)));
	}
	if (rmp) {
		json_int_t lsz = num_or(json_object_get(rx, "rmp"), "log_wq_sz", 4);
		json_array_append_new(out, json_pack("{s:{s:s, s:[O], s:I}}", "rq_post", "rq", "rmp",
						     "entries", entry, "count",
						     (json_int_t)1 << (lsz & 31)));
	}
	json_decref(entry);
	return 0;
}

/* ---- rules: NIC_RX steering by field name ---- */

/* All ones over a field of fte_match_param, as the steer step takes a number or wide hex. */
static json_t *mask_of(const struct nicref_field *f)
{
	if (f->bit_width <= 64)
		return json_integer(f->bit_width == 64 ? -1 : (json_int_t)((1ull << f->bit_width) - 1));
	char hex[80] = "";
	for (unsigned i = 0; i < f->bit_width / 8 && i < 32; i++)
		strcat(hex, "ff");
	return json_string(hex);
}

/* The field names of a match, joined: rules of the same names share a flow group. */
static void names_of(const json_t *match, char *buf, size_t len)
{
	const char *key;
	json_t *x;
	size_t at = 0;
	buf[0] = '\0';
	json_object_foreach((json_t *)match, key, x)
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s,", key);
}

/* {"rules": {"rules": [{"match": {"outer_tcp_dport": 80, ...}, "tir": 1, "flow_tag": 5} or
 * {"match": {...}, "drop": true}, ...], "default_tir": 0}}: one root NIC_RX table of level 0,
 * the rules in order (the first that matches wins: consecutive rules on the same fields share a
 * flow group, groups in the rules' order, PRM §7.11.2.3), each field matched whole, and a last
 * group without criteria for the frames no rule takes (to default_tir; without it they are
 * dropped, the NIC_RX default, §7.11.2.5). */
static int rules(const char *path, size_t at, const json_t *v, json_t *out)
{
	const struct nicref_layout *l = nicref_layout_find("fte_match_param");
	const json_t *list = json_object_get(v, "rules"), *rule, *dflt;
	const char *key;
	json_t *x;
	size_t i;
	if (!json_is_object(v) || !json_is_array(list))
		return bad(path, at, "rules", "%s", "an object with \"rules\": [...] (docs/replay.md)");
	json_object_foreach((json_t *)v, key, x) if (strcmp(key, "rules") && strcmp(key, "default_tir") &&
						      strcmp(key, "log_size"))
		return bad(path, at, "rules", "unknown key \"%s\" (rules, default_tir, log_size)", key);
	dflt = json_object_get(v, "default_tir");
	size_t n = json_array_size(list) + (dflt ? 1 : 0);
	unsigned lsz = 0;
	while ((1ull << lsz) < n)
		lsz++;
	json_t *groups = json_array(), *entries = json_array();
	char prev[1024] = "\x01", names[1024];
	int g = -1;
	json_array_foreach(list, i, rule)
	{
		char what[48];
		const json_t *match = json_object_get(rule, "match");
		snprintf(what, sizeof what, "rules[%zu]", i);
		json_object_foreach((json_t *)rule, key, x) if (strcmp(key, "match") && strcmp(key, "tir") &&
								strcmp(key, "flow_tag") && strcmp(key, "drop"))
		{
			fprintf(stderr, "BAD %s: setup step %zu (rules): %s: unknown key \"%s\" (match, "
					"tir, flow_tag, drop)\n", path, at, what, key);
			goto fail;
		}
		if (!json_is_object(match) || !json_object_size(match) ||
		    !json_object_get(rule, "tir") == !json_is_true(json_object_get(rule, "drop"))) {
			fprintf(stderr, "BAD %s: setup step %zu (rules): %s: a rule is {\"match\": "
					"{FIELD: VALUE, ...}, \"tir\": N} or {\"match\": {...}, \"drop\": "
					"true}\n", path, at, what);
			goto fail;
		}
		names_of(match, names, sizeof names);
		if (strcmp(names, prev)) {
			json_t *crit = json_object();
			json_object_foreach((json_t *)match, key, x)
			{
				const struct nicref_field *f = nicref_layout_field(l, key);
				if (!f) {
					fprintf(stderr, "BAD %s: setup step %zu (rules): %s.match: \"%s\" is "
							"not a field of fte_match_param (PRM §12.14.6 "
							"T407-T416; `nicref layouts` lists them)\n",
						path, at, what, key);
					json_decref(crit);
					goto fail;
				}
				json_object_set_new(crit, key, mask_of(f));
			}
			g++;
			char gname[16];
			snprintf(gname, sizeof gname, "g%d", g);
			json_array_append_new(groups, json_pack("{s:s, s:s, s:I, s:I, s:o}", "name", gname,
								"table", "replay", "start", (json_int_t)i,
								"end", (json_int_t)i, "criteria", crit));
			snprintf(prev, sizeof prev, "%s", names);
		} else {
			json_object_set_new(json_array_get(groups, (size_t)g), "end", json_integer((json_int_t)i));
		}
		char gname[16];
		snprintf(gname, sizeof gname, "g%d", g);
		bool drop = json_is_true(json_object_get(rule, "drop"));
		json_t *e = json_pack("{s:s, s:s, s:I, s:i, s:O}", "table", "replay", "group", gname,
				      "index", (json_int_t)i, "action", drop ? 2 : 4, "match", match);
		if (!drop)
			json_object_set_new(e, "dest", json_pack("[{s:O}]", "tir", json_object_get(rule, "tir")));
		if (json_object_get(rule, "flow_tag"))
			json_object_set(e, "flow_tag", json_object_get(rule, "flow_tag"));
		json_array_append_new(entries, e);
	}
	if (dflt) {
		json_int_t k = (json_int_t)json_array_size(list);
		json_array_append_new(groups, json_pack("{s:s, s:s, s:I, s:I}", "name", "default",
							"table", "replay", "start", k, "end", k));
		json_array_append_new(entries, json_pack("{s:s, s:s, s:I, s:i, s:[{s:O}]}", "table",
							 "replay", "group", "default", "index", k,
							 "action", 4, "dest", "tir", dflt));
	}
	json_t *tables = json_pack("[{s:s, s:i, s:I, s:b}]", "name", "replay", "level", 0,
				   "log_size", (json_int_t)num_or(v, "log_size", lsz), "root", 1);
	json_array_append_new(out, json_pack("{s:{s:o, s:o, s:o}}", "steer", "tables", tables,
					     "groups", groups, "entries", entries));
	return 0;
fail:
	json_decref(groups);
	json_decref(entries);
	return -1;
}

/* The high-level steps, one row each (docs/replay.md "High-level steps"). */
static const struct {
	const char *name;
	int (*expand)(const char *path, size_t at, const json_t *v, json_t *out);
} high_level[] = {
	{ "rq_fill", rq_fill },
	{ "rules", rules },
};

/* The setup with every high-level step replaced by its vector steps. */
static json_t *expand(const char *path, const json_t *setup)
{
	json_t *out = json_array(), *step;
	size_t i;
	json_array_foreach(setup, i, step)
	{
		const char *key = json_object_size(step) == 1 ? json_object_iter_key(json_object_iter(step)) : NULL;
		size_t k = 0, n = sizeof high_level / sizeof high_level[0];
		while (key && k < n && strcmp(high_level[k].name, key))
			k++;
		if (!key || k == n) {
			json_array_append(out, step); /* a vector step: the runner checks it */
			continue;
		}
		if (high_level[k].expand(path, i, json_object_get(step, key), out)) {
			json_decref(out);
			return NULL;
		}
	}
	return out;
}

enum vec_stack_result replay_setup_open(const char *path, struct vec_stack **s)
{
	json_error_t jerr;
	const char *key;
	json_t *x;
	*s = NULL;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		fprintf(stderr, "BAD %s: not a JSON file: %s (line %d, column %d)\n", path, jerr.text,
			jerr.line, jerr.column);
		return VEC_STACK_BAD;
	}
	if (!json_is_object(doc) || !json_is_array(json_object_get(doc, "setup"))) {
		fprintf(stderr, "BAD %s: a SETUP is an object with \"setup\": [steps] (and "
				"\"profile\", \"caps\", \"comment\"; docs/replay.md)\n", path);
		json_decref(doc);
		return VEC_STACK_BAD;
	}
	json_object_foreach(doc, key, x) if (strcmp(key, "setup") && strcmp(key, "profile") &&
					     strcmp(key, "caps") && strcmp(key, "comment"))
	{
		fprintf(stderr, "BAD %s: unknown key \"%s\" (setup, profile, caps, comment)\n", path,
			key);
		json_decref(doc);
		return VEC_STACK_BAD;
	}
	json_t *steps = expand(path, json_object_get(doc, "setup"));
	enum vec_stack_result rc = VEC_STACK_BAD;
	if (steps) {
		json_object_set_new(doc, "setup", steps);
		rc = vec_stack_open(path, doc, stderr, s);
	}
	json_decref(doc);
	return rc;
}
