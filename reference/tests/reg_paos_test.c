/* PAOS (PRM §11.1.3 T110) and the link model: admin and oper status, port events, the link
 * partner, "up once", teardown and reset (D-REG-15). Shared tools: reg_util.h. */
#include <stdint.h>
#include <string.h>

#include "reg_util.h"

/* ---- PAOS (§11.1.3) and the link model ------------------------------------------------------- */

TestSuite(reg_paos, .init = setup, .fini = teardown);

Test(reg_paos, power_on_up)
{
	expect_paos(1, 1, 1);
}

Test(reg_paos, down_and_up_raise_port_events)
{
	struct tl_result r = paos_write(1, 1, 2);
	tl_expect_ok(&r);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 2, 2);
	r = paos_write(1, 1, 1);
	tl_expect_ok(&r);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 1, 1);
	/* The same state again: no change, no event. */
	r = paos_write(1, 1, 1);
	tl_expect_ok(&r);
	expect_port_events(0, NULL);
}

Test(reg_paos, without_ase_nothing_changes)
{
	static const unsigned admin[] = { 2, 4, 0, 15 };
	for (size_t i = 0; i < TL_NELEM(admin); i++) {
		struct tl_result r = paos_write(1, 0, admin[i]);
		tl_expect_ok(&r);
	}
	expect_port_events(0, NULL);
	expect_paos(1, 1, 1);
}

Test(reg_paos, admin_values)
{
	struct tl_result r = paos_write(1, 1, 4);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PAOS_ADMIN_BY_HW);
	static const unsigned bad[] = { 0, 5, 6, 8, 15 };
	for (size_t i = 0; i < TL_NELEM(bad); i++) {
		r = paos_write(1, 1, bad[i]);
		tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PAOS_ADMIN_INVALID);
	}
	expect_port_events(0, NULL);
	expect_paos(1, 1, 1);
}

Test(reg_paos, oper_status_is_read_only)
{
	struct tl_reg c = reg_cmd(WRITE, PAOS, 0x10, 1);
	tl_reg_set(&c, 0x00, 3, 0, 2);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_ok(&r);
	expect_paos(1, 1, 1);
}

Test(reg_paos, link_partner_loss_with_admin_up)
{
	port_set_peer(dev, 1, false, UINT32_MAX);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 1, 2);
	port_set_peer(dev, 1, true, UINT32_MAX);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 1, 1);
}

Test(reg_paos, up_once_stays_down_until_written)
{
	struct tl_result r = paos_write(1, 1, 3);
	tl_expect_ok(&r);
	expect_port_events(0, NULL);
	expect_paos(1, 3, 1);
	/* T110: "if the port goes up and then down, the operational status should go to 'down
	 * by port failure' and can only go back up upon explicit command". */
	port_set_peer(dev, 1, false, UINT32_MAX);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 3, 4);
	port_set_peer(dev, 1, true, UINT32_MAX);
	expect_port_events(0, NULL);
	expect_paos(1, 3, 4);
	r = paos_write(1, 1, 3);
	tl_expect_ok(&r);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 3, 1);
}

/* T110 admin 3: "if the port goes up and then down, the operational status should go to 'down by
 * port failure' and can only go back up upon explicit command". The partner stops running the
 * protocol the link trained at: the link goes down and latches the failure (it does not train
 * again with the partner's other protocols, as an admin-up port would), and a PTYS write, which
 * is no PAOS command, does not bring it back (review revreg finding 1's knock-on). A PTYS
 * write while the up-once link is up does not take it down either. */
Test(reg_paos, up_once_latches_a_drop_by_partner_change)
{
	struct tl_result r = paos_write(1, 1, 3);
	tl_expect_ok(&r);
	r = ptys_write(1, P_10GBASE_CR);
	tl_expect_ok(&r);
	expect_port_events(0, NULL);
	expect_paos(1, 3, 1);
	r = ptys_write(1, ALL_PROTOS);
	tl_expect_ok(&r);
	port_set_peer(dev, 1, true, P_10GBASE_CR);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 3, 4);
	r = ptys_write(1, P_10GBASE_CR | P_40GBASE_CR4);
	tl_expect_ok(&r);
	expect_port_events(0, NULL);
	expect_paos(1, 3, 4);
	r = paos_write(1, 1, 3);
	tl_expect_ok(&r);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 3, 1);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_10GBASE_CR);
}

Test(reg_paos, up_once_failure_then_admin_down_is_no_event)
{
	struct tl_result r = paos_write(1, 1, 3);
	tl_expect_ok(&r);
	port_set_peer(dev, 1, false, UINT32_MAX);
	tl_mark(&tr);
	r = paos_write(1, 1, 2);
	tl_expect_ok(&r);
	expect_port_events(0, NULL); /* D-REG-15: 4 -> 2 is down to down */
	expect_paos(1, 2, 2);
}

Test(reg_paos, up_once_never_up_is_not_a_failure)
{
	port_set_peer(dev, 1, false, UINT32_MAX);
	tl_mark(&tr);
	struct tl_result r = paos_write(1, 1, 3);
	tl_expect_ok(&r);
	expect_paos(1, 3, 2);
	port_set_peer(dev, 1, true, UINT32_MAX);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 3, 1);
}

Test(reg_paos, second_port_events_name_it)
{
	nicref_dev_destroy(dev);
	make_dev(2, 1, true);
	struct tl_result r = paos_write(2, 1, 2);
	tl_expect_ok(&r);
	const uint32_t down[] = { 2u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(2, 2, 2);
	expect_paos(1, 1, 1);
}

Test(reg_paos, teardown_panic_takes_every_port_down)
{
	nicref_dev_destroy(dev);
	make_dev(2, 1, true);
	struct tl_result r = paos_write(2, 1, 2); /* port 2 already down: no second event */
	tl_expect_ok(&r);
	to_initialized();
	tl_queue_simple(dev, OP_TEARDOWN_HCA, 0, 1);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	cr_assert_eq(dev->port[0].admin_status, 4, "D-REG-15: disabled by system");
	cr_assert_eq(dev->port[0].oper_status, 2);
	cr_assert_eq(dev->port[1].oper_status, 2);
	cr_assert_eq(dev->port[0].eth_proto_oper, 0);
}

Test(reg_paos, reset_restores_power_on_without_events)
{
	struct tl_result r = paos_write(1, 1, 2);
	tl_expect_ok(&r);
	tl_mark(&tr);
	nicref_dev_reset(dev);
	cr_assert_eq(tl_count(&tr, NICREF_EV_PORT_EVENT), 0);
	cr_assert_eq(dev->port[0].admin_status, 1);
	cr_assert_eq(dev->port[0].oper_status, 1);
	cr_assert_eq(dev->port[0].admin_mtu, DEFAULT_MTU);
}
