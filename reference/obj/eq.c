/* Event queues: the device-level hooks, invariants and references (PRM §7.13; D-OBJ-1). */
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/obj_walk.h"

int eq_dev_init(struct nicref_dev *dev)
{
	struct eq_dev *d = &dev->eqd;
	memset(d, 0, sizeof *d);
	/* One moderation timer per interrupt vector (§7.13.15), sized once from the profile. */
	d->nvec = dev->core.cfg.profile.msix_vectors;
	d->vec_last_ns = calloc(d->nvec, sizeof *d->vec_last_ns);
	d->vec_flags = calloc(d->nvec, 1);
	d->vec_eqn = calloc(d->nvec, 1);
	return d->vec_last_ns && d->vec_flags && d->vec_eqn ? 0 : -1;
}

void eq_dev_fini(struct nicref_dev *dev)
{
	struct eq_dev *d = &dev->eqd;
	free(d->vec_last_ns);
	free(d->vec_flags);
	free(d->vec_eqn);
	d->vec_last_ns = NULL;
	d->vec_flags = NULL;
	d->vec_eqn = NULL;
}

void eq_dev_reset(struct nicref_dev *dev)
{
	struct eq_dev *d = &dev->eqd;
	void *o;
	/* Every EQ goes (TEARDOWN_HCA, reset); CQs went first (cq_dev_reset). */
	for (int64_t h = objtab_next(&dev->obj[OBJ_EQ], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_EQ], (uint32_t)h + 1, &o)) {
		struct eq *eq = objtab_remove(&dev->obj[OBJ_EQ], (uint32_t)h);
		qbuf_free(dev, &eq->buf);
		dev_free(dev, eq);
	}
	memset(d->type_eq, 0, sizeof d->type_eq);
	d->cmd_unreported = 0;
	d->cmd_no_event = false;
	if (d->nvec) {
		memset(d->vec_last_ns, 0, d->nvec * sizeof *d->vec_last_ns);
		memset(d->vec_flags, 0, d->nvec);
		memset(d->vec_eqn, 0, d->nvec);
	}
	d->vec_held = 0;
}

void eq_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	visit(ctx, OBJ_UAR, ((const struct eq *)o)->uar); /* an EQ names its UAR (T94 uar_page) */
}

void eq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_EQ, eq_obj_refs, visit, ctx);
}

/* Pages an EQ of 2^log EQEs spans. */
static uint64_t eq_pages(const struct eq *eq)
{
	uint64_t page = 4096ull << eq->buf.log_page_size;
	return (((uint64_t)EQE_SIZE << eq->log_size) + page - 1) / page;
}

/* The type-to-EQ map in one pass over the 64 types (obj/obj_walk.h): each EQ's bitmask is
 * then compared with its entry, instead of a pass over the types per EQ. */
void eq_map_build(const struct nicref_dev *dev, struct eq_map *m)
{
	const struct eq_dev *d = &dev->eqd;
	m->n = 0;
	for (unsigned t = 0; t < EQ_EVENT_TYPES; t++) {
		uint64_t four; /* types t..t+3 unmapped: skipped at once (most are) */
		if (t % 4 == 0 && (memcpy(&four, &d->type_eq[t], sizeof four), four == 0)) {
			t += 3;
			continue;
		}
		uint32_t v = d->type_eq[t];
		if (!v)
			continue;
		unsigned i = 0;
		while (i < m->n && m->named[i] != v)
			i++;
		if (i == m->n) {
			m->named[m->n] = v;
			m->types[m->n++] = 0;
		}
		m->types[i] |= 1ull << t;
	}
}

/* The types the map gives EQ h (bit t: type_eq[t] == h + 1). */
static uint64_t eq_map_types(const struct eq_map *m, uint32_t h)
{
	for (unsigned i = 0; i < m->n; i++)
		if (m->named[i] == h + 1u)
			return m->types[i];
	return 0;
}

int eq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	const struct eq *eq = o;
	if (eq->hdr.handle != h)
		return -100;
	if (eq->st != EQ_ST_ARMED && eq->st != EQ_ST_FIRED)
		return -101; /* T94 st */
	if (eq->status != EQ_STATUS_OK && eq->status != EQ_STATUS_WRITE_FAILURE)
		return -102;
	if (eq->pc > EQ_COUNTER_MASK || eq->cc > EQ_COUNTER_MASK)
		return -103;
	/* Without oi or ec, a working EQ never holds more than its size (D-EQ-4). */
	if (!eq->oi && !eq->ec && !eq->broken &&
	    ((eq->pc - eq->cc) & EQ_COUNTER_MASK) > (1u << eq->log_size))
		return -104;
	if (eq->buf.npas != eq_pages(eq) || eq->intr >= dev->eqd.nvec)
		return -105;
	if (eq->mapped & 1u)
		return -106; /* bit 0 is never mapped (T244) */
	/* Types 1-63: mapped here iff the map names this EQ for them. */
	if ((eq->mapped ^ eq_map_types(&w->eq, h)) & ~1ull)
		return -107;
	return 0;
}

int eq_check_end(const struct nicref_dev *dev, const struct obj_walk *w)
{
	const struct eq_dev *d = &dev->eqd;
	for (unsigned i = 0; i < w->eq.n; i++) {
		/* Every type mapped names a live EQ that takes it. */
		const struct eq *eq = eq_get(dev, w->eq.named[i] - 1u);
		if (!eq || (eq->mapped & w->eq.types[i]) != w->eq.types[i])
			return -108; /* a type mapped to an EQ that does not take it */
	}
	/* The vectors marked held, eight flag bytes at a step. */
	uint32_t held = 0, v = 0;
	for (; v + 8 <= d->nvec; v += 8) {
		uint64_t x;
		memcpy(&x, d->vec_flags + v, sizeof x);
		held += (uint32_t)__builtin_popcountll(x & 0x0101010101010101ull * EQ_VEC_HELD);
	}
	for (; v < d->nvec; v++)
		held += (d->vec_flags[v] & EQ_VEC_HELD) != 0;
	if (held != d->vec_held)
		return -109;
	return 0;
}

