/* The invariants of the object tables and of every family (nicref/invariants.h): handle
 * ranges, objects only while INITIALIZED, ICM charges, every reference naming a live object and
 * every reference count what the objects that hold it say (D-OBJ-1, D-OBJ-2, D-PG-4), then each
 * family's own check; with what a broken one found. The check hook of the objects' row
 * (obj/obj.c). */
#include <stdio.h>

#include "cmd/ctl_dev.h"

static const char *const obj_type_name[OBJ_TYPE_COUNT] = {
#define OBJ_TYPE_NAME(T, t) #T,
	NICREF_OBJ_TYPES(OBJ_TYPE_NAME)
#undef OBJ_TYPE_NAME
};

/* Each family's report of the references its live objects hold (obj.h), named by the objects
 * that hold them. */
static const struct ref_family {
	const char *holders;
	void (*refs)(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
} ref_families[] = {
	{ "EQ", eq_dev_refs },	       { "CQ", cq_dev_refs },	      { "SQ/RQ/RMP", wq_dev_refs },
	{ "MKEY", mkey_dev_refs }, { "TIR/RQT/TIS", tir_dev_refs },
	{ "FT/FG/FTE", flow_dev_refs }, { "QP", qp_dev_refs },
};
#define REF_FAMILIES (sizeof ref_families / sizeof ref_families[0])

/* Each family's own invariants (nicref/invariants.h, -100 and below) and the tables it walks. */
static const struct family_check {
	int (*check)(const struct nicref_dev *dev);
	unsigned ntypes;
	enum obj_type types[3];
} family_checks[] = {
	{ eq_dev_check, 1, { OBJ_EQ } },
	{ cq_dev_check, 1, { OBJ_CQ } },
	{ wq_dev_check, 3, { OBJ_SQ, OBJ_RQ, OBJ_RMP } },
	{ mkey_dev_check, 1, { OBJ_MKEY } },
	{ tir_dev_check, 3, { OBJ_TIR, OBJ_RQT, OBJ_TIS } },
	{ flow_dev_check, 3, { OBJ_FT, OBJ_FG, OBJ_FC } },
	{ vport_dev_check, 0, { OBJ_PD } },
};

struct ref_tally {
	const struct nicref_dev *dev;
	unsigned family; /* the family reporting now */
	uint64_t refs[OBJ_TYPE_COUNT];
	bool dangling;
	unsigned dangling_family, dangling_type;
	uint32_t dangling_handle;
	/* One object's holders, by family (explain_refcount). */
	enum obj_type want_type;
	uint32_t want_handle;
	uint64_t held_by[REF_FAMILIES];
};

static void tally(void *ctx, enum obj_type type, uint32_t handle)
{
	struct ref_tally *t = ctx;
	/* obj_get's test, with the table's lookup inline: this runs for every reference after
	 * every op. */
	if ((unsigned)type >= OBJ_TYPE_COUNT || !objtab_get(&t->dev->obj[type], handle)) {
		if (!t->dangling) {
			t->dangling_family = t->family;
			t->dangling_type = (unsigned)type;
			t->dangling_handle = handle;
		}
		t->dangling = true;
		return;
	}
	t->refs[type]++;
}

static void tally_one(void *ctx, enum obj_type type, uint32_t handle)
{
	struct ref_tally *t = ctx;
	t->held_by[t->family] += type == t->want_type && handle == t->want_handle;
}

/* REFCOUNT_MATCHES broken for `type`: the first object whose count disagrees, with who holds
 * it. */
static int explain_refcount(const struct nicref_dev *dev, enum obj_type type, uint64_t counted,
			    uint64_t reported, char *buf, size_t len)
{
	struct ref_tally t = { .dev = dev, .want_type = type };
	void *o;
	for (int64_t h = objtab_next(&dev->obj[type], 0, &o); h >= 0 && len > 0;
	     h = objtab_next(&dev->obj[type], (uint32_t)h + 1, &o)) {
		t.want_handle = (uint32_t)h;
		uint64_t held = 0;
		for (t.family = 0; t.family < REF_FAMILIES; t.family++) {
			t.held_by[t.family] = 0;
			ref_families[t.family].refs(dev, tally_one, &t);
			held += t.held_by[t.family];
		}
		uint32_t refs = ((const struct obj_hdr *)o)->refs;
		if (refs == held)
			continue;
		char by[160];
		size_t n = 0;
		for (unsigned f = 0; f < REF_FAMILIES && n < sizeof by; f++) {
			int w = snprintf(by + n, sizeof by - n, "%s%s %llu", f ? ", " : "",
					 ref_families[f].holders, (unsigned long long)t.held_by[f]);
			n += w > 0 ? (size_t)w : 0;
		}
		return dev_broken(buf, len, NICREF_INV_REFCOUNT_MATCHES,
				  "%s %u: refs %u, held by %llu (%s)", obj_type_name[type],
				  (uint32_t)h, refs, (unsigned long long)held, by);
	}
	return dev_broken(buf, len, NICREF_INV_REFCOUNT_MATCHES,
			  "%s: reference counts sum to %llu, references held %llu",
			  obj_type_name[type], (unsigned long long)counted,
			  (unsigned long long)reported);
}

/* A family's own invariant broken: which one its table says, and the objects it walked. */
static int explain_family(const struct nicref_dev *dev, const struct family_check *fc, int rc,
			  char *buf, size_t len)
{
	if (len == 0)
		return rc;
	if (fc->ntypes == 0)
		return dev_broken(buf, len, rc,
				  "vport admin_state %u, min_wqe_inline_mode %u, L2 entries %u, "
				  "HCA %s",
				  dev->vport ? dev->vport->admin_state : 0,
				  dev->vport ? dev->vport->min_wqe_inline_mode : 0,
				  dev->vport ? dev->vport->l2.n : 0, dev_state_name(dev->hca.state));
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < fc->ntypes && n < len; i++) {
		const struct objtab *tab = &dev->obj[fc->types[i]];
		int w = snprintf(buf + n, len - n, "%s%s: %u live", i ? "; " : "",
				 obj_type_name[fc->types[i]], tab->nlive);
		n += w > 0 ? (size_t)w : 0;
		void *o;
		unsigned shown = 0;
		for (int64_t h = objtab_next(tab, 0, &o); h >= 0 && n < len && shown < 8;
		     h = objtab_next(tab, (uint32_t)h + 1, &o), shown++) {
			w = snprintf(buf + n, len - n, "%s%u", shown ? " " : " (", (uint32_t)h);
			n += w > 0 ? (size_t)w : 0;
		}
		if (shown && n < len) {
			w = snprintf(buf + n, len - n, "%s)", tab->nlive > shown ? " ..." : "");
			n += w > 0 ? (size_t)w : 0;
		}
	}
	return rc;
}

/* Objects live only while INITIALIZED, each table within its range, every ICM context charged
 * to a live object, every reference count what the objects that hold it say, then each
 * family's own invariants. */
int obj_dev_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	(void)state;
	struct ref_tally t = { .dev = dev };
	for (unsigned k = 0; k < OBJ_TYPE_COUNT; k++) {
		const struct objtab *tab = &dev->obj[k];
		if (tab->nlive > tab->limit - tab->base)
			return dev_broken(buf, len, NICREF_INV_HANDLES_WITHIN_RANGE,
					  "%s: %u live, handles [%u, %u)", obj_type_name[k],
					  tab->nlive, tab->base, tab->limit);
		/* objects live only while INITIALIZED (TEARDOWN_HCA releases them) */
		if (tab->nlive && dev->hca.state != HCA_INITIALIZED)
			return dev_broken(buf, len, NICREF_INV_OBJECTS_ONLY_INITIALIZED,
					  "%s: %u live, HCA %s", obj_type_name[k], tab->nlive,
					  dev_state_name(dev->hca.state));
		/* every ICM context charged belongs to a live object */
		if (obj_takes_icm((enum obj_type)k) && dev->obj_charged[k] != tab->nlive)
			return dev_broken(buf, len, NICREF_INV_ICM_CHARGED,
					  "%s: %u contexts charged, %u live", obj_type_name[k],
					  dev->obj_charged[k], tab->nlive);
	}
	for (t.family = 0; t.family < REF_FAMILIES; t.family++)
		ref_families[t.family].refs(dev, tally, &t);
	if (t.dangling) /* a reference names no live object of its type */
		return dev_broken(buf, len, NICREF_INV_REFERENCE_NAMES_LIVE,
				  "a reference held by %s names %s %u, not live",
				  ref_families[t.dangling_family].holders,
				  t.dangling_type < OBJ_TYPE_COUNT ? obj_type_name[t.dangling_type]
								   : "(no type)",
				  t.dangling_handle);
	for (unsigned k = 0; k < OBJ_TYPE_COUNT; k++) {
		uint64_t sum = 0;
		struct objtab_iter it;
		void *o;
		/* An empty table sums to 0 without a walk (as before the inline walk). */
		for (int64_t h = dev->obj[k].nlive ? objtab_first(&it, &dev->obj[k], &o) : -1;
		     h >= 0; h = objtab_then(&it, &o))
			sum += ((const struct obj_hdr *)o)->refs;
		if (sum != t.refs[k]) /* reference counts and references disagree */
			return explain_refcount(dev, (enum obj_type)k, sum, t.refs[k], buf, len);
	}
	for (size_t i = 0; i < sizeof family_checks / sizeof family_checks[0]; i++) {
		int rc = family_checks[i].check(dev);
		if (rc)
			return explain_family(dev, &family_checks[i], rc, buf, len);
	}
	return 0;
}
