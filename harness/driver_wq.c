/* Reference-driver helpers for SQs, RQs and RMPs (see driver_wq.h). Fields are written through
 * the public PRM layouts by name, as a driver author would transcribe them from the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_wq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

#define PAGE 4096u
#define PAS_AT 0x110u          /* pas[0] in CREATE_SQ/RQ/RMP (T315, T332, T366: context at 20h) */
#define UAR_PAGE 4096u         /* §7.2: UAR n at BAR0 n * page (4 KB pages, log_uar_page_sz 0) */
#define BF_BASE 0x800u         /* §7.2.2 T13: Blue Flame buffer 0 even */
#define BF_BUF 256u            /* 2^log_bf_reg_size / 2 with the device's 512-byte registers */

static int fail(struct refdrv *d, const char *what)
{
	snprintf(d->error, sizeof d->error, "%s", what);
	return -1;
}

uint32_t refdrv_wq_pages(const struct refdrv_wq_attr *a)
{
	/* T55: 2^(log_wq_sz + log_wq_stride) bytes after page_offset * page_size / 64. */
	uint64_t page = (uint64_t)PAGE << a->log_wq_pg_sz;
	uint64_t bytes = (uint64_t)a->page_offset * (page / 64) + (1ull << (a->log_wq_sz + a->log_wq_stride));
	return (uint32_t)((bytes + page - 1) / page);
}

/* A create, and once more after giving pages when the device lacks ICM (D-PG-4). */
static int create(struct refdrv *d, const uint8_t *in, uint32_t len, const char *out_layout,
		  const char *field, uint32_t *num)
{
	uint8_t out[16];
	int st = refdrv_cmd_paged(d, in, len, out, sizeof out);
	if (st == 0 && num)
		*num = (uint32_t)refdrv_field_get(out, sizeof out, out_layout, field);
	return st;
}

int refdrv_wq_dbr_write(struct refdrv *d, uint64_t dbr, bool send, uint16_t counter)
{
	/* T24: counter in bits 15:0 of the word, big-endian. */
	uint8_t w[4] = { 0, 0, (uint8_t)(counter >> 8), (uint8_t)counter };
	return d->ops.mem_write(d->ops.ctx, dbr + (send ? 4 : 0), w, sizeof w) ? -1 : 0;
}

/* The WQ rows of a CREATE input (layout L, WQ at 20h + 30h) and its pas[]. */
static int put_wq(struct refdrv *d, uint8_t *in, uint32_t len, const char *L,
		  const struct refdrv_wq_attr *a, bool pad)
{
	int bad = 0;
	bad |= refdrv_field_set(in, len, L, "wq_type", a->wq_type);
	bad |= refdrv_field_set(in, len, L, "wq_signature", a->wq_signature);
	if (pad)
		bad |= refdrv_field_set(in, len, L, "end_padding_mode", a->end_padding_mode);
	bad |= refdrv_field_set(in, len, L, "page_offset", a->page_offset);
	bad |= refdrv_field_set(in, len, L, "pd", a->pd);
	bad |= refdrv_field_set(in, len, L, "dbr_addr_63_32", a->dbr >> 32);
	bad |= refdrv_field_set(in, len, L, "dbr_addr_31_0", a->dbr & 0xFFFFFFFFu);
	bad |= refdrv_field_set(in, len, L, "log_wq_stride", a->log_wq_stride);
	bad |= refdrv_field_set(in, len, L, "log_wq_pg_sz", a->log_wq_pg_sz);
	bad |= refdrv_field_set(in, len, L, "log_wq_sz", a->log_wq_sz);
	const struct nicref_field *pas = refdrv_layout_field(refdrv_layout(L), "pas");
	uint32_t n = refdrv_wq_pages(a);
	for (uint32_t i = 0; i < n && pas; i++) {
		struct nicref_field e = nicref_field_element(pas, i);
		bad |= nicref_field_set(in, len, &e, a->buf + ((uint64_t)PAGE << a->log_wq_pg_sz) * i);
	}
	if (bad)
		return fail(d, "a work-queue field does not fit its layout");
	/* §7.4.2: the record starts at 0. */
	uint8_t zero[8] = { 0 };
	return d->ops.mem_write(d->ops.ctx, a->dbr, zero, sizeof zero) ? fail(d, "dbr write") : 0;
}

static uint8_t *alloc_in(struct refdrv *d, const struct refdrv_wq_attr *a, bool with_wq,
			 uint32_t *len)
{
	*len = PAS_AT + (with_wq ? 8 * refdrv_wq_pages(a) : 0);
	uint8_t *in = calloc(1, *len);
	if (!in)
		fail(d, "out of memory");
	return in;
}

int refdrv_create_sq(struct refdrv *d, const struct refdrv_sq_attr *a, uint32_t *sqn)
{
	const char *L = "create_sq_in";
	uint32_t len;
	uint8_t *in = alloc_in(d, &a->wq, true, &len);
	if (!in)
		return -1;
	int bad = refdrv_field_set(in, len, L, "opcode", (uint64_t)refdrv_opcode("CREATE_SQ"));
	bad |= refdrv_field_set(in, len, L, "rlkey", a->rlkey);
	bad |= refdrv_field_set(in, len, L, "fre", a->fre);
	bad |= refdrv_field_set(in, len, L, "flush_in_error_en", a->flush_in_error_en);
	bad |= refdrv_field_set(in, len, L, "min_wqe_inline_mode", a->min_wqe_inline_mode);
	bad |= refdrv_field_set(in, len, L, "state", 0); /* RST (§7.9 Figure 17) */
	bad |= refdrv_field_set(in, len, L, "user_index", a->user_index);
	bad |= refdrv_field_set(in, len, L, "cqn", a->cqn);
	bad |= refdrv_field_set(in, len, L, "tis_lst_sz", 1); /* T61: a single TIS */
	bad |= refdrv_field_set(in, len, L, "tis_num_0", a->tisn);
	bad |= refdrv_field_set(in, len, L, "uar_page", a->uar);
	int st = bad ? fail(d, "CREATE_SQ: a field does not fit") : put_wq(d, in, len, L, &a->wq, false);
	if (st == 0)
		st = create(d, in, len, "create_sq_out", "sqn", sqn);
	free(in);
	return st;
}

int refdrv_create_rq(struct refdrv *d, const struct refdrv_rq_attr *a, uint32_t *rqn)
{
	const char *L = "create_rq_in";
	uint32_t len;
	uint8_t *in = alloc_in(d, &a->wq, !a->on_rmp, &len);
	if (!in)
		return -1;
	int bad = refdrv_field_set(in, len, L, "opcode", (uint64_t)refdrv_opcode("CREATE_RQ"));
	bad |= refdrv_field_set(in, len, L, "rlkey", a->rlkey);
	bad |= refdrv_field_set(in, len, L, "vlan_strip_disable", a->vlan_strip_disable);
	bad |= refdrv_field_set(in, len, L, "mem_rq_type", a->on_rmp);
	bad |= refdrv_field_set(in, len, L, "state", 0); /* RST (§7.7 Figure 16) */
	bad |= refdrv_field_set(in, len, L, "user_index", a->user_index);
	bad |= refdrv_field_set(in, len, L, "cqn", a->cqn);
	if (a->on_rmp)
		bad |= refdrv_field_set(in, len, L, "rmpn", a->rmpn); /* T53: reserved for non RMP RQs */
	else
		bad |= refdrv_field_set(in, len, L, "flush_in_error_en", a->flush_in_error_en);
	int st = bad ? fail(d, "CREATE_RQ: a field does not fit")
		     : a->on_rmp ? 0 : put_wq(d, in, len, L, &a->wq, true);
	if (st == 0)
		st = create(d, in, len, "create_rq_out", "rqn", rqn);
	free(in);
	return st;
}

int refdrv_create_rmp(struct refdrv *d, const struct refdrv_rmp_attr *a, uint32_t *rmpn)
{
	const char *L = "create_rmp_in";
	uint32_t len;
	uint8_t *in = alloc_in(d, &a->wq, true, &len);
	if (!in)
		return -1;
	int bad = refdrv_field_set(in, len, L, "opcode", (uint64_t)refdrv_opcode("CREATE_RMP"));
	bad |= refdrv_field_set(in, len, L, "state", 1); /* T65: must be RDY */
	bad |= refdrv_field_set(in, len, L, "basic_cyclic_rcv_wqe", a->basic_cyclic_rcv_wqe);
	bad |= refdrv_field_set(in, len, L, "lwm", a->lwm);
	int st = bad ? fail(d, "CREATE_RMP: a field does not fit") : put_wq(d, in, len, L, &a->wq, true);
	if (st == 0)
		st = create(d, in, len, "create_rmp_out", "rmpn", rmpn);
	free(in);
	return st;
}

static int modify(struct refdrv *d, const char *op, const char *L, const char *cur_f,
		  const char *num_f, uint32_t num, unsigned from, unsigned to, uint32_t mask,
		  const char *extra, uint64_t extra_v)
{
	uint8_t in[PAS_AT] = { 0 }, out[16];
	int bad = refdrv_field_set(in, sizeof in, L, "opcode", (uint64_t)refdrv_opcode(op));
	bad |= refdrv_field_set(in, sizeof in, L, cur_f, from);
	bad |= refdrv_field_set(in, sizeof in, L, num_f, num);
	bad |= refdrv_field_set(in, sizeof in, L, "modify_bitmask_31_0", mask);
	bad |= refdrv_field_set(in, sizeof in, L, "state", to);
	if (extra)
		bad |= refdrv_field_set(in, sizeof in, L, extra, extra_v);
	if (bad)
		return fail(d, "MODIFY: a field does not fit");
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_modify_sq(struct refdrv *d, uint32_t sqn, unsigned from, unsigned to)
{
	return modify(d, "MODIFY_SQ", "modify_sq_in", "sq_state", "sqn", sqn, from, to, 0, NULL, 0);
}

int refdrv_modify_rq(struct refdrv *d, uint32_t rqn, unsigned from, unsigned to)
{
	return modify(d, "MODIFY_RQ", "modify_rq_in", "rq_state", "rqn", rqn, from, to, 0, NULL, 0);
}

int refdrv_modify_rq_vsd(struct refdrv *d, uint32_t rqn, unsigned from, unsigned to, bool vsd)
{
	return modify(d, "MODIFY_RQ", "modify_rq_in", "rq_state", "rqn", rqn, from, to, 1u << 1,
		      "vlan_strip_disable", vsd);
}

int refdrv_modify_rmp_lwm(struct refdrv *d, uint32_t rmpn, unsigned lwm)
{
	return modify(d, "MODIFY_RMP", "modify_rmp_in", "rmp_state", "rmpn", rmpn, 1, 1, 1u << 0,
		      "lwm", lwm);
}

static int by_number(struct refdrv *d, const char *op, const char *L, const char *f, uint32_t n,
		     uint8_t *out, uint32_t out_len)
{
	uint8_t in[16] = { 0 };
	refdrv_field_set(in, sizeof in, L, "opcode", (uint64_t)refdrv_opcode(op));
	if (refdrv_field_set(in, sizeof in, L, f, n))
		return fail(d, "number does not fit");
	return refdrv_cmd(d, in, sizeof in, out, out_len);
}

int refdrv_destroy_sq(struct refdrv *d, uint32_t sqn)
{
	uint8_t out[16];
	return by_number(d, "DESTROY_SQ", "destroy_sq_in", "sqn", sqn, out, sizeof out);
}

int refdrv_destroy_rq(struct refdrv *d, uint32_t rqn)
{
	uint8_t out[16];
	return by_number(d, "DESTROY_RQ", "destroy_rq_in", "rqn", rqn, out, sizeof out);
}

int refdrv_destroy_rmp(struct refdrv *d, uint32_t rmpn)
{
	uint8_t out[16];
	return by_number(d, "DESTROY_RMP", "destroy_rmp_in", "rmpn", rmpn, out, sizeof out);
}

static int query(struct refdrv *d, const char *op, const char *L, const char *f, uint32_t n,
		 const char *OL, struct refdrv_wq_status *st)
{
	uint8_t out[PAS_AT];
	int s = by_number(d, op, L, f, n, out, sizeof out);
	if (s == 0) {
		st->state = (unsigned)refdrv_field_get(out, sizeof out, OL, "state");
		st->hw_counter = (uint16_t)refdrv_field_get(out, sizeof out, OL, "hw_counter");
		st->sw_counter = (uint16_t)refdrv_field_get(out, sizeof out, OL, "sw_counter");
	}
	return s;
}

int refdrv_query_sq(struct refdrv *d, uint32_t sqn, struct refdrv_wq_status *st)
{
	return query(d, "QUERY_SQ", "query_sq_in", "sqn", sqn, "query_sq_out", st);
}

int refdrv_query_rq(struct refdrv *d, uint32_t rqn, struct refdrv_wq_status *st)
{
	return query(d, "QUERY_RQ", "query_rq_in", "rqn", rqn, "query_rq_out", st);
}

int refdrv_query_rmp(struct refdrv *d, uint32_t rmpn, struct refdrv_wq_status *st)
{
	return query(d, "QUERY_RMP", "query_rmp_in", "rmpn", rmpn, "query_rmp_out", st);
}

void refdrv_sq_doorbell(struct refdrv *d, uint32_t uar, unsigned bf_buffer, uint32_t sqn,
			uint16_t wqe_index, uint8_t opcode, unsigned ds)
{
	/* T26 dwords 0-1: wqe_index << 8 | opcode, sqn << 8 | ds; §7.2.2.2 lower dword first. */
	uint32_t at = uar * UAR_PAGE + BF_BASE + bf_buffer * BF_BUF;
	d->ops.bar_write32(d->ops.ctx, at, (uint32_t)wqe_index << 8 | opcode);
	d->ops.bar_write32(d->ops.ctx, at + 4, (sqn & 0xFFFFFFu) << 8 | (ds & 0x3Fu));
}
