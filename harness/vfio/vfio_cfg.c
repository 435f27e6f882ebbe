/* Config space and BAR0 through the device descriptor's pread/pwrite (vfio-pci's region
 * offsets, index << 40), and their 64-bit and fortified forms. Config space is a PCI type 0
 * header for a ConnectX-4 function with an MSI-X capability; the command register is the one
 * writable field (bus mastering gates the device's DMA, vfio_dma.c). BAR0 by pread/pwrite
 * takes dword accesses only, as through the mapping. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/vfio.h>

#include "vfio/vfio.h"

#define VFIO_API __attribute__((visibility("default")))
#define REGION_SHIFT 40
#define CFG_COMMAND 0x04
#define CMD_BUS_MASTER 0x0004u

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }

/* What vfio-pci shows after opening the device: memory decoding on (the kernel enabled the
 * function), bus mastering off until the driver sets it. */
void vfio_cfg_init(void)
{
	uint8_t *c = vfio.cfg;
	memset(c, 0, VFIO_CFG_SIZE);
	put16(c + 0x00, 0x15b3);             /* vendor: Mellanox */
	put16(c + 0x02, 0x1013);             /* device: ConnectX-4 */
	put16(c + CFG_COMMAND, 0x0002);      /* memory space enable */
	put16(c + 0x06, 0x0010);             /* status: capabilities list */
	c[0x0B] = 0x02;                      /* class: network controller, Ethernet */
	put32(c + 0x10, 0x0000000C);         /* BAR0: 64-bit prefetchable memory */
	put16(c + 0x2C, 0x15b3);             /* subsystem vendor */
	put16(c + 0x2E, 0x0014);
	c[0x34] = 0x60;                      /* capabilities pointer */
	c[0x60] = 0x11;                      /* MSI-X, last capability */
	put16(c + 0x62, (uint16_t)((vfio.nirq ? vfio.nirq : 1) - 1)); /* table size - 1 */
	put32(c + 0x64, 0x2000);             /* table in BAR0 at 2000h */
	put32(c + 0x68, 0x3000);             /* pending bits in BAR0 at 3000h */
}

int vfio_bus_master(void)
{
	return (vfio.cfg[CFG_COMMAND] & CMD_BUS_MASTER) != 0;
}

static ssize_t cfg_rw(void *buf, size_t n, uint64_t off, int write)
{
	if (off >= VFIO_CFG_SIZE || n > VFIO_CFG_SIZE - off) {
		vfio_violation(VFIO_RULE_CONFIG_BEYOND_SIZE, "config %s of %zu bytes at 0x%llx (size 0x%x)",
			       write ? "write" : "read", n, (unsigned long long)off, VFIO_CFG_SIZE);
		errno = EINVAL;
		return -1;
	}
	if (!write) {
		memcpy(buf, vfio.cfg + off, n);
		return (ssize_t)n;
	}
	/* Only the command register's bytes take the write. */
	const uint8_t *b = buf;
	for (size_t i = 0; i < n; i++) {
		uint64_t at = off + i;
		if (at == CFG_COMMAND || at == CFG_COMMAND + 1) {
			uint8_t old = vfio.cfg[at];
			vfio.cfg[at] = b[i];
			if (at == CFG_COMMAND && ((old ^ b[i]) & CMD_BUS_MASTER))
				vfio_record("bus_master %d", (b[i] & CMD_BUS_MASTER) != 0);
		}
	}
	return (ssize_t)n;
}

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

static ssize_t bar_rw(void *buf, size_t n, uint64_t off, int write)
{
	if (off >= VFIO_BAR_SIZE || n > VFIO_BAR_SIZE - off) {
		vfio_violation(VFIO_RULE_BAR_BEYOND_SIZE, "BAR0 %s of %zu bytes at 0x%llx by p%s",
			       write ? "write" : "read", n, (unsigned long long)off, write ? "write" : "read");
		errno = EINVAL;
		return -1;
	}
	if (n != 4) {
		vfio_violation(n < 4 ? VFIO_RULE_BAR_NARROW : VFIO_RULE_BAR_WIDE,
			       "BAR0 %s of %zu bytes at 0x%llx by p%s; refused", write ? "write" : "read",
			       n, (unsigned long long)off, write ? "write" : "read");
		errno = EINVAL;
		return -1;
	}
	vfio_time_advance(VFIO_BAR_STEP_NS);
	vfio.bar_accesses++;
	uint32_t v;
	if (write) {
		memcpy(&v, buf, 4);
		nicref_bar_write32(vfio.dev, (uint32_t)off, bswap32(v));
	} else {
		v = bswap32(nicref_bar_read32(vfio.dev, (uint32_t)off));
		memcpy(buf, &v, 4);
	}
	return 4;
}

ssize_t vfio_region_rw(int fd, void *buf, size_t n, off_t off, int write)
{
	(void)fd;
	uint64_t o = (uint64_t)off;
	unsigned index = (unsigned)(o >> REGION_SHIFT);
	uint64_t at = o & ((1ull << REGION_SHIFT) - 1);
	if (index == VFIO_PCI_CONFIG_REGION_INDEX)
		return cfg_rw(buf, n, at, write);
	if (index == VFIO_PCI_BAR0_REGION_INDEX)
		return bar_rw(buf, n, at, write);
	errno = EINVAL;
	return -1;
}

typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

VFIO_API ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	if (vfio_fd_kind(fd) == VFD_DEVICE)
		return vfio_region_rw(fd, buf, n, off, 0);
	return ((pread_fn)vfio_real("pread"))(fd, buf, n, off);
}

VFIO_API ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	if (vfio_fd_kind(fd) == VFD_DEVICE)
		return vfio_region_rw(fd, buf, n, off, 0);
	return ((pread_fn)vfio_real("pread64"))(fd, buf, n, off);
}

/* The fortified forms (_FORTIFY_SOURCE): buflen is the object's size as the compiler knew
 * it; a read beyond it is glibc's buffer overflow abort. */
VFIO_API ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	if (vfio_fd_kind(fd) != VFD_DEVICE)
		return ((ssize_t(*)(int, void *, size_t, off_t, size_t))vfio_real("__pread_chk"))(
			fd, buf, n, off, buflen);
	if (n > buflen) {
		void (*chk_fail)(void) = (void (*)(void))vfio_real("__chk_fail");
		chk_fail();
	}
	return vfio_region_rw(fd, buf, n, off, 0);
}

VFIO_API ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	if (vfio_fd_kind(fd) != VFD_DEVICE)
		return ((ssize_t(*)(int, void *, size_t, off_t, size_t))vfio_real("__pread64_chk"))(
			fd, buf, n, off, buflen);
	if (n > buflen) {
		void (*chk_fail)(void) = (void (*)(void))vfio_real("__chk_fail");
		chk_fail();
	}
	return vfio_region_rw(fd, buf, n, off, 0);
}

VFIO_API ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (vfio_fd_kind(fd) == VFD_DEVICE)
		return vfio_region_rw(fd, (void *)(uintptr_t)buf, n, off, 1);
	return ((pwrite_fn)vfio_real("pwrite"))(fd, buf, n, off);
}

VFIO_API ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	if (vfio_fd_kind(fd) == VFD_DEVICE)
		return vfio_region_rw(fd, (void *)(uintptr_t)buf, n, off, 1);
	return ((pwrite_fn)vfio_real("pwrite64"))(fd, buf, n, off);
}
