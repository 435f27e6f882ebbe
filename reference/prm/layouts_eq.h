/* Layouts of event queues (PRM §7.13, §12.6): the EQ context and the EQ commands (the EQEs and
 * the event types are in prm/layouts_eqe.h). Row format: see prm/layouts.h.
 *
 * Structures used in more than one place are written once as PRM_R_<name>(F, W, A, L, B) with
 * every offset "B + <PRM offset>": B is 0 in the standalone layout and the structure's offset
 * in the whole-command or whole-EQE views below. */
#ifndef NICREF_PRM_LAYOUTS_EQ_H
#define NICREF_PRM_LAYOUTS_EQ_H

/* PRM §7.13.11 T93/T94: Event Queue Context, the fields software writes at CREATE_EQ. REC:
 * the T93 grid prints the ec/oi cells as "8 | 0." under bits 18/17; T94 (ec 00h[18], oi
 * 00h[17]) is followed. consumer_counter and producer_counter "must be"/"should be" 0 at
 * creation (T94): fields, checked by CREATE_EQ. */
#define PRM_R_eqc_sw(F, W, A, L, B)                                                             \
	F(L, ec, B + 0x00, 18, 18)                                                              \
	F(L, oi, B + 0x00, 17, 17)                                                              \
	F(L, page_offset, B + 0x08, 11, 6)                                                      \
	F(L, log_eq_size, B + 0x0C, 28, 24)                                                     \
	F(L, uar_page, B + 0x0C, 23, 0)                                                         \
	F(L, intr, B + 0x14, 7, 0)                                                              \
	F(L, log_page_size, B + 0x18, 28, 24)                                                   \
	F(L, consumer_counter, B + 0x28, 23, 0)                                                 \
	F(L, producer_counter, B + 0x2C, 23, 0)

/* The whole EQC (QUERY_EQ): status "valid for the QUERY_EQ command only" and st "reserved for
 * CREATE_EQ" (T94) are the device's. status is named eq_status so that QUERY_EQ's output,
 * whose header has a status, can hold the context. */
#define PRM_R_eqc(F, W, A, L, B)                                                                \
	F(L, eq_status, B + 0x00, 31, 28)                                                       \
	F(L, st, B + 0x00, 11, 8)                                                               \
	PRM_R_eqc_sw(F, W, A, L, B)
#define PRM_L_eqc(F, W, A, L) PRM_R_eqc(F, W, A, L, 0x00)

/* PRM §12.6.1 T243/T244: CREATE_EQ input. EQC at 10h-4Ch, event bitmask 58h-5Fh (bit i =
 * event type i, bit 0 reserved: the LSB of dword 5Ch), pas[] of 64-bit cmd_pas entries (T138)
 * from 110h. 50h-57h and 60h-10Ch are reserved. */
#define PRM_L_create_eq_in(F, W, A, L)                                                          \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	PRM_R_eqc_sw(F, W, A, L, 0x10)                                                          \
	W(L, event_bitmask, 0x58, 64)                                                           \
	A(L, pas, 0x110, 64)

/* PRM §12.6.1 T245/T246: CREATE_EQ output. */
#define PRM_L_create_eq_out(F, W, A, L)                                                         \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, eq_number, 0x08, 7, 0)

/* PRM §12.6.2 T247/T248 and §12.6.3 T251/T252: DESTROY_EQ / QUERY_EQ input. */
#define PRM_L_destroy_eq_in(F, W, A, L)                                                         \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, eq_number, 0x08, 7, 0)
#define PRM_L_query_eq_in(F, W, A, L) PRM_L_destroy_eq_in(F, W, A, L)

/* PRM §12.6.2 T249/T250 and §12.6.4 T257/T258: outputs with status and syndrome only. */
#define PRM_L_destroy_eq_out(F, W, A, L)                                                        \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)
#define PRM_L_gen_eqe_out(F, W, A, L) PRM_L_destroy_eq_out(F, W, A, L)

/* PRM §12.6.3 T253/T254: QUERY_EQ output: the whole EQC, the bitmask and pas[]. */
#define PRM_L_query_eq_out(F, W, A, L)                                                          \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	PRM_R_eqc(F, W, A, L, 0x10)                                                             \
	W(L, event_bitmask, 0x58, 64)                                                           \
	A(L, pas, 0x110, 64)

/* PRM §12.6.4 T255/T256: GEN_EQE input, the EQE to generate at 10h-4Fh (T77/T78 at 10h). */
#define PRM_L_gen_eqe_in(F, W, A, L)                                                            \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, eq_number, 0x08, 7, 0)                                                             \
	PRM_R_eqe_hdr(F, W, A, L, 0x10)                                                         \
	W(L, event_data, 0x30, 224)

#define NICREF_LAYOUTS_EQ(X)                                                                    \
	X(eqc, 0x40, "PRM §7.13.11 T93/T94")                                                    \
	X(create_eq_in, 0x110, "PRM §12.6.1 T243/T244 + §7.13.11 T94 at 10h")                   \
	X(create_eq_out, 0x10, "PRM §12.6.1 T245/T246")                                         \
	X(destroy_eq_in, 0x10, "PRM §12.6.2 T247/T248")                                         \
	X(destroy_eq_out, 0x10, "PRM §12.6.2 T249/T250")                                        \
	X(query_eq_in, 0x10, "PRM §12.6.3 T251/T252")                                           \
	X(query_eq_out, 0x110, "PRM §12.6.3 T253/T254 + §7.13.11 T94 at 10h")                   \
	X(gen_eqe_in, 0x50, "PRM §12.6.4 T255/T256 + §7.13.2.2 T78 at 10h")                     \
	X(gen_eqe_out, 0x10, "PRM §12.6.4 T257/T258")

#endif
