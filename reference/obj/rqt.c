/* RQ tables: CREATE_RQT, MODIFY_RQT, DESTROY_RQT, QUERY_RQT (PRM §7.8, §12.12, T58/T59,
 * T349-T364). Decisions: docs/tir.md (D-RQT-*).
 *
 * An RQT is a list of rqt_actual_size RQNs (a power of two, at most rqt_max_size, itself a
 * power of two within HCA_CAP.log_max_rqt_size); an RQN may repeat (T59). Each entry holds a
 * reference on its RQ (D-RQT-2), so an RQ cannot go while a table lists it (D-RQ-1). */
#include <stdlib.h>

#include "cmd/cmd_table.h"
#include "obj/obj_walk.h"
#include "obj/modify_mask.h"

#define RQT_CTX_OFF 0x20   /* T349/T353/T363: the context at 20h */
#define RQT_LIST_OFF 0x110 /* rq_num[] at context F0h */

static bool pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* T354 14h: bit 0 selects "rqt_acual_size and the rq_num list"; rqt_max_size is not
 * modifiable. The fields it does not select are reserved in a MODIFY_RQT input (D-MOD-1). */
static const struct modify_sel rqt_modify_sel[] = { { PRMF_modify_rqt_in__rqt_actual_size, 0 } };

/* rq_num[i] of the input list (T59 F0h + 4i, bits 23:0; D-RQT-4). */
static uint32_t list_entry(const struct cmd_ctx *c, uint32_t i)
{
	size_t off = RQT_LIST_OFF + (size_t)i * 4;
	if (off + 4 > c->in_len)
		return 0;
	const uint8_t *p = c->in + off;
	return (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The list part of a CREATE or MODIFY input: its size and entries (BAD_INPUT_LEN, BAD_PARAM,
 * BAD_INDEX, BAD_RESOURCE), against `max` entries. */
static enum nicref_cmd_rule check_list(const struct cmd_ctx *c, uint32_t actual, uint32_t max)
{
	const struct nicref_dev *dev = c->dev;
	/* T59 18h: "rqt_actual_size must be power of two and <= rqt_max_size"; T59 14h: a
	 * larger one fails "and RQT does not change". */
	if (!pow2(actual))
		return NICREF_RULE_RQT_ACTUAL_SIZE_NOT_POW2;
	if (actual > max)
		return NICREF_RULE_RQT_ACTUAL_BEYOND_MAX;
	/* T59 F0h: each entry an RQ (the same RQN may appear several times). */
	for (uint32_t i = 0; i < actual; i++) {
		uint32_t rqn = list_entry(c, i);
		if (!obj_in_range(dev, OBJ_RQ, rqn))
			return NICREF_RULE_RQT_RQ_OUT_OF_RANGE;
		if (!obj_get(dev, OBJ_RQ, rqn))
			return NICREF_RULE_RQT_RQ_INVALID;
	}
	return NICREF_RULE_NONE;
}

/* T350: the actual_size entries of rq_num[] must be in the input (a length rule, D-RQT-5). */
static bool list_fits(const struct cmd_ctx *c, uint32_t actual)
{
	uint64_t need = RQT_LIST_OFF + (uint64_t)actual * 4;
	return need <= c->input_length && need <= c->in_len;
}

/* T59 F0h: each entry's bits 31:24 are reserved, as any reserved bit of a command input
 * (D-CMD-8): a violation per entry, and refused under the strict profile. The entries are the
 * command's own input (D-RQT-4); the reserved check precedes the command's rules (D-CMD-7). */
static enum nicref_cmd_rule list_reserved(struct cmd_ctx *c, uint32_t actual)
{
	enum nicref_cmd_rule r, first = NICREF_RULE_NONE;
	for (uint32_t i = 0; i < actual; i++)
		if ((r = cmd_check_reserved(c, &nicref_layout_rqt_entry,
					    RQT_LIST_OFF + (size_t)i * 4)) != NICREF_RULE_NONE &&
		    first == NICREF_RULE_NONE)
			first = r;
	return first;
}

static void take_list(struct nicref_dev *dev, struct rqt *t, const struct cmd_ctx *c,
		      uint32_t actual)
{
	for (uint32_t i = 0; i < actual; i++) {
		t->rq[i] = list_entry(c, i);
		((struct obj_hdr *)obj_get(dev, OBJ_RQ, t->rq[i]))->refs++; /* D-RQT-2 */
	}
	t->actual_size = (uint16_t)actual;
}

static void drop_list(struct nicref_dev *dev, struct rqt *t)
{
	for (uint32_t i = 0; i < t->actual_size; i++) {
		struct obj_hdr *rq = obj_get(dev, OBJ_RQ, t->rq[i]);
		NICREF_ASSERT(rq && rq->refs > 0);
		rq->refs--;
		t->rq[i] = 0;
	}
	t->actual_size = 0;
}

enum nicref_cmd_rule cmd_create_rqt(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint32_t max = (uint32_t)PRM_GET(create_rqt_in, rqt_max_size, c->in, c->in_len);
	uint32_t actual = (uint32_t)PRM_GET(create_rqt_in, rqt_actual_size, c->in, c->in_len);
	if (!list_fits(c, actual))
		return NICREF_RULE_RQT_ENTRIES_BEYOND_INPUT;
	enum nicref_cmd_rule rule = list_reserved(c, actual);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T59 14h: "rqt_max_size must be power of two". */
	if (!pow2(max))
		return NICREF_RULE_RQT_MAX_SIZE_NOT_POW2;
	if ((rule = check_list(c, actual, max)) != NICREF_RULE_NONE)
		return rule;
	/* T59 14h: "set according to HCA_CAP.log_max_rqt_size limitation, otherwise the command
	 * fails" (T145 70h[12:8]; D-RQT-1). */
	uint64_t log_size = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_rqt_size);
	if (log_size < 32 && max > (1ull << log_size))
		return NICREF_RULE_RQT_MAX_SIZE_TOO_LARGE;
	/* T145 70h[20:16]: at most 2^log_max_rqt. */
	const struct objtab *tab = &dev->obj[OBJ_RQT];
	if (tab->nlive >= tab->limit - tab->base)
		return NICREF_RULE_RQT_EXHAUSTED;
	if (obj_charge(dev, OBJ_RQT) != 0) /* D-PG-4 */
		return NICREF_RULE_ICM_PAGES_SHORT;
	struct rqt *t = dev_calloc(dev, 1, sizeof *t + (size_t)max * sizeof t->rq[0]);
	int64_t h = t ? objtab_alloc(&dev->obj[OBJ_RQT], t) : -2;
	if (h < 0) {
		dev_free(dev, t);
		obj_uncharge(dev, OBJ_RQT);
		return h == -1 ? NICREF_RULE_RQT_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	t->hdr.handle = (uint32_t)h;
	t->max_size = (uint16_t)max;
	take_list(dev, t, c, actual);
	PRM_SET(create_rqt_out, rqtn, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

/* The RQT a command names (T354/T358/T362 08h[23:0]), or the rule refusing it. */
static enum nicref_cmd_rule lookup(struct cmd_ctx *c, uint32_t rqtn, struct rqt **out)
{
	if (!obj_in_range(c->dev, OBJ_RQT, rqtn))
		return NICREF_RULE_RQT_INDEX_OUT_OF_RANGE;
	*out = obj_get(c->dev, OBJ_RQT, rqtn);
	return *out ? NICREF_RULE_NONE : NICREF_RULE_RQT_NOT_FOUND;
}

enum nicref_cmd_rule cmd_modify_rqt(struct cmd_ctx *c)
{
	uint64_t mask = PRM_GET(modify_rqt_in, modify_bitmask_63_32, c->in, c->in_len) << 32 |
			PRM_GET(modify_rqt_in, modify_bitmask_31_0, c->in, c->in_len);
	/* T354 20h: "Only fields requested by the mask should be valid, other fields are
	 * reserved" (D-MOD-1). */
	enum nicref_cmd_rule rule = modify_check_unselected(
		c, &nicref_layout_modify_rqt_in, RQT_CTX_OFF, rqt_modify_sel,
		sizeof rqt_modify_sel / sizeof rqt_modify_sel[0], mask);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T354 14h: "Bit 0: rqt_acual_size and the rq_num list. others: reserved". */
	if (mask & ~1ull)
		return NICREF_RULE_RQT_MODIFY_BITMASK;
	uint32_t actual = (uint32_t)PRM_GET(modify_rqt_in, rqt_actual_size, c->in, c->in_len);
	if (mask & 1) {
		if (!list_fits(c, actual))
			return NICREF_RULE_RQT_ENTRIES_BEYOND_INPUT;
		if ((rule = list_reserved(c, actual)) != NICREF_RULE_NONE)
			return rule;
	}
	struct rqt *t;
	rule = lookup(c, (uint32_t)PRM_GET(modify_rqt_in, rqtn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE || !(mask & 1))
		return rule;
	/* rqt_max_size is not modifiable: the new size is held against the RQT's own. */
	if ((rule = check_list(c, actual, t->max_size)) != NICREF_RULE_NONE)
		return rule;
	/* Take the new references before dropping the old: an RQ in both lists stays named. */
	uint32_t old_n = t->actual_size;
	for (uint32_t i = 0; i < actual; i++)
		((struct obj_hdr *)obj_get(c->dev, OBJ_RQ, list_entry(c, i)))->refs++;
	for (uint32_t i = 0; i < old_n; i++) {
		struct obj_hdr *rq = obj_get(c->dev, OBJ_RQ, t->rq[i]);
		NICREF_ASSERT(rq && rq->refs > 0);
		rq->refs--;
		t->rq[i] = 0;
	}
	for (uint32_t i = 0; i < actual; i++)
		t->rq[i] = list_entry(c, i);
	t->actual_size = (uint16_t)actual;
	return NICREF_RULE_NONE;
}

static void destroy(struct nicref_dev *dev, struct rqt *t)
{
	drop_list(dev, t);
	NICREF_ASSERT(objtab_remove(&dev->obj[OBJ_RQT], t->hdr.handle) == t);
	obj_uncharge(dev, OBJ_RQT);
	dev_free(dev, t);
}

enum nicref_cmd_rule cmd_destroy_rqt(struct cmd_ctx *c)
{
	struct rqt *t;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(destroy_rqt_in, rqtn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* D-OBJ-1: an Indirect TIR still dispatches through it. */
	if (t->hdr.refs)
		return NICREF_RULE_RQT_IN_USE;
	destroy(c->dev, t);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_rqt(struct cmd_ctx *c)
{
	struct rqt *t;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(query_rqt_in, rqtn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T363/T364: the context and its rqt_actual_size entries must fit (D-RQT-3). */
	uint64_t need = RQT_LIST_OFF + (uint64_t)t->actual_size * 4;
	if (need > c->output_length || need > c->out_len)
		return NICREF_RULE_RQT_OUTPUT_TOO_SHORT;
	PRM_SET(query_rqt_out, rqt_max_size, c->out, c->out_len, t->max_size);
	PRM_SET(query_rqt_out, rqt_actual_size, c->out, c->out_len, t->actual_size);
	for (uint32_t i = 0; i < t->actual_size; i++) {
		uint8_t *p = c->out + RQT_LIST_OFF + (size_t)i * 4;
		p[0] = 0;
		p[1] = (uint8_t)(t->rq[i] >> 16);
		p[2] = (uint8_t)(t->rq[i] >> 8);
		p[3] = (uint8_t)t->rq[i];
	}
	return NICREF_RULE_NONE;
}

void rqt_dev_reset(struct nicref_dev *dev)
{
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_RQT], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_RQT], (uint32_t)h + 1, &o))
		destroy(dev, o);
}

int rqt_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	(void)w;
	const struct rqt *t = o;
	if (t->hdr.handle != h)
		return -370;
	if (!pow2(t->max_size) || !pow2(t->actual_size) || t->actual_size > t->max_size)
		return -371; /* T59 sizes */
	for (uint32_t i = t->actual_size; i < t->max_size; i++)
		if (t->rq[i])
			return -372; /* entries past the list hold nothing */
	return 0;
}

void rqt_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	const struct rqt *t = o;
	for (uint32_t i = 0; i < t->actual_size; i++)
		visit(ctx, OBJ_RQ, t->rq[i]); /* T59 F0h, once per entry (D-RQT-2) */
}

void rqt_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_RQT, rqt_obj_refs, visit, ctx);
}
