/* A driver that waits for an interrupt nothing will raise (docs/drivers.md, "Bad drivers"):
 * MSI-X vector 0 on an eventfd, no EQ, and a poll without a timeout. The front end gives up
 * after 10 s of virtual time (D-VFIO-5): the run reports a hang. */
#include "vfio_util.h"

#include <poll.h>
#include <sys/eventfd.h>

int main(void)
{
	struct vdev v;
	vdev_open(&v);
	int efd = eventfd(0, EFD_CLOEXEC);
	char buf[sizeof(struct vfio_irq_set) + sizeof(int)];
	struct vfio_irq_set *s = (struct vfio_irq_set *)buf;
	*s = (struct vfio_irq_set){ .argsz = sizeof buf,
				    .flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
				    .index = VFIO_PCI_MSIX_IRQ_INDEX, .start = 0, .count = 1 };
	memcpy(s->data, &efd, sizeof efd);
	if (efd < 0 || ioctl(v.device, VFIO_DEVICE_SET_IRQS, s))
		fail_step("SET_IRQS");
	struct pollfd p = { .fd = efd, .events = POLLIN };
	printf("waiting\n");
	fflush(stdout);
	return poll(&p, 1, -1) == 1 ? 0 : 4;
}
