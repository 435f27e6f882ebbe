/* The steering steps of docs/vectors.md "Receive path": steer builds flow tables, groups,
 * entries and counters by name (PRM §12.14) with the reference driver (harness/driver_steer.h),
 * each command with the status it expects; flow_counters compares counters (§12.14.14). The
 * names live in the run's receive stack (vectors_rx_int.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_steer.h"
#include "vectors_rx_int.h"

/* ---- steer: flow tables, groups, entries and counters by name ---- */

static int name_find(const char *const *names, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

/* A name of list (tables, groups, counters) that exists: its index, or -1 after vbad. */
static int name_ref(struct run *r, const char *field, const json_t *v, const char *const *names,
		    unsigned n, const char *what)
{
	int k = json_is_string(v) ? name_find(names, n, json_string_value(v)) : -1;
	if (k < 0)
		vbad(r, field, "no %s of that name was made before (a steer step's %ss)", what, what);
	return k;
}

/* A new name into list: 0, or -1 after vbad. */
static int name_new(struct run *r, const char *field, const json_t *v, const char **names,
		    unsigned *n)
{
	const char *s = json_string_value(v);
	if (!s || !*s) {
		vbad(r, field, "a name is a non-empty string");
		return -1;
	}
	if (name_find(names, *n, s) >= 0) {
		vbad(r, field, "\"%s\" is made twice", s);
		return -1;
	}
	if (*n == VEC_RX_MAX_NAMES) {
		vbad(r, field, "at most %u of a kind a test", VEC_RX_MAX_NAMES);
		return -1;
	}
	names[(*n)++] = s;
	return 0;
}

static int type_of(struct run *r, const char *field, const json_t *v, unsigned *type)
{
	const char *s = json_string_value(v);
	*type = 0;
	if (!v)
		return 0;
	if (s && !strcmp(s, "NIC_RX"))
		return 0;
	if (s && !strcmp(s, "NIC_TX")) {
		*type = 1;
		return 0;
	}
	vbad(r, field, "a table type is \"NIC_RX\" or \"NIC_TX\" (PRM T384)");
	return -1;
}

static enum name_space ns_plain(const char *key)
{
	(void)key;
	return NS_NONE;
}

/* The match_criteria_enable bits of a match value (T406: bit 0 outer_headers 00h-3Fh, bit 1
 * misc_parameters 40h-7Fh, bit 2 inner_headers 80h-BFh). */
static unsigned blocks_of(const uint8_t *m)
{
	unsigned e = 0;
	for (unsigned i = 0; i < REFDRV_MATCH_LEN; i++)
		if (m[i])
			e |= 1u << (i / 0x40);
	return e;
}

static int fte_values(struct run *r, const char *what, const json_t *o, struct refdrv_fte *f,
		      uint8_t *match, unsigned *table, uint64_t *index)
{
	const json_t *dest = json_object_get(o, "dest"), *cnt = json_object_get(o, "counters"), *v;
	char fld[96]; /* what (< 32) and ".dest[<size_t>].table" always fit */
	uint64_t action, tag;
	size_t i;
	int k;
	snprintf(fld, sizeof fld, "%s.table", what);
	if ((k = name_ref(r, fld, json_object_get(o, "table"), r->rx.tables, r->rx.ntables,
			  "table")) < 0)
		return -1;
	*table = (unsigned)k;
	snprintf(fld, sizeof fld, "%s.group", what);
	int g = name_ref(r, fld, json_object_get(o, "group"), r->rx.groups, r->rx.ngroups, "group");
	if (g < 0 || vec_rx_num_in(r, what, o, "index", 32, 0, index) ||
	    vec_rx_num_in(r, what, o, "action", 16, 0, &action) ||
	    vec_rx_num_in(r, what, o, "flow_tag", 24, 0, &tag))
		return -1;
	memset(f, 0, sizeof *f);
	memset(match, 0, REFDRV_MATCH_LEN);
	snprintf(fld, sizeof fld, "%s.match", what);
	if (json_object_get(o, "match") &&
	    vec_set_fields(r, fld, nicref_layout_find("fte_match_param"), json_object_get(o, "match"),
			   match, REFDRV_MATCH_LEN, ns_plain, NULL))
		return -1;
	if (json_array_size(dest) > REFDRV_FTE_MAX_LIST || json_array_size(cnt) > REFDRV_FTE_MAX_LIST) {
		vbad(r, what, "at most %u destinations and counters", REFDRV_FTE_MAX_LIST);
		return -1;
	}
	json_array_foreach(dest, i, v)
	{
		uint64_t t;
		snprintf(fld, sizeof fld, "%s.dest[%zu]", what, i);
		if (json_object_get(v, "tir")) {
			snprintf(fld, sizeof fld, "%s.dest[%zu].tir", what, i);
			if (vec_rx_index_in(r, fld, json_object_get(v, "tir"), r->rx.ntir, "TIRs", &t))
				return -1;
			f->dest[i].type = 2; /* T433 */
			f->dest[i].id = (uint32_t)t;
		} else {
			snprintf(fld, sizeof fld, "%s.dest[%zu].table", what, i);
			if ((k = name_ref(r, fld, json_object_get(v, "table"), r->rx.tables,
					  r->rx.ntables, "table")) < 0)
				return -1;
			f->dest[i].type = 1;
			f->dest[i].id = (uint32_t)k;
		}
	}
	json_array_foreach(cnt, i, v)
	{
		snprintf(fld, sizeof fld, "%s.counters[%zu]", what, i);
		if ((k = name_ref(r, fld, v, r->rx.counters, r->rx.ncounters, "counter")) < 0)
			return -1;
		f->cnt[i] = (uint16_t)k;
	}
	f->group_id = (uint32_t)g;
	f->action = (unsigned)action;
	f->flow_tag = (uint32_t)tag;
	f->ndest = (unsigned)json_array_size(dest);
	f->ncnt = (unsigned)json_array_size(cnt);
	f->match = match;
	return 0;
}

/* The command's status against the expected one (default OK), named "steer: what". */
static void steer_status(struct run *r, const char *what, const json_t *o, int st)
{
	char w[80];
	snprintf(w, sizeof w, "steer: %s", what);
	vec_rx_status(r, w, o, st);
}

/* The command's status (refdrv_*: the T128 status, or -1 when it did not complete) against
 * the step's "status" comparator (default OK); a failure names `what`. */
void vec_rx_status(struct run *r, const char *what, const json_t *o, int st)
{
	const json_t *want = json_object_get(o, "status");
	if (st < 0) {
		vfail(r, "%s: %s", what, r->drv->error);
		return;
	}
	if (want ? !cmp_holds(want, NS_STATUS, (uint64_t)st) : st != 0) {
		char t[96], g[48];
		if (want)
			cmp_text(want, NS_STATUS, t, sizeof t);
		else
			snprintf(t, sizeof t, "OK (0x0)");
		value_text(NS_STATUS, (uint64_t)st, g, sizeof g);
		vfail(r, "%s: status expected %s, got %s (syndrome 0x%08x)", what, t, g,
		      (unsigned)r->drv->last_syndrome);
	}
}

static int status_check(struct run *r, const char *what, const json_t *o)
{
	char f[64];
	const json_t *v = json_object_get(o, "status");
	snprintf(f, sizeof f, "%s.status", what);
	return v ? cmp_check(r, f, v, NS_STATUS, 8) : 0;
}

void st_steer(struct run *r, const json_t *s)
{
	const json_t *list, *o;
	size_t i;
	if (!vec_rx_ready(r, "a steer step"))
		return;
	struct rx_stack *x = r->checking ? NULL : r->rxs;
	struct refdrv *d = r->drv;
	/* counters, tables (a miss table before the table that names it), groups, entries */
	json_array_foreach(json_object_get(s, "counters"), i, o)
	{
		char f[32];
		snprintf(f, sizeof f, "counters[%zu]", i);
		unsigned at = r->rx.ncounters;
		if (name_new(r, f, o, r->rx.counters, &r->rx.ncounters))
			return;
		if (x) {
			int st = refdrv_alloc_flow_counter(d, &x->counter_id[at]);
			if (st)
				steer_status(r, f, NULL, st);
		}
	}
	json_array_foreach(json_object_get(s, "tables"), i, o)
	{
		char w[32], f[48];
		uint64_t level, lsz;
		unsigned type;
		int miss = -1;
		snprintf(w, sizeof w, "tables[%zu]", i);
		snprintf(f, sizeof f, "%s.type", w);
		if (type_of(r, f, json_object_get(o, "type"), &type) ||
		    vec_rx_num_in(r, w, o, "level", 8, 0, &level) || vec_rx_num_in(r, w, o, "log_size", 8, 4, &lsz) ||
		    status_check(r, w, o))
			return;
		snprintf(f, sizeof f, "%s.miss", w);
		if (json_object_get(o, "miss") &&
		    (miss = name_ref(r, f, json_object_get(o, "miss"), r->rx.tables, r->rx.ntables,
				     "table")) < 0)
			return;
		unsigned at = r->rx.ntables;
		snprintf(f, sizeof f, "%s.name", w);
		if (name_new(r, f, json_object_get(o, "name"), r->rx.tables, &r->rx.ntables))
			return;
		r->rx.table_type[at] = (uint8_t)type;
		if (miss >= 0 && r->rx.table_type[miss] != type) {
			vbad(r, f, "its miss table is of another type");
			return;
		}
		if (!x)
			continue;
		int st = refdrv_create_flow_table(d, type, (unsigned)level, (unsigned)lsz,
						  miss >= 0 ? 1u : 0u,
						  miss >= 0 ? x->table_id[miss] : 0, &x->table_id[at]);
		steer_status(r, w, o, st);
		if (st == 0 && json_is_true(json_object_get(o, "root")))
			steer_status(r, w, NULL,
				     refdrv_set_flow_table_root(d, type, x->table_id[at]));
	}
	json_array_foreach(json_object_get(s, "groups"), i, o)
	{
		char w[32], f[48];
		uint8_t crit[REFDRV_MATCH_LEN] = { 0 };
		uint64_t start, end, en;
		snprintf(w, sizeof w, "groups[%zu]", i);
		snprintf(f, sizeof f, "%s.table", w);
		int t = name_ref(r, f, json_object_get(o, "table"), r->rx.tables, r->rx.ntables, "table");
		snprintf(f, sizeof f, "%s.criteria", w);
		if (t < 0 || vec_rx_num_in(r, w, o, "start", 32, 0, &start) ||
		    vec_rx_num_in(r, w, o, "end", 32, start, &end) || status_check(r, w, o) ||
		    (json_object_get(o, "criteria") &&
		     vec_set_fields(r, f, nicref_layout_find("fte_match_param"),
				    json_object_get(o, "criteria"), crit, sizeof crit, ns_plain, NULL)) ||
		    vec_rx_num_in(r, w, o, "enable", 8, blocks_of(crit), &en))
			return;
		unsigned at = r->rx.ngroups;
		snprintf(f, sizeof f, "%s.name", w);
		if (name_new(r, f, json_object_get(o, "name"), r->rx.groups, &r->rx.ngroups))
			return;
		r->rx.group_table[at] = (uint8_t)t;
		if (!x)
			continue;
		steer_status(r, w, o,
			     refdrv_create_flow_group(d, r->rx.table_type[t], x->table_id[t],
						      (uint32_t)start, (uint32_t)end, (unsigned)en, crit,
						      &x->group_id[at]));
	}
	list = json_object_get(s, "entries");
	json_array_foreach(list, i, o)
	{
		char w[32];
		uint8_t match[REFDRV_MATCH_LEN];
		struct refdrv_fte f;
		unsigned t;
		uint64_t index;
		snprintf(w, sizeof w, "entries[%zu]", i);
		if (fte_values(r, w, o, &f, match, &t, &index) || status_check(r, w, o))
			return;
		if (!x)
			continue;
		f.group_id = x->group_id[f.group_id];
		for (unsigned k = 0; k < f.ndest; k++)
			f.dest[k].id = f.dest[k].type == 2 ? x->tirn[f.dest[k].id]
							   : x->table_id[f.dest[k].id];
		for (unsigned k = 0; k < f.ncnt; k++)
			f.cnt[k] = (uint16_t)x->counter_id[f.cnt[k]];
		steer_status(r, w, o,
			     refdrv_set_fte(d, r->rx.table_type[t], x->table_id[t], (uint32_t)index, 0,
					    0, &f));
	}
	json_array_foreach(json_object_get(s, "delete"), i, o)
	{
		char w[32], f[48];
		uint64_t index;
		snprintf(w, sizeof w, "delete[%zu]", i);
		snprintf(f, sizeof f, "%s.table", w);
		int t = name_ref(r, f, json_object_get(o, "table"), r->rx.tables, r->rx.ntables, "table");
		if (t < 0 || vec_rx_num_in(r, w, o, "index", 32, 0, &index) || status_check(r, w, o))
			return;
		if (x)
			steer_status(r, w, o,
				     refdrv_delete_fte(d, r->rx.table_type[t], x->table_id[t],
						       (uint32_t)index));
	}
}

/* ---- flow_counters ---- */

void st_flow_counters(struct run *r, const json_t *s)
{
	const json_t *o;
	size_t i;
	bool clear = json_is_true(json_object_get(s, "clear"));
	if (!vec_rx_ready(r, "a flow_counters step"))
		return;
	json_array_foreach(json_object_get(s, "expect"), i, o)
	{
		char w[32], f[48];
		snprintf(w, sizeof w, "expect[%zu]", i);
		snprintf(f, sizeof f, "%s.counter", w);
		int k = name_ref(r, f, json_object_get(o, "counter"), r->rx.counters, r->rx.ncounters,
				 "counter");
		if (k < 0)
			return;
		snprintf(f, sizeof f, "%s.packets", w);
		if (json_object_get(o, "packets") &&
		    cmp_check(r, f, json_object_get(o, "packets"), NS_NONE, 64))
			return;
		snprintf(f, sizeof f, "%s.octets", w);
		if (json_object_get(o, "octets") &&
		    cmp_check(r, f, json_object_get(o, "octets"), NS_NONE, 64))
			return;
		if (r->checking)
			continue;
		uint64_t pk = 0, oc = 0;
		int st = refdrv_query_flow_counter(r->drv, r->rxs->counter_id[k], clear, &pk, &oc);
		if (st) {
			vfail(r, "flow_counters: %s: QUERY_FLOW_COUNTER status %d", w, st);
			continue;
		}
		const json_t *want[2] = { json_object_get(o, "packets"), json_object_get(o, "octets") };
		const uint64_t got[2] = { pk, oc };
		static const char *const nm[2] = { "packets", "octets" };
		for (int j = 0; j < 2; j++)
			if (want[j] && !cmp_holds(want[j], NS_NONE, got[j])) {
				char t[96];
				cmp_text(want[j], NS_NONE, t, sizeof t);
				vfail(r, "flow_counters: counter \"%s\" %s: expected %s, got %llu",
				      json_string_value(json_object_get(o, "counter")), nm[j], t,
				      (unsigned long long)got[j]);
			}
	}
}
