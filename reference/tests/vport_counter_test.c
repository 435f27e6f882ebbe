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
