/* The built-in sparse host memory. Its pages, its slot table and the list of used slots all
 * grow as pages are first written, up to the profile's bound, and are kept across a clear: the
 * first inputs of a fuzzing campaign allocate, the later ones reuse (hostmem.h). A write that
 * needs room prepares all of it first, so a write that cannot complete writes nothing. */
#include <stdlib.h>
#include <string.h>

#include "core/hostmem.h"

#define FIRST_SLOTS 64u

int hostmem_init(struct hostmem *hm, size_t max_pages)
{
	memset(hm, 0, sizeof *hm);
	if (max_pages == 0 || max_pages > ((size_t)1 << 24))
		return -1;
	hm->max_pages = max_pages;
	hm->max_slots = FIRST_SLOTS;
	while (hm->max_slots < 2 * max_pages)
		hm->max_slots <<= 1;
	return 0;
}

void hostmem_fini(struct hostmem *hm)
{
	for (size_t c = 0; c < hm->nchunks; c++)
		free(hm->chunk[c]);
	free(hm->chunk);
	free(hm->slots);
	free(hm->used_slot);
	memset(hm, 0, sizeof *hm);
}

void hostmem_clear(struct hostmem *hm)
{
	for (size_t i = 0; i < hm->used; i++)
		hm->slots[hm->used_slot[i]].pfn_plus1 = 0;
	hm->used = 0;
	hm->nfault = 0;
	if (hm->track)
		hostmem_touch(hm, SIZE_MAX); /* the snapshot's pages are gone: a full restore */
}

void hostmem_truncate(struct hostmem *hm, size_t n)
{
	while (hm->used > n)
		hm->slots[hm->used_slot[--hm->used]].pfn_plus1 = 0;
}

uint8_t *hostmem_page(const struct hostmem *hm, size_t i, uint64_t *pfn)
{
	*pfn = hm->slots[hm->used_slot[i]].pfn_plus1 - 1;
	return hm->chunk[i / HOSTMEM_CHUNK_PAGES] + i % HOSTMEM_CHUNK_PAGES * HOSTMEM_PAGE;
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
	const struct hostmem_slot *s = hostmem_slot_find(hm, pfn);
	return s ? s->data : NULL;
}

/* A slot table of nslots holding the used pages (rehashed in their hand-out order). */
static int grow_slots(struct hostmem *hm, size_t nslots)
{
	struct hostmem_slot *ns = calloc(nslots, sizeof *ns);
	uint32_t *nu = malloc(nslots / 2 * sizeof *nu);
	if (!ns || !nu) {
		free(ns);
		free(nu);
		return -1;
	}
	for (size_t i = 0; i < hm->used; i++) {
		const struct hostmem_slot *o = &hm->slots[hm->used_slot[i]];
		size_t k = hostmem_probe(ns, nslots, o->pfn_plus1 - 1);
		ns[k] = *o;
		nu[i] = (uint32_t)k;
	}
	free(hm->slots);
	free(hm->used_slot);
	hm->slots = ns;
	hm->used_slot = nu;
	hm->nslots = nslots;
	return 0;
}

/* Room for `pages` pages in all: the slot table at most half full, and the chunks. */
static int reserve(struct hostmem *hm, size_t pages)
{
	size_t want = hm->nslots ? hm->nslots : FIRST_SLOTS;
	while (want < 2 * pages && want < hm->max_slots)
		want <<= 1;
	if (want != hm->nslots && grow_slots(hm, want) != 0)
		return -1;
	size_t chunks = (pages + HOSTMEM_CHUNK_PAGES - 1) / HOSTMEM_CHUNK_PAGES;
	if (chunks > hm->chunk_cap) {
		size_t cap = hm->chunk_cap ? hm->chunk_cap : 4;
		while (cap < chunks)
			cap <<= 1;
		uint8_t **nc = realloc(hm->chunk, cap * sizeof *nc);
		if (!nc)
			return -1;
		hm->chunk = nc;
		hm->chunk_cap = cap;
	}
	while (hm->nchunks < chunks) {
		uint8_t *c = malloc((size_t)HOSTMEM_CHUNK_PAGES * HOSTMEM_PAGE);
		if (!c)
			return -1;
		hm->chunk[hm->nchunks++] = c;
	}
	return 0;
}

/* The page pfn, handing out the next page if it has none; reserve() made the room. */
static uint8_t *page_get(struct hostmem *hm, uint64_t pfn)
{
	size_t i = hostmem_probe(hm->slots, hm->nslots, pfn);
	if (hm->slots[i].pfn_plus1) {
		if (hm->track)
			hostmem_touch(hm, hm->slots[i].idx);
		return hm->slots[i].data;
	}
	size_t n = hm->used;
	uint8_t *page = hm->chunk[n / HOSTMEM_CHUNK_PAGES] + n % HOSTMEM_CHUNK_PAGES * HOSTMEM_PAGE;
	memset(page, 0, HOSTMEM_PAGE);
	hm->slots[i].pfn_plus1 = pfn + 1;
	hm->slots[i].data = page;
	hm->slots[i].idx = (uint32_t)n;
	hm->used_slot[hm->used++] = (uint32_t)i;
	return page;
}

static int span_ok(uint64_t addr, size_t len)
{
	return len == 0 || addr + (len - 1) >= addr; /* no wrap past 2^64 */
}

int hostmem_read_span(const struct hostmem *hm, uint64_t addr, void *buf, size_t len)
{
	uint8_t *out = buf;
	if (!span_ok(addr, len))
		return -1;
	while (len > 0) {
		uint64_t off = addr % HOSTMEM_PAGE;
		size_t n = HOSTMEM_PAGE - off < len ? (size_t)(HOSTMEM_PAGE - off) : len;
		const uint8_t *page = page_find(hm, addr / HOSTMEM_PAGE);
		if (page)
			hostmem_copy_small(out, page + off, n);
		else
			memset(out, 0, n);
		out += n;
		addr += n;
		len -= n;
	}
	return 0;
}

/* Pages a write would add (counted up to one past the room left). */
static size_t new_pages(const struct hostmem *hm, uint64_t addr, size_t len)
{
	size_t n = 0;
	if (len == 0)
		return 0;
	for (uint64_t pfn = addr / HOSTMEM_PAGE; pfn <= (addr + (len - 1)) / HOSTMEM_PAGE; pfn++) {
		if (!page_find(hm, pfn))
			n++;
		if (pfn == UINT64_MAX / HOSTMEM_PAGE || n > hm->max_pages - hm->used)
			break;
	}
	return n;
}

int hostmem_write_span(struct hostmem *hm, uint64_t addr, const void *buf, size_t len)
{
	const uint8_t *in = buf;
	if (!span_ok(addr, len))
		return -1;
	/* Within one page that exists (a CQE, a received frame's entry): one probe, no count. */
	uint64_t off0 = addr % HOSTMEM_PAGE;
	if (len && off0 + len <= HOSTMEM_PAGE) {
		const struct hostmem_slot *s = hostmem_slot_find(hm, addr / HOSTMEM_PAGE);
		if (s) {
			if (hm->track)
				hostmem_touch(hm, s->idx);
			hostmem_copy_small(s->data + off0, in, len);
			return 0;
		}
	}
	size_t add = new_pages(hm, addr, len);
	if (add > hm->max_pages - hm->used || (add && reserve(hm, hm->used + add) != 0))
		return -1;
	while (len > 0) {
		uint64_t off = addr % HOSTMEM_PAGE;
		size_t n = HOSTMEM_PAGE - off < len ? (size_t)(HOSTMEM_PAGE - off) : len;
		memcpy(page_get(hm, addr / HOSTMEM_PAGE) + off, in, n);
		in += n;
		addr += n;
		len -= n;
	}
	return 0;
}
