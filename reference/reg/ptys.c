/* PTYS - Port Type and Speed Register (PRM §11.1.2 T107/T108, register 0x5004). */
#include "reg/reg.h"

#define PTYS_ETHERNET 0x4 /* T108 proto_mask "Bit 2: Ethernet" */

/* D-REG-12: proto_mask is an index ("which of the protocol data is valid") on READ and WRITE;
 * the register only has Ethernet data, so it must be Ethernet alone. */
static enum nicref_cmd_rule check_proto_mask(const struct reg_ctx *r)
{
	return REG_IN(ptys, proto_mask, r) == PTYS_ETHERNET ? NICREF_RULE_NONE
							     : NICREF_RULE_PTYS_PROTO_MASK;
}

enum nicref_cmd_rule reg_ptys_query(struct reg_ctx *r)
{
	enum nicref_cmd_rule rule = check_proto_mask(r);
	if (rule != NICREF_RULE_NONE)
		return rule;
	const struct port *p = r->port;
	REG_OUT(ptys, local_port, r, r->local_port);
	REG_OUT(ptys, proto_mask, r, PTYS_ETHERNET);
	REG_OUT(ptys, eth_proto_capability, r, p->eth_proto_capability);
	REG_OUT(ptys, eth_proto_admin, r, p->eth_proto_admin);
	/* D-REG-6: what the link trained at; 0 while it is not up. */
	REG_OUT(ptys, eth_proto_oper, r, p->eth_proto_oper);
	return NICREF_RULE_NONE;
}

/* eth_proto_capability and eth_proto_oper are read-only: ignored on write (D-REG-14). */
enum nicref_cmd_rule reg_ptys_write(struct reg_ctx *r)
{
	enum nicref_cmd_rule rule = check_proto_mask(r);
	if (rule != NICREF_RULE_NONE)
		return rule;
	struct port *p = r->port;
	uint32_t admin = (uint32_t)REG_IN(ptys, eth_proto_admin, r);
	/* D-REG-13: only protocols the port has, and at least one. */
	if (admin & ~p->eth_proto_capability)
		return NICREF_RULE_PTYS_ADMIN_NOT_CAPABLE;
	if (admin == 0)
		return NICREF_RULE_PTYS_ADMIN_EMPTY;
	p->eth_proto_admin = admin;
	/* §11.1.2 note: admin "shall only take effect during link training"; an up link keeps
	 * its speed (and stays up) until it goes down and up again, whatever the partner shares
	 * with the new set; a down link trains with the new set (port_update_link). */
	port_update_link(r->c->dev, r->local_port);
	return NICREF_RULE_NONE;
}
