/* The VFIO ioctls (linux/vfio.h) on the container, group and device descriptors the front end
 * hands out: what the kernel's vfio and vfio-pci answer for one function in one group, with a
 * type1 IOMMU whose table the front end keeps (vfio_dma.c). Every other descriptor's ioctl
 * goes to libc. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/vfio.h>

#include "vfio/vfio.h"

#define VFIO_API __attribute__((visibility("default")))

/* Region offsets in the device descriptor, as vfio-pci lays them out: index << 40. */
#define REGION_SHIFT 40

static int fail(int e)
{
	errno = e;
	return -1;
}

static int container_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case VFIO_GET_API_VERSION:
		return VFIO_API_VERSION;
	case VFIO_CHECK_EXTENSION: {
		unsigned long ext = (unsigned long)arg;
		return ext == VFIO_TYPE1_IOMMU || ext == VFIO_TYPE1v2_IOMMU;
	}
	case VFIO_SET_IOMMU: {
		unsigned long t = (unsigned long)arg;
		if (!vfio.container_set)
			return fail(EINVAL); /* the kernel wants a group in the container first */
		if (t != VFIO_TYPE1_IOMMU && t != VFIO_TYPE1v2_IOMMU)
			return fail(EINVAL);
		vfio.iommu_set = 1;
		vfio_record("iommu type %lu", t);
		return 0;
	}
	case VFIO_IOMMU_GET_INFO: {
		struct vfio_iommu_type1_info *info = arg;
		if (!vfio.iommu_set)
			return fail(EINVAL);
		if (info->argsz < offsetof(struct vfio_iommu_type1_info, iova_pgsizes) + 8)
			return fail(EINVAL);
		info->flags = VFIO_IOMMU_INFO_PGSIZES;
		info->iova_pgsizes = (1ull << 12) | (1ull << 21) | (1ull << 30);
		return 0;
	}
	case VFIO_IOMMU_MAP_DMA: {
		struct vfio_iommu_type1_dma_map *m = arg;
		if (!vfio.iommu_set || m->argsz < sizeof *m)
			return fail(EINVAL);
		return vfio_map_dma(m->vaddr, m->iova, m->size);
	}
	case VFIO_IOMMU_UNMAP_DMA: {
		struct vfio_iommu_type1_dma_unmap *u = arg;
		if (!vfio.iommu_set || u->argsz < sizeof *u)
			return fail(EINVAL);
		uint64_t done = 0;
		int r = vfio_unmap_dma(u->iova, u->size, &done);
		u->size = done;
		return r;
	}
	default:
		return fail(ENOTTY);
	}
}

static int group_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case VFIO_GROUP_GET_STATUS: {
		struct vfio_group_status *s = arg;
		if (s->argsz < sizeof *s)
			return fail(EINVAL);
		s->flags = VFIO_GROUP_FLAGS_VIABLE | (vfio.container_set ? VFIO_GROUP_FLAGS_CONTAINER_SET : 0);
		return 0;
	}
	case VFIO_GROUP_SET_CONTAINER: {
		const int *fd = arg;
		if (vfio_fd_kind(*fd) != VFD_CONTAINER)
			return fail(EINVAL);
		vfio.container_set = 1;
		return 0;
	}
	case VFIO_GROUP_UNSET_CONTAINER:
		vfio.container_set = vfio.iommu_set = 0;
		return 0;
	case VFIO_GROUP_GET_DEVICE_FD: {
		const char *name = arg;
		if (!vfio.iommu_set)
			return fail(EINVAL); /* the kernel wants the IOMMU set first */
		if (strcmp(name, vfio.pci) != 0)
			return fail(ENODEV);
		if (vfio.device_fd >= 0)
			return fail(EBUSY);
		int fd = vfio_open_device_fd();
		vfio_record("open device %s", name);
		return fd;
	}
	default:
		return fail(ENOTTY);
	}
}

static int region_info(struct vfio_region_info *r)
{
	if (r->argsz < sizeof *r)
		return fail(EINVAL);
	r->cap_offset = 0;
	r->offset = (uint64_t)r->index << REGION_SHIFT;
	switch (r->index) {
	case VFIO_PCI_BAR0_REGION_INDEX:
		r->size = VFIO_BAR_SIZE;
		r->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE |
			   VFIO_REGION_INFO_FLAG_MMAP;
		return 0;
	case VFIO_PCI_CONFIG_REGION_INDEX:
		r->size = VFIO_CFG_SIZE;
		r->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
		return 0;
	default:
		if (r->index >= VFIO_PCI_NUM_REGIONS)
			return fail(EINVAL);
		r->size = 0; /* the other BARs, the ROM and VGA: absent */
		r->flags = 0;
		return 0;
	}
}

static int set_irqs(struct vfio_irq_set *s)
{
	if (s->argsz < sizeof *s || s->index != VFIO_PCI_MSIX_IRQ_INDEX)
		return fail(EINVAL);
	uint32_t type = s->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	uint32_t action = s->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK;
	if (action != VFIO_IRQ_SET_ACTION_TRIGGER)
		return fail(EINVAL);
	if (type == VFIO_IRQ_SET_DATA_NONE && s->count == 0) {
		for (unsigned i = 0; i < VFIO_MAX_IRQS; i++)
			vfio.irq_fd[i] = -1;
		vfio_record("irqs off");
		return 0;
	}
	if (type != VFIO_IRQ_SET_DATA_EVENTFD)
		return fail(EINVAL);
	if ((uint64_t)s->start + s->count > vfio.nirq ||
	    s->argsz < sizeof *s + (uint64_t)s->count * sizeof(int32_t))
		return fail(EINVAL);
	const int32_t *fds = (const int32_t *)s->data;
	for (uint32_t i = 0; i < s->count; i++)
		vfio.irq_fd[s->start + i] = fds[i];
	vfio_record("irqs %u+%u", s->start, s->count);
	return 0;
}

static int device_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case VFIO_DEVICE_GET_INFO: {
		struct vfio_device_info *d = arg;
		if (d->argsz < offsetof(struct vfio_device_info, cap_offset))
			return fail(EINVAL);
		d->flags = VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET;
		d->num_regions = VFIO_PCI_NUM_REGIONS;
		d->num_irqs = VFIO_PCI_NUM_IRQS;
		return 0;
	}
	case VFIO_DEVICE_GET_REGION_INFO:
		return region_info(arg);
	case VFIO_DEVICE_GET_IRQ_INFO: {
		struct vfio_irq_info *q = arg;
		if (q->argsz < sizeof *q || q->index >= VFIO_PCI_NUM_IRQS)
			return fail(EINVAL);
		q->flags = 0;
		q->count = 0;
		if (q->index == VFIO_PCI_MSIX_IRQ_INDEX) {
			q->flags = VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_NORESIZE;
			q->count = vfio.nirq;
		}
		return 0;
	}
	case VFIO_DEVICE_SET_IRQS:
		return set_irqs(arg);
	case VFIO_DEVICE_RESET:
		nicref_dev_reset(vfio.dev);
		vfio_record("reset");
		return 0;
	default:
		return fail(ENOTTY);
	}
}

int vfio_ioctl(int fd, unsigned long req, void *arg)
{
	switch (vfio_fd_kind(fd)) {
	case VFD_CONTAINER: return container_ioctl(req, arg);
	case VFD_GROUP: return group_ioctl(req, arg);
	case VFD_DEVICE: return device_ioctl(req, arg);
	default: return fail(ENOTTY);
	}
}

VFIO_API int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	enum vfio_fd_kind k = vfio_fd_kind(fd);
	if (k == VFD_CONTAINER || k == VFD_GROUP || k == VFD_DEVICE)
		return vfio_ioctl(fd, req, arg);
	int (*real)(int, unsigned long, ...) = (int (*)(int, unsigned long, ...))vfio_real("ioctl");
	return real(fd, req, arg);
}
