/* PPCNT - Ports Performance Counters Register (PRM §11.1.5 T113-T126, register 0x5008). The
 * counters live in the port model (reg/port.c), named from the same lists as the layouts. */
#include "reg/reg.h"

#define GRP_ALL 63        /* T114: "Group 63 indicates all groups" */
#define COUNTER_SET 0x08  /* T114: counter_set 08h-FCh */

struct ppcnt_group {
	uint8_t grp;
	const struct nicref_layout *layout; /* _high/_low rows, in counter order */
	enum port_counter first;
	unsigned n;
};

static const struct ppcnt_group groups[] = {
#define GROUP_ROW(ID, grp, sfx)                                                                 \
	{ grp, &nicref_layout_ppcnt_##sfx, PORT_CNT_FIRST_##ID, PORT_NCNT_##ID },
	PORT_CNT_GROUPS(GROUP_ROW)
#undef GROUP_ROW
};
#define NGROUPS (sizeof groups / sizeof groups[0])

/* HCA_CAP max_tc (PRM §12.3.3.1 T145 38h[19:16]): "The device supports TCs in range
 * 0..max_tc-1. Value 0 indicates that 8 TCs are supported." */
static unsigned num_tcs(const struct nicref_dev *dev)
{
	unsigned t = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, max_tc);
	return t == 0 || t > PORT_TCS ? PORT_TCS : t;
}

static const struct ppcnt_group *group_find(unsigned grp)
{
	for (size_t i = 0; i < NGROUPS; i++)
		if (groups[i].grp == grp)
			return &groups[i];
	return NULL;
}

/* How many counter sets a group has: priorities, traffic classes, or the one port-wide set. */
static unsigned group_sets(const struct nicref_dev *dev, const struct ppcnt_group *g)
{
	if (g->first >= PORT_CNT_FIRST_PER_TC)
		return num_tcs(dev);
	if (g->first >= PORT_CNT_FIRST_PER_PRIO)
		return PORT_PRIOS;
	return 1;
}

/* T114 clr: "reset the counter value for all counters in the counter group" of the set the
 * index names (D-REG-18). transmit_queue is a queue depth, not a counter: kept. */
static void clear_set(struct reg_ctx *r, const struct ppcnt_group *g, unsigned set)
{
	for (unsigned k = 0; k < g->n; k++) {
		enum port_counter id = (enum port_counter)(g->first + (int)k);
		if (id != PORT_CNT_transmit_queue)
			*port_counter(r->c->dev, r->local_port, id, set) = 0;
	}
}

/* The group and set a READ or a WRITE names; grp 63 is handled by the caller. */
static enum nicref_cmd_rule index_check(const struct reg_ctx *r, const struct ppcnt_group **g,
					unsigned *set)
{
	*g = group_find((unsigned)REG_IN(ppcnt, grp, r));
	/* 0x15 "Per Receive Buffer" is "For Switches only"; other values are not groups. */
	if (!*g)
		return NICREF_RULE_PPCNT_GRP_INVALID;
	/* T114 prio_tc: 0-7 for priorities, the device's TCs for traffic classes (D-REG-19),
	 * "Otherwise must be 0". */
	*set = (unsigned)REG_IN(ppcnt, prio_tc, r);
	if (*set >= group_sets(r->c->dev, *g))
		return NICREF_RULE_PPCNT_PRIO_TC_RANGE;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule reg_ppcnt_query(struct reg_ctx *r)
{
	if (REG_IN(ppcnt, grp, r) == GRP_ALL)
		return NICREF_RULE_PPCNT_GRP_ALL_NOT_CLR; /* "Only valid on Set() ... with clr" */
	const struct ppcnt_group *g;
	unsigned set;
	enum nicref_cmd_rule rule = index_check(r, &g, &set);
	if (rule != NICREF_RULE_NONE)
		return rule;
	REG_OUT(ppcnt, local_port, r, r->local_port);
	REG_OUT(ppcnt, grp, r, g->grp);
	REG_OUT(ppcnt, prio_tc, r, set);
	/* Each counter is the layout's _high row and the _low row after it. */
	uint8_t *cs = r->out + COUNTER_SET;
	size_t cs_len = r->out_len - COUNTER_SET;
	for (unsigned k = 0; k < g->n; k++) {
		enum port_counter id = (enum port_counter)(g->first + (int)k);
		uint64_t v = *port_counter(r->c->dev, r->local_port, id, set);
		prm_set(cs, cs_len, &g->layout->fields[2 * k], v >> 32);
		prm_set(cs, cs_len, &g->layout->fields[2 * k + 1], v & 0xFFFFFFFFu);
	}
	/* T114 clr "can be set for both Set() and Get()": a Get returns the counts, then clears
	 * them (D-REG-18). */
	if (REG_IN(ppcnt, clr, r))
		clear_set(r, g, set);
	return NICREF_RULE_NONE;
}

/* The counters are read-only; a WRITE only clears (clr), and without clr changes nothing
 * (D-REG-18). */
enum nicref_cmd_rule reg_ppcnt_write(struct reg_ctx *r)
{
	bool clr = REG_IN(ppcnt, clr, r);
	if (REG_IN(ppcnt, grp, r) == GRP_ALL) {
		if (!clr)
			return NICREF_RULE_PPCNT_GRP_ALL_NOT_CLR;
		if (REG_IN(ppcnt, prio_tc, r) != 0)
			return NICREF_RULE_PPCNT_PRIO_TC_RANGE;
		for (size_t i = 0; i < NGROUPS; i++)
			for (unsigned s = 0; s < group_sets(r->c->dev, &groups[i]); s++)
				clear_set(r, &groups[i], s);
		return NICREF_RULE_NONE;
	}
	const struct ppcnt_group *g;
	unsigned set;
	enum nicref_cmd_rule rule = index_check(r, &g, &set);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (clr)
		clear_set(r, g, set);
	return NICREF_RULE_NONE;
}
