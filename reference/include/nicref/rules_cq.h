/* Rules and driver violations of CQs (PRM §7.12, §12.7).
 * Rows as in nicref/rules_ctrl.h. Decisions D-CQ-* are in docs/cq.md. */
#ifndef NICREF_RULES_CQ_H
#define NICREF_RULES_CQ_H

#define NICREF_CMD_RULES_CQ(X)                                                                  \
	X(CQ_CQE_SIZE_INVALID, BAD_PARAM, "PRM §7.12.8 T76 cqe_sz",                             \
	  "cqe_sz other than 0 (64 B) or 1 (128 B)")                                            \
	X(CQ_COMPRESSION_WITH_128B, BAD_PARAM, "PRM §7.12.8 T76 cqe_compression_en",            \
	  "cqe_compression_en with 128-byte CQEs")                                              \
	X(CQ_MINI_CQE_FORMAT_INVALID, BAD_PARAM, "PRM §7.12.8 T76 mini_cqe_res_format",         \
	  "mini_cqe_res_format other than 0 or 1 with compression")                             \
	X(CQ_PERIOD_MODE_UNSUPPORTED, BAD_PARAM, "PRM §7.12.8 T76 cq_period_mode, T145 44h[20]", \
	  "cq_period_mode other than 0, or 1 without HCA_CAP.cq_period_start_from_cqe")         \
	X(CQ_SCQE_BREAK_UNSUPPORTED, BAD_PARAM, "PRM §7.12.8 T76, §7.13.14, T145 44h[21]",      \
	  "scqe_break_moderation_en without HCA_CAP.scqe_break_moderation")                     \
	X(CQ_PAGE_OFFSET_NOT_ZERO, BAD_PARAM, "PRM §7.12.8 T76", "CQC page_offset must be 0")   \
	X(CQ_LOG_SIZE_BEYOND_CAP, EXCEED_LIM, "PRM §7.12.8 T76, T145 log_max_cq_sz; D-EQ-7",    \
	  "log_cq_size beyond 22 or HCA_CAP.log_max_cq_sz")                                     \
	X(CQ_CONSUMER_COUNTER_NOT_ZERO, BAD_PARAM, "PRM §7.12.8 T76",                           \
	  "consumer_counter not 0 at CREATE_CQ")                                                \
	X(CQ_DBR_NOT_ALIGNED, BAD_PARAM, "PRM §7.12.2",                                         \
	  "dbr_addr is not 8-byte aligned")                                                     \
	X(CQ_PAS_SHORT, BAD_INPUT_LEN, "PRM §12.7.1 T261, §7.12.1; D-EQ-9",                     \
	  "the input holds fewer pas[] entries than the CQ buffer needs")                       \
	X(CQ_PAS_NOT_ALIGNED, BAD_PARAM, "PRM §12.3.2 T139",                                    \
	  "a pas[] entry of the CQ buffer is not 4 KB aligned")                                 \
	X(CQ_EQ_NOT_FOUND, BAD_RESOURCE, "PRM §7.12.8 T76 c_eqn, §12.7",                        \
	  "c_eqn names no EQ")                                                                  \
	X(CQ_EQ_OUT_OF_RANGE, BAD_INDEX, "PRM §7.12.8 T76 c_eqn, T145 log_max_eq, T128 0x0A; "   \
	  "D-OBJ-2", "c_eqn outside the EQ numbers (0 to 2^log_max_eq - 1)")                      \
	X(CQ_UAR_NOT_ALLOCATED, BAD_RESOURCE, "PRM §7.2, §7.12.8 T76 uar_page",                 \
	  "uar_page is not an allocated UAR")                                                   \
	X(CQ_UAR_OUT_OF_RANGE, BAD_INDEX, "PRM §7.2, §7.12.8 T76 uar_page, T128 0x0A; D-OBJ-2",  \
	  "uar_page outside the UAR area")                                                       \
	X(CQ_EXHAUSTED, EXCEED_LIM, "PRM §7.12, T145 log_max_cq",                               \
	  "2^log_max_cq CQs already exist")                                                     \
	X(CQ_NOT_FOUND, BAD_RESOURCE, "PRM §12.7.2-§12.7.4, T128", "cqn names no CQ")           \
	X(CQ_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.7.2-§12.7.4 08h cqn, T128 0x0A; D-OBJ-2",   \
	  "cqn outside the CQ handle range")                                                     \
	X(CQ_IN_USE, BAD_RES_STATE, "PRM §3.2.1, §12.7.2; D-CQ-1",                              \
	  "DESTROY_CQ of a CQ that an SQ or RQ still completes to")                             \
	X(CQ_MODIFY_SELECT_UNKNOWN, BAD_PARAM, "PRM §12.7.4 T275/T277",                         \
	  "field_select bit the op_mod does not define")                                        \
	X(CQ_MODIFY_NOT_SUPPORTED, BAD_PARAM, "PRM §12.7.4 T275, T145 44h; D-CQ-10",            \
	  "MODIFY_CQ of a field whose HCA_CAP bit (cq_moderation, cq_oi, cq_eq_remap) is 0")    \
	X(CQ_RESIZE_NOT_SUPPORTED, BAD_OP, "PRM §7.12.6, T145 cq_resize; D-CQ-10",              \
	  "MODIFY_CQ resize_cq (op_mod 1) without HCA_CAP.cq_resize")                           \
	X(CQ_RESIZE_TOO_SMALL, BAD_SIZE, "PRM §12.2 T128 0x40, §7.12.6",                        \
	  "the new CQ size is smaller than the CQEs outstanding")

#define NICREF_VIOLATIONS_CQ(X)                                                                 \
	X(CQ_DB_NO_CQ, "PRM §7.2 T13/T14", "CQ doorbell for a CQ that does not exist (arg: cqn)") \
	X(CQ_DB_WRONG_UAR, "PRM §7.2 item 4",                                                   \
	  "CQ doorbell on a UAR page other than the CQ's uar_page (arg: cqn)")                  \
	X(CQ_DB_SPLIT, "PRM §7.2.2.2",                                                          \
	  "CQ doorbell written by halves out of order or interleaved with another doorbell of " \
	  "the page (arg: uar << 16 | page offset of the stray write)")                         \
	X(CQ_DB_RESERVED, "PRM §7.2.2 T13/T14 (20h[31:30], 20h[27:25], 24h[31:24])",            \
	  "reserved bits of a CQ doorbell set; acted on (arg: dword 20h << 32 | dword 24h)")     \
	X(CQ_DB_WITH_OI, "PRM §7.12.8 T76 oi",                                                  \
	  "arm doorbell rung on a CQ with overrun ignore (arg: cqn); ignored")                  \
	X(CQ_ARM_CI_BEYOND_PC, "PRM §7.12.2 T70, §7.12.4",                                      \
	  "arm doorbell consumer counter beyond the CQEs written (arg: cqn); ignored")          \
	X(CQ_DBR_CI_BEYOND_PC, "PRM §7.12.2 T70, §7.12.1",                                      \
	  "doorbell record update_ci beyond the CQEs written (arg: cqn << 24 | update_ci)")     \
	X(CQ_OVERRUN, "PRM §7.12.5",                                                            \
	  "a CQE was due on a full CQ without overrun ignore (arg: cqn); the CQ enters error")    \
	X(CQ_RESIZE_NO_ROOM, "PRM §7.12.6; D-CQ-7",                                              \
	  "RESIZE_CQ of a CQ whose old buffer is full (no room for the Resize CQE, arg: cqn); "  \
	  "the Resize CQE overwrites the oldest unconsumed CQE")

#endif
