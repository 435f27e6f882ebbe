/* The ctrl segment every send WQE starts with (PRM §7.4.4.1.1 T25/T26), its signature (§9.2.3)
 * and the NOP, whose WQE is the ctrl segment alone (T41). Decisions D-TX-8, D-TX-9 (docs/tx.md).
 */
#include "eth/eth.h"

/* §9.2.3: "In addition to the WQE itself, the SQ/RQ number of the queue the WQE is posted to,
 * and the index of that particular WQE are considered in the signature"; T26: the XOR "Should
 * result in 0xff". D-TX-8: the ds * 16 bytes, the SQ number's three bytes and the WQE index's
 * two (big-endian), as D-WQE-2 (docs/tx.md) reads it. */
static uint8_t signature(const struct tx_wqe *w)
{
	uint8_t x = 0;
	for (size_t i = 0; i < w->len; i++)
		x ^= w->b[i];
	uint32_t sqn = w->sq->hdr.handle;
	return (uint8_t)(x ^ (sqn >> 16) ^ (sqn >> 8) ^ sqn ^ (w->index >> 8) ^ w->index);
}

uint8_t wqe_ctrl_check(struct tx_wqe *w)
{
	const uint8_t *c = w->b;
	struct sq *sq = w->sq;
	/* T26 DS "accounts for all the segments in the WQE": at least the ctrl segment. */
	if (PRM_GET(send_wqe_ctrl, ds, c, TX_OCTWORD) == 0) {
		tx_violation(w, NICREF_VIO_TX_WQE_DS_ZERO, w->index);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	/* T26 WQE Index: "WQEBB number of the first block of this WQE", wrapping at 0xffff. */
	uint16_t idx = (uint16_t)PRM_GET(send_wqe_ctrl, wqe_index, c, TX_OCTWORD);
	if (idx != w->index) {
		tx_violation(w, NICREF_VIO_TX_WQE_INDEX, (uint64_t)w->index << 16 | idx);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	/* T26 SQ number: "SQ number this WQE is posted to". */
	uint32_t sqn = (uint32_t)PRM_GET(send_wqe_ctrl, sq_number, c, TX_OCTWORD);
	if (sqn != sq->hdr.handle) {
		tx_violation(w, NICREF_VIO_TX_WQE_SQ_NUMBER, sqn);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	/* T55 wq_signature: "This feature is enabled per WQ" (§9.2.3). */
	if (PRM_GET(wq, wq_signature, sq->ctx + WQ_IN_CTX, WQ_CTX_BYTES - WQ_IN_CTX)) {
		uint8_t x = signature(w);
		if (x != 0xFF) {
			tx_violation(w, NICREF_VIO_TX_WQE_SIGNATURE, (uint64_t)w->index << 8 | x);
			return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
		}
	}
	/* T26 FM: 000 no fence, 001 small fence. The model executes one WQE at a time, so every
	 * fence is already kept (D-TX-8); what remains is the driver's duty. */
	if (w->fm > 1)
		tx_violation(w, NICREF_VIO_TX_WQE_FENCE_RESERVED, (uint64_t)w->index << 8 | w->fm);
	/* §10.1.1: the WQE after a UMR "should be marked with small-fence". */
	if (sq->umr_fence_due && w->fm == 0)
		tx_violation(w, NICREF_VIO_TX_UMR_FENCE_MISSING, w->index);
	sq->umr_fence_due = false;
	return 0;
}

uint8_t wqe_nop(struct tx_wqe *w)
{
	/* T26: NOP "creates a completion, but does nothing else"; T41: its WQE is Ctrl alone. The
	 * one thing §7.2.2.1 adds is the zero-length data segments that pad a WQE for Blue Flame
	 * ("pad the WQE with extra zero length data segment"): inline segments of byte_count 0. */
	for (size_t off = TX_OCTWORD; off < w->len; off += TX_OCTWORD) {
		const uint8_t *s = w->b + off;
		if (!PRM_GET(send_wqe_data_inline, inline, s, TX_OCTWORD) ||
		    PRM_GET(send_wqe_data_inline, byte_count, s, TX_OCTWORD)) {
			tx_violation(w, NICREF_VIO_TX_NOP_SEGMENTS,
				     (uint64_t)w->index << 8 | off / TX_OCTWORD);
			return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
		}
	}
	return 0;
}
