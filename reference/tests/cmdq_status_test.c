/* The return statuses (PRM §12.2 T128) of commands the queue delivered: unknown and unmodelled
 * opcodes, op_mod, and the input and output lengths (T494/T496, D-CMD-7, D-CMD-10), each with
 * its syndrome and the cmd_fail event naming the rule. Entries are built byte by byte from the
 * PRM (cmdq_util.h). */
#include <stdint.h>
#include <string.h>

#include "cmdq_util.h"

TestSuite(cmdq_status, .init = setup, .fini = teardown);

/* ---- Return statuses (T128) of executed commands --------------------------------------------- */

Test(cmdq_status, unknown_opcode)
{
	run_nop_like(0x999, 0, 16, 16);
	expect_refused(0x02, NICREF_RULE_UNKNOWN_OPCODE, 0x999);
	cr_assert_eq(tl_count(&tr, NICREF_EV_UNMODELLED), 0);
}

Test(cmdq_status, flow_table_opcode_is_modelled)
{
	/* CREATE_FLOW_TABLE (T127 0x930) answered since §12.14 is modelled: its 40h-byte input
	 * (T383) is longer than the 10h given, and no unmodelled event. */
	run_nop_like(0x930, 0, 16, 16);
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_SHORT, 0x930);
	cr_assert_eq(tl_count(&tr, NICREF_EV_UNMODELLED), 0);
}

Test(cmdq_status, nop_bad_op_mod)
{
	run_nop_like(OP_NOP, 1, 16, 16); /* T100: no op_mod described, so it must be 0 */
	expect_refused(0x02, NICREF_RULE_BAD_OP_MOD, OP_NOP);
}

Test(cmdq_status, nop_input_too_short)
{
	run_nop_like(OP_NOP, 0, 8, 16); /* T494: the NOP input is 10h bytes */
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_SHORT, OP_NOP);
}

Test(cmdq_status, nop_output_too_short)
{
	run_nop_like(OP_NOP, 0, 16, 8); /* T496: the NOP output is 10h bytes */
	uint8_t e[ENTRY];
	read_entry(0, e);
	cr_assert_eq(e[0x20], 0x51, "status 0x%02x", e[0x20]);
	cr_assert_eq(tl_get32(e + 0x24), nicref_cmd_rule_syndrome(NICREF_RULE_OUTPUT_TOO_SHORT));
	const struct nicref_event *f = tl_only(&tr, NICREF_EV_CMD_FAIL);
	cr_assert_eq(f->arg[2], (uint64_t)NICREF_RULE_OUTPUT_TOO_SHORT);
}

/* D-CMD-7: length checks come before the opcode and op_mod checks. */
Test(cmdq_status, length_before_op_mod)
{
	run_nop_like(OP_NOP, 1, 8, 16);
	expect_refused(0x50, NICREF_RULE_INPUT_TOO_SHORT, OP_NOP);
}

/* D-CMD-10: a chain longer than profile.max_mailbox_blocks (512) is refused with
 * BAD_INPUT_LEN / BAD_OUTPUT_LEN and never walked (nothing is at the pointer). */
Test(cmdq_status, input_too_long)
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
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0, "the chain was walked");
}

Test(cmdq_status, output_too_long)
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
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0, "the chain was walked");
}

/* ---- A "should" of the entry (D-CMD-19) ------------------------------------------------------- */

/* T96 3Ch[7:1]: "SW should set this field to 0". An entry posted with status 3 still runs (the
 * device writes its own delivery status over it), and the mistake is a warning, not a
 * violation of a "must": an unexpected one is a note of a vector, not a failure. */
Test(cmdq_status, entry_status_not_zero_is_a_warning)
{
	uint8_t e[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	e[0x3F] |= 3u << 1;
	e[0x3D] = 0;
	e[0x3D] = (uint8_t)~tl_xor(e, ENTRY);
	post(0, e);
	ring(1);
	expect_completed(0, 0);
	expect_status(0, 0);
	const struct nicref_event *v = tl_only(&tr, NICREF_EV_VIOLATION);
	cr_assert_eq(v->arg[0], (uint64_t)NICREF_VIO_ENTRY_STATUS_NOT_ZERO);
	cr_expect_eq(v->arg[1], 3);
	cr_expect_eq(nicref_violation_is_warning(NICREF_VIO_ENTRY_STATUS_NOT_ZERO), 1);
	/* The rules of a "must" around it stay violations. */
	cr_expect_eq(nicref_violation_is_warning(NICREF_VIO_ENTRY_RESERVED), 0);
	cr_expect_eq(nicref_violation_is_warning(NICREF_VIO_DB_SLOT_BUSY), 0);
}
