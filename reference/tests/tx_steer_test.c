/* NIC_TX classification of the frames an SQ sends (PRM §7.11.4.2, §7.11.2; eth/tx_steer.c,
 * D-TX-16 in docs/tx.md): every frame after the offloads (each LSO segment) goes through the
 * NIC_TX flow tables before the loopback decision; a DROP flow discards it (a tx_discard event
 * of reason 4, PPCNT if_out_discards, D-TX-6) and it is neither sent nor looped nor counted as
 * sent; no root, a miss and ALLOW transmit; the flows' counters count each frame. Shared
 * tools: tx_util.h, steer_util.h. */
#include "eth/eth.h"
#include "steer_util.h"
#include "tx_util.h"

TestSuite(tx_steer, .init = tx_setup, .fini = tx_teardown);

enum { ALLOW = 1, DROP = 2, FWD = 4, COUNT = 8 };
#define NIC_TX 1u

static void send_udp(uint64_t dmac, size_t len, uint16_t dport)
{
	uint8_t pkt[2000];
	tx_udp_packet(pkt, len, dmac);
	pkt[36] = (uint8_t)(dport >> 8), pkt[37] = (uint8_t)dport;
	struct wqe w;
	w_send_packet(&w, 2, pkt, len, 42, 0);
	tx_send(&w);
}

/* A level-0 NIC_TX table (the root, §7.11.3.2) with one group matching the UDP destination port
 * and one flow at index 0 for port `dport` with `action` (and counter `cnt` when COUNT). */
static uint32_t tx_rule(unsigned action, uint16_t dport, uint32_t cnt)
{
	struct refdrv *d = &tdev->d;
	uint32_t ft, fg;
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_udp_dport", 0xffff);
	mset(m, "outer_udp_dport", dport);
	cr_assert_eq(refdrv_create_flow_table(d, NIC_TX, 0, 2, 0, 0, &ft), 0, "%s", d->error);
	cr_assert_eq(refdrv_create_flow_group(d, NIC_TX, ft, 0, 3, 1, crit, &fg), 0, "%s", d->error);
	struct refdrv_fte f = { .group_id = fg, .action = action, .match = m };
	if (action & COUNT) {
		f.ncnt = 1;
		f.cnt[0] = (uint16_t)cnt;
	}
	cr_assert_eq(refdrv_set_fte(d, NIC_TX, ft, 0, 0, 0, &f), 0, "SET_FLOW_TABLE_ENTRY rule %s",
		     tl_rule_of(d->last_syndrome));
	tl_mark(&tdev->tr);
	return ft;
}

Test(tx_steer, a_drop_flow_discards_the_frame)
{
	tx_rule(DROP, 7, 0);
	send_udp(TX_DMAC, 100, 7);
	cr_expect_eq(tx.nframes, 0, "not on the wire");
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_FRAME_OUT), 0);
	const struct nicref_event *e = tl_only(&tdev->tr, NICREF_EV_TX_DISCARD);
	cr_expect_eq(e->arg[0], tx.sqn);
	cr_expect_eq(e->arg[1], 0, "the WQE's index");
	cr_expect_eq(e->arg[2], 4, "reason 4: NIC_TX steering (D-TX-16)");
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_discards, 0), 1, "D-TX-6");
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_a_frames_transmitted_ok, 0), 0);
	cr_expect_eq(vport_counter_get(tdev->dev, VPORT_CNT_TX_UNICAST).packets, 0,
		     "the vport did not send it");
	cr_expect_eq(tdev->tr.violations, 0, "not the driver's mistake");
	/* the WQE completes as sent: a good CQE (ce 10), the SQ stays RDY */
	uint8_t cqe[64];
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(tx_query().state, 1);
	/* another port misses the flow: NIC_TX's default is transmit (§7.11.2.5) */
	send_udp(TX_DMAC, 100, 8);
	cr_expect_eq(tx.nframes, 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_TX_DISCARD), 1);
}

Test(tx_steer, a_drop_flow_stops_the_loopback_too)
{
	/* The frame for the function's own address would stay local (D-TX-5): dropped before
	 * the loopback decision, no tx_loopback event. */
	struct eth_state *es = tdev->dev->datapath.state;
	es->rx_loopback = NULL;
	tx_rule(DROP, 7, 0);
	send_udp(VPORT_PERMANENT_ADDRESS, 100, 7);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_TX_LOOPBACK), 0);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_TX_DISCARD)->arg[2], 4);
	send_udp(VPORT_PERMANENT_ADDRESS, 100, 9);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_TX_LOOPBACK)->arg[2], 1, "local");
}

Test(tx_steer, allow_and_no_root_transmit)
{
	send_udp(TX_DMAC, 100, 7); /* no NIC_TX table: the default (§7.11.2.5) */
	cr_expect_eq(tx.nframes, 1);
	tx_rule(ALLOW, 7, 0); /* ALLOW: the type's default (D-FT-7) */
	send_udp(TX_DMAC, 100, 7);
	cr_expect_eq(tx.nframes, 2);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_TX_DISCARD), 0);
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_discards, 0), 0);
}

/* T151's NIC_TX flow_counter is 0 in the default capabilities (D-FT-4); raised, a NIC_TX flow
 * counts what it sees (§7.11.2.8): each LSO segment is a frame, counted as classified (D-FC-2). */
Test(tx_steer, flow_counters_count_each_frame)
{
	sprop(tdev, NIC_TX, "flow_counter", 1);
	uint32_t c;
	cr_assert_eq(refdrv_alloc_flow_counter(&tdev->d, &c), 0);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_ip_protocol", 0xff);
	mset(m, "outer_ip_protocol", 6);
	struct refdrv *d = &tdev->d;
	uint32_t ft, fg;
	cr_assert_eq(refdrv_create_flow_table(d, NIC_TX, 0, 2, 0, 0, &ft), 0);
	cr_assert_eq(refdrv_create_flow_group(d, NIC_TX, ft, 0, 3, 1, crit, &fg), 0);
	struct refdrv_fte f = { .group_id = fg, .action = ALLOW | COUNT, .match = m, .ncnt = 1 };
	f.cnt[0] = (uint16_t)c;
	cr_assert_eq(refdrv_set_fte(d, NIC_TX, ft, 0, 0, 0, &f), 0, "rule %s",
		     tl_rule_of(d->last_syndrome));
	static const uint8_t hdr[54] = {
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,		 /* Ethernet */
		0x45, 0, 0, 0, 0, 1, 0x40, 0, 0x40, 0x06, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2, /* IPv4 */
		0x04, 0xD2, 0x16, 0x2E, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x10, 0xFF, 0xFF, 0, 0, 0, 0,
	};
	uint8_t payload[1000];
	memset(payload, 0x5A, sizeof payload);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_LSO, 2);
	w_eth(&w, 1, 1, 500, hdr, sizeof hdr);
	w_ptr(&w, tx.lkey, tx_data(0, payload, sizeof payload), sizeof payload);
	tx_send(&w);
	cr_assert_eq(tx.nframes, 2, "two segments of 500 bytes");
	send_udp(TX_DMAC, 100, 7); /* UDP: the flow does not match, not counted */
	cr_assert_eq(tx.nframes, 3);
	uint64_t pk, oc;
	cr_assert_eq(refdrv_query_flow_counter(d, c, false, &pk, &oc), 0);
	cr_expect_eq(pk, 2);
	cr_expect_eq(oc, tx.frames[0].len + tx.frames[1].len);
	cr_expect_eq(tx.frames[0].len, 554);
}

Test(tx_steer, each_lso_segment_is_classified)
{
	static const uint8_t hdr[54] = {
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
		0x45, 0, 0, 0, 0, 1, 0x40, 0, 0x40, 0x06, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
		0x04, 0xD2, 0x16, 0x2E, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x10, 0xFF, 0xFF, 0, 0, 0, 0,
	};
	/* a DROP flow on TCP destination port 5678 */
	struct refdrv *d = &tdev->d;
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_tcp_dport", 0xffff);
	mset(m, "outer_tcp_dport", 5678);
	uint32_t ft, fg;
	cr_assert_eq(refdrv_create_flow_table(d, NIC_TX, 0, 2, 0, 0, &ft), 0);
	cr_assert_eq(refdrv_create_flow_group(d, NIC_TX, ft, 0, 3, 1, crit, &fg), 0);
	struct refdrv_fte f = { .group_id = fg, .action = DROP, .match = m };
	cr_assert_eq(refdrv_set_fte(d, NIC_TX, ft, 0, 0, 0, &f), 0);
	tl_mark(&tdev->tr);
	uint8_t payload[1000] = { 0 }, cqe[64];
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_LSO, 2);
	w_eth(&w, 1, 1, 500, hdr, sizeof hdr);
	w_ptr(&w, tx.lkey, tx_data(0, payload, sizeof payload), sizeof payload);
	tx_send(&w);
	cr_expect_eq(tx.nframes, 0);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_TX_DISCARD), 2, "one discard per segment");
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_discards, 0), 2);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0, "the LSO completes");
}
