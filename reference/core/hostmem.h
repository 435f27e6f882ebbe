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

struct hostmem {
	struct hostmem_slot *slots;
	size_t nslots; /* power of two, at least twice the page bound */
	size_t used;
	size_t max_pages;
	uint8_t *pool; /* max_pages pages, handed out in order, reused after clear */
	uint32_t *used_slot; /* slot index of page i, so a clear touches only used slots */
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
