/* The replay's driver (docs/replay.md "The driver"): after each frame it does what a receive
 * driver's poll loop does, so a capture of any length replays on rings of any size:
 *   - it consumes every CQE the CQ holds (PRM §7.12.3.2: owned when its owner bit equals the
 *     consumer counter's wrap bit and its opcode is not invalid), then writes update_ci to the
 *     CQ's doorbell record (T69/T70) so the CQ never overruns;
 *   - for each responder CQE (opcode 2) it gives the WQE back (§7.4.3): the WQE the CQE names
 *     (wqe_counter) is copied to the producer counter's stride (the same stride when the ring
 *     was posted full), its signature recomputed when the queue checks them (§9.2.3, T23:
 *     the index is part of it), and the doorbell record's receive counter advanced (T24).
 * An error CQE puts its RQ in ERR (D-RX-2): nothing is re-posted there, and the frames that
 * follow to that RQ are dropped (RQ not RDY), as on a device whose driver does not recover.
 * It reads and writes host memory directly (the model's built-in memory), never through the
 * setup's driver, whose accesses are recorded. */
#include <string.h>

#include "replay_int.h"

#define CQE_OPCODE_RESPONDER 0x2u /* T68 opcode */

int replay_rq_of_user_index(const struct vec_stack_rx *x, uint32_t ui)
{
	for (unsigned i = 0; i < x->nrq; i++)
		if (x->user_index[i] == ui)
			return (int)i;
	return -1;
}

/* A doorbell record's dword, big-endian, stored as one 32-bit word: the copy into host memory
 * right after reads it with one 32-bit load, which stores of its parts would make wait for
 * them to leave the store buffer (no store forwarding from several stores). */
static void put_be32(uint8_t p[4], uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
#else
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
#endif
}

/* Gives the WQE of counter wc back at the producer counter and rings the record. */
static void repost(struct nicref_dev *dev, struct refdrv_rq_ring *r, uint16_t wc)
{
	uint32_t mask = (1u << r->log_wq_sz) - 1u, stride = 1u << r->log_wq_stride;
	uint32_t from = wc & mask, to = r->pc & mask;
	uint8_t w[4096];
	if (from != to || r->wq_signature) {
		nicref_hostmem_read(dev, r->buf + (uint64_t)from * stride, w, stride);
		if (r->wq_signature) {
			/* T23/T43: the stride, the queue number's 3 bytes and the index's 2 XOR to
			 * 0xFF; the byte is 04h[31:24] of the first segment (D-RX-14). */
			uint8_t s = 0;
			w[4] = 0;
			for (uint32_t i = 0; i < stride; i++)
				s ^= w[i];
			s ^= (uint8_t)(r->qn >> 16) ^ (uint8_t)(r->qn >> 8) ^ (uint8_t)r->qn ^
			     (uint8_t)(r->pc >> 8) ^ (uint8_t)r->pc;
			w[4] = (uint8_t)(s ^ 0xFF);
		}
		nicref_hostmem_write(dev, r->buf + (uint64_t)to * stride, w, stride);
	}
	r->pc++;
	uint8_t rec[4];
	put_be32(rec, r->pc); /* T24: the receive counter, bits 15:0 */
	nicref_hostmem_write(dev, r->dbr, rec, sizeof rec);
}

/* The next CQE copy of p the trace announced and no poll has filled, or a new one. */
static struct replay_copy *next_cqe_copy(struct replay_pred *p)
{
	for (unsigned i = 0; i < p->ncopies; i++)
		if (!p->copy[i].drop && !p->copy[i].polled)
			return &p->copy[i];
	if (p->ncopies == REPLAY_MAX_COPIES) {
		p->lost++;
		return NULL;
	}
	struct replay_copy *c = &p->copy[p->ncopies++];
	replay_copy_clear(c);
	return c;
}

unsigned replay_drv_poll(const struct vec_stack_rx *x, struct replay_pred *p, bool do_repost,
			 uint64_t *reposted, unsigned *due)
{
	struct refdrv_cq *cq = x->cq;
	uint32_t log = cq->a.log_cq_size, size = 1u << log, csz = 64u << cq->a.cqe_sz;
	unsigned n = 0;
	/* With *due known (the CQEs the trace announced on this CQ and no poll has read), the
	 * poll reads that many and no further: the entry after the last one the device wrote is
	 * not valid (its owner bit is the previous lap's, or it was never written), so reading it
	 * only to find that out changes nothing. Until the first poll has found the end of the
	 * ring's valid entries (those the setup left included), it reads until an invalid one. */
	while (*due) {
		uint8_t c[64];
		/* D-CQE-2: a 128-byte CQE's T67 fields are its second half. */
		nicref_hostmem_read(x->dev, cq->a.buf + (uint64_t)(cq->cc & (size - 1u)) * csz + csz - 64u,
				    c, sizeof c);
		unsigned opcode = c[63] >> 4;
		if (opcode == 0xF || (c[63] & 1u) != ((cq->cc >> log) & 1u)) {
			*due = 0;
			break;
		}
		if (*due != REPLAY_DUE_UNKNOWN)
			(*due)--;
		cq->cc = (cq->cc + 1u) & 0xFFFFFFu;
		n++;
		struct replay_copy *k = next_cqe_copy(p);
		uint32_t ui = (uint32_t)c[0x21] << 16 | (uint32_t)c[0x22] << 8 | c[0x23]; /* 20h[23:0] */
		int rq = replay_rq_of_user_index(x, ui);
		if (k) {
			memcpy(k->cqe, c, sizeof c);
			k->polled = true;
			k->rq = rq;
		}
		if (opcode == CQE_OPCODE_RESPONDER && do_repost && rq >= 0) {
			repost(x->dev, x->ring[rq], (uint16_t)((uint32_t)c[0x3C] << 8 | c[0x3D]));
			(*reposted)++;
		}
	}
	if (n) {
		uint8_t rec[4];
		put_be32(rec, cq->cc & 0xFFFFFFu); /* T69/T70 update_ci, 00h[23:0] */
		nicref_hostmem_write(x->dev, cq->a.dbr, rec, sizeof rec);
	}
	return n;
}
