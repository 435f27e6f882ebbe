/* The NIC vport's state (PRM §12.16.1-§12.16.2 T470-T475, D-VP-2, D-VP-3): power-on, the admin
 * state and the physical port under it, op_mod; the vport's life cycle and its invariants. The
 * context: vport_context_test.c; the counters: vport_counter_test.c. Shared tools:
 * vport_util.h. */
#include <stdint.h>
#include <string.h>

#include "vport_util.h"

TestSuite(vport, .init = setup, .fini = teardown);

/* ---- QUERY/MODIFY_VPORT_STATE --------------------------------------------------------------- */

Test(vport, state_at_power_on_is_up)
{
	unsigned admin, state;
	query_state(&admin, &state);
	cr_expect_eq(admin, 1, "D-VP-3: administratively up at power-on");
	cr_expect_eq(state, 1, "T473: the port (up at power-on, D-REG-20) carries the vport");
}

Test(vport, admin_state_down_and_up)
{
	unsigned admin, state;
	cr_assert_eq(modify_state(0), OK);
	query_state(&admin, &state);
	cr_expect_eq(admin, 0, "T475 0x0: down");
	cr_expect_eq(state, 0, "D-VP-2: a vport SW wants down is down");
	cr_assert_eq(modify_state(1), OK);
	query_state(&admin, &state);
	cr_expect_eq(admin, 1);
	cr_expect_eq(state, 1);
}

Test(vport, admin_state_values_beyond_up_refused)
{
	for (unsigned v = 2; v < 16; v++) {
		cr_assert_eq(modify_state(v), BAD_PARAM, "admin_state %u", v);
		tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_VPORT_ADMIN_STATE_INVALID);
	}
	unsigned admin, state;
	query_state(&admin, &state);
	cr_expect_eq(admin, 1, "a refused command changes nothing");
}

Test(vport, state_follows_the_physical_port)
{
	unsigned admin, state;
	port_set_peer(tdev->dev, 1, false, 0); /* the link partner goes away: port 1 down */
	query_state(&admin, &state);
	cr_expect_eq(admin, 1);
	cr_expect_eq(state, 0, "T473 state: the port is down");
	cr_expect(!vport_is_up(tdev->dev));
	port_set_peer(tdev->dev, 1, true, UINT32_MAX);
	query_state(&admin, &state);
	cr_expect_eq(state, 1);
	cr_expect(vport_is_up(tdev->dev));
}

Test(vport, op_mod_other_than_zero_refused)
{
	/* T471 "0: vnic_vport", T475 "0: nic_vport", T488 "others: reserved" (T100). */
	static const unsigned ops[] = { OP_QUERY_VPORT_STATE, OP_MODIFY_VPORT_STATE,
					OP_QUERY_NIC_VPORT_CONTEXT, OP_MODIFY_NIC_VPORT_CONTEXT,
					OP_QUERY_VPORT_COUNTER };
	for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		uint8_t in[0x200] = { 0 }, out[0x210] = { 0 };
		header(in, ops[k], 1);
		cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_OP, "opcode 0x%x", ops[k]);
		tl_expect_refused(tdev, BAD_OP, NICREF_RULE_BAD_OP_MOD);
	}
}

/* ---- Life cycle and invariants -------------------------------------------------------------- */

Test(vport, teardown_returns_the_vport_to_power_on)
{
	static const uint64_t uc[] = { 0x001122334455ull };
	cr_assert_eq(modify_list(0, 1, uc), OK);
	cr_assert_eq(modify_mtu(9000), OK);
	cr_assert_eq(modify_state(0), OK);
	vport_count(tdev->dev, VPORT_CNT_TX_UNICAST, 100);
	cr_assert_eq(refdrv_teardown(&tdev->d), 0, "%s", tdev->d.error);
	cr_expect_eq(nicref_dev_check(tdev->dev), 0);
	cr_assert_eq(refdrv_bring_up(&tdev->d, REFDRV_INITIALIZED), 0, "%s", tdev->d.error);
	unsigned admin, state;
	query_state(&admin, &state);
	cr_expect_eq(admin, 1);
	expect_list(0, 0, NULL);
	uint8_t out[0x210];
	cr_assert_eq(query_ctx(0, out, Q_OUT), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), 0);
	cr_assert_eq(query_counters(false, out), OK);
	cr_expect_eq(tl_get64(out, 0xA0), 0);
}

Test(vport, invariants_catch_a_broken_vport)
{
	cr_assert_eq(nicref_dev_check(tdev->dev), 0);
	tdev->dev->vport->admin_state = 2;
	cr_expect_eq(vport_dev_check(tdev->dev), -401);
	tdev->dev->vport->admin_state = 1;
	tdev->dev->vport->min_wqe_inline_mode = 4;
	cr_expect_eq(vport_dev_check(tdev->dev), -402);
	tdev->dev->vport->min_wqe_inline_mode = MIN_INLINE_L2;
	tdev->dev->vport->permanent_address = 1ull << 48;
	cr_expect_eq(vport_dev_check(tdev->dev), -403);
	tdev->dev->vport->permanent_address = PERMANENT_MAC;
	tdev->dev->vport->list_len[VPORT_LIST_UC] = MAX_UC + 1;
	cr_expect_eq(vport_dev_check(tdev->dev), -404);
	tdev->dev->vport->list_len[VPORT_LIST_UC] = 1;
	cr_expect_eq(vport_dev_check(tdev->dev), -405, "a length without elements");
	tdev->dev->vport->list_len[VPORT_LIST_UC] = 0;
	static const uint64_t vl[] = { 7 };
	cr_assert_eq(modify_list(2, 1, vl), OK);
	tdev->dev->vport->list[VPORT_LIST_VLAN][0] = 0x1000;
	cr_expect_eq(vport_dev_check(tdev->dev), -406);
	tdev->dev->vport->list[VPORT_LIST_VLAN][0] = 7;
	cr_expect_eq(nicref_dev_check(tdev->dev), 0);
	/* outside INIT_HCA..TEARDOWN_HCA the vport holds its power-on values */
	tdev->dev->hca.state = HCA_TORN_DOWN;
	cr_expect_eq(vport_dev_check(tdev->dev), -408);
	tdev->dev->hca.state = HCA_INITIALIZED;
	struct vport *saved = tdev->dev->vport;
	tdev->dev->vport = NULL;
	cr_expect_eq(vport_dev_check(tdev->dev), -400);
	cr_expect_eq(vport_min_wqe_inline_mode(tdev->dev), 0);
	tdev->dev->vport = saved;
}

/* D-VFIO-3's roce_en is part of the context TEARDOWN_HCA returns to power-on (0): -408 sees
 * it as it sees the other fields a MODIFY sets. */
Test(vport, invariant_408_covers_roce_en)
{
	cr_assert_eq(refdrv_teardown(&tdev->d), 0, "%s", tdev->d.error);
	cr_assert_eq(nicref_dev_check(tdev->dev), 0);
	tdev->dev->vport->roce_en = true;
	cr_expect_eq(vport_dev_check(tdev->dev), -408, "roce_en 1 outside INIT_HCA..TEARDOWN_HCA");
	tdev->dev->vport->roce_en = false;
	cr_expect_eq(vport_dev_check(tdev->dev), 0);
}
