/* Layouts of memory keys (PRM §6.4, §10.1) and the TPT commands (§12.5, T226-T241). Row format:
 * see prm/layouts.h.
 *
 * The MKey context is written once, PRM_R_mkc(F, W, A, L, B) with every offset "B + <PRM
 * offset>": B is 0 in the context layout itself (mkc) and 10h in CREATE_MKEY's input and
 * QUERY_MKEY's output, which carry it at 10h-4Ch, so vectors and `nicref decode` name context
 * fields in a command directly. */
#ifndef NICREF_PRM_LAYOUTS_MKEY_H
#define NICREF_PRM_LAYOUTS_MKEY_H

/* PRM §6.4.1 T9/T10: MKey Context. REC:
 * - The T9 grid puts the qpn/mkey[7:0] row at "04h 08h"; T10 (qpn 04h[31:8], mkey[7:0]
 *   04h[7:0]) is followed and 08h is reserved (T10 has no 08h row).
 * - The T9 grid spells umr_en "umtr en" and rw "r w"; T10 names them umr_en and rw.
 * - T9 runs to 3Ch: 40h bytes, the 512 bits CREATE_MKEY gives it (T227 10h-4Ch).
 * - "mkey[7:0]" is the variant part of the key (the tag), named mkey_7_0 here. */
#define PRM_R_mkc(F, W, A, L, B)                                                                \
	F(L, free, B + 0x00, 30, 30)                                                            \
	F(L, umr_en, B + 0x00, 15, 15)                                                          \
	F(L, rw, B + 0x00, 13, 13)                                                              \
	F(L, rr, B + 0x00, 12, 12)                                                              \
	F(L, lw, B + 0x00, 11, 11)                                                              \
	F(L, lr, B + 0x00, 10, 10)                                                              \
	F(L, access_mode, B + 0x00, 9, 8)                                                       \
	F(L, qpn, B + 0x04, 31, 8)                                                              \
	F(L, mkey_7_0, B + 0x04, 7, 0)                                                          \
	F(L, length64, B + 0x0C, 31, 31)                                                        \
	F(L, pd, B + 0x0C, 23, 0)                                                               \
	W(L, start_addr, B + 0x10, 64)                                                          \
	W(L, len, B + 0x18, 64)                                                                 \
	F(L, translations_octword_size, B + 0x34, 31, 0)                                        \
	F(L, log_entity_size, B + 0x38, 4, 0)
#define PRM_L_mkc(F, W, A, L) PRM_R_mkc(F, W, A, L, 0x00)

/* PRM §6.4.1 T11/T12: Memory Translation Table (MTT) entry, 8 bytes. REC: the T11 grid puts
 * rd_en/wr_en under bits 7/6; T12 (wr_en bit 1, rd_en bit 0) is followed. ptag bits below the
 * region's page size are not part of the tag (T12 "the size of the field depends on the page
 * size of the region"). With pg_access clear the entries are PASs (T138: pa_h, pa_l[31:12]). */
#define PRM_L_mtt_entry(F, W, A, L)                                                             \
	F(L, ptag_63_32, 0x00, 31, 0)                                                           \
	F(L, ptag_31_8, 0x04, 31, 8)                                                            \
	F(L, wr_en, 0x04, 1, 1)                                                                 \
	F(L, rd_en, 0x04, 0, 0)

/* PRM §7.4.4.1.3 T36/T37: UMR Memory Buffer (KLM) description, 16 bytes: byte_count (up to
 * 2 GB), mkey (the 32-bit key: index << 8 | tag), address[63:0] in two dwords ("addressH[63:32]",
 * "addressL[31:0]"). */
#define PRM_L_klm(F, W, A, L)                                                                   \
	F(L, byte_count, 0x00, 31, 0)                                                           \
	F(L, mkey, 0x04, 31, 0)                                                                 \
	F(L, address_h_63_32, 0x08, 31, 0)                                                      \
	F(L, address_l_31_0, 0x0C, 31, 0)

/* PRM §12.5.1 T226/T227: CREATE_MKEY input. The translation entries start at 110h ("klm /
 * pas/mtt[...]"; T226 numbers them per dword); here they are an array of 64-bit elements:
 * element i is MTT/PAS entry i, and KLM entry k is elements 2k (byte_count << 32 | mkey) and
 * 2k + 1 (address). 50h-5Ch and 64h-10Ch are reserved. */
#define PRM_L_create_mkey_in(F, W, A, L)                                                        \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, pg_access, 0x0C, 31, 31)                                                           \
	PRM_R_mkc(F, W, A, L, 0x10)                                                             \
	F(L, translations_octword_actual_size, 0x60, 31, 0)                                     \
	A(L, klm_pas_mtt, 0x110, 64)

/* PRM §12.5.1 T228/T229: CREATE_MKEY output. */
#define PRM_L_create_mkey_out(F, W, A, L)                                                       \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, mkey_index, 0x08, 23, 0)

/* PRM §12.5.2 T230/T231: QUERY_MKEY input. op_mod 0 PAS/KLMs, 2 BSFs. T230 spells pg_access
 * "pg access". */
#define PRM_L_query_mkey_in(F, W, A, L)                                                         \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, mkey_index, 0x08, 23, 0)                                                           \
	F(L, pg_access, 0x0C, 31, 31)

/* PRM §12.5.2 T232/T233: QUERY_MKEY output: the context at 10h-4Ch, the translation entries
 * from 110h ("bsf0/klm0/pas/mtt0-1" 110h-11Ch, ...), as 64-bit elements like the input's. */
#define PRM_L_query_mkey_out(F, W, A, L)                                                        \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	PRM_R_mkc(F, W, A, L, 0x10)                                                             \
	A(L, bsf_klm_pas_mtt, 0x110, 64)

/* PRM §12.5.3 T234-T237: DESTROY_MKEY. */
#define PRM_L_destroy_mkey_in(F, W, A, L)                                                       \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, mkey_index, 0x08, 23, 0)
#define PRM_L_destroy_mkey_out(F, W, A, L)                                                      \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.5.4 T238-T241: QUERY_SPECIAL_CONTEXTS. The T240 grid ends at 0Ch: 10h bytes. */
#define PRM_L_query_special_contexts_in(F, W, A, L)                                             \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)
#define PRM_L_query_special_contexts_out(F, W, A, L)                                            \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, resd_lkey, 0x0C, 31, 0)

#define NICREF_LAYOUTS_MKEY(X)                                                                  \
	X(mkc, 0x40, "PRM §6.4.1 T9/T10")                                                       \
	X(mtt_entry, 0x08, "PRM §6.4.1 T11/T12")                                                \
	X(klm, 0x10, "PRM §7.4.4.1.3 T36/T37")                                                  \
	X(create_mkey_in, 0x110, "PRM §12.5.1 T226/T227")                                       \
	X(create_mkey_out, 0x10, "PRM §12.5.1 T228/T229")                                       \
	X(query_mkey_in, 0x10, "PRM §12.5.2 T230/T231")                                         \
	X(query_mkey_out, 0x110, "PRM §12.5.2 T232/T233")                                       \
	X(destroy_mkey_in, 0x10, "PRM §12.5.3 T234/T235")                                       \
	X(destroy_mkey_out, 0x10, "PRM §12.5.3 T236/T237")                                      \
	X(query_special_contexts_in, 0x10, "PRM §12.5.4 T238/T239")                             \
	X(query_special_contexts_out, 0x10, "PRM §12.5.4 T240/T241")

#endif
