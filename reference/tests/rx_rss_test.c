/* An Indirect TIR (eth/rx_tir.c, eth/rss.c): the Toeplitz hash of the selected fields picks the
 * RQT entry (PRM §3.3.3, T45-T47, T58; D-RSS-1), and the CQE reports it (T68 rx_hash_result,
 * rx_hash_type). Expected hashes are Microsoft's published RSS verification values (NDIS
 * "Verifying the RSS Hash Calculation", the IPv4 table, under its well-known 40-byte key), not
 * the model's output; the RQT index is the hash's low bits (D-RSS-1). */
#include <criterion/criterion.h>

#include "rx_util.h"

TestSuite(rx_rss, .init = rx_setup, .fini = rx_teardown);

static const uint8_t ms_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
	0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
	0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* One row of the published IPv4 table: source and destination address and port, the hash
 * over the addresses and over the addresses and TCP ports. */
struct ms_row {
	uint8_t src[4], dst[4];
	uint16_t sport, dport;
	uint32_t ip_hash, tcp_hash;
};
static const struct ms_row rows[] = {
	{ { 66, 9, 149, 187 }, { 161, 142, 100, 80 }, 2794, 1766, 0x323e8fc2, 0x51ccc178 },
	{ { 199, 92, 111, 2 }, { 65, 69, 140, 83 }, 14230, 4739, 0xd718262a, 0xc626b0ea },
};

#define OTHER_USER_INDEX 0x111u

static struct {
	uint32_t rq2, rqt, tir;
	struct refdrv_rq_ring ring2;
} ind;

/* A second RQ on the test's CQ (user_index 0x111), an RQT of 8 entries whose entry 2 is the
 * test's RQ and every other the second RQ, and an Indirect Toeplitz TIR over it with `sel`. */
static void indirect_setup(uint32_t sel)
{
	struct refdrv *d = &rdev->d;
	struct refdrv_wq_attr wq = { .buf = tl_hostmem(rdev, 1u << (4 + 6)),
				     .dbr = tl_hostmem(rdev, 8),
				     .wq_type = 1,
				     .log_wq_sz = 4,
				     .log_wq_stride = 6,
				     .pd = rx.pd };
	struct refdrv_rq_attr ra = { .wq = wq, .cqn = rx.cq.cqn, .user_index = OTHER_USER_INDEX,
				     .flush_in_error_en = true };
	cr_assert_eq(refdrv_create_rq(d, &ra, &ind.rq2), 0, "CREATE_RQ %s", d->error);
	cr_assert_eq(refdrv_modify_rq(d, ind.rq2, 0, 1), 0);
	ind.ring2 = (struct refdrv_rq_ring){ .buf = wq.buf, .dbr = wq.dbr, .log_wq_sz = 4,
					     .log_wq_stride = 6, .qn = ind.rq2 };
	uint32_t list[8];
	for (unsigned i = 0; i < 8; i++)
		list[i] = i == 2 ? rx.rqn : ind.rq2;
	cr_assert_eq(refdrv_create_rqt(d, 8, list, 8, &ind.rqt), 0, "CREATE_RQT %s", d->error);
	struct refdrv_tir_attr ta = { .indirect = true, .rqt = ind.rqt, .hash_fn = 2,
				      .toeplitz_key = ms_key, .sel_outer = sel, .td = rx.td,
				      .self_lb_en = 3 };
	cr_assert_eq(refdrv_create_tir(d, &ta, &ind.tir), 0, "CREATE_TIR %s", d->error);
	rx_steer_all(&ind.tir, 1, 0);
	rx_post1(RX_BUF, 512);
	struct refdrv_rx_sge s = rx_sge(RX_BUF + 0x400, 512);
	cr_assert_eq(refdrv_rq_post(d, &ind.ring2, &s, 1), 0, "%s", d->error);
}

/* A TCP frame of the row's addresses and ports (checksums are not what is tested). */
static size_t row_frame(uint8_t *f, const struct ms_row *r)
{
	struct rx_frame_opts o = { .vid = -1, .proto = 6, .payload = 20 };
	size_t n = rx_frame(f, &o);
	memcpy(f + 14 + 12, r->src, 4);
	memcpy(f + 14 + 16, r->dst, 4);
	f[34] = (uint8_t)(r->sport >> 8), f[35] = (uint8_t)r->sport;
	f[36] = (uint8_t)(r->dport >> 8), f[37] = (uint8_t)r->dport;
	return n;
}

/* T47: IPv4 (l3_prot_type 0), TCP (l4_prot_type 0); selected_fields b0 SRC_IP, b1 DST_IP,
 * b2 L4_SPORT, b3 L4_DPORT. */
#define SEL_IPV4 0x3u
#define SEL_IPV4_TCP 0xFu

Test(rx_rss, toeplitz_ipv4_tcp_picks_the_rqt_entry_of_the_hash)
{
	indirect_setup(SEL_IPV4_TCP);
	uint8_t f[256], c[64];
	for (unsigned i = 0; i < 2; i++) {
		size_t n = row_frame(f, &rows[i]);
		cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, n), 0);
		rx_cqe(c);
		cr_expect_eq(CQE(c, rx_hash_result), rows[i].tcp_hash, "row %u", i);
		/* T68: IPv4 source, IPv4 destination, TCP source, TCP destination: 01 in each slot. */
		cr_expect_eq(CQE(c, rx_hash_type), 0x55, "row %u", i);
		/* 0x51ccc178 & 7 = 0: the other RQ; 0xc626b0ea & 7 = 2: the test's RQ. */
		uint32_t want = (rows[i].tcp_hash & 7) == 2 ? rx.o.user_index : OTHER_USER_INDEX;
		cr_expect_eq(CQE(c, srqn_user_index), want, "row %u", i);
	}
}

Test(rx_rss, toeplitz_ipv4_addresses_only)
{
	indirect_setup(SEL_IPV4);
	uint8_t f[256], c[64];
	size_t n = row_frame(f, &rows[1]);
	cr_assert_eq(nicref_wire_rx(rdev->dev, 1, f, n), 0);
	rx_cqe(c);
	cr_expect_eq(CQE(c, rx_hash_result), 0xd718262a);
	cr_expect_eq(CQE(c, rx_hash_type), 0x05, "IPv4 source and destination only");
	cr_expect_eq(CQE(c, srqn_user_index), rx.o.user_index, "0xd718262a & 7 = 2");
}
