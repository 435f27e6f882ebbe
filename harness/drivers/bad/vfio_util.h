/* What the small programs of harness/drivers/bad/ share (the deliberately wrong drivers, and
 * reopen.c): the VFIO steps every
 * user-space driver takes to reach its function (as rdma-core's mlx5_vfio does), done right,
 * so that each program's one mistake is the only thing `nicref drive` reports about it. They
 * run only under the front end (`nicref drive`); each exits 3 when a step fails. */
#ifndef NICREF_BAD_VFIO_UTIL_H
#define NICREF_BAD_VFIO_UTIL_H

#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <linux/vfio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PCI_NAME "0000:00:01.0"

struct vdev {
	int container, group, device;
	volatile uint8_t *bar;
	size_t bar_size;
	uint64_t cfg_off;
};

static inline void fail_step(const char *what)
{
	fprintf(stderr, "vfio setup failed: %s\n", what);
	exit(3);
}

/* Container, group (from the function's iommu_group link), IOMMU, device, BAR0, and the
 * PCI command register with memory space and bus mastering on. */
static inline void vdev_open(struct vdev *v)
{
	char link[256], path[64];
	ssize_t n = readlink("/sys/bus/pci/devices/" PCI_NAME "/iommu_group", link, sizeof link - 1);
	if (n <= 0)
		fail_step("iommu_group");
	link[n] = 0;
	snprintf(path, sizeof path, "/dev/vfio/%s", basename(link));
	v->container = open("/dev/vfio/vfio", O_RDWR);
	v->group = open(path, O_RDWR);
	if (v->container < 0 || v->group < 0)
		fail_step("open");
	if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) ||
	    ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU))
		fail_step("container");
	v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, PCI_NAME);
	if (v->device < 0)
		fail_step("device");
	struct vfio_region_info r = { .argsz = sizeof r, .index = VFIO_PCI_BAR0_REGION_INDEX };
	if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &r))
		fail_step("BAR0 info");
	v->bar = mmap(NULL, r.size, PROT_READ | PROT_WRITE, MAP_SHARED, v->device, (off_t)r.offset);
	if (v->bar == MAP_FAILED)
		fail_step("BAR0 mmap");
	v->bar_size = r.size;
	struct vfio_region_info c = { .argsz = sizeof c, .index = VFIO_PCI_CONFIG_REGION_INDEX };
	if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &c))
		fail_step("config info");
	v->cfg_off = c.offset;
	uint16_t cmd = 0x6; /* memory space, bus master */
	if (pwrite(v->device, &cmd, 2, (off_t)(c.offset + 4)) != 2)
		fail_step("command register");
}

/* A dword of BAR0 as the PRM numbers it (the bytes are big-endian). */
/* A dword read the way a driver's mmio accessor makes it: a mov into a register. The empty
 * asm keeps the compiler from folding the load into the instruction that uses it (clang made
 * `test $imm32, 0x1fc(%rax)` of `bar_rd(v, 0x1fc) & 1`, which the front end single-steps and
 * reports as BAR_UNDECODABLE: right for a driver, not the one mistake these programs make). */
static inline uint32_t bar_rd(struct vdev *v, uint32_t off)
{
	uint32_t x = *(volatile uint32_t *)(v->bar + off);
	__asm__ volatile("" : "+r"(x));
	return __builtin_bswap32(x);
}

static inline void bar_wr(struct vdev *v, uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)(v->bar + off) = __builtin_bswap32(val);
}

/* 4 KB of host memory the device may reach at iova. */
static inline uint8_t *dma_page(struct vdev *v, uint64_t iova)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, 4096))
		fail_step("memory");
	memset(p, 0, 4096);
	struct vfio_iommu_type1_dma_map m = { .argsz = sizeof m,
					       .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
					       .vaddr = (uintptr_t)p, .iova = iova, .size = 4096 };
	if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &m))
		fail_step("MAP_DMA");
	return p;
}

/* PRM §8.2: the command queue address, MSW first, then wait for initializing to clear. */
static inline void cmdq_at(struct vdev *v, uint64_t iova)
{
	bar_wr(v, 0x10, (uint32_t)(iova >> 32));
	bar_wr(v, 0x14, (uint32_t)iova & 0xFFFFF000u);
	struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < 1000 && (bar_rd(v, 0x1FC) >> 31); i++)
		nanosleep(&ms, NULL);
}

#endif
