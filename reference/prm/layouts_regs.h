/* Layouts of the network port registers of ACCESS_REGISTER (PRM §11.1, T104-T126). Row format:
 * see prm/layouts.h. Offsets are relative to the register data (ACCESS_REGISTER input/output
 * 10h, T221-T224).
 *
 * Each register's rows are written once, as PRM_R_<reg>(F, W, A, L, B) with every offset
 * "B + <PRM offset>": B is 0 in the register layout itself (pmtu, ptys, ...), and 10h in the
 * whole-command views access_reg_<reg>_in / _out at the end of this file, which put the
 * register behind the ACCESS_REGISTER header so vectors and `nicref decode` can name register
 * fields in a command (the model itself reads the register layouts at 10h).
 *
 * PPCNT counter groups (T115-T126) print each 64-bit counter as two rows, <name>_high at NNh
 * and <name>_low at NNh + 4. They are written once as counter lists,
 * PRM_C_ppcnt_<group>(C, a, b, c) with one C(a, b, c, name, NNh) per counter: the layouts
 * expand each into the PRM's _high/_low rows (PRM_CNT_HL), and the port model (reg/port.h)
 * makes its counter identifiers from the same lists. */
#ifndef NICREF_PRM_LAYOUTS_REGS_H
#define NICREF_PRM_LAYOUTS_REGS_H

/* PRM §11.1.1 T105/T106: PMTU - Port MTU Register (0x5003). T106 is split in two blocks. */
#define PRM_R_pmtu(F, W, A, L, B)                                                               \
	F(L, local_port, B + 0x00, 23, 16)                                                      \
	F(L, max_mtu, B + 0x04, 31, 16)                                                         \
	F(L, admin_mtu, B + 0x08, 31, 16)                                                       \
	F(L, oper_mtu, B + 0x0C, 31, 16)
#define PRM_L_pmtu(F, W, A, L) PRM_R_pmtu(F, W, A, L, 0x00)

/* PRM §11.1.2 T107/T108: PTYS - Port Type and Speed Register (0x5004). Both tables are titled
 * "... Register Fields"; T107 is the layout. REC: the T107 grid prints proto_mask under bit
 * 15; T108 (bits 2:0, "Bit 2: Ethernet") is followed. T108 lists "00h 31 reserved" and no
 * reserved row for 30:24; every bit without a row is reserved either way. The grid runs to
 * "34-3Ch": size 40h. */
#define PRM_R_ptys(F, W, A, L, B)                                                               \
	F(L, local_port, B + 0x00, 23, 16)                                                      \
	F(L, proto_mask, B + 0x00, 2, 0)                                                        \
	F(L, eth_proto_capability, B + 0x0C, 31, 0)                                             \
	F(L, eth_proto_admin, B + 0x18, 31, 0)                                                  \
	F(L, eth_proto_oper, B + 0x24, 31, 0)
#define PRM_L_ptys(F, W, A, L) PRM_R_ptys(F, W, A, L, 0x00)

/* PRM §11.1.3 T109/T110: PAOS - Ports Administrative and Operational Status Register
 * (0x5006). REC: the T109 grid is shifted (local_port under bit 23, admin_status under 17,
 * oper_status under 11); T110 is followed. ase (04h[31]) is write-only; T110 calls the field it
 * enables "admin_state", meaning admin_status. The grid ends "08h-0Ch": size 10h. */
#define PRM_R_paos(F, W, A, L, B)                                                               \
	F(L, local_port, B + 0x00, 23, 16)                                                      \
	F(L, admin_status, B + 0x00, 11, 8)                                                     \
	F(L, oper_status, B + 0x00, 3, 0)                                                       \
	F(L, ase, B + 0x04, 31, 31)
#define PRM_L_paos(F, W, A, L) PRM_R_paos(F, W, A, L, 0x00)

/* PRM §11.1.4 T111/T112: PFCC - Ports Flow Control Configuration Register (0x5007). REC: the
 * T111 grid spells the 0Ch fields "pplx"/"applx" and the 08h one "apptx", and shows neither
 * pfctx/pfcrx nor fctx_disabled; T112 (pptx, aptx, pfctx, fctx_disabled, pprx, aprx, pfcrx) is
 * followed. T112's "00h 31:30" and "04h 31:28" reserved rows leave 29:24 / 27:24 without a
 * row: reserved. T112 is split in two blocks. The grid runs to 1Ch: size 20h. */
#define PRM_R_pfcc(F, W, A, L, B)                                                               \
	F(L, local_port, B + 0x00, 23, 16)                                                      \
	F(L, prio_mask_tx, B + 0x04, 23, 16)                                                    \
	F(L, prio_mask_rx, B + 0x04, 7, 0)                                                      \
	F(L, pptx, B + 0x08, 31, 31)                                                            \
	F(L, aptx, B + 0x08, 30, 30)                                                            \
	F(L, pfctx, B + 0x08, 23, 16)                                                           \
	F(L, fctx_disabled, B + 0x08, 8, 8)                                                     \
	F(L, pprx, B + 0x0C, 31, 31)                                                            \
	F(L, aprx, B + 0x0C, 30, 30)                                                            \
	F(L, pfcrx, B + 0x0C, 23, 16)                                                           \
	F(L, device_stall_minor_watermark, B + 0x10, 31, 16)                                    \
	F(L, device_stall_critical_watermark, B + 0x10, 15, 0)
#define PRM_L_pfcc(F, W, A, L) PRM_R_pfcc(F, W, A, L, 0x00)

/* PRM §11.1.5 T113/T114: PPCNT - Ports Performance Counters Register (0x5008), the index
 * part. REC: the T113 grid puts grp under bit 15 and prio_tc under bit 5; T114 (grp 5:0,
 * prio_tc 4:0) is followed. clr is 04h[31] (access "OP"). */
#define PRM_R_ppcnt_hdr(F, W, A, L, B)                                                          \
	F(L, local_port, B + 0x00, 23, 16)                                                      \
	F(L, grp, B + 0x00, 5, 0)                                                               \
	F(L, clr, B + 0x04, 31, 31)                                                             \
	F(L, prio_tc, B + 0x04, 4, 0)

/* The whole register: counter_set 08h-FCh, Bits "1984" a width (F8h bytes), laid out by the
 * group (T115-T126). */
#define PRM_L_ppcnt(F, W, A, L) PRM_R_ppcnt_hdr(F, W, A, L, 0x00) W(L, counter_set, 0x08, 1984)

/* One 64-bit counter: the PRM's two rows. */
#define PRM_CNT_HL(F, L, B, n, off) F(L, n##_high, B + off, 31, 0) F(L, n##_low, B + off + 4, 31, 0)

/* PRM §11.1.5.1 T115/T116: Ethernet IEEE 802.3 Counters (grp 0x00); 98h-F4h reserved. T115 and
 * T116 are each split in three blocks. */
#define PRM_C_ppcnt_ieee_802_3(C, a, b, c)                                                      \
	C(a, b, c, a_frames_transmitted_ok, 0x00)                                               \
	C(a, b, c, a_frames_received_ok, 0x08)                                                  \
	C(a, b, c, a_frame_check_sequence_errors, 0x10)                                         \
	C(a, b, c, a_alignment_errors, 0x18)                                                    \
	C(a, b, c, a_octets_transmitted_ok, 0x20)                                               \
	C(a, b, c, a_octets_received_ok, 0x28)                                                  \
	C(a, b, c, a_multicast_frames_xmitted_ok, 0x30)                                         \
	C(a, b, c, a_broadcast_frames_xmitted_ok, 0x38)                                         \
	C(a, b, c, a_multicast_frames_received_ok, 0x40)                                        \
	C(a, b, c, a_broadcast_frames_received_ok, 0x48)                                        \
	C(a, b, c, a_in_range_length_errors, 0x50)                                              \
	C(a, b, c, a_out_of_range_length_field, 0x58)                                           \
	C(a, b, c, a_frame_too_long_errors, 0x60)                                               \
	C(a, b, c, a_symbol_error_during_carrier, 0x68)                                         \
	C(a, b, c, a_mac_control_frames_transmitted, 0x70)                                      \
	C(a, b, c, a_mac_control_frames_received, 0x78)                                         \
	C(a, b, c, a_unsupported_opcodes_received, 0x80)                                        \
	C(a, b, c, a_pause_mac_ctrl_frames_received, 0x88)                                      \
	C(a, b, c, a_pause_mac_ctrl_frames_transmitted, 0x90)

/* PRM §11.1.5.2 T117/T118: Ethernet RFC 2863 Counters (grp 0x01); 68h-F4h reserved. REC: the
 * T117 grid leaves 34h unnamed; T118 names it if_out_ucast_pkts_low (followed). */
#define PRM_C_ppcnt_rfc_2863(C, a, b, c)                                                        \
	C(a, b, c, if_in_octets, 0x00)                                                          \
	C(a, b, c, if_in_ucast_pkts, 0x08)                                                      \
	C(a, b, c, if_in_discards, 0x10)                                                        \
	C(a, b, c, if_in_errors, 0x18)                                                          \
	C(a, b, c, if_in_unknown_protos, 0x20)                                                  \
	C(a, b, c, if_out_octets, 0x28)                                                         \
	C(a, b, c, if_out_ucast_pkts, 0x30)                                                     \
	C(a, b, c, if_out_discards, 0x38)                                                       \
	C(a, b, c, if_out_errors, 0x40)                                                         \
	C(a, b, c, if_in_multicast_pkts, 0x48)                                                  \
	C(a, b, c, if_in_broadcast_pkts, 0x50)                                                  \
	C(a, b, c, if_out_multicast_pkts, 0x58)                                                 \
	C(a, b, c, if_out_broadcast_pkts, 0x60)

/* PRM §11.1.5.3 T119/T120: Ethernet RFC 2819 Counters (grp 0x02); A8h-F4h reserved. */
#define PRM_C_ppcnt_rfc_2819(C, a, b, c)                                                        \
	C(a, b, c, ether_stats_drop_events, 0x00)                                               \
	C(a, b, c, ether_stats_octets, 0x08)                                                    \
	C(a, b, c, ether_stats_pkts, 0x10)                                                      \
	C(a, b, c, ether_stats_broadcast_pkts, 0x18)                                            \
	C(a, b, c, ether_stats_multicast_pkts, 0x20)                                            \
	C(a, b, c, ether_stats_crc_align_errors, 0x28)                                          \
	C(a, b, c, ether_stats_undersize_pkts, 0x30)                                            \
	C(a, b, c, ether_stats_oversize_pkts, 0x38)                                             \
	C(a, b, c, ether_stats_fragments, 0x40)                                                 \
	C(a, b, c, ether_stats_jabbers, 0x48)                                                   \
	C(a, b, c, ether_stats_collisions, 0x50)                                                \
	C(a, b, c, ether_stats_pkts64octets, 0x58)                                              \
	C(a, b, c, ether_stats_pkts65to127octets, 0x60)                                         \
	C(a, b, c, ether_stats_pkts128to255octets, 0x68)                                        \
	C(a, b, c, ether_stats_pkts256to511octets, 0x70)                                        \
	C(a, b, c, ether_stats_pkts512to1023octets, 0x78)                                       \
	C(a, b, c, ether_stats_pkts1024to1518octets, 0x80)                                      \
	C(a, b, c, ether_stats_pkts1519to2047octets, 0x88)                                      \
	C(a, b, c, ether_stats_pkts2048to4095octets, 0x90)                                      \
	C(a, b, c, ether_stats_pkts4096to8191octets, 0x98)                                      \
	C(a, b, c, ether_stats_pkts8192to10239octets, 0xA0)

/* PRM §11.1.5.4 T121/T122: Ethernet RFC 3635 Counters (grp 0x03, "RFC 3 v 635" in T114);
 * 80h-F4h reserved. */
#define PRM_C_ppcnt_rfc_3635(C, a, b, c)                                                        \
	C(a, b, c, dot3stats_alignment_errors, 0x00)                                            \
	C(a, b, c, dot3stats_fcs_errors, 0x08)                                                  \
	C(a, b, c, dot3stats_single_collision_frames, 0x10)                                     \
	C(a, b, c, dot3stats_multiple_collision_frames, 0x18)                                   \
	C(a, b, c, dot3stats_sqe_test_errors, 0x20)                                             \
	C(a, b, c, dot3stats_deferred_transmissions, 0x28)                                      \
	C(a, b, c, dot3stats_late_collisions, 0x30)                                             \
	C(a, b, c, dot3stats_excessive_collisions, 0x38)                                        \
	C(a, b, c, dot3stats_internal_mac_transmit_errors, 0x40)                                \
	C(a, b, c, dot3stats_carrier_sense_errors, 0x48)                                        \
	C(a, b, c, dot3stats_frame_too_long, 0x50)                                              \
	C(a, b, c, dot3stats_internal_mac_receive_errors, 0x58)                                 \
	C(a, b, c, dot3stats_symbol_errors, 0x60)                                               \
	C(a, b, c, dot3control_in_unknown_opcodes, 0x68)                                        \
	C(a, b, c, dot3in_pause_frames, 0x70)                                                   \
	C(a, b, c, dot3out_pause_frames, 0x78)

/* PRM §11.1.5.5 T123/T124: Ethernet Per Priority Counters (grp 0x10, prio_tc = priority).
 * 08h-1Ch, 30h-44h and 90h-F4h are reserved (T123 leaves them unnamed, T124 has no rows).
 * T124 hyphenates three names across lines ("rx_pause_transi-<br>tion_high"); joined. */
#define PRM_C_ppcnt_per_prio(C, a, b, c)                                                        \
	C(a, b, c, rx_octets, 0x00)                                                             \
	C(a, b, c, rx_frames, 0x20)                                                             \
	C(a, b, c, tx_octets, 0x28)                                                             \
	C(a, b, c, tx_frames, 0x48)                                                             \
	C(a, b, c, rx_pause, 0x50)                                                              \
	C(a, b, c, rx_pause_duration, 0x58)                                                     \
	C(a, b, c, tx_pause, 0x60)                                                              \
	C(a, b, c, tx_pause_duration, 0x68)                                                     \
	C(a, b, c, rx_pause_transition, 0x70)                                                   \
	C(a, b, c, rx_discards, 0x78)                                                           \
	C(a, b, c, device_stall_minor_watermark_cnt, 0x80)                                      \
	C(a, b, c, device_stall_critical_watermark_cnt, 0x88)

/* PRM §11.1.5.6 T125/T126: Ethernet Per Traffic Class Counters (grp 0x11, prio_tc = traffic
 * class); 10h-F4h reserved. transmit_queue is a depth in bytes (a gauge), not a count. */
#define PRM_C_ppcnt_per_tc(C, a, b, c)                                                          \
	C(a, b, c, transmit_queue, 0x00)                                                        \
	C(a, b, c, no_buffer_discard_uc, 0x08)

/* The counter groups as layouts of counter_set (offsets relative to PPCNT 08h). */
#define PRM_L_ppcnt_ieee_802_3(F, W, A, L) PRM_C_ppcnt_ieee_802_3(PRM_CNT_HL, F, L, 0x00)
#define PRM_L_ppcnt_rfc_2863(F, W, A, L) PRM_C_ppcnt_rfc_2863(PRM_CNT_HL, F, L, 0x00)
#define PRM_L_ppcnt_rfc_2819(F, W, A, L) PRM_C_ppcnt_rfc_2819(PRM_CNT_HL, F, L, 0x00)
#define PRM_L_ppcnt_rfc_3635(F, W, A, L) PRM_C_ppcnt_rfc_3635(PRM_CNT_HL, F, L, 0x00)
#define PRM_L_ppcnt_per_prio(F, W, A, L) PRM_C_ppcnt_per_prio(PRM_CNT_HL, F, L, 0x00)
#define PRM_L_ppcnt_per_tc(F, W, A, L) PRM_C_ppcnt_per_tc(PRM_CNT_HL, F, L, 0x00)

/* HOST_ENDIANNESS (0x7004): beyond PRM Rev 0.40, from the public mlx5 interface definitions
 * (struct mlx5_reg_host_endianness: he, one byte, then 15 reserved; D-VFIO-1). he 0x80: the
 * host is big-endian, 0: little-endian. */
#define PRM_R_host_endianness(F, W, A, L, B) F(L, he, B + 0x00, 31, 24)
#define PRM_L_host_endianness(F, W, A, L) PRM_R_host_endianness(F, W, A, L, 0x00)

/* ---- Whole-command views: ACCESS_REGISTER (PRM §12.4.1 T221-T224) with a register at 10h ---
 * The header rows are those of access_reg_in / access_reg_out (prm/layouts_init.h) without the
 * register_data[] array, which the register's own rows replace. */
#define PRM_ACCESS_REG_IN_HDR(F, L)                                                             \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, register_id, 0x08, 15, 0)                                                          \
	F(L, argument, 0x0C, 31, 0)
#define PRM_ACCESS_REG_OUT_HDR(F, L)                                                            \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

#define PRM_ACCESS_REG_IN(F, W, A, L, reg)                                                      \
	PRM_ACCESS_REG_IN_HDR(F, L) PRM_R_##reg(F, W, A, L, 0x10)
#define PRM_ACCESS_REG_OUT(F, W, A, L, reg)                                                     \
	PRM_ACCESS_REG_OUT_HDR(F, L) PRM_R_##reg(F, W, A, L, 0x10)
#define PRM_L_access_reg_pmtu_in(F, W, A, L) PRM_ACCESS_REG_IN(F, W, A, L, pmtu)
#define PRM_L_access_reg_pmtu_out(F, W, A, L) PRM_ACCESS_REG_OUT(F, W, A, L, pmtu)
#define PRM_L_access_reg_ptys_in(F, W, A, L) PRM_ACCESS_REG_IN(F, W, A, L, ptys)
#define PRM_L_access_reg_ptys_out(F, W, A, L) PRM_ACCESS_REG_OUT(F, W, A, L, ptys)
#define PRM_L_access_reg_paos_in(F, W, A, L) PRM_ACCESS_REG_IN(F, W, A, L, paos)
#define PRM_L_access_reg_paos_out(F, W, A, L) PRM_ACCESS_REG_OUT(F, W, A, L, paos)
#define PRM_L_access_reg_pfcc_in(F, W, A, L) PRM_ACCESS_REG_IN(F, W, A, L, pfcc)
#define PRM_L_access_reg_pfcc_out(F, W, A, L) PRM_ACCESS_REG_OUT(F, W, A, L, pfcc)
#define PRM_L_access_reg_host_endianness_in(F, W, A, L) PRM_ACCESS_REG_IN(F, W, A, L, host_endianness)
#define PRM_L_access_reg_host_endianness_out(F, W, A, L) PRM_ACCESS_REG_OUT(F, W, A, L, host_endianness)
/* PPCNT input: the index part (counter_set is read-only and reserved on input, T222). */
#define PRM_L_access_reg_ppcnt_in(F, W, A, L) PRM_ACCESS_REG_IN(F, W, A, L, ppcnt_hdr)
/* PPCNT output, one view per counter group: counter_set at 10h + 08h. */
#define PRM_ACCESS_REG_PPCNT_OUT(F, W, A, L, grp)                                               \
	PRM_ACCESS_REG_OUT(F, W, A, L, ppcnt_hdr) PRM_C_ppcnt_##grp(PRM_CNT_HL, F, L, 0x18)
#define PRM_L_access_reg_ppcnt_ieee_802_3_out(F, W, A, L)                                       \
	PRM_ACCESS_REG_PPCNT_OUT(F, W, A, L, ieee_802_3)
#define PRM_L_access_reg_ppcnt_rfc_2863_out(F, W, A, L)                                         \
	PRM_ACCESS_REG_PPCNT_OUT(F, W, A, L, rfc_2863)
#define PRM_L_access_reg_ppcnt_rfc_2819_out(F, W, A, L)                                         \
	PRM_ACCESS_REG_PPCNT_OUT(F, W, A, L, rfc_2819)
#define PRM_L_access_reg_ppcnt_rfc_3635_out(F, W, A, L)                                         \
	PRM_ACCESS_REG_PPCNT_OUT(F, W, A, L, rfc_3635)
#define PRM_L_access_reg_ppcnt_per_prio_out(F, W, A, L)                                         \
	PRM_ACCESS_REG_PPCNT_OUT(F, W, A, L, per_prio)
#define PRM_L_access_reg_ppcnt_per_tc_out(F, W, A, L) PRM_ACCESS_REG_PPCNT_OUT(F, W, A, L, per_tc)

#define NICREF_LAYOUTS_REGS(X)                                                                  \
	X(pmtu, 0x10, "PRM §11.1.1 T105/T106")                                                  \
	X(ptys, 0x40, "PRM §11.1.2 T107/T108")                                                  \
	X(paos, 0x10, "PRM §11.1.3 T109/T110")                                                  \
	X(pfcc, 0x20, "PRM §11.1.4 T111/T112")                                                  \
	X(host_endianness, 0x10, "beyond PRM Rev 0.40: public mlx5 interface (D-VFIO-1)")       \
	X(ppcnt, 0x100, "PRM §11.1.5 T113/T114")                                                \
	X(ppcnt_ieee_802_3, 0xF8, "PRM §11.1.5.1 T115/T116")                                    \
	X(ppcnt_rfc_2863, 0xF8, "PRM §11.1.5.2 T117/T118")                                      \
	X(ppcnt_rfc_2819, 0xF8, "PRM §11.1.5.3 T119/T120")                                      \
	X(ppcnt_rfc_3635, 0xF8, "PRM §11.1.5.4 T121/T122")                                      \
	X(ppcnt_per_prio, 0xF8, "PRM §11.1.5.5 T123/T124")                                      \
	X(ppcnt_per_tc, 0xF8, "PRM §11.1.5.6 T125/T126")                                        \
	X(access_reg_pmtu_in, 0x20, "PRM §12.4.1 T221/T222 + §11.1.1 T106 at 10h")              \
	X(access_reg_pmtu_out, 0x20, "PRM §12.4.1 T223/T224 + §11.1.1 T106 at 10h")             \
	X(access_reg_ptys_in, 0x50, "PRM §12.4.1 T221/T222 + §11.1.2 T108 at 10h")              \
	X(access_reg_ptys_out, 0x50, "PRM §12.4.1 T223/T224 + §11.1.2 T108 at 10h")             \
	X(access_reg_paos_in, 0x20, "PRM §12.4.1 T221/T222 + §11.1.3 T110 at 10h")              \
	X(access_reg_paos_out, 0x20, "PRM §12.4.1 T223/T224 + §11.1.3 T110 at 10h")             \
	X(access_reg_pfcc_in, 0x30, "PRM §12.4.1 T221/T222 + §11.1.4 T112 at 10h")              \
	X(access_reg_pfcc_out, 0x30, "PRM §12.4.1 T223/T224 + §11.1.4 T112 at 10h")             \
	X(access_reg_host_endianness_in, 0x20, "PRM §12.4.1 T221/T222 + HOST_ENDIANNESS at 10h") \
	X(access_reg_host_endianness_out, 0x20, "PRM §12.4.1 T223/T224 + HOST_ENDIANNESS at 10h") \
	X(access_reg_ppcnt_in, 0x110, "PRM §12.4.1 T221/T222 + §11.1.5 T114 at 10h")            \
	X(access_reg_ppcnt_ieee_802_3_out, 0x110,                                               \
	  "PRM §12.4.1 T223/T224 + §11.1.5 T114 at 10h + T116 at 18h")                            \
	X(access_reg_ppcnt_rfc_2863_out, 0x110,                                                 \
	  "PRM §12.4.1 T223/T224 + §11.1.5 T114 at 10h + T118 at 18h")                            \
	X(access_reg_ppcnt_rfc_2819_out, 0x110,                                                 \
	  "PRM §12.4.1 T223/T224 + §11.1.5 T114 at 10h + T120 at 18h")                            \
	X(access_reg_ppcnt_rfc_3635_out, 0x110,                                                 \
	  "PRM §12.4.1 T223/T224 + §11.1.5 T114 at 10h + T122 at 18h")                            \
	X(access_reg_ppcnt_per_prio_out, 0x110,                                                 \
	  "PRM §12.4.1 T223/T224 + §11.1.5 T114 at 10h + T124 at 18h")                            \
	X(access_reg_ppcnt_per_tc_out, 0x110,                                                   \
	  "PRM §12.4.1 T223/T224 + §11.1.5 T114 at 10h + T126 at 18h")

#endif
