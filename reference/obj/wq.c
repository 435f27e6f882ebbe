/* What SQs, RQs and RMPs share (PRM §7.4, §7.7-§7.10): the family's life in the device, the
 * work-queue buffer (stride addressing over the page list), the doorbell record, the CREATE
 * parsing of the WQ (T54/T55), QUERY output, state changes and their events, flush CQEs. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/obj_walk.h"
#include "obj/umem.h"

/* ---- The family in the device ------------------------------------------------------------ */


static void sq_dtor(void *ctx, void *o)
{
	sq_free(ctx, o); /* ctx: the device */
}

static void rq_dtor(void *ctx, void *o)
{
	rq_free(ctx, o); /* ctx: the device */
}

static void rmp_dtor(void *ctx, void *o)
{
	rmp_free(ctx, o); /* ctx: the device */
}

static void empty_table(struct nicref_dev *dev, struct objtab *t, void (*dtor)(void *, void *))
{
	if (t->nlive)
		objtab_reset(t, t->base, t->limit, dtor, dev);
}

void wq_dev_reset(struct nicref_dev *dev)
{
	/* Everything goes (TEARDOWN_HCA, reset): the objects named (CQ, TIS, PD, UAR) go too, so
	 * their counts are not touched. RQs before the RMPs they name (§3.2.1 tear-down order). */
	empty_table(dev, &dev->obj[OBJ_RQ], rq_dtor);
	empty_table(dev, &dev->obj[OBJ_RMP], rmp_dtor);
	empty_table(dev, &dev->obj[OBJ_SQ], sq_dtor);
}

/* The UMEMs a WQ keeps (D-UMEM-7). */
static void wq_umem_refs(const struct wq *w, obj_ref_visit visit, void *ctx)
{
	for (unsigned i = 0; i < 2; i++)
		if (w->umem_hdr[i])
			visit(ctx, OBJ_UMEM, i == 0 ? w->buf_umem : w->dbr_umem);
}

/* D-OBJ-1: SQ -> CQ, PD, TIS, UAR (T61, T55); RQ -> CQ, PD (inline WQ), RMP (T53); RMP -> PD
 * (T55). */
void sq_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	const struct sq *sq = o;
	visit(ctx, OBJ_CQ, sq->cqn);
	visit(ctx, OBJ_PD, sq->pd);
	visit(ctx, OBJ_TIS, sq->tisn);
	visit(ctx, OBJ_UAR, sq->uar);
	wq_umem_refs(&sq->wq, visit, ctx);
}

void rq_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	const struct rq *rq = o;
	visit(ctx, OBJ_CQ, rq->cqn);
	if (rq->on_rmp)
		visit(ctx, OBJ_RMP, rq->rmpn);
	else
		visit(ctx, OBJ_PD, rq->pd);
	wq_umem_refs(&rq->wq, visit, ctx);
}

void rmp_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	visit(ctx, OBJ_PD, ((const struct rmp *)o)->pd);
	wq_umem_refs(&((const struct rmp *)o)->wq, visit, ctx);
}

void wq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_SQ, sq_obj_refs, visit, ctx);
	obj_table_refs(dev, OBJ_RQ, rq_obj_refs, visit, ctx);
	obj_table_refs(dev, OBJ_RMP, rmp_obj_refs, visit, ctx);
}

static bool is_sq_rq_state(unsigned s)
{
	return s == WQ_RST || s == WQ_RDY || s == WQ_ERR;
}

static int check_wq(const struct wq *w, uint8_t state)
{
	if (!w->pas || !w->npas)
		return -207; /* a queue with a buffer has its page list */
	if (state == WQ_RST && (w->hw_counter || w->sw_counter))
		return -203; /* counters start over in RST (T57/T63: the record is zeroed first) */
	return 0;
}

int sq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	(void)w;
	const struct sq *sq = o;
	int rc;
	if (sq->hdr.handle != h)
		return -206;
	if (!is_sq_rq_state(sq->state))
		return -200; /* T61: RST, RDY, ERR */
	if ((rc = check_wq(&sq->wq, sq->state)))
		return rc;
	if (sq->bf_reg < -1 || sq->bf_reg > 7)
		return -208;
	return 0;
}

int rq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	(void)w;
	const struct rq *rq = o;
	int rc;
	if (rq->hdr.handle != h)
		return -206;
	if (!is_sq_rq_state(rq->state))
		return -201; /* T53 */
	if (!rq->on_rmp && (rc = check_wq(&rq->wq, rq->state)))
		return rc;
	if (rq->ntaken > rq->taken_cap || (!rq->on_rmp && rq->ntaken))
		return -204; /* only an RMP RQ takes WQEs from elsewhere */
	if (rq->state == WQ_RST && rq->ntaken)
		return -209; /* RST holds nothing (§7.7.1) */
	return 0;
}

int rmp_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	(void)w;
	const struct rmp *rmp = o;
	int rc;
	if (rmp->hdr.handle != h)
		return -206;
	if (rmp->state != WQ_RDY && rmp->state != WQ_ERR)
		return -202; /* T65: RDY, ERR; no RST (§7.10.1) */
	if ((rc = check_wq(&rmp->wq, rmp->state)))
		return rc;
	if (PRM_GET(wq, lwm, rmp->ctx + WQ_IN_CTX, WQ_CTX_BYTES - WQ_IN_CTX) != rmp->lwm)
		return -205; /* QUERY shows the limit in force */
	return 0;
}

/* ---- The buffer -------------------------------------------------------------------------- */

/* page_size is a power of two (4 KB << log_wq_pg_sz, or a UMEM's 4 KB): the page of a byte
 * by a shift and its offset by a mask, not a division (a receive WQE is read every frame). */
static uint64_t page_of(const struct wq *wq, uint64_t at)
{
	return at >> __builtin_ctzll(wq->page_size);
}

static uint64_t in_page(const struct wq *wq, uint64_t at)
{
	return at & (wq->page_size - 1);
}

/* Address of queue byte b (b < the queue's size). */
static uint64_t byte_addr(const struct wq *wq, uint64_t b)
{
	uint64_t at = wq->first_off + b;
	uint64_t page = page_of(wq, at);
	if (page >= wq->npas)
		return 0; /* wq_parse sizes pas[] to the queue: never */
	return wq->pas[page] + in_page(wq, at);
}

uint64_t wq_addr(const struct wq *wq, uint32_t index)
{
	/* §7.4.1: circular; T55: 2^(log_wq_sz + log_wq_stride) bytes; T55 page_offset in
	 * page_size/64 quanta; T138 pas[] page addresses. */
	uint64_t strides = 1ull << wq->log_size;
	return byte_addr(wq, ((uint64_t)index & (strides - 1)) << wq->log_stride);
}

int wq_read(struct nicref_dev *dev, const struct wq *wq, uint32_t index, uint32_t off, void *buf,
	    size_t len)
{
	uint8_t *p = buf;
	uint64_t size = 1ull << (wq->log_size + wq->log_stride);
	uint64_t b = ((((uint64_t)index & ((1ull << wq->log_size) - 1)) << wq->log_stride) + off) %
		     size;
	while (len) {
		/* Contiguous up to the end of the page (pas[] entries are separate pages) and of
		 * the queue (then it wraps to stride 0, §7.4.1.1 Figure 14). */
		uint64_t n = wq->page_size - in_page(wq, wq->first_off + b);
		if (n > size - b)
			n = size - b;
		if (n > len)
			n = len;
		if (dev_dma_read(dev, byte_addr(wq, b), p, (size_t)n))
			return -1;
		p += n;
		len -= (size_t)n;
		b = (b + n) % size;
	}
	return 0;
}

int wq_dbr_read(struct nicref_dev *dev, const struct wq *wq, bool send, uint16_t *counter)
{
	/* T24: receive counter at 00h, send counter at 04h, each in bits 15:0 (D-DB-1). */
	uint8_t rec[4];
	if (dev_dma_read(dev, wq->dbr_addr + (send ? 4 : 0), rec, sizeof rec))
		return -1;
	*counter = (uint16_t)(rec[2] << 8 | rec[3]);
	return 0;
}

/* ---- CREATE: the WQ ----------------------------------------------------------------------- */

#define WQ_IN_CMD (WQ_CTX_OFF + WQ_IN_CTX)          /* the WQ in a CREATE input: 50h */
#define PAS_IN_CMD (WQ_CTX_OFF + WQ_CTX_BYTES)       /* pas[0]: 110h */
#define WQ_MAX_PAS (1u << 20)                        /* beyond any input a mailbox chain holds */

void wq_free(struct nicref_dev *dev, struct wq *w)
{
	for (unsigned i = 0; i < 2; i++) /* D-UMEM-7: the UMEMs it kept */
		if (w->umem_hdr[i])
			w->umem_hdr[i]->refs--;
	w->umem_hdr[0] = w->umem_hdr[1] = NULL;
	dev_free(dev, w->pas);
	w->pas = NULL;
	w->npas = 0;
}

enum nicref_cmd_rule wq_parse(struct cmd_ctx *c, const struct wq_rules *r, struct wq *w)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *q = c->in + WQ_IN_CMD;
	size_t ql = c->in_len > WQ_IN_CMD ? c->in_len - WQ_IN_CMD : 0;
	unsigned type = (unsigned)PRM_GET(wq, wq_type, q, ql);
	unsigned stride = (unsigned)PRM_GET(wq, log_wq_stride, q, ql);
	unsigned log_sz = (unsigned)PRM_GET(wq, log_wq_sz, q, ql);
	unsigned log_pg = (unsigned)PRM_GET(wq, log_wq_pg_sz, q, ql);
	uint64_t dbr = PRM_GET(wq, dbr_addr_63_32, q, ql) << 32 | PRM_GET(wq, dbr_addr_31_0, q, ql);

	memset(w, 0, sizeof *w);
	/* T55 00h[31:28]: 0 linked list, 1 cyclic; "Send Queue WQ must be set to 1". */
	if (type > 1 || (r->kind == WQ_KIND_SQ && type != 1))
		return NICREF_RULE_WQ_TYPE_BAD;
	/* T55 00h[27]: a signature is checked only where the device offers it (T145). */
	if (PRM_GET(wq, wq_signature, q, ql) && !CAPS_CUR(dev, CAP_GENERAL, hca_cap, wq_signature))
		return NICREF_RULE_WQ_SIGNATURE_UNSUPPORTED;
	/* T55 00h[26:25]: 0 NONE, 1 ALIGN, "other reserved"; ALIGN needs HCA_CAP.end_pad. */
	if (r->kind != WQ_KIND_SQ) {
		unsigned pad = (unsigned)PRM_GET(wq, end_padding_mode, q, ql);
		if (pad > 1 || (pad == 1 && !CAPS_CUR(dev, CAP_GENERAL, hca_cap, end_pad)))
			return NICREF_RULE_WQ_END_PAD_BAD;
	}
	/* T55 20h[19:16] within T145 74h's range for the queue type (an SQ's is the 64-byte
	 * WQEBB, §7.4.1.1; an RQ's 16 B * 2^k, §7.4.1.2). */
	if (stride < r->min_log_stride || stride > r->max_log_stride)
		return NICREF_RULE_WQ_STRIDE_RANGE;
	/* T55 20h[4:0] "log_wq_sz must be less than HCA_CAP.log_max_wq_size" (T145 78h
	 * log_max_wq_sz), as written (D-WQ-1): the record's counters are 16 bits (T24, §7.4.1
	 * "wraps around 0xFFFF"), so at the default cap 16 a queue of 2^16 strides could not tell
	 * 65,536 posted WQEs from none. */
	if (log_sz >= CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_wq_sz))
		return NICREF_RULE_WQ_SIZE_EXCEEDS_CAP;
	w->type = (uint8_t)type;
	w->log_stride = (uint8_t)stride;
	w->log_size = (uint8_t)log_sz;
	w->page_size = 4096ull << log_pg; /* T55 20h[12:8]: 4 KB units */
	w->first_off = PRM_GET(wq, page_offset, q, ql) * (w->page_size / 64);
	/* §7.4.1 L2042: "The buffer must be aligned on WQEBB/Stride (the larger of the two); RQ
	 * must be aligned to 64B": page_offset quanta are >= 64 B, so the stride decides. */
	if (w->first_off % (1ull << stride))
		return NICREF_RULE_WQ_BUFFER_MISALIGNED;
	/* §7.4.2: "DB records are aligned on a 4 byte boundary". */
	if (dbr & 3)
		return NICREF_RULE_WQ_DBR_MISALIGNED;
	/* Beyond PRM Rev 0.40 (mlx5_ifc.h wq_bits; D-UMEM-7): the record at dbr_addr of a UMEM,
	 * the buffer at wq_umem_offset of a UMEM (then no pas[]). */
	if (PRM_GET(wq_umem, dbr_umem_valid, q, ql)) {
		uint32_t id = (uint32_t)PRM_GET(wq_umem, dbr_umem_id, q, ql);
		enum nicref_cmd_rule rr = umem_record(dev, id, dbr, 8, &dbr); /* §7.4.2: RQ, SQ words */
		if (rr != NICREF_RULE_NONE)
			return rr;
		if (dbr & 3)
			return NICREF_RULE_WQ_DBR_MISALIGNED;
		w->dbr_umem = id;
	}
	w->dbr_addr = dbr;
	if (PRM_GET(wq_umem, wq_umem_valid, q, ql)) {
		uint32_t id = (uint32_t)PRM_GET(wq_umem, wq_umem_id, q, ql);
		struct qbuf b;
		w->page_size = 4096; /* the UMEM's 4 KB pages; page_offset in 64-byte quanta of one */
		w->first_off = PRM_GET(wq, page_offset, q, ql) * 64;
		enum nicref_cmd_rule rr = umem_qbuf(dev, id, PRM_GET(wq_umem, wq_umem_offset, q, ql),
						    w->first_off + (1ull << (log_sz + stride)), &b);
		if (rr != NICREF_RULE_NONE)
			return rr;
		w->pas = b.pas;
		w->npas = b.npas;
		w->buf_umem = id;
		w->umem_hdr[0] = obj_get(dev, OBJ_UMEM, id);
		w->umem_hdr[0]->refs++;
		if (w->dbr_umem) {
			w->umem_hdr[1] = obj_get(dev, OBJ_UMEM, w->dbr_umem);
			w->umem_hdr[1]->refs++;
		}
		return NICREF_RULE_NONE;
	}
	/* T55 C0h: pas[] maps the queue, page_offset included. */
	uint64_t bytes = 1ull << (log_sz + stride);
	uint64_t npas = (w->first_off + bytes + w->page_size - 1) / w->page_size;
	size_t avail = c->input_length < c->in_len ? c->input_length : c->in_len;
	if (npas > WQ_MAX_PAS || avail < PAS_IN_CMD || (avail - PAS_IN_CMD) / 8 < npas)
		return NICREF_RULE_WQ_PAS_SHORT;
	for (uint32_t i = 0; i < npas; i++) {
		/* T138: pa_l[11:0] reserved (D-CMD-8). */
		enum nicref_cmd_rule rr = cmd_check_reserved(c, &nicref_layout_cmd_pas,
							     PAS_IN_CMD + 8 * (size_t)i);
		if (rr != NICREF_RULE_NONE)
			return rr;
	}
	w->pas = dev_calloc(dev, (size_t)npas, sizeof *w->pas);
	if (!w->pas)
		return NICREF_RULE_OBJ_NO_MEMORY;
	const struct nicref_field *pas = PRM_FIELD(create_sq_in, pas);
	for (uint32_t i = 0; i < npas; i++) {
		struct nicref_field e = nicref_field_element(pas, i);
		w->pas[i] = prm_get(c->in, c->in_len, &e) & ~0xFFFull;
	}
	w->npas = (uint32_t)npas;
	if (w->dbr_umem) {
		w->umem_hdr[1] = obj_get(dev, OBJ_UMEM, w->dbr_umem);
		w->umem_hdr[1]->refs++;
	}
	return NICREF_RULE_NONE;
}

void wq_ctx_store(uint8_t ctx[WQ_CTX_BYTES], const struct nicref_layout *l, const uint8_t *in,
		  size_t in_len)
{
	/* Field by field: what the layout does not name (reserved, query-only) stays 0. */
	memset(ctx, 0, WQ_CTX_BYTES);
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		if (f->flags & NICREF_FIELD_ARRAY || f->bit_offset < WQ_CTX_OFF * 8 ||
		    f->bit_width > 64)
			continue;
		uint64_t v = 0;
		if (nicref_bits_get(in, in_len, f->bit_offset, f->bit_width, &v) == 0)
			(void)nicref_bits_set(ctx, WQ_CTX_BYTES, f->bit_offset - WQ_CTX_OFF * 8,
					      f->bit_width, v);
	}
}

void wq_query_out(struct cmd_ctx *c, const uint8_t ctx[WQ_CTX_BYTES], const struct wq *w,
		  uint8_t state)
{
	size_t len = c->out_len < c->output_length ? c->out_len : c->output_length;
	if (len < PAS_IN_CMD)
		return; /* dispatch guarantees the fixed part (T329/T346/T380: 110h) */
	memcpy(c->out + WQ_CTX_OFF, ctx, WQ_CTX_BYTES);
	/* The state, and T55 18h/1Ch "available through the QUERY commands only". The rows sit
	 * at the same place in the three contexts (T60/T52/T64 00h[23:20], WQ at 30h). */
	PRM_SET(query_sq_out, state, c->out, len, state);
	if (w) {
		PRM_SET(query_sq_out, hw_counter, c->out, len, w->hw_counter);
		PRM_SET(query_sq_out, sw_counter, c->out, len, w->sw_counter);
		const struct nicref_field *pas = PRM_FIELD(query_sq_out, pas);
		uint64_t room = (len - PAS_IN_CMD) / 8;
		for (uint32_t i = 0; i < w->npas && i < room; i++) {
			struct nicref_field e = nicref_field_element(pas, i);
			prm_set(c->out, len, &e, w->pas[i]);
		}
	}
}

enum nicref_cmd_rule wq_reserved_field(struct cmd_ctx *c, const struct nicref_layout *l, unsigned field)
{
	const struct nicref_field *f = &l->fields[field];
	uint64_t v = prm_get(c->in, c->in_len, f);
	if (!v || f->bit_width > 32)
		return NICREF_RULE_NONE;
	/* As dispatch reports reserved bits (D-CMD-8): the dword's offset and its bits. */
	dev_violation(c->dev, NICREF_VIO_CMD_RESERVED_NOT_ZERO,
		      (uint64_t)f->prm_offset << 32 | (uint32_t)(v << f->lsb));
	return c->dev->core.cfg.profile.reserved_check ? NICREF_RULE_RESERVED_NOT_ZERO
						  : NICREF_RULE_NONE;
}

void wq_ref(struct nicref_dev *dev, enum obj_type t, uint32_t h)
{
	struct obj_hdr *o = obj_get(dev, t, h);
	NICREF_ASSERT(o); /* checked by the create */
	o->refs++;
}

void wq_unref(struct nicref_dev *dev, enum obj_type t, uint32_t h)
{
	struct obj_hdr *o = obj_get(dev, t, h);
	NICREF_ASSERT(o && o->refs > 0); /* held since the create (D-OBJ-1) */
	o->refs--;
}

/* ---- State machines and events ------------------------------------------------------------ */

bool wq_transition_ok(enum wq_kind kind, unsigned from, unsigned to)
{
	if (kind == WQ_KIND_RMP) /* T66 and §7.10.1: RDY2RDY is the only command transition */
		return from == WQ_RDY && to == WQ_RDY;
	/* D-SQ-1 (Figures 16/17, T56/T62 columns): RST2RDY, RDY2RDY, RDY2ERR, 2RST. */
	switch (to) {
	case WQ_RST:
		return true;
	case WQ_RDY:
		return from == WQ_RST || from == WQ_RDY;
	case WQ_ERR:
		return from == WQ_RDY;
	default:
		return false;
	}
}

void wq_set_state(struct nicref_dev *dev, enum wq_kind kind, uint32_t num, uint8_t *state,
		  uint8_t to, enum wq_cause cause)
{
	if (*state == to)
		return;
	/* An RQ leaving RDY completes its LRO sessions first, while it can still take their CQEs
	 * (PRM §3.3.6.3, §7.7.2; D-LRO-10). */
	if (kind == WQ_KIND_RQ && *state == WQ_RDY)
		dev_notify(dev, DEV_NOTE_RQ_LEAVES_RDY, num);
	uint64_t a[5] = { kind, num, *state, to, cause };
	*state = to;
	dev_emit(dev, NICREF_EV_WQ_STATE, a, 5);
}

void wq_post_event(struct nicref_dev *dev, enum eq_event ev, uint8_t qtype, uint32_t num)
{
	/* T82/T83, event_data (EQE 20h-3Bh): 14h[31:24] type (1 RQ, 2 SQ; 0 for the RMP events,
	 * which name an RMP, D-EV-1), 18h[23:0] the queue number. */
	uint8_t eqe[EQE_SIZE] = { 0 };
	PRM_SET(eqe_wq, type, eqe, sizeof eqe, qtype);
	PRM_SET(eqe_wq, rqn_sqn, eqe, sizeof eqe, num & 0xFFFFFF);
	eq_post_event(dev, ev, eqe);
}

int wq_flush_cqe(struct nicref_dev *dev, uint32_t cqn, bool send, uint16_t wqe_counter,
		 uint8_t wqe_opcode, uint32_t user_index)
{
	/* T73/T74 error CQE (positions of T67, PRM §7.12.1.1): 20h[23:0] user_index (reserved
	 * with cqe_version 0, T68), 34h[7:0] syndrome 0x5 Work_Request_Flushed_Error,
	 * 38h[31:24] s_wqe_opcode (requester only, T68), 3Ch[31:16] wqe_counter, 3Ch[7:4]
	 * opcode 13 requester error / 14 responder error (T68). cq_post adds signature and
	 * owner. */
	uint8_t cqe[64] = { 0 };
	if (CAPS_CUR(dev, CAP_GENERAL, hca_cap, cqe_version) == 1)
		PRM_SET(err_cqe, srqn_user_index, cqe, sizeof cqe, user_index & 0xFFFFFF);
	PRM_SET(err_cqe, syndrome, cqe, sizeof cqe, 0x05);
	if (send)
		PRM_SET(err_cqe, s_wqe_opcode, cqe, sizeof cqe, wqe_opcode);
	PRM_SET(err_cqe, wqe_counter, cqe, sizeof cqe, wqe_counter);
	PRM_SET(err_cqe, opcode, cqe, sizeof cqe, send ? 13 : 14);
	return cq_post(dev, cqn, cqe);
}
