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

struct hostmem {
	struct hostmem_slot *slots;
	size_t nslots; /* power of two, at least twice the page bound */
	size_t used;
	size_t max_pages;
	uint8_t *pool; /* max_pages pages, handed out in order, reused after clear */
	uint32_t *used_slot; /* slot index of page i, so a clear touches only used slots */
};

int hostmem_init(struct hostmem *hm, size_t max_pages);
void hostmem_fini(struct hostmem *hm);
void hostmem_clear(struct hostmem *hm);
int hostmem_read(const struct hostmem *hm, uint64_t addr, void *buf, size_t len);
int hostmem_write(struct hostmem *hm, uint64_t addr, const void *buf, size_t len);

#endif
