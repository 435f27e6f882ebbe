/* Reference-driver helpers for completion queues (see driver_cq.h). Fields are written through
 * the public PRM layouts by name, as a driver author transcribes them from the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_cq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

#define PAGE 4096u
#define M 0xFFFFFFu /* T76: 24-bit counters */

static int fail(struct refdrv *d, const char *what, long v)
{
	snprintf(d->error, sizeof d->error, "%s (%ld)", what, v);
	return -1;
}

static uint32_t cqe_bytes(unsigned cqe_sz)
{
	return cqe_sz ? 128u : 64u; /* T76 cqe_sz */
}

static uint32_t cq_pages(unsigned log_cq_size, unsigned cqe_sz, unsigned log_page_size)
{
	uint64_t page = (uint64_t)PAGE << log_page_size;
	return (uint32_t)((((uint64_t)cqe_bytes(cqe_sz) << log_cq_size) + page - 1) / page);
}

/* §12.7.1 / §7.12.3.1 / D-CQ-8: opcode 0xF and owner 1 in every entry's last byte. */
static int init_buffer(struct refdrv *d, uint64_t buf, unsigned log_cq_size, unsigned cqe_sz)
{
	uint8_t e[128] = { 0 };
	uint32_t esz = cqe_bytes(cqe_sz);
	e[esz - 1] = 0xF1;
	for (uint64_t i = 0; i < (1ull << log_cq_size); i++)
		if (d->ops.mem_write(d->ops.ctx, buf + esz * i, e, esz) != 0)
			return fail(d, "CQ buffer write", (long)i);
	return 0;
}

/* Input with the pas[] of a buffer at 110h (T261, T273). */
static uint8_t *with_pas(uint32_t *in_len, uint64_t buf, unsigned log_cq_size, unsigned cqe_sz,
			 unsigned log_page_size, const char *layout)
{
	uint32_t npas = cq_pages(log_cq_size, cqe_sz, log_page_size);
	*in_len = 0x110 + 8 * npas;
	uint8_t *in = calloc(1, *in_len);
	if (in)
		for (uint32_t k = 0; k < npas; k++)
			refdrv_field_set_elem(in, *in_len, layout, "pas", k,
				 buf + ((uint64_t)k << (12 + log_page_size)));
	return in;
}

int refdrv_create_cq(struct refdrv *d, const struct refdrv_cq_attr *a, struct refdrv_cq *cq)
{
	static const char L[] = "create_cq_in";
	if (a->log_cq_size > 22 || a->log_page_size > 20 || a->cqe_sz > 1)
		return fail(d, "CREATE_CQ: sizes out of range", a->log_cq_size);
	if (init_buffer(d, a->buf, a->log_cq_size, a->cqe_sz) != 0)
		return -1;
	uint8_t zero[8] = { 0 };
	if (d->ops.mem_write(d->ops.ctx, a->dbr, zero, sizeof zero) != 0)
		return fail(d, "CREATE_CQ: doorbell record write", 0);
	uint32_t in_len;
	uint8_t *in = with_pas(&in_len, a->buf, a->log_cq_size, a->cqe_sz, a->log_page_size, L);
	uint8_t out[16] = { 0 };
	if (!in)
		return fail(d, "CREATE_CQ: out of memory", 0);
	refdrv_field_set(in, in_len, L, "opcode", (uint64_t)refdrv_opcode("CREATE_CQ"));
	refdrv_field_set(in, in_len, L, "cqe_sz", a->cqe_sz);
	refdrv_field_set(in, in_len, L, "cc", a->cc);
	refdrv_field_set(in, in_len, L, "scqe_break_moderation_en", a->scqe_break_moderation_en);
	refdrv_field_set(in, in_len, L, "oi", a->oi);
	refdrv_field_set(in, in_len, L, "cq_period_mode", a->cq_period_mode);
	refdrv_field_set(in, in_len, L, "log_cq_size", a->log_cq_size);
	refdrv_field_set(in, in_len, L, "uar_page", a->uar);
	refdrv_field_set(in, in_len, L, "cq_period", a->cq_period);
	refdrv_field_set(in, in_len, L, "cq_max_count", a->cq_max_count);
	refdrv_field_set(in, in_len, L, "c_eqn", a->eqn);
	refdrv_field_set(in, in_len, L, "log_page_size", a->log_page_size);
	refdrv_field_set(in, in_len, L, "dbr_addr", a->dbr);
	int st = refdrv_cmd_paged(d, in, in_len, out, sizeof out);
	free(in);
	if (st == 0) {
		memset(cq, 0, sizeof *cq);
		cq->cqn = (uint32_t)refdrv_field_get(out, sizeof out, "create_cq_out", "cqn");
		cq->a = *a;
	}
	return st;
}

static int by_cqn(struct refdrv *d, const char *opcode, uint32_t cqn, uint8_t *out,
		  uint32_t out_len)
{
	uint8_t in[16] = { 0 }, small[16];
	refdrv_field_set(in, sizeof in, "destroy_cq_in", "opcode", (uint64_t)refdrv_opcode(opcode));
	refdrv_field_set(in, sizeof in, "destroy_cq_in", "cqn", cqn); /* 08h[23:0] in T265 and T269 */
	return out ? refdrv_cmd(d, in, sizeof in, out, out_len)
		   : refdrv_cmd(d, in, sizeof in, small, sizeof small);
}

int refdrv_destroy_cq(struct refdrv *d, uint32_t cqn)
{
	return by_cqn(d, "DESTROY_CQ", cqn, NULL, 0);
}

int refdrv_query_cq(struct refdrv *d, uint32_t cqn, uint8_t *out, uint32_t out_len)
{
	if (out_len < 0x110)
		return fail(d, "QUERY_CQ: output shorter than T270", out_len);
	return by_cqn(d, "QUERY_CQ", cqn, out, out_len);
}

int refdrv_modify_cq(struct refdrv *d, struct refdrv_cq *cq, uint32_t select,
		     const struct refdrv_cq_attr *a)
{
	static const char L[] = "modify_cq_in";
	uint8_t in[0x110] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, L, "opcode", (uint64_t)refdrv_opcode("MODIFY_CQ"));
	refdrv_field_set(in, sizeof in, L, "op_mod", 0); /* modify_cq */
	refdrv_field_set(in, sizeof in, L, "cqn", cq->cqn);
	refdrv_field_set(in, sizeof in, L, "field_select", select); /* T275 */
	refdrv_field_set(in, sizeof in, L, "cq_period", a->cq_period);
	refdrv_field_set(in, sizeof in, L, "cq_max_count", a->cq_max_count);
	refdrv_field_set(in, sizeof in, L, "oi", a->oi);
	refdrv_field_set(in, sizeof in, L, "c_eqn", a->eqn);
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0) {
		if (select & 1u)
			cq->a.cq_period = a->cq_period;
		if (select & 2u)
			cq->a.cq_max_count = a->cq_max_count;
		if (select & 4u)
			cq->a.oi = a->oi;
		if (select & 8u)
			cq->a.eqn = a->eqn;
	}
	return st;
}

int refdrv_resize_cq(struct refdrv *d, struct refdrv_cq *cq, uint64_t buf, unsigned log_cq_size,
		     unsigned cqe_sz, unsigned log_page_size)
{
	static const char L[] = "modify_cq_in";
	if (log_cq_size > 22 || log_page_size > 20 || cqe_sz > 1)
		return fail(d, "resize: sizes out of range", log_cq_size);
	if (cq->draining)
		return fail(d, "resize: the previous resize is not drained", 0);
	/* §7.12.3.1: "When a CQ is created or resized, software needs to initialize the entire
	 * CQE buffer with owner bit = Hardware." */
	if (init_buffer(d, buf, log_cq_size, cqe_sz) != 0)
		return -1;
	uint32_t in_len;
	uint8_t *in = with_pas(&in_len, buf, log_cq_size, cqe_sz, log_page_size, L), out[16];
	if (!in)
		return fail(d, "resize: out of memory", 0);
	refdrv_field_set(in, in_len, L, "opcode", (uint64_t)refdrv_opcode("MODIFY_CQ"));
	refdrv_field_set(in, in_len, L, "op_mod", 1); /* resize_cq */
	refdrv_field_set(in, in_len, L, "cqn", cq->cqn);
	refdrv_field_set(in, in_len, L, "field_select", 1u | 2u | 4u); /* T277 */
	refdrv_field_set(in, in_len, L, "log_cq_size", log_cq_size);
	refdrv_field_set(in, in_len, L, "cqe_sz", cqe_sz);
	refdrv_field_set(in, in_len, L, "log_page_size", log_page_size);
	int st = refdrv_cmd(d, in, in_len, out, sizeof out);
	free(in);
	if (st == 0) {
		cq->old = cq->a;
		cq->draining = true;
		cq->a.buf = buf;
		cq->a.log_cq_size = log_cq_size;
		cq->a.cqe_sz = cqe_sz;
		cq->a.log_page_size = log_page_size;
	}
	return st;
}

/* The 64-byte CQE of counter cc in the buffer of a. */
static int read_cqe(struct refdrv *d, const struct refdrv_cq_attr *a, uint32_t cc, uint8_t cqe[64])
{
	uint32_t esz = cqe_bytes(a->cqe_sz);
	uint64_t off = (uint64_t)esz * (a->cc ? 0 : (cc & ((1u << a->log_cq_size) - 1)));
	uint64_t page = (uint64_t)PAGE << a->log_page_size;
	uint64_t addr = a->buf + off / page * page + off % page + (esz - 64);
	return d->ops.mem_read(d->ops.ctx, addr, cqe, 64);
}

static int owned(const struct refdrv_cq_attr *a, uint32_t cc, const uint8_t cqe[64])
{
	/* §7.12.3.2: owner bit of SW and an opcode other than 0xF (invalid). */
	return (cqe[0x3F] & 1u) == ((cc >> a->log_cq_size) & 1u) && (cqe[0x3F] >> 4) != 0xF;
}

int refdrv_cq_poll(struct refdrv *d, struct refdrv_cq *cq, uint8_t cqe[64])
{
	if (cq->draining) {
		if (read_cqe(d, &cq->old, cq->cc, cqe) != 0)
			return fail(d, "CQ poll: read", (long)cq->cc);
		if (!owned(&cq->old, cq->cc, cqe))
			return 0;
		if ((cqe[0x3F] >> 4) != 0x5) /* not yet the Resize CQE (§7.12.6) */
			goto consume;
		/* D-CQ-7: the Resize CQE does not count; the new buffer continues at cc. */
		cq->draining = false;
	}
	if (read_cqe(d, &cq->a, cq->cc, cqe) != 0)
		return fail(d, "CQ poll: read", (long)cq->cc);
	if (!owned(&cq->a, cq->cc, cqe))
		return 0;
consume:
	cq->cc = (cq->cc + 1) & M;
	/* T69/T70: update_ci at record 00h[23:0]. */
	uint8_t rec[4] = { 0 };
	refdrv_field_set(rec, sizeof rec, "cq_dbr", "update_ci", cq->cc);
	if (d->ops.mem_write(d->ops.ctx, cq->a.dbr, rec, sizeof rec) != 0)
		return fail(d, "CQ poll: record write", (long)cq->cc);
	return 1;
}

void refdrv_cq_arm(struct refdrv *d, struct refdrv_cq *cq, bool solicited)
{
	/* T69/T70 04h and T13/T14 20h: cmd_sn 29:28, cmd 24 (1 solicited), ci 23:0; then the CQ
	 * number at 24h. */
	uint8_t rec[8] = { 0 };
	refdrv_field_set(rec, sizeof rec, "cq_dbr", "cmd_sn", cq->arm_sn & 3u);
	refdrv_field_set(rec, sizeof rec, "cq_dbr", "cmd", solicited);
	refdrv_field_set(rec, sizeof rec, "cq_dbr", "arm_ci", cq->cc);
	(void)d->ops.mem_write(d->ops.ctx, cq->a.dbr + 4, rec + 4, 4);
	uint32_t lo = (uint32_t)rec[4] << 24 | (uint32_t)rec[5] << 16 | (uint32_t)rec[6] << 8 | rec[7];
	uint64_t page = refdrv_uar_offset(d, cq->a.uar);
	d->ops.bar_write32(d->ops.ctx, (uint32_t)(page + 0x20), lo);
	d->ops.bar_write32(d->ops.ctx, (uint32_t)(page + 0x24), cq->cqn & M);
}

void refdrv_cq_event_seen(struct refdrv_cq *cq)
{
	cq->arm_sn = (cq->arm_sn + 1) & 3u; /* D-CQ-4 */
}
