/* The receive path's entry (eth/rx_wire.c, rx_vport.c, rx_drop.c, rx_tir.c): nicref_wire_rx's
 * trace, size checks, vport acceptance, counters, the steering verdict's copies (through the
 * stub's forced verdict until steering lands) and the self-loopback filter (docs/rx.md). */
#include <criterion/criterion.h>

#include "rx_util.h"

TestSuite(rx_wire, .init = rx_setup, .fini = rx_teardown);

static uint64_t ppcnt(enum port_counter id, unsigned set)
{
	return port_counter_get(rdev->dev, 1, id, set);
}

/* Steering delivers every NIC_RX frame to the test's TIR with flow tag `tag`. */
static void deliver_all(uint32_t tag)
{
	rx_steer_all(&rx.tirn, 1, tag);
}

Test(rx_wire, frame_in_and_bad_port)
{
	uint8_t f[256];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	cr_expect_eq(nicref_wire_rx(rdev->dev, 9, f, n), -1, "no port 9");
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_FRAME_IN), 0);
	cr_expect_eq(nicref_wire_rx(rdev->dev, 1, f, n), 0);
	const struct nicref_event *e = tl_only(&rdev->tr, NICREF_EV_FRAME_IN);
	cr_expect_eq(e->arg[0], 1);
	cr_expect_eq(e->arg[1], n);
	struct nicref_stats st;
	nicref_stats_get(rdev->dev, &st);
	cr_expect_eq(st.frames_in, 1);
}

/* D-RX-5, D-RX-8: under 60 bytes (64 with the FCS, §3.3.8) and over the MTU: dropped and
 * counted in PPCNT, not taken by the vport. */
Test(rx_wire, undersize_and_over_mtu)
{
	uint8_t f[2048] = { 0 };
	memcpy(f, rx_own_mac, 6);
	f[12] = 0x08;
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, 59), 0);
	cr_expect_eq(rx_drops_of(RX_DROP_UNDERSIZE), 1);
	cr_expect_eq(ppcnt(PORT_CNT_ether_stats_undersize_pkts, 0), 1);
	uint32_t mtu = rdev->dev->port[0].oper_mtu;
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, 14 + mtu), 0);
	cr_expect_eq(rx_drops_of(RX_DROP_OVER_MTU), 0, "the MTU's own length passes");
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, 14 + mtu + 1), 0);
	cr_expect_eq(rx_drops_of(RX_DROP_OVER_MTU), 1);
	cr_expect_eq(ppcnt(PORT_CNT_a_frame_too_long_errors, 0), 1);
	cr_expect_eq(ppcnt(PORT_CNT_a_frames_received_ok, 0), 1, "only the good frame");
	/* T120: ether_stats_pkts and _octets count bad packets too (FCS included);
	 * ether_stats_oversize_pkts "longer than MTU octets ... but otherwise well formed". */
	cr_expect_eq(ppcnt(PORT_CNT_ether_stats_pkts, 0), 3);
	cr_expect_eq(ppcnt(PORT_CNT_ether_stats_octets, 0),
		     (59 + 4) + (14 + mtu + 4) + (14 + mtu + 1 + 4));
	cr_expect_eq(ppcnt(PORT_CNT_ether_stats_oversize_pkts, 0), 1);
}

/* D-RX-5, D-TX-6: the MTU leaves out the Ethernet header and up to two 802.1Q/802.1ad tags; a
 * third tag, or a tag of TPID 9100h, counts as L3 payload (as on the send path). */
Test(rx_wire, mtu_counts_two_tags_at_most)
{
	uint8_t f[2048] = { 0 };
	memcpy(f, rx_own_mac, 6);
	uint32_t mtu = rdev->dev->port[0].oper_mtu;
	static const uint8_t two[8] = { 0x81, 0x00, 0x00, 0x05, 0x88, 0xA8, 0x00, 0x06 };
	memcpy(f + 12, two, 8);
	f[20] = 0x08;
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, 22 + mtu), 0);
	cr_expect_eq(rx_drops_of(RX_DROP_OVER_MTU), 0, "two tags: 22 bytes of L2");
	static const uint8_t three[12] = { 0x81, 0x00, 0x00, 0x05, 0x88, 0xA8, 0x00, 0x06,
					   0x81, 0x00, 0x00, 0x07 };
	memcpy(f + 12, three, 12);
	f[24] = 0x08;
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, 26 + mtu), 0);
	cr_expect_eq(rx_drops_of(RX_DROP_OVER_MTU), 1, "a third tag is L3 payload: MTU + 4");
	memset(f + 12, 0, 16);
	static const uint8_t qinq[4] = { 0x91, 0x00, 0x00, 0x05 };
	memcpy(f + 12, qinq, 4);
	f[16] = 0x08;
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, 18 + mtu), 0);
	cr_expect_eq(rx_drops_of(RX_DROP_OVER_MTU), 2, "9100h is no tag: MTU + 4 of L3 payload");
}

/* D-RX-6: the vport takes its own addresses, broadcast, its lists, and what promisc allows. */
Test(rx_wire, vport_acceptance)
{
	uint8_t f[256];
	const uint8_t other[6] = { 0x02, 0, 0, 0, 0, 0x55 };
	const uint8_t mc[6] = { 0x01, 0x00, 0x5E, 0, 0, 1 };
	const uint8_t bc[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	struct rx_frame_opts o = rx_udp(30);
	size_t n;
	struct vport *v = rdev->dev->vport;
	o.dst = other;
	n = rx_frame(f, &o);
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 1, "another station's unicast");
	v->promisc_uc = true;
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 1, "promisc_uc takes it");
	v->promisc_uc = false;
	o.dst = mc;
	n = rx_frame(f, &o);
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 2, "a multicast not on the list");
	v->promisc_all = true;
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 2, "promisc_all takes all");
	v->promisc_all = false;
	o.dst = bc;
	n = rx_frame(f, &o);
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 2, "broadcast");
	o.dst = NULL;
	n = rx_frame(f, &o);
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 2, "the permanent address");
	/* Taken frames counted by cast (T486), then the stub's default: steering drops them. */
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_UNICAST).packets, 2);
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_MULTICAST).packets, 1);
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_BROADCAST).packets, 1);
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_UNICAST).octets, 2 * (n + 4));
	cr_expect_eq(rx_drops_of(RX_DROP_STEERING), 4);
	cr_expect_eq(ppcnt(PORT_CNT_if_in_discards, 0), 4);
}

/* D-RX-6: a non-empty vlan list admits only its VLANs (untagged frames pass). */
Test(rx_wire, vlan_list)
{
	uint8_t f[256];
	struct vport *v = rdev->dev->vport;
	static uint64_t vl[1] = { 0x10 };
	v->list[VPORT_LIST_VLAN] = vl;
	v->list_len[VPORT_LIST_VLAN] = 1;
	struct rx_frame_opts o = rx_udp(30);
	o.vid = 0x11;
	size_t n = rx_frame(f, &o);
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 1);
	o.vid = 0x10;
	n = rx_frame(f, &o);
	nicref_wire_rx(rdev->dev, 1, f, n);
	o.vid = -1;
	n = rx_frame(f, &o);
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_FILTER), 1);
	v->list[VPORT_LIST_VLAN] = NULL;
	v->list_len[VPORT_LIST_VLAN] = 0;
}

/* D-VP-2: a vport that is down takes nothing; RFC 2863 ifInDiscards. */
Test(rx_wire, vport_down)
{
	uint8_t f[256];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	rdev->dev->vport->admin_state = 0;
	nicref_wire_rx(rdev->dev, 1, f, n);
	cr_expect_eq(rx_drops_of(RX_DROP_VPORT_DOWN), 1);
	cr_expect_eq(ppcnt(PORT_CNT_if_in_discards, 0), 1);
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_UNICAST).packets, 0);
	rdev->dev->vport->admin_state = 1;
}

/* The whole path: wire -> vport -> steering's verdict -> TIR -> RQ -> CQE; PPCNT at the tag's
 * priority (D-RX-7). */
Test(rx_wire, wire_to_cqe)
{
	uint8_t f[256], m[256], c[64];
	deliver_all(0x77);
	rx_post1(RX_BUF, 512);
	struct rx_frame_opts o = rx_udp(40);
	o.vid = 3;
	o.prio = 6;
	size_t n = rx_frame(f, &o);
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, n), 0);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2);
	cr_expect_eq(CQE(c, flow_tag), 0x77);
	cr_expect_eq(CQE(c, byte_cnt), n - 4, "stripped");
	rx_mem(RX_BUF, m, 12);
	cr_expect_arr_eq(m, f, 12);
	cr_expect_eq(ppcnt(PORT_CNT_a_frames_received_ok, 0), 1);
	cr_expect_eq(ppcnt(PORT_CNT_rx_frames, 6), 1, "per_prio at PCP 6");
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_UNICAST).packets, 1);
	/* No WQE left: per_prio rx_discards and the vport's Received errors (D-RX-8). */
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, n), 0);
	cr_expect_eq(rx_drops_of(RX_DROP_NO_WQE), 1);
	cr_expect_eq(ppcnt(PORT_CNT_rx_discards, 6), 1);
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_ERRORS).packets, 1);
}

/* §7.11.2 multi-destination: one copy per TIR, each with its tag. */
Test(rx_wire, two_tirs_two_copies)
{
	uint8_t f[256], c[64];
	uint32_t tirs[2];
	tirs[0] = rx.tirn;
	struct refdrv_tir_attr ta = { .inline_rqn = rx.rqn, .td = rx.td };
	cr_assert_eq(refdrv_create_tir(&rdev->d, &ta, &tirs[1]), 0);
	rx_steer_all(tirs, 2, 5); /* one multi-path flow to both TIRs (§7.11.2.7) */
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	struct rx_frame_opts o = rx_udp(40);
	size_t n = rx_frame(f, &o);
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, n), 0);
	rx_cqe(c);
	cr_expect_eq(CQE(c, flow_tag), 5);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	rx_cqe(c);
	cr_expect_eq(CQE(c, flow_tag), 5);
	cr_expect_eq(CQE(c, wqe_counter), 1, "the second copy takes the next WQE");
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_UNICAST).packets, 1, "once");
	/* The flow names the TIR: destroying it is refused until the flow goes (D-OBJ-1). */
	cr_expect_neq(refdrv_destroy_tir(&rdev->d, tirs[1]), 0);
	cr_assert_eq(refdrv_delete_fte(&rdev->d, 0, rx.ft, 0), 0);
	cr_assert_eq(refdrv_destroy_tir(&rdev->d, tirs[1]), 0);
}

/* §3.4, T45 self_lb_en (D-RX-12): a looped frame of the TIR's own domain passes only when its
 * kind is enabled; another domain's always. */
Test(rx_wire, self_loopback_filter)
{
	struct rx_opts op = rx_default_opts();
	op.self_lb = 2; /* multicast only */
	rx_setup_opts(&op);
	uint8_t f[256];
	struct rx_frame_opts o = rx_udp(40);
	size_t n = rx_frame(f, &o);
	struct pkt_info pi;
	pkt_parse(f, n, &pi);
	rx_post1(RX_BUF, 512);
	struct eth_lb_frame lb = { f, n, 1, 0, rx.td, false };
	struct rx_pkt p = { .frame = f, .len = n, .pi = &pi, .port = 1, .lb = &lb };
	cr_expect_eq(rx_deliver(rdev->dev, rx.tirn, &p), RX_DROPPED, "self unicast, bit 0 clear");
	cr_expect_eq(rx_drops_of(RX_DROP_SELF_LOOPBACK), 1);
	lb.multicast = true;
	cr_expect_eq(rx_deliver(rdev->dev, rx.tirn, &p), RX_DELIVERED, "self multicast, bit 1");
	lb.multicast = false;
	lb.td = rx.td + 1;
	rx_post1(RX_BUF, 512);
	cr_expect_eq(rx_deliver(rdev->dev, rx.tirn, &p), RX_DELIVERED, "another domain");
	cr_expect_eq(ppcnt(PORT_CNT_rx_frames, 0), 0, "looped frames are not port traffic");
}

/* The send path's hook reaches the receive engine (eth/eth.h rx_loopback, §3.4). */
Test(rx_wire, loopback_hook_is_plugged)
{
	struct eth_state *es = rdev->dev->datapath.state;
	cr_assert_not_null(es);
	cr_expect_eq((void *)es->rx_loopback, (void *)rx_loopback);
	cr_expect_eq(es->rx_state, rx_state_of(rdev->dev));
	uint8_t f[256];
	struct rx_frame_opts o = rx_udp(40);
	size_t n = rx_frame(f, &o);
	struct eth_lb_frame lb = { f, n, 1, 0, rx.td + 1, false };
	deliver_all(9);
	rx_post1(RX_BUF, 512);
	es->rx_loopback(rdev->dev, es->rx_state, &lb);
	uint8_t c[64];
	rx_cqe(c);
	cr_expect_eq(CQE(c, flow_tag), 9);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_FRAME_IN), 0, "not from the wire");
}
