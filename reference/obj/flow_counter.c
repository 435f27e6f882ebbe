/* Flow counters: ALLOC_FLOW_COUNTER, DEALLOC_FLOW_COUNTER, QUERY_FLOW_COUNTER (PRM §7.11.2.8,
 * §7.11.3.5, §12.14.12-§12.14.14, T445-T456, T491). Counted by steer/classify.c. Decisions:
 * docs/steer.md (D-FC-*). */
#include <stdlib.h>

#include "cmd/cmd_table.h"
#include "obj/flow_cmd.h"

#define STATS_OFF 0x10 /* T456: flow_statistics[] from 10h */
#define STATS_ENTRY 0x10 /* T491: 16 bytes a counter */

enum nicref_cmd_rule cmd_alloc_flow_counter(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const struct objtab *tab = &dev->obj[OBJ_FC];
	/* §7.11.3.5: "must not exceed max_flow_counter" (T145 68h[15:0]). */
	if (tab->nlive >= CAPS_CUR(dev, CAP_GENERAL, hca_cap, max_flow_counter) ||
	    tab->nlive >= tab->limit - tab->base)
		return NICREF_RULE_FC_EXHAUSTED;
	if (obj_charge(dev, OBJ_FC) != 0)
		return NICREF_RULE_ICM_PAGES_SHORT;
	struct flow_counter *f = dev_calloc(dev, 1, sizeof *f); /* §12.14.12: "initialized to 0x0" */
	int64_t h = f ? objtab_alloc(&dev->obj[OBJ_FC], f) : -2;
	if (h < 0) {
		dev_free(dev, f);
		obj_uncharge(dev, OBJ_FC);
		return h == -1 ? NICREF_RULE_FC_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	f->hdr.handle = (uint32_t)h;
	PRM_SET(alloc_flow_counter_out, flow_counter_id, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

static enum nicref_cmd_rule lookup(const struct cmd_ctx *c, uint32_t id, struct flow_counter **out)
{
	if (!obj_in_range(c->dev, OBJ_FC, id))
		return NICREF_RULE_FC_OUT_OF_RANGE;
	*out = obj_get(c->dev, OBJ_FC, id);
	return *out ? NICREF_RULE_NONE : NICREF_RULE_FC_NOT_FOUND;
}

static void counter_free(struct nicref_dev *dev, struct flow_counter *f)
{
	NICREF_ASSERT(objtab_remove(&dev->obj[OBJ_FC], f->hdr.handle) == f);
	obj_uncharge(dev, OBJ_FC);
	dev_free(dev, f);
}

enum nicref_cmd_rule cmd_dealloc_flow_counter(struct cmd_ctx *c)
{
	struct flow_counter *f;
	enum nicref_cmd_rule rule = lookup(
		c, (uint32_t)PRM_GET(dealloc_flow_counter_in, flow_counter_id, c->in, c->in_len), &f);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (f->hdr.refs) /* §12.14.13: "must not be associated with any Flow" */
		return NICREF_RULE_FC_IN_USE;
	counter_free(c->dev, f);
	return NICREF_RULE_NONE;
}

static void put_stats(struct cmd_ctx *c, uint32_t k, const struct flow_counter *f)
{
	size_t off = STATS_OFF + (size_t)k * STATS_ENTRY;
	uint8_t *p = c->out + off;
	prm_set(p, c->out_len - off, PRM_FIELD(traffic_counter, packets), f ? f->packets : 0);
	prm_set(p, c->out_len - off, PRM_FIELD(traffic_counter, octets), f ? f->octets : 0);
}

enum nicref_cmd_rule cmd_query_flow_counter(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	bool clear = PRM_GET(query_flow_counter_in, clear, c->in, c->in_len);
	uint32_t num = (uint32_t)PRM_GET(query_flow_counter_in, num_of_counters, c->in, c->in_len);
	uint32_t id = (uint32_t)PRM_GET(query_flow_counter_in, flow_counter_id, c->in, c->in_len);
	if (num == 0) {
		struct flow_counter *f;
		enum nicref_cmd_rule rule = lookup(c, id, &f);
		if (rule != NICREF_RULE_NONE)
			return rule;
		put_stats(c, 0, f);
		if (clear) /* T454 18h: "Read and reset" */
			f->packets = f->octets = 0;
		return NICREF_RULE_NONE;
	}
	/* Bulk (D-FC-3): clear "Valid only when number_of_flow_counter==0"; the id "must be aligned
	 * to 4"; at most 2^log_max_flow_counter_bulk (T145 68h[23:16]); the output holds them. */
	if (clear)
		return NICREF_RULE_FC_BULK_CLEAR;
	if (id % 4)
		return NICREF_RULE_FC_BULK_ALIGN;
	uint64_t lb = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_flow_counter_bulk);
	if (num > (1ull << (lb < 32 ? lb : 32)))
		return NICREF_RULE_FC_BULK_TOO_MANY;
	uint64_t need = STATS_OFF + (uint64_t)STATS_ENTRY * num;
	if (need > c->output_length || need > c->out_len)
		return NICREF_RULE_FC_OUTPUT_TOO_SHORT;
	/* T456: "unallocated flow counters will be returned with unknown value": 0 (D-FC-4). */
	for (uint32_t k = 0; k < num; k++)
		put_stats(c, k, obj_get(dev, OBJ_FC, id + k));
	return NICREF_RULE_NONE;
}

void flow_counters_reset(struct nicref_dev *dev)
{
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_FC], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_FC], (uint32_t)h + 1, &o))
		counter_free(dev, o);
}
