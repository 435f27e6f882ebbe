/* PAOS - Ports Administrative and Operational Status Register (PRM §11.1.3 T109/T110,
 * register 0x5006). The link state machine is in reg/port.c. */
#include "reg/reg.h"

enum nicref_cmd_rule reg_paos_query(struct reg_ctx *r)
{
	const struct port *p = r->port;
	REG_OUT(paos, local_port, r, r->local_port);
	REG_OUT(paos, admin_status, r, p->admin_status);
	REG_OUT(paos, oper_status, r, p->oper_status);
	/* ase is write-only: reads as 0 (D-REG-14). */
	return NICREF_RULE_NONE;
}

/* T110: "If this bit [ase] is set, admin state will be updated based on admin_state field."
 * Without ase the write changes nothing and admin_status is not looked at (D-REG-15).
 * oper_status is read-only: ignored (D-REG-14). */
enum nicref_cmd_rule reg_paos_write(struct reg_ctx *r)
{
	if (!REG_IN(paos, ase, r))
		return NICREF_RULE_NONE;
	unsigned admin = (unsigned)REG_IN(paos, admin_status, r);
	switch (admin) {
	case PORT_ADMIN_UP:
	case PORT_ADMIN_DOWN:
	case PORT_ADMIN_UP_ONCE:
		port_set_admin(r->c->dev, r->local_port, (enum port_admin)admin);
		return NICREF_RULE_NONE;
	case PORT_ADMIN_DISABLED:
		/* "this mode cannot be set by the software, only by the hardware" */
		return NICREF_RULE_PAOS_ADMIN_BY_HW;
	default:
		return NICREF_RULE_PAOS_ADMIN_INVALID;
	}
}
