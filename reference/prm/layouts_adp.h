/* Layouts of adaptive retransmission (ADP): the ROCE_ACCL register, its adp_retx_profile and
 * the timeout_range[] entry, from seed 000 (NVIDIA "Adaptive Retransmission: Parameters
 * Control", ROCE_ACCL Layout and Relevant Field Description). Row format: see prm/layouts.h.
 * Only the fields the seed defines are rows; every other bit is reserved (the real register
 * has more fields, out of scope: docs/adp.md).
 *
 * As in prm/layouts_regs.h, rows are written once as PRM_R_<name>(F, W, A, L, B) with every
 * offset "B + <seed offset>": B is 0 in the layouts themselves and 10h in the whole-command
 * views access_reg_roce_accl_in / _out.
 *
 * Seed remarks (docs/adp.md, docs/decisions.md D-ADP-*):
 *   - the register table writes the profile as "10h-3Ch 384": 384 bits are 30h bytes, so the
 *     profile runs 10h-3Fh and the register is 40h bytes; only profile 00h-17h is defined.
 *   - the profile table points at "Table 1006 ... page 1167" for the range entry, the register
 *     table at "Table 1004 ... page 1912" for the profile: inconsistent page numbers, no
 *     consequence.
 *   - timeout_range[4] (profile 08h-14h, 31:0 each) is an array of the range entry; its rows
 *     are named timeout_range_<i>_<field>, as "[63:32]" becomes "_63_32" elsewhere. */
#ifndef NICREF_PRM_LAYOUTS_ADP_H
#define NICREF_PRM_LAYOUTS_ADP_H

/* Seed 000 L189-239: Adaptive Retransmission Timeout Range Layout, entry i of timeout_range[]
 * at B. */
#define PRM_R_adp_range_i(F, L, B, i)                                                           \
	F(L, timeout_range_##i##_prev_range_index, B, 30, 28)                                   \
	F(L, timeout_range_##i##_dec_mode, B, 27, 26)                                           \
	F(L, timeout_range_##i##_timeout_retry_num, B, 25, 16)                                  \
	F(L, timeout_range_##i##_range_low_bound, B, 15, 8)                                     \
	F(L, timeout_range_##i##_range_size, B, 7, 0)

/* The same entry on its own (the rows above with the seed's plain names). */
#define PRM_L_adp_retx_timeout_range(F, W, A, L)                                                \
	F(L, prev_range_index, 0x00, 30, 28)                                                    \
	F(L, dec_mode, 0x00, 27, 26)                                                            \
	F(L, timeout_retry_num, 0x00, 25, 16)                                                   \
	F(L, range_low_bound, 0x00, 15, 8)                                                      \
	F(L, range_size, 0x00, 7, 0)

/* Seed 000 L101-185: Adaptive Retransmission Profile Layout. */
#define PRM_R_adp_retx_profile(F, W, A, L, B)                                                   \
	F(L, qp_total_timeout, B + 0x00, 31, 31)                                                \
	F(L, range_num, B + 0x00, 30, 28)                                                       \
	F(L, start_range_index, B + 0x00, 26, 24)                                               \
	F(L, time_unit, B + 0x00, 23, 22)                                                       \
	F(L, time_base, B + 0x00, 15, 0)                                                        \
	F(L, retx_total_timeout, B + 0x04, 31, 24)                                              \
	F(L, timeout_init_low_bound, B + 0x04, 15, 8)                                           \
	F(L, timeout_init_range_size, B + 0x04, 7, 0)                                           \
	PRM_R_adp_range_i(F, L, B + 0x08, 0)                                                    \
	PRM_R_adp_range_i(F, L, B + 0x0C, 1)                                                    \
	PRM_R_adp_range_i(F, L, B + 0x10, 2)                                                    \
	PRM_R_adp_range_i(F, L, B + 0x14, 3)
#define PRM_L_adp_retx_profile(F, W, A, L) PRM_R_adp_retx_profile(F, W, A, L, 0x00)

/* Seed 000 L7-97: ROCE_ACCL Register Layout (register id: nicref's choice, reg/reg.h). It has
 * no local_port: the register is per function. The seed calls the profile-select bit
 * "adp_retrans_timeouts_profile_select" once (L49); it is adp_retx_profile_select (L23). */
#define PRM_R_roce_accl(F, W, A, L, B)                                                          \
	F(L, adp_retx_profile_select, B + 0x00, 28, 28)                                         \
	F(L, roce_adp_retrans_field_select, B + 0x00, 0, 0)                                     \
	F(L, adp_retx_profile_id, B + 0x04, 30, 28)                                             \
	F(L, roce_adp_retrans_en, B + 0x04, 0, 0)                                               \
	F(L, adp_retx_profile_max_range_num, B + 0x08, 30, 28)                                  \
	F(L, adp_retx_profile_max_id, B + 0x08, 26, 24)                                         \
	F(L, adp_retx_base_timeout_min, B + 0x08, 19, 0)                                        \
	PRM_R_adp_retx_profile(F, W, A, L, B + 0x10)
#define PRM_L_roce_accl(F, W, A, L) PRM_R_roce_accl(F, W, A, L, 0x00)

/* Whole ACCESS_REGISTER commands (PRM §12.4.1 T221-T224) with ROCE_ACCL at 10h; the header
 * macros are prm/layouts_regs.h's. */
#define PRM_L_access_reg_roce_accl_in(F, W, A, L) PRM_ACCESS_REG_IN(F, W, A, L, roce_accl)
#define PRM_L_access_reg_roce_accl_out(F, W, A, L) PRM_ACCESS_REG_OUT(F, W, A, L, roce_accl)

#define NICREF_LAYOUTS_ADP(X)                                                                   \
	X(adp_retx_timeout_range, 0x04, "seed 000 L189-239 (timeout range entry)")              \
	X(adp_retx_profile, 0x30, "seed 000 L101-185 (adp_retx_profile)")                       \
	X(roce_accl, 0x40, "seed 000 L7-97 (ROCE_ACCL register)")                               \
	X(access_reg_roce_accl_in, 0x50, "PRM §12.4.1 T221/T222 + seed 000 ROCE_ACCL at 10h")   \
	X(access_reg_roce_accl_out, 0x50, "PRM §12.4.1 T223/T224 + seed 000 ROCE_ACCL at 10h")

#endif
