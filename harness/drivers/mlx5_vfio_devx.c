/* Milestone M2 of docs/drivers.md, its first part: rdma-core's mlx5_vfio provider, unmodified
 * (Debian's libmlx5), brings the device up on libnicref through the VFIO front end, then the
 * program registers DevX user memory (mlx5dv_devx_umem_reg: the driver maps it for DMA and
 * sends CREATE_UMEM, docs/umem.md) in three shapes (one page, several pages, a buffer that does
 * not start on a page), checks each has its own umem_id, creates a CQ through DevX
 * (mlx5dv_devx_obj_create) whose buffer and doorbell record live in two of them, queries it,
 * checks DESTROY_UMEM is refused while the CQ lives, destroys the CQ, deregisters the UMEMs
 * (DESTROY_UMEM), allocates a transport domain and a TIS on it through DevX, queries and frees
 * them, and closes; while the CQ lives, an RQ in two of the UMEMs on it and an RQT of that RQ
 * are created, queried and destroyed. The SQ, a TIR and traffic are M2's second part,
 * mlx5_vfio_traffic.c. Each step prints one
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

#include "devx_util.h"

#define NUMEMS 3

/* CREATE_CQ (0x400, PRM §12.7.1 T261) of 2^6 64-byte CQEs on EQ eqn and UAR uar, its buffer at
 * byte 0 of UMEM buf_id and its doorbell record at byte 0 of UMEM dbr_id: the cqc at 10h
 * (T76: log_cq_size 0Ch[28:24], uar_page 0Ch[23:0], c_eqn 14h[7:0]), beyond PRM Rev 0.40 the
 * public mlx5_ifc.h fields cqc dbr_umem_valid 00h[25] and dbr_umem_id 04h, create_cq_in
 * cq_umem_offset 50h, cq_umem_id 58h, cq_umem_valid 5Ch[31]; no pas[]. */
static struct mlx5dv_devx_obj *create_cq(struct ibv_context *ctx, uint32_t eqn, uint32_t uar,
					 uint32_t buf_id, uint32_t dbr_id, uint32_t *cqn)
{
	uint8_t in[0x110] = { 0 }, out[0x10] = { 0 };
	put(in, 0x00, 31, 16, 0x400);
	put(in, 0x10, 25, 25, 1);
	put(in, 0x14, 31, 0, dbr_id);
	put(in, 0x1C, 28, 24, 6);
	put(in, 0x1C, 23, 0, uar);
	put(in, 0x24, 7, 0, eqn);
	put(in, 0x58, 31, 0, buf_id);
	put(in, 0x5C, 31, 31, 1);
	struct mlx5dv_devx_obj *o = mlx5dv_devx_obj_create(ctx, in, sizeof in, out, sizeof out);
	printf("CREATE_CQ: %s (status 0x%02x, syndrome 0x%08x)\n", o ? "ok" : strerror(errno),
	       out[0], get(out, 4, 31, 0));
	*cqn = get(out, 0x08, 23, 0); /* T263 cqn */
	return o;
}

/* An RQ on CQ cqn (CREATE_RQ 0x908, PRM §12.11.1 T329: the rqc at 20h, T53 state 00h[23:20]
 * RST, cqn 08h; its WQ at 50h, T55 wq_type 1 cyclic, pd 08h, log_wq_stride 20h[19:16] 16 B,
 * log_wq_sz 20h[4:0] 64 WQEs) whose buffer is byte 0 of UMEM buf_id and whose doorbell record
 * is byte 40h of UMEM dbr_id (beyond PRM Rev 0.40, mlx5_ifc.h wq_bits: dbr_umem_valid
 * 24h[31], wq_umem_valid 24h[30], dbr_umem_id 28h, wq_umem_id 2Ch); then an RQT of that one
 * RQ (CREATE_RQT 0x916, T350: the rqtc at 20h, T59 rqt_max_size 14h, rqt_actual_size 18h,
 * rq_num[] F0h); QUERY_RQ (0x90B) and QUERY_RQT (0x919) of both, and both destroyed. 0 or a
 * step. */
static int rq_and_rqt(struct ibv_context *ctx, uint32_t pdn, uint32_t cqn, uint32_t buf_id,
		      uint32_t dbr_id)
{
	uint8_t in[0x110] = { 0 };
	uint32_t rqn = 0, rqtn = 0;
	put(in, 0x00, 31, 16, 0x908);
	put(in, 0x28, 23, 0, cqn);
	put(in, 0x50, 31, 28, 1);
	put(in, 0x58, 23, 0, pdn);
	put(in, 0x64, 31, 0, 0x40);
	put(in, 0x70, 19, 16, 4);
	put(in, 0x70, 4, 0, 6);
	put(in, 0x74, 31, 30, 3);
	put(in, 0x78, 31, 0, dbr_id);
	put(in, 0x7C, 31, 0, buf_id);
	struct mlx5dv_devx_obj *rq = devx_create(ctx, "CREATE_RQ", in, sizeof in, &rqn, 0x08);
	if (!rq)
		return 16;
	uint8_t tin[0x114] = { 0 };
	put(tin, 0x00, 31, 16, 0x916);
	put(tin, 0x34, 15, 0, 1);
	put(tin, 0x38, 15, 0, 1);
	put(tin, 0x110, 23, 0, rqn);
	struct mlx5dv_devx_obj *rqt = devx_create(ctx, "CREATE_RQT", tin, sizeof tin, &rqtn, 0x08);
	if (!rqt)
		return 17;
	uint8_t qin[0x10] = { 0 }, qout[0x200] = { 0 };
	put(qin, 0x00, 31, 16, 0x90B);
	put(qin, 0x08, 23, 0, rqn);
	int err = mlx5dv_devx_obj_query(rq, qin, sizeof qin, qout, 0x110);
	/* QUERY_RQ (T334): the rqc at 20h; its cqn 28h, its WQ's log_wq_sz 70h[4:0]. */
	printf("QUERY_RQ %u: %s (cqn %u, log_wq_sz %u)\n", rqn, err ? strerror(err) : "ok",
	       get(qout, 0x28, 23, 0), get(qout, 0x70, 4, 0));
	if (err || get(qout, 0x28, 23, 0) != cqn || get(qout, 0x70, 4, 0) != 6)
		return 18;
	memset(qin, 0, sizeof qin);
	memset(qout, 0, sizeof qout);
	put(qin, 0x00, 31, 16, 0x919);
	put(qin, 0x08, 23, 0, rqtn);
	err = mlx5dv_devx_obj_query(rqt, qin, sizeof qin, qout, 0x114);
	/* QUERY_RQT (T362): the rqtc at 20h; rq_num[0] at 110h. */
	printf("QUERY_RQT %u: %s (rq_num[0] %u)\n", rqtn, err ? strerror(err) : "ok",
	       get(qout, 0x110, 23, 0));
	if (err || get(qout, 0x110, 23, 0) != rqn)
		return 19;
	if ((err = mlx5dv_devx_obj_destroy(rqt)) || (err = mlx5dv_devx_obj_destroy(rq))) {
		printf("DESTROY_RQT / DESTROY_RQ: %s\n", strerror(err));
		return 20;
	}
	printf("RQT and RQ destroyed\n");
	return 0;
}

/* A transport domain (ALLOC_TRANSPORT_DOMAIN 0x816, §12.3.18) and a TIS of prio 2 on it
 * (CREATE_TIS 0x912, §12.9.1 T299: the context at 20h, T50 prio 00h[19:16], transport_domain
 * 24h[23:0]); QUERY_TIS (0x915, T312: the context at 10h) returns both; then both are freed
 * (the driver's destroy commands, DESTROY_TIS and DEALLOC_TRANSPORT_DOMAIN). 0 or a step. */
static int td_and_tis(struct ibv_context *ctx)
{
	uint8_t tdin[0x10] = { 0 }, tisin[0xC0] = { 0 };
	uint32_t td = 0, tisn = 0;
	put(tdin, 0x00, 31, 16, 0x816);
	struct mlx5dv_devx_obj *tdo =
		devx_create(ctx, "ALLOC_TRANSPORT_DOMAIN", tdin, sizeof tdin, &td, 0x08);
	if (!tdo)
		return 12;
	put(tisin, 0x00, 31, 16, 0x912);
	put(tisin, 0x20, 19, 16, 2);
	put(tisin, 0x44, 23, 0, td);
	struct mlx5dv_devx_obj *tis = devx_create(ctx, "CREATE_TIS", tisin, sizeof tisin, &tisn, 0x08);
	if (!tis)
		return 13;
	uint8_t qin[0x10] = { 0 }, qout[0xB0] = { 0 };
	put(qin, 0x00, 31, 16, 0x915);
	put(qin, 0x08, 23, 0, tisn);
	int err = mlx5dv_devx_obj_query(tis, qin, sizeof qin, qout, sizeof qout);
	printf("QUERY_TIS %u: %s (prio %u, transport_domain %u)\n", tisn,
	       err ? strerror(err) : "ok", get(qout, 0x10, 19, 16), get(qout, 0x34, 23, 0));
	if (err || get(qout, 0x10, 19, 16) != 2 || get(qout, 0x34, 23, 0) != td)
		return 14;
	if ((err = mlx5dv_devx_obj_destroy(tis)) || (err = mlx5dv_devx_obj_destroy(tdo))) {
		printf("DESTROY_TIS / DEALLOC_TRANSPORT_DOMAIN: %s\n", strerror(err));
		return 15;
	}
	printf("TIS and transport domain freed\n");
	return 0;
}

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
	/* A CQ in UMEMs 0 (buffer: 64 CQEs of 64 B, the 4 KB page) and 2 (the record) through
	 * DevX, on the driver's EQ and a DevX UAR. */
	uint32_t eqn = 0, cqn = 0;
	if (mlx5dv_devx_query_eqn(ctx, 0, &eqn)) {
		printf("mlx5dv_devx_query_eqn: %s\n", strerror(errno));
		return 7;
	}
	struct mlx5dv_devx_uar *uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (!uar) {
		printf("mlx5dv_devx_alloc_uar: %s\n", strerror(errno));
		return 7;
	}
	struct mlx5dv_devx_obj *cq = create_cq(ctx, eqn, uar->page_id, umem[0]->umem_id,
						umem[2]->umem_id, &cqn);
	if (!cq)
		return 8;
	/* QUERY_CQ (0x402, T269): cqn 08h; the output's cqc at 10h has log_cq_size 0Ch[28:24]. */
	uint8_t qin[0x10] = { 0 }, qout[0x110] = { 0 };
	put(qin, 0x00, 31, 16, 0x402);
	put(qin, 0x08, 23, 0, cqn);
	int err = mlx5dv_devx_obj_query(cq, qin, sizeof qin, qout, sizeof qout);
	printf("QUERY_CQ %u: %s (log_cq_size %u, c_eqn %u)\n", cqn, err ? strerror(err) : "ok",
	       get(qout, 0x1C, 28, 24), get(qout, 0x24, 7, 0));
	if (err || get(qout, 0x1C, 28, 24) != 6 || get(qout, 0x24, 7, 0) != eqn)
		return 9;
	/* The CQ keeps its UMEMs: deregistering one now must fail (D-UMEM-5). */
	if (mlx5dv_devx_umem_dereg(umem[0]) == 0) {
		printf("mlx5dv_devx_umem_dereg of the CQ's buffer succeeded while the CQ lives\n");
		return 10;
	}
	printf("umem 0 kept by the CQ: ok (refused)\n");
	/* An RQ in UMEMs 1 (buffer) and 2 (record, after the CQ's) on that CQ, and an RQT of it. */
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct mlx5dv_pd dvpd = { 0 };
	struct mlx5dv_obj dvo = { .pd = { .in = pd, .out = &dvpd } };
	if (!pd || mlx5dv_init_obj(&dvo, MLX5DV_OBJ_PD)) {
		printf("ibv_alloc_pd / mlx5dv_init_obj: %s\n", strerror(errno));
		return 16;
	}
	int step = rq_and_rqt(ctx, dvpd.pdn, cqn, umem[1]->umem_id, umem[2]->umem_id);
	if (step)
		return step;
	if (ibv_dealloc_pd(pd))
		return 16;
	if ((err = mlx5dv_devx_obj_destroy(cq))) {
		printf("DESTROY_CQ: %s\n", strerror(err));
		return 11;
	}
	printf("DESTROY_CQ: ok\n");
	mlx5dv_devx_free_uar(uar);
	for (int i = 0; i < NUMEMS; i++) {
		err = mlx5dv_devx_umem_dereg(umem[i]);
		if (err) {
			printf("mlx5dv_devx_umem_dereg %d: %s\n", i, strerror(err));
			return 5;
		}
		free(buf[i]);
	}
	printf("umems deregistered\n");
	if ((step = td_and_tis(ctx)))
		return step;
	if (ibv_close_device(ctx)) {
		printf("ibv_close_device failed\n");
		return 6;
	}
	ibv_free_device_list(list);
	printf("closed\n");
	return 0;
}
