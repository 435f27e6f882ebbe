/* The doorbell layer (obj/uar_db.c): the registers of a UAR page (PRM §7.2 T13/T14, §7.2.2).
 * What each queue does with its doorbell is tested with the queue (cq_cqe_test.c, eq_test.c,
 * wq_sq_test.c); here: no doorbell or Blue Flame write allocates, what a page holds between
 * writes is gone after a reset, and when a Blue Flame copy is whole (D-DB-3). Shared tools:
 * wq_util.h (a device with a PD, a UAR, an EQ, a CQ and a TIS). */
#include <malloc.h>
#include <stdint.h>

#include "nicref/snapshot.h"
#include "obj/cq.h"
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

/* A reset empties every page written since the last: a CQ doorbell's lower dword (§7.2.2.2) on
 * one page and a send doorbell's dword 0 on another (one page cannot hold both: the second
 * write would be in the midst of the first, §7.2.2.2) are gone, so the upper dword alone is out
 * of order on each. */
Test(uar_db, a_reset_empties_every_page_written)
{
	uint32_t uar2;
	cr_assert_eq(cmd16(0x802, 0, &uar2), OK); /* ALLOC_UAR */
	const uint32_t pages[2] = { uar, uar2 };
	bar_write(pages[0] * PAGE + 0x20, 0);
	bar_write(pages[1] * PAGE + BF, 0x0A);
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
	bar_write(pages[0] * PAGE + 0x24, cqn);
	bar_write(pages[1] * PAGE + BF + 4, 1u << 8 | 2);
	cr_assert_eq(tdev->tr.violations, 2);
	const struct nicref_event *cq = tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0);
	const struct nicref_event *sq = tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 1);
	cr_expect_eq(cq->arg[0], NICREF_VIO_CQ_DB_SPLIT);
	cr_expect_eq(cq->arg[1], (uint64_t)pages[0] << 16 | 0x24);
	cr_expect_eq(sq->arg[0], NICREF_VIO_SQ_DB_ORDER);
	cr_expect_eq(sq->arg[1], (uint64_t)pages[1] << 32 | (BF + 4));
	tl_mark(&tdev->tr);
	/* the objects of setup_graph went with the reset; teardown checks the invariants */
}

/* A NOP of ds 16-byte units (padded with zero-length data segments, §7.2.2.1) at the SQ's next
 * WQEBB (*next, which it advances), in memory and in Blue Flame buffer `buf` (0 even, 1 odd of
 * register 0) of the SQ's page but for the dwords of `skip` (a byte offset, or 0 for none),
 * then the record and its doorbell: the sq_doorbell event's bf argument. */
static uint64_t blue_flame(uint32_t sqn, unsigned buf, unsigned ds, unsigned skip, uint16_t *next)
{
	uint8_t wqe[1024];
	post_nop_wqe(wqe, *next, ds, 0, sqn, (uint8_t)(ds * 7));
	*next = (uint16_t)(*next + (ds + 3) / 4); /* §7.4.1.1: ceil(ds / 4) WQEBBs */
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, *next), 0);
	uint32_t bf = uar * PAGE + BF + buf * BF_BUF;
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
	/* The buffers of register 0 alternately (§7.2.2.1, D-DB-4). */
	cr_expect_eq(blue_flame(sqn, 0, 4, 0, &next), 1, "64 bytes, every dword written");
	cr_expect_eq(blue_flame(sqn, 1, 4, 0x34, &next), 0, "dword 34h not written since the doorbell");
	cr_expect_eq(blue_flame(sqn, 0, 16, 0, &next), 1, "the whole 256-byte buffer");
	cr_expect_eq(blue_flame(sqn, 1, 16, 0xFC, &next), 0, "its last dword missing");
	cr_expect_eq(blue_flame(sqn, 0, 17, 0, &next), 0, "272 bytes: beyond the buffer");
	cr_expect_eq(tdev->tr.violations, 0);
}

/* The violation `nth` of the trace since the last mark: rule and argument. */
static void expect_vio(unsigned nth, unsigned rule, uint64_t arg)
{
	const struct nicref_event *v = tl_nth(&tdev->tr, NICREF_EV_VIOLATION, nth);
	cr_assert(v, "violation %u: none", nth);
	cr_expect_eq(v->arg[0], rule, "violation %u: %s, expected %s", nth,
		     nicref_violation_name((unsigned)v->arg[0]), nicref_violation_name(rule));
	cr_expect_eq(v->arg[1], arg, "violation %u: arg %#llx, expected %#llx", nth,
		     (unsigned long long)v->arg[1], (unsigned long long)arg);
}

/* ---- §7.2.2.1: the two buffers of a register used alternately (D-DB-4) ----------------------- */

/* A send doorbell for SQ 99 (none: SQ_DB_NO_SQ) on buffer `buf` of page `page`: a Blue Flame
 * posting when `copy` (a body dword written first), a plain doorbell (the 8 bytes) otherwise. */
static void post99(uint32_t page, unsigned buf, bool copy)
{
	uint32_t at = page * PAGE + BF + buf * BF_BUF;
	if (copy)
		bar_write(at + 8, 0);
	bar_write(at, 0x0A);
	bar_write(at + 4, 99u << 8 | 2);
}

/* The SQ_DB_BF_ALTERNATE violations since the last mark; each names the buffer `buf` of `page`
 * when `page` is not ~0u. */
static unsigned alternate_vios(uint32_t page, unsigned buf)
{
	unsigned n = 0;
	for (unsigned i = 0; i < tdev->tr.violations; i++) {
		const struct nicref_event *v = tl_nth(&tdev->tr, NICREF_EV_VIOLATION, i);
		if (v->arg[0] != NICREF_VIO_SQ_DB_BF_ALTERNATE)
			continue;
		if (page != ~0u)
			cr_expect_eq(v->arg[1], (uint64_t)page << 32 | (BF + buf * BF_BUF));
		n++;
	}
	return n;
}

/* "BlueFlame_Bufferi_even should be used for each even posting to BlueFlame register i, and
 * BlueFlame_Bufferi_odd ... for each odd posting": even, odd, even, odd is right; the first
 * posting of a page is an even one; the same buffer twice is the violation, reported at the
 * second, which is still acted on (here: SQ_DB_NO_SQ). */
Test(uar_db, blue_flame_postings_alternate_the_buffers_of_a_register)
{
	tl_mark(&tdev->tr);
	for (unsigned i = 0; i < 4; i++)
		post99(uar, i & 1u, true);
	cr_expect_eq(alternate_vios(uar, 0), 0, "even, odd, even, odd");
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_SQ_DB_NO_SQ], 4);
	tl_mark(&tdev->tr);
	post99(uar, 1, true); /* odd after odd */
	cr_expect_eq(alternate_vios(uar, 1), 1);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_SQ_DB_NO_SQ], 1, "acted on: it reached the SQ lookup");
	tl_mark(&tdev->tr);
	post99(uar, 0, true); /* the register goes on from the odd buffer used last */
	cr_expect_eq(alternate_vios(uar, 0), 0);
	tl_mark(&tdev->tr);
	/* A page's first posting to a register is its even one. */
	uint32_t uar2;
	cr_assert_eq(cmd16(0x802, 0, &uar2), OK); /* ALLOC_UAR */
	post99(uar2, 1, true);
	cr_expect_eq(alternate_vios(uar2, 1), 1, "the first posting on the odd buffer");
	tl_mark(&tdev->tr);
}

/* A plain doorbell (8 bytes, "regular (not BlueFlame) DoorBells") uses its buffer, so the next
 * Blue Flame posting goes to the other one; it is not itself held to the alternation (Linux
 * mlx5e rings one offset with plain doorbells only). */
Test(uar_db, a_plain_doorbell_between_blue_flame_postings)
{
	tl_mark(&tdev->tr);
	post99(uar, 0, true);
	post99(uar, 1, false);
	post99(uar, 0, true); /* after the plain one on odd: right (rdma-core toggles at each) */
	cr_expect_eq(alternate_vios(uar, 0), 0, "Blue Flame even, plain odd, Blue Flame even");
	post99(uar, 0, false);
	post99(uar, 0, false);
	cr_expect_eq(alternate_vios(uar, 0), 0, "plain doorbells on one buffer are no violation");
	post99(uar, 0, true); /* after the plain one on even */
	cr_expect_eq(alternate_vios(uar, 0), 1, "Blue Flame on the buffer the plain one used");
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_SQ_DB_NO_SQ], 6);
	tl_mark(&tdev->tr);
}

/* The alternation is per register of a page: register 1, and another page, count their own
 * postings ("Different BlueFlame registers can be accessed ... independently"; §7.2.2.2 "Such a
 * synchronization is not required ... on different UAR pages"). */
Test(uar_db, registers_and_pages_alternate_independently)
{
	uint32_t uar2;
	cr_assert_eq(cmd16(0x802, 0, &uar2), OK);
	tl_mark(&tdev->tr);
	post99(uar, 0, true);
	post99(uar2, 0, true);
	post99(uar, 2, true); /* register 1, even */
	post99(uar2, 1, true);
	post99(uar, 1, true);
	post99(uar, 3, true);
	post99(uar2, 0, true);
	cr_expect_eq(alternate_vios(~0u, 0), 0);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_SQ_DB_NO_SQ], 7);
	tl_mark(&tdev->tr);
}

/* A Blue Flame posting on the wrong buffer is still executed: the SQ's doorbell is acted on and
 * the whole copy runs (D-DB-3; D-DB-4 reports and goes on). */
Test(uar_db, a_posting_on_the_wrong_buffer_is_reported_and_executed)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	uint16_t next = 0;
	cr_expect_eq(blue_flame(sqn, 0, 4, 0, &next), 1);
	cr_expect_eq(tdev->tr.violations, 0);
	cr_expect_eq(blue_flame(sqn, 0, 4, 0, &next), 1, "the copy runs");
	cr_assert_eq(tdev->tr.violations, 1);
	expect_vio(0, NICREF_VIO_SQ_DB_BF_ALTERNATE, (uint64_t)uar << 32 | BF);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&tdev->d, sqn, &st), OK);
	cr_expect_eq(st.hw_counter, 2, "both NOPs ran");
	tl_mark(&tdev->tr);
}

/* The count starts afresh when ALLOC_UAR gives the page out again (a new consumer, §7.2 item 1)
 * and after a reset; a snapshot takes it and a restore brings it back. */
Test(uar_db, alloc_uar_reset_and_snapshots_restart_or_keep_the_alternation)
{
	uint32_t uar2, again;
	cr_assert_eq(cmd16(0x802, 0, &uar2), OK);
	tl_mark(&tdev->tr);
	post99(uar2, 0, true);
	cr_assert_eq(cmd16(0x803, uar2, NULL), OK); /* DEALLOC_UAR */
	cr_assert_eq(cmd16(0x802, 0, &again), OK);
	cr_assert_eq(again, uar2, "lowest free first (D-OBJ-2)");
	post99(uar2, 0, true);
	cr_expect_eq(alternate_vios(uar2, 0), 0, "even again after ALLOC_UAR");
	/* A snapshot after an even posting: odd is next; after the restore too. */
	int why = -1;
	struct nicref_snapshot *snap = nicref_snapshot_take(tdev->dev, &why);
	cr_assert(snap, "snapshot refused (%d)", why);
	post99(uar2, 1, true);
	cr_assert_eq(nicref_snapshot_restore(tdev->dev, snap), 0);
	tl_mark(&tdev->tr);
	post99(uar2, 1, true);
	cr_expect_eq(alternate_vios(uar2, 1), 0, "the restore brought back the even one as last");
	cr_assert_eq(nicref_snapshot_restore(tdev->dev, snap), 0);
	nicref_snapshot_free(snap);
	tl_mark(&tdev->tr);
	post99(uar2, 0, true);
	cr_expect_eq(alternate_vios(uar2, 0), 1, "even after even, as at the snapshot");
	tl_mark(&tdev->tr);
	/* A reset: the pages start afresh (the objects and UARs went with it). */
	nicref_dev_reset(tdev->dev);
	struct refdrv_ops ops = refdrv_ops_model(tdev->dev);
	refdrv_fini(&tdev->d);
	cr_assert_eq(refdrv_init(&tdev->d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&tdev->d, REFDRV_INITIALIZED), 0, "%s", tdev->d.error);
	uint32_t u[2];
	for (unsigned i = 0; i < 2; i++)
		cr_assert_eq(cmd16(0x802, 0, &u[i]), OK);
	cr_assert_eq(u[1], uar2);
	tl_mark(&tdev->tr);
	post99(uar2, 0, true);
	cr_expect_eq(alternate_vios(uar2, 0), 0, "even first after the reset");
	tl_mark(&tdev->tr);
}

/* ---- §7.2.2.2: no other doorbell in the midst of one (D-CQ-15, D-DB-4) ---------------------- */


/* "No other DoorBell can be rung (or even start ringing) in the midst of an on-going write of a
 * DoorBell over a given UAR page": a send doorbell's dword 0 between the CQ doorbell's halves is
 * CQ_DB_SPLIT, as an EQ doorbell is; the CQ half is dropped (the 24h then has no lower half),
 * the send doorbell goes on (here for SQ 99: SQ_DB_NO_SQ). */
Test(uar_db, a_send_doorbell_between_the_cq_doorbell_halves_is_cq_db_split)
{
	uint32_t pg = uar * PAGE;
	tl_mark(&tdev->tr);
	bar_write(pg + 0x20, 0);
	bar_write(pg + BF, 0x0A);
	bar_write(pg + BF + 4, 99u << 8 | 2);
	bar_write(pg + 0x24, cqn);
	cr_assert_eq(tdev->tr.violations, 3);
	expect_vio(0, NICREF_VIO_CQ_DB_SPLIT, (uint64_t)uar << 16 | BF);
	expect_vio(1, NICREF_VIO_SQ_DB_NO_SQ, (uint64_t)uar << 32 | 99);
	expect_vio(2, NICREF_VIO_CQ_DB_SPLIT, (uint64_t)uar << 16 | 0x24);
	tl_mark(&tdev->tr);
	/* The rest of a Blue Flame buffer is no doorbell: written between the halves, nothing. */
	bar_write(pg + 0x20, 0);
	bar_write(pg + BF + 0x10, 0x12345678);
	bar_write(pg + 0x24, cqn);
	cr_expect_eq(tdev->tr.violations, 0);
	cr_expect_eq(cq_get(tdev->dev, cqn)->st, CQ_ST_ARMED);
	tl_mark(&tdev->tr);
}

/* The other way round: a CQ or EQ doorbell between a send doorbell's two dwords is SQ_DB_SPLIT
 * (D-DB-4); the send doorbell's dword 0 is dropped (its dword 1 is then SQ_DB_ORDER), the stray
 * doorbell goes on. */
Test(uar_db, a_cq_or_eq_doorbell_between_the_send_doorbell_dwords_is_sq_db_split)
{
	uint32_t pg = uar * PAGE;
	tl_mark(&tdev->tr);
	bar_write(pg + BF, 0x0A);
	bar_write(pg + 0x20, 0);
	bar_write(pg + 0x24, cqn);
	bar_write(pg + BF + 4, 99u << 8 | 2);
	cr_assert_eq(tdev->tr.violations, 2);
	expect_vio(0, NICREF_VIO_SQ_DB_SPLIT, (uint64_t)uar << 32 | 0x20);
	expect_vio(1, NICREF_VIO_SQ_DB_ORDER, (uint64_t)uar << 32 | (BF + 4));
	cr_expect_eq(cq_get(tdev->dev, cqn)->st, CQ_ST_ARMED, "the CQ doorbell was acted on");
	tl_mark(&tdev->tr);
	bar_write(pg + BF + BF_BUF, 0x0A); /* the odd buffer's dword 0, then an EQ doorbell */
	bar_write(pg + 0x48, eqn << 24);
	cr_assert_eq(tdev->tr.violations, 1);
	expect_vio(0, NICREF_VIO_SQ_DB_SPLIT, (uint64_t)uar << 32 | 0x48);
	tl_mark(&tdev->tr);
	/* §7.2.2.1: different Blue Flame registers are written "simultaneously and
	 * independently": a send doorbell on register 1 between register 0's dwords is none. */
	bar_write(pg + BF, 0x0A);
	bar_write(pg + BF + 2 * BF_BUF, 0x0A);
	bar_write(pg + BF + 2 * BF_BUF + 4, 99u << 8 | 2);
	bar_write(pg + BF + 4, 99u << 8 | 2);
	cr_expect_eq(tdev->tr.violations, tdev->tr.vio[NICREF_VIO_SQ_DB_NO_SQ]);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_SQ_DB_NO_SQ], 2);
	tl_mark(&tdev->tr);
}

/* T13/T14: 20h[31:30], 20h[27:25] and 24h[31:24] are no field of the CQ doorbell: set, they are
 * CQ_DB_RESERVED, and the doorbell is still acted on (as a send doorbell's, SQ_DB_RESERVED);
 * the fields are read where the layout (uar_page) puts them. */
Test(uar_db, cq_doorbell_reserved_bits_are_reported_and_the_doorbell_acted_on)
{
	uint32_t pg = uar * PAGE;
	static const uint32_t low[3] = { 0x40000000u, 0x02000000u, 0 };
	static const uint32_t high[3] = { 0, 0, 0x01000000u };
	for (unsigned i = 0; i < 3; i++) {
		struct cq *cq = cq_get(tdev->dev, cqn);
		cq->st = CQ_ST_FIRED;
		tl_mark(&tdev->tr);
		bar_write(pg + 0x20, low[i]);
		bar_write(pg + 0x24, high[i] | cqn);
		cr_assert_eq(tdev->tr.violations, 1, "case %u", i);
		expect_vio(0, NICREF_VIO_CQ_DB_RESERVED, (uint64_t)low[i] << 32 | (high[i] | cqn));
		cr_expect_eq(cq->st, CQ_ST_ARMED, "case %u: acted on", i);
	}
	tl_mark(&tdev->tr);
	/* Every field at its place: cmd_sn 1 (not the CQ's 0: a stale arm, D-CQ-4, nothing
	 * changes), then cmd 1 (ARM_SOLICITED) with cmd_sn 0 and ci 0. */
	struct cq *cq = cq_get(tdev->dev, cqn);
	cq->st = CQ_ST_FIRED;
	bar_write(pg + 0x20, 1u << 28);
	bar_write(pg + 0x24, cqn);
	cr_expect_eq(cq->st, CQ_ST_FIRED, "cmd_sn 1 is 20h[29:28]");
	bar_write(pg + 0x20, 1u << 24);
	bar_write(pg + 0x24, cqn);
	cr_expect_eq(cq->st, CQ_ST_SOL_ARMED, "cmd is 20h[24]");
	cr_expect_eq(tdev->tr.violations, 0);
	tl_mark(&tdev->tr);
}
