/* The type1 IOMMU: the table MAP_DMA builds and UNMAP_DMA shrinks, through which every DMA of
 * the model reaches the driver's memory; and the MSI-X vectors, whose interrupts signal the
 * eventfds SET_IRQS gave. A DMA the table does not cover fails as a bus error would
 * (the model's dma ops return non-zero) and is a violation (vfio_rules.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "vfio/vfio.h"

#define PAGE 4096ull

static int overlaps(uint64_t a, uint64_t n, uint64_t b, uint64_t m)
{
	return a < b + m && b < a + n;
}

int vfio_map_dma(uint64_t vaddr, uint64_t iova, uint64_t size)
{
	if (size == 0 || (iova | size | vaddr) & (PAGE - 1) || iova + size < iova) {
		vfio_violation(VFIO_RULE_MAP_DMA_BAD, "MAP_DMA iova 0x%llx size 0x%llx: not page-aligned or empty",
			       (unsigned long long)iova, (unsigned long long)size);
		errno = EINVAL;
		return -1;
	}
	unsigned freeslot = VFIO_MAX_MAPS;
	for (unsigned i = 0; i < vfio.nmaps; i++) {
		const struct vfio_map *m = &vfio.maps[i];
		if (m->live && overlaps(iova, size, m->iova, m->size)) {
			vfio_violation(VFIO_RULE_MAP_DMA_BAD,
				       "MAP_DMA iova 0x%llx size 0x%llx overlaps the mapping at 0x%llx",
				       (unsigned long long)iova, (unsigned long long)size,
				       (unsigned long long)m->iova);
			errno = EEXIST;
			return -1;
		}
		/* an unmapped entry the new one covers whole is forgotten: its IOVAs are live
		 * again */
		if (!m->live && freeslot == VFIO_MAX_MAPS && iova <= m->iova &&
		    m->iova + m->size <= iova + size)
			freeslot = i;
	}
	if (freeslot == VFIO_MAX_MAPS) {
		if (vfio.nmaps == VFIO_MAX_MAPS) {
			errno = ENOSPC;
			return -1;
		}
		freeslot = vfio.nmaps++;
	}
	vfio.maps[freeslot] = (struct vfio_map){ .iova = iova, .size = size, .vaddr = vaddr, .live = 1 };
	return 0;
}

int vfio_unmap_dma(uint64_t iova, uint64_t size, uint64_t *unmapped)
{
	*unmapped = 0;
	for (unsigned i = 0; i < vfio.nmaps; i++) {
		struct vfio_map *m = &vfio.maps[i];
		if (!m->live || !overlaps(iova, size, m->iova, m->size))
			continue;
		if (m->iova < iova || m->iova + m->size > iova + size) {
			/* type1v2 refuses to split a mapping */
			errno = EINVAL;
			return -1;
		}
		m->live = 0;
		*unmapped += m->size;
	}
	return 0;
}

/* The mapping holding [iova, iova+len), or NULL; *dead says whether an unmapped one did. */
static const struct vfio_map *lookup(uint64_t iova, size_t len, int *dead)
{
	*dead = 0;
	for (unsigned i = 0; i < vfio.nmaps; i++) {
		const struct vfio_map *m = &vfio.maps[i];
		if (iova < m->iova || iova - m->iova >= m->size || len > m->size - (iova - m->iova))
			continue;
		if (m->live)
			return m;
		*dead = 1;
	}
	return NULL;
}

int vfio_iova_peek(uint64_t iova, void *buf, size_t len)
{
	int dead;
	const struct vfio_map *m = lookup(iova, len, &dead);
	if (!m)
		return -1;
	memcpy(buf, (const void *)(m->vaddr + (iova - m->iova)), len);
	return 0;
}

/* One DMA: split where mappings meet (contiguous IOVAs may come from different MAP_DMAs). */
static int dma(uint64_t addr, void *rbuf, const void *wbuf, size_t len)
{
	int write = wbuf != NULL;
	vfio.dma_ops++;
	if (!vfio_bus_master()) {
		vfio_violation(VFIO_RULE_DMA_NO_BUS_MASTER, "device DMA %s of %zu bytes at IOVA 0x%llx",
			       write ? "write" : "read", len, (unsigned long long)addr);
		return -1;
	}
	size_t done = 0;
	while (done < len) {
		uint64_t at = addr + done;
		int dead = 0;
		const struct vfio_map *m = NULL;
		size_t chunk = 0;
		for (unsigned i = 0; i < vfio.nmaps; i++) {
			const struct vfio_map *c = &vfio.maps[i];
			if (at < c->iova || at - c->iova >= c->size)
				continue;
			if (!c->live) {
				dead = 1;
				continue;
			}
			m = c;
			break;
		}
		if (!m) {
			vfio_violation(dead ? VFIO_RULE_DMA_AFTER_UNMAP : VFIO_RULE_DMA_UNMAPPED,
				       "device DMA %s of %zu bytes at IOVA 0x%llx (first unmapped byte 0x%llx)",
				       write ? "write" : "read", len, (unsigned long long)addr,
				       (unsigned long long)at);
			return -1;
		}
		chunk = (size_t)(m->size - (at - m->iova));
		if (chunk > len - done)
			chunk = len - done;
		void *host = (void *)(m->vaddr + (at - m->iova));
		if (write)
			memcpy(host, (const uint8_t *)wbuf + done, chunk);
		else
			memcpy((uint8_t *)rbuf + done, host, chunk);
		done += chunk;
	}
	return 0;
}

int vfio_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	return dma(addr, buf, NULL, len);
}

int vfio_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	(void)ctx;
	return dma(addr, NULL, buf, len);
}

void vfio_interrupt(void *ctx, unsigned vector)
{
	(void)ctx;
	if (vector >= VFIO_MAX_IRQS || vfio.irq_fd[vector] < 0) {
		vfio_record("irq_lost %u", vector);
		return;
	}
	uint64_t one = 1;
	ssize_t (*real_write)(int, const void *, size_t) =
		(ssize_t(*)(int, const void *, size_t))vfio_real("write");
	if (real_write(vfio.irq_fd[vector], &one, sizeof one) != (ssize_t)sizeof one)
		vfio_record("irq_lost %u", vector);
}
