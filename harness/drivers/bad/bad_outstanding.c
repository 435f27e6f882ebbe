/* A driver that exits with a command outstanding (docs/drivers.md, "Bad drivers"): a NOP
 * entry handed to the device (ownership 1) in a mapped queue, and no doorbell. Reported at
 * exit: EXIT_CMD_OUTSTANDING. */
#include "vfio_util.h"

int main(void)
{
	struct vdev v;
	vdev_open(&v);
	uint8_t *q = dma_page(&v, 0x100000);
	cmdq_at(&v, 0x100000);
	/* PRM §7.14.1 T95/T96: type 7, input and output length 16, NOP (0x80D), ownership 1. */
	q[0x00] = 0x07;
	q[0x07] = 0x10;
	q[0x10] = 0x08;
	q[0x11] = 0x0D;
	q[0x3B] = 0x10;
	q[0x3F] = 0x01;
	printf("entry 0 handed over, no doorbell\n");
	return 0;
}
