/* The adp_timeline step (docs/vectors.md "adp_timeline"): builds a struct nicref_adp_run from
 * the vector, runs nicref_adp_timeline and compares every attempt, the way the run ended and
 * the counters with the vector's expectation, exactly. The expectations are the vector's,
 * computed from seeds 000/001; this file only reads and compares. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jsonval.h"
#include "nicref/adp.h"
#include "vectors_adp.h"

/* Longest run a vector may ask for: enough for every total-timeout case of the vectors, small
 * enough for the stack. */
#define MAX_ATTEMPTS 1024u
#define MAX_DIFFS 12 /* lines of differences reported per step before "..." */

struct ctx {
	vec_fail_fn fail;
	void *fail_ctx;
	int diffs;
	bool bad; /* the step itself is malformed: nothing is run */
};

static void failf(struct ctx *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	if (c->diffs == MAX_DIFFS) {
		c->diffs++;
		c->fail(c->fail_ctx, "adp_timeline: ... (further differences not shown)");
		return;
	}
	if (c->diffs > MAX_DIFFS)
		return;
	c->diffs++;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	c->fail(c->fail_ctx, line);
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
	char err[160];
	if (jv_u64(v, NS_NONE, &x, err, sizeof err) == 0 && x < n) {
		*out = (unsigned)x;
		return 0;
	}
	failf(c, "adp_timeline: %s: not one of the names or below %u", what, n);
	c->bad = true;
	return -1;
}

/* An unsigned number under key, at most max; dflt when absent. */
static uint64_t num(struct ctx *c, const json_t *obj, const char *key, uint64_t dflt,
		    uint64_t max)
{
	const json_t *v = json_object_get(obj, key);
	uint64_t x;
	char err[160];
	if (!v)
		return dflt;
	if (jv_u64(v, NS_NONE, &x, err, sizeof err) != 0 || x > max) {
		failf(c, "adp_timeline: %s: not a number up to %llu", key, (unsigned long long)max);
		c->bad = true;
		return dflt;
	}
	return x;
}

/* Every key of obj must be one of the names (a typo must not silently mean "default"). */
static void known_keys(struct ctx *c, const json_t *obj, const char *what,
		       const char *const *names)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		unsigned i = 0;
		while (names[i] && strcmp(names[i], key) != 0)
			i++;
		if (!names[i]) {
			failf(c, "adp_timeline: %s has no key '%s'", what, key);
			c->bad = true;
		}
	}
}

static const char *const dec_mode_names[] = { "TO_DIV_4", "TO_DIV_2", "TO_LOW_BOUND" };

static void read_profile(struct ctx *c, const json_t *j, struct nicref_adp_profile *p)
{
	static const char *const keys[] = { "qp_total_timeout", "range_num", "start_range_index",
					     "time_unit", "time_base", "retx_total_timeout",
					     "timeout_init_low_bound", "timeout_init_range_size",
					     "timeout_range", "range", NULL };
	static const char *const rkeys[] = { "prev_range_index", "dec_mode", "timeout_retry_num",
					      "range_low_bound", "range_size", NULL };
	memset(p, 0, sizeof *p);
	if (!json_is_object(j)) {
		failf(c, "adp_timeline: profile must be an object");
		c->bad = true;
		return;
	}
	known_keys(c, j, "profile", keys);
	/* Widths of seed 000's profile layout, so a value the register could not hold is a
	 * malformed vector rather than a silently truncated one. */
	p->qp_total_timeout = (uint8_t)num(c, j, "qp_total_timeout", 0, 1);
	p->range_num = (uint8_t)num(c, j, "range_num", 0, 7);
	p->start_range_index = (uint8_t)num(c, j, "start_range_index", 0, 7);
	p->time_unit = (uint8_t)num(c, j, "time_unit", 1, 3);
	p->time_base = (uint16_t)num(c, j, "time_base", 0, 0xFFFF);
	p->retx_total_timeout = (uint8_t)num(c, j, "retx_total_timeout", 0, 0xFF);
	p->timeout_init_low_bound = (uint8_t)num(c, j, "timeout_init_low_bound", 0, 0xFF);
	p->timeout_init_range_size = (uint8_t)num(c, j, "timeout_init_range_size", 0, 0xFF);
	/* "timeout_range" is the seed's name; "range" the struct's (the tools take both). */
	const json_t *ranges = json_object_get(j, "timeout_range");
	if (!ranges)
		ranges = json_object_get(j, "range");
	if (ranges && (!json_is_array(ranges) || json_array_size(ranges) > NICREF_ADP_MAX_RANGES)) {
		failf(c, "adp_timeline: timeout_range: an array of at most %d ranges",
		      NICREF_ADP_MAX_RANGES);
		c->bad = true;
		return;
	}
	size_t i;
	json_t *r;
	json_array_foreach((json_t *)ranges, i, r)
	{
		struct nicref_adp_range *d = &p->range[i];
		unsigned mode = 0;
		known_keys(c, r, "timeout_range[]", rkeys);
		d->prev_range_index = (uint8_t)num(c, r, "prev_range_index", 0, 7);
		const json_t *m = json_object_get(r, "dec_mode");
		if (m && name_or_num(c, m, "dec_mode", dec_mode_names, 4, &mode) != 0)
			return;
		d->dec_mode = (uint8_t)mode;
		d->timeout_retry_num = (uint16_t)num(c, r, "timeout_retry_num", 0, 0x3FF);
		d->range_low_bound = (uint8_t)num(c, r, "range_low_bound", 0, 0xFF);
		d->range_size = (uint8_t)num(c, r, "range_size", 0, 0xFF);
	}
}

static void read_options(struct ctx *c, const json_t *j, struct nicref_adp_options *o)
{
	static const char *const keys[] = { "first_timeout", "dec_reading", "init_range",
					     "dec_trigger", NULL };
	static const char *const first[] = { "retry_once", "escalate" };
	static const char *const dec[] = { "by_name", "by_amount", "by_factor" };
	static const char *const init[] = { "exclusive", "inclusive" };
	static const char *const trig[] = { "every_progress", "clean_progress" };
	unsigned v;
	memset(o, 0, sizeof *o);
	if (!j)
		return;
	known_keys(c, j, "options", keys);
	const json_t *x;
	if ((x = json_object_get(j, "first_timeout")) && name_or_num(c, x, "first_timeout", first, 2, &v) == 0)
		o->first_timeout = (uint8_t)v;
	if ((x = json_object_get(j, "dec_reading")) && name_or_num(c, x, "dec_reading", dec, 3, &v) == 0)
		o->dec_reading = (uint8_t)v;
	if ((x = json_object_get(j, "init_range")) && name_or_num(c, x, "init_range", init, 2, &v) == 0)
		o->init_range = (uint8_t)v;
	if ((x = json_object_get(j, "dec_trigger")) && name_or_num(c, x, "dec_trigger", trig, 2, &v) == 0)
		o->dec_trigger = (uint8_t)v;
}

/* "loss": the transmissions (0-based) that get no ACK, or "all". */
static void read_loss(struct ctx *c, const json_t *j, uint32_t max_attempts, uint64_t *words,
		      size_t nwords)
{
	memset(words, 0, nwords * sizeof *words);
	if (!j)
		return;
	if (json_is_string(j) && strcmp(json_string_value(j), "all") == 0) {
		for (uint32_t k = 0; k < max_attempts; k++)
			words[k / 64] |= 1ull << (k % 64);
		return;
	}
	size_t i;
	json_t *v;
	if (!json_is_array(j)) {
		failf(c, "adp_timeline: loss: a list of transmission numbers, or \"all\"");
		c->bad = true;
		return;
	}
	json_array_foreach((json_t *)j, i, v)
	{
		uint64_t k;
		char err[160];
		if (jv_u64(v, NS_NONE, &k, err, sizeof err) != 0 || k >= max_attempts) {
			failf(c, "adp_timeline: loss[%zu]: a transmission number below max_attempts "
				 "(%u)", i, max_attempts);
			c->bad = true;
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

/* Compares one expected attempt with what the engine produced. */
static void compare_attempt(struct ctx *c, size_t i, const json_t *want,
			    const struct nicref_adp_attempt *got)
{
	static const char *const keys[] = { "attempt", "message", "sent_ns", "armed_ns", "range",
					     "e", "reason", "lost", NULL };
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)want, key, v)
	{
		char err[160];
		uint64_t w = 0, g;
		if (strcmp(key, "range") == 0) {
			/* -1: no range (the initial value, or the classic timer). */
			if (!json_is_integer(v) || json_integer_value(v) < -1 ||
			    json_integer_value(v) >= NICREF_ADP_MAX_RANGES) {
				failf(c, "adp_timeline: attempts[%zu].range: -1..%d", i,
				      NICREF_ADP_MAX_RANGES - 1);
				continue;
			}
			if (json_integer_value(v) != got->range)
				failf(c, "adp_timeline attempt %zu range: expected %lld, got %d", i,
				      (long long)json_integer_value(v), got->range);
			continue;
		}
		if (strcmp(key, "reason") == 0)
			continue; /* compare_reason */
		unsigned k = 0;
		while (keys[k] && strcmp(keys[k], key) != 0)
			k++;
		if (!keys[k]) {
			failf(c, "adp_timeline: attempts[%zu] has no key '%s'", i, key);
			continue;
		}
		if (jv_u64(v, NS_NONE, &w, err, sizeof err) != 0) {
			failf(c, "adp_timeline: attempts[%zu].%s: %s", i, key, err);
			continue;
		}
		if (strcmp(key, "attempt") == 0)
			g = got->attempt;
		else if (strcmp(key, "message") == 0)
			g = got->message;
		else if (strcmp(key, "sent_ns") == 0)
			g = got->sent_ns;
		else if (strcmp(key, "armed_ns") == 0)
			g = got->armed_ns;
		else if (strcmp(key, "e") == 0)
			g = got->e;
		else
			g = got->lost;
		if (g != w)
			failf(c, "adp_timeline attempt %zu %s: expected %llu, got %llu", i, key,
			      (unsigned long long)w, (unsigned long long)g);
	}
}

static void compare_reason(struct ctx *c, size_t i, const json_t *want,
			   const struct nicref_adp_attempt *got)
{
	const json_t *v = json_object_get(want, "reason");
	if (!v)
		return;
	if (json_is_string(v)) {
		const char *w = json_string_value(v);
		unsigned r = 0;
		while (r < NICREF_ADP_R_COUNT &&
		       strcmp(reason_label(r), w) != 0)
			r++;
		if (r == NICREF_ADP_R_COUNT) {
			failf(c, "adp_timeline: attempts[%zu].reason: unknown reason '%s'", i, w);
			return;
		}
		if (r != got->reason)
			failf(c, "adp_timeline attempt %zu reason: expected %s, got %s", i, w,
			      reason_label(got->reason));
		return;
	}
	failf(c, "adp_timeline: attempts[%zu].reason: a reason name", i);
}

/* The run's ending by name (nicref_adp_end_name), or a number. */
static int end_of(struct ctx *c, const json_t *v, unsigned *out)
{
	const char *names[8] = { NULL };
	unsigned n = 0;
	while (n < 8 && nicref_adp_end_name((enum nicref_adp_end)n))
		names[n] = nicref_adp_end_name((enum nicref_adp_end)n), n++;
	return name_or_num(c, v, "end", names, n, out);
}

static void compare_counter(struct ctx *c, const json_t *wc, const char *name, uint64_t got)
{
	uint64_t w = num(c, wc, name, got, UINT64_MAX);
	if (w != got)
		failf(c, "adp_timeline counter %s: expected %llu, got %llu", name,
		      (unsigned long long)w, (unsigned long long)got);
}

/* The mode from the vector: a profile (validated as ROCE_ACCL would before selecting it),
 * or "device": the mode a QP of the test's device takes at ready-to-send (D-ADP-2). Returns
 * 1 when the run should go on, 0 when it must stop (refused as expected, or failed). */
static int read_mode(struct ctx *c, const json_t *s, const json_t *e,
		     const struct nicref_dev *dev, struct nicref_adp_mode *m)
{
	const json_t *wr = json_object_get(e, "profile_rule");
	memset(m, 0, sizeof *m);
	if (json_is_true(json_object_get(s, "device"))) {
		static const char *const own[] = { "profile", "adp", "retrans_en",
						   "base_timeout_min_ns", "max_range_num",
						   "options", NULL };
		for (unsigned i = 0; own[i]; i++)
			if (json_object_get(s, own[i])) {
				failf(c, "adp_timeline: \"device\": true takes the mode from the "
					 "device, not '%s'", own[i]);
				return 0;
			}
		if (!dev || wr) {
			failf(c, "adp_timeline: \"device\" needs a device and no profile_rule");
			return 0;
		}
		nicref_adp_dev_mode(dev, m);
		return 1;
	}
	const json_t *jadp = json_object_get(s, "adp");
	m->adp = jadp ? json_is_true(jadp) : true;
	const json_t *jen = json_object_get(s, "retrans_en");
	m->retrans_en = jen ? json_is_true(jen) : m->adp;
	m->base_timeout_min_ns = (uint32_t)num(c, s, "base_timeout_min_ns", 4000, 0xFFFFF);
	unsigned max_range_num = (unsigned)num(c, s, "max_range_num", NICREF_ADP_MAX_RANGES, 7);
	const json_t *jprof = json_object_get(s, "profile");
	if (jprof)
		read_profile(c, jprof, &m->profile);
	else if (m->adp) {
		failf(c, "adp_timeline: \"adp\": true needs a profile");
		c->bad = true;
	}
	read_options(c, json_object_get(s, "options"), &m->opt);
	if (c->bad)
		return 0;
	if (!m->adp) {
		if (wr)
			failf(c, "adp_timeline: profile_rule needs \"adp\": true");
		return wr ? 0 : 1;
	}
	enum nicref_adp_rule rule =
		nicref_adp_profile_check(&m->profile, m->base_timeout_min_ns, max_range_num);
	const char *want = json_is_string(wr) ? json_string_value(wr) : "OK";
	const char *got = nicref_adp_rule_name(rule);
	if (!got || strcmp(want, got) != 0) {
		failf(c, "adp_timeline profile check: expected %s, got %s (%s)", want,
		      got ? got : "?", rule ? nicref_adp_rule_citation(rule) : "valid");
		return 0;
	}
	return rule == NICREF_ADP_OK; /* refused as expected: nothing to run */
}

void vec_adp_timeline(const json_t *s, const struct nicref_dev *dev, vec_fail_fn fail,
		      void *fail_ctx)
{
	static const char *const keys[] = { "device", "profile", "adp", "retrans_en",
					     "base_timeout_min_ns", "max_range_num", "qp", "options",
					     "seed", "rtt_ns", "messages", "loss", "max_attempts",
					     "expect", NULL };
	static const char *const qkeys[] = { "timeout", "retry_cnt", NULL };
	static const char *const ekeys[] = { "profile_rule", "end", "attempts", "counters", NULL };
	static const char *const ckeys[] = { "roce_adp_retrans", "roce_adp_retrans_to", NULL };
	struct ctx c = { fail, fail_ctx, 0, false };
	struct nicref_adp_run run;
	memset(&run, 0, sizeof run);

	if (!json_is_object(s)) {
		failf(&c, "adp_timeline: the step's value must be an object");
		return;
	}
	known_keys(&c, s, "adp_timeline", keys);
	const json_t *e = json_object_get(s, "expect");
	if (!json_is_object(e)) {
		failf(&c, "adp_timeline: an expect object is required");
		return;
	}
	known_keys(&c, e, "expect", ekeys);
	const json_t *qp = json_object_get(s, "qp");
	if (qp)
		known_keys(&c, qp, "qp", qkeys);
	/* IB: 5-bit local ACK timeout, 3-bit retry count. */
	run.attr.timeout = (uint8_t)num(&c, qp, "timeout", 0, 31);
	run.attr.retry_cnt = (uint8_t)num(&c, qp, "retry_cnt", 0, 7);
	run.seed = num(&c, s, "seed", 0, UINT64_MAX);
	run.rtt_ns = num(&c, s, "rtt_ns", 0, UINT64_MAX);
	run.messages = (uint32_t)num(&c, s, "messages", 1, UINT32_MAX);
	run.max_attempts = (uint32_t)num(&c, s, "max_attempts", 64, MAX_ATTEMPTS);
	uint64_t loss[MAX_ATTEMPTS / 64];
	read_loss(&c, json_object_get(s, "loss"), run.max_attempts, loss, MAX_ATTEMPTS / 64);
	run.loss = loss;
	run.loss_words = MAX_ATTEMPTS / 64;
	if (c.bad || !read_mode(&c, s, e, dev, &run.mode))
		return;

	static struct nicref_adp_attempt out[MAX_ATTEMPTS];
	size_t n = 0;
	struct nicref_adp_counters cnt;
	memset(&cnt, 0, sizeof cnt);
	enum nicref_adp_end end = nicref_adp_timeline(&run, out, MAX_ATTEMPTS, &n, &cnt);

	const json_t *we = json_object_get(e, "end");
	unsigned w;
	if (we && end_of(&c, we, &w) == 0 && w != (unsigned)end)
		failf(&c, "adp_timeline end: expected %s, got %s",
		      nicref_adp_end_name((enum nicref_adp_end)w),
		      nicref_adp_end_name(end) ? nicref_adp_end_name(end) : "?");
	const json_t *wa = json_object_get(e, "attempts");
	if (wa) {
		if (!json_is_array(wa)) {
			failf(&c, "adp_timeline: attempts must be a list");
			return;
		}
		size_t m = json_array_size(wa);
		for (size_t i = 0; i < m && i < n; i++) {
			const json_t *a = json_array_get(wa, i);
			if (!json_is_object(a)) {
				failf(&c, "adp_timeline: attempts[%zu] must be an object", i);
				continue;
			}
			compare_attempt(&c, i, a, &out[i]);
			compare_reason(&c, i, a, &out[i]);
		}
		if (m != n)
			failf(&c, "adp_timeline: expected %zu attempts, got %zu (attempt %zu %s)", m,
			      n, m < n ? m : n, m < n ? "not expected" : "missing");
	}
	const json_t *wc = json_object_get(e, "counters");
	if (wc) {
		known_keys(&c, wc, "counters", ckeys);
		compare_counter(&c, wc, "roce_adp_retrans", cnt.roce_adp_retrans);
		compare_counter(&c, wc, "roce_adp_retrans_to", cnt.roce_adp_retrans_to);
	}
}
