/* Private to libnicref: the send offloads (PRM §3.3: checksums §3.3.1, LSO §3.3.2, VLAN §3.3.7,
 * padding §3.3.8), as the send engine (eth/sq_exec.c, TX-A) hands them a packet and the
 * offload code (eth/tx_offload.c, TX-B) turns it into frames. The interface is the one of the
 * send path's split (issue 12); docs/tx_offload.md gives the offloads' decisions. */
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
	                                 §3.3 "Packet padding (TX)" and the capability TX-B finds */
};
/* TX-B defines the results; TX-A maps each to a CQE syndrome (T74) or a drop (eth/wqe_send.c,
 * docs/tx.md D-TX-10). */
enum tx_result { TX_OK, TX_ERR_LENGTH, TX_ERR_LSO };
/* Emits each frame of the request (one, or the LSO segments) through emit, built in scratch.
 * Pure: no allocation, no device state; every header update and checksum per the PRM. */
enum tx_result tx_offload(const struct tx_request *rq, uint8_t *scratch, size_t scratch_len,
			  void (*emit)(void *ctx, const uint8_t *frame, size_t len), void *ctx);

#endif
