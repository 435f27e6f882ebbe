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

/* A queue buffer of `bytes` bytes from byte `off` of UMEM `id` as the list of its 4 KB pages
 * (struct qbuf, log_page_size 0), so the queue reads it as it reads pas[] (D-UMEM-5): the
 * buffer must start on a 4 KB boundary of the UMEM's pages (PRM T76/T94 page_offset "Must be
 * 0") and lie inside the UMEM. NONE, or UMEM_REF_OUT_OF_RANGE (id outside the umem_ids,
 * D-OBJ-2) / _NOT_FOUND / _MISALIGNED / _BEYOND / OBJ_NO_MEMORY. */
struct qbuf;
enum nicref_cmd_rule umem_qbuf(struct nicref_dev *dev, uint32_t id, uint64_t off,
			       uint64_t bytes, struct qbuf *out);
/* The address of a doorbell record of `len` bytes at byte `off` of UMEM `id` (D-UMEM-6): NONE
 * and *addr, or UMEM_REF_OUT_OF_RANGE / UMEM_REF_NOT_FOUND / UMEM_REF_BEYOND. */
enum nicref_cmd_rule umem_record(const struct nicref_dev *dev, uint32_t id, uint64_t off,
				 uint64_t len, uint64_t *addr);
/* A live object keeps (delta 1) or lets go of (-1) UMEM id (D-OBJ-1): DESTROY_UMEM is refused
 * while one keeps it. id 0 (none) is ignored. */
void umem_ref(struct nicref_dev *dev, uint32_t id, int delta);

#endif
