/* The reference driver's linked-list receive ring (harness/driver_rq.h refdrv_rq_ll_write,
 * refdrv_rq_ll_init) against the model: an RQ of wq_type 0 (PRM T55, docs/rx.md D-RX-16) whose
 * WQEs software chains in an order of its own through each WQE's next segment (T42/T43
 * Next_WQE_index), as Linux's mlx5_wq_ll does once completions have relinked its free list. */
#include <criterion/criterion.h>

#include "rx_util.h"

static void linked_setup(void)
{
	struct rx_opts o = rx_default_opts();
	o.linked = o.wq_signature = true; /* the signature covers the next segment (D-RX-14) */
	rx_setup_opts(&o);
}

TestSuite(refdrv_rq_ll, .init = linked_setup, .fini = rx_teardown);

static void ll_post(uint16_t next, uint64_t off)
{
	struct refdrv_rx_sge s = rx_sge(off, 512);
	cr_assert_eq(refdrv_rq_ll_write(&rdev->d, &rx.ring, next, &s, 1), 0, "%s", rdev->d.error);
}

/* T43: Next_WQE_index of stride `at` as host memory holds it. */
static uint16_t next_in_memory(uint16_t at)
{
	uint8_t seg[4];
	tl_mem_read(rdev, rx.ring.buf + ((uint64_t)at << rx.o.log_stride), seg, sizeof seg);
	return (uint16_t)(seg[2] << 8 | seg[3]);
}

/* Three WQEs chained 0 -> 5 -> 2 (-> 9, the stride the driver fills next): the device takes
 * them in that order (D-RX-16: from stride 0 along Next_WQE_index), each frame in its WQE's
 * buffer, each CQE naming the stride (D-RX-15), each signature right over the stride index. */
Test(refdrv_rq_ll, device_follows_the_chain_software_wrote)
{
	cr_assert_eq(refdrv_rq_ll_init(&rdev->d, &rx.ring), 0, "%s", rdev->d.error);
	const uint16_t chain[4] = { 0, 5, 2, 9 };
	for (unsigned k = 0; k < 3; k++) {
		cr_assert_eq(rx.ring.ll_head, chain[k], "the driver fills the stride named last");
		ll_post(chain[k + 1], RX_BUF + 0x400u * chain[k]);
	}
	cr_assert_eq(rx.ring.ll_head, 9);
	cr_assert_eq(rx.ring.pc, 3, "three WQEs posted");
	for (unsigned k = 0; k < 3; k++)
		cr_expect_eq(next_in_memory(chain[k]), chain[k + 1], "stride %u's next segment",
			     chain[k]);
	cr_assert_eq(refdrv_rq_record(&rdev->d, &rx.ring), 0);
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	for (unsigned k = 0; k < 3; k++) {
		memset(f + n - 30, (int)(0x60 + k), 30);
		cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED, "frame %u", k);
		rx_cqe(c);
		cr_expect_eq(CQE(c, opcode), 2, "frame %u: a good CQE", k);
		cr_expect_eq(CQE(c, wqe_counter), chain[k], "frame %u: the stride along the chain", k);
		rx_mem(RX_BUF + 0x400u * chain[k], m, n);
		cr_expect_arr_eq(m, f, n, "frame %u in stride %u's buffer", k, chain[k]);
	}
	cr_expect_eq(rx_give(f, n, 0), RX_DROPPED, "three posted, three taken: the list ends");
	cr_expect_eq(rx_drops_of(9), 1, "no WQE (T24: the record counts three)");
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_VIOLATION), 0, "no signature or other rule");
}

/* The driver never names the WQE itself or a stride beyond the ring (T43); nothing is written. */
Test(refdrv_rq_ll, refuses_a_next_that_is_not_another_stride)
{
	cr_assert_eq(refdrv_rq_ll_init(&rdev->d, &rx.ring), 0, "%s", rdev->d.error);
	struct refdrv_rx_sge s = rx_sge(RX_BUF, 512);
	cr_expect_eq(refdrv_rq_ll_write(&rdev->d, &rx.ring, 0, &s, 1), -1, "itself");
	cr_expect_eq(refdrv_rq_ll_write(&rdev->d, &rx.ring, 16, &s, 1), -1, "stride 16 of 16");
	cr_expect_eq(rx.ring.pc, 0);
	cr_expect_eq(rx.ring.ll_head, 0);
	cr_expect_eq(next_in_memory(0), 1, "stride 0 as refdrv_rq_ll_init left it");
	struct refdrv_rq_ring cyclic = rx.ring;
	cyclic.linked = cyclic.shared = false;
	cr_expect_eq(refdrv_rq_ll_write(&rdev->d, &cyclic, 3, &s, 1), -1, "not a linked list");
}

/* mlx5_wq_ll_init_list: each stride zero but Next_WQE_index, the following stride, the last
 * naming stride 0; the driver's head and counter at stride 0, where the device starts. */
Test(refdrv_rq_ll, init_links_each_stride_to_the_next)
{
	uint8_t junk[64];
	memset(junk, 0xA5, sizeof junk);
	for (unsigned i = 0; i < 16; i++)
		tl_mem_write(rdev, rx.ring.buf + 64u * i, junk, sizeof junk);
	rx.ring.ll_head = 7;
	rx.ring.pc = 3;
	cr_assert_eq(refdrv_rq_ll_init(&rdev->d, &rx.ring), 0, "%s", rdev->d.error);
	cr_expect_eq(rx.ring.ll_head, 0);
	cr_expect_eq(rx.ring.pc, 0);
	for (unsigned i = 0; i < 16; i++) {
		uint8_t w[64], z[64] = { 0 };
		tl_mem_read(rdev, rx.ring.buf + 64u * i, w, sizeof w);
		cr_expect_eq(next_in_memory((uint16_t)i), (i + 1) % 16, "stride %u", i);
		cr_expect_arr_eq(w + 4, z + 4, 60, "stride %u zero past Next_WQE_index", i);
		cr_expect_eq(w[0] | w[1], 0, "stride %u: reserved bits", i);
	}
}
