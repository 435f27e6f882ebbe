/* Shared by the MKey, TIS, TIR and RQT unit tests: a device brought up by the reference
 * driver, commands built field by field through the public PRM layouts (as the PRM tables name
 * the fields), and the refusing rule read back from the syndrome (D-CMD-6). Expectations in the
 * tests come from the PRM, never from the model. */
#ifndef NICREF_TESTS_MKTIR_UTIL_H
#define NICREF_TESTS_MKTIR_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_mkey.h"
#include "driver_wq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"
#include "nicref/nicref.h"
#include "nicref/trace.h"

#define T_BUF 0x2000u

struct t_dev {
	struct nicref_dev *dev;
	struct refdrv d;
	unsigned violations;
	uint64_t last_violation_arg; /* the argument of the last violation */
	/* the objects receive and send queues need (t_cq) */
	bool have_cq;
	uint32_t uar, cqn;
	uint64_t next_buf; /* host memory handed to queues, 64 KB each */
	uint8_t in[T_BUF], out[T_BUF];
};

static inline void t_on_event(void *ctx, const struct nicref_event *ev)
{
	struct t_dev *t = ctx;
	if (ev->kind == NICREF_EV_VIOLATION) {
		t->violations++;
		t->last_violation_arg = ev->arg[1];
	}
}

/* A device with profile p (NULL: default), initialized by the reference driver. */
static inline struct t_dev *t_up(const struct nicref_profile *p)
{
	struct t_dev *t = calloc(1, sizeof *t);
	cr_assert(t);
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	if (p)
		cfg.profile = *p;
	cfg.trace = t_on_event;
	cfg.trace_ctx = t;
	t->dev = nicref_dev_create(&cfg);
	cr_assert(t->dev);
	struct refdrv_ops ops = refdrv_ops_model(t->dev);
	cr_assert_eq(refdrv_init(&t->d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&t->d, REFDRV_INITIALIZED), 0, "%s", t->d.error);
	return t;
}

static inline void t_down(struct t_dev *t)
{
	cr_expect_eq(t->violations, 0, "no driver violation");
	cr_expect_eq(nicref_dev_check(t->dev), 0, "model invariants hold");
	refdrv_fini(&t->d);
	nicref_dev_destroy(t->dev);
	free(t);
}

static inline const struct nicref_field *t_field(const char *layout, const char *name)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert(l, "layout %s", layout);
	const struct nicref_field *f = nicref_layout_field(l, name);
	cr_assert(f, "%s.%s", layout, name);
	return f;
}

/* Starts a command of `layout` in t->in (zeroed) with its opcode. */
static inline void t_begin(struct t_dev *t, const char *layout, const char *opcode)
{
	memset(t->in, 0, sizeof t->in);
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, t_field(layout, "opcode"),
				      (uint64_t)nicref_opcode_find(opcode)),
		     0);
}

static inline void t_set(struct t_dev *t, const char *layout, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, t_field(layout, name), v), 0,
		     "%s.%s = 0x%llx", layout, name, (unsigned long long)v);
}

static inline void t_set_elem(struct t_dev *t, const char *layout, const char *name, uint32_t i,
			      uint64_t v)
{
	struct nicref_field e = nicref_field_element(t_field(layout, name), i);
	cr_assert_eq(nicref_field_set(t->in, sizeof t->in, &e, v), 0);
}

static inline void t_set_bytes(struct t_dev *t, const char *layout, const char *name,
			       const uint8_t *v, size_t n)
{
	cr_assert_eq(nicref_field_set_bytes(t->in, sizeof t->in, t_field(layout, name), v, n), 0);
}

static inline void t_get_bytes(const struct t_dev *t, const char *layout, const char *name,
			       uint8_t *v, size_t n)
{
	cr_assert_eq(nicref_field_get_bytes(t->out, sizeof t->out, t_field(layout, name), v, n), 0);
}

static inline uint64_t t_get(const struct t_dev *t, const char *layout, const char *name)
{
	uint64_t v = 0;
	cr_assert_eq(nicref_field_get(t->out, sizeof t->out, t_field(layout, name), &v), 0);
	return v;
}

static inline uint64_t t_get_elem(const struct t_dev *t, const char *layout, const char *name,
				  uint32_t i)
{
	uint64_t v = 0;
	struct nicref_field e = nicref_field_element(t_field(layout, name), i);
	cr_assert_eq(nicref_field_get(t->out, sizeof t->out, &e, &v), 0);
	return v;
}

/* Runs the command in t->in (in_len bytes, output out_len) with the page dance; the status. */
static inline int t_run(struct t_dev *t, uint32_t in_len, uint32_t out_len)
{
	memset(t->out, 0, sizeof t->out);
	int st = refdrv_cmd_paged(&t->d, t->in, in_len, t->out, out_len);
	cr_assert_geq(st, 0, "%s", t->d.error);
	return st;
}

/* The command is refused with exactly this rule (its status and its syndrome, D-CMD-6). */
#define t_refused(t, st, rule)                                                                  \
	do {                                                                                    \
		cr_expect_eq((st), (int)nicref_cmd_rule_status(NICREF_RULE_##rule),             \
			     "status of " #rule);                                               \
		cr_expect_eq((t)->d.last_syndrome, nicref_cmd_rule_syndrome(NICREF_RULE_##rule), \
			     "syndrome of " #rule " (got rule %s)",                             \
			     t_rule_of((t)->d.last_syndrome));                                  \
	} while (0)

/* The command was refused as reserved bits (D-CMD-8, D-MOD-1) with exactly one violation
 * CMD_RESERVED_NOT_ZERO, of argument arg; the violation is consumed. */
#define t_reserved(t, st, arg)                                                                  \
	do {                                                                                    \
		t_refused((t), (st), RESERVED_NOT_ZERO);                                        \
		cr_expect_eq((t)->violations, 1, "one violation");                              \
		cr_expect_eq((t)->last_violation_arg, (uint64_t)(arg), "violation arg 0x%llx",   \
			     (unsigned long long)(t)->last_violation_arg);                      \
		(t)->violations = 0;                                                            \
	} while (0)

static inline const char *t_rule_of(uint32_t syndrome)
{
	for (unsigned r = 0; r < NICREF_RULE_COUNT; r++)
		if (nicref_cmd_rule_syndrome(r) == syndrome)
			return nicref_cmd_rule_name(r);
	return "?";
}

/* A handle-only allocation (ALLOC_PD T193-T196, ALLOC_TRANSPORT_DOMAIN T213-T216). */
static inline uint32_t t_alloc(struct t_dev *t, const char *opcode, const char *out_layout,
			       const char *field)
{
	uint8_t in[16] = { 0 }, out[16] = { 0 };
	nicref_field_set(in, 16, t_field("cmd_in", "opcode"), (uint64_t)nicref_opcode_find(opcode));
	cr_assert_eq(refdrv_cmd(&t->d, in, 16, out, 16), 0, "%s", opcode);
	uint64_t v = 0;
	nicref_field_get(out, 16, t_field(out_layout, field), &v);
	return (uint32_t)v;
}
#define t_alloc_pd(t) t_alloc((t), "ALLOC_PD", "alloc_pd_out", "pd")
#define t_alloc_td(t)                                                                           \
	t_alloc((t), "ALLOC_TRANSPORT_DOMAIN", "alloc_transport_domain_out", "transport_domain")

/* A CQ (on a UAR and an EQ) for the work queues of a test: PRM §3.1 Figure 3 order. */
static inline uint32_t t_cq(struct t_dev *t)
{
	if (t->have_cq)
		return t->cqn;
	cr_assert_eq(refdrv_alloc_uar(&t->d, &t->uar), 0, "%s", t->d.error);
	struct refdrv_eq_attr ea = { .buf = 0x30000000, .log_eq_size = 4, .uar = t->uar };
	struct refdrv_eq eq;
	cr_assert_eq(refdrv_create_eq(&t->d, &ea, &eq), 0, "CREATE_EQ %s", t->d.error);
	struct refdrv_cq_attr ca = { .buf = 0x30100000, .dbr = 0x30200000, .log_cq_size = 6,
				     .uar = t->uar, .eqn = eq.eqn };
	struct refdrv_cq cq;
	cr_assert_eq(refdrv_create_cq(&t->d, &ca, &cq), 0, "CREATE_CQ %s", t->d.error);
	t->cqn = cq.cqn;
	t->have_cq = true;
	t->next_buf = 0x31000000;
	return t->cqn;
}

static inline struct refdrv_wq_attr t_wq(struct t_dev *t, uint32_t pd, unsigned log_stride)
{
	struct refdrv_wq_attr w = { .buf = t->next_buf, .dbr = t->next_buf + 0xF000,
				    .wq_type = 1, .log_wq_sz = 4, .log_wq_stride = log_stride,
				    .pd = pd };
	t->next_buf += 0x10000;
	return w;
}

/* A cyclic RQ of 16 strides of 16 bytes, in RST (§7.7). */
static inline uint32_t t_rq(struct t_dev *t, uint32_t pd)
{
	struct refdrv_rq_attr a = { .cqn = t_cq(t) };
	a.wq = t_wq(t, pd, 4);
	uint32_t rqn = 0;
	cr_assert_eq(refdrv_create_rq(&t->d, &a, &rqn), 0, "CREATE_RQ %s (rule %s)", t->d.error,
		     t_rule_of(t->d.last_syndrome));
	return rqn;
}

/* An SQ of 16 WQEBBs sending through TIS tisn, in RST (§7.9). */
static inline uint32_t t_sq(struct t_dev *t, uint32_t pd, uint32_t tisn)
{
	/* min_wqe_inline_mode L2, the vport's default (§7.9.3) */
	struct refdrv_sq_attr a = { .cqn = t_cq(t), .tisn = tisn, .min_wqe_inline_mode = 1 };
	a.uar = t->uar;
	a.wq = t_wq(t, pd, 6);
	uint32_t sqn = 0;
	cr_assert_eq(refdrv_create_sq(&t->d, &a, &sqn), 0, "CREATE_SQ %s (rule %s)", t->d.error,
		     t_rule_of(t->d.last_syndrome));
	return sqn;
}

#endif
