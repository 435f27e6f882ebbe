/* The adp_timeline step (docs/vectors.md "adp_timeline"): builds a struct nicref_adp_run from
 * the vector, runs nicref_adp_timeline and compares every attempt, the way the run ended and
 * the counters with the vector's expectation, exactly, or with each alternative of its any_of
 * (one reading's timeline each) until one holds. The expectations are the vector's, computed
 * from seeds 000/001; this file only reads and compares. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicref/adp.h"
#include "vectors_int.h"

/* Longest run a vector may ask for: enough for every total-timeout case of the vectors, small
 * enough for the stack. */
#define MAX_ATTEMPTS 1024u
#define MAX_DIFFS 12 /* lines of differences reported per step before "..." */

struct ctx {
	struct run *r;
	bool bad; /* the step itself is malformed: nothing is run */
};

/* A difference from one expectation (at most MAX_DIFFS lines of it). */
static void difff(struct diffs *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void difff(struct diffs *d, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	if (d->l.n > MAX_DIFFS)
		return;
	if (d->l.n == MAX_DIFFS) {
		diff_add(d, "adp_timeline: ... (further differences not shown)");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	diff_add(d, "%s", line);
}

/* The step itself is malformed (field: where in it). */
static void badf(struct ctx *c, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void badf(struct ctx *c, const char *field, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	vbad(c->r, field, "%s", line);
	c->bad = true;
}

/* A name of a small table, or a number below n. */
static int name_or_num(struct ctx *c, const json_t *v, const char *what,
		       const char *const *names, unsigned n, unsigned *out)
{
	if (json_is_string(v))
		for (unsigned i = 0; i < n; i++)
			if (names[i] && strcmp(json_string_value(v), names[i]) == 0) {
				*out = i;
				return 0;
			}
	uint64_t x;
	if (jv_num(v, NS_NONE, 64, &x, NULL, 0) == 0 && x < n) {
		*out = (unsigned)x;
		return 0;
	}
	badf(c, what, "not one of the names, nor a number below %u", n);
	return -1;
}

/* An unsigned number under key, at most max; dflt when absent. */
static uint64_t num(struct ctx *c, const char *at, const json_t *obj, const char *key,
		    uint64_t dflt, uint64_t max)
{
	const json_t *v = json_object_get(obj, key);
	char field[96], err[160];
	uint64_t x;
	if (!v)
		return dflt;
	snprintf(field, sizeof field, "%s%s%s", at ? at : "", at ? "." : "", key);
	if (jv_num(v, NS_NONE, 64, &x, err, sizeof err) != 0) {
		badf(c, field, "%s", err);
		return dflt;
	}
	if (x > max) {
		badf(c, field, "%llu is above %llu", (unsigned long long)x, (unsigned long long)max);
		return dflt;
	}
	return x;
}

static const char *const dec_mode_names[] = { "TO_DIV_4", "TO_DIV_2", "TO_LOW_BOUND" };

static void read_profile(struct ctx *c, const json_t *j, struct nicref_adp_profile *p)
{
	memset(p, 0, sizeof *p);
	/* Widths of seed 000's profile layout, so a value the register could not hold is a
	 * malformed vector rather than a silently truncated one. */
	p->qp_total_timeout = (uint8_t)num(c, "profile", j, "qp_total_timeout", 0, 1);
	p->range_num = (uint8_t)num(c, "profile", j, "range_num", 0, 7);
	p->start_range_index = (uint8_t)num(c, "profile", j, "start_range_index", 0, 7);
	p->time_unit = (uint8_t)num(c, "profile", j, "time_unit", 1, 3);
	p->time_base = (uint16_t)num(c, "profile", j, "time_base", 0, 0xFFFF);
	p->retx_total_timeout = (uint8_t)num(c, "profile", j, "retx_total_timeout", 0, 0xFF);
	p->timeout_init_low_bound = (uint8_t)num(c, "profile", j, "timeout_init_low_bound", 0, 0xFF);
	p->timeout_init_range_size = (uint8_t)num(c, "profile", j, "timeout_init_range_size", 0, 0xFF);
	/* "timeout_range" is the seed's name; "range" the struct's (the tools take both). */
	const char *rname = json_object_get(j, "timeout_range") ? "timeout_range" : "range";
	const json_t *ranges = json_object_get(j, rname);
	if (json_object_get(j, "timeout_range") && json_object_get(j, "range")) {
		badf(c, "profile", "timeout_range and range are the same list: give one");
		return;
	}
	size_t i;
	json_t *r;
	json_array_foreach((json_t *)ranges, i, r)
	{
		struct nicref_adp_range *d = &p->range[i];
		char at[64];
		unsigned mode = 0;
		snprintf(at, sizeof at, "profile.%s[%zu]", rname, i);
		d->prev_range_index = (uint8_t)num(c, at, r, "prev_range_index", 0, 7);
		const json_t *m = json_object_get(r, "dec_mode");
		char field[96];
		snprintf(field, sizeof field, "%s.dec_mode", at);
		if (m && name_or_num(c, m, field, dec_mode_names, 4, &mode) != 0)
			return;
		d->dec_mode = (uint8_t)mode;
		d->timeout_retry_num = (uint16_t)num(c, at, r, "timeout_retry_num", 0, 0x3FF);
		d->range_low_bound = (uint8_t)num(c, at, r, "range_low_bound", 0, 0xFF);
		d->range_size = (uint8_t)num(c, at, r, "range_size", 0, 0xFF);
	}
}

static void read_options(struct ctx *c, const json_t *j, struct nicref_adp_options *o)
{
	static const char *const first[] = { "retry_once", "escalate" };
	static const char *const dec[] = { "by_name", "by_amount", "by_factor" };
	static const char *const init[] = { "exclusive", "inclusive" };
	static const char *const trig[] = { "every_progress", "clean_progress" };
	static const char *const uses[] = { "arms", "retransmissions" };
	unsigned v;
	const json_t *x;
	memset(o, 0, sizeof *o);
	if ((x = json_object_get(j, "first_timeout")) &&
	    name_or_num(c, x, "options.first_timeout", first, 2, &v) == 0)
		o->first_timeout = (uint8_t)v;
	if ((x = json_object_get(j, "dec_reading")) &&
	    name_or_num(c, x, "options.dec_reading", dec, 3, &v) == 0)
		o->dec_reading = (uint8_t)v;
	if ((x = json_object_get(j, "init_range")) &&
	    name_or_num(c, x, "options.init_range", init, 2, &v) == 0)
		o->init_range = (uint8_t)v;
	if ((x = json_object_get(j, "dec_trigger")) &&
	    name_or_num(c, x, "options.dec_trigger", trig, 2, &v) == 0)
		o->dec_trigger = (uint8_t)v;
	if ((x = json_object_get(j, "retry_uses")) &&
	    name_or_num(c, x, "options.retry_uses", uses, 2, &v) == 0)
		o->retry_uses = (uint8_t)v;
}

/* "loss": the transmissions (0-based) that get no ACK, or "all". */
static void read_loss(struct ctx *c, const json_t *j, uint32_t max_attempts, uint64_t *words,
		      size_t nwords)
{
	memset(words, 0, nwords * sizeof *words);
	if (!j)
		return;
	if (json_is_string(j)) {
		for (uint32_t k = 0; k < max_attempts; k++)
			words[k / 64] |= 1ull << (k % 64);
		return;
	}
	size_t i;
	json_t *v;
	json_array_foreach((json_t *)j, i, v)
	{
		uint64_t k;
		char field[32];
		snprintf(field, sizeof field, "loss[%zu]", i);
		if (jv_num(v, NS_NONE, 64, &k, NULL, 0) != 0 || k >= max_attempts) {
			badf(c, field, "a transmission number below max_attempts (%u)", max_attempts);
			return;
		}
		words[k / 64] |= 1ull << (k % 64);
	}
}

static const char *reason_label(unsigned r)
{
	const char *n = r < NICREF_ADP_R_COUNT ? nicref_adp_reason_name((enum nicref_adp_reason)r)
					       : NULL;
	return n ? n : "?";
}

static int reason_find(const char *name)
{
	for (unsigned r = 0; r < NICREF_ADP_R_COUNT; r++)
		if (!strcmp(reason_label(r), name))
			return (int)r;
	return -1;
}

/* The numeric keys of an expected attempt, with the width of the field they compare. */
static const struct {
	const char *key;
	unsigned bits;
} attempt_keys[] = { { "attempt", 32 }, { "message", 32 }, { "sent_ns", 64 },
		     { "armed_ns", 64 }, { "e", 8 },	     { "lost", 2 } };

static uint64_t attempt_value(const struct nicref_adp_attempt *a, size_t k)
{
	const uint64_t v[] = { a->attempt, a->message, a->sent_ns, a->armed_ns, a->e, a->lost };
	return v[k];
}

/* The timeline keys of an expectation or of one any_of alternative (at: "expect" or
 * "expect.any_of[i]"), checked before anything runs. */
static void check_timeline_keys(struct ctx *c, const char *at, const json_t *e)
{
	const json_t *v, *a;
	size_t i;
	char field[128];
	unsigned w;
	if ((v = json_object_get(e, "end"))) {
		const char *names[8] = { NULL };
		unsigned n = 0;
		while (n < 8 && nicref_adp_end_name((enum nicref_adp_end)n))
			names[n] = nicref_adp_end_name((enum nicref_adp_end)n), n++;
		snprintf(field, sizeof field, "%s.end", at);
		name_or_num(c, v, field, names, n, &w);
	}
	json_array_foreach(json_object_get(e, "attempts"), i, a)
	{
		for (size_t k = 0; k < sizeof attempt_keys / sizeof attempt_keys[0]; k++)
			if ((v = json_object_get(a, attempt_keys[k].key))) {
				snprintf(field, sizeof field, "%s.attempts[%zu].%s", at, i,
					 attempt_keys[k].key);
				if (cmp_check(c->r, field, v, NS_NONE, attempt_keys[k].bits) != 0)
					c->bad = true;
			}
		if ((v = json_object_get(a, "reason")) && reason_find(json_string_value(v)) < 0) {
			snprintf(field, sizeof field, "%s.attempts[%zu].reason", at, i);
			badf(c, field, "%s is not a reason (nicref_adp_reason_name)",
			     json_string_value(v));
		}
	}
	static const char *const counters[] = { "roce_adp_retrans", "roce_adp_retrans_to" };
	for (size_t k = 0; k < 2; k++)
		if ((v = json_object_get(json_object_get(e, "counters"), counters[k]))) {
			snprintf(field, sizeof field, "%s.counters.%s", at, counters[k]);
			if (cmp_check(c->r, field, v, NS_NONE, 64) != 0)
				c->bad = true;
		}
}

/* The expectation, checked before anything runs: profile_rule, the timeline keys, and any_of,
 * whose alternatives add timeline keys (as a command's expect, docs/vectors.md "any_of"). */
static void check_expect(struct ctx *c, const json_t *e)
{
	const json_t *v, *alt;
	size_t i;
	if ((v = json_object_get(e, "profile_rule"))) {
		unsigned r = 0;
		while (r < NICREF_ADP_RULE_COUNT &&
		       strcmp(nicref_adp_rule_name((enum nicref_adp_rule)r), json_string_value(v)))
			r++;
		if (r == NICREF_ADP_RULE_COUNT)
			badf(c, "expect.profile_rule", "%s is not a rule of nicref_adp_profile_check",
			     json_string_value(v));
	}
	check_timeline_keys(c, "expect", e);
	json_array_foreach(json_object_get(e, "any_of"), i, alt)
	{
		char at[64];
		const char *key;
		json_t *x;
		snprintf(at, sizeof at, "expect.any_of[%zu]", i);
		json_object_foreach((json_t *)alt, key, x)
		{
			if (strcmp(key, "reading") != 0 && json_object_get(e, key))
				badf(c, at, "\"%s\" is also given outside any_of: an alternative adds "
					    "keys to the expectation, it does not override them",
				     key);
		}
		check_timeline_keys(c, at, alt);
	}
}

/* Compares one expected attempt with what the engine produced. */
static void compare_attempt(struct diffs *d, size_t i, const json_t *want,
			    const struct nicref_adp_attempt *got)
{
	const json_t *v;
	for (size_t k = 0; k < sizeof attempt_keys / sizeof attempt_keys[0]; k++) {
		uint64_t g = attempt_value(got, k);
		if ((v = json_object_get(want, attempt_keys[k].key)) && !cmp_holds(v, NS_NONE, g)) {
			char t[160];
			cmp_text(v, NS_NONE, t, sizeof t);
			difff(d, "adp_timeline attempt %zu %s: expected %s, got %llu", i,
			      attempt_keys[k].key, t, (unsigned long long)g);
		}
	}
	/* -1: no range (the initial value, or the classic timer). */
	if ((v = json_object_get(want, "range")) && json_integer_value(v) != got->range)
		difff(d, "adp_timeline attempt %zu range: expected %lld, got %d", i,
		      (long long)json_integer_value(v), got->range);
	if ((v = json_object_get(want, "reason")) &&
	    reason_find(json_string_value(v)) != (int)got->reason)
		difff(d, "adp_timeline attempt %zu reason: expected %s, got %s", i,
		      json_string_value(v), reason_label(got->reason));
}

static void compare_counter(struct diffs *d, const json_t *wc, const char *name, uint64_t got)
{
	const json_t *v = json_object_get(wc, name);
	if (v && !cmp_holds(v, NS_NONE, got)) {
		char t[160];
		cmp_text(v, NS_NONE, t, sizeof t);
		difff(d, "adp_timeline counter %s: expected %s, got %llu", name, t,
		      (unsigned long long)got);
	}
}

/* The mode from the vector: a profile (validated as ROCE_ACCL would before selecting it),
 * or "device": the mode a QP of the test's device takes at ready-to-send (D-ADP-2). Returns
 * 1 when the run should go on, 0 when it must stop (refused as expected, failed, or only
 * checking). */
static int read_mode(struct ctx *c, const json_t *s, const json_t *e, struct nicref_adp_mode *m)
{
	const json_t *wr = json_object_get(e, "profile_rule");
	memset(m, 0, sizeof *m);
	if (json_is_true(json_object_get(s, "device"))) {
		static const char *const own[] = { "profile", "adp", "retrans_en",
						   "base_timeout_min_ns", "max_range_num",
						   "options", NULL };
		for (unsigned i = 0; own[i]; i++)
			if (json_object_get(s, own[i]))
				badf(c, own[i], "\"device\": true takes the mode from the device");
		if (wr)
			badf(c, "expect.profile_rule", "\"device\": true checks no profile");
		if (c->bad || c->r->checking)
			return 0;
		nicref_adp_dev_mode(c->r->dev, m);
		return 1;
	}
	const json_t *jadp = json_object_get(s, "adp");
	m->adp = jadp ? json_is_true(jadp) : true;
	const json_t *jen = json_object_get(s, "retrans_en");
	m->retrans_en = jen ? json_is_true(jen) : m->adp;
	m->base_timeout_min_ns = (uint32_t)num(c, NULL, s, "base_timeout_min_ns", 4000, 0xFFFFF);
	unsigned max_range_num =
		(unsigned)num(c, NULL, s, "max_range_num", NICREF_ADP_MAX_RANGES, 7);
	const json_t *jprof = json_object_get(s, "profile");
	if (jprof)
		read_profile(c, jprof, &m->profile);
	else if (m->adp)
		badf(c, NULL, "\"adp\": true needs a profile");
	read_options(c, json_object_get(s, "options"), &m->opt);
	if (!m->adp && wr)
		badf(c, "expect.profile_rule", "needs \"adp\": true");
	if (c->bad || c->r->checking || !m->adp)
		return !c->bad && !c->r->checking;
	enum nicref_adp_rule rule =
		nicref_adp_profile_check(&m->profile, m->base_timeout_min_ns, max_range_num);
	const char *want = json_is_string(wr) ? json_string_value(wr) : "OK";
	const char *got = nicref_adp_rule_name(rule);
	if (!got || strcmp(want, got) != 0) {
		vfail(c->r, "adp_timeline profile check: expected %s, got %s (%s)", want,
		      got ? got : "?", rule ? nicref_adp_rule_citation(rule) : "valid");
		return 0;
	}
	return rule == NICREF_ADP_OK; /* refused as expected: nothing to run */
}

/* What the engine did: compared with the expectation, or with one any_of alternative and the
 * keys the expectation gives outside any_of. */
struct outcome {
	const json_t *e; /* the step's expect */
	const struct nicref_adp_attempt *out;
	size_t n;
	enum nicref_adp_end end;
	struct nicref_adp_counters cnt;
};

/* Value of key in the alternative, else in the expectation. */
static const json_t *pick(const json_t *e, const json_t *alt, const char *key)
{
	const json_t *v = alt ? json_object_get(alt, key) : NULL;
	return v ? v : json_object_get(e, key);
}

static void compare_timeline(const json_t *alt, struct diffs *d, void *ctx)
{
	const struct outcome *o = ctx;
	const json_t *we = pick(o->e, alt, "end");
	uint64_t w = 0;
	const char *names[8] = { NULL };
	unsigned nn = 0;
	while (nn < 8 && nicref_adp_end_name((enum nicref_adp_end)nn))
		names[nn] = nicref_adp_end_name((enum nicref_adp_end)nn), nn++;
	if (we) { /* a name or a number, checked */
		if (json_is_string(we))
			while (w < nn && strcmp(names[w], json_string_value(we)))
				w++;
		else
			jv_num(we, NS_NONE, 64, &w, NULL, 0);
		if (w != (uint64_t)o->end)
			difff(d, "adp_timeline end: expected %s, got %s",
			      w < nn ? names[w] : "?",
			      nicref_adp_end_name(o->end) ? nicref_adp_end_name(o->end) : "?");
	}
	const json_t *wa = pick(o->e, alt, "attempts");
	if (wa) {
		size_t m = json_array_size(wa);
		for (size_t i = 0; i < m && i < o->n; i++)
			compare_attempt(d, i, json_array_get(wa, i), &o->out[i]);
		if (m != o->n)
			difff(d, "adp_timeline: expected %zu attempts, got %zu (attempt %zu %s)", m,
			      o->n, m < o->n ? m : o->n, m < o->n ? "not expected" : "missing");
	}
	const json_t *wc = pick(o->e, alt, "counters");
	compare_counter(d, wc, "roce_adp_retrans", o->cnt.roce_adp_retrans);
	compare_counter(d, wc, "roce_adp_retrans_to", o->cnt.roce_adp_retrans_to);
}

void step_adp_timeline(struct run *r, const json_t *s)
{
	struct ctx c = { r, false };
	struct nicref_adp_run run;
	memset(&run, 0, sizeof run);
	const json_t *e = json_object_get(s, "expect"), *qp = json_object_get(s, "qp");
	/* IB: 5-bit local ACK timeout, 3-bit retry count. */
	run.attr.timeout = (uint8_t)num(&c, "qp", qp, "timeout", 0, 31);
	run.attr.retry_cnt = (uint8_t)num(&c, "qp", qp, "retry_cnt", 0, 7);
	run.seed = num(&c, NULL, s, "seed", 0, UINT64_MAX);
	run.rtt_ns = num(&c, NULL, s, "rtt_ns", 0, UINT64_MAX);
	run.messages = (uint32_t)num(&c, NULL, s, "messages", 1, UINT32_MAX);
	run.max_attempts = (uint32_t)num(&c, NULL, s, "max_attempts", 64, MAX_ATTEMPTS);
	uint64_t loss[MAX_ATTEMPTS / 64];
	read_loss(&c, json_object_get(s, "loss"), run.max_attempts, loss, MAX_ATTEMPTS / 64);
	run.loss = loss;
	run.loss_words = MAX_ATTEMPTS / 64;
	check_expect(&c, e);
	if (!read_mode(&c, s, e, &run.mode))
		return;

	static struct nicref_adp_attempt out[MAX_ATTEMPTS];
	struct outcome o = { .e = e, .out = out };
	memset(&o.cnt, 0, sizeof o.cnt);
	o.end = nicref_adp_timeline(&run, out, MAX_ATTEMPTS, &o.n, &o.cnt);

	const json_t *alts = json_object_get(e, "any_of");
	if (alts) {
		resolve_alternatives(r, alts, compare_timeline, &o);
		return;
	}
	struct diffs d = { 0 };
	compare_timeline(NULL, &d, &o);
	diffs_fail(r, &d, NULL);
	lines_free(&d.l);
}
