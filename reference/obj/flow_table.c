/* Flow tables: CREATE_FLOW_TABLE, MODIFY_FLOW_TABLE, DESTROY_FLOW_TABLE, SET_FLOW_TABLE_ROOT,
 * QUERY_FLOW_TABLE (PRM §7.11.3.1-§7.11.3.3, §12.14.1-§12.14.5, T383-T404), and the family
 * hooks of flow steering (reset, invariants, references). Decisions: docs/steer.md.
 *
 * Checks run in the precedence of D-CMD-7: field values (BAD_PARAM), the objects named
 * (BAD_INDEX, BAD_RESOURCE), limits (EXCEED_LIM), then ICM pages (NO_RESOURCES); a refused
 * command changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/obj_walk.h"
#include "obj/flow_cmd.h"

#define FTC_OFF 0x18 /* T383/T389/T403: the flow table context at 18h */

void flow_ref(struct nicref_dev *dev, enum obj_type type, uint32_t h, int d)
{
	struct obj_hdr *o = obj_get(dev, type, h);
	NICREF_ASSERT(o && (d > 0 || o->refs > 0));
	o->refs = (uint32_t)((int64_t)o->refs + d);
}

/* A field of the properties block of table type t (T148 40h NIC_RX, 100h NIC_TX; T151). */
uint64_t flow_prop(const struct nicref_dev *dev, unsigned t, const struct nicref_field *f)
{
	const struct nicref_field *blk =
		t == FLOW_NIC_RX ? PRM_FIELD(flow_table_nic_cap, flow_table_properties_nic_receive)
				 : PRM_FIELD(flow_table_nic_cap, flow_table_properties_nic_transmit);
	const uint8_t *caps = dev->core.caps.cur[CAP_FLOW_TABLE_NIC];
	return prm_get(caps + blk->prm_offset, CAP_BYTES - blk->prm_offset, f);
}

/* Every command of §12.14 but the counters' names its table at 10h[31:24] / 14h[23:0] (T384,
 * T390, T394, T398, T402, T406, T420, T424, T428, T438, T442). */
enum nicref_cmd_rule flow_cmd_type(const struct cmd_ctx *c, unsigned *type)
{
	uint64_t t = PRM_GET(destroy_flow_table_in, table_type, c->in, c->in_len);
	if (t >= FLOW_TYPES)
		return NICREF_RULE_FT_TYPE_INVALID;
	if (!flow_prop(c->dev, (unsigned)t, PRM_FIELD(flow_table_properties, ft_support)))
		return NICREF_RULE_FT_TYPE_UNSUPPORTED;
	*type = (unsigned)t;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule flow_cmd_table(const struct cmd_ctx *c, struct flow_table **out)
{
	unsigned type;
	enum nicref_cmd_rule rule = flow_cmd_type(c, &type);
	if (rule != NICREF_RULE_NONE)
		return rule;
	uint32_t id = (uint32_t)PRM_GET(destroy_flow_table_in, table_id, c->in, c->in_len);
	if (!obj_in_range(c->dev, OBJ_FT, id))
		return NICREF_RULE_FT_ID_OUT_OF_RANGE;
	struct flow_table *t = obj_get(c->dev, OBJ_FT, id);
	if (!t || t->type != type) /* T386: unique for the table_type */
		return NICREF_RULE_FT_NOT_FOUND;
	*out = t;
	return NICREF_RULE_NONE;
}

static uint64_t ftc_get(const struct cmd_ctx *c, const struct nicref_field *f)
{
	return c->in_len > FTC_OFF ? prm_get(c->in + FTC_OFF, c->in_len - FTC_OFF, f) : 0;
}
#define FTC_GET(c, n) ftc_get((c), PRM_FIELD(flow_table_context, n))

/* T388 00h[27:24]: the miss action of a table of `type`, a field check (BAD_PARAM, D-CMD-7
 * step 6 before the objects named). */
static enum nicref_cmd_rule check_miss_action(const struct cmd_ctx *c, unsigned type, uint8_t action)
{
	if (action > 1)
		return NICREF_RULE_FT_MISS_ACTION;
	if (action == 1 &&
	    !flow_prop(c->dev, type, PRM_FIELD(flow_table_properties, identified_miss_table)))
		return NICREF_RULE_FT_MISS_UNSUPPORTED;
	return NICREF_RULE_NONE;
}

/* T388 04h: the miss table of a table of `type` at `level` (action checked before). */
static enum nicref_cmd_rule check_miss_table(const struct cmd_ctx *c, unsigned type,
					     unsigned level, uint8_t action, uint32_t id)
{
	if (action == 0)
		return NICREF_RULE_NONE; /* 04h "Valid when ... identified_miss_table" (D-FT-17) */
	if (!obj_in_range(c->dev, OBJ_FT, id))
		return NICREF_RULE_FT_MISS_OUT_OF_RANGE;
	const struct flow_table *m = obj_get(c->dev, OBJ_FT, id);
	if (!m || m->type != type)
		return NICREF_RULE_FT_MISS_NOT_FOUND;
	if (m->level <= level) /* §7.11.3.3; also what keeps chains free of loops */
		return NICREF_RULE_FT_MISS_LEVEL;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_create_flow_table(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	unsigned type;
	enum nicref_cmd_rule rule = flow_cmd_type(c, &type);
	if (rule != NICREF_RULE_NONE)
		return rule;
	struct flow_table n = { .type = (uint8_t)type };
	n.level = (uint8_t)FTC_GET(c, level);
	n.log_size = (uint8_t)FTC_GET(c, log_size);
	n.miss_action = (uint8_t)FTC_GET(c, table_miss_action);
	n.miss_id = n.miss_action == 1 ? (uint32_t)FTC_GET(c, table_miss_id) : 0;
	/* D-CMD-7 step 6: the fields (BAD_PARAM), then the miss table they name. */
	if ((rule = check_miss_action(c, type, n.miss_action)) != NICREF_RULE_NONE)
		return rule;
	/* §7.11.3.2: "Only a single Flow Table with level 0 is allowed." */
	if (n.level == 0 && dev->flow.level0[type])
		return NICREF_RULE_FT_SECOND_LEVEL0;
	if ((rule = check_miss_table(c, type, n.level, n.miss_action, n.miss_id)) != NICREF_RULE_NONE)
		return rule;
	if (n.level > flow_prop(dev, type, PRM_FIELD(flow_table_properties, max_ft_level)))
		return NICREF_RULE_FT_LEVEL_TOO_HIGH;
	if (n.log_size > flow_prop(dev, type, PRM_FIELD(flow_table_properties, log_max_ft_size)) ||
	    n.log_size > FLOW_MAX_LOG_SIZE)
		return NICREF_RULE_FT_LOG_SIZE_TOO_LARGE;
	uint64_t lmax = flow_prop(dev, type, PRM_FIELD(flow_table_properties, log_max_ft_num));
	if (dev->flow.ntables[type] >= (1ull << (lmax < 32 ? lmax : 32)) ||
	    dev->obj[OBJ_FT].nlive >= dev->obj[OBJ_FT].limit - dev->obj[OBJ_FT].base)
		return NICREF_RULE_FT_EXHAUSTED;
	if (obj_charge(dev, OBJ_FT) != 0) /* D-PG-4 */
		return NICREF_RULE_ICM_PAGES_SHORT;
	struct flow_table *t = dev_malloc(dev, sizeof *t);
	struct fte **slots = dev_calloc(dev, (size_t)1 << n.log_size, sizeof *slots);
	int64_t h = t && slots ? objtab_alloc(&dev->obj[OBJ_FT], t) : -2;
	if (h < 0) {
		dev_free(dev, t);
		dev_free(dev, slots);
		obj_uncharge(dev, OBJ_FT);
		return h == -1 ? NICREF_RULE_FT_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	n.hdr.handle = (uint32_t)h;
	n.fte = slots;
	*t = n;
	if (t->miss_action == 1)
		flow_ref(dev, OBJ_FT, t->miss_id, 1);
	if (t->level == 0)
		dev->flow.level0[type] = t->hdr.handle;
	dev->flow.ntables[type]++;
	PRM_SET(create_flow_table_out, table_id, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

/* T390: modify_field_select bit 0 selects table_miss_action and table_miss_id; level and
 * log_size have no bit. A context field not selected is accepted when 0 or the table's own
 * value, and not used; any other value asks for a change the command cannot make (D-FT-23). */
static enum nicref_cmd_rule check_unselected(const struct cmd_ctx *c, const struct flow_table *t,
					     uint64_t sel)
{
	const uint64_t given[4] = { FTC_GET(c, level), FTC_GET(c, log_size),
				    FTC_GET(c, table_miss_action), FTC_GET(c, table_miss_id) };
	const uint64_t own[4] = { t->level, t->log_size, t->miss_action, t->miss_id };
	for (unsigned k = 0; k < ((sel & 1) ? 2u : 4u); k++)
		if (given[k] != 0 && given[k] != own[k])
			return NICREF_RULE_FT_MODIFY_UNSELECTED;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_modify_flow_table(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint64_t sel = PRM_GET(modify_flow_table_in, modify_field_select, c->in, c->in_len);
	unsigned type;
	enum nicref_cmd_rule rule = flow_cmd_type(c, &type);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* D-CMD-7 step 6: the fields (BAD_OP, BAD_PARAM), then the tables named. */
	if (!flow_prop(dev, type, PRM_FIELD(flow_table_properties, flow_table_modify)))
		return NICREF_RULE_FT_MODIFY_UNSUPPORTED;
	if (sel & ~1ull)
		return NICREF_RULE_FT_MODIFY_SELECT;
	uint8_t action = (sel & 1) ? (uint8_t)FTC_GET(c, table_miss_action) : 0;
	uint32_t id = action == 1 ? (uint32_t)FTC_GET(c, table_miss_id) : 0;
	if ((rule = check_miss_action(c, type, action)) != NICREF_RULE_NONE)
		return rule;
	struct flow_table *t;
	if ((rule = flow_cmd_table(c, &t)) != NICREF_RULE_NONE ||
	    (rule = check_unselected(c, t, sel)) != NICREF_RULE_NONE)
		return rule;
	if (!(sel & 1))
		return NICREF_RULE_NONE;
	if ((rule = check_miss_table(c, t->type, t->level, action, id)) != NICREF_RULE_NONE)
		return rule;
	if (action == 1)
		flow_ref(dev, OBJ_FT, id, 1);
	if (t->miss_action == 1)
		flow_ref(dev, OBJ_FT, t->miss_id, -1);
	t->miss_action = action;
	t->miss_id = id;
	return NICREF_RULE_NONE;
}

static void table_free(struct nicref_dev *dev, struct flow_table *t)
{
	if (t->miss_action == 1)
		flow_ref(dev, OBJ_FT, t->miss_id, -1);
	if (dev->flow.level0[t->type] == t->hdr.handle)
		dev->flow.level0[t->type] = 0;
	if (dev->flow.root[t->type] == t->hdr.handle)
		dev->flow.root[t->type] = 0;
	dev->flow.ntables[t->type]--;
	NICREF_ASSERT(objtab_remove(&dev->obj[OBJ_FT], t->hdr.handle) == t);
	obj_uncharge(dev, OBJ_FT);
	dev_free(dev, t->groups);
	dev_free(dev, t->fte);
	dev_free(dev, t);
}

enum nicref_cmd_rule cmd_destroy_flow_table(struct cmd_ctx *c)
{
	struct flow_table *t;
	enum nicref_cmd_rule rule = flow_cmd_table(c, &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (t->ngroups) /* §7.11.3.8: its groups are freed first */
		return NICREF_RULE_FT_HAS_GROUPS;
	if (t->hdr.refs) /* D-FT-12: a flow forwards to it or a table misses to it */
		return NICREF_RULE_FT_IN_USE;
	if (c->dev->flow.root[t->type] == t->hdr.handle) /* D-FT-8 */
		return NICREF_RULE_FT_IS_ROOT;
	table_free(c->dev, t);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_set_flow_table_root(struct cmd_ctx *c)
{
	struct flow_table *t;
	enum nicref_cmd_rule rule = flow_cmd_table(c, &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (!flow_prop(c->dev, t->type, PRM_FIELD(flow_table_properties, modify_root)))
		return NICREF_RULE_FT_ROOT_UNSUPPORTED;
	/* §12.14.4: the previous root "will be disconnected and all its resources will remain". */
	c->dev->flow.root[t->type] = t->hdr.handle;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_flow_table(struct cmd_ctx *c)
{
	struct flow_table *t;
	enum nicref_cmd_rule rule = flow_cmd_table(c, &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	PRM_SET(query_flow_table_out, table_miss_action, c->out, c->out_len, t->miss_action);
	PRM_SET(query_flow_table_out, level, c->out, c->out_len, t->level);
	PRM_SET(query_flow_table_out, log_size, c->out, c->out_len, t->log_size);
	PRM_SET(query_flow_table_out, table_miss_id, c->out, c->out_len, t->miss_id);
	return NICREF_RULE_NONE;
}

struct flow_table *flow_root(const struct nicref_dev *dev, unsigned type)
{
	if (type >= FLOW_TYPES)
		return NULL;
	uint32_t id = dev->flow.root[type] ? dev->flow.root[type] : dev->flow.level0[type];
	return id ? obj_at(dev, OBJ_FT, id) : NULL;
}

/* ---- family hooks ---- */

void flow_open_tables(struct nicref_dev *dev)
{
	/* D-FT-12: one handle space for both types, room for 2^log_max_ft_num of each. */
	uint64_t lrx = flow_prop(dev, FLOW_NIC_RX, PRM_FIELD(flow_table_properties, log_max_ft_num));
	uint64_t ltx = flow_prop(dev, FLOW_NIC_TX, PRM_FIELD(flow_table_properties, log_max_ft_num));
	uint64_t n = (1ull << (lrx < 24 ? lrx : 24)) + (1ull << (ltx < 24 ? ltx : 24));
	objtab_reset(&dev->obj[OBJ_FT], 1, (uint32_t)(n + 1 < (1u << 24) ? n + 1 : (1u << 24)),
		     NULL, NULL);
	objtab_reset(&dev->obj[OBJ_FG], 1, 1u << 24, NULL, NULL); /* T418 group_id 23:0 */
	/* T145 68h[15:0]: max_flow_counter counters, ids 1.. (T436 15:0; D-FC-1). */
	uint64_t fc = CAPS_CUR(dev, CAP_GENERAL, hca_cap, max_flow_counter);
	objtab_reset(&dev->obj[OBJ_FC], 1, (uint32_t)(fc + 1), NULL, NULL);
	memset(&dev->flow, 0, sizeof dev->flow);
}

void flow_dev_reset(struct nicref_dev *dev)
{
	/* FTEs, then groups, then tables (misses first: a table named by another's miss goes
	 * after it), then counters. */
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_FT], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_FT], (uint32_t)h + 1, &o))
		fte_free_all(dev, o);
	for (int64_t h = objtab_next(&dev->obj[OBJ_FG], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_FG], (uint32_t)h + 1, &o))
		flow_group_free(dev, o);
	bool left = true;
	while (left) { /* each pass frees the tables nothing names; levels rule out cycles */
		left = false;
		for (int64_t h = objtab_next(&dev->obj[OBJ_FT], 0, &o); h >= 0;
		     h = objtab_next(&dev->obj[OBJ_FT], (uint32_t)h + 1, &o)) {
			if (((struct flow_table *)o)->hdr.refs)
				left = true;
			else
				table_free(dev, o);
		}
	}
	flow_counters_reset(dev);
	memset(&dev->flow, 0, sizeof dev->flow);
}

void ft_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	const struct flow_table *t = o;
	if (t->miss_action == 1)
		visit(ctx, OBJ_FT, t->miss_id);
	for (uint32_t i = 0; i < (1u << t->log_size); i++) {
		const struct fte *e = t->fte[i];
		if (!e)
			continue;
		visit(ctx, OBJ_FG, e->fg->hdr.handle);
		for (uint32_t k = 0; k < e->ndest; k++)
			visit(ctx, e->dest[k].type == FLOW_DEST_TIR ? OBJ_TIR : OBJ_FT, e->dest[k].id);
		for (uint32_t k = 0; k < e->ncnt; k++)
			visit(ctx, OBJ_FC, e->cnt[k]);
	}
}

void fg_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	visit(ctx, OBJ_FT, ((const struct flow_group *)o)->ft->hdr.handle);
}

void flow_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_FT, ft_obj_refs, visit, ctx);
	obj_table_refs(dev, OBJ_FG, fg_obj_refs, visit, ctx);
}

/* Invariants (nicref/invariants.h family codes -380 and below): each table's groups sorted and
 * disjoint inside it, each valid FTE inside its group and in its group's index, the per-type
 * counts and the roots (flow_check_end) naming live tables of their type. */
int ft_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	const struct flow_table *t = o;
	if (t->hdr.handle != h || t->type >= FLOW_TYPES)
		return -380;
	w->ft_tables[t->type]++;
	for (uint32_t g = 0; g < t->ngroups; g++) {
		const struct flow_group *fg = t->groups[g];
		if (fg->ft != t || fg->start > fg->end || fg->end >= (1u << t->log_size) ||
		    (g && t->groups[g - 1]->end >= fg->start))
			return -381;
	}
	uint32_t n = 0, multi = 0;
	for (uint32_t i = 0; i < (1u << t->log_size); i++) {
		const struct fte *e = t->fte[i];
		if (!e)
			continue;
		n++;
		multi += e->multi;
		if (e->index != i || e->fg->ft != t || i < e->fg->start || i > e->fg->end)
			return -382;
		if (flow_group_lookup(e->fg, e->value) == NULL)
			return -383; /* a valid flow its group's index does not find */
	}
	if (n != t->nfte || multi != t->nmulti)
		return -384;
	w->ft_flows[t->type] += n;
	return 0;
}

/* The per-type counts (summed by ft_obj_check) and the roots. */
int flow_check_end(const struct nicref_dev *dev, const struct obj_walk *w)
{
	for (unsigned k = 0; k < FLOW_TYPES; k++) {
		if (w->ft_tables[k] != dev->flow.ntables[k] || w->ft_flows[k] != dev->flow.nflows[k])
			return -385;
		const uint32_t ids[2] = { dev->flow.root[k], dev->flow.level0[k] };
		for (unsigned j = 0; j < 2; j++) {
			const struct flow_table *t = ids[j] ? obj_get(dev, OBJ_FT, ids[j]) : NULL;
			if (ids[j] && (!t || t->type != k || (j == 1 && t->level != 0)))
				return -386;
		}
	}
	return 0;
}

