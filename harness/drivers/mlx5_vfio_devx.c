/* Milestone M2 of docs/drivers.md, its first part: rdma-core's mlx5_vfio provider, unmodified
 * (Debian's libmlx5), brings the device up on libnicref through the VFIO front end, then the
 * program registers DevX user memory (mlx5dv_devx_umem_reg: the driver maps it for DMA and
 * sends CREATE_UMEM, docs/umem.md) in three shapes (one page, several pages, a buffer that does
 * not start on a page), checks each has its own umem_id, deregisters them (DESTROY_UMEM) and
 * closes. The DevX objects that would use the UMEMs (CQs, SQ, RQs, RQT, TIRs, TIS) follow once
 * the model reads their umem fields (docs/umem.md "What is not done yet"). Each step prints one
 * line; the exit status is 0 when every step succeeded, else the number of the step that
 * failed. Run it under `nicref drive` (it needs the front end: alone, there is no device).
 * usage: mlx5_vfio_devx [PCI_NAME] */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#define NUMEMS 3

int main(int argc, char **argv)
{
	const char *pci = argc > 1 ? argv[1] : "0000:00:01.0";
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct mlx5dv_vfio_context_attr attr = { .pci_name = pci };
	struct ibv_device **list = mlx5dv_get_vfio_device_list(&attr);
	if (!list || !list[0]) {
		printf("mlx5dv_get_vfio_device_list(%s): %s\n", pci, strerror(errno));
		return 1;
	}
	struct ibv_context *ctx = ibv_open_device(list[0]);
	if (!ctx) {
		printf("ibv_open_device: %s (the driver's bring-up failed)\n", strerror(errno));
		return 2;
	}
	printf("bring-up: ok\n");
	/* One 4 KB page; 64 KB; 6000 bytes from 0x100 into a page (page_offset, D-UMEM-3). */
	static const struct {
		size_t size, skip;
	} shape[NUMEMS] = { { 4096, 0 }, { 64 * 1024, 0 }, { 6000, 0x100 } };
	void *buf[NUMEMS] = { 0 };
	struct mlx5dv_devx_umem *umem[NUMEMS] = { 0 };
	for (int i = 0; i < NUMEMS; i++) {
		if (posix_memalign(&buf[i], 4096, shape[i].size + shape[i].skip))
			return 3;
		memset(buf[i], 0, shape[i].size + shape[i].skip);
		umem[i] = mlx5dv_devx_umem_reg(ctx, (char *)buf[i] + shape[i].skip, shape[i].size,
					       IBV_ACCESS_LOCAL_WRITE);
		if (!umem[i]) {
			printf("mlx5dv_devx_umem_reg(%zu bytes at +0x%zx): %s\n", shape[i].size,
			       shape[i].skip, strerror(errno));
			return 3;
		}
		printf("umem %d: ok (%zu bytes at +0x%zx)\n", i, shape[i].size, shape[i].skip);
	}
	for (int i = 0; i < NUMEMS; i++)
		for (int j = 0; j < i; j++)
			if (umem[i]->umem_id == umem[j]->umem_id) {
				printf("umem %d and %d share umem_id %u\n", j, i, umem[i]->umem_id);
				return 4;
			}
	for (int i = 0; i < NUMEMS; i++) {
		int err = mlx5dv_devx_umem_dereg(umem[i]);
		if (err) {
			printf("mlx5dv_devx_umem_dereg %d: %s\n", i, strerror(err));
			return 5;
		}
		free(buf[i]);
	}
	printf("umems deregistered\n");
	if (ibv_close_device(ctx)) {
		printf("ibv_close_device failed\n");
		return 6;
	}
	ibv_free_device_list(list);
	printf("closed\n");
	return 0;
}
