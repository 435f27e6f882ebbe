/* Layouts of completion queues (PRM §7.12, §12.7) and of the UAR page (§7.2.2): the CQ
 * context, the CQ doorbell record, the doorbell registers and the CQ commands (the CQEs are in
 * prm/layouts_cqe.h). Row format: see prm/layouts.h; PRM_R_<name>(F, W, A, L, B) as in
 * prm/layouts_eq.h. */
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

/* PRM §7.12.2 T69/T70: CQ doorbell record (8-byte aligned). */
#define PRM_L_cq_dbr(F, W, A, L)                                                                \
	F(L, update_ci, 0x00, 23, 0)                                                            \
	F(L, cmd_sn, 0x04, 29, 28)                                                              \
	F(L, cmd, 0x04, 24, 24)                                                                 \
	F(L, arm_ci, 0x04, 23, 0)

/* PRM §7.2.2 T13/T14: UAR page. REC: the T13 grid is shifted and T14 gives widths only; the
 * CQ doorbell is cmds (cmd_sn) 20h[29:28], cmd 20h[24], cq_ci 20h[23:0] and cqn 24h[23:0]
 * (T14's widths 2/1/24/24 in that order; the public mlx5 driver writes sn << 28 | cmd | ci, then
 * cqn). The EQ doorbells carry eqn in 31:24 and the consumer index in 23:0; 40h
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

/* Beyond PRM Rev 0.40 (T76 and T261 reserve these bits): the UMEM fields of the public mlx5
 * interface, Linux include/linux/mlx5/mlx5_ifc.h cqc_bits (dbr_umem_valid cqc 00h[25],
 * dbr_umem_id cqc 04h) and create_cq_in_bits (cq_umem_offset 50h, 64 bits; cq_umem_id 58h;
 * cq_umem_valid 5Ch[31]). docs/umem.md D-UMEM-5, D-UMEM-6. */
#define PRM_R_create_cq_umem(F, W, A, L)                                                        \
	F(L, dbr_umem_valid, 0x10, 25, 25)                                                      \
	F(L, dbr_umem_id, 0x14, 31, 0)                                                          \
	W(L, cq_umem_offset, 0x50, 64)                                                          \
	F(L, cq_umem_id, 0x58, 31, 0)                                                           \
	F(L, cq_umem_valid, 0x5C, 31, 31)

/* PRM §12.7.1 T260/T261: CREATE_CQ input: CQC at 10h-4Fh, pas[] from 110h (50h-10Ch
 * reserved). */
#define PRM_L_create_cq_in(F, W, A, L)                                                          \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	PRM_R_cqc_sw(F, W, A, L, 0x10)                                                          \
	PRM_R_create_cq_umem(F, W, A, L)                                                        \
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
