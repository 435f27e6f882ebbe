/* Private to libnicref: the built-in sparse host memory, 4 KiB pages in an open-addressing
 * table bounded by the profile. Unwritten memory reads as zero. */
#ifndef NICREF_CORE_HOSTMEM_H
#define NICREF_CORE_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>

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
int hostmem_read(const struct hostmem *hm, uint64_t addr, void *buf, size_t len);
int hostmem_write(struct hostmem *hm, uint64_t addr, const void *buf, size_t len);
int hostmem_add_fault(struct hostmem *hm, uint64_t addr, uint64_t len, unsigned flags);
/* Whether a DMA access of [addr, addr+len) in direction `flag` hits a fault range. */
int hostmem_faulted(const struct hostmem *hm, uint64_t addr, size_t len, unsigned flag);

#endif
