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

struct mem_blk {
	struct dev_mem *mem;
	struct mem_blk *prev, *next; /* on mem's live list (not while kept aside) */
	size_t size;
	uint64_t born;  /* mem->seq when handed out */
	uint32_t holds; /* snapshots holding it */
	uint32_t mark;  /* a restore's epoch (dev_mem_snap_restore) */
	bool aside;     /* freed while held: kept for the snapshots */
};

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

static void link_head(struct dev_mem *m, struct mem_blk *b)
{
	b->prev = NULL;
	b->next = m->head;
	if (m->head)
		m->head->prev = b;
	m->head = b;
	m->nlive++;
	m->bytes += b->size;
}

static void unlink_blk(struct dev_mem *m, struct mem_blk *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		m->head = b->next;
	if (b->next)
		b->next->prev = b->prev;
	m->nlive--;
	m->bytes -= b->size;
}

void *dev_malloc(struct nicref_dev *dev, size_t n)
{
	struct dev_mem *m = &dev_core(dev)->mem;
	if (n > SIZE_MAX - HDR)
		return NULL;
	struct mem_blk *b = malloc(HDR + n);
	if (!b)
		return NULL;
	*b = (struct mem_blk){ .mem = m, .size = n, .born = ++m->seq };
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
	void *q = dev_malloc(dev, n);
	if (!q || !p)
		return q;
	size_t old = blk_of(p)->size;
	memcpy(q, p, old < n ? old : n);
	dev_free(p);
	return q;
}

/* Off the live list: freed, or kept aside while a snapshot holds it. */
static void drop(struct dev_mem *m, struct mem_blk *b)
{
	unlink_blk(m, b);
	if (b->holds) {
		b->aside = true;
		POISON(payload(b), b->size);
	} else {
		free(b);
	}
}

void dev_free(void *p)
{
	if (p) {
		struct mem_blk *b = blk_of(p);
		drop(b->mem, b);
	}
}

void dev_mem_fini(struct dev_mem *m)
{
	while (m->head)
		drop(m, m->head);
}

/* ---- Snapshots ---------------------------------------------------------------------------- */

struct mem_snap {
	uint64_t seq; /* every block it holds was handed out at or before */
	size_t n;
	struct mem_blk **blk;
	size_t *off; /* each block's bytes in copy */
	uint8_t *copy;
	size_t bytes;
};

struct mem_snap *dev_mem_snap_take(struct dev_mem *m)
{
	struct mem_snap *s = calloc(1, sizeof *s);
	size_t n = m->nlive ? m->nlive : 1;
	if (!s || !(s->blk = malloc(n * sizeof *s->blk)) || !(s->off = malloc(n * sizeof *s->off)) ||
	    !(s->copy = malloc(m->bytes ? m->bytes : 1))) {
		dev_mem_snap_free(s);
		return NULL;
	}
	s->seq = m->seq;
	for (struct mem_blk *b = m->head; b; b = b->next) {
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
	if (tracked) {
		/* Since s, the only blocks handed out are the youngest, at the head. */
		while (m->head && m->head->born > s->seq)
			drop(m, m->head);
	} else {
		uint32_t e = ++m->epoch;
		for (size_t i = 0; i < s->n; i++)
			s->blk[i]->mark = e;
		for (struct mem_blk *b = m->head, *next; b; b = next) {
			next = b->next;
			if (b->mark != e)
				drop(m, b);
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		struct mem_blk *b = s->blk[i];
		if (b->aside) {
			b->aside = false;
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
		if (--b->holds == 0 && b->aside)
			free(b);
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
