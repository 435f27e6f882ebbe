/* The unit tests' library (testlib.h). */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#include "cmdbuild.h"
#include "cmd/ctl_dev.h"

/* ---- Bytes ------------------------------------------------------------------------------------- */

void tl_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t tl_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint64_t tl_get64(const uint8_t *b, unsigned off)
{
	return (uint64_t)tl_get32(b + off) << 32 | tl_get32(b + off + 4);
}

static uint32_t mask_of(unsigned msb, unsigned lsb)
{
	return msb - lsb == 31 ? UINT32_MAX : ((1u << (msb - lsb + 1)) - 1) << lsb;
}

void tl_setf(uint8_t *b, unsigned off, unsigned msb, unsigned lsb, uint32_t v)
{
	uint32_t w = mask_of(msb, lsb);
	tl_put32(b + off, (tl_get32(b + off) & ~w) | ((v << lsb) & w));
}

uint32_t tl_getf(const uint8_t *b, unsigned off, unsigned msb, unsigned lsb)
{
	return (tl_get32(b + off) & mask_of(msb, lsb)) >> lsb;
}

uint8_t tl_xor(const uint8_t *p, size_t n)
{
	uint8_t x = 0;
	while (n--)
		x ^= *p++;
	return x;
}

uint8_t tl_xor_index(const uint8_t *p, size_t n, uint32_t index)
{
	return tl_xor(p, n) ^ (uint8_t)(index >> 16) ^ (uint8_t)(index >> 8) ^ (uint8_t)index;
}

/* ---- The trace --------------------------------------------------------------------------------- */

void tl_trace_event(void *ctx, const struct nicref_event *ev)
{
	struct tl_trace *tr = ctx;
	if (tr->n < TL_MAX_EVENTS)
		tr->ev[tr->n++] = *ev;
	else
		tr->dropped++;
	if ((unsigned)ev->kind < NICREF_EV_COUNT)
		tr->kinds[ev->kind]++;
	if (ev->kind == NICREF_EV_VIOLATION) {
		tr->violations++;
		tr->last_violation = (unsigned)ev->arg[0];
		tr->last_violation_arg = ev->arg[1];
		if (ev->arg[0] < NICREF_VIO_COUNT) {
			tr->vio[ev->arg[0]]++;
			tr->vio_arg[ev->arg[0]] = ev->arg[1];
		}
	}
	if (ev->kind == NICREF_EV_CMD_FAIL)
		tr->last_rule = (unsigned)ev->arg[2];
}

void tl_mark(struct tl_trace *tr)
{
	tr->n = 0;
	tr->dropped = 0;
	memset(tr->kinds, 0, sizeof tr->kinds);
	tr->violations = 0;
	memset(tr->vio, 0, sizeof tr->vio);
	memset(tr->vio_arg, 0, sizeof tr->vio_arg);
	tr->last_violation = 0;
	tr->last_violation_arg = 0;
	tr->last_rule = 0;
}

size_t tl_count(const struct tl_trace *tr, enum nicref_event_kind k)
{
	return (unsigned)k < NICREF_EV_COUNT ? tr->kinds[k] : 0;
}

const struct nicref_event *tl_nth(const struct tl_trace *tr, enum nicref_event_kind k, size_t i)
{
	for (size_t j = 0; j < tr->n; j++)
		if (tr->ev[j].kind == k && i-- == 0)
			return &tr->ev[j];
	cr_assert_eq(tr->dropped, 0, "%zu events past the %u the test keeps", tr->dropped,
		     TL_MAX_EVENTS);
	return NULL;
}

const struct nicref_event *tl_only(const struct tl_trace *tr, enum nicref_event_kind k)
{
	cr_assert_eq(tl_count(tr, k), 1, "%zu %s events, expected 1", tl_count(tr, k),
		     nicref_event_name(k));
	return tl_nth(tr, k, 0);
}

void tl_expect_one_violation(const struct tl_trace *tr, enum nicref_violation rule)
{
	cr_assert_eq(tr->violations, 1, "%u violations, expected 1 (%s)", tr->violations,
		     nicref_violation_name(rule));
	cr_assert_eq(tr->last_violation, (unsigned)rule, "violation %s, expected %s",
		     nicref_violation_name(tr->last_violation), nicref_violation_name(rule));
}

struct nicref_dev *tl_dev_create(const struct nicref_profile *p, struct tl_trace *tr)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	/* Unit tests run on devices that can be captured (snapshot_test, umem_test), so they run
	 * the tracked allocator; the vectors and the benchmarks run the default, untracked one. */
	cfg.snapshots = true;
	if (p)
		cfg.profile = *p;
	if (tr) {
		memset(tr, 0, sizeof *tr);
		cfg.trace = tl_trace_event;
		cfg.trace_ctx = tr;
	}
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev, "the profile was refused");
	return dev;
}

/* ---- A device brought up by the reference driver ---------------------------------------------- */

struct tl_dev *tl_up_to(const struct nicref_profile *p, enum refdrv_stage stage)
{
	struct tl_dev *t = calloc(1, sizeof *t);
	cr_assert_not_null(t);
	t->dev = tl_dev_create(p, &t->tr);
	struct refdrv_ops ops = refdrv_ops_model(t->dev);
	cr_assert_eq(refdrv_init(&t->d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&t->d, stage), 0, "%s", t->d.error);
	cr_assert_eq(t->tr.violations, 0, "the bring-up caused a violation (%s)",
		     nicref_violation_name(t->tr.last_violation));
	t->next_mem = TL_MEM;
	tl_mark(&t->tr);
	return t;
}

struct tl_dev *tl_up(const struct nicref_profile *p)
{
	struct tl_dev *t = tl_up_to(p, REFDRV_INITIALIZED);
	cr_assert_eq(refdrv_alloc_uar(&t->d, &t->uar), 0, "ALLOC_UAR: %s", t->d.error);
	tl_mark(&t->tr);
	return t;
}

void tl_down(struct tl_dev *t)
{
	cr_expect_eq(nicref_dev_check(t->dev), 0, "model invariants hold");
	refdrv_fini(&t->d);
	nicref_dev_destroy(t->dev);
	free(t);
}

void tl_down_clean(struct tl_dev *t)
{
	cr_expect_eq(t->tr.violations, 0, "no driver violation (the last: %s)",
		     t->tr.violations ? nicref_violation_name(t->tr.last_violation) : "-");
	tl_down(t);
}

void tl_set_cap(struct tl_dev *t, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(t->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES,
				      tl_field("hca_cap", name), v),
		     0, "hca_cap.%s = 0x%llx", name, (unsigned long long)v);
}

uint64_t tl_hostmem(struct tl_dev *t, uint64_t bytes)
{
	uint64_t at = t->next_mem;
	t->next_mem += (bytes + 0xFFFFu) & ~0xFFFFull;
	return at;
}

void tl_mem_read(struct tl_dev *t, uint64_t addr, void *buf, size_t len)
{
	cr_assert_eq(nicref_hostmem_read(t->dev, addr, buf, len), 0, "host read at 0x%llx",
		     (unsigned long long)addr);
}

void tl_mem_write(struct tl_dev *t, uint64_t addr, const void *buf, size_t len)
{
	cr_assert_eq(nicref_hostmem_write(t->dev, addr, buf, len), 0, "host write at 0x%llx",
		     (unsigned long long)addr);
}

/* ---- Commands through the layouts ----------------------------------------------------------- */

const struct nicref_field *tl_field(const char *layout, const char *name)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert_not_null(l, "no layout %s", layout);
	const struct nicref_field *f = nicref_layout_field(l, name);
	cr_assert_not_null(f, "%s has no field %s", layout, name);
	return f;
}

void tl_begin(struct tl_dev *t, const char *layout, const char *opcode)
{
	int op = nicref_opcode_find(opcode);
	cr_assert_geq(op, 0, "no opcode %s", opcode);
	memset(t->in, 0, sizeof t->in);
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, tl_field(layout, "opcode"), (uint64_t)op),
		     0);
}

void tl_set(struct tl_dev *t, const char *layout, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, tl_field(layout, name), v), 0,
		     "%s.%s = 0x%llx", layout, name, (unsigned long long)v);
}

void tl_set_elem(struct tl_dev *t, const char *layout, const char *name, uint32_t i, uint64_t v)
{
	struct nicref_field e = nicref_field_element(tl_field(layout, name), i);
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, &e, v), 0, "%s.%s[%u] = 0x%llx",
		     layout, name, i, (unsigned long long)v);
}

void tl_set_bytes(struct tl_dev *t, const char *layout, const char *name, const uint8_t *v,
		  size_t n)
{
	cr_assert_eq(nicref_field_set_bytes(t->in, sizeof t->in, tl_field(layout, name), v, n), 0,
		     "%s.%s: %zu bytes", layout, name, n);
}

uint64_t tl_get(const struct tl_dev *t, const char *layout, const char *name)
{
	uint64_t v = 0;
	cr_assert_eq(nicref_field_get(t->out, sizeof t->out, tl_field(layout, name), &v), 0);
	return v;
}

uint64_t tl_get_elem(const struct tl_dev *t, const char *layout, const char *name, uint32_t i)
{
	uint64_t v = 0;
	struct nicref_field e = nicref_field_element(tl_field(layout, name), i);
	cr_assert_eq(nicref_field_get(t->out, sizeof t->out, &e, &v), 0);
	return v;
}

void tl_get_bytes(const struct tl_dev *t, const char *layout, const char *name, uint8_t *v,
		  size_t n)
{
	cr_assert_eq(nicref_field_get_bytes(t->out, sizeof t->out, tl_field(layout, name), v, n),
		     0);
}

int tl_cmd(struct tl_dev *t, const void *in, uint32_t in_len, void *out, uint32_t out_len)
{
	int st = refdrv_cmd(&t->d, in, in_len, out, out_len);
	cr_assert_geq(st, 0, "%s", t->d.error);
	return st;
}

int tl_run(struct tl_dev *t, uint32_t in_len, uint32_t out_len)
{
	memset(t->out, 0, sizeof t->out);
	return tl_cmd(t, t->in, in_len, t->out, out_len);
}

int tl_run_paged(struct tl_dev *t, uint32_t in_len, uint32_t out_len)
{
	memset(t->out, 0, sizeof t->out);
	int st = refdrv_cmd_paged(&t->d, t->in, in_len, t->out, out_len);
	cr_assert_geq(st, 0, "%s", t->d.error);
	return st;
}

const char *tl_rule_of(uint32_t syndrome)
{
	for (unsigned r = 0; r < NICREF_RULE_COUNT; r++)
		if (nicref_cmd_rule_syndrome(r) == syndrome)
			return nicref_cmd_rule_name(r);
	return "?";
}

void tl_expect_refused(const struct tl_dev *t, unsigned status, enum nicref_cmd_rule rule)
{
	cr_expect_eq(t->d.last_status, status, "status 0x%x, expected 0x%x (%s)", t->d.last_status,
		     status, nicref_cmd_rule_name(rule));
	cr_expect_eq(t->d.last_syndrome, nicref_cmd_rule_syndrome(rule),
		     "syndrome 0x%08x, expected rule %s (got %s)", t->d.last_syndrome,
		     nicref_cmd_rule_name(rule), tl_rule_of(t->d.last_syndrome));
	cr_expect_eq(t->tr.last_rule, (unsigned)rule, "cmd_fail names %s, expected %s",
		     nicref_cmd_rule_name(t->tr.last_rule), nicref_cmd_rule_name(rule));
}

/* ---- Objects ------------------------------------------------------------------------------------ */

uint32_t tl_alloc(struct tl_dev *t, const char *opcode, const char *out_layout, const char *field)
{
	uint8_t in[16] = { 0 }, out[16] = { 0 };
	cr_assert_eq(nicref_field_set(in, sizeof in, tl_field("cmd_in", "opcode"),
				      (uint64_t)nicref_opcode_find(opcode)),
		     0);
	cr_assert_eq(tl_cmd(t, in, sizeof in, out, sizeof out), 0, "%s", opcode);
	uint64_t v = 0;
	cr_assert_eq(nicref_field_get(out, sizeof out, tl_field(out_layout, field), &v), 0);
	return (uint32_t)v;
}

struct refdrv_eq tl_eq(struct tl_dev *t, unsigned log_size, uint64_t events, unsigned intr)
{
	struct refdrv_eq_attr a = { .buf = tl_hostmem(t, 64ull << log_size),
				    .log_eq_size = log_size,
				    .uar = t->uar,
				    .intr = intr,
				    .events = events };
	struct refdrv_eq eq;
	int st = refdrv_create_eq(&t->d, &a, &eq);
	cr_assert_eq(st, 0, "CREATE_EQ: status 0x%x %s (%s)", (unsigned)st,
		     tl_rule_of(t->d.last_syndrome), t->d.error);
	return eq;
}

void tl_int_moderation(struct tl_dev *t, unsigned vec, unsigned min_delay_us)
{
	tl_begin(t, "config_int_moderation_in", "CONFIG_INT_MODERATION");
	tl_set(t, "config_int_moderation_in", "int_vector", vec);
	tl_set(t, "config_int_moderation_in", "min_delay", min_delay_us);
	cr_assert_eq(tl_run(t, 0x10, 0x10), 0);
}

struct refdrv_cq tl_cq_attr(struct tl_dev *t, const struct refdrv_cq_attr *a0)
{
	struct refdrv_cq_attr a = *a0;
	if (!a.buf)
		a.buf = tl_hostmem(t, (64ull << a.cqe_sz) << a.log_cq_size);
	if (!a.dbr)
		a.dbr = tl_hostmem(t, 8);
	if (!a.uar)
		a.uar = t->uar;
	struct refdrv_cq cq;
	int st = refdrv_create_cq(&t->d, &a, &cq);
	cr_assert_eq(st, 0, "CREATE_CQ: status 0x%x %s (%s)", (unsigned)st,
		     tl_rule_of(t->d.last_syndrome), t->d.error);
	return cq;
}

struct refdrv_cq tl_cq(struct tl_dev *t, unsigned log_size, uint32_t eqn)
{
	struct refdrv_cq_attr a = { .log_cq_size = log_size, .eqn = eqn };
	return tl_cq_attr(t, &a);
}

/* The CQ (on its own EQ) the RQs and SQs of a test complete to, made on first use. */
static uint32_t wq_cq(struct tl_dev *t)
{
	if (!t->have_cq) {
		struct refdrv_eq eq = tl_eq(t, 4, 0, 0);
		t->cqn = tl_cq(t, 6, eq.eqn).cqn;
		t->have_cq = true;
	}
	return t->cqn;
}

/* A cyclic WQ of 16 strides of 2^log_stride bytes on its own 64 KB of host memory. */
static struct refdrv_wq_attr wq_attr(struct tl_dev *t, uint32_t pd, unsigned log_stride)
{
	uint64_t buf = tl_hostmem(t, 0x10000);
	struct refdrv_wq_attr w = { .buf = buf, .dbr = buf + 0xF000, .wq_type = 1, .log_wq_sz = 4,
				    .log_wq_stride = log_stride, .pd = pd };
	return w;
}

uint32_t tl_rq(struct tl_dev *t, uint32_t pd)
{
	struct refdrv_rq_attr a = { .cqn = wq_cq(t) };
	a.wq = wq_attr(t, pd, 4);
	uint32_t rqn = 0;
	cr_assert_eq(refdrv_create_rq(&t->d, &a, &rqn), 0, "CREATE_RQ %s (rule %s)", t->d.error,
		     tl_rule_of(t->d.last_syndrome));
	return rqn;
}

uint32_t tl_sq(struct tl_dev *t, uint32_t pd, uint32_t tisn)
{
	/* min_wqe_inline_mode L2, the vport's default (§7.9.3) */
	struct refdrv_sq_attr a = { .cqn = wq_cq(t), .tisn = tisn, .min_wqe_inline_mode = 1 };
	a.uar = t->uar;
	a.wq = wq_attr(t, pd, 6);
	uint32_t sqn = 0;
	cr_assert_eq(refdrv_create_sq(&t->d, &a, &sqn), 0, "CREATE_SQ %s (rule %s)", t->d.error,
		     tl_rule_of(t->d.last_syndrome));
	return sqn;
}

/* ---- A bare command queue ---------------------------------------------------------------------- */

struct nicref_dev *tl_queue_dev(const struct nicref_config *cfg)
{
	struct nicref_dev *dev = nicref_dev_create(cfg);
	cr_assert_not_null(dev, "the profile was refused");
	nicref_bar_write32(dev, 0x10, (uint32_t)(TL_QADDR >> 32));
	nicref_bar_write32(dev, 0x14, (uint32_t)TL_QADDR);
	cr_assert_eq(nicref_bar_read32(dev, 0x1FC) >> 31, 0, "device not ready");
	return dev;
}

static int host_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	return nicref_hostmem_write(ctx, addr, buf, len);
}

static int host_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nicref_hostmem_read(ctx, addr, buf, len);
}

struct tl_result tl_queue_cmd(struct nicref_dev *dev, const uint8_t *in, uint32_t input_length,
			      uint32_t output_length)
{
	struct cmd_post p = {
		.entry_addr = TL_QADDR,
		.in = in,
		.in_len = input_length,
		.input_length = input_length,
		.output_length = output_length,
		.in_mbox = 0x100000,
		.out_mbox = 0x200000,
		.token = 0x5A,
		.sign = true,
	};
	struct tl_result r;
	struct cmd_result res;
	memset(&r, 0, sizeof r);
	cr_assert_eq(cmd_post_write(&p, host_write, dev), 0);
	nicref_bar_write32(dev, 0x18, 1);
	cr_assert_eq(cmd_result_read(&p, host_read, dev, r.out, sizeof r.out, &res), 0);
	cr_assert_eq(res.ownership, 0, "command not completed");
	cr_assert_eq(res.delivery, 0, "delivery status 0x%x", res.delivery);
	r.status = res.status;
	r.syndrome = res.syndrome;
	return r;
}

void tl_queue_simple(struct nicref_dev *dev, unsigned opcode, unsigned op_mod, uint32_t dw8)
{
	uint8_t in[16] = { 0 };
	tl_setf(in, 0x00, 31, 16, opcode);
	tl_setf(in, 0x04, 15, 0, op_mod);
	tl_put32(in + 0x08, dw8);
	struct tl_result r = tl_queue_cmd(dev, in, 16, 16);
	cr_assert_eq(r.status, 0, "opcode 0x%x: status 0x%x", opcode, r.status);
}

void tl_expect_rule(const struct tl_result *r, unsigned status, enum nicref_cmd_rule rule)
{
	cr_assert_eq(r->status, status, "status 0x%02x, expected 0x%02x (%s)", r->status, status,
		     nicref_cmd_rule_name(rule));
	cr_assert_eq(r->syndrome, nicref_cmd_rule_syndrome(rule), "syndrome 0x%08x, expected %s",
		     r->syndrome, nicref_cmd_rule_name(rule));
}

void tl_expect_ok(const struct tl_result *r)
{
	cr_assert_eq(r->status, 0, "status 0x%02x syndrome 0x%08x", r->status, r->syndrome);
	cr_assert_eq(r->syndrome, 0);
}

/* ---- ACCESS_REGISTER ---------------------------------------------------------------------------- */

struct tl_reg tl_reg_cmd(unsigned op_mod, unsigned register_id, uint32_t size)
{
	struct tl_reg c;
	memset(&c, 0, sizeof c);
	cr_assert_leq(size, sizeof c.in - 0x10);
	tl_setf(c.in, 0x00, 31, 16, TL_OP_ACCESS_REG);
	tl_setf(c.in, 0x04, 15, 0, op_mod);
	tl_setf(c.in, 0x08, 15, 0, register_id);
	c.size = size;
	return c;
}

void tl_reg_set(struct tl_reg *c, unsigned off, unsigned msb, unsigned lsb, uint32_t v)
{
	tl_setf(c->in, 0x10 + off, msb, lsb, v);
}

uint32_t tl_reg_get(const struct tl_result *r, unsigned off, unsigned msb, unsigned lsb)
{
	return tl_getf(r->out, 0x10 + off, msb, lsb);
}

struct tl_result tl_reg_run(struct nicref_dev *dev, const struct tl_reg *c)
{
	return tl_queue_cmd(dev, c->in, 0x10 + c->size, 0x10 + c->size);
}

/* ---- Layouts ------------------------------------------------------------------------------------- */

void tl_expect_layout(const char *layout, uint32_t size, const struct tl_row *rows, size_t n)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert_not_null(l, "no layout %s", layout);
	cr_assert_eq(l->size, size, "%s: size 0x%x, expected 0x%x", layout, l->size, size);
	cr_assert_eq(l->nfields, n, "%s: %u fields, expected %zu", layout, l->nfields, n);
	for (size_t i = 0; i < n; i++) {
		const struct nicref_field *f = tl_field(layout, rows[i].name);
		cr_expect(f->prm_offset == rows[i].off && f->msb == rows[i].msb &&
				  f->lsb == rows[i].lsb,
			  "%s.%s at %02Xh %u:%u, expected %02Xh %u:%u", layout, rows[i].name,
			  f->prm_offset, f->msb, f->lsb, rows[i].off, rows[i].msb, rows[i].lsb);
	}
}

void tl_pin(const char *layout, const char *name, unsigned off, unsigned msb, unsigned lsb)
{
	const struct nicref_field *f = tl_field(layout, name);
	cr_expect_eq(f->prm_offset, off, "%s.%s offset 0x%x, PRM 0x%x", layout, name, f->prm_offset,
		     off);
	cr_expect_eq(f->msb, msb, "%s.%s msb", layout, name);
	cr_expect_eq(f->lsb, lsb, "%s.%s lsb", layout, name);
	cr_expect_eq(f->bit_offset, off * 8u + 31u - msb, "%s.%s bit offset", layout, name);
	cr_expect_eq(f->bit_width, msb - lsb + 1, "%s.%s width", layout, name);
}
