/* The unit tests' own library: the tools every test file used to copy. A test device with its
 * trace captured, brought up by the reference driver (harness/driver.h); commands built field by
 * field through the public PRM layouts, run, and their output and status read back; commands
 * posted on a bare command queue (harness/cmdbuild.h) for the tests that stand before the
 * driver's bring-up; ACCESS_REGISTER; bytes at the offsets the PRM prints; the trace's events
 * and violations looked up.
 *
 * The helpers do the mechanics, never the judgement: a test still says in its body which status,
 * rule, field or event it expects. The assertions here are the preconditions a helper cannot go
 * on without (a layout or field that does not exist, a command the driver could not deliver, a
 * device that is not ready), and each names what failed. Expectations in the tests come from the
 * PRM and the decisions of docs/, never from what the model prints.
 *
 * Family helpers of one module's test files (cmdq_util.h, reg_util.h, ...) sit on top of this
 * and hold what only that module's tests share. */
#ifndef NICREF_TESTS_TESTLIB_H
#define NICREF_TESTS_TESTLIB_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_wq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"
#include "nicref/nicref.h"
#include "nicref/trace.h"

#define TL_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Bytes, as the PRM prints them ("Byte Endianness": big-endian dwords) ------------------- */

void tl_put32(uint8_t *p, uint32_t v);
uint32_t tl_get32(const uint8_t *p);
/* The 64-bit value of the two dwords at byte `off` (a PRM _high/_low pair). */
uint64_t tl_get64(const uint8_t *b, unsigned off);
/* Field msb..lsb of the dword at byte `off`. */
void tl_setf(uint8_t *b, unsigned off, unsigned msb, unsigned lsb, uint32_t v);
uint32_t tl_getf(const uint8_t *b, unsigned off, unsigned msb, unsigned lsb);
/* XOR of n bytes (the §7.14.1.1.1 signatures make a block XOR to 0xFF). */
uint8_t tl_xor(const uint8_t *p, size_t n);
/* XOR of n bytes and the three bytes of a 24-bit index (the T68/T78 signatures, D-CQE-1). */
uint8_t tl_xor_index(const uint8_t *p, size_t n, uint32_t index);

/* ---- The trace --------------------------------------------------------------------------------- */

#define TL_MAX_EVENTS 4096

/* What the device's trace said since the last tl_mark. The counts are exact however many
 * events come; the events themselves are kept up to TL_MAX_EVENTS. */
struct tl_trace {
	struct nicref_event ev[TL_MAX_EVENTS];
	size_t n;       /* events kept in ev[] */
	size_t dropped; /* events past ev[] */
	unsigned kinds[NICREF_EV_COUNT];
	unsigned violations;                  /* every violation */
	unsigned vio[NICREF_VIO_COUNT];       /* by rule */
	uint64_t vio_arg[NICREF_VIO_COUNT];   /* the argument of the last one of each rule */
	unsigned last_violation;              /* the rule of the last violation */
	uint64_t last_violation_arg;          /* and its argument */
	unsigned last_rule;                   /* the rule of the last cmd_fail */
};

/* The trace callback: cfg.trace = tl_trace_event, cfg.trace_ctx = the struct tl_trace. */
void tl_trace_event(void *ctx, const struct nicref_event *ev);
/* Forgets what was seen: the next lookups see only what comes after. */
void tl_mark(struct tl_trace *tr);
size_t tl_count(const struct tl_trace *tr, enum nicref_event_kind k);
/* The i-th event of kind k since the mark, or NULL. */
const struct nicref_event *tl_nth(const struct tl_trace *tr, enum nicref_event_kind k, size_t i);
/* The one event of kind k since the mark; asserts there is exactly one. */
const struct nicref_event *tl_only(const struct tl_trace *tr, enum nicref_event_kind k);

/* Exactly one violation since the mark, and it is `rule`. */
void tl_expect_one_violation(const struct tl_trace *tr, enum nicref_violation rule);

/* A device with profile p (NULL: the default) whose trace goes to tr (NULL: nowhere; tr is
 * cleared). */
struct nicref_dev *tl_dev_create(const struct nicref_profile *p, struct tl_trace *tr);

/* ---- A device brought up by the reference driver ---------------------------------------------- */

#define TL_BUF 0x3000u
#define TL_MEM 0x40000000ull /* tl_hostmem hands out host memory from here */

struct tl_dev {
	struct nicref_dev *dev;
	struct refdrv d;
	struct tl_trace tr;
	uint32_t uar;      /* tl_up's UAR */
	uint64_t next_mem; /* tl_hostmem */
	bool have_cq;      /* the CQ of tl_rq and tl_sq */
	uint32_t cqn;
	uint8_t in[TL_BUF], out[TL_BUF]; /* the command being built and its output */
};

/* A device with profile p (NULL: the default), brought to `stage` by the reference driver
 * without a violation, nothing allocated; the trace is marked after the bring-up. */
struct tl_dev *tl_up_to(const struct nicref_profile *p, enum refdrv_stage stage);
/* The same to INITIALIZED, with one UAR allocated (t->uar). */
struct tl_dev *tl_up(const struct nicref_profile *p);
/* The model's invariants hold; the device and the driver go. */
void tl_down(struct tl_dev *t);
/* tl_down after no violation since the last mark ("the driver made no mistake"). */
void tl_down_clean(struct tl_dev *t);

/* Sets a general device capability (HCA_CAP, current) in place: for the rules of capabilities
 * the default device has and SET_HCA_CAP cannot clear. */
void tl_set_cap(struct tl_dev *t, const char *name, uint64_t v);

/* Host memory for a queue: `bytes` rounded up to 64 KB, 64 KB aligned, from TL_MEM. */
uint64_t tl_hostmem(struct tl_dev *t, uint64_t bytes);
void tl_mem_read(struct tl_dev *t, uint64_t addr, void *buf, size_t len);
void tl_mem_write(struct tl_dev *t, uint64_t addr, const void *buf, size_t len);

/* ---- Commands built through the layouts (t->in), run by the driver, read back (t->out) -------- */

/* The field `name` of `layout`; asserts both exist. */
const struct nicref_field *tl_field(const char *layout, const char *name);
/* Starts a command of `layout` in t->in (zeroed) with its opcode (a T127 name). */
void tl_begin(struct tl_dev *t, const char *layout, const char *opcode);
void tl_set(struct tl_dev *t, const char *layout, const char *name, uint64_t v);
void tl_set_elem(struct tl_dev *t, const char *layout, const char *name, uint32_t i, uint64_t v);
void tl_set_bytes(struct tl_dev *t, const char *layout, const char *name, const uint8_t *v,
		  size_t n);
uint64_t tl_get(const struct tl_dev *t, const char *layout, const char *name);
uint64_t tl_get_elem(const struct tl_dev *t, const char *layout, const char *name, uint32_t i);
void tl_get_bytes(const struct tl_dev *t, const char *layout, const char *name, uint8_t *v,
		  size_t n);
/* Runs t->in (in_len bytes) with output out_len into t->out; the status (T128). No page
 * dance: a create refused for want of ICM pages answers NO_RESOURCES here (unless its Page
 * Request reached an EQ: then it waits and the driver answers it, D-PG-6). Asserts the
 * command was delivered. */
int tl_run(struct tl_dev *t, uint32_t in_len, uint32_t out_len);
/* The same with the ICM page dance (refdrv_cmd_paged, D-PG-4). */
int tl_run_paged(struct tl_dev *t, uint32_t in_len, uint32_t out_len);
/* A command's raw bytes through the driver: the status, asserting it was delivered. */
int tl_cmd(struct tl_dev *t, const void *in, uint32_t in_len, void *out, uint32_t out_len);

/* The name of the rule whose syndrome this is ("?" for none), for messages. */
const char *tl_rule_of(uint32_t syndrome);

/* The command was refused with exactly this rule: its status and its syndrome (D-CMD-6). */
#define tl_refused(t, st, rule)                                                                 \
	do {                                                                                    \
		cr_expect_eq((st), (int)nicref_cmd_rule_status(NICREF_RULE_##rule),             \
			     "status 0x%x of " #rule " (got rule %s)", (unsigned)(st),          \
			     tl_rule_of((t)->d.last_syndrome));                                 \
		cr_expect_eq((t)->d.last_syndrome, nicref_cmd_rule_syndrome(NICREF_RULE_##rule), \
			     "syndrome of " #rule " (got rule %s)",                             \
			     tl_rule_of((t)->d.last_syndrome));                                 \
	} while (0)

/* Refused as reserved bits (D-CMD-8, D-MOD-1) with exactly one violation since the mark, of
 * argument arg (input dword << 32 | its bits); the violation is consumed (tl_mark). */
#define tl_reserved(t, st, arg)                                                                 \
	do {                                                                                    \
		tl_refused((t), (st), RESERVED_NOT_ZERO);                                       \
		cr_expect_eq((t)->tr.violations, 1, "one violation");                           \
		cr_expect_eq((t)->tr.last_violation_arg, (uint64_t)(arg),                       \
			     "violation arg 0x%llx",                                            \
			     (unsigned long long)(t)->tr.last_violation_arg);                   \
		tl_mark(&(t)->tr);                                                              \
	} while (0)

/* The last command through the driver was refused by `rule` with `status`: the status, the
 * rule's syndrome (D-CMD-6), and the cmd_fail event naming the rule. */
void tl_expect_refused(const struct tl_dev *t, unsigned status, enum nicref_cmd_rule rule);

/* The first violation since the mark is `rule` (a NICREF_VIO_ name), with argument a. */
#define tl_violation(t, rule, a)                                                                \
	do {                                                                                    \
		const struct nicref_event *v_ = tl_nth(&(t)->tr, NICREF_EV_VIOLATION, 0);       \
		cr_assert(v_, "no violation, expected " #rule);                                 \
		cr_expect_eq(v_->arg[0], (uint64_t)NICREF_VIO_##rule,                           \
			     "violation %s, expected " #rule,                                   \
			     nicref_violation_name((unsigned)v_->arg[0]));                      \
		cr_expect_eq(v_->arg[1], (uint64_t)(a), "violation arg 0x%llx",                  \
			     (unsigned long long)v_->arg[1]);                                   \
	} while (0)

/* ---- The objects tests stand on ---------------------------------------------------------------- */

/* A handle-only allocation: the command (a T127 name) and the output field holding the handle
 * (ALLOC_PD T193-T196, ALLOC_TRANSPORT_DOMAIN T213-T216). Asserts status OK. */
uint32_t tl_alloc(struct tl_dev *t, const char *opcode, const char *out_layout, const char *field);
#define tl_alloc_pd(t) tl_alloc((t), "ALLOC_PD", "alloc_pd_out", "pd")
#define tl_alloc_td(t)                                                                          \
	tl_alloc((t), "ALLOC_TRANSPORT_DOMAIN", "alloc_transport_domain_out", "transport_domain")

/* An EQ of 2^log_size EQEs on vector intr, on t->uar, taking the event types of `events`;
 * asserts it is created. */
struct refdrv_eq tl_eq(struct tl_dev *t, unsigned log_size, uint64_t events, unsigned intr);
/* CONFIG_INT_MODERATION: interrupt vector `vec` at most one interrupt per min_delay_us. */
void tl_int_moderation(struct tl_dev *t, unsigned vec, unsigned min_delay_us);
/* A CQ as `a` says; buffer, record and UAR from tl_hostmem and t->uar where a leaves them 0. */
struct refdrv_cq tl_cq_attr(struct tl_dev *t, const struct refdrv_cq_attr *a);
/* A CQ of 2^log_size 64-byte CQEs on EQ eqn. */
struct refdrv_cq tl_cq(struct tl_dev *t, unsigned log_size, uint32_t eqn);
/* A cyclic RQ of 16 strides of 16 bytes, in RST (§7.7). The RQs and SQs of a test complete to
 * one CQ on its own EQ, made on first use (PRM §3.1 Figure 3 order). */
uint32_t tl_rq(struct tl_dev *t, uint32_t pd);
/* An SQ of 16 WQEBBs sending through TIS tisn, in RST (§7.9). */
uint32_t tl_sq(struct tl_dev *t, uint32_t pd, uint32_t tisn);

/* ---- A bare command queue, without the driver ---------------------------------------------------- */

#define TL_QADDR 0x10000ull /* 4 KiB aligned command queue (T8 14h[31:12]) */

/* A device made from cfg whose command queue is at TL_QADDR and ready (initializing 0, §8.2). */
struct nicref_dev *tl_queue_dev(const struct nicref_config *cfg);

struct tl_result {
	uint8_t status;
	uint32_t syndrome;
	uint8_t out[0x400]; /* the output: header (T101/T102) and what follows */
};

/* Posts `in` as slot 0 (signed, through harness/cmdbuild.c), rings it, and reads the output
 * back; asserts the command completed and was delivered (delivery status 0). */
struct tl_result tl_queue_cmd(struct nicref_dev *dev, const uint8_t *in, uint32_t input_length,
			      uint32_t output_length);
/* A 16-byte command (opcode, op_mod, dword 08h) that must succeed. */
void tl_queue_simple(struct nicref_dev *dev, unsigned opcode, unsigned op_mod, uint32_t dw8);

/* The result is this rule's refusal: status and syndrome (D-CMD-6). */
void tl_expect_rule(const struct tl_result *r, unsigned status, enum nicref_cmd_rule rule);
/* The result is status OK, syndrome 0. */
void tl_expect_ok(const struct tl_result *r);

/* ---- ACCESS_REGISTER (PRM §12.4.1 T221-T224) -------------------------------------------------- */

#define TL_OP_ACCESS_REG 0x805u
#define TL_REG_WRITE 0u /* T222 op_mod */
#define TL_REG_READ 1u

/* An ACCESS_REGISTER input: the header (T221/T222) and `size` bytes of register data at 10h. */
struct tl_reg {
	uint8_t in[0x10 + 0x100];
	uint32_t size;
};

struct tl_reg tl_reg_cmd(unsigned op_mod, unsigned register_id, uint32_t size);
/* Register data field msb..lsb of the dword at register offset `off`. */
void tl_reg_set(struct tl_reg *c, unsigned off, unsigned msb, unsigned lsb, uint32_t v);
uint32_t tl_reg_get(const struct tl_result *r, unsigned off, unsigned msb, unsigned lsb);
/* Runs the command on the bare queue with input and output of the whole register. */
struct tl_result tl_reg_run(struct nicref_dev *dev, const struct tl_reg *c);

/* ---- Layouts pinned to the PRM -------------------------------------------------------------------- */

struct tl_row {
	const char *name;
	unsigned off, msb, lsb;
};

/* `layout` is `size` bytes of exactly these n fields, each at its PRM offset and bits. */
void tl_expect_layout(const char *layout, uint32_t size, const struct tl_row *rows, size_t n);
/* One field at dword `off`, bits msb..lsb (within the dword), as the PRM prints it. */
void tl_pin(const char *layout, const char *name, unsigned off, unsigned msb, unsigned lsb);

#endif
