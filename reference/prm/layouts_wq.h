/* Layouts of the work queues: the WQ (PRM §7.4, T54/T55), SQ, RQ and RMP contexts (T60/T61,
 * T52/T53, T64/T65), their commands (§12.10, §12.11, §12.13) and the SQ/RQ doorbell record
 * (T24). The send WQE segments, the ctrl segment a send doorbell carries among them, are in
 * prm/layouts_wqe.h. Row format: see prm/layouts.h.
 *
 * Each context is written once as PRM_R_<ctx>(F, W, A, L, B, Q) with every offset "B + <PRM
 * offset>": B is 0 in the context layout itself and 20h in the commands that carry it (T315,
 * T329, T332, T346, T366, T380). Q writes the rows that T55 makes "available through the QUERY
 * commands only. Otherwise reserved" (hw_counter, sw_counter): F in the context and QUERY
 * layouts, nothing in CREATE, so the dispatch's reserved-bit check covers them on input.
 *
 * The WQ carries rows for all three queue types; T55's SQ/RQ/RMP columns (with T56, T62, T66)
 * say which apply, and the rows of the other types are reserved in a type's context:
 *   - end_padding_mode: RQ and RMP (T55; T62 "N/A" for SQ);
 *   - lwm: RMP only (T55; T62 "N/A"; D-WQ-2);
 *   - uar_page: SQ only. T55 marks it for RQ "required only if cd_slave is enabled otherwise
 *     reserved", and cd_slave has no position in Rev 0.40; T56 says "N/A" for CREATE_RQ and
 *     T66 for CREATE_RMP (docs/wq.md D-WQ-4).
 * REC (D-WQ-3): the T54 grid puts page_offset and lwm in the second row, offset 04h; T55 lists
 * them under the 00h block without an offset cell of their own. The grid is followed (the
 * public mlx5 layout agrees): 04h[20:16] and 04h[15:0].
 * The WQ is 1600 bits to pas[0] inclusive (T53/T61/T65 "1600"): C0h fixed bytes, then pas[]
 * of 64-bit T138 entries (pa_h, pa_l[31:12]) from C0h. */
#ifndef NICREF_PRM_LAYOUTS_WQ_H
#define NICREF_PRM_LAYOUTS_WQ_H

/* A row that a layout leaves out (the query-only rows in CREATE inputs, the other queue
 * types' rows). */
#define PRM_WQ_NOROW(...)

/* PRM §7.4 T54/T55: the rows every queue type has. */
#define PRM_R_wq_common(F, W, A, L, B)                                                          \
	F(L, wq_type, B + 0x00, 31, 28)                                                         \
	F(L, wq_signature, B + 0x00, 27, 27)                                                    \
	F(L, page_offset, B + 0x04, 20, 16)                                                     \
	F(L, pd, B + 0x08, 23, 0)                                                               \
	F(L, dbr_addr_63_32, B + 0x10, 31, 0)                                                   \
	F(L, dbr_addr_31_0, B + 0x14, 31, 0)
/* T55 18h/1Ch: query only; "Bits [31:16] are reserved". */
#define PRM_R_wq_counters(F, L, B)                                                              \
	F(L, hw_counter, B + 0x18, 31, 0)                                                       \
	F(L, sw_counter, B + 0x1C, 31, 0)
#define PRM_R_wq_sizes(F, W, A, L, B)                                                           \
	F(L, log_wq_stride, B + 0x20, 19, 16)                                                   \
	F(L, log_wq_pg_sz, B + 0x20, 12, 8)                                                     \
	F(L, log_wq_sz, B + 0x20, 4, 0)                                                         \
	A(L, pas, B + 0xC0, 64)

/* The WQ as one queue type sees it: E end_padding_mode, M lwm, U uar_page, Q the counters. */
#define PRM_R_wq_of(F, W, A, L, B, E, M, U, Q)                                                  \
	PRM_R_wq_common(F, W, A, L, B)                                                          \
	E(L, end_padding_mode, B + 0x00, 26, 25)                                                \
	M(L, lwm, B + 0x04, 15, 0)                                                              \
	U(L, uar_page, B + 0x0C, 23, 0)                                                         \
	PRM_R_wq_counters(Q, L, B)                                                              \
	PRM_R_wq_sizes(F, W, A, L, B)

/* The whole WQ structure, every row (T54/T55). */
#define PRM_L_wq(F, W, A, L) PRM_R_wq_of(F, W, A, L, 0x00, F, F, F, F)

/* PRM §7.9 T60/T61: SQ context; the WQ at 30h. REC: the T60 grid writes "rtkey", "frc" and
 * "min_wq_in-line_-mode"; T61 (rlkey, fre, min_wqe_inline_mode) is followed. tis_num[0] is the
 * only TIS ("only a single TIS is supported", T61). */
#define PRM_R_sqc(F, W, A, L, B, Q)                                                             \
	F(L, rlkey, B + 0x00, 31, 31)                                                           \
	F(L, fre, B + 0x00, 29, 29)                                                             \
	F(L, flush_in_error_en, B + 0x00, 28, 28)                                               \
	F(L, min_wqe_inline_mode, B + 0x00, 26, 24)                                             \
	F(L, state, B + 0x00, 23, 20)                                                           \
	F(L, user_index, B + 0x04, 23, 0)                                                       \
	F(L, cqn, B + 0x08, 23, 0)                                                              \
	F(L, tis_lst_sz, B + 0x20, 31, 16)                                                      \
	F(L, tis_num_0, B + 0x2C, 23, 0)                                                        \
	PRM_R_wq_of(F, W, A, L, B + 0x30, PRM_WQ_NOROW, PRM_WQ_NOROW, F, Q)
#define PRM_L_sqc(F, W, A, L) PRM_R_sqc(F, W, A, L, 0x00, F)

/* PRM §7.7 T52/T53: RQ context; the WQ at 30h (ignored for an RMP RQ, D-RQ-4). REC: the T52
 * grid writes "rtkey"; T53 (rlkey) is followed. T56's "rq_type", "rq_index" and "mpn" are
 * mem_rq_type, user_index and rmpn (D-RQ-2); its "cs" has no position and is not modelled. */
#define PRM_R_rqc(F, W, A, L, B, Q)                                                             \
	F(L, rlkey, B + 0x00, 31, 31)                                                           \
	F(L, vlan_strip_disable, B + 0x00, 28, 28)                                              \
	F(L, mem_rq_type, B + 0x00, 27, 24)                                                     \
	F(L, state, B + 0x00, 23, 20)                                                           \
	F(L, flush_in_error_en, B + 0x00, 18, 18)                                               \
	F(L, user_index, B + 0x04, 23, 0)                                                       \
	F(L, cqn, B + 0x08, 23, 0)                                                              \
	F(L, rmpn, B + 0x10, 23, 0)                                                             \
	PRM_R_wq_of(F, W, A, L, B + 0x30, F, PRM_WQ_NOROW, PRM_WQ_NOROW, Q)
#define PRM_L_rqc(F, W, A, L) PRM_R_rqc(F, W, A, L, 0x00, F)

/* PRM §7.10 T64/T65: RMP context; the WQ at 30h. REC: the T64 grid splits the 04h[31] name
 * over four cells ("basic | cyclic | rev | wqe"); T65 (basic_cyclic_rcv_wqe, bit 31) is
 * followed. */
#define PRM_R_rmpc(F, W, A, L, B, Q)                                                            \
	F(L, state, B + 0x00, 23, 20)                                                           \
	F(L, basic_cyclic_rcv_wqe, B + 0x04, 31, 31)                                            \
	PRM_R_wq_of(F, W, A, L, B + 0x30, F, F, PRM_WQ_NOROW, Q)
#define PRM_L_rmpc(F, W, A, L) PRM_R_rmpc(F, W, A, L, 0x00, F)

/* ---- Commands ---------------------------------------------------------------------------- */
#define PRM_WQ_IN_HDR(F, L)                                                                     \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)
#define PRM_WQ_OUT_HDR(F, L)                                                                    \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)
/* The MODIFY header (T319/T336/T370): the current state, the object, the 64-bit bitmask. */
#define PRM_WQ_MODIFY_HDR(F, L, st, num)                                                        \
	PRM_WQ_IN_HDR(F, L)                                                                     \
	F(L, st, 0x08, 31, 28)                                                                  \
	F(L, num, 0x08, 23, 0)                                                                  \
	F(L, modify_bitmask_63_32, 0x10, 31, 0)                                                 \
	F(L, modify_bitmask_31_0, 0x14, 31, 0)

/* PRM §12.10.1 T315/T316: CREATE_SQ input, the SQ context at 20h (T62 lists what it holds). */
/* Beyond PRM Rev 0.40 (T55 reserves them): the UMEM fields of the public mlx5 interface, Linux
 * include/linux/mlx5/mlx5_ifc.h wq_bits: dbr_umem_valid 24h[31], wq_umem_valid 24h[30],
 * dbr_umem_id 28h, wq_umem_id 2Ch, wq_umem_offset 30h (64 bits); only the CREATE inputs carry
 * them (docs/umem.md D-UMEM-7). B: the WQ's offset. */
#define PRM_R_wq_umem(F, W, A, L, B)                                                            \
	F(L, dbr_umem_valid, B + 0x24, 31, 31)                                                  \
	F(L, wq_umem_valid, B + 0x24, 30, 30)                                                   \
	F(L, dbr_umem_id, B + 0x28, 31, 0)                                                      \
	F(L, wq_umem_id, B + 0x2C, 31, 0)                                                       \
	W(L, wq_umem_offset, B + 0x30, 64)
#define PRM_L_wq_umem(F, W, A, L) PRM_R_wq_umem(F, W, A, L, 0x00)

#define PRM_L_create_sq_in(F, W, A, L)                                                          \
	PRM_WQ_IN_HDR(F, L) PRM_R_sqc(F, W, A, L, 0x20, PRM_WQ_NOROW) PRM_R_wq_umem(F, W, A, L, 0x50)
/* T317/T318 (0Ch reserved). */
#define PRM_L_create_sq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L) F(L, sqn, 0x08, 23, 0)
/* PRM §12.10.2 T319/T320: MODIFY_SQ input. "Only fields requested by the mask should be valid.
 * Other fields are reserved": of the context only state (T62 "none", always required) has a
 * row; bitmask bit 0, packet_pacing_rate_limit_index, has no position in T60 (D-SQ-2). */
#define PRM_L_modify_sq_in(F, W, A, L)                                                          \
	PRM_WQ_MODIFY_HDR(F, L, sq_state, sqn) F(L, state, 0x20, 23, 20)
#define PRM_L_modify_sq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L)
/* PRM §12.10.3 T323-T326: DESTROY_SQ. */
#define PRM_L_destroy_sq_in(F, W, A, L) PRM_WQ_IN_HDR(F, L) F(L, sqn, 0x08, 23, 0)
#define PRM_L_destroy_sq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L)
/* PRM §12.10.4 T327-T330: QUERY_SQ; the context at 20h with the query-only counters. */
#define PRM_L_query_sq_in(F, W, A, L) PRM_WQ_IN_HDR(F, L) F(L, sqn, 0x08, 23, 0)
#define PRM_L_query_sq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L) PRM_R_sqc(F, W, A, L, 0x20, F)

/* PRM §12.11.1 T332-T335: CREATE_RQ. */
#define PRM_L_create_rq_in(F, W, A, L)                                                          \
	PRM_WQ_IN_HDR(F, L) PRM_R_rqc(F, W, A, L, 0x20, PRM_WQ_NOROW) PRM_R_wq_umem(F, W, A, L, 0x50)
#define PRM_L_create_rq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L) F(L, rqn, 0x08, 23, 0)
/* PRM §12.11.2 T336/T337: MODIFY_RQ; of the context state and (T56 bit 1) vlan_strip_disable. */
#define PRM_L_modify_rq_in(F, W, A, L)                                                          \
	PRM_WQ_MODIFY_HDR(F, L, rq_state, rqn)                                                  \
	F(L, vlan_strip_disable, 0x20, 28, 28)                                                  \
	F(L, state, 0x20, 23, 20)
#define PRM_L_modify_rq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L)
/* PRM §12.11.3 T340-T343: DESTROY_RQ; §12.11.4 T344-T347: QUERY_RQ. */
#define PRM_L_destroy_rq_in(F, W, A, L) PRM_WQ_IN_HDR(F, L) F(L, rqn, 0x08, 23, 0)
#define PRM_L_destroy_rq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L)
#define PRM_L_query_rq_in(F, W, A, L) PRM_WQ_IN_HDR(F, L) F(L, rqn, 0x08, 23, 0)
#define PRM_L_query_rq_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L) PRM_R_rqc(F, W, A, L, 0x20, F)

/* PRM §12.13.1 T366-T369: CREATE_RMP. */
#define PRM_L_create_rmp_in(F, W, A, L)                                                         \
	PRM_WQ_IN_HDR(F, L) PRM_R_rmpc(F, W, A, L, 0x20, PRM_WQ_NOROW)                          \
	PRM_R_wq_umem(F, W, A, L, 0x50)
#define PRM_L_create_rmp_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L) F(L, rmpn, 0x08, 23, 0)
/* PRM §12.13.2 T370/T371: MODIFY_RMP; of the context state and (T66 bit 0) wq.lwm. */
#define PRM_L_modify_rmp_in(F, W, A, L)                                                         \
	PRM_WQ_MODIFY_HDR(F, L, rmp_state, rmpn)                                                \
	F(L, state, 0x20, 23, 20)                                                               \
	F(L, lwm, 0x50 + 0x04, 15, 0)
#define PRM_L_modify_rmp_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L)
/* PRM §12.13.3 T374-T377: DESTROY_RMP (T375 spells the field "rmprn"); §12.13.4 T378-T381:
 * QUERY_RMP (T379 "rpmn", T380 "rpm_context"). The T369 name rmpn is used throughout. */
#define PRM_L_destroy_rmp_in(F, W, A, L) PRM_WQ_IN_HDR(F, L) F(L, rmpn, 0x08, 23, 0)
#define PRM_L_destroy_rmp_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L)
#define PRM_L_query_rmp_in(F, W, A, L) PRM_WQ_IN_HDR(F, L) F(L, rmpn, 0x08, 23, 0)
#define PRM_L_query_rmp_out(F, W, A, L) PRM_WQ_OUT_HDR(F, L) PRM_R_rmpc(F, W, A, L, 0x20, F)

/* ---- Host-memory and doorbell structures ------------------------------------------------- */

/* PRM §7.4.2 T24: the doorbell record, receive counter then send counter, 4-byte aligned. The
 * T24 grid puts each counter under bits 15:0 ("wraps around 0xFFFF", §7.4.1). An RQ or RMP
 * reads the first word, an SQ the second (D-DB-1). */
#define PRM_L_wq_doorbell_record(F, W, A, L)                                                    \
	F(L, receive_counter, 0x00, 15, 0)                                                      \
	F(L, send_counter, 0x04, 15, 0)

/* PRM §7.4.4.4 T42/T43: the next/ctrl segment that starts a shared receive WQE (an RMP's WQE):
 * Next_WQE_index 00h[15:0], the next WQE of a linked-list RMP in strides ("Reserved for
 * continuous SRQ"), and the WQE signature 04h[31:24]. The T42 grid's "next" cell has no bits
 * in T43. The scatter list follows at 10h. */
#define PRM_L_srq_wqe_next(F, W, A, L)                                                          \
	F(L, next_wqe_index, 0x00, 15, 0)                                                       \
	F(L, signature, 0x04, 31, 24)

#define NICREF_LAYOUTS_WQ(X)                                                                    \
	X(wq, 0xC0, "PRM §7.4 T54/T55")                                                         \
	X(wq_umem, 0x38, "beyond PRM: mlx5_ifc.h wq_bits 24h-37h (UMEM fields)")               \
	X(sqc, 0xF0, "PRM §7.9 T60/T61 + T54 at 30h")                                           \
	X(rqc, 0xF0, "PRM §7.7 T52/T53 + T54 at 30h")                                           \
	X(rmpc, 0xF0, "PRM §7.10 T64/T65 + T54 at 30h")                                         \
	X(create_sq_in, 0x110, "PRM §12.10.1 T315/T316")                                        \
	X(create_sq_out, 0x10, "PRM §12.10.1 T317/T318")                                        \
	X(modify_sq_in, 0x110, "PRM §12.10.2 T319/T320")                                        \
	X(modify_sq_out, 0x10, "PRM §12.10.2 T321/T322")                                        \
	X(destroy_sq_in, 0x10, "PRM §12.10.3 T323/T324")                                        \
	X(destroy_sq_out, 0x10, "PRM §12.10.3 T325/T326")                                       \
	X(query_sq_in, 0x10, "PRM §12.10.4 T327/T328")                                          \
	X(query_sq_out, 0x110, "PRM §12.10.4 T329/T330")                                        \
	X(create_rq_in, 0x110, "PRM §12.11.1 T332/T333")                                        \
	X(create_rq_out, 0x10, "PRM §12.11.1 T334/T335")                                        \
	X(modify_rq_in, 0x110, "PRM §12.11.2 T336/T337")                                        \
	X(modify_rq_out, 0x10, "PRM §12.11.2 T338/T339")                                        \
	X(destroy_rq_in, 0x10, "PRM §12.11.3 T340/T341")                                        \
	X(destroy_rq_out, 0x10, "PRM §12.11.3 T342/T343")                                       \
	X(query_rq_in, 0x10, "PRM §12.11.4 T344/T345")                                          \
	X(query_rq_out, 0x110, "PRM §12.11.4 T346/T347")                                        \
	X(create_rmp_in, 0x110, "PRM §12.13.1 T366/T367")                                       \
	X(create_rmp_out, 0x10, "PRM §12.13.1 T368/T369")                                       \
	X(modify_rmp_in, 0x110, "PRM §12.13.2 T370/T371")                                       \
	X(modify_rmp_out, 0x10, "PRM §12.13.2 T372/T373")                                       \
	X(destroy_rmp_in, 0x10, "PRM §12.13.3 T374/T375")                                       \
	X(destroy_rmp_out, 0x10, "PRM §12.13.3 T376/T377")                                      \
	X(query_rmp_in, 0x10, "PRM §12.13.4 T378/T379")                                         \
	X(query_rmp_out, 0x110, "PRM §12.13.4 T380/T381")                                       \
	X(wq_doorbell_record, 0x08, "PRM §7.4.2 T24")                                           \
	X(srq_wqe_next, 0x10, "PRM §7.4.4.4 T42/T43")

#endif
