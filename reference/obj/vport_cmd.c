/* The vport commands (PRM §12.16): QUERY/MODIFY_VPORT_STATE, QUERY/MODIFY_NIC_VPORT_CONTEXT,
 * and the vport counters (§12.17): QUERY_VPORT_COUNTER. Decisions: docs/vport.md. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"

/* PRM §12.16.4 T483 field_select. */
#define FS_ROCE_EN (1u << 1) /* beyond Rev 0.40: the public mlx5 interface's (D-VFIO-3) */
#define FS_ADDRESSES_LIST (1u << 2)
#define FS_PROMISC (1u << 4)
#define FS_MTU (1u << 6)

#define LIST_ELEM 8u /* T16 "100h-...", Bits 64: one T17/T19 element per 8 bytes */

/* ---- QUERY_VPORT_STATE / MODIFY_VPORT_STATE -------------------------------------------- */

enum nicref_cmd_rule cmd_query_vport_state(struct cmd_ctx *c)
{
	/* T473: admin_state "the state required by SW", state "port state" (D-VP-2). */
	PRM_SET(query_vport_state_out, admin_state, c->out, c->out_len, c->dev->vport->admin_state);
	PRM_SET(query_vport_state_out, state, c->out, c->out_len, vport_is_up(c->dev) ? 1 : 0);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_modify_vport_state(struct cmd_ctx *c)
{
	/* T475: "0x0: down", "0x1: up"; no other value is described. */
	unsigned admin = (unsigned)PRM_GET(modify_vport_state_in, admin_state, c->in, c->in_len);
	if (admin > 1)
		return NICREF_RULE_VPORT_ADMIN_STATE_INVALID;
	c->dev->vport->admin_state = (uint8_t)admin;
	return NICREF_RULE_NONE;
}

/* ---- QUERY_NIC_VPORT_CONTEXT ------------------------------------------------------------ */

/* Element i of a list, as T19 (mac_addr[47:32] at 00h[15:0], [31:0] at 04h) or T17 (vlan at
 * 00h[11:0]) lays it out, written at buf[off]. */
static void put_element(uint8_t *buf, size_t len, size_t off, enum vport_list t, uint64_t v)
{
	if (off + LIST_ELEM > len)
		return;
	uint8_t *e = buf + off;
	if (t == VPORT_LIST_VLAN) {
		PRM_SET(vlan, vlan, e, LIST_ELEM, v);
	} else {
		PRM_SET(mac_address, mac_addr_47_32, e, LIST_ELEM, v >> 32);
		PRM_SET(mac_address, mac_addr_31_0, e, LIST_ELEM, v & 0xFFFFFFFFu);
	}
}

static uint64_t get_element(const uint8_t *buf, size_t len, size_t off, enum vport_list t)
{
	if (off + LIST_ELEM > len)
		return 0;
	const uint8_t *e = buf + off;
	if (t == VPORT_LIST_VLAN)
		return PRM_GET(vlan, vlan, e, LIST_ELEM);
	return PRM_GET(mac_address, mac_addr_47_32, e, LIST_ELEM) << 32 |
	       PRM_GET(mac_address, mac_addr_31_0, e, LIST_ELEM);
}

enum nicref_cmd_rule cmd_query_nic_vport_context(struct cmd_ctx *c)
{
	const struct vport *v = c->dev->vport;
	/* T479: "Indicates which allowed list to query"; T16 defines types 0-2 only. */
	unsigned type = (unsigned)PRM_GET(query_nic_vport_context_in, allowed_list_type, c->in,
					  c->in_len);
	if (type >= VPORT_LISTS)
		return NICREF_RULE_NIC_VPORT_LIST_TYPE_INVALID;
	uint8_t *o = c->out;
	size_t n = c->out_len;
#define OUT(f, val) PRM_SET(query_nic_vport_context_out, f, o, n, (val))
	OUT(min_wqe_inline_mode, v->min_wqe_inline_mode);
	OUT(roce_en, v->roce_en);
	OUT(mtu, v->mtu); /* T16: 0 = the physical port's MTU */
	OUT(promisc_uc, v->promisc_uc);
	OUT(promisc_mc, v->promisc_mc);
	OUT(promisc_all, v->promisc_all);
	OUT(allowed_list_type, type);
	OUT(allowed_list_size, v->list_len[type]);
	OUT(permanent_address_47_32, v->permanent_address >> 32);
	OUT(permanent_address_31_0, v->permanent_address & 0xFFFFFFFFu);
#undef OUT
	/* D-VP-6: the list fills what the stated output length holds; allowed_list_size still
	 * says how long the list is, so a driver that gave too little room can tell. */
	size_t room = c->output_length < n ? c->output_length : n;
	size_t base = PRM_SIZE_query_nic_vport_context_out;
	for (uint32_t i = 0; i < v->list_len[type]; i++) {
		size_t off = base + (size_t)i * LIST_ELEM;
		if (off + LIST_ELEM > room)
			break;
		put_element(o, room, off, (enum vport_list)type, v->list[type][i]);
	}
	return NICREF_RULE_NONE;
}

/* ---- MODIFY_NIC_VPORT_CONTEXT ----------------------------------------------------------- */

static enum nicref_cmd_rule list_too_long(enum vport_list t)
{
	return t == VPORT_LIST_UC   ? NICREF_RULE_NIC_VPORT_UC_LIST_TOO_LONG
	       : t == VPORT_LIST_MC ? NICREF_RULE_NIC_VPORT_MC_LIST_TOO_LONG
				    : NICREF_RULE_NIC_VPORT_VLAN_LIST_TOO_LONG;
}

/* Validates the address list of the input and copies it into a new array (*out, NULL when
 * empty). Nothing of the vport changes here. */
static enum nicref_cmd_rule read_list(struct cmd_ctx *c, enum vport_list *type, uint32_t *size,
				      uint64_t **out)
{
	unsigned t = (unsigned)PRM_GET(modify_nic_vport_context_in, allowed_list_type, c->in,
				       c->in_len);
	uint32_t n = (uint32_t)PRM_GET(modify_nic_vport_context_in, allowed_list_size, c->in,
				       c->in_len);
	*out = NULL;
	/* T16 allowed_list_type: 0 uc, 1 mc, 2 vlan. */
	if (t >= VPORT_LISTS)
		return NICREF_RULE_NIC_VPORT_LIST_TYPE_INVALID;
	/* T16 allowed_list_size bound, read as 2^log_max_<list> (D-VP-1). */
	if (n > vport_list_max(c->dev, (enum vport_list)t))
		return list_too_long((enum vport_list)t);
	/* D-VP-6: the n elements lie in the input the entry states (T96 input_length), as
	 * MANAGE_PAGES' entries do (T135). */
	size_t base = PRM_SIZE_modify_nic_vport_context_in;
	if ((uint64_t)base + (uint64_t)n * LIST_ELEM > c->input_length)
		return NICREF_RULE_NIC_VPORT_LIST_BEYOND_INPUT;
	/* Reserved bits of each element: T19 00h[31:16], T17 00h[31:12] and 04h. */
	const struct nicref_layout *el = t == VPORT_LIST_VLAN ? &nicref_layout_vlan
							      : &nicref_layout_mac_address;
	for (uint32_t i = 0; i < n; i++) {
		enum nicref_cmd_rule r = cmd_check_reserved(c, el, base + (size_t)i * LIST_ELEM);
		if (r != NICREF_RULE_NONE)
			return r;
	}
	if (n) {
		*out = dev_malloc(c->dev, (size_t)n * sizeof **out);
		if (!*out)
			return NICREF_RULE_OBJ_NO_MEMORY;
		for (uint32_t i = 0; i < n; i++)
			(*out)[i] = get_element(c->in, c->in_len, base + (size_t)i * LIST_ELEM,
						(enum vport_list)t);
	}
	*type = (enum vport_list)t;
	*size = n;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_modify_nic_vport_context(struct cmd_ctx *c)
{
	struct vport *v = c->dev->vport;
	uint32_t fs = (uint32_t)PRM_GET(modify_nic_vport_context_in, field_select, c->in, c->in_len);
	/* T483 defines bits 2, 4 and 6, the public interface bit 1 (D-VFIO-3); a bit selecting
	 * no field is refused (D-VP-5). */
	if (fs & ~(uint32_t)(FS_ROCE_EN | FS_ADDRESSES_LIST | FS_PROMISC | FS_MTU))
		return NICREF_RULE_NIC_VPORT_FIELD_SELECT_UNKNOWN;
	enum vport_list type = VPORT_LIST_UC;
	uint32_t size = 0;
	uint64_t *list = NULL;
	if (fs & FS_ADDRESSES_LIST) {
		enum nicref_cmd_rule r = read_list(c, &type, &size, &list);
		if (r != NICREF_RULE_NONE)
			return r;
	}
	/* Nothing can fail from here: the selected fields change, the others stay. */
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	if (fs & FS_ADDRESSES_LIST) {
		/* T16: the list of allowed_list_type is replaced; the other two stay. */
		dev_free(c->dev, v->list[type]);
		v->list[type] = list;
		v->list_len[type] = size;
	}
	if (fs & FS_PROMISC) {
		v->promisc_uc = PRM_GET(modify_nic_vport_context_in, promisc_uc, in, n);
		v->promisc_mc = PRM_GET(modify_nic_vport_context_in, promisc_mc, in, n);
		v->promisc_all = PRM_GET(modify_nic_vport_context_in, promisc_all, in, n);
	}
	if (fs & FS_ROCE_EN)
		v->roce_en = PRM_GET(modify_nic_vport_context_in, roce_en, in, n);
	if (fs & FS_MTU)
		/* T16 gives no bound; 0 means the physical port's MTU again (D-VP-7). */
		v->mtu = (uint16_t)PRM_GET(modify_nic_vport_context_in, mtu, in, n);
	return NICREF_RULE_NONE;
}

/* ---- QUERY_VPORT_COUNTER ---------------------------------------------------------------- */

enum nicref_cmd_rule cmd_query_vport_counter(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	/* §12.17: "Vport counters are supported only when HCA_CAP.vport_counters == 1". */
	if (!CAPS_CUR(dev, CAP_GENERAL, hca_cap, vport_counters))
		return NICREF_RULE_VPORT_COUNTERS_UNSUPPORTED;
	struct vport_traffic *cnt = dev->vport->cnt;
	uint8_t *o = c->out;
	size_t n = c->out_len;
	/* T489/T490: each counter a TRAFFIC_COUNTER (T491) at its offset. */
#define CNT(name, id)                                                                           \
	PRM_SET(query_vport_counter_out, name##_packets, o, n, cnt[id].packets);                \
	PRM_SET(query_vport_counter_out, name##_octets, o, n, cnt[id].octets);
	CNT(received_errors, VPORT_CNT_RX_ERRORS)
	CNT(transmit_errors, VPORT_CNT_TX_ERRORS)
	CNT(received_eth_broadcast, VPORT_CNT_RX_BROADCAST)
	CNT(transmitted_eth_broadcast, VPORT_CNT_TX_BROADCAST)
	CNT(received_eth_unicast, VPORT_CNT_RX_UNICAST)
	CNT(transmitted_eth_unicast, VPORT_CNT_TX_UNICAST)
	CNT(received_eth_multicast, VPORT_CNT_RX_MULTICAST)
	CNT(transmitted_eth_multicast, VPORT_CNT_TX_MULTICAST)
#undef CNT
	/* T488 clear: "Read and reset counter value": the output has the values before the
	 * reset (D-VP-8). */
	if (PRM_GET(query_vport_counter_in, clear, c->in, c->in_len))
		memset(cnt, 0, sizeof dev->vport->cnt);
	return NICREF_RULE_NONE;
}
