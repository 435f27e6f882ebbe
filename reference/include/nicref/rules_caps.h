/* Rules that refuse QUERY_HCA_CAP and SET_HCA_CAP (PRM §12.3.3-§12.3.4); rows as in
 * NICREF_CMD_RULES (nicref/cmd.h): X(ID, STATUS, "citation", "text").
 *
 * Dispatch refuses the rest before the handlers run: an op_mod type other than 0, 1, 7 (and,
 * for SET_HCA_CAP, op_mod bit 0 set) with BAD_OP_MOD (T141, T155), QUERY before ENABLE_HCA
 * with HCA_NOT_ENABLED, SET after INIT_HCA with HCA_ALREADY_INITIALIZED (§8.2, D-INIT-2),
 * and reserved bits of the capability structure (checked by the SET handler through the
 * T144/T146/T148 layouts) with RESERVED_NOT_ZERO. SET_HCA_CAP takes only the fields its
 * tables mark RW (T145: cmdif_checksum, cache_line_128byte, log_max_sq, log_uar_page_sz;
 * T147/T149/T151 mark none); a value the device cannot take is BAD_PARAM ("parameter not
 * supported or out of range", T128). */
#ifndef NICREF_RULES_CAPS_H
#define NICREF_RULES_CAPS_H

#define NICREF_CMD_RULES_CAPS(X)                                                                \
	X(CAP_CMDIF_CHECKSUM_INVALID, BAD_PARAM, "PRM §12.3.4, T145 40h[15:14]",                \
	  "SET_HCA_CAP cmdif_checksum not 0, 1 or 3, or above the maximum capability")          \
	X(CAP_CACHE_LINE_128_UNSUPPORTED, BAD_PARAM, "PRM §12.3.4, T145 2Ch[27], §3.3.10",      \
	  "SET_HCA_CAP cache_line_128byte = 1 while the maximum capability is 0")               \
	X(CAP_LOG_MAX_SQ_ABOVE_MAX, BAD_PARAM, "PRM §12.3.4, T145 6Ch[20:16]",                  \
	  "SET_HCA_CAP log_max_sq above the maximum capability")                                \
	X(CAP_UAR_PAGE_BEYOND_AREA, BAD_PARAM, "PRM §12.3.4, T145 48h/90h, §7.2.1",             \
	  "SET_HCA_CAP log_uar_page_sz makes a UAR page larger than the UAR area "              \
	  "(4 KB * 2^log_uar_page_sz > 1 MB * 2^uar_sz)")

#endif
