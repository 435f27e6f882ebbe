/* The built-in sparse host memory. Pages come from one pool reserved at creation (the OS
 * commits it only as pages are touched), so a write never allocates and a clear costs only
 * the pages used. */
#include <stdlib.h>
#include <string.h>

#include "core/hostmem.h"

static size_t slot_of(const struct hostmem *hm, uint64_t pfn)
{
	/* Fibonacci hashing; nslots is a power of two. */
	return (size_t)((pfn * 0x9E3779B97F4A7C15ull) >> 20) & (hm->nslots - 1);
}

int hostmem_init(struct hostmem *hm, size_t max_pages)
{
	memset(hm, 0, sizeof *hm);
	if (max_pages == 0 || max_pages > ((size_t)1 << 24))
		return -1;
	hm->max_pages = max_pages;
	hm->nslots = 16;
	while (hm->nslots < 2 * max_pages)
		hm->nslots <<= 1;
	hm->slots = calloc(hm->nslots, sizeof *hm->slots);
	hm->pool = malloc(max_pages * HOSTMEM_PAGE);
	hm->used_slot = malloc(max_pages * sizeof *hm->used_slot);
	if (!hm->slots || !hm->pool || !hm->used_slot) {
		hostmem_fini(hm);
		return -1;
	}
	return 0;
}

void hostmem_fini(struct hostmem *hm)
{
	free(hm->slots);
	free(hm->pool);
	free(hm->used_slot);
	memset(hm, 0, sizeof *hm);
}

void hostmem_clear(struct hostmem *hm)
{
	for (size_t i = 0; i < hm->used; i++)
		hm->slots[hm->used_slot[i]].pfn_plus1 = 0;
	hm->used = 0;
	hm->nfault = 0;
}

int hostmem_add_fault(struct hostmem *hm, uint64_t addr, uint64_t len, unsigned flags)
{
	if (len == 0 || hm->nfault == HOSTMEM_MAX_FAULTS)
		return -1;
	hm->fault[hm->nfault++] = (struct hostmem_fault){ addr, len, flags };
	return 0;
}

int hostmem_faulted(const struct hostmem *hm, uint64_t addr, size_t len, unsigned flag)
{
	uint64_t last = addr + (len ? len - 1 : 0);
	for (unsigned i = 0; i < hm->nfault; i++) {
		const struct hostmem_fault *f = &hm->fault[i];
		uint64_t f_last = f->addr + (f->len - 1);
		if ((f->flags & flag) && addr <= f_last && f->addr <= last)
			return 1;
	}
	return 0;
}

static uint8_t *page_find(const struct hostmem *hm, uint64_t pfn)
{
	for (size_t i = slot_of(hm, pfn);; i = (i + 1) & (hm->nslots - 1)) {
		const struct hostmem_slot *s = &hm->slots[i];
		if (s->pfn_plus1 == 0)
			return NULL;
		if (s->pfn_plus1 == pfn + 1)
			return s->data;
	}
}

static uint8_t *page_get(struct hostmem *hm, uint64_t pfn)
{
	size_t i = slot_of(hm, pfn);
	for (;; i = (i + 1) & (hm->nslots - 1)) {
		struct hostmem_slot *s = &hm->slots[i];
		if (s->pfn_plus1 == pfn + 1)
			return s->data;
		if (s->pfn_plus1 == 0)
			break;
	}
	if (hm->used == hm->max_pages)
		return NULL;
	uint8_t *page = hm->pool + hm->used * HOSTMEM_PAGE;
	memset(page, 0, HOSTMEM_PAGE);
	hm->slots[i].pfn_plus1 = pfn + 1;
	hm->slots[i].data = page;
	hm->used_slot[hm->used++] = (uint32_t)i;
	return page;
}

static int span_ok(uint64_t addr, size_t len)
{
	return len == 0 || addr + (len - 1) >= addr; /* no wrap past 2^64 */
}

int hostmem_read(const struct hostmem *hm, uint64_t addr, void *buf, size_t len)
{
	uint8_t *out = buf;
	if (!span_ok(addr, len))
		return -1;
	while (len > 0) {
		uint64_t off = addr % HOSTMEM_PAGE;
		size_t n = HOSTMEM_PAGE - off < len ? (size_t)(HOSTMEM_PAGE - off) : len;
		const uint8_t *page = page_find(hm, addr / HOSTMEM_PAGE);
		if (page)
			memcpy(out, page + off, n);
		else
			memset(out, 0, n);
		out += n;
		addr += n;
		len -= n;
	}
	return 0;
}

/* Pages a write would add: a write that cannot complete writes nothing. */
static size_t new_pages(const struct hostmem *hm, uint64_t addr, size_t len)
{
	size_t n = 0;
	if (len == 0)
		return 0;
	for (uint64_t pfn = addr / HOSTMEM_PAGE; pfn <= (addr + (len - 1)) / HOSTMEM_PAGE; pfn++) {
		if (!page_find(hm, pfn))
			n++;
		if (pfn == UINT64_MAX / HOSTMEM_PAGE || n > hm->max_pages)
			break;
	}
	return n;
}

int hostmem_write(struct hostmem *hm, uint64_t addr, const void *buf, size_t len)
{
	const uint8_t *in = buf;
	if (!span_ok(addr, len) || new_pages(hm, addr, len) > hm->max_pages - hm->used)
		return -1;
	while (len > 0) {
		uint64_t off = addr % HOSTMEM_PAGE;
		size_t n = HOSTMEM_PAGE - off < len ? (size_t)(HOSTMEM_PAGE - off) : len;
		uint8_t *page = page_get(hm, addr / HOSTMEM_PAGE);
		if (!page)
			return -1;
		memcpy(page + off, in, n);
		in += n;
		addr += n;
		len -= n;
	}
	return 0;
}
