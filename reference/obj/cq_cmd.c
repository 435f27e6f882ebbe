/* CQ commands (PRM §12.7): CREATE_CQ, DESTROY_CQ, QUERY_CQ and MODIFY_CQ (moderation, oi and
 * EQ remapping with op_mod 0, resize with op_mod 1: §7.12.6, §7.12.9). Decisions: docs/cq.md. */
#include <stdlib.h>

#include "obj/eq_qbuf.h"
#include "obj/umem.h"

#define CAP(n) CAPS_CUR(dev, CAP_GENERAL, hca_cap, n)
#define LOG_CQ_SIZE_MAX 22u /* T76: "max log_cq_size is 22" */

/* Context fields as both CREATE_CQ (cqc_sw at 10h) and MODIFY_CQ (cqc at 10h) carry them. */
struct cqc_in {
	uint64_t cqe_sz, cc, scqe_break, oi, period_mode, compression, mini_fmt, page_offset;
	uint64_t log_size, uar, period, max_count, c_eqn, log_page_size, consumer, dbr;
};

static struct cqc_in read_create(const struct cmd_ctx *c)
{
#define G(n) PRM_GET(create_cq_in, n, c->in, c->in_len)
	return (struct cqc_in){ G(cqe_sz),	   G(cc),	   G(scqe_break_moderation_en),
				G(oi),		   G(cq_period_mode), G(cqe_compression_en),
				G(mini_cqe_res_format), G(page_offset), G(log_cq_size),
				G(uar_page),	   G(cq_period),   G(cq_max_count),
				G(c_eqn),	   G(log_page_size), G(consumer_counter),
				G(dbr_addr) };
#undef G
}

static struct cqc_in read_modify(const struct cmd_ctx *c)
{
#define G(n) PRM_GET(modify_cq_in, n, c->in, c->in_len)
	return (struct cqc_in){ G(cqe_sz),	   G(cc),	   G(scqe_break_moderation_en),
				G(oi),		   G(cq_period_mode), G(cqe_compression_en),
				G(mini_cqe_res_format), G(page_offset), G(log_cq_size),
				G(uar_page),	   G(cq_period),   G(cq_max_count),
				G(c_eqn),	   G(log_page_size), G(consumer_counter),
				G(dbr_addr) };
#undef G
}

static uint64_t log_cq_size_max(const struct nicref_dev *dev)
{
	/* T76 (22) and HCA_CAP.log_max_cq_sz (T145 18h[23:16], §7.12), whichever is smaller. */
	uint64_t cap = CAP(log_max_cq_sz);
	return cap < LOG_CQ_SIZE_MAX ? cap : LOG_CQ_SIZE_MAX;
}

/* The CQE size rules of T76, for CREATE_CQ and resize. */
static enum nicref_cmd_rule check_cqe_format(const struct cqc_in *x)
{
	if (x->cqe_sz > 1) /* T76 cqe_sz: 0 BYTES_64, 1 BYTES_128 */
		return NICREF_RULE_CQ_CQE_SIZE_INVALID;
	if (x->compression && x->cqe_sz == 1) /* "Must be zero when cqe size is 128 byte" */
		return NICREF_RULE_CQ_COMPRESSION_WITH_128B;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_create_cq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	struct cqc_in x = read_create(c);
	enum nicref_cmd_rule rule = check_cqe_format(&x);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T76 mini_cqe_res_format: 0 or 1, "valid only when cqe_compression==1". */
	if (x.compression && x.mini_fmt > 1)
		return NICREF_RULE_CQ_MINI_CQE_FORMAT_INVALID;
	/* T76 cq_period_mode: 0 upon_event; 1 upon_cqe "Supported only when
	 * HCA_CAP.cq_period_start_from_cqe==1"; others undefined. */
	if (x.period_mode > 1 || (x.period_mode == 1 && !CAP(cq_period_start_from_cqe)))
		return NICREF_RULE_CQ_PERIOD_MODE_UNSUPPORTED;
	/* T76: "Supported only if HCA_CAP.scqe_break_moderation==1". */
	if (x.scqe_break && !CAP(scqe_break_moderation))
		return NICREF_RULE_CQ_SCQE_BREAK_UNSUPPORTED;
	if (x.page_offset != 0) /* T76: "Must be 0" */
		return NICREF_RULE_CQ_PAGE_OFFSET_NOT_ZERO;
	if (x.consumer != 0) /* T76: "Must be 0x0 in CQ initialization" */
		return NICREF_RULE_CQ_CONSUMER_COUNTER_NOT_ZERO;
	if (x.dbr & 7u) /* §7.12.2: "CQ Doorbell Records are aligned on an 8B boundary" */
		return NICREF_RULE_CQ_DBR_NOT_ALIGNED;
	if (x.log_size > log_cq_size_max(dev)) /* D-EQ-7 */
		return NICREF_RULE_CQ_LOG_SIZE_BEYOND_CAP;
	/* T76 c_eqn: "EQ this CQ reports completion events to"; uar_page as for the EQ. D-OBJ-2:
	 * BAD_INDEX outside the EQ numbers (0 to 2^log_max_eq - 1), BAD_RESOURCE for one in them
	 * that names no EQ. */
	enum nicref_cmd_rule r;
	if (!obj_find(dev, OBJ_EQ, (uint32_t)x.c_eqn, NICREF_RULE_CQ_EQ_OUT_OF_RANGE,
		      NICREF_RULE_CQ_EQ_NOT_FOUND, &r))
		return r;
	if (!obj_find(dev, OBJ_UAR, (uint32_t)x.uar, NICREF_RULE_CQ_UAR_OUT_OF_RANGE,
		      NICREF_RULE_CQ_UAR_NOT_ALLOCATED, &r))
		return r; /* D-OBJ-2: BAD_INDEX beyond the UAR area */
	const struct objtab *tab = &dev->obj[OBJ_CQ];
	if (tab->nlive >= tab->limit - tab->base) /* T145 log_max_cq */
		return NICREF_RULE_CQ_EXHAUSTED;

	/* Beyond PRM Rev 0.40 (mlx5_ifc.h; docs/umem.md D-UMEM-5/6): the record at dbr_addr of a
	 * UMEM when dbr_umem_valid, the buffer at cq_umem_offset of a UMEM (no pas[]) when
	 * cq_umem_valid. */
	uint32_t dbr_umem = 0, buf_umem = 0;
	uint64_t dbr = x.dbr;
	if (PRM_GET(create_cq_in, dbr_umem_valid, c->in, c->in_len)) {
		dbr_umem = (uint32_t)PRM_GET(create_cq_in, dbr_umem_id, c->in, c->in_len);
		rule = umem_record(dev, dbr_umem, x.dbr, 8, &dbr); /* T69: 8 bytes */
		if (rule != NICREF_RULE_NONE)
			return rule;
		if (dbr & 7u) /* §7.12.2, where the record really is */
			return NICREF_RULE_CQ_DBR_NOT_ALIGNED;
	}
	struct qbuf buf;
	uint64_t bytes = (uint64_t)(x.cqe_sz ? 128u : 64u) << x.log_size;
	if (PRM_GET(create_cq_in, cq_umem_valid, c->in, c->in_len)) {
		buf_umem = (uint32_t)PRM_GET(create_cq_in, cq_umem_id, c->in, c->in_len);
		rule = umem_qbuf(dev, buf_umem,
				 PRM_GET(create_cq_in, cq_umem_offset, c->in, c->in_len), bytes, &buf);
	} else {
		rule = qbuf_load(c, 0x110, bytes, (unsigned)x.log_page_size,
				 NICREF_RULE_CQ_PAS_SHORT, NICREF_RULE_CQ_PAS_NOT_ALIGNED, &buf);
	}
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (obj_charge(dev, OBJ_CQ) != 0) { /* D-PG-4 */
		qbuf_free(dev, &buf);
		return NICREF_RULE_ICM_PAGES_SHORT;
	}
	struct cq *cq = dev_calloc(dev, 1, sizeof *cq);
	int64_t cqn = cq ? objtab_alloc(&dev->obj[OBJ_CQ], cq) : -2;
	if (cqn < 0) {
		dev_free(dev, cq);
		qbuf_free(dev, &buf);
		obj_uncharge(dev, OBJ_CQ);
		return cqn == -1 ? NICREF_RULE_CQ_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	cq->hdr.handle = (uint32_t)cqn;
	cq->buf = buf;
	cq->log_size = (uint8_t)x.log_size;
	cq->cqe_sz = (uint8_t)x.cqe_sz;
	cq->cc = x.cc != 0;
	cq->scqe_break = x.scqe_break != 0;
	cq->oi = x.oi != 0;
	cq->period_mode = (uint8_t)x.period_mode;
	cq->compression = x.compression != 0;
	cq->mini_cqe_res_format = (uint8_t)x.mini_fmt;
	cq->uar = (uint32_t)x.uar;
	cq->cq_period = (uint16_t)x.period;
	cq->cq_max_count = (uint16_t)x.max_count;
	cq->c_eqn = (uint8_t)x.c_eqn;
	cq->dbr_addr = dbr;
	cq->dbr_given = x.dbr;
	cq->dbr_umem = dbr_umem;
	cq->buf_umem = buf_umem;
	umem_ref(dev, dbr_umem, 1); /* D-OBJ-1, D-UMEM-5 */
	umem_ref(dev, buf_umem, 1);
	cq->status = CQ_STATUS_OK;
	cq->st = CQ_ST_FIRED; /* D-CQ-3 */
	cq->timer_ns = dev->core.now_ns; /* the cq_period timer starts with the CQ (D-CQ-6) */
	((struct obj_hdr *)obj_get(dev, OBJ_EQ, cq->c_eqn))->refs++; /* D-OBJ-1, D-EQ-1 */
	((struct obj_hdr *)obj_get(dev, OBJ_UAR, cq->uar))->refs++;
	PRM_SET(create_cq_out, cqn, c->out, c->out_len, (uint64_t)cqn);
	return NICREF_RULE_NONE;
}

/* The CQ a command names, or NULL with *r the rule (D-OBJ-2: BAD_INDEX beyond the table). */
static struct cq *cq_of(struct cmd_ctx *c, enum nicref_cmd_rule *r)
{
	/* T265/T269/T273: cqn at 08h[23:0]. */
	return obj_find(c->dev, OBJ_CQ,
			(uint32_t)PRM_GET(destroy_cq_in, cqn, c->in, c->in_len),
			NICREF_RULE_CQ_INDEX_OUT_OF_RANGE, NICREF_RULE_CQ_NOT_FOUND, r);
}

enum nicref_cmd_rule cmd_destroy_cq(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	enum nicref_cmd_rule r;
	struct cq *cq = cq_of(c, &r);
	if (!cq)
		return r;
	if (cq->hdr.refs) /* D-CQ-1: an SQ or RQ still completes to it */
		return NICREF_RULE_CQ_IN_USE;
	cq_timer_drop(dev, cq);
	((struct obj_hdr *)obj_get(dev, OBJ_EQ, cq->c_eqn))->refs--;
	((struct obj_hdr *)obj_get(dev, OBJ_UAR, cq->uar))->refs--;
	umem_ref(dev, cq->dbr_umem, -1);
	umem_ref(dev, cq->buf_umem, -1);
	objtab_remove(&dev->obj[OBJ_CQ], cq->hdr.handle);
	obj_uncharge(dev, OBJ_CQ);
	qbuf_free(dev, &cq->buf);
	dev_free(dev, cq);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_cq(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	const struct cq *cq = cq_of(c, &r);
	if (!cq)
		return r;
	/* §12.7.3: a snapshot of the CQC (T75/T76) and its pages; st, status and the counters are
	 * the device's (D-CQ-11). */
#define OUT(n, v) PRM_SET(query_cq_out, n, c->out, c->out_len, (v))
	OUT(cq_status, cq->status);
	OUT(cqe_sz, cq->cqe_sz);
	OUT(cc, cq->cc);
	OUT(scqe_break_moderation_en, cq->scqe_break);
	OUT(oi, cq->oi);
	OUT(cq_period_mode, cq->period_mode);
	OUT(cqe_compression_en, cq->compression);
	OUT(mini_cqe_res_format, cq->mini_cqe_res_format);
	OUT(st, cq->st);
	OUT(page_offset, 0);
	OUT(log_cq_size, cq->log_size);
	OUT(uar_page, cq->uar);
	OUT(cq_period, cq->cq_period);
	OUT(cq_max_count, cq->cq_max_count);
	OUT(c_eqn, cq->c_eqn);
	OUT(log_page_size, cq->buf.log_page_size);
	OUT(last_notified_index, cq->last_notified);
	OUT(last_solicit_index, cq->last_solicit);
	OUT(consumer_counter, cq->cc_seen);
	OUT(producer_counter, cq->pc);
	OUT(dbr_addr, cq->dbr_given); /* as given: an offset into a UMEM (D-UMEM-6) */
#undef OUT
	qbuf_query(&cq->buf, c, 0x110);
	return NICREF_RULE_NONE;
}

enum { SEL_PERIOD = 1u << 0, SEL_MAX_COUNT = 1u << 1, SEL_OI = 1u << 2, SEL_C_EQN = 1u << 3 };
enum { SEL_LOG_CQ_SIZE = 1u << 0, SEL_PAGE_OFFSET = 1u << 1, SEL_LOG_PAGE_SIZE = 1u << 2 };

/* op_mod 0 (T275): cq_period, cq_max_count, oi, c_eqn, each behind its capability. */
static enum nicref_cmd_rule modify(struct cmd_ctx *c, struct cq *cq, uint32_t sel)
{
	struct nicref_dev *dev = c->dev;
	struct cqc_in x = read_modify(c);
	if (sel & ~(uint32_t)(SEL_PERIOD | SEL_MAX_COUNT | SEL_OI | SEL_C_EQN))
		return NICREF_RULE_CQ_MODIFY_SELECT_UNKNOWN;
	/* T275: "can be modified only if cq_moderation / cq_oi / cq_eq_remap in QUERY_HCA_CAP is
	 * set" (D-CQ-10). */
	if (((sel & (SEL_PERIOD | SEL_MAX_COUNT)) && !CAP(cq_moderation)) ||
	    ((sel & SEL_OI) && !CAP(cq_oi)) || ((sel & SEL_C_EQN) && !CAP(cq_eq_remap)))
		return NICREF_RULE_CQ_MODIFY_NOT_SUPPORTED;
	enum nicref_cmd_rule r;
	if ((sel & SEL_C_EQN) && !obj_find(dev, OBJ_EQ, (uint32_t)x.c_eqn,
					   NICREF_RULE_CQ_EQ_OUT_OF_RANGE,
					   NICREF_RULE_CQ_EQ_NOT_FOUND, &r))
		return r; /* D-OBJ-2, as CREATE_CQ */
	if (sel & SEL_PERIOD)
		cq->cq_period = (uint16_t)x.period;
	if (sel & SEL_MAX_COUNT)
		cq->cq_max_count = (uint16_t)x.max_count;
	if (sel & SEL_OI)
		cq->oi = x.oi != 0;
	if (sel & SEL_C_EQN) {
		/* §7.12.9: the next completion event goes to the new EQ; the references move. */
		((struct obj_hdr *)obj_get(dev, OBJ_EQ, cq->c_eqn))->refs--;
		cq->c_eqn = (uint8_t)x.c_eqn;
		((struct obj_hdr *)obj_get(dev, OBJ_EQ, cq->c_eqn))->refs++;
	}
	/* New moderation parameters apply to an event already held (§7.13.14). */
	cq_moderate(dev, cq);
	return NICREF_RULE_NONE;
}

/* op_mod 1 (§7.12.6, T277): a new buffer, log_cq_size, page_offset, log_page_size. */
static enum nicref_cmd_rule resize(struct cmd_ctx *c, struct cq *cq, uint32_t sel)
{
	struct nicref_dev *dev = c->dev;
	struct cqc_in x = read_modify(c);
	if (!CAP(cq_resize)) /* §7.12.6: "enabled just if resize_cq_en = 1" (T145 cq_resize) */
		return NICREF_RULE_CQ_RESIZE_NOT_SUPPORTED;
	if (sel & ~(uint32_t)(SEL_LOG_CQ_SIZE | SEL_PAGE_OFFSET | SEL_LOG_PAGE_SIZE))
		return NICREF_RULE_CQ_MODIFY_SELECT_UNKNOWN;
	/* Fields not selected keep their value. §7.12.6 also resizes the CQE: cqe_sz goes with
	 * log_cq_size (T277 has no bit of its own; D-CQ-9). */
	struct cqc_in n = { .cqe_sz = cq->cqe_sz, .compression = cq->compression,
			    .log_size = cq->log_size, .log_page_size = cq->buf.log_page_size };
	if (sel & SEL_LOG_CQ_SIZE) {
		n.log_size = x.log_size;
		n.cqe_sz = x.cqe_sz;
	}
	if (sel & SEL_LOG_PAGE_SIZE)
		n.log_page_size = x.log_page_size;
	enum nicref_cmd_rule rule = check_cqe_format(&n);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if ((sel & SEL_PAGE_OFFSET) && x.page_offset != 0) /* T76: "Must be 0" */
		return NICREF_RULE_CQ_PAGE_OFFSET_NOT_ZERO;
	if (n.log_size > log_cq_size_max(dev))
		return NICREF_RULE_CQ_LOG_SIZE_BEYOND_CAP;
	/* T128 BAD_SIZE: "more outstanding CQEs in CQ than new CQ size" - outstanding as the
	 * doorbell record says now (D-CQ-2); the last value seen if the record cannot be read. */
	uint32_t ci = cq->cc_seen;
	if (cq_read_update_ci(dev, cq, &ci) != 0)
		ci = cq->cc_seen;
	uint32_t outstanding = (cq->pc - ci) & CQ_COUNTER_MASK;
	if (outstanding <= (1u << cq->log_size) && outstanding > (1u << n.log_size))
		return NICREF_RULE_CQ_RESIZE_TOO_SMALL;
	struct qbuf buf;
	rule = qbuf_load(c, 0x110, (uint64_t)(n.cqe_sz ? 128u : 64u) << n.log_size,
			 (unsigned)n.log_page_size, NICREF_RULE_CQ_PAS_SHORT,
			 NICREF_RULE_CQ_PAS_NOT_ALIGNED, &buf);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* §7.12.6: the Resize CQE goes to the old buffer; then the device writes the new one at
	 * the same counters ("the process of arming the CQ is unaffected", D-CQ-7). */
	cq_write_resize_cqe(dev, cq, outstanding);
	qbuf_free(dev, &cq->buf);
	cq->buf = buf;
	cq->log_size = (uint8_t)n.log_size;
	cq->cqe_sz = (uint8_t)n.cqe_sz;
	if (outstanding <= (1u << cq->log_size))
		cq->cc_seen = ci;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_modify_cq(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	struct cq *cq = cq_of(c, &r);
	if (!cq)
		return r;
	uint32_t sel = (uint32_t)PRM_GET(modify_cq_in, field_select, c->in, c->in_len);
	/* T273 op_mod: 0 modify_cq, 1 resize_cq (dispatch refused the others). A resize cannot
	 * be nested (§7.12.6), which a device that completes each command before the next
	 * cannot see: RESOURCE_BUSY never arises (D-CQ-13). */
	return c->op_mod == 0 ? modify(c, cq, sel) : resize(c, cq, sel);
}
