/* ACCESS_REGISTER's framing (PRM §12.4.1 T221-T224, D-REG-10, D-REG-11): when the command is
 * allowed, unknown registers, op_mod, argument, local_port, the lengths of the input and the
 * output, and reserved bits in written data. Shared tools: reg_util.h. */
#include <stdint.h>
#include <string.h>

#include "reg_util.h"

/* ---- ACCESS_REGISTER framing (§12.4.1) ------------------------------------------------------- */

TestSuite(reg_access, .init = setup, .fini = teardown);

Test(reg_access, before_enable_hca_is_bad_sys_state)
{
	nicref_dev_destroy(dev);
	make_dev(1, 1, false);
	struct tl_result r = pmtu_read(1);
	tl_expect_rule(&r, BAD_SYS_STATE, NICREF_RULE_HCA_NOT_ENABLED);
}

Test(reg_access, unknown_register_is_bad_param)
{
	/* T104 ids are 5003h, 5004h, 5006h-5008h: 5005h and 0 are not registers. */
	static const unsigned ids[] = { 0x0000, 0x5002, 0x5005, 0x5009, 0xFFFF };
	for (size_t i = 0; i < TL_NELEM(ids); i++) {
		for (unsigned op = 0; op < 2; op++) {
			struct tl_reg c = reg_cmd(op, ids[i], 0x10, 1);
			struct tl_result r = tl_reg_run(dev, &c);
			tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_UNKNOWN);
		}
	}
}

Test(reg_access, op_mod_beyond_read_is_bad_op)
{
	struct tl_reg c = reg_cmd(2, PMTU, 0x10, 1);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_rule(&r, BAD_OP, NICREF_RULE_BAD_OP_MOD);
}

Test(reg_access, argument_must_be_zero)
{
	struct tl_reg c = reg_cmd(READ, PMTU, 0x10, 1);
	tl_put32(c.in + 0x0C, 1);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_ARGUMENT_NOT_ZERO);
	c = reg_cmd(WRITE, PAOS, 0x10, 1);
	tl_put32(c.in + 0x0C, 0x80000000u);
	tl_reg_set(&c, 0x00, 11, 8, 2);
	tl_reg_set(&c, 0x04, 31, 31, 1);
	r = tl_reg_run(dev, &c);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_ARGUMENT_NOT_ZERO);
	cr_assert_eq(tl_count(&tr, NICREF_EV_PORT_EVENT), 0, "a refused write changed the port");
	expect_paos(1, 1, 1);
}

Test(reg_access, local_port_is_1_to_num_ports)
{
	static const struct {
		unsigned id, size;
	} regs[] = { { PMTU, 0x10 }, { PTYS, 0x40 }, { PAOS, 0x10 }, { PFCC, 0x20 },
		     { PPCNT, 0x100 } };
	for (size_t i = 0; i < TL_NELEM(regs); i++) {
		static const unsigned bad[] = { 0, 2, 255 };
		for (size_t k = 0; k < TL_NELEM(bad); k++) {
			struct tl_reg c = reg_cmd(READ, regs[i].id, regs[i].size, bad[k]);
			tl_reg_set(&c, 0x00, 2, 0, regs[i].id == PTYS ? 4 : 0);
			struct tl_result r = tl_reg_run(dev, &c);
			tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_LOCAL_PORT);
		}
		struct tl_reg c = reg_cmd(READ, regs[i].id, regs[i].size, 1);
		tl_reg_set(&c, 0x00, 2, 0, regs[i].id == PTYS ? 4 : 0);
		struct tl_result r = tl_reg_run(dev, &c);
		tl_expect_ok(&r);
		cr_assert_eq(tl_reg_get(&r, 0x00, 23, 16), 1, "register 0x%x: local_port not echoed",
			     regs[i].id);
	}
}

Test(reg_access, second_port_with_two_ports)
{
	nicref_dev_destroy(dev);
	make_dev(2, 1, true);
	struct tl_result r = pmtu_write(2, 4000);
	tl_expect_ok(&r);
	r = pmtu_read(2);
	tl_expect_ok(&r);
	cr_assert_eq(tl_reg_get(&r, 0x00, 23, 16), 2);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), 4000);
	r = pmtu_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), DEFAULT_MTU, "port 1 changed with port 2");
	r = pmtu_read(3);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_LOCAL_PORT);
}

Test(reg_access, input_must_hold_the_register)
{
	/* D-REG-10: the whole register on READ and WRITE. */
	struct tl_reg c = reg_cmd(READ, PPCNT, 0x100, 1);
	struct tl_result r = tl_queue_cmd(dev, c.in, 0x10 + 0xFF, 0x110);
	tl_expect_rule(&r, BAD_INPUT_LEN, NICREF_RULE_REG_INPUT_TOO_SHORT);
	r = tl_queue_cmd(dev, c.in, 0x10, 0x110); /* only the ACCESS_REGISTER header */
	tl_expect_rule(&r, BAD_INPUT_LEN, NICREF_RULE_REG_INPUT_TOO_SHORT);
	c = reg_cmd(WRITE, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x08, 31, 16, 2000);
	r = tl_queue_cmd(dev, c.in, 0x1C, 0x20);
	tl_expect_rule(&r, BAD_INPUT_LEN, NICREF_RULE_REG_INPUT_TOO_SHORT);
	r = pmtu_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), DEFAULT_MTU, "a refused write changed admin_mtu");
	/* Longer is fine; the extra bytes are not looked at. */
	c = reg_cmd(READ, PMTU, 0x10, 1);
	memset(c.in + 0x20, 0xFF, 0x20);
	r = tl_queue_cmd(dev, c.in, 0x40, 0x20);
	tl_expect_ok(&r);
}

Test(reg_access, read_output_must_hold_the_register)
{
	struct tl_reg c = reg_cmd(READ, PTYS, 0x40, 1);
	tl_reg_set(&c, 0x00, 2, 0, 4);
	struct tl_result r = tl_queue_cmd(dev, c.in, 0x50, 0x4F);
	tl_expect_rule(&r, BAD_OUTPUT_LEN, NICREF_RULE_REG_OUTPUT_TOO_SHORT);
	r = tl_queue_cmd(dev, c.in, 0x50, 0x10);
	tl_expect_rule(&r, BAD_OUTPUT_LEN, NICREF_RULE_REG_OUTPUT_TOO_SHORT);
	/* A WRITE's output register data is reserved (T224): the header is enough. */
	c = reg_cmd(WRITE, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x08, 31, 16, 2000);
	r = tl_queue_cmd(dev, c.in, 0x20, 0x10);
	tl_expect_ok(&r);
	r = pmtu_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), 2000);
}

Test(reg_access, write_output_register_data_is_zero)
{
	struct tl_reg c = reg_cmd(WRITE, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x08, 31, 16, 2000);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_ok(&r);
	for (unsigned i = 0x08; i < 0x20; i++)
		cr_assert_eq(r.out[i], 0, "output byte 0x%x of a WRITE", i);
}

Test(reg_access, reserved_bit_in_write_data)
{
	/* PMTU 00h[31:24] is reserved (T106 covers only 23:16 there). */
	struct tl_reg c = reg_cmd(WRITE, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x00, 31, 31, 1);
	tl_reg_set(&c, 0x08, 31, 16, 2000);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 1);
	for (size_t i = 0; i < tr.n; i++)
		if (tr.ev[i].kind == NICREF_EV_VIOLATION) {
			cr_assert_eq(tr.ev[i].arg[0], NICREF_VIO_CMD_RESERVED_NOT_ZERO);
			cr_assert_eq(tr.ev[i].arg[1], (uint64_t)0x10 << 32 | 0x80000000u,
				     "arg 0x%llx", (unsigned long long)tr.ev[i].arg[1]);
		}
	r = pmtu_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), DEFAULT_MTU, "refused write changed admin_mtu");
	/* PMTU admin_mtu 08h[15:0] is reserved too. */
	c = reg_cmd(WRITE, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x08, 31, 16, 2000);
	tl_reg_set(&c, 0x08, 0, 0, 1);
	r = tl_reg_run(dev, &c);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
}

Test(reg_access, reserved_bit_permissive_profile_runs_the_write)
{
	nicref_dev_destroy(dev);
	make_dev(1, 0, true);
	struct tl_reg c = reg_cmd(WRITE, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x0C, 0, 0, 1);
	tl_reg_set(&c, 0x08, 31, 16, 2000);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_ok(&r);
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 1);
	r = pmtu_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), 2000);
}

Test(reg_access, read_input_beyond_the_index_is_not_checked)
{
	/* D-REG-11: T222 "For read - reserved"; only the index fields are used. */
	struct tl_reg c = reg_cmd(READ, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x00, 31, 24, 0xFF);
	tl_reg_set(&c, 0x08, 31, 16, 100); /* admin_mtu in a READ: ignored */
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_ok(&r);
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), DEFAULT_MTU);
}

Test(reg_access, allowed_when_initialized_and_not_after_teardown)
{
	to_initialized();
	struct tl_result r = pmtu_read(1);
	tl_expect_ok(&r);
	tl_queue_simple(dev, OP_TEARDOWN_HCA, 0, 0); /* graceful: ports untouched */
	cr_assert_eq(tl_count(&tr, NICREF_EV_PORT_EVENT), 0);
	r = pmtu_read(1);
	tl_expect_rule(&r, BAD_SYS_STATE, NICREF_RULE_HCA_TORN_DOWN);
}
