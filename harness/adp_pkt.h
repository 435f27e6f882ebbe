/* The per-QP records `nicref adp check` decides on, out of a capture's RC packets
 * (roce_capture.h), with every acknowledgement paired with its request flow (docs/captures.md,
 * "How flows are paired"). Pure: no libpcap here, so the unit tests drive it with hand-built
 * packets. */
#ifndef NICREF_ADP_PKT_H
#define NICREF_ADP_PKT_H

#include <stddef.h>
#include <stdint.h>

#include "roce_class.h"

/* How a flow's acknowledgements were tied to it, in the order the rules are tried. */
#define ADP_PAIRINGS(X)                                                                         \
	X(NONE, NULL)           /* no acknowledgement seen */                                   \
	X(OPTION, "option")     /* --ack-qp */                                                  \
	X(CM, "cm")             /* the ConnectRequest/ConnectReply exchange on QP1 */           \
	X(UNIQUE, "unique")     /* the only request flow between the two addresses */          \
	X(UDP_SPORT, "udp_sport") /* the only flow whose requests use the ACK's source port */  \
	X(PSN, "psn")           /* the only flow with the acknowledged PSN outstanding */
#define ADP_PAIR_ENUM(id, name) ADP_PAIRED_##id,
enum adp_paired { ADP_PAIRINGS(ADP_PAIR_ENUM) };
#undef ADP_PAIR_ENUM
/* The JSON name ("psn", ...), NULL for ADP_PAIRED_NONE. */
const char *adp_paired_name(enum adp_paired p);

/* A data flow: RC requests to one destination QP in one direction. */
struct adp_flow {
	uint32_t dqp;
	uint8_t ipver, roce_ver;
	uint8_t src[16], dst[16];
	uint32_t ack_qp;   /* destination QP of its acknowledgements (requester QP), or ~0 */
	uint8_t paired_by; /* enum adp_paired: how the first acknowledgement was tied to it */
	uint32_t ndata, nack;
	/* Pairing state (adp_flows_build) */
	uint16_t sport;      /* the UDP source port of its requests */
	uint8_t sport_mixed; /* its requests use several */
	uint8_t sent;        /* a request was seen in capture order so far */
	uint32_t una, end;   /* oldest unacknowledged PSN, last PSN its requests take */
	uint32_t pair, next_in_pair; /* its address pair; the next flow of that pair (+1, 0 none) */
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

/* A user-given pairing (--ack-qp DATA_QP:ACK_QP): acknowledgements to requester QP `ack_qp`
 * belong to the requests sent to responder QP `data_qp`. */
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

/* Groups RC packets (in capture order) into flows and records, every acknowledgement paired
 * with its flow by the rules of ADP_PAIRINGS, using the CM messages `cms` (capture order). Time
 * is linear in the packets (hash tables). 0, or -1 with a message (an acknowledgement no rule
 * separates: the frame, the candidate flows and --ack-qp; no memory). */
int adp_flows_build(const struct roce_pkt *pkts, size_t n, const struct cm_msg *cms, size_t ncm,
		    const struct adp_pair *pairs, size_t npairs, struct adp_flowset *out, char *err,
		    size_t errlen);
void adp_flows_free(struct adp_flowset *fs);
/* roce_addr_format. */
void adp_addr_format(uint8_t ipver, const uint8_t *a, char *buf, size_t len);

#endif
