/* QUERY_VPORT_COUNTER (PRM §12.17 T486-T492): the counters at their offsets, counting through
 * the data path's API (obj/vport.h), clear on read, 64-bit width, the vport_counters
 * capability and the output length. Shared tools: vport_util.h. */
#include <stdint.h>
#include <string.h>

#include "vport_util.h"

TestSuite(vport_counter, .init = setup, .fini = teardown);

/* ---- QUERY_VPORT_COUNTER -------------------------------------------------------------------- */

/* T489 offsets, in enum vport_counter order. */
static const unsigned cnt_off[VPORT_CNT_COUNT] = { 0x10, 0x20, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0 };

Test(vport_counter, counters_zero_at_power_on)
{
	uint8_t out[0x210];
	cr_assert_eq(query_counters(false, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++) {
		cr_expect_eq(tl_get64(out, cnt_off[k]), 0, "counter %u packets", k);
		cr_expect_eq(tl_get64(out, cnt_off[k] + 8), 0, "counter %u octets", k);
	}
	/* reserved parts of the output stay zero (08h-0Ch, 30h-6Ch, D0h-20Ch) */
	for (unsigned o = 0x30; o < 0x70; o += 4)
		cr_expect_eq(tl_get32(out + o), 0, "reserved %xh", o);
	for (unsigned o = 0xD0; o < 0x210; o += 4)
		cr_expect_eq(tl_get32(out + o), 0, "reserved %xh", o);
}

Test(vport_counter, counters_count_and_clear)
{
	/* Each counter k counts k + 1 packets of 64 + k bytes, through the data path's API. */
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++)
		for (unsigned p = 0; p <= k; p++)
			vport_count(tdev->dev, (enum vport_counter)k, 64 + k);
	uint8_t out[0x210];
	cr_assert_eq(query_counters(false, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++) {
		cr_expect_eq(tl_get64(out, cnt_off[k]), k + 1, "T491 packets of counter %u", k);
		cr_expect_eq(tl_get64(out, cnt_off[k] + 8), (k + 1) * (64 + k), "octets %u", k);
	}
	/* a plain query does not reset */
	cr_assert_eq(query_counters(false, out), OK);
	cr_expect_eq(tl_get64(out, 0x90), VPORT_CNT_RX_UNICAST + 1);
	/* T488 clear: "Read and reset counter value": this read has the values ... */
	cr_assert_eq(query_counters(true, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++)
		cr_expect_eq(tl_get64(out, cnt_off[k]), k + 1, "clear returns the value read");
	/* ... the next one zero */
	cr_assert_eq(query_counters(false, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++) {
		cr_expect_eq(tl_get64(out, cnt_off[k]), 0);
		cr_expect_eq(tl_get64(out, cnt_off[k] + 8), 0);
		struct vport_traffic t = vport_counter_get(tdev->dev, (enum vport_counter)k);
		cr_expect_eq(t.packets, 0);
		cr_expect_eq(t.octets, 0);
	}
	/* counting goes on from zero */
	vport_count(tdev->dev, VPORT_CNT_TX_MULTICAST, 1500);
	cr_assert_eq(query_counters(false, out), OK);
	cr_expect_eq(tl_get64(out, 0xC0), 1);
	cr_expect_eq(tl_get64(out, 0xC8), 1500);
}

Test(vport_counter, counters_64_bits_wide)
{
	tdev->dev->vport->cnt[VPORT_CNT_RX_ERRORS].packets = 0x123456789ull;
	tdev->dev->vport->cnt[VPORT_CNT_RX_ERRORS].octets = 0xFFFFFFFFFFFFFFFEull;
	vport_count(tdev->dev, VPORT_CNT_RX_ERRORS, 1);
	uint8_t out[0x210];
	cr_assert_eq(query_counters(true, out), OK);
	cr_expect_eq(tl_get32(out + 0x10), 0x1, "T492 packets[63:32]");
	cr_expect_eq(tl_get32(out + 0x14), 0x2345678A, "packets[31:0]");
	cr_expect_eq(tl_get64(out, 0x18), 0xFFFFFFFFFFFFFFFFull);
}

Test(vport_counter, counters_need_the_capability)
{
	/* §12.17: "supported only when HCA_CAP.vport_counters == 1". */
	vport_count(tdev->dev, VPORT_CNT_RX_UNICAST, 60);
	tl_set_cap(tdev, "vport_counters", 0);
	uint8_t out[0x210];
	cr_expect_eq(query_counters(true, out), BAD_OP);
	tl_expect_refused(tdev, BAD_OP, NICREF_RULE_VPORT_COUNTERS_UNSUPPORTED);
	cr_expect_eq(vport_counter_get(tdev->dev, VPORT_CNT_RX_UNICAST).packets, 1, "clear refused too");
	tl_set_cap(tdev, "vport_counters", 1);
}

Test(vport_counter, counter_query_short_output_refused)
{
	/* T489: the output grid runs to 20Ch: 210h bytes. */
	uint8_t in[0x20] = { 0 }, out[0x210];
	header(in, OP_QUERY_VPORT_COUNTER, 0);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, 0xD0), BAD_OUTPUT_LEN);
	tl_expect_refused(tdev, BAD_OUTPUT_LEN, NICREF_RULE_OUTPUT_TOO_SHORT);
}

/* ---- No traffic outside INIT_HCA..TEARDOWN_HCA (invariant -408) ----------------------------- */

/* A 64-byte broadcast frame (IEEE 802.3 minimum, the FCS excluded as the model's frames are). */
static void bcast_frame(uint8_t f[64])
{
	memset(f, 0, 64);
	memset(f, 0xFF, 6);
	f[6] = 0x02;
	f[11] = 0x01;
	f[12] = 0x08; /* IPv4 EtherType, payload zero */
}

/* The function's vport exists from INIT_HCA to TEARDOWN_HCA (PRM §12.17: "When a Vport is
 * created, a set of traffic counters on this Vport will also be automatically created"; §7.14.3
 * TEARDOWN_HCA returns it to power-on, D-VP-2): a frame on the wire outside that window finds
 * the vport down, is dropped as such and counts nothing in it. */
static void expect_frame_not_taken(struct tl_dev *t)
{
	cr_expect(!vport_is_up(t->dev), "the vport is down while the HCA is not initialized");
	struct nicref_stats s0, s1;
	nicref_stats_get(t->dev, &s0);
	uint8_t f[64];
	bcast_frame(f);
	cr_assert_eq(nicref_wire_rx(t->dev, 1, f, sizeof f), 0);
	nicref_stats_get(t->dev, &s1);
	cr_expect_eq(s1.rx_drops - s0.rx_drops, 1, "the frame is dropped");
	cr_expect_eq(vport_counter_get(t->dev, VPORT_CNT_RX_BROADCAST).packets, 0,
		     "T486 Received ETH broadcast counted a frame outside INIT_HCA..TEARDOWN_HCA");
	cr_expect_eq(nicref_dev_check(t->dev), 0, "invariant -408 holds");
	memset(t->dev->vport->cnt, 0, sizeof t->dev->vport->cnt); /* for tl_down's check */
}

Test(vport_counter, wire_frame_after_teardown_counts_nothing)
{
	cr_assert_eq(refdrv_teardown(&tdev->d), 0, "%s", tdev->d.error);
	expect_frame_not_taken(tdev);
	/* and the same frame counts once the HCA is initialized again */
	cr_assert_eq(refdrv_bring_up(&tdev->d, REFDRV_INITIALIZED), 0, "%s", tdev->d.error);
	uint8_t f[64];
	bcast_frame(f);
	cr_assert_eq(nicref_wire_rx(tdev->dev, 1, f, sizeof f), 0);
	cr_expect_eq(vport_counter_get(tdev->dev, VPORT_CNT_RX_BROADCAST).packets, 1);
}

Test(vport_counter, wire_frame_before_init_counts_nothing)
{
	struct tl_dev *t2 = tl_up_to(NULL, REFDRV_ENABLED);
	expect_frame_not_taken(t2);
	tl_down(t2);
}
