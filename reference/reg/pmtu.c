/* PMTU - Port MTU Register (PRM §11.1.1 T105/T106, register 0x5003). */
#include "reg/reg.h"

enum nicref_cmd_rule reg_pmtu_query(struct reg_ctx *r)
{
	const struct port *p = r->port;
	REG_OUT(pmtu, local_port, r, r->local_port);
	REG_OUT(pmtu, max_mtu, r, p->max_mtu);
	REG_OUT(pmtu, admin_mtu, r, p->admin_mtu);
	REG_OUT(pmtu, oper_mtu, r, p->oper_mtu);
	return NICREF_RULE_NONE;
}

/* max_mtu and oper_mtu are read-only: ignored on write (D-REG-14). */
enum nicref_cmd_rule reg_pmtu_write(struct reg_ctx *r)
{
	struct port *p = r->port;
	uint16_t admin = (uint16_t)REG_IN(pmtu, admin_mtu, r);
	/* T106: "Must be smaller or equal to max_mtu". No lower bound is stated (D-REG-22). */
	if (admin > p->max_mtu)
		return NICREF_RULE_PMTU_ADMIN_ABOVE_MAX;
	p->admin_mtu = admin;
	/* D-REG-5: "the actual MTU configured on the ports" follows at once. */
	p->oper_mtu = admin;
	return NICREF_RULE_NONE;
}
