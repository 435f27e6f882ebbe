/* Reference-driver helpers for the receive path (harness/driver_rq.h). */
#include "driver_rq.h"

#include <stdio.h>
#include <string.h>

#include "driver_wq.h"
#include "nicref/layout.h"

#define SEG 16u
#define NULL_LKEY 0x100u /* §7.4.1.2: the Null scatter entry's L_Key */
#define STRIDE_MAX 4096u

static int fail(struct refdrv *d, const char *why)
{
	snprintf(d->error, sizeof d->error, "%s", why);
	return -1;
}

static uint8_t xor_bytes(const uint8_t *p, size_t n)
{
	uint8_t x = 0;
	for (size_t i = 0; i < n; i++)
		x ^= p[i];
	return x;
}

/* Writes the WQE of n entries into stride `slot`; a linked ring's next segment names stride
 * `next` (T43). The producer counter goes up. */
static int write_at(struct refdrv *d, struct refdrv_rq_ring *r, uint32_t slot, uint16_t next,
		    const struct refdrv_rx_sge *sge, unsigned n)
{
	size_t stride = (size_t)1 << r->log_wq_stride;
	uint8_t w[STRIDE_MAX];
	if (stride > sizeof w)
		return fail(d, "stride larger than the helper's buffer");
	memset(w, 0, stride);
	/* §7.4.4.3 / T42 / T65: the first segment: the signature segment of an RQ that checks
	 * signatures, the next segment of a linked-list WQE (an RMP's, or an RQ's: D-RX-16) or of
	 * a shared cyclic WQE with its ctrl. */
	bool first = r->linked || (r->shared ? (r->ctrl_segment || r->wq_signature) : r->wq_signature);
	size_t at = first ? SEG : 0;
	if (r->linked && refdrv_field_set(w, SEG, "srq_wqe_next", "next_wqe_index", next))
		return fail(d, "no srq_wqe_next layout");
	if (at + (size_t)n * SEG > stride)
		return fail(d, "more scatter entries than the stride holds");
	for (unsigned i = 0; i < n; i++, at += SEG) {
		uint8_t *s = w + at;
		int bad = refdrv_field_set(s, SEG, "recv_wqe_data", "start_padding",
					   sge[i].start_padding);
		bad |= refdrv_field_set(s, SEG, "recv_wqe_data", "byte_count", sge[i].byte_count);
		bad |= refdrv_field_set(s, SEG, "recv_wqe_data", "l_key", sge[i].lkey);
		bad |= refdrv_field_set(s, SEG, "recv_wqe_data", "local_address_63_32",
					sge[i].addr >> 32);
		bad |= refdrv_field_set(s, SEG, "recv_wqe_data", "local_address_31_0",
					sge[i].addr & 0xFFFFFFFFu);
		if (bad)
			return fail(d, "no recv_wqe_data layout");
	}
	/* §7.4.1.2: a stride larger than the WQE ends the list with the Null entry. */
	if (at + SEG <= stride)
		refdrv_field_set(w + at, SEG, "recv_wqe_data", "l_key", NULL_LKEY);
	if (first && r->wq_signature) {
		/* §9.2.3, T23/T43: the stride, the queue number's 3 bytes and the WQE index's 2
		 * XOR to 0xFF (the index: the counter, or the stride of a linked list). */
		uint16_t index = r->linked ? (uint16_t)slot : r->pc;
		uint8_t x = xor_bytes(w, stride) ^ (uint8_t)(r->qn >> 16) ^ (uint8_t)(r->qn >> 8) ^
			    (uint8_t)r->qn ^ (uint8_t)(index >> 8) ^ (uint8_t)index;
		w[4] = (uint8_t)(x ^ 0xFF);
	}
	if (d->ops.mem_write(d->ops.ctx, r->buf + (uint64_t)slot * stride, w, stride))
		return fail(d, "cannot write the WQE");
	r->pc++;
	return 0;
}

int refdrv_rq_write(struct refdrv *d, struct refdrv_rq_ring *r, const struct refdrv_rx_sge *sge,
		    unsigned n)
{
	uint32_t size = 1u << r->log_wq_sz;
	uint32_t slot = r->pc & (size - 1u);
	return write_at(d, r, slot, (uint16_t)((slot + 1u) & (size - 1u)), sge, n);
}

int refdrv_rq_ll_write(struct refdrv *d, struct refdrv_rq_ring *r, uint16_t next,
		       const struct refdrv_rx_sge *sge, unsigned n)
{
	if (!r->linked)
		return fail(d, "not a linked-list ring");
	/* T43: Next_WQE_index is a stride of this queue; naming the WQE itself would have the
	 * device take it again. */
	if (next >= 1u << r->log_wq_sz || next == r->ll_head)
		return fail(d, "the next stride is not another stride of the ring");
	if (write_at(d, r, r->ll_head, next, sge, n))
		return -1;
	r->ll_head = next;
	return 0;
}

int refdrv_rq_ll_init(struct refdrv *d, struct refdrv_rq_ring *r)
{
	size_t stride = (size_t)1 << r->log_wq_stride;
	uint32_t size = 1u << r->log_wq_sz;
	uint8_t w[STRIDE_MAX];
	if (!r->linked)
		return fail(d, "not a linked-list ring");
	if (stride > sizeof w)
		return fail(d, "stride larger than the helper's buffer");
	memset(w, 0, stride);
	for (uint32_t i = 0; i < size; i++) {
		if (refdrv_field_set(w, SEG, "srq_wqe_next", "next_wqe_index", (i + 1u) & (size - 1u)))
			return fail(d, "no srq_wqe_next layout");
		if (d->ops.mem_write(d->ops.ctx, r->buf + (uint64_t)i * stride, w, stride))
			return fail(d, "cannot write the ring");
	}
	r->ll_head = 0;
	r->pc = 0;
	return 0;
}

int refdrv_rq_record(struct refdrv *d, const struct refdrv_rq_ring *r)
{
	return refdrv_wq_dbr_write(d, r->dbr, false, r->pc);
}

int refdrv_rq_post(struct refdrv *d, struct refdrv_rq_ring *r, const struct refdrv_rx_sge *sge,
		   unsigned n)
{
	if (refdrv_rq_write(d, r, sge, n))
		return -1;
	return refdrv_rq_record(d, r);
}

int refdrv_rx_poll(struct refdrv *d, struct refdrv_cq *cq, uint8_t cqe[64])
{
	return refdrv_cq_poll(d, cq, cqe);
}

uint64_t refdrv_rx_cqe_field(const uint8_t cqe[64], const char *field)
{
	unsigned opcode = (unsigned)refdrv_field_get(cqe, 64, "cqe64", "opcode");
	if ((opcode == 13 || opcode == 14) && refdrv_field("err_cqe", field))
		return refdrv_field_get(cqe, 64, "err_cqe", field);
	return refdrv_field_get(cqe, 64, "cqe64", field);
}
