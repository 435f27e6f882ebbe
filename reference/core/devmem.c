/* The allocator of what objects hold, and its part of a snapshot: see core/devmem.h. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "core/devmem.h"

/* AddressSanitizer: a block kept aside for a snapshot is poisoned, so the model reading an
 * object it destroyed is still caught as a use after free would be. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DEVMEM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define DEVMEM_ASAN 1
#endif
#ifdef DEVMEM_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* 32 bytes: what a QP's three blocks add to its memory (docs/decisions.md D-SNAP-1). */
struct mem_blk {
	struct mem_link link; /* first: on the live list (not while kept aside) */
	size_t size;
	uint32_t holds; /* snapshots holding it, and ASIDE */
	uint32_t mark;  /* a restore's epoch (dev_mem_snap_restore) */
};
#define ASIDE (1u << 31) /* freed while held: kept for the snapshots */

/* The header rounded up so the payload is aligned as malloc's. */
#define HDR ((sizeof(struct mem_blk) + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1))

static void *payload(struct mem_blk *b)
{
	return (char *)b + HDR;
}

static struct mem_blk *blk_of(void *p)
{
	return (struct mem_blk *)(void *)((char *)p - HDR);
}

static struct mem_blk *blk_at(struct mem_link *l)
{
	return (struct mem_blk *)(void *)l; /* link is the first member */
}

static struct mem_link *ring(struct dev_mem *m)
{
	if (!m->live.next) /* a zeroed struct dev_mem: the empty ring */
		m->live.next = m->live.prev = &m->live;
	return &m->live;
}

static void link_head(struct dev_mem *m, struct mem_blk *b)
{
	struct mem_link *h = ring(m);
	b->link.prev = h;
	b->link.next = h->next;
	h->next->prev = &b->link;
	h->next = &b->link;
}

static void unlink_blk(struct mem_blk *b)
{
	b->link.prev->next = b->link.next;
	b->link.next->prev = b->link.prev;
}

void *dev_malloc(struct nicref_dev *dev, size_t n)
{
	struct dev_mem *m = &dev_core(dev)->mem;
	if (!m->tracked)
		return malloc(n ? n : 1);
	if (n > SIZE_MAX - HDR)
		return NULL;
	struct mem_blk *b = malloc(HDR + n);
	if (!b)
		return NULL;
	*b = (struct mem_blk){ .size = n };
	link_head(m, b);
	return payload(b);
}

void *dev_calloc(struct nicref_dev *dev, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = dev_malloc(dev, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *dev_realloc(struct nicref_dev *dev, void *p, size_t n)
{
	if (!dev_core(dev)->mem.tracked)
		return realloc(p, n ? n : 1);
	void *q = dev_malloc(dev, n);
	if (!q || !p)
		return q;
	size_t old = blk_of(p)->size;
	memcpy(q, p, old < n ? old : n);
	dev_free(dev, p);
	return q;
}

/* Off the live list: freed, or kept aside while a snapshot holds it. */
static void drop(struct mem_blk *b)
{
	unlink_blk(b);
	if (b->holds) {
		b->holds |= ASIDE;
		POISON(payload(b), b->size);
	} else {
		free(b);
	}
}

void dev_free(struct nicref_dev *dev, void *p)
{
	if (!dev_core(dev)->mem.tracked)
		free(p);
	else if (p)
		drop(blk_of(p));
}

void dev_mem_fini(struct dev_mem *m)
{
	struct mem_link *h = ring(m);
	while (h->next != h)
		drop(blk_at(h->next));
}

size_t dev_mem_count(const struct dev_mem *m, size_t *bytes)
{
	size_t n = 0, sum = 0;
	for (const struct mem_link *l = m->live.next; l && l != &m->live; l = l->next) {
		n++;
		sum += ((const struct mem_blk *)(const void *)l)->size;
	}
	if (bytes)
		*bytes = sum;
	return n;
}

/* ---- Snapshots ---------------------------------------------------------------------------- */

struct mem_snap {
	size_t n;
	struct mem_blk **blk;
	size_t *off; /* each block's bytes in copy */
	uint8_t *copy;
	size_t bytes;
};

struct mem_snap *dev_mem_snap_take(struct dev_mem *m)
{
	size_t bytes, n = dev_mem_count(m, &bytes);
	struct mem_snap *s = calloc(1, sizeof *s);
	if (!s || !(s->blk = malloc((n ? n : 1) * sizeof *s->blk)) ||
	    !(s->off = malloc((n ? n : 1) * sizeof *s->off)) ||
	    !(s->copy = malloc(bytes ? bytes : 1))) {
		dev_mem_snap_free(s);
		return NULL;
	}
	struct mem_link *h = ring(m);
	for (struct mem_link *l = h->next; l != h; l = l->next) {
		struct mem_blk *b = blk_at(l);
		s->blk[s->n] = b;
		s->off[s->n++] = s->bytes;
		memcpy(s->copy + s->bytes, payload(b), b->size);
		s->bytes += b->size;
		b->holds++;
	}
	return s;
}

void dev_mem_snap_restore(struct dev_mem *m, struct mem_snap *s, bool tracked)
{
	struct mem_link *h = ring(m);
	if (tracked) {
		/* Since s was taken or restored, every live block was s's (held) but the ones
		 * made since, at the head; no other snapshot was taken meanwhile. */
		while (h->next != h && !blk_at(h->next)->holds)
			drop(blk_at(h->next));
	} else {
		uint32_t e = ++m->epoch;
		for (size_t i = 0; i < s->n; i++)
			s->blk[i]->mark = e;
		for (struct mem_link *l = h->next, *next; l != h; l = next) {
			next = l->next;
			if (blk_at(l)->mark != e)
				drop(blk_at(l));
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		struct mem_blk *b = s->blk[i];
		if (b->holds & ASIDE) {
			b->holds &= ~ASIDE;
			UNPOISON(payload(b), b->size);
			link_head(m, b);
		}
		memcpy(payload(b), s->copy + s->off[i], b->size);
	}
}

void dev_mem_snap_free(struct mem_snap *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->blk && i < s->n; i++) {
		struct mem_blk *b = s->blk[i];
		if (--b->holds == ASIDE) { /* the last holder, and freed: it goes now */
			free(b);
		}
	}
	free(s->blk);
	free(s->off);
	free(s->copy);
	free(s);
}

size_t dev_mem_snap_bytes(const struct mem_snap *s)
{
	return s->bytes;
}
