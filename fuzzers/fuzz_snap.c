/* Snapshots of a configured device for the fuzz targets (fuzz_snap.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_snap.h"
#include "fuzz_target.h"

bool fuzz_snap_enabled(void)
{
	static int on = -1;
	if (on < 0) {
		/* A device under test (NICREF_DUT, fuzz_dut.c) has no snapshot in its ABI
		 * (nicref/dut.h): restoring the model alone would part the twins, so with a DUT
		 * every input rebuilds the device as it did before snapshots. */
		const char *v = getenv("NICREF_FUZZ_SNAPSHOT"), *dut = getenv("NICREF_DUT");
		on = !(v && strcmp(v, "0") == 0) && !(dut && *dut);
	}
	return on;
}

bool fuzz_snap_restore(struct fuzz_snap *fs, struct nicref_dev *dev, struct fuzz_oracle *o)
{
	fs->restored = false;
	if (!fs->snap)
		return false;
	if (fs->rewound) {
		/* fuzz_snap_rewind set *o back with the device at the end of the last input, and
		 * nothing ran since: both are at the snapshot. */
		fs->rewound = false;
		fs->restores++;
		fs->restored = true;
		return true;
	}
	int rc = nicref_snapshot_restore(dev, fs->snap);
	NICREF_FUZZ_CHECK(rc == 0 || rc == 1);
	if (rc == 1) {
		/* The last input created or destroyed objects over a snapshot holding some: the
		 * target configures the device again and takes a new snapshot. */
		nicref_snapshot_free(fs->snap);
		fs->snap = NULL;
		fs->rebuilds++;
		return false;
	}
	*o = fs->oracle;
	fs->restores++;
	fs->restored = true;
	return true;
}

void fuzz_snap_check_start_at(const struct fuzz_snap *fs, const struct fuzz_oracle *o,
			      const char *file, int line)
{
	if (!fs->restored)
		fuzz_oracle_check_dev_at(o, file, line);
}

void fuzz_snap_rewind(struct fuzz_snap *fs, struct nicref_dev *dev, struct fuzz_oracle *o)
{
	fs->rewound = false;
	if (fuzz_snap_enabled() && fuzz_snap_restore(fs, dev, o)) {
		fs->restores--; /* counted when the next input starts from it */
		fs->rewound = true;
	}
}

void fuzz_snap_take(struct fuzz_snap *fs, struct nicref_dev *dev, const struct fuzz_oracle *o)
{
	fs->restored = false; /* the device was configured for this input */
	if (!fuzz_snap_enabled() || fs->snap)
		return;
	int why = 0;
	fs->snap = nicref_snapshot_take(dev, &why);
	if (!fs->snap)
		fuzz_property_failed("snapshot_taken", __FILE__, __LINE__,
				     "nicref_snapshot_take refused (reason %d)", why);
	fs->oracle = *o;
}

void fuzz_snap_drv_take(struct fuzz_snap_drv *s, const struct refdrv *d)
{
	s->drv = *d;
	free(s->pages);
	s->pages = malloc((d->npages ? d->npages : 1) * sizeof *s->pages);
	NICREF_FUZZ_CHECK(s->pages != NULL);
	memcpy(s->pages, d->pages, d->npages * sizeof *d->pages);
}

/* The driver's two capability copies, 8 KB of its 8.5: one range of struct refdrv. */
#define CAPS_FROM offsetof(struct refdrv, caps_cur)
#define CAPS_TO (offsetof(struct refdrv, caps_max) + sizeof(((struct refdrv *)0)->caps_max))
_Static_assert(offsetof(struct refdrv, caps_max) ==
		       CAPS_FROM + sizeof(((struct refdrv *)0)->caps_cur),
	       "the capability copies are one range");

void fuzz_snap_drv_restore(const struct fuzz_snap_drv *s, struct refdrv *d)
{
	uint64_t *pages = d->pages;
	uint32_t cap = d->pages_cap;
	if (d->caps_epoch == s->drv.caps_epoch) {
		/* The same write of the capabilities (caps_epoch): only what lies around them. */
		memcpy(d, &s->drv, CAPS_FROM);
		memcpy((char *)d + CAPS_TO, (const char *)&s->drv + CAPS_TO, sizeof *d - CAPS_TO);
	} else {
		*d = s->drv;
	}
	d->pages = pages;
	d->pages_cap = cap;
	NICREF_FUZZ_CHECK(s->drv.npages <= cap);
	memcpy(pages, s->pages, s->drv.npages * sizeof *pages);
}
