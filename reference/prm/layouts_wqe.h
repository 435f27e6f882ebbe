/* Layouts of the send WQE segments (PRM §7.4.4.1, T25-T39) and the receive data segment (T40),
 * one layout per segment, rows as the PRM field tables print them. The send engine (eth/)
 * reads every WQE field through these rows, vectors write WQEs by these names, and
 * `nicref decode send_wqe_eth HEX` prints a segment field by field. Row format: see
 * prm/layouts.h.
 *
 * A send WQE is a run of 16-byte segments in the order of §7.4.4.1 (T41): ctrl, then Eth
 * (SEND, LSO) or the UMR control segment, the MKey context and the translations (UMR), then the
 * data segments. Two segments of §7.4.4.1.3 are declared with the MKeys they describe
 * (prm/layouts_mkey.h): the UMR WQE's MKeyCtx segment is the MKey context `mkc` (T9/T10, "See
 * Table 9"), and its inline KLMs are `klm` (T36/T37); MTT entries are `mtt_entry` (T11/T12). */
#ifndef NICREF_PRM_LAYOUTS_WQE_H
#define NICREF_PRM_LAYOUTS_WQE_H

/* PRM §7.4.4.1.1 T25/T26: the general ctrl segment; its dwords 0-1 are the send doorbell
 * (§7.2.2 "the first 8 bytes of the WQE"). REC: the T25 grid splits the bit header; T26 is
 * followed (00h[31:24] and 04h[7:6] reserved). T26 names 0Ch "invalidation_key/umr_mkey": the
 * only use Rev 0.40 gives it is the UMR MKey. */
#define PRM_L_send_wqe_ctrl(F, W, A, L)                                                         \
	F(L, wqe_index, 0x00, 23, 8)                                                            \
	F(L, opcode, 0x00, 7, 0)                                                                \
	F(L, sq_number, 0x04, 31, 8)                                                            \
	F(L, ds, 0x04, 5, 0)                                                                    \
	F(L, signature, 0x08, 31, 24)                                                           \
	F(L, fm, 0x08, 7, 5)                                                                    \
	F(L, ce, 0x08, 3, 2)                                                                    \
	F(L, se, 0x08, 1, 1)                                                                    \
	F(L, umr_mkey, 0x0C, 31, 0)

/* PRM §7.4.4.1.2 T27/T28: the Eth segment, 16 bytes, then the inline headers. T28 puts the
 * first two header bytes in 0Ch[15:0] and the rest in the octwords from 10h ("inline_headers
 * cont'd"; "The last octoword ... can be partially populated"): an array of bytes here, so the
 * segment's size is 16 + the octwords the headers past the first two take. 00h and 08h are
 * reserved (T28 08h "reserved"; T27 leaves 00h blank). */
#define PRM_L_send_wqe_eth(F, W, A, L)                                                          \
	F(L, l4cs, 0x04, 31, 31)                                                                \
	F(L, l3cs, 0x04, 30, 30)                                                                \
	F(L, mss, 0x04, 13, 0)                                                                  \
	F(L, inline_header_size, 0x0C, 25, 16)                                                  \
	F(L, inline_headers, 0x0C, 15, 0)                                                       \
	A(L, inline_headers_cont_d, 0x10, 8)

/* PRM §7.4.4.1.2 T29/T30: the Padding segment. T30 prints one row, "00h-0Ch 31:0 Reserved":
 * a 128-bit row of that name, so the segment can be written and decoded. */
#define PRM_L_send_wqe_pad(F, W, A, L) W(L, reserved, 0x00, 128)

/* PRM §7.4.4.1.3 T32/T33: the UMR control segment, at 10h-3Fh of a UMR WQE (T31). REC: the T32
 * grid repeats "4h" on two rows; T33 is followed. The MkeyCtx bit mask is 08h-0Ch, 64 bits,
 * its bit 0 the least significant bit of dword 0Ch (T33 numbers the bits of one mask: 0 len,
 * 1 log_page_size, 6 start_addr, 13 mkey[7:0], 17 lr, 18 lw, 19 rr, 20 rw, 29 free).
 * T33 spells translation_octword_actual_size "translation_octword_ac-tual_size" and check_free
 * "Check_free". 10h-2Ch are reserved. */
#define PRM_L_send_wqe_umr_ctrl(F, W, A, L)                                                     \
	F(L, inline, 0x00, 31, 31)                                                              \
	F(L, check_free, 0x00, 30, 29)                                                          \
	F(L, translation_offset_en, 0x00, 28, 28)                                               \
	F(L, translation_octword_actual_size, 0x04, 31, 16)                                     \
	F(L, translation_offset, 0x04, 15, 0)                                                   \
	W(L, mkeyctx_bit_mask, 0x08, 64)

/* PRM §7.4.4.1.3 T34/T35: the UMR pointer to the KLMs/MTTs (inline = 0), 16 bytes at 80h of a
 * UMR WQE (T31). T35 is mis-titled "UMR Control Segment Fields" and gives 04h mkey, 08h
 * addressH[63:32], 0Ch addressL[31:0]; 00h is reserved. Names as the KLM's (T37). "The address
 * of the UMR pointer must be aligned to 2KB." */
#define PRM_L_send_wqe_umr_pointer(F, W, A, L)                                                  \
	F(L, mkey, 0x04, 31, 0)                                                                 \
	F(L, address_h_63_32, 0x08, 31, 0)                                                      \
	F(L, address_l_31_0, 0x0C, 31, 0)

/* PRM §7.4.4.1.4 T38: the memory-pointer data segment. T38 is a grid only: Byte Count[30:0]
 * 00h, L_key 04h, Local address[63:32] 08h, [31:0] 0Ch. Bit 31 of 00h is the segment kind
 * ("distinguished by the value of bit 31 at offset 0": 0 here, 1 for inline data, T39), named
 * `inline` in both layouts [REC: the grid gives the bit no name]. A byte count of 0 means 2 GB. */
#define PRM_L_send_wqe_data_ptr(F, W, A, L)                                                     \
	F(L, inline, 0x00, 31, 31)                                                              \
	F(L, byte_count, 0x00, 30, 0)                                                           \
	F(L, l_key, 0x04, 31, 0)                                                                \
	F(L, local_address_63_32, 0x08, 31, 0)                                                  \
	F(L, local_address_31_0, 0x0C, 31, 0)

/* PRM §7.4.4.1.4 T39: the inline data segment: bit 31 set, byte_count[9:0], then the data
 * "& padding" from 04h, big-endian byte order, padded to a whole octword (an array of bytes
 * here). */
#define PRM_L_send_wqe_data_inline(F, W, A, L)                                                  \
	F(L, inline, 0x00, 31, 31)                                                              \
	F(L, byte_count, 0x00, 9, 0)                                                            \
	A(L, data_and_padding, 0x04, 8)

/* PRM §7.4.4.1.5 T40: the receive data segment (a scatter entry). */
#define PRM_L_recv_wqe_data(F, W, A, L)                                                         \
	F(L, start_padding, 0x00, 31, 31)                                                       \
	F(L, byte_count, 0x00, 30, 0)                                                           \
	F(L, l_key, 0x04, 31, 0)                                                                \
	F(L, local_address_63_32, 0x08, 31, 0)                                                  \
	F(L, local_address_31_0, 0x0C, 31, 0)

#define NICREF_LAYOUTS_WQE(X)                                                                   \
	X(send_wqe_ctrl, 0x10, "PRM §7.4.4.1.1 T25/T26")                                        \
	X(send_wqe_eth, 0x10, "PRM §7.4.4.1.2 T27/T28")                                         \
	X(send_wqe_pad, 0x10, "PRM §7.4.4.1.2 T29/T30")                                         \
	X(send_wqe_umr_ctrl, 0x30, "PRM §7.4.4.1.3 T31-T33")                                    \
	X(send_wqe_umr_pointer, 0x10, "PRM §7.4.4.1.3 T34/T35")                                 \
	X(send_wqe_data_ptr, 0x10, "PRM §7.4.4.1.4 T38")                                        \
	X(send_wqe_data_inline, 0x04, "PRM §7.4.4.1.4 T39")                                     \
	X(recv_wqe_data, 0x10, "PRM §7.4.4.1.5 T40")

#endif
