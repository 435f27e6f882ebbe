/* PTYS (PRM §11.1.2 T108): the Ethernet protocols (capability, admin, oper) and a new admin
 * taking effect when the link trains (D-REG-6). Shared tools: reg_util.h. */
#include <stdint.h>
#include <string.h>

#include "reg_util.h"

/* ---- PTYS (§11.1.2) -------------------------------------------------------------------------- */

TestSuite(reg_ptys, .init = setup, .fini = teardown);

Test(reg_ptys, power_on)
{
	struct tl_result r = ptys_read(1);
	tl_expect_ok(&r);
	cr_assert_eq(tl_reg_get(&r, 0x00, 23, 16), 1);
	cr_assert_eq(tl_reg_get(&r, 0x00, 2, 0), 4);
	cr_assert_eq(tl_reg_get(&r, 0x0C, 31, 0), ALL_PROTOS);
	cr_assert_eq(tl_reg_get(&r, 0x18, 31, 0), ALL_PROTOS);
	/* D-REG-6: the fastest (100G), highest bit among them (22, 100GBase KR4). */
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_100GBASE_KR4);
}

Test(reg_ptys, proto_mask_must_be_ethernet)
{
	static const unsigned bad[] = { 0, 1, 2, 3, 5, 6, 7 };
	for (size_t i = 0; i < TL_NELEM(bad); i++) {
		for (unsigned op = 0; op < 2; op++) {
			struct tl_reg c = reg_cmd(op, PTYS, 0x40, 1);
			tl_reg_set(&c, 0x00, 2, 0, bad[i]);
			tl_reg_set(&c, 0x18, 31, 0, P_10GBASE_CR);
			struct tl_result r = tl_reg_run(dev, &c);
			tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PTYS_PROTO_MASK);
		}
	}
	struct tl_result r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x18, 31, 0), ALL_PROTOS, "refused write changed admin");
}

Test(reg_ptys, admin_within_capability)
{
	/* Bits 5, 8-11, 17, 19, 23-26 name no protocol in T108. */
	static const uint32_t bad[] = { 1u << 5, 1u << 8, 1u << 11, 1u << 17, 1u << 19,
					1u << 23, 1u << 26, P_10GBASE_CR | 1u << 5 };
	for (size_t i = 0; i < TL_NELEM(bad); i++) {
		struct tl_result r = ptys_write(1, bad[i]);
		tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PTYS_ADMIN_NOT_CAPABLE);
	}
	struct tl_result r = ptys_write(1, 0);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PTYS_ADMIN_EMPTY);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x18, 31, 0), ALL_PROTOS);
}

Test(reg_ptys, admin_takes_effect_at_training)
{
	struct tl_result r = ptys_write(1, P_10GBASE_CR | P_40GBASE_CR4);
	tl_expect_ok(&r);
	cr_assert_eq(tl_count(&tr, NICREF_EV_PORT_EVENT), 0, "an up link does not retrain");
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x18, 31, 0), P_10GBASE_CR | P_40GBASE_CR4);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_100GBASE_KR4, "oper changed while up");
	/* "Software can force training by disabling and enabling the port." */
	r = paos_write(1, 1, 2);
	tl_expect_ok(&r);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), 0, "D-REG-6: no protocol while down");
	r = paos_write(1, 1, 1);
	tl_expect_ok(&r);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_40GBASE_CR4);
	const uint32_t want[] = { 1u << 8 | 1, 1u << 8 | 4 };
	expect_port_events(2, want);
}

Test(reg_ptys, read_only_fields_ignored_on_write)
{
	struct tl_reg c = reg_cmd(WRITE, PTYS, 0x40, 1);
	tl_reg_set(&c, 0x00, 2, 0, 4);
	tl_reg_set(&c, 0x0C, 31, 0, 0x1);
	tl_reg_set(&c, 0x18, 31, 0, P_25GBASE_SR);
	tl_reg_set(&c, 0x24, 31, 0, 0x2);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_ok(&r);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x0C, 31, 0), ALL_PROTOS);
	cr_assert_eq(tl_reg_get(&r, 0x18, 31, 0), P_25GBASE_SR);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_100GBASE_KR4);
}

Test(reg_ptys, down_link_trains_with_new_admin)
{
	/* The partner only does 25GBase-SR; our admin lacks it, so the link cannot train. */
	struct tl_result r = ptys_write(1, P_10GBASE_CR);
	tl_expect_ok(&r);
	port_set_peer(dev, 1, true, P_25GBASE_SR);
	expect_paos(1, 1, 2);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), 0);
	tl_mark(&tr);
	r = ptys_write(1, P_10GBASE_CR | P_25GBASE_SR);
	tl_expect_ok(&r);
	const uint32_t want[] = { 1u << 8 | 4 };
	expect_port_events(1, want);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_25GBASE_SR);
}

Test(reg_ptys, best_protocol)
{
	cr_assert_eq(port_proto_all(), ALL_PROTOS);
	cr_assert_eq(port_proto_best(0), 0);
	cr_assert_eq(port_proto_best(1u << 5), 0, "bit 5 is not a protocol");
	cr_assert_eq(port_proto_best(1u << 0 | 1u << 1), 1u << 1, "1G tie: highest bit");
	cr_assert_eq(port_proto_best(P_10GBASE_CR | P_25GBASE_SR), P_25GBASE_SR);
	cr_assert_eq(port_proto_best(1u << 31 | 1u << 20), 1u << 20, "100G beats 50G");
	cr_assert_eq(port_proto_best(1u << 18 | 1u << 30 | 1u << 31), 1u << 31);
	cr_assert_eq(port_proto_best(1u << 16 | 1u << 7), 1u << 16);
}

/* PRM §11.1.2 note before T107: the admin fields "shall only take effect during link training
 * and negotiation. When set while the link is up, the changes will not take effect unless the
 * port goes back to training". A partner that runs only 100GBase KR4; the link is up at it;
 * admin := 10GBase CR, which the partner lacks: the link stays up at KR4, no event (review
 * revreg finding 1: the model took the link down). It goes down only when software forces
 * training, and then cannot train. */
Test(reg_ptys, admin_write_while_up_keeps_link_without_common_protocol)
{
	port_set_peer(dev, 1, true, P_100GBASE_KR4);
	expect_port_events(0, NULL);
	struct tl_result r = ptys_write(1, P_10GBASE_CR);
	tl_expect_ok(&r);
	expect_port_events(0, NULL);
	expect_paos(1, 1, 1);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x18, 31, 0), P_10GBASE_CR);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_100GBASE_KR4, "the up link keeps KR4");
	/* The partner announces the same abilities again: nothing to retrain. */
	port_set_peer(dev, 1, true, P_100GBASE_KR4);
	expect_port_events(0, NULL);
	expect_paos(1, 1, 1);
	/* "Software can force training by disabling and enabling the port": now the new admin
	 * applies, and there is no common protocol. */
	r = paos_write(1, 1, 2);
	tl_expect_ok(&r);
	r = paos_write(1, 1, 1);
	tl_expect_ok(&r);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 1, 2);
	r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), 0);
}

/* An up link whose partner stops running the trained protocol cannot stay at it: it goes down
 * and, admin up (1), trains again at once with admin ∧ the partner's new set. A partner change
 * that keeps the trained protocol changes nothing. (The model kept the link at a protocol the
 * partner no longer had.) */
Test(reg_ptys, partner_losing_trained_protocol_retrains)
{
	port_set_peer(dev, 1, true, P_100GBASE_KR4 | P_10GBASE_CR);
	expect_port_events(0, NULL);
	port_set_peer(dev, 1, true, P_10GBASE_CR | P_25GBASE_SR);
	const uint32_t retrain[] = { 1u << 8 | 1, 1u << 8 | 4 };
	expect_port_events(2, retrain);
	expect_paos(1, 1, 1);
	struct tl_result r = ptys_read(1);
	cr_assert_eq(tl_reg_get(&r, 0x24, 31, 0), P_25GBASE_SR, "fastest of admin ∧ partner");
}
