/* The canonical trace: one ordered stream of everything the device makes visible. Vectors,
 * capture checks and differential fuzzing all compare this stream, so its text form
 * (nicref_event_format) is part of the contract and never depends on compiler or platform. */
#ifndef NICREF_TRACE_H
#define NICREF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/api.h"

#include "nicref/rules_ctrl.h"

/* X(ID, "name", arg names...) — up to NICREF_EVENT_MAX_ARGS named 64-bit arguments. */
#define NICREF_EVENT_KINDS(X)                                                                   \
	/* A command entry completed: ownership returned to SW. PRM §7.14.1 */                \
	X(CMD_DONE, "cmd_done", "slot", "opcode", "op_mod", "delivery", "status", "syndrome")    \
	/* The command was checked and refused; names the rule (see nicref_cmd_rule_name). */ \
	X(CMD_FAIL, "cmd_fail", "slot", "opcode", "rule")                                        \
	/* An opcode of T127 that the model does not implement yet; it answered BAD_OP. */       \
	X(UNMODELLED, "unmodelled", "slot", "opcode")                                            \
	/* A driver broke a PRM rule; names the rule (see nicref_violation_*). */                 \
	X(VIOLATION, "violation", "rule", "arg")                                                 \
	/* INIT_SEGMENT.initializing went to 0. PRM §8.2 */                                      \
	X(READY, "ready")                                                                        \
	/* A DMA access to host memory failed. */                                                \
	X(DMA_ERROR, "dma_error", "addr", "len", "write")                                        \
	/* A port's operational status changed: the Port State Change event (PRM §7.13.10,      \
	 * type 09h) the device raises once an EQ takes it; subtype as the EQE would carry it. */ \
	X(PORT_EVENT, "port_event", "port", "subtype")                                          \
	/* An EQE was written to EQ eqn at producer counter `index` (PRM §7.13.2, T77/T78). */  \
	X(EQE, "eqe", "eqn", "index", "type", "sub_type")                                       \
	/* An event was not written: reason 0 no EQ mapped to its type (PRM §12.6.1 L6787),     \
	 * 1 EQ overrun (§7.13.3), 2 the EQ is in error; eqn is 0xFFFFFFFF when none. */        \
	X(EQE_DROPPED, "eqe_dropped", "eqn", "type", "reason")                                   \
	/* An interrupt was raised on MSI-X vector `vector` for EQ eqn (PRM §7.13.12). */       \
	X(INTERRUPT, "interrupt", "vector", "eqn")                                               \
	/* A CQE was written to CQ cqn at producer counter `index` (PRM §7.12, T67/T73). */     \
	X(CQE, "cqe", "cqn", "index", "opcode", "syndrome", "wqe_counter")                       \
	/* A UAR send doorbell or Blue Flame write was decoded (PRM §7.2, §7.4.3): the SQ, the  \
	 * WQE index and opcode, the WQE size in 16-byte units, and 1 when it came through a   \
	 * Blue Flame buffer. */                                                                \
	X(SQ_DOORBELL, "sq_doorbell", "sqn", "wqe_index", "opcode", "ds", "bf")                  \
	/* A work queue changed state (PRM §7.7.2, §7.9.2, §7.10.2): type 0 SQ, 1 RQ, 2 RMP;    \
	 * states as the contexts encode them (0 RST, 1 RDY, 3 ERR); cause 0 a MODIFY command, \
	 * 1 a device error. */                                                                 \
	X(WQ_STATE, "wq_state", "type", "num", "from", "to", "cause")                          \
	/* A frame left on the wire through ops.wire_tx (PRM §7.4.4.1, §3.3): local port, its   \
	 * length in bytes (no FCS: the model's frames never carry one, docs/tx.md D-TX-2) and  \
	 * the CRC-32 of those bytes (IEEE 802.3 polynomial, reflected, as zlib's crc32), so a  \
	 * trace compares the bytes cheaply. */                                                 \
	X(FRAME_OUT, "frame_out", "port", "len", "crc")                                         \
	/* A frame an SQ sent is looped back to the receive side (PRM §3.4; D-TX-5): decision 1 \
	 * local only (not on the wire), 2 on the wire and local. */                            \
	X(TX_LOOPBACK, "tx_loopback", "sqn", "port", "decision")                                \
	/* A frame or packet an SQ sent was dropped (D-TX-6), reason 1 fewer inline headers     \
	 * than the inline mode requires (§7.9.3.1), 2 over the MTU (§11.1.1 T106), 3 the vport \
	 * is down (D-VP-2); wqe_counter is the WQE's first WQEBB. */                            \
	X(TX_DISCARD, "tx_discard", "sqn", "wqe_counter", "reason")                             \
	/* A frame arrived on a port (nicref_wire_rx; PRM §7.3): local port, its length in     \
	 * bytes without FCS (D-TX-2) and the CRC-32 of those bytes, as frame_out. */            \
	X(FRAME_IN, "frame_in", "port", "len", "crc")                                            \
	/* The receive path dropped a frame or one copy of it (docs/rx.md D-RX-8): reason as   \
	 * enum rx_drop_reason (1 under the minimum, 2 over the MTU, 3 vport down, 4 vport     \
	 * filter, 5 steering, 6 self-loopback, 7 no TIR/RQ, 8 RQ not RDY, 9 no WQE, 10 the link \
	 * down, 11 the device halted by a fatal error, D-H-2); num the port, TIR or RQ it       \
	 * concerns (0 when none); len the frame's. */\
	X(RX_DROP, "rx_drop", "reason", "num", "len")                                            \
	/* Large Receive Offload (PRM §3.3.6; nicref/lro.h, docs/lro.md): a TCP segment on an   \
	 * LRO TIR opened a session in the WQE of counter wqe_counter of RQ rq (len: the frame's \
	 * bytes scattered, no CQE yet), joined it (num_seg segments so far, bytes: the byte_cnt \
	 * the session's CQE would carry now), or went on its own (lro_pass, cause as enum     \
	 * nicref_lro_cause); a session completed (lro_end, its cause, its CQE's lro_num_seg and \
	 * byte_cnt; the CQE event follows). */                                                 \
	X(LRO_OPEN, "lro_open", "tir", "rq", "wqe_counter", "len")                               \
	X(LRO_MERGE, "lro_merge", "tir", "rq", "wqe_counter", "num_seg", "bytes")                \
	X(LRO_END, "lro_end", "tir", "rq", "wqe_counter", "cause", "num_seg", "byte_cnt")        \
	X(LRO_PASS, "lro_pass", "tir", "rq", "cause")                                           \
	/* RoCEv2 (beyond PRM Rev 0.40; nicref/roce.h, docs/roce.md D-ROCE-*). A packet of QP   \
	 * qpn left on local port `port` for dest_qp (BTH opcode, PSN; len: the frame's bytes); \
	 * it precedes the packet's frame_out or tx_loopback. */                                \
	X(ROCE_TX, "roce_tx", "port", "qpn", "dest_qp", "opcode", "psn", "len")                 \
	/* A RoCEv2 packet to one of the port's GIDs was taken by the transport (after its     \
	 * frame_in; len: the frame's bytes). */                                                \
	X(ROCE_RX, "roce_rx", "port", "dest_qp", "opcode", "psn", "len")                        \
	/* The transport dropped a packet silently: reason as enum nicref_roce_drop; qpn the    \
	 * destination QP (0 when the packet did not parse that far), psn its BTH PSN. */       \
	X(ROCE_DROP, "roce_drop", "port", "reason", "qpn", "psn")                               \
	/* A responder sent a NAK (IBTA §9.7.5.2): the AETH syndrome (RNR NAK 001xxxxx, NAK     \
	 * 011xxxxx) and the PSN it names. */                                                   \
	X(ROCE_NAK, "roce_nak", "qpn", "psn", "syndrome")                                       \
	/* A requester restarts from from_psn (Go-Back-N): reason 0 its timer, 1 a NAK sequence \
	 * error, 2 an RNR NAK's timer expired, 3 an implied NAK (a response out of order). */ \
	X(ROCE_RETX, "roce_retx", "qpn", "from_psn", "reason")                                  \
	/* A CNP (Annex A17 §A17.9): dir 0 sent by QP qpn's notification point to the source   \
	 * of a CE-marked packet, 1 received by QP qpn's reaction point. */                      \
	X(ROCE_CNP, "roce_cnp", "qpn", "dir")                                                   \
	/* The reaction point changed QP qpn's outstanding-request limit to `limit` (seed 004   \
	 * L137-143): cause 0 a CNP, 1 the CNP timer restored it. */                             \
	X(ROCE_CC, "roce_cc", "qpn", "limit", "cause")                                          \
	/* A QP changed state (enum qp_state of obj/qp.h: 0 RST, 1 INIT, 2 RTR, 3 RTS, 4 SQER, \
	 * 6 ERR): cause 0 a command, 1 the transport (an error). */                             \
	X(QP_STATE, "qp_state", "qpn", "from", "to", "cause")                                  \
	/* The device met a fatal error and halted (PRM §9.2.2, §7.13.9.1; decisions.md D-H-2): \
	 * syndrome as T8 1010h health_syndrome now reads (0xC ASYNCHRONOUS_EQ_BUF_OVERRUN, the \
	 * one the model raises). Until the reset nothing new starts. */                        \
	X(FATAL, "fatal", "syndrome")

enum nicref_event_kind {
#define NICREF_EVENT_ENUM(id, name, ...) NICREF_EV_##id,
	NICREF_EVENT_KINDS(NICREF_EVENT_ENUM)
#undef NICREF_EVENT_ENUM
	NICREF_EV_COUNT
};

#define NICREF_EVENT_MAX_ARGS 6

struct nicref_event {
	uint64_t seq;     /* position in the stream since create or reset, from 0 */
	uint64_t time_ns; /* virtual time */
	enum nicref_event_kind kind;
	uint64_t arg[NICREF_EVENT_MAX_ARGS];
};

NICREF_API const char *nicref_event_name(enum nicref_event_kind kind);
/* Number of arguments of a kind, and the name of argument i. */
NICREF_API unsigned nicref_event_nargs(enum nicref_event_kind kind);
NICREF_API const char *nicref_event_arg_name(enum nicref_event_kind kind, unsigned i);
/* Event kind by name; -1 if unknown. */
NICREF_API int nicref_event_kind_find(const char *name);
/* Argument by name; -1 if the kind has no such argument. */
NICREF_API int nicref_event_arg_find(enum nicref_event_kind kind, const char *name);

/* One line, no newline: "<time_ns> <name> k=v ...". Rules print by name. Returns the length
 * snprintf would have written. */
NICREF_API int nicref_event_format(const struct nicref_event *ev, char *buf, size_t len);

/* Driver violations: X(ID, "citation", "what the driver did wrong"). */
#define NICREF_VIOLATIONS(X)                                                                    \
	X(BAR_UNALIGNED, "PRM §4.3 T7", "BAR0 access not on a dword boundary")                    \
	X(BAR_RO_WRITE, "PRM §4.3 T8", "write to a read-only register")          \
	X(BAR_RESERVED_WRITE, "PRM §4.3 T7", "write of a non-zero value to a reserved field")     \
	X(CMDQ_RO_FIELDS_NOT_ZERO, "PRM §8.2",                                                   \
	  "log_cmdq_size/log_cmdq_stride must be written as zero with the address LSW")           \
	X(NIC_INTERFACE_UNSUPPORTED, "PRM §4.3 T8",                                              \
	  "nic_interface mode not in nic_interface_supported")                                    \
	X(CMDQ_ADDR_LSW_BEFORE_MSW, "PRM §8.2",                                                  \
	  "command queue address written LSW first; the MSW must be written first")              \
	X(DB_WHILE_INITIALIZING, "PRM §8.2", "command doorbell rung while initializing = 1")      \
	X(DB_NO_CMDQ, "PRM §8.2", "command doorbell rung before the queue address was written")   \
	X(DB_NIC_DISABLED, "PRM §4.3 T8", "command doorbell written with nic_interface disabled") \
	X(DB_BIT_OUT_OF_RANGE, "PRM §4.3 T8", "doorbell bit beyond the number of entries")        \
	X(DB_NOT_OWNED, "PRM §7.14.1 T96", "doorbell for an entry whose ownership bit is 0")      \
	X(DB_SLOT_BUSY, "PRM §4.3 T8, §7.14.1 T96",                                              \
	  "doorbell for an entry the device still owns (its command waits for pages, D-PG-6)")  \
	X(ENTRY_STATUS_NOT_ZERO, "PRM §7.14.1 T96", "delivery status not 0 when posted")          \
	X(ENTRY_BAD_TYPE, "PRM §7.14.1 T96", "entry type is not 0x7 PCIe_cmd_if_transport")        \
	X(ENTRY_SIGNATURE, "PRM §7.14.1 T96", "command queue entry signature wrong")              \
	X(ENTRY_RESERVED, "PRM §7.14.1 T95", "reserved field of the entry not zero")              \
	X(INPUT_LENGTH_SHORT, "PRM §7.14.1 T96", "input_length less than 8")                      \
	X(OUTPUT_LENGTH_SHORT, "PRM §7.14.1 T96", "output_length less than 8")                    \
	X(INPUT_POINTER, "PRM §7.14.1 T96", "input mailbox pointer missing or not aligned")       \
	X(OUTPUT_POINTER, "PRM §7.14.1 T96", "output mailbox pointer missing or not aligned")     \
	X(MAILBOX_SIGNATURE, "PRM §7.14.1.1.1 T98", "input mailbox block signature wrong")        \
	X(MAILBOX_CTRL_SIGNATURE, "PRM §7.14.1.1.1 T98", "mailbox block ctrl_signature wrong")    \
	X(MAILBOX_TOKEN, "PRM §7.14.1 T96/T98", "mailbox block token differs from the entry's")   \
	X(MAILBOX_BLOCK_NUMBER, "PRM §7.14.1.1 T98", "mailbox block number out of sequence")      \
	X(MAILBOX_RESERVED, "PRM §7.14.1.1 T97", "reserved field of a mailbox block not zero")    \
	X(MAILBOX_NEXT_NOT_ZERO, "PRM §7.14.1.1 T98",                                            \
	  "next_pointer of the last block needed is not 0")                                        \
	X(CMD_RESERVED_NOT_ZERO, "PRM §12.2 T128",                                               \
	  "reserved field of a command input not zero (arg: byte offset << 32 | bits)")          \
	X(CMDQ_ADDR_WHILE_ENABLED, "PRM §4.3 T8",                                                \
	  "command queue address written after INIT_HCA, before TEARDOWN_HCA")                    \
	X(ISSI_NOT_SET, "PRM §7.1, §8.2", "INIT_HCA without SET_ISSI after ENABLE_HCA")           \
	X(SET_HCA_CAP_AFTER_INIT_PAGES, "PRM §12.3.4",                                           \
	  "SET_HCA_CAP after QUERY_PAGES(init) (D-INIT-1)")                                       \
	X(PAGES_NOT_RECLAIMED, "PRM §8.3",                                                       \
	  "DISABLE_HCA while the device still holds pages (arg: how many)")                       \
	X(DRIVER_VERSION_FORMAT, "PRM §12.3.12 T190",                                            \
	  "driver_version is not \"OS,driver,main.minor.subminor\" (3, 3 and 6 digits)")      \
	NICREF_VIOLATIONS_CTRL(X)

enum nicref_violation {
#define NICREF_VIOLATION_ENUM(id, cite, what) NICREF_VIO_##id,
	NICREF_VIOLATIONS(NICREF_VIOLATION_ENUM)
#undef NICREF_VIOLATION_ENUM
	NICREF_VIO_COUNT
};

NICREF_API const char *nicref_violation_name(unsigned rule);
NICREF_API const char *nicref_violation_citation(unsigned rule);
NICREF_API const char *nicref_violation_text(unsigned rule);
NICREF_API int nicref_violation_find(const char *name);

/* The violations of a "should" or of a "must" no driver meets and the device does not enforce
 * (D-CMD-19): warnings, reported apart from the violations of a "must" (`nicref drive`, the
 * reports); the command they concern runs. */
#define NICREF_VIOLATIONS_SHOULD(X)                                                             \
	X(MAILBOX_NEXT_NOT_ZERO)       /* T98 "the pointer should be 0" */                      \
	X(MKEY_OCTWORD_SIZE_NOT_MULT4) /* T10 34h, a "must" no driver meets */                  \
	X(ENTRY_STATUS_NOT_ZERO)       /* T96 "SW should set this field to 0" */                \
	X(CMDQ_ADDR_WHILE_ENABLED)     /* T8 10h/14h "should not be modified" */
/* 1 for a warning (NICREF_VIOLATIONS_SHOULD), 0 for a violation, -1 for no such rule. */
NICREF_API int nicref_violation_is_warning(unsigned rule);

#endif
