/* Private to libnicref: the command rows of the vport, its counters and the L2 table (PRM
 * §12.15-§12.17). Rows and handlers as in cmd/cmd_table.h, which includes this file.
 *
 * op_mod: T471 "0: vnic_vport", T475 "0: nic_vport", T488 "0: vport_counters, others:
 * reserved"; the others describe none, so 0 only (T100). All need INIT_HCA (D-INIT-2). */
#ifndef NICREF_CMD_ROWS_VPORT_H
#define NICREF_CMD_ROWS_VPORT_H

struct cmd_ctx;

/* obj/vport_cmd.c */
enum nicref_cmd_rule cmd_query_vport_state(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_vport_state(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_nic_vport_context(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_nic_vport_context(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_vport_counter(struct cmd_ctx *c);
/* obj/vport_l2.c */
enum nicref_cmd_rule cmd_set_l2_table_entry(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_l2_table_entry(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_delete_l2_table_entry(struct cmd_ctx *c);

#define NICREF_CMDS_VPORT(X)                                                                    \
	X(QUERY_VPORT_STATE, cmd_query_vport_state, query_vport_state_in,                       \
	  query_vport_state_out, OPMOD(0), S_INI)                                               \
	X(MODIFY_VPORT_STATE, cmd_modify_vport_state, modify_vport_state_in,                    \
	  modify_vport_state_out, OPMOD(0), S_INI)                                              \
	X(QUERY_NIC_VPORT_CONTEXT, cmd_query_nic_vport_context, query_nic_vport_context_in,     \
	  query_nic_vport_context_out, OPMOD(0), S_INI)                                         \
	X(MODIFY_NIC_VPORT_CONTEXT, cmd_modify_nic_vport_context, modify_nic_vport_context_in,  \
	  modify_nic_vport_context_out, OPMOD(0), S_INI)                                        \
	X(QUERY_VPORT_COUNTER, cmd_query_vport_counter, query_vport_counter_in,                 \
	  query_vport_counter_out, OPMOD(0), S_INI)                                             \
	X(SET_L2_TABLE_ENTRY, cmd_set_l2_table_entry, set_l2_table_entry_in,                    \
	  set_l2_table_entry_out, OPMOD(0), S_INI)                                              \
	X(QUERY_L2_TABLE_ENTRY, cmd_query_l2_table_entry, query_l2_table_entry_in,              \
	  query_l2_table_entry_out, OPMOD(0), S_INI)                                            \
	X(DELETE_L2_TABLE_ENTRY, cmd_delete_l2_table_entry, delete_l2_table_entry_in,           \
	  delete_l2_table_entry_out, OPMOD(0), S_INI)

#endif
