/* The data segments of a send WQE (PRM §7.4.4.1.4 T38/T39): memory pointers translated through
 * the MKeys with the SQ's PD for a local read (obj/mkey.h), inline data copied from the WQE.
 * Decision D-TX-9 (docs/tx.md). */
#include <string.h>

#include "eth/eth.h"

#define INLINE_DATA 4u		    /* T39: the data from 04h */
#define PTR_ZERO_BYTES (1ull << 31) /* T38: "A byte count value of zero means 2Gbyte" */

/* Where the pieces of the translation go. */
struct gather {
	struct nicref_dev *dev;
	uint8_t *dst;
	size_t cap, n;
};
enum { GATHER_FULL = 1, GATHER_DMA = 2 }; /* what stops a walk (mkey_piece_fn > 0) */

static int piece(void *ctx, uint64_t pa, uint64_t len)
{
	struct gather *g = ctx;
	if (len > g->cap - g->n)
		return GATHER_FULL;
	if (dev_dma_read(g->dev, pa, g->dst + g->n, (size_t)len))
		return GATHER_DMA;
	g->n += (size_t)len;
	return 0;
}

static size_t round16(size_t n)
{
	return (n + TX_OCTWORD - 1) / TX_OCTWORD * TX_OCTWORD;
}

int tx_gather(struct tx_wqe *w, size_t off, uint8_t *dst, size_t cap, size_t *got)
{
	struct sq *sq = w->sq;
	struct gather g = { w->dev, dst, cap, 0 };
	/* T61 rlkey: "When set the reserved LKey can be used on the SQ" (§6.3). */
	bool rlkey = PRM_GET(sqc, rlkey, sq->ctx, WQ_CTX_BYTES) != 0;
	while (off < w->len) {
		const uint8_t *s = w->b + off;
		size_t left = w->len - off;
		/* "They are distinguished by the value of bit 31 at offset 0" (§7.4.4.1.4). */
		if (PRM_GET(send_wqe_data_inline, inline, s, left)) {
			size_t bc = (size_t)PRM_GET(send_wqe_data_inline, byte_count, s, left);
			/* T39: "byte_count should not exceed the WQE length beyond ... DS". */
			if (INLINE_DATA + bc > left) {
				tx_violation(w, NICREF_VIO_TX_DATA_INLINE_BEYOND_DS,
					     (uint64_t)w->index << 16 | bc);
				return NICREF_CQE_SYN_LOCAL_LENGTH;
			}
			if (bc > cap - g.n)
				return TX_GATHER_TOO_LONG;
			memcpy(dst + g.n, s + INLINE_DATA, bc);
			g.n += bc;
			off += round16(INLINE_DATA + bc);
			continue;
		}
		uint64_t bc = PRM_GET(send_wqe_data_ptr, byte_count, s, left);
		struct mkey_req r = {
			.key = (uint32_t)PRM_GET(send_wqe_data_ptr, l_key, s, left),
			.pd = sq->pd,
			.va = PRM_GET(send_wqe_data_ptr, local_address_63_32, s, left) << 32 |
			      PRM_GET(send_wqe_data_ptr, local_address_31_0, s, left),
			.len = bc ? bc : PTR_ZERO_BYTES,
			.access = MKEY_LOCAL_READ,
			.rlkey = rlkey,
		};
		int rc = mkey_translate(w->dev, &r, piece, &g);
		if (rc < 0) {
			/* §6.1: the whole range is checked before a byte moves (D-MKC-10). */
			tx_violation(w, NICREF_VIO_TX_DATA_LKEY,
				     (uint64_t)w->index << 8 | (unsigned)-rc);
			return mkey_err_syndrome(rc, MKEY_LOCAL_READ);
		}
		if (rc == GATHER_FULL)
			return TX_GATHER_TOO_LONG;
		if (rc == GATHER_DMA) /* a bus error reading the data (D-TX-9) */
			return NICREF_CQE_SYN_LOCAL_PROTECTION;
		off += TX_OCTWORD;
	}
	*got = g.n;
	return 0;
}
