/* The command queue (reference/cmd/cmdq.c), its entries: a NOP through the queue, each delivery
 * status of PRM §7.14.1 T96 and the order of the checks (D-CMD-9), the doorbell (T8 18h), and
 * the profile's cmdif_checksum (T145). Mailbox chains: cmdq_mailbox_test.c; the statuses of
 * executed commands: cmdq_status_test.c; host memory failing: cmdq_fault_test.c. Entries are
 * built byte by byte from the PRM (cmdq_util.h). */
#include <stdint.h>
#include <string.h>

#include "cmdq_util.h"

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
	const struct nicref_event *ev = tl_only(&tr, NICREF_EV_CMD_DONE);
	cr_assert_eq(ev->arg[1], OP_NOP);
	cr_assert_eq(ev->arg[2], 0);
	cr_assert_eq(tr.n, 1, "%zu events for a clean NOP", tr.n);
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
	cr_assert_eq(tl_only(&tr, NICREF_EV_CMD_DONE)->arg[0], 31);
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
	e[0x3D] = (uint8_t)~tl_xor(e, ENTRY);
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
	e[0x3D] = (uint8_t)~tl_xor(e, ENTRY);
	post(0, e);
	ring(0x1);
	expect_delivery_error(0x9, NICREF_VIO_ENTRY_RESERVED);
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
	cr_assert_eq(tl_count(&tr, NICREF_EV_CMD_DONE), 2);
	cr_assert_eq(tr.n, 2);
	cr_assert_eq(tr.ev[0].kind, NICREF_EV_CMD_DONE);
	cr_assert_eq(tr.ev[0].arg[0], 0);
	cr_assert_eq(tr.ev[1].kind, NICREF_EV_CMD_DONE);
	cr_assert_eq(tr.ev[1].arg[0], 2);
	cr_assert_lt(tr.ev[0].seq, tr.ev[1].seq);
	for (unsigned slot = 0; slot <= 2; slot += 2) {
		uint8_t got[ENTRY];
		read_entry(slot, got);
		cr_assert_eq(got[0x3F], 0x00, "slot %u byte 3Fh 0x%02x", slot, got[0x3F]);
		cr_assert_eq(got[0x20], 0x00);
		cr_assert_eq(tl_xor(got, ENTRY), 0xFF);
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
	const struct nicref_event *v = tl_only(&tr, NICREF_EV_VIOLATION);
	cr_assert_eq(v->arg[0], (uint64_t)NICREF_VIO_DB_NOT_OWNED);
	cr_assert_eq(tl_count(&tr, NICREF_EV_CMD_DONE), 0);
	read_entry(0, got);
	cr_assert_eq(memcmp(got, e, ENTRY), 0, "the device wrote to an entry it does not own");
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
	tl_mark(&tr);
	s = nop_spec();
	build_entry(e, &s);
	e[0x02] = 0x10;
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x1);
	/* reserved not zero and input_length 4: reserved first (0x9). */
	tl_mark(&tr);
	s.input_length = 4;
	build_entry(e, &s);
	e[0x02] = 0x10;
	e[0x3D] = 0;
	e[0x3D] = (uint8_t)~tl_xor(e, ENTRY);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x9);
	/* input_length 4 and output_length 4: input first (0x7). */
	tl_mark(&tr);
	s.output_length = 4;
	build_entry(e, &s);
	post(0, e);
	ring(0x1);
	expect_completed(0, 0x7);
	/* both pointers misaligned: input first (0x5). */
	tl_mark(&tr);
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
	const struct nicref_event *v = tl_only(&tr, NICREF_EV_VIOLATION);
	cr_assert_eq(v->arg[0], (uint64_t)NICREF_VIO_DB_BIT_OUT_OF_RANGE);
	const struct nicref_event *d = tl_only(&tr, NICREF_EV_CMD_DONE);
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
	cr_assert_eq(tl_xor(got, ENTRY), 0xFF, "signature not generated");
	nicref_dev_destroy(dev);
	dev = NULL;
}
