/* The command queue's mailbox chains (PRM §7.14.1.1 T97/T98, §7.14.1.1.1 signatures, D-CMD-3,
 * D-CMD-4, D-CMD-10): chains of several blocks in each direction, each check of a block and of
 * the pointers that link them, and the longest chain a profile accepts. Entries and blocks are
 * built byte by byte from the PRM (cmdq_util.h). */
#include <stdint.h>
#include <string.h>

#include "cmdq_util.h"

TestSuite(cmdq_mailbox, .init = setup, .fini = teardown);

/* ---- Mailbox chains --------------------------------------------------------------------------- */

/* Blocks 1 KiB aligned (next_pointer carries bits 63:10, D-CMD-4), deliberately not in address
 * order. */
static const uint64_t in_blocks[3] = { 0x30000, 0x34400, 0x32800 };
static const uint64_t out_blocks[3] = { 0x40000, 0x42C00, 0x41400 };

Test(cmdq_mailbox, three_block_input_chain)
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
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0);
}

Test(cmdq_mailbox, three_block_output_chain)
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
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0);
	for (uint32_t k = 0; k < 3; k++) {
		cr_assert_eq(nicref_hostmem_read(dev, out_blocks[k], b, MBOX), 0);
		for (uint32_t i = 0; i < MBOX_DATA; i++)
			cr_assert_eq(b[i], 0, "block %u data byte 0x%x is 0x%02x", k, i, b[i]);
		/* Pointers, block number and token come back as posted (200h-23Dh). */
		cr_assert_eq(memcmp(b + 0x200, ctrl[k], 0x3E), 0, "block %u ctrl part changed", k);
		/* §7.14.1.1.1: ctrl part XORs to 0xFF with the signature byte taken as 0, and the
		 * whole block XORs to 0xFF. */
		cr_assert_eq(tl_xor(b + 0x200, 0x3F), 0xFF, "block %u ctrl_signature", k);
		cr_assert_eq(tl_xor(b, MBOX), 0xFF, "block %u signature", k);
	}
}

Test(cmdq_mailbox, input_and_output_chains_together)
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
		cr_assert_eq(tl_xor(b, MBOX), 0xFF, "output block %u signature", k);
	}
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

Test(cmdq_mailbox, input_chain_next_pointer_misaligned)
{
	two_block_chain(0, FAULT_NEXT_MISALIGNED);
	expect_delivery_error(0x5, NICREF_VIO_INPUT_POINTER);
}

Test(cmdq_mailbox, output_chain_next_pointer_misaligned)
{
	two_block_chain(1, FAULT_NEXT_MISALIGNED);
	expect_delivery_error(0x4, NICREF_VIO_OUTPUT_POINTER);
}

Test(cmdq_mailbox, input_block_signature_wrong)
{
	two_block_chain(0, FAULT_SIGNATURE);
	expect_delivery_error(0x1, NICREF_VIO_MAILBOX_SIGNATURE);
}

Test(cmdq_mailbox, input_block_ctrl_signature_wrong)
{
	two_block_chain(0, FAULT_CTRL_SIGNATURE);
	expect_delivery_error(0x1, NICREF_VIO_MAILBOX_CTRL_SIGNATURE);
}

Test(cmdq_mailbox, output_block_ctrl_signature_wrong)
{
	two_block_chain(1, FAULT_CTRL_SIGNATURE);
	expect_delivery_error(0x1, NICREF_VIO_MAILBOX_CTRL_SIGNATURE);
}

Test(cmdq_mailbox, output_block_token_wrong)
{
	two_block_chain(1, FAULT_TOKEN);
	expect_delivery_error(0x2, NICREF_VIO_MAILBOX_TOKEN);
}

Test(cmdq_mailbox, output_block_number_wrong)
{
	two_block_chain(1, FAULT_BLOCK_NUMBER);
	expect_delivery_error(0x3, NICREF_VIO_MAILBOX_BLOCK_NUMBER);
}

Test(cmdq_mailbox, two_block_chains_fine)
{
	two_block_chain(0, FAULT_NONE);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
	tl_mark(&tr);
	two_block_chain(1, FAULT_NONE);
	expect_completed(0, 0x0);
	expect_status(0x00, 0);
}

/* T97: 200h-22Fh are reserved (D-CMD-9: 0x9 reserved not zero). */
Test(cmdq_mailbox, input_block_reserved_not_zero)
{
	uint8_t e[ENTRY], b[MBOX];
	const uint64_t in = 0x20000;
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = in;
	build_entry(e, &s);
	memset(b, 0, sizeof b);
	b[0x210] = 0x01;
	tl_put32(b + 0x238, 0);
	b[0x23D] = 0x5A;
	b[0x23E] = (uint8_t)~tl_xor(b + 0x200, 0x40);
	b[0x23F] = (uint8_t)~tl_xor(b, MBOX);
	put_block(in, b);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x9, NICREF_VIO_MAILBOX_RESERVED);
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
	tl_mark(&tr);
	s.input_length = 16 + 2 * MBOX_DATA + 1;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x0);
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_LONG, OP_NOP);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* An entry pointer whose 0x240-byte block would pass 2^64 addresses nothing: 0x5, before any
 * DMA. */
Test(cmdq_mailbox, input_pointer_wrapping_past_2_64)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = 0xFFFFFFFFFFFFFE00ull; /* 512-aligned, but +0x240 wraps */
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x5, NICREF_VIO_INPUT_POINTER);
	cr_assert_eq(tl_count(&tr, NICREF_EV_DMA_ERROR), 0);
}
