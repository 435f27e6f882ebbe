/* Private to libnicref: the pages the driver has given the device (PRM §5.1, §12.3.1-2). The
 * pool keeps them in the order given, so MANAGE_PAGES(return) hands back the latest first
 * (LIFO, D-PG-3 in docs/decisions.md), and a hash set finds a page in O(1) to refuse duplicates. */
#ifndef NICREF_CORE_PAGES_H
#define NICREF_CORE_PAGES_H

#include <stdbool.h>
#include <stdint.h>

struct page_pool {
	uint64_t *addr;    /* pages in the order given; count of them */
	uint32_t count, capacity;
	uint64_t *set;     /* open addressing, linear probing; 0 is empty (page 0 is valid: +1) */
	uint32_t set_mask;
};

int page_pool_init(struct page_pool *p, uint32_t capacity);
void page_pool_fini(struct page_pool *p);
void page_pool_clear(struct page_pool *p); /* O(count) */
bool page_pool_has(const struct page_pool *p, uint64_t addr);
/* 0, or -1 when full (the caller checks duplicates first). */
int page_pool_add(struct page_pool *p, uint64_t addr);
/* Removes and returns the latest page; the pool must not be empty. */
uint64_t page_pool_take_last(struct page_pool *p);

#endif
