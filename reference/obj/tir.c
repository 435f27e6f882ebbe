/* Transport interface receive: CREATE_TIR, MODIFY_TIR, DESTROY_TIR, QUERY_TIR (PRM §7.5,
 * §12.8, T44-T48, T281-T296), and the family hooks of TIS, TIR and RQT (tis.c, rqt.c).
 * Decisions: docs/tir.md (D-TIR-*).
 *
 * A TIR names its transport domain and either one RQ (Direct, inline_rqn) or an RQT
 * (Indirect, indirect_table, with a hash function to pick the entry). It has no state field:
 * CREATE_TIR's "placed at the RDY state" (L7287) is nominal. Checks run in the precedence of
 * D-CMD-7: field values (BAD_PARAM), the objects named (BAD_INDEX, BAD_RESOURCE), limits
 * (EXCEED_LIM), then ICM pages (NO_RESOURCES); a refused command changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/obj_walk.h"
#include "obj/modify_mask.h"

#define TIR_CTX_OFF 0x20 /* T281/T285/T295: the context at 20h */

/* T48 bitmask bits. */
enum {
	TIR_MOD_LRO = 1u << 0,
	TIR_MOD_INDIRECT_TABLE = 1u << 1,
	TIR_MOD_HASH = 1u << 2,
	TIR_MOD_SELF_LB = 1u << 4,
};
/* T48: the context fields MODIFY_TIR can select, by bitmask bit; the others (disp_type,
 * inline_rqn, tunneled_offload_en, transport_domain) are not modifiable and reserved in its
 * input, as are the selectable ones whose bit is clear (D-MOD-1). */
#define TIR_MODIFY_FIELDS(X)                                                                    \
	X(lro_enable_mask, 0)                                                                   \
	X(lro_timeout_period_usecs, 0)                                                          \
	X(lro_max_msg_sz, 0)                                                                    \
	X(indirect_table, 1)                                                                    \
	X(rx_hash_fn, 2)                                                                        \
	X(rx_hash_symmetric, 2)                                                                 \
	X(rx_hash_toeplitz_key, 2)                                                              \
	X(rx_hash_field_selector_outer, 2)                                                      \
	X(rx_hash_field_selector_inner, 2)                                                      \
	X(self_lb_en, 4)
#define TIR_SEL_ROW(n, bit) { PRMF_modify_tir_in__##n, bit },
static const struct modify_sel tir_modify_sel[] = { TIR_MODIFY_FIELDS(TIR_SEL_ROW) };

/* T47 selected_fields: bits 0-4 defined, "5-29: reserved". */
#define HASH_FIELDS_DEFINED 0x1Fu
#define HASH_FIELDS_MASK 0x3FFFFFFFu

/* A field of the TIR context at 20h of buf. */
static uint64_t ctx_get(const uint8_t *buf, size_t len, const struct nicref_field *f)
{
	return len > TIR_CTX_OFF ? prm_get(buf + TIR_CTX_OFF, len - TIR_CTX_OFF, f) : 0;
}
static void ctx_set(uint8_t *buf, size_t len, const struct nicref_field *f, uint64_t v)
{
	if (len > TIR_CTX_OFF)
		prm_set(buf + TIR_CTX_OFF, len - TIR_CTX_OFF, f, v);
}
#define TIRC_GET(c, n) ctx_get((c)->in, (c)->in_len, PRM_FIELD(tirc, n))
#define TIRC_SET(c, n, v) ctx_set((c)->out, (c)->out_len, PRM_FIELD(tirc, n), (v))

/* The field groups of T48 as the input states them. */
static void read_lro(const struct cmd_ctx *c, struct tir *t)
{
	t->lro_enable_mask = (uint8_t)TIRC_GET(c, lro_enable_mask);
	t->lro_timeout = (uint16_t)TIRC_GET(c, lro_timeout_period_usecs);
	t->lro_max_msg_sz = (uint8_t)TIRC_GET(c, lro_max_msg_sz);
}

static void read_hash(const struct cmd_ctx *c, struct tir *t)
{
	t->rx_hash_fn = (uint8_t)TIRC_GET(c, rx_hash_fn);
	t->rx_hash_symmetric = TIRC_GET(c, rx_hash_symmetric);
	t->sel_outer = (uint32_t)TIRC_GET(c, rx_hash_field_selector_outer);
	t->sel_inner = (uint32_t)TIRC_GET(c, rx_hash_field_selector_inner);
	memset(t->toeplitz_key, 0, sizeof t->toeplitz_key);
	if (c->in_len > TIR_CTX_OFF)
		(void)nicref_field_get_bytes(c->in + TIR_CTX_OFF, c->in_len - TIR_CTX_OFF,
					     PRM_FIELD(tirc, rx_hash_toeplitz_key), t->toeplitz_key,
					     sizeof t->toeplitz_key);
}

/* T45 LRO group: lro_enable_mask "Other - Reserved"; LRO needs HCA_CAP.lro_cap (§3.3.6). */
static enum nicref_cmd_rule check_lro(const struct nicref_dev *dev, const struct tir *t)
{
	if (t->lro_enable_mask & ~3u)
		return NICREF_RULE_TIR_LRO_MASK_RESERVED;
	if (t->lro_enable_mask && !CAPS_CUR(dev, CAP_ETH_OFFLOAD,
					    per_protocol_networking_offload_caps, lro_cap))
		return NICREF_RULE_TIR_LRO_UNSUPPORTED;
	return NICREF_RULE_NONE;
}

/* T45 hash group against the dispatch type (and tunneled_offload_en, fixed at create). */
static enum nicref_cmd_rule check_hash(const struct tir *t)
{
	if (t->rx_hash_fn > TIR_HASH_TOEPLITZ)
		return NICREF_RULE_TIR_HASH_FN;
	/* T45 04h: Direct "must be HASH_NONE", Indirect "must not be HASH_NONE". */
	if (t->disp_type == TIR_DIRECT && t->rx_hash_fn != TIR_HASH_NONE)
		return NICREF_RULE_TIR_DIRECT_HASH;
	if (t->disp_type == TIR_INDIRECT && t->rx_hash_fn == TIR_HASH_NONE)
		return NICREF_RULE_TIR_INDIRECT_NO_HASH;
	if (t->rx_hash_fn == TIR_HASH_NONE)
		return NICREF_RULE_NONE; /* T45 50h/54h: "Reserved for rx_hash_fn HASH_NONE" */
	/* T45 50h/54h: the outer and inner selectors cannot be enabled together. */
	if (t->sel_outer && t->sel_inner)
		return NICREF_RULE_TIR_HASH_BOTH_SELECTORS;
	/* T47 29:0 "5-29: reserved". */
	if (((t->sel_outer | t->sel_inner) & HASH_FIELDS_MASK) & ~HASH_FIELDS_DEFINED)
		return NICREF_RULE_TIR_HASH_FIELDS_RESERVED;
	/* T45 54h: "can be enabled only when tunneled_offload_en == 1" (D-TIR-2). */
	if (t->sel_inner && !t->tunneled_offload_en)
		return NICREF_RULE_TIR_INNER_NOT_TUNNELED;
	return NICREF_RULE_NONE;
}

/* T45 24h[25:24]: bit 0 "supported only when HCA_CAP.self_lb_uc ==1", bit 1 likewise mc. */
static enum nicref_cmd_rule check_self_lb(const struct nicref_dev *dev, unsigned lb)
{
	if (((lb & 1) && !CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps,
				   self_lb_uc)) ||
	    ((lb & 2) && !CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps,
				   self_lb_mc)))
		return NICREF_RULE_TIR_SELF_LB_UNSUPPORTED;
	return NICREF_RULE_NONE;
}

/* The RQT an Indirect TIR names (T45 20h[23:0]). */
static enum nicref_cmd_rule check_rqt(const struct nicref_dev *dev, uint32_t rqtn)
{
	if (!obj_in_range(dev, OBJ_RQT, rqtn))
		return NICREF_RULE_TIR_RQT_OUT_OF_RANGE;
	return obj_get(dev, OBJ_RQT, rqtn) ? NICREF_RULE_NONE : NICREF_RULE_TIR_RQT_INVALID;
}

/* T45 10h[27:12]: a period the device does not support is "adjusted to the nearest timeout
 * period which is < requested"; below the smallest, "LRO will not work in this TIR". The
 * supported periods are HCA_CAP.lro_timer_supported_periods[4] (T147 30h-3Ch). D-TIR-4. */
static uint16_t lro_effective(const struct nicref_dev *dev, uint16_t want)
{
	const uint8_t *caps = dev->core.caps.cur[CAP_ETH_OFFLOAD];
	const struct nicref_field *p[4] = {
		PRM_FIELD(per_protocol_networking_offload_caps, lro_timer_supported_periods_0),
		PRM_FIELD(per_protocol_networking_offload_caps, lro_timer_supported_periods_1),
		PRM_FIELD(per_protocol_networking_offload_caps, lro_timer_supported_periods_2),
		PRM_FIELD(per_protocol_networking_offload_caps, lro_timer_supported_periods_3),
	};
	uint64_t best = 0;
	for (unsigned i = 0; i < 4; i++) {
		uint64_t v = prm_get(caps, CAP_BYTES, p[i]);
		if (v <= want && v > best)
			best = v;
	}
	return (uint16_t)best;
}

/* T45's fields that another field's value makes reserved, in the groups the input states
 * (CREATE_TIR: all; MODIFY_TIR: the LRO and hash groups its bitmask selects; an unselected
 * field is reserved anyway, D-MOD-1): D-CMD-8's one rule, as D-WQ-8 applies it to T53/T61
 * (D-TIR-3). The values they depend on have passed their checks. */
static enum nicref_cmd_rule check_reserved_by_setting(struct cmd_ctx *c, const struct tir *t,
						      bool disp, bool lro, bool hash)
{
	uint16_t f[8];
	size_t k = 0;
	/* 1Ch "Reserved for disp_type != direct"; 20h "Reserved when disp_type != Indirect". */
	if (disp)
		f[k++] = t->disp_type == TIR_DIRECT ? PRMF_tirc__indirect_table : PRMF_tirc__inline_rqn;
	/* 10h: lro_timeout_period_usecs and lro_max_msg_sz "Reserved when LRO is disabled". */
	if (lro && t->lro_enable_mask == 0) {
		f[k++] = PRMF_tirc__lro_timeout_period_usecs;
		f[k++] = PRMF_tirc__lro_max_msg_sz;
	}
	if (hash && t->rx_hash_fn == TIR_HASH_NONE) {
		/* 20h[31], 50h, 54h: "Reserved for (rx_hash_fn) HASH_NONE". */
		f[k++] = PRMF_tirc__rx_hash_symmetric;
		f[k++] = PRMF_tirc__rx_hash_field_selector_outer;
		f[k++] = PRMF_tirc__rx_hash_field_selector_inner;
	}
	/* 28h-4Ch: "Reserved when rx_hash_fn is not HASH_TOEPLITZ". */
	if (hash && t->rx_hash_fn != TIR_HASH_TOEPLITZ)
		f[k++] = PRMF_tirc__rx_hash_toeplitz_key;
	return fields_reserved_here(c, &nicref_layout_tirc, TIR_CTX_OFF, f, k);
}

/* D-TIR-3: fields a setting makes reserved are kept 0 (what the permissive profile runs with),
 * and the effective LRO period. */
static void normalize(const struct nicref_dev *dev, struct tir *t)
{
	if (t->disp_type == TIR_DIRECT)
		t->indirect_table = 0; /* T45 20h "Reserved when disp_type != Indirect" */
	else
		t->inline_rqn = 0; /* T45 1Ch "Reserved for disp_type != direct" */
	if (t->rx_hash_fn == TIR_HASH_NONE) {
		t->rx_hash_symmetric = false;
		t->sel_outer = t->sel_inner = 0;
	}
	if (t->rx_hash_fn != TIR_HASH_TOEPLITZ)
		memset(t->toeplitz_key, 0, sizeof t->toeplitz_key);
	if (t->lro_enable_mask == 0) /* T45 10h: "Reserved when LRO is disabled" */
		t->lro_timeout = t->lro_max_msg_sz = 0;
	t->lro_timeout_eff = t->lro_enable_mask ? lro_effective(dev, t->lro_timeout) : 0;
}

static void ref(struct nicref_dev *dev, enum obj_type type, uint32_t h, int d)
{
	struct obj_hdr *o = obj_get(dev, type, h);
	NICREF_ASSERT(o && (d > 0 || o->refs > 0));
	o->refs = (uint32_t)((int64_t)o->refs + d);
}

enum nicref_cmd_rule cmd_create_tir(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	struct tir n = { 0 };
	n.disp_type = (uint8_t)TIRC_GET(c, disp_type);
	n.inline_rqn = (uint32_t)TIRC_GET(c, inline_rqn);
	n.indirect_table = (uint32_t)TIRC_GET(c, indirect_table);
	n.tunneled_offload_en = TIRC_GET(c, tunneled_offload_en);
	n.self_lb_en = (uint8_t)TIRC_GET(c, self_lb_en);
	n.td = (uint32_t)TIRC_GET(c, transport_domain);
	read_lro(c, &n);
	read_hash(c, &n);

	/* T45 04h[31:28]: 0x0 Direct, 0x1 Indirect. */
	if (n.disp_type > TIR_INDIRECT)
		return NICREF_RULE_TIR_DISP_TYPE;
	enum nicref_cmd_rule rule;
	if ((rule = check_hash(&n)) || (rule = check_lro(dev, &n)) ||
	    (rule = check_self_lb(dev, n.self_lb_en)) ||
	    (rule = check_reserved_by_setting(c, &n, true, true, true)))
		return rule;
	/* T45 24h: the transport domain, then the RQ or RQT the TIR dispatches to. */
	if (!obj_in_range(dev, OBJ_TD, n.td))
		return NICREF_RULE_TIR_TD_OUT_OF_RANGE;
	if (!obj_get(dev, OBJ_TD, n.td))
		return NICREF_RULE_TIR_TD_INVALID;
	if (n.disp_type == TIR_DIRECT) {
		if (!obj_in_range(dev, OBJ_RQ, n.inline_rqn))
			return NICREF_RULE_TIR_RQ_OUT_OF_RANGE;
		if (!obj_get(dev, OBJ_RQ, n.inline_rqn))
			return NICREF_RULE_TIR_RQ_INVALID;
	} else if ((rule = check_rqt(dev, n.indirect_table)) != NICREF_RULE_NONE) {
		return rule;
	}
	/* T145 6Ch[12:8]: at most 2^log_max_tir. */
	const struct objtab *tab = &dev->obj[OBJ_TIR];
	if (tab->nlive >= tab->limit - tab->base)
		return NICREF_RULE_TIR_EXHAUSTED;
	if (obj_charge(dev, OBJ_TIR) != 0) /* D-PG-4 */
		return NICREF_RULE_ICM_PAGES_SHORT;
	struct tir *t = dev_malloc(dev, sizeof *t);
	int64_t h = t ? objtab_alloc(&dev->obj[OBJ_TIR], t) : -2;
	if (h < 0) {
		dev_free(dev, t);
		obj_uncharge(dev, OBJ_TIR);
		return h == -1 ? NICREF_RULE_TIR_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	normalize(dev, &n);
	n.hdr.handle = (uint32_t)h;
	*t = n;
	/* D-OBJ-1: the domain and the RQ or RQT stay while the TIR names them. */
	ref(dev, OBJ_TD, t->td, 1);
	if (t->disp_type == TIR_DIRECT)
		ref(dev, OBJ_RQ, t->inline_rqn, 1);
	else
		ref(dev, OBJ_RQT, t->indirect_table, 1);
	PRM_SET(create_tir_out, tirn, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

/* The TIR a command names (T286/T290/T294 08h[23:0]), or the rule refusing it. */
static enum nicref_cmd_rule lookup(struct cmd_ctx *c, uint32_t tirn, struct tir **out)
{
	if (!obj_in_range(c->dev, OBJ_TIR, tirn))
		return NICREF_RULE_TIR_INDEX_OUT_OF_RANGE;
	*out = obj_get(c->dev, OBJ_TIR, tirn);
	return *out ? NICREF_RULE_NONE : NICREF_RULE_TIR_NOT_FOUND;
}

enum nicref_cmd_rule cmd_modify_tir(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint64_t mask = PRM_GET(modify_tir_in, modify_bitmask_63_32, c->in, c->in_len) << 32 |
			PRM_GET(modify_tir_in, modify_bitmask_31_0, c->in, c->in_len);
	/* T286 20h: "Only fields requested by the mask should be valid. Other fields are
	 * reserved" (D-MOD-1). */
	enum nicref_cmd_rule rule = modify_check_unselected(
		c, &nicref_layout_modify_tir_in, TIR_CTX_OFF, tir_modify_sel,
		sizeof tir_modify_sel / sizeof tir_modify_sel[0], mask);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T48: bits 0 LRO, 1 indirect_table, 2 hash, 4 self_lb_en; bit 4 only with
	 * HCA_CAP.self_lb_en_modifiable (T147 00h[23]). */
	if (mask & ~(uint64_t)(TIR_MOD_LRO | TIR_MOD_INDIRECT_TABLE | TIR_MOD_HASH |
			       TIR_MOD_SELF_LB))
		return NICREF_RULE_TIR_MODIFY_BITMASK;
	if ((mask & TIR_MOD_SELF_LB) &&
	    !CAPS_CUR(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps,
		      self_lb_en_modifiable))
		return NICREF_RULE_TIR_MODIFY_SELF_LB_FIXED;
	struct tir *t;
	rule = lookup(c, (uint32_t)PRM_GET(modify_tir_in, tirn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* §12.8.2: "executed atomically": the new context is built and checked aside, from the
	 * selected groups only (under the permissive profile the others are not used). */
	struct tir n = *t;
	if (mask & TIR_MOD_LRO) {
		read_lro(c, &n);
		if ((rule = check_lro(dev, &n)) != NICREF_RULE_NONE)
			return rule;
	}
	if (mask & TIR_MOD_HASH) {
		read_hash(c, &n);
		if ((rule = check_hash(&n)) != NICREF_RULE_NONE)
			return rule;
	}
	rule = check_reserved_by_setting(c, &n, false, mask & TIR_MOD_LRO, mask & TIR_MOD_HASH);
	if (rule != NICREF_RULE_NONE)
		return rule;
	if (mask & TIR_MOD_SELF_LB) {
		n.self_lb_en = (uint8_t)TIRC_GET(c, self_lb_en);
		if ((rule = check_self_lb(dev, n.self_lb_en)) != NICREF_RULE_NONE)
			return rule;
	}
	if (mask & TIR_MOD_INDIRECT_TABLE) {
		/* T45 20h: "Reserved when disp_type != Indirect" (disp_type is not modifiable). */
		if (t->disp_type != TIR_INDIRECT)
			return NICREF_RULE_TIR_MODIFY_TABLE_DIRECT;
		n.indirect_table = (uint32_t)TIRC_GET(c, indirect_table);
		if ((rule = check_rqt(dev, n.indirect_table)) != NICREF_RULE_NONE)
			return rule;
	}
	/* PRM §3.3.6.1: the TIR's open LRO sessions complete (CQEs written) before the command
	 * does, whenever the LRO group is written (D-TIR-5, D-LRO-10). */
	if (mask & TIR_MOD_LRO)
		dev_notify(dev, DEV_NOTE_TIR_LRO, t->hdr.handle);
	normalize(dev, &n);
	if (n.indirect_table != t->indirect_table) {
		ref(dev, OBJ_RQT, n.indirect_table, 1);
		ref(dev, OBJ_RQT, t->indirect_table, -1);
	}
	*t = n;
	return NICREF_RULE_NONE;
}

static void destroy(struct nicref_dev *dev, struct tir *t)
{
	ref(dev, OBJ_TD, t->td, -1);
	if (t->disp_type == TIR_DIRECT)
		ref(dev, OBJ_RQ, t->inline_rqn, -1);
	else
		ref(dev, OBJ_RQT, t->indirect_table, -1);
	NICREF_ASSERT(objtab_remove(&dev->obj[OBJ_TIR], t->hdr.handle) == t);
	obj_uncharge(dev, OBJ_TIR);
	dev_free(dev, t);
}

enum nicref_cmd_rule cmd_destroy_tir(struct cmd_ctx *c)
{
	struct tir *t;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(destroy_tir_in, tirn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* D-TIR-1: a flow table entry still forwards to it. */
	if (t->hdr.refs)
		return NICREF_RULE_TIR_IN_USE;
	/* PRM §3.3.6.1, §12.8.3: the TIR's open LRO sessions complete first (D-TIR-5). */
	dev_notify(c->dev, DEV_NOTE_TIR_DESTROY, t->hdr.handle);
	destroy(c->dev, t);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_tir(struct cmd_ctx *c)
{
	struct tir *t;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(query_tir_in, tirn, c->in, c->in_len), &t);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T296: the context at 20h; the LRO period is the one in force (T45 10h, D-TIR-4). */
	TIRC_SET(c, disp_type, t->disp_type);
	TIRC_SET(c, lro_timeout_period_usecs, t->lro_timeout_eff);
	TIRC_SET(c, lro_enable_mask, t->lro_enable_mask);
	TIRC_SET(c, lro_max_msg_sz, t->lro_max_msg_sz);
	TIRC_SET(c, inline_rqn, t->inline_rqn);
	TIRC_SET(c, rx_hash_symmetric, t->rx_hash_symmetric);
	TIRC_SET(c, tunneled_offload_en, t->tunneled_offload_en);
	TIRC_SET(c, indirect_table, t->indirect_table);
	TIRC_SET(c, rx_hash_fn, t->rx_hash_fn);
	TIRC_SET(c, self_lb_en, t->self_lb_en);
	TIRC_SET(c, transport_domain, t->td);
	if (c->out_len > TIR_CTX_OFF)
		(void)nicref_field_set_bytes(c->out + TIR_CTX_OFF, c->out_len - TIR_CTX_OFF,
					     PRM_FIELD(tirc, rx_hash_toeplitz_key), t->toeplitz_key,
					     sizeof t->toeplitz_key);
	TIRC_SET(c, rx_hash_field_selector_outer, t->sel_outer);
	TIRC_SET(c, rx_hash_field_selector_inner, t->sel_inner);
	return NICREF_RULE_NONE;
}

/* ---- family hooks (TIR, RQT, TIS) ---- */

int tir_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void tir_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void tir_dev_reset(struct nicref_dev *dev)
{
	/* The reverse of the creation order (§3.1): TIRs, then RQTs, then TISs. */
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_TIR], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_TIR], (uint32_t)h + 1, &o))
		destroy(dev, o);
	rqt_dev_reset(dev);
	tis_dev_reset(dev);
}

int tir_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	(void)w;
	const struct tir *t = o;
	if (t->hdr.handle != h || t->disp_type > TIR_INDIRECT)
		return -360;
	if (check_hash(t) != NICREF_RULE_NONE || (t->lro_enable_mask & ~3u))
		return -361; /* a context CREATE/MODIFY_TIR would have refused */
	if (t->lro_timeout_eff > t->lro_timeout || (!t->lro_enable_mask && t->lro_timeout))
		return -362;
	if (t->disp_type == TIR_DIRECT ? t->indirect_table != 0 : t->inline_rqn != 0)
		return -363;
	return 0;
}

void tir_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	const struct tir *t = o;
	visit(ctx, OBJ_TD, t->td);
	if (t->disp_type == TIR_DIRECT)
		visit(ctx, OBJ_RQ, t->inline_rqn);
	else
		visit(ctx, OBJ_RQT, t->indirect_table);
}

void tir_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_TIR, tir_obj_refs, visit, ctx);
	rqt_dev_refs(dev, visit, ctx);
	tis_dev_refs(dev, visit, ctx);
}
