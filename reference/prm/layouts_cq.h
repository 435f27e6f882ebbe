/* Layouts of completion queues (PRM §7.12, §12.7) and of the UAR page (§7.2.2): the CQ
 * context, the CQEs, the CQ doorbell record, the doorbell registers and the CQ commands. Row
 * format: see prm/layouts.h; PRM_R_<name>(F, W, A, L, B) as in prm/layouts_eq.h. */
#ifndef NICREF_PRM_LAYOUTS_CQ_H
#define NICREF_PRM_LAYOUTS_CQ_H

/* PRM §7.12.8 T75/T76: Completion Queue Context, the fields software writes at CREATE_CQ.
 * REC: T76 prints st at "0Ch", colliding with log_cq_size/uar_page; the T75 grid row 00h is
 * followed (st 00h[11:8], device-owned: see cqc). T76's page_offset row is shifted by one
 * column ("08h | 11:6 | page_offset | Must be 0"). T76 spells cq_max_count "cq_max-count" and
 * the T75 grid "scqce break moderation en". consumer_counter "must be 0x0 in CQ
 * initialization": a field, checked by CREATE_CQ. */
#define PRM_R_cqc_sw(F, W, A, L, B)                                                             \
	F(L, cqe_sz, B + 0x00, 23, 21)                                                          \
	F(L, cc, B + 0x00, 20, 20)                                                              \
	F(L, scqe_break_moderation_en, B + 0x00, 18, 18)                                        \
	F(L, oi, B + 0x00, 17, 17)                                                              \
	F(L, cq_period_mode, B + 0x00, 16, 15)                                                  \
	F(L, cqe_compression_en, B + 0x00, 14, 14)                                              \
	F(L, mini_cqe_res_format, B + 0x00, 13, 12)                                             \
	F(L, page_offset, B + 0x08, 11, 6)                                                      \
	F(L, log_cq_size, B + 0x0C, 28, 24)                                                     \
	F(L, uar_page, B + 0x0C, 23, 0)                                                         \
	F(L, cq_period, B + 0x10, 27, 16)                                                       \
	F(L, cq_max_count, B + 0x10, 15, 0)                                                     \
	F(L, c_eqn, B + 0x14, 7, 0)                                                             \
	F(L, log_page_size, B + 0x18, 28, 24)                                                   \
	F(L, consumer_counter, B + 0x28, 23, 0)                                                 \
	W(L, dbr_addr, B + 0x38, 64)

/* The whole CQC (QUERY_CQ, MODIFY_CQ): status and st are "valid for the QUERY_CQ" only,
 * last_notified_index / last_solicit_index / producer_counter are "maintained by HW" (T76).
 * status is named cq_status so that the command views, whose header has a status, can hold the
 * context. */
#define PRM_R_cqc(F, W, A, L, B)                                                                \
	F(L, cq_status, B + 0x00, 31, 28)                                                       \
	F(L, st, B + 0x00, 11, 8)                                                               \
	F(L, last_notified_index, B + 0x20, 23, 0)                                              \
	F(L, last_solicit_index, B + 0x24, 23, 0)                                               \
	F(L, producer_counter, B + 0x2C, 23, 0)                                                 \
	PRM_R_cqc_sw(F, W, A, L, B)
#define PRM_L_cqc(F, W, A, L) PRM_R_cqc(F, W, A, L, 0x00)

/* PRM §7.12.1.1 T67/T68: the 64-byte CQE. REC: T68 gives widths, not positions, and the T67
 * grid is shifted; positions are the T67 rows packed with the T68 widths (spec-map §3.3). The
 * T67 grid has no cell for l4_ok/l3_ok/l2_ok (T68 describes them): 1Ch[26:24] [PUB]. Names
 * shared by two uses keep the T67 grid's first name: timestamp_h / timestamp_l are
 * lro_timestamp_value / lro_timestamp_echo when lro_timestamp_is_valid (T68), s_wqe_opcode is
 * rx_drop_counter in a responder CQE (T68), srqn_user_index is the T67 "srqn/user_index". The
 * T67 grid spells cfi "cfl" and the T68 row lro_timestamp_is_valid "lro_time-stamp_is_valid". */
#define PRM_L_cqe(F, W, A, L)                                                                   \
	F(L, lro_timestamp_is_valid, 0x04, 31, 31)                                              \
	F(L, lro_tcp_psh, 0x04, 30, 30)                                                         \
	F(L, lro_abrt, 0x04, 29, 28)                                                            \
	F(L, lro_dup_ack_cnt, 0x04, 27, 24)                                                     \
	F(L, lro_min_ttl, 0x04, 23, 16)                                                         \
	F(L, lro_tcp_win, 0x04, 15, 0)                                                          \
	F(L, lro_ack_seq_num, 0x08, 31, 0)                                                      \
	F(L, rx_hash_result, 0x0C, 31, 0)                                                       \
	F(L, rx_hash_type, 0x10, 31, 24)                                                        \
	F(L, checksum, 0x14, 31, 16)                                                            \
	F(L, l4_ok, 0x1C, 26, 26)                                                               \
	F(L, l3_ok, 0x1C, 25, 25)                                                               \
	F(L, l2_ok, 0x1C, 24, 24)                                                               \
	F(L, ip_frag, 0x1C, 23, 23)                                                             \
	F(L, l4_hdr_type, 0x1C, 22, 20)                                                         \
	F(L, l3_hdr_type, 0x1C, 19, 18)                                                         \
	F(L, ip_ext_opts, 0x1C, 17, 17)                                                         \
	F(L, cv, 0x1C, 16, 16)                                                                  \
	F(L, up, 0x1C, 15, 13)                                                                  \
	F(L, cfi, 0x1C, 12, 12)                                                                 \
	F(L, vid, 0x1C, 11, 0)                                                                  \
	F(L, lro_num_seg, 0x20, 31, 24)                                                         \
	F(L, srqn_user_index, 0x20, 23, 0)                                                      \
	F(L, byte_cnt, 0x2C, 31, 0)                                                             \
	F(L, timestamp_h, 0x30, 31, 0)                                                          \
	F(L, timestamp_l, 0x34, 31, 0)                                                          \
	F(L, s_wqe_opcode, 0x38, 31, 24)                                                        \
	F(L, flow_tag, 0x38, 23, 0)                                                             \
	F(L, wqe_counter, 0x3C, 31, 16)                                                         \
	F(L, signature, 0x3C, 15, 8)                                                            \
	F(L, opcode, 0x3C, 7, 4)                                                                \
	F(L, cqe_format, 0x3C, 3, 2)                                                            \
	F(L, se, 0x3C, 1, 1)                                                                    \
	F(L, owner, 0x3C, 0, 0)

/* PRM §7.12.7 T73/T74: completion with error CQE (opcode 13 requester, 14 responder). The T73
 * grid calls the user index "usr_index"; wqe_id (00h[15:0]) appears only in the grid. */
#define PRM_L_err_cqe(F, W, A, L)                                                               \
	F(L, wqe_id, 0x00, 15, 0)                                                               \
	F(L, srqn_user_index, 0x20, 23, 0)                                                      \
	F(L, byte_cnt, 0x2C, 31, 0)                                                             \
	F(L, vendor_error_syndrome, 0x34, 15, 8)                                                \
	F(L, syndrome, 0x34, 7, 0)                                                              \
	F(L, s_wqe_opcode, 0x38, 31, 24)                                                        \
	F(L, flow_tag, 0x38, 23, 0)                                                             \
	F(L, wqe_counter, 0x3C, 31, 16)                                                         \
	F(L, signature, 0x3C, 15, 8)                                                            \
	F(L, opcode, 0x3C, 7, 4)                                                                \
	F(L, owner, 0x3C, 0, 0)

/* PRM §7.12.6 T72: the Resize CQE. T72 names only owner and Signature; the opcode (5h) is in
 * the §7.12.6 text and sits where every CQE has it (T67). */
#define PRM_L_resize_cqe(F, W, A, L)                                                            \
	F(L, signature, 0x3C, 15, 8)                                                            \
	F(L, opcode, 0x3C, 7, 4)                                                                \
	F(L, owner, 0x3C, 0, 0)

/* PRM §7.12.2 T69/T70: CQ doorbell record (8-byte aligned). */
#define PRM_L_cq_dbr(F, W, A, L)                                                                \
	F(L, update_ci, 0x00, 23, 0)                                                            \
	F(L, cmd_sn, 0x04, 29, 28)                                                              \
	F(L, cmd, 0x04, 24, 24)                                                                 \
	F(L, arm_ci, 0x04, 23, 0)

/* PRM §7.2.2 T13/T14: UAR page. REC: the T13 grid is shifted and T14 gives widths only; the
 * CQ doorbell is cmds (cmd_sn) 20h[29:28], cmd 20h[24], cq_ci 20h[23:0] and cqn 24h[23:0]
 * (spec-map §3.6). The EQ doorbells carry eqn in 31:24 and the consumer index in 23:0; 40h
 * updates CI and arms, 48h updates CI only. T13 prints the first Blue Flame buffer as
 * "800-0FCh" (800h-8FCh meant); registers 2 and 3 (C00h-FFFh, "fast path", §7.2.2.1) have no
 * rows in T13. */
#define PRM_L_uar_page(F, W, A, L)                                                              \
	F(L, cmd_sn, 0x20, 29, 28)                                                              \
	F(L, cmd, 0x20, 24, 24)                                                                 \
	F(L, cq_ci, 0x20, 23, 0)                                                                \
	F(L, cqn, 0x24, 23, 0)                                                                  \
	F(L, eqn_arm, 0x40, 31, 24)                                                             \
	F(L, eq_ci_arm, 0x40, 23, 0)                                                            \
	F(L, eqn, 0x48, 31, 24)                                                                 \
	F(L, eq_ci, 0x48, 23, 0)                                                                \
	W(L, db_blueflame_buffer0_even, 0x800, 2048)                                            \
	W(L, db_blueflame_buffer0_odd, 0x900, 2048)                                             \
	W(L, db_blueflame_buffer1_even, 0xA00, 2048)                                            \
	W(L, db_blueflame_buffer1_odd, 0xB00, 2048)

/* PRM §12.7.1 T260/T261: CREATE_CQ input: CQC at 10h-4Fh, pas[] from 110h (50h-10Ch
 * reserved). */
#define PRM_L_create_cq_in(F, W, A, L)                                                          \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	PRM_R_cqc_sw(F, W, A, L, 0x10)                                                          \
	A(L, pas, 0x110, 64)

/* PRM §12.7.1 T262/T263: CREATE_CQ output. */
#define PRM_L_create_cq_out(F, W, A, L)                                                         \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, cqn, 0x08, 23, 0)

/* PRM §12.7.2 T264/T265 and §12.7.3 T268/T269: DESTROY_CQ / QUERY_CQ input. */
#define PRM_L_destroy_cq_in(F, W, A, L)                                                         \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, cqn, 0x08, 23, 0)
#define PRM_L_query_cq_in(F, W, A, L) PRM_L_destroy_cq_in(F, W, A, L)

/* PRM §12.7.2 T266/T267 and §12.7.4 T278/T279: status and syndrome only. */
#define PRM_L_destroy_cq_out(F, W, A, L)                                                        \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)
#define PRM_L_modify_cq_out(F, W, A, L) PRM_L_destroy_cq_out(F, W, A, L)

/* PRM §12.7.3 T270/T271: QUERY_CQ output: the whole CQC and pas[]. */
#define PRM_L_query_cq_out(F, W, A, L)                                                          \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	PRM_R_cqc(F, W, A, L, 0x10)                                                             \
	A(L, pas, 0x110, 64)

/* PRM §12.7.4 T272-T277: MODIFY_CQ input. 0Ch is modify_field_select (op_mod 0, T275: bit 0
 * cq_period, 1 cq_max_count, 2 oi, 3 c_eqn) or resize_field_select (op_mod 1, T277: bit 0
 * log_cq_size, 1 page_offset, 2 log_page_size). The CQC is the whole context (its fields that
 * are not selected are ignored); pas[] is "valid only for resize_cq". */
#define PRM_L_modify_cq_in(F, W, A, L)                                                          \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, cqn, 0x08, 23, 0)                                                                  \
	F(L, field_select, 0x0C, 31, 0)                                                         \
	PRM_R_cqc(F, W, A, L, 0x10)                                                             \
	A(L, pas, 0x110, 64)

#define NICREF_LAYOUTS_CQ(X)                                                                    \
	X(cqc, 0x40, "PRM §7.12.8 T75/T76")                                                     \
	X(cqe, 0x40, "PRM §7.12.1.1 T67/T68")                                                   \
	X(err_cqe, 0x40, "PRM §7.12.7 T73/T74")                                                 \
	X(resize_cqe, 0x40, "PRM §7.12.6 T72")                                                  \
	X(cq_dbr, 0x08, "PRM §7.12.2 T69/T70")                                                  \
	X(uar_page, 0x1000, "PRM §7.2.2 T13/T14")                                               \
	X(create_cq_in, 0x110, "PRM §12.7.1 T260/T261 + §7.12.8 T76 at 10h")                    \
	X(create_cq_out, 0x10, "PRM §12.7.1 T262/T263")                                         \
	X(destroy_cq_in, 0x10, "PRM §12.7.2 T264/T265")                                         \
	X(destroy_cq_out, 0x10, "PRM §12.7.2 T266/T267")                                        \
	X(query_cq_in, 0x10, "PRM §12.7.3 T268/T269")                                           \
	X(query_cq_out, 0x110, "PRM §12.7.3 T270/T271 + §7.12.8 T76 at 10h")                    \
	X(modify_cq_in, 0x110, "PRM §12.7.4 T272-T277 + §7.12.8 T76 at 10h")                    \
	X(modify_cq_out, 0x10, "PRM §12.7.4 T278/T279")

#endif
