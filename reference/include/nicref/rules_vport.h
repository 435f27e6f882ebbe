/* Rules and driver violations of the NIC vport, its counters and the L2 table (PRM §7.3,
 * §12.15-§12.17). Rows as in nicref/rules_ctrl.h. The decisions (D-VP-*, D-L2-*) are in
 * docs/vport.md. */
#ifndef NICREF_RULES_VPORT_H
#define NICREF_RULES_VPORT_H

#define NICREF_CMD_RULES_VPORT(X)                                                               \
	X(VPORT_ADMIN_STATE_INVALID, BAD_PARAM, "PRM §12.16.2 T475",                            \
	  "MODIFY_VPORT_STATE admin_state other than 0 down or 1 up")                             \
	X(NIC_VPORT_FIELD_SELECT_UNKNOWN, BAD_PARAM, "PRM §12.16.4 T483; D-VP-5",               \
	  "MODIFY_NIC_VPORT_CONTEXT field_select has a bit other than 1 (roce_en), 2, 4, 6")     \
	X(NIC_VPORT_LIST_TYPE_INVALID, BAD_PARAM, "PRM §7.3 T16, §12.16.3 T479",                \
	  "allowed_list_type other than 0 uc, 1 mc or 2 vlan")                                    \
	X(NIC_VPORT_UC_LIST_TOO_LONG, BAD_PARAM, "PRM §7.3 T16; D-VP-1",                        \
	  "current_uc_mac_address list longer than 2^HCA_CAP.log_max_current_uc_list")           \
	X(NIC_VPORT_MC_LIST_TOO_LONG, BAD_PARAM, "PRM §7.3 T16; D-VP-1",                        \
	  "current_mc_mac_address list longer than 2^HCA_CAP.log_max_current_mc_list")           \
	X(NIC_VPORT_VLAN_LIST_TOO_LONG, BAD_PARAM, "PRM §7.3 T16; D-VP-1",                      \
	  "vlan list longer than 2^HCA_CAP.log_max_vlan_list")                                   \
	X(NIC_VPORT_LIST_BEYOND_INPUT, BAD_INPUT_LEN, "PRM §12.16.4 T483, §12.2 T128; D-VP-6",  \
	  "allowed_list_size list elements do not fit in input_length")                           \
	X(VPORT_COUNTERS_UNSUPPORTED, BAD_OP, "PRM §12.17, T145 30h[30]",                       \
	  "QUERY_VPORT_COUNTER while HCA_CAP.vport_counters is 0")                                \
	X(L2_TABLE_NOT_MANAGER, BAD_OP, "PRM §12.15 L9354, T145 34h[31]",                       \
	  "L2 table command while HCA_CAP.vport_group_manager is 0")                              \
	X(L2_TABLE_INDEX_RANGE, BAD_INDEX, "PRM §12.15.1 T458, T462, T466; D-L2-1",             \
	  "table_index not below 2^HCA_CAP.log_max_l2_table")                                     \
	X(L2_TABLE_ENTRY_VALID, BAD_RES_STATE, "PRM §12.15 L9352",                              \
	  "SET_L2_TABLE_ENTRY on an entry that is set and not deleted")                           \
	X(L2_TABLE_ENTRY_INVALID, BAD_RES_STATE, "PRM §12.15.2, §12.15.3; D-L2-3",              \
	  "QUERY or DELETE_L2_TABLE_ENTRY of an entry that is not set")

#define NICREF_VIOLATIONS_VPORT(X)

#endif
