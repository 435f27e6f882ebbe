/* Frames out (PRM §7.4.4.1, §3.3.8, §3.4, §11.1.1, §12.17; eth/tx_frame.c, eth/tx_loopback.c,
 * D-TX-2, D-TX-5, D-TX-6, D-TX-7): the vport's and the port's TX counters move with every frame,
 * drops are counted, the MTU and a vport that is down drop frames, and the loopback decision
 * with its event and its hook for the receive path. Shared tools: tx_util.h. */
#include "eth/eth.h"
#include "tx_util.h"

TestSuite(tx_frame, .init = tx_setup, .fini = tx_teardown);

static void send_to(uint64_t dmac, size_t len)
{
	uint8_t pkt[2000];
	tx_udp_packet(pkt, len, dmac);
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, 42, 0);
	tx_send(&w);
}

Test(tx_frame, counters_move_with_every_frame)
{
	send_to(TX_DMAC, 100);
	send_to(0x01005E000001ull, 200); /* multicast */
	send_to(0xFFFFFFFFFFFFull, 300); /* broadcast */
	send_to(TX_DMAC, 50);		 /* padded to 60 */
	cr_assert_eq(tx.nframes, 4);
	/* §12.17 T486 (D-TX-7): packets, and octets with the FCS (D-REG-9). */
	struct vport_traffic u = vport_counter_get(tdev->dev, VPORT_CNT_TX_UNICAST);
	struct vport_traffic m = vport_counter_get(tdev->dev, VPORT_CNT_TX_MULTICAST);
	struct vport_traffic b = vport_counter_get(tdev->dev, VPORT_CNT_TX_BROADCAST);
	cr_expect_eq(u.packets, 2);
	cr_expect_eq(u.octets, 104 + 64);
	cr_expect_eq(m.packets, 1);
	cr_expect_eq(m.octets, 204);
	cr_expect_eq(b.packets, 1);
	cr_expect_eq(b.octets, 304);
	/* PPCNT (T115-T118; D-REG-9). */
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_a_frames_transmitted_ok, 0), 4);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_a_octets_transmitted_ok, 0),
		     104 + 204 + 304 + 64);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_ucast_pkts, 0), 2);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_multicast_pkts, 0), 1);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_broadcast_pkts, 0), 1);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_tx_frames, 0), 4, "TIS prio 0");
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_discards, 0), 0);
	cr_expect_eq(tdev->tr.violations, 0);
}

static void prio_sq(void)
{
	struct tx_opts o = tx_default_opts();
	o.tis_prio = 0xA; /* T50: Ethernet priority prio[3:1] = 5 */
	tx_setup_opts(&o);
}

Test(tx_frame, the_tis_priority_counts, .init = prio_sq)
{
	send_to(TX_DMAC, 100);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_tx_frames, 5), 1);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_tx_octets, 5), 104);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_tx_frames, 0), 0);
}

Test(tx_frame, over_the_mtu_is_dropped)
{
	/* §11.1.1 T106 oper_mtu "Packets exceeding this size will be dropped"; the MTU counts the
	 * L3 payload (D-REG-5, D-TX-6): 1500 + 14 goes, one byte more does not. */
	uint32_t mtu = port_get(tdev->dev, 1)->oper_mtu;
	send_to(TX_DMAC, mtu + 14);
	cr_expect_eq(tx.nframes, 1);
	cr_expect_eq(tdev->tr.violations, 0);
	send_to(TX_DMAC, mtu + 15);
	cr_expect_eq(tx.nframes, 1, "dropped");
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_FRAME_OVER_MTU);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_TX_DISCARD)->arg[2], 2);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_discards, 0), 1);
	uint8_t cqe[64];
	cr_expect_eq(tx_poll(cqe), 0, "CE 00: the WQE completed without error");
	cr_expect_eq(tx_query().hw_counter, 4, "two WQEs of two WQEBBs ran");
}

Test(tx_frame, a_vlan_tag_is_l2)
{
	/* The 802.1Q tag is part of the L2 header the MTU does not count (§3.3.7, D-TX-6). */
	uint32_t mtu = port_get(tdev->dev, 1)->oper_mtu;
	uint8_t pkt[2000];
	size_t len = tx_udp_packet(pkt + 4, mtu + 14, TX_DMAC) + 4;
	memmove(pkt, pkt + 4, 12);
	pkt[12] = 0x81, pkt[13] = 0x00, pkt[14] = 0x00, pkt[15] = 0x07;
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, 46, 0);
	tx_send(&w);
	tx_expect_frame(0, pkt, len);
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_frame, a_vport_down_drops)
{
	/* D-VP-2: the vport is down when its port is (PAOS): TX is dropped and counted. */
	port_set_peer(tdev->dev, 1, false, 0);
	tl_mark(&tdev->tr);
	send_to(TX_DMAC, 100);
	cr_expect_eq(tx.nframes, 0);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_TX_DISCARD)->arg[2], 3);
	cr_expect_eq(vport_counter_get(tdev->dev, VPORT_CNT_TX_UNICAST).packets, 0);
	cr_expect_eq(tdev->tr.violations, 0, "not the driver's mistake");
}

/* ---- Loopback (§3.4; D-TX-5) ----------------------------------------------------------------- */

static unsigned looped;
static struct eth_lb_frame last_lb;
static uint8_t last_lb_bytes[64];
static void rx_hook(struct nicref_dev *dev, void *rx, const struct eth_lb_frame *f)
{
	(void)dev;
	(void)rx;
	looped++;
	last_lb = *f;
	memcpy(last_lb_bytes, f->frame, f->len < 64 ? f->len : 64);
}

static void hooked(void)
{
	tx_setup();
	struct eth_state *es = tdev->dev->datapath.state;
	es->rx_loopback = rx_hook;
	looped = 0;
}

Test(tx_frame, own_address_stays_local, .init = hooked)
{
	/* The vport's permanent address (D-VP-3): the frame goes to the receive side only. */
	send_to(VPORT_PERMANENT_ADDRESS, 100);
	cr_expect_eq(tx.nframes, 0, "not on the wire");
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_FRAME_OUT), 0);
	const struct nicref_event *e = tl_only(&tdev->tr, NICREF_EV_TX_LOOPBACK);
	cr_expect_eq(e->arg[0], tx.sqn);
	cr_expect_eq(e->arg[1], 1);
	cr_expect_eq(e->arg[2], 1, "local only");
	cr_expect_eq(looped, 1, "the receive path's hook");
	cr_expect_eq(last_lb.td, tx.td, "the sender's transport domain (§3.4)");
	cr_expect_eq(last_lb.multicast, false);
	cr_expect_eq(last_lb.len, 100);
	cr_expect_eq(last_lb_bytes[5], 0x46);
	cr_expect_eq(vport_counter_get(tdev->dev, VPORT_CNT_TX_UNICAST).packets, 1);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_a_frames_transmitted_ok, 0), 0,
		     "D-REG-9: loopback frames are not port traffic");
}

Test(tx_frame, multicast_goes_both_ways, .init = hooked)
{
	send_to(0x01005E000001ull, 100);
	cr_expect_eq(tx.nframes, 1);
	const struct nicref_event *e = tl_only(&tdev->tr, NICREF_EV_TX_LOOPBACK);
	cr_expect_eq(e->arg[2], 2, "wire and local");
	cr_expect_eq(looped, 1);
	cr_expect_eq(last_lb.multicast, true);
}

Test(tx_frame, other_unicast_goes_to_the_wire_only, .init = hooked)
{
	send_to(TX_DMAC, 100);
	cr_expect_eq(tx.nframes, 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_TX_LOOPBACK), 0);
	cr_expect_eq(looped, 0);
	/* promisc_all (T16): "allow all traffic": a copy loops back too. */
	tdev->dev->vport->promisc_all = true;
	send_to(TX_DMAC, 100);
	cr_expect_eq(tx.nframes, 2);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_TX_LOOPBACK)->arg[2], 2);
	cr_expect_eq(looped, 1);
}

Test(tx_frame, crc32_of_a_known_string)
{
	/* The check value of CRC-32/ISO-HDLC (zlib crc32): "123456789" -> CBF43926. */
	cr_expect_eq(eth_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
	cr_expect_eq(eth_crc32(NULL, 0), 0);
}
