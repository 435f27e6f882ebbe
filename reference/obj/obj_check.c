/* The invariants of the object tables and of every family (nicref/invariants.h): handle
 * ranges, objects only while INITIALIZED, ICM charges, every reference naming a live object and
 * every reference count what the objects that hold it say (D-OBJ-1, D-OBJ-2, D-PG-4), then each
 * family's own check; with what a broken one found. The check hook of the objects' row
 * (obj/obj.c). One walk of each table does all three (obj/obj_walk.h). */
#include <stdio.h>

#include "cmd/ctl_dev.h"
#include "obj/obj_walk.h"

static const char *const obj_type_name[OBJ_TYPE_COUNT] = {
#define OBJ_TYPE_NAME(T, t) #T,
	NICREF_OBJ_TYPES(OBJ_TYPE_NAME)
#undef OBJ_TYPE_NAME
};

/* Each family's report of the references its live objects hold (obj.h), named by the objects
 * that hold them, and the tables of those objects in the order the report walks them. */
static const struct ref_family {
	const char *holders;
	void (*refs)(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
	unsigned ntypes;
	enum obj_type types[3];
} ref_families[] = {
	{ "EQ", eq_dev_refs, 1, { OBJ_EQ } },
	{ "CQ", cq_dev_refs, 1, { OBJ_CQ } },
	{ "SQ/RQ/RMP", wq_dev_refs, 3, { OBJ_SQ, OBJ_RQ, OBJ_RMP } },
	{ "MKEY", mkey_dev_refs, 1, { OBJ_MKEY } },
	{ "TIR/RQT/TIS", tir_dev_refs, 3, { OBJ_TIR, OBJ_RQT, OBJ_TIS } },
	{ "FT/FG/FTE", flow_dev_refs, 2, { OBJ_FT, OBJ_FG } },
	{ "QP", qp_dev_refs, 1, { OBJ_QP } },
};
#define REF_FAMILIES (sizeof ref_families / sizeof ref_families[0])

/* Each family's own invariants (nicref/invariants.h, -100 and below): the tables whose objects
 * it checks one by one, in its order, then its check of the whole (or none). */
static int vport_check_end(const struct nicref_dev *dev, const struct obj_walk *w)
{
	(void)w;
	return vport_dev_check(dev);
}

static const struct family_check {
	int (*end)(const struct nicref_dev *dev, const struct obj_walk *w);
	unsigned ntypes;
	enum obj_type types[3];
} family_checks[] = {
	{ eq_check_end, 1, { OBJ_EQ } },
	{ cq_check_end, 1, { OBJ_CQ } },
	{ NULL, 3, { OBJ_SQ, OBJ_RQ, OBJ_RMP } },
	{ NULL, 1, { OBJ_MKEY } },
	{ NULL, 3, { OBJ_TIR, OBJ_RQT, OBJ_TIS } },
	{ flow_check_end, 3, { OBJ_FT, OBJ_FG, OBJ_FC } },
	{ vport_check_end, 0, { OBJ_PD } },
};

/* Per type: the references its objects hold (the family's report, one object at a time) and
 * their own invariants (obj/obj_walk.h). The families above list the same types. */
static const struct obj_kind {
	obj_refs_fn refs;
	obj_check_fn check;
} kinds[OBJ_TYPE_COUNT] = {
	[OBJ_MKEY] = { mkey_obj_refs, mkey_obj_check },
	[OBJ_EQ] = { eq_obj_refs, eq_obj_check },
	[OBJ_CQ] = { cq_obj_refs, cq_obj_check },
	[OBJ_TIS] = { tis_obj_refs, tis_obj_check },
	[OBJ_SQ] = { sq_obj_refs, sq_obj_check },
	[OBJ_RMP] = { rmp_obj_refs, rmp_obj_check },
	[OBJ_RQ] = { rq_obj_refs, rq_obj_check },
	[OBJ_RQT] = { rqt_obj_refs, rqt_obj_check },
	[OBJ_TIR] = { tir_obj_refs, tir_obj_check },
	[OBJ_FT] = { ft_obj_refs, ft_obj_check },
	[OBJ_FG] = { fg_obj_refs, NULL },
	[OBJ_QP] = { qp_obj_refs, NULL },
};

void obj_table_refs(const struct nicref_dev *dev, enum obj_type type, obj_refs_fn refs,
		    obj_ref_visit visit, void *ctx)
{
	struct objtab_iter it;
	void *o;
	for (int64_t h = objtab_first(&it, &dev->obj[type], &o); h >= 0; h = objtab_then(&it, &o))
		refs(o, visit, ctx);
}

int obj_table_check(const struct nicref_dev *dev, enum obj_type type, obj_check_fn check,
		    struct obj_walk *w)
{
	struct objtab_iter it;
	void *o;
	int rc;
	for (int64_t h = objtab_first(&it, &dev->obj[type], &o); h >= 0; h = objtab_then(&it, &o))
		if ((rc = check(dev, (uint32_t)h, o, w)))
			return rc;
	return 0;
}

void obj_walk_start(const struct nicref_dev *dev, struct obj_walk *w)
{
	eq_map_build(dev, &w->eq);
	w->cq_timers = 0;
	for (unsigned k = 0; k < FLOW_TYPES; k++)
		w->ft_tables[k] = w->ft_flows[k] = 0;
}

/* The references the walk met: counted per type named, and per holder type the first that
 * names no live object. */
struct ref_tally {
	const struct nicref_dev *dev;
	unsigned holder; /* the type whose object reports now */
	uint64_t refs[OBJ_TYPE_COUNT];
	uint32_t dangling; /* bit k: an object of type k holds a dangling reference */
	uint32_t dangling_type[OBJ_TYPE_COUNT], dangling_handle[OBJ_TYPE_COUNT];
};

static void tally(void *ctx, enum obj_type type, uint32_t handle)
{
	struct ref_tally *t = ctx;
	/* obj_get's test, with the table's lookup inline: this runs for every reference after
	 * every op. */
	if ((unsigned)type >= OBJ_TYPE_COUNT || !objtab_get(&t->dev->obj[type], handle)) {
		if (!(t->dangling >> t->holder & 1u)) {
			t->dangling |= 1u << t->holder;
			t->dangling_type[t->holder] = (uint32_t)type;
			t->dangling_handle[t->holder] = handle;
		}
		return;
	}
	t->refs[type]++;
}

/* One object's holders, by family (explain_refcount). */
struct holder_tally {
	unsigned family; /* the family reporting now */
	enum obj_type want_type;
	uint32_t want_handle;
	uint64_t held_by[REF_FAMILIES];
};

static void tally_one(void *ctx, enum obj_type type, uint32_t handle)
{
	struct holder_tally *t = ctx;
	t->held_by[t->family] += type == t->want_type && handle == t->want_handle;
}

/* REFCOUNT_MATCHES broken for `type`: the first object whose count disagrees, with who holds
 * it. */
static int explain_refcount(const struct nicref_dev *dev, enum obj_type type, uint64_t counted,
			    uint64_t reported, char *buf, size_t len)
{
	struct holder_tally t = { .want_type = type };
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
 * family's own invariants. One walk of the tables gathers the references, the counts and each
 * object's own check (the first each table fails); they are then judged in that order, each
 * family's tables in its own order, so the invariant reported is the one three separate walks
 * (references, counts, families) reported. */
int obj_dev_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	(void)state;
	struct ref_tally t;
	t.dev = dev;
	t.dangling = 0;
	for (unsigned k = 0; k < OBJ_TYPE_COUNT; k++)
		t.refs[k] = 0; /* before the walk: a table may name one walked later */
	struct obj_walk w;
	obj_walk_start(dev, &w);
	uint64_t sum[OBJ_TYPE_COUNT];
	int failed[OBJ_TYPE_COUNT]; /* each type's first object invariant broken, or 0 */
	for (unsigned k = 0; k < OBJ_TYPE_COUNT; k++) {
		const struct objtab *tab = &dev->obj[k];
		const struct obj_kind *kind = &kinds[k];
		/* The table's own bounds first: a table found broken here is reported before any
		 * reference, as when these ran in a loop of their own (the walks before it return
		 * nothing). */
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
		/* An empty table sums to 0 without a walk, as its count always did. */
		bool counted = tab->nlive != 0;
		t.holder = k;
		sum[k] = 0;
		failed[k] = 0;
		struct objtab_iter it;
		void *o;
		for (int64_t h = objtab_first(&it, tab, &o); h >= 0; h = objtab_then(&it, &o)) {
			if (counted)
				sum[k] += ((const struct obj_hdr *)o)->refs;
			if (kind->refs)
				kind->refs(o, tally, &t);
			if (kind->check && !failed[k])
				failed[k] = kind->check(dev, (uint32_t)h, o, &w);
		}
	}
	/* a reference names no live object of its type: the first its family's report meets */
	for (unsigned f = 0; f < REF_FAMILIES && t.dangling; f++)
		for (unsigned i = 0; i < ref_families[f].ntypes; i++) {
			unsigned k = ref_families[f].types[i];
			if (!(t.dangling >> k & 1u))
				continue;
			return dev_broken(buf, len, NICREF_INV_REFERENCE_NAMES_LIVE,
					  "a reference held by %s names %s %u, not live",
					  ref_families[f].holders,
					  t.dangling_type[k] < OBJ_TYPE_COUNT
						  ? obj_type_name[t.dangling_type[k]]
						  : "(no type)",
					  t.dangling_handle[k]);
		}
	for (unsigned k = 0; k < OBJ_TYPE_COUNT; k++)
		if (sum[k] != t.refs[k]) /* reference counts and references disagree */
			return explain_refcount(dev, (enum obj_type)k, sum[k], t.refs[k], buf, len);
	for (size_t i = 0; i < sizeof family_checks / sizeof family_checks[0]; i++) {
		const struct family_check *fc = &family_checks[i];
		int rc = 0;
		for (unsigned j = 0; j < fc->ntypes && !rc; j++)
			rc = failed[fc->types[j]];
		if (!rc && fc->end)
			rc = fc->end(dev, &w);
		if (rc)
			return explain_family(dev, fc, rc, buf, len);
	}
	return 0;
}
