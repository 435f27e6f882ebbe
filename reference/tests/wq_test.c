/* Work queues (PRM §7.4): the buffer addressing across pages and the wrap, the doorbell record,
 * the layouts' PRM coordinates, and the queue counts of the capabilities (T145). The queues:
 * wq_sq_test.c, wq_rq_test.c, wq_rmp_test.c. Shared tools: wq_util.h. */
#include <stdint.h>
#include <string.h>

#include "wq_util.h"

/* ==== The buffer ============================================================================== */

TestSuite(wq_buffer, .init = setup, .fini = teardown);

Test(wq_buffer, addresses_across_pages_and_wrap)
{
	/* T55: 2^3 strides of 2^10 B in 4 KB pages (log_wq_pg_sz 0), the first at page_offset 16
	 * quanta of 4096/64 = 1 KB: strides 0-2 in page 0 (at 1, 2, 3 KB), 3-6 in page 1, 7 in
	 * page 2; index 8 is stride 0 again (§7.4.1). */
	uint64_t pas[3] = { 0x5000000, 0x7000000, 0x6000000 };
	struct wq w = { .pas = pas, .npas = 3, .page_size = 4096, .first_off = 16 * 64,
			.log_stride = 10, .log_size = 3, .type = 1 };
	cr_expect_eq(wq_addr(&w, 0), 0x5000400);
	cr_expect_eq(wq_addr(&w, 2), 0x5000C00);
	cr_expect_eq(wq_addr(&w, 3), 0x7000000);
	cr_expect_eq(wq_addr(&w, 6), 0x7000C00);
	cr_expect_eq(wq_addr(&w, 7), 0x6000000);
	cr_expect_eq(wq_addr(&w, 8), 0x5000400, "wraps");
	cr_expect_eq(wq_addr(&w, 0xFFFF), 0x6000000, "16-bit counters index modulo the size");
	/* 8 KB pages (log_wq_pg_sz 1): quanta of 128 B. */
	struct wq w2 = { .pas = pas, .npas = 2, .page_size = 8192, .first_off = 3 * 128,
			 .log_stride = 6, .log_size = 7, .type = 1 };
	cr_expect_eq(wq_addr(&w2, 0), 0x5000180);
	cr_expect_eq(wq_addr(&w2, 121), 0x5001FC0, "last stride of page 0: 384 + 121 * 64");
	cr_expect_eq(wq_addr(&w2, 122), 0x7000000, "first of page 1");
	cr_expect_eq(wq_addr(&w2, 127), 0x7000140);
}

Test(wq_buffer, read_across_page_boundary_and_wrap)
{
	/* 4 strides of 1 KB in two 4 KB pages, first_off 3 KB: stride 0 is the last KB of page
	 * 0, strides 1-3 start page 1. A read from stride 3 byte 1000 for 100 bytes takes 24
	 * bytes of stride 3 (page 1) and 76 of stride 0 (page 0): the wrap. A read from stride 0
	 * byte 1000 takes 24 bytes of page 0 and 76 of page 1. */
	uint64_t pas[2] = { 0x5000000, 0x7000000 };
	struct wq w = { .pas = pas, .npas = 2, .page_size = 4096, .first_off = 3072,
			.log_stride = 10, .log_size = 2, .type = 1 };
	uint8_t a[4096], b[4096];
	for (unsigned i = 0; i < 4096; i++) {
		a[i] = (uint8_t)(i * 7 + 1);
		b[i] = (uint8_t)(i * 13 + 5);
	}
	tl_mem_write(tdev, 0x5000000, a, sizeof a);
	tl_mem_write(tdev, 0x7000000, b, sizeof b);
	uint8_t got[100];
	cr_assert_eq(wq_read(tdev->dev, &w, 3, 1000, got, sizeof got), 0);
	cr_expect_eq(memcmp(got, b + 2048 + 1000, 24), 0, "end of stride 3 in page 1");
	cr_expect_eq(memcmp(got + 24, a + 3072, 76), 0, "then stride 0 at 3 KB of page 0");
	cr_assert_eq(wq_read(tdev->dev, &w, 0, 1000, got, sizeof got), 0);
	cr_expect_eq(memcmp(got, a + 3072 + 1000, 24), 0);
	cr_expect_eq(memcmp(got + 24, b, 76), 0, "page 1 follows page 0");
	cr_assert_eq(wq_read(tdev->dev, &w, 5, 0, got, 8), 0, "index 5 is stride 1");
	cr_expect_eq(memcmp(got, b, 8), 0);
}

Test(wq_buffer, doorbell_record_words)
{
	/* T24: receive counter at 00h[15:0], send counter at 04h[15:0] (D-DB-1). */
	uint8_t rec[8] = { 0xAA, 0xBB, 0x12, 0x34, 0xCC, 0xDD, 0x56, 0x78 };
	tl_mem_write(tdev, 0x8000, rec, sizeof rec);
	struct wq w = { .dbr_addr = 0x8000 };
	uint16_t c;
	cr_assert_eq(wq_dbr_read(tdev->dev, &w, false, &c), 0);
	cr_expect_eq(c, 0x1234);
	cr_assert_eq(wq_dbr_read(tdev->dev, &w, true, &c), 0);
	cr_expect_eq(c, 0x5678);
	cr_assert_eq(nicref_hostmem_fault(tdev->dev, 0x8000, 8, NICREF_FAULT_READ), 0);
	cr_expect_eq(wq_dbr_read(tdev->dev, &w, true, &c), -1);
	tl_mark(&tdev->tr); /* the dma_error event is the fault's */
}

/* ==== Layout coordinates ======================================================================= */

static void expect_array(const char *layout, const char *name, unsigned off)
{
	const struct nicref_field *f = nicref_layout_field(nicref_layout_find(layout), name);
	cr_assert_not_null(f, "%s.%s", layout, name);
	cr_expect_eq(f->bit_offset, off * 8, "%s.%s", layout, name);
	cr_expect_eq(f->bit_width, 64, "T138: 64-bit entries");
	cr_expect(f->flags & NICREF_FIELD_ARRAY);
}

static void expect_absent(const char *layout, const char *name)
{
	cr_expect_null(nicref_layout_field(nicref_layout_find(layout), name), "%s.%s", layout,
		       name);
}

Test(wq_buffer, layouts_at_prm_coordinates)
{
	/* T54/T55 (page_offset and lwm at 04h, D-WQ-3), the WQ at 30h of each context. */
	tl_pin("wq", "wq_type", 0x00, 31, 28);
	tl_pin("wq", "end_padding_mode", 0x00, 26, 25);
	tl_pin("wq", "page_offset", 0x04, 20, 16);
	tl_pin("wq", "lwm", 0x04, 15, 0);
	tl_pin("wq", "uar_page", 0x0C, 23, 0);
	tl_pin("wq", "hw_counter", 0x18, 31, 0);
	tl_pin("wq", "log_wq_stride", 0x20, 19, 16);
	tl_pin("wq", "log_wq_pg_sz", 0x20, 12, 8);
	tl_pin("wq", "log_wq_sz", 0x20, 4, 0);
	expect_array("wq", "pas", 0xC0);
	/* T315/T60: context at 20h. */
	tl_pin("create_sq_in", "min_wqe_inline_mode", 0x20, 26, 24);
	tl_pin("create_sq_in", "state", 0x20, 23, 20);
	tl_pin("create_sq_in", "cqn", 0x28, 23, 0);
	tl_pin("create_sq_in", "tis_lst_sz", 0x40, 31, 16);
	tl_pin("create_sq_in", "tis_num_0", 0x4C, 23, 0);
	tl_pin("create_sq_in", "pd", 0x58, 23, 0);
	tl_pin("create_sq_in", "uar_page", 0x5C, 23, 0);
	tl_pin("create_sq_in", "dbr_addr_31_0", 0x64, 31, 0);
	expect_array("create_sq_in", "pas", 0x110);
	expect_array("query_rmp_out", "pas", 0x110);
	expect_absent("create_sq_in", "hw_counter"); /* T55: query only */
	expect_absent("create_sq_in", "lwm");        /* T62: N/A */
	expect_absent("create_sq_in", "end_padding_mode");
	tl_pin("query_sq_out", "sw_counter", 0x6C, 31, 0);
	/* T332/T53. */
	tl_pin("create_rq_in", "vlan_strip_disable", 0x20, 28, 28);
	tl_pin("create_rq_in", "mem_rq_type", 0x20, 27, 24);
	tl_pin("create_rq_in", "flush_in_error_en", 0x20, 18, 18);
	tl_pin("create_rq_in", "rmpn", 0x30, 23, 0);
	expect_absent("create_rq_in", "uar_page"); /* T56: N/A */
	/* T366/T65, T370/T371. */
	tl_pin("create_rmp_in", "basic_cyclic_rcv_wqe", 0x24, 31, 31);
	tl_pin("create_rmp_in", "lwm", 0x54, 15, 0);
	tl_pin("modify_rmp_in", "rmp_state", 0x08, 31, 28);
	tl_pin("modify_rmp_in", "lwm", 0x54, 15, 0);
	tl_pin("modify_sq_in", "modify_bitmask_31_0", 0x14, 31, 0);
	/* T24, T26. */
	tl_pin("wq_doorbell_record", "send_counter", 0x04, 15, 0);
	tl_pin("send_wqe_ctrl", "wqe_index", 0x00, 23, 8);
	tl_pin("send_wqe_ctrl", "ds", 0x04, 5, 0);
}

/* ==== Profiles ================================================================================= */

static void setup_two_each(void)
{
	log_max_objects = 1; /* T145 log_max_sq/rq/rmp (and cq, tis) 1: two of each */
	setup_graph();
	log_max_objects = -1;
}

TestSuite(wq_limits, .init = setup_two_each, .fini = teardown);

Test(wq_limits, counts_beyond_the_capabilities)
{
	/* T145 6Ch/70h: 2^log_max_sq SQs, 2^log_max_rq RQs, 2^log_max_rmp RMPs; one more is
	 * EXCEED_LIM (T128 0x08) and takes nothing (the ICM charge is given back, D-PG-4). */
	struct refdrv_sq_attr a = sq_attr();
	struct refdrv_rmp_attr m = rmp_attr();
	struct refdrv_rq_attr r = rq_attr();
	uint32_t n;
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &n), OK);
		cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, &n), OK);
		cr_assert_eq(refdrv_create_rq(&tdev->d, &r, &n), OK);
	}
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &n), EXCEED_LIM);
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &m, &n), EXCEED_LIM);
	cr_expect_eq(refdrv_create_rq(&tdev->d, &r, &n), EXCEED_LIM);
	cr_expect_eq(tdev->dev->obj_charged[OBJ_SQ], 2);
	cr_expect_eq(refdrv_destroy_sq(&tdev->d, 2), OK);
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &n), OK);
	cr_expect_eq(n, 2, "the freed handle again (D-OBJ-2)");
}
