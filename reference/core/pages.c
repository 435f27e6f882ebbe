/* The page pool: pages in the order given, and a hash set of them. */
#include <stdlib.h>
#include <string.h>

#include "core/pages.h"

int page_pool_init(struct page_pool *p, uint32_t capacity)
{
	memset(p, 0, sizeof *p);
	uint32_t slots = 16;
	while (slots < 2 * (uint64_t)capacity)
		slots *= 2;
	p->addr = calloc(capacity ? capacity : 1, sizeof *p->addr);
	p->set = calloc(slots, sizeof *p->set);
	if (!p->addr || !p->set)
		return -1;
	p->capacity = capacity;
	p->set_mask = slots - 1;
	return 0;
}

void page_pool_fini(struct page_pool *p)
{
	free(p->addr);
	free(p->set);
	memset(p, 0, sizeof *p);
}

static uint32_t slot_of(const struct page_pool *p, uint64_t addr)
{
	uint64_t h = (addr >> 12) * 0x9E3779B97F4A7C15ull;
	return (uint32_t)(h >> 32) & p->set_mask;
}

/* The slot holding addr, or the empty slot where it would go. */
static uint32_t find(const struct page_pool *p, uint64_t addr)
{
	uint32_t i = slot_of(p, addr);
	while (p->set[i] && p->set[i] != addr + 1)
		i = (i + 1) & p->set_mask;
	return i;
}

bool page_pool_has(const struct page_pool *p, uint64_t addr)
{
	return p->set[find(p, addr)] != 0;
}

int page_pool_add(struct page_pool *p, uint64_t addr)
{
	if (p->count == p->capacity)
		return -1;
	p->set[find(p, addr)] = addr + 1;
	p->addr[p->count++] = addr;
	return 0;
}

/* Linear-probing deletion: shift later entries of the run back so no probe chain breaks. */
static void set_remove(struct page_pool *p, uint64_t addr)
{
	uint32_t i = find(p, addr);
	p->set[i] = 0;
	for (uint32_t j = (i + 1) & p->set_mask; p->set[j]; j = (j + 1) & p->set_mask) {
		uint32_t home = slot_of(p, p->set[j] - 1);
		/* move j into the hole at i unless its home lies cyclically in (i, j] */
		bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (!stays) {
			p->set[i] = p->set[j];
			p->set[j] = 0;
			i = j;
		}
	}
}

uint64_t page_pool_take_last(struct page_pool *p)
{
	uint64_t addr = p->addr[--p->count];
	set_remove(p, addr);
	return addr;
}

void page_pool_clear(struct page_pool *p)
{
	while (p->count)
		(void)page_pool_take_last(p);
}
