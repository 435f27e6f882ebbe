/* RoCEv2 packets out of captured frames, and the per-QP records `nicref adp check` decides on.
 * Pure: no libpcap here (harness/pcap_read.c feeds frames in), so the unit tests drive it with
 * hand-built frames. Packet formats are public: Ethernet II / 802.1Q, IPv4 (RFC 791), IPv6
 * (RFC 8200), UDP (RFC 768), RoCEv2 = UDP destination port 4791 carrying the InfiniBand Base
 * Transport Header (IBTA Vol. 1 §9.2) and, on acknowledgements, the AETH (§9.3.5). */
#ifndef NICREF_ADP_PKT_H
#define NICREF_ADP_PKT_H

#include <stddef.h>
#include <stdint.h>

#define ROCE_UDP_PORT 4791 /* IANA: RoCEv2 */

/* Link layers a capture may use (pcap_read.c maps libpcap's DLT_* values onto these). */
enum roce_link { ROCE_LINK_ETHERNET, ROCE_LINK_RAW_IP, ROCE_LINK_LINUX_SLL };

struct roce_pkt {
	uint64_t t_ns;     /* capture timestamp */
	uint32_t frame;    /* 1-based frame number in the capture */
	uint8_t ipver;     /* 4 or 6 */
	uint8_t src[16];   /* IPv4 in the first 4 bytes */
	uint8_t dst[16];
	uint8_t opcode;    /* BTH byte 0 */
	uint32_t dqp;      /* BTH DestQP, 24 bits */
	uint32_t psn;      /* BTH PSN, 24 bits */
	uint8_t has_aeth;
	uint8_t syndrome;  /* AETH byte 0 */
	uint32_t msn;      /* AETH MSN */
};

enum roce_parse { ROCE_PARSE_OK, ROCE_PARSE_OTHER, ROCE_PARSE_TRUNCATED };
/* One frame: ROCE_PARSE_OK with *out filled (t_ns and frame left to the caller), OTHER for a
 * frame that is not RoCEv2 (other protocols, IP fragments after the first), TRUNCATED for a
 * RoCEv2 frame cut short (the caller counts it). */
enum roce_parse roce_parse_frame(const uint8_t *p, size_t len, enum roce_link link,
				 struct roce_pkt *out);

/* RC opcodes (IBTA §9.2.1, transport bits 7:5 = 000 for RC). */
int roce_opcode_is_rc_request(uint8_t opcode);
/* A response that carries an AETH, so it acknowledges (or NAKs) up to its PSN. */
int roce_opcode_has_aeth(uint8_t opcode);

/* A data flow: requests to one destination QP in one direction. */
struct adp_flow {
	uint32_t dqp;
	uint8_t ipver;
	uint8_t src[16], dst[16];
	uint32_t ack_qp;   /* destination QP of its acknowledgements (requester QP), or ~0 */
	uint32_t ndata, nack;
};

/* What the checker sees: per flow, data transmissions (PSN) and acknowledgements. */
enum adp_rec_kind {
	ADP_REC_DATA,    /* a request packet with this PSN */
	ADP_REC_ACK,     /* AETH ACK: every PSN up to and including psn is acknowledged */
	ADP_REC_NAK_SEQ, /* AETH NAK PSN sequence error: PSNs before psn are acknowledged */
	ADP_REC_OTHER,   /* RNR NAK or another NAK: no forward progress */
};
struct adp_rec {
	uint32_t flow;  /* index into the flow table */
	uint32_t psn;
	uint64_t t_ns;
	uint32_t frame;
	uint8_t kind;   /* enum adp_rec_kind */
};

/* A user-given pairing when ACKs cannot be assigned by addresses alone: acknowledgements to
 * requester QP `ack_qp` belong to the requests sent to responder QP `data_qp`. */
struct adp_pair {
	uint32_t data_qp, ack_qp;
};

struct adp_flowset {
	struct adp_flow *flows;
	size_t nflows;
	struct adp_rec *recs;
	size_t nrecs;
	size_t ignored_acks; /* responses whose requests are not in the capture */
};

/* Groups packets (in capture order) into flows and records. An acknowledgement travelling
 * B->A belongs to the flow of requests A->B: the only such flow, or the one a pair names. 0, or
 * -1 with a message (an ambiguous acknowledgement, out-of-order timestamps, no memory). */
int adp_flows_build(const struct roce_pkt *pkts, size_t n, const struct adp_pair *pairs,
		    size_t npairs, struct adp_flowset *out, char *err, size_t errlen);
void adp_flows_free(struct adp_flowset *fs);
/* "10.0.0.1" or an IPv6 address in full hex groups; buf >= 48 bytes. */
void adp_addr_format(uint8_t ipver, const uint8_t *a, char *buf, size_t len);

#endif
