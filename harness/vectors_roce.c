/* The two-device form of the vectors (docs/vectors.md "RoCE", "Two devices"): device b beside
 * the test's device a, joined by a link (nicref/link.h), the "dev" of a step, the link and
 * link_counters steps and advance_ns on both devices.
 *
 * The runner's steps act on the device whose fields are in struct run (r->dev, its events, its
 * command slots, its send and receive path state, its driver). Device b's are kept in a struct
 * vec_side and swapped in while a step of device b runs, so every step works on either device
 * unchanged. The devices' callbacks (trace, wire_tx) are routed by the device that made them:
 * an event or a frame of the device whose fields are out goes to its own lists all the same
 * (swapped in for the moment of the call). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicref/link.h"
#include "vectors_roce_int.h"

#define LINK_CAPACITY 256u
#define LINK_MAX_FRAME 16384u

struct vec_roce *vec_roce(struct run *r)
{
	if (!r->roce)
		r->roce = calloc(1, sizeof *r->roce);
	return r->roce;
}

#define SWAP(field)                                                                                \
	do {                                                                                       \
		__typeof__(r->field) t_ = r->field;                                                \
		r->field = o->field;                                                               \
		o->field = t_;                                                                     \
	} while (0)

static void swap_side(struct run *r, struct vec_side *o)
{
	struct posted slot[MAX_SLOTS];
	SWAP(dev);
	SWAP(ev);
	SWAP(ev_matched);
	SWAP(nev);
	SWAP(cap_ev);
	SWAP(ev_cursor);
	memcpy(slot, r->slot, sizeof slot);
	memcpy(r->slot, o->slot, sizeof slot);
	memcpy(o->slot, slot, sizeof slot);
	SWAP(dma_faults);
	SWAP(tx);
	SWAP(drv);
	SWAP(drv_live);
	SWAP(sq);
	SWAP(cap);
	SWAP(rx);
	SWAP(rxs);
}

int vec_roce_use(struct run *r, int idx)
{
	struct vec_roce *x = r->roce;
	if (!x || x->cur == idx)
		return x ? x->cur : 0;
	int prev = x->cur;
	swap_side(r, &x->other);
	x->cur = idx;
	/* Device b's events are not written to --trace as device a's (vectors.c writes the
	 * line); its router writes them with their device. */
	return prev;
}

/* ---- callbacks of the two devices ---- */

static void route_event(void *ctx, const struct nicref_event *ev)
{
	const struct vec_roce_ctx *c = ctx;
	struct run *r = c->r;
	int idx = c->idx;
	struct vec_roce *x = r->roce;
	int prev = vec_roce_use(r, idx);
	if (idx == 1 && r->opt->trace) {
		char line[256];
		nicref_event_format(ev, line, sizeof line);
		fprintf(r->opt->trace, "%s#%ld b %s\n", r->file, r->tc_id, line);
		x->opt_saved = r->opt;
		x->opt_quiet = *r->opt;
		x->opt_quiet.trace = NULL;
		r->opt = &x->opt_quiet;
		x->on_event(r, ev);
		r->opt = x->opt_saved;
	} else {
		x->on_event(r, ev);
	}
	vec_roce_use(r, prev);
}

static void route_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	const struct vec_roce_ctx *c = ctx;
	struct run *r = c->r;
	int idx = c->idx;
	int prev = vec_roce_use(r, idx);
	vec_wire_tx(r, port, frame, len);
	struct nicref_dev *from = r->dev;
	vec_roce_use(r, prev);
	if (r->roce->link)
		(void)nicref_link_tx(r->roce->link, from, port, frame, len);
}

/* ---- a test's devices ---- */

static unsigned group_devices(const json_t *group)
{
	const json_t *d = json_object_get(group, "devices");
	return d && json_integer_value(d) == 2 ? 2 : 1;
}

static void qp_reset(struct vec_roce *x)
{
	memset(x->q, 0, sizeof x->q);
	x->qp_setup = false;
}

int vec_roce_config(struct run *r, const json_t *group)
{
	unsigned n = group_devices(group);
	if (n == 1 && !r->roce)
		return 0;
	struct vec_roce *x = vec_roce(r);
	if (!x) {
		vbad(r, NULL, "out of memory");
		return -1;
	}
	x->devices = n;
	x->cur = 0;
	qp_reset(x);
	if (n == 1)
		return 0;
	for (int i = 0; i < 2; i++) {
		x->ctx[i].r = r;
		x->ctx[i].idx = i;
	}
	x->on_event = r->cfg.trace;
	r->cfg.trace = route_event;
	r->cfg.trace_ctx = &x->ctx[0];
	r->cfg.ops.wire_tx = route_wire_tx;
	r->cfg.ops.ctx = &x->ctx[0];
	return 0;
}

/* The test cannot run: what vec_roce_open made goes, device a too (the test ends here). */
static int open_failed(struct run *r)
{
	struct vec_roce *x = r->roce;
	nicref_link_destroy(x->link);
	x->link = NULL;
	nicref_dev_destroy(x->other.dev);
	x->other.dev = NULL;
	nicref_dev_destroy(r->dev);
	r->dev = NULL;
	return -1;
}

int vec_roce_open(struct run *r)
{
	struct vec_roce *x = r->roce;
	if (!x || x->devices != 2)
		return 0;
	if (r->opt->dut) {
		vbad(r, "devices", "a group of two devices does not run against a DUT (--dut drives one "
				   "device)");
		return open_failed(r);
	}
	struct vec_side *o = &x->other;
	/* Device b's lists and buffers are kept from test to test (like device a's), emptied:
	 * its events, slots, send and receive path state and the frames it sent. */
	vec_roce_use(r, 1);
	vec_tx_start(r);
	r->nev = r->ev_cursor = 0;
	memset(r->slot, 0, sizeof r->slot);
	r->dma_faults = 0;
	r->drv_live = false;
	vec_roce_use(r, 0);
	struct nicref_config cfg = r->cfg;
	cfg.seed = r->cfg.seed + 1;
	cfg.trace_ctx = &x->ctx[1];
	cfg.ops.ctx = &x->ctx[1];
	o->dev = nicref_dev_create(&cfg);
	if (!o->dev) {
		vbad(r, "devices", "device b: nicref_dev_create refused");
		return open_failed(r);
	}
	x->link = nicref_link_create(r->dev, 1, o->dev, 1, LINK_CAPACITY, LINK_MAX_FRAME);
	if (!x->link) {
		vbad(r, "devices", "out of memory (the link)");
		return open_failed(r);
	}
	/* Two devices make no op-stream seed: the stream has one device. */
	r->rec.failed = 1;
	return 0;
}

void vec_roce_end(struct run *r)
{
	struct vec_roce *x = r->roce;
	if (!x)
		return;
	vec_roce_use(r, 0);
	if (x->devices == 2 && x->other.dev) {
		vec_roce_use(r, 1);
		vec_unexpected(r); /* device b's violations and invariants too */
		if (r->drv_live)
			refdrv_fini(r->drv);
		r->drv_live = false;
		vec_roce_use(r, 0);
	}
	nicref_link_destroy(x->link);
	x->link = NULL;
	nicref_dev_destroy(x->other.dev);
	x->other.dev = NULL;
	qp_reset(x);
}

void vec_roce_free(struct run *r)
{
	struct vec_roce *x = r->roce;
	if (!x)
		return;
	free(x->other.ev);
	free(x->other.ev_matched);
	free(x->other.drv);
	free(x->other.sq);
	free(x->other.cap);
	free(x->other.rxs);
	free(x);
	r->roce = NULL;
}

/* ---- checking: groups and tests ---- */

void vec_roce_group(struct run *r, const json_t *group)
{
	unsigned n = group_devices(group);
	if (n == 1 && !r->roce)
		return;
	struct vec_roce *x = vec_roce(r);
	if (!x)
		return;
	x->devices = n;
	x->cur = 0;
	qp_reset(x);
	x->other.tx = (struct vec_tx){ .stage = -1 };
	memset(&x->other.rx, 0, sizeof x->other.rx);
	memset(x->other.slot, 0, sizeof x->other.slot);
	x->other.dma_faults = 0;
}

void vec_roce_save(struct run *r)
{
	struct vec_roce *x = r->roce;
	if (!x)
		return;
	vec_roce_use(r, 0);
	x->saved_b = x->other;
	memcpy(x->saved_q, x->q, sizeof x->q);
	x->saved_qp_setup = x->qp_setup;
}

void vec_roce_restore(struct run *r)
{
	struct vec_roce *x = r->roce;
	if (!x)
		return;
	vec_roce_use(r, 0);
	x->other = x->saved_b;
	memcpy(x->q, x->saved_q, sizeof x->q);
	x->qp_setup = x->saved_qp_setup;
}

/* ---- the steps' device ---- */

static bool both_devices_kind(const char *kind)
{
	return !strcmp(kind, "qp_setup") || !strcmp(kind, "link") ||
	       !strcmp(kind, "link_counters") || !strcmp(kind, "advance_ns");
}

int vec_roce_step_begin(struct run *r, const json_t *step, const char *kind)
{
	const json_t *dev = json_object_get(step, "dev");
	struct vec_roce *x = r->roce;
	unsigned n = x ? x->devices : 1;
	if (!dev) {
		if (n == 1 && (!strcmp(kind, "link") || !strcmp(kind, "link_counters"))) {
			vbad(r, NULL, "the %s step needs a group of two devices (\"devices\": 2)", kind);
			return -2;
		}
		return 0;
	}
	const char *v = json_string_value(dev);
	if (n == 1) {
		vbad(r, "dev", "the group has one device (\"devices\": 2 for two)");
		return -2;
	}
	if (!v || (strcmp(v, "a") && strcmp(v, "b"))) {
		vbad(r, "dev", "a device is \"a\" or \"b\"");
		return -2;
	}
	if (both_devices_kind(kind)) {
		vbad(r, "dev", "the %s step acts on both devices: it takes no dev", kind);
		return -2;
	}
	return vec_roce_use(r, v[0] == 'b' ? 1 : 0);
}

void vec_roce_step_end(struct run *r, int prev)
{
	struct vec_roce *x = r->roce;
	if (!x || prev < 0)
		return;
	vec_roce_use(r, prev);
	/* Frames already due go across at once (a link with no delay delivers within the step). */
	if (!r->checking && x->link)
		(void)nicref_link_deliver(x->link);
}

bool vec_roce_advance(struct run *r, uint64_t ns)
{
	struct vec_roce *x = r->roce;
	if (!x || x->devices != 2)
		return false;
	if (!r->checking && x->link)
		nicref_link_advance(x->link, ns);
	return true;
}

/* ---- link ---- */

static int ordinals(struct run *r, const json_t *s, const char *key, uint64_t *list, uint8_t *n)
{
	const json_t *a = json_object_get(s, key), *v;
	size_t i;
	*n = 0;
	if (!a)
		return 0;
	if (json_array_size(a) > NICREF_LINK_MAX_LIST) {
		vbad(r, key, "%zu ordinals: at most %u", json_array_size(a), NICREF_LINK_MAX_LIST);
		return -1;
	}
	json_array_foreach(a, i, v)
	{
		char f[32];
		snprintf(f, sizeof f, "%s[%zu]", key, i);
		if (vnum_at(r, f, v, NS_NONE, 64, &list[i]))
			return -1;
	}
	*n = (uint8_t)json_array_size(a);
	return 0;
}

static int ppm(struct run *r, const json_t *s, const char *key, uint32_t *out)
{
	uint64_t v;
	if (vnum(r, s, key, NS_NONE, 64, 0, &v))
		return -1;
	if (v > NICREF_LINK_PPM) {
		vbad(r, key, "%llu parts per million: at most %u", (unsigned long long)v,
		     NICREF_LINK_PPM);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int ns_key(struct run *r, const json_t *s, const char *key, uint64_t dflt, uint64_t *out)
{
	if (vnum(r, s, key, NS_NONE, 64, dflt, out))
		return -1;
	if (*out > NICREF_LINK_MAX_NS) {
		vbad(r, key, "%llu ns: at most 2^40", (unsigned long long)*out);
		return -1;
	}
	return 0;
}

void st_link(struct run *r, const json_t *s)
{
	struct nicref_link_faults f;
	uint64_t every, thr, tick;
	nicref_link_faults_default(&f);
	const json_t *jd = json_object_get(s, "dir");
	const char *dir = jd ? json_string_value(jd) : "both";
	if (!dir || (strcmp(dir, "ab") && strcmp(dir, "ba") && strcmp(dir, "both"))) {
		vbad(r, "dir", "a direction is \"ab\", \"ba\" or \"both\"");
		return;
	}
	if (ns_key(r, s, "delay_ns", 0, &f.delay_ns) || vnum(r, s, "seed", NS_NONE, 64, 0, &f.seed) ||
	    ordinals(r, s, "loss", f.loss, &f.nloss) ||
	    vnum(r, s, "loss_every", NS_NONE, 32, 0, &every) || ppm(r, s, "loss_ppm", &f.loss_ppm) ||
	    ordinals(r, s, "duplicate", f.duplicate, &f.nduplicate) ||
	    ppm(r, s, "duplicate_ppm", &f.duplicate_ppm) ||
	    ordinals(r, s, "reorder", f.reorder, &f.nreorder) ||
	    ppm(r, s, "reorder_ppm", &f.reorder_ppm) ||
	    ns_key(r, s, "reorder_ns", 1000, &f.reorder_ns) ||
	    ordinals(r, s, "ce", f.ce, &f.nce) || ppm(r, s, "ce_ppm", &f.ce_ppm) ||
	    vnum(r, s, "ce_threshold", NS_NONE, 32, 0, &thr) || ns_key(r, s, "tick_ns", 0, &tick))
		return;
	f.loss_every = (uint32_t)every;
	f.ce_threshold = (uint32_t)thr;
	if (r->checking || !r->roce || !r->roce->link)
		return;
	struct nicref_link *l = r->roce->link;
	if (strcmp(dir, "ba"))
		(void)nicref_link_set_faults(l, NICREF_LINK_AB, &f);
	if (strcmp(dir, "ab"))
		(void)nicref_link_set_faults(l, NICREF_LINK_BA, &f);
	(void)nicref_link_set_tick(l, tick);
}

static const struct {
	const char *name;
	size_t off;
} link_counter[] = {
	{ "entered", offsetof(struct nicref_link_counters, entered) },
	{ "delivered", offsetof(struct nicref_link_counters, delivered) },
	{ "lost", offsetof(struct nicref_link_counters, lost) },
	{ "duplicated", offsetof(struct nicref_link_counters, duplicated) },
	{ "reordered", offsetof(struct nicref_link_counters, reordered) },
	{ "ce_marked", offsetof(struct nicref_link_counters, ce_marked) },
	{ "ce_not_ect", offsetof(struct nicref_link_counters, ce_not_ect) },
	{ "overflow", offsetof(struct nicref_link_counters, overflow) },
	{ "queued", offsetof(struct nicref_link_counters, queued) },
};

void st_link_counters(struct run *r, const json_t *s)
{
	static const char *const dirs[2] = { "ab", "ba" };
	for (int d = 0; d < 2; d++) {
		const json_t *o = json_object_get(s, dirs[d]), *v;
		const char *key;
		if (!o)
			continue;
		struct nicref_link_counters c = { 0 };
		if (!r->checking && r->roce && r->roce->link)
			nicref_link_counters(r->roce->link, (enum nicref_link_dir)d, &c);
		json_object_foreach((json_t *)o, key, v)
		{
			char f[48];
			size_t k = 0, n = sizeof link_counter / sizeof link_counter[0];
			while (k < n && strcmp(link_counter[k].name, key))
				k++;
			snprintf(f, sizeof f, "%s.%s", dirs[d], key);
			if (k == n) {
				vbad(r, f, "not a counter of the link (entered, delivered, lost, "
					   "duplicated, reordered, ce_marked, ce_not_ect, overflow, queued)");
				return;
			}
			if (cmp_check(r, f, v, NS_NONE, 64))
				return;
			if (cmp_open(v, NS_NONE, 64))
				r->open_cmps++;
			if (r->checking)
				continue;
			uint64_t got;
			memcpy(&got, (const char *)&c + link_counter[k].off, sizeof got);
			if (!cmp_holds(v, NS_NONE, got)) {
				char want[96];
				cmp_text(v, NS_NONE, want, sizeof want);
				vfail(r, "link_counters %s: expected %s, got %llu", f, want,
				      (unsigned long long)got);
			}
		}
	}
}
