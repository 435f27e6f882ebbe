/* The work requests of a QP in host memory ([MLX5] qp.h; PRM §7.4.4.1 for the segments it
 * shares with the Ethernet SQ): send WQEs (ctrl T26, then mlx5_wqe_raddr_seg for RDMA WRITE and
 * READ or mlx5_wqe_datagram_seg for UD, then data segments T38 or one inline segment T39),
 * receive WQEs (scatter lists T40 in the QP's RQ, or its SRQ/RMP), the gather and the scatter
 * through the MKeys (obj/mkey.h) with the QP's PD, and the responder's remote access through an
 * R_Key ([IBTA] §10.6.3.2? the R_Key check: the key, its PD, the remote right, the bounds). */
#include <string.h>

#include "roce/roce.h"

#define OCTWORD 16u
#define WQEBB 64u
#define ZERO_MEANS_2G (1ull << 31) /* T38: "A byte count value of zero means 2Gbyte" */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Which segment follows the ctrl for an opcode, by service ([MLX5] mlx5_ib post_send). */
static bool op_ok(unsigned st, unsigned op)
{
	switch (op) {
	case ROCE_WQE_SEND:
	case ROCE_WQE_SEND_IMM:
		return st == QP_ST_RC || st == QP_ST_UD;
	case ROCE_WQE_RDMA_WRITE:
	case ROCE_WQE_RDMA_WRITE_IMM:
	case ROCE_WQE_RDMA_READ:
		return st == QP_ST_RC;
	default:
		return false;
	}
}

static bool has_raddr(unsigned op)
{
	return op == ROCE_WQE_RDMA_WRITE || op == ROCE_WQE_RDMA_WRITE_IMM ||
	       op == ROCE_WQE_RDMA_READ;
}

static void read_av(const uint8_t *d, struct roce_swqe *w)
{
	size_t n = PRM_SIZE_send_wqe_datagram;
	w->ud_qkey = (uint32_t)PRM_GET(send_wqe_datagram, q_key, d, n);
	w->ud_dqpn = (uint32_t)PRM_GET(send_wqe_datagram, dqp_dct, d, n);
	uint64_t hi = PRM_GET(send_wqe_datagram, rmac_47_16, d, n);
	uint64_t lo = PRM_GET(send_wqe_datagram, rmac_15_0, d, n);
	for (unsigned i = 0; i < 4; i++)
		w->av.rmac[i] = (uint8_t)(hi >> (8 * (3 - i)));
	w->av.rmac[4] = (uint8_t)(lo >> 8);
	w->av.rmac[5] = (uint8_t)lo;
	w->av.tclass = (uint8_t)PRM_GET(send_wqe_datagram, tclass, d, n);
	w->av.hop_limit = (uint8_t)PRM_GET(send_wqe_datagram, hop_limit, d, n);
	w->av.sgid_index = (uint8_t)PRM_GET(send_wqe_datagram, sgid_index, d, n);
	w->av.flow_label = (uint32_t)PRM_GET(send_wqe_datagram, flow_label, d, n);
	w->av.udp_sport = (uint16_t)PRM_GET(send_wqe_datagram, udp_sport, d, n);
	(void)nicref_field_get_bytes(d, n, PRM_FIELD(send_wqe_datagram, rgid), w->av.rgid, 16);
}

uint8_t roce_sq_wqe(struct nicref_dev *dev, struct roce_qp *qp, uint16_t index,
		    struct roce_swqe *w)
{
	uint8_t b[63 * OCTWORD];
	memset(w, 0, offsetof(struct roce_swqe, sge));
	w->nsge = 0;
	w->index = index;
	if (roce_qp_wq_read(dev, qp, true, index, 0, b, OCTWORD))
		return ROCE_SYND_LOCAL_QP_OP_ERR;
	size_t n = OCTWORD;
	w->opcode = (uint8_t)PRM_GET(send_wqe_ctrl, opcode, b, n);
	w->ds = (uint8_t)PRM_GET(send_wqe_ctrl, ds, b, n);
	w->ce = (uint8_t)PRM_GET(send_wqe_ctrl, ce, b, n);
	w->se = PRM_GET(send_wqe_ctrl, se, b, n) != 0;
	w->fence = PRM_GET(send_wqe_ctrl, fm, b, n) != 0;
	w->imm = (uint32_t)PRM_GET(send_wqe_ctrl, umr_mkey, b, n); /* mlx5: ctrl 0Ch = imm */
	w->bbs = (uint8_t)(w->ds ? (w->ds * OCTWORD + WQEBB - 1) / WQEBB : 1);
	/* [MLX5]: the ctrl names the QP (qpn_ds) and its WQE index; a WQE of another index, an
	 * opcode the service does not take or segments the ds does not hold is a local QP
	 * operation error (MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR). */
	size_t len = (size_t)w->ds * OCTWORD;
	if (PRM_GET(send_wqe_ctrl, wqe_index, b, n) != index ||
	    PRM_GET(send_wqe_ctrl, sq_number, b, n) != qp->qpn || !op_ok(qp->st, w->opcode) ||
	    w->ds < 1)
		return ROCE_SYND_LOCAL_QP_OP_ERR;
	if (roce_qp_wq_read(dev, qp, true, index, 0, b, len))
		return ROCE_SYND_LOCAL_QP_OP_ERR;
	size_t off = OCTWORD;
	if (has_raddr(w->opcode)) {
		if (off + PRM_SIZE_send_wqe_raddr > len)
			return ROCE_SYND_LOCAL_QP_OP_ERR;
		w->raddr = PRM_GET(send_wqe_raddr, raddr, b + off, len - off);
		w->rkey = (uint32_t)PRM_GET(send_wqe_raddr, rkey, b + off, len - off);
		off += PRM_SIZE_send_wqe_raddr;
	} else if (qp->st == QP_ST_UD) {
		if (off + PRM_SIZE_send_wqe_datagram > len)
			return ROCE_SYND_LOCAL_QP_OP_ERR;
		read_av(b + off, w);
		off += PRM_SIZE_send_wqe_datagram;
	}
	uint64_t total = 0;
	while (off < len) {
		const uint8_t *s = b + off;
		size_t left = len - off;
		if (PRM_GET(send_wqe_data_inline, inline, s, left)) {
			/* T39: one inline segment carries the data after its byte count. */
			size_t bc = (size_t)PRM_GET(send_wqe_data_inline, byte_count, s, left);
			if (w->inline_data || w->nsge || 4 + bc > left || bc > sizeof w->inl)
				return ROCE_SYND_LOCAL_LENGTH_ERR;
			memcpy(w->inl, s + 4, bc);
			w->inline_data = true;
			total = bc;
			off += (4 + bc + OCTWORD - 1) / OCTWORD * OCTWORD;
			continue;
		}
		if (w->inline_data || w->nsge == ROCE_WQE_MAX_SGE)
			return ROCE_SYND_LOCAL_QP_OP_ERR;
		uint64_t bc = PRM_GET(send_wqe_data_ptr, byte_count, s, left);
		struct roce_sge *g = &w->sge[w->nsge++];
		g->len = (uint32_t)(bc ? bc : ZERO_MEANS_2G);
		g->lkey = (uint32_t)PRM_GET(send_wqe_data_ptr, l_key, s, left);
		g->addr = PRM_GET(send_wqe_data_ptr, local_address_63_32, s, left) << 32 |
			  PRM_GET(send_wqe_data_ptr, local_address_31_0, s, left);
		total += g->len;
		off += OCTWORD;
	}
	/* [IFC] qpc log_msg_max: the longest message the QP sends ([IBTA] §9.7.x: 2^31). */
	if (total > (1ull << 31))
		return ROCE_SYND_LOCAL_LENGTH_ERR;
	w->length = (uint32_t)total;
	return 0;
}

/* ---- Gather and scatter ----------------------------------------------------------------- */

struct xfer {
	struct nicref_dev *dev;
	uint8_t *buf;    /* where the bytes go (read) or come from (write) */
	bool write;
	size_t n;
};
enum { XFER_DMA = 1 };

static int piece(void *ctx, uint64_t pa, uint64_t len)
{
	struct xfer *x = ctx;
	int rc = x->write ? dev_dma_write(x->dev, pa, x->buf + x->n, (size_t)len)
			  : dev_dma_read(x->dev, pa, x->buf + x->n, (size_t)len);
	if (rc)
		return XFER_DMA;
	x->n += (size_t)len;
	return 0;
}

/* Bytes [off, off + len) of a scatter/gather list, each piece through its MKey. */
static uint8_t walk(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_sge *sge,
		    uint32_t nsge, uint32_t off, uint8_t *buf, uint32_t len, unsigned access)
{
	bool rlkey = PRM_GET(qpc, rlky, qp->qp->ctx, QP_CTX_BYTES) != 0;
	uint32_t done = 0;
	for (uint32_t i = 0; i < nsge && done < len; i++) {
		const struct roce_sge *g = &sge[i];
		if (off >= g->len) {
			off -= g->len;
			continue;
		}
		uint32_t take = g->len - off < len - done ? g->len - off : len - done;
		struct mkey_req r = { .key = g->lkey, .pd = qp->qp->pd, .va = g->addr + off,
				      .len = take, .access = access, .rlkey = rlkey };
		struct xfer x = { dev, buf + done, access == MKEY_LOCAL_WRITE, 0 };
		int rc = mkey_translate(dev, &r, piece, &x);
		if (rc < 0)
			return mkey_err_syndrome(rc, access);
		if (rc > 0)
			return ROCE_SYND_LOCAL_PROT_ERR; /* a bus error (D-TX-9) */
		done += take;
		off = 0;
	}
	return done == len ? 0 : ROCE_SYND_LOCAL_LENGTH_ERR;
}

uint8_t roce_gather(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_swqe *w,
		    uint32_t off, uint8_t *dst, uint32_t len)
{
	if ((uint64_t)off + len > w->length)
		return ROCE_SYND_LOCAL_LENGTH_ERR;
	if (w->inline_data) {
		memcpy(dst, w->inl + off, len);
		return 0;
	}
	return walk(dev, qp, w->sge, w->nsge, off, dst, len, MKEY_LOCAL_READ);
}

uint8_t roce_scatter(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_rwqe *w,
		     uint32_t off, const uint8_t *src, uint32_t len)
{
	if ((uint64_t)off + len > w->length)
		return ROCE_SYND_LOCAL_LENGTH_ERR;
	return walk(dev, qp, w->sge, w->nsge, off, (uint8_t *)(uintptr_t)src, len,
		    MKEY_LOCAL_WRITE);
}

/* ---- Receive WQEs ---------------------------------------------------------------------- */

/* A receive WQE: scatter entries (T40) up to the first with the Null L_Key (§7.4.1.2) or the
 * stride's end. */
static void read_rwqe(const uint8_t *b, size_t len, struct roce_rwqe *w)
{
	w->nsge = 0;
	uint64_t total = 0;
	for (size_t o = 0; o + OCTWORD <= len && w->nsge < ROCE_WQE_MAX_SGE; o += OCTWORD) {
		const uint8_t *s = b + o;
		uint32_t key = be32(s + 4);
		uint32_t bc = be32(s) & 0x7FFFFFFFu;
		if (key == 0x100u && bc == 0)
			break; /* the Null scatter entry */
		struct roce_sge *g = &w->sge[w->nsge++];
		g->len = bc;
		g->lkey = key;
		g->addr = (uint64_t)be32(s + 8) << 32 | be32(s + 12);
		total += bc;
	}
	w->length = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

int roce_rq_take(struct nicref_dev *dev, struct roce_qp *qp, struct roce_rwqe *w)
{
	uint8_t b[ROCE_WQE_MAX_SGE * OCTWORD];
	if (qp->qp->holds & QP_HOLDS_RMP) {
		/* The SRQ (an RMP, [IFC] rq_type 1): its WQEs as an RQ on it takes them. */
		struct rmp *m = obj_get(dev, OBJ_RMP, qp->qp->rmpn);
		if (!m || m->state != WQ_RDY)
			return -1;
		uint16_t rec;
		if (wq_dbr_read(dev, &m->wq, false, &rec)) {
			rmp_hw_error(dev, m); /* §7.7.2.2: a failure de-queuing */
			return -1;
		}
		m->wq.sw_counter = rec;
		if (m->wq.hw_counter == rec)
			return -2;
		uint32_t idx = m->wq.hw_counter;
		size_t stride = (size_t)1 << m->wq.log_stride;
		size_t n = stride < sizeof b ? stride : sizeof b;
		size_t skip = 0;
		if (m->wq.type == 0) {
			/* T42/T43: a linked-list WQE starts with its next segment (D-RMP-1); a
			 * Next_WQE_index beyond the ring leads modulo the ring (D-RX-16). */
			idx = rq_ll_take(dev, &m->wq, m->head, qp->qpn);
			skip = OCTWORD;
		}
		if (wq_read(dev, &m->wq, idx, 0, b, n)) {
			rmp_hw_error(dev, m);
			return -1;
		}
		if (m->wq.type == 0)
			m->head = (uint16_t)PRM_GET(srq_wqe_next, next_wqe_index, b, n);
		m->wq.hw_counter++;
		read_rwqe(b + skip, n - skip, w);
		w->index = idx & 0xFFFF;
		w->from_rmp = true;
		return 0;
	}
	if (PRM_GET(qpc, rq_type, qp->qp->ctx, QP_CTX_BYTES) != 0)
		return -2; /* no RQ */
	uint16_t rec;
	if (roce_qp_dbr(dev, qp, false, &rec))
		return -1;
	if ((uint16_t)qp->rq_head == rec)
		return -2;
	size_t stride = (size_t)1 << qp->rq.log_stride;
	size_t n = stride < sizeof b ? stride : sizeof b;
	if (roce_qp_wq_read(dev, qp, false, qp->rq_head, 0, b, n))
		return -1;
	read_rwqe(b, n, w);
	w->index = qp->rq_head & 0xFFFF;
	w->from_rmp = false;
	qp->rq_head++;
	return 0;
}

int roce_remote(struct nicref_dev *dev, struct roce_qp *qp, uint32_t rkey, uint64_t va,
		uint32_t len, unsigned access, uint8_t *buf)
{
	struct mkey_req r = { .key = rkey, .pd = qp->qp->pd, .va = va, .len = len, .access = access };
	struct xfer x = { dev, buf, access == MKEY_REMOTE_WRITE, 0 };
	int rc = mkey_translate(dev, &r, buf ? piece : NULL, &x);
	return rc;
}
