/* A configured device kept as a snapshot (nicref/snapshot.h), so a target configures it once
 * and each input starts from it in time proportional to what the previous input changed.
 *
 * The configuration is deterministic and independent of the input, so an input meets the same
 * device whether it is the first (built, then captured) or a later one (restored): a finding
 * replays from the input alone. The oracle is the trace callback's state; it is captured and
 * restored with the device, and the target keeps its own host-side state (a driver's token,
 * its pages) beside it. NICREF_FUZZ_SNAPSHOT=0 in the environment builds the configuration for
 * every input instead, to compare (ci/fuzz_speed.sh) or to rule the snapshot out. */
#ifndef NICREF_FUZZ_SNAP_H
#define NICREF_FUZZ_SNAP_H

#include <stdbool.h>

#include "driver.h"
#include "fuzz_oracle.h"
#include "nicref/snapshot.h"

struct fuzz_snap {
	struct nicref_snapshot *snap; /* NULL until taken */
	struct fuzz_oracle oracle;    /* as it was at the snapshot */
	uint64_t restores, rebuilds;  /* inputs that restored it; that had to configure again */
	bool rewound;                 /* the device is at the snapshot already (fuzz_snap_rewind) */
	/* The input being run started from the snapshot (fuzz_snap_restore said true), not from
	 * a configuration built for it: fuzz_snap_check_start. */
	bool restored;
};

/* Whether snapshots are on (NICREF_FUZZ_SNAPSHOT is not "0"). */
bool fuzz_snap_enabled(void);
/* dev and *o back to fs: true; false when fs holds no snapshot, or one the device can no longer
 * be brought back to (nicref_snapshot_restore 1: objects created or destroyed since; it is
 * dropped): configure the device, then fuzz_snap_take. */
bool fuzz_snap_restore(struct fuzz_snap *fs, struct nicref_dev *dev, struct fuzz_oracle *o);
/* At the end of an input: dev and *o back to fs now, so that what the input allocated (the
 * objects it created) is freed within the input. libFuzzer counts mallocs and frees during an
 * input and runs an input with more mallocs a second time to look for a leak (-detect_leaks):
 * every input that created an object ran twice while the next input's restore freed it. The
 * next fuzz_snap_restore of fs then only sets *o back. Only for a target whose device nothing
 * else touches between the inputs (one snapshot per device). */
void fuzz_snap_rewind(struct fuzz_snap *fs, struct nicref_dev *dev, struct fuzz_oracle *o);
/* The invariants and the oracle's counters (fuzz_oracle_check_dev) at the start of an input,
 * unless the input started from fs (fs->restored). A restored device is the device the
 * snapshot captured, and that state was checked: by this call, in the input that built the
 * configuration and took the snapshot (nothing runs between the two), since nicref_dev_check
 * and the oracle's comparisons read nothing but the device and *o, which the restore brings
 * back. What would still catch a broken restore: the check after the input's first op, or at
 * its end when it has none (each target keeps one then), and reference/tests/snapshot_test.c
 * (docs/fuzzing.md, "Session 29: the floor", shows both on a restore broken on purpose). */
void fuzz_snap_check_start_at(const struct fuzz_snap *fs, const struct fuzz_oracle *o,
			      const char *file, int line);
#define fuzz_snap_check_start(fs, o) fuzz_snap_check_start_at((fs), (o), __FILE__, __LINE__)
/* Captures dev and *o when snapshots are on. A refusal is a harness bug (the target snapshots
 * a state the library cannot capture), so it traps. */
void fuzz_snap_take(struct fuzz_snap *fs, struct nicref_dev *dev, const struct fuzz_oracle *o);

/* The reference driver's side of a snapshot: its words and its list of the pages it gave the
 * device (its own buffer, which only grows, stays the driver's). */
struct fuzz_snap_drv {
	struct refdrv drv;
	uint64_t *pages;
};
/* Saves d (after a fuzz_snap_take that took a snapshot). */
void fuzz_snap_drv_take(struct fuzz_snap_drv *s, const struct refdrv *d);
/* d back to what s saved (after a fuzz_snap_restore that restored). */
void fuzz_snap_drv_restore(const struct fuzz_snap_drv *s, struct refdrv *d);

#endif
