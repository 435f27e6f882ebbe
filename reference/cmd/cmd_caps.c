/* QUERY_HCA_CAP and SET_HCA_CAP (PRM §12.3.3-§12.3.4). The capabilities live in dev->core.caps as
 * the PRM lays them out (core/caps.h), set at reset from the profile table of
 * core/caps_default.c. Dispatch has already checked the lengths (T140-T143, T154-T157),
 * op_mod (T141, T155) and the device state (QUERY after ENABLE_HCA, SET between ENABLE_HCA
 * and INIT_HCA, D-INIT-2 in docs/decisions.md); what is left here are the structures themselves. */
#include "cmd/cmd_table.h"

/* T141/T155 op_mod[15:1], the capability type. */
enum { OPMOD_TYPE_GENERAL = 0x0, OPMOD_TYPE_ETH_OFFLOAD = 0x1, OPMOD_TYPE_FLOW_TABLE_NIC = 0x7 };

static int cap_type(unsigned op_mod)
{
	switch (op_mod >> 1) {
	case OPMOD_TYPE_GENERAL:
		return CAP_GENERAL;
	case OPMOD_TYPE_ETH_OFFLOAD:
		return CAP_ETH_OFFLOAD;
	case OPMOD_TYPE_FLOW_TABLE_NIC:
		return CAP_FLOW_TABLE_NIC;
	default:
		return -1;
	}
}

/* Byte offset of the capability field in the command (T142/T154: 10h). */
static size_t cap_offset(void)
{
	return PRM_FIELD(set_hca_cap_in, capability)->bit_offset / 8;
}

/* PRM §12.3.3 T141/T143: op_mod bit 0 selects the maximum (0) or current (1) values, bits 15:1
 * the structure; the 4 KB go to output 10h-100Ch. */
enum nicref_cmd_rule cmd_query_hca_cap(struct cmd_ctx *c)
{
	int type = cap_type(c->op_mod);
	if (type < 0)
		return NICREF_RULE_BAD_OP_MOD; /* not reached: dispatch allows types 0, 1, 7 only */
	const struct caps *caps = &c->dev->core.caps;
	const uint8_t *src = c->op_mod & 1 ? caps->cur[type] : caps->max[type];
	NICREF_ASSERT(nicref_field_set_bytes(c->out, c->out_len,
					     PRM_FIELD(query_hca_cap_out, capability), src,
					     CAP_BYTES) == 0);
	return NICREF_RULE_NONE;
}

/* Reserved bits of a T150 flow table properties block at `off` and of its two T152 blocks. */
static enum nicref_cmd_rule check_reserved_ft_props(struct cmd_ctx *c, size_t off)
{
	enum nicref_cmd_rule r = cmd_check_reserved(c, &nicref_layout_flow_table_properties, off);
	const struct nicref_field *sup = PRM_FIELD(flow_table_properties, ft_field_support);
	const struct nicref_field *mask =
		PRM_FIELD(flow_table_properties, ft_field_bitmask_support);
	enum nicref_cmd_rule r2 = cmd_check_reserved(c, &nicref_layout_flow_table_fields_supported,
						     off + sup->bit_offset / 8);
	enum nicref_cmd_rule r3 = cmd_check_reserved(c, &nicref_layout_flow_table_fields_supported,
						     off + mask->bit_offset / 8);
	return r != NICREF_RULE_NONE ? r : r2 != NICREF_RULE_NONE ? r2 : r3;
}

/* Reserved bits of the capability structure (PRM "Reserved fields", T128; D-CMD-8): the T144,
 * T146 or T148 structure, and the blocks nested in T148, each checked so that every offending
 * dword is reported. */
static enum nicref_cmd_rule check_reserved_caps(struct cmd_ctx *c, int type)
{
	size_t off = cap_offset();
	switch (type) {
	case CAP_GENERAL:
		return cmd_check_reserved(c, &nicref_layout_hca_cap, off);
	case CAP_ETH_OFFLOAD:
		return cmd_check_reserved(c, &nicref_layout_per_protocol_networking_offload_caps,
					  off);
	default: {
		enum nicref_cmd_rule r =
			cmd_check_reserved(c, &nicref_layout_flow_table_nic_cap, off);
		const struct nicref_field *rx =
			PRM_FIELD(flow_table_nic_cap, flow_table_properties_nic_receive);
		const struct nicref_field *tx =
			PRM_FIELD(flow_table_nic_cap, flow_table_properties_nic_transmit);
		enum nicref_cmd_rule r2 = check_reserved_ft_props(c, off + rx->bit_offset / 8);
		enum nicref_cmd_rule r3 = check_reserved_ft_props(c, off + tx->bit_offset / 8);
		return r != NICREF_RULE_NONE ? r : r2 != NICREF_RULE_NONE ? r2 : r3;
	}
	}
}

/* The RW fields of T145 as the input states them. */
struct general_rw {
	uint64_t cmdif_checksum, cache_line_128byte, log_max_sq, log_uar_page_sz;
};

/* PRM §12.3.4: a value above the maximum capability is refused with BAD_PARAM (T128 "parameter
 * out of range"), each RW field by its own rule. All are checked before anything is written: a
 * refused command changes nothing. */
static enum nicref_cmd_rule check_general(const struct nicref_dev *dev,
					  const struct general_rw *v)
{
	/* T145 40h[15:14] defines 0 disabled, 1 initial_state, 3 enabled; 2 is undefined. */
	if (v->cmdif_checksum == 2 ||
	    v->cmdif_checksum > CAPS_MAX(dev, CAP_GENERAL, hca_cap, cmdif_checksum))
		return NICREF_RULE_CAP_CMDIF_CHECKSUM_INVALID;
	/* T145 2Ch[27]: in the maximum set, 1 = "128 byte Cache line size is supported". */
	if (v->cache_line_128byte > CAPS_MAX(dev, CAP_GENERAL, hca_cap, cache_line_128byte))
		return NICREF_RULE_CAP_CACHE_LINE_128_UNSUPPORTED;
	/* T145 6Ch[20:16]; 0 ("feature not supported") is a value the driver may ask for. */
	if (v->log_max_sq > CAPS_MAX(dev, CAP_GENERAL, hca_cap, log_max_sq))
		return NICREF_RULE_CAP_LOG_MAX_SQ_ABOVE_MAX;
	/* T145 90h[15:0]: a UAR page is 4 KB * 2^log_uar_page_sz and should match the CPU page
	 * (§7.2.1); the UAR area is 1 MB * 2^uar_sz (48h[21:16]). The maximum set's value (the
	 * device's own 4 KB page) is no bound here: read as one, the RW field could never grow.
	 * The bound is the area: at most one page per area, log_uar_page_sz <= 8 + uar_sz. */
	if (v->log_uar_page_sz > 8 + CAPS_CUR(dev, CAP_GENERAL, hca_cap, uar_sz))
		return NICREF_RULE_CAP_UAR_PAGE_BEYOND_AREA;
	return NICREF_RULE_NONE;
}

/* PRM §12.3.4 T155: op_mod bit 0 is reserved (dispatch refuses it), bits 15:1 the type. Only
 * the fields T145/T147/T149/T151/T153 mark RW are taken; every other field of the input is
 * ignored (a driver writes back what QUERY_HCA_CAP gave it). T147, T149, T151 and T153 mark
 * none RW, so types 1 and 7 are checked for reserved bits and change nothing. */
enum nicref_cmd_rule cmd_set_hca_cap(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	int type = cap_type(c->op_mod);
	if (type < 0)
		return NICREF_RULE_BAD_OP_MOD; /* not reached: dispatch allows types 0, 1, 7 only */
	size_t off = cap_offset();
	NICREF_ASSERT(c->in_len >= off + CAP_BYTES); /* dispatch: input_length >= 1010h */
	enum nicref_cmd_rule r = check_reserved_caps(c, type);
	if (r != NICREF_RULE_NONE)
		return r;

	struct general_rw v = { 0 };
	if (type == CAP_GENERAL) {
		const uint8_t *cap = c->in + off;
		v.cmdif_checksum = PRM_GET(hca_cap, cmdif_checksum, cap, CAP_BYTES);
		v.cache_line_128byte = PRM_GET(hca_cap, cache_line_128byte, cap, CAP_BYTES);
		v.log_max_sq = PRM_GET(hca_cap, log_max_sq, cap, CAP_BYTES);
		v.log_uar_page_sz = PRM_GET(hca_cap, log_uar_page_sz, cap, CAP_BYTES);
		r = check_general(dev, &v);
		if (r != NICREF_RULE_NONE)
			return r;
	}

	/* D-INIT-1: §12.3.4 "must be run prior to initial QUERY_PAGES", read as the init-pages
	 * query (the §8.2 sequence queries the boot pages first). The device takes the values
	 * anyway; the init-page count the driver was given may no longer hold. */
	if (dev->hca.init_pages_queried)
		dev_violation(dev, NICREF_VIO_SET_HCA_CAP_AFTER_INIT_PAGES, (uint64_t)c->op_mod);

	if (type == CAP_GENERAL) {
		uint8_t *cur = dev->core.caps.cur[CAP_GENERAL];
		dev->core.caps.cur_changed = true;
		dev->core.caps.cur_written = true;
		/* cmdif_checksum takes effect at once: this command's own completion is signed
		 * (or not) as the new value says (cmd/cmdq.c reads it after execution). */
		PRM_SET(hca_cap, cmdif_checksum, cur, CAP_BYTES, v.cmdif_checksum);
		PRM_SET(hca_cap, cache_line_128byte, cur, CAP_BYTES, v.cache_line_128byte);
		PRM_SET(hca_cap, log_max_sq, cur, CAP_BYTES, v.log_max_sq);
		PRM_SET(hca_cap, log_uar_page_sz, cur, CAP_BYTES, v.log_uar_page_sz);
	}
	return NICREF_RULE_NONE;
}
