/* PMTU (PRM §11.1.1 T106): the port MTU, its power-on values (D-REG-20), the admin MTU up to
 * the maximum and oper_mtu following it (D-REG-5). Shared tools: reg_util.h. */
#include <stdint.h>
#include <string.h>

#include "reg_util.h"

/* ---- PMTU (§11.1.1) -------------------------------------------------------------------------- */

TestSuite(reg_pmtu, .init = setup, .fini = teardown);

Test(reg_pmtu, power_on)
{
	struct tl_result r = pmtu_read(1);
	tl_expect_ok(&r);
	cr_assert_eq(tl_reg_get(&r, 0x00, 23, 16), 1);
	cr_assert_eq(tl_reg_get(&r, 0x04, 31, 16), MAX_MTU);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), DEFAULT_MTU);
	cr_assert_eq(tl_reg_get(&r, 0x0C, 31, 16), DEFAULT_MTU);
	for (unsigned off = 0; off < 0x10; off += 4)
		cr_assert_eq(tl_reg_get(&r, off, off ? 15 : 31, off ? 0 : 24), 0, "reserved bits");
}

Test(reg_pmtu, admin_up_to_max)
{
	static const uint32_t ok[] = { 9000, MAX_MTU, 68, 0 };
	for (size_t i = 0; i < TL_NELEM(ok); i++) {
		struct tl_result r = pmtu_write(1, ok[i]);
		tl_expect_ok(&r);
		r = pmtu_read(1);
		cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), ok[i]);
		cr_assert_eq(tl_reg_get(&r, 0x0C, 31, 16), ok[i], "D-REG-5: oper_mtu follows");
		cr_assert_eq(tl_reg_get(&r, 0x04, 31, 16), MAX_MTU);
	}
}

Test(reg_pmtu, admin_above_max_refused)
{
	struct tl_result r = pmtu_write(1, MAX_MTU + 1);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PMTU_ADMIN_ABOVE_MAX);
	r = pmtu_write(1, 0xFFFF);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PMTU_ADMIN_ABOVE_MAX);
	r = pmtu_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), DEFAULT_MTU);
	cr_assert_eq(tl_reg_get(&r, 0x0C, 31, 16), DEFAULT_MTU);
}

Test(reg_pmtu, read_only_fields_ignored_on_write)
{
	struct tl_reg c = reg_cmd(WRITE, PMTU, 0x10, 1);
	tl_reg_set(&c, 0x04, 31, 16, 100);   /* max_mtu */
	tl_reg_set(&c, 0x08, 31, 16, 4000);  /* admin_mtu */
	tl_reg_set(&c, 0x0C, 31, 16, 12345); /* oper_mtu */
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_ok(&r);
	r = pmtu_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x04, 31, 16), MAX_MTU);
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 16), 4000);
	cr_assert_eq(tl_reg_get(&r, 0x0C, 31, 16), 4000);
}
