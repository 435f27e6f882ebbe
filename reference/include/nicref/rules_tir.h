/* Rules and driver violations of TIS, TIR and RQT (PRM §7.5-§7.8, §12.8, §12.9, §12.12).
 * Rows as in nicref/rules_ctrl.h. The decisions are in docs/tir.md (D-TIR-*, D-TIS-*,
 * D-RQT-*). Handles outside their table answer BAD_INDEX and handles not allocated
 * BAD_RESOURCE (T128, D-CMD-7 step 7). */
#ifndef NICREF_RULES_TIR_H
#define NICREF_RULES_TIR_H

#define NICREF_CMD_RULES_TIR(X)                                                                 \
	/* ---- TIS (§7.6, §12.9) ---- */                                                       \
	X(TIS_TD_OUT_OF_RANGE, BAD_INDEX, "PRM §7.6 T50 24h; T128; D-CMD-7",                    \
	  "TIS transport_domain outside the transport domain handle range")                      \
	X(TIS_TD_INVALID, BAD_RESOURCE, "PRM §7.6 T50 24h; T128",                               \
	  "TIS transport_domain is not an allocated transport domain")                            \
	X(TIS_EXHAUSTED, EXCEED_LIM, "PRM §12.3.3 T145 6Ch[4:0]; T128",                         \
	  "more TISs than 2^log_max_tis")                                                         \
	X(TIS_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.9 T303/T307/T311 08h; T128",              \
	  "tisn outside the TIS table (0 or beyond 2^log_max_tis)")                               \
	X(TIS_NOT_FOUND, BAD_RESOURCE, "PRM §12.9 T303/T307/T311 08h; T128",                    \
	  "no TIS with this tisn")                                                                \
	X(TIS_MODIFY_UNSUPPORTED, BAD_OP, "PRM §12.9.2 L7523; T145 6Ch[31]",                    \
	  "MODIFY_TIS while HCA_CAP.modify_tis is 0")                                             \
	X(TIS_MODIFY_BITMASK, BAD_PARAM, "PRM §7.6 T51; §12.9.2 T303 10h-14h",                  \
	  "MODIFY_TIS bitmask bit other than 0 (prio)")                                           \
	X(TIS_MODIFY_SQ_ATTACHED, BAD_RESOURCE_STATE, "PRM §12.9.2 L7525 (D-TIS-4)",            \
	  "MODIFY_TIS while an SQ is attached to the TIS (the model refuses for any attached SQ)") \
	X(TIS_IN_USE, BAD_RES_STATE, "PRM §3.2.1; D-OBJ-1", "DESTROY_TIS while an SQ names it")   \
	/* ---- TIR (§7.5, §12.8) ---- */                                                       \
	X(TIR_DISP_TYPE, BAD_PARAM, "PRM §7.5 T45 04h[31:28] L2505",                            \
	  "disp_type other than 0 Direct, 1 Indirect")                                            \
	X(TIR_HASH_FN, BAD_PARAM, "PRM §7.5 T45 24h[31:28] L2517",                              \
	  "rx_hash_fn other than 0 NONE, 1 INVERTED_XOR8, 2 TOEPLITZ")                            \
	X(TIR_DIRECT_HASH, BAD_PARAM, "PRM §7.5 T45 04h L2505",                                 \
	  "Direct TIR with a hash function ('must be HASH_NONE')")                                \
	X(TIR_INDIRECT_NO_HASH, BAD_PARAM, "PRM §7.5 T45 04h L2505",                            \
	  "Indirect TIR with rx_hash_fn HASH_NONE ('must not be HASH_NONE')")                     \
	X(TIR_HASH_BOTH_SELECTORS, BAD_PARAM, "PRM §7.5 T45 50h/54h L2526-2527",                \
	  "rx_hash_field_selector_outer and _inner both non-zero")                                \
	X(TIR_INNER_NOT_TUNNELED, BAD_PARAM, "PRM §7.5 T45 54h L2527 (D-TIR-2)",                \
	  "rx_hash_field_selector_inner with tunneled_offload_en clear")                          \
	X(TIR_HASH_FIELDS_RESERVED, BAD_PARAM, "PRM §7.5 T47 00h[29:0] L2544",                  \
	  "a selected_fields bit 5-29 ('reserved') set in a hash field selector")                 \
	X(TIR_LRO_MASK_RESERVED, BAD_PARAM, "PRM §7.5 T45 10h[11:8] L2512",                     \
	  "lro_enable_mask bit 2 or 3 ('Other - Reserved') set")                                  \
	X(TIR_LRO_UNSUPPORTED, BAD_PARAM, "PRM §3.3.6 L1302; T147 00h[29] lro_cap",             \
	  "lro_enable_mask set while HCA_CAP.lro_cap is 0")                                       \
	X(TIR_SELF_LB_UNSUPPORTED, BAD_PARAM, "PRM §7.5 T45 24h[25:24] L2518; T147 00h[22:21]",  \
	  "self_lb_en unicast without HCA_CAP.self_lb_uc, or multicast without self_lb_mc")       \
	X(TIR_TD_OUT_OF_RANGE, BAD_INDEX, "PRM §7.5 T45 24h[23:0]; T128; D-CMD-7",              \
	  "TIR transport_domain outside the transport domain handle range")                      \
	X(TIR_TD_INVALID, BAD_RESOURCE, "PRM §7.5 T45 24h[23:0]; T128",                         \
	  "TIR transport_domain is not an allocated transport domain")                            \
	X(TIR_RQ_OUT_OF_RANGE, BAD_INDEX, "PRM §7.5 T45 1Ch[23:0]; T128; D-CMD-7",              \
	  "Direct TIR inline_rqn outside the RQ handle range")                                    \
	X(TIR_RQ_INVALID, BAD_RESOURCE, "PRM §7.5 T45 1Ch[23:0]; T128",                         \
	  "Direct TIR inline_rqn is not an existing RQ")                                          \
	X(TIR_RQT_OUT_OF_RANGE, BAD_INDEX, "PRM §7.5 T45 20h[23:0]; T128; D-CMD-7",             \
	  "Indirect TIR indirect_table outside the RQT handle range")                             \
	X(TIR_RQT_INVALID, BAD_RESOURCE, "PRM §7.5 T45 20h[23:0]; T128",                        \
	  "Indirect TIR indirect_table is not an existing RQT")                                   \
	X(TIR_EXHAUSTED, EXCEED_LIM, "PRM §12.3.3 T145 6Ch[12:8]; T128",                        \
	  "more TIRs than 2^log_max_tir")                                                         \
	X(TIR_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.8 T286/T290/T294 08h; T128",              \
	  "tirn outside the TIR table (0 or beyond 2^log_max_tir)")                               \
	X(TIR_NOT_FOUND, BAD_RESOURCE, "PRM §12.8 T286/T290/T294 08h; T128",                    \
	  "no TIR with this tirn")                                                                \
	X(TIR_MODIFY_BITMASK, BAD_PARAM, "PRM §7.5 T48 L2548-2562; §12.8.2 T286",               \
	  "MODIFY_TIR bitmask bit other than 0 LRO, 1 indirect_table, 2 hash, 4 self_lb_en")     \
	X(TIR_MODIFY_SELF_LB_FIXED, BAD_PARAM, "PRM §7.5 T48 bit 4 L2562; T147 00h[23]",         \
	  "MODIFY_TIR self_lb_en while HCA_CAP.self_lb_en_modifiable is 0")                       \
	X(TIR_MODIFY_TABLE_DIRECT, BAD_PARAM, "PRM §7.5 T45 20h[23:0] L2516; T48 bit 1",        \
	  "MODIFY_TIR indirect_table on a Direct TIR ('Reserved when disp_type != Indirect')")    \
	X(TIR_IN_USE, BAD_RES_STATE, "PRM §3.2.1; D-OBJ-1 (D-TIR-1)",                           \
	  "DESTROY_TIR while a flow table entry names it")                                        \
	/* ---- RQT (§7.8, §12.12) ---- */                                                      \
	X(RQT_MAX_SIZE_NOT_POW2, BAD_PARAM, "PRM §7.8 T59 14h L2839",                           \
	  "rqt_max_size is not a power of two ('rqt_max_size must be power of two')")            \
	X(RQT_ACTUAL_SIZE_NOT_POW2, BAD_PARAM, "PRM §7.8 T59 18h L2845",                        \
	  "rqt_actual_size is not a power of two")                                                \
	X(RQT_ACTUAL_BEYOND_MAX, BAD_PARAM, "PRM §7.8 T59 14h/18h L2839, L2845",                \
	  "rqt_actual_size above rqt_max_size ('the command fails and RQT does not change')")    \
	X(RQT_ENTRIES_BEYOND_INPUT, BAD_INPUT_LEN, "PRM §12.12.1 T349/T350, §7.8 T58 F0h; T128", \
	  "the rqt_actual_size rq_num entries do not fit in input_length")                        \
	X(RQT_RQ_OUT_OF_RANGE, BAD_INDEX, "PRM §7.8 T59 F0h; T128; D-CMD-7",                    \
	  "an rq_num entry outside the RQ handle range")                                          \
	X(RQT_RQ_INVALID, BAD_RESOURCE, "PRM §7.8 T59 F0h; T128",                               \
	  "an rq_num entry is not an existing RQ")                                                \
	X(RQT_MAX_SIZE_TOO_LARGE, EXCEED_LIM, "PRM §7.8 T59 14h L2839; T145 70h[12:8]; D-CMD-7", \
	  "rqt_max_size above 2^log_max_rqt_size (D-RQT-1)")                                      \
	X(RQT_EXHAUSTED, EXCEED_LIM, "PRM §12.3.3 T145 70h[20:16]; T128",                       \
	  "more RQTs than 2^log_max_rqt")                                                         \
	X(RQT_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.12 T354/T358/T362 08h; T128",             \
	  "rqtn outside the RQT table (0 or beyond 2^log_max_rqt)")                               \
	X(RQT_NOT_FOUND, BAD_RESOURCE, "PRM §12.12 T354/T358/T362 08h; T128",                   \
	  "no RQT with this rqtn")                                                                \
	X(RQT_MODIFY_BITMASK, BAD_PARAM, "PRM §12.12.2 T354 14h L8123",                         \
	  "MODIFY_RQT bitmask bit other than 0 ('others: reserved')")                             \
	X(RQT_OUTPUT_TOO_SHORT, BAD_OUTPUT_LEN, "PRM §12.12.4 T363/T364; T128 (D-RQT-3)",        \
	  "QUERY_RQT output_length cannot hold rqt_actual_size rq_num entries")                   \
	X(RQT_IN_USE, BAD_RES_STATE, "PRM §3.2.1; D-OBJ-1", "DESTROY_RQT while a TIR names it")

#define NICREF_VIOLATIONS_TIR(X)

#endif
