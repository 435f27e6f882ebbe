/* Private to libnicref: the command rows of flow steering (PRM §12.14, T382-T456; opcodes
 * 0x92F-0x93C of T127). Rows and handlers as in cmd/cmd_table.h, which includes this file.
 * SET_FLOW_TABLE_ENTRY takes op_mod 0 (set) and 1 (modify) (T428 04h); QUERY_FLOW_COUNTER's
 * op_mod "Must be 0" (T454); the others describe none ("op_mod must be 0", T100). All need an
 * initialized HCA (D-INIT-2). */
#ifndef NICREF_CMD_ROWS_STEER_H
#define NICREF_CMD_ROWS_STEER_H

struct cmd_ctx;

/* obj/flow_table.c */
enum nicref_cmd_rule cmd_create_flow_table(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_modify_flow_table(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_flow_table(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_set_flow_table_root(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_flow_table(struct cmd_ctx *c);
/* obj/flow_group.c */
enum nicref_cmd_rule cmd_create_flow_group(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_destroy_flow_group(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_flow_group(struct cmd_ctx *c);
/* obj/flow_entry.c */
enum nicref_cmd_rule cmd_set_flow_table_entry(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_flow_table_entry(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_delete_flow_table_entry(struct cmd_ctx *c);
/* obj/flow_counter.c */
enum nicref_cmd_rule cmd_alloc_flow_counter(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_dealloc_flow_counter(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_query_flow_counter(struct cmd_ctx *c);

#define NICREF_CMDS_STEER(X)                                                                    \
	X(CREATE_FLOW_TABLE, cmd_create_flow_table, create_flow_table_in, create_flow_table_out, \
	  OPMOD(0), S_INI)                                                                      \
	X(MODIFY_FLOW_TABLE, cmd_modify_flow_table, modify_flow_table_in, modify_flow_table_out, \
	  OPMOD(0), S_INI)                                                                      \
	X(DESTROY_FLOW_TABLE, cmd_destroy_flow_table, destroy_flow_table_in,                    \
	  destroy_flow_table_out, OPMOD(0), S_INI)                                              \
	X(SET_FLOW_TABLE_ROOT, cmd_set_flow_table_root, set_flow_table_root_in,                 \
	  set_flow_table_root_out, OPMOD(0), S_INI)                                             \
	X(QUERY_FLOW_TABLE, cmd_query_flow_table, query_flow_table_in, query_flow_table_out,    \
	  OPMOD(0), S_INI)                                                                      \
	X(CREATE_FLOW_GROUP, cmd_create_flow_group, create_flow_group_in, create_flow_group_out, \
	  OPMOD(0), S_INI)                                                                      \
	X(DESTROY_FLOW_GROUP, cmd_destroy_flow_group, destroy_flow_group_in,                    \
	  destroy_flow_group_out, OPMOD(0), S_INI)                                              \
	X(QUERY_FLOW_GROUP, cmd_query_flow_group, query_flow_group_in, query_flow_group_out,    \
	  OPMOD(0), S_INI)                                                                      \
	X(SET_FLOW_TABLE_ENTRY, cmd_set_flow_table_entry, set_flow_table_entry_in,              \
	  set_flow_table_entry_out, OPMODS(2), S_INI)                                           \
	X(QUERY_FLOW_TABLE_ENTRY, cmd_query_flow_table_entry, query_flow_table_entry_in,        \
	  query_flow_table_entry_out, OPMOD(0), S_INI)                                          \
	X(DELETE_FLOW_TABLE_ENTRY, cmd_delete_flow_table_entry, delete_flow_table_entry_in,     \
	  delete_flow_table_entry_out, OPMOD(0), S_INI)                                         \
	X(ALLOC_FLOW_COUNTER, cmd_alloc_flow_counter, alloc_flow_counter_in,                    \
	  alloc_flow_counter_out, OPMOD(0), S_INI)                                              \
	X(DEALLOC_FLOW_COUNTER, cmd_dealloc_flow_counter, dealloc_flow_counter_in,              \
	  dealloc_flow_counter_out, OPMOD(0), S_INI)                                            \
	X(QUERY_FLOW_COUNTER, cmd_query_flow_counter, query_flow_counter_in,                    \
	  query_flow_counter_out, OPMOD(0), S_INI)

#endif
