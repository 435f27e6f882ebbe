/* The differential engine (dut_diff.h): twins, the mirrored stimuli, and the comparison of what
 * a host observes at the end of every stimulus. Naming a difference (which CQE, EQE, command
 * entry or output field) is dut_name.c's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dut_diff.h"
#include "dut_diff_int.h"
#include "dut_load.h"
#include "nicref/nicref.h"

/* ---- the process's DUT: one library, where divergences go ---- */

static struct dut_lib lib;
static dut_diff_handler_fn *handler;
static void *handler_ctx;
static dut_diff_where_fn *where_fn;
static void *where_ctx;
static unsigned long long stimuli_total, divergences_total;

/* Every twin alive: as many as the program creates devices (a fixed bound would leave the
 * device past it without a twin, and a test on it would pass without the DUT). */
static struct dut_pair **pairs;
static unsigned pairs_cap;
unsigned dut_npairs;

/* The guard's view (dut_diff_int.h); here, so that a program without dut_guard.c (the fuzz
 * targets, fuzzers/fuzz.mk's DUT_SRC) links. */
struct dut_pair *volatile dut_guard_pair;
volatile unsigned long dut_guard_calls;

int dut_diff_use(const char *path, char *err, size_t errlen)
{
	if (&dut_model_real == NULL) {
		snprintf(err, errlen, "%s: this program was linked without the DUT interposition "
			 "(harness/dut_wrap.c, DUT_WRAP_LDFLAGS in the Makefile)", path);
		return -1;
	}
	dut_unload(&lib);
	return dut_load(path, &lib, err, errlen);
}

bool dut_diff_active(void)
{
	return lib.ops != NULL;
}

const char *dut_diff_name(void)
{
	return lib.ops && lib.ops->name ? lib.ops->name : "(unnamed DUT)";
}

const char *dut_diff_path(void)
{
	return lib.path;
}

void dut_diff_set_handler(dut_diff_handler_fn *fn, void *ctx)
{
	handler = fn;
	handler_ctx = ctx;
}

bool dut_diff_twinning(void)
{
	return lib.ops && handler;
}

void dut_diff_set_where(dut_diff_where_fn *fn, void *ctx)
{
	where_fn = fn;
	where_ctx = ctx;
}

unsigned long long dut_diff_stimuli(void)
{
	return stimuli_total;
}

unsigned long long dut_diff_divergences_all(void)
{
	return divergences_total;
}

struct dut_pair *dut_pair_of(const struct nicref_dev *model)
{
	for (unsigned i = 0; i < dut_npairs; i++)
		if (pairs[i]->model == model)
			return pairs[i];
	return NULL;
}

/* A callback's context: the pair, or (a program that replaced ops.ctx after create, as
 * rx_fuzz.c does) the model device. */
static struct dut_pair *pair_of_ctx(void *ctx)
{
	for (unsigned i = 0; i < dut_npairs; i++)
		if (pairs[i] == ctx || pairs[i]->model == ctx)
			return pairs[i];
	return NULL;
}

void dut_diff_retarget(const struct nicref_dev *model, dut_diff_handler_fn *fn, void *ctx)
{
	struct dut_pair *p = dut_pair_of(model);
	if (p) {
		p->handler = fn;
		p->handler_ctx = ctx;
	}
}

long long dut_diff_divergences(const struct nicref_dev *model)
{
	const struct dut_pair *p = dut_pair_of(model);
	return p ? (long long)p->ndiv : -1;
}

/* ---- divergences ---- */

static const char *const stim_names[] = {
#define STIM_NAME(id, name) name,
	DUT_STIMULI(STIM_NAME)
#undef STIM_NAME
};

void dut_stim_text(const struct dut_pair *p, char *buf, size_t len)
{
	const struct dut_stim *s = &p->stim;
	const char *n = stim_names[s->kind];
	switch (s->kind) {
	case STIM_BAR_WRITE:
		snprintf(buf, len, "%s(0x%llx, 0x%08llx)", n, (unsigned long long)s->a,
			 (unsigned long long)s->b);
		break;
	case STIM_BAR_READ:
	case STIM_ADVANCE:
		snprintf(buf, len, "%s(0x%llx)", n, (unsigned long long)s->a);
		break;
	case STIM_FRAME_IN:
		snprintf(buf, len, "%s(port %llu, %llu bytes)", n, (unsigned long long)s->a,
			 (unsigned long long)s->b);
		break;
	default:
		snprintf(buf, len, "%s", n);
	}
}

void dut_diverged(struct dut_pair *p, const char *fmt, ...)
{
	p->ndiv++;
	divergences_total++;
	if (p->ndiv > 1 || !p->handler)
		return;
	struct dut_divergence *d = calloc(1, sizeof *d);
	if (!d)
		return;
	d->index = p->nstim;
	dut_stim_text(p, d->stimulus, sizeof d->stimulus);
	if (where_fn)
		where_fn(where_ctx, d->where, sizeof d->where);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->what, sizeof d->what, fmt, ap);
	va_end(ap);
	p->handler(p->handler_ctx, d);
	free(d);
}

void dut_diverged_fatal(struct dut_pair *p, const char *what)
{
	/* On the stack: the DUT may have died inside malloc. */
	struct dut_divergence d;
	p->ndiv++;
	divergences_total++;
	if (!p->handler)
		return;
	memset(&d, 0, sizeof d);
	d.index = p->nstim;
	dut_stim_text(p, d.stimulus, sizeof d.stimulus);
	if (where_fn)
		where_fn(where_ctx, d.where, sizeof d.where);
	snprintf(d.what, sizeof d.what, "%s", what);
	p->handler(p->handler_ctx, &d);
}

/* ---- observations ---- */

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *b = realloc(*buf, n * elem);
	if (!b)
		return -1;
	*buf = b;
	*cap = n;
	return 0;
}

static void note_write(struct dut_side *s, uint64_t addr, size_t len)
{
	if (len == 0)
		return;
	/* Consecutive writes that extend the last range (a CQE after its data) merge. */
	if (s->nw && s->w[s->nw - 1].addr + s->w[s->nw - 1].len == addr) {
		s->w[s->nw - 1].len += len;
		return;
	}
	if (grow((void **)&s->w, &s->capw, s->nw + 1, sizeof *s->w) == 0)
		s->w[s->nw++] = (struct dut_range){ addr, len };
	else
		s->lost = true;
}

static void note_frame(struct dut_side *s, unsigned port, const uint8_t *f, size_t len)
{
	if (grow((void **)&s->fr, &s->capfr, s->nfr + 1, sizeof *s->fr) != 0 ||
	    grow((void **)&s->fbytes, &s->capfb, s->nfb + len, 1) != 0) {
		s->lost = true;
		return;
	}
	s->fr[s->nfr++] = (struct dut_frame){ port, s->nfb, len };
	memcpy(s->fbytes + s->nfb, f, len);
	s->nfb += len;
}

static void note_irq(struct dut_side *s, unsigned vector)
{
	if (grow((void **)&s->irq, &s->capirq, s->nirq + 1, sizeof *s->irq) == 0)
		s->irq[s->nirq++] = vector;
	else
		s->lost = true;
}

static int faulted(const struct dut_pair *p, uint64_t addr, size_t len, unsigned flag)
{
	uint64_t last = addr + (len ? len - 1 : 0);
	for (unsigned i = 0; i < p->nfault; i++) {
		const struct dut_fault *f = &p->fault[i];
		if ((f->flags & flag) && addr <= f->addr + (f->len - 1) && f->addr <= last)
			return 1;
	}
	return 0;
}

/* ---- the model's host ops: the caller's, or the built-in memory's rules ---- */

static int model_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct dut_pair *p = pair_of_ctx(ctx);
	if (p->user.dma_read)
		return p->user.dma_read(p->user.ctx, addr, buf, len);
	return faulted(p, addr, len, NICREF_FAULT_READ) ? -1
							 : nicref_hostmem_read(p->model, addr, buf, len);
}

static int model_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct dut_pair *p = pair_of_ctx(ctx);
	int rc;
	if (p->user.dma_write) {
		p->depth_user++;
		rc = p->user.dma_write(p->user.ctx, addr, buf, len);
		p->depth_user--;
	} else {
		rc = faulted(p, addr, len, NICREF_FAULT_WRITE)
			     ? -1
			     : dut_model_real.hostmem_write(p->model, addr, buf, len);
	}
	if (rc == 0)
		dut_model_wrote(p, addr, len);
	return rc;
}

void dut_model_wrote(struct dut_pair *p, uint64_t addr, size_t len)
{
	/* Without a DUT (it refused the configuration) there is nothing to compare with. */
	if (p->dut)
		note_write(&p->side[0], addr, len);
	p->last_addr = addr;
	p->last_len = len;
}

static void model_frame(void *ctx, unsigned port, const uint8_t *f, size_t len)
{
	struct dut_pair *p = pair_of_ctx(ctx);
	if (p->dut)
		note_frame(&p->side[0], port, f, len);
	if (p->user.wire_tx)
		p->user.wire_tx(p->user.ctx, port, f, len);
}

static void model_irq(void *ctx, unsigned vector)
{
	struct dut_pair *p = pair_of_ctx(ctx);
	if (p->dut)
		note_irq(&p->side[0], vector);
	if (p->user.interrupt)
		p->user.interrupt(p->user.ctx, vector);
}

static void model_trace(void *ctx, const struct nicref_event *ev)
{
	struct dut_pair *p = ctx;
	if (p->user_trace)
		p->user_trace(p->user_trace_ctx, ev);
	dut_name_event(p, ev);
}

/* ---- the DUT's host: its own memory, the same rules ---- */

static int dut_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct dut_pair *p = ctx;
	if (!p->user.dma_read && faulted(p, addr, len, NICREF_FAULT_READ))
		return -1;
	return nicref_hostmem_read(p->mem, addr, buf, len);
}

static int dut_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct dut_pair *p = ctx;
	if (!p->user.dma_write && faulted(p, addr, len, NICREF_FAULT_WRITE))
		return -1;
	int rc = dut_model_real.hostmem_write(p->mem, addr, buf, len);
	if (rc == 0)
		note_write(&p->side[1], addr, len);
	return rc;
}

static void dut_frame(void *ctx, unsigned port, const uint8_t *f, size_t len)
{
	note_frame(&((struct dut_pair *)ctx)->side[1], port, f, len);
}

static void dut_irq(void *ctx, unsigned vector)
{
	note_irq(&((struct dut_pair *)ctx)->side[1], vector);
}

/* ---- create, destroy ---- */

static void side_free(struct dut_side *s)
{
	free(s->w);
	free(s->fr);
	free(s->fbytes);
	free(s->irq);
}

struct nicref_dev *dut_pair_create(const struct nicref_config *cfg)
{
	const struct dut_model_fns *m = &dut_model_real;
	if (dut_npairs == pairs_cap) {
		unsigned n = pairs_cap ? 2 * pairs_cap : 8;
		struct dut_pair **g = realloc(pairs, n * sizeof *g);
		if (!g)
			return NULL; /* out of memory: no device rather than one not compared */
		pairs = g;
		pairs_cap = n;
	}
	struct dut_pair *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	struct nicref_config c = *cfg;
	p->user = cfg->ops;
	p->user_trace = cfg->trace;
	p->user_trace_ctx = cfg->trace_ctx;
	c.ops = (struct nicref_host_ops){ p, model_dma_read, model_dma_write, model_frame,
					  model_irq };
	c.trace = model_trace;
	c.trace_ctx = p;
	p->log_stride = cfg->profile.log_cmdq_stride;
	p->handler = handler;
	p->handler_ctx = handler_ctx;
	if (!(p->model = m->dev_create(&c))) {
		free(p);
		return NULL;
	}
	/* The DUT's host memory: a second instance's built-in memory, the model's profile. */
	struct nicref_config mc;
	nicref_config_default(&mc);
	mc.profile = cfg->profile;
	p->mem = m->dev_create(&mc);
	struct nicref_dut_config dc;
	dut_config_of(cfg, &dc);
	struct nicref_dut_host host = { p, dut_dma_read, dut_dma_write, dut_frame, dut_irq };
	pairs[dut_npairs++] = p;
	/* Messages name the create as stimulus 0 of the device (the count starts after it). */
	p->stim = (struct dut_stim){ STIM_CREATE, 0, 0 };
	if (!p->mem) {
		dut_diverged(p, "out of memory creating the DUT's host memory: not compared");
		return p->model;
	}
	dut_guard_enter(p);
	p->dut = lib.ops->create(&host, &dc);
	dut_guard_leave();
	if (!p->dut)
		dut_diverged(p, "the DUT (%s) refused to create the device: create returned NULL "
			     "for seed 0x%llx and this profile (a profile it does not implement?)",
			     dut_diff_name(), (unsigned long long)cfg->seed);
	return p->model;
}

void dut_pair_destroy(struct dut_pair *p)
{
	for (unsigned i = 0; i < dut_npairs; i++)
		if (pairs[i] == p) {
			pairs[i] = pairs[--dut_npairs];
			break;
		}
	if (p->dut) {
		p->stim = (struct dut_stim){ STIM_DESTROY, 0, 0 };
		dut_guard_enter(p);
		lib.ops->destroy(p->dut);
		dut_guard_leave();
	}
	if (p->mem)
		dut_model_real.dev_destroy(p->mem);
	dut_model_real.dev_destroy(p->model);
	side_free(&p->side[0]);
	side_free(&p->side[1]);
	free(p);
}

/* ---- comparing, at the end of each stimulus ---- */

static void side_clear(struct dut_side *s)
{
	s->nw = s->nfr = s->nfb = s->nirq = 0;
	s->lost = false;
}

static bool mem_differs(struct dut_pair *p, const struct dut_range *r)
{
	uint8_t a[512], b[512];
	for (uint64_t at = r->addr, end = r->addr + r->len; at < end;) {
		size_t n = end - at < sizeof a ? (size_t)(end - at) : sizeof a;
		/* Both wrote or could have: a range one cannot read back is not compared, and
		 * says so (a silent "no difference" would pass a test the DUT was not checked on). */
		int ra = nicref_hostmem_read(p->model, at, a, n);
		int rb = nicref_hostmem_read(p->mem, at, b, n);
		if (ra != 0 || rb != 0) {
			dut_diverged(p, "host memory 0x%llx (%zu bytes): cannot read back what %s "
				     "wrote: not compared", (unsigned long long)at, n,
				     ra && rb ? "the model and the DUT" : ra ? "the model" : "the DUT");
			return true;
		}
		if (memcmp(a, b, n) != 0) {
			size_t i = 0;
			while (a[i] == b[i])
				i++;
			dut_name_memory(p, at + i, a[i], b[i]);
			return true;
		}
		at += n;
	}
	return false;
}

/* The frames of a side by port, in order within a port (sorted by port, then position): a
 * stimulus may put out tens of thousands of frames (LSO), so the comparison is n log n. */
static const struct dut_side *sort_side;
static int by_port(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	unsigned pi = sort_side->fr[i].port, pj = sort_side->fr[j].port;
	return pi != pj ? (pi < pj ? -1 : 1) : (i > j) - (i < j);
}

static size_t *by_port_order(const struct dut_side *s)
{
	size_t *o = malloc((s->nfr ? s->nfr : 1) * sizeof *o);
	if (!o)
		return NULL;
	for (size_t i = 0; i < s->nfr; i++)
		o[i] = i;
	sort_side = s;
	qsort(o, s->nfr, sizeof *o, by_port);
	return o;
}

/* 0, or 1 after reporting the first frame that differs (per port, in order). */
static int compare_frames(struct dut_pair *p, const size_t *om, const size_t *od)
{
	const struct dut_side *m = &p->side[0], *d = &p->side[1];
	size_t i = 0, j = 0, k = 0;
	while (i < m->nfr || j < d->nfr) {
		const struct dut_frame *a = i < m->nfr ? &m->fr[om[i]] : NULL;
		const struct dut_frame *b = j < d->nfr ? &d->fr[od[j]] : NULL;
		if (!a || !b || a->port != b->port) {
			/* One side has more frames on the lower port. */
			unsigned port = !b || (a && a->port < b->port) ? a->port : b->port;
			size_t nm = 0, nd = 0;
			for (size_t x = 0; x < m->nfr; x++)
				nm += m->fr[x].port == port;
			for (size_t x = 0; x < d->nfr; x++)
				nd += d->fr[x].port == port;
			dut_diverged(p, "frames out on port %u: the model put out %zu, the DUT %zu",
				     port, nm, nd);
			return 1;
		}
		const uint8_t *fa = m->fbytes + a->off, *fb = d->fbytes + b->off;
		size_t n = a->len < b->len ? a->len : b->len, at = 0;
		while (at < n && fa[at] == fb[at])
			at++;
		if (at < n || a->len != b->len) {
			dut_name_frame(p, a->port, k, fa, a->len, fb, b->len, at);
			return 1;
		}
		i++, j++;
		k = i < m->nfr && m->fr[om[i]].port == a->port ? k + 1 : 0;
	}
	return 0;
}

static bool frames_differ(struct dut_pair *p)
{
	if (p->side[0].nfr == 0 && p->side[1].nfr == 0)
		return false;
	size_t *om = by_port_order(&p->side[0]), *od = by_port_order(&p->side[1]);
	int rc = om && od ? compare_frames(p, om, od) : -1;
	free(om);
	free(od);
	if (rc < 0)
		dut_diverged(p, "out of memory comparing frames: not compared");
	return rc != 0;
}

static int by_vector(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

static bool irqs_differ(struct dut_pair *p)
{
	struct dut_side *m = &p->side[0], *d = &p->side[1];
	if (m->nirq == 0 && d->nirq == 0)
		return false;
	/* Per vector, how many: the order between vectors is not the host's to see. */
	qsort(m->irq, m->nirq, sizeof *m->irq, by_vector);
	qsort(d->irq, d->nirq, sizeof *d->irq, by_vector);
	size_t i = 0;
	while (i < m->nirq && i < d->nirq && m->irq[i] == d->irq[i])
		i++;
	if (i == m->nirq && i == d->nirq)
		return false;
	unsigned v = i == m->nirq ? d->irq[i] : i == d->nirq ? m->irq[i]
			  : m->irq[i] < d->irq[i] ? m->irq[i] : d->irq[i];
	size_t a = 0, b = 0;
	for (size_t x = 0; x < m->nirq; x++)
		a += m->irq[x] == v;
	for (size_t x = 0; x < d->nirq; x++)
		b += d->irq[x] == v;
	dut_diverged(p, "interrupt vector %u: the model raised it %zu time%s, the DUT %zu", v, a,
		     a == 1 ? "" : "s", b);
	return true;
}

static void sync(struct dut_pair *p)
{
	if (p->side[0].lost || p->side[1].lost)
		dut_diverged(p, "out of memory recording what the devices did: not compared");
	else {
		bool found = false;
		for (int s = 0; s < 2 && !found; s++)
			for (size_t i = 0; i < p->side[s].nw && !found; i++)
				found = mem_differs(p, &p->side[s].w[i]);
		if (!found && !frames_differ(p))
			(void)irqs_differ(p);
	}
	side_clear(&p->side[0]);
	side_clear(&p->side[1]);
	p->nreg = 0;
}

static void begin(struct dut_pair *p, enum dut_stim_kind kind, uint64_t a, uint64_t b)
{
	p->stim = (struct dut_stim){ kind, a, b };
	p->nstim++;
	stimuli_total++;
}

/* ---- the stimuli ---- */

void dut_pair_reset(struct dut_pair *p)
{
	p->in_model = true;
	dut_model_real.dev_reset(p->model);
	p->in_model = false;
	p->nstim = 0;
	begin(p, STIM_RESET, 0, 0);
	if (p->dut) {
		dut_guard_enter(p);
		lib.ops->reset(p->dut);
		dut_guard_leave();
	}
	p->cmdq_addr = 0;
	sync(p);
}

uint32_t dut_pair_bar_read32(struct dut_pair *p, uint32_t offset)
{
	begin(p, STIM_BAR_READ, offset, 0);
	p->in_model = true;
	uint32_t v = dut_model_real.bar_read32(p->model, offset);
	p->in_model = false;
	if (!p->dut)
		return v;
	dut_guard_enter(p);
	uint32_t w = lib.ops->bar_read32(p->dut, offset);
	dut_guard_leave();
	sync(p);
	if (v != w)
		dut_name_bar(p, offset, v, w);
	return v;
}

void dut_pair_bar_write32(struct dut_pair *p, uint32_t offset, uint32_t value)
{
	begin(p, STIM_BAR_WRITE, offset, value);
	/* The command queue's address (PRM §4.3 T8), to name the entries in messages. */
	if (offset == 0x10)
		p->cmdq_hi = value;
	else if (offset == 0x14)
		p->cmdq_addr = (uint64_t)p->cmdq_hi << 32 | (value & 0xFFFFF000u);
	p->in_model = true;
	dut_model_real.bar_write32(p->model, offset, value);
	p->in_model = false;
	if (!p->dut)
		return;
	dut_guard_enter(p);
	lib.ops->bar_write32(p->dut, offset, value);
	dut_guard_leave();
	sync(p);
}

void dut_pair_clock_advance(struct dut_pair *p, uint64_t ns)
{
	begin(p, STIM_ADVANCE, ns, 0);
	p->in_model = true;
	dut_model_real.clock_advance(p->model, ns);
	p->in_model = false;
	if (!p->dut)
		return;
	dut_guard_enter(p);
	lib.ops->time_advance(p->dut, ns);
	dut_guard_leave();
	sync(p);
}

int dut_pair_wire_rx(struct dut_pair *p, unsigned port, const uint8_t *frame, size_t len)
{
	begin(p, STIM_FRAME_IN, port, len);
	p->in_model = true;
	int rc = dut_model_real.wire_rx(p->model, port, frame, len);
	p->in_model = false;
	if (!p->dut)
		return rc;
	dut_guard_enter(p);
	int drc = lib.ops->frame_in(p->dut, port, frame, len);
	dut_guard_leave();
	/* nicref/dut.h: 0, or -1 when port is not a port of the device: the model's answer. */
	if ((drc != 0) != (rc != 0))
		dut_diverged(p, "frame_in on port %u returned %d, the model %d (-1: not a port of "
			     "the device)", port, drc, rc);
	sync(p);
	return rc;
}

int dut_pair_hostmem_write(struct dut_pair *p, uint64_t addr, const void *buf, size_t len)
{
	int rc = dut_model_real.hostmem_write(p->model, addr, buf, len);
	if (p->depth_user) {
		/* Inside the model's DMA: a program's own dma_write op passing the device's write
		 * on to the built-in memory (rx_fuzz.c) — the device writing, not the host. */
		return rc;
	}
	if (p->in_model) {
		if (rc == 0)
			dut_model_wrote(p, addr, len);
		return rc;
	}
	begin(p, STIM_HOST_WRITE, addr, len);
	if (p->mem)
		(void)dut_model_real.hostmem_write(p->mem, addr, buf, len);
	return rc;
}

void dut_pair_hostmem_clear(struct dut_pair *p)
{
	begin(p, STIM_HOST_CLEAR, 0, 0);
	dut_model_real.hostmem_clear(p->model);
	if (p->mem)
		dut_model_real.hostmem_clear(p->mem);
	p->nfault = 0;
}

int dut_pair_hostmem_fault(struct dut_pair *p, uint64_t addr, uint64_t len, unsigned flags)
{
	begin(p, STIM_HOST_FAULT, addr, len);
	int rc = dut_model_real.hostmem_fault(p->model, addr, len, flags);
	if (rc == 0 && p->nfault < DUT_MAX_FAULTS)
		p->fault[p->nfault++] = (struct dut_fault){ addr, len, flags };
	return rc;
}
