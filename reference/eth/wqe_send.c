/* SEND and LSO WQEs (PRM §7.4.4.1.2 T27/T28, §7.4.4.2 T41, §7.9.3, §3.3): the Eth segment and
 * its inline headers, the data gathered after them into one packet, the inline-mode rule, then
 * the offloads (eth/tx_offload.h), which emit the frames. Decisions D-TX-6, D-TX-10, D-TX-11
 * (docs/tx.md), D-TXO-16 (docs/tx_offload.md). */
#include <string.h>

#include "eth/eth.h"

#define ETH_SEG 0x10u	     /* the Eth segment follows the ctrl segment (T41) */
#define INLINE_HEADERS 0x0Eu /* T28: the inline headers start at 0Ch[15:0] */
#define INLINE_IN_FIRST 2u   /* ... whose two bytes are the first two headers' bytes */

static size_t round16(size_t n)
{
	return (n + TX_OCTWORD - 1) / TX_OCTWORD * TX_OCTWORD;
}

/* What each result of the offloads means for the WQE (D-TX-10): the driver's rule it broke and
 * the syndrome of its completion with error. */
struct tx_result_row {
	enum tx_result r;
	enum nicref_violation rule;
	uint8_t syndrome;
};
static const struct tx_result_row tx_results[TX_RESULT_COUNT] = {
	[TX_ERR_LENGTH] = { TX_ERR_LENGTH, NICREF_VIO_TX_OFFLOAD_LENGTH,
			    NICREF_CQE_SYN_LOCAL_LENGTH },
	/* An LSO the device cannot segment: a malformed WQE for this device (D-TX-10). */
	[TX_ERR_LSO_CAP] = { TX_ERR_LSO_CAP, NICREF_VIO_TX_OFFLOAD_LSO,
			     NICREF_CQE_SYN_LOCAL_QP_OPERATION },
	[TX_ERR_LSO_MSS] = { TX_ERR_LSO_MSS, NICREF_VIO_TX_OFFLOAD_LSO,
			     NICREF_CQE_SYN_LOCAL_QP_OPERATION },
	[TX_ERR_LSO_NOT_TCP] = { TX_ERR_LSO_NOT_TCP, NICREF_VIO_TX_OFFLOAD_LSO,
				 NICREF_CQE_SYN_LOCAL_QP_OPERATION },
	[TX_ERR_LSO_HDR] = { TX_ERR_LSO_HDR, NICREF_VIO_TX_OFFLOAD_LSO,
			     NICREF_CQE_SYN_LOCAL_QP_OPERATION },
	/* More payload than max_lso_cap allows: a length error, like D-TX-11's. */
	[TX_ERR_LSO_SIZE] = { TX_ERR_LSO_SIZE, NICREF_VIO_TX_MESSAGE_TOO_LONG,
			      NICREF_CQE_SYN_LOCAL_LENGTH },
};

static uint8_t offload_failed(struct tx_wqe *w, enum tx_result r)
{
	/* The scratch is sized at create for every request (eth_subsys.c): a result saying it
	 * is too small is a model bug, never the driver's. */
	NICREF_ASSERT(r != TX_ERR_SCRATCH && (unsigned)r < TX_RESULT_COUNT);
	const struct tx_result_row *row = &tx_results[r];
	NICREF_ASSERT(row->r == r); /* every failure has its row */
	tx_violation(w, row->rule, w->index);
	return row->syndrome;
}

uint8_t wqe_send(struct tx_wqe *w)
{
	struct nicref_dev *dev = w->dev;
	struct eth_state *es = w->es;
	bool lso = w->opcode == NICREF_SEND_OP_LSO;
	/* T41: Send is Ctrl, Eth, Data; without the Eth segment the WQE is malformed. */
	if (w->len < ETH_SEG + TX_OCTWORD) {
		tx_violation(w, NICREF_VIO_TX_ETH_SEGMENT_MISSING, w->index);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	const uint8_t *eth = w->b + ETH_SEG;
	size_t room = w->len - ETH_SEG;
	unsigned ihs = (unsigned)PRM_GET(send_wqe_eth, inline_header_size, eth, room);
	unsigned mss = (unsigned)PRM_GET(send_wqe_eth, mss, eth, room);
	/* T28: the headers past the first two fill octwords from 10h, the last one partly. */
	size_t eth_bytes = TX_OCTWORD + round16(ihs > INLINE_IN_FIRST ? ihs - INLINE_IN_FIRST : 0);
	if (eth_bytes > room) {
		tx_violation(w, NICREF_VIO_TX_ETH_INLINE_BEYOND_DS, (uint64_t)w->index << 16 | ihs);
		return NICREF_CQE_SYN_LOCAL_LENGTH;
	}
	/* T28 mss: "Must be 0 on non LSO WQEs". */
	if (mss && !lso) {
		tx_violation(w, NICREF_VIO_TX_ETH_MSS_NOT_LSO, (uint64_t)w->index << 16 | mss);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	/* The packet: the inline headers, then what the data segments gather ("Headers that are
	 * inlined should be excluded from the data segments", §7.4.4.1.2). */
	memcpy(es->pkt, eth + INLINE_HEADERS, ihs);
	size_t got = 0;
	int rc = tx_gather(w, ETH_SEG + eth_bytes, es->pkt + ihs, es->pkt_cap - ihs, &got);
	if (rc > 0)
		return (uint8_t)rc;
	if (rc == TX_GATHER_TOO_LONG) {
		/* D-TX-11: beyond what an LSO may carry; a SEND that long exceeds any MTU. */
		tx_violation(w, NICREF_VIO_TX_MESSAGE_TOO_LONG, w->index);
		if (lso)
			return NICREF_CQE_SYN_LOCAL_LENGTH;
		tx_discard(w, TX_DISCARD_MTU, es->pkt_cap);
		return 0;
	}
	size_t len = ihs + got;
	/* §7.9.3: "Send WQEs with inline headers less than the required are dropped"; T61 "the
	 * packet is silently dropped" (D-TX-6: the WQE completes). */
	size_t need = tx_inline_required(es->pkt, len, tx_inline_mode(dev, w->sq));
	if (ihs < need) {
		tx_violation(w, NICREF_VIO_TX_INLINE_HEADERS_SHORT,
			     (uint64_t)w->index << 16 | need);
		tx_discard(w, TX_DISCARD_INLINE, len);
		return 0;
	}
	bool l3cs = PRM_GET(send_wqe_eth, l3cs, eth, room) != 0;
	bool l4cs = PRM_GET(send_wqe_eth, l4cs, eth, room) != 0;
	/* §3.3.1: checksum offload "is reported through the csum_cap bit" (T147 00h[31]). A
	 * device without it does not apply l3cs/l4cs: a set bit is the driver's mistake, the
	 * frame goes as posted and the WQE completes (D-TXO-16). LSO computes its segments'
	 * checksums whatever l3cs/l4cs say (D-TXO-10): its capability is max_lso_cap. */
	if ((l3cs || l4cs) && !lso &&
	    !CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps, csum_cap)) {
		tx_violation(w, NICREF_VIO_TX_CSUM_NO_CAP,
			     (uint64_t)w->index << 2 | (uint64_t)l3cs << 1 | l4cs);
		l3cs = l4cs = false;
	}
	struct tx_request rq = {
		.pkt = es->pkt,
		.len = len,
		.l3cs = l3cs,
		.l4cs = l4cs,
		.lso = lso,
		.mss = (uint16_t)mss,
		.inline_hdr_sz = (uint16_t)ihs,
		/* §3.3.8, T145 pad_tx_eth_packet: 64 bytes on the wire, 60 without the FCS the
		 * model's frames do not carry (D-TX-2; the offloads own the padding itself). */
		.min_frame =
		    CAPS_CUR(dev, CAP_GENERAL, hca_cap, pad_tx_eth_packet) ? TX_MIN_FRAME : 0,
		/* T147: the largest LSO payload the device segments (D-TXO-12). */
		.max_lso_cap = (uint8_t)CAPS_CUR(dev, CAP_ETH_OFFLOAD,
						 per_protocol_networking_offload_caps, max_lso_cap),
	};
	enum tx_result r = tx_offload(&rq, es->frame, es->frame_cap, tx_frame_emit, w);
	return r == TX_OK ? 0 : offload_failed(w, r);
}
