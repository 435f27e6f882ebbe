/* The device set-up the fuzz targets share (fuzz_dev.h). */
#include <string.h>

#include "fuzz_dev.h"
#include "fuzz_target.h"

void fuzz_dev_config(struct nicref_config *cfg, struct fuzz_oracle *o)
{
	nicref_config_default(cfg);
	cfg->snapshots = true;
	cfg->seed = FUZZ_DEV_SEED;
	cfg->trace = fuzz_oracle_event;
	cfg->trace_ctx = o;
}

struct nicref_dev *fuzz_dev_create(const struct nicref_config *cfg, struct fuzz_oracle *o)
{
	o->dev = nicref_dev_create(cfg);
	return o->dev;
}

void fuzz_dev_bring_up(struct nicref_dev *dev, struct fuzz_oracle *o, struct refdrv *drv,
		       const struct refdrv_ops *ops)
{
	nicref_dev_reset(dev);
	nicref_hostmem_clear(dev);
	fuzz_oracle_reset(o);
	struct refdrv_ops model = refdrv_ops_model(dev);
	refdrv_fini(drv);
	NICREF_FUZZ_CHECK(refdrv_init(drv, ops ? ops : &model) == 0);
	NICREF_FUZZ_CHECK(refdrv_bring_up(drv, REFDRV_INITIALIZED) == 0);
}

int fuzz_dev_sq_stack_up(struct nicref_dev *dev, struct fuzz_oracle *o, struct refdrv *drv,
			 const struct refdrv_ops *ops, struct refdrv_sq_stack *st)
{
	memset(st, 0, sizeof *st);
	fuzz_dev_bring_up(dev, o, drv, ops);
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	return refdrv_sq_stack_up(drv, &a, st);
}

bool fuzz_dev_snap_restore(struct fuzz_snap *fs, const struct fuzz_snap_drv *sd,
			   struct nicref_dev *dev, struct fuzz_oracle *o, struct refdrv *drv)
{
	if (!fuzz_snap_restore(fs, dev, o))
		return false;
	fuzz_snap_drv_restore(sd, drv);
	return true;
}

bool fuzz_dev_snap_take(struct fuzz_snap *fs, struct fuzz_snap_drv *sd, struct nicref_dev *dev,
			const struct fuzz_oracle *o, const struct refdrv *drv)
{
	fuzz_snap_take(fs, dev, o);
	if (!fs->snap)
		return false;
	fuzz_snap_drv_take(sd, drv);
	return true;
}

void fuzz_dev_trace_bring_up(bool need_full, uint64_t full, uint64_t light)
{
	fuzz_trace("bring-up %s (%llu full, %llu light or restored)",
		   fuzz_snap_enabled() ? "from the snapshot" : need_full ? "full" : "light",
		   (unsigned long long)full, (unsigned long long)light);
}
