/* Rules that refuse ACCESS_REG (PRM §12.4.1) and the port registers (PRM §11.1, T104-T126); rows
 * as in NICREF_CMD_RULES (nicref/cmd.h): X(ID, STATUS, "citation", "text"). The decisions
 * (D-REG-*) are in docs/registers.md. */
#ifndef NICREF_RULES_REG_H
#define NICREF_RULES_REG_H

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
	  "PPCNT prio_tc beyond the priorities or traffic classes, or not 0 for its group")

/* The registers ACCESS_REGISTER reaches (reference/reg/reg.h NICREF_REGISTERS), for harnesses
 * that name them ("PMTU"): the name and size (bytes) of a register_id, NULL / 0 if the device
 * has none; the register_id of a name, -1 if unknown. */
const char *nicref_register_name(unsigned register_id);
unsigned nicref_register_size(unsigned register_id);
int nicref_register_find(const char *name);

#endif
