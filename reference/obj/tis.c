/* Transport interface send: CREATE_TIS, MODIFY_TIS, DESTROY_TIS, QUERY_TIS (PRM §7.6, §12.9,
 * T49-T51, T298-T313). Decisions: docs/tir.md (D-TIS-*).
 *
 * A TIS holds a priority and names a transport domain; SQs name it (SQC tis_num_0). It has no
 * state field: the "RDY" of T298's prose is nominal and MODIFY_TIS's "TIS current state" input
 * exists in no table (D-TIS-1). */
#include <stdlib.h>

#include "cmd/cmd_table.h"
#include "obj/obj_walk.h"
#include "obj/modify_mask.h"

#define TIS_CTX_OFF 0x20       /* T298/T302: the context at 20h */
#define TIS_QUERY_CTX_OFF 0x10 /* T312/T313: at 10h (D-TIS-2) */

static uint64_t ctx_get(const struct cmd_ctx *c, const struct nicref_field *f)
{
	return c->in_len > TIS_CTX_OFF ? prm_get(c->in + TIS_CTX_OFF, c->in_len - TIS_CTX_OFF, f)
				       : 0;
}
#define TISC_GET(c, n) ctx_get((c), PRM_FIELD(tisc, n))

enum nicref_cmd_rule cmd_create_tis(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	/* T50 24h: the transport domain must be allocated (T128 BAD_RESOURCE). */
	uint32_t tdn = (uint32_t)TISC_GET(c, transport_domain);
	if (!obj_in_range(dev, OBJ_TD, tdn))
		return NICREF_RULE_TIS_TD_OUT_OF_RANGE;
	struct obj_hdr *td = obj_get(dev, OBJ_TD, tdn);
	if (!td)
		return NICREF_RULE_TIS_TD_INVALID;
	/* T145 6Ch[4:0]: at most 2^log_max_tis (D-CMD-7: limits before pages). */
	const struct objtab *tab = &dev->obj[OBJ_TIS];
	if (tab->nlive >= tab->limit - tab->base)
		return NICREF_RULE_TIS_EXHAUSTED;
	if (obj_charge(dev, OBJ_TIS) != 0) /* D-PG-4 */
		return NICREF_RULE_ICM_PAGES_SHORT;
	struct tis *t = dev_calloc(dev, 1, sizeof *t);
	int64_t h = t ? objtab_alloc(&dev->obj[OBJ_TIS], t) : -2;
	if (h < 0) {
		dev_free(dev, t);
		obj_uncharge(dev, OBJ_TIS);
		return h == -1 ? NICREF_RULE_TIS_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	t->hdr.handle = (uint32_t)h;
	t->prio = (uint8_t)TISC_GET(c, prio); /* T51: prio is required at create */
	t->td = tdn;
	td->refs++; /* D-OBJ-1 */
	PRM_SET(create_tis_out, tisn, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

/* The TIS a command names, or the rule refusing it. */
static enum nicref_cmd_rule lookup(struct cmd_ctx *c, uint32_t tisn, struct tis **out)
{
	if (!obj_in_range(c->dev, OBJ_TIS, tisn))
		return NICREF_RULE_TIS_INDEX_OUT_OF_RANGE;
	*out = obj_get(c->dev, OBJ_TIS, tisn);
	return *out ? NICREF_RULE_NONE : NICREF_RULE_TIS_NOT_FOUND;
}

/* §12.9.2 L7525: "MODIFY_TIS is allowed only for TIS when all SQs connected to it are not in
 * ready state". Only when SQs name it are they searched (D-TIS-4). */
static bool ready_sq_attached(const struct nicref_dev *dev, const struct tis *t)
{
	if (t->hdr.refs == 0)
		return false;
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_SQ], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_SQ], (uint32_t)h + 1, &o)) {
		const struct sq *sq = o;
		if (sq->tisn == t->hdr.handle && sq->state == WQ_RDY)
			return true;
	}
	return false;
}

/* T51: prio (bit 0) is the one modifiable field; transport_domain ("NONE") is reserved in a
 * MODIFY_TIS input, and so is prio with bit 0 clear (D-MOD-1). */
static const struct modify_sel tis_modify_sel[] = { { PRMF_modify_tis_in__prio, 0 } };

enum nicref_cmd_rule cmd_modify_tis(struct cmd_ctx *c)
{
	uint64_t mask = PRM_GET(modify_tis_in, modify_bitmask_63_32, c->in, c->in_len) << 32 |
			PRM_GET(modify_tis_in, modify_bitmask_31_0, c->in, c->in_len);
	/* T303 20h: "Only fields requested by the mask should be valid. Other fields are
	 * reserved": reserved bits first, as dispatch checks them (D-CMD-7 step 5). */
	enum nicref_cmd_rule rule = modify_check_unselected(
		c, &nicref_layout_modify_tis_in, TIS_CTX_OFF, tis_modify_sel,
		sizeof tis_modify_sel / sizeof tis_modify_sel[0], mask);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* §12.9.2 L7523: "MODIFY_TIS is supported only when HCA_CAP.modify_tis==1". */
	if (!CAPS_CUR(c->dev, CAP_GENERAL, hca_cap, modify_tis))
		return NICREF_RULE_TIS_MODIFY_UNSUPPORTED;
	/* T51: bit 0 prio is the only bit. */
	if (mask & ~1ull)
		return NICREF_RULE_TIS_MODIFY_BITMASK;
	struct tis *t;
	rule = lookup(c, (uint32_t)PRM_GET(modify_tis_in, tisn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (ready_sq_attached(c->dev, t))
		return NICREF_RULE_TIS_MODIFY_SQ_ATTACHED;
	if (mask & 1)
		t->prio = (uint8_t)TISC_GET(c, prio);
	return NICREF_RULE_NONE;
}

static void destroy(struct nicref_dev *dev, struct tis *t)
{
	struct obj_hdr *td = obj_get(dev, OBJ_TD, t->td);
	NICREF_ASSERT(td && td->refs > 0);
	td->refs--;
	NICREF_ASSERT(objtab_remove(&dev->obj[OBJ_TIS], t->hdr.handle) == t);
	obj_uncharge(dev, OBJ_TIS);
	dev_free(dev, t);
}

enum nicref_cmd_rule cmd_destroy_tis(struct cmd_ctx *c)
{
	struct tis *t;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(destroy_tis_in, tisn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* D-OBJ-1: an SQ still sends through it. */
	if (t->hdr.refs)
		return NICREF_RULE_TIS_IN_USE;
	destroy(c->dev, t);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_tis(struct cmd_ctx *c)
{
	struct tis *t;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(query_tis_in, tisn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T313: the context at 10h (D-TIS-2). */
	PRM_SET(query_tis_out, prio, c->out, c->out_len, t->prio);
	PRM_SET(query_tis_out, transport_domain, c->out, c->out_len, t->td);
	return NICREF_RULE_NONE;
}

void tis_dev_reset(struct nicref_dev *dev)
{
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_TIS], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_TIS], (uint32_t)h + 1, &o))
		destroy(dev, o);
}

int tis_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	(void)w;
	const struct tis *t = o;
	if (t->hdr.handle != h || t->prio > 0xF)
		return -350;
	return 0;
}

void tis_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	visit(ctx, OBJ_TD, ((const struct tis *)o)->td); /* T50 24h */
}

void tis_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_TIS, tis_obj_refs, visit, ctx);
}
