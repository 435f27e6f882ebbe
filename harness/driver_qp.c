/* Reference-driver helpers for RoCE queue pairs: harness/driver_qp.h. The QP commands and their
 * fields are the public mlx5 ones (docs/roce.md: [IFC] mlx5_ifc.h, [MLX5IB] mlx5_ib qp.c),
 * written field by field through the library's layouts. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_mkey.h"
#include "driver_qp.h"
#include "driver_vport.h"
#include "driver_wq.h"
#include "nicref/nicref.h"

#define EQ_LOG_SIZE 6u
/* The completion events of the CQs and the asynchronous events of a QP or CQ (T244 bits; the
 * public mlx5 QP event types 01h-08h and 10h-13h, CQ error 04h). */
#define EQ_EVENTS                                                                                 \
	(1ull << 0x01 | 1ull << 0x02 | 1ull << 0x03 | 1ull << 0x04 | 1ull << 0x05 | 1ull << 0x07 | \
	 1ull << 0x10 | 1ull << 0x11 | 1ull << 0x12 | 1ull << 0x13)
#define PAGE 4096u

static int qfail(struct refdrv *d, const char *what, int st)
{
	char why[sizeof d->error];
	snprintf(why, sizeof why, "%s", d->error);
	if (st > 0)
		snprintf(d->error, sizeof d->error, "%s: status 0x%x, syndrome 0x%x", what,
			 (unsigned)st, (unsigned)d->last_syndrome);
	else
		snprintf(d->error, sizeof d->error, "%.40s: %.110s", what, why);
	return st ? st : -1;
}

void refdrv_qp_defaults(struct refdrv_qp_attr *a)
{
	*a = (struct refdrv_qp_attr){
		.st = REFDRV_QP_ST_RC, .nqp = 1, .to = REFDRV_QPS_RTS, .port = 1, .mtu = 3,
		.log_sq_size = 6, .log_rq_size = 6, .log_rq_stride = 2, .log_cq_size = 6,
		.data_addr = 0x70000000ull, .data_size = 0x100000ull,
		.mk_lr = true, .mk_lw = true, .mk_rr = true, .mk_rw = true,
		.rre = 1, .rwe = 1, .rae = 0, .q_key = 0x11111111u,
		.retry_count = 7, .rnr_retry = 7, .min_rnr_nak = 1, .ack_timeout = 14,
		.log_sra_max = 4, .log_rra_max = 4, .hop_limit = 64, .udp_sport = 0xC000,
		.local = { .mac = 0x024E49435246ull },
		.eq_buf = 0x60000000ull, .qp_dbr = 0x60FF0000ull, .cq_dbr = 0x60FE0000ull,
		.qp_buf = 0x61000000ull, .cq_buf = 0x62000000ull,
	};
	refdrv_qp_addr_ip(&a->local, "192.0.2.1");
}

int refdrv_qp_addr_ip(struct refdrv_qp_addr *x, const char *ip)
{
	uint8_t v4[4];
	if (inet_pton(AF_INET, ip, v4) == 1) {
		memset(x->gid, 0, sizeof x->gid);
		x->gid[10] = x->gid[11] = 0xFF; /* ::ffff:a.b.c.d (RoCEv2 Annex A17.4.5.1) */
		memcpy(x->gid + 12, v4, 4);
		x->ipv6 = false;
		return 0;
	}
	if (inet_pton(AF_INET6, ip, x->gid) == 1) {
		x->ipv6 = true;
		return 0;
	}
	return -1;
}

int refdrv_qp_opcode_find(const char *name)
{
	static const struct {
		const char *name;
		int op;
	} ops[] = { { "NOP", REFDRV_QP_OP_NOP },
		    { "RDMA_WRITE", REFDRV_QP_OP_RDMA_WRITE },
		    { "RDMA_WRITE_IMM", REFDRV_QP_OP_RDMA_WRITE_IMM },
		    { "SEND", REFDRV_QP_OP_SEND },
		    { "SEND_IMM", REFDRV_QP_OP_SEND_IMM },
		    { "RDMA_READ", REFDRV_QP_OP_RDMA_READ } };
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (!strcmp(ops[i].name, name))
			return ops[i].op;
	return -1;
}

/* ---- commands ----------------------------------------------------------------------------- */

static int set(void *in, size_t len, const char *L, const char *f, uint64_t v)
{
	return refdrv_field_set(in, len, L, f, v);
}

static int set_bytes(void *in, size_t len, const char *L, const char *f, const void *b, size_t n)
{
	const struct nicref_field *fd = refdrv_field(L, f);
	return fd ? nicref_field_set_bytes(in, len, fd, b, n) : -1;
}

static int opcode(void *in, size_t len, const char *L, const char *name)
{
	return set(in, len, L, "opcode", (uint64_t)refdrv_opcode(name));
}

static int alloc1(struct refdrv *d, const char *op, const char *out_layout, const char *field,
		  uint32_t *h)
{
	uint8_t in[16] = { 0 }, out[16] = { 0 };
	opcode(in, sizeof in, "cmd_in", op);
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*h = (uint32_t)refdrv_field_get(out, sizeof out, out_layout, field);
	return st;
}

static int set_gid(struct refdrv *d, const struct refdrv_qp_attr *a)
{
	const char *L = "set_roce_address_in";
	uint8_t in[0x40] = { 0 }, out[0x10] = { 0 };
	int bad = opcode(in, sizeof in, L, "SET_ROCE_ADDRESS");
	bad |= set(in, sizeof in, L, "roce_address_index", a->local.gid_index);
	bad |= set(in, sizeof in, L, "vhca_port_num", a->port);
	bad |= set_bytes(in, sizeof in, L, "source_l3_address", a->local.gid, 16);
	bad |= set(in, sizeof in, L, "source_mac_47_32", a->local.mac >> 32);
	bad |= set(in, sizeof in, L, "source_mac_31_0", a->local.mac & 0xFFFFFFFFu);
	bad |= set(in, sizeof in, L, "roce_l3_type", a->local.ipv6 ? 1 : 0);
	bad |= set(in, sizeof in, L, "roce_version", 2);
	if (bad) {
		snprintf(d->error, sizeof d->error, "a field of set_roce_address_in does not fit");
		return -1;
	}
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

/* The device's MAC on the vport's unicast list (T16), unless it is the permanent address. */
static int own_mac(struct refdrv *d, uint64_t mac)
{
	struct refdrv_nic_vport v;
	int st = refdrv_query_nic_vport_context(d, REFDRV_LIST_UC, &v, NULL, 0);
	if (st != 0 || v.permanent_address == mac)
		return st;
	struct refdrv_nic_vport m = { .list_type = REFDRV_LIST_UC, .list_size = 1, .list = &mac };
	return refdrv_modify_nic_vport_context(d, REFDRV_VPORT_ADDRESSES_LIST, &m);
}

static uint64_t rq_bytes(const struct refdrv_qp_attr *a)
{
	if (a->on_rmp)
		return 0; /* no RQ in the QP's buffer ([IFC] rq_type 1) */
	return (uint64_t)1 << (a->log_rq_size + 4 + a->log_rq_stride);
}

static uint64_t qp_bytes(const struct refdrv_qp_attr *a)
{
	uint64_t n = rq_bytes(a) + ((uint64_t)64 << a->log_sq_size);
	return (n + PAGE - 1) / PAGE * PAGE;
}

static int create_qp(struct refdrv *d, struct refdrv_qp_stack *s, struct refdrv_qp *q)
{
	const struct refdrv_qp_attr *a = &s->a;
	const char *L = "create_qp_in";
	uint32_t npas = (uint32_t)(qp_bytes(a) / PAGE), len = 0x110 + 8 * npas;
	uint8_t *in = calloc(1, len), out[0x10] = { 0 };
	if (!in) {
		snprintf(d->error, sizeof d->error, "out of memory");
		return -1;
	}
	int bad = opcode(in, len, L, "CREATE_QP");
	bad |= set(in, len, L, "st", a->st);
	bad |= set(in, len, L, "pd", s->pd);
	bad |= set(in, len, L, "uar_page", s->uar);
	bad |= set(in, len, L, "log_sq_size", a->log_sq_size);
	bad |= set(in, len, L, "log_rq_size", a->log_rq_size);
	bad |= set(in, len, L, "log_rq_stride", a->log_rq_stride);
	bad |= set(in, len, L, "rq_type", a->on_rmp ? 1 : 0);
	if (a->on_rmp)
		bad |= set(in, len, L, "srqn_rmpn_xrqn", a->rmpn);
	bad |= set(in, len, L, "cqn_snd", q->scq.cqn);
	bad |= set(in, len, L, "cqn_rcv", q->rcq.cqn);
	bad |= set(in, len, L, "log_page_size", 0); /* 4 KB pages ([IFC]: relative to 4 KB) */
	uint8_t dbr[8];
	for (int i = 0; i < 8; i++)
		dbr[i] = (uint8_t)(q->dbr >> (56 - 8 * i));
	bad |= set_bytes(in, len, L, "dbr_addr", dbr, 8);
	for (uint32_t k = 0; k < npas; k++)
		bad |= refdrv_field_set_elem(in, len, L, "pas", k, q->buf + (uint64_t)k * PAGE);
	int st = bad ? (snprintf(d->error, sizeof d->error, "a field of create_qp_in does not fit"), -1)
		     : refdrv_cmd_paged(d, in, len, out, sizeof out);
	if (st == 0)
		q->qpn = (uint32_t)refdrv_field_get(out, sizeof out, "create_qp_out", "qpn");
	free(in);
	return st;
}

/* A transition command of QP q: the input with its qpc (at 18h) filled by fill. */
static int transition(struct refdrv *d, const char *op, const char *L, struct refdrv_qp *q,
		      void (*fill)(uint8_t *in, size_t len, const char *L, const void *ctx),
		      const void *ctx)
{
	uint8_t in[0x110] = { 0 }, out[0x10] = { 0 };
	opcode(in, sizeof in, L, op);
	set(in, sizeof in, L, "qpn", q->qpn);
	if (fill)
		fill(in, sizeof in, L, ctx);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

struct tctx {
	const struct refdrv_qp_stack *s;
	const struct refdrv_qp *q;
	unsigned i;
};

static void fill_rst2init(uint8_t *in, size_t len, const char *L, const void *ctx)
{
	const struct refdrv_qp_attr *a = &((const struct tctx *)ctx)->s->a;
	set(in, len, L, "primary_address_path_vhca_port_num", a->port);
	set(in, len, L, "primary_address_path_pkey_index", 0);
	if (a->st == REFDRV_QP_ST_UD) {
		set(in, len, L, "q_key", a->q_key);
	} else {
		set(in, len, L, "rre", a->rre);
		set(in, len, L, "rwe", a->rwe);
		set(in, len, L, "rae", a->rae);
	}
}

/* The primary address path (docs/vectors.md "qp_setup"), then the caller's fields over it. */
static void fill_path(uint8_t *in, size_t len, const char *L, const struct tctx *t)
{
	const struct refdrv_qp_attr *a = &t->s->a;
	const struct nicref_field *fl = refdrv_field(L, "primary_address_path_fl");
	const struct nicref_layout *ads = refdrv_layout("ads");
	if (!fl || !ads)
		return;
	size_t at = fl->bit_offset / 8;
	uint8_t p[0x2C] = { 0 };
	if (at + sizeof p > len)
		return;
	set(p, sizeof p, "ads", "vhca_port_num", a->port);
	set(p, sizeof p, "ads", "pkey_index", 0);
	set(p, sizeof p, "ads", "grh", 1);
	set(p, sizeof p, "ads", "src_addr_index", a->local.gid_index);
	set_bytes(p, sizeof p, "ads", "rgid_rip", t->q->peer.gid, 16);
	set(p, sizeof p, "ads", "rmac_47_32", t->q->peer.mac >> 32);
	set(p, sizeof p, "ads", "rmac_31_0", t->q->peer.mac & 0xFFFFFFFFu);
	set(p, sizeof p, "ads", "hop_limit", a->hop_limit);
	set(p, sizeof p, "ads", "udp_sport", (uint16_t)(a->udp_sport + t->i));
	set(p, sizeof p, "ads", "ack_timeout", a->ack_timeout);
	if (a->path)
		a->path(a->path_ctx, t->i, p, sizeof p);
	memcpy(in + at, p, sizeof p);
}

static void fill_init2rtr(uint8_t *in, size_t len, const char *L, const void *ctx)
{
	const struct tctx *t = ctx;
	const struct refdrv_qp_attr *a = &t->s->a;
	if (a->st == REFDRV_QP_ST_UD)
		return; /* UD INIT2RTR requires nothing (docs/roce.md) */
	fill_path(in, len, L, t);
	set(in, len, L, "mtu", a->mtu);
	set(in, len, L, "remote_qpn", t->q->remote_qpn);
	set(in, len, L, "next_rcv_psn", a->rq_psn);
	set(in, len, L, "log_rra_max", a->log_rra_max);
	set(in, len, L, "min_rnr_nak", a->min_rnr_nak);
}

static void fill_rtr2rts(uint8_t *in, size_t len, const char *L, const void *ctx)
{
	const struct tctx *t = ctx;
	const struct refdrv_qp_attr *a = &t->s->a;
	set(in, len, L, "next_send_psn", a->sq_psn);
	if (a->st == REFDRV_QP_ST_UD)
		return;
	set(in, len, L, "primary_address_path_ack_timeout", a->ack_timeout);
	set(in, len, L, "retry_count", a->retry_count);
	set(in, len, L, "rnr_retry", a->rnr_retry);
	set(in, len, L, "log_sra_max", a->log_sra_max);
}

static int qp_cq(struct refdrv *d, struct refdrv_qp_stack *s, uint64_t buf, uint64_t dbr,
		 struct refdrv_cq *cq)
{
	struct refdrv_cq_attr ca = { .buf = buf, .dbr = dbr, .log_cq_size = s->a.log_cq_size,
				     .cqe_sz = s->a.cqe_sz, .uar = s->uar, .eqn = s->eq.eqn };
	int st = refdrv_create_cq(d, &ca, cq);
	if (st == 0)
		refdrv_cq_arm(d, cq, false); /* §7.12.4: an event for the next completion */
	return st;
}

int refdrv_qp_stack_up(struct refdrv *d, const struct refdrv_qp_attr *a, struct refdrv_qp_stack *s)
{
	memset(s, 0, sizeof *s);
	s->a = *a;
	if (a->nqp == 0 || a->nqp > REFDRV_QP_MAX) {
		snprintf(d->error, sizeof d->error, "qp_setup: 1 to %u QPs", REFDRV_QP_MAX);
		return -1;
	}
	int st;
	if ((st = alloc1(d, "ALLOC_PD", "alloc_pd_out", "pd", &s->pd)) != 0)
		return qfail(d, "ALLOC_PD", st);
	if ((st = refdrv_alloc_uar(d, &s->uar)) != 0)
		return qfail(d, "ALLOC_UAR", st);
	struct refdrv_eq_attr ea = { .buf = a->eq_buf, .log_eq_size = EQ_LOG_SIZE, .uar = s->uar,
				     .events = EQ_EVENTS };
	if ((st = refdrv_create_eq(d, &ea, &s->eq)) != 0)
		return qfail(d, "CREATE_EQ", st);
	refdrv_eq_doorbell(d, &s->eq, true);
	for (unsigned i = 0; i < a->nqp; i++) {
		struct refdrv_qp *q = &s->qp[i];
		uint64_t span = (uint64_t)i * REFDRV_QP_SPAN;
		if ((st = qp_cq(d, s, a->cq_buf + span, a->cq_dbr + 0x80ull * i, &q->scq)) != 0)
			return qfail(d, "CREATE_CQ (send)", st);
		if ((st = qp_cq(d, s, a->cq_buf + span + 0x80000, a->cq_dbr + 0x80ull * i + 0x40,
				&q->rcq)) != 0)
			return qfail(d, "CREATE_CQ (receive)", st);
	}
	/* §6.4: the data region, physical addresses, with the remote rights asked for. */
	struct refdrv_mkey_attr ma = { .access_mode = 0, .pd = s->pd, .tag = REFDRV_QP_MKEY_TAG,
				       .lw = a->mk_lw, .rr = a->mk_rr, .rw = a->mk_rw,
				       .start_addr = a->data_addr, .len = a->data_size };
	if ((st = refdrv_create_mkey(d, &ma, &s->mkey_index)) != 0)
		return qfail(d, "CREATE_MKEY", st);
	s->key = s->mkey_index << 8 | REFDRV_QP_MKEY_TAG;
	if ((st = own_mac(d, a->local.mac)) != 0)
		return qfail(d, "MODIFY_NIC_VPORT_CONTEXT (the GID's MAC)", st);
	if ((st = set_gid(d, a)) != 0)
		return qfail(d, "SET_ROCE_ADDRESS", st);
	for (unsigned i = 0; i < a->nqp; i++) {
		struct refdrv_qp *q = &s->qp[i];
		q->buf = a->qp_buf + (uint64_t)i * REFDRV_QP_SPAN;
		q->dbr = a->qp_dbr + 0x40ull * i;
		uint8_t zero[8] = { 0 };
		if (d->ops.mem_write(d->ops.ctx, q->dbr, zero, sizeof zero) != 0)
			return qfail(d, "the QP's doorbell record", -1);
		if ((st = create_qp(d, s, q)) != 0)
			return qfail(d, "CREATE_QP", st);
		s->nqp = i + 1;
		/* The send ring is posted with driver_sq.h's helpers: the SQ after the RQ. */
		q->sq.a.sq_buf = q->buf + rq_bytes(a);
		q->sq.a.sq_dbr = q->dbr;
		q->sq.a.log_sq_size = a->log_sq_size;
		q->sq.uar = s->uar;
		q->sq.sqn = q->qpn;
		q->sq.lkey = s->key;
		q->rq = (struct refdrv_rq_ring){ .buf = q->buf, .dbr = q->dbr,
						 .log_wq_sz = a->log_rq_size,
						 .log_wq_stride = 4 + a->log_rq_stride,
						 .qn = q->qpn };
		if (a->to >= REFDRV_QPS_INIT) {
			struct tctx t = { s, q, i };
			if ((st = transition(d, "RST2INIT_QP", "rst2init_qp_in", q, fill_rst2init,
					     &t)) != 0)
				return qfail(d, "RST2INIT_QP", st);
			q->state = REFDRV_QPS_INIT;
		}
	}
	return 0;
}

int refdrv_qp_connect(struct refdrv *d, struct refdrv_qp_stack *s, unsigned i, uint32_t remote_qpn,
		      const struct refdrv_qp_addr *peer)
{
	if (i >= s->nqp) {
		snprintf(d->error, sizeof d->error, "no QP %u", i);
		return -1;
	}
	struct refdrv_qp *q = &s->qp[i];
	q->remote_qpn = remote_qpn;
	q->peer = *peer;
	struct tctx t = { s, q, i };
	int st;
	if (s->a.to >= REFDRV_QPS_RTR && q->state == REFDRV_QPS_INIT) {
		if ((st = transition(d, "INIT2RTR_QP", "init2rtr_qp_in", q, fill_init2rtr, &t)) != 0)
			return qfail(d, "INIT2RTR_QP", st);
		q->state = REFDRV_QPS_RTR;
	}
	if (s->a.to >= REFDRV_QPS_RTS && q->state == REFDRV_QPS_RTR) {
		if ((st = transition(d, "RTR2RTS_QP", "rtr2rts_qp_in", q, fill_rtr2rts, &t)) != 0)
			return qfail(d, "RTR2RTS_QP", st);
		q->state = REFDRV_QPS_RTS;
	}
	return 0;
}

int refdrv_qp_pair(struct refdrv *da, const struct refdrv_qp_attr *aa, struct refdrv_qp_stack *sa,
		   struct refdrv *db, const struct refdrv_qp_attr *ab, struct refdrv_qp_stack *sb,
		   int *which)
{
	int st;
	*which = 0;
	if ((st = refdrv_qp_stack_up(da, aa, sa)) != 0)
		return st;
	*which = 1;
	if ((st = refdrv_qp_stack_up(db, ab, sb)) != 0)
		return st;
	unsigned n = sa->nqp < sb->nqp ? sa->nqp : sb->nqp;
	for (unsigned i = 0; i < n; i++) {
		*which = 0;
		if ((st = refdrv_qp_connect(da, sa, i, sb->qp[i].qpn, &sb->a.local)) != 0)
			return st;
		*which = 1;
		if ((st = refdrv_qp_connect(db, sb, i, sa->qp[i].qpn, &sa->a.local)) != 0)
			return st;
	}
	return 0;
}

/* ---- WQE segments ------------------------------------------------------------------------- */

/* Appends a zeroed segment of the named layout: its offset, or -1 with w->error. */
static long seg(struct refdrv_wqe *w, const char *layout)
{
	const struct nicref_layout *l = refdrv_layout(layout);
	if (!l) {
		w->error = "the library has no layout for this WQE segment (send_wqe_raddr / "
			   "send_wqe_datagram)";
		return -1;
	}
	size_t n = (l->size + 15) / 16 * 16;
	if (w->len + n > sizeof w->b) {
		w->error = "the WQE is longer than REFDRV_WQE_MAX";
		return -1;
	}
	long at = (long)w->len;
	memset(w->b + w->len, 0, n);
	w->len += n;
	return at;
}

long refdrv_wqe_raddr(struct refdrv_wqe *w, uint64_t raddr, uint32_t rkey)
{
	long at = seg(w, "send_wqe_raddr");
	if (at < 0)
		return -1;
	uint8_t *p = w->b + at, va[8];
	size_t n = w->len - (size_t)at;
	for (int i = 0; i < 8; i++)
		va[i] = (uint8_t)(raddr >> (56 - 8 * i));
	if (set_bytes(p, n, "send_wqe_raddr", "raddr", va, 8) ||
	    set(p, n, "send_wqe_raddr", "rkey", rkey)) {
		w->error = "send_wqe_raddr lacks raddr or rkey";
		return -1;
	}
	return at;
}

long refdrv_wqe_datagram(struct refdrv_wqe *w, const struct refdrv_qp_av *av)
{
	const char *L = "send_wqe_datagram";
	long at = seg(w, L);
	if (at < 0)
		return -1;
	uint8_t *p = w->b + at;
	size_t n = w->len - (size_t)at;
	int bad = set(p, n, L, "q_key", av->q_key);
	bad |= set(p, n, L, "dqp_dct", av->dqpn);
	bad |= set(p, n, L, "udp_sport", av->udp_sport);
	bad |= set(p, n, L, "rmac_47_16", av->mac >> 16);
	bad |= set(p, n, L, "rmac_15_0", av->mac & 0xFFFF);
	bad |= set(p, n, L, "tclass", av->tclass);
	bad |= set(p, n, L, "hop_limit", av->hop_limit);
	bad |= set(p, n, L, "grh", 1);
	bad |= set(p, n, L, "sgid_index", av->gid_index);
	bad |= set(p, n, L, "flow_label", av->flow_label);
	bad |= set_bytes(p, n, L, "rgid", av->gid, 16);
	if (bad) {
		w->error = "send_wqe_datagram lacks a field of mlx5_av, or a value does not fit";
		return -1;
	}
	return at;
}

void refdrv_wqe_imm(struct refdrv_wqe *w, uint32_t imm)
{
	w->b[12] = (uint8_t)(imm >> 24);
	w->b[13] = (uint8_t)(imm >> 16);
	w->b[14] = (uint8_t)(imm >> 8);
	w->b[15] = (uint8_t)imm;
}
