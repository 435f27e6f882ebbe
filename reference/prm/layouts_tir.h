/* Layouts of the transport objects: TIR (PRM §7.5 T44-T48), TIS (§7.6 T49-T51), RQT (§7.8
 * T58/T59) and their commands (§12.8 T281-T296, §12.9 T298-T313, §12.12 T349-T364). Row
 * format: see prm/layouts.h.
 *
 * Each context is written once, PRM_R_<ctx>(F, W, A, L, B) with every offset "B + <PRM
 * offset>": B is 0 in the context layout itself and the context's offset in the commands that
 * carry it (20h, or 10h for QUERY_TIS, D-TIS-2), so vectors name context fields in a command
 * directly. The model reads and writes contexts through the context layouts at that offset. */
#ifndef NICREF_PRM_LAYOUTS_TIR_H
#define NICREF_PRM_LAYOUTS_TIR_H

/* PRM §7.5 T44/T45: TIR context, 58h-ECh reserved: F0h bytes (CREATE_TIR T282 gives it 1920
 * bits at 20h-10Ch). REC:
 * - T44 prints the 20h row's fields without bit positions; T45 (rx_hash_symmetric 20h[31],
 *   indirect_table 20h[23:0]) is followed.
 * - tunneled_offload_en, which T45 54h requires for the inner selector, is placed nowhere in
 *   T44; [PUB] mlx5 puts it at 20h[29], with 20h[30] reserved (D-TIR-2, D-TIR-8).
 * - T45 names the LRO size lro_max_msg_sz; T48 calls it lro_max_ip_payload_size.
 * The selectors are RX_HASH_FIELD_SELECT structures (T46/T47, layout rx_hash_field_select). */
#define PRM_R_tirc(F, W, A, L, B)                                                               \
	F(L, disp_type, B + 0x04, 31, 28)                                                       \
	F(L, lro_timeout_period_usecs, B + 0x10, 27, 12)                                        \
	F(L, lro_enable_mask, B + 0x10, 11, 8)                                                  \
	F(L, lro_max_msg_sz, B + 0x10, 7, 0)                                                    \
	F(L, inline_rqn, B + 0x1C, 23, 0)                                                       \
	F(L, rx_hash_symmetric, B + 0x20, 31, 31)                                               \
	F(L, tunneled_offload_en, B + 0x20, 29, 29)                                             \
	F(L, indirect_table, B + 0x20, 23, 0)                                                   \
	F(L, rx_hash_fn, B + 0x24, 31, 28)                                                      \
	F(L, self_lb_en, B + 0x24, 25, 24)                                                      \
	F(L, transport_domain, B + 0x24, 23, 0)                                                 \
	W(L, rx_hash_toeplitz_key, B + 0x28, 320)                                               \
	F(L, rx_hash_field_selector_outer, B + 0x50, 31, 0)                                     \
	F(L, rx_hash_field_selector_inner, B + 0x54, 31, 0)
#define PRM_L_tirc(F, W, A, L) PRM_R_tirc(F, W, A, L, 0x00)

/* PRM §7.5 T46/T47: RX_HASH_FIELD_SELECT. REC: the T46 grid spells l3_prot_type
 * "13_prot_type"; T47 is followed. selected_fields bits: 0 SRC_IP, 1 DST_IP, 2 L4_SPORT,
 * 3 L4_DPORT, 4 IPSEC_SPI, 5-29 reserved. */
#define PRM_L_rx_hash_field_select(F, W, A, L)                                                  \
	F(L, l3_prot_type, 0x00, 31, 31)                                                        \
	F(L, l4_prot_type, 0x00, 30, 30)                                                        \
	F(L, selected_fields, 0x00, 29, 0)

/* PRM §7.6 T49/T50: TIS context. The T49 grid runs to 9Ch: A0h bytes (T299: 1280 bits).
 * prio holds the Ethernet priority in prio[3:1] (D-TIS-3). */
#define PRM_R_tisc(F, W, A, L, B)                                                               \
	F(L, prio, B + 0x00, 19, 16)                                                            \
	F(L, transport_domain, B + 0x24, 23, 0)
#define PRM_L_tisc(F, W, A, L) PRM_R_tisc(F, W, A, L, 0x00)

/* PRM §7.8 T58/T59: RQT context: rqt_max_size, rqt_actual_size and rq_num[] from F0h, one
 * dword per entry with the RQN in bits 23:0 (the fixed part is F0h bytes; T350 counts 1952 bits,
 * the fixed part and one entry). */
#define PRM_R_rqtc(F, W, A, L, B)                                                               \
	F(L, rqt_max_size, B + 0x14, 15, 0)                                                     \
	F(L, rqt_actual_size, B + 0x18, 15, 0)                                                  \
	A(L, rq_num, B + 0xF0, 32)
#define PRM_L_rqtc(F, W, A, L) PRM_R_rqtc(F, W, A, L, 0x00)
/* One rq_num[] entry of T59 F0h: the RQN in bits 23:0, bits 31:24 reserved (the public mlx5
 * layout agrees: reserved_at_0[0x8], rq_num[0x18]). The handlers check each entry of a list
 * against it (D-RQT-4). */
#define PRM_L_rqt_entry(F, W, A, L) F(L, rq_num, 0x00, 23, 0)

/* Common command parts (T99-T102): input opcode/op_mod, output status/syndrome, and the
 * MODIFY bitmask 10h = modify_bitmask[63:32], 14h = modify_bitmask[31:0]. */
#define PRM_TIR_IN_HDR(F, L)                                                                    \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)
#define PRM_TIR_OUT_HDR(F, L)                                                                   \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)
#define PRM_TIR_BITMASK(F, L)                                                                   \
	F(L, modify_bitmask_63_32, 0x10, 31, 0)                                                 \
	F(L, modify_bitmask_31_0, 0x14, 31, 0)

/* ---- TIR commands (PRM §12.8) ---- */
/* T281/T282: CREATE_TIR input, context at 20h-10Ch. */
#define PRM_L_create_tir_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) PRM_R_tirc(F, W, A, L, 0x20)
/* T283/T284: CREATE_TIR output. */
#define PRM_L_create_tir_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L) F(L, tirn, 0x08, 23, 0)
/* T285/T286: MODIFY_TIR input: tirn, the bitmask (T48), context at 20h-10Ch. */
#define PRM_L_modify_tir_in(F, W, A, L)                                                         \
	PRM_TIR_IN_HDR(F, L)                                                                    \
	F(L, tirn, 0x08, 23, 0)                                                                 \
	PRM_TIR_BITMASK(F, L)                                                                   \
	PRM_R_tirc(F, W, A, L, 0x20)
/* T287/T288, T291/T292: MODIFY_TIR and DESTROY_TIR outputs (08h-0Ch reserved). */
#define PRM_L_modify_tir_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L)
#define PRM_L_destroy_tir_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L)
/* T289/T290, T293/T294: DESTROY_TIR and QUERY_TIR inputs. */
#define PRM_L_destroy_tir_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) F(L, tirn, 0x08, 23, 0)
#define PRM_L_query_tir_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) F(L, tirn, 0x08, 23, 0)
/* T295/T296: QUERY_TIR output, context at 20h-10Ch. */
#define PRM_L_query_tir_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L) PRM_R_tirc(F, W, A, L, 0x20)

/* ---- TIS commands (PRM §12.9) ---- */
/* T298/T299: CREATE_TIS input, context at 20h (1280 bits). */
#define PRM_L_create_tis_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) PRM_R_tisc(F, W, A, L, 0x20)
/* T300/T301: CREATE_TIS output. T301 spells the handle "tIsn". */
#define PRM_L_create_tis_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L) F(L, tisn, 0x08, 23, 0)
/* T302/T303: MODIFY_TIS input: tisn, the bitmask (T51), context at 20h. The prose mentions a
 * "TIS current state" input that no table places (D-TIS-1). */
#define PRM_L_modify_tis_in(F, W, A, L)                                                         \
	PRM_TIR_IN_HDR(F, L)                                                                    \
	F(L, tisn, 0x08, 23, 0)                                                                 \
	PRM_TIR_BITMASK(F, L)                                                                   \
	PRM_R_tisc(F, W, A, L, 0x20)
#define PRM_L_modify_tis_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L)
/* T306/T307: DESTROY_TIS input. T307 spells the handle "tisl". */
#define PRM_L_destroy_tis_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) F(L, tisn, 0x08, 23, 0)
#define PRM_L_destroy_tis_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L)
/* T310/T311: QUERY_TIS input. */
#define PRM_L_query_tis_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) F(L, tisn, 0x08, 23, 0)
/* T312/T313: QUERY_TIS output: the context at 10h, not 20h as in CREATE (D-TIS-2). */
#define PRM_L_query_tis_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L) PRM_R_tisc(F, W, A, L, 0x10)

/* ---- RQT commands (PRM §12.12) ---- */
/* T349/T350: CREATE_RQT input, context at 20h, rq_num[] from 110h. */
#define PRM_L_create_rqt_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) PRM_R_rqtc(F, W, A, L, 0x20)
/* T351/T352: CREATE_RQT output. */
#define PRM_L_create_rqt_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L) F(L, rqtn, 0x08, 23, 0)
/* T353/T354: MODIFY_RQT input: rqtn, the bitmask (bit 0: rqt_actual_size and the list),
 * context at 20h. */
#define PRM_L_modify_rqt_in(F, W, A, L)                                                         \
	PRM_TIR_IN_HDR(F, L)                                                                    \
	F(L, rqtn, 0x08, 23, 0)                                                                 \
	PRM_TIR_BITMASK(F, L)                                                                   \
	PRM_R_rqtc(F, W, A, L, 0x20)
#define PRM_L_modify_rqt_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L)
/* T357/T358, T361/T362: DESTROY_RQT and QUERY_RQT inputs. */
#define PRM_L_destroy_rqt_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) F(L, rqtn, 0x08, 23, 0)
#define PRM_L_destroy_rqt_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L)
#define PRM_L_query_rqt_in(F, W, A, L) PRM_TIR_IN_HDR(F, L) F(L, rqtn, 0x08, 23, 0)
/* T363/T364: QUERY_RQT output, context at 20h, rq_num[] from 110h. */
#define PRM_L_query_rqt_out(F, W, A, L) PRM_TIR_OUT_HDR(F, L) PRM_R_rqtc(F, W, A, L, 0x20)

#define NICREF_LAYOUTS_TIR(X)                                                                   \
	X(tirc, 0xF0, "PRM §7.5 T44/T45")                                                       \
	X(rx_hash_field_select, 0x04, "PRM §7.5 T46/T47")                                       \
	X(tisc, 0xA0, "PRM §7.6 T49/T50")                                                       \
	X(rqtc, 0xF0, "PRM §7.8 T58/T59")                                                       \
	X(rqt_entry, 0x04, "PRM §7.8 T59 F0h")                                                  \
	X(create_tir_in, 0x110, "PRM §12.8.1 T281/T282 + §7.5 T45 at 20h")                      \
	X(create_tir_out, 0x10, "PRM §12.8.1 T283/T284")                                        \
	X(modify_tir_in, 0x110, "PRM §12.8.2 T285/T286 + §7.5 T45 at 20h")                      \
	X(modify_tir_out, 0x10, "PRM §12.8.2 T287/T288")                                        \
	X(destroy_tir_in, 0x10, "PRM §12.8.3 T289/T290")                                        \
	X(destroy_tir_out, 0x10, "PRM §12.8.3 T291/T292")                                       \
	X(query_tir_in, 0x10, "PRM §12.8.4 T293/T294")                                          \
	X(query_tir_out, 0x110, "PRM §12.8.4 T295/T296 + §7.5 T45 at 20h")                      \
	X(create_tis_in, 0xC0, "PRM §12.9.1 T298/T299 + §7.6 T50 at 20h")                       \
	X(create_tis_out, 0x10, "PRM §12.9.1 T300/T301")                                        \
	X(modify_tis_in, 0xC0, "PRM §12.9.2 T302/T303 + §7.6 T50 at 20h")                       \
	X(modify_tis_out, 0x10, "PRM §12.9.2 T304/T305")                                        \
	X(destroy_tis_in, 0x10, "PRM §12.9.3 T306/T307")                                        \
	X(destroy_tis_out, 0x10, "PRM §12.9.3 T308/T309")                                       \
	X(query_tis_in, 0x10, "PRM §12.9.4 T310/T311")                                          \
	X(query_tis_out, 0xB0, "PRM §12.9.4 T312/T313 + §7.6 T50 at 10h")                       \
	X(create_rqt_in, 0x110, "PRM §12.12.1 T349/T350 + §7.8 T59 at 20h")                     \
	X(create_rqt_out, 0x10, "PRM §12.12.1 T351/T352")                                       \
	X(modify_rqt_in, 0x110, "PRM §12.12.2 T353/T354 + §7.8 T59 at 20h")                     \
	X(modify_rqt_out, 0x10, "PRM §12.12.2 T355/T356")                                       \
	X(destroy_rqt_in, 0x10, "PRM §12.12.3 T357/T358")                                       \
	X(destroy_rqt_out, 0x10, "PRM §12.12.3 T359/T360")                                      \
	X(query_rqt_in, 0x10, "PRM §12.12.4 T361/T362")                                         \
	X(query_rqt_out, 0x110, "PRM §12.12.4 T363/T364 + §7.8 T59 at 20h")

#endif
