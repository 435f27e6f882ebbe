/* The send offloads' entry (eth/tx_offload.h): a plain send with its checksums and padding;
 * LSO is eth/lso.c. */
#include "eth/tx_offload.h"

#include <string.h>

#include "eth/csum.h"
#include "eth/tx_offload_int.h"

static const char *const result_names[] = {
#define TX_RESULT_NAME(name, what) #name,
	TX_RESULTS(TX_RESULT_NAME)
#undef TX_RESULT_NAME
};

const char *tx_result_name(enum tx_result r)
{
	return (unsigned)r < TX_RESULT_COUNT ? result_names[r] : "?";
}

void txo_pad_emit(uint8_t *f, size_t len, uint8_t min_frame, tx_emit_fn *emit, void *ctx)
{
	if (len < min_frame) {
		memset(f + len, 0, min_frame - len);
		len = min_frame;
	}
	emit(ctx, f, len);
}

enum tx_result tx_offload(const struct tx_request *rq, uint8_t *scratch, size_t scratch_len,
			  void (*emit)(void *ctx, const uint8_t *frame, size_t len), void *ctx)
{
	if (rq->len == 0 || rq->inline_hdr_sz > rq->len)
		return TX_ERR_LENGTH;
	struct pkt_info pi;
	pkt_parse(rq->pkt, rq->len, &pi);
	if (rq->lso)
		return lso_segment(rq, &pi, scratch, scratch_len, emit, ctx);
	/* A plain send: the packet as it is, its checksums if asked and if they apply (T28: "for
	 * non TCP/UDP packets, the device ignores" l4cs; l3cs "for non IPv4 packets"). mss is not
	 * looked at (D-TXO-14). */
	if (scratch_len < rq->len || scratch_len < rq->min_frame)
		return TX_ERR_SCRATCH;
	memcpy(scratch, rq->pkt, rq->len);
	if (rq->l3cs && pi.l3 == PKT_L3_IPV4)
		csum_ipv4_hdr(scratch, &pi);
	if (rq->l4cs && csum_l4_applies(&pi))
		csum_l4(scratch, &pi, pi.ip_end);
	txo_pad_emit(scratch, rq->len, rq->min_frame, emit, ctx);
	return TX_OK;
}
