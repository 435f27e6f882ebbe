/* Rules and driver violations of MKeys and special contexts (PRM §6, §12.5).
 * Rows as in nicref/rules_ctrl.h. The decisions are in docs/mkey.md (D-MKC-*). */
#ifndef NICREF_RULES_MKEY_H
#define NICREF_RULES_MKEY_H

#define NICREF_CMD_RULES_MKEY(X)                                                                \
	X(MKEY_ACCESS_MODE_RESERVED, BAD_PARAM, "PRM §6.4.1 T10 00h[9:8] L1768",               \
	  "access_mode other than 0 PA, 1 MTT, 2 KLMs")                                           \
	X(MKEY_LR_CLEAR, BAD_PARAM, "PRM §6.4.1 T10 00h[10] L1767",                             \
	  "lr clear: local read 'Must be set for all MKeys'")                                     \
	X(MKEY_QPN_NOT_ONES, BAD_PARAM, "PRM §6.4.1 T10 04h[31:8] L1774",                       \
	  "qpn not all ones (T10 'must be 0xffffffff' of a 24-bit field: 0xFFFFFF)")              \
	X(MKEY_ENTITY_SIZE_SMALL, BAD_PARAM, "PRM §6.4.1 T10 38h[4:0] L1781 (D-MKC-1)",         \
	  "access_mode MTT with log_entity_size below 12 ('Must be >=12')")                       \
	X(MKEY_OCTWORD_SIZE_ALIGN, BAD_PARAM, "PRM §6.4.1 T10 34h L1780",                       \
	  "MTT or KLM translations_octword_size not a multiple of 4")                             \
	X(MKEY_PG_ACCESS_MODE, BAD_PARAM, "PRM §12.5.1 T227 0Ch[31] L6616",                     \
	  "pg_access set with an access_mode other than MTT")                                     \
	X(MKEY_ACTUAL_BEYOND_SIZE, BAD_PARAM, "PRM §12.5.1 T227 60h L6618; T10 34h (D-MKC-8)",  \
	  "translations_octword_actual_size above translations_octword_size (reserved: 0 for "   \
	  "PA)")                                                                                  \
	X(MKEY_KLM_BYTE_COUNT, BAD_PARAM, "PRM §7.4.4.1.3 T37 00h L2348",                        \
	  "a KLM byte_count above 2 GB ('Must be up to 2GB')")                                    \
	X(MKEY_ENTRIES_BEYOND_INPUT, BAD_INPUT_LEN, "PRM §12.5.1 T226/T227 110h; T128",           \
	  "the translations_octword_actual_size octwords at 110h do not fit in input_length")     \
	X(MKEY_PD_OUT_OF_RANGE, BAD_INDEX, "PRM §6.4.1 T10 0Ch[23:0]; T128; D-CMD-7",            \
	  "MKC.pd outside the PD handle range (0 or beyond 2^log_max_pd)")                       \
	X(MKEY_PD_INVALID, BAD_RESOURCE, "PRM §6.4.1 T10 0Ch[23:0]; T128",                       \
	  "MKC.pd is not an allocated PD")                                                        \
	X(MKEY_TOO_LONG, EXCEED_LIM, "PRM §12.3.3 T145 20h[22:16]; T10 18h; D-CMD-7 (D-MKC-5)",  \
	  "len above 2^log_max_mrw_sz with length64 clear")                                       \
	X(MKEY_KLM_LIST_TOO_LONG, EXCEED_LIM, "PRM §12.3.3 T145 20h[5:0]; D-CMD-7 (D-MKC-5)",   \
	  "KLM translations_octword_size above 2^log_max_klm_list_size entries")                  \
	X(MKEY_EXHAUSTED, EXCEED_LIM, "PRM §12.3.3 T145 1Ch[21:16]; T128",                      \
	  "more MKeys than 2^log_max_mkey")                                                       \
	X(MKEY_INDEX_OUT_OF_RANGE, BAD_INDEX, "PRM §12.5.2 T231, §12.5.3 T235 08h; T128",       \
	  "mkey_index outside the MKey table (0 or beyond 2^log_max_mkey)")                       \
	X(MKEY_NOT_FOUND, BAD_RESOURCE, "PRM §12.5.2 L6642, §12.5.3; T128",                     \
	  "no MKey with this mkey_index ('The command will fail if the requested MKey entry is " \
	  "invalid')")                                                                            \
	X(MKEY_QUERY_BSF, BAD_OP, "PRM §12.5.2 T231 04h op_mod 0x2 (D-MKC-2)",                  \
	  "QUERY_MKEY op_mod 2 (BSFs): the device has no BSFs")                                   \
	X(MKEY_QUERY_PG_ACCESS, BAD_PARAM, "PRM §12.5.2 T231 0Ch[31] L6666",                    \
	  "QUERY_MKEY pg_access on an MKey not created with pg_access")

/* T10 34h "Must be a multiple of 4", read as a "should" (D-CMD-19): every driver sends the
 * exact count of its MTTs and KLMs; profile should_strict refuses instead (the rule above). */
#define NICREF_VIOLATIONS_MKEY(X)                                                               \
	X(MKEY_OCTWORD_SIZE_NOT_MULT4, "PRM §6.4.1 T10 34h L1780",                               \
	  "translations_octword_size not a multiple of 4 (a warning, D-CMD-19)")

#endif
