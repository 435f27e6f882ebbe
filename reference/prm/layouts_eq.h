/* Layouts of event queues and events (PRM §7.13, §12.6): the EQ context, the EQE and its event
 * data, and the EQ commands. Row format: see prm/layouts.h.
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

/* PRM §7.13.2.2 T77/T78: Event Queue Entry. REC: the T77 grid puts event_data at 04h-1Ch;
 * T78 (20h-38h, 224 bits) is followed, as is the owner at 3Ch[0] and signature at 3Ch[15:8]. */
#define PRM_R_eqe_hdr(F, W, A, L, B)                                                            \
	F(L, event_type, B + 0x00, 23, 16)                                                      \
	F(L, event_sub_type, B + 0x00, 7, 0)                                                    \
	F(L, signature, B + 0x3C, 15, 8)                                                        \
	F(L, owner, B + 0x3C, 0, 0)
#define PRM_L_eqe(F, W, A, L) PRM_R_eqe_hdr(F, W, A, L, 0x00) W(L, event_data, 0x20, 224)

/* Event data (EQE 20h-3Bh), offsets relative to event_data as the PRM prints them. */
/* PRM §7.13.7 T80/T81: completion event. */
#define PRM_R_eqe_data_completion(F, W, A, L, B) F(L, cq_number, B + 0x18, 23, 0)
/* PRM §7.13.8.1 T82/T83: SQ/RQ events (Last WQE Reached). type 1 RQ, 2 SQ. */
#define PRM_R_eqe_data_wq(F, W, A, L, B)                                                        \
	F(L, type, B + 0x14, 31, 24)                                                            \
	F(L, rqn_sqn, B + 0x18, 23, 0)
/* PRM §7.13.8.2 T84/T85: CQ error. syndrome 0x1 CQ_overrun, 0x2 CQ_access_violation_error. */
#define PRM_R_eqe_data_cq_error(F, W, A, L, B)                                                  \
	F(L, cqn, B + 0x00, 23, 0)                                                              \
	F(L, syndrome, B + 0x08, 7, 0)
/* PRM §7.13.9.2 T86/T87: port state change (sub_type T88). */
#define PRM_R_eqe_data_port_state(F, W, A, L, B) F(L, port_num, B + 0x08, 31, 28)
/* PRM §7.13.10.1 T89/T90: command interface completion. */
#define PRM_R_eqe_data_cmd(F, W, A, L, B) F(L, command_completion_vector, B + 0x00, 31, 0)
/* PRM §7.13.10.2 T91/T92: pages request (num_pages signed). */
#define PRM_R_eqe_data_page_request(F, W, A, L, B) F(L, num_pages, B + 0x04, 31, 0)

#define PRM_L_eqe_data_completion(F, W, A, L) PRM_R_eqe_data_completion(F, W, A, L, 0x00)
#define PRM_L_eqe_data_wq(F, W, A, L) PRM_R_eqe_data_wq(F, W, A, L, 0x00)
#define PRM_L_eqe_data_cq_error(F, W, A, L) PRM_R_eqe_data_cq_error(F, W, A, L, 0x00)
#define PRM_L_eqe_data_port_state(F, W, A, L) PRM_R_eqe_data_port_state(F, W, A, L, 0x00)
#define PRM_L_eqe_data_cmd(F, W, A, L) PRM_R_eqe_data_cmd(F, W, A, L, 0x00)
#define PRM_L_eqe_data_page_request(F, W, A, L) PRM_R_eqe_data_page_request(F, W, A, L, 0x00)

/* Whole EQEs: the header of T77/T78 with the event data at 20h. */
#define PRM_EQE_VIEW(F, W, A, L, data) PRM_R_eqe_hdr(F, W, A, L, 0x00) PRM_R_##data(F, W, A, L, 0x20)
#define PRM_L_eqe_completion(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_completion)
#define PRM_L_eqe_wq(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_wq)
#define PRM_L_eqe_cq_error(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_cq_error)
#define PRM_L_eqe_port_state(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_port_state)
#define PRM_L_eqe_cmd(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_cmd)
#define PRM_L_eqe_page_request(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_page_request)

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
	X(eqe, 0x40, "PRM §7.13.2.2 T77/T78")                                                   \
	X(eqe_data_completion, 0x1C, "PRM §7.13.7 T80/T81")                                     \
	X(eqe_data_wq, 0x1C, "PRM §7.13.8.1 T82/T83")                                           \
	X(eqe_data_cq_error, 0x1C, "PRM §7.13.8.2 T84/T85")                                     \
	X(eqe_data_port_state, 0x1C, "PRM §7.13.9.2 T86/T87")                                   \
	X(eqe_data_cmd, 0x1C, "PRM §7.13.10.1 T89/T90")                                         \
	X(eqe_data_page_request, 0x1C, "PRM §7.13.10.2 T91/T92")                                \
	X(eqe_completion, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.7 T81 at 20h")                   \
	X(eqe_wq, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.8.1 T83 at 20h")                         \
	X(eqe_cq_error, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.8.2 T85 at 20h")                   \
	X(eqe_port_state, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.9.2 T87 at 20h")                 \
	X(eqe_cmd, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.10.1 T90 at 20h")                       \
	X(eqe_page_request, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.10.2 T92 at 20h")              \
	X(create_eq_in, 0x110, "PRM §12.6.1 T243/T244 + §7.13.11 T94 at 10h")                   \
	X(create_eq_out, 0x10, "PRM §12.6.1 T245/T246")                                         \
	X(destroy_eq_in, 0x10, "PRM §12.6.2 T247/T248")                                         \
	X(destroy_eq_out, 0x10, "PRM §12.6.2 T249/T250")                                        \
	X(query_eq_in, 0x10, "PRM §12.6.3 T251/T252")                                           \
	X(query_eq_out, 0x110, "PRM §12.6.3 T253/T254 + §7.13.11 T94 at 10h")                   \
	X(gen_eqe_in, 0x50, "PRM §12.6.4 T255/T256 + §7.13.2.2 T78 at 10h")                     \
	X(gen_eqe_out, 0x10, "PRM §12.6.4 T257/T258")

#endif
