/* Rules and driver violations of SQs, RQs and RMPs and their work queues (PRM §7.4, §7.7-§7.10, §12.10, §12.11, §12.13).
 * Rows as in nicref/rules_ctrl.h. Decisions D-WQ-*, D-SQ-*, D-RQ-*, D-RMP-*, D-DB-* are in
 * docs/wq.md. */
#ifndef NICREF_RULES_WQ_H
#define NICREF_RULES_WQ_H

#define NICREF_CMD_RULES_WQ(X)                                                                  \
	/* the WQ of CREATE_SQ / CREATE_RQ / CREATE_RMP (T54/T55) */                            \
	X(WQ_TYPE_BAD, BAD_PARAM, "PRM §7.4 T55 00h[31:28]",                                     \
	  "wq_type is neither 0 (linked list) nor 1 (cyclic), or an SQ's is not 1 (\"Send Queue " \
	  "WQ must be set to 1\")")                                                             \
	X(WQ_SIGNATURE_UNSUPPORTED, BAD_PARAM, "PRM §7.7 T55 00h[27], T145 wq_signature",             \
	  "wq_signature set while HCA_CAP.wq_signature is 0")                                    \
	X(WQ_END_PAD_BAD, BAD_PARAM, "PRM §7.7 T55 00h[26:25], T145 end_pad",                         \
	  "end_padding_mode reserved (above 1), or END_PAD_ALIGN without HCA_CAP.end_pad")        \
	X(WQ_STRIDE_RANGE, BAD_PARAM, "PRM §7.7 T55 20h[19:16], T145 74h",                            \
	  "log_wq_stride outside [log_min_stride_sz, log_max_stride_sz] of the queue type")      \
	X(WQ_SIZE_EXCEEDS_CAP, EXCEED_LIM, "PRM §7.7 T55 20h[4:0], T145 78h log_max_wq_sz; D-WQ-1",   \
	  "log_wq_sz not less than HCA_CAP.log_max_wq_sz (T55 \"must be less than\")")                                               \
	X(WQ_BUFFER_MISALIGNED, BAD_PARAM, "PRM §7.4.1 L2042, T55 04h[20:16]",                   \
	  "the first WQE (page_offset) is not aligned on the larger of the 64-byte WQEBB and the " \
	  "stride")                                                                             \
	X(WQ_DBR_MISALIGNED, BAD_PARAM, "PRM §7.4.2 L2112, T55 10h/14h",                         \
	  "dbr_addr is not 4-byte aligned")                                                      \
	X(WQ_PAS_SHORT, BAD_INPUT_LEN, "PRM §7.7 T55 C0h pas[], T128 0x50",                           \
	  "the input holds fewer pas[] entries than the pages the queue spans")                  \
	X(WQ_CQ_MISSING, BAD_RESOURCE, "PRM T61/T53 08h cqn, §3.2.1, T128 0x05",                 \
	  "cqn names no CQ")                                                                     \
	X(WQ_PD_MISSING, BAD_RESOURCE, "PRM T55 08h pd, §3.2.1, T128 0x05",                      \
	  "pd names no allocated PD")                                                            \
	X(WQ_CQ_OUT_OF_RANGE, BAD_INDEX, "PRM T61/T53 08h cqn, T128 0x0A; D-OBJ-2",               \
	  "cqn outside the CQ handle range")                                                     \
	X(WQ_PD_OUT_OF_RANGE, BAD_INDEX, "PRM T55 08h pd, T128 0x0A; D-OBJ-2",                    \
	  "pd outside the PD handle range")                                                      \
	/* CREATE_SQ (§12.10.1, T60-T62) */                                                     \
	X(SQ_STATE_NOT_RST, BAD_PARAM, "PRM §7.9 Figure 17, T62 (state R at CREATE_SQ), T61",    \
	  "CREATE_SQ with a context state other than RST")                                       \
	X(SQ_TIS_LIST_SIZE, BAD_PARAM, "PRM §7.9 T61 20h[31:16], 2Ch (only a single TIS)",            \
	  "tis_lst_sz is not 1")                                                                 \
	X(SQ_TIS_MISSING, BAD_RESOURCE, "PRM T61 2Ch tis_num[0], §3.2.1, T128 0x05",             \
	  "tis_num[0] names no TIS")                                                             \
	X(SQ_UAR_MISSING, BAD_RESOURCE, "PRM T55 0Ch uar_page, §7.2, T128 0x05",                 \
	  "uar_page names no allocated UAR")                                                     \
	X(SQ_TIS_OUT_OF_RANGE, BAD_INDEX, "PRM T61 2Ch tis_num[0], T128 0x0A; D-OBJ-2",           \
	  "tis_num[0] outside the TIS handle range")                                             \
	X(SQ_UAR_OUT_OF_RANGE, BAD_INDEX, "PRM T55 0Ch uar_page, T128 0x0A; D-OBJ-2",             \
	  "uar_page outside the UAR range")                                                      \
	X(SQ_INLINE_MODE_RESERVED, BAD_PARAM, "PRM §7.9.3.1 (mode 4 reserved), T61 00h[26:24]",  \
	  "min_wqe_inline_mode 4")                                                               \
	X(SQ_INLINE_MODE_BELOW_VPORT, BAD_PARAM,                                                \
	  "PRM §7.9.3 (\"An attempt to create SQ with inline mode < minimal required by the "   \
	  "Vport NIC will fail\"), T61 00h[26:24], T147 wqe_inline_mode",                        \
	  "with HCA_CAP.wqe_inline_mode 1, min_wqe_inline_mode below the NIC vport's")           \
	X(SQ_EXHAUSTED, EXCEED_LIM, "PRM §7.9, T145 6Ch log_max_sq",                             \
	  "2^log_max_sq SQs already exist")                                                      \
	X(SQ_NOT_FOUND, BAD_RESOURCE, "PRM §12.10.2-§12.10.4, T128 0x05", "sqn names no SQ")     \
	X(SQ_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.10.2-§12.10.4 08h sqn, T128 0x0A; D-OBJ-2",   \
	  "sqn outside the SQ handle range")                                                     \
	/* CREATE_RQ (§12.11.1, T52/T53, T56) */                                                \
	X(RQ_MEM_TYPE_BAD, BAD_PARAM, "PRM §7.7 T53 00h[27:24]",                                      \
	  "mem_rq_type is neither 0 (inline) nor 1 (RMP)")                                       \
	X(RQ_STATE_NOT_RST, BAD_PARAM, "PRM §7.7 Figure 16, T56 (state R at CREATE_RQ), T53",    \
	  "CREATE_RQ with a context state other than RST")                                       \
	X(RQ_RMP_MISSING, BAD_RESOURCE, "PRM T53 10h rmpn, §3.2.1, T128 0x05",                   \
	  "an RMP RQ's rmpn names no RMP")                                                       \
	X(RQ_RMP_OUT_OF_RANGE, BAD_INDEX, "PRM T53 10h rmpn, T128 0x0A; D-OBJ-2",                 \
	  "an RMP RQ's rmpn outside the RMP handle range")                                        \
	X(RQ_EXHAUSTED, EXCEED_LIM, "PRM §7.7, T145 6Ch log_max_rq",                             \
	  "2^log_max_rq RQs already exist")                                                      \
	X(RQ_NOT_FOUND, BAD_RESOURCE, "PRM §12.11.2-§12.11.4, T128 0x05", "rqn names no RQ")     \
	X(RQ_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.11.2-§12.11.4 08h rqn, T128 0x0A; D-OBJ-2",   \
	  "rqn outside the RQ handle range")                                                     \
	X(RQ_IN_USE, BAD_RES_STATE, "PRM §3.2.1, §12.11.3; D-RQ-1, D-OBJ-1",                     \
	  "DESTROY_RQ of an RQ that a TIR or an RQT still names")                               \
	/* CREATE_RMP (§12.13.1, T64-T66) */                                                    \
	X(RMP_STATE_NOT_RDY, BAD_PARAM, "PRM T65 00h[23:20] (\"Must be RDY for CREATE_RMP\")",   \
	  "CREATE_RMP with a context state other than RDY")                                      \
	X(RMP_BASIC_CYCLIC_BAD, BAD_PARAM, "PRM §7.10 T65 04h[31], T145 70h[31]",                      \
	  "basic_cyclic_rcv_wqe set without HCA_CAP.basic_cyclic_rcv_wqe or on a linked-list WQ") \
	X(RMP_EXHAUSTED, EXCEED_LIM, "PRM §7.10, T145 70h log_max_rmp",                          \
	  "2^log_max_rmp RMPs already exist")                                                    \
	X(RMP_NOT_FOUND, BAD_RESOURCE, "PRM §12.13.2-§12.13.4, T128 0x05", "rmpn names no RMP")  \
	X(RMP_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.13.2-§12.13.4 08h rmpn, T128 0x0A; D-OBJ-2", \
	  "rmpn outside the RMP handle range")                                                   \
	X(RMP_IN_USE, BAD_RES_STATE, "PRM §7.7.2.2 L2804, §12.13.3; D-OBJ-1",                    \
	  "DESTROY_RMP while RQs are attached to it")                                            \
	/* MODIFY_SQ / MODIFY_RQ / MODIFY_RMP */                                                \
	X(WQ_CURRENT_STATE_MISMATCH, BAD_RESOURCE_STATE,                                        \
	  "PRM §12.10.2 L7724, §12.11.2 L7908, §12.13.2 L8289, T128 0x10",                       \
	  "MODIFY with a current state (08h[31:28]) that is not the queue's")                   \
	X(WQ_TRANSITION_REFUSED, BAD_RESOURCE_STATE,                                            \
	  "PRM §7.7 Figure 16, §7.9 Figure 17, §7.10.1, T56, T62, T66; D-SQ-1",                  \
	  "MODIFY to a state the queue cannot reach from its state (SQ/RQ: RST2RDY, RDY2RDY, "  \
	  "RDY2ERR, 2RST; RMP: RDY2RDY)")                                                        \
	X(WQ_BITMASK_BAD, BAD_PARAM, "PRM §7.9 T62 (bit 0), §7.7 T56 (bit 1), §7.10 T66 (bit 0)",                \
	  "modify_bitmask has a bit that the queue type does not define")                        \
	X(WQ_BITMASK_NOT_IN_TRANSITION, BAD_PARAM, "PRM §7.7 T56 (vsd: RST2RDY and RDY2RDY only)",    \
	  "a modify_bitmask field that the requested transition does not take")

#define NICREF_VIOLATIONS_WQ(X)                                                                 \
	X(SQ_DB_NO_SQ, "PRM §7.2 item 4, §7.4.3.1",                                             \
	  "send doorbell naming no SQ (arg: uar << 32 | sqn)")                                    \
	X(SQ_DB_WRONG_UAR, "PRM §7.2 item 4 L1859",                                              \
	  "send doorbell on a UAR page other than the SQ's uar_page, ignored (arg: uar << 32 | "  \
	  "sqn)")                                                                               \
	X(SQ_DB_BF_REGISTER, "PRM §7.2.2 (send doorbells \"cannot be interleaved on multiple "   \
	  "Blue Flame registers\")",                                                            \
	  "an SQ rang a Blue Flame register other than the one it rang before (arg: sqn << 8 | " \
	  "register)")                                                                          \
	X(SQ_DB_ORDER, "PRM §7.2.2.2 (lower dword first)",                                       \
	  "second dword of a send doorbell without its first (arg: uar << 32 | page offset)")    \
	X(SQ_DB_RESERVED, "PRM §7.4.4.1.1 T26 00h[31:24], 04h[7:6]",                             \
	  "reserved bits of a send doorbell set (arg: dword 0 << 32 | dword 1)")                 \
	X(SQ_DB_SPLIT, "PRM §7.2.2.2 (no other doorbell in the midst of one)",                   \
	  "a CQ or EQ doorbell written between the two dwords of a send doorbell of the page; "  \
	  "the half-written send doorbell is dropped (arg: uar << 32 | page offset of the "      \
	  "stray write)")                                                                       \
	X(SQ_DB_BF_ALTERNATE, "PRM §7.2.2.1 (\"The two buffers in the BlueFlame register must be " \
	  "used alternately\")",                                                                 \
	  "a Blue Flame posting (WQE bytes written past the doorbell) to the buffer its "       \
	  "register's previous send doorbell used; acted on (arg: uar << 32 | page offset of "  \
	  "the buffer)")

#endif
