/* libnicref_vfio.so: a VFIO front end for libnicref, loaded into a driver's process with
 * LD_PRELOAD. It answers what the driver asks of the kernel for one PCI function (sysfs, the
 * /dev/vfio descriptors and their ioctls, config space, BAR0, DMA mappings, MSI-X eventfds)
 * with a libnicref device in the same process, and writes what happened to a record file
 * that `nicref drive` reads (docs/drivers.md). Everything here runs in the driver's process:
 * the state is one global (struct vfio), set up by the constructor. */
#ifndef NICREF_VFIO_H
#define NICREF_VFIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "nicref/nicref.h"
#include "vfio/vfio_rules.h"

#define VFIO_MAX_MAPS 4096
#define VFIO_MAX_IRQS 256
#define VFIO_BAR_SIZE (1u << 20) /* the UAR area, T145 uar_sz 0: 1 MB (PRM §7.2) */
#define VFIO_CFG_SIZE 256u

/* The kinds of descriptor the front end hands out (a memfd each, so close() is real). */
enum vfio_fd_kind { VFD_NONE, VFD_CONTAINER, VFD_GROUP, VFD_DEVICE, VFD_SYSFILE };

struct vfio_map {
	uint64_t iova, size;
	uintptr_t vaddr;
	int live; /* 0 once unmapped: a later DMA there is DMA_AFTER_UNMAP */
};

struct vfio {
	int ready;
	struct nicref_dev *dev;
	struct nicref_profile profile;
	int record_fd;     /* the record file (NICREF_VFIO_RECORD), -1 when none */
	int trace_fd;      /* the model's trace (NICREF_VFIO_TRACE), -1 when none */
	char pci[32];      /* "0000:00:01.0" */
	int group;         /* the IOMMU group number */
	int container_fd, group_fd, device_fd;
	int container_set, iommu_set;
	/* BAR0 as the driver mapped it: PROT_NONE, every access faults into vfio_bar.c */
	uint8_t *bar;
	size_t bar_map_len; /* the mapping, a guard page past the region included */
	uint8_t cfg[VFIO_CFG_SIZE];
	int irq_fd[VFIO_MAX_IRQS];
	unsigned nirq;
	struct vfio_map maps[VFIO_MAX_MAPS];
	unsigned nmaps;
	uint64_t cmdq_iova; /* as the driver wrote it to 10h/14h, for the exit checks */
	uint32_t cmdq_h;
	uint64_t bar_accesses, dma_ops;
	uint64_t last_opcode; /* of the last command completed, for a violation's context */
	int exiting;
	int log_bar; /* NICREF_VFIO_LOG_BAR: a record line per BAR0 access */
	int active;  /* this process opened /dev/vfio/vfio: it records and checks at exit */
	int sessions; /* device descriptors handed out so far */
	int checked;  /* the release checks of the current session ran */
	pid_t pid;   /* which process that was */
};

extern struct vfio vfio;

/* Virtual time: the model's clock. Each BAR access and each time query moves it by a fixed
 * step, a sleep by what it asks for; nothing reads a real clock. */
#define VFIO_BAR_STEP_NS 1000u
#define VFIO_TIME_STEP_NS 1000u
void vfio_time_advance(uint64_t ns);

/* Exit statuses of the driver's process that are the front end's, not the program's:
 * setup refused (bad profile), the driver waited for an event nothing will raise. */
enum { VFIO_EXIT_SETUP = 120, VFIO_EXIT_HANG = 121 };

/* The checks of D-VFIO-6 and the state record, once per session: when the driver closes the
 * device descriptor, or at exit while it is open. */
void vfio_release_checks(void);

/* The process opened the container: from now on it records (and checks at exit). */
void vfio_activate(void);

/* The record file: one line per record (docs/drivers.md, "Record"). */
void vfio_record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A front-end rule broken: counted by `nicref drive`; ctx says where (printf). */
void vfio_violation(enum vfio_rule rule, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *vfio_rule_name(enum vfio_rule rule);
/* "libmlx5.so.1+0x4b2c0": where code is, stable from run to run. */
void vfio_where(const void *pc, char *buf, size_t len);

/* Descriptors. */
enum vfio_fd_kind vfio_fd_kind(int fd);
int vfio_new_fd(const char *name, const void *content, size_t len);
int vfio_open_device_fd(void);

/* Paths: 0 when path is not one of the front end's. */
int vfio_path_is_ours(const char *path);

/* ioctl on one of the front end's descriptors. */
int vfio_ioctl(int fd, unsigned long req, void *arg);
/* Config space and region reads/writes through the device descriptor. */
ssize_t vfio_region_rw(int fd, void *buf, size_t n, off_t off, int write);
void vfio_cfg_init(void);
int vfio_bus_master(void); /* PCI command register bit 2 */

/* BAR0. */
void *vfio_bar_mmap(size_t len, off_t off);
int vfio_bar_owns(const void *addr, size_t len);
void vfio_bar_unmap(void);
void vfio_bar_install_handlers(void);

/* DMA: the IOVA table. */
int vfio_map_dma(uint64_t vaddr, uint64_t iova, uint64_t size);
int vfio_unmap_dma(uint64_t iova, uint64_t size, uint64_t *unmapped);
/* Host memory at an IOVA, for the front end's own checks: nothing recorded; -1 if unmapped. */
int vfio_iova_peek(uint64_t iova, void *buf, size_t len);
int vfio_dma_read(void *ctx, uint64_t addr, void *buf, size_t len);
int vfio_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len);
void vfio_interrupt(void *ctx, unsigned vector);

/* The wire (vfio_wire.c): frames out to a pcap, frames of a capture injected at a fixed point
 * (D-VFIO-7). init: 0, or -1 with err filled (a bad NICREF_VFIO_INJECT). */
int vfio_wire_init(char *err, size_t errlen);
void vfio_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len);
void vfio_wire_cmd_done(unsigned opcode);
void vfio_wire_tick(void);
void vfio_wire_fini(void);

/* glibc's fortified pread (_FORTIFY_SOURCE), which its headers declare only as asm aliases. */
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);

/* glibc's fortified open forms and its legacy stat entry points (older binaries call them). */
struct stat;
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat *st);

/* The real libc functions the interposers stand in front of. */
void *vfio_real(const char *name);

#endif
