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
 * (::ffff:192.168.1.2): the IPv4 header checksum (RFC 791) and the ICRC (Annex A17 §A17.3.3)
 * made again, so it is a good RoCEv2 frame from the wire to b. */
static size_t frame_to_b(struct rt_qp *a, const struct rt_qp *b, uint8_t *f)
{
	unsigned n0 = rt.nframes;
	rt_ud_send(a, b->qpn, RT_QKEY, 9, 0, MSG_LEN, false, 0);
	cr_assert_eq(rt.nframes, n0 + 1);
	size_t n = rt.frames[n0].len;
	memcpy(f, rt.frames[n0].b, n);
	f[14 + 19] = 2;
	rt_reseal_ipv4(f, n);
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
