/* The port model's invariants (nicref/invariants.h NICREF_INVARIANTS_PORT): what every command
 * and every partner change leaves true of each port. A broken one is a model bug; the unit tests
 * (reference/tests/reg_port_check_test.c) break each by hand. Decisions: docs/registers.md. */
#include "cmd/ctl_dev.h"

/* The first broken invariant of port `n` (1-based), 0 if none. */
static int port_broken(const struct port *p, unsigned n, char *buf, size_t len)
{
	/* T110 admin_status 1-4 (4 only by the hardware), oper_status 1, 2 or 4. */
	if (p->admin_status < PORT_ADMIN_UP || p->admin_status > PORT_ADMIN_DISABLED)
		return dev_broken(buf, len, NICREF_INV_PORT_ADMIN_STATUS,
				  "port %u admin_status %u", n, p->admin_status);
	if (p->oper_status != PORT_OPER_UP && p->oper_status != PORT_OPER_DOWN &&
	    p->oper_status != PORT_OPER_FAILED)
		return dev_broken(buf, len, NICREF_INV_PORT_OPER_STATUS, "port %u oper_status %u",
				  n, p->oper_status);
	/* T110 admin 3: "down by port failure" (4) after an up-once link went down, and only
	 * then; any PAOS write with ase clears the latch. */
	if ((p->up_once_failed && p->admin_status != PORT_ADMIN_UP_ONCE) ||
	    p->up_once_failed != (p->oper_status == PORT_OPER_FAILED))
		return dev_broken(buf, len, NICREF_INV_PORT_UP_ONCE_LATCH,
				  "port %u admin_status %u oper_status %u, up-once failure %s", n,
				  p->admin_status, p->oper_status,
				  p->up_once_failed ? "latched" : "not latched");
	/* The link is evaluated at every change (port_update_link): an up link holds, a down one
	 * could not train (the model trains at once). */
	bool up = p->oper_status == PORT_OPER_UP;
	if (up ? !port_link_holds(p) : port_link_trains(p))
		return dev_broken(buf, len, NICREF_INV_PORT_LINK_STATE,
				  "port %u %s: admin_status %u, partner %s (0x%08x), eth_proto_admin "
				  "0x%08x, eth_proto_oper 0x%08x",
				  n, up ? "up, its link does not hold" : "down, its link could train",
				  p->admin_status, p->peer_present ? "present" : "absent",
				  (unsigned)p->peer_proto, (unsigned)p->eth_proto_admin,
				  (unsigned)p->eth_proto_oper);
	/* D-REG-6: the one protocol the link trained at while up, none while down. */
	uint32_t oper = p->eth_proto_oper;
	bool one_protocol = oper != 0 && (oper & (oper - 1)) == 0 &&
			    (oper & p->eth_proto_capability) == oper;
	if (up ? !one_protocol : oper != 0)
		return dev_broken(buf, len, NICREF_INV_PORT_OPER_PROTOCOL,
				  "port %u oper_status %u, eth_proto_oper 0x%08x (capability 0x%08x)",
				  n, p->oper_status, (unsigned)oper,
				  (unsigned)p->eth_proto_capability);
	/* T108 bits; D-REG-13: admin within the capability and not empty. */
	if ((p->eth_proto_capability & ~port_proto_all()) != 0 || p->eth_proto_admin == 0 ||
	    (p->eth_proto_admin & ~p->eth_proto_capability) != 0)
		return dev_broken(buf, len, NICREF_INV_PORT_PROTOCOL_SETS,
				  "port %u eth_proto_capability 0x%08x, eth_proto_admin 0x%08x", n,
				  (unsigned)p->eth_proto_capability, (unsigned)p->eth_proto_admin);
	/* T106 admin_mtu "smaller or equal to max_mtu"; D-REG-5 oper_mtu = admin_mtu at once. */
	if (p->admin_mtu > p->max_mtu || p->oper_mtu != p->admin_mtu)
		return dev_broken(buf, len, NICREF_INV_PORT_MTU,
				  "port %u max_mtu %u, admin_mtu %u, oper_mtu %u", n, p->max_mtu,
				  p->admin_mtu, p->oper_mtu);
	/* T112 "pfctx, pptx must be mutually exclusive"; D-REG-16 both directions. */
	if ((p->pptx || p->pprx) && (p->pfctx || p->pfcrx))
		return dev_broken(buf, len, NICREF_INV_PORT_FLOW_CONTROL,
				  "port %u pptx %d pprx %d with pfctx 0x%02x pfcrx 0x%02x", n, p->pptx,
				  p->pprx, p->pfctx, p->pfcrx);
	if (!port_watermark_ok(p->stall_minor_wm) || !port_watermark_ok(p->stall_critical_wm))
		return dev_broken(buf, len, NICREF_INV_PORT_WATERMARKS,
				  "port %u stall watermarks minor 0x%x, critical 0x%x", n,
				  p->stall_minor_wm, p->stall_critical_wm);
	return 0;
}

/* Every port the device has: those beyond num_ports keep their power-on state, which holds the
 * invariants too. */
int port_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	(void)state;
	for (unsigned i = 0; i < NICREF_MAX_PORTS; i++) {
		int rc = port_broken(&dev->port[i], i + 1, buf, len);
		if (rc != 0)
			return rc;
	}
	return 0;
}
