/* Private to libnicref: user memory objects (UMEMs), beyond PRM Rev 0.40 from the public mlx5
 * interface (Linux include/linux/mlx5/mlx5_ifc.h umem_bits; docs/umem.md). A UMEM is a list of
 * equally sized pages the driver registered with CREATE_UMEM; DevX objects may later name it
 * for their buffer or doorbell record, and the device then reaches byte `off` of the UMEM at
 * mtt[(page_offset + off) / page] + (page_offset + off) % page, as an MTT MKey translates
 * (PRM §7.4.4.1). */
#ifndef NICREF_OBJ_UMEM_H
#define NICREF_OBJ_UMEM_H

#include "obj/obj.h"

struct umem {
	struct obj_hdr hdr;
	unsigned log_page;    /* 12 + log_page_size: the page size in bytes as a power of two */
	uint64_t page_offset; /* where byte 0 of the UMEM lies in the first page */
	uint64_t size;        /* bytes from byte 0 to the end of the last page */
	uint64_t nmtt;
	uint64_t mtt[];       /* the pages' addresses (ptag), access bits cleared */
};

/* The address of bytes [off, off + len) of UMEM `id` when they lie in one page: 0 and *addr,
 * or -1 when id names no UMEM or the range is not inside one page of it. */
int umem_translate(const struct nicref_dev *dev, uint32_t id, uint64_t off, uint64_t len,
		   uint64_t *addr);

#endif
