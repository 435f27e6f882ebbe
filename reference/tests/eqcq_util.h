/* Shared by the EQ and CQ unit tests: a device brought up by the reference driver (with its EQ
 * and CQ helpers, harness/driver_eq.h, driver_cq.h), every trace event recorded, commands built
 * field by field through the public PRM layouts, and host-memory helpers. Expectations in the
 * tests come from the PRM (and the decisions of docs/eq.md, docs/cq.md), never from the model. */
#ifndef NICREF_TESTS_EQCQ_UTIL_H
#define NICREF_TESTS_EQCQ_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"
#include "nicref/nicref.h"
#include "nicref/trace.h"

#define E_MAX_EVENTS 4096
#define E_BUF 0x3000u
#define E_MEM 0x40000000ull /* queue buffers and records from here */

struct e_dev {
	struct nicref_dev *dev;
	struct refdrv d;
	struct nicref_event ev[E_MAX_EVENTS];
	size_t nev;
	uint64_t next_mem;
	uint32_t uar;
	uint8_t in[E_BUF], out[E_BUF];
};

static inline void e_on_event(void *ctx, const struct nicref_event *ev)
{
	struct e_dev *t = ctx;
	if (t->nev < E_MAX_EVENTS)
		t->ev[t->nev++] = *ev;
}

/* A device with profile p (NULL: default), initialized by the reference driver, one UAR. */
static inline struct e_dev *e_up(const struct nicref_profile *p)
{
	struct e_dev *t = calloc(1, sizeof *t);
	cr_assert(t);
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	if (p)
		cfg.profile = *p;
	cfg.trace = e_on_event;
	cfg.trace_ctx = t;
	t->dev = nicref_dev_create(&cfg);
	cr_assert(t->dev);
	struct refdrv_ops ops = refdrv_ops_model(t->dev);
	cr_assert_eq(refdrv_init(&t->d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&t->d, REFDRV_INITIALIZED), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_alloc_uar(&t->d, &t->uar), 0);
	t->next_mem = E_MEM;
	t->nev = 0;
	return t;
}

static inline size_t e_count(const struct e_dev *t, enum nicref_event_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nev; i++)
		n += t->ev[i].kind == k;
	return n;
}

/* The i-th event of kind k since the last e_mark, or NULL. */
static inline const struct nicref_event *e_nth(const struct e_dev *t, enum nicref_event_kind k,
					       size_t i)
{
	for (size_t j = 0; j < t->nev; j++)
		if (t->ev[j].kind == k && i-- == 0)
			return &t->ev[j];
	return NULL;
}

static inline void e_mark(struct e_dev *t)
{
	t->nev = 0;
}

/* The violation of this rule was reported (since the last mark), with this argument. */
#define e_violation(t, rule, a)                                                                 \
	do {                                                                                    \
		const struct nicref_event *v_ = e_nth((t), NICREF_EV_VIOLATION, 0);             \
		cr_assert(v_, "no violation, expected " #rule);                                 \
		cr_expect_eq(v_->arg[0], (uint64_t)NICREF_VIO_##rule, "violation %s, expected " #rule, \
			     nicref_violation_name((unsigned)v_->arg[0]));                      \
		cr_expect_eq(v_->arg[1], (uint64_t)(a), "violation arg 0x%llx",                  \
			     (unsigned long long)v_->arg[1]);                                   \
	} while (0)

static inline void e_down(struct e_dev *t)
{
	cr_expect_eq(nicref_dev_check(t->dev), 0, "model invariants hold");
	refdrv_fini(&t->d);
	nicref_dev_destroy(t->dev);
	free(t);
}

/* Host memory for a queue: `bytes` rounded up to 4 KB pages, 64 KB aligned. */
static inline uint64_t e_alloc(struct e_dev *t, uint64_t bytes)
{
	uint64_t at = t->next_mem;
	t->next_mem += (bytes + 0xFFFFu) & ~0xFFFFull;
	return at;
}

static inline const struct nicref_field *e_field(const char *layout, const char *name)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert(l, "layout %s", layout);
	const struct nicref_field *f = nicref_layout_field(l, name);
	cr_assert(f, "%s.%s", layout, name);
	return f;
}

static inline void e_begin(struct e_dev *t, const char *layout, const char *opcode)
{
	memset(t->in, 0, sizeof t->in);
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, e_field(layout, "opcode"),
				      (uint64_t)nicref_opcode_find(opcode)),
		     0);
}

static inline void e_set(struct e_dev *t, const char *layout, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, e_field(layout, name), v), 0,
		     "%s.%s = 0x%llx", layout, name, (unsigned long long)v);
}

static inline void e_set_elem(struct e_dev *t, const char *layout, const char *name, uint32_t i,
			      uint64_t v)
{
	struct nicref_field e = nicref_field_element(e_field(layout, name), i);
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, &e, v), 0);
}

static inline uint64_t e_get(const struct e_dev *t, const char *layout, const char *name)
{
	uint64_t v = 0;
	cr_assert_eq(nicref_field_get(t->out, sizeof t->out, e_field(layout, name), &v), 0);
	return v;
}

static inline uint64_t e_get_elem(const struct e_dev *t, const char *layout, const char *name,
				  uint32_t i)
{
	uint64_t v = 0;
	struct nicref_field e = nicref_field_element(e_field(layout, name), i);
	cr_assert_eq(nicref_field_get(t->out, sizeof t->out, &e, &v), 0);
	return v;
}

/* Runs t->in (in_len bytes) with output out_len; the status. No page dance: a create refused for
 * want of pages answers NO_RESOURCES here. */
static inline int e_run(struct e_dev *t, uint32_t in_len, uint32_t out_len)
{
	memset(t->out, 0, sizeof t->out);
	int st = refdrv_cmd(&t->d, t->in, in_len, t->out, out_len);
	cr_assert_geq(st, 0, "%s", t->d.error);
	return st;
}

/* The same with the ICM page dance (refdrv_cmd_paged). */
static inline int e_run_paged(struct e_dev *t, uint32_t in_len, uint32_t out_len)
{
	memset(t->out, 0, sizeof t->out);
	int st = refdrv_cmd_paged(&t->d, t->in, in_len, t->out, out_len);
	cr_assert_geq(st, 0, "%s", t->d.error);
	return st;
}

static inline const char *e_rule_of(uint32_t syndrome)
{
	for (unsigned r = 0; r < NICREF_RULE_COUNT; r++)
		if (nicref_cmd_rule_syndrome(r) == syndrome)
			return nicref_cmd_rule_name(r);
	return "?";
}

/* The command was refused with exactly this rule (status and syndrome, D-CMD-6). */
#define e_refused(t, st, rule)                                                                  \
	do {                                                                                    \
		cr_expect_eq((st), (int)nicref_cmd_rule_status(NICREF_RULE_##rule),             \
			     "status 0x%x of " #rule " (got rule %s)", (unsigned)(st),          \
			     e_rule_of((t)->d.last_syndrome));                                  \
		cr_expect_eq((t)->d.last_syndrome, nicref_cmd_rule_syndrome(NICREF_RULE_##rule), \
			     "syndrome of " #rule " (got rule %s)", e_rule_of((t)->d.last_syndrome)); \
	} while (0)

static inline void e_mem_read(struct e_dev *t, uint64_t addr, void *buf, size_t len)
{
	cr_assert_eq(nicref_hostmem_read(t->dev, addr, buf, len), 0);
}

static inline void e_mem_write(struct e_dev *t, uint64_t addr, const void *buf, size_t len)
{
	cr_assert_eq(nicref_hostmem_write(t->dev, addr, buf, len), 0);
}

/* XOR of n bytes and the three bytes of a 24-bit index (T68/T78 signatures, D-CQE-1). */
static inline uint8_t e_xor(const uint8_t *p, size_t n, uint32_t index)
{
	uint8_t x = (uint8_t)(index >> 16) ^ (uint8_t)(index >> 8) ^ (uint8_t)index;
	while (n--)
		x ^= *p++;
	return x;
}

/* An EQ of 2^log_size EQEs on vector intr, taking the event types of `events`. */
static inline struct refdrv_eq e_eq(struct e_dev *t, unsigned log_size, uint64_t events,
				    unsigned intr)
{
	struct refdrv_eq_attr a = { .buf = e_alloc(t, 64ull << log_size),
				    .log_eq_size = log_size,
				    .uar = t->uar,
				    .intr = intr,
				    .events = events };
	struct refdrv_eq eq;
	int st = refdrv_create_eq(&t->d, &a, &eq);
	cr_assert_eq(st, 0, "CREATE_EQ: status 0x%x %s (%s)", (unsigned)st,
		     e_rule_of(t->d.last_syndrome), t->d.error);
	return eq;
}

/* A CQ of 2^log_size 64-byte CQEs on EQ eqn, with its record. */
static inline struct refdrv_cq e_cq_attr(struct e_dev *t, const struct refdrv_cq_attr *a0)
{
	struct refdrv_cq_attr a = *a0;
	if (!a.buf)
		a.buf = e_alloc(t, (64ull << a.cqe_sz) << a.log_cq_size);
	if (!a.dbr)
		a.dbr = e_alloc(t, 8);
	if (!a.uar)
		a.uar = t->uar;
	struct refdrv_cq cq;
	int st = refdrv_create_cq(&t->d, &a, &cq);
	cr_assert_eq(st, 0, "CREATE_CQ: status 0x%x %s (%s)", (unsigned)st,
		     e_rule_of(t->d.last_syndrome), t->d.error);
	return cq;
}

static inline struct refdrv_cq e_cq(struct e_dev *t, unsigned log_size, uint32_t eqn)
{
	struct refdrv_cq_attr a = { .log_cq_size = log_size, .eqn = eqn };
	return e_cq_attr(t, &a);
}

#endif
