/* Expectations (docs/vectors.md "Expectations a second implementation can meet"): comparators,
 * any_of, the completion of a command and host memory (events: vectors_events.c). Each has a
 * check (run over every file before any test) and a comparison that trusts what the check
 * accepted. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "driver_sq.h"
#include "jschema.h"
#include "vectors_int.h"

void diff_add(struct diffs *d, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	lines_add(&d->l, line);
}

/* Adds rule to a small set of distinct rules; one past its room is counted, not kept. */
static void rule_set_add(uint16_t *set, unsigned *n, unsigned *dropped, unsigned rule)
{
	for (unsigned i = 0; i < *n; i++)
		if (set[i] == rule)
			return;
	if (*n < REPORT_MAX_RULES)
		set[(*n)++] = (uint16_t)rule;
	else
		(*dropped)++;
}

void diff_rule(struct diffs *d, unsigned rule)
{
	rule_set_add(d->rules, &d->nrules, &d->dropped, rule);
}

void diffs_credit(struct run *r, const struct diffs *d)
{
	if (d->l.n)
		return; /* the expectation did not hold: nothing is credited */
	for (unsigned i = 0; i < d->nrules; i++)
		rule_set_add(r->rules, &r->nrules, &r->rules_dropped, d->rules[i]);
	r->rules_dropped += d->dropped;
}

void diffs_fail(struct run *r, const struct diffs *d, const char *prefix)
{
	const char *p = d->l.s;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int n = (int)(nl ? nl - p : (long)strlen(p));
		if (prefix)
			vfail(r, "%s: %.*s", prefix, n, p);
		else
			vfail(r, "%.*s", n, p);
		p = nl ? nl + 1 : p + n;
	}
}

/* ---- comparators ---- */

static const char *const matcher_keys[] = { "eq", "ne", "ge", "le", "in", "mask" };

static const char *space_name(enum name_space ns, uint64_t v)
{
	switch (ns) {
	case NS_STATUS:
		return v < 256 ? nicref_cmd_status_name((unsigned)v) : NULL;
	case NS_DELIVERY:
		return v < 128 ? nicref_delivery_status_name((unsigned)v) : NULL;
	case NS_OPCODE:
		return v < 0x10000 ? nicref_opcode_name((unsigned)v) : NULL;
	case NS_VIOLATION:
		return v < NICREF_VIO_COUNT ? nicref_violation_name((unsigned)v) : NULL;
	case NS_CMD_RULE:
		return v < NICREF_RULE_COUNT ? nicref_cmd_rule_name((unsigned)v) : NULL;
	case NS_WQE_OPCODE:
		return refdrv_wqe_opcode_name((unsigned)v);
	case NS_LRO_CAUSE:
		return v < NICREF_LRO_CAUSE_COUNT ? nicref_lro_cause_name((enum nicref_lro_cause)v)
						  : NULL;
	case NS_ROCE_OPCODE: {
		const struct nicref_roce_opcode_info *op = v < 0x100 ? nicref_roce_opcode((unsigned)v)
								     : NULL;
		return op ? op->name : NULL;
	}
	case NS_ROCE_DROP:
		return v < NICREF_ROCE_DROP_COUNT ? nicref_roce_drop_name((unsigned)v) : NULL;
	case NS_NONE:
		break;
	}
	return NULL;
}

void value_text(enum name_space ns, uint64_t v, char *buf, size_t len)
{
	const char *n = space_name(ns, v);
	if (n)
		snprintf(buf, len, "%s (0x%llx)", n, (unsigned long long)v);
	else
		snprintf(buf, len, "%llu (0x%llx)", (unsigned long long)v, (unsigned long long)v);
}

void cmp_text(const json_t *c, enum name_space ns, char *buf, size_t len)
{
	uint64_t v;
	if (!json_is_object(c) && jv_num(c, ns, 64, &v, NULL, 0) == 0)
		value_text(ns, v, buf, len);
	else
		jschema_value_text(c, buf, len);
}

int cmp_check(struct run *r, const char *field, const json_t *c, enum name_space ns,
	      unsigned bits)
{
	char f[256];
	uint64_t x, mask = UINT64_MAX, lo = 0, hi = UINT64_MAX;
	const json_t *v;
	int rc = 0;
	if (!json_is_object(c))
		return vnum_at(r, field, c, ns, bits, &x);
	if (json_object_size(c) == 0) {
		vbad(r, field, "an empty matcher would hold for any value");
		return -1;
	}
	if ((v = json_object_get(c, "mask"))) {
		snprintf(f, sizeof f, "%s.mask", field);
		if (vnum_at(r, f, v, NS_NONE, bits, &mask) != 0)
			return -1;
		if (json_object_size(c) == 1) {
			vbad(r, field, "a mask needs eq, ne, ge, le or in to compare the masked value");
			return -1;
		}
	}
	const char *key;
	json_object_foreach((json_t *)c, key, v)
	{
		size_t k = 0;
		while (k < sizeof matcher_keys / sizeof matcher_keys[0] && strcmp(matcher_keys[k], key))
			k++;
		if (k == sizeof matcher_keys / sizeof matcher_keys[0]) {
			vbad(r, field, "unknown matcher key \"%s\" (eq, ne, ge, le, in, mask)", key);
			rc = -1;
			continue;
		}
		if (!strcmp(key, "mask"))
			continue;
		size_t i, n = json_is_array(v) ? json_array_size(v) : 1;
		for (i = 0; i < n; i++) {
			const json_t *one = json_is_array(v) ? json_array_get(v, i) : v;
			if (json_is_array(v))
				snprintf(f, sizeof f, "%s.%s[%zu]", field, key, i);
			else
				snprintf(f, sizeof f, "%s.%s", field, key);
			if (vnum_at(r, f, one, ns, bits, &x) != 0) {
				rc = -1;
				continue;
			}
			/* Operands of equality outside the mask could never match: an eq or in
			 * one never holds, a ne one always does (it compares nothing). */
			if ((!strcmp(key, "eq") || !strcmp(key, "in")) && (x & ~mask)) {
				vbad(r, f, "0x%llx has bits outside the mask 0x%llx: it can never "
					   "compare equal", (unsigned long long)x,
				     (unsigned long long)mask);
				rc = -1;
			}
			if (!strcmp(key, "ne") && (x & ~mask)) {
				vbad(r, f, "0x%llx has bits outside the mask 0x%llx: the masked value "
					   "always differs from it, so this ne compares nothing",
				     (unsigned long long)x, (unsigned long long)mask);
				rc = -1;
			}
			if (!strcmp(key, "ge"))
				lo = x;
			if (!strcmp(key, "le"))
				hi = x;
		}
	}
	if (rc == 0 && lo > hi) {
		vbad(r, field, "ge %llu and le %llu can never both hold", (unsigned long long)lo,
		     (unsigned long long)hi);
		rc = -1;
	}
	enum cmp_extent e = rc == 0 ? cmp_extent(c, ns, bits) : CMP_ONE;
	if (e == CMP_NONE) {
		vbad(r, field, "can never hold: no value of its %u bits satisfies every key", bits);
		rc = -1;
	} else if (e == CMP_ALL) {
		vbad(r, field, "holds for every value of its %u bits: it compares nothing", bits);
		rc = -1;
	}
	if (rc == 0 && r->checking && r->tc_id >= 0 && !r->in_setup && e == CMP_SOME)
		r->open_cmps++;
	return rc;
}

/* The submasks of m (the values v & m can take) in increasing order are deposit(k, m) for k
 * from 0 to 2^popcount(m) - 1: the bits of k placed in the set bits of m, low to high. */
static uint64_t deposit(uint64_t k, uint64_t m)
{
	uint64_t out = 0;
	for (uint64_t b = 1; m; b <<= 1, m &= m - 1)
		if (k & b)
			out |= m & (~m + 1);
	return out;
}

/* The smallest submask of m that is >= x into *out, or false when there is none. */
static bool submask_ge(uint64_t m, uint64_t x, uint64_t *out)
{
	unsigned pop = (unsigned)__builtin_popcountll(m);
	uint64_t lo = 0, hi = pop >= 64 ? UINT64_MAX : (1ull << pop) - 1;
	if (x > m)
		return false;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (deposit(mid, m) >= x)
			hi = mid;
		else
			lo = mid + 1;
	}
	*out = deposit(lo, m);
	return true;
}

/* The smallest masked value >= from, <= hi and not ne (when has_ne) into *out, or false. */
static bool masked_next(uint64_t m, uint64_t from, uint64_t hi, bool has_ne, uint64_t ne,
			uint64_t *out)
{
	uint64_t v;
	if (!submask_ge(m, from, &v))
		return false;
	if (has_ne && v == ne) {
		if (v == m)
			return false;
		v = ((v | ~m) + 1) & m; /* the next submask */
	}
	if (v > hi)
		return false;
	*out = v;
	return true;
}

/* Exactly which values of its width a checked comparator admits: none, one, some (at least two
 * and not all) or all. A matcher compares v & mask, which takes the 2^popcount(mask) submasks
 * of the mask: an eq or in admits the listed submasks in [ge, le] but ne; without one, the
 * admitted submasks are those of [ge, le] but ne, found by walking the submasks in order. A
 * masked value admitted stands for every v with those bits, so a mask that leaves bits out
 * admits at least two values when it admits one. */
enum cmp_extent cmp_extent(const json_t *c, enum name_space ns, unsigned bits)
{
	uint64_t top = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1, m = top, lo = 0, hi = top,
		 ne = 0, w, first, second;
	const json_t *v, *eq, *in;
	bool has_ne = false;
	unsigned pop;
	if (!json_is_object(c))
		return bits == 0 ? CMP_ALL : CMP_ONE;
	if ((v = json_object_get(c, "mask")) && jv_num(v, NS_NONE, 64, &w, NULL, 0) == 0)
		m = w & top;
	if ((v = json_object_get(c, "ge")) && jv_num(v, ns, 64, &w, NULL, 0) == 0)
		lo = w;
	if ((v = json_object_get(c, "le")) && jv_num(v, ns, 64, &w, NULL, 0) == 0)
		hi = w;
	if ((v = json_object_get(c, "ne")) && jv_num(v, ns, 64, &w, NULL, 0) == 0) {
		has_ne = true;
		ne = w;
	}
	pop = (unsigned)__builtin_popcountll(m);
	eq = json_object_get(c, "eq");
	in = json_object_get(c, "in");
	if (eq || in) {
		/* The distinct listed values that are submasks in [lo, hi] but ne. */
		size_t n = eq ? 1 : json_array_size(in), i, j;
		uint64_t count = 0;
		for (i = 0; i < n; i++) {
			const json_t *one = eq ? eq : json_array_get(in, i);
			bool dup = false, listed = !eq || !in;
			if (jv_num(one, ns, 64, &w, NULL, 0) != 0)
				continue;
			for (j = 0; eq && in && j < json_array_size(in); j++)
				listed = listed || cmp_holds(json_array_get(in, j), ns, w);
			for (j = 0; !eq && j < i; j++)
				dup = dup || cmp_holds(json_array_get(in, j), ns, w);
			if (listed && !dup && !(w & ~m) && w >= lo && w <= hi && !(has_ne && w == ne))
				count++;
		}
		if (count == 0)
			return CMP_NONE;
		if (pop < 64 && count == 1ull << pop)
			return CMP_ALL;
		return count == 1 && m == top ? CMP_ONE : CMP_SOME;
	}
	if (!masked_next(m, lo, hi, has_ne, ne, &first))
		return CMP_NONE;
	if (lo == 0 && hi >= m && !(has_ne && !(ne & ~m)))
		return CMP_ALL;
	if (m != top || (first < m && masked_next(m, ((first | ~m) + 1) & m, hi, has_ne, ne,
						   &second)))
		return CMP_SOME;
	return CMP_ONE;
}

bool cmp_open(const json_t *c, enum name_space ns, unsigned bits)
{
	return cmp_extent(c, ns, bits) == CMP_SOME;
}

bool cmp_holds(const json_t *c, enum name_space ns, uint64_t got)
{
	uint64_t w, mask = UINT64_MAX;
	const json_t *v;
	if (!json_is_object(c))
		return jv_num(c, ns, 64, &w, NULL, 0) == 0 && got == w;
	if ((v = json_object_get(c, "mask")) && jv_num(v, NS_NONE, 64, &mask, NULL, 0) != 0)
		return false;
	got &= mask;
	if ((v = json_object_get(c, "eq")) && (jv_num(v, ns, 64, &w, NULL, 0) || got != w))
		return false;
	if ((v = json_object_get(c, "ne")) && (jv_num(v, ns, 64, &w, NULL, 0) || got == w))
		return false;
	if ((v = json_object_get(c, "ge")) && (jv_num(v, ns, 64, &w, NULL, 0) || got < w))
		return false;
	if ((v = json_object_get(c, "le")) && (jv_num(v, ns, 64, &w, NULL, 0) || got > w))
		return false;
	if ((v = json_object_get(c, "in"))) {
		size_t i;
		json_t *one;
		bool found = false;
		json_array_foreach(v, i, one) found =
			found || (jv_num(one, ns, 64, &w, NULL, 0) == 0 && got == w);
		if (!found)
			return false;
	}
	return true;
}

/* ---- the completion of a command (expect, completion) ---- */

/* The keys of an expectation of a command, the name space and width of the numbers. */
static const struct {
	const char *key;
	enum name_space ns;
	unsigned bits;
} expect_numbers[] = {
	{ "delivery", NS_DELIVERY, 7 }, /* T96 3Ch[7:1] */
	{ "ownership", NS_NONE, 1 },    /* T96 3Ch[0] */
	{ "status", NS_STATUS, 8 },     /* T128, output byte 0 */
	{ "syndrome", NS_NONE, 32 },    /* output 04h */
};

static void join(char *buf, size_t len, const char *a, const char *b)
{
	snprintf(buf, len, "%s%s%s", a ? a : "", a ? "." : "", b);
}

/* Expected fields of a layout: names, widths; wide fields as exact hex. within: the bytes the
 * device returns (fields past it cannot be compared). */
int fields_check(struct run *r, const char *what, const struct nicref_layout *l,
		 const json_t *obj, uint64_t within, ns_of_fn ns_of)
{
	const char *key;
	json_t *v;
	int rc = 0;
	json_object_foreach((json_t *)obj, key, v)
	{
		char field[256];
		struct nicref_field tmp;
		const struct nicref_field *f = NULL;
		snprintf(field, sizeof field, "%s.%s", what, key);
		const char *br = strchr(key, '[');
		if (br) {
			char base[128];
			unsigned long i = 0;
			const char *p = br + 1;
			size_t n = (size_t)(br - key);
			if (n < sizeof base) {
				memcpy(base, key, n);
				base[n] = '\0';
				for (; *p >= '0' && *p <= '9' && i <= 1u << 24; p++)
					i = i * 10 + (unsigned long)(*p - '0');
				f = nicref_layout_field(l, base);
				if (f && (f->flags & NICREF_FIELD_ARRAY) && p != br + 1 &&
				    !strcmp(p, "]") && i <= 1u << 24) {
					tmp = nicref_field_element(f, (uint32_t)i);
					f = &tmp;
				} else {
					f = NULL;
				}
			}
		} else {
			f = nicref_layout_field(l, key);
		}
		if (!f) {
			vbad(r, field, "layout %s has no field \"%s\" (nicref layouts)", l->name, key);
			rc = -1;
			continue;
		}
		if ((uint64_t)f->bit_offset + f->bit_width > within * 8) {
			vbad(r, field, "lies past the 0x%llx bytes the device returns here",
			     (unsigned long long)within);
			rc = -1;
			continue;
		}
		if (f->bit_width > 64) {
			long n = json_is_string(v) ? hex_length(json_string_value(v)) : -1;
			if (n != (long)(f->bit_width / 8)) {
				vbad(r, field, "a %u-bit field is compared as exactly %u hex bytes",
				     f->bit_width, f->bit_width / 8);
				rc = -1;
			}
			continue;
		}
		if (cmp_check(r, field, v, ns_of(key), f->bit_width) != 0)
			rc = -1;
	}
	return rc;
}

/* The keys of one expectation object (not any_of). */
static int expect_keys_check(struct run *r, const char *at, const json_t *e,
			     uint32_t output_length)
{
	char field[256];
	const json_t *v;
	int rc = 0;
	for (size_t i = 0; i < sizeof expect_numbers / sizeof expect_numbers[0]; i++)
		if ((v = json_object_get(e, expect_numbers[i].key))) {
			join(field, sizeof field, at, expect_numbers[i].key);
			rc |= cmp_check(r, field, v, expect_numbers[i].ns, expect_numbers[i].bits);
		}
	if ((v = json_object_get(e, "rule"))) {
		join(field, sizeof field, at, "rule");
		if (!json_is_string(v) || nicref_cmd_rule_find(json_string_value(v)) < 0) {
			vbad(r, field, "%s is not a command rule name",
			     json_is_string(v) ? json_string_value(v) : "?");
			rc = -1;
		}
	}
	if ((v = json_object_get(e, "clause"))) {
		join(field, sizeof field, at, "clause");
		rc |= clause_check(r, field, v, false);
	}
	if ((v = json_object_get(e, "entry"))) {
		join(field, sizeof field, at, "entry");
		rc |= fields_check(r, field, nicref_layout_find("cmdq_entry"), v, 64, ns_command);
	}
	if ((v = json_object_get(e, "output"))) {
		const json_t *ln = json_object_get(v, "layout");
		const char *name = json_is_string(ln) ? json_string_value(ln) : "cmd_out";
		const struct nicref_layout *l = nicref_layout_find(name);
		uint64_t off = 0;
		join(field, sizeof field, at, "output.at");
		if (json_object_get(v, "at") &&
		    vnum_at(r, field, json_object_get(v, "at"), NS_NONE, 32, &off) != 0) {
			rc = -1;
		} else if (off >= output_length) {
			vbad(r, field, "0x%llx is past the output_length (0x%x) of the command",
			     (unsigned long long)off, output_length);
			rc = -1;
		}
		join(field, sizeof field, at, "output.layout");
		if (!l) {
			vbad(r, field, "\"%s\" is not a layout (nicref layouts)", name);
			rc = -1;
		} else if (rc == 0) {
			join(field, sizeof field, at, "output.fields");
			rc |= fields_check(r, field, l, json_object_get(v, "fields"),
					   output_length - off, ns_command);
		}
	}
	if ((v = json_object_get(e, "output_hex"))) {
		long n = json_is_string(v) ? hex_length(json_string_value(v)) : -1;
		join(field, sizeof field, at, "output_hex");
		if (n <= 0 || (uint64_t)n > output_length) {
			vbad(r, field, "%s: 1 to output_length (0x%x) hex bytes",
			     n < 0 ? "not hex bytes" : "a length out of range", output_length);
			rc = -1;
		}
	}
	return rc;
}

int expect_check(struct run *r, const char *field, const json_t *e, uint32_t output_length)
{
	const json_t *alts = json_object_get(e, "any_of"), *alt;
	int rc = expect_keys_check(r, field, e, output_length);
	size_t i;
	json_array_foreach(alts, i, alt)
	{
		char at[256];
		const char *key;
		json_t *v;
		snprintf(at, sizeof at, "%s%sany_of[%zu]", field ? field : "", field ? "." : "", i);
		json_object_foreach((json_t *)alt, key, v)
		{
			if (strcmp(key, "reading") != 0 && json_object_get(e, key)) {
				vbad(r, at, "\"%s\" is also given outside any_of: an alternative "
					    "adds keys to the expectation, it does not override them",
				     key);
				rc = -1;
			}
		}
		rc |= expect_keys_check(r, at, alt, output_length);
	}
	return rc;
}

/* What a completed command looks like from the host. */
struct completed {
	struct cmd_result res;
	const uint8_t *out;
};

/* Value of key in the alternative, else in the expectation. */
static const json_t *pick(const json_t *e, const json_t *alt, const char *key)
{
	const json_t *v = alt ? json_object_get(alt, key) : NULL;
	return v ? v : json_object_get(e, key);
}

void fields_compare(struct diffs *d, const char *what, const struct nicref_layout *l,
		    const json_t *obj, const uint8_t *buf, size_t len, ns_of_fn ns_of)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		struct nicref_field tmp;
		const struct nicref_field *f = NULL;
		const char *br = strchr(key, '[');
		if (br) {
			char base[128];
			size_t n = (size_t)(br - key);
			snprintf(base, sizeof base, "%.*s", (int)n, key);
			f = nicref_layout_field(l, base);
			if (f) {
				tmp = nicref_field_element(f, (uint32_t)strtoul(br + 1, NULL, 10));
				f = &tmp;
			}
		} else {
			f = nicref_layout_field(l, key);
		}
		if (!f)
			continue; /* refused by the check */
		if (f->bit_width > 64) {
			uint8_t w[4096], g[4096];
			char hw[8193], hg[8193];
			long n = hex_parse(json_string_value(v), w, sizeof w);
			if (n != (long)(f->bit_width / 8) ||
			    nicref_field_get_bytes(buf, len, f, g, (size_t)n) != 0) {
				diff_add(d, "%s.%s: outside the %zu bytes returned", what, key, len);
				continue;
			}
			if (memcmp(w, g, (size_t)n) != 0) {
				hex_format(w, (size_t)n, hw);
				hex_format(g, (size_t)n, hg);
				diff_add(d, "%s.%s: expected %s, got %s", what, key, hw, hg);
			}
			continue;
		}
		uint64_t got;
		enum name_space ns = ns_of(key);
		if (nicref_field_get(buf, len, f, &got) != 0) {
			diff_add(d, "%s.%s: outside the %zu bytes returned", what, key, len);
			continue;
		}
		if (!cmp_holds(v, ns, got)) {
			char t[160], g[64];
			cmp_text(v, ns, t, sizeof t);
			value_text(ns, got, g, sizeof g);
			diff_add(d, "%s.%s: expected %s, got %s", what, key, t, g);
		}
	}
}

/* The rule citing the clause whose syndrome this is (D-CMD-6: a syndrome names its rule), or 0
 * (NONE, which cites nothing) if there is none. */
static unsigned syndrome_rule_citing(uint32_t syndrome, const char *clause)
{
	for (unsigned i = 1; i < NICREF_RULE_COUNT; i++)
		if (nicref_cmd_rule_syndrome(i) == syndrome &&
		    clause_matches(nicref_cmd_rule_citation(i), clause))
			return i;
	return 0;
}

/* One expectation (e with the alternative's keys added) against the completion. */
static void completion_compare(unsigned slot, const json_t *e, const json_t *alt,
			       const struct completed *c, struct diffs *d)
{
	const struct cmd_result *res = &c->res;
	const uint64_t got[] = { res->delivery, res->ownership, res->status, res->syndrome };
	static const char *const what[] = { "entry.status (delivery)", "entry.ownership",
					     "output.status", "output.syndrome" };
	const json_t *v;
	for (size_t i = 0; i < sizeof expect_numbers / sizeof expect_numbers[0]; i++) {
		v = pick(e, alt, expect_numbers[i].key);
		/* delivery OK and ownership 0 are always checked (docs/vectors.md). */
		bool ok = v ? cmp_holds(v, expect_numbers[i].ns, got[i]) : i >= 2 || got[i] == 0;
		if (!ok) {
			char t[160], g[80];
			if (v)
				cmp_text(v, expect_numbers[i].ns, t, sizeof t);
			else
				value_text(expect_numbers[i].ns, 0, t, sizeof t);
			value_text(expect_numbers[i].ns, got[i], g, sizeof g);
			diff_add(d, "slot %u %s: expected %s, got %s", slot, what[i], t, g);
		}
	}
	if ((v = pick(e, alt, "rule"))) {
		int rule = nicref_cmd_rule_find(json_string_value(v));
		uint32_t want = rule < 0 ? 0 : nicref_cmd_rule_syndrome((unsigned)rule);
		if (res->syndrome != want)
			diff_add(d, "slot %u output.syndrome: expected 0x%08x (rule %s), got 0x%08x",
				 slot, want, json_string_value(v), res->syndrome);
		else
			diff_rule(d, (unsigned)rule);
	}
	if ((v = pick(e, alt, "clause"))) {
		unsigned rule = syndrome_rule_citing(res->syndrome, json_string_value(v));
		if (!rule)
			diff_add(d, "slot %u output.syndrome: expected the syndrome of a rule citing "
				    "%s, got 0x%08x", slot, json_string_value(v), res->syndrome);
		else
			diff_rule(d, rule);
	}
	if ((v = pick(e, alt, "entry_signature_valid")) && json_is_true(v) != res->entry_sig_ok)
		diff_add(d, "slot %u entry.signature: expected the entry to XOR to %s0xFF", slot,
			 res->entry_sig_ok ? "not " : "");
	if ((v = pick(e, alt, "output_signatures_valid")) && json_is_true(v) != res->out_sigs_ok)
		diff_add(d, "slot %u output mailbox signatures: expected %s", slot,
			 json_is_true(v) ? "valid" : "invalid");
	if ((v = pick(e, alt, "entry")))
		fields_compare(d, "entry", nicref_layout_find("cmdq_entry"), v, res->entry,
			       sizeof res->entry, ns_command);
	if ((v = pick(e, alt, "output"))) {
		const json_t *ln = json_object_get(v, "layout");
		uint64_t off = 0;
		if (json_object_get(v, "at"))
			jv_num(json_object_get(v, "at"), NS_NONE, 32, &off, NULL, 0);
		if (off > res->out_len)
			off = res->out_len;
		fields_compare(d, "output",
			       nicref_layout_find(json_is_string(ln) ? json_string_value(ln)
								     : "cmd_out"),
			       json_object_get(v, "fields"), c->out + off, res->out_len - off,
			       ns_command);
	}
	if ((v = pick(e, alt, "output_hex"))) {
		static uint8_t w[MAX_CMD_BYTES];
		long n = hex_parse(json_string_value(v), w, sizeof w);
		if (n < 0 || (size_t)n > res->out_len)
			diff_add(d, "output_hex: %ld bytes expected, %zu returned", n, res->out_len);
		else
			for (long i = 0; i < n; i++)
				if (w[i] != c->out[i]) {
					diff_add(d, "output byte %ld: expected 0x%02x, got 0x%02x", i,
						 w[i], c->out[i]);
					break;
				}
	}
}

size_t resolve_alternatives(struct run *r, const json_t *alts,
				   void (*compare)(const json_t *alt, struct diffs *d, void *ctx),
				   void *ctx)
{
	size_t n = json_array_size(alts), i, held = n;
	struct diffs *d = calloc(n ? n : 1, sizeof *d);
	if (!d) {
		vbad(r, NULL, "out of memory");
		return n;
	}
	for (i = 0; i < n && held == n; i++) {
		compare(json_array_get(alts, i), &d[i], ctx);
		if (d[i].l.n == 0)
			held = i;
	}
	if (held < n) {
		const json_t *rd = json_object_get(json_array_get(alts, held), "reading");
		diffs_credit(r, &d[held]);
		vnote(r, "any_of[%zu]%s%s%s held", held, rd ? " (\"" : "",
		      rd ? json_string_value(rd) : "", rd ? "\")" : "");
	} else {
		vfail(r, "no alternative of any_of held");
		for (i = 0; i < n; i++) {
			char prefix[160];
			const json_t *rd = json_object_get(json_array_get(alts, i), "reading");
			snprintf(prefix, sizeof prefix, "any_of[%zu]%s%s%s", i, rd ? " (\"" : "",
				 rd ? json_string_value(rd) : "", rd ? "\")" : "");
			diffs_fail(r, &d[i], prefix);
		}
	}
	for (i = 0; i < n; i++)
		lines_free(&d[i].l);
	free(d);
	return held;
}

struct completion_ctx {
	unsigned slot;
	const json_t *e;
	const struct completed *c;
};

static void completion_alt(const json_t *alt, struct diffs *d, void *ctx)
{
	const struct completion_ctx *x = ctx;
	completion_compare(x->slot, x->e, alt, x->c, d);
}

void expect_compare(struct run *r, unsigned slot, const json_t *e)
{
	static uint8_t out[MAX_CMD_BYTES];
	struct posted *ps = &r->slot[slot];
	struct completed c = { .out = out };
	if (cmd_result_read(&ps->post, vec_host_read, r, out, sizeof out, &c.res) != 0) {
		vbad(r, NULL, "host memory could not read slot %u back", slot);
		return;
	}
	if (c.res.ownership == 0 && ps->has_opcode)
		vec_note_outcome(r, ps->opcode, c.res.delivery == 0 && c.res.status == 0);
	const json_t *alts = json_object_get(e, "any_of");
	struct completion_ctx x = { slot, e, &c };
	if (alts) {
		resolve_alternatives(r, alts, completion_alt, &x);
		return;
	}
	struct diffs d = { 0 };
	completion_compare(slot, e, NULL, &c, &d);
	diffs_credit(r, &d);
	diffs_fail(r, &d, NULL);
	lines_free(&d.l);
}

/* ---- host memory ---- */

static int mem_check(struct run *r, const char *at, const json_t *o)
{
	char fa[96], fh[96];
	uint64_t addr;
	snprintf(fa, sizeof fa, "%s%saddr", at ? at : "", at ? "." : "");
	snprintf(fh, sizeof fh, "%s%shex", at ? at : "", at ? "." : "");
	const json_t *hex = json_object_get(o, "hex");
	if (!json_object_get(o, "addr") || !hex) {
		vbad(r, at, "compares addr and hex");
		return -1;
	}
	if (vnum_at(r, fa, json_object_get(o, "addr"), NS_NONE, 64, &addr) != 0)
		return -1;
	long n = json_is_string(hex) ? hex_length(json_string_value(hex)) : -1;
	if (n <= 0 || n > (long)MAX_HEX_BYTES) {
		vbad(r, fh, "%s: 1 to %u bytes", n < 0 ? "not hex bytes" : "a length out of range",
		     MAX_HEX_BYTES);
		return -1;
	}
	if ((uint64_t)n - 1 > UINT64_MAX - addr) {
		vbad(r, fa, "0x%llx + %ld bytes wraps past 2^64", (unsigned long long)addr, n);
		return -1;
	}
	return 0;
}

static void mem_compare(const json_t *o, struct diffs *d, void *ctx)
{
	static uint8_t want[MAX_HEX_BYTES], got[MAX_HEX_BYTES];
	struct run *r = ctx;
	uint64_t addr = 0;
	jv_num(json_object_get(o, "addr"), NS_NONE, 64, &addr, NULL, 0);
	long n = hex_parse(json_string_value(json_object_get(o, "hex")), want, sizeof want);
	if (n <= 0 || nicref_hostmem_read(r->dev, addr, got, (size_t)n) != 0) {
		diff_add(d, "memory[0x%llx]: could not be read", (unsigned long long)addr);
		return;
	}
	for (long i = 0; i < n; i++)
		if (want[i] != got[i]) {
			diff_add(d, "memory[0x%llx]: expected 0x%02x, got 0x%02x",
				 (unsigned long long)(addr + (uint64_t)i), want[i], got[i]);
			return;
		}
}

void step_mem_expect(struct run *r, const json_t *s)
{
	const json_t *alts = json_object_get(s, "any_of"), *alt;
	size_t i;
	if (alts && (json_object_get(s, "addr") || json_object_get(s, "hex"))) {
		vbad(r, "any_of", "replaces addr and hex: each alternative has its own");
		return;
	}
	if (!alts && mem_check(r, NULL, s) != 0)
		return;
	json_array_foreach(alts, i, alt)
	{
		char at[32];
		snprintf(at, sizeof at, "any_of[%zu]", i);
		if (mem_check(r, at, alt) != 0)
			return;
	}
	if (r->checking)
		return;
	if (alts) {
		resolve_alternatives(r, alts, mem_compare, r);
		return;
	}
	struct diffs d = { 0 };
	mem_compare(s, &d, r);
	diffs_fail(r, &d, NULL);
	lines_free(&d.l);
}
