/* Large Receive Offload (ConnectX-4 PRM Rev 0.40 §3.3.6, T5, T45, T68, T147): why a TCP segment
 * that reached an LRO TIR opened a session, joined one, ended one or went on its own. Decisions
 * D-LRO-* are in docs/lro.md.
 *
 * Every such segment leaves one of these in the trace (nicref/trace.h):
 *   lro_open  tir rq wqe_counter len            a session opened with this segment (no CQE yet)
 *   lro_merge tir rq wqe_counter num_seg bytes  the segment joined the open session
 *   lro_end   tir rq wqe_counter cause num_seg byte_cnt
 *                                               the session completed (its CQE follows)
 *   lro_pass  tir rq cause                      the segment is delivered on its own (lro_num_seg 0)
 * A session is named by (tir, rq, wqe_counter) while it is open. A segment that ends a session
 * leaves lro_end, then lro_open (a cause marked restart below: §3.3.6.3 "(*)") or lro_pass.
 * Sessions also end without a segment: the timer, the WQE out of room, the TIR modified or
 * destroyed, the RQ leaving RDY.
 *
 * The causes, one table: X(ID, "name", abrt, restart, "clause", "what happened").
 *   abrt    the CQE's lro_abrt when the cause ends a session (T68: 00 max IP payload size
 *           exceeded, 01 timeout, 10 exception or other; D-LRO-4); -1 when it never ends one;
 *   restart 1 when the segment that ends a session for this cause may open the next (§3.3.6.3,
 *           the four cases marked (*)), 0 when it then goes on its own.
 * A cause that only keeps a segment from opening a session (no session of its flow was open)
 * is reported by lro_pass. */
#ifndef NICREF_LRO_H
#define NICREF_LRO_H

#include "nicref/api.h"

#define NICREF_LRO_CAUSES(X)                                                                    \
	/* Eligibility (§3.3.6.2), and the same conditions ending a session (§3.3.6.3). */     \
	X(NOT_ENABLED, "not_enabled", -1, 0, "PRM §3.3.6.2, T45 lro_enable_mask",                 \
	  "the TIR's lro_enable_mask does not enable this IP version")                            \
	X(INACTIVE, "inactive", -1, 0, "PRM T45 lro_timeout_period_usecs, lro_max_msg_sz",        \
	  "LRO is inactive on the TIR: its period is below the smallest supported one, or "       \
	  "lro_max_msg_sz is 0")                                                                 \
	X(LLC_SNAP, "llc_snap", -1, 0, "PRM §3.3.6.2", "an LLC/SNAP frame")                        \
	X(NO_RESOURCES, "no_resources", -1, 0, "PRM §3.3.6.2",                                    \
	  "the device has no free session (the profile's lro_max_sessions are open)")             \
	X(INVALID, "invalid", 2, 0, "PRM §3.3.6.2, §3.3.6.3",                                     \
	  "packet validation failed: malformed, or a bad IP or TCP checksum")                     \
	X(TCP_FLAGS, "tcp_flags", 2, 0, "PRM §3.3.6.2, §3.3.6.3",                                  \
	  "SYN, URG, RST, FIN, NS or a reserved TCP flag is set")                                  \
	X(PSH, "psh", 2, 0, "PRM §3.3.6.2, §3.3.6.3, T147 lro_psh_flag",                           \
	  "PSH is set and HCA_CAP.lro_psh_flag is 0")                                              \
	X(TCP_OPTIONS, "tcp_options", 2, 0, "PRM §3.3.6.2, §3.3.6.3",                              \
	  "a TCP option other than the timestamp")                                                \
	X(TIMESTAMP_OFF, "timestamp_off", 2, 0, "PRM §3.3.6.2, §3.3.6.3, T147 lro_time_stamp",     \
	  "a TCP timestamp option while HCA_CAP.lro_time_stamp is 0")                              \
	X(IP_OPTIONS, "ip_options", 2, 0, "PRM §3.3.6.2, §3.3.6.3",                                \
	  "IPv4 options or IPv6 extension headers")                                               \
	X(FRAGMENT, "fragment", 2, 0, "PRM §3.3.6.2, §3.3.6.3", "an IP fragment")                  \
	X(SMALL, "small", 2, 0, "PRM §3.3.6.2, §3.3.6.3, T147 lro_min_mss_size",                   \
	  "the TCP payload is shorter than HCA_CAP.lro_min_mss_size")                              \
	/* Merging (§3.3.6.4) and what ends a session when it fails (§3.3.6.3). */              \
	X(OUT_OF_ORDER, "out_of_order", 2, 0, "PRM §3.3.6.3, §3.3.6.4",                            \
	  "the TCP sequence number is not the one the session expects")                          \
	X(IP_MISMATCH, "ip_mismatch", 2, 0, "PRM §3.3.6.3, §3.3.6.4",                              \
	  "an IP field differs from the session's (other than TTL/Hop Limit, IPv4 checksum, "    \
	  "total length, identification, IPv6 payload length)")                                  \
	X(MAX_SIZE, "max_size", 0, 1, "PRM §3.3.6.3 (*), §3.3.6.4, T45 lro_max_msg_sz",            \
	  "the segment would take the session past the TIR's lro_max_msg_sz")                    \
	X(TS_PREV_ABSENT, "ts_prev_absent", 2, 1, "PRM §3.3.6.3 (*), §3.3.6.4",                    \
	  "the segment has a timestamp option and the previous one had none")                    \
	X(TS_OLDER, "ts_older", 2, 1, "PRM §3.3.6.3 (*), §3.3.6.4",                                \
	  "the segment's TSval is below the session's")                                          \
	X(TS_ABSENT, "ts_absent", 2, 1, "PRM §3.3.6.3 (*), §3.3.6.4",                              \
	  "the segment has no timestamp option and the previous ones had")                       \
	X(ECN, "ecn", 2, 1, "PRM §3.3.6.3 (*), §3.3.6.4",                                          \
	  "TCP ECE/CWR or the IP ECN field differ from the previous segment's")                  \
	/* Sessions that end without a segment (§3.3.6.1, §3.3.6.3, §3.3.6.4). */               \
	X(TIMER, "timer", 1, 0, "PRM §3.3.6.3, T45 lro_timeout_period_usecs, T147",               \
	  "the session's timer expired")                                                          \
	X(WQE_SPACE, "wqe_space", 2, 0, "PRM §3.3.6.3, §3.3.6.4",                                 \
	  "the receive WQE has no room for the segment: the session ends with an error CQE")     \
	X(TIR_CHANGE, "tir_change", 2, 0, "PRM §3.3.6.1, §12.8.2, §12.8.3",                       \
	  "the TIR was modified (LRO settings) or destroyed")                                    \
	X(RQ_STATE, "rq_state", 2, 0, "PRM §3.3.6.3, §7.7.2",                                      \
	  "the RQ left RDY")

enum nicref_lro_cause {
	NICREF_LRO_NONE = 0,
#define NICREF_LRO_CAUSE_ENUM(id, ...) NICREF_LRO_##id,
	NICREF_LRO_CAUSES(NICREF_LRO_CAUSE_ENUM)
#undef NICREF_LRO_CAUSE_ENUM
	NICREF_LRO_CAUSE_COUNT
};

/* "none" for NICREF_LRO_NONE, NULL past the table. */
NICREF_API const char *nicref_lro_cause_name(enum nicref_lro_cause c);
NICREF_API const char *nicref_lro_cause_clause(enum nicref_lro_cause c);
NICREF_API const char *nicref_lro_cause_text(enum nicref_lro_cause c);
/* The lro_abrt a session ended for c carries, or -1. */
NICREF_API int nicref_lro_cause_abrt(enum nicref_lro_cause c);
/* 1 when the segment that ended a session for c may open the next one (§3.3.6.3 (*)). */
NICREF_API int nicref_lro_cause_restarts(enum nicref_lro_cause c);
/* By name; -1 when unknown. */
NICREF_API int nicref_lro_cause_find(const char *name);

#endif
