/* The doorbell layer (obj/uar_db.c): the registers of a UAR page (PRM §7.2 T13/T14, §7.2.2).
 * What each queue does with its doorbell is tested with the queue (cq_cqe_test.c, eq_test.c,
 * wq_sq_test.c); here: no doorbell or Blue Flame write allocates, what a page holds between
 * writes is gone after a reset, and when a Blue Flame copy is whole (D-DB-3). Shared tools:
 * wq_util.h (a device with a PD, a UAR, an EQ, a CQ and a TIS). */
#include <malloc.h>
#include <stdint.h>

#include "wq_util.h"

TestSuite(uar_db, .init = setup_graph, .fini = teardown);

#define PAGE 4096u  /* a UAR page (log_uar_page_sz 0, T145) */
#define BF 0x800u   /* T13: DB_BlueFlame_Buffer0_even */
#define BF_BUF 256u /* 2^log_bf_reg_size / 2 (T145 log_bf_reg_size 9) */

static void bar_write(uint32_t offset, uint32_t v)
{
	nicref_bar_write32(tdev->dev, offset, v);
}

/* Heap bytes in use by the process (glibc: the arena and the mmap'ed blocks). */
static size_t heap_bytes(void)
{
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
}

/* Every register of a page written, with nothing there to act on (no CQ 99, EQ 99, SQ 99): each
 * write lands in the page's storage, which was made when the UAR was allocated. */
static void write_every_register(uint32_t page)
{
	bar_write(page + 0x20, 0);                      /* CQ doorbell, lower dword */
	bar_write(page + 0x24, 99);                     /* and upper: CQ 99 */
	bar_write(page + 0x40, 99u << 24);              /* EQ 99, arm */
	bar_write(page + 0x48, 99u << 24);              /* EQ 99, update */
	for (uint32_t at = BF; at < 0x1000; at += 4)    /* every Blue Flame dword */
		if (at % BF_BUF != 4)
			bar_write(page + at, 0x12345678);
	for (uint32_t b = 0; b < 0x800 / BF_BUF; b++) { /* each buffer's doorbell: SQ 99 */
		bar_write(page + BF + b * BF_BUF, 0x0A);
		bar_write(page + BF + b * BF_BUF + 4, 99u << 8 | 2);
	}
}

/* PRM §7.2.2: doorbells are the data path's every post; the model makes what a page holds when
 * ALLOC_UAR gives it out, not at its first write (a doorbell or Blue Flame write used to
 * allocate the page's buffers). */
Test(uar_db, no_doorbell_or_blue_flame_write_allocates)
{
	/* The measurement needs glibc's allocator (a sanitizer brings its own). */
	size_t p0 = heap_bytes();
	void *probe = malloc(64 * 1024);
	size_t p1 = heap_bytes();
	free(probe);
	if (!probe || p1 < p0 + 64 * 1024)
		cr_skip_test("mallinfo2 does not see this process's allocations");
	/* Measured first, asserted after: Criterion's own bookkeeping allocates too. */
	size_t before = heap_bytes();
	write_every_register(uar * PAGE);
	size_t after = heap_bytes();
	cr_expect_eq(after, before, "the writes allocated %zd bytes", (ssize_t)(after - before));
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_CQ_DB_NO_CQ], 1);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_EQ_DB_NO_EQ], 2);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_SQ_DB_NO_SQ], 0x800 / BF_BUF);
	tl_mark(&tdev->tr);
}

/* A reset empties every page written since the last: a CQ doorbell's lower dword (§7.2.2.2) and
 * a send doorbell's dword 0 waiting on two pages are gone, so the upper dword alone is out of
 * order on both. */
Test(uar_db, a_reset_empties_every_page_written)
{
	uint32_t uar2;
	cr_assert_eq(cmd16(0x802, 0, &uar2), OK); /* ALLOC_UAR */
	const uint32_t pages[2] = { uar, uar2 };
	for (unsigned i = 0; i < 2; i++) {
		bar_write(pages[i] * PAGE + 0x20, 0);
		bar_write(pages[i] * PAGE + BF, 0x0A);
	}
	cr_assert_eq(tdev->tr.violations, 0);
	nicref_dev_reset(tdev->dev);
	struct refdrv_ops ops = refdrv_ops_model(tdev->dev);
	refdrv_fini(&tdev->d);
	cr_assert_eq(refdrv_init(&tdev->d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&tdev->d, REFDRV_INITIALIZED), 0, "%s", tdev->d.error);
	uint32_t again[2];
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(cmd16(0x802, 0, &again[i]), OK);
		cr_assert_eq(again[i], pages[i], "UAR numbers are given lowest first (D-OBJ-2)");
	}
	tl_mark(&tdev->tr);
	for (unsigned i = 0; i < 2; i++) {
		bar_write(pages[i] * PAGE + 0x24, cqn);
		bar_write(pages[i] * PAGE + BF + 4, 1u << 8 | 2);
	}
	cr_assert_eq(tdev->tr.violations, 4);
	for (unsigned i = 0; i < 2; i++) {
		const struct nicref_event *cq = tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 2 * i);
		const struct nicref_event *sq = tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 2 * i + 1);
		cr_expect_eq(cq->arg[0], NICREF_VIO_CQ_DB_SPLIT);
		cr_expect_eq(cq->arg[1], (uint64_t)pages[i] << 16 | 0x24);
		cr_expect_eq(sq->arg[0], NICREF_VIO_SQ_DB_ORDER);
		cr_expect_eq(sq->arg[1], (uint64_t)pages[i] << 32 | (BF + 4));
	}
	tl_mark(&tdev->tr);
	/* the objects of setup_graph went with the reset; teardown checks the invariants */
}

/* A NOP of ds 16-byte units (padded with zero-length data segments, §7.2.2.1) at the SQ's next
 * WQEBB (*next, which it advances), in memory and in Blue Flame buffer 0 of the SQ's page but
 * for the dwords of `skip` (a byte offset, or 0 for none), then the record and its doorbell: the
 * sq_doorbell event's bf argument. */
static uint64_t blue_flame(uint32_t sqn, unsigned ds, unsigned skip, uint16_t *next)
{
	uint8_t wqe[1024];
	post_nop_wqe(wqe, *next, ds, 0, sqn, (uint8_t)(ds * 7));
	*next = (uint16_t)(*next + (ds + 3) / 4); /* §7.4.1.1: ceil(ds / 4) WQEBBs */
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, *next), 0);
	uint32_t bf = uar * PAGE + BF;
	for (unsigned i = 8; i < ds * 16u && i < BF_BUF; i += 4)
		if (i != skip)
			bar_write(bf + i, tl_get32(wqe + i));
	tl_mark(&tdev->tr);
	bar_write(bf, tl_get32(wqe));
	bar_write(bf + 4, tl_get32(wqe + 4));
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 1);
	return tl_nth(&tdev->tr, NICREF_EV_SQ_DOORBELL, 0)->arg[4];
}

Test(uar_db, a_blue_flame_copy_is_taken_whole)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	uint16_t next = 0;
	cr_expect_eq(blue_flame(sqn, 4, 0, &next), 1, "64 bytes, every dword written");
	cr_expect_eq(blue_flame(sqn, 4, 0x34, &next), 0, "dword 34h not written since the doorbell");
	cr_expect_eq(blue_flame(sqn, 16, 0, &next), 1, "the whole 256-byte buffer");
	cr_expect_eq(blue_flame(sqn, 16, 0xFC, &next), 0, "its last dword missing");
	cr_expect_eq(blue_flame(sqn, 17, 0, &next), 0, "272 bytes: beyond the buffer");
	cr_expect_eq(tdev->tr.violations, 0);
}
