/* BAR0's map (PRM §4.3, §7.2; D-UAR-1): the initialization segment from offset 0
 * (cmd/init_seg.c), reserved pages up to the first UAR page (profile.uar_base), then the UAR
 * pages, whose writes the doorbell layer decodes (obj/uar_db.c). Dword accesses only. */
#include "cmd/ctl_dev.h"
#include "prm/layouts.h"

uint32_t nicref_bar_read32(struct nicref_dev *dev, uint32_t offset)
{
	if (offset & 3u) {
		dev_violation(dev, NICREF_VIO_BAR_UNALIGNED, offset);
		return 0;
	}
	/* The UAR registers are write-only (T13) and the reserved pages read as 0. */
	return offset < PRM_SIZE_init_seg ? init_seg_read(dev, offset) : 0;
}

void nicref_bar_write32(struct nicref_dev *dev, uint32_t offset, uint32_t value)
{
	if (offset & 3u) {
		dev_violation(dev, NICREF_VIO_BAR_UNALIGNED, offset);
		return;
	}
	if (offset < PRM_SIZE_init_seg) {
		init_seg_write(dev, offset, value);
		return;
	}
	/* D-UAR-1: the pages past the init segment and before the first UAR are reserved. */
	if (offset < (uint32_t)dev->core.cfg.profile.uar_base * 4096u) {
		if (value != 0)
			dev_violation(dev, NICREF_VIO_BAR_RESERVED_WRITE, offset);
		return;
	}
	uar_db_write(dev, offset, value);
}
