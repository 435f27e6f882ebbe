/* Rules that refuse ACCESS_REG (PRM §12.4.1), the port registers (PRM §11.1, T104-T126) and
 * ROCE_ACCL (seed 000); rows as in NICREF_CMD_RULES (nicref/cmd.h): X(ID, STATUS,
 * "citation", "text"). The decisions are in docs/registers.md (D-REG-*) and docs/decisions.md
 * (D-ADP-*). */
#ifndef NICREF_RULES_REG_H
#define NICREF_RULES_REG_H

#include "nicref/api.h"

#define NICREF_CMD_RULES_REG(X)                                                                 \
	X(REG_UNKNOWN, BAD_PARAM, "PRM §12.4.1 T222, §11.1 T104",                               \
	  "register_id is not a register of the device")                                          \
	X(REG_INPUT_TOO_SHORT, BAD_INPUT_LEN, "PRM §12.4.1 T222, §12.2 T128 (D-REG-10)",          \
	  "input_length cannot hold the register data (10h + register size)")                     \
	X(REG_OUTPUT_TOO_SHORT, BAD_OUTPUT_LEN, "PRM §12.4.1 T224, §12.2 T128 (D-REG-10)",        \
	  "READ whose output_length cannot hold the register data (10h + register size)")         \
	X(REG_ARGUMENT_NOT_ZERO, BAD_PARAM, "PRM §12.4.1 T222 (D-REG-1)",                       \
	  "argument not 0: no port register defines it")                                          \
	X(REG_LOCAL_PORT, BAD_PARAM, "PRM §11.1 T106/T108/T110/T112/T114 (D-REG-4)",             \
	  "local_port 0 or beyond the device's ports")                                            \
	X(PMTU_ADMIN_ABOVE_MAX, BAD_PARAM, "PRM §11.1.1 T106",                                  \
	  "PMTU admin_mtu larger than max_mtu")                                                   \
	X(PTYS_PROTO_MASK, BAD_PARAM, "PRM §11.1.2 T108 (D-REG-12)",                            \
	  "PTYS proto_mask is not Ethernet (bit 2) alone")                                        \
	X(PTYS_ADMIN_NOT_CAPABLE, BAD_PARAM, "PRM §11.1.2 T108 (D-REG-13)",                     \
	  "PTYS eth_proto_admin has a protocol not in eth_proto_capability")                      \
	X(PTYS_ADMIN_EMPTY, BAD_PARAM, "PRM §11.1.2 T108 (D-REG-13)",                           \
	  "PTYS eth_proto_admin is 0: no protocol to train the link with")                        \
	X(PAOS_ADMIN_BY_HW, BAD_PARAM, "PRM §11.1.3 T110",                                      \
	  "PAOS admin_status 4 (disabled by system) cannot be set by software")                   \
	X(PAOS_ADMIN_INVALID, BAD_PARAM, "PRM §11.1.3 T110",                                    \
	  "PAOS admin_status (with ase) not 1 up, 2 down or 3 up once")                           \
	X(PFCC_PAUSE_AND_PFC, BAD_PARAM, "PRM §11.1.4 T112, note before T112 (D-REG-16)",       \
	  "PFCC global pause (pptx/pprx) and PFC (pfctx/pfcrx) both in use on the port")          \
	X(PFCC_WATERMARK_RANGE, BAD_PARAM, "PRM §11.1.4 T112 10h",                              \
	  "PFCC device_stall watermark not 0 and outside 0x50-0x1F40")                            \
	X(PPCNT_GRP_INVALID, BAD_PARAM, "PRM §11.1.5 T114",                                     \
	  "PPCNT grp is not a counter group of an HCA (0x0-0x3, 0x10, 0x11)")                     \
	X(PPCNT_GRP_ALL_NOT_CLR, BAD_PARAM, "PRM §11.1.5 T114",                                 \
	  "PPCNT grp 63 (all groups) other than in a WRITE with clr set")                         \
	X(PPCNT_PRIO_TC_RANGE, BAD_PARAM, "PRM §11.1.5 T114, §12.3.3 T145 max_tc (D-REG-19)",   \
	  "PPCNT prio_tc beyond the priorities or traffic classes, or not 0 for its group")      \
	NICREF_CMD_RULES_ROCE_ACCL(X)

/* ROCE_ACCL (seed 000) profile writes, refused whole (nothing changes); checked in this order.
 * The decisions are D-ADP-* in docs/decisions.md; reference/adp/profile.c maps its rules
 * (enum nicref_adp_rule) to the ROCE_ACCL_ADP_* rows one to one. */
#define NICREF_CMD_RULES_ROCE_ACCL(X)                                                           \
	X(ROCE_ACCL_PROFILE_ID_ZERO, BAD_PARAM, "seed 000 L47; seed 001 L66-72 (D-ADP-1)",      \
	  "ROCE_ACCL profile write with adp_retx_profile_id 0: reserved; no return to "           \
	  "firmware-defined timeouts without a reset")                                            \
	X(ROCE_ACCL_PROFILE_ID_ABOVE_MAX, BAD_PARAM, "seed 000 L49, L75-77",                    \
	  "ROCE_ACCL adp_retx_profile_id above adp_retx_profile_max_id")                          \
	X(ROCE_ACCL_ADP_TIME_UNIT, BAD_PARAM, "seed 000 L139-147",                              \
	  "ADP profile time_unit is not 0x1 TIME_USEC")                                           \
	X(ROCE_ACCL_ADP_TIME_BASE_NOT_POW2, BAD_PARAM, "seed 001 L27",                          \
	  "ADP profile time_base is 0 or not a power of 2")                                       \
	X(ROCE_ACCL_ADP_TIME_BASE_BELOW_MIN, BAD_PARAM, "seed 001 L27; seed 000 L83-85",        \
	  "ADP profile time_base (us) below adp_retx_base_timeout_min (ns)")                      \
	X(ROCE_ACCL_ADP_RANGE_NUM, BAD_PARAM, "seed 000 L67-69, L129-131, L181-185 (D-ADP-19)", \
	  "ADP profile range_num is 0 or above adp_retx_profile_max_range_num (at most 4)")       \
	X(ROCE_ACCL_ADP_START_RANGE, BAD_PARAM, "seed 000 L135-137, L185; seed 001 L17",        \
	  "ADP profile start_range_index is not a valid range (< range_num)")                     \
	X(ROCE_ACCL_ADP_RANGES_NOT_SORTED, BAD_PARAM, "seed 001 L41",                           \
	  "ADP profile range_low_bound not strictly increasing over the valid ranges")            \
	X(ROCE_ACCL_ADP_PREV_RANGE, BAD_PARAM, "seed 001 L61; seed 000 L205-207 (D-ADP-5)",     \
	  "ADP profile prev_range_index not below its range (range 0: not 0)")                    \
	X(ROCE_ACCL_ADP_DEC_MODE, BAD_PARAM, "seed 000 L211-221",                               \
	  "ADP profile dec_mode 3 (reserved) in a valid range")                                   \
	X(ROCE_ACCL_ADP_RETRY_NUM, BAD_PARAM, "seed 000 L225-227; seed 001 L29 (D-ADP-6)",      \
	  "ADP profile timeout_retry_num 0 in a valid range")                                     \
	X(ROCE_ACCL_ADP_OVERFLOW, BAD_PARAM, "seed 000 L161, L169-175, L233-239 (D-ADP-7)",     \
	  "ADP profile time value base << exponent reaches 2^63 ns")

/* The registers ACCESS_REGISTER reaches (reference/reg/reg.h NICREF_REGISTERS), for harnesses
 * that name them ("PMTU"): the name and size (bytes) of a register_id, NULL / 0 if the device
 * has none; the register_id of a name, -1 if unknown. */
NICREF_API const char *nicref_register_name(unsigned register_id);
NICREF_API unsigned nicref_register_size(unsigned register_id);
NICREF_API int nicref_register_find(const char *name);

#endif
