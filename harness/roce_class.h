/* Every captured frame gets one class (docs/captures.md, "How frames are classified"), and a
 * RoCE frame its decoded headers. Pure: no libpcap, no I/O (capture.h reads the frames, the unit
 * tests write them byte by byte). Public formats only: Ethernet II and IEEE 802.1Q/802.1ad tags,
 * Linux cooked capture v1/v2 (tcpdump.org link types 113, 276), IPv4 (RFC 791), IPv6 (RFC 8200),
 * UDP (RFC 768); RoCEv1 = EtherType 0x8915 carrying the IB GRH (IBTA Vol. 1 §8.3, next header
 * 0x1B) and the BTH; RoCEv2 = UDP destination port 4791 carrying the BTH (IBTA Vol. 1 Annex
 * A17); BTH (§9.2), RETH (§9.3.3), AETH (§9.3.5), DETH (§9.3.2); CM MADs on QP1 (§13.4 MAD
 * header, §12.6 CM messages). */
#ifndef NICREF_ROCE_CLASS_H
#define NICREF_ROCE_CLASS_H

#include <stddef.h>
#include <stdint.h>

#include "capture.h"

#define ROCE_UDP_PORT 4791 /* IANA: RoCEv2 */

/* The classes, in the order of the summary's "classes" keys. The rules, in the order they are
 * applied: roce_classify. */
#define ROCE_CLASSES(X)                                                                         \
	X(RC, "rc")                                                                             \
	X(UC, "uc")                                                                             \
	X(RD, "rd")                                                                             \
	X(UD, "ud")                                                                             \
	X(XRC, "xrc")                                                                           \
	X(CNP, "cnp")                                                                           \
	X(CM_MAD, "cm_mad")                                                                     \
	X(VENDOR, "vendor")                                                                     \
	X(RESERVED, "reserved")                                                                 \
	X(CUT, "cut")                                                                           \
	X(MALFORMED, "malformed")                                                               \
	X(NOT_ROCE, "not_roce")
#define ROCE_CLASS_ENUM(id, name) ROCE_CLASS_##id,
enum roce_class { ROCE_CLASSES(ROCE_CLASS_ENUM) ROCE_CLASS_COUNT };
#undef ROCE_CLASS_ENUM
const char *roce_class_name(enum roce_class c);
/* The classes of frames whose BTH was read (rc .. reserved). */
int roce_class_is_roce(enum roce_class c);

/* A RoCE frame's headers. */
struct roce_pkt {
	uint64_t t_ns;     /* capture timestamp (the caller's) */
	uint32_t frame;    /* 1-based frame number (the caller's) */
	uint8_t roce_ver;  /* 1 (GRH) or 2 (UDP) */
	uint8_t ipver;     /* 4 or 6; RoCEv1 GIDs are 16-byte addresses: 6 */
	uint16_t sport;    /* UDP source port (RoCEv2), 0 for RoCEv1 */
	uint8_t src[16];   /* IPv4 in the first 4 bytes */
	uint8_t dst[16];
	uint8_t opcode;    /* BTH byte 0 */
	uint8_t has_aeth;  /* an AETH was read (roce_opcode_has_aeth and captured) */
	uint8_t syndrome;  /* AETH byte 0 */
	uint32_t dqp;      /* BTH DestQP, 24 bits */
	uint32_t psn;      /* BTH PSN, 24 bits */
	uint32_t msn;      /* AETH MSN */
	uint32_t span;     /* PSNs the request takes: RDMA READ ceil(DMA length / 256), else 1 */
	uint16_t bth_off;  /* the BTH's offset in the frame */
	uint16_t bth_len;  /* captured bytes from the BTH to the end of the transport packet */
};

/* The class of one frame of `caplen` captured bytes that had `wirelen` on the wire, with RoCEv2
 * on UDP destination port `roce_port`. For the RoCE classes (rc .. reserved) *out holds the
 * headers (t_ns and frame left to the caller). */
enum roce_class roce_classify(const uint8_t *p, size_t caplen, size_t wirelen, enum cap_link link,
			      uint16_t roce_port, struct roce_pkt *out);

/* RC opcodes (IBTA §9.2.1, transport bits 7:5 = 000 for RC). */
int roce_opcode_is_rc_request(uint8_t opcode);
/* An RC response that carries an AETH, so it acknowledges (or NAKs) up to its PSN. */
int roce_opcode_has_aeth(uint8_t opcode);

/* The connection exchange on QP1 (IBTA §12.6): what pairs requests with their ACKs. */
enum cm_kind { CM_OTHER, CM_REQ, CM_REP, CM_RTU };
struct cm_msg {
	uint32_t frame;
	uint8_t ipver;
	uint8_t src[16], dst[16];
	uint8_t kind;          /* enum cm_kind */
	uint32_t local_comm;   /* Local Communication ID */
	uint32_t remote_comm;  /* REP, RTU: the REQ's Local Communication ID */
	uint32_t qpn;          /* REQ, REP: the sender's Local QPN */
	uint32_t psn;          /* REQ, REP: the sender's Starting PSN */
};
/* A cm_mad frame's message: 0 with *m, or -1 (not a CM MAD, or cut before its fields). */
int roce_cm_parse(const uint8_t *frame, const struct roce_pkt *k, struct cm_msg *m);

/* "10.0.0.1", or an IPv6 address / GID as RFC 5952 writes it (IPv4-mapped as ::ffff:a.b.c.d,
 * §5); buf >= 48 bytes. */
void roce_addr_format(uint8_t ipver, const uint8_t *a, char *buf, size_t len);

#endif
