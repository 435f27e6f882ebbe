/* The files the driver opens to find its function (mlx5_vfio: sysfs vendor, device and the
 * iommu_group link of /sys/bus/pci/devices/PCI/, then /dev/vfio/vfio and /dev/vfio/GROUP),
 * answered by the front end; every other path goes to libc. open, openat and their
 * fortified and 64-bit forms, stat/lstat and the legacy __xstat forms, access, readlink. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "vfio/vfio.h"

#define VFIO_API __attribute__((visibility("default")))
#define MAX_FD 4096

static unsigned char fd_kinds[MAX_FD];

enum vfio_fd_kind vfio_fd_kind(int fd)
{
	return fd >= 0 && fd < MAX_FD ? (enum vfio_fd_kind)fd_kinds[fd] : VFD_NONE;
}

int vfio_new_fd(const char *name, const void *content, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (len && pwrite(fd, content, len, 0) != (ssize_t)len) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static void fd_set_kind(int fd, enum vfio_fd_kind k)
{
	if (fd >= 0 && fd < MAX_FD)
		fd_kinds[fd] = (unsigned char)k;
}

enum path_kind { PATH_NONE, PATH_DEVDIR, PATH_VENDOR, PATH_DEVICE, PATH_IOMMU_LINK,
		 PATH_CONTAINER, PATH_GROUP };

static enum path_kind classify(const char *path)
{
	if (!vfio.ready || !path)
		return PATH_NONE;
	/* one slash where the driver joins with two ("%s/vendor" on a path ending in '/') */
	char p[256];
	size_t n = 0;
	for (const char *c = path; *c; c++) {
		if (*c == '/' && n > 0 && p[n - 1] == '/')
			continue;
		if (n + 1 >= sizeof p)
			return PATH_NONE;
		p[n++] = *c;
	}
	p[n] = 0;
	while (n > 1 && p[n - 1] == '/')
		p[--n] = 0;
	char dir[96], group[48];
	snprintf(dir, sizeof dir, "/sys/bus/pci/devices/%s", vfio.pci);
	snprintf(group, sizeof group, "/dev/vfio/%d", vfio.group);
	size_t d = strlen(dir);
	if (strcmp(p, "/dev/vfio/vfio") == 0)
		return PATH_CONTAINER;
	if (strcmp(p, group) == 0)
		return PATH_GROUP;
	if (strncmp(p, dir, d) != 0)
		return PATH_NONE;
	if (p[d] == 0)
		return PATH_DEVDIR;
	if (strcmp(p + d, "/vendor") == 0)
		return PATH_VENDOR;
	if (strcmp(p + d, "/device") == 0)
		return PATH_DEVICE;
	if (strcmp(p + d, "/iommu_group") == 0)
		return PATH_IOMMU_LINK;
	return PATH_NONE;
}

int vfio_path_is_ours(const char *path)
{
	return classify(path) != PATH_NONE;
}

/* The PCI identity mlx5 drivers match: Mellanox (0x15b3), ConnectX-4 (0x1013). */
static const char vendor_text[] = "0x15b3\n", device_text[] = "0x1013\n";

static int open_ours(enum path_kind k)
{
	int fd = -1;
	switch (k) {
	case PATH_VENDOR:
		fd = vfio_new_fd("nicref-vendor", vendor_text, sizeof vendor_text - 1);
		fd_set_kind(fd, VFD_SYSFILE);
		return fd;
	case PATH_DEVICE:
		fd = vfio_new_fd("nicref-device", device_text, sizeof device_text - 1);
		fd_set_kind(fd, VFD_SYSFILE);
		return fd;
	case PATH_CONTAINER:
		vfio_activate();
		fd = vfio_new_fd("nicref-vfio-container", NULL, 0);
		fd_set_kind(fd, VFD_CONTAINER);
		vfio.container_fd = fd;
		vfio_record("open container");
		return fd;
	case PATH_GROUP:
		fd = vfio_new_fd("nicref-vfio-group", NULL, 0);
		fd_set_kind(fd, VFD_GROUP);
		vfio.group_fd = fd;
		vfio_record("open group %d", vfio.group);
		return fd;
	default:
		errno = EISDIR;
		return -1;
	}
}

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);

static int open_common(const char *name, int dirfd, const char *path, int flags, mode_t mode)
{
	enum path_kind k = classify(path);
	if (k != PATH_NONE)
		return open_ours(k);
	if (dirfd == AT_FDCWD && strcmp(name, "openat") != 0) {
		open_fn real = (open_fn)vfio_real(name);
		return real(path, flags, mode);
	}
	openat_fn real = (openat_fn)vfio_real("openat");
	return real(dirfd, path, flags, mode);
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

VFIO_API int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common("open", AT_FDCWD, path, flags, m);
}

VFIO_API int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common("open64", AT_FDCWD, path, flags, m);
}

VFIO_API int __open_2(const char *path, int flags)
{
	return open_common("open", AT_FDCWD, path, flags, 0);
}

VFIO_API int __open64_2(const char *path, int flags)
{
	return open_common("open64", AT_FDCWD, path, flags, 0);
}

VFIO_API int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common("openat", dirfd, path, flags, m);
}

VFIO_API int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common("openat", dirfd, path, flags, m);
}

VFIO_API int __openat_2(int dirfd, const char *path, int flags)
{
	return open_common("openat", dirfd, path, flags, 0);
}

VFIO_API int close(int fd)
{
	enum vfio_fd_kind k = vfio_fd_kind(fd);
	if (k != VFD_NONE) {
		fd_set_kind(fd, VFD_NONE);
		if (k == VFD_DEVICE) {
			vfio_release_checks(); /* what the driver left behind, before anything resets */
			vfio.device_fd = -1;
			/* closing the device disables its interrupts, as vfio-pci does: no write may
			 * reach a descriptor number the program reuses */
			for (unsigned i = 0; i < VFIO_MAX_IRQS; i++)
				vfio.irq_fd[i] = -1;
			vfio_record("close device");
		} else if (k == VFD_CONTAINER) {
			vfio.container_fd = -1;
		} else if (k == VFD_GROUP) {
			vfio.group_fd = -1;
		}
	}
	int (*real)(int) = (int (*)(int))vfio_real("close");
	return real(fd);
}

static int stat_ours(enum path_kind k, struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_nlink = 1;
	switch (k) {
	case PATH_DEVDIR: st->st_mode = S_IFDIR | 0755; st->st_nlink = 2; break;
	case PATH_VENDOR: st->st_mode = S_IFREG | 0444; st->st_size = 4096; break;
	case PATH_DEVICE: st->st_mode = S_IFREG | 0444; st->st_size = 4096; break;
	case PATH_IOMMU_LINK: st->st_mode = S_IFDIR | 0755; break;
	case PATH_CONTAINER: st->st_mode = S_IFCHR | 0666; st->st_rdev = makedev(10, 196); break;
	default: st->st_mode = S_IFCHR | 0600; st->st_rdev = makedev(243, (unsigned)vfio.group);
		break;
	}
	return 0;
}

VFIO_API int stat(const char *path, struct stat *st)
{
	enum path_kind k = classify(path);
	if (k != PATH_NONE)
		return stat_ours(k, st);
	int (*real)(const char *, struct stat *) =
		(int (*)(const char *, struct stat *))vfio_real("stat");
	return real(path, st);
}

/* x86-64: struct stat64 is struct stat. */
VFIO_API int stat64(const char *path, struct stat64 *st)
{
	enum path_kind k = classify(path);
	if (k != PATH_NONE)
		return stat_ours(k, (struct stat *)st);
	int (*real)(const char *, struct stat64 *) =
		(int (*)(const char *, struct stat64 *))vfio_real("stat64");
	return real(path, st);
}

VFIO_API int lstat(const char *path, struct stat *st)
{
	enum path_kind k = classify(path);
	if (k != PATH_NONE) {
		stat_ours(k, st);
		if (k == PATH_IOMMU_LINK)
			st->st_mode = S_IFLNK | 0777;
		return 0;
	}
	int (*real)(const char *, struct stat *) =
		(int (*)(const char *, struct stat *))vfio_real("lstat");
	return real(path, st);
}

VFIO_API int __xstat(int ver, const char *path, struct stat *st)
{
	enum path_kind k = classify(path);
	if (k != PATH_NONE)
		return stat_ours(k, st);
	int (*real)(int, const char *, struct stat *) =
		(int (*)(int, const char *, struct stat *))vfio_real("__xstat");
	return real(ver, path, st);
}

VFIO_API int __xstat64(int ver, const char *path, struct stat *st)
{
	enum path_kind k = classify(path);
	if (k != PATH_NONE)
		return stat_ours(k, st);
	int (*real)(int, const char *, struct stat *) =
		(int (*)(int, const char *, struct stat *))vfio_real("__xstat64");
	return real(ver, path, st);
}

VFIO_API int access(const char *path, int mode)
{
	if (classify(path) != PATH_NONE)
		return 0;
	int (*real)(const char *, int) = (int (*)(const char *, int))vfio_real("access");
	return real(path, mode);
}

VFIO_API ssize_t readlink(const char *path, char *buf, size_t len)
{
	enum path_kind k = classify(path);
	if (k == PATH_NONE) {
		ssize_t (*real)(const char *, char *, size_t) =
			(ssize_t(*)(const char *, char *, size_t))vfio_real("readlink");
		return real(path, buf, len);
	}
	if (k != PATH_IOMMU_LINK) {
		errno = EINVAL;
		return -1;
	}
	char target[64];
	int n = snprintf(target, sizeof target, "../../../kernel/iommu_groups/%d", vfio.group);
	size_t c = (size_t)n < len ? (size_t)n : len;
	memcpy(buf, target, c); /* readlink does not terminate */
	return (ssize_t)c;
}

/* The device descriptor comes from VFIO_GROUP_GET_DEVICE_FD (vfio_ioctl.c). */
int vfio_open_device_fd(void)
{
	/* vfio-pci resets a function when its device is opened again (a function-level reset):
	 * a second session starts from power-on, whatever the first left (the front end does
	 * not reset the first: the model is created at power-on). */
	if (vfio.sessions++ > 0) {
		nicref_dev_reset(vfio.dev);
		vfio_cfg_init();
		vfio.cmdq_iova = 0;
		vfio.checked = 0;
		vfio_record("reset on open (function-level reset, as vfio-pci)");
	}
	int fd = vfio_new_fd("nicref-vfio-device", NULL, 0);
	fd_set_kind(fd, VFD_DEVICE);
	vfio.device_fd = fd;
	return fd;
}
