/* Shared by the RoCE transport tests (roce_*_test.c): one device with two RoCEv2 GIDs on port 1
 * (so two of its QPs talk through the loopback queue, D-ROCE-12) and a third address on the
 * wire, QPs created with a buffer (pas[], D-ROCE-4) and taken to RTS, receive and send WQEs
 * posted in the public mlx5 layout, frames captured from ops.wire_tx, CQEs read from the CQ.
 * Expected values come from IBTA / RoCEv2 / mlx5 public facts (docs/roce.md), never from the
 * model's output. */
#ifndef NICREF_TESTS_ROCE_UTIL_H
#define NICREF_TESTS_ROCE_UTIL_H

#include <stdint.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_mkey.h"
#include "driver_tir.h"
#include "qp_util.h"

#define RT_DATA_SIZE 0x10000u
#define RT_MKEY_TAG 0x5Au
#define RT_FRAMES_MAX 64
#define RT_QKEY 0x11223344u

struct rt_frame {
	uint8_t b[9100];
	size_t len;
};

struct rt_qp {
	uint32_t qpn;
	uint64_t buf, dbr;
	unsigned log_rq, log_sq, rq_stride_log; /* rq stride 16 << rq_stride_log */
	uint16_t sq_pc;   /* the next WQEBB */
	uint16_t rq_pc;   /* receive WQEs posted */
};

static struct {
	struct qt q;
	uint32_t mkey_index, lkey;
	uint64_t data;
	struct refdrv_cq cq; /* the QPs' send and receive CQ (64 CQEs) */
	struct rt_frame frames[RT_FRAMES_MAX];
	unsigned nframes;
} rt;

static inline void rt_capture(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	(void)ctx, (void)port;
	if (rt.nframes < RT_FRAMES_MAX && len <= sizeof rt.frames[0].b) {
		memcpy(rt.frames[rt.nframes].b, frame, len);
		rt.frames[rt.nframes++].len = len;
	}
}

/* GID index 0 = ::ffff:192.168.1.1, index 1 = ::ffff:192.168.1.2 (RoCEv2, IPv4). */
static inline void rt_setup_profile(const struct nicref_profile *p)
{
	memset(&rt, 0, sizeof rt);
	rt.q = qt_up(p);
	struct tl_dev *t = rt.q.t;
	t->dev->core.cfg.ops.wire_tx = rt_capture;
	cr_assert_eq(qt_set_gid(&rt.q, 0, 1, 1, 2, 0), 0);
	cr_assert_eq(qt_set_gid(&rt.q, 1, 1, 2, 2, 0), 0);
	rt.data = tl_hostmem(t, RT_DATA_SIZE);
	struct refdrv_mkey_attr m = { .access_mode = 0, .pd = rt.q.pd, .tag = RT_MKEY_TAG,
				      .lw = true, .rr = true, .rw = true,
				      .start_addr = rt.data, .len = RT_DATA_SIZE };
	cr_assert_eq(refdrv_create_mkey(&t->d, &m, &rt.mkey_index), 0, "%s", t->d.error);
	rt.lkey = rt.mkey_index << 8 | RT_MKEY_TAG;
	rt.cq = tl_cq(t, 6, rt.q.eqn);
	tl_mark(&t->tr);
}

static inline void rt_setup(void)
{
	rt_setup_profile(NULL);
}

static inline void rt_teardown(void)
{
	tl_down(rt.q.t);
}

/* CREATE_QP with a one-page buffer: the RQ (16 WQEs of 64 B) then the SQ (16 WQEBBs). */
static inline struct rt_qp rt_create(unsigned st, const struct qt_field *extra)
{
	struct tl_dev *t = rt.q.t;
	struct rt_qp r = { .log_rq = 4, .log_sq = 4, .rq_stride_log = 2 };
	r.buf = tl_hostmem(t, 4096);
	r.dbr = tl_hostmem(t, 64);
	tl_begin(t, "create_qp_in", "CREATE_QP");
	tl_set(t, "create_qp_in", "st", st);
	tl_set(t, "create_qp_in", "pd", rt.q.pd);
	tl_set(t, "create_qp_in", "uar_page", t->uar);
	tl_set(t, "create_qp_in", "cqn_snd", rt.cq.cqn);
	tl_set(t, "create_qp_in", "cqn_rcv", rt.cq.cqn);
	tl_set(t, "create_qp_in", "log_sq_size", r.log_sq);
	tl_set(t, "create_qp_in", "log_rq_size", r.log_rq);
	tl_set(t, "create_qp_in", "log_rq_stride", r.rq_stride_log);
	tl_set(t, "create_qp_in", "dbr_addr", r.dbr);
	tl_set(t, "create_qp_in", "mtu", 3); /* 1024 */
	tl_set_elem(t, "create_qp_in", "pas", 0, r.buf);
	for (; extra && extra->name; extra++)
		tl_set(t, "create_qp_in", extra->name, extra->v);
	int s = tl_run_paged(t, 0x118, 0x10);
	cr_assert_eq(s, 0, "CREATE_QP 0x%x %s", s, tl_rule_of(t->d.last_syndrome));
	r.qpn = (uint32_t)tl_get(t, "create_qp_out", "qpn");
	return r;
}

/* UD: RST2INIT (port 1, P_Key index 0, Q_Key), INIT2RTR, RTR2RTS (SQ PSN). */
static inline struct rt_qp rt_ud(void)
{
	struct rt_qp r = rt_create(QT_UD, NULL);
	const struct qt_field init[] = { { "primary_address_path_vhca_port_num", 1 },
					 { "q_key", RT_QKEY },
					 { NULL, 0 } };
	cr_assert_eq(qt_modify(&rt.q, "rst2init_qp_in", "RST2INIT_QP", r.qpn, 0, init), 0);
	cr_assert_eq(qt_modify(&rt.q, "init2rtr_qp_in", "INIT2RTR_QP", r.qpn, 0, NULL), 0);
	const struct qt_field rts[] = { { "next_send_psn", 0x100 }, { NULL, 0 } };
	cr_assert_eq(qt_modify(&rt.q, "rtr2rts_qp_in", "RTR2RTS_QP", r.qpn, 0, rts), 0);
	return r;
}

/* A receive WQE of one scatter entry over data[off, off + len) (T40), then the record. */
static inline void rt_recv(struct rt_qp *r, uint32_t off, uint32_t len)
{
	struct tl_dev *t = rt.q.t;
	uint8_t w[64] = { 0 };
	tl_put32(w, len);
	tl_put32(w + 4, rt.lkey);
	uint64_t a = rt.data + off;
	tl_put32(w + 8, (uint32_t)(a >> 32));
	tl_put32(w + 12, (uint32_t)a);
	tl_put32(w + 20, 0x100); /* the Null entry ends the list (§7.4.1.2) */
	unsigned stride = 16u << r->rq_stride_log;
	tl_mem_write(t, r->buf + (uint64_t)(r->rq_pc % (1u << r->log_rq)) * stride, w, stride);
	r->rq_pc++;
	uint8_t rec[4];
	tl_put32(rec, r->rq_pc);
	tl_mem_write(t, r->dbr, rec, 4);
}

/* A UD SEND WQE of data[off, off + len) to (dqpn, qkey) at rgid from GID index sgid: ctrl
 * (dword 2 `ctrl2`: T26 CE 3:2, SE 1), datagram, one data segment; the record; the doorbell
 * when `ring` (else the device sees the WQE at the next doorbell). */
static inline uint16_t rt_ud_wqe(struct rt_qp *r, uint32_t dqpn, uint32_t qkey, unsigned sgid,
				 const uint8_t rgid[16], uint32_t off, uint32_t len, bool imm,
				 uint32_t imm_data, uint32_t ctrl2, bool ring)
{
	struct tl_dev *t = rt.q.t;
	uint8_t w[128] = { 0 };
	unsigned ds = 1 + 3 + 1;
	uint16_t idx = r->sq_pc;
	unsigned op = imm ? 0x0B : 0x0A;
	tl_put32(w, (uint32_t)idx << 8 | op);
	tl_put32(w + 4, r->qpn << 8 | ds);
	tl_put32(w + 8, ctrl2);
	tl_put32(w + 12, imm_data);
	uint8_t *d = w + 16;
	tl_put32(d, qkey);
	tl_put32(d + 8, dqpn);
	/* rmac 00:02:c9:00:00:<last byte of rgid>: the MAC of the GID entry that holds rgid
	 * (qt_set_gid, rt_set_gid6), what a conforming peer resolves the address to (D-ROCE-23) */
	tl_put32(d + 0x14, 0x0002C900u);
	tl_put32(d + 0x18, (uint32_t)rgid[15] << 16 | 64); /* rmac[15:0], tclass 0, hop 64 */
	tl_put32(d + 0x1C, 1u << 30 | (uint32_t)sgid << 20); /* GRH, the source GID index */
	memcpy(d + 0x20, rgid, 16);
	uint8_t *s = w + 64;
	tl_put32(s, len);
	tl_put32(s + 4, rt.lkey);
	uint64_t a = rt.data + off;
	tl_put32(s + 8, (uint32_t)(a >> 32));
	tl_put32(s + 12, (uint32_t)a);
	uint64_t sq = r->buf + ((16ull << r->rq_stride_log) << r->log_rq);
	for (unsigned bb = 0; bb < 2; bb++)
		tl_mem_write(t, sq + (uint64_t)((idx + bb) % (1u << r->log_sq)) * 64, w + 64 * bb,
			     64);
	r->sq_pc = (uint16_t)(idx + 2);
	uint8_t rec[4];
	tl_put32(rec, r->sq_pc);
	tl_mem_write(t, r->dbr + 4, rec, 4);
	if (ring)
		refdrv_sq_doorbell(&t->d, t->uar, 0, r->qpn, idx, op, ds);
	return idx;
}

/* The same with ce 10b (a CQE, MLX5_WQE_CTRL_CQ_UPDATE), rung. */
static inline uint16_t rt_ud_send_to(struct rt_qp *r, uint32_t dqpn, uint32_t qkey,
				     unsigned sgid, const uint8_t rgid[16], uint32_t off,
				     uint32_t len, bool imm, uint32_t imm_data)
{
	return rt_ud_wqe(r, dqpn, qkey, sgid, rgid, off, len, imm, imm_data, 2u << 2, true);
}

/* The same to ::ffff:192.168.1.tag from GID index 0. */
static inline uint16_t rt_ud_send(struct rt_qp *r, uint32_t dqpn, uint32_t qkey, uint8_t tag,
				  uint32_t off, uint32_t len, bool imm, uint32_t imm_data)
{
	const uint8_t rgid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 1, tag };
	return rt_ud_send_to(r, dqpn, qkey, 0, rgid, off, len, imm, imm_data);
}

/* SET_ROCE_ADDRESS of a RoCEv2 IPv6 entry fd00::tag (MAC 02:00:c9:00:00:tag). */
static inline void rt_set_gid6(unsigned index, uint8_t tag)
{
	struct tl_dev *t = rt.q.t;
	tl_begin(t, "set_roce_address_in", "SET_ROCE_ADDRESS");
	tl_set(t, "set_roce_address_in", "roce_address_index", index);
	tl_set(t, "set_roce_address_in", "vhca_port_num", 1);
	uint8_t gid[16] = { 0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, tag };
	tl_set_bytes(t, "set_roce_address_in", "source_l3_address", gid, sizeof gid);
	tl_set(t, "set_roce_address_in", "source_mac_47_32", 0x0002);
	tl_set(t, "set_roce_address_in", "source_mac_31_0", 0xC9000000u | tag);
	tl_set(t, "set_roce_address_in", "roce_version", 2);
	tl_set(t, "set_roce_address_in", "roce_l3_type", 1);
	cr_assert_eq(tl_run_paged(t, 0x30, 0x10), 0);
}

/* The CQE the CQE event #i wrote (its producer index), 64 bytes. */
/* After a test edited the IPv4 header of an untagged RoCEv2 frame f of n bytes: its header
 * checksum (RFC 791) and the ICRC (IBTA §7.8.1, nicref_roce_icrc) made right again, so only the
 * edit is what the device sees. */
static inline void rt_reseal_ipv4(uint8_t *f, size_t n)
{
	f[14 + 10] = f[14 + 11] = 0;
	uint32_t s = 0;
	for (unsigned i = 0; i < 20; i += 2)
		s += (uint32_t)(f[14 + i] << 8 | f[14 + i + 1]);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	f[14 + 10] = (uint8_t)(~s >> 8);
	f[14 + 11] = (uint8_t)~s;
	uint32_t icrc;
	cr_assert_eq(nicref_roce_icrc(f + 14, n - 14, &icrc), 0);
	for (unsigned i = 0; i < 4; i++)
		f[n - 4 + i] = (uint8_t)(icrc >> (8 * i)); /* least significant byte first */
}

/* An untagged IPv4 RoCEv2 frame f of n bytes readdressed to the local GID ::ffff:192.168.1.tag
 * as a conforming peer sends it: the destination IP and the destination MAC of that GID's entry
 * (00:02:c9:00:00:tag, qt_set_gid; D-ROCE-23), then resealed (rt_reseal_ipv4). */
static inline void rt_readdress_ipv4(uint8_t *f, size_t n, uint8_t tag)
{
	static const uint8_t mac[5] = { 0x00, 0x02, 0xC9, 0x00, 0x00 };
	memcpy(f, mac, 5);
	f[5] = tag;
	f[14 + 19] = tag;
	rt_reseal_ipv4(f, n);
}

static inline void rt_cqe(size_t i, uint8_t cqe[64])
{
	const struct nicref_event *e = tl_nth(&rt.q.t->tr, NICREF_EV_CQE, i);
	cr_assert(e, "CQE #%zu", i);
	cr_assert_eq(e->arg[0], rt.cq.cqn);
	tl_mem_read(rt.q.t, rt.cq.a.buf + (e->arg[1] % 64) * 64, cqe, 64);
}

static inline size_t rt_count(enum nicref_event_kind k)
{
	return tl_count(&rt.q.t->tr, k);
}

static inline const struct nicref_event *rt_ev(enum nicref_event_kind k, size_t i)
{
	const struct nicref_event *e = tl_nth(&rt.q.t->tr, k, i);
	cr_assert(e, "event %s #%zu", nicref_event_name(k), i);
	return e;
}

static inline uint64_t rt_drops(enum nicref_roce_drop r)
{
	struct nicref_stats s;
	nicref_stats_get(rt.q.t->dev, &s);
	return s.roce_drops[r];
}

#endif
