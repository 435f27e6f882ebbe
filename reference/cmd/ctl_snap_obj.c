/* The live objects' words in a snapshot (cmd/ctl_snap.c): each object's struct (with the
 * arrays it holds inline), an RQ's ring of WQEs taken from its RMP, and the doorbell layer's
 * registers.
 *
 * Why a copy of the words is enough: between a snapshot and its restore, a device that ran no
 * command keeps the same objects at the same addresses, with the same arrays, page lists, flow
 * entries and hash buckets; only the words the data path, the doorbells and time change move
 * (producer and consumer counters, states, arm and moderation state, a UMR's translations,
 * flow counters, the Blue Flame registers). Copying those words back costs the live objects
 * (a few dozen in a fuzz target's stack), not the object tables. Whether the objects are still
 * the same ones is checked first (obj_words_same): same live objects, same addresses. */
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/umem.h"

typedef size_t obj_size_fn(const void *o);

static size_t plain_size(const void *o)
{
	(void)o;
	return sizeof(struct obj_hdr);
}
static size_t mkey_size(const void *o)
{
	const struct mkey *m = o; /* t[] as allocated at create (obj/mkey.c) */
	return sizeof *m + (size_t)m->room * (m->access_mode == MKEY_AM_KLM ? 3 : 2) * sizeof m->t[0];
}
static size_t rqt_size(const void *o)
{
	const struct rqt *t = o;
	return sizeof *t + (size_t)t->max_size * sizeof t->rq[0];
}
#define FIXED_SIZE(name, type)                                                                  \
	static size_t name(const void *o)                                                       \
	{                                                                                       \
		(void)o;                                                                        \
		return sizeof(type);                                                            \
	}
static size_t umem_size(const void *o)
{
	const struct umem *u = o; /* mtt[] as allocated at create (obj/umem.c) */
	return sizeof *u + (size_t)u->nmtt * sizeof u->mtt[0];
}
FIXED_SIZE(eq_size, struct eq)
FIXED_SIZE(cq_size, struct cq)
FIXED_SIZE(tis_size, struct tis)
FIXED_SIZE(sq_size, struct sq)
FIXED_SIZE(rmp_size, struct rmp)
FIXED_SIZE(rq_size, struct rq)
FIXED_SIZE(tir_size, struct tir)
FIXED_SIZE(fc_size, struct flow_counter)
FIXED_SIZE(ft_size, struct flow_table)
FIXED_SIZE(fg_size, struct flow_group)

/* The bytes of an object of each type, as its family allocates it. */
static const struct {
	obj_size_fn *of;
} obj_size[OBJ_TYPE_COUNT] = {
	[OBJ_PD] = { plain_size }, [OBJ_UAR] = { plain_size }, [OBJ_TD] = { plain_size },
	[OBJ_MKEY] = { mkey_size }, [OBJ_EQ] = { eq_size },    [OBJ_CQ] = { cq_size },
	[OBJ_TIS] = { tis_size },   [OBJ_SQ] = { sq_size },    [OBJ_RMP] = { rmp_size },
	[OBJ_RQ] = { rq_size },     [OBJ_RQT] = { rqt_size },  [OBJ_TIR] = { tir_size },
	[OBJ_FC] = { fc_size },     [OBJ_FT] = { ft_size },    [OBJ_FG] = { fg_size },
	[OBJ_UMEM] = { umem_size },
};

struct obj_word_entry {
	void *obj;
	size_t off, len; /* its bytes in pool */
	size_t taken_off, taken_len; /* an RQ's taken ring, bytes */
};

struct obj_words {
	uint32_t nlive[OBJ_TYPE_COUNT];
	size_t n;
	struct obj_word_entry *e;
	size_t uar_off;
	uint8_t *pool;
};

void obj_words_free(struct obj_words *w)
{
	if (!w)
		return;
	free(w->e);
	free(w->pool);
	free(w);
}

/* Every live object, type by type in handle order: f(ctx, type, obj). */
static void each_obj(const struct nicref_dev *dev, void (*f)(void *ctx, unsigned t, void *o),
		     void *ctx)
{
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++) {
		void *o;
		for (int64_t h = objtab_next(&dev->obj[t], 0, &o); h >= 0;
		     h = objtab_next(&dev->obj[t], (uint32_t)h + 1, &o))
			f(ctx, t, o);
	}
}

static size_t taken_bytes(unsigned t, const void *o)
{
	const struct rq *rq = o;
	return t == OBJ_RQ ? (size_t)rq->taken_cap * sizeof *rq->taken : 0;
}

static void count_obj(void *ctx, unsigned t, void *o)
{
	struct obj_words *w = ctx;
	w->n++;
	w->uar_off += obj_size[t].of(o) + taken_bytes(t, o);
}

static void save_obj(void *ctx, unsigned t, void *o)
{
	struct obj_words *w = ctx;
	struct obj_word_entry *e = &w->e[w->n++];
	e->obj = o;
	e->len = obj_size[t].of(o);
	e->off = w->uar_off;
	memcpy(w->pool + e->off, o, e->len);
	w->uar_off += e->len;
	e->taken_off = w->uar_off;
	e->taken_len = taken_bytes(t, o);
	if (e->taken_len)
		memcpy(w->pool + e->taken_off, ((const struct rq *)o)->taken, e->taken_len);
	w->uar_off += e->taken_len;
}

struct obj_words *obj_words_save(const struct nicref_dev *dev)
{
	struct obj_words *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	each_obj(dev, count_obj, w);
	size_t n = w->n, bytes = w->uar_off + uar_db_snap_bytes(dev);
	if (!(w->e = malloc((n ? n : 1) * sizeof *w->e)) || !(w->pool = malloc(bytes))) {
		obj_words_free(w);
		return NULL;
	}
	w->n = w->uar_off = 0;
	each_obj(dev, save_obj, w);
	uar_db_snap_save(dev, w->pool + w->uar_off);
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		w->nlive[t] = dev->obj[t].nlive;
	return w;
}

struct same_ctx {
	const struct obj_words *w;
	size_t i;
	bool same;
};

static void same_obj(void *ctx, unsigned t, void *o)
{
	(void)t;
	struct same_ctx *c = ctx;
	c->same = c->same && c->i < c->w->n && c->w->e[c->i].obj == o;
	c->i++;
}

bool obj_words_same(const struct nicref_dev *dev, const struct obj_words *w)
{
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		if (dev->obj[t].nlive != w->nlive[t])
			return false;
	struct same_ctx c = { w, 0, true };
	each_obj(dev, same_obj, &c);
	return c.same && c.i == w->n;
}

void obj_words_restore(struct nicref_dev *dev, const struct obj_words *w)
{
	for (size_t i = 0; i < w->n; i++) {
		const struct obj_word_entry *e = &w->e[i];
		memcpy(e->obj, w->pool + e->off, e->len);
		if (e->taken_len)
			memcpy(((struct rq *)e->obj)->taken, w->pool + e->taken_off, e->taken_len);
	}
	uar_db_snap_restore(dev, w->pool + w->uar_off);
}
