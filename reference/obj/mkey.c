/* Memory keys: CREATE_MKEY, QUERY_MKEY, DESTROY_MKEY, QUERY_SPECIAL_CONTEXTS (PRM §12.5,
 * T225-T241) and the MKey family's hooks. Contexts are T9/T10 (§6.4.1); translation is in
 * obj/mkey_translate.c. Decisions: docs/mkey.md (D-MKC-*).
 *
 * Checks run in the precedence of D-CMD-7: the input length the entries need, field values
 * (BAD_PARAM), the PD (BAD_INDEX, BAD_RESOURCE), limits (EXCEED_LIM), then ICM pages
 * (NO_RESOURCES); a refused command changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "obj/obj_walk.h"

#define MKEY_ENTRIES_OFF 0x110 /* T226: translation entries from 110h */
#define MKC_OFF 0x10           /* T226/T232: the MKC at 10h-4Ch */
#define OCTWORD 16u

const struct mkey *mkey_find(const struct nicref_dev *dev, uint32_t key)
{
	return obj_at(dev, OBJ_MKEY, MKEY_INDEX(key));
}

/* A field of the MKC wherever a command carries it (at 10h of its buffer). */
static uint64_t mkc_get(const uint8_t *buf, size_t len, const struct nicref_field *f)
{
	return len > MKC_OFF ? prm_get(buf + MKC_OFF, len - MKC_OFF, f) : 0;
}
static void mkc_set(uint8_t *buf, size_t len, const struct nicref_field *f, uint64_t v)
{
	if (len > MKC_OFF)
		prm_set(buf + MKC_OFF, len - MKC_OFF, f, v);
}
#define MKC_GET(buf, len, n) mkc_get((buf), (len), PRM_FIELD(mkc, n))
#define MKC_SET(buf, len, n, v) mkc_set((buf), (len), PRM_FIELD(mkc, n), (v))

/* 64-bit word i of the translation entries at 110h. */
static uint64_t entry_get(const uint8_t *buf, size_t len, uint32_t i)
{
	size_t off = MKEY_ENTRIES_OFF + (size_t)i * 8;
	uint64_t v = 0;
	if (off + 8 <= len)
		for (unsigned b = 0; b < 8; b++)
			v = v << 8 | buf[off + b];
	return v;
}
static void entry_set(uint8_t *buf, size_t len, uint32_t i, uint64_t v)
{
	size_t off = MKEY_ENTRIES_OFF + (size_t)i * 8;
	if (off + 8 <= len)
		for (unsigned b = 0; b < 8; b++)
			buf[off + b] = (uint8_t)(v >> (56 - 8 * b));
}

/* T11/T138 (D-MKC-12): what a stored MTT entry keeps. With pg_access, ptag[63:8] and
 * wr_en/rd_en (bits 7:2 are reserved); without, a PAS: pa_h and pa_l[31:12]. */
#define MTT_KEEP_PG 0xFFFFFFFFFFFFFF03ull
#define PAS_KEEP 0xFFFFFFFFFFFFF000ull

void mkey_klm_restart(struct mkey *m)
{
	/* obj/mkey.h: entry k starts where the entries before it end. */
	uint64_t *start = mkey_klm_starts(m);
	for (uint32_t k = 0; k < m->octwords; k++)
		start[k] = k ? start[k - 1] + (m->t[2 * (k - 1)] >> 32) : 0;
}

/* The checks of CREATE_MKEY that need no object: the rule, or NONE. */
static enum nicref_cmd_rule check_context(struct cmd_ctx *c, uint32_t actual)
{
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	unsigned mode = (unsigned)MKC_GET(in, n, access_mode);
	bool pg_access = PRM_GET(create_mkey_in, pg_access, in, n);
	uint32_t size = (uint32_t)MKC_GET(in, n, translations_octword_size);

	/* T10 00h[9:8]: 0 PA, 1 MTT, 2 KLMs; 3 is not defined. */
	if (mode > MKEY_AM_KLM)
		return NICREF_RULE_MKEY_ACCESS_MODE_RESERVED;
	/* T10 00h[10]: lr "Must be set for all MKeys". */
	if (!MKC_GET(in, n, lr))
		return NICREF_RULE_MKEY_LR_CLEAR;
	/* T10 04h[31:8]: qpn "must be 0xffffffff", i.e. all ones in its 24 bits. */
	if (MKC_GET(in, n, qpn) != 0xFFFFFF)
		return NICREF_RULE_MKEY_QPN_NOT_ONES;
	/* T227 0Ch[31]: pg_access "Can be set only when access_mode==MTT". */
	if (pg_access && mode != MKEY_AM_MTT)
		return NICREF_RULE_MKEY_PG_ACCESS_MODE;
	/* T10 38h[4:0]: for MTT the page size, "Must be >=12" (D-MKC-1). */
	if (mode == MKEY_AM_MTT && MKC_GET(in, n, log_entity_size) < 12)
		return NICREF_RULE_MKEY_ENTITY_SIZE_SMALL;
	/* T10 34h: MTT/KLM table size in octwords, "Must be a multiple of 4"; reserved for PA,
	 * where no entry may be delivered (D-MKC-8). */
	if (mode != MKEY_AM_PA && size % 4 != 0) {
		if (c->dev->core.cfg.profile.should_strict)
			return NICREF_RULE_MKEY_OCTWORD_SIZE_ALIGN;
		/* D-CMD-19: a warning; the device takes the exact count as it does from every
		 * driver. */
		dev_violation(c->dev, NICREF_VIO_MKEY_OCTWORD_SIZE_NOT_MULT4, size);
	}
	if (actual > (mode == MKEY_AM_PA ? 0 : size))
		return NICREF_RULE_MKEY_ACTUAL_BEYOND_SIZE;
	/* T37 00h: a KLM's byte_count "Must be up to 2GB". */
	if (mode == MKEY_AM_KLM)
		for (uint32_t k = 0; k < actual; k++)
			if ((entry_get(in, n, 2 * k) >> 32) > 0x80000000ull)
				return NICREF_RULE_MKEY_KLM_BYTE_COUNT;
	return NICREF_RULE_NONE;
}

/* EXCEED_LIM checks against the capabilities in force (D-CMD-7 step 9, D-MKC-5). */
static enum nicref_cmd_rule check_limits(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	unsigned mode = (unsigned)MKC_GET(in, n, access_mode);
	/* T145 20h[22:16] log_max_mrw_sz bounds len unless length64 (T10 0Ch[31]) asks for
	 * 2^64 bytes. */
	uint64_t log_mrw = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_mrw_sz);
	if (!MKC_GET(in, n, length64) && log_mrw < 64 && MKC_GET(in, n, len) > (1ull << log_mrw))
		return NICREF_RULE_MKEY_TOO_LONG;
	/* T145 20h[5:0] log_max_klm_list_size: KLM entries of one MKey (16 B each, T10 34h). */
	uint64_t log_klm = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_klm_list_size);
	if (mode == MKEY_AM_KLM && log_klm < 32 &&
	    MKC_GET(in, n, translations_octword_size) > (1ull << log_klm))
		return NICREF_RULE_MKEY_KLM_LIST_TOO_LONG;
	/* T145 1Ch[21:16]: at most 2^log_max_mkey MKeys (the table's range, D-OBJ-2). */
	const struct objtab *t = &dev->obj[OBJ_MKEY];
	if (t->nlive >= t->limit - t->base)
		return NICREF_RULE_MKEY_EXHAUSTED;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_create_mkey(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const uint8_t *in = c->in;
	size_t n = c->in_len;
	uint32_t actual =
		(uint32_t)PRM_GET(create_mkey_in, translations_octword_actual_size, in, n);

	/* T226/T227: the delivered octwords follow at 110h and must be in the input. */
	uint64_t need = MKEY_ENTRIES_OFF + (uint64_t)actual * OCTWORD;
	if (need > c->input_length || need > n)
		return NICREF_RULE_MKEY_ENTRIES_BEYOND_INPUT;
	enum nicref_cmd_rule rule = check_context(c, actual);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T10 0Ch[23:0]: the MKey's protection domain must be allocated (T128 BAD_RESOURCE). */
	uint32_t pdn = (uint32_t)MKC_GET(in, n, pd);
	if (!obj_in_range(dev, OBJ_PD, pdn))
		return NICREF_RULE_MKEY_PD_OUT_OF_RANGE;
	struct obj_hdr *pd = obj_get(dev, OBJ_PD, pdn);
	if (!pd)
		return NICREF_RULE_MKEY_PD_INVALID;
	if ((rule = check_limits(c)) != NICREF_RULE_NONE)
		return rule;
	/* D-PG-4: the context takes ICM the driver gave. */
	if (obj_charge(dev, OBJ_MKEY) != 0)
		return NICREF_RULE_ICM_PAGES_SHORT;

	/* Two words per octword, and for KLMs one more per entry: its start offset. An MKey a
	 * UMR may rewrite holds its whole table from now on (docs/tx.md D-TX-14). */
	uint32_t room = actual;
	if (MKC_GET(in, n, umr_en) && MKC_GET(in, n, access_mode) != MKEY_AM_PA) {
		uint64_t log_klm = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_klm_list_size);
		uint64_t size = MKC_GET(in, n, translations_octword_size);
		uint64_t cap = log_klm < 32 ? 1ull << log_klm : UINT32_MAX;
		if (size > cap)
			size = cap;
		if (size > room)
			room = (uint32_t)size;
	}
	size_t words = (size_t)room * (MKC_GET(in, n, access_mode) == MKEY_AM_KLM ? 3 : 2);
	struct mkey *m = dev_calloc(dev, 1, sizeof *m + words * sizeof m->t[0]);
	int64_t h = m ? objtab_alloc(&dev->obj[OBJ_MKEY], m) : -2;
	if (h < 0) {
		dev_free(dev, m);
		obj_uncharge(dev, OBJ_MKEY);
		return h == -1 ? NICREF_RULE_MKEY_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	m->hdr.handle = (uint32_t)h;
	m->access_mode = (uint8_t)MKC_GET(in, n, access_mode);
	m->free = MKC_GET(in, n, free);
	m->umr_en = MKC_GET(in, n, umr_en);
	m->rw = MKC_GET(in, n, rw);
	m->rr = MKC_GET(in, n, rr);
	m->lw = MKC_GET(in, n, lw);
	m->lr = MKC_GET(in, n, lr);
	m->qpn = (uint32_t)MKC_GET(in, n, qpn);
	m->tag = (uint8_t)MKC_GET(in, n, mkey_7_0);
	m->length64 = MKC_GET(in, n, length64);
	m->pd = pdn;
	m->start_addr = MKC_GET(in, n, start_addr);
	/* T10 18h: "Reserved when length64 bit is set". */
	m->len = m->length64 ? 0 : MKC_GET(in, n, len);
	m->pg_access = PRM_GET(create_mkey_in, pg_access, in, n);
	/* T10 34h/38h: reserved for PA, and log_entity_size for KLM too (D-MKC-8). */
	if (m->access_mode != MKEY_AM_PA)
		m->octword_size = (uint32_t)MKC_GET(in, n, translations_octword_size);
	if (m->access_mode == MKEY_AM_MTT)
		m->log_entity_size = (uint8_t)MKC_GET(in, n, log_entity_size);
	/* §12.5.1: the entries are copied now; the driver may reuse its buffer. */
	m->octwords = actual;
	m->room = room;
	uint64_t keep = m->access_mode == MKEY_AM_KLM ? UINT64_MAX
			: m->pg_access			   ? MTT_KEEP_PG
							   : PAS_KEEP;
	for (uint32_t i = 0; i < 2 * actual; i++)
		m->t[i] = entry_get(in, n, i) & keep;
	if (m->access_mode == MKEY_AM_KLM)
		mkey_klm_restart(m);
	pd->refs++; /* D-OBJ-1 */
	PRM_SET(create_mkey_out, mkey_index, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

/* The MKey a QUERY/DESTROY names (T231/T235 08h[23:0]), or the rule refusing it. */
static enum nicref_cmd_rule lookup(struct cmd_ctx *c, uint32_t index, struct mkey **out)
{
	if (!obj_in_range(c->dev, OBJ_MKEY, index))
		return NICREF_RULE_MKEY_INDEX_OUT_OF_RANGE;
	*out = obj_get(c->dev, OBJ_MKEY, index);
	return *out ? NICREF_RULE_NONE : NICREF_RULE_MKEY_NOT_FOUND;
}

enum nicref_cmd_rule cmd_query_mkey(struct cmd_ctx *c)
{
	/* T231 op_mod 0x2 BSFs: the device has no BSFs (D-MKC-2). */
	if (c->op_mod == 2)
		return NICREF_RULE_MKEY_QUERY_BSF;
	struct mkey *m;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(query_mkey_in, mkey_index, c->in, c->in_len), &m);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T231 0Ch[31]: "Can be set only if Mkey created with pg_access ==1". */
	bool pg_access = PRM_GET(query_mkey_in, pg_access, c->in, c->in_len);
	if (pg_access && !m->pg_access)
		return NICREF_RULE_MKEY_QUERY_PG_ACCESS;

	uint8_t *out = c->out;
	size_t n = c->out_len;
	/* T233 10h-4Ch: the context as created (§12.5.2 "a snapshot of an MKEY entry"). */
	MKC_SET(out, n, free, m->free);
	MKC_SET(out, n, umr_en, m->umr_en);
	MKC_SET(out, n, rw, m->rw);
	MKC_SET(out, n, rr, m->rr);
	MKC_SET(out, n, lw, m->lw);
	MKC_SET(out, n, lr, m->lr);
	MKC_SET(out, n, access_mode, m->access_mode);
	MKC_SET(out, n, qpn, m->qpn);
	MKC_SET(out, n, mkey_7_0, m->tag);
	MKC_SET(out, n, length64, m->length64);
	MKC_SET(out, n, pd, m->pd);
	MKC_SET(out, n, start_addr, m->start_addr);
	MKC_SET(out, n, len, m->len);
	MKC_SET(out, n, translations_octword_size, m->octword_size);
	MKC_SET(out, n, log_entity_size, m->log_entity_size);
	/* T233 110h..: the entries, "up to the mailbox size" the output provides (§12.5.2).
	 * MTTs with their rights when pg_access is asked, PASs otherwise. */
	size_t room = c->output_length < n ? c->output_length : n;
	uint64_t words = room > MKEY_ENTRIES_OFF ? (room - MKEY_ENTRIES_OFF) / 8 : 0;
	uint64_t keep = m->access_mode == MKEY_AM_KLM ? UINT64_MAX
			: pg_access			   ? MTT_KEEP_PG
							   : PAS_KEEP;
	for (uint32_t i = 0; i < 2 * m->octwords && i < words; i++)
		entry_set(out, n, i, m->t[i] & keep);
	return NICREF_RULE_NONE;
}

static void destroy(struct nicref_dev *dev, struct mkey *m)
{
	struct obj_hdr *pd = obj_get(dev, OBJ_PD, m->pd);
	NICREF_ASSERT(pd && pd->refs > 0);
	pd->refs--;
	NICREF_ASSERT(objtab_remove(&dev->obj[OBJ_MKEY], m->hdr.handle) == m);
	obj_uncharge(dev, OBJ_MKEY);
	dev_free(dev, m);
}

enum nicref_cmd_rule cmd_destroy_mkey(struct cmd_ctx *c)
{
	struct mkey *m;
	enum nicref_cmd_rule rule =
		lookup(c, (uint32_t)PRM_GET(destroy_mkey_in, mkey_index, c->in, c->in_len), &m);
	if (rule != NICREF_RULE_NONE)
		return rule;
	/* T225: "After this command has been executed, accesses to this key will result in an
	 * access fault". Indirect MKeys naming it are not refs (§12.5 L6567 only recommends
	 * destroying them first): their translations fault (D-MKC-11). */
	destroy(c->dev, m);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_special_contexts(struct cmd_ctx *c)
{
	/* T241 0Ch: the reserved LKey (§6.3; D-MKC-3). */
	PRM_SET(query_special_contexts_out, resd_lkey, c->out, c->out_len, MKEY_RESD_LKEY);
	return NICREF_RULE_NONE;
}

/* ---- family hooks ---- */

int mkey_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void mkey_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void mkey_dev_reset(struct nicref_dev *dev)
{
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_MKEY], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_MKEY], (uint32_t)h + 1, &o))
		destroy(dev, o);
}

int mkey_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	(void)w;
	const struct mkey *m = o;
	if (m->hdr.handle != h)
		return -300; /* the handle it was given */
	if (m->access_mode > MKEY_AM_KLM || !m->lr || m->qpn != 0xFFFFFF)
		return -301; /* a context CREATE_MKEY would have refused */
	if (m->hdr.refs != 0)
		return -302; /* nothing holds a reference to an MKey */
	if (m->octwords > m->octword_size || (m->pg_access && m->access_mode != MKEY_AM_MTT))
		return -303;
	if (m->access_mode == MKEY_AM_MTT ? m->log_entity_size < 12 : m->log_entity_size)
		return -304;
	if (m->length64 && m->len)
		return -305;
	if (m->octwords > m->room)
		return -307; /* the delivered entries lie in the table's room */
	if (m->access_mode != MKEY_AM_KLM)
		return 0;
	const uint64_t *start = mkey_klm_starts_c(m);
	for (uint32_t k = 0; k < m->octwords; k++)
		if (start[k] != (k ? start[k - 1] + (m->t[2 * (k - 1)] >> 32) : 0))
			return -306; /* KLM start offsets (obj/mkey.h) */
	return 0;
}

void mkey_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	visit(ctx, OBJ_PD, ((const struct mkey *)o)->pd); /* T10 0Ch pd */
}

void mkey_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_MKEY, mkey_obj_refs, visit, ctx);
}
