/* Private to libnicref: the allocator of what objects hold (obj/, roce/), kept by the device so
 * that a snapshot (nicref/snapshot.h) can bring back objects created, destroyed or reallocated
 * after it, at a cost of what changed (D-SNAP-1 in docs/decisions.md).
 *
 * Every block a device's objects hold (the object structs, their page lists, rings, flow
 * entries, address lists, the transport's per-QP state) comes from dev_malloc/dev_calloc/
 * dev_realloc and goes back through dev_free. On a device made with nicref_config.snapshots
 * (only there: D-SNAP-3) each block carries a 32-byte header: its place on
 * the device's list of live blocks (the youngest first), its size, and how many snapshots hold
 * it. So:
 *  - a snapshot copies the live blocks' bytes and holds them (core/devmem.c);
 *  - a block freed while a snapshot holds it is kept aside, not freed (its bytes poisoned
 *    under AddressSanitizer, so a use after free is still caught), and put back by a restore;
 *  - a restore frees the blocks handed out since and copies the snapshot's bytes back into its
 *    blocks: pointers between them point where they pointed at the snapshot. For the snapshot
 *    the device was last taken into or restored from, the blocks made since are the ones no
 *    snapshot holds at the head of the list (every live block is that snapshot's then); for
 *    another, every live block the snapshot does not hold.
 * A reallocation is a new block: the old one, held, keeps the snapshot's copy. Blocks carry no
 * pointer a layer must fix up: they are restored by their own sizes, whatever struct they
 * hold, so a layout change needs nothing here. */
#ifndef NICREF_CORE_DEVMEM_H
#define NICREF_CORE_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nicref_dev;
struct mem_blk;

/* A list link (the head of the live list is one, in struct dev_mem: the list is a ring, so a
 * block leaves it without knowing its device). */
struct mem_link {
	struct mem_link *prev, *next;
};

struct dev_mem {
	struct mem_link live; /* the live blocks, the youngest first (zero: empty, not yet made) */
	uint32_t epoch;       /* marks of a restore that walks every block */
	/* nicref_config.snapshots: blocks carry the header. Without it they are plain malloc
	 * blocks, nothing is listed, and the device cannot be captured (D-SNAP-3). Set at create,
	 * never changed. */
	bool tracked;
};

void *dev_malloc(struct nicref_dev *dev, size_t n);
void *dev_calloc(struct nicref_dev *dev, size_t n, size_t size);
/* realloc's contract, always in a new block (p NULL: dev_malloc; the old block is freed). */
void *dev_realloc(struct nicref_dev *dev, void *p, size_t n);
void dev_free(struct nicref_dev *dev, void *p);

/* Frees every live block (the device goes; its snapshots were freed first). */
void dev_mem_fini(struct dev_mem *m);
/* Live blocks and their bytes (a walk: for snapshots, tests and benchmarks). */
size_t dev_mem_count(const struct dev_mem *m, size_t *bytes);

/* A snapshot's part (core/snapshot.c). */
struct mem_snap;
struct mem_snap *dev_mem_snap_take(struct dev_mem *m);
/* tracked: m was last taken into or restored from s (only the youngest blocks go). */
void dev_mem_snap_restore(struct dev_mem *m, struct mem_snap *s, bool tracked);
void dev_mem_snap_free(struct mem_snap *s);
/* Blocks and bytes a snapshot copies back per restore (the benchmarks, docs/fuzzing.md). */
size_t dev_mem_snap_bytes(const struct mem_snap *s);

#endif
