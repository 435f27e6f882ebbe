/* Layouts of the capability structures of QUERY_HCA_CAP / SET_HCA_CAP (PRM §12.3.3.1-§12.3.3.3,
 * T144-T153). Row format: see prm/layouts.h. Offsets are relative to the capability field
 * (QUERY_HCA_CAP output / SET_HCA_CAP input 10h, T143/T155), which is 4 KB whatever the type:
 * the three top-level layouts are registered with that size, and every bit of the 4 KB that
 * no row covers is reserved (T148 shows its padding to FFCh explicitly; T144 and T146 stop at
 * FCh). Rows follow the field-description tables (T145, T147, T149, T151, T153); where the
 * layout grid disagrees (they are all garbled to some degree) the comment says so. Sub-
 * structures (T150 inside T148, T152 inside T150) are their own layouts, placed by a wide W
 * row in the enclosing one. */
#ifndef NICREF_PRM_LAYOUTS_CAPS_H
#define NICREF_PRM_LAYOUTS_CAPS_H

/* PRM §12.3.3.1 T144/T145: general device capabilities (op_mod type 0). Names are T145's.
 * REC: the T144 grid is shifted in most rows (e.g. bf/pad/driver_version under bits 31/29/27,
 * log_max_wq_sz beyond bit 0) and spells several names differently ("log_max_mrwr_sz",
 * "pad tx packet", "basic cyclic rev wqe"); T145 is followed for every position.
 * - 20h[22:16]: T145 prints "log_max_mrwn_sz", T144 "log_max_mrwr_sz"; the description is "the
 *   maximum size of a Memory Region/Window", so the name is log_max_mrw_sz (D-CAP-2,
 *   docs/caps.md).
 * - 3Ch[31:16]: T144 puts stat_rate_support there, T145 lists 3Ch[31:16] as reserved. T145 is
 *   followed: reserved (an InfiniBand static-rate mask has no meaning on this Ethernet-only
 *   device: T145 port_type defines only 0x1 Ethernet; D-CAP-3, docs/caps.md).
 * - T145 writes "2C" without the h; explicit reserved rows (30h[31], 38h[31], 3Ch[31:16],
 *   40h[31], 60h[31:16], 7Ch[31]) are left uncovered like every other reserved bit.
 * - RW (T145 Access column; SET_HCA_CAP takes only these, §12.3.4): cache_line_128byte,
 *   cmdif_checksum, log_max_sq, log_uar_page_sz. */
#define PRM_L_hca_cap(F, W, A, L)                                                               \
	F(L, log_max_cq_sz, 0x18, 23, 16)                                                       \
	F(L, log_max_cq, 0x18, 4, 0)                                                            \
	F(L, log_max_eq_sz, 0x1C, 31, 24)                                                       \
	F(L, log_max_mkey, 0x1C, 21, 16)                                                        \
	F(L, log_max_eq, 0x1C, 3, 0)                                                            \
	F(L, max_indirection, 0x20, 31, 24)                                                     \
	F(L, log_max_mrw_sz, 0x20, 22, 16)                                                      \
	F(L, log_max_klm_list_size, 0x20, 5, 0)                                                 \
	F(L, end_pad, 0x2C, 31, 31)                                                             \
	F(L, start_pad, 0x2C, 28, 28)                                                           \
	F(L, cache_line_128byte, 0x2C, 27, 27)                                                  \
	F(L, vport_counters, 0x30, 30, 30)                                                      \
	F(L, vport_group_manager, 0x34, 31, 31)                                                 \
	F(L, nic_flow_table, 0x34, 25, 25)                                                      \
	F(L, port_type, 0x34, 9, 8)                                                             \
	F(L, num_ports, 0x34, 7, 0)                                                             \
	F(L, log_max_msg, 0x38, 28, 24)                                                         \
	F(L, max_tc, 0x38, 19, 16)                                                              \
	F(L, temp_warn_event, 0x38, 15, 15)                                                     \
	F(L, cqe_version, 0x3C, 3, 0)                                                           \
	F(L, cmdif_checksum, 0x40, 15, 14)                                                      \
	F(L, wq_signature, 0x40, 11, 11)                                                        \
	F(L, sctr_data_cqe, 0x40, 10, 10)                                                       \
	F(L, eth_net_offloads, 0x40, 3, 3)                                                      \
	F(L, cq_oi, 0x44, 31, 31)                                                               \
	F(L, cq_resize, 0x44, 30, 30)                                                           \
	F(L, cq_moderation, 0x44, 29, 29)                                                       \
	F(L, cq_eq_remap, 0x44, 25, 25)                                                         \
	F(L, scqe_break_moderation, 0x44, 21, 21)                                               \
	F(L, cq_period_start_from_cqe, 0x44, 20, 20)                                            \
	F(L, uar_sz, 0x48, 21, 16)                                                              \
	F(L, log_pg_sz, 0x48, 7, 0)                                                             \
	F(L, bf, 0x4C, 31, 31)                                                                  \
	F(L, driver_version, 0x4C, 30, 30)                                                      \
	F(L, pad_tx_eth_packet, 0x4C, 29, 29)                                                   \
	F(L, log_bf_reg_size, 0x4C, 20, 16)                                                     \
	F(L, log_max_transport_domain, 0x64, 28, 24)                                            \
	F(L, log_max_pd, 0x64, 20, 16)                                                          \
	F(L, log_max_flow_counter_bulk, 0x68, 23, 16)                                           \
	F(L, max_flow_counter, 0x68, 15, 0)                                                     \
	F(L, modify_tis, 0x6C, 31, 31)                                                          \
	F(L, log_max_rq, 0x6C, 28, 24)                                                          \
	F(L, log_max_sq, 0x6C, 20, 16)                                                          \
	F(L, log_max_tir, 0x6C, 12, 8)                                                          \
	F(L, log_max_tis, 0x6C, 4, 0)                                                           \
	F(L, basic_cyclic_rcv_wqe, 0x70, 31, 31)                                                \
	F(L, log_max_rmp, 0x70, 28, 24)                                                         \
	F(L, log_max_rqt, 0x70, 20, 16)                                                         \
	F(L, log_max_rqt_size, 0x70, 12, 8)                                                     \
	F(L, log_max_tis_per_sq, 0x70, 4, 0)                                                    \
	F(L, log_max_stride_sz_rq, 0x74, 28, 24)                                                \
	F(L, log_min_stride_sz_rq, 0x74, 20, 16)                                                \
	F(L, log_max_stride_sz_sq, 0x74, 12, 8)                                                 \
	F(L, log_min_stride_sz_sq, 0x74, 4, 0)                                                  \
	F(L, log_max_wq_sz, 0x78, 4, 0)                                                         \
	F(L, log_max_vlan_list, 0x7C, 20, 16)                                                   \
	F(L, log_max_current_mc_list, 0x7C, 12, 8)                                              \
	F(L, log_max_current_uc_list, 0x7C, 4, 0)                                               \
	F(L, log_max_l2_table, 0x90, 28, 24)                                                    \
	F(L, log_uar_page_sz, 0x90, 15, 0)                                                      \
	F(L, device_frequency_mhz, 0x98, 31, 0)

/* PRM §12.3.3.2 T146/T147: per-protocol networking offload capabilities (op_mod type 1,
 * "Ethernet Offload Capabilities" in T141). REC: the T146 grid carries no field names at all
 * (only its offsets 00h-08h, 0Ch-2Ch, 30h-3Ch, 40h-FCh); T147 is followed.
 * - 00h[22] self_lb_mc: T147 lost the row's offset cell (the name sits in the Bits column);
 *   the next row repeats 00h, so it is 00h[22] (T147 L5687, between 00h[23] and 00h[21]).
 * - 00h[20:16]: T147 prints "max_iso_cap"; the description is the log of the maximum LSO
 *   message and §3.3.2 (L1267) names the field max_lso_cap, which is used.
 * - 30h-3Ch lro_timer_supported_periods[4], "31:0": four 32-bit entries, one row each
 *   (lro_timer_supported_periods_0 at 30h ... _3 at 3Ch), so that nothing past 3Ch counts as
 *   covered.
 * T147 marks no field RW: SET_HCA_CAP of this type changes nothing. */
#define PRM_L_per_protocol_networking_offload_caps(F, W, A, L)                                  \
	F(L, csum_cap, 0x00, 31, 31)                                                            \
	F(L, vlan_cap, 0x00, 30, 30)                                                            \
	F(L, lro_cap, 0x00, 29, 29)                                                             \
	F(L, lro_psh_flag, 0x00, 28, 28)                                                        \
	F(L, lro_time_stamp, 0x00, 27, 27)                                                      \
	F(L, lro_max_msg_sz_mode, 0x00, 26, 25)                                                 \
	F(L, self_lb_en_modifiable, 0x00, 23, 23)                                               \
	F(L, self_lb_mc, 0x00, 22, 22)                                                          \
	F(L, self_lb_uc, 0x00, 21, 21)                                                          \
	F(L, max_lso_cap, 0x00, 20, 16)                                                         \
	F(L, wqe_inline_mode, 0x00, 13, 12)                                                     \
	F(L, rss_ind_tbl_cap, 0x00, 11, 8)                                                      \
	F(L, lro_min_mss_size, 0x08, 15, 0)                                                     \
	F(L, lro_timer_supported_periods_0, 0x30, 31, 0)                                        \
	F(L, lro_timer_supported_periods_1, 0x34, 31, 0)                                        \
	F(L, lro_timer_supported_periods_2, 0x38, 31, 0)                                        \
	F(L, lro_timer_supported_periods_3, 0x3C, 31, 0)

/* PRM §12.3.3.3 T148/T149: flow table NIC capabilities (op_mod type 7). REC: the T148 grid
 * names both bits of 00h "nic rx multi path tirs"; T149 is followed (bit 30 is
 * nic_rx_multi_path_tirs_fts). The two properties blocks are T150 structures, 512 bits each
 * (flow_table_properties below). 80h-BCh, C0h-FCh, 140h-1BCh and 1C0h-FFCh are reserved (the
 * grid shows empty rows at C0h-FCh, 180h-1BCh and 1C0h-FFCh). T149 marks no field RW. */
#define PRM_L_flow_table_nic_cap(F, W, A, L)                                                    \
	F(L, nic_rx_multi_path_tirs, 0x00, 31, 31)                                              \
	F(L, nic_rx_multi_path_tirs_fts, 0x00, 30, 30)                                          \
	W(L, flow_table_properties_nic_receive, 0x40, 512)                                      \
	W(L, flow_table_properties_nic_transmit, 0x100, 512)

/* PRM §12.3.3.3 T150/T151: flow table properties, one block per flow table type. REC: the
 * T150 grid is one dword off from 08h on (log_max_ft_num at 08h, log_max_flow_counter/
 * log_max_destination at 0Ch, log_max_flow at 10h); T151 lists 08h as reserved and is
 * followed (D-CAP-4, docs/caps.md). ft_field_support and ft_field_bitmask_support are T152
 * structures, 128 bits each. T151 marks no field RW. */
#define PRM_L_flow_table_properties(F, W, A, L)                                                 \
	F(L, ft_support, 0x00, 31, 31)                                                          \
	F(L, flow_tag, 0x00, 30, 30)                                                            \
	F(L, flow_counter, 0x00, 29, 29)                                                        \
	F(L, flow_modify_en, 0x00, 28, 28)                                                      \
	F(L, modify_root, 0x00, 27, 27)                                                         \
	F(L, identified_miss_table, 0x00, 26, 26)                                               \
	F(L, flow_table_modify, 0x00, 25, 25)                                                   \
	F(L, reset_root_to_default, 0x00, 22, 22)                                               \
	F(L, log_max_ft_size, 0x04, 29, 24)                                                     \
	F(L, max_ft_level, 0x04, 7, 0)                                                          \
	F(L, log_max_ft_num, 0x0C, 7, 0)                                                        \
	F(L, log_max_flow_counter, 0x10, 15, 8)                                                 \
	F(L, log_max_destination, 0x10, 7, 0)                                                   \
	F(L, log_max_flow, 0x14, 7, 0)                                                          \
	W(L, ft_field_support, 0x20, 128)                                                       \
	W(L, ft_field_bitmask_support, 0x30, 128)

/* PRM §12.3.3.3 T152/T153: flow table fields supported, one bit per match field. REC: the
 * T152 grid orders the first three bits ether_type, smac, dmac and drops the rest of the row
 * into the wrong columns; T153 is followed (D-CAP-4, docs/caps.md). 00h[28], 00h[24] and
 * 00h[8:0] and the dwords 04h-0Ch are reserved. */
#define PRM_L_flow_table_fields_supported(F, W, A, L)                                           \
	F(L, outer_dmac, 0x00, 31, 31)                                                          \
	F(L, outer_smac, 0x00, 30, 30)                                                          \
	F(L, outer_ether_type, 0x00, 29, 29)                                                    \
	F(L, outer_first_prio, 0x00, 27, 27)                                                    \
	F(L, outer_first_cfi, 0x00, 26, 26)                                                     \
	F(L, outer_first_vid, 0x00, 25, 25)                                                     \
	F(L, outer_second_prio, 0x00, 23, 23)                                                   \
	F(L, outer_second_cfi, 0x00, 22, 22)                                                    \
	F(L, outer_second_vid, 0x00, 21, 21)                                                    \
	F(L, outer_ipv6_flow_label, 0x00, 20, 20)                                               \
	F(L, outer_sip, 0x00, 19, 19)                                                           \
	F(L, outer_dip, 0x00, 18, 18)                                                           \
	F(L, outer_frag, 0x00, 17, 17)                                                          \
	F(L, outer_ip_protocol, 0x00, 16, 16)                                                   \
	F(L, outer_ip_ecn, 0x00, 15, 15)                                                        \
	F(L, outer_ip_dscp, 0x00, 14, 14)                                                       \
	F(L, outer_udp_sport, 0x00, 13, 13)                                                     \
	F(L, outer_udp_dport, 0x00, 12, 12)                                                     \
	F(L, outer_tcp_sport, 0x00, 11, 11)                                                     \
	F(L, outer_tcp_dport, 0x00, 10, 10)                                                     \
	F(L, outer_tcp_flags, 0x00, 9, 9)

#define NICREF_LAYOUTS_CAPS(X)                                                                  \
	X(hca_cap, 0x1000, "PRM §12.3.3.1 T144/T145")                                           \
	X(per_protocol_networking_offload_caps, 0x1000, "PRM §12.3.3.2 T146/T147")              \
	X(flow_table_nic_cap, 0x1000, "PRM §12.3.3.3 T148/T149")                                \
	X(flow_table_properties, 0x40, "PRM §12.3.3.3 T150/T151")                               \
	X(flow_table_fields_supported, 0x10, "PRM §12.3.3.3 T152/T153")

#endif
