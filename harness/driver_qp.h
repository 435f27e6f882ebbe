/* Reference-driver helpers for RoCE queue pairs (issue 17; the public mlx5 QP commands of
 * docs/roce.md), on top of harness/driver.h and the queue helpers (driver_eq.h, driver_cq.h,
 * driver_mkey.h, driver_sq.h for posting, driver_rq.h for receive WQEs):
 *
 *   - a QP stack brought up as a driver must: PD, UAR, an EQ, a send and a receive CQ per QP, an
 *     MKey with remote rights over a data region, the device's own GID (SET_ROCE_ADDRESS, its MAC
 *     on the vport's unicast list when it is not the permanent address), each QP created in RST
 *     and taken RST -> INIT;
 *   - connecting a QP to a peer (INIT -> RTR -> RTS with the primary address path naming the
 *     peer's GID, MAC and QP), and a connected RC or UD pair of two devices in one call;
 *   - send WQEs of a QP (ctrl, the remote-address or datagram segment, data) posted through the
 *     SQ helpers of driver_sq.h (the QP's SQ is a ring like an SQ's; its doorbell names the QP);
 *     receive WQEs through driver_rq.h's ring.
 *
 * Placement and defaults are the vectors' (docs/vectors.md "RoCE", refdrv_qp_defaults). Like the
 * other helpers it never breaks a rule of the driver. Helpers return 0, the command status of
 * T128, or -1 with d->error naming the step. */
#ifndef NICREF_DRIVER_QP_H
#define NICREF_DRIVER_QP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_rq.h"
#include "driver_sq.h"

#define REFDRV_QP_MAX 8u
#define REFDRV_QP_MKEY_TAG 0x3Cu /* mkey[7:0] of the data MKey: key = index << 8 | tag */
#define REFDRV_QP_SPAN 0x100000ull /* QP i's buffer and CQs are i spans from their bases */
#define REFDRV_QP_ST_RC 0u         /* qpc st ([QPH] MLX5_QP_ST_*) */
#define REFDRV_QP_ST_UD 2u

/* QP states (docs/roce.md "States"). */
enum refdrv_qp_state { REFDRV_QPS_RST = 0, REFDRV_QPS_INIT, REFDRV_QPS_RTR, REFDRV_QPS_RTS };

/* One end's address: the GID table entry of a device, or a peer. */
struct refdrv_qp_addr {
	bool ipv6;
	uint8_t gid[16]; /* IPv4: ::ffff:a.b.c.d */
	uint64_t mac;    /* mac[47:0] */
	unsigned gid_index;
};

struct refdrv_qp_attr {
	unsigned st, nqp;
	enum refdrv_qp_state to;
	unsigned port, mtu;
	unsigned log_sq_size, log_rq_size, log_rq_stride; /* stride 16 << log_rq_stride bytes */
	unsigned log_cq_size, cqe_sz;
	uint64_t data_addr, data_size;
	bool mk_lr, mk_lw, mk_rr, mk_rw, mk_a; /* the data MKey's access (T10) */
	unsigned rre, rwe, rae;
	uint32_t sq_psn, rq_psn, q_key;
	unsigned retry_count, rnr_retry, min_rnr_nak, ack_timeout, log_sra_max, log_rra_max;
	unsigned hop_limit;
	uint16_t udp_sport; /* QP i's is udp_sport + i */
	/* Every QP takes its receive WQEs from RMP rmpn, which the caller made (qpc rq_type 1,
	 * srqn_rmpn_xrqn): the QP's buffer then holds the SQ only, and the caller posts receive
	 * WQEs to the RMP. */
	bool on_rmp;
	uint32_t rmpn;
	struct refdrv_qp_addr local;
	/* host placement (bases; QP i at + i spans, its records at + 0x40 i / 0x80 i) */
	uint64_t eq_buf, qp_dbr, cq_dbr, qp_buf, cq_buf;
	/* The caller's last word on QP i's primary address path: the ads bytes (docs/roce.md
	 * layout `ads`) after the driver filled them; NULL for none. */
	void (*path)(void *ctx, unsigned qp, uint8_t *ads, size_t len);
	void *path_ctx;
};

/* The defaults of docs/vectors.md "RoCE" (one device: local 192.0.2.1, MAC 02:4E:49:43:52:46). */
void refdrv_qp_defaults(struct refdrv_qp_attr *a);
/* An address from text: IPv4 dotted or IPv6 (inet_pton). 0, or -1. */
int refdrv_qp_addr_ip(struct refdrv_qp_addr *x, const char *ip);

struct refdrv_qp {
	uint32_t qpn, remote_qpn;
	enum refdrv_qp_state state;
	struct refdrv_cq scq, rcq;
	struct refdrv_sq_stack sq;   /* the send ring's posting state (driver_sq.h): sqn = qpn */
	struct refdrv_rq_ring rq;    /* the receive ring (driver_rq.h) */
	uint64_t buf, dbr;
	struct refdrv_qp_addr peer;  /* after refdrv_qp_connect */
};

struct refdrv_qp_stack {
	struct refdrv_qp_attr a;
	uint32_t pd, uar, mkey_index, key; /* key: the data MKey's L_Key / R_Key */
	struct refdrv_eq eq;
	unsigned nqp;
	struct refdrv_qp qp[REFDRV_QP_MAX];
};

/* Brings the stack up (docs/vectors.md "qp_setup"), the QPs to INIT at most (to RST when
 * a->to is RST). */
int refdrv_qp_stack_up(struct refdrv *d, const struct refdrv_qp_attr *a, struct refdrv_qp_stack *s);
/* Takes QP i from INIT as far as s->a.to: INIT2RTR (RC: the path to peer, remote_qpn, rq_psn,
 * mtu, ...) and RTR2RTS (sq_psn, ...). */
int refdrv_qp_connect(struct refdrv *d, struct refdrv_qp_stack *s, unsigned i, uint32_t remote_qpn,
		      const struct refdrv_qp_addr *peer);
/* A connected pair: both stacks up, then QP i of each connected to QP i of the other. On
 * failure *which says the device (0 a, 1 b). */
int refdrv_qp_pair(struct refdrv *da, const struct refdrv_qp_attr *aa, struct refdrv_qp_stack *sa,
		   struct refdrv *db, const struct refdrv_qp_attr *ab, struct refdrv_qp_stack *sb,
		   int *which);

/* Send WQE opcodes of a QP (mlx5 MLX5_OPCODE_*). */
enum {
	REFDRV_QP_OP_NOP = 0x00,
	REFDRV_QP_OP_RDMA_WRITE = 0x08,
	REFDRV_QP_OP_RDMA_WRITE_IMM = 0x09,
	REFDRV_QP_OP_SEND = 0x0A,
	REFDRV_QP_OP_SEND_IMM = 0x0B,
	REFDRV_QP_OP_RDMA_READ = 0x10,
};
int refdrv_qp_opcode_find(const char *name); /* -1 if unknown */

/* The remote-address segment (mlx5_wqe_raddr_seg, layout send_wqe_raddr) appended to w. */
long refdrv_wqe_raddr(struct refdrv_wqe *w, uint64_t raddr, uint32_t rkey);
/* The datagram segment (mlx5_wqe_datagram_seg / mlx5_av, layout send_wqe_datagram). */
struct refdrv_qp_av {
	uint32_t dqpn, q_key;
	uint64_t mac;
	uint8_t gid[16];
	unsigned hop_limit, tclass, gid_index;
	uint32_t flow_label;
	uint16_t udp_sport;
};
long refdrv_wqe_datagram(struct refdrv_wqe *w, const struct refdrv_qp_av *av);
/* The immediate (ctrl 0Ch, mlx5 imm), big-endian. */
void refdrv_wqe_imm(struct refdrv_wqe *w, uint32_t imm);

#endif
