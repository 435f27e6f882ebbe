/* Flow table entries: SET_FLOW_TABLE_ENTRY (set and modify), QUERY_FLOW_TABLE_ENTRY,
 * DELETE_FLOW_TABLE_ENTRY (PRM §7.11.2, §7.11.3.6-§7.11.3.9, §12.14.9-§12.14.11, T427-T444),
 * and the group lookup index they maintain (obj/flow.h). Decisions: docs/steer.md. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/flow_cmd.h"

#define FC_OFF 0x40                 /* T427: the flow context at 40h */
#define FC_MATCH_OFF (FC_OFF + 0x40) /* T429: match_value at 40h of the context */
#define FC_LIST_OFF (FC_OFF + 0x300) /* T429: the list at 300h of the context */
#define LIST_ENTRY 8u               /* T433/T435: 8 bytes an entry */
#define FLOW_MULTI_LEVEL 64         /* §7.11.3.3 */

enum { MOD_ACTION = 1u << 0, MOD_TAG = 1u << 1, MOD_DEST = 1u << 2, MOD_CNT = 1u << 3 };

static uint64_t list_get(const struct cmd_ctx *c, uint32_t k, const struct nicref_field *f)
{
	size_t off = FC_LIST_OFF + (size_t)k * LIST_ENTRY;
	return c->in_len > off ? prm_get(c->in + off, c->in_len - off, f) : 0;
}

static void chain_insert(struct flow_group *g, struct fte *e)
{
	e->hash = flow_group_hash(g, e->value);
	struct fte **p = &g->bucket[e->hash & (g->nbuckets - 1)];
	while (*p && (*p)->index < e->index) /* sorted by flow_index (§7.11.2 index order) */
		p = &(*p)->next;
	e->next = *p;
	*p = e;
}

static void chain_remove(struct flow_group *g, struct fte *e)
{
	struct fte **p = &g->bucket[e->hash & (g->nbuckets - 1)];
	while (*p != e)
		p = &(*p)->next;
	*p = e->next;
}

/* The references of e's lists (D-OBJ-1), taken (d = 1) or dropped (-1), and the multi-path
 * counts of D-FT-16. */
static void lists_ref(struct nicref_dev *dev, struct flow_table *t, const struct fte *e, int d)
{
	for (uint32_t k = 0; k < e->ndest; k++) {
		bool tir = e->dest[k].type == FLOW_DEST_TIR;
		flow_ref(dev, tir ? OBJ_TIR : OBJ_FT, e->dest[k].id, d);
		if (!tir && e->multi) {
			struct flow_table *to = obj_get(dev, OBJ_FT, e->dest[k].id);
			to->mp_refs = (uint32_t)((int64_t)to->mp_refs + d);
		}
	}
	for (uint32_t k = 0; k < e->ncnt; k++)
		flow_ref(dev, OBJ_FC, e->cnt[k], d);
	if (e->multi)
		t->nmulti = (uint32_t)((int64_t)t->nmulti + d);
}

static void fte_free(struct nicref_dev *dev, struct fte *e)
{
	dev_free(dev, e->dest);
	dev_free(dev, e->cnt);
	dev_free(dev, e);
}

static void fte_delete(struct nicref_dev *dev, struct flow_table *t, struct fte *e)
{
	lists_ref(dev, t, e, -1);
	chain_remove(e->fg, e);
	flow_ref(dev, OBJ_FG, e->fg->hdr.handle, -1);
	t->fte[e->index] = NULL;
	t->nfte--;
	dev->flow.nflows[t->type]--;
	fte_free(dev, e);
}

void fte_free_all(struct nicref_dev *dev, struct flow_table *t)
{
	for (uint32_t i = 0; t->nfte && i < (1u << t->log_size); i++)
		if (t->fte[i])
			fte_delete(dev, t, t->fte[i]);
}

/* The destination list of n (n->ndest entries from the list's start), checked. */
static enum nicref_cmd_rule read_dests(const struct cmd_ctx *c, const struct flow_table *t,
				       struct fte *n)
{
	struct nicref_dev *dev = c->dev;
	uint32_t ntir = 0, nft = 0;
	bool ft_seen = false, mixed = false;
	for (uint32_t k = 0; k < n->ndest; k++) {
		uint8_t type = (uint8_t)list_get(c, k, PRM_FIELD(flow_destination, destination_type));
		uint32_t id = (uint32_t)list_get(c, k, PRM_FIELD(flow_destination, destination_id));
		n->dest[k].type = type;
		n->dest[k].id = id;
		if (type != FLOW_DEST_FT && type != FLOW_DEST_TIR)
			return NICREF_RULE_FTE_DEST_TYPE;
		if (type == FLOW_DEST_TIR) {
			if (t->type != FLOW_NIC_RX) /* §7.11.4.2 */
				return NICREF_RULE_FTE_DEST_TIR_ON_TX;
			if (!obj_in_range(dev, OBJ_TIR, id))
				return NICREF_RULE_FTE_DEST_TIR_OUT_OF_RANGE;
			if (!obj_get(dev, OBJ_TIR, id))
				return NICREF_RULE_FTE_DEST_TIR_INVALID;
			mixed = mixed || ft_seen; /* a TIR after a flow table */
			ntir++;
			continue;
		}
		if (!obj_in_range(dev, OBJ_FT, id))
			return NICREF_RULE_FTE_DEST_FT_OUT_OF_RANGE;
		const struct flow_table *to = obj_get(dev, OBJ_FT, id);
		if (!to || to->type != t->type) /* §7.11.2.3: the same type */
			return NICREF_RULE_FTE_DEST_FT_INVALID;
		if (to->level <= t->level) /* §7.11.3.3 */
			return NICREF_RULE_FTE_DEST_FT_LEVEL;
		ft_seen = true;
		nft++;
	}
	/* §7.11.3.6 "the same type"; §7.11.4.1: TIRs followed by flow tables with
	 * nic_rx_multi_path_tirs_fts. */
	if (ntir && nft &&
	    (mixed || !CAPS_CUR(dev, CAP_FLOW_TABLE_NIC, flow_table_nic_cap, nic_rx_multi_path_tirs_fts)))
		return NICREF_RULE_FTE_DEST_MIXED;
	n->multi = n->ndest > 1;
	if (!n->multi)
		return NICREF_RULE_NONE;
	/* §7.11.4.1: several TIRs need nic_rx_multi_path_tirs; "in case of
	 * nic_rx_multi_path_tirs_fts = 1, ... also for single/multiple TIRs followed by
	 * single/multiple Flow Tables" (checked above when tables follow). */
	if (t->type != FLOW_NIC_RX ||
	    (ntir > 1 && !nft &&
	     !CAPS_CUR(dev, CAP_FLOW_TABLE_NIC, flow_table_nic_cap, nic_rx_multi_path_tirs)))
		return NICREF_RULE_FTE_MULTI_TIRS_UNSUPPORTED; /* §7.11.4.1, §7.11.4.2 */
	/* §7.11.3.3: the table below 64; the tables pointed to at 64 or above, but for the last
	 * one when HCA_CAP.nic_rx_multi_path_tirs = 1 (§7.11.3.3) or nic_rx_multi_path_tirs_fts = 1
	 * (T149 00h[30] note: "Regardless of whether the destination list includes TIRs or not";
	 * D-FT-19). */
	if (t->level >= FLOW_MULTI_LEVEL)
		return NICREF_RULE_FTE_MULTI_LEVEL;
	bool last_free =
		CAPS_CUR(dev, CAP_FLOW_TABLE_NIC, flow_table_nic_cap, nic_rx_multi_path_tirs) ||
		CAPS_CUR(dev, CAP_FLOW_TABLE_NIC, flow_table_nic_cap, nic_rx_multi_path_tirs_fts);
	for (uint32_t k = 0, seen = 0; k < n->ndest; k++) {
		if (n->dest[k].type != FLOW_DEST_FT)
			continue;
		const struct flow_table *to = obj_get(dev, OBJ_FT, n->dest[k].id);
		bool last = ++seen == nft;
		if (to->level < FLOW_MULTI_LEVEL && !(last && last_free))
			return NICREF_RULE_FTE_MULTI_LEVEL;
		if (to->nmulti) /* §7.11.2.4: never nested (D-FT-16) */
			return NICREF_RULE_FTE_MULTI_NESTED;
	}
	if (t->mp_refs)
		return NICREF_RULE_FTE_MULTI_NESTED;
	return NICREF_RULE_NONE;
}

static enum nicref_cmd_rule read_counters(const struct cmd_ctx *c, uint32_t first, struct fte *n)
{
	for (uint32_t k = 0; k < n->ncnt; k++) {
		uint32_t id = (uint32_t)list_get(c, first + k, PRM_FIELD(flow_counter_entry, flow_counter_id));
		n->cnt[k] = (uint16_t)id;
		if (!obj_in_range(c->dev, OBJ_FC, id))
			return NICREF_RULE_FTE_COUNTER_OUT_OF_RANGE;
		if (!obj_get(c->dev, OBJ_FC, id))
			return NICREF_RULE_FTE_COUNTER_INVALID;
	}
	return NICREF_RULE_NONE;
}

#define CTX_GET(c, n) PRM_GET(set_flow_table_entry_in, n, (c)->in, (c)->in_len)

/* The context fields of n that op (0 set, 1 modify with mask) takes, checked; the lists
 * allocated into n->dest / n->cnt (the caller frees them when refused). */
static enum nicref_cmd_rule build(const struct cmd_ctx *c, const struct flow_table *t,
				  const struct fte *old, unsigned mask, struct fte *n)
{
	struct nicref_dev *dev = c->dev;
	unsigned type = t->type;
	if (mask & MOD_ACTION)
		n->action = (uint16_t)CTX_GET(c, action);
	if (mask & MOD_TAG)
		n->flow_tag = (uint32_t)CTX_GET(c, flow_tag);
	uint32_t in_ndest = (uint32_t)CTX_GET(c, destination_list_size);
	if (mask & MOD_DEST)
		n->ndest = in_ndest;
	if (mask & MOD_CNT)
		n->ncnt = (uint32_t)CTX_GET(c, flow_counter_list_size);
	if (n->action & ~0xFu) /* T430 0Ch: bits 0-3 */
		return NICREF_RULE_FTE_ACTION_RESERVED;
	unsigned a = n->action & (FLOW_ACT_ALLOW | FLOW_ACT_DROP | FLOW_ACT_FWD);
	if (a == 0 || (a & (a - 1)))
		return NICREF_RULE_FTE_ACTION_EXCLUSIVE;
	/* §7.11.3.7: adding or removing Forward/Count changes its list too. */
	if (old && ((old->action ^ n->action) & FLOW_ACT_FWD) && !(mask & MOD_DEST))
		return NICREF_RULE_FTE_MODIFY_LIST_BIT;
	if (old && ((old->action ^ n->action) & FLOW_ACT_COUNT) && !(mask & MOD_CNT))
		return NICREF_RULE_FTE_MODIFY_LIST_BIT;
	if (n->flow_tag && !flow_prop(dev, type, PRM_FIELD(flow_table_properties, flow_tag)))
		return NICREF_RULE_FTE_FLOW_TAG_UNSUPPORTED;
	if (((n->action & FLOW_ACT_FWD) != 0) != (n->ndest != 0))
		return NICREF_RULE_FTE_DEST_SIZE;
	bool count = n->action & FLOW_ACT_COUNT;
	if (count && !flow_prop(dev, type, PRM_FIELD(flow_table_properties, flow_counter)))
		return NICREF_RULE_FTE_COUNT_UNSUPPORTED;
	if (count != (n->ncnt != 0))
		return NICREF_RULE_FTE_COUNTER_SIZE;
	uint64_t ld = flow_prop(dev, type, PRM_FIELD(flow_table_properties, log_max_destination));
	if ((mask & MOD_DEST) && n->ndest > (1ull << (ld < 24 ? ld : 24)))
		return NICREF_RULE_FTE_DEST_TOO_MANY;
	uint64_t lc = flow_prop(dev, type, PRM_FIELD(flow_table_properties, log_max_flow_counter));
	if ((mask & MOD_CNT) && n->ncnt > (1ull << (lc < 24 ? lc : 24)))
		return NICREF_RULE_FTE_COUNTER_TOO_MANY;
	/* T430 300h: destinations first, then the counters, within input_length. */
	uint64_t entries = mask & MOD_CNT ? (uint64_t)in_ndest + n->ncnt
					  : (mask & MOD_DEST ? in_ndest : 0);
	uint64_t need = FC_LIST_OFF + LIST_ENTRY * entries;
	if (need > c->input_length || need > c->in_len)
		return NICREF_RULE_FTE_LIST_BEYOND_INPUT;
	enum nicref_cmd_rule rule;
	if (mask & MOD_DEST) {
		n->dest = n->ndest ? dev_calloc(dev, n->ndest, sizeof *n->dest) : NULL;
		if (n->ndest && !n->dest)
			return NICREF_RULE_OBJ_NO_MEMORY;
		if ((rule = read_dests(c, t, n)) != NICREF_RULE_NONE)
			return rule;
	}
	if (mask & MOD_CNT) {
		n->cnt = n->ncnt ? dev_calloc(dev, n->ncnt, sizeof *n->cnt) : NULL;
		if (n->ncnt && !n->cnt)
			return NICREF_RULE_OBJ_NO_MEMORY;
		if ((rule = read_counters(c, in_ndest, n)) != NICREF_RULE_NONE)
			return rule;
	}
	return NICREF_RULE_NONE;
}

/* The table and the flow_index a SET/QUERY/DELETE names (T428/T438/T442 20h). */
static enum nicref_cmd_rule locate(const struct cmd_ctx *c, struct flow_table **t, uint32_t *idx)
{
	enum nicref_cmd_rule rule = flow_cmd_table(c, t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	*idx = (uint32_t)PRM_GET(delete_flow_table_entry_in, flow_index, c->in, c->in_len);
	if ((uint64_t)*idx >= (1ull << (*t)->log_size))
		return NICREF_RULE_FTE_INDEX_BEYOND_TABLE;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_set_flow_table_entry(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	struct flow_table *t;
	uint32_t idx;
	enum nicref_cmd_rule rule = locate(c, &t, &idx);
	if (rule != NICREF_RULE_NONE)
		return rule;
	bool modify = c->op_mod == 1; /* T428 04h: 0 set, 1 modify (dispatch allows 0-1) */
	if (modify && !flow_prop(dev, t->type, PRM_FIELD(flow_table_properties, flow_modify_en)))
		return NICREF_RULE_FTE_MODIFY_UNSUPPORTED;
	struct fte *old = t->fte[idx];
	if (!modify && old)
		return NICREF_RULE_FTE_EXISTS; /* D-FT-6 */
	if (modify && !old)
		return NICREF_RULE_FTE_NOT_VALID;
	unsigned mask = MOD_ACTION | MOD_TAG | MOD_DEST | MOD_CNT;
	uint32_t gid = (uint32_t)CTX_GET(c, group_id);
	struct flow_group *g = modify ? old->fg : obj_get(dev, OBJ_FG, gid);
	if (modify) {
		mask = (unsigned)CTX_GET(c, modify_enable_mask);
		if (mask & ~0xFu)
			return NICREF_RULE_FTE_MODIFY_MASK;
		if (gid != old->fg->hdr.handle) /* D-FT-14 */
			return NICREF_RULE_FTE_MODIFY_GROUP;
	} else if (!obj_in_range(dev, OBJ_FG, gid)) {
		return NICREF_RULE_FTE_GROUP_OUT_OF_RANGE; /* T128 BAD_INDEX, as FG_ID_OUT_OF_RANGE */
	} else if (!g || g->ft != t) {
		return NICREF_RULE_FTE_GROUP_NOT_FOUND;
	} else if (idx < g->start || idx > g->end) {
		return NICREF_RULE_FTE_INDEX_OUTSIDE_GROUP;
	}
	struct fte n = { .index = idx, .fg = g };
	if (modify) {
		n = *old;
		if (mask & MOD_DEST)
			n.dest = NULL, n.ndest = 0;
		if (mask & MOD_CNT)
			n.cnt = NULL, n.ncnt = 0;
	}
	rule = build(c, t, modify ? old : NULL, mask, &n);
	uint64_t lf = flow_prop(dev, t->type, PRM_FIELD(flow_table_properties, log_max_flow));
	if (rule == NICREF_RULE_NONE && !modify &&
	    dev->flow.nflows[t->type] >= (1ull << (lf < 32 ? lf : 32)))
		rule = NICREF_RULE_FTE_FLOWS_EXHAUSTED;
	struct fte *e = rule == NICREF_RULE_NONE && !modify ? dev_malloc(dev, sizeof *e) : NULL;
	if (rule == NICREF_RULE_NONE && !modify && !e)
		rule = NICREF_RULE_OBJ_NO_MEMORY;
	if (rule != NICREF_RULE_NONE) {
		if (!modify || (mask & MOD_DEST))
			dev_free(dev, n.dest);
		if (!modify || (mask & MOD_CNT))
			dev_free(dev, n.cnt);
		return rule;
	}
	if (modify) {
		/* §7.11.3.7 atomic: the new lists' references first, then the old ones go. */
		struct fte prev = *old;
		old->action = n.action;
		old->flow_tag = n.flow_tag;
		old->dest = n.dest, old->ndest = n.ndest, old->multi = n.multi;
		old->cnt = n.cnt, old->ncnt = n.ncnt;
		lists_ref(dev, t, old, 1);
		lists_ref(dev, t, &prev, -1);
		if (mask & MOD_DEST)
			dev_free(dev, prev.dest);
		if (mask & MOD_CNT)
			dev_free(dev, prev.cnt);
		return NICREF_RULE_NONE;
	}
	/* T430 40h: the match value; the fields the group does not match are reserved and not
	 * used (D-FT-5). */
	uint8_t v[FLOW_MATCH_LEN] = { 0 };
	if (c->in_len > FC_MATCH_OFF)
		memcpy(v, c->in + FC_MATCH_OFF,
		       c->in_len - FC_MATCH_OFF < sizeof v ? c->in_len - FC_MATCH_OFF : sizeof v);
	memcpy(n.value, v, sizeof n.value);
	for (unsigned w = 0; w < FLOW_MATCH_WORDS; w++)
		n.value[w] &= g->mask[w];
	*e = n;
	t->fte[idx] = e;
	t->nfte++;
	dev->flow.nflows[t->type]++;
	chain_insert(g, e);
	flow_ref(dev, OBJ_FG, g->hdr.handle, 1);
	lists_ref(dev, t, e, 1);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_flow_table_entry(struct cmd_ctx *c)
{
	struct flow_table *t;
	uint32_t idx;
	enum nicref_cmd_rule rule = locate(c, &t, &idx);
	if (rule != NICREF_RULE_NONE)
		return rule;
	const struct fte *e = t->fte[idx];
	if (!e) /* §7.11.3.9 */
		return NICREF_RULE_FTE_NOT_VALID;
	uint64_t need = FC_LIST_OFF + (uint64_t)LIST_ENTRY * (e->ndest + e->ncnt);
	if (need > c->output_length || need > c->out_len)
		return NICREF_RULE_FTE_OUTPUT_TOO_SHORT;
	uint8_t *o = c->out;
	size_t len = c->out_len;
	PRM_SET(query_flow_table_entry_out, group_id, o, len, e->fg->hdr.handle);
	PRM_SET(query_flow_table_entry_out, flow_tag, o, len, e->flow_tag);
	PRM_SET(query_flow_table_entry_out, action, o, len, e->action);
	PRM_SET(query_flow_table_entry_out, destination_list_size, o, len, e->ndest);
	PRM_SET(query_flow_table_entry_out, flow_counter_list_size, o, len, e->ncnt);
	memcpy(o + FC_MATCH_OFF, e->value, FLOW_MATCH_LEN);
	for (uint32_t k = 0; k < e->ndest + e->ncnt; k++) {
		uint8_t *p = o + FC_LIST_OFF + (size_t)k * LIST_ENTRY;
		if (k < e->ndest) {
			prm_set(p, LIST_ENTRY, PRM_FIELD(flow_destination, destination_type), e->dest[k].type);
			prm_set(p, LIST_ENTRY, PRM_FIELD(flow_destination, destination_id), e->dest[k].id);
		} else {
			prm_set(p, LIST_ENTRY, PRM_FIELD(flow_counter_entry, flow_counter_id),
				e->cnt[k - e->ndest]);
		}
	}
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_delete_flow_table_entry(struct cmd_ctx *c)
{
	struct flow_table *t;
	uint32_t idx;
	enum nicref_cmd_rule rule = locate(c, &t, &idx);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (!t->fte[idx]) /* §7.11.3.8: "A Flow must be valid" */
		return NICREF_RULE_FTE_NOT_VALID;
	fte_delete(c->dev, t, t->fte[idx]);
	return NICREF_RULE_NONE;
}
