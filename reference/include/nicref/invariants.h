/* The model's internal invariants: what nicref_dev_check checks, one row per number it returns.
 *
 * Row: X(id, code, cite, what). `code` is the negative number nicref_dev_check returns for the
 * invariant (the numbers are stable: a fuzz finding or a report may quote one), `cite` the
 * clause or decision the invariant keeps ("model" when it is the model's own bookkeeping) and
 * `what` what must hold. nicref_invariant_name gives the id as a string ("REFCOUNT_MATCHES"),
 * nicref_invariant_description the text, nicref_dev_check_explain the state it found broken.
 *
 * A broken invariant is a bug of the model, never of its input. The rows of the object
 * families (-100 and below) are returned by each family's own check (reference/obj/<family>.c);
 * a unit test (reference/tests/invariant_test.c) fails when a check returns a number with no
 * row here. */
#ifndef NICREF_INVARIANTS_H
#define NICREF_INVARIANTS_H

#define NICREF_INVARIANTS_DEV(X)                                                                \
	X(CMDQ_ADDR_ALIGNED, -1, "PRM §4.3 T8",                                                 \
	  "the latched command queue address is 4 KiB aligned")                                 \
	X(INITIALIZING_UNTIL_LATCHED, -2, "PRM §8.2",                                           \
	  "initializing clears only after a command queue address is latched")                  \
	X(HOSTMEM_WITHIN_BOUND, -3, "model",                                                    \
	  "the built-in host memory uses no more pages than its bound")                         \
	X(EVENTS_COUNTED, -4, "model (trace.h seq)",                                            \
	  "the events counted equal the trace's sequence number")                               \
	X(HCA_STATE_VALID, -5, "PRM §8.2-§8.3; D-INIT-2",                                       \
	  "the lifecycle state is one of D-INIT-2's five")                                      \
	X(PAGES_WITHIN_LIMIT, -6, "PRM §12.3.2; D-INIT-7",                                      \
	  "the pages held fit the page pool, and a disabled device holds none")                 \
	X(HANDLES_WITHIN_RANGE, -7, "D-OBJ-2",                                                  \
	  "no object table holds more live objects than its handle range")                      \
	X(OBJECTS_ONLY_INITIALIZED, -8, "PRM §12.3.7; D-INIT-3",                                \
	  "objects live only while the HCA is INITIALIZED (TEARDOWN_HCA releases them)")        \
	X(INIT_PAGES_HELD, -9, "PRM §8.2, §12.3.6",                                             \
	  "an INITIALIZED device holds its boot and init pages until TEARDOWN_HCA")             \
	X(ICM_CHARGED, -10, "D-PG-4",                                                           \
	  "every ICM context charged belongs to a live object of its type")                     \
	X(REFERENCE_NAMES_LIVE, -11, "D-OBJ-1",                                                 \
	  "every reference an object holds names a live object of the type it names")           \
	X(REFCOUNT_MATCHES, -12, "D-OBJ-1",                                                     \
	  "each object's reference count equals the references the live objects hold to it")    \
	X(ROCE_ACCL_STORED, -13, "seed 000 ROCE_ACCL",                                          \
	  "ROCE_ACCL holds only what a write could store: a profile id within the capability "  \
	  "and a profile that passes validation")                                              \
	X(PAGE_WAIT_ONLY_INITIALIZED, -14, "PRM §12.3.7; D-PG-6",                               \
	  "a command waits for pages only while the HCA is INITIALIZED (TEARDOWN_HCA ends it)") \
	X(HALTED_IFF_FATAL, -15, "PRM §9.2.2; D-H-2",                                           \
	  "the device is halted exactly while T8 1010h health_syndrome is not zero")

/* EQs (reference/obj/eq.c). */
#define NICREF_INVARIANTS_EQ(X)                                                                 \
	X(EQ_HANDLE, -100, "D-OBJ-2", "an EQ carries the handle of its table slot")             \
	X(EQ_STATE, -101, "PRM T94 st", "an EQ is armed or fired")                              \
	X(EQ_STATUS, -102, "PRM T94 status", "an EQ's status is OK or write failure")           \
	X(EQ_COUNTER_WIDTH, -103, "PRM T94", "an EQ's producer and consumer counters fit 24 bits") \
	X(EQ_WITHIN_SIZE, -104, "D-EQ-4",                                                       \
	  "without oi or ec, a working EQ never holds more EQEs than its size")                 \
	X(EQ_BUFFER_AND_VECTOR, -105, "PRM T94; D-EQ-8",                                        \
	  "an EQ's page list covers its size and its interrupt vector exists")                  \
	X(EQ_TYPE0_UNMAPPED, -106, "PRM T244", "event type 0 is never mapped to an EQ")         \
	X(EQ_MAP_AGREES, -107, "PRM T244",                                                      \
	  "an EQ's event bitmask and the device's type-to-EQ map agree")                        \
	X(EQ_TYPE_MAPPED_LIVE, -108, "PRM T244",                                                \
	  "a mapped event type names a live EQ that takes it")                                  \
	X(EQ_HELD_VECTORS_COUNTED, -109, "model",                                               \
	  "the count of vectors with a held request equals the vectors marked held")

/* CQs (reference/obj/cq.c). */
#define NICREF_INVARIANTS_CQ(X)                                                                 \
	X(CQ_HANDLE, -150, "D-OBJ-2", "a CQ carries the handle of its table slot")              \
	X(CQ_STATE, -151, "PRM T76 st", "a CQ is fired, armed or solicited-armed")              \
	X(CQ_STATUS, -152, "PRM T76 status", "a CQ's status is OK, overflow or write failure")  \
	X(CQ_FIELD_WIDTH, -153, "PRM T76",                                                      \
	  "a CQ's arm sequence number fits 2 bits, cqe_sz and cq_period_mode 1 bit")            \
	X(CQ_COUNTER_WIDTH, -154, "PRM T76", "a CQ's counters fit 24 bits")                     \
	X(CQ_BUFFER, -155, "PRM T76",                                                           \
	  "a CQ's page list covers its size, and log_cq_size is at most 22")                    \
	X(CQ_HELD_ONLY_ARMED, -156, "PRM §7.13.14",                                             \
	  "a CQ holds a moderated event only while armed")                                      \
	X(CQ_TIMER_IFF_PERIOD, -157, "PRM §7.13.14",                                            \
	  "a CQ waits on the timer list iff it holds an event and has a moderation period")     \
	X(CQ_TIMER_LIST_LINKED, -158, "model",                                                  \
	  "the moderation timer list is doubly linked and lists only CQs marked on it")         \
	X(CQ_TIMER_LIST_COUNTED, -159, "model",                                                 \
	  "the moderation timer list holds every CQ marked on it, and its count agrees")

/* SQs, RQs and RMPs (reference/obj/wq.c). */
#define NICREF_INVARIANTS_WQ(X)                                                                 \
	X(SQ_STATE, -200, "PRM T61", "an SQ is in RST, RDY or ERR")                             \
	X(RQ_STATE, -201, "PRM T53", "an RQ is in RST, RDY or ERR")                             \
	X(RMP_STATE, -202, "PRM T65, §7.10.1", "an RMP is in RDY or ERR (it has no RST)")       \
	X(WQ_RST_COUNTERS_ZERO, -203, "PRM T57, T63",                                           \
	  "a work queue in RST has its hardware and software counters at 0")                    \
	X(RQ_TAKES_ONLY_FROM_RMP, -204, "PRM §7.7, T57",                                        \
	  "only an RQ on an RMP takes WQEs from elsewhere, within its room")                    \
	X(RMP_LWM_SHOWN, -205, "PRM T65",                                                       \
	  "an RMP's context shows the limit watermark in force")                                \
	X(WQ_HANDLE, -206, "D-OBJ-2", "an SQ, RQ or RMP carries the handle of its table slot")  \
	X(WQ_PAGE_LIST, -207, "PRM T57", "a work queue with a buffer has its page list")        \
	X(SQ_BF_REGISTER, -208, "PRM §7.2 T13",                                                 \
	  "an SQ's Blue Flame register is none or one of the 8 of its UAR page")                \
	X(RQ_RST_HOLDS_NOTHING, -209, "PRM §7.7.1", "an RQ in RST holds no WQE")

/* MKeys (reference/obj/mkey.c). */
#define NICREF_INVARIANTS_MKEY(X)                                                               \
	X(MKEY_HANDLE, -300, "D-OBJ-2", "an MKey carries the handle of its table slot")         \
	X(MKEY_CONTEXT_VALID, -301, "PRM T10",                                                  \
	  "an MKey's access mode, lr and qpn are those CREATE_MKEY accepts")                    \
	X(MKEY_UNREFERENCED, -302, "D-OBJ-1", "no object holds a reference to an MKey")         \
	X(MKEY_TRANSLATIONS, -303, "PRM T10",                                                   \
	  "an MKey's translations fit translations_octword_size; page access only with MTT")    \
	X(MKEY_ENTITY_SIZE, -304, "PRM T10",                                                    \
	  "an MTT MKey's log_entity_size is at least 12, any other's is 0")                     \
	X(MKEY_LENGTH64, -305, "PRM T10", "an MKey with length64 has len 0")                    \
	X(MKEY_KLM_OFFSETS, -306, "model (obj/mkey.h)",                                         \
	  "a KLM MKey's start offsets are the running sums of its entries' byte counts")      \
	X(MKEY_ROOM, -307, "model (obj/mkey.h); D-TX-14",                                       \
	  "an MKey's delivered translation entries lie within the room its table holds")

/* TISs, TIRs and RQTs (reference/obj/tis.c, tir.c, rqt.c). */
#define NICREF_INVARIANTS_TIR(X)                                                                \
	X(TIS_CONTEXT, -350, "PRM T50",                                                         \
	  "a TIS carries the handle of its table slot and a 4-bit prio")                        \
	X(TIR_HANDLE_DISP, -360, "PRM T45",                                                     \
	  "a TIR carries the handle of its table slot and a direct or indirect disp_type")      \
	X(TIR_CONTEXT_VALID, -361, "PRM T45",                                                   \
	  "a TIR's hash fields and lro_enable_mask are those CREATE/MODIFY_TIR accept")         \
	X(TIR_LRO_TIMEOUT, -362, "PRM T45",                                                     \
	  "a TIR's effective LRO timeout is at most the one asked, and none without LRO")       \
	X(TIR_DISPATCH_FIELDS, -363, "PRM T45",                                                 \
	  "a direct TIR names no indirect table, an indirect one no inline RQ")                 \
	X(RQT_HANDLE, -370, "D-OBJ-2", "an RQT carries the handle of its table slot")           \
	X(RQT_SIZES, -371, "PRM T59",                                                           \
	  "an RQT's sizes are powers of two, the actual one at most the maximum")               \
	X(RQT_TAIL_EMPTY, -372, "PRM T59", "RQT entries past the actual size hold nothing")

/* Flow steering (reference/obj/flow_table.c, flow_group.c, flow_entry.c, flow_counter.c). */
#define NICREF_INVARIANTS_STEER(X)                                                              \
	X(FT_HANDLE_TYPE, -380, "D-OBJ-2; PRM T384",                                            \
	  "a flow table carries the handle of its table slot and a table type 0 or 1")          \
	X(FG_RANGES, -381, "PRM §7.11.3.4",                                                     \
	  "a table's groups lie inside it, sorted by start_flow_index, without overlap")        \
	X(FTE_IN_GROUP, -382, "PRM §7.11.3.6",                                                  \
	  "a valid flow sits at its flow_index, inside the range of its group of the table")    \
	X(FTE_INDEXED, -383, "model (obj/flow.h)",                                              \
	  "the group's lookup index finds every valid flow by its own match value")             \
	X(FT_COUNTS, -384, "model (obj/flow.h)",                                                \
	  "a table's counts of valid and multi-path flows are those of its slots")              \
	X(FT_TYPE_COUNTS, -385, "PRM T151 log_max_ft_num, log_max_flow",                        \
	  "the tables and valid flows counted per type are those live")                         \
	X(FT_ROOTS, -386, "PRM §7.11.3.2",                                                      \
	  "the explicit root and the level-0 table of a type are live tables of that type")

/* The NIC vport and its L2 table (reference/obj/vport.c, l2_table.c). */
#define NICREF_INVARIANTS_VPORT(X)                                                              \
	X(VPORT_PRESENT, -400, "model", "the vport state exists for the device's life")         \
	X(VPORT_ADMIN_STATE, -401, "PRM T475", "the vport's admin_state is 0 or 1")             \
	X(VPORT_INLINE_MODE, -402, "PRM §7.9.3.1",                                              \
	  "the vport's min_wqe_inline_mode is one of 0-3 and 5-7")                              \
	X(VPORT_MAC_WIDTH, -403, "PRM T19", "the permanent address fits 48 bits")               \
	X(VPORT_LIST_SIZE, -404, "PRM T16; D-VP-1",                                             \
	  "each address list is within its allowed size")                                       \
	X(VPORT_LIST_STORAGE, -405, "model", "a non-empty address list has its storage")        \
	X(VPORT_LIST_ELEMENT_WIDTH, -406, "PRM T17, T19",                                       \
	  "each address list element fits its field (12-bit VLAN, 48-bit MAC)")                 \
	X(VPORT_L2_GROUP_MANAGER, -407, "PRM §12.15",                                           \
	  "only a vport group manager has L2 table entries")                                    \
	X(VPORT_POWER_ON_OUTSIDE_INIT, -408, "PRM §12.3.7",                                     \
	  "outside INIT_HCA..TEARDOWN_HCA the vport holds its power-on values")                 \
	X(L2_TABLE_COUNTS, -440, "model", "the L2 table's array and its counts agree")          \
	X(L2_INDEX_IN_RANGE, -441, "D-L2-1",                                                    \
	  "every L2 table entry lies inside 2^log_max_l2_table")                                \
	X(L2_SORTED_UNIQUE, -442, "model", "the L2 table is sorted by index, each index once")  \
	X(L2_FIELD_WIDTH, -443, "PRM T458", "every L2 table entry fits T458's fields")

/* Every row, in the order nicref_dev_check meets them. */
/* The Ethernet send engine (reference/eth/eth_subsys.c). */
#define NICREF_INVARIANTS_ETH(X)                                                                \
	X(ETH_SCRATCH, -500, "D-TX-11",                                                         \
	  "the send engine's packet and frame buffers exist, sized from max_lso_cap at create")  \
	X(ETH_HOOK, -501, "model (cmd/ctl_dev.h)",                                              \
	  "the control plane's data-path hook is the send engine's")                            \
	X(ETH_FRAMES_FROM_WQES, -502, "model",                                                  \
	  "frames and drops are counted only once a WQE has run")                               \
	X(RX_STATE, -510, "D-RX-11",                                                            \
	  "the receive engine's state exists with its WQE buffer, one stride of the largest "   \
	  "RQ stride")                                                                          \
	X(LRO_SESSIONS_WITHIN_LIMIT, -520, "PRM §3.3.6.2; D-LRO-1",                              \
	  "the open LRO sessions are those listed, at most the profile's lro_max_sessions")    \
	X(LRO_SESSION_RQ_RDY, -521, "PRM §3.3.6.3; D-LRO-10",                                   \
	  "every open LRO session's RQ exists and is RDY")                                     \
	X(LRO_SESSION_TIMER, -522, "PRM T147 lro_timer_supported_periods; D-LRO-5",             \
	  "no LRO session is open 2N after it opened (N its TIR's period in force)")            \
	X(LRO_SESSION_BYTES, -523, "PRM T5 byte_cnt; D-LRO-7",                                  \
	  "an LRO session's byte count is its first frame's plus the payload merged")

/* The RoCE transport (reference/roce/roce_subsys.c; docs/roce.md). */
#define NICREF_INVARIANTS_ROCE(X)                                                               \
	X(ROCE_HOOK, -600, "model (cmd/ctl_dev.h)",                                             \
	  "the control plane's RoCE hooks are the transport's")                                 \
	X(ROCE_QP_STATE, -601, "D-ROCE-3",                                                      \
	  "every QP out of RST has the transport's state and no QP in RST has it; the count "   \
	  "agrees")                                                                            \
	X(ROCE_TIMERS, -602, "model",                                                           \
	  "the armed list holds exactly the QPs with a timer, a restore time or a watched RQ (in " \
	  "ERR only, D-ROCE-RC-28), linked both ways")                                         \
	X(ROCE_WINDOW, -603, "seed 004 L126-143",                                               \
	  "a QP's outstanding limit is the profile's 16 or the reaction point's lower one")     \
	X(ROCE_LOOPBACK_IDLE, -604, "D-ROCE-12",                                                \
	  "between two entries the loopback queue is empty")

/* The network ports (reference/reg/port_check.c; docs/registers.md). */
#define NICREF_INVARIANTS_PORT(X)                                                               \
	X(PORT_ADMIN_STATUS, -700, "PRM T110", "a port's admin_status is 1, 2, 3 or 4")        \
	X(PORT_OPER_STATUS, -701, "PRM T110", "a port's oper_status is 1, 2 or 4")              \
	X(PORT_UP_ONCE_LATCH, -702, "PRM T110 admin_status 3; D-REG-15",                        \
	  "an up-once failure is latched only under admin_status 3, and oper_status is 4 "      \
	  "exactly while it is")                                                                \
	X(PORT_LINK_STATE, -703, "PRM §11.1.2 note before T107, T110",                          \
	  "an up port's link holds (admin lets it, the partner runs eth_proto_oper); a down "   \
	  "port's link could not train")                                                        \
	X(PORT_OPER_PROTOCOL, -704, "PRM T108; D-REG-6",                                        \
	  "eth_proto_oper is one protocol of eth_proto_capability while the port is up, 0 "     \
	  "otherwise")                                                                          \
	X(PORT_PROTOCOL_SETS, -705, "PRM T108; D-REG-13, D-REG-20",                             \
	  "eth_proto_capability holds only T108 protocols; eth_proto_admin is a non-empty "     \
	  "subset of it")                                                                       \
	X(PORT_MTU, -706, "PRM T106; D-REG-5",                                                  \
	  "admin_mtu is at most max_mtu and oper_mtu equals admin_mtu")                         \
	X(PORT_FLOW_CONTROL, -707, "PRM T112; D-REG-16",                                        \
	  "global pause (pptx, pprx) and PFC (pfctx, pfcrx) are not both on")                   \
	X(PORT_WATERMARKS, -708, "PRM T112; D-REG-17",                                          \
	  "each stall watermark is 0 or within 0x50-0x1F40")

#define NICREF_INVARIANTS(X)                                                                    \
	NICREF_INVARIANTS_DEV(X)                                                                \
	NICREF_INVARIANTS_EQ(X)                                                                 \
	NICREF_INVARIANTS_CQ(X)                                                                 \
	NICREF_INVARIANTS_WQ(X)                                                                 \
	NICREF_INVARIANTS_MKEY(X)                                                               \
	NICREF_INVARIANTS_TIR(X)                                                                \
	NICREF_INVARIANTS_STEER(X)                                                              \
	NICREF_INVARIANTS_VPORT(X)                                                              \
	NICREF_INVARIANTS_ETH(X)                                                                \
	NICREF_INVARIANTS_ROCE(X)                                                               \
	NICREF_INVARIANTS_PORT(X)

enum nicref_invariant {
#define NICREF_INVARIANT_ENUM(id, code, cite, what) NICREF_INV_##id = code,
	NICREF_INVARIANTS(NICREF_INVARIANT_ENUM)
#undef NICREF_INVARIANT_ENUM
};

#endif
