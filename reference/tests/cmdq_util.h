/* Shared by the command queue's test files (cmdq_*test.c): the command queue transport
 * (reference/cmd/cmdq.c) and the dispatch of a delivered command.
 *
 * Entries and mailboxes are built here byte by byte from PRM §7.14.1 T95/T96 (entry),
 * §7.14.1.1 T97/T98 (mailbox block), §7.14.1.1.1 (signatures, with the ctrl range of decision
 * D-CMD-3: bytes 200h-23Fh with both signature bytes zero) and §7.14.1.2 T99-T102 (command
 * header). Nothing here uses the harness command builder or the library's layout tables, so
 * the tests stand on the spec alone.
 *
 * Each test file that includes this header has its own device and trace (the static state
 * below), made by setup() or make_ready_dev(). */
#ifndef NICREF_TESTS_CMDQ_UTIL_H
#define NICREF_TESTS_CMDQ_UTIL_H

#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define ENTRY 0x40u
#define MBOX 0x240u
#define MBOX_DATA 0x200u
#define OP_NOP 0x80Du

/* The device of the test and what its trace said. */
static struct nicref_dev *dev;
static struct tl_trace tr;

/* ---- Host-side construction, from the PRM ---------------------------------------------------- */

struct entry_spec {
	uint8_t type;
	uint32_t input_length, output_length;
	uint64_t in_ptr, out_ptr; /* written as given, bits 8:0 included */
	uint16_t opcode, op_mod;
	uint8_t token;
	uint8_t ownership;
};

static inline struct entry_spec nop_spec(void)
{
	struct entry_spec s = { 0 };
	s.type = 0x7; /* T96: PCIe_cmd_if_transport */
	s.input_length = 16;
	s.output_length = 16;
	s.opcode = OP_NOP;
	s.token = 0x5A;
	s.ownership = 1;
	return s;
}

/* T95/T96. The signature byte makes the XOR of all 64 bytes 0xFF (D-CMD-5). */
static inline void build_entry(uint8_t *e, const struct entry_spec *s)
{
	memset(e, 0, ENTRY);
	e[0x00] = s->type;
	tl_put32(e + 0x04, s->input_length);
	tl_put32(e + 0x08, (uint32_t)(s->in_ptr >> 32));
	tl_put32(e + 0x0C, (uint32_t)s->in_ptr);
	e[0x10] = (uint8_t)(s->opcode >> 8); /* T99 00h[31:16] opcode */
	e[0x11] = (uint8_t)s->opcode;
	e[0x16] = (uint8_t)(s->op_mod >> 8); /* T99 04h[15:0] op_mod */
	e[0x17] = (uint8_t)s->op_mod;
	/* Output inline data: garbage the device must overwrite when it executes. */
	memset(e + 0x20, 0xEE, 16);
	tl_put32(e + 0x30, (uint32_t)(s->out_ptr >> 32));
	tl_put32(e + 0x34, (uint32_t)s->out_ptr);
	tl_put32(e + 0x38, s->output_length);
	e[0x3C] = s->token;
	e[0x3D] = 0;
	e[0x3E] = 0;
	e[0x3F] = (uint8_t)(s->ownership & 1); /* status 7:1 = 0 */
	e[0x3D] = (uint8_t)~tl_xor(e, ENTRY);
}

struct block_spec {
	uint64_t next;
	uint32_t block_number;
	uint8_t token;
	int input; /* input blocks carry the whole-block signature; output blocks do not */
};

/* T97/T98 with §7.14.1.1.1: zero both signatures, ctrl_signature over 200h-23Fh (D-CMD-3),
 * then, for input blocks, signature over the whole block. */
static inline void build_block(uint8_t *b, const uint8_t *data, const struct block_spec *s)
{
	memset(b, 0, MBOX);
	if (data) {
		memcpy(b, data, MBOX_DATA);
	} else if (!s->input) {
		/* Stale data in an output block, with a non-zero XOR: SW does not sign output
		 * blocks (§7.14.1.1.1), so the device must not check their whole-block XOR. */
		memset(b, 0xA5, MBOX_DATA);
		b[0] = 0x11;
	}
	tl_put32(b + 0x230, (uint32_t)(s->next >> 32));
	tl_put32(b + 0x234, (uint32_t)s->next);
	tl_put32(b + 0x238, s->block_number);
	b[0x23D] = s->token;
	b[0x23E] = (uint8_t)~tl_xor(b + 0x200, 0x40);
	if (s->input)
		b[0x23F] = (uint8_t)~tl_xor(b, MBOX);
}

/* ---- Device ------------------------------------------------------------------------------------ */

/* A device whose queue is at TL_QADDR and ready (initializing 0, §8.2), traced into tr. */
static inline struct nicref_dev *make_ready_dev(const struct nicref_config *base)
{
	struct nicref_config cfg;
	if (base)
		cfg = *base;
	else
		nicref_config_default(&cfg);
	memset(&tr, 0, sizeof tr);
	cfg.trace = tl_trace_event;
	cfg.trace_ctx = &tr;
	struct nicref_dev *d = tl_queue_dev(&cfg);
	tl_mark(&tr);
	return d;
}

/* The transport suites run under the strict profile (D-CMD-5 cmdif_checksum 3: signatures
 * checked and generated), the reading these tests pin; tests of 0 and 1 pass their own. */
static inline void setup(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.cmdif_checksum = 3;
	dev = make_ready_dev(&cfg);
}

static inline void teardown(void)
{
	nicref_dev_destroy(dev);
	dev = NULL;
}

static inline void post(unsigned slot, const uint8_t *e)
{
	cr_assert_eq(nicref_hostmem_write(dev, TL_QADDR + slot * ENTRY, e, ENTRY), 0);
}

static inline void put_block(uint64_t addr, const uint8_t *b)
{
	cr_assert_eq(nicref_hostmem_write(dev, addr, b, MBOX), 0);
}

static inline void ring(uint32_t bits)
{
	nicref_bar_write32(dev, 0x18, bits);
}

static inline void read_entry(unsigned slot, uint8_t *e)
{
	cr_assert_eq(nicref_hostmem_read(dev, TL_QADDR + slot * ENTRY, e, ENTRY), 0);
}

/* The completed entry: ownership back to SW (3Ch[0] = 0), delivery status in 3Ch[7:1], and a
 * signature the device regenerated (XOR of the 64 bytes is 0xFF, D-CMD-5). The CMD_DONE event
 * reports the same delivery status. */
static inline void expect_completed(unsigned slot, unsigned delivery)
{
	uint8_t e[ENTRY];
	read_entry(slot, e);
	cr_assert_eq(e[0x3F] & 1, 0, "slot %u: ownership still 1", slot);
	cr_assert_eq(e[0x3F] >> 1, delivery, "slot %u: delivery status 0x%x, expected 0x%x", slot,
		     e[0x3F] >> 1, delivery);
	cr_assert_eq(tl_xor(e, ENTRY), 0xFF, "slot %u: entry signature not regenerated "
		     "(XOR 0x%02x)", slot, tl_xor(e, ENTRY));
	const struct nicref_event *ev = tl_only(&tr, NICREF_EV_CMD_DONE);
	cr_assert_eq(ev->arg[0], slot);
	cr_assert_eq(ev->arg[3], delivery, "cmd_done delivery 0x%llx, expected 0x%x",
		     (unsigned long long)ev->arg[3], delivery);
}

/* A delivery failure: not executed, so the output inline data is left as SW wrote it; exactly
 * one violation, naming the cause. */
static inline void expect_delivery_error(unsigned delivery, enum nicref_violation rule)
{
	expect_completed(0, delivery);
	uint8_t e[ENTRY];
	read_entry(0, e);
	for (int i = 0x20; i < 0x30; i++)
		cr_assert_eq(e[i], 0xEE, "output inline byte 0x%x written for an undelivered "
			     "command", i);
	cr_assert_eq(tl_count(&tr, NICREF_EV_CMD_FAIL), 0);
	const struct nicref_event *v = tl_only(&tr, NICREF_EV_VIOLATION);
	cr_assert_eq(v->arg[0], (uint64_t)rule, "violation %s, expected %s",
		     nicref_violation_name((unsigned)v->arg[0]), nicref_violation_name(rule));
}

/* The executed command's output header (T101/T102) in the entry's output inline data. */
static inline void expect_status(unsigned status, uint32_t syndrome)
{
	uint8_t e[ENTRY];
	read_entry(0, e);
	cr_assert_eq(e[0x20], status, "status 0x%02x, expected 0x%02x", e[0x20], status);
	cr_assert_eq(tl_get32(e + 0x24), syndrome, "syndrome 0x%08x, expected 0x%08x",
		     tl_get32(e + 0x24), syndrome);
	/* 01h-03h reserved, 08h-0Fh: reserved for NOP and zero on failure (D-CMD-6). */
	for (int i = 0x21; i < 0x24; i++)
		cr_assert_eq(e[i], 0, "output byte 0x%x", i - 0x20);
	for (int i = 0x28; i < 0x30; i++)
		cr_assert_eq(e[i], 0, "output byte 0x%x", i - 0x20);
	const struct nicref_event *ev = tl_only(&tr, NICREF_EV_CMD_DONE);
	cr_assert_eq(ev->arg[4], status);
	cr_assert_eq(ev->arg[5], syndrome);
}

/* A NOP entry with another opcode, op_mod or lengths, posted, rung and completed. */
static inline void run_nop_like(uint16_t opcode, uint16_t op_mod, uint32_t in_len,
				uint32_t out_len)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.opcode = opcode;
	s.op_mod = op_mod;
	s.input_length = in_len;
	s.output_length = out_len;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
}

/* An executed command refused by `rule`: its status and syndrome in the output header, and the
 * CMD_FAIL event naming the opcode and the rule. */
static inline void expect_refused(unsigned status, enum nicref_cmd_rule rule, unsigned opcode)
{
	expect_status(status, nicref_cmd_rule_syndrome(rule));
	cr_assert_neq(nicref_cmd_rule_syndrome(rule), 0, "a refused command has syndrome 0");
	const struct nicref_event *f = tl_only(&tr, NICREF_EV_CMD_FAIL);
	cr_assert_eq(f->arg[1], opcode);
	cr_assert_eq(f->arg[2], (uint64_t)rule, "rule %s, expected %s",
		     nicref_cmd_rule_name((unsigned)f->arg[2]), nicref_cmd_rule_name(rule));
}

#endif
