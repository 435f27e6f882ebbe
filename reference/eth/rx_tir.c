/* The TIR stage (PRM §7.5 T44/T45, §3.3.3, §3.4; docs/rx.md D-RX-12, D-RX-13): one copy of a
 * frame reaches a TIR. A frame the send path looped back is dropped here when it is the TIR's
 * own transport domain's and self_lb_en does not enable it; then a Direct TIR hands it to its
 * inline RQ and an Indirect one hashes it (eth/rss.h) and takes the RQ of its RQT that the
 * hash selects. */
#include <string.h>

#include "eth/lro.h"
#include "eth/rx.h"

/* T45 self_lb_en: bit 0 enables unicast, bit 1 multicast (and broadcast) self-loopback. */
enum { SELF_LB_UC = 1, SELF_LB_MC = 2 };

/* §3.4, T45 (D-RX-12, docs/rx.md): a looped frame is "self" at a TIR of the sending TIS's
 * transport domain; self traffic passes only when self_lb_en enables its kind. Rev 0.40's
 * bits enable (1 = deliver). */
static bool self_blocked(const struct tir *t, const struct eth_lb_frame *lb)
{
	if (!lb || lb->td != t->td)
		return false;
	return !(t->self_lb_en & (lb->multicast ? SELF_LB_MC : SELF_LB_UC));
}

static uint32_t indirect_rq(struct nicref_dev *dev, const struct tir *t, struct rx_pkt *p)
{
	const struct rqt *rqt = obj_at(dev, OBJ_RQT, t->indirect_table);
	if (!rqt || rqt->actual_size == 0)
		return 0; /* named since CREATE_TIR (D-OBJ-1): not reached */
	struct rss_cfg c = { .fn = t->rx_hash_fn, .symmetric = t->rx_hash_symmetric,
			     .sel = t->sel_outer, .rqt_max_size = rqt->max_size };
	memcpy(c.key, t->toeplitz_key, sizeof c.key);
	rss_compute(&c, p->frame, p->len, p->pi, &p->rss);
	/* §3.3.3: the hash selects the RQT entry (rss_rqt_index: D-RSS-1); a hash of no field
	 * (rx_hash_type 0) still selects one (D-RSS-3); no hash function, hash 0: entry 0. */
	uint32_t i = rss_rqt_index(p->rss.hash, rqt->actual_size);
	return rqt_entry(rqt, i);
}

enum rx_outcome rx_deliver(struct nicref_dev *dev, uint32_t tirn, struct rx_pkt *p)
{
	const struct tir *t = obj_at(dev, OBJ_TIR, tirn);
	if (!t) {
		rx_drop(dev, RX_DROP_NO_DESTINATION, tirn, p);
		return RX_DROPPED;
	}
	if (self_blocked(t, p->lb)) {
		rx_drop(dev, RX_DROP_SELF_LOOPBACK, tirn, p);
		return RX_DROPPED;
	}
	p->rss = (struct rss_result){ 0 };
	uint32_t rqn = t->disp_type == TIR_DIRECT ? t->inline_rqn : indirect_rq(dev, t, p);
	/* PRM §3.3.6.1: a TIR enabled for LRO extracts the flow id of what it receives. */
	if (t->lro_enable_mask)
		return lro_rx(dev, t, rqn, p);
	return rx_deliver_rq(dev, rqn, p);
}

enum rx_outcome rx_deliver_tir(struct nicref_dev *dev, uint32_t tirn, const uint8_t *frame,
			       size_t len, const struct pkt_info *pi, uint32_t flow_tag)
{
	struct rx_pkt p = { .frame = frame, .len = len, .pi = pi, .port = TX_PORT,
			    .flow_tag = flow_tag };
	return rx_deliver(dev, tirn, &p);
}
