/* Receive checksum offload on a device whose csum_cap is 0 (PRM §3.3.1: "Checksum offload
 * support is reported through the csum_cap bit"; "Receive checksum offload is reported through
 * CQE checksum bits": l3_ok, l4_ok, checksum, T68 and T4). Decision D-RX-17 (docs/rx.md): a
 * frame completed on its own is not validated (l3_ok = l4_ok = 0, T68 "otherwise this bit is
 * disabled") and its checksum field is 0 (T4's "invalid"); an LRO session's CQE keeps its fields
 * (the session's segments passed §3.3.6.2 "TCP/IP checksum is OK", and T4/T5's merged-payload
 * checksum is LRO's, D-LRO-7). The frames' checksums are built by this directory's own RFC 1071
 * sum (rx_util.h, lro_util.h). */
#include <criterion/criterion.h>

#include "lro_util.h"

/* The receive stack and the LRO TIR on a device whose profile lowers csum_cap to 0. */
static void no_csum_cap(void)
{
	static struct nicref_profile p;
	nicref_profile_default(&p);
	cr_assert_eq(nicref_profile_cap_set(&p, "per_protocol_networking_offload_caps", "csum_cap",
					    0),
		     NICREF_CAP_SET_OK);
	struct rx_opts o = rx_default_opts();
	o.profile = &p;
	struct lro_tir_opts t = lro_tir_default();
	lro_setup_with(&o, &t);
}

TestSuite(rx_csum_cap, .init = no_csum_cap, .fini = rx_teardown);

/* Every header field that is not the checksum offload's is reported as with csum_cap 1. */
static void expect_parse_fields(const uint8_t *c, size_t n, unsigned l4_type, const char *what)
{
	cr_expect_eq(CQE(c, opcode), 2, "%s: T68 2: responder send", what);
	cr_expect_eq(CQE(c, byte_cnt), n, "%s", what);
	cr_expect_eq(CQE(c, l2_ok), 1, "%s: l2_ok is not a checksum", what);
	cr_expect_eq(CQE(c, l3_hdr_type), 2, "%s: T68 10: IPv4", what);
	cr_expect_eq(CQE(c, l4_hdr_type), l4_type, "%s", what);
}

Test(rx_csum_cap, a_frame_on_its_own_is_not_validated)
{
	uint8_t f[256], c[64];
	for (unsigned i = 0; i < 3; i++)
		rx_post1(RX_BUF + 0x200 * i, 512);
	/* Good checksums: nothing validated, nothing reported. */
	struct rx_frame_opts o = rx_udp(58);
	size_t n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	expect_parse_fields(c, n, 2, "UDP");
	cr_expect_eq(CQE(c, l3_ok), 0, "D-RX-17: no checksum offload, nothing validated");
	cr_expect_eq(CQE(c, l4_ok), 0, "D-RX-17");
	cr_expect_eq(CQE(c, checksum), 0, "D-RX-17: T4 'invalid'");
	/* TCP with an ACK and data. */
	o = (struct rx_frame_opts){ .vid = -1, .proto = 6, .tcp_flags = 0x10, .payload = 40 };
	n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	expect_parse_fields(c, n, 4, "TCP");
	cr_expect_eq(CQE(c, l3_ok), 0);
	cr_expect_eq(CQE(c, l4_ok), 0);
	cr_expect_eq(CQE(c, checksum), 0);
	/* A wrong L4 checksum: the same CQE (the device cannot tell). */
	o = rx_udp(30);
	o.bad_l4_csum = true;
	n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	expect_parse_fields(c, n, 2, "UDP, wrong checksum");
	cr_expect_eq(CQE(c, l3_ok), 0);
	cr_expect_eq(CQE(c, l4_ok), 0);
	cr_expect_eq(CQE(c, checksum), 0);
	cr_expect_eq(rdev->tr.violations, 0, "receiving is never the driver's mistake");
}

/* D-RX-17 with D-LRO-7: a merged session's CQE keeps l3_ok/l4_ok (each segment passed
 * §3.3.6.2's "TCP/IP checksum is OK") and T4's "Checksum of the merged TCP segment payload";
 * the segment that ends it, completed on its own, is not validated. */
Test(rx_csum_cap, an_lro_session_keeps_its_checksum)
{
	uint8_t f[512], c[64];
	size_t tcp;
	for (unsigned i = 0; i < 4; i++)
		rx_post1(RX_BUF + 0x1000 * i, 4096);
	struct seg a = seg_of(1, 100), b = seg_of(101, 60), late = seg_of(900, 100);
	b.fill = 0x55;
	cr_assert_eq(seg_give(&a), RX_DELIVERED);
	cr_assert_eq(seg_give(&b), RX_DELIVERED);
	cr_assert_eq(seg_give(&late), RX_DELIVERED, "out of order: ends the session");
	/* The payloads as one byte stream: a's 100 bytes (even), then b's. */
	seg_build(f, &a, &tcp);
	uint32_t s = rx_sum(0, f + tcp + 20, 100);
	seg_build(f, &b, &tcp);
	s = rx_sum(s, f + tcp + 20, 60);
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 2);
	cr_expect_eq(CQE(c, l3_ok), 1, "the session's segments were validated (§3.3.6.2)");
	cr_expect_eq(CQE(c, l4_ok), 1);
	cr_expect_eq(CQE(c, checksum), rx_fold(s), "T4: the merged payload (D-LRO-7)");
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 0, "the segment on its own");
	cr_expect_eq(CQE(c, l3_hdr_type), 2);
	cr_expect_eq(CQE(c, l4_hdr_type), 4, "TCP ACK with data");
	cr_expect_eq(CQE(c, l3_ok), 0, "D-RX-17");
	cr_expect_eq(CQE(c, l4_ok), 0, "D-RX-17");
	cr_expect_eq(CQE(c, checksum), 0, "D-RX-17");
}
