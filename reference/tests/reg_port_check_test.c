/* The port invariants (nicref/invariants.h NICREF_INVARIANTS_PORT, reg/port_check.c): each is
 * broken by hand through the private port state (no command can break one: that would be a
 * model bug) and nicref_dev_check must name it, with the port in the explanation. Also: the
 * states the register commands and the partner hook reach keep every invariant. Shared tools:
 * reg_util.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "reg_util.h"

TestSuite(reg_port_check, .init = setup, .fini = teardown);

/* Port `n` of the device, to break by hand. */
static struct port *port(unsigned n)
{
	return &dev->port[n - 1];
}

static void ok(struct tl_result r)
{
	tl_expect_ok(&r);
}

/* The device holds every invariant but `code`, which nicref_dev_check returns and the
 * explanation names with its port. */
static void expect_broken(int code, const char *port_name)
{
	char buf[256] = "";
	cr_expect_eq(nicref_dev_check(dev), code, "check %d, expected %d (%s)",
		     nicref_dev_check(dev), code, nicref_invariant_name(code));
	cr_expect_eq(nicref_dev_check_explain(dev, buf, sizeof buf), code);
	cr_expect(strstr(buf, port_name) != NULL, "explanation \"%s\" names no \"%s\"", buf,
		  port_name);
}

Test(reg_port_check, power_on_and_commands_keep_the_invariants)
{
	cr_assert_eq(nicref_dev_check(dev), 0);
	ok(paos_write(1, 1, 3));
	port_set_peer(dev, 1, true, P_10GBASE_CR);
	cr_assert_eq(nicref_dev_check(dev), 0, "up-once failure latched");
	ok(ptys_write(1, P_10GBASE_CR | P_40GBASE_CR4));
	ok(pmtu_write(1, MAX_MTU));
	cr_assert_eq(nicref_dev_check(dev), 0);
	ok(paos_write(1, 1, 1));
	port_set_peer(dev, 1, false, 0);
	cr_assert_eq(nicref_dev_check(dev), 0, "partner gone");
}

Test(reg_port_check, admin_status)
{
	port(1)->admin_status = 0;
	expect_broken(NICREF_INV_PORT_ADMIN_STATUS, "port 1");
	port(1)->admin_status = 5;
	expect_broken(NICREF_INV_PORT_ADMIN_STATUS, "port 1");
}

Test(reg_port_check, oper_status)
{
	port(1)->oper_status = 3;
	expect_broken(NICREF_INV_PORT_OPER_STATUS, "port 1");
}

Test(reg_port_check, up_once_latch)
{
	/* A latch under admin 1 (with the oper_status it would show). */
	port_set_peer(dev, 1, false, 0);
	port(1)->up_once_failed = true;
	port(1)->oper_status = PORT_OPER_FAILED;
	expect_broken(NICREF_INV_PORT_UP_ONCE_LATCH, "port 1");
	/* Under admin 3, oper_status 4 without the latch. */
	port(1)->admin_status = PORT_ADMIN_UP_ONCE;
	port(1)->up_once_failed = false;
	expect_broken(NICREF_INV_PORT_UP_ONCE_LATCH, "port 1");
}

Test(reg_port_check, link_state)
{
	/* Up with the partner gone. */
	port(1)->peer_present = false;
	expect_broken(NICREF_INV_PORT_LINK_STATE, "port 1");
	/* Up at a protocol the partner does not run. */
	port(1)->peer_present = true;
	port(1)->peer_proto = P_10GBASE_CR;
	expect_broken(NICREF_INV_PORT_LINK_STATE, "port 1");
	/* Down (oper 2) though it could train. */
	port(1)->peer_proto = UINT32_MAX;
	port(1)->oper_status = PORT_OPER_DOWN;
	port(1)->eth_proto_oper = 0;
	expect_broken(NICREF_INV_PORT_LINK_STATE, "port 1");
}

Test(reg_port_check, oper_protocol)
{
	/* Up at two protocols at once. */
	port(1)->eth_proto_oper = P_100GBASE_KR4 | P_10GBASE_CR;
	expect_broken(NICREF_INV_PORT_OPER_PROTOCOL, "port 1");
	/* Down with a protocol left. */
	ok(paos_write(1, 1, 2));
	port(1)->eth_proto_oper = P_10GBASE_CR;
	expect_broken(NICREF_INV_PORT_OPER_PROTOCOL, "port 1");
}

Test(reg_port_check, protocol_sets)
{
	port(1)->eth_proto_admin = 0;
	expect_broken(NICREF_INV_PORT_PROTOCOL_SETS, "port 1");
	port(1)->eth_proto_admin = ALL_PROTOS | 1u << 5; /* bit 5: no T108 protocol */
	expect_broken(NICREF_INV_PORT_PROTOCOL_SETS, "port 1");
	port(1)->eth_proto_admin = ALL_PROTOS;
	port(1)->eth_proto_capability = ALL_PROTOS | 1u << 5;
	expect_broken(NICREF_INV_PORT_PROTOCOL_SETS, "port 1");
}

Test(reg_port_check, mtu)
{
	port(1)->admin_mtu = port(1)->oper_mtu = MAX_MTU + 1;
	expect_broken(NICREF_INV_PORT_MTU, "port 1");
	port(1)->admin_mtu = 4000;
	port(1)->oper_mtu = 1500;
	expect_broken(NICREF_INV_PORT_MTU, "port 1");
}

Test(reg_port_check, flow_control)
{
	port(1)->pprx = true;
	port(1)->pfctx = 0x01;
	expect_broken(NICREF_INV_PORT_FLOW_CONTROL, "port 1");
}

Test(reg_port_check, watermarks)
{
	port(1)->stall_critical_wm = 0x4F;
	expect_broken(NICREF_INV_PORT_WATERMARKS, "port 1");
	port(1)->stall_critical_wm = 0;
	port(1)->stall_minor_wm = 0x1F41;
	expect_broken(NICREF_INV_PORT_WATERMARKS, "port 1");
}

/* Every port is checked, not only the first. */
Test(reg_port_check, second_port)
{
	nicref_dev_destroy(dev);
	make_dev(2, 1, true);
	port(2)->oper_status = 0;
	expect_broken(NICREF_INV_PORT_OPER_STATUS, "port 2");
}
