/* Private to libnicref: the table of subsystems a device is composed of.
 *
 * Core knows the device only as its own part (struct dev_core) and this table: it walks the
 * rows for every power-on, every step of the clock, every invariant check and every read of the
 * counters, and never names what sits above it. Each subsystem defines its row (a const struct
 * dev_subsys beside its code, its hooks static there); the table, the rows in order, is defined
 * at the top of the model (device/device.c), which hands it to dev_create. A layer that comes
 * later (eth/, steer/, roce/, pcie/) plugs in with a row and a line in that table; core does not
 * change. reference/layers.txt gives the layers; docs/architecture.md draws them.
 *
 * Every hook may be NULL. `state` is what the row's create made (NULL when it made nothing: the
 * control plane keeps its state in struct nicref_dev itself, cmd/ctl_dev.h); a layer above the
 * control plane keeps its state there, so its hooks get it without a lookup. Dispatch is a walk
 * of a fixed array: no hook allocates unless its row's work does. */
#ifndef NICREF_CORE_SUBSYS_H
#define NICREF_CORE_SUBSYS_H

#include <stdbool.h>
#include <stddef.h>

struct nicref_dev;
struct nicref_profile;
struct nicref_stats;

/* What the control plane tells the layers above before it changes an object they may hold
 * state for (dev_notify, core/dev.h): obj/ calls it without knowing who listens. */
enum dev_note {
	DEV_NOTE_TIR_LRO,     /* MODIFY_TIR writes the TIR's LRO group (T48 bit 0) */
	DEV_NOTE_TIR_DESTROY, /* DESTROY_TIR */
	DEV_NOTE_RQ_LEAVES_RDY, /* an RQ leaves RDY (MODIFY_RQ, an error) or is destroyed */
	DEV_NOTE_OBJECTS_RELEASED, /* every object goes at once (TEARDOWN_HCA, a reset); num 0 */
	/* A QP changed state by a command (a transition, 2ERR, 2RST; num the QPN). Unlike the
	 * notes above it comes AFTER the change: the QP's new state and context are in place, so
	 * the transport reads the attributes the transition set. */
	DEV_NOTE_QP_MODIFY,
	DEV_NOTE_QP_DESTROY, /* DESTROY_QP, before the QP goes (num the QPN) */
};

struct dev_subsys {
	const char *name;
	/* Whether the profile's settings for this subsystem are ones it models; nicref_dev_create
	 * refuses the profile otherwise. Runs before anything is allocated. */
	int (*profile_ok)(const struct nicref_profile *p);
	/* Once, at nicref_dev_create, in table order: 0, or -1 (out of memory) to refuse the
	 * device. *state starts NULL. */
	int (*create)(struct nicref_dev *dev, void **state);
	/* At nicref_dev_destroy, in reverse table order, for every row whose create ran (also
	 * one that failed: it gets what that create left). */
	void (*destroy)(struct nicref_dev *dev, void *state);
	/* Power-on state (nicref_dev_reset, and once at create), in table order, after core's. */
	void (*reset)(struct nicref_dev *dev, void *state);
	/* Virtual time moved (nicref_clock_advance), in table order, after core's clock. */
	void (*tick)(struct nicref_dev *dev, void *state);
	/* The earliest time at which the row's tick has something to do (a timer's deadline):
	 * true with *t set, or false when nothing is due at any time. nicref_clock_advance stops
	 * the clock at each such time inside an advance and ticks every row there, so what is due
	 * inside an advance happens at its own time, in time order across rows, and one advance
	 * of a + b is two of a and b (docs/architecture.md "The clock"). A deadline at or before
	 * now is due now. After its tick at time t the row's deadline must be past t (or none):
	 * one that is not is a broken row (NICREF_ASSERT). NULL: the row's tick only polls, or
	 * acts on time only when asked by something else; it runs at every stop. The answer must
	 * cost little (O(1) or a scan of what is armed): every advance asks every row. */
	bool (*next_deadline)(const struct nicref_dev *dev, const void *state, uint64_t *t);
	/* The row's invariants (nicref/invariants.h): 0, or the code of the first broken, its
	 * state described into buf as dev_broken does (nothing when len is 0). Table order, after
	 * core's. */
	int (*check)(const struct nicref_dev *dev, const void *state, char *buf, size_t len);
	/* An object of number num is about to change as `note` says (dev_notify), in table order.
	 * The hook may write completions and events; the object is still as it was. */
	void (*notify)(struct nicref_dev *dev, void *state, enum dev_note note, uint32_t num);
	/* Adds the row's counts to the device's (nicref_stats_get), after core's. */
	void (*counters)(const struct nicref_dev *dev, const void *state, struct nicref_stats *out);
	/* Snapshot (nicref/snapshot.h), table order. save: what the row holds into a blob it
	 * allocates (*blob starts NULL); 0, -1 out of memory, or NICREF_SNAP_UNSUPPORTED_STATE
	 * when it holds state it cannot capture. restore: the row's state back to the blob, at
	 * a cost of what changed, with events muted (core/snapshot.c); it must not allocate in
	 * steady state. free: the blob. A row without save has nothing of its own to capture
	 * (the control plane's rows keep their state in struct nicref_dev, which the objects'
	 * row captures for all of them: cmd/ctl_snap.c). What a row allocates with core's
	 * allocator (core/devmem.h) is core's to capture and bring back: the row keeps only the
	 * pointers into it. save may start logs (the object tables' undo logs): dev is not
	 * const. */
	int (*snap_save)(struct nicref_dev *dev, const void *state, void **blob);
	/* Whether restore can bring the row back to the blob from the state it is in now (NULL:
	 * always). Every row is asked before any restores, so a refusal changes nothing. */
	bool (*snap_restorable)(const struct nicref_dev *dev, const void *state, const void *blob);
	void (*snap_restore)(struct nicref_dev *dev, void *state, const void *blob);
	void (*snap_free)(void *blob);
};

#endif
