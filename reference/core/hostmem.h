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
};

int hostmem_init(struct hostmem *hm, size_t max_pages);
void hostmem_fini(struct hostmem *hm);
void hostmem_clear(struct hostmem *hm);
int hostmem_read(const struct hostmem *hm, uint64_t addr, void *buf, size_t len);
int hostmem_write(struct hostmem *hm, uint64_t addr, const void *buf, size_t len);
int hostmem_add_fault(struct hostmem *hm, uint64_t addr, uint64_t len, unsigned flags);
/* Whether a DMA access of [addr, addr+len) in direction `flag` hits a fault range. */
int hostmem_faulted(const struct hostmem *hm, uint64_t addr, size_t len, unsigned flag);

#endif
