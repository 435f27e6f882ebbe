/* `nicref roce check`: does a captured RoCE conversation follow the transport's rules?
 * (docs/roce_check.md)
 *
 * Two levels, both pure (no libpcap, no I/O: the unit tests drive them with hand-built bytes and
 * records):
 *  - every RoCE frame on its own (roce_check_pkt.c): the ICRC (RoCEv2, by the library's
 *    nicref_roce_icrc, nicref/roce.h), the BTH version, the
 *    opcode, the lengths of the headers its opcode carries, the CNP format;
 *  - every RC request flow with its responses, in capture order (roce_check_flow.c): the PSN
 *    sequence and the opcode sequence of first transmissions, the path-MTU packetisation, each
 *    ACK/NAK against what a correct responder can have sent for the requests seen, every
 *    retransmission (Go-Back-N start, the same opcode and RETH, a resumed RDMA READ's advanced
 *    RETH, not before the RNR timer), the outstanding window and its CNP reaction (seed 004
 *    profile), a CE mark answered by a CNP; the retransmission timing against the ADP profile
 *    or the classic timer is adp_check.h's, whose verdict is merged in (roce_check_cmd.c).
 * The first violation of a flow is the one reported; the capture is taken at the requester's
 * port (what it sends, what it receives), as for `nicref adp check`. */
#ifndef NICREF_ROCE_CHECK_H
#define NICREF_ROCE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adp_check.h"
#include "adp_pkt.h"
#include "capture.h"
#include "roce_class.h"

/* The rules, X(ID, "name", "citation"), in the order a tie on one frame is reported. IBTA =
 * InfiniBand Architecture Specification Vol. 1 (Release 1.4); A17 = its Annex A17 (RoCEv2);
 * seed 004 = the RoCEv2 engine note, by line. */
#define ROCE_CHECK_RULES(X)                                                                     \
	X(PKT_ICRC, "pkt.icrc", "IBTA Annex A17 §A17.3.3; IBTA §7.8.1")                           \
	X(PKT_TVER, "pkt.tver", "IBTA §9.2 (BTH TVer 0)")                                         \
	X(PKT_OPCODE, "pkt.opcode", "IBTA §9.2.1 (reserved opcodes); seed 004 L93")               \
	X(PKT_LENGTH, "pkt.length", "IBTA §9.2 (PadCnt), §9.3 (extension headers); seed 004 L85") \
	X(PKT_CNP, "pkt.cnp", "IBTA Annex A17 §A17.9 (CNP format)")                               \
	X(REQ_PSN, "req.psn_seq",                                                                 \
	  "IBTA §9.7.1 (PSN one more per packet; a READ takes its responses' PSNs)")              \
	X(REQ_OPCODE, "req.opcode_seq", "IBTA §9.2.1 (FIRST, MIDDLE..., LAST); seed 004 L93")     \
	X(REQ_LENGTH, "req.length",                                                               \
	  "IBTA §9.7.2 (FIRST/MIDDLE carry the path MTU); seed 004 L94")                          \
	X(REQ_WINDOW, "req.window", "seed 004 L130-133 (16 outstanding per QP)")                  \
	X(CNP_WINDOW, "cnp.window",                                                               \
	  "seed 004 L137-144 (16 -> 8 after a CNP until CNP_TIMER_THRD)")                         \
	X(ACK_UNSENT, "ack.unsent", "IBTA §9.7.5.1 (a response acknowledges requests received)")  \
	X(ACK_REGRESS, "ack.regress",                                                             \
	  "IBTA §9.7.5.1 (a duplicate is acknowledged with the latest PSN)")                      \
	X(NAK_SEQ, "nak.seq",                                                                     \
	  "IBTA §9.7.5.1 (PSN sequence error: an expected PSN outstanding, a later one sent)")    \
	X(NAK_LATCH, "nak.latch",                                                                 \
	  "IBTA §9.7.5.1 (one NAK per sequence error until the expected PSN arrives)")            \
	X(RETX_START, "retx.start",                                                               \
	  "IBTA §9.7.5.2 (Go-Back-N from the oldest unacknowledged PSN)")                         \
	X(RETX_OPCODE, "retx.opcode", "IBTA §9.7.5.2 (a retried packet is the original one)")     \
	X(RETX_RETH, "retx.reth",                                                                 \
	  "IBTA §9.7.5.2, §9.4.4 (a retried RDMA READ asks for what was not answered)")           \
	X(RETX_RNR, "retx.rnr_early", "IBTA §9.7.5.2.8, Table 45 (RNR NAK timer)")                \
	X(RETX_TIMING, "retx.timing", "seed 000/001 (ADP); IBTA §9.7.6.1.3 (local ACK timeout)")  \
	X(CNP_MISSING, "cnp.missing",                                                             \
	  "IBTA Annex A17 §A17.9 (CE-marked packet -> CNP); seed 004 L137")
enum rck_rule {
#define RCK_ENUM(id, name, cite) RCK_##id,
	ROCE_CHECK_RULES(RCK_ENUM)
#undef RCK_ENUM
	RCK_COUNT,
	RCK_NONE = RCK_COUNT
};
const char *rck_rule_name(unsigned r);
const char *rck_rule_citation(unsigned r);

/* What one RoCE frame says, beyond roce_class.h's headers. Kept for every RoCE frame of a
 * capture until the flows are judged (docs/roce_check.md "Memory"): its QP (IP version, source,
 * destination, DestQP) is the caller's to key (`nicref roce check` numbers the QPs), and the
 * detail of a frame rule is not text but what rck_pkt_why needs to write it again. */
struct rck_pkt {
	uint64_t t_ns;
	uint64_t va;
	uint32_t frame;
	uint32_t qp;        /* the caller's number of its QP (rck_pkt_inspect leaves it 0) */
	uint32_t psn;
	uint32_t rkey, dlen;
	uint32_t msn;
	uint32_t payload;   /* bytes of payload, without pad and ICRC */
	uint32_t icrc_got, icrc_want;
	uint32_t why_n;     /* the byte count the detail names (enum rck_why) */
	uint16_t pkey;
	uint8_t cls;        /* enum roce_class */
	uint8_t roce_ver;
	uint8_t ecn;        /* IP ECN (RoCEv2), 0 for RoCEv1 */
	uint8_t opcode, se, padcnt, tver, ackreq;
	uint8_t has_reth, has_aeth, has_imm, whole; /* whole: every byte through the ICRC captured */
	uint8_t syndrome;
	/* ICRC outcome: 0 checked good, 1 bad, 2 not checked (icrc_why says why) */
	uint8_t icrc_state, icrc_why;
	uint8_t rule;       /* enum rck_rule of the frame alone, RCK_NONE when it is fine */
	uint8_t why;        /* enum rck_why: which detail of the rule (rule set) */
	uint8_t used;       /* the caller's: a flow claimed the frame */
};

/* The details of the frame rules: X(ID, rule). What each says is rck_pkt_why's, from the
 * record's fields (why_n a byte count, and the ICRCs, TVer, opcode, PadCnt), so no text is kept
 * per frame and the message is the one the frame's bytes gave. */
#define RCK_WHYS(X)                                                                             \
	X(NONE, RCK_NONE)                                                                       \
	X(GRH_BEYOND, RCK_PKT_LENGTH) /* RoCEv1: GRH PayLen past the frame (why_n bytes) */     \
	X(GRH_SHORT, RCK_PKT_LENGTH)  /* PayLen leaves why_n bytes, less than a BTH */          \
	X(ICRC, RCK_PKT_ICRC)         /* icrc_got, icrc_want */                                 \
	X(TVER, RCK_PKT_TVER)                                                                   \
	X(OPCODE, RCK_PKT_OPCODE)                                                               \
	X(SHORT, RCK_PKT_LENGTH)      /* why_n bytes BTH..end: less than the opcode's headers */ \
	X(ALIGN, RCK_PKT_LENGTH)      /* why_n bytes BTH..end: not a multiple of 4 */           \
	X(NO_PAYLOAD, RCK_PKT_LENGTH) /* why_n bytes after the headers of an opcode without */  \
	X(CNP, RCK_PKT_CNP)           /* why_n bytes after the BTH of a CNP, not 16 */          \
	X(PAD, RCK_PKT_LENGTH)        /* PadCnt beyond the why_n payload bytes */
enum rck_why {
#define RCK_WHY_ENUM(id, rule) RCK_WHY_##id,
	RCK_WHYS(RCK_WHY_ENUM)
#undef RCK_WHY_ENUM
	RCK_WHY_COUNT
};
/* The detail of p's frame rule, as rck_pkt_inspect found it ("" when it has none). */
void rck_pkt_why(const struct rck_pkt *p, char *buf, size_t len);

/* Why an ICRC was not checked (the counts of the summary's "icrc"). */
#define RCK_ICRC_SKIPS(X)                                                                       \
	X(CUT, "truncated")          /* the snapshot length cut the packet */                   \
	X(V1, "roce_v1")             /* RoCEv1: the ICRC covers an LRH nicref does not see */   \
	X(IPV6_EXT, "ipv6_ext_headers") /* an IPv6 extension header before UDP */               \
	X(FRAGMENT, "ip_fragment")   /* a first fragment: the packet goes on elsewhere */
enum rck_icrc_skip {
#define RCK_SKIP_ENUM(id, name) RCK_SKIP_##id,
	RCK_ICRC_SKIPS(RCK_SKIP_ENUM)
#undef RCK_SKIP_ENUM
	RCK_SKIP_COUNT
};
const char *rck_icrc_skip_name(unsigned s);

/* Reads frame `data` (caplen captured of wirelen) already classified `cls` with headers *k, and
 * judges it alone: *out (rule, and the detail rck_pkt_why writes). Only classes whose BTH was
 * read (roce_class_is_roce). */
void rck_pkt_inspect(const uint8_t *data, size_t caplen, size_t wirelen, enum cap_link link,
		     enum roce_class cls, const struct roce_pkt *k, struct rck_pkt *out);

/* An opcode as the checks use it: a row of the library's one opcode table (nicref/roce.h
 * NICREF_ROCE_OPCODES, IBTA §9.2.1 Table 38, §9.3), by code. */
enum rck_op_kind { OPK_NONE, OPK_SEND, OPK_WRITE, OPK_READ, OPK_READ_RESP, OPK_ACK, OPK_ATOMIC,
		   OPK_ATOMIC_ACK, OPK_UD, OPK_CNP };
enum rck_op_pos { OPP_NONE, OPP_FIRST, OPP_MIDDLE, OPP_LAST, OPP_ONLY };
struct rck_op {
	const char *name;   /* NULL: reserved */
	uint8_t kind, pos;  /* enum rck_op_kind, enum rck_op_pos */
	uint8_t ext;        /* bytes of extension headers after the BTH */
	uint8_t payload;    /* 1 it may carry a payload, 0 it carries none, 2 exactly 16 (CNP) */
	uint8_t reth, aeth, imm;
};
const struct rck_op *rck_op(uint8_t opcode);

/* RNR NAK timer values (IBTA Table 45), ns, by the 5-bit field. */
uint64_t rck_rnr_ns(uint8_t timer);

/* The options of the transport rules. */
struct rck_opts {
	uint32_t pmtu;           /* path MTU in bytes; 0: learnt from the flow's FIRST/MIDDLE */
	bool seed004_window;     /* req.window / cnp.window on (seed 004 profile) */
	/* The capture shows what both ends sent, before the link (a capture of the senders, such as
	 * `nicref vectors --pcap`), not what the requester received: a response in it may have been
	 * lost, so a retransmission may start below the capture's oldest unacknowledged PSN (not
	 * above), and the RNR and CNP reactions, which need the NAK or CNP to arrive, are not
	 * judged (D-RCK-7). */
	bool at_senders;
	uint32_t window, cnp_window;
	uint64_t cnp_timer_ns;   /* CNP_TIMER_THRD */
	uint64_t cnp_interval_ns; /* a CNP within this before a CE mark answers it too */
};
void rck_opts_default(struct rck_opts *o);

/* One violation. */
struct rck_violation {
	uint8_t rule;  /* enum rck_rule, RCK_NONE: none */
	uint32_t frame;
	uint64_t t_ns;
	uint32_t psn;
	char message[320];
};

/* The frames of a capture: every RoCE frame's rck_pkt, ascending by frame number. */
struct rck_frames {
	struct rck_pkt *p;
	size_t n, cap;
};
/* The rck_pkt of frame `frame`, NULL when it is not a RoCE frame. */
const struct rck_pkt *rck_frames_find(const struct rck_frames *fr, uint32_t frame);

/* Flow statistics. */
struct rck_flow_stats {
	uint32_t requests, responses, retransmissions, naks, rnr_naks, cnps, ce_marked;
};

/* Judges one flow: ev[0..nev) are its frames in capture order (its requests, and the responses
 * to its requester QP: ACKs, NAKs, READ responses), cnp[0..ncnp) the CNPs to its requester QP
 * (capture order); ack_known: the requester QP is known (a response was paired), so CNPs can be
 * looked for. *v is the first violation (rule RCK_NONE if none). 0, or -1 (no memory). */
int rck_check_flow(const struct rck_opts *o, const struct rck_frames *fr, const uint32_t *ev,
		   size_t nev, const uint32_t *cnp, size_t ncnp, bool ack_known,
		   struct rck_violation *v, struct rck_flow_stats *st);

#endif
