/* A driver that crashes (docs/drivers.md, "Bad drivers"): a store through a null pointer
 * after opening the device. The run reports the signal and where it struck; the front end's
 * exit checks never run. */
#include "vfio_util.h"

int main(int argc, char **argv)
{
	struct vdev v;
	vdev_open(&v);
	printf("fw_rev 0x%08x\n", bar_rd(&v, 0x0));
	fflush(stdout);
	volatile int *wild = (volatile int *)(uintptr_t)(argc > 5 ? argv[1] : NULL);
	*wild = 1;
	return 0;
}
