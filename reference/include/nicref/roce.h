/* The RoCEv2 transport (beyond ConnectX-4 PRM Rev 0.40, which is Ethernet-only; docs/roce.md
 * D-ROCE-*): the names the trace, the vectors and the harness tools share.
 *
 *  - the BTH opcodes, one table: InfiniBand Architecture Specification Vol. 1 ("IBTA") §9.2.1
 *    Table 38 (the names as IBTA prints them, made identifiers), with what each carries (§9.2-
 *    §9.3: the extended transport headers, whether a payload follows) and where it sits in a
 *    message (FIRST/MIDDLE/LAST/ONLY); the CNP of IBTA Annex A17 (RoCEv2) §A17.9.1;
 *  - why the transport drops a packet silently (the roce_drop event's reason);
 *  - the ICRC (IBTA §7.8.1, Annex A17 §A17.3.3), for tools that check captures.
 *
 * Trace events (nicref/trace.h): roce_tx, roce_rx, roce_drop, roce_nak, roce_retx, roce_cnp,
 * roce_cc, qp_state. */
#ifndef NICREF_ROCE_H
#define NICREF_ROCE_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/api.h"

/* UDP destination port of RoCEv2 (IBTA Annex A17 §A17.2.1, IANA). */
#define NICREF_ROCE_UDP_PORT 4791u
/* Header sizes (IBTA §9.2, §9.3). */
#define NICREF_ROCE_BTH_LEN 12u
#define NICREF_ROCE_RETH_LEN 16u
#define NICREF_ROCE_AETH_LEN 4u
#define NICREF_ROCE_DETH_LEN 8u
#define NICREF_ROCE_IMMDT_LEN 4u
#define NICREF_ROCE_IETH_LEN 4u
#define NICREF_ROCE_ATOMICETH_LEN 28u
#define NICREF_ROCE_ATOMICACKETH_LEN 8u
#define NICREF_ROCE_ICRC_LEN 4u
/* The CNP's payload: 16 reserved bytes (Annex A17 §A17.9.1). */
#define NICREF_ROCE_CNP_PAYLOAD 16u
/* The GRH area of a UD receive buffer (IBTA §11.4.1.1: the first 40 bytes of the buffer take
 * the GRH, here the IPv6 header or, for IPv4, the IPv4 header at its bytes 20-39). */
#define NICREF_ROCE_GRH_LEN 40u

/* The service of an opcode: bits 7:5 of the opcode (Table 38), and the CNP. */
enum nicref_roce_service {
	NICREF_ROCE_SVC_RC = 0,
	NICREF_ROCE_SVC_UC = 1,
	NICREF_ROCE_SVC_RD = 2,
	NICREF_ROCE_SVC_UD = 3,
	NICREF_ROCE_SVC_CNP = 4,
};

/* Which headers follow the BTH, in this order (IBTA §9.2 Figure 87: RETH, then AtomicETH, then
 * AETH, AtomicAckETH, ImmDt, IETH; UD: DETH first). */
enum {
	NICREF_ROCE_H_DETH = 1u << 0,
	NICREF_ROCE_H_RETH = 1u << 1,
	NICREF_ROCE_H_ATOMICETH = 1u << 2,
	NICREF_ROCE_H_AETH = 1u << 3,
	NICREF_ROCE_H_ATOMICACKETH = 1u << 4,
	NICREF_ROCE_H_IMMDT = 1u << 5,
	NICREF_ROCE_H_IETH = 1u << 6,
	NICREF_ROCE_H_PAYLOAD = 1u << 7, /* a payload may follow the headers */
};

/* Where the packet sits in its message. */
enum nicref_roce_pos {
	NICREF_ROCE_POS_NONE = 0, /* not part of a request message (ACK, CNP) */
	NICREF_ROCE_POS_FIRST = 1,
	NICREF_ROCE_POS_MIDDLE = 2,
	NICREF_ROCE_POS_LAST = 3,
	NICREF_ROCE_POS_ONLY = 4,
};

/* What the packet is. */
enum nicref_roce_kind {
	NICREF_ROCE_K_SEND = 0,
	NICREF_ROCE_K_WRITE = 1,
	NICREF_ROCE_K_READ_REQ = 2,
	NICREF_ROCE_K_READ_RESP = 3,
	NICREF_ROCE_K_ACK = 4,
	NICREF_ROCE_K_ATOMIC = 5,
	NICREF_ROCE_K_ATOMIC_ACK = 6,
	NICREF_ROCE_K_CNP = 7,
};

#define NICREF_ROCE_RH NICREF_ROCE_H_RETH
#define NICREF_ROCE_AH NICREF_ROCE_H_AETH
#define NICREF_ROCE_DH NICREF_ROCE_H_DETH
#define NICREF_ROCE_IM NICREF_ROCE_H_IMMDT
#define NICREF_ROCE_PL NICREF_ROCE_H_PAYLOAD
/* X(ID, code, "name", service, kind, pos, headers): IBTA §9.2.1 Table 38, the RC and UD rows,
 * and the CNP (Annex A17 §A17.9.1). The UC and RD rows are not listed: the transport does not
 * model those services (their packets are dropped as opcode_unknown, D-ROCE-6). */
#define NICREF_ROCE_OPCODES(X)                                                                  \
	X(RC_SEND_FIRST, 0x00, "RC_SEND_FIRST", RC, SEND, FIRST, NICREF_ROCE_PL)                 \
	X(RC_SEND_MIDDLE, 0x01, "RC_SEND_MIDDLE", RC, SEND, MIDDLE, NICREF_ROCE_PL)              \
	X(RC_SEND_LAST, 0x02, "RC_SEND_LAST", RC, SEND, LAST, NICREF_ROCE_PL)                    \
	X(RC_SEND_LAST_IMM, 0x03, "RC_SEND_LAST_WITH_IMMEDIATE", RC, SEND, LAST,                 \
	  NICREF_ROCE_IM | NICREF_ROCE_PL)                                                       \
	X(RC_SEND_ONLY, 0x04, "RC_SEND_ONLY", RC, SEND, ONLY, NICREF_ROCE_PL)                    \
	X(RC_SEND_ONLY_IMM, 0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", RC, SEND, ONLY,                 \
	  NICREF_ROCE_IM | NICREF_ROCE_PL)                                                       \
	X(RC_RDMA_WRITE_FIRST, 0x06, "RC_RDMA_WRITE_FIRST", RC, WRITE, FIRST,                    \
	  NICREF_ROCE_RH | NICREF_ROCE_PL)                                                       \
	X(RC_RDMA_WRITE_MIDDLE, 0x07, "RC_RDMA_WRITE_MIDDLE", RC, WRITE, MIDDLE, NICREF_ROCE_PL)  \
	X(RC_RDMA_WRITE_LAST, 0x08, "RC_RDMA_WRITE_LAST", RC, WRITE, LAST, NICREF_ROCE_PL)        \
	X(RC_RDMA_WRITE_LAST_IMM, 0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", RC, WRITE, LAST,     \
	  NICREF_ROCE_IM | NICREF_ROCE_PL)                                                       \
	X(RC_RDMA_WRITE_ONLY, 0x0A, "RC_RDMA_WRITE_ONLY", RC, WRITE, ONLY,                       \
	  NICREF_ROCE_RH | NICREF_ROCE_PL)                                                       \
	X(RC_RDMA_WRITE_ONLY_IMM, 0x0B, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", RC, WRITE, ONLY,     \
	  NICREF_ROCE_RH | NICREF_ROCE_IM | NICREF_ROCE_PL)                                      \
	X(RC_RDMA_READ_REQUEST, 0x0C, "RC_RDMA_READ_REQUEST", RC, READ_REQ, ONLY, NICREF_ROCE_RH) \
	X(RC_RDMA_READ_RESPONSE_FIRST, 0x0D, "RC_RDMA_READ_RESPONSE_FIRST", RC, READ_RESP, FIRST, \
	  NICREF_ROCE_AH | NICREF_ROCE_PL)                                                       \
	X(RC_RDMA_READ_RESPONSE_MIDDLE, 0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", RC, READ_RESP,      \
	  MIDDLE, NICREF_ROCE_PL)                                                                \
	X(RC_RDMA_READ_RESPONSE_LAST, 0x0F, "RC_RDMA_READ_RESPONSE_LAST", RC, READ_RESP, LAST,    \
	  NICREF_ROCE_AH | NICREF_ROCE_PL)                                                       \
	X(RC_RDMA_READ_RESPONSE_ONLY, 0x10, "RC_RDMA_READ_RESPONSE_ONLY", RC, READ_RESP, ONLY,    \
	  NICREF_ROCE_AH | NICREF_ROCE_PL)                                                       \
	X(RC_ACK, 0x11, "RC_ACKNOWLEDGE", RC, ACK, NONE, NICREF_ROCE_AH)                         \
	X(RC_ATOMIC_ACK, 0x12, "RC_ATOMIC_ACKNOWLEDGE", RC, ATOMIC_ACK, NONE,                    \
	  NICREF_ROCE_AH | NICREF_ROCE_H_ATOMICACKETH)                                           \
	X(RC_CMP_SWAP, 0x13, "RC_CMP_SWAP", RC, ATOMIC, ONLY, NICREF_ROCE_H_ATOMICETH)            \
	X(RC_FETCH_ADD, 0x14, "RC_FETCH_ADD", RC, ATOMIC, ONLY, NICREF_ROCE_H_ATOMICETH)          \
	X(RC_SEND_LAST_INV, 0x16, "RC_SEND_LAST_WITH_INVALIDATE", RC, SEND, LAST,                \
	  NICREF_ROCE_H_IETH | NICREF_ROCE_PL)                                                   \
	X(RC_SEND_ONLY_INV, 0x17, "RC_SEND_ONLY_WITH_INVALIDATE", RC, SEND, ONLY,                \
	  NICREF_ROCE_H_IETH | NICREF_ROCE_PL)                                                   \
	X(UD_SEND_ONLY, 0x64, "UD_SEND_ONLY", UD, SEND, ONLY, NICREF_ROCE_DH | NICREF_ROCE_PL)    \
	X(UD_SEND_ONLY_IMM, 0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", UD, SEND, ONLY,                 \
	  NICREF_ROCE_DH | NICREF_ROCE_IM | NICREF_ROCE_PL)                                      \
	X(CNP, 0x81, "CNP", CNP, CNP, NONE, NICREF_ROCE_PL)

enum nicref_roce_opcode {
#define NICREF_ROCE_OP_ENUM(id, code, name, svc, kind, pos, hdrs) NICREF_ROCE_OP_##id = code,
	NICREF_ROCE_OPCODES(NICREF_ROCE_OP_ENUM)
#undef NICREF_ROCE_OP_ENUM
};

/* One row of the table. */
struct nicref_roce_opcode_info {
	uint8_t code;
	const char *name;
	enum nicref_roce_service service;
	enum nicref_roce_kind kind;
	enum nicref_roce_pos pos;
	unsigned headers; /* NICREF_ROCE_H_* */
};
/* The row of a BTH opcode, or NULL when the table has none (a reserved opcode, UC, RD). */
NICREF_API const struct nicref_roce_opcode_info *nicref_roce_opcode(unsigned code);
/* The opcode of a name of the table ("RC_SEND_ONLY"), or -1. */
NICREF_API int nicref_roce_opcode_find(const char *name);
/* Bytes of the headers the opcode puts after the BTH (0 for an opcode not in the table). */
NICREF_API unsigned nicref_roce_ext_len(unsigned code);

/* Why the transport dropped a packet without an answer (the roce_drop event's reason; counted
 * in nicref_stats.roce_drops[]): X(ID, value, "name", "clause", "what"). Values are fixed
 * (vectors name them; a new reason takes the next value). */
#define NICREF_ROCE_DROPS(X)                                                                    \
	X(ICRC, 1, "icrc", "IBTA Vol. 1 §7.8.1, §9.6.1.1; Annex A17 §A17.3.3",                   \
	  "the ICRC does not match the packet")                                                  \
	X(MALFORMED, 2, "malformed", "IBTA Vol. 1 §9.6.1; Annex A17 §A17.4",                      \
	  "shorter than its headers, a bad IPv4 header, a UDP length or pad count that does "    \
	  "not fit the packet")                                                                  \
	X(TVER, 3, "tver", "IBTA Vol. 1 §9.2.3, §9.6.1.1 (C9-7)",                                 \
	  "the BTH TVer is not 0")                                                               \
	X(OPCODE_UNKNOWN, 4, "opcode_unknown", "IBTA Vol. 1 §9.2.1 Table 38",                      \
	  "an opcode of a service the transport does not model (UC, RD) or a reserved one")      \
	X(NO_QP, 5, "no_qp", "IBTA Vol. 1 §9.6.1.4 (C9-12)",                                      \
	  "no QP of the destination QP number")                                                   \
	X(QP_STATE, 6, "qp_state", "IBTA Vol. 1 §10.3.1 (Reset, Init: no receive)",               \
	  "the QP does not receive in its state (Reset, Init, Error)")                           \
	X(SERVICE, 7, "service", "IBTA Vol. 1 §9.6.1.4 (C9-13)",                                   \
	  "the opcode's service is not the QP's")                                                \
	X(PKEY, 8, "pkey", "IBTA Vol. 1 §9.6.1.2 (C9-9), §10.9.2",                                \
	  "the P_Key does not match the QP's partition")                                         \
	X(QKEY, 9, "qkey", "IBTA Vol. 1 §10.2.4 (C10-15), §9.6.1.5",                              \
	  "the DETH Q_Key is not the UD QP's")                                                   \
	X(UD_NO_WQE, 10, "ud_no_wqe", "IBTA Vol. 1 §9.7.5.1.1 (UD: no RNR), §11.4.1.1",           \
	  "a UD QP with no receive WQE posted")                                                  \
	X(ATOMIC, 11, "atomic", "IBTA Vol. 1 §9.4.5; seed 004 (no atomics)",                      \
	  "an atomic operation: not modelled")                                                   \
	X(QP_RESERVED, 12, "qp_reserved", "seed 004 L42-44; IBTA Vol. 1 §3.5.3 (QP0, QP1)",       \
	  "destination QP 0 or 1: the management QPs are not modelled")                          \
	X(UD_LENGTH, 13, "ud_length", "IBTA Vol. 1 §9.6.3.1 (C9-53), §11.4.1.1",                  \
	  "a UD packet whose payload exceeds the path MTU or is not one whole message")          \
	X(CNP_NO_QP, 14, "cnp_no_qp", "Annex A17 §A17.9.1",                                       \
	  "a CNP for a QP that does not exist or does not send")                                 \
	X(RESPONSE_UNEXPECTED, 15, "response_unexpected", "IBTA Vol. 1 §9.7.5.1.1 (C9-109..)",    \
	  "a response or ACK the requester does not wait for (duplicate, ghost, out of window)") \
	/* Packets the sender could not send (counted with the sender's QP; no frame). */       \
	X(TX_NO_GID, 16, "tx_no_gid", "Annex A17 §A17.4; docs/roce.md D-ROCE-11",                \
	  "sending: the source GID index names no RoCEv2 entry of the port")                    \
	X(TX_OVER_MTU, 17, "tx_over_mtu", "PRM §11.1.1 T106; docs/roce.md D-ROCE-11",           \
	  "sending: the packet is longer than the port MTU")                                   \
	X(TX_LINK_DOWN, 18, "tx_link_down", "PRM §11.1.1; docs/roce.md D-ROCE-11",              \
	  "sending: the port is down")                                                          \
	X(LOOPBACK_FULL, 19, "loopback_full", "docs/roce.md D-ROCE-12",                         \
	  "a packet to a local GID found the loopback queue full")

enum nicref_roce_drop {
	NICREF_ROCE_DROP_NONE = 0,
#define NICREF_ROCE_DROP_ENUM(id, v, name, cite, what) NICREF_ROCE_DROP_##id = v,
	NICREF_ROCE_DROPS(NICREF_ROCE_DROP_ENUM)
#undef NICREF_ROCE_DROP_ENUM
	NICREF_ROCE_DROP_COUNT /* one past the last value */
};
/* The name, clause and description of a reason; NULL for none. */
NICREF_API const char *nicref_roce_drop_name(unsigned reason);
NICREF_API const char *nicref_roce_drop_citation(unsigned reason);
NICREF_API const char *nicref_roce_drop_text(unsigned reason);
/* The reason of a name, or -1. */
NICREF_API int nicref_roce_drop_find(const char *name);

/* The ICRC of a RoCEv2 packet (IBTA Vol. 1 §7.8.1; Annex A17 §A17.3.3): CRC-32 (the Ethernet
 * polynomial, reflected, as zlib's crc32) of 8 bytes of 1s (the LRH that RoCEv2 does not have),
 * the IP header with its variant fields masked to 1s (IPv4: TOS, TTL, header checksum; IPv6:
 * traffic class, flow label, hop limit), the UDP header with its checksum masked to 1s, the BTH
 * with its byte 4 (FECN, BECN, resv6) masked to 1s, and the rest of the packet up to the ICRC.
 * ip points at the IP header; len counts the IP packet through its 4 ICRC bytes (the IP header's
 * own length fields are not consulted). The ICRC travels after the payload least significant
 * byte first (as Scapy's scapy.contrib.roce writes it). 0 with *icrc set; -1 when ip is not an
 * IPv4 (without options or with) or IPv6 header followed by UDP and a BTH within len. */
NICREF_API int nicref_roce_icrc(const uint8_t *ip, size_t len, uint32_t *icrc);

#endif
