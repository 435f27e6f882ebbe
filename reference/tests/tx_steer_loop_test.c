/* A frame an SQ sends to the function's own address arrives at an RQ through the NIC_TX and
 * NIC_RX flow tables (PRM §3.4, §7.11.4; D-TX-5, D-TX-16 of docs/tx.md; docs/rx.md): the SQ's
 * WQE (harness/driver_sq.h), NIC_TX classification, the loopback decision, NIC_RX steering to
 * the TIR (rx_steer_all), the RQ's WQE and its CQE. The SQ has its own transport domain, so the
 * TIR's self-loopback filter (§3.4, T45 self_lb_en) does not apply. Shared tools: rx_util.h. */
#include "driver_sq.h"
#include "rx_util.h"

#define NIC_TX 1u
enum { ALLOW = 1, DROP = 2, COUNT = 8 };

static struct refdrv_sq_stack sq;

static void loop_setup(void)
{
	rx_setup();
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	a.data_addr = tl_hostmem(rdev, a.data_size);
	a.sq_buf = tl_hostmem(rdev, 64ull << a.log_sq_size);
	a.cq_buf = tl_hostmem(rdev, 64ull << a.log_cq_size);
	a.eq_buf = tl_hostmem(rdev, 0x10000);
	a.sq_dbr = tl_hostmem(rdev, 64);
	a.cq_dbr = a.sq_dbr + 0x40;
	memset(&sq, 0, sizeof sq);
	cr_assert_eq(refdrv_sq_stack_up(&rdev->d, &a, &sq), 0, "%s", rdev->d.error);
	cr_assert_neq(sq.td, rx.td);
	tl_mark(&rdev->tr);
}

TestSuite(tx_steer_loop, .init = loop_setup, .fini = rx_teardown);

/* A SEND of f: 42 bytes inline (Ethernet, IPv4, UDP: every inline mode's need), the rest
 * through the data MKey. */
static void sq_send(const uint8_t *f, size_t n)
{
	struct refdrv *d = &rdev->d;
	struct refdrv_wqe w;
	cr_assert_geq(refdrv_wqe_begin(&w, 0x0A, sq.pc, sq.sqn), 0, "%s", w.error);
	cr_assert_geq(refdrv_wqe_eth(&w, f, 42), 0, "%s", w.error);
	tl_mem_write(rdev, sq.a.data_addr, f + 42, n - 42);
	cr_assert_geq(refdrv_wqe_ptr(&w, sq.lkey, sq.a.data_addr, (uint32_t)(n - 42)), 0);
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, sq.a.wq_signature), 0, "%s", w.error);
	cr_assert_eq(refdrv_sq_post(d, &sq, &w, REFDRV_RING_DB), 0, "%s", d->error);
	uint8_t cqe[64];
	cr_assert_eq(refdrv_cq_poll(d, &sq.cq, cqe), 1, "the SEND completes");
	cr_expect_eq(refdrv_field_get(cqe, 64, "cqe64", "opcode"), 0);
}

/* The NIC_TX root with one flow on the UDP destination port 0x5678 (rx_frame's). */
static void tx_flow(unsigned action, uint32_t cnt)
{
	struct refdrv *d = &rdev->d;
	uint32_t ft, fg;
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	cr_assert_eq(refdrv_field_set(crit, sizeof crit, "fte_match_param", "outer_udp_dport", 0xffff), 0);
	cr_assert_eq(refdrv_field_set(m, sizeof m, "fte_match_param", "outer_udp_dport", 0x5678), 0);
	cr_assert_eq(refdrv_create_flow_table(d, NIC_TX, 0, 2, 0, 0, &ft), 0, "%s", d->error);
	cr_assert_eq(refdrv_create_flow_group(d, NIC_TX, ft, 0, 3, 1, crit, &fg), 0, "%s", d->error);
	struct refdrv_fte e = { .group_id = fg, .action = action, .match = m };
	if (action & COUNT) {
		e.ncnt = 1;
		e.cnt[0] = (uint16_t)cnt;
	}
	cr_assert_eq(refdrv_set_fte(d, NIC_TX, ft, 0, 0, 0, &e), 0, "rule %s",
		     tl_rule_of(d->last_syndrome));
}

Test(tx_steer_loop, sq_to_own_address_reaches_the_rq)
{
	/* NIC_TX: an ALLOW flow that counts (T151 flow_counter raised for NIC_TX, D-FT-4). */
	uint8_t *caps = rdev->dev->core.caps.cur[CAP_FLOW_TABLE_NIC] + 0x100;
	cr_assert_eq(nicref_field_set(caps, 0x40, tl_field("flow_table_properties", "flow_counter"), 1), 0);
	uint32_t c;
	cr_assert_eq(refdrv_alloc_flow_counter(&rdev->d, &c), 0);
	tx_flow(ALLOW | COUNT, c);
	rx_steer_all(&rx.tirn, 1, 0xABC); /* NIC_RX: every frame to the TIR, tag 0xABC */
	rx_post1(RX_BUF, 512);
	uint8_t f[256], m[256], cqe[64];
	size_t n = rx_frame(f, &(struct rx_frame_opts){ .vid = -1, .proto = 17, .payload = 50 });
	sq_send(f, n);
	/* the send path kept it local (the vport's permanent address, D-TX-5) */
	cr_expect_eq(tl_only(&rdev->tr, NICREF_EV_TX_LOOPBACK)->arg[2], 1);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_FRAME_OUT), 0);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_RX_DROP), 0);
	rx_cqe(cqe);
	cr_expect_eq(CQE(cqe, opcode), 2, "a responder CQE");
	cr_expect_eq(CQE(cqe, byte_cnt), n);
	cr_expect_eq(CQE(cqe, flow_tag), 0xABC, "the NIC_RX flow's tag");
	rx_mem(RX_BUF, m, n);
	cr_expect_arr_eq(m, f, n, "the frame as sent");
	uint64_t pk, oc;
	cr_assert_eq(refdrv_query_flow_counter(&rdev->d, c, false, &pk, &oc), 0);
	cr_expect_eq(pk, 1, "NIC_TX counted it");
	cr_expect_eq(oc, n);
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_TX_UNICAST).packets, 1);
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_UNICAST).packets, 1);
	cr_expect_eq(rdev->tr.violations, 0);
}

Test(tx_steer_loop, a_nic_tx_drop_never_reaches_the_rq)
{
	tx_flow(DROP, 0);
	rx_steer_all(&rx.tirn, 1, 1);
	rx_post1(RX_BUF, 512);
	uint8_t f[256], cqe[64];
	size_t n = rx_frame(f, &(struct rx_frame_opts){ .vid = -1, .proto = 17, .payload = 50 });
	sq_send(f, n);
	cr_expect_eq(tl_only(&rdev->tr, NICREF_EV_TX_DISCARD)->arg[2], 4);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_TX_LOOPBACK), 0);
	cr_expect_eq(refdrv_rx_poll(&rdev->d, &rx.cq, cqe), 0, "nothing received");
	cr_expect_eq(vport_counter_get(rdev->dev, VPORT_CNT_RX_UNICAST).packets, 0);
	/* a TCP frame misses the flow: transmitted (NIC_TX default), looped, received */
	n = rx_frame(f, &(struct rx_frame_opts){ .vid = -1, .proto = 6, .payload = 50 });
	sq_send(f, n);
	rx_cqe(cqe);
	cr_expect_eq(CQE(cqe, byte_cnt), n);
}
