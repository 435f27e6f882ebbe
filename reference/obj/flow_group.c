/* Flow groups: CREATE_FLOW_GROUP, DESTROY_FLOW_GROUP, QUERY_FLOW_GROUP (PRM §7.11.3.4,
 * §12.14.6-§12.14.8, T405-T426), the match criteria against ft_field_support and
 * ft_field_bitmask_support (T151-T153), and each group's lookup index (obj/flow.h).
 * Decisions: docs/steer.md. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/flow_cmd.h"

#define FG_CRITERIA_OFF 0x40 /* T406: match_criteria at 40h, 200h bytes */

bool flow_field_supported(const struct nicref_dev *dev, unsigned t, bool bitmask, unsigned bit)
{
	const struct nicref_field *blk =
		t == FLOW_NIC_RX ? PRM_FIELD(flow_table_nic_cap, flow_table_properties_nic_receive)
				 : PRM_FIELD(flow_table_nic_cap, flow_table_properties_nic_transmit);
	const struct nicref_field *w = bitmask ? PRM_FIELD(flow_table_properties, ft_field_bitmask_support)
					       : PRM_FIELD(flow_table_properties, ft_field_support);
	const uint8_t *p = dev->core.caps.cur[CAP_FLOW_TABLE_NIC] + blk->prm_offset + w->prm_offset;
	uint32_t dw = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (dw >> bit) & 1;
}

/* The match fields of T409-T416 and the T153 bit that allows a FULL or PARTIAL mask of each.
 * ALWAYS: no T153 bit, always matched (D-FT-2: cvlan_tag, svlan_tag, the second-tag kinds);
 * NEVER: not matched by the model (inner headers, inner_second_cvlan_tag; D-FT-2). */
enum { SUP_ALWAYS = 0xFE, SUP_NEVER = 0xFF };
enum { FK_PLAIN, FK_DMAC, FK_IP };
struct match_field {
	uint16_t f1, f2; /* PRMF_fte_match_param__*: f2 the second piece, or f1 */
	uint8_t sup;     /* T153 bit, SUP_ALWAYS or SUP_NEVER */
	uint8_t kind;
};
#define MF(a, b, s, k) { PRMF_fte_match_param__##a, PRMF_fte_match_param__##b, s, k },
#define LYR_FIELDS(P, S)                                                                        \
	MF(P##smac_47_16, P##smac_15_0, S(30), FK_PLAIN)                                        \
	MF(P##ethertype, P##ethertype, S(29), FK_PLAIN)                                         \
	MF(P##dmac_47_16, P##dmac_15_0, S(31), FK_DMAC)                                         \
	MF(P##first_prio, P##first_prio, S(27), FK_PLAIN)                                       \
	MF(P##first_cfi, P##first_cfi, S(26), FK_PLAIN)                                         \
	MF(P##first_vid, P##first_vid, S(25), FK_PLAIN)                                         \
	MF(P##ip_protocol, P##ip_protocol, S(16), FK_PLAIN)                                     \
	MF(P##ip_dscp, P##ip_dscp, S(14), FK_PLAIN)                                             \
	MF(P##ip_ecn, P##ip_ecn, S(15), FK_PLAIN)                                               \
	MF(P##cvlan_tag, P##cvlan_tag, S(SUP_ALWAYS), FK_PLAIN)                                 \
	MF(P##svlan_tag, P##svlan_tag, S(SUP_ALWAYS), FK_PLAIN)                                 \
	MF(P##frag, P##frag, S(17), FK_PLAIN)                                                   \
	MF(P##tcp_flags, P##tcp_flags, S(9), FK_PLAIN)                                          \
	MF(P##tcp_sport, P##tcp_sport, S(11), FK_PLAIN)                                         \
	MF(P##tcp_dport, P##tcp_dport, S(10), FK_PLAIN)                                         \
	MF(P##udp_sport, P##udp_sport, S(13), FK_PLAIN)                                         \
	MF(P##udp_dport, P##udp_dport, S(12), FK_PLAIN)                                         \
	MF(P##src_ip, P##src_ip, S(19), FK_IP)                                                  \
	MF(P##dst_ip, P##dst_ip, S(18), FK_IP)
#define SUP_OUTER(b) b
#define SUP_INNER(b) SUP_NEVER
static const struct match_field match_fields[] = {
	LYR_FIELDS(outer_, SUP_OUTER)
	MF(outer_second_prio, outer_second_prio, 23, FK_PLAIN)
	MF(outer_second_cfi, outer_second_cfi, 22, FK_PLAIN)
	MF(outer_second_vid, outer_second_vid, 21, FK_PLAIN)
	MF(outer_second_cvlan_tag, outer_second_cvlan_tag, SUP_ALWAYS, FK_PLAIN)
	MF(inner_second_cvlan_tag, inner_second_cvlan_tag, SUP_NEVER, FK_PLAIN)
	MF(outer_second_svlan_tag, outer_second_svlan_tag, SUP_ALWAYS, FK_PLAIN)
	MF(outer_ipv6_flow_label, outer_ipv6_flow_label, 20, FK_PLAIN)
	LYR_FIELDS(inner_, SUP_INNER)
};
#define NMATCH_FIELDS (sizeof match_fields / sizeof match_fields[0])

static bool bit_at(const uint8_t *m, uint32_t i)
{
	return (m[i / 8] >> (7 - i % 8)) & 1;
}

/* Bits of field f set in m, and clears them in rest. */
static uint32_t take_bits(const uint8_t *m, uint8_t *rest, const struct nicref_field *f)
{
	uint32_t n = 0;
	for (uint32_t i = f->bit_offset; i < f->bit_offset + f->bit_width; i++) {
		n += bit_at(m, i);
		rest[i / 8] &= (uint8_t)~(1u << (7 - i % 8));
	}
	return n;
}

/* §7.11.3.4: NONE always; FULL with ft_field_support; PARTIAL with ft_field_bitmask_support.
 * Two masks are supported under either bit: the dmac mask 01:00:00:00:00:00, a PARTIAL mask the
 * note "also" supports with FULL dmac support; and an IPv4 address mask (the last dword all ones,
 * the 96 bits before it 0, T413), FULL of T413's ipv4 field and PARTIAL of the 128-bit address
 * (D-FT-9). */
static enum nicref_cmd_rule check_criteria(const struct nicref_dev *dev, unsigned type,
					   uint8_t enable, const uint8_t *m)
{
	if (enable & ~7u)
		return NICREF_RULE_FG_CRITERIA_ENABLE;
	uint8_t rest[FLOW_MATCH_LEN];
	memcpy(rest, m, sizeof rest);
	for (size_t k = 0; k < NMATCH_FIELDS; k++) {
		const struct match_field *mf = &match_fields[k];
		const struct nicref_field *a = &nicref_layout_fte_match_param.fields[mf->f1];
		const struct nicref_field *b = &nicref_layout_fte_match_param.fields[mf->f2];
		uint32_t set = take_bits(m, rest, a);
		uint32_t width = a->bit_width;
		if (b != a) {
			set += take_bits(m, rest, b);
			width += b->bit_width;
		}
		unsigned block = a->bit_offset / (0x40 * 8); /* 0 outer, 1 misc, 2 inner (T406) */
		if (set == 0)
			continue;
		if (!(enable & (1u << block)))
			return NICREF_RULE_FG_CRITERIA_RESERVED; /* "Unused parameters are reserved" */
		if (mf->sup == SUP_ALWAYS)
			continue;
		if (mf->sup == SUP_NEVER)
			return NICREF_RULE_FG_CRITERIA_UNSUPPORTED;
		bool full = set == width, either = false;
		if (mf->kind == FK_IP && set == 32) { /* D-FT-9: an IPv4 address, T413 0Ch */
			uint32_t v4 = a->bit_offset + 96;
			either = true;
			for (uint32_t i = v4; i < v4 + 32; i++)
				either = either && bit_at(m, i);
		}
		if (mf->kind == FK_DMAC && set == 1 && bit_at(m, a->bit_offset + 7))
			either = true; /* the multicast bit: PARTIAL, "also supported if a FULL match is" */
		bool ok = either ? flow_field_supported(dev, type, false, mf->sup) ||
					   flow_field_supported(dev, type, true, mf->sup)
				 : flow_field_supported(dev, type, !full, mf->sup);
		if (!ok)
			return NICREF_RULE_FG_CRITERIA_UNSUPPORTED;
	}
	for (size_t i = 0; i < sizeof rest; i++)
		if (rest[i])
			return NICREF_RULE_FG_CRITERIA_RESERVED; /* a bit no field of T409/T416 has */
	return NICREF_RULE_NONE;
}

static inline uint32_t group_hash(const struct flow_group *g, const uint32_t *key)
{
	uint32_t h = 2166136261u;
	for (unsigned k = 0; k < g->nwords; k++) {
		h ^= key[g->word[k]] & g->mask[g->word[k]];
		h *= 16777619u;
		h ^= h >> 15;
	}
	return h;
}

uint32_t flow_group_hash(const struct flow_group *g, const uint32_t *key)
{
	return group_hash(g, key);
}

static bool fte_matches(const struct flow_group *g, const struct fte *e, const uint32_t *key)
{
	for (unsigned k = 0; k < g->nwords; k++) {
		unsigned w = g->word[k];
		if ((key[w] & g->mask[w]) != e->value[w])
			return false;
	}
	return true;
}

/* Inline in the table's look-up, which calls it for each group in turn (about three a frame). */
static inline const struct fte *group_lookup(const struct flow_group *g, const uint32_t *key)
{
	uint32_t h = group_hash(g, key);
	for (const struct fte *e = g->bucket[h & (g->nbuckets - 1)]; e; e = e->next)
		if (e->hash == h && fte_matches(g, e, key))
			return e; /* chains are sorted by flow_index: the first is the lowest */
	return NULL;
}

const struct fte *flow_group_lookup(const struct flow_group *g, const uint32_t *key)
{
	return group_lookup(g, key);
}

const struct fte *flow_table_lookup(const struct flow_table *t, const uint32_t *key)
{
	for (uint32_t i = 0; i < t->ngroups; i++) {
		const struct flow_group *g = t->groups[i];
		if (g->hdr.refs == 0)
			continue; /* no valid flow */
		const struct fte *e = group_lookup(g, key);
		if (e)
			return e;
	}
	return NULL;
}

/* The group a command names (group_id 18h of T420/T424), in table t. */
static enum nicref_cmd_rule lookup(const struct cmd_ctx *c, struct flow_table *t, uint32_t id,
				   struct flow_group **out)
{
	if (!obj_in_range(c->dev, OBJ_FG, id))
		return NICREF_RULE_FG_ID_OUT_OF_RANGE;
	struct flow_group *g = obj_get(c->dev, OBJ_FG, id);
	if (!g || g->ft != t) /* §7.11.3.4.1: unique for its table */
		return NICREF_RULE_FG_NOT_FOUND;
	*out = g;
	return NICREF_RULE_NONE;
}

/* Where a group starting at `start` goes in t->groups. */
static uint32_t slot_of(const struct flow_table *t, uint32_t start)
{
	uint32_t lo = 0, hi = t->ngroups;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (t->groups[mid]->start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

enum nicref_cmd_rule cmd_create_flow_group(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	unsigned type;
	enum nicref_cmd_rule rule = flow_cmd_type(c, &type);
	if (rule != NICREF_RULE_NONE)
		return rule;
	uint32_t start = (uint32_t)PRM_GET(create_flow_group_in, start_flow_index, c->in, c->in_len);
	uint32_t end = (uint32_t)PRM_GET(create_flow_group_in, end_flow_index, c->in, c->in_len);
	uint8_t enable = (uint8_t)PRM_GET(create_flow_group_in, match_criteria_enable, c->in, c->in_len);
	uint8_t m[PRM_SIZE_fte_match_param] = { 0 };
	if (c->in_len > FG_CRITERIA_OFF)
		memcpy(m, c->in + FG_CRITERIA_OFF,
		       c->in_len - FG_CRITERIA_OFF < sizeof m ? c->in_len - FG_CRITERIA_OFF : sizeof m);
	/* D-CMD-7 step 6: the fields (BAD_PARAM), then the table named and what depends on it. */
	if (start > end)
		return NICREF_RULE_FG_INDEX_ORDER;
	if ((rule = check_criteria(dev, type, enable, m)) != NICREF_RULE_NONE)
		return rule;
	struct flow_table *t;
	if ((rule = flow_cmd_table(c, &t)) != NICREF_RULE_NONE)
		return rule;
	if ((uint64_t)end >= (1ull << t->log_size))
		return NICREF_RULE_FG_BEYOND_TABLE;
	/* Dispatch refused C0h-1FFh of the criteria as reserved (D-CMD-8): no field covers it. */
	uint32_t at = slot_of(t, start);
	if ((at < t->ngroups && t->groups[at]->start <= end) ||
	    (at > 0 && t->groups[at - 1]->end >= start))
		return NICREF_RULE_FG_OVERLAP;
	if (obj_charge(dev, OBJ_FG) != 0)
		return NICREF_RULE_ICM_PAGES_SHORT;
	uint64_t size = (uint64_t)end - start + 1;
	uint32_t nb = 1;
	while (nb < size && nb < (1u << 16))
		nb <<= 1;
	struct flow_group *g = dev_calloc(dev, 1, sizeof *g);
	struct fte **bucket = dev_calloc(dev, nb, sizeof *bucket);
	struct flow_group **groups = t->groups;
	if (g && bucket && t->ngroups == t->groups_cap) {
		uint32_t cap = t->groups_cap ? t->groups_cap * 2 : 4;
		groups = dev_realloc(dev, t->groups, cap * sizeof *groups);
		if (groups) {
			t->groups = groups;
			t->groups_cap = cap;
		}
	}
	int64_t h = g && bucket && groups ? objtab_alloc(&dev->obj[OBJ_FG], g) : -2;
	if (h < 0) {
		dev_free(dev, g);
		dev_free(dev, bucket);
		obj_uncharge(dev, OBJ_FG);
		return NICREF_RULE_OBJ_NO_MEMORY; /* 2^24 groups outnumber the flows a device holds */
	}
	g->hdr.handle = (uint32_t)h;
	g->ft = t;
	g->start = start;
	g->end = end;
	g->enable = enable;
	for (unsigned b = 0; b < 3; b++) /* blocks left off are reserved, hence 0 (checked) */
		memcpy((uint8_t *)g->mask + 0x40 * b, m + 0x40 * b, 0x40);
	for (unsigned w = 0; w < FLOW_MATCH_WORDS; w++)
		if (g->mask[w])
			g->word[g->nwords++] = (uint8_t)w;
	g->nbuckets = nb;
	g->bucket = bucket;
	memmove(&t->groups[at + 1], &t->groups[at], (t->ngroups - at) * sizeof *t->groups);
	t->groups[at] = g;
	t->ngroups++;
	flow_ref(dev, OBJ_FT, t->hdr.handle, 1);
	PRM_SET(create_flow_group_out, group_id, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

void flow_group_free(struct nicref_dev *dev, struct flow_group *g)
{
	struct flow_table *t = g->ft;
	uint32_t at = slot_of(t, g->start);
	NICREF_ASSERT(at < t->ngroups && t->groups[at] == g);
	memmove(&t->groups[at], &t->groups[at + 1], (t->ngroups - at - 1) * sizeof *t->groups);
	t->ngroups--;
	flow_ref(dev, OBJ_FT, t->hdr.handle, -1);
	NICREF_ASSERT(objtab_remove(&dev->obj[OBJ_FG], g->hdr.handle) == g);
	obj_uncharge(dev, OBJ_FG);
	dev_free(dev, g->bucket);
	dev_free(dev, g);
}

enum nicref_cmd_rule cmd_destroy_flow_group(struct cmd_ctx *c)
{
	struct flow_table *t;
	struct flow_group *g;
	enum nicref_cmd_rule rule = flow_cmd_table(c, &t);
	if (rule != NICREF_RULE_NONE ||
	    (rule = lookup(c, t, (uint32_t)PRM_GET(destroy_flow_group_in, group_id, c->in, c->in_len),
			   &g)) != NICREF_RULE_NONE)
		return rule;
	if (g->hdr.refs) /* §7.11.3.8: all its flows invalid first */
		return NICREF_RULE_FG_IN_USE;
	flow_group_free(c->dev, g);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_flow_group(struct cmd_ctx *c)
{
	struct flow_table *t;
	struct flow_group *g;
	enum nicref_cmd_rule rule = flow_cmd_table(c, &t);
	if (rule != NICREF_RULE_NONE ||
	    (rule = lookup(c, t, (uint32_t)PRM_GET(query_flow_group_in, group_id, c->in, c->in_len),
			   &g)) != NICREF_RULE_NONE)
		return rule;
	PRM_SET(query_flow_group_out, start_flow_index, c->out, c->out_len, g->start);
	PRM_SET(query_flow_group_out, end_flow_index, c->out, c->out_len, g->end);
	PRM_SET(query_flow_group_out, match_criteria_enable, c->out, c->out_len, g->enable);
	if (c->out_len >= FG_CRITERIA_OFF + FLOW_MATCH_LEN)
		memcpy(c->out + FG_CRITERIA_OFF, g->mask, FLOW_MATCH_LEN);
	return NICREF_RULE_NONE;
}
