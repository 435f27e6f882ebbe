/* Snapshot and restore of a device (issue 19 item 1): capture a device, with its built-in host
 * memory, once it is configured, and bring it back to that state before each fuzz input
 * instead of configuring it again.
 *
 * Restore costs what changed since the snapshot (or since the last restore of it), not the
 * size of the device: host-memory pages are tracked dirty per page; each layer brings back only
 * its own state through its row of the subsystem table; the object tables undo their changes
 * from a log (objects created since leave their tables, objects destroyed since come back under
 * their handles); and what objects hold (their structs, page lists, rings, flow entries,
 * address lists, a QP's transport state) comes from the device's own allocator, which keeps a
 * block freed since aside instead of freeing it, frees the blocks made since, and copies the
 * snapshot's bytes back into its blocks (docs/decisions.md D-SNAP-1). So any command may run
 * between a snapshot and its restore: creations, destructions, a CQ resize, new address lists,
 * flow entries, QPs and their transitions. A restored device is the device as it was: the same
 * trace, byte for byte, from that point on (reference/tests/snapshot_test.c proves it).
 * Restoring emits no event. The event callback and the DMA ops of the configuration are the
 * caller's: they are neither saved nor changed.
 *
 * Only a device made with nicref_config.snapshots can be captured (its objects' memory then
 * carries the allocator's headers, D-SNAP-3); another is refused (NICREF_SNAP_NOT_ENABLED).
 *
 * One snapshot of a device tracks changes at a time, the last one taken or restored; restoring
 * another one works too, at the cost of every page and every live object it holds. A snapshot
 * holds the blocks of the objects it captured until it is freed: free every snapshot of a
 * device before destroying it. */
#ifndef NICREF_SNAPSHOT_H
#define NICREF_SNAPSHOT_H

#include "nicref/api.h"
#include "nicref/nicref.h"

struct nicref_snapshot;

/* Why nicref_snapshot_take refused. */
enum nicref_snap_refusal {
	NICREF_SNAP_OK = 0,
	NICREF_SNAP_NO_MEMORY = 1,
	/* The device holds state a layer cannot capture: an open LRO session (it holds a WQE of
	 * an RQ; its timer, a flush or an RQ leaving RDY ends it). (The RoCE loopback queue,
	 * the other such state, is empty whenever a call of the API returns.) */
	NICREF_SNAP_UNSUPPORTED_STATE = 2,
	/* The device was created without nicref_config.snapshots. */
	NICREF_SNAP_NOT_ENABLED = 3,
};

/* A snapshot of dev as it is now, or NULL with the reason in *why (when why is not NULL). */
NICREF_API struct nicref_snapshot *nicref_snapshot_take(struct nicref_dev *dev, int *why);
/* dev back to snapshot s (taken of dev): 0, whatever ran since (commands, doorbells, frames,
 * time, resets); 1 when a row of the device says it cannot bring its state back (its
 * snap_restorable hook, core/subsys.h: no row has one today, so 1 is not returned; nothing is
 * changed then); -1 when s is another device's. */
NICREF_API int nicref_snapshot_restore(struct nicref_dev *dev, struct nicref_snapshot *s);
NICREF_API void nicref_snapshot_free(struct nicref_snapshot *s);

#endif
