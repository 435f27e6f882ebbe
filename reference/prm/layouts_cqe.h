/* Layouts of completion queue entries (PRM §7.12.1.1, §7.12.6, §7.12.7): the CQE in its 64- and
 * 128-byte forms, the completion-with-error CQE and the Resize CQE. The device writes every CQE
 * field through these rows (obj/cq_post.c, obj/wq.c), and `nicref decode cqe64 HEX` prints a
 * CQE field by field. Row format: see prm/layouts.h; PRM_R_<name>(F, W, A, L, B) as in
 * prm/layouts_eq.h. */
#ifndef NICREF_PRM_LAYOUTS_CQE_H
#define NICREF_PRM_LAYOUTS_CQE_H

/* PRM §7.12.1.1 T67/T68: the 64-byte CQE, requester and responder fields alike (T68 marks which
 * side fills each). REC: T68 gives widths, not positions, and the T67 grid is shifted; positions
 * are the T67 rows packed with the T68 widths. The T67 grid has no cell for
 * l4_ok/l3_ok/l2_ok (T68 describes them): 1Ch[26:24] [PUB]. Names shared by two uses keep the
 * T67 grid's first name: timestamp_h / timestamp_l are lro_timestamp_value / lro_timestamp_echo
 * when lro_timestamp_is_valid (T68), s_wqe_opcode is rx_drop_counter in a responder CQE (T68),
 * srqn_user_index is the T67 "srqn/user_index". The T67 grid spells cfi "cfl" and the T68 row
 * lro_timestamp_is_valid "lro_time-stamp_is_valid". T68 cqe_format 1 puts inline data in
 * 00h-1Fh over these fields; the device never writes it (docs/cq.md). */
#define PRM_R_cqe64(F, W, A, L, B)                                                              \
	F(L, lro_timestamp_is_valid, B + 0x04, 31, 31)                                          \
	F(L, lro_tcp_psh, B + 0x04, 30, 30)                                                     \
	F(L, lro_abrt, B + 0x04, 29, 28)                                                        \
	F(L, lro_dup_ack_cnt, B + 0x04, 27, 24)                                                 \
	F(L, lro_min_ttl, B + 0x04, 23, 16)                                                     \
	F(L, lro_tcp_win, B + 0x04, 15, 0)                                                      \
	F(L, lro_ack_seq_num, B + 0x08, 31, 0)                                                  \
	F(L, rx_hash_result, B + 0x0C, 31, 0)                                                   \
	F(L, rx_hash_type, B + 0x10, 31, 24)                                                    \
	F(L, checksum, B + 0x14, 31, 16)                                                        \
	F(L, l4_ok, B + 0x1C, 26, 26)                                                           \
	F(L, l3_ok, B + 0x1C, 25, 25)                                                           \
	F(L, l2_ok, B + 0x1C, 24, 24)                                                           \
	F(L, ip_frag, B + 0x1C, 23, 23)                                                         \
	F(L, l4_hdr_type, B + 0x1C, 22, 20)                                                     \
	F(L, l3_hdr_type, B + 0x1C, 19, 18)                                                     \
	F(L, ip_ext_opts, B + 0x1C, 17, 17)                                                     \
	F(L, cv, B + 0x1C, 16, 16)                                                              \
	F(L, up, B + 0x1C, 15, 13)                                                              \
	F(L, cfi, B + 0x1C, 12, 12)                                                             \
	F(L, vid, B + 0x1C, 11, 0)                                                              \
	F(L, lro_num_seg, B + 0x20, 31, 24)                                                     \
	F(L, srqn_user_index, B + 0x20, 23, 0)                                                  \
	F(L, byte_cnt, B + 0x2C, 31, 0)                                                         \
	F(L, timestamp_h, B + 0x30, 31, 0)                                                      \
	F(L, timestamp_l, B + 0x34, 31, 0)                                                      \
	F(L, s_wqe_opcode, B + 0x38, 31, 24)                                                    \
	F(L, flow_tag, B + 0x38, 23, 0)                                                         \
	F(L, wqe_counter, B + 0x3C, 31, 16)                                                     \
	F(L, signature, B + 0x3C, 15, 8)                                                        \
	F(L, opcode, B + 0x3C, 7, 4)                                                            \
	F(L, cqe_format, B + 0x3C, 3, 2)                                                        \
	F(L, se, B + 0x3C, 1, 1)                                                                \
	F(L, owner, B + 0x3C, 0, 0)
#define PRM_L_cqe64(F, W, A, L) PRM_R_cqe64(F, W, A, L, 0x00)

/* The 128-byte CQE (T76 cqe_sz 1). Rev 0.40 prints no layout for it: T68 cqe_format 2 names
 * "the data_64 segment of the CQE (additional 64B)", and D-CQE-2 (docs/cq.md; the public mlx5
 * convention) puts that segment first and the 64-byte CQE of T67 in bytes 40h-7Fh, so that
 * owner and opcode are the entry's last byte whatever its size. The device never inlines data
 * (cqe_format 0): it writes data_64 as zeros. */
#define PRM_L_cqe128(F, W, A, L) W(L, data_64, 0x00, 512) PRM_R_cqe64(F, W, A, L, 0x40)

/* PRM §7.12.7 T73/T74: completion with error CQE (opcode 13 requester, 14 responder), 64 bytes;
 * in a 128-byte CQE it is the second half, as above. The T73 grid calls the user index
 * "usr_index" and gives it no bits: 20h[23:0], where T67 has it; wqe_id (00h[15:0]) appears
 * only in the grid. */
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

#define NICREF_LAYOUTS_CQE(X)                                                                   \
	X(cqe64, 0x40, "PRM §7.12.1.1 T67/T68")                                                 \
	X(cqe128, 0x80, "PRM §7.12.1.1 T67/T68 at 40h after T68's data_64 (D-CQE-2)")           \
	X(err_cqe, 0x40, "PRM §7.12.7 T73/T74")                                                 \
	X(resize_cqe, 0x40, "PRM §7.12.6 T72")

#endif
