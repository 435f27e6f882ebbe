/* The command queue transport (reference/cmd/cmdq.c) and the dispatch of a delivered command.
 *
 * Entries and mailboxes are built here byte by byte from PRM §7.14.1 T95/T96 (entry),
 * §7.14.1.1 T97/T98 (mailbox block), §7.14.1.1.1 (signatures, with the ctrl range of decision
 * D-CMD-3: bytes 200h-23Fh with both signature bytes zero) and §7.14.1.2 T99-T102 (command
 * header). Nothing here uses the harness command builder or the library's layout tables, so
 * the test stands on the spec alone. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nicref/nicref.h"

#define MAX_EVENTS 64
#define QADDR 0x00010000ull /* 4 KiB aligned command queue (T8 14h[31:12]) */
#define ENTRY 0x40u
#define MBOX 0x240u
#define MBOX_DATA 0x200u
#define OP_NOP 0x80Du

static struct nicref_event events[MAX_EVENTS];
static size_t nevents;

static void collect(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	cr_assert_lt(nevents, MAX_EVENTS, "trace overflow");
	events[nevents++] = *ev;
}

/* ---- Host-side construction, from the PRM ---------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint8_t xor_bytes(const uint8_t *p, size_t n)
{
	uint8_t x = 0;
	for (size_t i = 0; i < n; i++)
		x ^= p[i];
	return x;
}

struct entry_spec {
	uint8_t type;
	uint32_t input_length, output_length;
	uint64_t in_ptr, out_ptr; /* written as given, bits 8:0 included */
	uint16_t opcode, op_mod;
	uint8_t token;
	uint8_t ownership;
};

static struct entry_spec nop_spec(void)
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
static void build_entry(uint8_t *e, const struct entry_spec *s)
{
	memset(e, 0, ENTRY);
	e[0x00] = s->type;
	put32(e + 0x04, s->input_length);
	put32(e + 0x08, (uint32_t)(s->in_ptr >> 32));
	put32(e + 0x0C, (uint32_t)s->in_ptr);
	e[0x10] = (uint8_t)(s->opcode >> 8); /* T99 00h[31:16] opcode */
	e[0x11] = (uint8_t)s->opcode;
	e[0x16] = (uint8_t)(s->op_mod >> 8); /* T99 04h[15:0] op_mod */
	e[0x17] = (uint8_t)s->op_mod;
	/* Output inline data: garbage the device must overwrite when it executes. */
	memset(e + 0x20, 0xEE, 16);
	put32(e + 0x30, (uint32_t)(s->out_ptr >> 32));
	put32(e + 0x34, (uint32_t)s->out_ptr);
	put32(e + 0x38, s->output_length);
	e[0x3C] = s->token;
	e[0x3D] = 0;
	e[0x3E] = 0;
	e[0x3F] = (uint8_t)(s->ownership & 1); /* status 7:1 = 0 */
	e[0x3D] = (uint8_t)~xor_bytes(e, ENTRY);
}

struct block_spec {
	uint64_t next;
	uint32_t block_number;
	uint8_t token;
	int input; /* input blocks carry the whole-block signature; output blocks do not */
};

/* T97/T98 with §7.14.1.1.1: zero both signatures, ctrl_signature over 200h-23Fh (D-CMD-3),
 * then, for input blocks, signature over the whole block. */
static void build_block(uint8_t *b, const uint8_t *data, const struct block_spec *s)
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
	put32(b + 0x230, (uint32_t)(s->next >> 32));
	put32(b + 0x234, (uint32_t)s->next);
	put32(b + 0x238, s->block_number);
	b[0x23D] = s->token;
	b[0x23E] = (uint8_t)~xor_bytes(b + 0x200, 0x40);
	if (s->input)
		b[0x23F] = (uint8_t)~xor_bytes(b, MBOX);
}

/* ---- Device ------------------------------------------------------------------------------------ */

static struct nicref_dev *dev;

/* A device whose queue is at QADDR and ready (initializing 0, §8.2). */
static struct nicref_dev *make_ready_dev(const struct nicref_config *base)
{
	struct nicref_config cfg;
	if (base)
		cfg = *base;
	else
		nicref_config_default(&cfg);
	cfg.trace = collect;
	struct nicref_dev *d = nicref_dev_create(&cfg);
	cr_assert_not_null(d);
	nicref_bar_write32(d, 0x10, (uint32_t)(QADDR >> 32));
	nicref_bar_write32(d, 0x14, (uint32_t)QADDR);
	cr_assert_eq(nicref_bar_read32(d, 0x1FC) >> 31, 0, "device not ready");
	nevents = 0;
	return d;
}

static void setup(void)
{
	dev = make_ready_dev(NULL);
}

static void teardown(void)
{
	nicref_dev_destroy(dev);
	dev = NULL;
}

static void post(unsigned slot, const uint8_t *e)
{
	cr_assert_eq(nicref_hostmem_write(dev, QADDR + slot * ENTRY, e, ENTRY), 0);
}

static void put_block(uint64_t addr, const uint8_t *b)
{
	cr_assert_eq(nicref_hostmem_write(dev, addr, b, MBOX), 0);
}

static void ring(uint32_t bits)
{
	nicref_bar_write32(dev, 0x18, bits);
}

static void read_entry(unsigned slot, uint8_t *e)
{
	cr_assert_eq(nicref_hostmem_read(dev, QADDR + slot * ENTRY, e, ENTRY), 0);
}

static size_t count_kind(enum nicref_event_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < nevents; i++)
		n += events[i].kind == k;
	return n;
}

static const struct nicref_event *only(enum nicref_event_kind k)
{
	cr_assert_eq(count_kind(k), 1, "%zu %s events, expected 1", count_kind(k),
		     nicref_event_name(k));
	for (size_t i = 0; i < nevents; i++)
		if (events[i].kind == k)
			return &events[i];
	return NULL;
}

/* The completed entry: ownership back to SW (3Ch[0] = 0), delivery status in 3Ch[7:1], and a
 * signature the device regenerated (XOR of the 64 bytes is 0xFF, D-CMD-5). The CMD_DONE event
 * reports the same delivery status. */
static void expect_completed(unsigned slot, unsigned delivery)
{
	uint8_t e[ENTRY];
	read_entry(slot, e);
	cr_assert_eq(e[0x3F] & 1, 0, "slot %u: ownership still 1", slot);
	cr_assert_eq(e[0x3F] >> 1, delivery, "slot %u: delivery status 0x%x, expected 0x%x", slot,
		     e[0x3F] >> 1, delivery);
	cr_assert_eq(xor_bytes(e, ENTRY), 0xFF, "slot %u: entry signature not regenerated "
		     "(XOR 0x%02x)", slot, xor_bytes(e, ENTRY));
	const struct nicref_event *ev = only(NICREF_EV_CMD_DONE);
	cr_assert_eq(ev->arg[0], slot);
	cr_assert_eq(ev->arg[3], delivery, "cmd_done delivery 0x%llx, expected 0x%x",
		     (unsigned long long)ev->arg[3], delivery);
}

/* A delivery failure: not executed, so the output inline data is left as SW wrote it; exactly
 * one violation, naming the cause. */
static void expect_delivery_error(unsigned delivery, enum nicref_violation rule)
{
	expect_completed(0, delivery);
	uint8_t e[ENTRY];
	read_entry(0, e);
	for (int i = 0x20; i < 0x30; i++)
		cr_assert_eq(e[i], 0xEE, "output inline byte 0x%x written for an undelivered "
			     "command", i);
	cr_assert_eq(count_kind(NICREF_EV_CMD_FAIL), 0);
	const struct nicref_event *v = only(NICREF_EV_VIOLATION);
	cr_assert_eq(v->arg[0], (uint64_t)rule, "violation %s, expected %s",
		     nicref_violation_name((unsigned)v->arg[0]), nicref_violation_name(rule));
}

/* The executed command's output header (T101/T102) in the entry's output inline data. */
static void expect_status(unsigned status, uint32_t syndrome)
{
	uint8_t e[ENTRY];
	read_entry(0, e);
	cr_assert_eq(e[0x20], status, "status 0x%02x, expected 0x%02x", e[0x20], status);
	cr_assert_eq(get32(e + 0x24), syndrome, "syndrome 0x%08x, expected 0x%08x",
		     get32(e + 0x24), syndrome);
	/* 01h-03h reserved, 08h-0Fh: reserved for NOP and zero on failure (D-CMD-6). */
	for (int i = 0x21; i < 0x24; i++)
		cr_assert_eq(e[i], 0, "output byte 0x%x", i - 0x20);
	for (int i = 0x28; i < 0x30; i++)
		cr_assert_eq(e[i], 0, "output byte 0x%x", i - 0x20);
	const struct nicref_event *ev = only(NICREF_EV_CMD_DONE);
	cr_assert_eq(ev->arg[4], status);
	cr_assert_eq(ev->arg[5], syndrome);
}

/* ---- A NOP, and each delivery status of T96 -------------------------------------------------- */

TestSuite(cmdq, .init = setup, .fini = teardown);

Test(cmdq, nop_completes)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
	const struct nicref_event *ev = only(NICREF_EV_CMD_DONE);
	cr_assert_eq(ev->arg[1], OP_NOP);
	cr_assert_eq(ev->arg[2], 0);
	cr_assert_eq(nevents, 1, "%zu events for a clean NOP", nevents);
	/* Input, pointers, lengths and token are left as posted. */
	uint8_t got[ENTRY];
	read_entry(0, got);
	cr_assert_eq(memcmp(got, e, 0x20), 0);
	cr_assert_eq(memcmp(got + 0x30, e + 0x30, 0x0D), 0);
	cr_assert_eq(got[0x3E], 0);
}

Test(cmdq, nop_in_another_slot)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	post(31, e);
	ring(1u << 31);
	uint8_t got[ENTRY];
	read_entry(31, got);
	cr_assert_eq(got[0x3F], 0x00);
	cr_assert_eq(got[0x20], 0x00);
	cr_assert_eq(only(NICREF_EV_CMD_DONE)->arg[0], 31);
}

Test(cmdq, delivery_bad_type)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.type = 0x6;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x10, NICREF_VIO_ENTRY_BAD_TYPE);
	uint8_t got[ENTRY];
	read_entry(0, got);
	cr_assert_eq(got[0x3F], 0x20, "byte 3Fh 0x%02x, expected 0x20 (D-CMD-2)", got[0x3F]);
}

Test(cmdq, delivery_bad_signature)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	e[0x3D] ^= 0x01;
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x1, NICREF_VIO_ENTRY_SIGNATURE);
}

/* A NOP with one input mailbox (input_length 16 + 512). */
static void one_input_block(uint32_t block_number, uint8_t block_token)
{
	uint8_t e[ENTRY], b[MBOX];
	const uint64_t in = 0x20000;
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = in;
	build_entry(e, &s);
	struct block_spec bs = { 0, block_number, block_token, 1 };
	build_block(b, NULL, &bs);
	put_block(in, b);
	post(0, e);
	ring(0x1);
}

Test(cmdq, delivery_token_mismatch)
{
	one_input_block(0, 0x5A ^ 0x01);
	expect_delivery_error(0x2, NICREF_VIO_MAILBOX_TOKEN);
}

Test(cmdq, delivery_bad_block_number)
{
	one_input_block(1, 0x5A);
	expect_delivery_error(0x3, NICREF_VIO_MAILBOX_BLOCK_NUMBER);
}

Test(cmdq, one_input_block_is_fine)
{
	one_input_block(0, 0x5A);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
}

/* T96 0x4/0x5: "pointer not aligned to mailbox size" (bits 8:0 of the pointer, D-CMD-4). */
static void misaligned_pointer(int output, uint32_t low_bits)
{
	uint8_t e[ENTRY], b[MBOX];
	const uint64_t mb = 0x20000;
	struct entry_spec s = nop_spec();
	struct block_spec bs = { 0, 0, 0x5A, !output };
	build_block(b, NULL, &bs);
	put_block(mb, b);
	if (output) {
		s.output_length = 16 + MBOX_DATA;
		s.out_ptr = mb | low_bits;
	} else {
		s.input_length = 16 + MBOX_DATA;
		s.in_ptr = mb | low_bits;
	}
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
}

Test(cmdq, delivery_bad_output_pointer_bit8)
{
	misaligned_pointer(1, 0x100);
	expect_delivery_error(0x4, NICREF_VIO_OUTPUT_POINTER);
}

Test(cmdq, delivery_bad_output_pointer_low_byte)
{
	misaligned_pointer(1, 0x040);
	expect_delivery_error(0x4, NICREF_VIO_OUTPUT_POINTER);
}

Test(cmdq, delivery_bad_input_pointer_bit8)
{
	misaligned_pointer(0, 0x100);
	expect_delivery_error(0x5, NICREF_VIO_INPUT_POINTER);
}

Test(cmdq, delivery_bad_input_pointer_low_byte)
{
	misaligned_pointer(0, 0x001);
	expect_delivery_error(0x5, NICREF_VIO_INPUT_POINTER);
}

Test(cmdq, delivery_input_length_short)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.input_length = 4;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x7, NICREF_VIO_INPUT_LENGTH_SHORT);
}

Test(cmdq, delivery_output_length_short)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.output_length = 4;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x8, NICREF_VIO_OUTPUT_LENGTH_SHORT);
}

Test(cmdq, delivery_reserved_not_zero)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	e[0x01] = 0x01; /* T95 00h[23:0] reserved */
	e[0x3D] = 0;
	e[0x3D] = (uint8_t)~xor_bytes(e, ENTRY);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x9, NICREF_VIO_ENTRY_RESERVED);
}

Test(cmdq, delivery_reserved_3ch_not_zero)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	e[0x3E] = 0x80; /* T95 3Ch[15:8] reserved */
	e[0x3D] = 0;
	e[0x3D] = (uint8_t)~xor_bytes(e, ENTRY);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x9, NICREF_VIO_ENTRY_RESERVED);
}

/* ---- DMA failure: T96 0x6 internal error ------------------------------------------------------ */

struct failing_host {
	struct nicref_dev *dev;
	uint64_t bad_lo, bad_hi; /* reads touching [bad_lo, bad_hi) fail */
};
static struct failing_host fh;

static int failing_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct failing_host *h = ctx;
	if (addr < h->bad_hi && addr + len > h->bad_lo)
		return -1;
	return nicref_hostmem_read(h->dev, addr, buf, len);
}

Test(cmdq_dma, mailbox_read_fails)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	const uint64_t in = 0x20000;
	fh.bad_lo = in;
	fh.bad_hi = in + MBOX;
	cfg.ops.ctx = &fh;
	cfg.ops.dma_read = failing_read;
	/* dma_read is only called on doorbells, after fh.dev is set below. */
	dev = make_ready_dev(&cfg);
	fh.dev = dev;

	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = in;
	build_entry(e, &s);
	struct block_spec bs = { 0, 0, 0x5A, 1 };
	build_block(b, NULL, &bs);
	put_block(in, b);
	post(0, e);
	ring(0x1);

	expect_completed(0, 0x6);
	uint8_t got[ENTRY];
	read_entry(0, got);
	for (int i = 0x20; i < 0x30; i++)
		cr_assert_eq(got[i], 0xEE, "output inline byte 0x%x written", i);
	const struct nicref_event *d = only(NICREF_EV_DMA_ERROR);
	cr_assert_eq(d->arg[0], in, "dma_error addr 0x%llx", (unsigned long long)d->arg[0]);
	cr_assert_eq(d->arg[2], 0, "dma_error reported as a write");
	struct nicref_stats st;
	nicref_stats_get(dev, &st);
	cr_assert_eq(st.dma_errors, 1);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* ---- Mailbox chains --------------------------------------------------------------------------- */

/* Blocks 1 KiB aligned (next_pointer carries bits 63:10, D-CMD-4), deliberately not in address
 * order. */
static const uint64_t in_blocks[3] = { 0x30000, 0x34400, 0x32800 };
static const uint64_t out_blocks[3] = { 0x40000, 0x42C00, 0x41400 };

Test(cmdq, three_block_input_chain)
{
	uint8_t e[ENTRY], b[MBOX], data[MBOX_DATA];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + 3 * MBOX_DATA;
	s.in_ptr = in_blocks[0];
	build_entry(e, &s);
	for (uint32_t k = 0; k < 3; k++) {
		memset(data, 0, sizeof data); /* NOP: 08h.. reserved, so zero data */
		struct block_spec bs = { k < 2 ? in_blocks[k + 1] : 0, k, 0x5A, 1 };
		build_block(b, data, &bs);
		put_block(in_blocks[k], b);
	}
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 0);
}

Test(cmdq, three_block_output_chain)
{
	uint8_t e[ENTRY], b[MBOX], data[MBOX_DATA], ctrl[3][0x40];
	struct entry_spec s = nop_spec();
	s.output_length = 16 + 3 * MBOX_DATA;
	s.out_ptr = out_blocks[0];
	build_entry(e, &s);
	memset(data, 0xA5, sizeof data); /* stale data the device must replace */
	data[7] = 0x3C;                   /* ... whose XOR is not zero */
	for (uint32_t k = 0; k < 3; k++) {
		struct block_spec bs = { k < 2 ? out_blocks[k + 1] : 0, k, 0x5A, 0 };
		build_block(b, data, &bs);
		memcpy(ctrl[k], b + 0x200, 0x40);
		put_block(out_blocks[k], b);
	}
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 0);
	for (uint32_t k = 0; k < 3; k++) {
		cr_assert_eq(nicref_hostmem_read(dev, out_blocks[k], b, MBOX), 0);
		for (uint32_t i = 0; i < MBOX_DATA; i++)
			cr_assert_eq(b[i], 0, "block %u data byte 0x%x is 0x%02x", k, i, b[i]);
		/* Pointers, block number and token come back as posted (200h-23Dh). */
		cr_assert_eq(memcmp(b + 0x200, ctrl[k], 0x3E), 0, "block %u ctrl part changed", k);
		/* §7.14.1.1.1: ctrl part XORs to 0xFF with the signature byte taken as 0, and the
		 * whole block XORs to 0xFF. */
		cr_assert_eq(xor_bytes(b + 0x200, 0x3F), 0xFF, "block %u ctrl_signature", k);
		cr_assert_eq(xor_bytes(b, MBOX), 0xFF, "block %u signature", k);
	}
}

Test(cmdq, input_and_output_chains_together)
{
	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + 2 * MBOX_DATA;
	s.output_length = 16 + 2 * MBOX_DATA - 100; /* a partial last block */
	s.in_ptr = in_blocks[0];
	s.out_ptr = out_blocks[0];
	build_entry(e, &s);
	for (uint32_t k = 0; k < 2; k++) {
		struct block_spec bi = { k < 1 ? in_blocks[k + 1] : 0, k, 0x5A, 1 };
		build_block(b, NULL, &bi);
		put_block(in_blocks[k], b);
		struct block_spec bo = { k < 1 ? out_blocks[k + 1] : 0, k, 0x5A, 0 };
		build_block(b, NULL, &bo);
		put_block(out_blocks[k], b);
	}
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
	for (uint32_t k = 0; k < 2; k++) {
		cr_assert_eq(nicref_hostmem_read(dev, out_blocks[k], b, MBOX), 0);
		cr_assert_eq(xor_bytes(b, MBOX), 0xFF, "output block %u signature", k);
	}
}

/* ---- Return statuses (T128) of executed commands --------------------------------------------- */

static void run_nop_like(uint16_t opcode, uint16_t op_mod, uint32_t in_len, uint32_t out_len)
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

static void expect_refused(unsigned status, enum nicref_cmd_rule rule, unsigned opcode)
{
	expect_status(status, nicref_cmd_rule_syndrome(rule));
	cr_assert_neq(nicref_cmd_rule_syndrome(rule), 0, "a refused command has syndrome 0");
	const struct nicref_event *f = only(NICREF_EV_CMD_FAIL);
	cr_assert_eq(f->arg[1], opcode);
	cr_assert_eq(f->arg[2], (uint64_t)rule, "rule %s, expected %s",
		     nicref_cmd_rule_name((unsigned)f->arg[2]), nicref_cmd_rule_name(rule));
}

Test(cmdq, unknown_opcode)
{
	run_nop_like(0x999, 0, 16, 16);
	expect_refused(0x02, NICREF_RULE_UNKNOWN_OPCODE, 0x999);
	cr_assert_eq(count_kind(NICREF_EV_UNMODELLED), 0);
}

Test(cmdq, unmodelled_opcode)
{
	run_nop_like(0x930, 0, 16, 16); /* CREATE_FLOW_TABLE, T127: comes with the receive path */
	expect_refused(0x02, NICREF_RULE_UNMODELLED_OPCODE, 0x930);
	const struct nicref_event *u = only(NICREF_EV_UNMODELLED);
	cr_assert_eq(u->arg[0], 0);
	cr_assert_eq(u->arg[1], 0x930);
}

Test(cmdq, nop_bad_op_mod)
{
	run_nop_like(OP_NOP, 1, 16, 16); /* T100: no op_mod described, so it must be 0 */
	expect_refused(0x02, NICREF_RULE_BAD_OP_MOD, OP_NOP);
}

Test(cmdq, nop_input_too_short)
{
	run_nop_like(OP_NOP, 0, 8, 16); /* T494: the NOP input is 10h bytes */
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_SHORT, OP_NOP);
}

Test(cmdq, nop_output_too_short)
{
	run_nop_like(OP_NOP, 0, 16, 8); /* T496: the NOP output is 10h bytes */
	uint8_t e[ENTRY];
	read_entry(0, e);
	cr_assert_eq(e[0x20], 0x51, "status 0x%02x", e[0x20]);
	cr_assert_eq(get32(e + 0x24), nicref_cmd_rule_syndrome(NICREF_RULE_OUTPUT_TOO_SHORT));
	const struct nicref_event *f = only(NICREF_EV_CMD_FAIL);
	cr_assert_eq(f->arg[2], (uint64_t)NICREF_RULE_OUTPUT_TOO_SHORT);
}

/* ---- Doorbells ------------------------------------------------------------------------------- */

Test(cmdq, two_slots_in_one_doorbell)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	post(2, e);
	s.token = 0x11;
	build_entry(e, &s);
	post(0, e);
	ring(0x5);
	cr_assert_eq(count_kind(NICREF_EV_CMD_DONE), 2);
	cr_assert_eq(nevents, 2);
	cr_assert_eq(events[0].kind, NICREF_EV_CMD_DONE);
	cr_assert_eq(events[0].arg[0], 0);
	cr_assert_eq(events[1].kind, NICREF_EV_CMD_DONE);
	cr_assert_eq(events[1].arg[0], 2);
	cr_assert_lt(events[0].seq, events[1].seq);
	for (unsigned slot = 0; slot <= 2; slot += 2) {
		uint8_t got[ENTRY];
		read_entry(slot, got);
		cr_assert_eq(got[0x3F], 0x00, "slot %u byte 3Fh 0x%02x", slot, got[0x3F]);
		cr_assert_eq(got[0x20], 0x00);
		cr_assert_eq(xor_bytes(got, ENTRY), 0xFF);
	}
	/* Slot 1 was not rung and is untouched (all zero). */
	uint8_t one[ENTRY];
	read_entry(1, one);
	for (unsigned i = 0; i < ENTRY; i++)
		cr_assert_eq(one[i], 0);
}

Test(cmdq, doorbell_not_owned)
{
	uint8_t e[ENTRY], got[ENTRY];
	struct entry_spec s = nop_spec();
	s.ownership = 0;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	const struct nicref_event *v = only(NICREF_EV_VIOLATION);
	cr_assert_eq(v->arg[0], (uint64_t)NICREF_VIO_DB_NOT_OWNED);
	cr_assert_eq(count_kind(NICREF_EV_CMD_DONE), 0);
	read_entry(0, got);
	cr_assert_eq(memcmp(got, e, ENTRY), 0, "the device wrote to an entry it does not own");
}

/* ---- More delivery checks on mailbox chains ------------------------------------------------- */

/* A two-block chain in one direction, with one thing broken in block `bad_k`. */
enum chain_fault { FAULT_NONE, FAULT_NEXT_MISALIGNED, FAULT_SIGNATURE, FAULT_CTRL_SIGNATURE,
		   FAULT_TOKEN, FAULT_BLOCK_NUMBER };

static void two_block_chain(int output, enum chain_fault fault)
{
	uint8_t e[ENTRY], b[MBOX];
	const uint64_t *addrs = output ? out_blocks : in_blocks;
	struct entry_spec s = nop_spec();
	if (output) {
		s.output_length = 16 + 2 * MBOX_DATA;
		s.out_ptr = addrs[0];
	} else {
		s.input_length = 16 + 2 * MBOX_DATA;
		s.in_ptr = addrs[0];
	}
	build_entry(e, &s);
	for (uint32_t k = 0; k < 2; k++) {
		struct block_spec bs = { k == 0 ? addrs[1] : 0, k, 0x5A, !output };
		if (k == 0 && fault == FAULT_NEXT_MISALIGNED)
			bs.next |= 0x200; /* bit 9: next_pointer carries bits 31:10 (D-CMD-4) */
		if (k == 1 && fault == FAULT_TOKEN)
			bs.token = 0xA5;
		if (k == 1 && fault == FAULT_BLOCK_NUMBER)
			bs.block_number = 2;
		build_block(b, NULL, &bs);
		if (k == 1 && fault == FAULT_SIGNATURE)
			b[0x23F] ^= 0x80;
		if (k == 1 && fault == FAULT_CTRL_SIGNATURE) {
			/* Wrong ctrl_signature, but the whole block still XORs to 0xFF. */
			b[0x23E] ^= 0x01;
			b[0x23F] ^= 0x01;
		}
		put_block(addrs[k], b);
	}
	/* A misaligned next pointer points into the middle of block 1's 1 KiB slot; put a valid
	 * copy there so that only the alignment is wrong. */
	if (fault == FAULT_NEXT_MISALIGNED) {
		struct block_spec bs = { 0, 1, 0x5A, !output };
		build_block(b, NULL, &bs);
		put_block(addrs[1] | 0x200, b);
	}
	post(0, e);
	ring(0x1);
}

Test(cmdq, input_chain_next_pointer_misaligned)
{
	two_block_chain(0, FAULT_NEXT_MISALIGNED);
	expect_delivery_error(0x5, NICREF_VIO_INPUT_POINTER);
}

Test(cmdq, output_chain_next_pointer_misaligned)
{
	two_block_chain(1, FAULT_NEXT_MISALIGNED);
	expect_delivery_error(0x4, NICREF_VIO_OUTPUT_POINTER);
}

Test(cmdq, input_block_signature_wrong)
{
	two_block_chain(0, FAULT_SIGNATURE);
	expect_delivery_error(0x1, NICREF_VIO_MAILBOX_SIGNATURE);
}

Test(cmdq, input_block_ctrl_signature_wrong)
{
	two_block_chain(0, FAULT_CTRL_SIGNATURE);
	expect_delivery_error(0x1, NICREF_VIO_MAILBOX_CTRL_SIGNATURE);
}

Test(cmdq, output_block_ctrl_signature_wrong)
{
	two_block_chain(1, FAULT_CTRL_SIGNATURE);
	expect_delivery_error(0x1, NICREF_VIO_MAILBOX_CTRL_SIGNATURE);
}

Test(cmdq, output_block_token_wrong)
{
	two_block_chain(1, FAULT_TOKEN);
	expect_delivery_error(0x2, NICREF_VIO_MAILBOX_TOKEN);
}

Test(cmdq, output_block_number_wrong)
{
	two_block_chain(1, FAULT_BLOCK_NUMBER);
	expect_delivery_error(0x3, NICREF_VIO_MAILBOX_BLOCK_NUMBER);
}

Test(cmdq, two_block_chains_fine)
{
	two_block_chain(0, FAULT_NONE);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
	nevents = 0;
	two_block_chain(1, FAULT_NONE);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
}

/* D-CMD-7: length checks come before the opcode and op_mod checks. */
Test(cmdq, length_before_op_mod)
{
	run_nop_like(OP_NOP, 1, 8, 16);
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_SHORT, OP_NOP);
}

/* T8 18h: "The valid bits in this vector are [number of commands-1..0]". */
Test(cmdq_small, doorbell_bit_out_of_range)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.log_cmdq_size = 2; /* 4 entries */
	dev = make_ready_dev(&cfg);
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	post(0, e);
	post(4, e); /* the fifth 64-byte slot: beyond the queue */
	ring(0x11);
	const struct nicref_event *v = only(NICREF_EV_VIOLATION);
	cr_assert_eq(v->arg[0], (uint64_t)NICREF_VIO_DB_BIT_OUT_OF_RANGE);
	const struct nicref_event *d = only(NICREF_EV_CMD_DONE);
	cr_assert_eq(d->arg[0], 0);
	uint8_t got[ENTRY];
	read_entry(4, got);
	cr_assert_eq(memcmp(got, e, ENTRY), 0, "an entry beyond the queue was executed");
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* PRM T145 cmdif_checksum 0: signatures neither checked nor generated. */
Test(cmdq_checksum, off)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.cmdif_checksum = 0;
	dev = make_ready_dev(&cfg);
	uint8_t e[ENTRY], got[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	e[0x3D] = 0x00; /* no signature */
	post(0, e);
	ring(0x1);
	read_entry(0, got);
	cr_assert_eq(got[0x3F], 0x00, "byte 3Fh 0x%02x", got[0x3F]);
	cr_assert_eq(got[0x20], 0x00);
	cr_assert_eq(got[0x3D], 0x00, "signature generated with cmdif_checksum 0");
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* cmdif_checksum 1: not checked on input, generated on output. */
Test(cmdq_checksum, generate_only)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.cmdif_checksum = 1;
	dev = make_ready_dev(&cfg);
	uint8_t e[ENTRY], got[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	e[0x3D] ^= 0x5A; /* wrong signature */
	post(0, e);
	ring(0x1);
	read_entry(0, got);
	cr_assert_eq(got[0x3F], 0x00, "byte 3Fh 0x%02x", got[0x3F]);
	cr_assert_eq(xor_bytes(got, ENTRY), 0xFF, "signature not generated");
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* T97: 200h-22Fh are reserved (D-CMD-9: 0x9 reserved not zero). */
Test(cmdq, input_block_reserved_not_zero)
{
	uint8_t e[ENTRY], b[MBOX];
	const uint64_t in = 0x20000;
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = in;
	build_entry(e, &s);
	memset(b, 0, sizeof b);
	b[0x210] = 0x01;
	put32(b + 0x238, 0);
	b[0x23D] = 0x5A;
	b[0x23E] = (uint8_t)~xor_bytes(b + 0x200, 0x40);
	b[0x23F] = (uint8_t)~xor_bytes(b, MBOX);
	put_block(in, b);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x9, NICREF_VIO_MAILBOX_RESERVED);
}

/* D-CMD-10: a chain longer than profile.max_mailbox_blocks (512) is refused with
 * BAD_INPUT_LEN / BAD_OUTPUT_LEN and never walked (nothing is at the pointer). */
Test(cmdq, input_too_long)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + 513 * MBOX_DATA;
	s.in_ptr = 0x800000;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_LONG, OP_NOP);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 0, "the chain was walked");
}

Test(cmdq, output_too_long)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.output_length = 16 + 513 * MBOX_DATA;
	s.out_ptr = 0x800000;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_refused(0x51, NICREF_RULE_OUTPUT_TOO_LONG, OP_NOP);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 0, "the chain was walked");
}

/* The longest chain accepted: exactly max_mailbox_blocks (a small profile keeps it short). */
Test(cmdq_small, chain_at_the_limit)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.max_mailbox_blocks = 2;
	dev = make_ready_dev(&cfg);
	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + 2 * MBOX_DATA;
	s.in_ptr = in_blocks[0];
	build_entry(e, &s);
	for (uint32_t k = 0; k < 2; k++) {
		struct block_spec bs = { k == 0 ? in_blocks[1] : 0, k, 0x5A, 1 };
		build_block(b, NULL, &bs);
		put_block(in_blocks[k], b);
	}
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
	/* One byte more needs a third block: refused. */
	nevents = 0;
	s.input_length = 16 + 2 * MBOX_DATA + 1;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_LONG, OP_NOP);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* D-CMD-9: the first failing check in its fixed order wins. */
Test(cmdq, delivery_check_order)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	/* type and signature both wrong: type first (0x10). */
	s.type = 0x1;
	build_entry(e, &s);
	e[0x3D] ^= 0xFF;
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x10);
	/* signature wrong and reserved not zero: signature first (0x1). */
	nevents = 0;
	s = nop_spec();
	build_entry(e, &s);
	e[0x02] = 0x10;
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x1);
	/* reserved not zero and input_length 4: reserved first (0x9). */
	nevents = 0;
	s.input_length = 4;
	build_entry(e, &s);
	e[0x02] = 0x10;
	e[0x3D] = 0;
	e[0x3D] = (uint8_t)~xor_bytes(e, ENTRY);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x9);
	/* input_length 4 and output_length 4: input first (0x7). */
	nevents = 0;
	s.output_length = 4;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x7);
	/* both pointers misaligned: input first (0x5). */
	nevents = 0;
	s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.output_length = 16 + MBOX_DATA;
	s.in_ptr = 0x20000 | 0x100;
	s.out_ptr = 0x30000 | 0x100;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x5);
}

/* D-CMD-15: a failure reading the entry itself cannot be reported through the entry: a
 * dma_error event, no completion, nothing written. */
Test(cmdq_dma, entry_read_fails)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	fh.bad_lo = QADDR + 1 * ENTRY;
	fh.bad_hi = QADDR + 2 * ENTRY;
	cfg.ops.ctx = &fh;
	cfg.ops.dma_read = failing_read;
	dev = make_ready_dev(&cfg);
	fh.dev = dev;
	uint8_t e[ENTRY], got[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	post(0, e);
	post(1, e);
	ring(0x3);
	const struct nicref_event *d = only(NICREF_EV_DMA_ERROR);
	cr_assert_eq(d->arg[0], QADDR + ENTRY);
	cr_assert_eq(d->arg[1], ENTRY);
	cr_assert_eq(d->arg[2], 0);
	const struct nicref_event *c = only(NICREF_EV_CMD_DONE);
	cr_assert_eq(c->arg[0], 0, "slot 0 still completes");
	cr_assert_eq(nicref_hostmem_read(dev, QADDR + ENTRY, got, ENTRY), 0);
	cr_assert_eq(memcmp(got, e, ENTRY), 0);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* ---- Injected faults and impossible pointers (D-CMD-15, D-CMD-18) ---------------------------- */

/* The built-in host memory's error injection: a read fault on the one input block gives 0x6,
 * not executed, with the dma_error event and no violation (the host failed, not the driver). */
Test(cmdq, injected_read_fault_is_internal_error)
{
	const uint64_t in = 0x20000;
	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = in;
	build_entry(e, &s);
	struct block_spec bs = { 0, 0, 0x5A, 1 };
	build_block(b, NULL, &bs);
	put_block(in, b);
	post(0, e);
	cr_assert_eq(nicref_hostmem_fault(dev, in + 0x100, 1, NICREF_FAULT_READ), 0);
	ring(0x1);
	expect_completed(0, 0x6);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 0);
	cr_assert_eq(only(NICREF_EV_DMA_ERROR)->arg[0], in);
}

/* A write fault on the output block: the NOP ran (status OK) but its output is lost, so the
 * delivery status says 0x6. The inline output still reaches the entry. */
Test(cmdq, injected_write_fault_on_output_is_internal_error)
{
	const uint64_t out = 0x40000;
	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.output_length = 16 + MBOX_DATA;
	s.out_ptr = out;
	build_entry(e, &s);
	struct block_spec bs = { 0, 0, 0x5A, 0 };
	build_block(b, NULL, &bs);
	put_block(out, b);
	post(0, e);
	cr_assert_eq(nicref_hostmem_fault(dev, out, MBOX, NICREF_FAULT_WRITE), 0);
	ring(0x1);
	expect_completed(0, 0x6);
	read_entry(0, e);
	cr_assert_eq(e[0x20], 0x00, "the NOP itself succeeded");
	const struct nicref_event *d = only(NICREF_EV_DMA_ERROR);
	cr_assert_eq(d->arg[0], out);
	cr_assert_eq(d->arg[2], 1, "reported as a write");
}

/* An entry pointer whose 0x240-byte block would pass 2^64 addresses nothing: 0x5, before any
 * DMA. */
Test(cmdq, input_pointer_wrapping_past_2_64)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = 0xFFFFFFFFFFFFFE00ull; /* 512-aligned, but +0x240 wraps */
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x5, NICREF_VIO_INPUT_POINTER);
	cr_assert_eq(count_kind(NICREF_EV_DMA_ERROR), 0);
}
