/* Not a bad driver: one that closes its device and opens it again (docs/drivers.md). vfio-pci
 * resets a function on open, so the second session must find the command queue address of
 * the first gone (T8 14h reads 0 after reset). Exits 0 when it is, 5 when it is not. */
#include "vfio_util.h"

int main(void)
{
	struct vdev v;
	vdev_open(&v);
	cmdq_at(&v, 0x200000);
	uint32_t before = bar_rd(&v, 0x14) & 0xFFFFF000u;
	munmap((void *)v.bar, v.bar_size);
	close(v.device);
	close(v.group);
	close(v.container);
	vdev_open(&v);
	uint32_t after = bar_rd(&v, 0x14) & 0xFFFFF000u;
	printf("cmdq address 0x%08x before, 0x%08x after reopening\n", before, after);
	return before == 0x200000 && after == 0 ? 0 : 5;
}
