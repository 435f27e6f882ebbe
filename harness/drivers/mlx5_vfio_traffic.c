/* Milestone M2 of docs/drivers.md, its second part: traffic through rdma-core's mlx5_vfio
 * provider, unmodified (Debian's libmlx5), on libnicref through the VFIO front end.
 *
 * After the driver's bring-up the program builds, through DevX (mlx5dv_devx_obj_create and
 * its query/modify/destroy) with every ring and doorbell record in DevX UMEMs
 * (mlx5dv_devx_umem_reg, docs/umem.md D-UMEM-7): a send CQ and a receive CQ, a transport
 * domain and a TIS, an SQ on the TIS (RST -> RDY), an RQ (RST -> RDY, its 64 WQEs posted), a
 * Direct TIR over the RQ, an RQT of the RQ and an Indirect (RSS, Toeplitz) TIR over it, and a
 * NIC_RX root flow table whose one entry forwards every frame to
 * the TIR; each object is queried back.
 *
 * Send: three SEND WQEs (PRM §7.4.4.1 T26 ctrl, T28 Ethernet segment with 18 bytes of inline
 * headers, T38 a data pointer through the MR's lkey for the other 42 bytes), each the way a
 * driver posts one (§7.4.3.1: the WQE in the SQ buffer, the doorbell record's send counter,
 * then the UAR): the first rings the doorbell register (the WQE's first 8 bytes, one 64-bit
 * store at offset 0 of Blue Flame buffer 0, §7.2.2); the second goes through Blue Flame (the
 * whole 64-byte WQE into the odd buffer, §7.2.2.1, by eight 64-bit stores in ascending order:
 * what rdma-core's mmio_memcpy_x64 is on x86-64), so the doorbell dwords reach the device
 * first and the model runs the WQE from memory (D-VFIO-9); the third goes through Blue Flame
 * with the doorbell quadword written last, and the model runs the copy. The program polls
 * the send CQ for the three completions (requester CQEs, T67/T68: opcode 0, s_wqe_opcode 0Ah,
 * wqe_counter 0, 1, 2). The frames appear on the model's wire (`nicref drive` counts them;
 * `--pcap` writes them).
 *
 * Receive: `nicref drive --inject harness/drivers/frames/bcast60.pcap@0x92f` injects one frame
 * on port 1 once SET_FLOW_TABLE_ROOT has completed: 60 bytes, broadcast, source
 * 02:00:00:00:00:99, EtherType 88B5h, payload bytes 0, 1, ... 45. The program polls the
 * receive CQ (sleeping 1 ms between polls, virtual time) and checks the responder CQE (T67/T68:
 * opcode 2, byte_cnt 60, wqe_counter 0, the flow entry's flow_tag) and the 60 bytes in WQE
 * 0's buffer. Without an injected frame it says so and exits with the step's number.
 *
 * Then everything is destroyed in reverse (but the root flow table, which PRM Rev 0.40 gives no
 * way to unset: its DESTROY_FLOW_TABLE is refused, D-FT-8, and TEARDOWN_HCA takes it) and the
 * device closed. Each step prints one line;
 * the exit status is 0 when every step succeeded, else the number of the step that failed.
 * usage: mlx5_vfio_traffic [PCI_NAME] */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "devx_util.h"

/* The frames: what the program sends (dst 02:00:00:00:00:02, a station that is not the
 * function, so it goes to the wire, D-TX-5) and what the injected capture holds. */
#define FRAME_LEN 60u
#define INLINE_LEN 18u /* the Ethernet header and 4 payload bytes, inline (T28) */
#define LOG_CQ 6u
#define LOG_SQ 6u  /* 64 WQEBBs of 64 bytes */
#define LOG_RQ 6u  /* 64 WQEs of one 16-byte data segment */
#define RX_BUF 1024u
#define RX_AT (64u * 1024u) /* the receive buffers in the data, after what is sent */
#define NSEND 3u
#define FLOW_TAG 0x00C0DEu /* the entry's flow_tag, which the receive CQE carries (T430, T68) */
#define DATA_LEN (RX_AT + 64u * RX_BUF)

enum { U_SCQ, U_RCQ, U_SQ, U_RQ, U_DBR, NUMEMS };
/* Doorbell records in U_DBR (T24, §7.12.2): send CQ 00h, receive CQ 40h, SQ 80h, RQ C0h. */
#define DBR_SCQ 0x00u
#define DBR_RCQ 0x40u
#define DBR_SQ 0x80u
#define DBR_RQ 0xC0u
#define UMEM_BYTES 4096u

static uint8_t *ubuf[NUMEMS];
static struct mlx5dv_devx_umem *umem[NUMEMS];

/* What the run made, for the steps after and the teardown. */
struct run {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct mlx5dv_devx_uar *uar;
	uint8_t *data;
	uint64_t data_va;
	uint32_t pdn, eqn, scqn, rcqn, td, tisn, sqn, rqn, tirn, rqtn, rss_tirn, ft, fg;
	struct mlx5dv_devx_obj *scq, *rcq, *tdo, *tis, *sq, *rq, *tir, *rqt, *rss_tir, *fto, *fgo,
		*fte;
};

/* CREATE_CQ (0x400, PRM §12.7.1 T261) of 2^LOG_CQ 64-byte CQEs on EQ eqn and UAR uar: the
 * buffer is UMEM u, the doorbell record byte dbr of UMEM U_DBR (cqc T76 at 10h: log_cq_size
 * 0Ch[28:24], uar_page 0Ch[23:0], c_eqn 14h[7:0], dbr_addr 38h; beyond PRM Rev 0.40, the
 * public mlx5_ifc.h cqc dbr_umem_valid 00h[25], dbr_umem_id 04h and create_cq_in cq_umem_id
 * 58h, cq_umem_valid 5Ch[31]). Every CQE starts invalid and software-owned (opcode Fh, owner
 * 0), as drivers initialise them. */
static struct mlx5dv_devx_obj *create_cq(struct ibv_context *ctx, const char *name, uint32_t eqn,
					 uint32_t uar, int u, uint32_t dbr, uint32_t *cqn)
{
	uint8_t in[0x110] = { 0 };
	for (unsigned i = 0; i < 1u << LOG_CQ; i++)
		ubuf[u][i * 64 + 63] = 0xF0;
	put(in, 0x00, 31, 16, 0x400);
	put(in, 0x10, 25, 25, 1);
	put(in, 0x14, 31, 0, umem[U_DBR]->umem_id);
	put(in, 0x1C, 28, 24, LOG_CQ);
	put(in, 0x1C, 23, 0, uar);
	put(in, 0x24, 7, 0, eqn);
	put(in, 0x4C, 31, 0, dbr);
	put(in, 0x58, 31, 0, umem[u]->umem_id);
	put(in, 0x5C, 31, 31, 1);
	return devx_create(ctx, name, in, sizeof in, cqn, 0x08);
}

/* The WQ of an SQ or RQ at byte 50h of its CREATE command (T55 at 30h of the context):
 * wq_type 1 cyclic, pd, uar_page, dbr_addr (the record's byte in its UMEM), log_wq_stride,
 * log_wq_sz; beyond PRM Rev 0.40 (mlx5_ifc.h wq_bits) dbr_umem_valid 24h[31], wq_umem_valid
 * 24h[30], dbr_umem_id 28h, wq_umem_id 2Ch. */
static void wq(uint8_t *in, uint32_t pdn, uint32_t uar, uint32_t dbr, unsigned log_stride,
	       unsigned log_sz, int u)
{
	put(in, 0x50, 31, 28, 1);
	put(in, 0x58, 23, 0, pdn);
	put(in, 0x5C, 23, 0, uar);
	put(in, 0x64, 31, 0, dbr);
	put(in, 0x70, 19, 16, log_stride);
	put(in, 0x70, 4, 0, log_sz);
	put(in, 0x74, 31, 30, 3);
	put(in, 0x78, 31, 0, umem[U_DBR]->umem_id);
	put(in, 0x7C, 31, 0, umem[u]->umem_id);
}

/* The frame the program sends: dst 02:00:00:00:00:02, src 02:00:00:00:00:01, EtherType
 * 88B5h (local experimental), payload 0xA0, 0xA1, ... */
static void tx_frame(uint8_t *f, unsigned seq)
{
	static const uint8_t hdr[14] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xB5 };
	memcpy(f, hdr, sizeof hdr);
	for (unsigned i = 14; i < FRAME_LEN; i++)
		f[i] = (uint8_t)(0xA0 + i - 14 + seq * 0x40);
}

/* The injected frame (harness/drivers/frames/bcast60.pcap): broadcast, src 02:00:00:00:00:99,
 * EtherType 88B5h, payload 0, 1, ... 45. */
static void rx_frame(uint8_t *f)
{
	static const uint8_t hdr[14] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0, 0, 0x99,
					 0x88, 0xB5 };
	memcpy(f, hdr, sizeof hdr);
	for (unsigned i = 14; i < FRAME_LEN; i++)
		f[i] = (uint8_t)(i - 14);
}

/* One SEND WQE of 64 bytes (ds 4) at WQEBB idx (T26, T28, T38): ctrl opcode 0Ah, wqe_index,
 * sq_number, ds, ce 10b (a CQE always); the Ethernet segment with inline_header_size 18 (2
 * bytes in the segment at 0Eh, 16 in the next 16 bytes); a data pointer to the remaining
 * FRAME_LEN - 18 bytes of the frame at iova `data` through lkey. */
static void build_send(uint8_t *w, uint16_t idx, uint32_t sqn, const uint8_t *frame,
		       uint32_t lkey, uint64_t data)
{
	memset(w, 0, 64);
	put(w, 0x00, 23, 8, idx);
	put(w, 0x00, 7, 0, 0x0A);
	put(w, 0x04, 31, 8, sqn);
	put(w, 0x04, 5, 0, 4);
	put(w, 0x08, 3, 2, 2);
	put(w, 0x1C, 25, 16, INLINE_LEN);
	memcpy(w + 0x1E, frame, 2);
	memcpy(w + 0x20, frame + 2, INLINE_LEN - 2);
	put(w, 0x30, 30, 0, FRAME_LEN - INLINE_LEN);
	put(w, 0x34, 31, 0, lkey);
	put(w, 0x38, 31, 0, (uint32_t)(data >> 32));
	put(w, 0x3C, 31, 0, (uint32_t)data);
}

/* The doorbell record's counters (T24): receive at 00h, send at 04h, big-endian. */
static void record(int off, uint32_t counter)
{
	__atomic_thread_fence(__ATOMIC_RELEASE); /* the WQE before the record (§7.4.3.1) */
	uint8_t *r = ubuf[U_DBR] + off;
	r[0] = (uint8_t)(counter >> 24), r[1] = (uint8_t)(counter >> 16);
	r[2] = (uint8_t)(counter >> 8), r[3] = (uint8_t)counter;
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the record before the doorbell */
}

/* The CQE of counter n, if the device has handed it over (opcode not Fh, owner bit = the
 * pass, §8.17.3.1): its address, else NULL. */
static volatile uint8_t *poll_cq(int u, unsigned n)
{
	volatile uint8_t *c = ubuf[u] + (n & ((1u << LOG_CQ) - 1)) * 64;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	uint8_t op = c[63];
	if (op >> 4 == 0xF || (op & 1) != ((n >> LOG_CQ) & 1))
		return NULL;
	return c;
}

static volatile uint8_t *wait_cq(int u, unsigned n, unsigned tries)
{
	for (unsigned t = 0; t < tries; t++) {
		volatile uint8_t *c = poll_cq(u, n);
		if (c)
			return c;
		usleep(1000);
	}
	return NULL;
}

/* The UMEMs, a PD and an MR over the data (what is sent, the receive buffers), the driver's
 * EQ and a DevX UAR. 0 or a step. */
static int memory(struct run *r)
{
	for (int i = 0; i < NUMEMS; i++) {
		if (posix_memalign((void **)&ubuf[i], 4096, UMEM_BYTES))
			return 3;
		memset(ubuf[i], 0, UMEM_BYTES);
		umem[i] = mlx5dv_devx_umem_reg(r->ctx, ubuf[i], UMEM_BYTES, IBV_ACCESS_LOCAL_WRITE);
		if (!umem[i]) {
			printf("mlx5dv_devx_umem_reg %d: %s\n", i, strerror(errno));
			return 3;
		}
	}
	printf("umems: ok (%d)\n", NUMEMS);
	if (posix_memalign((void **)&r->data, 4096, DATA_LEN))
		return 4;
	memset(r->data, 0, DATA_LEN);
	r->pd = ibv_alloc_pd(r->ctx);
	struct mlx5dv_pd dvpd = { 0 };
	struct mlx5dv_obj dvo = { .pd = { .in = r->pd, .out = &dvpd } };
	if (!r->pd || mlx5dv_init_obj(&dvo, MLX5DV_OBJ_PD)) {
		printf("ibv_alloc_pd / mlx5dv_init_obj: %s\n", strerror(errno));
		return 4;
	}
	r->pdn = dvpd.pdn;
	r->mr = ibv_reg_mr(r->pd, r->data, DATA_LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!r->mr) {
		printf("ibv_reg_mr: %s\n", strerror(errno));
		return 4;
	}
	/* The MKey's start_addr is the buffer's address (mlx5_vfio maps it for DMA at an IOVA of
	 * its own, which its MTTs hold): the WQEs carry virtual addresses, as with kernel verbs. */
	r->data_va = (uint64_t)(uintptr_t)r->data;
	printf("pd %u, mr lkey 0x%x: ok\n", r->pdn, r->mr->lkey);
	r->uar = mlx5dv_devx_alloc_uar(r->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (mlx5dv_devx_query_eqn(r->ctx, 0, &r->eqn) || !r->uar) {
		printf("mlx5dv_devx_query_eqn / alloc_uar: %s\n", strerror(errno));
		return 5;
	}
	return 0;
}

/* The CQs, a transport domain and a TIS, the SQ on it (RST -> RDY, queried). 0 or a step. */
static int send_objects(struct run *r, uint8_t *in, uint8_t *out)
{
	r->scq = create_cq(r->ctx, "CREATE_CQ send", r->eqn, r->uar->page_id, U_SCQ, DBR_SCQ, &r->scqn);
	r->rcq = create_cq(r->ctx, "CREATE_CQ receive", r->eqn, r->uar->page_id, U_RCQ, DBR_RCQ,
			   &r->rcqn);
	if (!r->scq || !r->rcq)
		return 6;
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x816);
	r->tdo = devx_create(r->ctx, "ALLOC_TRANSPORT_DOMAIN", in, 0x10, &r->td, 0x08);
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x912); /* CREATE_TIS, T299: prio 0, the domain at 24h of 20h */
	put(in, 0x44, 23, 0, r->td);
	r->tis = r->tdo ? devx_create(r->ctx, "CREATE_TIS", in, 0xC0, &r->tisn, 0x08) : NULL;
	if (!r->tis)
		return 7;
	/* The inline mode the vport requires (HCA_CAP wqe_inline_mode 1, §7.9.3: QUERY_NIC_VPORT_
	 * CONTEXT 0x754, §12.16.3 T481: the context at 10h, min_wqe_inline_mode 00h[26:24]). */
	memset(in, 0, 0x400);
	memset(out, 0, 0x110);
	put(in, 0x00, 31, 16, 0x754);
	int err = mlx5dv_devx_general_cmd(r->ctx, in, 0x10, out, 0x110);
	unsigned inline_mode = get(out, 0x10, 26, 24);
	printf("QUERY_NIC_VPORT_CONTEXT: %s (min_wqe_inline_mode %u)\n", err ? strerror(err) : "ok",
	       inline_mode);
	if (err || inline_mode > 1) /* 0 none, 1 L2: the 18 inline bytes cover both */
		return 8;
	/* The SQ (CREATE_SQ 0x904, T315: the sqc T60/T61 at 20h, min_wqe_inline_mode 00h[26:24]
	 * the vport's, state RST, cqn 08h, tis_lst_sz 20h[31:16] 1, tis_num_0 2Ch; its WQ at 50h,
	 * 64-byte WQEBBs) on the TIS. */
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x904);
	put(in, 0x20, 26, 24, inline_mode);
	put(in, 0x28, 23, 0, r->scqn);
	put(in, 0x40, 31, 16, 1);
	put(in, 0x4C, 23, 0, r->tisn);
	wq(in, r->pdn, r->uar->page_id, DBR_SQ, 6, LOG_SQ, U_SQ);
	r->sq = devx_create(r->ctx, "CREATE_SQ", in, 0x110, &r->sqn, 0x08);
	if (!r->sq || devx_to_rdy(r->sq, 0x905, r->sqn, "MODIFY_SQ"))
		return 8;
	/* QUERY_SQ (0x907, T322): the sqc at 20h: state 20h[23:20] RDY, cqn 28h, tis_num_0 4Ch. */
	err = devx_query(r->sq, 0x907, r->sqn, out, 0x110);
	printf("QUERY_SQ %u: %s (state %u, cqn %u, tis_num_0 %u)\n", r->sqn,
	       err ? strerror(err) : "ok", get(out, 0x20, 23, 20), get(out, 0x28, 23, 0),
	       get(out, 0x4C, 23, 0));
	if (err || get(out, 0x20, 23, 20) != 1 || get(out, 0x28, 23, 0) != r->scqn ||
	    get(out, 0x4C, 23, 0) != r->tisn)
		return 9;
	return 0;
}

/* The RQ, its WQEs posted, RST -> RDY; a Direct TIR over it; an RQT of it and an RSS TIR over
 * that; each TIR queried. 0 or a step. */
static int receive_objects(struct run *r, uint8_t *in, uint8_t *out)
{
	/* The RQ (CREATE_RQ 0x908, T329: rqc T52/T53 at 20h, cqn 08h; 16-byte WQEs), its 64 WQEs
	 * posted (one data segment each, T38: RX_BUF bytes of the MR) and the record's receive
	 * counter 64 before RST -> RDY. */
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x908);
	put(in, 0x28, 23, 0, r->rcqn);
	wq(in, r->pdn, 0, DBR_RQ, 4, LOG_RQ, U_RQ); /* uar_page 0: SQ only (T55) */
	r->rq = devx_create(r->ctx, "CREATE_RQ", in, 0x110, &r->rqn, 0x08);
	if (!r->rq)
		return 10;
	uint64_t rx_va = r->data_va + RX_AT;
	for (unsigned i = 0; i < 1u << LOG_RQ; i++) {
		uint8_t *w = ubuf[U_RQ] + i * 16;
		put(w, 0x00, 30, 0, RX_BUF);
		put(w, 0x04, 31, 0, r->mr->lkey);
		put(w, 0x08, 31, 0, (uint32_t)((rx_va + i * RX_BUF) >> 32));
		put(w, 0x0C, 31, 0, (uint32_t)(rx_va + i * RX_BUF));
	}
	record(DBR_RQ, 1u << LOG_RQ);
	if (devx_to_rdy(r->rq, 0x909, r->rqn, "MODIFY_RQ"))
		return 10;
	/* The Direct TIR (CREATE_TIR 0x900, T45 at 20h: disp_type 04h[31:28] 0, inline_rqn 1Ch,
	 * transport_domain 24h); QUERY_TIR (0x903, T296: the tirc at 20h). */
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x900);
	put(in, 0x3C, 23, 0, r->rqn);
	put(in, 0x44, 23, 0, r->td);
	r->tir = devx_create(r->ctx, "CREATE_TIR", in, 0x110, &r->tirn, 0x08);
	if (!r->tir)
		return 11;
	int err = devx_query(r->tir, 0x903, r->tirn, out, 0x110);
	printf("QUERY_TIR %u: %s (inline_rqn %u, transport_domain %u)\n", r->tirn,
	       err ? strerror(err) : "ok", get(out, 0x3C, 23, 0), get(out, 0x44, 23, 0));
	if (err || get(out, 0x3C, 23, 0) != r->rqn || get(out, 0x44, 23, 0) != r->td)
		return 11;
	/* An RQT of the RQ (CREATE_RQT 0x916, T350: the rqtc T59 at 20h, rqt_max_size 14h,
	 * rqt_actual_size 18h, rq_num[0] F0h) and an Indirect TIR over it with RSS (T45:
	 * disp_type 1, indirect_table 20h, rx_hash_fn 24h[31:28] 2 Toeplitz, the 40-byte key at
	 * 28h, rx_hash_field_selector_outer 50h: IPv4, src and dst address, T47); QUERY_TIR
	 * returns them. Created, queried and destroyed; the traffic goes through the Direct TIR. */
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x916);
	put(in, 0x34, 15, 0, 1);
	put(in, 0x38, 15, 0, 1);
	put(in, 0x110, 23, 0, r->rqn);
	r->rqt = devx_create(r->ctx, "CREATE_RQT", in, 0x114, &r->rqtn, 0x08);
	if (!r->rqt)
		return 18;
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x900);
	put(in, 0x24, 31, 28, 1);
	put(in, 0x40, 23, 0, r->rqtn);
	put(in, 0x44, 31, 28, 2);
	put(in, 0x44, 23, 0, r->td);
	for (unsigned i = 0; i < 40; i++)
		in[0x48 + i] = (uint8_t)(0x6D + 7 * i);
	put(in, 0x70, 29, 0, 3);
	r->rss_tir = devx_create(r->ctx, "CREATE_TIR rss", in, 0x110, &r->rss_tirn, 0x08);
	if (!r->rss_tir)
		return 18;
	err = devx_query(r->rss_tir, 0x903, r->rss_tirn, out, 0x110);
	int key_ok = 1;
	for (unsigned i = 0; i < 40; i++)
		key_ok &= out[0x48 + i] == (uint8_t)(0x6D + 7 * i);
	printf("QUERY_TIR %u: %s (disp_type %u, indirect_table %u, rx_hash_fn %u, fields 0x%x, key "
	       "%s)\n", r->rss_tirn, err ? strerror(err) : "ok", get(out, 0x24, 31, 28),
	       get(out, 0x40, 23, 0), get(out, 0x44, 31, 28), get(out, 0x70, 29, 0),
	       key_ok ? "as given" : "differs");
	if (err || get(out, 0x24, 31, 28) != 1 || get(out, 0x40, 23, 0) != r->rqtn ||
	    get(out, 0x44, 31, 28) != 2 || get(out, 0x70, 29, 0) != 3 || !key_ok)
		return 18;
	return 0;
}

/* Three SEND WQEs (PRM §7.4.3.1, §7.2.2, §7.2.2.1) and their completions. 0 or a step. */
static int send(struct run *r)
{
	uint8_t frame[NSEND][FRAME_LEN];
	for (unsigned k = 0; k < NSEND; k++) {
		tx_frame(frame[k], k);
		memcpy(r->data + k * 256, frame[k] + INLINE_LEN, FRAME_LEN - INLINE_LEN);
	}
	volatile uint8_t *bf = (volatile uint8_t *)r->uar->reg_addr; /* UAR + 800h, buffer 0 */
	uint32_t lkey = r->mr->lkey;
	/* WQE 0: the doorbell register, the WQE's first 8 bytes at buffer 0. */
	uint8_t *w0 = ubuf[U_SQ];
	build_send(w0, 0, r->sqn, frame[0], lkey, r->data_va);
	record(DBR_SQ + 4, 1);
	mmio_write64(bf, w0);
	/* WQE 1: Blue Flame, the whole WQE into the odd buffer (256 bytes on: T145
	 * log_bf_reg_size 9, two buffers), 64 bits at a time in ascending order. */
	uint8_t *w1 = ubuf[U_SQ] + 64;
	build_send(w1, 1, r->sqn, frame[1], lkey, r->data_va + 256);
	record(DBR_SQ + 4, 2);
	for (unsigned q = 0; q < 8; q++)
		mmio_write64(bf + 256 + q * 8, w1 + q * 8);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* WQE 2: Blue Flame again, now the even buffer (the buffers alternate, §7.2.2), the WQE's
	 * quadwords 1 to 7 first and its first quadword, the doorbell, last: "it may, though it
	 * is not recommended, be written out-of-order" (§7.2.2.1). */
	uint8_t *w2 = ubuf[U_SQ] + 128;
	build_send(w2, 2, r->sqn, frame[2], lkey, r->data_va + 512);
	record(DBR_SQ + 4, 3);
	for (unsigned q = 1; q < 8; q++)
		mmio_write64(bf + q * 8, w2 + q * 8);
	mmio_write64(bf, w2);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (unsigned k = 0; k < NSEND; k++) {
		volatile uint8_t *c = wait_cq(U_SCQ, k, 100);
		if (!c) {
			printf("send CQE %u: none\n", k);
			return 12;
		}
		/* T67/T68: a requester CQE, opcode 0; s_wqe_opcode 38h[31:24]; wqe_counter
		 * 3Ch[31:16]. */
		printf("send CQE %u: opcode %u, s_wqe_opcode 0x%02x, wqe_counter %u\n", k,
		       get(c, 0x3C, 7, 4), get(c, 0x38, 31, 24), get(c, 0x3C, 31, 16));
		if (get(c, 0x3C, 7, 4) != 0 || get(c, 0x38, 31, 24) != 0x0A ||
		    get(c, 0x3C, 31, 16) != k)
			return 12;
	}
	return 0;
}

/* A NIC_RX root flow table forwarding everything to the Direct TIR (§12.14), then the frame
 * the harness injects: its CQE and its bytes. 0 or a step. */
static int receive(struct run *r, uint8_t *in, uint8_t *out)
{
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x930); /* CREATE_FLOW_TABLE, T384: type 0 NIC_RX, log_size 0 */
	r->fto = devx_create(r->ctx, "CREATE_FLOW_TABLE", in, 0x40, &r->ft, 0x08);
	memset(in, 0, 0x400);
	put(in, 0x00, 31, 16, 0x933); /* CREATE_FLOW_GROUP, T406: index 0 to 0, no criteria */
	put(in, 0x14, 23, 0, r->ft);
	r->fgo = r->fto ? devx_create(r->ctx, "CREATE_FLOW_GROUP", in, 0x400, &r->fg, 0x08) : NULL;
	/* SET_FLOW_TABLE_ENTRY, T428: index 0; the flow context at 40h (T430: group_id 04h,
	 * flow_tag 08h[23:0], action 0Ch[15:0] 4 forward, destination_list_size 10h 1; the list
	 * at 300h, T434 destination_type 2 TIR). */
	uint8_t fin[0x348] = { 0 };
	put(fin, 0x00, 31, 16, 0x936);
	put(fin, 0x14, 23, 0, r->ft);
	put(fin, 0x44, 31, 0, r->fg);
	put(fin, 0x48, 23, 0, FLOW_TAG);
	put(fin, 0x4C, 15, 0, 4);
	put(fin, 0x50, 23, 0, 1);
	put(fin, 0x340, 31, 24, 2);
	put(fin, 0x340, 23, 0, r->tirn);
	r->fte = r->fgo ? devx_create(r->ctx, "SET_FLOW_TABLE_ENTRY", fin, sizeof fin, NULL, 0) : NULL;
	if (!r->fte)
		return 13;
	memset(in, 0, 0x400);
	memset(out, 0, 0x10);
	put(in, 0x00, 31, 16, 0x92F); /* SET_FLOW_TABLE_ROOT, T398 */
	put(in, 0x14, 23, 0, r->ft);
	int err = mlx5dv_devx_general_cmd(r->ctx, in, 0x40, out, 0x10);
	printf("SET_FLOW_TABLE_ROOT %u: %s (status 0x%02x)\n", r->ft, err ? strerror(err) : "ok",
	       out[0]);
	if (err)
		return 13;
	/* The frame the harness injects arrives: WQE 0's buffer, its CQE. */
	volatile uint8_t *c = wait_cq(U_RCQ, 0, 100);
	if (!c) {
		printf("receive CQE 0: none (was a frame injected? nicref drive --inject)\n");
		return 14;
	}
	uint8_t want[FRAME_LEN];
	rx_frame(want);
	int same = memcmp(r->data + RX_AT, want, FRAME_LEN) == 0;
	/* T67/T68: a responder CQE, opcode 2 (RESP_SEND), byte_cnt 2Ch, wqe_counter 3Ch[31:16],
	 * flow_tag 38h[23:0] the entry's (T430 "carried to the CQE"). */
	printf("receive CQE 0: opcode %u, byte_cnt %u, wqe_counter %u, flow_tag 0x%x; the buffer %s "
	       "the frame\n", get(c, 0x3C, 7, 4), get(c, 0x2C, 31, 0), get(c, 0x3C, 31, 16),
	       get(c, 0x38, 23, 0), same ? "holds" : "does not hold");
	if (get(c, 0x3C, 7, 4) != 2 || get(c, 0x2C, 31, 0) != FRAME_LEN ||
	    get(c, 0x3C, 31, 16) != 0 || get(c, 0x38, 23, 0) != FLOW_TAG || !same)
		return 14;
	return 0;
}

/* Everything destroyed in reverse, but the root flow table. 0 or a step. */
static int teardown(struct run *r)
{
	struct mlx5dv_devx_obj *objs[] = { r->fte, r->fgo, r->tir, r->rss_tir, r->rqt, r->rq,
					   r->sq,  r->tis, r->tdo, r->rcq,     r->scq };
	int err;
	for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) {
		if ((err = mlx5dv_devx_obj_destroy(objs[i]))) {
			printf("destroy %zu: %s\n", i, strerror(err));
			return 15;
		}
		/* PRM Rev 0.40 has no way to unset the NIC_RX root (§12.14.4), and the model
		 * refuses to destroy it (D-FT-8, FT_IS_ROOT): the table stays until TEARDOWN_HCA.
		 * Once its entry and group are gone, the refusal is checked. */
		if (i == 1) {
			if (mlx5dv_devx_obj_destroy(r->fto) == 0) {
				printf("DESTROY_FLOW_TABLE of the root succeeded\n");
				return 15;
			}
			printf("DESTROY_FLOW_TABLE of the root: refused (D-FT-8), kept\n");
		}
	}
	printf("objects destroyed\n");
	mlx5dv_devx_free_uar(r->uar);
	for (int i = 0; i < NUMEMS; i++)
		if ((err = mlx5dv_devx_umem_dereg(umem[i]))) {
			printf("mlx5dv_devx_umem_dereg %d: %s\n", i, strerror(err));
			return 16;
		}
	if (ibv_dereg_mr(r->mr) || ibv_dealloc_pd(r->pd))
		return 16;
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
	static struct run r;
	r.ctx = ibv_open_device(list[0]);
	if (!r.ctx) {
		printf("ibv_open_device: %s (the driver's bring-up failed)\n", strerror(errno));
		return 2;
	}
	printf("bring-up: ok\n");
	static uint8_t in[0x400], out[0x400];
	int step;
	if ((step = memory(&r)) || (step = send_objects(&r, in, out)) ||
	    (step = receive_objects(&r, in, out)) || (step = send(&r)) ||
	    (step = receive(&r, in, out)) || (step = teardown(&r)))
		return step;
	if (ibv_close_device(r.ctx)) {
		printf("ibv_close_device failed\n");
		return 17;
	}
	ibv_free_device_list(list);
	for (int i = 0; i < NUMEMS; i++)
		free(ubuf[i]);
	free(r.data);
	printf("closed\n");
	return 0;
}
