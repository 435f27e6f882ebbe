/* Snapshot and restore of a device (issue 19 item 1): capture a device, with its built-in host
 * memory, once it is configured, and bring it back to that state before each fuzz input
 * instead of configuring it again.
 *
 * Restore costs what changed since the snapshot (or since the last restore of it), not the
 * size of the device: host-memory pages are tracked dirty per page, each layer brings back only
 * its own state through its row of the subsystem table, and objects created since go the way
 * a reset takes them. A restored device is the device as it was: the same trace, byte for
 * byte, from that point on (reference/tests/snapshot_test.c proves it). Restoring emits no
 * event. The event callback and the DMA ops of the configuration are the caller's: they are
 * neither saved nor changed.
 *
 * One snapshot of a device tracks changes at a time, the last one taken or restored; restoring
 * another one works too, at the cost of every page it holds. Free every snapshot of a device
 * before destroying it. */
#ifndef NICREF_SNAPSHOT_H
#define NICREF_SNAPSHOT_H

#include "nicref/api.h"
#include "nicref/nicref.h"

struct nicref_snapshot;

/* Why nicref_snapshot_take refused. */
enum nicref_snap_refusal {
	NICREF_SNAP_OK = 0,
	NICREF_SNAP_NO_MEMORY = 1,
	/* The device holds state a layer cannot capture yet: an open LRO session. */
	NICREF_SNAP_UNSUPPORTED_STATE = 2,
};

/* A snapshot of dev as it is now, or NULL with the reason in *why (when why is not NULL).
 *
 * Objects are captured by their words, which is what the data path, doorbells, time and the
 * commands that modify objects in place (MODIFY_SQ/RQ/TIR/RQT/..., queries, registers, pages)
 * change; the commands that create or destroy objects, or reallocate what they hold (flow
 * entries, address lists, a CQ resize), may free what those words point into. So a snapshot
 * holding objects restores a device on which no such command succeeded since the snapshot (or
 * since its last restore); a snapshot holding none restores after anything. */
NICREF_API struct nicref_snapshot *nicref_snapshot_take(struct nicref_dev *dev, int *why);
/* dev back to snapshot s (taken of dev): 0; 1 when a command that creates, destroys or
 * reallocates succeeded since over a snapshot holding objects (nothing is changed: reset the device and configure it again, then take a new
 * snapshot); -1 when s is another device's. */
NICREF_API int nicref_snapshot_restore(struct nicref_dev *dev, struct nicref_snapshot *s);
NICREF_API void nicref_snapshot_free(struct nicref_snapshot *s);

#endif
