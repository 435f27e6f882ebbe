/* The RQ stage (PRM §7.4.1.2, §7.4.4.3-§7.4.4.5, §7.7, §7.10, §3.3.7, §3.3.9-§3.3.10, §9.2.3;
 * docs/rx.md D-RX-1..D-RX-4, D-RX-14, D-RX-16): one copy of a frame reaches an RQ. A RDY RQ
 * takes its next receive WQE (its own WQ, cyclic or a linked list, or its RMP: obj/wq.h
 * rq_dequeue, which raises the RMP limit and catastrophic events); none posted drops the frame
 * and counts it for the next CQE's rx_drop_counter. The WQE (one stride) is read, its signature checked, its scatter list
 * walked to the stride's end or the Null entry; the frame, its outermost C-VLAN tag removed
 * unless the RQ's vsd says not to, is written through the MKeys with the queue's PD (start
 * padding skips bytes before it, end padding writes zeros after it), then the CQE. A frame
 * longer than the list, a key that does not translate, a bad signature: a completion with
 * error, and the RQ goes to ERR (which flushes what it holds). */
#include <string.h>

#include "eth/rx.h"

#define RX_SEG 16u			/* T40: "Receive Data Segment always use 16 bytes" */
#define RX_ZERO_BYTES (1ull << 31)	/* T40: "A byte count value of zero means 2Gbyte" */

/* Where the copy's WQE lives and what governs it. */
struct rx_wqe {
	struct nicref_dev *dev;
	struct rq *rq;
	const struct wq *wq;	  /* the RQ's own, or its RMP's */
	const uint8_t *wq_ctx;	  /* the WQ part (T55) of the context holding it */
	uint32_t pd;
	bool rlkey;
	uint32_t qn;		  /* the queue the signature names: RQ or RMP (T23, T43) */
	uint32_t srqn;
	uint32_t index;		  /* rq_dequeue's: the counter (cyclic) or stride (linked list) */
	size_t first;		  /* the first scatter entry's byte offset in the stride */
	size_t stride;
	const uint8_t *b;	  /* the stride as read */
};

/* The data as scattered: frame bytes with [12, 16) left out when the tag is stripped. An LRO
 * payload appended to a WQE (rx_rq_append) is data from position `base` on. */
struct rx_src {
	struct nicref_dev *dev;
	const uint8_t *f;
	bool strip;
	size_t base; /* the data position of f[0] */
	size_t at;   /* the next data byte to write */
	bool dma_failed;
};

static int put(struct rx_src *s, uint64_t pa, size_t n)
{
	while (n) {
		size_t off = s->at - s->base, k = n;
		if (s->strip && off >= RX_TAG_AT) {
			off += RX_TAG_LEN;
		} else if (s->strip && off + k > RX_TAG_AT) {
			k = RX_TAG_AT - off; /* up to the tag; the rest after it */
		}
		if (dev_dma_write(s->dev, pa, s->f + off, k))
			return -1;
		pa += k;
		s->at += k;
		n -= k;
	}
	return 0;
}

static int piece(void *ctx, uint64_t pa, uint64_t len)
{
	struct rx_src *s = ctx;
	if (put(s, pa, (size_t)len)) {
		s->dma_failed = true;
		return 1;
	}
	return 0;
}

static const uint8_t zeros[128]; /* end padding (§3.3.10; D-RX-1): at most a cache line */

static int pad_piece(void *ctx, uint64_t pa, uint64_t len)
{
	struct rx_src *s = ctx;
	if (dev_dma_write(s->dev, pa, zeros, (size_t)len)) {
		s->dma_failed = true;
		return 1;
	}
	return 0;
}

static void violation(const struct rx_wqe *w, enum nicref_violation rule, uint64_t low)
{
	dev_violation(w->dev, rule, (uint64_t)w->rq->hdr.handle << 32 | low);
}

/* Locates the WQE of w->index: in the RQ's WQ, or in its RMP's (§7.7, T57). */
static void locate(struct nicref_dev *dev, struct rx_wqe *w)
{
	struct rq *rq = w->rq;
	if (!rq->on_rmp) {
		w->wq = &rq->wq;
		w->wq_ctx = rq->ctx + WQ_IN_CTX;
		w->pd = rq->pd;
		w->rlkey = PRM_GET(rqc, rlkey, rq->ctx, WQ_CTX_BYTES) != 0;
		w->qn = rq->hdr.handle;
		/* §7.4.4.3: "If RQ is subject for WQE signature, first segment is a WQE signature
		 * segment". A linked-list RQ's WQE (T55 wq_type 0, D-RX-16) starts with the next
		 * segment of T42/T43, which holds the signature. */
		bool sig = PRM_GET(wq, wq_signature, w->wq_ctx, WQ_CTX_BYTES - WQ_IN_CTX) != 0;
		w->first = rq->wq.type == 0 || sig ? RX_SEG : 0;
		return;
	}
	const struct rmp *rmp = obj_get(dev, OBJ_RMP, rq->rmpn);
	NICREF_ASSERT(rmp); /* named since CREATE_RQ (D-OBJ-1) */
	w->wq = &rmp->wq;
	w->wq_ctx = rmp->ctx + WQ_IN_CTX;
	w->pd = rmp->pd;
	w->qn = w->srqn = rmp->hdr.handle;
	/* §7.4.4.4 T42: a shared receive WQE starts with its next segment; T65
	 * basic_cyclic_rcv_wqe: a cyclic one has it "only when wq_signature==1". */
	bool sig = PRM_GET(wq, wq_signature, w->wq_ctx, WQ_CTX_BYTES - WQ_IN_CTX) != 0;
	bool basic = PRM_GET(rmpc, basic_cyclic_rcv_wqe, rmp->ctx, WQ_CTX_BYTES) != 0;
	w->first = rmp->wq.type == 1 && basic && !sig ? 0 : RX_SEG;
}

/* §9.2.3, T23/T43 (D-RX-14): the XOR of the stride, the queue number's three bytes and the
 * WQE index's two (big-endian), as the send WQE's (D-TX-8), must be 0xFF. */
static uint8_t signature_xor(const struct rx_wqe *w)
{
	uint8_t x = 0;
	for (size_t i = 0; i < w->stride; i++)
		x ^= w->b[i];
	x ^= (uint8_t)(w->qn >> 16) ^ (uint8_t)(w->qn >> 8) ^ (uint8_t)w->qn;
	x ^= (uint8_t)(w->index >> 8) ^ (uint8_t)w->index;
	return x;
}

struct rx_entry {
	bool start_padding;
	uint64_t bc;
	uint32_t lkey;
	uint64_t addr;
};

/* Entry i of the list, false at the stride's end or the Null entry (§7.4.1.2). */
static bool entry(const struct rx_wqe *w, unsigned i, struct rx_entry *e)
{
	size_t at = w->first + (size_t)i * RX_SEG;
	if (at + RX_SEG > w->stride)
		return false;
	const uint8_t *s = w->b + at;
	uint64_t bc = PRM_GET(recv_wqe_data, byte_count, s, RX_SEG);
	e->lkey = (uint32_t)PRM_GET(recv_wqe_data, l_key, s, RX_SEG);
	if (bc == 0 && e->lkey == RX_NULL_LKEY)
		return false;
	e->start_padding = PRM_GET(recv_wqe_data, start_padding, s, RX_SEG) != 0;
	e->bc = bc ? bc : RX_ZERO_BYTES;
	e->addr = PRM_GET(recv_wqe_data, local_address_63_32, s, RX_SEG) << 32 |
		  PRM_GET(recv_wqe_data, local_address_31_0, s, RX_SEG);
	return true;
}

static int translate(const struct rx_wqe *w, const struct rx_entry *e, uint64_t off,
		     uint64_t len, mkey_piece_fn fn, struct rx_src *s)
{
	struct mkey_req r = { .key = e->lkey, .pd = w->pd, .va = e->addr + off, .len = len,
			      .access = MKEY_LOCAL_WRITE, .rlkey = w->rlkey };
	return mkey_translate(w->dev, &r, fn, s);
}

/* The list's capacity, and the start padding (§3.3.9) of n data bytes: the first entry's bit,
 * so that the data's last byte ends a cache line; another entry's bit is ignored (reported
 * when `report`). */
static uint64_t list_cap(const struct rx_wqe *w, size_t n, unsigned cl, bool report, size_t *pad)
{
	uint16_t ctr = (uint16_t)w->index;
	struct rx_entry e;
	uint64_t cap = 0;
	*pad = 0;
	for (unsigned i = 0; entry(w, i, &e); i++) {
		cap += e.bc;
		if (!e.start_padding)
			continue;
		if (i > 0) {
			if (report)
				violation(w, NICREF_VIO_RX_START_PAD_NOT_FIRST, (uint64_t)ctr << 8 | i);
		} else if (!CAPS_CUR(w->dev, CAP_GENERAL, hca_cap, start_pad)) {
			if (report)
				violation(w, NICREF_VIO_RX_START_PAD_UNSUPPORTED, ctr);
		} else {
			*pad = (cl - n % cl) % cl;
		}
	}
	return cap;
}

/* The scatter (D-RX-1) of data positions [s->at, n) after `pad` bytes of start padding: 0, or
 * the syndrome of the completion with error (T74). */
static uint8_t scatter(const struct rx_wqe *w, struct rx_src *s, size_t n, unsigned cl,
		       uint64_t cap, size_t pad)
{
	struct nicref_dev *dev = w->dev;
	uint16_t ctr = (uint16_t)w->index;
	struct rx_entry e;
	if (pad + n > cap) {
		/* D-RX-2: a frame larger than the WQE: Local_Length_Error, the RQ to ERR (also an
		 * LRO payload the WQE cannot hold: PRM §3.3.6.4, D-LRO-3). */
		violation(w, NICREF_VIO_RX_WQE_TOO_SHORT, (uint64_t)ctr << 16 | (cap & 0xFFFF));
		return NICREF_CQE_SYN_LOCAL_LENGTH;
	}
	bool end_pad = PRM_GET(wq, end_padding_mode, w->wq_ctx, WQ_CTX_BYTES - WQ_IN_CTX) == 1 &&
		       CAPS_CUR(dev, CAP_GENERAL, hca_cap, end_pad);
	uint64_t skip = pad + s->at; /* bytes still to pass over: the padding, data written */
	for (unsigned i = 0; s->at < n && entry(w, i, &e); i++) {
		uint64_t off = skip < e.bc ? skip : e.bc;
		skip -= off;
		uint64_t k = e.bc - off < n - s->at ? e.bc - off : n - s->at;
		if (k == 0)
			continue;
		int rc = translate(w, &e, off, k, piece, s);
		if (rc < 0) {
			violation(w, NICREF_VIO_RX_WQE_LKEY, (uint64_t)ctr << 8 | (unsigned)-rc);
			return mkey_err_syndrome(rc, MKEY_LOCAL_WRITE);
		}
		if (rc > 0)
			return NICREF_CQE_SYN_LOCAL_PROTECTION; /* a bus error writing (D-RX-2) */
		if (s->at < n || !end_pad)
			continue;
		/* §3.3.10: zeros to the next cache line of the host address, "never beyond the WQE
		 * scatter entry length" (D-RX-1). */
		uint64_t end = e.addr + off + k;
		uint64_t z = (cl - end % cl) % cl;
		if (z > e.bc - off - k)
			z = e.bc - off - k;
		if (z && translate(w, &e, off + k, z, pad_piece, s) != 0)
			return NICREF_CQE_SYN_LOCAL_PROTECTION;
	}
	return 0;
}

static enum rx_outcome drop_no_wqe(struct nicref_dev *dev, struct rq *rq, struct rx_pkt *p)
{
	/* T68 rx_drop_counter: "dropped packets because of no RCV WQE since the last CQE";
	 * 8 bits, saturating (D-RX-4). */
	if (rq->rx_drop_counter < 0xFF)
		rq->rx_drop_counter++;
	rx_drop(dev, RX_DROP_NO_WQE, rq->hdr.handle, p);
	return RX_DROPPED;
}

/* The stride of the WQE of index w->index read into the engine's buffer: 0, or -1. */
static int read_wqe(struct rx_state *rs, struct rx_wqe *w)
{
	locate(w->dev, w);
	w->stride = (size_t)1 << w->wq->log_stride;
	w->b = rs->wqe;
	NICREF_ASSERT(w->stride <= rs->wqe_cap); /* log_max_stride_sz_rq bounds it (D-RX-11) */
	return wq_read(w->dev, w->wq, w->index, 0, rs->wqe, w->stride);
}

static unsigned cache_line(struct nicref_dev *dev)
{
	return CAPS_CUR(dev, CAP_GENERAL, hca_cap, cache_line_128byte) ? 128u : 64u;
}

static void slot_done(const struct rx_slot *sl, struct rx_done *d, const struct rx_pkt *p)
{
	*d = (struct rx_done){ .rq = sl->rq, .srqn = sl->srqn, .wqe_counter = sl->wqe_counter,
			       .byte_cnt = sl->byte_cnt, .h = &sl->h, .p = p };
}

void rx_rq_fail(struct nicref_dev *dev, const struct rx_slot *sl, const struct rx_pkt *p,
		uint8_t syndrome)
{
	struct rx_done d;
	slot_done(sl, &d, p);
	d.byte_cnt = 0;
	rx_state_of(dev)->cqes++;
	rx_cqe_error(dev, &d, syndrome);
	rq_wqe_done(sl->rq, sl->index); /* completed (in error): not flushed again */
	rq_hw_error(dev, sl->rq);
}

int rx_rq_complete(struct nicref_dev *dev, const struct rx_slot *sl, const struct rx_pkt *p,
		   const struct rx_lro_cqe *lro, bool rq_leaving)
{
	struct rx_done d;
	slot_done(sl, &d, p);
	d.lro = lro;
	rx_state_of(dev)->cqes++;
	int taken = rx_cqe_ok(dev, &d);
	rq_wqe_done(sl->rq, sl->index);
	if (taken != 0 && !rq_leaving)
		rq_hw_error(dev, sl->rq); /* §7.12.1 step 2: the CQ took no CQE */
	return taken;
}

enum rx_outcome rx_rq_place(struct nicref_dev *dev, uint32_t rqn, struct rx_pkt *p,
			    struct rx_slot *sl)
{
	struct rx_state *rs = rx_state_of(dev);
	struct rq *rq = obj_at(dev, OBJ_RQ, rqn);
	if (!rq || !rs) {
		rx_drop(dev, RX_DROP_NO_DESTINATION, rqn, p);
		return RX_DROPPED;
	}
	struct rx_wqe w = { .dev = dev, .rq = rq };
	int rc = rq_dequeue(dev, rq, &w.index);
	if (rc == -2)
		return drop_no_wqe(dev, rq, p);
	if (rc != 0) {
		/* T57: only a RDY RQ receives; an RQ whose RMP failed went to ERR just now. */
		rx_drop(dev, RX_DROP_RQ_NOT_RDY, rqn, p);
		return RX_DROPPED;
	}
	*sl = (struct rx_slot){ .rq = rq, .rqn = rqn, .index = w.index,
				.wqe_counter = (uint16_t)w.index };
	rx_hdr_fields(p->frame, p->len, p->pi, &sl->h);
	/* §3.3.7: the RQ strips the outermost C-VLAN tag unless vsd (T53), and the device offers
	 * stripping (vlan_cap, T147). */
	sl->strip = sl->h.strip_tag && !PRM_GET(rqc, vlan_strip_disable, rq->ctx, WQ_CTX_BYTES) &&
		    CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps, vlan_cap);
	/* §3.3.7: the device "removes the VLAN tag ... and reports it in the CQE fields": a tag
	 * left in the data is not reported (D-RX-3), cv/up/cfi/vid stay 0. */
	sl->h.cv = sl->strip;
	size_t n = p->len - (sl->strip ? RX_TAG_LEN : 0);
	sl->byte_cnt = (uint32_t)n;
	struct rx_src s = { .dev = dev, .f = p->frame, .strip = sl->strip };
	uint8_t syndrome = 0;
	if (read_wqe(rs, &w)) {
		syndrome = NICREF_CQE_SYN_LOCAL_PROTECTION; /* the WQE cannot be read (D-RX-2) */
	} else if (PRM_GET(wq, wq_signature, w.wq_ctx, WQ_CTX_BYTES - WQ_IN_CTX) &&
		   signature_xor(&w) != 0xFF) {
		violation(&w, NICREF_VIO_RX_WQE_SIGNATURE,
			  (uint64_t)sl->wqe_counter << 8 | signature_xor(&w));
		syndrome = NICREF_CQE_SYN_LOCAL_QP_OPERATION; /* as a send WQE's (D-TX-9) */
	} else {
		unsigned cl = cache_line(dev);
		uint64_t cap = list_cap(&w, n, cl, true, &sl->pad);
		syndrome = scatter(&w, &s, n, cl, cap, sl->pad);
	}
	sl->srqn = w.srqn;
	if (syndrome) {
		rx_rq_fail(dev, sl, p, syndrome);
		return RX_ERROR;
	}
	return RX_DELIVERED;
}

uint8_t rx_rq_append(struct nicref_dev *dev, const struct rx_slot *sl, size_t at,
		     const uint8_t *data, size_t n)
{
	struct rx_state *rs = rx_state_of(dev);
	struct rx_wqe w = { .dev = dev, .rq = sl->rq, .index = sl->index };
	/* The WQE the session holds, read again (the device keeps no copy of it, D-LRO-3). */
	if (read_wqe(rs, &w))
		return NICREF_CQE_SYN_LOCAL_PROTECTION;
	size_t pad;
	uint64_t cap = list_cap(&w, 0, cache_line(dev), false, &pad);
	struct rx_src s = { .dev = dev, .f = data, .base = at, .at = at };
	return scatter(&w, &s, at + n, cache_line(dev), cap, sl->pad);
}

enum rx_outcome rx_deliver_rq(struct nicref_dev *dev, uint32_t rqn, struct rx_pkt *p)
{
	struct rx_slot sl;
	enum rx_outcome o = rx_rq_place(dev, rqn, p, &sl);
	if (o == RX_DELIVERED)
		rx_rq_complete(dev, &sl, p, NULL, false);
	return o;
}
