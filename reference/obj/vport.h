/* Private to libnicref: the function's NIC vport, its counters and the L2 table (PRM §7.3,
 * §12.15-§12.17). Owned by obj/vport*.c, l2_table.c; decisions in docs/vport.md (D-VP-*,
 * D-L2-*).
 *
 * The function has one NIC vport (PRM §7.3): its context (T15/T16), its administrative
 * state (§12.16.1-2), its traffic counters (§12.17, T486) and, when the function is the vport
 * group manager, the L2 table (§12.15). None is an object of the object tables: the vport exists
 * from power-on, INIT_HCA to TEARDOWN_HCA, and holds no reference to any object. */
#ifndef NICREF_OBJ_VPORT_H
#define NICREF_OBJ_VPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nicref_dev;

/* allowed_list_type (T16 F0h[26:24]). */
enum vport_list { VPORT_LIST_UC = 0, VPORT_LIST_MC = 1, VPORT_LIST_VLAN = 2, VPORT_LISTS };

/* The traffic counters of T486, in the order of the QUERY_VPORT_COUNTER output (T489). */
enum vport_counter {
	VPORT_CNT_RX_ERRORS,    /* "Received errors", 10h */
	VPORT_CNT_TX_ERRORS,    /* "Transmit errors", 20h */
	VPORT_CNT_RX_BROADCAST, /* "Received ETH broadcast", 70h */
	VPORT_CNT_TX_BROADCAST, /* "Transmitted broadcast", 80h */
	VPORT_CNT_RX_UNICAST,   /* "Received ETH unicast", 90h */
	VPORT_CNT_TX_UNICAST,   /* "Transmitted ETH unicast", A0h */
	VPORT_CNT_RX_MULTICAST, /* "Received ETH multicast", B0h */
	VPORT_CNT_TX_MULTICAST, /* "Transmitted ETH multicast", C0h */
	VPORT_CNT_COUNT
};

struct vport_traffic {
	uint64_t packets, octets; /* TRAFFIC_COUNTER (T491/T492) */
};

/* One valid L2 table entry (§12.15.1 T458). */
struct l2_entry {
	uint32_t index; /* table_index */
	bool vlan_valid;
	uint16_t vlan;  /* as set, also when vlan_valid is 0 (QUERY returns it "as it was set") */
	uint64_t mac;   /* mac_address[47:0] */
};

/* The L2 table: 2^log_max_l2_table entries, of which only the valid ones are stored, sorted by
 * index (lookup by binary search): memory follows what the driver set, not the table's size,
 * which the capability allows up to 2^31 (D-L2-4). */
struct l2_table {
	struct l2_entry *e;
	uint32_t n, cap;
};

struct vport {
	/* MODIFY_VPORT_STATE (T475): 0 down, 1 up. */
	uint8_t admin_state;
	/* The context (T16). min_wqe_inline_mode (profile vport_min_wqe_inline_mode) and
	 * permanent_address are the device's: no field_select bit modifies them (D-VP-3). */
	uint8_t min_wqe_inline_mode;
	uint16_t mtu; /* 0: the physical port's */
	bool promisc_uc, promisc_mc, promisc_all;
	bool roce_en; /* beyond Rev 0.40 (D-VFIO-3): kept and read back; RoCE does not read it */
	uint64_t permanent_address;
	/* The three address lists, each with its own length (T16 allowed_list_type); elements are
	 * mac_addr[47:0] for uc/mc and the vlan id for vlan. */
	uint64_t *list[VPORT_LISTS];
	uint32_t list_len[VPORT_LISTS];
	struct vport_traffic cnt[VPORT_CNT_COUNT];
	struct l2_table l2;
};

/* Power-on values of what no command sets (D-VP-3). */
#define VPORT_PERMANENT_ADDRESS 0x024E49435246ull /* 02:4E:49:43:52:46, locally administered */

int vport_dev_init(struct nicref_dev *dev);
void vport_dev_fini(struct nicref_dev *dev);
/* Power-on values again (device reset, TEARDOWN_HCA): admin up, no lists, promisc off, mtu 0,
 * counters 0, L2 table empty. */
void vport_dev_reset(struct nicref_dev *dev);
/* 0, or -400..-449 for a broken invariant. */
int vport_dev_check(const struct nicref_dev *dev);

/* The NIC vport context's min_wqe_inline_mode (PRM §7.3 T15 00h[26:24]): the least inline
 * mode an SQ of this vport may be created with (PRM §7.9.3 mode 1: "An attempt to create SQ
 * with inline mode < minimal required by the Vport NIC will fail"). Meaningful only when
 * HCA_CAP.wqe_inline_mode == 1 (T147); the caller checks that. */
unsigned vport_min_wqe_inline_mode(const struct nicref_dev *dev);

/* The function's vport is on its physical port local_port 1 (D-TX-7): frames of another port
 * are not the vport's. */
#define VPORT_PORT 1u

/* QUERY_VPORT_STATE state (T473): up when the HCA is initialized (the vport exists from
 * INIT_HCA to TEARDOWN_HCA), the administrative state is up and the function's physical port
 * (VPORT_PORT) is operationally up (D-VP-2). The data path drops the vport's traffic while it
 * is down, the Ethernet path's and RoCE's (D-VP-2, docs/vport.md). */
bool vport_is_up(struct nicref_dev *dev);

/* 2^HCA_CAP.log_max_current_uc_list / _mc_list / log_max_vlan_list: the longest list of each
 * type (T16, D-VP-1). */
uint64_t vport_list_max(const struct nicref_dev *dev, enum vport_list t);
/* 2^HCA_CAP.log_max_l2_table: the L2 table's entries (T145 90h[28:24], D-L2-1). */
uint64_t vport_l2_table_size(const struct nicref_dev *dev);

/* ---- Counters: the data path counts here, QUERY_VPORT_COUNTER reads (and clears) them. ---- */

/* One more packet of `octets` bytes on counter c. */
void vport_count(struct nicref_dev *dev, enum vport_counter c, uint64_t octets);
/* The T486 counter of a frame the vport sent (rx false) or received (rx true), by its
 * destination address: broadcast, other group addresses (multicast), unicast. */
enum vport_counter vport_counter_of(bool rx, const uint8_t *frame, size_t len);
/* Counter c as it stands. */
struct vport_traffic vport_counter_get(const struct nicref_dev *dev, enum vport_counter c);

/* ---- L2 table (obj/l2_table.c) --------------------------------------------------------- */

/* The valid entry of index i, or NULL. */
const struct l2_entry *l2_table_get(const struct l2_table *t, uint32_t index);
/* Stores a new entry (its index not valid yet): 0, or -1 when out of memory. */
int l2_table_insert(struct l2_table *t, const struct l2_entry *e);
/* Invalidates entry i: 0, or -1 when it was not valid. */
int l2_table_remove(struct l2_table *t, uint32_t index);
/* Empties the table and frees its memory. */
void l2_table_clear(struct l2_table *t);
/* Whether a valid entry holds this MAC (with this VLAN when the entry's vlan_valid is set):
 * the addresses the function owns, for the loopback decision (D-L2-2, docs/vport.md). */
bool l2_table_has_mac(const struct l2_table *t, uint64_t mac, bool vlan_valid, uint16_t vlan);
/* 0, or -440..-449 when the entries are not sorted, unique, within `size` entries or hold
 * bits beyond their fields. */
int l2_table_check(const struct l2_table *t, uint64_t size);

#endif
