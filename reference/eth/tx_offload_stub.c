/* A stand-in for the send offloads (eth/tx_offload.h) until TX-B's eth/tx_offload.c lands: it
 * emits the packet as one frame, unchanged but for the padding to rq->min_frame (§3.3.8), and
 * computes no checksum and no LSO segment. The engine (TX-A) builds and links against it; the
 * merge of TX-B's branch deletes this file (its tx_offload replaces this one). */
#include <string.h>

#include "eth/tx_offload.h"

enum tx_result tx_offload(const struct tx_request *rq, uint8_t *scratch, size_t scratch_len,
			  void (*emit)(void *ctx, const uint8_t *frame, size_t len), void *ctx)
{
	size_t len = rq->len < rq->min_frame ? rq->min_frame : rq->len;
	if (len > scratch_len)
		return TX_ERR_LENGTH;
	memcpy(scratch, rq->pkt, rq->len);
	memset(scratch + rq->len, 0, len - rq->len);
	emit(ctx, scratch, len);
	return TX_OK;
}
