/* UD end to end on one device (two GIDs, so the packet goes through the loopback queue,
 * D-ROCE-12) and to the wire: the send WQE with its datagram segment ([MLX5] mlx5_av), the
 * packet (UD_SEND_ONLY with the DETH, [IBTA] §9.8, the ICRC of [IBTA-A17]), the receive with
 * the 40-byte GRH area ([IBTA] §11.4.1.1, D-ROCE-14), the Q_Key check, the drops, the CQEs
 * ([MLX5] mlx5_cqe64). Expected values from those sources. */
#include <criterion/criterion.h>

#include "roce_util.h"

TestSuite(roce_ud, .init = rt_setup, .fini = rt_teardown);

static const uint8_t msg[] = "a UD datagram over RoCEv2";
#define MSG_LEN ((uint32_t)sizeof msg)

static struct rt_qp a, b;

static void pair(void)
{
	a = rt_ud();
	b = rt_ud();
	tl_mem_write(rt.q.t, rt.data, msg, MSG_LEN);
	tl_mark(&rt.q.t->tr);
}

Test(roce_ud, send_to_a_local_gid_lands_after_the_grh_area)
{
	pair();
	rt_recv(&b, 0x1000, 256);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, MSG_LEN, false, 0);
	/* One packet out (UD_SEND_ONLY 0x64 to b's QPN), looped (the destination is a local
	 * GID), taken. */
	cr_assert_eq(rt_count(NICREF_EV_ROCE_TX), 1);
	const struct nicref_event *tx = rt_ev(NICREF_EV_ROCE_TX, 0);
	cr_expect_eq(tx->arg[1], a.qpn);
	cr_expect_eq(tx->arg[2], b.qpn);
	cr_expect_eq(tx->arg[3], 0x64);
	cr_expect_eq(tx->arg[4], 0x100, "the PSN starts at next_send_psn");
	/* 14 + 20 + 8 + BTH 12 + DETH 8 + payload + pad + ICRC 4 */
	uint32_t pad = (4 - MSG_LEN % 4) % 4;
	cr_expect_eq(tx->arg[5], 14 + 20 + 8 + 12 + 8 + MSG_LEN + pad + 4);
	cr_expect_eq(rt_count(NICREF_EV_FRAME_OUT), 0, "not on the wire");
	cr_assert_eq(rt_count(NICREF_EV_ROCE_RX), 1);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_DROP), 0);
	/* Two CQEs: a's send (MLX5_CQE_REQ 0) and b's receive (MLX5_CQE_RESP_SEND 2). */
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2);
	uint8_t c[64];
	rt_cqe(0, c);
	cr_expect_eq(c[0x3F] >> 4, 0x0, "MLX5_CQE_REQ");
	cr_expect_eq(tl_get32(c + 0x38) & 0xFFFFFF, a.qpn);
	cr_expect_eq(c[0x38], 0x0A, "the WQE's opcode, SEND");
	rt_cqe(1, c);
	cr_expect_eq(c[0x3F] >> 4, 0x2, "MLX5_CQE_RESP_SEND");
	cr_expect_eq(tl_get32(c + 0x38) & 0xFFFFFF, b.qpn);
	cr_expect_eq(tl_get32(c + 0x2C), 40 + MSG_LEN, "byte_cnt counts the GRH");
	cr_expect_eq(tl_get32(c + 0x18) & 0xFFFFFF, a.qpn, "flags_rqpn: the source QP");
	cr_expect_eq(tl_get32(c + 0x18) >> 24 & 3, 2, "RoCEv2 over IPv4");
	cr_expect_eq(tl_get32(c + 0x18) >> 28 & 3, 1, "a GRH is present");
	/* The GRH area: 20 bytes, then the IPv4 header (from 192.168.1.1 to .2), then data. */
	uint8_t got[40 + MSG_LEN];
	tl_mem_read(rt.q.t, rt.data + 0x1000, got, sizeof got);
	for (unsigned i = 0; i < 20; i++)
		cr_expect_eq(got[i], 0);
	cr_expect_eq(got[20], 0x45);
	cr_expect_eq(got[20 + 9], 17, "UDP");
	cr_expect_eq(got[20 + 15], 1);
	cr_expect_eq(got[20 + 19], 2);
	cr_expect_eq(memcmp(got + 40, msg, MSG_LEN), 0);
	struct nicref_stats s;
	nicref_stats_get(rt.q.t->dev, &s);
	cr_expect_eq(s.roce_pkts_out, 1);
	cr_expect_eq(s.roce_pkts_in, 1);
}

Test(roce_ud, immediate_data_and_the_qkey_of_the_qp)
{
	pair();
	rt_recv(&b, 0x1000, 256);
	/* Q_Key with bit 31 set: the sender's own Q_Key goes in the DETH ([IBTA] C10-15), and it
	 * is b's, so b takes the packet. */
	rt_ud_send(&a, b.qpn, 0x80000000u, 2, 0, 8, true, 0xCAFEF00D);
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_TX, 0)->arg[3], 0x65, "UD_SEND_ONLY_WITH_IMMEDIATE");
	uint8_t c[64];
	rt_cqe(1, c);
	cr_expect_eq(c[0x3F] >> 4, 0x3, "MLX5_CQE_RESP_SEND_IMM");
	cr_expect_eq(tl_get32(c + 0x24), 0xCAFEF00D);
}

Test(roce_ud, a_wrong_qkey_is_dropped)
{
	pair();
	rt_recv(&b, 0x1000, 256);
	rt_ud_send(&a, b.qpn, 0x01020304, 2, 0, 8, false, 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_DROP), 1);
	cr_expect_eq(rt_ev(NICREF_EV_ROCE_DROP, 0)->arg[1], NICREF_ROCE_DROP_QKEY);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_QKEY), 1);
	cr_expect_eq(rt_count(NICREF_EV_CQE), 1, "only the sender's CQE");
}

Test(roce_ud, no_receive_wqe_drops_the_datagram)
{
	pair();
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 8, false, 0);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_UD_NO_WQE), 1);
	cr_expect_eq(rt_count(NICREF_EV_CQE), 1);
}

Test(roce_ud, no_such_qp_and_reserved_qps)
{
	pair();
	rt_ud_send(&a, 0x777, RT_QKEY, 2, 0, 8, false, 0);
	rt_ud_send(&a, 1, RT_QKEY, 2, 0, 8, false, 0);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_NO_QP), 1);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_QP_RESERVED), 1);
}

Test(roce_ud, to_the_wire_with_a_good_icrc)
{
	pair();
	rt_ud_send(&a, 0x4242, RT_QKEY, 9, 0, MSG_LEN, false, 0); /* 192.168.1.9: not local */
	cr_assert_eq(rt.nframes, 1);
	const uint8_t *f = rt.frames[0].b;
	size_t n = rt.frames[0].len;
	cr_expect_eq(rt_count(NICREF_EV_FRAME_OUT), 1);
	/* Ethernet to the WQE's rmac from the GID entry's MAC, IPv4, DF, TTL 64. */
	cr_expect_eq(f[5], 9);
	cr_expect_eq(f[11], 1, "source MAC of GID index 0");
	cr_expect_eq(f[12] << 8 | f[13], 0x0800);
	cr_expect_eq(f[14 + 6], 0x40, "DF");
	cr_expect_eq(f[14 + 8], 64);
	cr_expect_eq(f[14 + 19], 9);
	/* UDP to 4791 with checksum 0; BTH: UD_SEND_ONLY, P_Key 0xFFFF, DestQP; DETH. */
	cr_expect_eq(f[36] << 8 | f[37], 4791);
	cr_expect_eq(f[40] << 8 | f[41], 0);
	cr_expect_eq(f[42], 0x64);
	cr_expect_eq(f[44] << 8 | f[45], 0xFFFF);
	cr_expect_eq(tl_get32(f + 46) & 0xFFFFFF, 0x4242);
	cr_expect_eq(tl_get32(f + 54), RT_QKEY);
	cr_expect_eq(tl_get32(f + 58) & 0xFFFFFF, a.qpn);
	uint32_t icrc;
	cr_assert_eq(nicref_roce_icrc(f + 14, n - 14, &icrc), 0);
	uint32_t carried = f[n - 4] | f[n - 3] << 8 | f[n - 2] << 16 | (uint32_t)f[n - 1] << 24;
	cr_expect_eq(icrc, carried);
}

/* A frame received from the wire: a's packet, its destination rewritten to b's GID and MAC. */
static size_t wire_frame(uint8_t *f)
{
	rt_ud_send(&a, b.qpn, RT_QKEY, 9, 0, MSG_LEN, false, 0);
	cr_assert_eq(rt.nframes, 1);
	size_t n = rt.frames[0].len;
	memcpy(f, rt.frames[0].b, n);
	rt_readdress_ipv4(f, n, 2);
	return n;
}

Test(roce_ud, from_the_wire_and_a_bad_icrc)
{
	pair();
	rt_recv(&b, 0x1000, 256);
	rt_recv(&b, 0x2000, 256);
	uint8_t f[256];
	size_t n = wire_frame(f);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 1);
	cr_expect_eq(rt_count(NICREF_EV_CQE), 1, "b received it");
	cr_expect_eq(rt_count(NICREF_EV_RX_DROP), 0, "not the Ethernet path's");
	/* One payload bit flipped: the ICRC no longer matches; dropped silently, counted. */
	f[70] ^= 1;
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_ICRC), 1);
	cr_expect_eq(rt_count(NICREF_EV_CQE), 1, "no second CQE");
	struct nicref_stats s;
	nicref_stats_get(rt.q.t->dev, &s);
	cr_expect_eq(s.roce_icrc_errors, 1);
	/* To an address that is not a GID of the port: the Ethernet path's (no steering: the
	 * NIC_RX default drops it, D-ROCE-1). */
	f[70] ^= 1;
	f[14 + 19] = 77;
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 2, "not taken");
	cr_expect_eq(rt_count(NICREF_EV_RX_DROP), 1);
}

Test(roce_ud, malformed_tver_and_pkey)
{
	pair();
	rt_recv(&b, 0x1000, 256);
	uint8_t f[256], g[256];
	size_t n = wire_frame(f);
	uint32_t icrc;
	struct {
		unsigned at;
		uint8_t v;
		enum nicref_roce_drop why;
	} cases[] = {
		{ 43, 0x01, NICREF_ROCE_DROP_TVER },	/* TVer 1 */
		{ 44, 0x00, NICREF_ROCE_DROP_PKEY },	/* P_Key 0x00FF: another partition */
		{ 42, 0x24, NICREF_ROCE_DROP_OPCODE_UNKNOWN }, /* UC SEND ONLY */
		{ 42, 0x13, NICREF_ROCE_DROP_ATOMIC },	/* RC CMP_SWAP */
		{ 42, 0x04, NICREF_ROCE_DROP_SERVICE }, /* RC SEND ONLY to a UD QP */
	};
	for (unsigned i = 0; i < TL_NELEM(cases); i++) {
		memcpy(g, f, n);
		g[cases[i].at] = cases[i].v;
		cr_assert_eq(nicref_roce_icrc(g + 14, n - 14, &icrc), 0);
		g[n - 4] = (uint8_t)icrc;
		g[n - 3] = (uint8_t)(icrc >> 8);
		g[n - 2] = (uint8_t)(icrc >> 16);
		g[n - 1] = (uint8_t)(icrc >> 24);
		uint64_t before = rt_drops(cases[i].why);
		cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, g, n), 0);
		cr_expect_eq(rt_drops(cases[i].why), before + 1, "case %u: %s", i,
			     nicref_roce_drop_name(cases[i].why));
	}
	/* A UDP length that disagrees with the IP length: malformed. */
	memcpy(g, f, n);
	g[14 + 20 + 5] ^= 4;
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, g, n), 0);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_MALFORMED), 1);
}

Test(roce_ud, error_state_flushes_posted_receives)
{
	pair();
	rt_recv(&b, 0x1000, 256);
	rt_recv(&b, 0x2000, 256);
	cr_assert_eq(qt_by_qpn(&rt.q, "qp_2err_in", "2ERR_QP", b.qpn, 0x10), 0);
	cr_assert_eq(rt_count(NICREF_EV_QP_STATE), 1);
	cr_expect_eq(rt_ev(NICREF_EV_QP_STATE, 0)->arg[2], QT_ERR);
	cr_assert_eq(rt_count(NICREF_EV_CQE), 2, "two flush CQEs");
	uint8_t c[64];
	for (unsigned i = 0; i < 2; i++) {
		rt_cqe(i, c);
		cr_expect_eq(c[0x3F] >> 4, 0xE, "MLX5_CQE_RESP_ERR");
		cr_expect_eq(c[0x37], 0x05, "MLX5_CQE_SYNDROME_WR_FLUSH_ERR");
		cr_expect_eq(tl_get32(c + 0x3C) >> 16, i, "wqe_counter");
	}
	/* A packet for a QP in Error is dropped ([IBTA] §10.3.1). */
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, 8, false, 0);
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_QP_STATE), 1);
}

Test(roce_ud, qpns_and_sqns_share_one_space)
{
	/* D-ROCE-2: an SQ never takes a number a QP holds, nor a QP an SQ's. */
	struct rt_qp q1 = rt_create(QT_UD, NULL);
	struct tl_dev *t = rt.q.t;
	uint32_t tisn;
	cr_assert_eq(refdrv_create_tis(&t->d, tl_alloc_td(t), 0, &tisn), 0);
	uint32_t s1 = tl_sq(t, rt.q.pd, tisn), s2 = tl_sq(t, rt.q.pd, tisn);
	struct rt_qp q2 = rt_create(QT_UD, NULL);
	uint32_t nums[] = { q1.qpn, s1, s2, q2.qpn };
	for (unsigned i = 0; i < 4; i++)
		for (unsigned j = i + 1; j < 4; j++)
			cr_expect_neq(nums[i], nums[j], "numbers %u and %u", i, j);
	cr_expect_eq(s1, 1, "the lowest free SQN (QPNs start at 2)");
	cr_expect_eq(q1.qpn, 2);
	cr_expect_eq(s2, 3, "2 is a QP's");
	cr_expect_eq(q2.qpn, 4);
}
