/* Private to libnicref: the built-in sparse host memory, 4 KiB pages in an open-addressing
 * table bounded by the profile. Unwritten memory reads as zero. */
#ifndef NICREF_CORE_HOSTMEM_H
#define NICREF_CORE_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HOSTMEM_PAGE 4096u

struct hostmem_slot {
	uint64_t pfn_plus1; /* 0: empty */
	uint8_t *data;
	uint32_t idx; /* the page's place in the hand-out order (dirty tracking) */
};

/* A host-memory range whose DMA accesses fail (a bus error): the harness's error injection. */
#define HOSTMEM_MAX_FAULTS 8
struct hostmem_fault {
	uint64_t addr, len;
	unsigned flags; /* NICREF_FAULT_READ | NICREF_FAULT_WRITE */
};

/* Pages are handed out in the order first written and live in chunks of HOSTMEM_CHUNK_PAGES,
 * allocated as the pages are first touched and kept across hostmem_clear (and device reset),
 * so a fuzzer's per-input clear never allocates again; the slot table likewise grows (doubling,
 * at most half full) as pages are used. A device reserves almost nothing at creation and at
 * most max_pages pages in all (profile.hostmem_max_pages). */
#define HOSTMEM_CHUNK_PAGES 16u /* 64 KiB */

struct hostmem {
	struct hostmem_slot *slots;
	size_t nslots;    /* power of two, at least twice the pages used (0 before any) */
	size_t max_slots; /* the table's bound: a power of two, at least twice max_pages */
	size_t used;      /* pages handed out since the last clear */
	size_t max_pages;
	uint8_t **chunk;  /* chunk[c]: pages c * HOSTMEM_CHUNK_PAGES ... of the hand-out order */
	size_t nchunks, chunk_cap; /* allocated chunks; room in chunk[] */
	uint32_t *used_slot; /* slot index of page i (nslots / 2 entries), so a clear touches
			      * only the used slots */
	struct hostmem_fault fault[HOSTMEM_MAX_FAULTS];
	unsigned nfault;
	/* Dirty tracking for a snapshot (core/hostmem_snap.c): while `track` is set, the first
	 * write to each page of the hand-out order below `snap_used` since the snapshot records
	 * its index in dirty[], so a restore copies back only those pages. dirty_gen[i] is the
	 * generation page i was last recorded in; a restore starts a new generation, so nothing
	 * is cleared per restore. A clear since the snapshot sets `cleared` (restore copies all). */
	struct hostmem_track *track;
};

/* Called by every write to page i of the hand-out order, SIZE_MAX by a clear (hostmem_snap.c). */
void hostmem_touch(struct hostmem *hm, size_t i);
/* Drops the pages handed out after the first n, the latest first, which leaves the slot table
 * as it was when they were handed out (linear probing undone in reverse). */
void hostmem_truncate(struct hostmem *hm, size_t n);
/* Page i of the hand-out order (i < used) and its page number. */
uint8_t *hostmem_page(const struct hostmem *hm, size_t i, uint64_t *pfn);

/* Snapshots of the memory (core/hostmem_snap.c): take makes hm track writes for the new
 * snapshot; restore brings hm back to t (tracking it from then on), at the cost of the pages
 * written or added since, or of every page of t after a clear or when t was not tracked. */
struct hostmem_track *hostmem_snap_take(struct hostmem *hm);
int hostmem_snap_restore(struct hostmem *hm, struct hostmem_track *t);
void hostmem_snap_free(struct hostmem *hm, struct hostmem_track *t);

int hostmem_init(struct hostmem *hm, size_t max_pages);
void hostmem_fini(struct hostmem *hm);
void hostmem_clear(struct hostmem *hm);
/* Any access (several pages, pages not there yet, an address range that wraps): 0 or -1. */
int hostmem_read_span(const struct hostmem *hm, uint64_t addr, void *buf, size_t len);
int hostmem_write_span(struct hostmem *hm, uint64_t addr, const void *buf, size_t len);

/* The first slot page pfn may take in a table of nslots (a power of two): Fibonacci hashing;
 * linear probing goes on from there. */
static inline size_t hostmem_slot_of(size_t nslots, uint64_t pfn)
{
	return (size_t)((pfn * 0x9E3779B97F4A7C15ull) >> 20) & (nslots - 1);
}

/* The slot holding pfn in a table of nslots, or the empty slot where it goes. */
static inline size_t hostmem_probe(const struct hostmem_slot *slots, size_t nslots, uint64_t pfn)
{
	size_t i = hostmem_slot_of(nslots, pfn);
	while (slots[i].pfn_plus1 != 0 && slots[i].pfn_plus1 != pfn + 1)
		i = (i + 1) & (nslots - 1);
	return i;
}

/* The slot of page pfn, or NULL. Inline with the accesses below: a received frame makes about
 * ten of them (its WQE, doorbell records, data, CQE, and the driver's), almost all within one
 * page that exists. */
static inline const struct hostmem_slot *hostmem_slot_find(const struct hostmem *hm,
							   uint64_t pfn)
{
	if (hm->nslots == 0)
		return NULL;
	const struct hostmem_slot *s = &hm->slots[hostmem_probe(hm->slots, hm->nslots, pfn)];
	return s->pfn_plus1 ? s : NULL;
}

/* memcpy with the lengths of the per-frame accesses (a doorbell record's 4 bytes, a WQE's 16,
 * a CQE's 64) as constants: the compilers copy those inline instead of calling memcpy. */
static inline void hostmem_copy_small(uint8_t *d, const uint8_t *s, size_t n)
{
	if (n == 4)
		memcpy(d, s, 4);
	else if (n == 16)
		memcpy(d, s, 16);
	else if (n == 64)
		memcpy(d, s, 64);
	else
		memcpy(d, s, n);
}

/* Where [addr, addr + len) lies when it is within one page that exists (such a range cannot
 * wrap), else NULL: the accesses' fast path. */
static inline uint8_t *hostmem_at(const struct hostmem *hm, uint64_t addr, size_t len)
{
	uint64_t off = addr % HOSTMEM_PAGE;
	if (!len || off + len > HOSTMEM_PAGE)
		return NULL;
	const struct hostmem_slot *s = hostmem_slot_find(hm, addr / HOSTMEM_PAGE);
	return s ? s->data + off : NULL;
}

/* Reads len bytes at addr (unwritten memory reads 0): 0, or -1 when the range wraps past
 * 2^64. */
static inline int hostmem_read(const struct hostmem *hm, uint64_t addr, void *buf, size_t len)
{
	const uint8_t *p = hostmem_at(hm, addr, len);
	if (!p)
		return hostmem_read_span(hm, addr, buf, len);
	hostmem_copy_small(buf, p, len);
	return 0;
}

/* Writes len bytes at addr, adding the pages it needs: 0, or -1 (the range wraps, or the
 * pages would pass the bound or cannot be allocated: then nothing is written). A snapshot's
 * dirty tracking (track) takes the general path, which records the page. */
static inline int hostmem_write(struct hostmem *hm, uint64_t addr, const void *buf, size_t len)
{
	uint8_t *p = hm->track ? NULL : hostmem_at(hm, addr, len);
	if (!p)
		return hostmem_write_span(hm, addr, buf, len);
	hostmem_copy_small(p, buf, len);
	return 0;
}
int hostmem_add_fault(struct hostmem *hm, uint64_t addr, uint64_t len, unsigned flags);
/* Whether a DMA access of [addr, addr+len) in direction `flag` hits a fault range. */
int hostmem_faulted(const struct hostmem *hm, uint64_t addr, size_t len, unsigned flag);

#endif
