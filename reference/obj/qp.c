/* Queue pairs: CREATE_QP, DESTROY_QP, QUERY_QP, the QPN space and the references a QP holds
 * (issue 17 stage 1; beyond PRM Rev 0.40: the public mlx5 interface, docs/roce.md). The
 * transitions are in obj/qp_modify.c, the GID table in obj/roce_addr.c.
 * Sources as docs/roce.md names them: [IFC] Linux include/linux/mlx5/mlx5_ifc.h, [QPH]
 * include/linux/mlx5/qp.h, [IBTA] IB Architecture Spec. Vol. 1, [S004] seed 004 by line. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/obj_walk.h"

/* [S004] L42: "4096 QPs (含QP0/QP1管理通道)" — the standard engine's count, QP0/QP1 included. */
#define SEED004_LOG_QPS 12
/* D-QP-3: QP0 and QP1 are never handed out ([S004] L44: reserved for the management
 * channels; mlx5 creates its QP0/QP1 by type, not by number). */
#define QPN_BASE 2u
/* [IFC] create_qp_in pas[] */
#define QP_PAS_OFF 0x110u

static unsigned qp_log_count(const struct nicref_profile *p)
{
	unsigned log = p->roce_profile == ROCE_PROFILE_SEED004 ? SEED004_LOG_QPS
							       : p->log_max_objects;
	return log < OBJTAB_MAX_LOG ? log : OBJTAB_MAX_LOG; /* [IFC] qpn is 24 bits */
}

uint32_t qp_table_capacity(const struct nicref_profile *p)
{
	return 1u << qp_log_count(p);
}

void qp_open_table(struct nicref_dev *dev)
{
	/* QPNs [2, 2^log): the count includes the two reserved numbers ([S004] L42). */
	objtab_reset(&dev->obj[OBJ_QP], QPN_BASE, 1u << qp_log_count(&dev->core.cfg.profile), NULL,
		     NULL);
}

void qp_copy_field(uint8_t *dst, const uint8_t *src, size_t src_len, unsigned i)
{
	const struct nicref_field *f = &nicref_layout_qpc.fields[i];
	uint8_t b[16];
	if (f->bit_width <= 64) {
		uint64_t v = 0;
		if (nicref_field_get(src, src_len, f, &v) == 0)
			(void)nicref_field_set(dst, QP_CTX_BYTES, f, v);
	} else if (f->bit_width / 8 <= sizeof b &&
		   nicref_field_get_bytes(src, src_len, f, b, f->bit_width / 8) == 0) {
		(void)nicref_field_set_bytes(dst, QP_CTX_BYTES, f, b, f->bit_width / 8);
	}
}

struct qp *qp_named(struct nicref_dev *dev, uint32_t qpn, enum nicref_cmd_rule *r)
{
	return obj_find(dev, OBJ_QP, qpn, NICREF_RULE_QP_INDEX_OUT_OF_RANGE,
			NICREF_RULE_QP_NOT_FOUND, r);
}

void qp_ref(struct nicref_dev *dev, enum obj_type t, uint32_t h)
{
	struct obj_hdr *o = obj_get(dev, t, h);
	NICREF_ASSERT(o); /* checked by the create */
	o->refs++;
}

void qp_unref(struct nicref_dev *dev, enum obj_type t, uint32_t h)
{
	struct obj_hdr *o = obj_get(dev, t, h);
	NICREF_ASSERT(o && o->refs > 0); /* held since the create (D-OBJ-1) */
	o->refs--;
}

void qp_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	const struct qp *qp = o;
	visit(ctx, OBJ_PD, qp->pd);
	visit(ctx, OBJ_UAR, qp->uar);
	if (qp->holds & QP_HOLDS_CQ_SND)
		visit(ctx, OBJ_CQ, qp->cqn_snd);
	if (qp->holds & QP_HOLDS_CQ_RCV)
		visit(ctx, OBJ_CQ, qp->cqn_rcv);
	if (qp->holds & QP_HOLDS_RMP)
		visit(ctx, OBJ_RMP, qp->rmpn);
}

void qp_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_QP, qp_obj_refs, visit, ctx);
}

/* [QPH] MLX5_QP_ST_*: RC, UC, UD under connectx; RC and UD under seed004 ([S004] L33-37:
 * "RC ... Send / Receive(partial) / Write", "UD ... Send / Receive") (D-QP-5). */
static bool st_modelled(const struct nicref_dev *dev, unsigned st)
{
	if (st == QP_ST_RC || st == QP_ST_UD)
		return true;
	return st == QP_ST_UC && dev->core.cfg.profile.roce_profile == ROCE_PROFILE_CONNECTX;
}

/* The qpc field f of a command input whose qpc is at QP_CTX_OFF. */
#define QPC_IN(c, n) prm_get((c)->in + QP_CTX_OFF, (c)->in_len - QP_CTX_OFF, PRM_FIELD(qpc, n))

/* [IFC] qpc rq_type: 0 a regular RQ, 1 an SRQ (srqn_rmpn_xrqn names the RMP), 2 a CRQ,
 * 3 no RQ (zero length). */
enum { RQ_TYPE_SRQ = 1, RQ_TYPE_ZERO = 3 };

/* The objects a new QP names must exist ([IBTA] §11.2.4.1: Create QP takes the PD and the
 * CQs; [IFC] qpc pd, cqn_snd, cqn_rcv, srqn_rmpn_xrqn, uar_page). A CQ number 0 of a QP with
 * no SQ (no_sq) or no RQ (rq_type 3) names nothing. */
static enum nicref_cmd_rule create_refs(struct cmd_ctx *c, struct qp *q)
{
	struct nicref_dev *dev = c->dev;
	unsigned rq_type = (unsigned)QPC_IN(c, rq_type);
	q->pd = (uint32_t)QPC_IN(c, pd);
	q->uar = (uint32_t)QPC_IN(c, uar_page);
	q->cqn_snd = (uint32_t)QPC_IN(c, cqn_snd);
	q->cqn_rcv = (uint32_t)QPC_IN(c, cqn_rcv);
	q->rmpn = (uint32_t)QPC_IN(c, srqn_rmpn_xrqn);
	if (!(QPC_IN(c, no_sq) && q->cqn_snd == 0))
		q->holds |= QP_HOLDS_CQ_SND;
	if (!(rq_type == RQ_TYPE_ZERO && q->cqn_rcv == 0))
		q->holds |= QP_HOLDS_CQ_RCV;
	if (rq_type == RQ_TYPE_SRQ)
		q->holds |= QP_HOLDS_RMP;
	/* D-OBJ-2: a handle outside its table is BAD_INDEX, one in range not live BAD_RESOURCE. */
	enum nicref_cmd_rule r = NICREF_RULE_NONE;
	if (obj_find(dev, OBJ_PD, q->pd, NICREF_RULE_QP_PD_OUT_OF_RANGE, NICREF_RULE_QP_PD_MISSING,
		     &r) &&
	    (!(q->holds & QP_HOLDS_CQ_SND) ||
	     obj_find(dev, OBJ_CQ, q->cqn_snd, NICREF_RULE_QP_CQ_OUT_OF_RANGE,
		      NICREF_RULE_QP_CQ_MISSING, &r)) &&
	    (!(q->holds & QP_HOLDS_CQ_RCV) ||
	     obj_find(dev, OBJ_CQ, q->cqn_rcv, NICREF_RULE_QP_CQ_OUT_OF_RANGE,
		      NICREF_RULE_QP_CQ_MISSING, &r)) &&
	    (!(q->holds & QP_HOLDS_RMP) ||
	     obj_find(dev, OBJ_RMP, q->rmpn, NICREF_RULE_QP_RMP_OUT_OF_RANGE,
		      NICREF_RULE_QP_RMP_MISSING, &r)))
		(void)obj_find(dev, OBJ_UAR, q->uar, NICREF_RULE_QP_UAR_OUT_OF_RANGE,
			       NICREF_RULE_QP_UAR_MISSING, &r);
	return r;
}

static void hold_refs(struct nicref_dev *dev, const struct qp *q, bool take)
{
	void (*op)(struct nicref_dev *, enum obj_type, uint32_t) = take ? qp_ref : qp_unref;
	op(dev, OBJ_PD, q->pd);
	op(dev, OBJ_UAR, q->uar);
	if (q->holds & QP_HOLDS_CQ_SND)
		op(dev, OBJ_CQ, q->cqn_snd);
	if (q->holds & QP_HOLDS_CQ_RCV)
		op(dev, OBJ_CQ, q->cqn_rcv);
	if (q->holds & QP_HOLDS_RMP)
		op(dev, OBJ_RMP, q->rmpn);
}

int64_t qp_sq_alloc(struct nicref_dev *dev, enum obj_type type, void *obj)
{
	/* D-ROCE-2: a number live in the other table is held here by a stand-in (the table's own
	 * address, never an object) until the lowest number free in both is found; the stand-ins
	 * are then released. They lie among the other table's live numbers, which are walked to
	 * find them: the cost is the numbers skipped. */
	struct objtab *own = &dev->obj[type];
	const struct objtab *other = &dev->obj[type == OBJ_QP ? OBJ_SQ : OBJ_QP];
	int64_t h, first_skip = -1;
	uint32_t skipped = 0;
	while ((h = objtab_alloc(own, obj)) >= 0 && objtab_get(other, (uint32_t)h)) {
		objtab_remove(own, (uint32_t)h);
		(void)objtab_alloc(own, own); /* the same number again: it is the lowest free */
		if (first_skip < 0)
			first_skip = h;
		skipped++;
	}
	void *o;
	for (int64_t k = first_skip; skipped && k >= 0; k = objtab_next(other, (uint32_t)k + 1, &o))
		if (objtab_get(own, (uint32_t)k) == own) {
			objtab_remove(own, (uint32_t)k);
			skipped--;
		}
	return h;
}

/* The QP's buffer: the RQ (a regular one, rq_type 0) then the SQ (unless no_sq), from
 * page_offset (in page_size / 64 units, as a WQ's, PRM T55) of pages of 4 KB << log_page_size
 * ([IFC] qpc; the mlx5 driver writes them so): the pages it takes. */
static uint32_t pas_count(const struct cmd_ctx *c)
{
	uint64_t page = 4096ull << QPC_IN(c, log_page_size);
	uint64_t bytes = QPC_IN(c, page_offset) * (page / 64);
	if (QPC_IN(c, rq_type) == 0)
		bytes += (1ull << QPC_IN(c, log_rq_size)) << (QPC_IN(c, log_rq_stride) + 4);
	if (!QPC_IN(c, no_sq))
		bytes += (1ull << QPC_IN(c, log_sq_size)) * 64;
	return (uint32_t)((bytes + page - 1) / page);
}

/* The pas[] entries the input holds (input_length, as D-WQ-6 counts a WQ's). */
static size_t pas_given(const struct cmd_ctx *c)
{
	size_t avail = c->input_length < c->in_len ? c->input_length : c->in_len;
	return avail > QP_PAS_OFF ? (avail - QP_PAS_OFF) / 8 : 0;
}

/* The pages, from the input's pas[] (it holds them all: QP_PAS_SHORT). */
static void take_pas(const struct cmd_ctx *c, struct qp *q)
{
	for (uint32_t i = 0; i < q->npas; i++)
		q->pas[i] = ((uint64_t)prm_be32(c->in + QP_PAS_OFF + 8 * i) << 32 |
			     prm_be32(c->in + QP_PAS_OFF + 8 * i + 4)) &
			    ~0xFFFull;
}

void qp_dev_release(struct nicref_dev *dev)
{
	(void)dev; /* pas[] goes with its QP (D-QP-13) */
}

void qp_state_changed(struct nicref_dev *dev, struct qp *q, uint8_t from)
{
	uint64_t a[4] = { q->hdr.handle, from, q->state, 0 };
	dev_emit(dev, NICREF_EV_QP_STATE, a, 4);
	dev_notify(dev, DEV_NOTE_QP_MODIFY, q->hdr.handle);
}

enum nicref_cmd_rule cmd_create_qp(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	unsigned st = (unsigned)QPC_IN(c, st);
	if (!st_modelled(dev, st))
		return NICREF_RULE_QP_ST_UNSUPPORTED;
	/* The SQ and RQ sizes: at most HCA_CAP.log_max_wq_sz (T145 78h; the model's
	 * log_max_qp_sz, D-QP-15). */
	uint64_t max = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_wq_sz);
	if (QPC_IN(c, log_sq_size) > max || QPC_IN(c, log_rq_size) > max)
		return NICREF_RULE_QP_SIZE_EXCEEDS_CAP;
	if (QPC_IN(c, rq_type) > RQ_TYPE_ZERO)
		return NICREF_RULE_QP_RQ_TYPE_BAD;
	/* D-QP-12, D-WQ-6: the transport reads the buffer the pages map (D-ROCE-4), so the input
	 * holds a page address for every page the sizes imply; fewer is a short input (T128
	 * BAD_INPUT_LEN), as CREATE_SQ/RQ/RMP answer. */
	uint32_t npas = pas_count(c);
	if (pas_given(c) < npas)
		return NICREF_RULE_QP_PAS_SHORT;
	struct qp tmp = { .st = (uint8_t)st };
	enum nicref_cmd_rule r = create_refs(c, &tmp);
	if (r != NICREF_RULE_NONE)
		return r;
	if (obj_charge(dev, OBJ_QP))
		return NICREF_RULE_ICM_PAGES_SHORT; /* D-PG-4 */
	/* D-QP-13: one heap block, the object and its page list. */
	tmp.npas = npas;
	struct qp *q = dev_malloc(dev, sizeof *q + (size_t)tmp.npas * sizeof q->pas[0]);
	int64_t h = q ? qp_sq_alloc(dev, OBJ_QP, q) : -2;
	if (h < 0) {
		obj_uncharge(dev, OBJ_QP);
		dev_free(dev, q);
		return h == -1 ? NICREF_RULE_QP_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	*q = tmp;
	take_pas(c, q);
	q->hdr.handle = (uint32_t)h;
	/* D-QP-6: [IBTA] §10.3: a created QP is in Reset, whatever the input's state says. */
	q->state = QP_RST;
	/* Field by field: what the qpc does not name (reserved bits, kept by a permissive
	 * profile, D-CMD-8) stays 0. */
	memset(q->ctx, 0, QP_CTX_BYTES);
	for (unsigned i = 0; i < nicref_layout_qpc.nfields; i++)
		qp_copy_field(q->ctx, c->in + QP_CTX_OFF, c->in_len - QP_CTX_OFF, i);
	PRM_SET(qpc, state, q->ctx, QP_CTX_BYTES, QP_RST);
	hold_refs(dev, q, true);
	PRM_SET(create_qp_out, qpn, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_destroy_qp(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint32_t qpn = (uint32_t)PRM_GET(destroy_qp_in, qpn, c->in, c->in_len);
	enum nicref_cmd_rule r;
	struct qp *q = qp_named(dev, qpn, &r);
	if (!q)
		return r;
	/* [IBTA] §11.2.4.4 Destroy QP: from any state. The transport lets its state go first. */
	dev_notify(dev, DEV_NOTE_QP_DESTROY, qpn);
	hold_refs(dev, q, false);
	objtab_remove(&dev->obj[OBJ_QP], qpn);
	obj_uncharge(dev, OBJ_QP);
	dev_free(dev, q);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_qp(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r;
	struct qp *q = qp_named(c->dev, (uint32_t)PRM_GET(query_qp_in, qpn, c->in, c->in_len), &r);
	if (!q)
		return r;
	/* D-QP-12: the context as stored with the current state; opt_param_mask 0, no pas.
	 * Dispatch guarantees the fixed part of query_qp_out. */
	memcpy(c->out + QP_CTX_OFF, q->ctx, QP_CTX_BYTES);
	PRM_SET(query_qp_out, state, c->out, c->out_len, q->state);
	return NICREF_RULE_NONE;
}
