/* A driver that points the device at memory it never mapped (docs/drivers.md, "Bad
 * drivers"): the command queue address is an IOVA no MAP_DMA covers, and the doorbell is rung.
 * The device's read of the entry fails as a bus error would: DMA_UNMAPPED. */
#include "vfio_util.h"

int main(void)
{
	struct vdev v;
	vdev_open(&v);
	cmdq_at(&v, 0x100000); /* never mapped */
	bar_wr(&v, 0x18, 1);   /* slot 0 */
	printf("doorbell rung for an unmapped queue\n");
	return 0;
}
