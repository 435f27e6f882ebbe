/* Rules and driver violations of objects in general: reference counts (D-OBJ-1), ICM pages
 * (D-PG-4) and UAR doorbell pages (PRM §7.2). Rows as in nicref/rules_ctrl.h. */
#ifndef NICREF_RULES_OBJ_H
#define NICREF_RULES_OBJ_H

#define NICREF_CMD_RULES_OBJ(X)                                                                 \
	X(ICM_PAGES_SHORT, NO_RESOURCES, "PRM §12.3.1, §7.13.10.2 T91/T92, T128",               \
	  "the pages given to the device cannot hold one more context of this type (D-PG-4)")   \
	X(OBJ_NO_MEMORY, NO_RESOURCES, "PRM §12.2 T128",                                        \
	  "the device has no memory left for the object")                                         \
	X(PD_IN_USE, BAD_RES_STATE, "PRM §3.2.1, §12.3.14; D-OBJ-1",                            \
	  "DEALLOC_PD of a PD that an MKey, SQ, RQ, RMP or QP still names")                       \
	X(UAR_IN_USE, BAD_RES_STATE, "PRM §3.2.1, §12.3.16; D-OBJ-1",                           \
	  "DEALLOC_UAR of a UAR that an EQ, CQ, SQ or QP still names")                            \
	X(TD_IN_USE, BAD_RES_STATE, "PRM §3.2.1, §12.3.19; D-OBJ-1",                            \
	  "DEALLOC_TRANSPORT_DOMAIN of a domain that a TIR or TIS still names")                  \
	X(OBJECTS_LIVE_AT_TEARDOWN, BAD_RES_STATE, "PRM §12.3.7 L5983; D-INIT-3",               \
	  "graceful TEARDOWN_HCA while an EQ, CQ, SQ, RQ or RMP still exists")

#define NICREF_VIOLATIONS_OBJ(X)                                                                \
	X(UAR_DB_NOT_ALLOCATED, "PRM §7.2",                                                      \
	  "doorbell write to a UAR page that is not allocated (arg: BAR offset)")                 \
	X(UAR_DB_RESERVED, "PRM §7.2 T13",                                                       \
	  "write to a reserved offset of a UAR page (arg: BAR offset)")

#endif
