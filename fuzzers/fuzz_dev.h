/* The device set-up the fuzz targets share: the device's configuration, the reference driver's
 * bring-up from power-on, and the snapshot of the device together with the driver's side.
 *
 * Each target keeps its own choices as parameters: its trace callback and host-op hooks (set on
 * the config fuzz_dev_config fills, before fuzz_dev_create), the refdrv_ops its driver talks
 * through, what it configures after the bring-up, and its own host-side state beside the
 * snapshot (fuzz_snap.h). What is here is what every target did the same way, in the same
 * order, so a target that uses it prints the same trace as before. */
#ifndef NICREF_FUZZ_DEV_H
#define NICREF_FUZZ_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "driver_sq.h"
#include "fuzz_oracle.h"
#include "fuzz_snap.h"
#include "nicref/nicref.h"

/* The fixed seed of every target's device: a finding replays from its input alone. */
#define FUZZ_DEV_SEED 0x6e6963726566ull

/* cfg: the default profile, snapshots on (restored per input: fuzz_snap.h, D-SNAP-3), the fixed
 * seed, and o's oracle as the trace callback (fuzz_oracle_event, context o). A target changes
 * what it needs (its own callback, which calls fuzz_oracle_event; ops hooks; the profile)
 * before fuzz_dev_create. */
void fuzz_dev_config(struct nicref_config *cfg, struct fuzz_oracle *o);

/* The device of cfg, known to the oracle (o->dev); NULL if it cannot be created. */
struct nicref_dev *fuzz_dev_create(const struct nicref_config *cfg, struct fuzz_oracle *o);

/* The device at power-on with host memory cleared and the oracle reset with it, then the
 * reference driver restarted on ops (NULL: the model's, refdrv_ops_model) and brought up to
 * INITIALIZED, which a correct driver always reaches (a failure traps). */
void fuzz_dev_bring_up(struct nicref_dev *dev, struct fuzz_oracle *o, struct refdrv *drv,
		       const struct refdrv_ops *ops);

/* fuzz_dev_bring_up, then the reference driver's send stack with its defaults
 * (refdrv_sq_stack_defaults) into *st, zeroed first; refdrv_sq_stack_up's result. */
int fuzz_dev_sq_stack_up(struct nicref_dev *dev, struct fuzz_oracle *o, struct refdrv *drv,
			 const struct refdrv_ops *ops, struct refdrv_sq_stack *st);

/* fuzz_snap_restore, and the driver back to sd with it: true; false as fuzz_snap_restore (the
 * target configures the device, then fuzz_dev_snap_take). The target restores its own side. */
bool fuzz_dev_snap_restore(struct fuzz_snap *fs, const struct fuzz_snap_drv *sd,
			   struct nicref_dev *dev, struct fuzz_oracle *o, struct refdrv *drv);

/* fuzz_snap_take, and the driver saved into sd when fs holds a snapshot: true then (the target
 * saves its own side), false when snapshots are off. */
bool fuzz_dev_snap_take(struct fuzz_snap *fs, struct fuzz_snap_drv *sd, struct nicref_dev *dev,
			const struct fuzz_oracle *o, const struct refdrv *drv);

/* The trace line "bring-up HOW (F full, L light or restored)" of a target that, without
 * snapshots, puts its device back by commands (light) unless need_full: HOW is "from the
 * snapshot", "full" or "light". */
void fuzz_dev_trace_bring_up(bool need_full, uint64_t full, uint64_t light);

#endif
