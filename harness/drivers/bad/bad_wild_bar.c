/* A driver that reaches BAR0 the wrong way (docs/drivers.md, "Bad drivers"): a byte read, a
 * quadword read, and a dword read past the region. Reported: BAR_NARROW, BAR_WIDE,
 * BAR_BEYOND_SIZE; the program exits 0, so the run fails on the violations alone. */
#include "vfio_util.h"

int main(void)
{
	struct vdev v;
	vdev_open(&v);
	uint8_t b = *(volatile uint8_t *)(v.bar + 0x1);            /* fw_rev, one byte */
	uint64_t q = *(volatile uint64_t *)(v.bar + 0x1000);       /* both timer dwords at once */
	uint32_t w = *(volatile uint32_t *)(v.bar + v.bar_size + 0x100); /* past BAR0 */
	printf("byte 0x%02x, quadword 0x%016llx, beyond 0x%08x\n", b, (unsigned long long)q, w);
	return 0;
}
