/* The QP's life in the transport: its state made at RST2INIT and let go at 2RST and DESTROY
 * (D-ROCE-3, invariant -601), the flush of its WQEs in ERR ([IBTA] §10.3.1, mlx5
 * WR_FLUSH_ERR), the doorbell rules it shares with an SQ (D-DB-2, D-ROCE-17), UD size and
 * buffer errors (D-ROCE-13, D-ROCE-15), RoCEv2 over IPv6 (the masks of the ICRC, [IBTA-A17]
 * §A17.3.3). */
#include <criterion/criterion.h>

#include "roce/roce.h"
#include "roce_util.h"

TestSuite(roce_qp, .init = rt_setup, .fini = rt_teardown);

static uint8_t cqe_opcode(size_t i, uint8_t *syndrome)
{
	uint8_t c[64];
	rt_cqe(i, c);
	*syndrome = c[0x37];
	return c[0x3F] >> 4;
}

Test(roce_qp, send_doorbells_in_error_flush)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	cr_assert_eq(qt_by_qpn(&rt.q, "qp_2err_in", "2ERR_QP", a.qpn, 0x10), 0);
	tl_mark(&rt.q.t->tr);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 8, false, 0);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 8, false, 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_TX), 0, "nothing sent");
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2);
	uint8_t syn;
	for (unsigned i = 0; i < 2; i++) {
		cr_expect_eq(cqe_opcode(i, &syn), 0xD, "MLX5_CQE_REQ_ERR");
		cr_expect_eq(syn, 0x05, "WR_FLUSH_ERR");
		cr_expect_eq(rt_ev(NICREF_EV_CQE, i)->arg[4], 2 * i, "wqe_counter: WQEBB %u", 2 * i);
	}
}

Test(roce_qp, reset_and_destroy_let_the_state_go)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	cr_assert_eq(qt_by_qpn(&rt.q, "qp_2rst_in", "2RST_QP", a.qpn, 0x10), 0);
	cr_expect_eq(nicref_dev_check(rt.q.t->dev), 0);
	/* A packet to a QP in Reset is dropped. */
	rt_recv(&b, 0x100, 64);
	rt_ud_send(&b, a.qpn, RT_QKEY, 1, 0, 8, false, 0);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_QP_STATE), 1);
	cr_assert_eq(qt_by_qpn(&rt.q, "destroy_qp_in", "DESTROY_QP", b.qpn, 0x10), 0);
	cr_expect_eq(nicref_dev_check(rt.q.t->dev), 0);
	/* Back to RTS: the transport state is made again, the PSN from next_send_psn. */
	const struct qt_field init[] = { { "primary_address_path_vhca_port_num", 1 },
					 { "q_key", RT_QKEY },
					 { NULL, 0 } };
	cr_assert_eq(qt_modify(&rt.q, "rst2init_qp_in", "RST2INIT_QP", a.qpn, 0, init), 0);
	cr_assert_eq(qt_modify(&rt.q, "init2rtr_qp_in", "INIT2RTR_QP", a.qpn, 0, NULL), 0);
	const struct qt_field rts[] = { { "next_send_psn", 0xFFFFFF }, { NULL, 0 } };
	cr_assert_eq(qt_modify(&rt.q, "rtr2rts_qp_in", "RTR2RTS_QP", a.qpn, 0, rts), 0);
	a.sq_pc = 0; /* Reset emptied the SQ ([IBTA] §10.3.1) */
	tl_mark(&rt.q.t->tr);
	rt_ud_send(&a, 0x999, RT_QKEY, 9, 0, 8, false, 0);
	rt_ud_send(&a, 0x999, RT_QKEY, 9, 0, 8, false, 0);
	cr_assert_eq(rt_count(NICREF_EV_ROCE_TX), 2);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_TX, 0)->arg[4], 0xFFFFFF);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_TX, 1)->arg[4], 0, "the PSN wraps at 2^24");
}

Test(roce_qp, a_ud_message_over_the_path_mtu_fails_the_qp)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	rt_recv(&b, 0x100, 4096);
	tl_mark(&rt.q.t->tr);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 1025, false, 0); /* mtu 3: 1024 bytes */
	cr_expect_eq(rt_count(NICREF_EV_ROCE_TX), 0);
	cr_assert_eq(rt_count(NICREF_EV_CQE), 1);
	uint8_t syn;
	cr_expect_eq(cqe_opcode(0, &syn), 0xD);
	cr_expect_eq(syn, 0x01, "LOCAL_LENGTH_ERR");
	cr_assert_eq(rt_count(NICREF_EV_QP_STATE), 1);
	const struct nicref_event *e = rt_ev(NICREF_EV_QP_STATE, 0);
	cr_expect_eq(e->arg[0], a.qpn);
	cr_expect_eq(e->arg[1], QT_RTS);
	cr_expect_eq(e->arg[2], QT_ERR);
	cr_expect_eq(e->arg[3], 1, "the transport's doing");
	cr_expect_eq(qt_query(&rt.q, a.qpn), 0);
	cr_expect_eq(qt_ctx(&rt.q, "state"), QT_ERR);
}

Test(roce_qp, a_receive_buffer_without_room_for_the_grh_fails)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	rt_recv(&b, 0x100, 40 + 7); /* 8 bytes do not fit after the GRH area */
	rt_recv(&b, 0x200, 256);
	tl_mark(&rt.q.t->tr);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 8, false, 0);
	/* a's CQE, b's error CQE (LOCAL_LENGTH_ERR), then b's other WQE flushed. */
	cr_assert_eq(rt_count(NICREF_EV_CQE), 3);
	uint8_t syn;
	cr_expect_eq(cqe_opcode(1, &syn), 0xE, "MLX5_CQE_RESP_ERR");
	cr_expect_eq(syn, 0x01);
	cr_expect_eq(cqe_opcode(2, &syn), 0xE);
	cr_expect_eq(syn, 0x05);
}

Test(roce_qp, ipv6_gids)
{
	rt_set_gid6(2, 0x21);
	rt_set_gid6(3, 0x22);
	struct rt_qp a = rt_ud(), b = rt_ud();
	rt_recv(&b, 0x100, 256);
	const uint8_t local6[16] = { 0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x22 };
	const uint8_t wire6[16] = { 0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x99 };
	static const uint8_t m[] = "over IPv6";
	tl_mem_write(rt.q.t, rt.data, m, sizeof m);
	tl_mark(&rt.q.t->tr);
	rt_ud_send_to(&a, b.qpn, RT_QKEY, 2, local6, 0, sizeof m, false, 0);
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2);
	uint8_t c[64];
	rt_cqe(1, c);
	cr_expect_eq(tl_get32(c + 0x18) >> 24 & 3, 1, "RoCEv2 over IPv6");
	uint8_t got[40 + sizeof m];
	tl_mem_read(rt.q.t, rt.data + 0x100, got, sizeof got);
	cr_expect_eq(got[0] >> 4, 6, "the GRH area holds the IPv6 header");
	cr_expect_eq(got[6], 17);
	cr_expect_eq(got[8 + 15], 0x21, "source fd00::21");
	cr_expect_eq(got[24 + 15], 0x22);
	cr_expect_eq(memcmp(got + 40, m, sizeof m), 0);
	/* On the wire: EtherType 86DD, hop limit 64, UDP 4791; the ICRC ignores traffic class,
	 * flow label and hop limit but covers the addresses. */
	rt_ud_send_to(&a, 0x55, RT_QKEY, 2, wire6, 0, sizeof m, false, 0);
	cr_assert_eq(rt.nframes, 1);
	uint8_t *f = rt.frames[0].b;
	size_t n = rt.frames[0].len;
	cr_expect_eq(f[12] << 8 | f[13], 0x86DD);
	cr_expect_eq(f[14 + 7], 64);
	cr_expect_eq(f[14 + 40 + 2] << 8 | f[14 + 40 + 3], 4791);
	uint32_t ref, v;
	cr_assert_eq(nicref_roce_icrc(f + 14, n - 14, &ref), 0);
	cr_expect_eq(ref, f[n - 4] | f[n - 3] << 8 | f[n - 2] << 16 | (uint32_t)f[n - 1] << 24);
	f[14] ^= 0x0F;	    /* traffic class high half */
	f[14 + 1] ^= 0xFF;  /* traffic class low half, flow label */
	f[14 + 3] ^= 0x55;  /* flow label */
	f[14 + 7] ^= 0x3C;  /* hop limit */
	cr_assert_eq(nicref_roce_icrc(f + 14, n - 14, &v), 0);
	cr_expect_eq(v, ref, "masked");
	f[14 + 8 + 15] ^= 1; /* the source address */
	cr_assert_eq(nicref_roce_icrc(f + 14, n - 14, &v), 0);
	cr_expect_neq(v, ref, "covered");
}

Test(roce_qp, a_doorbell_ahead_of_the_record_is_not_acted_on)
{
	struct rt_qp a = rt_ud();
	tl_mark(&rt.q.t->tr);
	/* The record says 0 WQEBBs posted; the doorbell names WQE 0 (D-DB-2). */
	refdrv_sq_doorbell(&rt.q.t->d, rt.q.t->uar, 0, a.qpn, 0, 0x0A, 5);
	cr_expect_eq(rt_count(NICREF_EV_SQ_DOORBELL), 0);
	tl_expect_one_violation(&rt.q.t->tr, NICREF_VIO_SQ_DB_AHEAD_OF_RECORD);
	tl_mark(&rt.q.t->tr);
}

Test(roce_qp, a_ud_qp_on_an_srq_takes_its_wqes)
{
	struct tl_dev *t = rt.q.t;
	/* A cyclic RMP of 16 strides of 64 bytes (T64/T55), one receive WQE posted. */
	uint64_t buf = tl_hostmem(t, 4096), dbr = tl_hostmem(t, 64);
	struct refdrv_rmp_attr ra = { .wq = { .buf = buf, .dbr = dbr, .wq_type = 1, .log_wq_sz = 4,
					      .log_wq_stride = 6, .pd = rt.q.pd } };
	uint32_t rmpn;
	cr_assert_eq(refdrv_create_rmp(&t->d, &ra, &rmpn), 0, "%s", t->d.error);
	uint8_t w[64] = { 0 };
	tl_put32(w, 128);
	tl_put32(w + 4, rt.lkey);
	tl_put32(w + 8, (uint32_t)((rt.data + 0x3000) >> 32));
	tl_put32(w + 12, (uint32_t)(rt.data + 0x3000));
	tl_put32(w + 20, 0x100);
	tl_mem_write(t, buf, w, sizeof w);
	uint8_t rec[4];
	tl_put32(rec, 1);
	tl_mem_write(t, dbr, rec, 4);
	struct rt_qp a = rt_ud();
	const struct qt_field srq[] = { { "rq_type", 1 }, { "srqn_rmpn_xrqn", rmpn }, { NULL, 0 } };
	struct rt_qp b = rt_create(QT_UD, srq);
	const struct qt_field init[] = { { "primary_address_path_vhca_port_num", 1 },
					 { "q_key", RT_QKEY },
					 { NULL, 0 } };
	cr_assert_eq(qt_modify(&rt.q, "rst2init_qp_in", "RST2INIT_QP", b.qpn, 0, init), 0);
	cr_assert_eq(qt_modify(&rt.q, "init2rtr_qp_in", "INIT2RTR_QP", b.qpn, 0, NULL), 0);
	tl_mem_write(t, rt.data, "srq!", 4);
	tl_mark(&t->tr);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 4, false, 0);
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2, "a's and b's");
	uint8_t c[64];
	rt_cqe(1, c);
	cr_expect_eq(c[0x3F] >> 4, 0x2);
	cr_expect_eq(tl_get32(c + 0x20) & 0xFFFFFF, rmpn, "the CQE names the SRQ");
	cr_expect_eq(tl_get32(c + 0x3C) >> 16, 0, "the SRQ's WQE 0");
	uint8_t got[4];
	tl_mem_read(t, rt.data + 0x3000 + 40, got, 4);
	cr_expect_eq(memcmp(got, "srq!", 4), 0);
	/* The SRQ is empty now: the next datagram is dropped (no RNR for UD). */
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 4, false, 0);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_UD_NO_WQE), 1);
}

/* glibc's chunk for an n-byte block: an 8-byte header, 16-byte rounding, 32 at least. */
static size_t chunk(size_t n)
{
	size_t c = (n + 8 + 15) & ~(size_t)15;
	return c < 32 ? 32 : c;
}

/* Item 12, D-QP-13, D-ROCE-RC-24: a live QP costs at most 512 heap bytes: struct qp with one
 * page of pas[] (one block), struct roce_qp, and the object table's 8-byte slot. Before: struct
 * qp 288 B with a pas[] block of its own and struct roce_qp 456 B (808 B per QP in make
 * bench). */
Test(roce_qp, memory_per_qp_within_budget)
{
	size_t qp = chunk(sizeof(struct qp) + sizeof(uint64_t));
	size_t xport = chunk(sizeof(struct roce_qp));
	cr_log_info("struct qp %zu B, struct roce_qp %zu B: chunks %zu + %zu + 8", sizeof(struct qp),
		    sizeof(struct roce_qp), qp, xport);
	cr_expect_leq(qp + xport + 8, 512, "%zu + %zu + 8 B per live QP", qp, xport);
	cr_expect_leq(sizeof(struct rc_req), 72, "struct rc_req: %zu B", sizeof(struct rc_req));
	cr_expect_leq(sizeof(struct rc_resp), 40, "struct rc_resp: %zu B", sizeof(struct rc_resp));
}

/* D-ROCE-RC-24: QPs that take the same ADP mode share one copy; a different mode (a ROCE_ACCL
 * write in between) has its own; the last QP to let a mode go frees it. */
Test(roce_qp, adp_modes_shared_and_released)
{
	struct nicref_dev *dev = rt.q.t->dev;
	struct nicref_adp_mode m1, m2;
	memset(&m1, 0, sizeof m1);
	m1.base_timeout_min_ns = 4000;
	m2 = m1;
	m2.adp = m2.retrans_en = true;
	m2.profile.time_base = 8;
	const struct nicref_adp_mode *a = roce_adp_mode_get(dev, &m1);
	const struct nicref_adp_mode *b = roce_adp_mode_get(dev, &m1);
	const struct nicref_adp_mode *c = roce_adp_mode_get(dev, &m2);
	cr_assert(a && b && c);
	cr_expect_eq(a, b, "the same mode: one copy");
	cr_expect_neq(a, c, "another mode: its own copy");
	cr_expect(c->adp && c->profile.time_base == 8 && !a->adp);
	roce_adp_mode_put(dev, a);
	roce_adp_mode_put(dev, c);
	cr_expect_eq(roce_adp_mode_get(dev, &m1), b, "still held once");
	roce_adp_mode_put(dev, b);
	roce_adp_mode_put(dev, b);
	cr_expect_null(roce_state_of(dev)->modes, "no QP holds a mode: none kept");
}
