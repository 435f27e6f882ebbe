/* The object tables, their handle ranges, reference-count invariants and ICM page costs (PRM
 * §3.1, §5.1; D-OBJ-1, D-OBJ-2, D-PG-4). */
#include <stdio.h>
#include <stdlib.h>

#include "core/dev.h"

/* Handle width of each type: EQ numbers are 8 bits (T244 eq_number 08h[7:0]), UAR indices
 * those of the UAR area, every other handle 24 bits (T194 pd, T261 cqn, ...). */
/* A table as wide as the handles the profile lets INIT_HCA open ([base, base + 2^log), D-OBJ-2;
 * the capabilities never exceed the profile's), so a device's directories follow its
 * capabilities: 2^(log + 1) handles, at most 2^24. EQs: 8-bit eqn; UARs: the UAR area. */
static uint32_t table_capacity(const struct nicref_profile *p, enum obj_type t)
{
	unsigned log;
	switch (t) {
	case OBJ_EQ:
		return 1u << 8;
	case OBJ_UAR:
		return DEV_MAX_UARS;
	case OBJ_PD:
		log = p->log_max_pd;
		break;
	case OBJ_TD:
		log = p->log_max_transport_domain;
		break;
	default:
		log = p->log_max_objects;
		break;
	}
	return log + 1 < OBJTAB_MAX_LOG ? 1u << (log + 1) : 1u << OBJTAB_MAX_LOG;
}

int obj_dev_init(struct nicref_dev *dev)
{
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		if (objtab_init(&dev->obj[t],
				table_capacity(&dev->cfg.profile, (enum obj_type)t)) != 0)
			return -1;
	if (eq_dev_init(dev) || cq_dev_init(dev) || wq_dev_init(dev) || mkey_dev_init(dev) ||
	    tir_dev_init(dev) || vport_dev_init(dev))
		return -1;
	hca_release_objects(dev);
	return 0;
}

void obj_dev_fini(struct nicref_dev *dev)
{
	if (dev->obj[OBJ_TYPE_COUNT - 1].dir)
		hca_release_objects(dev);
	vport_dev_fini(dev);
	tir_dev_fini(dev);
	mkey_dev_fini(dev);
	wq_dev_fini(dev);
	cq_dev_fini(dev);
	eq_dev_fini(dev);
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		objtab_fini(&dev->obj[t]);
}

static void free_obj(void *ctx, void *obj)
{
	(void)ctx;
	free(obj);
}

void hca_release_objects(struct nicref_dev *dev)
{
	/* The reverse of the creation order of §3.1, so nothing is freed while named. */
	tir_dev_reset(dev);
	wq_dev_reset(dev);
	cq_dev_reset(dev);
	eq_dev_reset(dev);
	mkey_dev_reset(dev);
	vport_dev_reset(dev);
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++) {
		objtab_reset(&dev->obj[t], 0, 0, free_obj, NULL);
		dev->obj_charged[t] = 0;
	}
}

void *obj_get(const struct nicref_dev *dev, enum obj_type type, uint32_t h)
{
	return (unsigned)type < OBJ_TYPE_COUNT ? objtab_get(&dev->obj[type], h) : NULL;
}

/* 2^log handles from base, within the table. */
static void open_range(struct nicref_dev *dev, enum obj_type t, uint32_t base, uint64_t log)
{
	uint64_t limit = (uint64_t)base + (1ull << (log < 32 ? log : 32));
	objtab_reset(&dev->obj[t], base, limit > UINT32_MAX ? UINT32_MAX : (uint32_t)limit, NULL,
		     NULL);
}

void obj_open_tables(struct nicref_dev *dev)
{
	/* T145 counts: 2^log_max_<type> objects of each type (D-OBJ-2). */
	open_range(dev, OBJ_PD, DEV_PD_BASE, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_pd));
	open_range(dev, OBJ_TD, DEV_TD_BASE,
		   CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_transport_domain));
	open_range(dev, OBJ_MKEY, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_mkey));
	open_range(dev, OBJ_EQ, 0, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_eq));
	open_range(dev, OBJ_CQ, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_cq));
	open_range(dev, OBJ_TIS, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_tis));
	open_range(dev, OBJ_SQ, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_sq));
	open_range(dev, OBJ_RMP, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_rmp));
	open_range(dev, OBJ_RQ, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_rq));
	open_range(dev, OBJ_RQT, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_rqt));
	open_range(dev, OBJ_TIR, 1, CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_tir));
	/* PRM §7.2, T145: UAR area = 1 MB * 2^uar_sz; a UAR page is 4 KB * 2^log_uar_page_sz.
	 * D-UAR-1: the first profile.uar_base 4 KB pages of BAR0 hold the init segment; UARs
	 * start at the first UAR page past them. */
	unsigned uar_sz = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, uar_sz);
	unsigned log_page = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_uar_page_sz);
	uint64_t uars = log_page > 8 + uar_sz ? 1 : 1ull << (8 + uar_sz - log_page);
	uint64_t page = 4096ull << (log_page < 32 ? log_page : 32);
	uint64_t base = ((uint64_t)dev->cfg.profile.uar_base * 4096 + page - 1) / page;
	objtab_reset(&dev->obj[OBJ_UAR], (uint32_t)(base < DEV_MAX_UARS ? base : DEV_MAX_UARS),
		     uars < DEV_MAX_UARS ? (uint32_t)uars : DEV_MAX_UARS, NULL, NULL);
}

/* PD, UAR and TD hold no context; the other types take ICM (D-PG-4). */
static bool takes_icm(enum obj_type t)
{
	return t != OBJ_PD && t != OBJ_UAR && t != OBJ_TD;
}

static uint32_t pages_for(const struct nicref_dev *dev, uint32_t contexts)
{
	uint32_t per = dev->cfg.profile.contexts_per_page;
	return (uint32_t)(((uint64_t)contexts + per - 1) / per);
}

uint32_t obj_pages_required(const struct nicref_dev *dev)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		n += pages_for(dev, dev->obj_charged[t]);
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

int obj_charge(struct nicref_dev *dev, enum obj_type type)
{
	if (!takes_icm(type))
		return 0;
	uint32_t now = pages_for(dev, dev->obj_charged[type]);
	uint32_t after = pages_for(dev, dev->obj_charged[type] + 1);
	const struct nicref_profile *p = &dev->cfg.profile;
	uint64_t need = (uint64_t)p->boot_pages + p->init_pages + obj_pages_required(dev) +
			(after - now);
	if (need > dev->pages.count) {
		/* PRM §7.13.10.2 T91/T92: the device asks for what it misses (num_pages > 0, D-PG-1),
		 * once until the next MANAGE_PAGES (L3969). */
		uint32_t missing = (uint32_t)(need - dev->pages.count);
		if (need > dev->hca.pages_wanted)
			dev->hca.pages_wanted = (uint32_t)need;
		if (dev->hca.page_request_armed) {
			uint8_t eqe[EQE_SIZE] = { 0 };
			PRM_SET(eqe_page_request, num_pages, eqe, sizeof eqe, missing);
			dev->hca.page_request_armed = false;
			eq_post_event(dev, EQ_EVENT_PAGE_REQUEST, eqe);
		}
		return -1;
	}
	dev->obj_charged[type]++;
	return 0;
}

void obj_uncharge(struct nicref_dev *dev, enum obj_type type)
{
	if (!takes_icm(type))
		return;
	NICREF_ASSERT(dev->obj_charged[type] > 0);
	dev->obj_charged[type]--;
}

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
	if ((unsigned)type >= OBJ_TYPE_COUNT || !obj_get(t->dev, type, handle)) {
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

int obj_dev_check(const struct nicref_dev *dev, char *buf, size_t len)
{
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
		if (takes_icm((enum obj_type)k) && dev->obj_charged[k] != tab->nlive)
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
		void *o;
		for (int64_t h = objtab_next(&dev->obj[k], 0, &o); h >= 0;
		     h = objtab_next(&dev->obj[k], (uint32_t)h + 1, &o))
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

int64_t obj_alloc_plain(struct nicref_dev *dev, enum obj_type type)
{
	struct obj_hdr *o = calloc(1, sizeof *o);
	if (!o)
		return -2;
	int64_t h = objtab_alloc(&dev->obj[type], o);
	if (h < 0)
		free(o);
	else
		o->handle = (uint32_t)h;
	return h;
}

int obj_free_plain(struct nicref_dev *dev, enum obj_type type, uint32_t h)
{
	struct obj_hdr *o = obj_get(dev, type, h);
	if (!o)
		return -1;
	if (o->refs)
		return -2; /* D-OBJ-1 */
	free(objtab_remove(&dev->obj[type], h));
	return 0;
}
