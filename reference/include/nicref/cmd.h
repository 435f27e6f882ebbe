/* Command interface tables: the opcodes of PRM T127, the return statuses of T128, the
 * delivery statuses of T96, and the rules that refuse a command (each with the status it
 * returns and its citation). One table each; names are generated from them. */
#ifndef NICREF_CMD_H
#define NICREF_CMD_H

#include <stdint.h>

#include "nicref/api.h"
#include "nicref/rules_caps.h"
#include "nicref/rules_reg.h"
#include "nicref/rules_ctrl.h"

/* PRM §12.2 T128: X(ID, value, "description") */
#define NICREF_CMD_STATUSES(X)                                                                  \
	X(OK, 0x00, "command execution succeeded")                                              \
	X(INTERNAL_ERR, 0x01, "internal error (for example bus error)")                         \
	X(BAD_OP, 0x02, "operation/command or opcode modifier not supported")                   \
	X(BAD_PARAM, 0x03, "parameter not supported or out of range, reserved not equal 0")     \
	X(BAD_SYS_STATE, 0x04, "system was not enabled or bad system state")                    \
	X(BAD_RESOURCE, 0x05, "reserved or unallocated resource, or resource in bad status")    \
	X(RESOURCE_BUSY, 0x06, "resource is executing a command")                               \
	X(EXCEED_LIM, 0x08, "required capability exceeds device limits")                        \
	X(BAD_RES_STATE, 0x09, "resource not in the appropriate state or ownership")            \
	X(BAD_INDEX, 0x0A, "index out of range")                                                \
	X(NO_RESOURCES, 0x0F, "not executed for lack of resources")                             \
	X(BAD_RESOURCE_STATE, 0x10, "resource (RQ/SQ/TIR/TIS) not in the presumed state")       \
	X(BAD_SIZE, 0x40, "more outstanding CQEs in CQ than new CQ size")                       \
	X(BAD_INPUT_LEN, 0x50, "bad command input length")                                      \
	X(BAD_OUTPUT_LEN, 0x51, "bad command output length")

enum nicref_cmd_status {
#define NICREF_STATUS_ENUM(id, v, d) NICREF_STATUS_##id = v,
	NICREF_CMD_STATUSES(NICREF_STATUS_ENUM)
#undef NICREF_STATUS_ENUM
};

/* PRM §7.14.1 T96: delivery status, entry 3Ch[7:1]. 0x10 is the 7-bit value 0x10 (byte 3Fh
 * reads 0x20 | ownership), see docs/decisions.md D-CMD-2. */
#define NICREF_DELIVERY_STATUSES(X)                                                             \
	X(OK, 0x0, "no errors")                                                                 \
	X(SIGNATURE, 0x1, "signature error")                                                    \
	X(TOKEN, 0x2, "token error")                                                            \
	X(BAD_BLOCK_NUMBER, 0x3, "bad block number")                                            \
	X(BAD_OUTPUT_POINTER, 0x4, "bad output pointer")                                        \
	X(BAD_INPUT_POINTER, 0x5, "bad input pointer")                                          \
	X(INTERNAL, 0x6, "internal error")                                                      \
	X(INPUT_LEN, 0x7, "input length less than 0x8")                                         \
	X(OUTPUT_LEN, 0x8, "output length less than 0x8")                                       \
	X(RESERVED_NOT_ZERO, 0x9, "reserved not zero")                                          \
	X(BAD_TYPE, 0x10, "bad command type")

enum nicref_delivery_status {
#define NICREF_DELIVERY_ENUM(id, v, d) NICREF_DELIVERY_##id = v,
	NICREF_DELIVERY_STATUSES(NICREF_DELIVERY_ENUM)
#undef NICREF_DELIVERY_ENUM
};

/* PRM §12.1 T127: X(ID, opcode, "§section"). Every command of the PRM. */
#define NICREF_OPCODES(X)                                                                       \
	X(QUERY_HCA_CAP, 0x100, "12.3.3")                                                       \
	X(QUERY_ADAPTER, 0x101, "12.3.5")                                                       \
	X(INIT_HCA, 0x102, "12.3.6")                                                            \
	X(TEARDOWN_HCA, 0x103, "12.3.7")                                                        \
	X(ENABLE_HCA, 0x104, "12.3.8")                                                          \
	X(DISABLE_HCA, 0x105, "12.3.9")                                                         \
	X(QUERY_PAGES, 0x107, "12.3.1")                                                         \
	X(MANAGE_PAGES, 0x108, "12.3.2")                                                        \
	X(SET_HCA_CAP, 0x109, "12.3.4")                                                         \
	X(QUERY_ISSI, 0x10A, "12.3.10")                                                         \
	X(SET_ISSI, 0x10B, "12.3.11")                                                           \
	X(SET_DRIVER_VERSION, 0x10D, "12.3.12")                                                 \
	X(CREATE_MKEY, 0x200, "12.5.1")                                                         \
	X(QUERY_MKEY, 0x201, "12.5.2")                                                          \
	X(DESTROY_MKEY, 0x202, "12.5.3")                                                        \
	X(QUERY_SPECIAL_CONTEXTS, 0x203, "12.5.4")                                              \
	X(CREATE_EQ, 0x301, "12.6.1")                                                           \
	X(DESTROY_EQ, 0x302, "12.6.2")                                                          \
	X(QUERY_EQ, 0x303, "12.6.3")                                                            \
	X(GEN_EQE, 0x304, "12.6.4")                                                             \
	X(CREATE_CQ, 0x400, "12.7.1")                                                           \
	X(DESTROY_CQ, 0x401, "12.7.2")                                                          \
	X(QUERY_CQ, 0x402, "12.7.3")                                                            \
	X(MODIFY_CQ, 0x403, "12.7.4")                                                           \
	X(QUERY_VPORT_STATE, 0x750, "12.16.1")                                                  \
	X(MODIFY_VPORT_STATE, 0x751, "12.16.2")                                                 \
	X(QUERY_NIC_VPORT_CONTEXT, 0x754, "12.16.3")                                            \
	X(MODIFY_NIC_VPORT_CONTEXT, 0x755, "12.16.4")                                           \
	X(QUERY_VPORT_COUNTER, 0x770, "12.17.1")                                                \
	X(ALLOC_PD, 0x800, "12.3.13")                                                           \
	X(DEALLOC_PD, 0x801, "12.3.14")                                                         \
	X(ALLOC_UAR, 0x802, "12.3.15")                                                          \
	X(DEALLOC_UAR, 0x803, "12.3.16")                                                        \
	X(CONFIG_INT_MODERATION, 0x804, "12.3.17")                                              \
	X(ACCESS_REG, 0x805, "12.4.1")                                                          \
	X(NOP, 0x80D, "12.18.1")                                                                \
	X(ALLOC_TRANSPORT_DOMAIN, 0x816, "12.3.18")                                             \
	X(DEALLOC_TRANSPORT_DOMAIN, 0x817, "12.3.19")                                           \
	X(SET_L2_TABLE_ENTRY, 0x829, "12.15.1")                                                 \
	X(QUERY_L2_TABLE_ENTRY, 0x82A, "12.15.2")                                               \
	X(DELETE_L2_TABLE_ENTRY, 0x82B, "12.15.3")                                              \
	X(CREATE_TIR, 0x900, "12.8.1")                                                          \
	X(MODIFY_TIR, 0x901, "12.8.2")                                                          \
	X(DESTROY_TIR, 0x902, "12.8.3")                                                         \
	X(QUERY_TIR, 0x903, "12.8.4")                                                           \
	X(CREATE_SQ, 0x904, "12.10.1")                                                          \
	X(MODIFY_SQ, 0x905, "12.10.2")                                                          \
	X(DESTROY_SQ, 0x906, "12.10.3")                                                         \
	X(QUERY_SQ, 0x907, "12.10.4")                                                           \
	X(CREATE_RQ, 0x908, "12.11.1")                                                          \
	X(MODIFY_RQ, 0x909, "12.11.2")                                                          \
	X(DESTROY_RQ, 0x90A, "12.11.3")                                                         \
	/* T127 links QUERY_RQ to §12.11.3; the command is described in §12.11.4. */           \
	X(QUERY_RQ, 0x90B, "12.11.4")                                                           \
	X(CREATE_RMP, 0x90C, "12.13.1")                                                         \
	X(MODIFY_RMP, 0x90D, "12.13.2")                                                         \
	X(DESTROY_RMP, 0x90E, "12.13.3")                                                        \
	X(QUERY_RMP, 0x90F, "12.13.4")                                                          \
	X(CREATE_TIS, 0x912, "12.9.1")                                                          \
	X(MODIFY_TIS, 0x913, "12.9.2")                                                          \
	X(DESTROY_TIS, 0x914, "12.9.3")                                                         \
	X(QUERY_TIS, 0x915, "12.9.4")                                                           \
	X(CREATE_RQT, 0x916, "12.12.1")                                                         \
	X(MODIFY_RQT, 0x917, "12.12.2")                                                         \
	X(DESTROY_RQT, 0x918, "12.12.3")                                                        \
	X(QUERY_RQT, 0x919, "12.12.4")                                                          \
	X(SET_FLOW_TABLE_ROOT, 0x92F, "12.14.4")                                                \
	X(CREATE_FLOW_TABLE, 0x930, "12.14.1")                                                  \
	X(DESTROY_FLOW_TABLE, 0x931, "12.14.3")                                                 \
	X(QUERY_FLOW_TABLE, 0x932, "12.14.5")                                                   \
	X(CREATE_FLOW_GROUP, 0x933, "12.14.6")                                                  \
	X(DESTROY_FLOW_GROUP, 0x934, "12.14.7")                                                 \
	X(QUERY_FLOW_GROUP, 0x935, "12.14.8")                                                   \
	X(SET_FLOW_TABLE_ENTRY, 0x936, "12.14.9")                                               \
	X(QUERY_FLOW_TABLE_ENTRY, 0x937, "12.14.10")                                            \
	X(DELETE_FLOW_TABLE_ENTRY, 0x938, "12.14.11")                                           \
	X(ALLOC_FLOW_COUNTER, 0x939, "12.14.12")                                                \
	X(DEALLOC_FLOW_COUNTER, 0x93A, "12.14.13")                                              \
	X(QUERY_FLOW_COUNTER, 0x93B, "12.14.14")                                                \
	X(MODIFY_FLOW_TABLE, 0x93C, "12.14.2")                                                  \
	NICREF_OPCODES_BEYOND_PRM(X)

/* Beyond PRM Rev 0.40 (issue 17, docs/roce.md): the public mlx5 QP and GID-table commands,
 * their opcodes as Linux include/linux/mlx5/mlx5_ifc.h MLX5_CMD_OP_* gives them; the "section"
 * names that source instead of a PRM section. */
#define NICREF_OPCODES_BEYOND_PRM(X)                                                            \
	X(CREATE_QP, 0x500, "mlx5_ifc.h")                                                       \
	X(DESTROY_QP, 0x501, "mlx5_ifc.h")                                                      \
	X(RST2INIT_QP, 0x502, "mlx5_ifc.h")                                                     \
	X(INIT2RTR_QP, 0x503, "mlx5_ifc.h")                                                     \
	X(RTR2RTS_QP, 0x504, "mlx5_ifc.h")                                                      \
	X(RTS2RTS_QP, 0x505, "mlx5_ifc.h")                                                      \
	X(SQERR2RTS_QP, 0x506, "mlx5_ifc.h")                                                    \
	X(2ERR_QP, 0x507, "mlx5_ifc.h")                                                         \
	X(2RST_QP, 0x50A, "mlx5_ifc.h")                                                         \
	X(QUERY_QP, 0x50B, "mlx5_ifc.h")                                                        \
	X(SQD_RTS_QP, 0x50C, "mlx5_ifc.h")                                                      \
	X(INIT2INIT_QP, 0x50E, "mlx5_ifc.h")                                                    \
	X(QUERY_ROCE_ADDRESS, 0x760, "mlx5_ifc.h")                                              \
	X(SET_ROCE_ADDRESS, 0x761, "mlx5_ifc.h")                                               \
	X(CREATE_UMEM, 0xA08, "mlx5_ifc.h")                                                     \
	X(DESTROY_UMEM, 0xA0A, "mlx5_ifc.h")

enum nicref_opcode {
#define NICREF_OPCODE_ENUM(id, op, sec) NICREF_OP_##id = op,
	NICREF_OPCODES(NICREF_OPCODE_ENUM)
#undef NICREF_OPCODE_ENUM
};

/* Rules that refuse a command: X(ID, STATUS, "citation", "text"). The syndrome the model
 * writes for a refused command is nicref_cmd_rule_syndrome(rule): a stable hash of the rule
 * name (docs/decisions.md D-CMD-6), so a syndrome names its rule across versions. */
#define NICREF_CMD_RULES(X)                                                                     \
	X(NONE, OK, "", "the command succeeded")                                                \
	X(INPUT_TOO_SHORT, BAD_INPUT_LEN, "PRM §12.2 T128",                                     \
	  "input_length below the command's input layout")                                        \
	X(OUTPUT_TOO_SHORT, BAD_OUTPUT_LEN, "PRM §12.2 T128",                                   \
	  "output_length below the command's output layout")                                      \
	X(INPUT_TOO_LONG, BAD_INPUT_LEN, "PRM §12.2 T128",                                      \
	  "input_length beyond the device's mailbox limit")                                       \
	X(OUTPUT_TOO_LONG, BAD_OUTPUT_LEN, "PRM §12.2 T128",                                    \
	  "output_length beyond the device's mailbox limit")                                      \
	X(UNKNOWN_OPCODE, BAD_OP, "PRM §12.1 T127", "opcode not in the command list")           \
	X(UNMODELLED_OPCODE, BAD_OP, "PRM §12.1 T127",                                          \
	  "opcode of the PRM that this model does not implement yet")                             \
	X(BAD_OP_MOD, BAD_OP, "PRM §7.14.1.2 T100",                                             \
	  "op_mod not described for the command (must be 0)")                                     \
	NICREF_CMD_RULES_LIFECYCLE(X)                                                           \
	NICREF_CMD_RULES_INIT(X)                                                                \
	NICREF_CMD_RULES_CAPS(X)                                                                \
	NICREF_CMD_RULES_REG(X)                                                                 \
	NICREF_CMD_RULES_CTRL(X)

/* The device lifecycle (PRM §8.2-§8.3; the per-state command sets are D-INIT-2) and reserved
 * input fields (PRM §12.2 T128 "reserved not equal 0"; D-CMD-8). */
#define NICREF_CMD_RULES_LIFECYCLE(X)                                                           \
	X(HCA_NOT_ENABLED, BAD_SYS_STATE, "PRM §8.2", "command before ENABLE_HCA")              \
	X(HCA_ALREADY_ENABLED, BAD_SYS_STATE, "PRM §8.2", "ENABLE_HCA while already enabled")  \
	X(HCA_NOT_INITIALIZED, BAD_SYS_STATE, "PRM §8.2", "command before INIT_HCA")            \
	X(HCA_ALREADY_INITIALIZED, BAD_SYS_STATE, "PRM §8.2",                                   \
	  "start-up command after INIT_HCA")                                                      \
	X(HCA_NOT_TORN_DOWN, BAD_SYS_STATE, "PRM §8.3", "DISABLE_HCA before TEARDOWN_HCA")      \
	X(HCA_TORN_DOWN, BAD_SYS_STATE, "PRM §8.3", "command after TEARDOWN_HCA")               \
	X(RESERVED_NOT_ZERO, BAD_PARAM, "PRM §12.2 T128",                                       \
	  "reserved input field not zero (profile reserved_check = strict)")

/* The init and general commands of PRM §12.3. */
#define NICREF_CMD_RULES_INIT(X)                                                                \
	X(TEARDOWN_BAD_PROFILE, BAD_PARAM, "PRM §12.3.7 T170",                                  \
	  "TEARDOWN_HCA profile other than 0 graceful or 1 panic")                                \
	X(INIT_PAGES_MISSING, NO_RESOURCES, "PRM §8.2, §12.3.2",                                \
	  "INIT_HCA before the boot and init pages were given")                                   \
	X(ISSI_UNSUPPORTED, BAD_PARAM, "PRM §7.1, §12.3.11 T186",                               \
	  "SET_ISSI to an ISSI the device does not support")                                      \
	X(PAGES_ENTRIES_BEYOND_INPUT, BAD_INPUT_LEN, "PRM §12.3.2 T135",                        \
	  "input_num_entries PAS entries do not fit in the input")                               \
	X(PAGES_OUTPUT_TOO_SHORT, BAD_OUTPUT_LEN, "PRM §12.3.2 T137",                           \
	  "the output cannot hold input_num_entries returned pages")                              \
	X(PAGE_NOT_ALIGNED, BAD_PARAM, "PRM §12.3.2 T139",                                      \
	  "a page address is not 4 KB aligned")                                                   \
	X(PAGE_DUPLICATE, BAD_PARAM, "PRM §12.3.2",                                             \
	  "a page the device already holds, or listed twice")                                     \
	X(PAGES_BEYOND_LIMIT, EXCEED_LIM, "PRM §12.3.2",                                        \
	  "more pages than the device can hold (profile max_icm_pages)")                          \
	X(DRIVER_VERSION_UNSUPPORTED, BAD_OP, "PRM §12.3.12, T145 4Ch[30]",                     \
	  "SET_DRIVER_VERSION while HCA_CAP.driver_version is 0")                                 \
	X(DRIVER_VERSION_UNTERMINATED, BAD_PARAM, "PRM §12.3.12 T190",                          \
	  "driver_version has no end-of-string symbol within its 64 bytes")                       \
	X(PD_EXHAUSTED, EXCEED_LIM, "PRM §12.3.13, T145 64h[20:16]",                            \
	  "more PDs than 2^log_max_pd")                                                            \
	X(PD_NOT_ALLOCATED, BAD_RESOURCE, "PRM §12.3.14, T128", "DEALLOC_PD of a PD not allocated") \
	X(UAR_EXHAUSTED, EXCEED_LIM, "PRM §12.3.15, T145 48h/90h",                              \
	  "no UAR page left in the UAR area")                                                     \
	X(UAR_NOT_ALLOCATED, BAD_RESOURCE, "PRM §12.3.16, T128",                                \
	  "DEALLOC_UAR of a UAR not allocated")                                                   \
	X(TD_EXHAUSTED, EXCEED_LIM, "PRM §12.3.18, T145 64h[28:24]",                            \
	  "more transport domains than 2^log_max_transport_domain")                               \
	X(TD_NOT_ALLOCATED, BAD_RESOURCE, "PRM §12.3.19, T128",                                 \
	  "DEALLOC_TRANSPORT_DOMAIN of a domain not allocated")                                   \
	X(INT_VECTOR_OUT_OF_RANGE, BAD_PARAM, "PRM §12.3.17 T210",                              \
	  "int_vector beyond the device's MSI-X vectors")

enum nicref_cmd_rule {
#define NICREF_CMD_RULE_ENUM(id, st, cite, text) NICREF_RULE_##id,
	NICREF_CMD_RULES(NICREF_CMD_RULE_ENUM)
#undef NICREF_CMD_RULE_ENUM
	NICREF_RULE_COUNT
};

NICREF_API const char *nicref_cmd_status_name(unsigned status);      /* NULL if not in T128 */
NICREF_API const char *nicref_delivery_status_name(unsigned status); /* NULL if not in T96 */
NICREF_API const char *nicref_opcode_name(unsigned opcode);          /* NULL if not in T127 */
NICREF_API int nicref_opcode_find(const char *name);                 /* -1 if unknown */
/* Whether the model implements the opcode (0: it answers BAD_OP as unmodelled). */
NICREF_API int nicref_opcode_modelled(unsigned opcode);
/* Opcodes of T127 in table order. */
NICREF_API unsigned nicref_opcode_count(void);
NICREF_API unsigned nicref_opcode_at(unsigned i);
NICREF_API const char *nicref_opcode_section(unsigned opcode);

NICREF_API const char *nicref_cmd_rule_name(unsigned rule);
NICREF_API const char *nicref_cmd_rule_citation(unsigned rule);
NICREF_API unsigned nicref_cmd_rule_status(unsigned rule);
NICREF_API uint32_t nicref_cmd_rule_syndrome(unsigned rule);
NICREF_API int nicref_cmd_rule_find(const char *name);

#endif
