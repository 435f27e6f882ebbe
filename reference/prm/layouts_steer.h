/* Layouts of flow steering (PRM §7.11, §12.14 T383-T456): the match parameters (T407-T416), the
 * flow table context (T387/T388), the flow context (T429/T430), destination and flow counter
 * list entries (T433-T436), the traffic counter (T491), and the 14 commands' inputs and outputs.
 * Row format: see prm/layouts.h. Decisions: docs/steer.md (D-FT-*, D-FC-*).
 *
 * Each structure is written once, PRM_R_<s>(F, W, A, L, B[, P]) with every offset "B + <PRM
 * offset>" (B the structure's offset in the command that carries it) and, for the match sets,
 * the name prefix P (outer_/inner_), so vectors name nested fields in a command directly. */
#ifndef NICREF_PRM_LAYOUTS_STEER_H
#define NICREF_PRM_LAYOUTS_STEER_H

/* PRM §12.14.6 T409/T410: fte_match_set_lyr_2_4. REC:
 * - the T409 grid spells ip_ecn "ip_ece", frag "fragg" and drops cvlan_tag; T410 is followed
 *   (cvlan_tag 10h[15], svlan_tag 10h[14], frag 10h[13]).
 * - T410 gives the S-VLAN TPID as "0x8a88"; the IEEE 802.1ad TPID 0x88A8 is meant (D-FT-10).
 * - src_ip/dst_ip are 128 bits: the IPv6 address (T411/T412), or the IPv4 address in the last
 *   dword (T413/T414 0Ch) with the first 96 bits 0. 18h is reserved. */
#define PRM_R_match_lyr(F, W, A, L, B, P)                                                       \
	F(L, P##smac_47_16, B + 0x00, 31, 0)                                                    \
	F(L, P##smac_15_0, B + 0x04, 31, 16)                                                    \
	F(L, P##ethertype, B + 0x04, 15, 0)                                                     \
	F(L, P##dmac_47_16, B + 0x08, 31, 0)                                                    \
	F(L, P##dmac_15_0, B + 0x0C, 31, 16)                                                    \
	F(L, P##first_prio, B + 0x0C, 15, 13)                                                   \
	F(L, P##first_cfi, B + 0x0C, 12, 12)                                                    \
	F(L, P##first_vid, B + 0x0C, 11, 0)                                                     \
	F(L, P##ip_protocol, B + 0x10, 31, 24)                                                  \
	F(L, P##ip_dscp, B + 0x10, 23, 18)                                                      \
	F(L, P##ip_ecn, B + 0x10, 17, 16)                                                       \
	F(L, P##cvlan_tag, B + 0x10, 15, 15)                                                    \
	F(L, P##svlan_tag, B + 0x10, 14, 14)                                                    \
	F(L, P##frag, B + 0x10, 13, 13)                                                         \
	F(L, P##tcp_flags, B + 0x10, 8, 0)                                                      \
	F(L, P##tcp_sport, B + 0x14, 31, 16)                                                    \
	F(L, P##tcp_dport, B + 0x14, 15, 0)                                                     \
	F(L, P##udp_sport, B + 0x1C, 31, 16)                                                    \
	F(L, P##udp_dport, B + 0x1C, 15, 0)                                                     \
	W(L, P##src_ip, B + 0x20, 128)                                                          \
	W(L, P##dst_ip, B + 0x30, 128)

/* PRM §12.14.6 T415/T416: misc parameters. REC: every row of the T415 grid reads
 * "outer_second_vid"; T416 is followed. T416 describes outer_second_cfi/vid as "first VLAN
 * tag", a copy error: they are the second tag's (their names and their "Valid only when
 * outer_second_cvlan_tag" say so). The VXLAN VNI and GRE fields
 * of §7.11.2.1 have no position in Rev 0.40 and are not modelled (D-FT-2). */
#define PRM_R_match_misc(F, W, A, L, B)                                                         \
	F(L, outer_second_prio, B + 0x08, 31, 29)                                               \
	F(L, outer_second_cfi, B + 0x08, 28, 28)                                                \
	F(L, outer_second_vid, B + 0x08, 27, 16)                                                \
	F(L, outer_second_cvlan_tag, B + 0x0C, 31, 31)                                          \
	F(L, inner_second_cvlan_tag, B + 0x0C, 30, 30)                                          \
	F(L, outer_second_svlan_tag, B + 0x0C, 29, 29)                                          \
	F(L, outer_ipv6_flow_label, B + 0x1C, 19, 0)

/* PRM §12.14.6 T407/T408: fte_match_param, 200h bytes. REC: T408 lists only outer_headers
 * (00h) and misc_parameters (40h); the T407 grid leaves 80h-BCh unnamed, which T406's
 * match_criteria_enable bit 2 "inner_headers" names (D-FT-11); C0h-1FCh reserved. */
#define PRM_R_match_param(F, W, A, L, B)                                                        \
	PRM_R_match_lyr(F, W, A, L, B + 0x00, outer_)                                           \
	PRM_R_match_misc(F, W, A, L, B + 0x40)                                                  \
	PRM_R_match_lyr(F, W, A, L, B + 0x80, inner_)
#define PRM_L_fte_match_param(F, W, A, L) PRM_R_match_param(F, W, A, L, 0x00)

/* PRM §12.14.1 T387/T388: flow table context, 28h bytes (18h-3Ch of the commands). */
#define PRM_R_ftc(F, W, A, L, B)                                                                \
	F(L, table_miss_action, B + 0x00, 27, 24)                                               \
	F(L, level, B + 0x00, 23, 16)                                                           \
	F(L, log_size, B + 0x00, 7, 0)                                                          \
	F(L, table_miss_id, B + 0x04, 23, 0)
#define PRM_L_flow_table_context(F, W, A, L) PRM_R_ftc(F, W, A, L, 0x00)

/* PRM §12.14.9 T429/T430: flow context, 300h bytes and the destination / flow counter list
 * from 300h, 8 bytes an entry (T433/T435): list[2k] is entry k's first dword, list[2k + 1] its
 * reserved second. match_value 40h-23Ch (T407 at 40h). */
#define PRM_R_flow_ctx(F, W, A, L, B)                                                           \
	F(L, group_id, B + 0x04, 31, 0)                                                         \
	F(L, flow_tag, B + 0x08, 23, 0)                                                         \
	F(L, action, B + 0x0C, 15, 0)                                                           \
	F(L, destination_list_size, B + 0x10, 23, 0)                                            \
	F(L, flow_counter_list_size, B + 0x14, 23, 0)                                           \
	PRM_R_match_param(F, W, A, L, B + 0x40)                                                 \
	A(L, list, B + 0x300, 32)
#define PRM_L_flow_context(F, W, A, L) PRM_R_flow_ctx(F, W, A, L, 0x00)

/* PRM §12.14.9 T433/T434: a destination entry (1 FLOW_TABLE, 2 TIR). */
#define PRM_L_flow_destination(F, W, A, L)                                                      \
	F(L, destination_type, 0x00, 31, 24)                                                    \
	F(L, destination_id, 0x00, 23, 0)
/* PRM §12.14.9 T435/T436: a flow counter list entry. */
#define PRM_L_flow_counter_entry(F, W, A, L) F(L, flow_counter_id, 0x00, 15, 0)
/* The flow_statistics entry of QUERY_FLOW_COUNTER is TRAFFIC_COUNTER (PRM §12.17.1 T491),
 * layout traffic_counter of prm/layouts_vport.h. */

/* Common command parts (T99-T102) and the table a command names (T384 and its siblings:
 * table_type 10h[31:24], table_id 14h[23:0]). */
#define PRM_FT_IN_HDR(F, L)                                                                     \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)
#define PRM_FT_OUT_HDR(F, L)                                                                    \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)
#define PRM_FT_TABLE(F, L)                                                                      \
	F(L, table_type, 0x10, 31, 24)                                                          \
	F(L, table_id, 0x14, 23, 0)

/* ---- flow tables (PRM §12.14.1-§12.14.5) ---- */
/* T383/T384: CREATE_FLOW_TABLE input; the context at 18h. table_id is not an input. */
#define PRM_L_create_flow_table_in(F, W, A, L)                                                  \
	PRM_FT_IN_HDR(F, L) F(L, table_type, 0x10, 31, 24) PRM_R_ftc(F, W, A, L, 0x18)
/* T385/T386 */
#define PRM_L_create_flow_table_out(F, W, A, L) PRM_FT_OUT_HDR(F, L) F(L, table_id, 0x08, 23, 0)
/* T389/T390: MODIFY_FLOW_TABLE input: modify_field_select 0Ch[15:0] (bit 0 the miss action and
 * table), the table, the context at 18h. */
#define PRM_L_modify_flow_table_in(F, W, A, L)                                                  \
	PRM_FT_IN_HDR(F, L)                                                                     \
	F(L, modify_field_select, 0x0C, 15, 0)                                                  \
	PRM_FT_TABLE(F, L)                                                                      \
	PRM_R_ftc(F, W, A, L, 0x18)
#define PRM_L_modify_flow_table_out(F, W, A, L) PRM_FT_OUT_HDR(F, L)
/* T393-T396 */
#define PRM_L_destroy_flow_table_in(F, W, A, L) PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L)
#define PRM_L_destroy_flow_table_out(F, W, A, L) PRM_FT_OUT_HDR(F, L)
/* T397-T400 */
#define PRM_L_set_flow_table_root_in(F, W, A, L) PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L)
#define PRM_L_set_flow_table_root_out(F, W, A, L) PRM_FT_OUT_HDR(F, L)
/* T401-T404: QUERY_FLOW_TABLE; the output's context at 18h. */
#define PRM_L_query_flow_table_in(F, W, A, L) PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L)
#define PRM_L_query_flow_table_out(F, W, A, L) PRM_FT_OUT_HDR(F, L) PRM_R_ftc(F, W, A, L, 0x18)

/* ---- flow groups (PRM §12.14.6-§12.14.8) ---- */
/* T405/T406: CREATE_FLOW_GROUP input, 400h bytes (240h-3FCh reserved). */
#define PRM_R_fg(F, W, A, L)                                                                    \
	F(L, start_flow_index, 0x1C, 31, 0)                                                     \
	F(L, end_flow_index, 0x24, 31, 0)                                                       \
	F(L, match_criteria_enable, 0x3C, 7, 0)                                                 \
	PRM_R_match_param(F, W, A, L, 0x40)
#define PRM_L_create_flow_group_in(F, W, A, L) PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L) PRM_R_fg(F, W, A, L)
/* T417/T418 */
#define PRM_L_create_flow_group_out(F, W, A, L) PRM_FT_OUT_HDR(F, L) F(L, group_id, 0x08, 23, 0)
/* T419-T424: DESTROY_FLOW_GROUP, QUERY_FLOW_GROUP inputs: group_id 18h[31:0]. */
#define PRM_L_destroy_flow_group_in(F, W, A, L)                                                 \
	PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L) F(L, group_id, 0x18, 31, 0)
#define PRM_L_destroy_flow_group_out(F, W, A, L) PRM_FT_OUT_HDR(F, L)
#define PRM_L_query_flow_group_in(F, W, A, L)                                                   \
	PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L) F(L, group_id, 0x18, 31, 0)
/* T425/T426: QUERY_FLOW_GROUP output, 400h bytes, the group at the offsets of CREATE. */
#define PRM_L_query_flow_group_out(F, W, A, L) PRM_FT_OUT_HDR(F, L) PRM_R_fg(F, W, A, L)

/* ---- flow table entries (PRM §12.14.9-§12.14.11) ---- */
/* T427/T428: SET_FLOW_TABLE_ENTRY input: modify_enable_mask 18h[7:0], flow_index 20h, the flow
 * context at 40h (its list from 340h). */
#define PRM_L_set_flow_table_entry_in(F, W, A, L)                                               \
	PRM_FT_IN_HDR(F, L)                                                                     \
	PRM_FT_TABLE(F, L)                                                                      \
	F(L, modify_enable_mask, 0x18, 7, 0)                                                    \
	F(L, flow_index, 0x20, 31, 0)                                                           \
	PRM_R_flow_ctx(F, W, A, L, 0x40)
#define PRM_L_set_flow_table_entry_out(F, W, A, L) PRM_FT_OUT_HDR(F, L)
/* T437/T438, T441/T442 */
#define PRM_L_query_flow_table_entry_in(F, W, A, L)                                             \
	PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L) F(L, flow_index, 0x20, 31, 0)
/* T439/T440: the flow context at 40h. */
#define PRM_L_query_flow_table_entry_out(F, W, A, L) PRM_FT_OUT_HDR(F, L) PRM_R_flow_ctx(F, W, A, L, 0x40)
#define PRM_L_delete_flow_table_entry_in(F, W, A, L)                                            \
	PRM_FT_IN_HDR(F, L) PRM_FT_TABLE(F, L) F(L, flow_index, 0x20, 31, 0)
#define PRM_L_delete_flow_table_entry_out(F, W, A, L) PRM_FT_OUT_HDR(F, L)

/* ---- flow counters (PRM §12.14.12-§12.14.14) ---- */
/* T445-T448 */
#define PRM_L_alloc_flow_counter_in(F, W, A, L) PRM_FT_IN_HDR(F, L)
#define PRM_L_alloc_flow_counter_out(F, W, A, L)                                                \
	PRM_FT_OUT_HDR(F, L) F(L, flow_counter_id, 0x08, 15, 0)
/* T449-T452 */
#define PRM_L_dealloc_flow_counter_in(F, W, A, L)                                               \
	PRM_FT_IN_HDR(F, L) F(L, flow_counter_id, 0x08, 15, 0)
#define PRM_L_dealloc_flow_counter_out(F, W, A, L) PRM_FT_OUT_HDR(F, L)
/* T453/T454: QUERY_FLOW_COUNTER input. REC: T454 names num_of_counters ("clear ... Valid only
 * when number_of_flow_counter==0", "When num_of_counters!=0, must be aligned to 4") but no
 * table places it; [PUB] mlx5 puts it at 18h[15:0], beside clear 18h[31] (D-FC-3). */
#define PRM_L_query_flow_counter_in(F, W, A, L)                                                 \
	PRM_FT_IN_HDR(F, L)                                                                     \
	F(L, clear, 0x18, 31, 31)                                                               \
	F(L, num_of_counters, 0x18, 15, 0)                                                      \
	F(L, flow_counter_id, 0x1C, 15, 0)
/* T455/T456: flow_statistics[] from 10h, a TRAFFIC_COUNTER (T491) of 16 bytes per counter, as
 * 64-bit elements: [2k] packets, [2k + 1] octets of counter k. */
#define PRM_L_query_flow_counter_out(F, W, A, L) PRM_FT_OUT_HDR(F, L) A(L, flow_statistics, 0x10, 64)

#define NICREF_LAYOUTS_STEER(X)                                                                 \
	X(fte_match_param, 0x200, "PRM §12.14.6 T407-T416")                                     \
	X(flow_table_context, 0x28, "PRM §12.14.1 T387/T388")                                   \
	X(flow_context, 0x300, "PRM §12.14.9 T429/T430")                                        \
	X(flow_destination, 0x08, "PRM §12.14.9 T433/T434")                                     \
	X(flow_counter_entry, 0x08, "PRM §12.14.9 T435/T436")                                   \
	X(create_flow_table_in, 0x40, "PRM §12.14.1 T383/T384 + T387 at 18h")                   \
	X(create_flow_table_out, 0x10, "PRM §12.14.1 T385/T386")                                \
	X(modify_flow_table_in, 0x40, "PRM §12.14.2 T389/T390 + T387 at 18h")                   \
	X(modify_flow_table_out, 0x10, "PRM §12.14.2 T391/T392")                                \
	X(destroy_flow_table_in, 0x40, "PRM §12.14.3 T393/T394")                                \
	X(destroy_flow_table_out, 0x10, "PRM §12.14.3 T395/T396")                               \
	X(set_flow_table_root_in, 0x40, "PRM §12.14.4 T397/T398")                               \
	X(set_flow_table_root_out, 0x10, "PRM §12.14.4 T399/T400")                              \
	X(query_flow_table_in, 0x40, "PRM §12.14.5 T401/T402")                                  \
	X(query_flow_table_out, 0x40, "PRM §12.14.5 T403/T404 + T387 at 18h")                   \
	X(create_flow_group_in, 0x400, "PRM §12.14.6 T405/T406 + T407 at 40h")                  \
	X(create_flow_group_out, 0x10, "PRM §12.14.6 T417/T418")                                \
	X(destroy_flow_group_in, 0x40, "PRM §12.14.7 T419/T420")                                \
	X(destroy_flow_group_out, 0x10, "PRM §12.14.7 T421/T422")                               \
	X(query_flow_group_in, 0x40, "PRM §12.14.8 T423/T424")                                  \
	X(query_flow_group_out, 0x400, "PRM §12.14.8 T425/T426 + T407 at 40h")                  \
	X(set_flow_table_entry_in, 0x340, "PRM §12.14.9 T427/T428 + T429 at 40h")               \
	X(set_flow_table_entry_out, 0x10, "PRM §12.14.9 T431/T432")                             \
	X(query_flow_table_entry_in, 0x40, "PRM §12.14.10 T437/T438")                           \
	X(query_flow_table_entry_out, 0x340, "PRM §12.14.10 T439/T440 + T429 at 40h")           \
	X(delete_flow_table_entry_in, 0x40, "PRM §12.14.11 T441/T442")                          \
	X(delete_flow_table_entry_out, 0x10, "PRM §12.14.11 T443/T444")                         \
	X(alloc_flow_counter_in, 0x10, "PRM §12.14.12 T445/T446")                               \
	X(alloc_flow_counter_out, 0x10, "PRM §12.14.12 T447/T448")                              \
	X(dealloc_flow_counter_in, 0x10, "PRM §12.14.13 T449/T450")                             \
	X(dealloc_flow_counter_out, 0x10, "PRM §12.14.13 T451/T452")                            \
	X(query_flow_counter_in, 0x20, "PRM §12.14.14 T453/T454")                               \
	X(query_flow_counter_out, 0x20, "PRM §12.14.14 T455/T456 + T491 at 10h")

#endif
