/* Milestone M1 of docs/drivers.md: rdma-core's mlx5_vfio provider, unmodified (Debian's
 * libmlx5), brings the device up on libnicref through the VFIO front end, then the program
 * allocates a PD, registers a memory region, sends three DevX general commands (NOP,
 * QUERY_ADAPTER, QUERY_HCA_CAP), runs the driver's event loop through several health checks
 * (1 s apart in the driver, in virtual time here) and frees everything. Each step prints one
 * line; the exit status is 0 when every step succeeded, else the number of the step that
 * failed. Run it under `nicref drive` (it needs the front end: alone, there is no device).
 * usage: mlx5_vfio_smoke [PCI_NAME [EVENT_LOOPS]] */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

/* PRM §12.2 T100: opcode in bytes 0-1 and op_mod in bytes 6-7 of every command, big-endian. */
static void cmd_header(uint8_t *in, unsigned opcode, unsigned op_mod)
{
	in[0] = (uint8_t)(opcode >> 8);
	in[1] = (uint8_t)opcode;
	in[6] = (uint8_t)(op_mod >> 8);
	in[7] = (uint8_t)op_mod;
}

/* One DevX general command; the status and syndrome of the output header (T101). */
static int general(struct ibv_context *ctx, const char *name, unsigned opcode, unsigned op_mod,
		   size_t inlen, size_t outlen)
{
	uint8_t in[64] = { 0 };
	static uint8_t out[4096 + 16];
	memset(out, 0, sizeof out);
	cmd_header(in, opcode, op_mod);
	int err = mlx5dv_devx_general_cmd(ctx, in, inlen, out, outlen);
	unsigned syndrome = (unsigned)out[4] << 24 | (unsigned)out[5] << 16 | (unsigned)out[6] << 8 | out[7];
	printf("devx %s: %s (status 0x%02x, syndrome 0x%08x)\n", name, err ? strerror(err) : "ok",
	       out[0], syndrome);
	return err;
}

int main(int argc, char **argv)
{
	const char *pci = argc > 1 ? argv[1] : "0000:00:01.0";
	int loops = argc > 2 ? atoi(argv[2]) : 40;
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct mlx5dv_vfio_context_attr attr = { .pci_name = pci };
	struct ibv_device **list = mlx5dv_get_vfio_device_list(&attr);
	if (!list || !list[0]) {
		printf("mlx5dv_get_vfio_device_list(%s): %s\n", pci, strerror(errno));
		return 1;
	}
	printf("device list: %s\n", ibv_get_device_name(list[0]));
	struct ibv_context *ctx = ibv_open_device(list[0]);
	if (!ctx) {
		printf("ibv_open_device: %s (the driver's bring-up failed)\n", strerror(errno));
		return 2;
	}
	printf("bring-up: ok\n");
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd) {
		printf("ibv_alloc_pd: %s\n", strerror(errno));
		return 3;
	}
	printf("pd: ok\n");
	size_t len = 64 * 1024;
	void *buf = NULL;
	if (posix_memalign(&buf, 4096, len))
		return 4;
	memset(buf, 0, len);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		printf("ibv_reg_mr: %s\n", strerror(errno));
		return 4;
	}
	printf("mr: ok (lkey 0x%x)\n", mr->lkey);
	int bad = 0;
	/* PRM §12.18 NOP (0x80D), §12.3.6 QUERY_ADAPTER (0x101), §12.3.3 QUERY_HCA_CAP (0x100,
	 * op_mod 1: the general capabilities in force) */
	bad |= general(ctx, "NOP", 0x80D, 0, 16, 16);
	bad |= general(ctx, "QUERY_ADAPTER", 0x101, 0, 16, 16 + 256);
	bad |= general(ctx, "QUERY_HCA_CAP", 0x100, 1, 16, 16 + 4096);
	if (bad)
		return 5;
	for (int i = 0; i < loops; i++) {
		int err = mlx5dv_vfio_process_events(ctx);
		if (err) {
			printf("mlx5dv_vfio_process_events: %s\n", strerror(err));
			return 6;
		}
		usleep(100 * 1000); /* 100 ms: the driver checks health once a second */
	}
	printf("event loop: %d rounds\n", loops);
	if (ibv_dereg_mr(mr)) {
		printf("ibv_dereg_mr failed\n");
		return 7;
	}
	free(buf);
	if (ibv_dealloc_pd(pd)) {
		printf("ibv_dealloc_pd failed\n");
		return 8;
	}
	if (ibv_close_device(ctx)) {
		printf("ibv_close_device failed\n");
		return 9;
	}
	ibv_free_device_list(list);
	printf("closed\n");
	return 0;
}
