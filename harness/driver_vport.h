/* Reference-driver helpers for the function's NIC vport, its counters and the L2 table (PRM
 * §12.15-§12.17), on top of refdrv_cmd (harness/driver.h). Each returns the command status of
 * T128 (0 OK), or -1 when the command did not complete or the arguments cannot be encoded
 * (d->error says why). Outputs are written only on status 0. */
#ifndef NICREF_DRIVER_VPORT_H
#define NICREF_DRIVER_VPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* QUERY_VPORT_STATE (§12.16.1 T473): admin_state and state, 0 down / 1 up. */
int refdrv_query_vport_state(struct refdrv *d, unsigned *admin_state, unsigned *state);
/* MODIFY_VPORT_STATE (§12.16.2 T475). */
int refdrv_modify_vport_state(struct refdrv *d, unsigned admin_state);

/* The NIC vport context (§7.3 T16) as a driver sees it. */
enum { REFDRV_LIST_UC = 0, REFDRV_LIST_MC = 1, REFDRV_LIST_VLAN = 2 };
struct refdrv_nic_vport {
	unsigned min_wqe_inline_mode;
	unsigned mtu;
	bool promisc_uc, promisc_mc, promisc_all;
	uint64_t permanent_address; /* mac[47:0] */
	unsigned list_type;         /* allowed_list_type */
	uint32_t list_size;         /* allowed_list_size */
	uint64_t *list;             /* mac[47:0] (uc, mc) or vlan id; list_size elements */
};
/* MODIFY_NIC_VPORT_CONTEXT field_select bits (T483). T483 has none for min_wqe_inline_mode or
 * the permanent address: they are the device's (D-VP-3; the inline mode is a profile setting). */
enum {
	REFDRV_VPORT_ADDRESSES_LIST = 1u << 2,
	REFDRV_VPORT_PROMISC = 1u << 4,
	REFDRV_VPORT_MTU = 1u << 6,
};

/* QUERY_NIC_VPORT_CONTEXT (§12.16.3) of the list `list_type`: fills *out; out->list receives up
 * to list_cap elements into `list` (which may be NULL when list_cap is 0). The output length
 * asked for holds list_cap elements. */
int refdrv_query_nic_vport_context(struct refdrv *d, unsigned list_type,
				   struct refdrv_nic_vport *out, uint64_t *list, uint32_t list_cap);
/* MODIFY_NIC_VPORT_CONTEXT (§12.16.4) of the fields `field_select` names, from *in. */
int refdrv_modify_nic_vport_context(struct refdrv *d, uint32_t field_select,
				    const struct refdrv_nic_vport *in);

/* QUERY_VPORT_COUNTER (§12.17.1 T489): the counters of T486 in output order (received
 * errors, transmit errors, rx/tx broadcast, rx/tx unicast, rx/tx multicast). */
struct refdrv_vport_counters {
	uint64_t packets[8], octets[8];
};
int refdrv_query_vport_counter(struct refdrv *d, bool clear, struct refdrv_vport_counters *out);

/* The L2 table (§12.15, T458/T464). */
struct refdrv_l2_entry {
	bool vlan_valid;
	unsigned vlan;
	uint64_t mac; /* mac[47:0] */
};
int refdrv_set_l2_entry(struct refdrv *d, uint32_t index, const struct refdrv_l2_entry *e);
int refdrv_query_l2_entry(struct refdrv *d, uint32_t index, struct refdrv_l2_entry *out);
int refdrv_delete_l2_entry(struct refdrv *d, uint32_t index);

#endif
