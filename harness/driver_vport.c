/* Reference-driver helpers for the NIC vport, its counters and the L2 table (PRM
 * §12.15-§12.17). Commands are built field by field through the PRM layouts by name, as
 * harness/driver.c builds its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_vport.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

#define CTX_IN_OFF 0x100u   /* T482: the context in MODIFY_NIC_VPORT_CONTEXT */
#define CTX_OUT_OFF 0x10u   /* T480: the context in QUERY_NIC_VPORT_CONTEXT */
#define CTX_SIZE 0x100u     /* T16 fixed part; the list follows at 100h (D-VP-4) */
#define LIST_ELEM 8u        /* T17/T19 */
#define MAX_LIST 0xFFFu     /* T16 allowed_list_size is 12 bits */

static const struct nicref_field *field(const char *layout, const char *name)
{
	return refdrv_layout_field(refdrv_layout(layout), name);
}

static void set(void *buf, size_t len, const char *layout, const char *name, uint64_t v)
{
	const struct nicref_field *f = field(layout, name);
	if (f)
		(void)nicref_field_set(buf, len, f, v);
}

static uint64_t get(const void *buf, size_t len, const char *layout, const char *name)
{
	uint64_t v = 0;
	const struct nicref_field *f = field(layout, name);
	if (f)
		(void)nicref_field_get(buf, len, f, &v);
	return v;
}

static void set_opcode(void *buf, size_t len, const char *opcode)
{
	set(buf, len, "cmd_in", "opcode", (uint64_t)refdrv_opcode(opcode));
	set(buf, len, "cmd_in", "op_mod", 0);
}

static int fail(struct refdrv *d, const char *what)
{
	snprintf(d->error, sizeof d->error, "%s", what);
	return -1;
}

/* ---- vport state --------------------------------------------------------------------------- */

int refdrv_query_vport_state(struct refdrv *d, unsigned *admin_state, unsigned *state)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	set_opcode(in, sizeof in, "QUERY_VPORT_STATE"); /* op_mod 0: vnic_vport (T471) */
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0) {
		*admin_state = (unsigned)get(out, sizeof out, "query_vport_state_out", "admin_state");
		*state = (unsigned)get(out, sizeof out, "query_vport_state_out", "state");
	}
	return st;
}

int refdrv_modify_vport_state(struct refdrv *d, unsigned admin_state)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	set_opcode(in, sizeof in, "MODIFY_VPORT_STATE");
	set(in, sizeof in, "modify_vport_state_in", "admin_state", admin_state);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

/* ---- NIC vport context --------------------------------------------------------------------- */

/* List element i at buf[off]: T19 for uc/mc, T17 for vlan. */
static void put_elem(uint8_t *buf, size_t len, size_t off, unsigned type, uint64_t v)
{
	if (off + LIST_ELEM > len)
		return;
	if (type == REFDRV_LIST_VLAN) {
		set(buf + off, LIST_ELEM, "vlan", "vlan", v);
	} else {
		set(buf + off, LIST_ELEM, "mac_address", "mac_addr_47_32", v >> 32);
		set(buf + off, LIST_ELEM, "mac_address", "mac_addr_31_0", v & 0xFFFFFFFFu);
	}
}

static uint64_t get_elem(const uint8_t *buf, size_t len, size_t off, unsigned type)
{
	if (off + LIST_ELEM > len)
		return 0;
	if (type == REFDRV_LIST_VLAN)
		return get(buf + off, LIST_ELEM, "vlan", "vlan");
	return get(buf + off, LIST_ELEM, "mac_address", "mac_addr_47_32") << 32 |
	       get(buf + off, LIST_ELEM, "mac_address", "mac_addr_31_0");
}

int refdrv_query_nic_vport_context(struct refdrv *d, unsigned list_type,
				   struct refdrv_nic_vport *out, uint64_t *list, uint32_t list_cap)
{
	if (list_cap > MAX_LIST)
		list_cap = MAX_LIST;
	uint8_t in[0x10] = { 0 };
	set_opcode(in, sizeof in, "QUERY_NIC_VPORT_CONTEXT");
	set(in, sizeof in, "query_nic_vport_context_in", "allowed_list_type", list_type);
	size_t olen = CTX_OUT_OFF + CTX_SIZE + (size_t)list_cap * LIST_ELEM;
	uint8_t *o = calloc(1, olen);
	if (!o)
		return fail(d, "query_nic_vport_context: out of memory");
	int st = refdrv_cmd(d, in, sizeof in, o, (uint32_t)olen);
	if (st == 0) {
		const char *L = "query_nic_vport_context_out";
		out->min_wqe_inline_mode = (unsigned)get(o, olen, L, "min_wqe_inline_mode");
		out->mtu = (unsigned)get(o, olen, L, "mtu");
		out->promisc_uc = get(o, olen, L, "promisc_uc") != 0;
		out->promisc_mc = get(o, olen, L, "promisc_mc") != 0;
		out->promisc_all = get(o, olen, L, "promisc_all") != 0;
		out->permanent_address = get(o, olen, L, "permanent_address_47_32") << 32 |
					 get(o, olen, L, "permanent_address_31_0");
		out->list_type = (unsigned)get(o, olen, L, "allowed_list_type");
		out->list_size = (uint32_t)get(o, olen, L, "allowed_list_size");
		out->list = list;
		uint32_t k = out->list_size < list_cap ? out->list_size : list_cap;
		for (uint32_t i = 0; i < k; i++)
			list[i] = get_elem(o, olen, CTX_OUT_OFF + CTX_SIZE + (size_t)i * LIST_ELEM,
					   out->list_type);
	}
	free(o);
	return st;
}

int refdrv_modify_nic_vport_context(struct refdrv *d, uint32_t field_select,
				    const struct refdrv_nic_vport *a)
{
	uint32_t n = (field_select & REFDRV_VPORT_ADDRESSES_LIST) ? a->list_size : 0;
	if (n > MAX_LIST || (n && !a->list))
		return fail(d, "modify_nic_vport_context: list too long for allowed_list_size");
	size_t ilen = CTX_IN_OFF + CTX_SIZE + (size_t)n * LIST_ELEM;
	uint8_t *in = calloc(1, ilen);
	uint8_t out[0x10] = { 0 };
	if (!in)
		return fail(d, "modify_nic_vport_context: out of memory");
	const char *L = "modify_nic_vport_context_in";
	set_opcode(in, ilen, "MODIFY_NIC_VPORT_CONTEXT");
	set(in, ilen, L, "field_select", field_select);
	/* Only the selected fields are written: the rest of the context stays zero. */
	if (field_select & REFDRV_VPORT_PROMISC) {
		set(in, ilen, L, "promisc_uc", a->promisc_uc);
		set(in, ilen, L, "promisc_mc", a->promisc_mc);
		set(in, ilen, L, "promisc_all", a->promisc_all);
	}
	if (field_select & REFDRV_VPORT_MTU)
		set(in, ilen, L, "mtu", a->mtu);
	if (field_select & REFDRV_VPORT_ADDRESSES_LIST) {
		set(in, ilen, L, "allowed_list_type", a->list_type);
		set(in, ilen, L, "allowed_list_size", n);
		for (uint32_t i = 0; i < n; i++)
			put_elem(in, ilen, CTX_IN_OFF + CTX_SIZE + (size_t)i * LIST_ELEM, a->list_type,
				 a->list[i]);
	}
	int st = refdrv_cmd(d, in, (uint32_t)ilen, out, sizeof out);
	free(in);
	return st;
}

/* ---- counters ------------------------------------------------------------------------------ */

int refdrv_query_vport_counter(struct refdrv *d, bool clear, struct refdrv_vport_counters *c)
{
	static const char *const names[8] = {
		"received_errors",	  "transmit_errors",	       "received_eth_broadcast",
		"transmitted_eth_broadcast", "received_eth_unicast",   "transmitted_eth_unicast",
		"received_eth_multicast",    "transmitted_eth_multicast",
	};
	uint8_t in[0x20] = { 0 }, out[0x210] = { 0 };
	set_opcode(in, sizeof in, "QUERY_VPORT_COUNTER");
	set(in, sizeof in, "query_vport_counter_in", "clear", clear);
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0) {
		for (unsigned k = 0; k < 8; k++) {
			char f[64];
			snprintf(f, sizeof f, "%s_packets", names[k]);
			c->packets[k] = get(out, sizeof out, "query_vport_counter_out", f);
			snprintf(f, sizeof f, "%s_octets", names[k]);
			c->octets[k] = get(out, sizeof out, "query_vport_counter_out", f);
		}
	}
	return st;
}

/* ---- L2 table ------------------------------------------------------------------------------ */

int refdrv_set_l2_entry(struct refdrv *d, uint32_t index, const struct refdrv_l2_entry *e)
{
	uint8_t in[0x40] = { 0 }, out[0x10] = { 0 };
	const char *L = "set_l2_table_entry_in";
	set_opcode(in, sizeof in, "SET_L2_TABLE_ENTRY");
	set(in, sizeof in, L, "table_index", index);
	set(in, sizeof in, L, "vlan_valid", e->vlan_valid);
	set(in, sizeof in, L, "vlan", e->vlan);
	set(in, sizeof in, L, "mac_address_47_32", (e->mac >> 32) & 0xFFFF);
	set(in, sizeof in, L, "mac_address_31_0", e->mac & 0xFFFFFFFFu);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_query_l2_entry(struct refdrv *d, uint32_t index, struct refdrv_l2_entry *e)
{
	uint8_t in[0x40] = { 0 }, out[0x40] = { 0 };
	const char *L = "query_l2_table_entry_out";
	set_opcode(in, sizeof in, "QUERY_L2_TABLE_ENTRY");
	set(in, sizeof in, "query_l2_table_entry_in", "table_index", index);
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0) {
		e->vlan_valid = get(out, sizeof out, L, "vlan_valid") != 0;
		e->vlan = (unsigned)get(out, sizeof out, L, "vlan");
		e->mac = get(out, sizeof out, L, "mac_address_47_32") << 32 |
			 get(out, sizeof out, L, "mac_address_31_0");
	}
	return st;
}

int refdrv_delete_l2_entry(struct refdrv *d, uint32_t index)
{
	uint8_t in[0x40] = { 0 }, out[0x10] = { 0 };
	set_opcode(in, sizeof in, "DELETE_L2_TABLE_ENTRY");
	set(in, sizeof in, "delete_l2_table_entry_in", "table_index", index);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}
