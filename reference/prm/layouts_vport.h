/* Layouts of the NIC vport context (PRM §7.3 T15-T20), the L2 table commands (§12.15
 * T457-T468), the vport commands (§12.16 T470-T485) and the vport counters (§12.17 T487-T492).
 * Row format: see prm/layouts.h.
 *
 * Common to every command below: inputs carry opcode 00h[31:16] and op_mod 04h[15:0], outputs
 * status 00h[31:24] and syndrome 04h[31:0] (T99-T102). Sizes are where each layout grid ends
 * (its last reserved row included); rows only for named fields, everything else is reserved.
 *
 * MAC addresses (T19/T20) are two fields everywhere they are embedded, <name>_47_32 (00h[15:0])
 * and <name>_31_0 (04h); 00h[31:16] is reserved.
 *
 * The NIC vport context is written once as PRM_R_nic_vport_context(F, W, A, L, B) with every
 * offset "B + <T15 offset>": B is 0 in nic_vport_context itself, 10h in
 * query_nic_vport_context_out (T480) and 100h in modify_nic_vport_context_in (T482). */
#ifndef NICREF_PRM_LAYOUTS_VPORT_H
#define NICREF_PRM_LAYOUTS_VPORT_H

/* PRM §7.3 T19/T20: MAC Address Layout, one 8-byte element of an address list. */
#define PRM_L_mac_address(F, W, A, L)                                                           \
	F(L, mac_addr_47_32, 0x00, 15, 0)                                                       \
	F(L, mac_addr_31_0, 0x04, 31, 0)

/* PRM §7.3 T17/T18: Vlan Layout, one 8-byte element of the vlan list (04h reserved). */
#define PRM_L_vlan(F, W, A, L) F(L, vlan, 0x00, 11, 0)

/* PRM §7.3 T15/T16: NIC_Vport Context. REC: the T15 grid is garbled: it prints
 * the promisc bits and permanent_address both as "F4h-F8h", and allowed_list_type/_size on an
 * F0h row without the promisc bits. T16 is followed: F0h holds promisc_uc 31, promisc_mc 30,
 * promisc_all 29 (spelled "promise_*" in T15 and T483), allowed_list_type 26:24 and
 * allowed_list_size 11:0; permanent_address is the MAC layout at F4h-F8h (F4h[15:0], F8h);
 * FCh is reserved. The address list starts at 100h, 64 bits per element, as the MAC layout
 * (uc/mc, T19) or the Vlan layout (T17) according to allowed_list_type; it is named after
 * field_select bit 2 (T483 "addresses_list"), since T16 gives it three names at once.
 * Size: T481/T483 give the context "2112" bits (108h bytes): the fixed part 00h-FFh and the
 * first list element. The fixed part is the layout's size and the list an array after it
 * (D-VP-4 in docs/vport.md). */
#define PRM_R_nic_vport_context(F, W, A, L, B)                                                  \
	F(L, min_wqe_inline_mode, B + 0x00, 26, 24)                                             \
	F(L, mtu, B + 0x24, 15, 0)                                                              \
	F(L, promisc_uc, B + 0xF0, 31, 31)                                                      \
	F(L, promisc_mc, B + 0xF0, 30, 30)                                                      \
	F(L, promisc_all, B + 0xF0, 29, 29)                                                     \
	F(L, allowed_list_type, B + 0xF0, 26, 24)                                               \
	F(L, allowed_list_size, B + 0xF0, 11, 0)                                                \
	F(L, permanent_address_47_32, B + 0xF4, 15, 0)                                          \
	F(L, permanent_address_31_0, B + 0xF8, 31, 0)                                           \
	A(L, addresses_list, B + 0x100, 64)
#define PRM_L_nic_vport_context(F, W, A, L) PRM_R_nic_vport_context(F, W, A, L, 0x00)

/* PRM §12.15.1 T457/T458: SET_L2_TABLE_ENTRY input. The grid runs to "28h-3Ch": size 40h. */
#define PRM_L_set_l2_table_entry_in(F, W, A, L)                                                 \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, table_index, 0x14, 23, 0)                                                          \
	F(L, vlan_valid, 0x1C, 12, 12)                                                          \
	F(L, vlan, 0x1C, 11, 0)                                                                 \
	F(L, mac_address_47_32, 0x20, 15, 0)                                                    \
	F(L, mac_address_31_0, 0x24, 31, 0)

/* PRM §12.15.1 T459/T460: SET_L2_TABLE_ENTRY output (08h-0Ch reserved). */
#define PRM_L_set_l2_table_entry_out(F, W, A, L)                                                \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.15.2 T461/T462: QUERY_L2_TABLE_ENTRY input. The grid runs to "18h-3Ch": size 40h. */
#define PRM_L_query_l2_table_entry_in(F, W, A, L)                                               \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, table_index, 0x14, 23, 0)

/* PRM §12.15.2 T463/T464: QUERY_L2_TABLE_ENTRY output. The grid runs to "28h-3Ch": size 40h.
 */
#define PRM_L_query_l2_table_entry_out(F, W, A, L)                                              \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, vlan_valid, 0x1C, 12, 12)                                                          \
	F(L, vlan, 0x1C, 11, 0)                                                                 \
	F(L, mac_address_47_32, 0x20, 15, 0)                                                    \
	F(L, mac_address_31_0, 0x24, 31, 0)

/* PRM §12.15.3 T465/T466: DELETE_L2_TABLE_ENTRY input (titled "Invalidate Flow Table Entry",
 * a copy slip). The grid runs to "18h-3C": size 40h. */
#define PRM_L_delete_l2_table_entry_in(F, W, A, L)                                              \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, table_index, 0x14, 23, 0)

/* PRM §12.15.3 T467/T468: DELETE_L2_TABLE_ENTRY output (08h-0Ch reserved). */
#define PRM_L_delete_l2_table_entry_out(F, W, A, L)                                             \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.16.1 T470/T471: QUERY_VPORT_STATE input. op_mod 0: vnic_vport; 0Ch reserved. */
#define PRM_L_query_vport_state_in(F, W, A, L)                                                  \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.16.1 T472/T473: QUERY_VPORT_STATE output. T473 is split in two blocks; admin_state
 * 0Ch[7:4] and state 0Ch[3:0] (0 down, 1 up). */
#define PRM_L_query_vport_state_out(F, W, A, L)                                                 \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, admin_state, 0x0C, 7, 4)                                                           \
	F(L, state, 0x0C, 3, 0)

/* PRM §12.16.2 T474/T475: MODIFY_VPORT_STATE input. REC: the T474 grid prints admin_state under
 * bit 31; T475 (0Ch[7:4]) is followed. op_mod 0: nic_vport. */
#define PRM_L_modify_vport_state_in(F, W, A, L)                                                 \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, admin_state, 0x0C, 7, 4)

/* PRM §12.16.2 T476/T477: MODIFY_VPORT_STATE output (08h-0Ch reserved). */
#define PRM_L_modify_vport_state_out(F, W, A, L)                                                \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.16.3 T478/T479: QUERY_NIC_VPORT_CONTEXT input: which address list to return. */
#define PRM_L_query_nic_vport_context_in(F, W, A, L)                                            \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, allowed_list_type, 0x0C, 26, 24)

/* PRM §12.16.3 T480/T481: QUERY_NIC_VPORT_CONTEXT output, the context at 10h (D-VP-4). */
#define PRM_L_query_nic_vport_context_out(F, W, A, L)                                           \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	PRM_R_nic_vport_context(F, W, A, L, 0x10)

/* PRM §12.16.4 T482/T483: MODIFY_NIC_VPORT_CONTEXT input. field_select 0Ch: bit 2
 * addresses_list, bit 4 promisc, bit 6 mtu; the context at 100h ("0Ch-FCh" reserved before it;
 * D-VP-4). */
#define PRM_L_modify_nic_vport_context_in(F, W, A, L)                                           \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, field_select, 0x0C, 31, 0)                                                         \
	PRM_R_nic_vport_context(F, W, A, L, 0x100)

/* PRM §12.16.4 T484/T485: MODIFY_NIC_VPORT_CONTEXT output (08h-0Ch reserved). */
#define PRM_L_modify_nic_vport_context_out(F, W, A, L)                                          \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.17.1 T491/T492: TRAFFIC_COUNTER. T492 prints each count as two 32-bit rows,
 * [63:32] at 00h/08h and [31:0] at 04h/0Ch: one 64-bit field each here. */
#define PRM_L_traffic_counter(F, W, A, L)                                                       \
	W(L, packets, 0x00, 64)                                                                 \
	W(L, octets, 0x08, 64)

/* PRM §12.17.1 T487/T488: QUERY_VPORT_COUNTER input. op_mod 0: vport_counters; clear 18h[31]
 * "Read and reset counter value". The grid runs to 1Ch: size 20h. */
#define PRM_L_query_vport_counter_in(F, W, A, L)                                                \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, clear, 0x18, 31, 31)

/* PRM §12.17.1 T489/T490: QUERY_VPORT_COUNTER output, eight TRAFFIC_COUNTERs (T491), each as
 * <T490 name>_packets and _octets. 08h-0Ch, 30h-6Ch and "D0h-20Ch" are reserved: size 210h. */
#define PRM_VPORT_CNT(W, L, name, off)                                                          \
	W(L, name##_packets, off, 64)                                                           \
	W(L, name##_octets, (off) + 0x08, 64)
#define PRM_L_query_vport_counter_out(F, W, A, L)                                               \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	PRM_VPORT_CNT(W, L, received_errors, 0x10)                                              \
	PRM_VPORT_CNT(W, L, transmit_errors, 0x20)                                              \
	PRM_VPORT_CNT(W, L, received_eth_broadcast, 0x70)                                       \
	PRM_VPORT_CNT(W, L, transmitted_eth_broadcast, 0x80)                                    \
	PRM_VPORT_CNT(W, L, received_eth_unicast, 0x90)                                         \
	PRM_VPORT_CNT(W, L, transmitted_eth_unicast, 0xA0)                                      \
	PRM_VPORT_CNT(W, L, received_eth_multicast, 0xB0)                                       \
	PRM_VPORT_CNT(W, L, transmitted_eth_multicast, 0xC0)

#define NICREF_LAYOUTS_VPORT(X)                                                                 \
	X(mac_address, 0x08, "PRM §7.3 T19/T20")                                               \
	X(vlan, 0x08, "PRM §7.3 T17/T18")                                                       \
	X(nic_vport_context, 0x100, "PRM §7.3 T15/T16")                                         \
	X(set_l2_table_entry_in, 0x40, "PRM §12.15.1 T457/T458")                                \
	X(set_l2_table_entry_out, 0x10, "PRM §12.15.1 T459/T460")                               \
	X(query_l2_table_entry_in, 0x40, "PRM §12.15.2 T461/T462")                              \
	X(query_l2_table_entry_out, 0x40, "PRM §12.15.2 T463/T464")                             \
	X(delete_l2_table_entry_in, 0x40, "PRM §12.15.3 T465/T466")                             \
	X(delete_l2_table_entry_out, 0x10, "PRM §12.15.3 T467/T468")                            \
	X(query_vport_state_in, 0x10, "PRM §12.16.1 T470/T471")                                 \
	X(query_vport_state_out, 0x10, "PRM §12.16.1 T472/T473")                                \
	X(modify_vport_state_in, 0x10, "PRM §12.16.2 T474/T475")                                \
	X(modify_vport_state_out, 0x10, "PRM §12.16.2 T476/T477")                               \
	X(query_nic_vport_context_in, 0x10, "PRM §12.16.3 T478/T479")                           \
	X(query_nic_vport_context_out, 0x110, "PRM §12.16.3 T480/T481 + §7.3 T16 at 10h")       \
	X(modify_nic_vport_context_in, 0x200, "PRM §12.16.4 T482/T483 + §7.3 T16 at 100h")      \
	X(modify_nic_vport_context_out, 0x10, "PRM §12.16.4 T484/T485")                         \
	X(traffic_counter, 0x10, "PRM §12.17.1 T491/T492")                                      \
	X(query_vport_counter_in, 0x20, "PRM §12.17.1 T487/T488")                               \
	X(query_vport_counter_out, 0x210, "PRM §12.17.1 T489/T490")

#endif
