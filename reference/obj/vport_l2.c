/* The L2 table commands (PRM §12.15): SET/QUERY/DELETE_L2_TABLE_ENTRY. The table itself is
 * obj/l2_table.c; decisions D-L2-* in docs/vport.md. */
#include "cmd/cmd_table.h"

/* The checks the three commands share, in this order: the capability (BAD_OP), then the index
 * (BAD_INDEX), before the entry's state (BAD_RES_STATE) is looked at by the caller. */
static enum nicref_cmd_rule l2_common(const struct cmd_ctx *c, uint32_t index)
{
	/* §12.15 L9354: "these commands are allowed only when HCA_CAP.vport_group_manager ==1". */
	if (!CAPS_CUR(c->dev, CAP_GENERAL, hca_cap, vport_group_manager))
		return NICREF_RULE_L2_TABLE_NOT_MANAGER;
	/* T458/T462/T466 "Must be less than HCA_CAP.log_max_l2_table", read as the table size
	 * 2^log_max_l2_table (D-L2-1). */
	if (index >= vport_l2_table_size(c->dev))
		return NICREF_RULE_L2_TABLE_INDEX_RANGE;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_set_l2_table_entry(struct cmd_ctx *c)
{
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	struct l2_entry e = {
		.index = (uint32_t)PRM_GET(set_l2_table_entry_in, table_index, in, n),
		.vlan_valid = PRM_GET(set_l2_table_entry_in, vlan_valid, in, n) != 0,
		.vlan = (uint16_t)PRM_GET(set_l2_table_entry_in, vlan, in, n),
		.mac = PRM_GET(set_l2_table_entry_in, mac_address_47_32, in, n) << 32 |
		       PRM_GET(set_l2_table_entry_in, mac_address_31_0, in, n),
	};
	enum nicref_cmd_rule r = l2_common(c, e.index);
	if (r != NICREF_RULE_NONE)
		return r;
	struct l2_table *t = &c->dev->vport->l2;
	/* §12.15 L9352: "SW cannot reuse the same L2 Address entry before deleting it. That is,
	 * it cannot do SET twice before DELETE of the previous one." */
	if (l2_table_get(t, e.index))
		return NICREF_RULE_L2_TABLE_ENTRY_VALID;
	if (l2_table_insert(t, &e) != 0)
		return NICREF_RULE_OBJ_NO_MEMORY;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_l2_table_entry(struct cmd_ctx *c)
{
	uint32_t index = (uint32_t)PRM_GET(query_l2_table_entry_in, table_index, c->in, c->in_len);
	enum nicref_cmd_rule r = l2_common(c, index);
	if (r != NICREF_RULE_NONE)
		return r;
	/* §12.15.2: "returns an L2 table entry, as it was set": an entry not set has nothing to
	 * return (D-L2-3). */
	const struct l2_entry *e = l2_table_get(&c->dev->vport->l2, index);
	if (!e)
		return NICREF_RULE_L2_TABLE_ENTRY_INVALID;
	uint8_t *o = c->out;
	size_t n = c->out_len;
	PRM_SET(query_l2_table_entry_out, vlan_valid, o, n, e->vlan_valid);
	PRM_SET(query_l2_table_entry_out, vlan, o, n, e->vlan);
	PRM_SET(query_l2_table_entry_out, mac_address_47_32, o, n, e->mac >> 32);
	PRM_SET(query_l2_table_entry_out, mac_address_31_0, o, n, e->mac & 0xFFFFFFFFu);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_delete_l2_table_entry(struct cmd_ctx *c)
{
	uint32_t index = (uint32_t)PRM_GET(delete_l2_table_entry_in, table_index, c->in, c->in_len);
	enum nicref_cmd_rule r = l2_common(c, index);
	if (r != NICREF_RULE_NONE)
		return r;
	/* §12.15.3 "renders an L2 table entry invalid": one that is not valid is refused
	 * (D-L2-3). */
	if (l2_table_remove(&c->dev->vport->l2, index) != 0)
		return NICREF_RULE_L2_TABLE_ENTRY_INVALID;
	return NICREF_RULE_NONE;
}
