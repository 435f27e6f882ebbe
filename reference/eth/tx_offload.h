/* The send offloads (PRM §3.3): what the device does to a packet a send or LSO WQE describes
 * before it goes on the wire. The IPv4 header checksum (l3cs) and the TCP/UDP checksum (l4cs)
 * of §3.3.1 and the Eth segment (§7.4.4.1.2 T28), Large Send Offload (§3.3.2), padding of short
 * frames (§3.3.8, HCA_CAP pad_tx_eth_packet), VLAN tags inlined by the driver (§3.3.7). Every
 * choice the PRM leaves open is a D-TXO-* decision of docs/tx_offload.md.
 *
 * Pure: no allocation, no device state, no clock. The send engine (TX-A) gathers the WQE's
 * inline headers and data into one contiguous packet, calls tx_offload, and maps each result
 * that is not TX_OK to a CQE syndrome or a drop. */
#ifndef NICREF_ETH_TX_OFFLOAD_H
#define NICREF_ETH_TX_OFFLOAD_H

#include <stddef.h>
#include <stdint.h>

struct tx_request {
	const uint8_t *pkt;   /* the whole packet as the WQE describes it: inline headers then
				 the gathered data, contiguous (TX-A gathers into its scratch) */
	size_t len;
	unsigned l3cs : 1, l4cs : 1;  /* eth segment T28 */
	unsigned lso : 1;             /* the WQE opcode is LSO */
	uint16_t mss;                 /* eth segment T28 13:0 */
	uint16_t inline_hdr_sz;       /* eth segment T28 inline_header_size */
	uint8_t min_frame;            /* pad short frames to this many bytes (0: no padding), per
					 §3.3.8 and HCA_CAP pad_tx_eth_packet (D-TXO-1): 60 */
	uint8_t max_lso_cap;          /* the Ethernet offload capability max_lso_cap (T147
					 00h[20:16]): log2 of the largest LSO TCP payload, 0 when
					 LSO is not supported (D-TXO-12) */
};

/* The outcomes, with what each means. No frame is emitted unless the result is TX_OK: every
 * check runs before the first frame goes out. */
#define TX_RESULTS(X)                                                                           \
	X(TX_OK, "the frame, or every LSO segment, was emitted")                                \
	X(TX_ERR_LENGTH, "no packet (length 0), inline headers longer than the packet, or LSO "  \
			 "segments whose IP length would not fit its 16-bit field")              \
	X(TX_ERR_LSO_CAP, "LSO on a device without LSO (max_lso_cap 0)")                       \
	X(TX_ERR_LSO_MSS, "LSO with mss 0")                                                     \
	X(TX_ERR_LSO_NOT_TCP, "LSO of a packet that is not TCP over IPv4 or IPv6, or is an IP "  \
			      "fragment")                                                        \
	X(TX_ERR_LSO_HDR, "LSO whose headers (through the TCP header) are not all inline")       \
	X(TX_ERR_LSO_SIZE, "LSO whose TCP payload exceeds 2^max_lso_cap bytes")                 \
	X(TX_ERR_SCRATCH, "the scratch buffer is smaller than a frame: a sizing bug of the "     \
			  "caller, never the driver's (max(len, min_frame) always suffices)")

enum tx_result {
#define TX_RESULT_ENUM(name, what) name,
	TX_RESULTS(TX_RESULT_ENUM)
#undef TX_RESULT_ENUM
	TX_RESULT_COUNT
};

/* "TX_OK", "TX_ERR_LSO_MSS", ...; "?" for a value outside the enum. */
const char *tx_result_name(enum tx_result r);

/* Emits each frame of the request (one, or the LSO segments) through emit, built in scratch.
 * Pure: no allocation, no device state; every header update and checksum per the PRM.
 * A scratch of max(len, min_frame) bytes suffices for every request; each frame emitted lies in
 * scratch and is valid only during the emit call. A malformed or truncated packet is never an
 * error of its own: the offloads that cannot apply to it are not applied (D-TXO-8). */
enum tx_result tx_offload(const struct tx_request *rq, uint8_t *scratch, size_t scratch_len,
			  void (*emit)(void *ctx, const uint8_t *frame, size_t len), void *ctx);

#endif
