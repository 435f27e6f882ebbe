/* The LRO session table (eth/lro.h; D-LRO-1): every session preallocated at create, as many as
 * the profile's lro_max_sessions (the device's resources of PRM §3.3.6.2), found by the hash of
 * its flow id in a chained table of at least twice as many buckets, kept in a list in the order
 * they opened (flushes complete them in that order, D-LRO-10), the free ones in a free list.
 * Nothing allocates per segment; a reset touches only the open sessions. */
#include <stdlib.h>
#include <string.h>

#include "eth/lro.h"

static uint32_t key_hash(const struct lro_key *k)
{
	/* FNV-1a over the key's bytes (every byte is set: lro_classify zeroes the key first). */
	const uint8_t *b = (const uint8_t *)k;
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < sizeof *k; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

static uint32_t *bucket_of(struct lro_state *ls, const struct lro_key *k)
{
	return &ls->bucket[key_hash(k) & (ls->nbucket - 1)];
}

struct lro_state *lro_create(struct nicref_dev *dev)
{
	struct lro_state *ls = calloc(1, sizeof *ls);
	if (!ls)
		return NULL;
	ls->max = dev->core.cfg.profile.lro_max_sessions;
	ls->nbucket = 2;
	while (ls->nbucket < 2 * ls->max)
		ls->nbucket *= 2;
	ls->s = calloc(ls->max, sizeof *ls->s);
	ls->bucket = malloc(ls->nbucket * sizeof *ls->bucket);
	ls->todo = malloc(4 * (size_t)ls->max * sizeof *ls->todo);
	if (!ls->s || !ls->bucket || !ls->todo) {
		lro_destroy(ls);
		return NULL;
	}
	for (uint32_t i = 0; i < ls->nbucket; i++)
		ls->bucket[i] = LRO_NIL;
	for (uint32_t i = 0; i < ls->max; i++)
		ls->s[i].next = i + 1 < ls->max ? i + 1 : LRO_NIL;
	ls->free = ls->max ? 0 : LRO_NIL;
	ls->head = ls->tail = LRO_NIL;
	return ls;
}

void lro_destroy(struct lro_state *ls)
{
	if (!ls)
		return;
	free(ls->s);
	free(ls->bucket);
	free(ls->todo);
	free(ls);
}

void lro_reset_sessions(struct lro_state *ls)
{
	while (ls->head != LRO_NIL)
		lro_release(ls, &ls->s[ls->head]);
	ls->top = 0;
}

void lro_reset(struct lro_state *ls)
{
	/* Power-on: the open sessions are forgotten (no CQE: the device is reset). */
	lro_reset_sessions(ls);
	ls->opened = ls->ended = ls->merged = 0;
}

struct lro_state *lro_state_of(struct nicref_dev *dev)
{
	struct rx_state *rs = rx_state_of(dev);
	return rs ? rs->lro : NULL;
}

struct lro_session *lro_find(struct lro_state *ls, const struct lro_key *k)
{
	for (uint32_t i = *bucket_of(ls, k); i != LRO_NIL; i = ls->s[i].hnext)
		if (memcmp(&ls->s[i].key, k, sizeof *k) == 0)
			return &ls->s[i];
	return NULL;
}

struct lro_session *lro_alloc(struct lro_state *ls, const struct lro_key *k)
{
	if (ls->free == LRO_NIL)
		return NULL;
	uint32_t i = ls->free;
	struct lro_session *s = &ls->s[i];
	ls->free = s->next;
	uint32_t gen = s->gen + 1;
	*s = (struct lro_session){ .key = *k, .gen = gen, .open = true, .prev = ls->tail,
				   .next = LRO_NIL };
	uint32_t *b = bucket_of(ls, k);
	s->hnext = *b;
	*b = i;
	if (ls->tail != LRO_NIL)
		ls->s[ls->tail].next = i;
	else
		ls->head = i;
	ls->tail = i;
	ls->nopen++;
	ls->opened++;
	return s;
}

void lro_release(struct lro_state *ls, struct lro_session *s)
{
	uint32_t i = (uint32_t)(s - ls->s);
	NICREF_ASSERT(s->open);
	uint32_t *p = bucket_of(ls, &s->key);
	while (*p != i)
		p = &ls->s[*p].hnext;
	*p = s->hnext;
	if (s->prev != LRO_NIL)
		ls->s[s->prev].next = s->next;
	else
		ls->head = s->next;
	if (s->next != LRO_NIL)
		ls->s[s->next].prev = s->prev;
	else
		ls->tail = s->prev;
	s->open = false;
	s->next = ls->free;
	ls->free = i;
	ls->nopen--;
}

uint32_t lro_collect(struct lro_state *ls, lro_want_fn want, uint64_t arg, uint32_t *base)
{
	/* A stack: completing a collected session may flush an RQ, which collects again above
	 * (at most two levels: a flush for an RQ leaving RDY does not flush again). */
	NICREF_ASSERT(ls->top + ls->nopen <= 2 * ls->max);
	uint32_t n = 0;
	*base = ls->top;
	for (uint32_t i = ls->head; i != LRO_NIL; i = ls->s[i].next)
		if (want(&ls->s[i], arg)) {
			ls->todo[2 * (*base + n)] = i;
			ls->todo[2 * (*base + n) + 1] = ls->s[i].gen;
			n++;
		}
	ls->top = *base + n;
	return n;
}

struct lro_session *lro_todo(struct lro_state *ls, uint32_t i)
{
	struct lro_session *s = &ls->s[ls->todo[2 * i]];
	/* Completing one session may have completed others (a CQ that took no CQE puts the RQ in
	 * ERR, which flushes its sessions): the slot must still hold the session collected. */
	return s->open && s->gen == ls->todo[2 * i + 1] ? s : NULL;
}
