/* Rules of flow steering: flow tables, groups, entries and counters (PRM §7.11, §12.14
 * T383-T456, capabilities T148-T153). Rows as in nicref/rules_ctrl.h. Decisions: docs/steer.md
 * (D-FT-*, D-FC-*). Handles outside their range answer BAD_INDEX and handles not allocated
 * BAD_RESOURCE (T128, D-CMD-7 step 7); a table_id of the other table type is not allocated for
 * that type (T386 "Unique for the table_type"). */
#ifndef NICREF_RULES_STEER_H
#define NICREF_RULES_STEER_H

#define NICREF_CMD_RULES_STEER(X)                                                               \
	/* ---- the table a command names (§12.14, T384 10h, 14h) ---- */                      \
	X(FT_TYPE_INVALID, BAD_PARAM, "PRM §12.14.1 T384 10h[31:24]",                           \
	  "table_type other than 0 NIC_RX, 1 NIC_TX")                                             \
	X(FT_TYPE_UNSUPPORTED, BAD_PARAM, "PRM §7.11.3.1; T151 00h[31] ft_support",             \
	  "a flow table command for a table type whose ft_support is 0")                          \
	X(FT_ID_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14 T390/T394/T398 14h[23:0]; T128",           \
	  "table_id outside the flow table handle range")                                         \
	X(FT_NOT_FOUND, BAD_RESOURCE, "PRM §12.14 T390/T394/T398 14h[23:0]; T386; T128",        \
	  "no flow table of this table_type with this table_id")                                  \
	/* ---- CREATE_FLOW_TABLE / MODIFY_FLOW_TABLE (§7.11.3.1-3, §12.14.1-2) ---- */        \
	X(FT_LOG_SIZE_TOO_LARGE, EXCEED_LIM, "PRM §7.11.3.1; T388 00h[7:0]; T151 04h[29:24]",   \
	  "log_size above log_max_ft_size")                                                       \
	X(FT_LEVEL_TOO_HIGH, EXCEED_LIM, "PRM §7.11.3.3; T388 00h[23:16]; T151 04h[7:0]",       \
	  "level above max_ft_level")                                                             \
	X(FT_SECOND_LEVEL0, BAD_PARAM, "PRM §7.11.3.2 ('Only a single Flow Table with level 0')", \
	  "a second flow table of level 0 for a table type")                                      \
	X(FT_MISS_ACTION, BAD_PARAM, "PRM §12.14.1 T388 00h[27:24]",                            \
	  "table_miss_action other than 0 default, 1 identified_miss_table")                      \
	X(FT_MISS_UNSUPPORTED, BAD_PARAM, "PRM §12.14.1 T388 00h[27:24]; T151 00h[26]",         \
	  "identified_miss_table while Flow_Table_Properties.identified_miss_table is 0")         \
	X(FT_MISS_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14.1 T388 04h[23:0]; T128",                 \
	  "table_miss_id outside the flow table handle range")                                    \
	X(FT_MISS_NOT_FOUND, BAD_RESOURCE, "PRM §12.14.1 T388 04h[23:0] ('Table type of "       \
	  "miss_table_id must be the same')",                                                     \
	  "table_miss_id names no flow table of the same table type")                             \
	X(FT_MISS_LEVEL, BAD_PARAM, "PRM §12.14.1 T388 04h; §7.11.3.3",                         \
	  "the miss table's level is not above this table's level")                               \
	X(FT_EXHAUSTED, EXCEED_LIM, "PRM §7.11.3.1; T151 0Ch[7:0] log_max_ft_num",              \
	  "more flow tables of a type than 2^log_max_ft_num")                                     \
	X(FT_MODIFY_UNSUPPORTED, BAD_OP, "PRM §12.14.2 ('Supported only when "                  \
	  "flow_table_modify==1'); T151 00h[25]",                                                 \
	  "MODIFY_FLOW_TABLE while Flow_Table_Properties.flow_table_modify is 0")                 \
	X(FT_MODIFY_SELECT, BAD_PARAM, "PRM §12.14.2 T390 0Ch[15:0]",                           \
	  "modify_field_select bit other than 0 (table_miss_action/table_miss_id)")               \
	X(FT_MODIFY_UNSELECTED, BAD_PARAM, "PRM §12.14.2 T390 0Ch ('Bitmask indicates which "   \
	  "fields to modify'), 18h (D-FT-23)",                                                    \
	  "a context field modify_field_select does not select (level, log_size; the miss with "  \
	  "bit 0 clear) neither 0 nor the table's own value")                                     \
	/* ---- DESTROY_FLOW_TABLE, SET_FLOW_TABLE_ROOT (§7.11.3.2, §7.11.3.8) ---- */         \
	X(FT_HAS_GROUPS, BAD_RES_STATE, "PRM §7.11.3.8 ('only be freed if ... all the Flow "     \
	  "Groups associated with it are freed'); §12.14.3",                                      \
	  "DESTROY_FLOW_TABLE while the table holds flow groups")                                 \
	X(FT_IN_USE, BAD_RES_STATE, "PRM §3.2.1; D-OBJ-1 (D-FT-12)",                            \
	  "DESTROY_FLOW_TABLE while a flow entry forwards to it or a table misses to it")        \
	X(FT_IS_ROOT, BAD_RES_STATE, "PRM §7.11.3.2; §12.14.4 (D-FT-8)",                        \
	  "DESTROY_FLOW_TABLE of the root SET_FLOW_TABLE_ROOT set")                               \
	X(FT_ROOT_UNSUPPORTED, BAD_OP, "PRM §7.11.3.2 ('indicated by HCA_CAP.modify_root'); "   \
	  "T151 00h[27]",                                                                         \
	  "SET_FLOW_TABLE_ROOT while Flow_Table_Properties.modify_root is 0")                     \
	/* ---- flow groups (§7.11.3.4, §12.14.6-8) ---- */                                   \
	X(FG_INDEX_ORDER, BAD_PARAM, "PRM §12.14.6 T406 1Ch/24h; §7.11.3.4",                    \
	  "start_flow_index above end_flow_index")                                                \
	X(FG_BEYOND_TABLE, BAD_PARAM, "PRM §7.11.3.4 ('must not exceed the size of the Flow "    \
	  "Table')",                                                                              \
	  "end_flow_index at or beyond 2^log_size of the table")                                  \
	X(FG_OVERLAP, BAD_PARAM, "PRM §7.11.3.4 ('and must not overlap')",                      \
	  "the group's flow range overlaps another group of the table")                           \
	X(FG_CRITERIA_ENABLE, BAD_PARAM, "PRM §12.14.6 T406 3Ch[7:0] ('other: reserved')",      \
	  "match_criteria_enable bit 3-7 set")                                                    \
	X(FG_CRITERIA_RESERVED, BAD_PARAM, "PRM §12.14.6 T406 40h ('Unused parameters are "      \
	  "reserved'); T407-T416 (D-FT-13)",                                                      \
	  "a match_criteria bit in a block match_criteria_enable leaves off, or in no field")     \
	X(FG_CRITERIA_UNSUPPORTED, BAD_PARAM, "PRM §7.11.3.4 FULL/PARTIAL; T151 20h-3Fh; "       \
	  "T153 (D-FT-2, D-FT-9)",                                                                \
	  "a FULL mask without ft_field_support, a PARTIAL one without ft_field_bitmask_support, "\
	  "an IPv4 address or dmac 01:00:00:00:00:00 mask without either, or a field the device " \
	  "does not match (inner headers)")                                                       \
	X(FG_ID_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14.7 T420 18h; T128",                         \
	  "group_id outside the flow group handle range")                                         \
	X(FG_NOT_FOUND, BAD_RESOURCE, "PRM §7.11.3.4.1 ('unique for the specific Flow table'); " \
	  "T420 18h; T128",                                                                       \
	  "no flow group with this group_id in the table")                                        \
	X(FG_IN_USE, BAD_RES_STATE, "PRM §7.11.3.8 ('all the Flows associated with it are "      \
	  "Invalid'); §12.14.7",                                                                  \
	  "DESTROY_FLOW_GROUP while a flow of the group is valid")                                \
	/* ---- flow table entries (§7.11.3.6-9, §12.14.9-11) ---- */                          \
	X(FTE_MODIFY_UNSUPPORTED, BAD_OP, "PRM §12.14.9 T428 04h ('Valid only when "            \
	  "modify_flow_en==1'); T151 00h[28]",                                                    \
	  "SET_FLOW_TABLE_ENTRY op_mod 1 while Flow_Table_Properties.flow_modify_en is 0")        \
	X(FTE_INDEX_BEYOND_TABLE, BAD_INDEX, "PRM §12.14.9 T428 20h; T128",                     \
	  "flow_index at or beyond 2^log_size of the table")                                      \
	X(FTE_GROUP_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14.9 T430 04h; T418 group_id 23:0; T128", \
	  "group_id outside the flow group handle range")                                         \
	X(FTE_GROUP_NOT_FOUND, BAD_RESOURCE, "PRM §7.11.3.6; T430 04h",                         \
	  "group_id names no flow group of the table")                                            \
	X(FTE_INDEX_OUTSIDE_GROUP, BAD_PARAM, "PRM §7.11.3.6 ('must not exceed the range of "    \
	  "Flows defined by the Flow Group')",                                                    \
	  "flow_index outside [start_flow_index, end_flow_index] of the group")                   \
	X(FTE_EXISTS, BAD_RES_STATE, "PRM §12.14.9 T428 04h op_mod 0 'Set new Entry' (D-FT-6)", \
	  "SET_FLOW_TABLE_ENTRY op_mod 0 on a valid flow")                                        \
	X(FTE_NOT_VALID, BAD_RES_STATE, "PRM §7.11.3.8, §7.11.3.9 ('A Flow must be valid')",    \
	  "modify, query or delete of an invalid flow")                                           \
	X(FTE_MODIFY_GROUP, BAD_PARAM, "PRM §7.11.3.7 ('Other fields in this context should "    \
	  "match the original') (D-FT-14)",                                                       \
	  "SET_FLOW_TABLE_ENTRY op_mod 1 naming another group than the flow's")                   \
	X(FTE_MODIFY_MASK, BAD_PARAM, "PRM §12.14.9 T428 18h[7:0] bits 0-3",                    \
	  "modify_enable_mask bit 4-7 set")                                                       \
	X(FTE_MODIFY_LIST_BIT, BAD_PARAM, "PRM §7.11.3.7 ('When adding or removing a "           \
	  "Forward/Count action, the destination/flow counter list must be modified as well')",  \
	  "a modify that adds or removes FWD_DEST or COUNT without its list bit")                 \
	X(FTE_ACTION_RESERVED, BAD_PARAM, "PRM §12.14.9 T430 0Ch[15:0] bits 0-3",               \
	  "action bit 4-15 set")                                                                  \
	X(FTE_ACTION_EXCLUSIVE, BAD_PARAM, "PRM §7.11.2.2 ('mutually exclusive. One of them "    \
	  "must be applied'); §7.11.3.6",                                                         \
	  "not exactly one of ALLOW, DROP, FWD_DEST")                                             \
	X(FTE_FLOW_TAG_UNSUPPORTED, BAD_PARAM, "PRM §12.14.9 T430 08h; T151 00h[30]; §7.11.4.2", \
	  "flow_tag non-zero while Flow_Table_Properties.flow_tag is 0 (NIC_TX)")                 \
	X(FTE_DEST_SIZE, BAD_PARAM, "PRM §12.14.9 T430 10h ('Valid only when "                  \
	  "action==FWD_DEST') (D-FT-15)",                                                         \
	  "FWD_DEST with destination_list_size 0, or a list without FWD_DEST")                    \
	X(FTE_DEST_TOO_MANY, EXCEED_LIM, "PRM §7.11.3.6; T151 10h[7:0] log_max_destination",    \
	  "more destinations than 2^log_max_destination")                                        \
	X(FTE_LIST_BEYOND_INPUT, BAD_INPUT_LEN, "PRM §12.14.9 T430 300h; T128",                 \
	  "the destination and counter lists do not fit in input_length")                         \
	X(FTE_DEST_TYPE, BAD_PARAM, "PRM §12.14.9 T434 00h[31:24]",                             \
	  "destination_type other than 1 FLOW_TABLE, 2 TIR")                                      \
	X(FTE_DEST_TIR_ON_TX, BAD_PARAM, "PRM §7.11.4.2 ('Supported Destination types - Flow "   \
	  "Table'); §7.11.3.6",                                                                   \
	  "a TIR destination in a NIC_TX table")                                                  \
	X(FTE_DEST_TIR_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14.9 T434 00h[23:0]; T128",            \
	  "a TIR destination outside the TIR handle range")                                       \
	X(FTE_DEST_TIR_INVALID, BAD_RESOURCE, "PRM §12.14.9 T434 00h[23:0]; T128",              \
	  "a TIR destination that is not an existing TIR")                                        \
	X(FTE_DEST_FT_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14.9 T434 00h[23:0]; T128",             \
	  "a flow table destination outside the flow table handle range")                         \
	X(FTE_DEST_FT_INVALID, BAD_RESOURCE, "PRM §7.11.2.3 ('must be of the same type'); T434", \
	  "a flow table destination that is no flow table of the same table type")                \
	X(FTE_DEST_FT_LEVEL, BAD_PARAM, "PRM §7.11.3.3 ('may only point to a Flow Table of a "   \
	  "higher level')",                                                                       \
	  "a flow table destination whose level is not above this table's")                       \
	X(FTE_DEST_MIXED, BAD_PARAM, "PRM §7.11.3.6 ('must be comprised of destinations of the " \
	  "same type'); §7.11.4.1",                                                               \
	  "flow tables and TIRs mixed, other than TIRs then flow tables with "                    \
	  "nic_rx_multi_path_tirs_fts")                                                           \
	X(FTE_MULTI_TIRS_UNSUPPORTED, BAD_PARAM, "PRM §7.11.4.1; T149 00h[31]",                 \
	  "more than one TIR destination while nic_rx_multi_path_tirs is 0, or any multi-path "   \
	  "on NIC_TX")                                                                            \
	X(FTE_MULTI_LEVEL, BAD_PARAM, "PRM §7.11.3.3 (multi-path: this table below level 64, "   \
	  "the flow tables pointed to at 64 or above)",                                           \
	  "a multi-path flow in a table of level >= 64, or to a flow table of level < 64 other "  \
	  "than the last with nic_rx_multi_path_tirs (§7.11.3.3) or nic_rx_multi_path_tirs_fts " \
	  "(T149 00h[30] note) set (D-FT-19)")                                                  \
	X(FTE_MULTI_NESTED, BAD_PARAM, "PRM §7.11.2.4 ('must never be nested') (D-FT-16)",      \
	  "a multi-path flow to a table holding a multi-path flow, or in a table a multi-path "   \
	  "flow points to")                                                                       \
	X(FTE_COUNT_UNSUPPORTED, BAD_PARAM, "PRM §7.11.3.5; T151 00h[29] flow_counter (D-FT-4)", \
	  "COUNT while Flow_Table_Properties.flow_counter is 0 (NIC_TX)")                         \
	X(FTE_COUNTER_SIZE, BAD_PARAM, "PRM §12.14.9 T430 14h ('Valid when action [COUNT] is "   \
	  "set') (D-FT-15)",                                                                      \
	  "COUNT with flow_counter_list_size 0, or counters without COUNT")                       \
	X(FTE_COUNTER_TOO_MANY, EXCEED_LIM, "PRM §7.11.3.6; T151 10h[15:8] log_max_flow_counter", \
	  "more flow counters than 2^log_max_flow_counter")                                       \
	X(FTE_COUNTER_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14.9 T436 00h[15:0]; T128",             \
	  "a flow counter entry outside the flow counter handle range")                           \
	X(FTE_COUNTER_INVALID, BAD_RESOURCE, "PRM §12.14.9 T436 00h[15:0]; T128",               \
	  "a flow counter entry that is not an allocated flow counter")                           \
	X(FTE_FLOWS_EXHAUSTED, EXCEED_LIM, "PRM §7.11.3.6; T151 14h[7:0] log_max_flow",         \
	  "more valid flows of a table type than 2^log_max_flow")                                 \
	X(FTE_OUTPUT_TOO_SHORT, BAD_OUTPUT_LEN, "PRM §12.14.10 T439/T440; T128",                \
	  "QUERY_FLOW_TABLE_ENTRY output_length cannot hold the flow's lists")                    \
	/* ---- flow counters (§7.11.3.5, §12.14.12-14) ---- */                                \
	X(FC_EXHAUSTED, EXCEED_LIM, "PRM §7.11.3.5; T145 68h[15:0] max_flow_counter",           \
	  "more flow counters than max_flow_counter")                                             \
	X(FC_OUT_OF_RANGE, BAD_INDEX, "PRM §12.14.13 T450 08h; §12.14.14 T454 1Ch; T128",       \
	  "flow_counter_id outside the flow counter handle range")                                \
	X(FC_NOT_FOUND, BAD_RESOURCE, "PRM §7.11.3.9 ('must be allocated to be queried'); "     \
	  "§12.14.13",                                                                            \
	  "no flow counter with this flow_counter_id")                                            \
	X(FC_IN_USE, BAD_RES_STATE, "PRM §7.11.3.8; §12.14.13 ('must not be associated with any " \
	  "Flow')",                                                                               \
	  "DEALLOC_FLOW_COUNTER while a flow counts in it")                                       \
	X(FC_BULK_ALIGN, BAD_PARAM, "PRM §12.14.14 T454 1Ch ('When num_of_counters!=0, must be " \
	  "aligned to 4') (D-FC-3)",                                                              \
	  "a bulk query from a flow_counter_id not a multiple of 4")                              \
	X(FC_BULK_CLEAR, BAD_PARAM, "PRM §12.14.14 T454 18h[31] ('Valid only when "             \
	  "number_of_flow_counter==0')",                                                          \
	  "clear set in a bulk query")                                                            \
	X(FC_BULK_TOO_MANY, EXCEED_LIM, "PRM §12.14.14; T145 68h[23:16] "                       \
	  "log_max_flow_counter_bulk (D-FC-3)",                                                   \
	  "num_of_counters above 2^log_max_flow_counter_bulk")                                    \
	X(FC_OUTPUT_TOO_SHORT, BAD_OUTPUT_LEN, "PRM §12.14.14 T456 10h ('The size of the list "  \
	  "is equal to num_of_counters'); T128",                                                  \
	  "QUERY_FLOW_COUNTER output_length cannot hold the counters asked for")

#define NICREF_VIOLATIONS_STEER(X)

#endif
