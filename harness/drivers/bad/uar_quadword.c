/* Not a bad driver, or only a little: the 64-bit stores a driver makes to a UAR page
 * (docs/drivers.md, D-VFIO-8). A CQ doorbell (T13 20h) and a send doorbell (the first two
 * dwords of Blue Flame buffer 0, 800h) written as one quadword each are what PRM §7.2.2.2 asks
 * ("SQ/RQ and CQ DoorBells require 64-bit writes"): not BAR_WIDE. A quadword over the EQ
 * doorbell (40h, a dword register) is BAR_WIDE, once. The page is the first UAR page
 * (profile.uar_base 5, D-UAR-1), never allocated (no bring-up): the model reports each dword
 * as UAR_DB_NOT_ALLOCATED and acts on none. Exits 0. */
#include "vfio_util.h"

#define UAR_PAGE (5u * 4096u)

int main(void)
{
	struct vdev v;
	vdev_open(&v);
	*(volatile uint64_t *)(v.bar + UAR_PAGE + 0x20) = 0;   /* CQ doorbell: allowed */
	*(volatile uint64_t *)(v.bar + UAR_PAGE + 0x800) = 0;  /* send doorbell: allowed */
	*(volatile uint64_t *)(v.bar + UAR_PAGE + 0x40) = 0;   /* EQ doorbell: BAR_WIDE */
	printf("three quadword stores to UAR page 5\n");
	return 0;
}
