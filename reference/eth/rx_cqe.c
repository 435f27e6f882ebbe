/* Receive completions (PRM §7.12.1.1 T67/T68 "RQ Raw Eth" column, §7.12.7 T73/T74, §7.12.10):
 * the responder CQE (opcode 2) of a frame scattered into a receive WQE, and the responder error
 * CQE (opcode 14), written through cq_post (obj/cq.h: owner, signature, 128-byte placement,
 * overrun, events and moderation are its). Decisions D-RX-4, D-RX-15, D-RX-17 (docs/rx.md). */
#include "eth/rx.h"

/* A field of the 64-byte CQE (T68) in its dword, as PRM_SET places it (offset and width from
 * the layout, a value that fits its width), and the dword of a field stored whole. */
#define CQE_DW(f, v)                                                                            \
	((uint32_t)(v) << (32u - PRMB_cqe64__##f % 32u - PRMW_cqe64__##f) &                      \
	 prm_dword_mask(PRMB_cqe64__##f, PRMW_cqe64__##f))
#define CQE_DW_PUT(cqe, f, w) prm_put_be32((cqe) + PRMB_cqe64__##f / 32u * 4u, (w))
_Static_assert(PRMB_cqe64__l4_ok / 32 == PRMB_cqe64__vid / 32 &&
		       PRMB_cqe64__l4_ok / 32 == PRMB_cqe64__ip_ext_opts / 32,
	       "T68: l4_ok to vid share the dword at 1Ch");

/* T67 srqn/user_index: "If HCA_CAP.cqe_version==1: The user_index which software sets when
 * creating a context"; with cqe_version 0 the field is the SRQ (RMP) number (D-RX-15). */
static uint32_t srqn_user_index(struct nicref_dev *dev, const struct rx_done *d)
{
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 1)
		return d->rq->user_index & 0xFFFFFF;
	return d->srqn & 0xFFFFFF;
}

/* PRM §3.3.6.6 T5, T68 (D-LRO-7): the fields of an LRO session's CQE; with
 * lro_timestamp_is_valid, timestamp_h/_l are lro_timestamp_value/_echo (TSval, TSecr). */
static void lro_fields(uint8_t *cqe, size_t n, const struct rx_lro_cqe *l)
{
	PRM_SET(cqe64, lro_num_seg, cqe, n, l->num_seg);
	PRM_SET(cqe64, lro_abrt, cqe, n, l->abrt);
	PRM_SET(cqe64, lro_tcp_psh, cqe, n, l->psh);
	PRM_SET(cqe64, lro_dup_ack_cnt, cqe, n, 0); /* T5: "should be always zero" */
	PRM_SET(cqe64, lro_min_ttl, cqe, n, l->min_ttl);
	PRM_SET(cqe64, lro_tcp_win, cqe, n, l->win);
	PRM_SET(cqe64, lro_ack_seq_num, cqe, n, l->ack);
	PRM_SET(cqe64, lro_timestamp_is_valid, cqe, n, l->ts_valid);
	if (l->ts_valid) {
		PRM_SET(cqe64, timestamp_h, cqe, n, l->tsval);
		PRM_SET(cqe64, timestamp_l, cqe, n, l->tsecr);
	}
}

/* §3.3.1: "Checksum offload support is reported through the csum_cap bit" (T147 00h[31]), and
 * receive checksum offload "is reported through CQE checksum bits": l3_ok, l4_ok, checksum. A
 * device without it validates nothing (T68 l3_ok/l4_ok: "otherwise this bit is disabled") and
 * its checksum field is T4's "invalid" 0 (D-RX-17). An LRO session's CQE is LRO's own report
 * (§3.3.6.2: its segments passed "TCP/IP checksum is OK"; T4/T5 the merged payload's checksum,
 * D-LRO-7), whatever csum_cap says. */
static bool csum_reported(struct nicref_dev *dev, const struct rx_done *d)
{
	return d->lro ||
	       CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps, csum_cap);
}

int rx_cqe_ok(struct nicref_dev *dev, const struct rx_done *d)
{
	uint8_t cqe[PRM_SIZE_cqe64] = { 0 };
	const struct rx_hdr *h = d->h;
	const struct rx_pkt *p = d->p;
	size_t n = sizeof cqe;
	/* T68 rx_hash_result "Valid only when rx_hash_type is not zero" (0 then). */
	if (p->rss.hashed && p->rss.hash_type) {
		PRM_SET(cqe64, rx_hash_result, cqe, n, p->rss.hash);
		PRM_SET(cqe64, rx_hash_type, cqe, n, p->rss.hash_type);
	}
	bool csum = csum_reported(dev, d);
	if (csum)
		PRM_SET(cqe64, checksum, cqe, n, h->checksum);
	/* The header fields of dword 1Ch composed in a register and stored once (the CQE is
	 * zeroed and nothing else in this dword is written): each is the value PRM_SET would
	 * put, at the layout's offset and width. */
	uint32_t w = CQE_DW(l4_ok, csum && h->l4_ok) | CQE_DW(l3_ok, csum && h->l3_ok) |
		     CQE_DW(l2_ok, h->l2_ok) |
		     CQE_DW(ip_frag, h->ip_frag) | CQE_DW(l4_hdr_type, h->l4_hdr_type) |
		     CQE_DW(l3_hdr_type, h->l3_hdr_type) | CQE_DW(ip_ext_opts, h->ip_ext_opts);
	if (h->cv) /* T68 cv: the C-VLAN tag the RQ stripped (§3.3.7, D-RX-3). */
		w |= CQE_DW(cv, 1) | CQE_DW(up, h->up) | CQE_DW(cfi, h->cfi) | CQE_DW(vid, h->vid);
	CQE_DW_PUT(cqe, l4_ok, w);
	PRM_SET(cqe64, srqn_user_index, cqe, n, srqn_user_index(dev, d));
	PRM_SET(cqe64, byte_cnt, cqe, n, d->byte_cnt);
	uint64_t ts = init_seg_timer(dev); /* §7.12.10 (D-TX-15) */
	PRM_SET(cqe64, timestamp_h, cqe, n, ts >> 32);
	PRM_SET(cqe64, timestamp_l, cqe, n, ts & 0xFFFFFFFFu);
	if (d->lro)
		lro_fields(cqe, n, d->lro);
	/* T68 rx_drop_counter (s_wqe_opcode's bits on a responder): reported, then restarted
	 * (D-RX-4). */
	PRM_SET(cqe64, s_wqe_opcode, cqe, n, d->rq->rx_drop_counter);
	d->rq->rx_drop_counter = 0;
	/* T68 flow_tag: "If HCA_CAP.cqe_version==1". */
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 1)
		PRM_SET(cqe64, flow_tag, cqe, n, p->flow_tag & 0xFFFFFF);
	PRM_SET(cqe64, wqe_counter, cqe, n, d->wqe_counter);
	PRM_SET(cqe64, opcode, cqe, n, CQE_OP_RESP_SEND);
	return cq_post(dev, d->rq->cqn, cqe);
}

int rx_cqe_error(struct nicref_dev *dev, const struct rx_done *d, uint8_t syndrome)
{
	/* T73/T74: user_index, syndrome, flow_tag, wqe_counter; opcode 14 "responder error". */
	uint8_t cqe[PRM_SIZE_err_cqe] = { 0 };
	size_t n = sizeof cqe;
	PRM_SET(err_cqe, srqn_user_index, cqe, n, srqn_user_index(dev, d));
	PRM_SET(err_cqe, syndrome, cqe, n, syndrome);
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 1)
		PRM_SET(err_cqe, flow_tag, cqe, n, d->p->flow_tag & 0xFFFFFF);
	PRM_SET(err_cqe, wqe_counter, cqe, n, d->wqe_counter);
	PRM_SET(err_cqe, opcode, cqe, n, CQE_OP_RESP_ERR);
	return cq_post(dev, d->rq->cqn, cqe);
}
