/* Rules and driver violations of EQs and events (PRM §7.13, §12.6).
 * Rows as in nicref/rules_ctrl.h. Decisions D-EQ-* are in docs/eq.md. */
#ifndef NICREF_RULES_EQ_H
#define NICREF_RULES_EQ_H

#define NICREF_CMD_RULES_EQ(X)                                                                  \
	X(EQ_PAGE_OFFSET_NOT_ZERO, BAD_PARAM, "PRM §7.13.11 T94", "EQC page_offset must be 0")  \
	X(EQ_LOG_SIZE_BEYOND_CAP, EXCEED_LIM, "PRM §7.13.1, T145 log_max_eq_sz; D-EQ-7",        \
	  "log_eq_size beyond HCA_CAP.log_max_eq_sz")                                           \
	X(EQ_COUNTER_NOT_ZERO, BAD_PARAM, "PRM §7.13.11 T94",                                   \
	  "consumer_counter or producer_counter not 0 at CREATE_EQ")                            \
	X(EQ_INTR_BEYOND_VECTORS, BAD_PARAM, "PRM §7.13.11 T94 intr; D-EQ-8",                   \
	  "intr is not an MSI-X vector of the device")                                          \
	X(EQ_EVENT_BITMASK_BIT0, BAD_PARAM, "PRM §12.6.1 T244",                                 \
	  "event bitmask bit 0 is reserved (completion events are mapped per CQ)")              \
	X(EQ_UAR_NOT_ALLOCATED, BAD_RESOURCE, "PRM §7.2, §7.13.11 T94 uar_page",                \
	  "uar_page is not an allocated UAR")                                                   \
	X(EQ_UAR_OUT_OF_RANGE, BAD_INDEX, "PRM §7.2, §7.13.11 T94 uar_page, T128 0x0A; D-OBJ-2", \
	  "uar_page outside the UAR area")                                                       \
	X(EQ_PAS_SHORT, BAD_INPUT_LEN, "PRM §12.6.1 T244, §7.13.2; D-EQ-9",                     \
	  "the input holds fewer pas[] entries than the EQ buffer needs")                       \
	X(EQ_PAS_NOT_ALIGNED, BAD_PARAM, "PRM §12.3.2 T139",                                    \
	  "a pas[] entry of the EQ buffer is not 4 KB aligned")                                 \
	X(EQ_EXHAUSTED, EXCEED_LIM, "PRM §7.13.11, T145 log_max_eq",                            \
	  "2^log_max_eq EQs already exist")                                                     \
	X(EQ_NOT_FOUND, BAD_RESOURCE, "PRM §12.6.2-§12.6.4, T128",                              \
	  "eq_number names no EQ")                                                              \
	X(EQ_INDEX_OUT_OF_RANGE, BAD_INDEX,                                                     \
	  "PRM §12.6.2-§12.6.4 08h eq_number, T145 log_max_eq, T128 0x0A; D-OBJ-2",              \
	  "eq_number outside the EQ numbers (0 to 2^log_max_eq - 1)")                            \
	X(EQ_IN_USE, BAD_RES_STATE, "PRM §3.2.1, §12.6.2; D-EQ-1",                              \
	  "DESTROY_EQ of an EQ that a CQ still reports to (c_eqn)")

#define NICREF_VIOLATIONS_EQ(X)                                                                 \
	X(EQ_DB_NO_EQ, "PRM §7.2 T13, §7.13.2.3",                                               \
	  "EQ doorbell for an EQ that does not exist (arg: eqn)")                               \
	X(EQ_DB_WRONG_UAR, "PRM §7.2 item 4",                                                   \
	  "EQ doorbell on a UAR page other than the EQ's uar_page (arg: eqn)")                  \
	X(EQ_DB_CI_BEYOND_PC, "PRM §7.13.2",                                                    \
	  "EQ consumer index beyond the EQEs written (arg: eqn << 24 | ci); ignored")           \
	X(EQ_CMD_EVENTS_QUEUE_BUSY, "PRM §7.14 L4142",                                          \
	  "CREATE_EQ mapping command completion events while other commands are posted (arg: "  \
	  "their slots)")                                                                       \
	X(EQ_OVERRUN, "PRM §7.13.2, §7.14 L4134",                                               \
	  "an EQE was due on a full EQ without overrun ignore (arg: eqn); it is dropped")

#endif
