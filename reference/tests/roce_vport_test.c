/* RoCE traffic and the function's NIC vport (docs/vport.md D-VP-2, docs/roce.md D-ROCE-1,
 * D-ROCE-11): the vport's administrative state gates RoCE as it gates the Ethernet path (T475
 * admin_state "0x0: down - set port to down state"), and RoCE frames count in the vport's
 * Ethernet counters by destination (T486 has no RDMA counter: "Transmitted ETH unicast",
 * "Received ETH unicast" count every Ethernet frame the function sends and receives, RoCEv2's
 * UDP/IP frames among them). Shared tools: roce_util.h. */
#include <criterion/criterion.h>

#include "eth/rx.h"
#include "roce_util.h"

TestSuite(roce_vport, .init = rt_setup, .fini = rt_teardown);

static const uint8_t msg[] = "a UD datagram over RoCEv2";
#define MSG_LEN ((uint32_t)sizeof msg)

/* MODIFY_VPORT_STATE admin_state (§12.16.2 T474/T475: 0Ch[7:4]). */
static void vport_admin(unsigned admin)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	tl_setf(in, 0x00, 31, 16, 0x751);
	tl_setf(in, 0x0C, 7, 4, admin);
	cr_assert_eq(tl_cmd(rt.q.t, in, sizeof in, out, sizeof out), 0);
}

static struct vport_traffic cnt(enum vport_counter c)
{
	return vport_counter_get(rt.q.t->dev, c);
}

/* a's datagram to the wire (192.168.1.9), captured, its destination rewritten to b's GID
 * (::ffff:192.168.1.2) and to its entry's MAC (D-ROCE-23): the IPv4 header checksum (RFC 791)
 * and the ICRC (Annex A17 §A17.3.3) made again, so it is a good RoCEv2 frame from the wire to
 * b. */
static size_t frame_to_b(struct rt_qp *a, const struct rt_qp *b, uint8_t *f)
{
	unsigned n0 = rt.nframes;
	rt_ud_send(a, b->qpn, RT_QKEY, 9, 0, MSG_LEN, false, 0);
	cr_assert_eq(rt.nframes, n0 + 1);
	size_t n = rt.frames[n0].len;
	memcpy(f, rt.frames[n0].b, n);
	rt_readdress_ipv4(f, n, 2);
	return n;
}

/* D-VP-2 and T475: while the vport is down the function neither sends nor receives RoCE. A
 * send is dropped as the port being down (`tx_link_down`, D-ROCE-11), to the wire and to a
 * local GID alike; a frame from the wire is not the transport's and the Ethernet path drops it
 * as it drops every frame then (rx_drop vport_down, D-RX-6). Up again, both work. */
Test(roce_vport, vport_down_drops_roce_send_and_receive)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	tl_mem_write(rt.q.t, rt.data, msg, MSG_LEN);
	rt_recv(&b, 0x1000, 256);
	rt_recv(&b, 0x1100, 256);
	uint8_t f[256];
	size_t n = frame_to_b(&a, &b, f);
	vport_admin(0);
	tl_mark(&rt.q.t->tr);
	uint64_t down0 = rt_drops(NICREF_ROCE_DROP_TX_LINK_DOWN);
	rt_ud_send(&a, 0x4242, RT_QKEY, 9, 0, MSG_LEN, false, 0); /* to the wire */
	cr_expect_eq(rt_count(NICREF_EV_FRAME_OUT), 0, "a RoCE frame left while the vport is down");
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, MSG_LEN, false, 0); /* to b, a local GID */
	cr_expect_eq(rt_count(NICREF_EV_TX_LOOPBACK), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 0, "b received while the vport is down");
	cr_expect_eq(rt_drops(NICREF_ROCE_DROP_TX_LINK_DOWN), down0 + 2, "both sends dropped");
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 0, "the transport took a frame");
	cr_assert_eq(rt_count(NICREF_EV_RX_DROP), 1);
	cr_expect_eq(rt_ev(NICREF_EV_RX_DROP, 0)->arg[0], RX_DROP_VPORT_DOWN);
	for (unsigned c = 0; c < VPORT_CNT_COUNT; c++)
		cr_expect_eq(cnt((enum vport_counter)c).packets, c == VPORT_CNT_TX_UNICAST,
			     "counter %u: only the first frame_to_b send counts", c);
	vport_admin(1);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 1);
	cr_expect_eq(rt_count(NICREF_EV_RX_DROP), 0);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, MSG_LEN, false, 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 2, "b received the looped datagram");
}

/* T486: a RoCE frame counts once where the function sent it (Transmitted ETH unicast, to the
 * wire or to a local GID, as D-TX-7 counts the Ethernet path's) and once where it received it
 * (Received ETH unicast), octets with the FCS as D-REG-9 counts them (D-RX-7). */
Test(roce_vport, roce_frames_count_in_the_vport_ethernet_counters)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	tl_mem_write(rt.q.t, rt.data, msg, MSG_LEN);
	rt_recv(&b, 0x1000, 256);
	rt_recv(&b, 0x1100, 256);
	uint8_t f[256];
	size_t n = frame_to_b(&a, &b, f); /* one frame to the wire */
	cr_expect_eq(cnt(VPORT_CNT_TX_UNICAST).packets, 1);
	cr_expect_eq(cnt(VPORT_CNT_TX_UNICAST).octets, n + 4);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0); /* from the wire to b */
	cr_expect_eq(cnt(VPORT_CNT_RX_UNICAST).packets, 1);
	cr_expect_eq(cnt(VPORT_CNT_RX_UNICAST).octets, n + 4);
	rt_ud_send(&a, b.qpn, RT_QKEY, 2, 0, MSG_LEN, false, 0); /* looped to b: sent, received */
	cr_expect_eq(cnt(VPORT_CNT_TX_UNICAST).packets, 2);
	cr_expect_eq(cnt(VPORT_CNT_RX_UNICAST).packets, 2);
	cr_expect_eq(cnt(VPORT_CNT_TX_UNICAST).octets, 2 * (n + 4), "the same datagram's size");
	cr_expect_eq(cnt(VPORT_CNT_RX_UNICAST).octets, 2 * (n + 4));
	for (unsigned c = 0; c < VPORT_CNT_COUNT; c++)
		if (c != VPORT_CNT_TX_UNICAST && c != VPORT_CNT_RX_UNICAST)
			cr_expect_eq(cnt((enum vport_counter)c).packets, 0, "counter %u", c);
}

static void set_dmac(uint8_t *f, uint64_t mac)
{
	for (unsigned i = 0; i < 6; i++)
		f[i] = (uint8_t)(mac >> (8 * (5 - i)));
}

/* The frame f of n bytes with a C-VLAN tag (802.1Q, TPID 8100h) of vid after its MACs: n + 4
 * bytes into t (the Ethernet header is outside the ICRC, so the frame stays good). */
static size_t tagged(const uint8_t *f, size_t n, unsigned vid, uint8_t *t)
{
	memcpy(t, f, 12);
	t[12] = 0x81, t[13] = 0x00, t[14] = (uint8_t)(vid >> 8), t[15] = (uint8_t)vid;
	memcpy(t + 16, f + 12, n - 12);
	return n + 4;
}

/* MODIFY_NIC_VPORT_CONTEXT (§12.16.4 T476): field_select bit 2 addresses_list, the list of
 * allowed_list_type (T16 26:24: 0 current_uc, 2 vlan) with one element (T17: a MAC in 00h-07h
 * [47:0], a VLAN in 00h[11:0]). */
static void vport_list1(unsigned type, uint64_t v)
{
	uint8_t in[0x208] = { 0 }, out[0x10] = { 0 };
	tl_setf(in, 0x00, 31, 16, 0x755);
	tl_setf(in, 0x0C, 31, 0, 1u << 2);
	tl_setf(in, 0x100 + 0xF0, 26, 24, type);
	tl_setf(in, 0x100 + 0xF0, 11, 0, 1);
	if (type == 2) {
		tl_setf(in, 0x200, 11, 0, (uint32_t)v);
	} else {
		tl_setf(in, 0x200, 15, 0, (uint32_t)(v >> 32));
		tl_setf(in, 0x204, 31, 0, (uint32_t)v);
	}
	cr_assert_eq(tl_cmd(rt.q.t, in, sizeof in, out, sizeof out), 0);
}

/* D-ROCE-23, PRM §7.3 T16: the NIC vport takes only its allowed addresses (permanent_address,
 * the current_uc_mac_address list, promisc_uc "allow any unicast address"); D-VP-2 reads a
 * RoCE frame as one of the vport's Ethernet frames, and seed 004 L86 decides RDMA or not "by
 * the MAC/IP/UDP header". A good RoCEv2 frame to b's GID but to a MAC that is neither the
 * vport's nor b's GID entry's is another station's: not the transport's, dropped as the
 * Ethernet path drops it (vport_filter), counted nowhere. Failed before: taken. */
Test(roce_vport, roce_frame_to_a_foreign_mac_is_not_taken)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	tl_mem_write(rt.q.t, rt.data, msg, MSG_LEN);
	rt_recv(&b, 0x1000, 256);
	uint8_t f[256];
	size_t n = frame_to_b(&a, &b, f);
	set_dmac(f, 0x0A0B0C0D0E0Full);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 0, "the transport took a frame to a foreign MAC");
	cr_assert_eq(rt_count(NICREF_EV_RX_DROP), 1);
	cr_expect_eq(rt_ev(NICREF_EV_RX_DROP, 0)->arg[0], RX_DROP_VPORT_FILTER);
	cr_expect_eq(cnt(VPORT_CNT_RX_UNICAST).packets, 0);
	/* The same frame once the vport takes the address (current_uc list, or promisc_uc). */
	vport_list1(0, 0x0A0B0C0D0E0Full);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 1, "an address of the uc list is the vport's");
	cr_expect_eq(rt_count(NICREF_EV_RX_DROP), 0);
}

/* D-ROCE-23: to the permanent address (D-VP-3) the frame is the vport's too; to b's GID
 * entry's MAC (00:02:c9:00:00:02) it is taken with no list naming it (the reading taken: the
 * GID entry's MAC is one of the function's addresses, as an L2 table entry's, D-L2-2); the
 * GID entry of another address (a's, 00:02:c9:00:00:01) does not make a frame to b's GID
 * the function's. */
Test(roce_vport, roce_frame_to_the_vport_or_its_gid_mac_is_taken)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	tl_mem_write(rt.q.t, rt.data, msg, MSG_LEN);
	rt_recv(&b, 0x1000, 256);
	rt_recv(&b, 0x1100, 256);
	uint8_t f[256];
	size_t n = frame_to_b(&a, &b, f);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 1, "to b's GID entry's MAC");
	set_dmac(f, 0x024E49435246ull);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 2, "to the permanent address");
	set_dmac(f, 0x0002C9000001ull);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 2, "a's entry's MAC is not b's GID's");
	cr_assert_eq(rt_count(NICREF_EV_RX_DROP), 1);
	cr_expect_eq(rt_ev(NICREF_EV_RX_DROP, 0)->arg[0], RX_DROP_VPORT_FILTER);
}

/* D-ROCE-23, T16 vlan list (promisc and addresses "on vlan list"; rx_vport.c for Ethernet): a
 * RoCE frame to b's GID and MAC on VLAN 7 while the vport's list holds only VLAN 5 is not the
 * vport's; on VLAN 5 it is. Failed before: taken on VLAN 7. */
Test(roce_vport, roce_frame_on_a_vlan_outside_the_vport_list_is_not_taken)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	tl_mem_write(rt.q.t, rt.data, msg, MSG_LEN);
	rt_recv(&b, 0x1000, 256);
	uint8_t f0[256], f[260];
	size_t n0 = frame_to_b(&a, &b, f0);
	vport_list1(2, 5);
	size_t n = tagged(f0, n0, 7, f);
	tl_mark(&rt.q.t->tr);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 0, "taken on a VLAN the vport does not allow");
	cr_assert_eq(rt_count(NICREF_EV_RX_DROP), 1);
	cr_expect_eq(rt_ev(NICREF_EV_RX_DROP, 0)->arg[0], RX_DROP_VPORT_FILTER);
	n = tagged(f0, n0, 5, f);
	cr_assert_eq(nicref_wire_rx(rt.q.t->dev, 1, f, n), 0);
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 1, "VLAN 5 is on the list");
}

/* D-ROCE-23 on the loopback queue (D-ROCE-12): a looped frame meets the vport's filter as the
 * Ethernet path's looped frames do. A datagram to b's GID whose path names a MAC that is not
 * the function's (the WQE's rmac rewritten to 0a:0b:0c:0d:0e:0f) is dropped (rx_drop
 * vport_filter), never the transport's: b's receive WQE stays posted. Failed before: b took
 * it. */
Test(roce_vport, looped_roce_frame_to_a_foreign_mac_is_not_taken)
{
	struct rt_qp a = rt_ud(), b = rt_ud();
	tl_mem_write(rt.q.t, rt.data, msg, MSG_LEN);
	rt_recv(&b, 0x1000, 256);
	const uint8_t rgid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 1, 2 };
	uint16_t idx = rt_ud_wqe(&a, b.qpn, RT_QKEY, 0, rgid, 0, MSG_LEN, false, 0, 2u << 2,
				 false);
	/* The datagram segment (after the 16-byte ctrl): rmac_47_16 at 14h, rmac_15_0 18h[31:16]. */
	uint64_t sq = a.buf + ((16ull << a.rq_stride_log) << a.log_rq);
	uint64_t d = sq + (uint64_t)(idx % (1u << a.log_sq)) * 64 + 16;
	uint8_t w[8];
	tl_mem_read(rt.q.t, d + 0x14, w, 8);
	w[0] = 0x0A, w[1] = 0x0B, w[2] = 0x0C, w[3] = 0x0D, w[4] = 0x0E, w[5] = 0x0F;
	tl_mem_write(rt.q.t, d + 0x14, w, 8);
	tl_mark(&rt.q.t->tr);
	refdrv_sq_doorbell(&rt.q.t->d, rt.q.t->uar, 0, a.qpn, idx, 0x0A, 5);
	cr_expect_eq(rt_count(NICREF_EV_TX_LOOPBACK), 1, "looped: the destination is a local GID");
	cr_expect_eq(rt_count(NICREF_EV_ROCE_RX), 0, "the transport took a frame to a foreign MAC");
	cr_assert_eq(rt_count(NICREF_EV_RX_DROP), 1);
	cr_expect_eq(rt_ev(NICREF_EV_RX_DROP, 0)->arg[0], RX_DROP_VPORT_FILTER);
	cr_expect_eq(cnt(VPORT_CNT_RX_UNICAST).packets, 0);
	cr_expect_eq(rt_count(NICREF_EV_CQE), 1, "a's send completes; b receives nothing");
}
