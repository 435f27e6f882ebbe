/* Shared between the files of the send offloads (eth/tx_offload.c, eth/lso.c): not for TX-A. */
#ifndef NICREF_ETH_TX_OFFLOAD_INT_H
#define NICREF_ETH_TX_OFFLOAD_INT_H

#include "eth/pkt_parse.h"
#include "eth/tx_offload.h"

typedef void tx_emit_fn(void *ctx, const uint8_t *frame, size_t len);

/* Pads the len bytes of the frame in f with zeros up to min_frame (D-TXO-1) and emits it. f has
 * room for max(len, min_frame) bytes. */
void txo_pad_emit(uint8_t *f, size_t len, uint8_t min_frame, tx_emit_fn *emit, void *ctx);

/* LSO (PRM §3.3.2): checks the request (D-TXO-12), then emits its segments (D-TXO-9 to
 * D-TXO-11). pi is rq->pkt parsed. */
enum tx_result lso_segment(const struct tx_request *rq, const struct pkt_info *pi,
			   uint8_t *scratch, size_t scratch_len, tx_emit_fn *emit, void *ctx);

#endif
