/* The built-in sparse host memory (reference/core/hostmem.c) through its public API in
 * nicref.h: unwritten bytes read as zero; writes fail (-1) past profile.hostmem_max_pages
 * distinct 4 KiB pages; clear forgets everything; the device's reset keeps it. */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static struct nicref_dev *make_dev(uint32_t max_pages)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	if (max_pages)
		p.hostmem_max_pages = max_pages;
	return tl_dev_create(&p, NULL);
}

static void expect_zero(struct nicref_dev *dev, uint64_t addr, size_t len)
{
	uint8_t buf[256];
	cr_assert_leq(len, sizeof buf);
	memset(buf, 0xEE, sizeof buf);
	cr_assert_eq(nicref_hostmem_read(dev, addr, buf, len), 0);
	for (size_t i = 0; i < len; i++)
		cr_assert_eq(buf[i], 0, "byte at 0x%llx is 0x%02x",
			     (unsigned long long)(addr + i), buf[i]);
}

Test(hostmem, unwritten_reads_zero)
{
	struct nicref_dev *dev = make_dev(0);
	expect_zero(dev, 0, 64);
	expect_zero(dev, 0x123456789000ull, 200);
	expect_zero(dev, 0xFFF0, 32); /* across a page boundary */
	expect_zero(dev, UINT64_MAX - 15, 16); /* the last bytes of the address space */
	cr_assert_eq(nicref_hostmem_pages(dev), 0, "a read allocated pages");
	nicref_dev_destroy(dev);
}

Test(hostmem, write_read_back)
{
	struct nicref_dev *dev = make_dev(0);
	uint8_t in[40], out[40];
	for (size_t i = 0; i < sizeof in; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	cr_assert_eq(nicref_hostmem_write(dev, 0x5000 + 100, in, sizeof in), 0);
	memset(out, 0, sizeof out);
	cr_assert_eq(nicref_hostmem_read(dev, 0x5000 + 100, out, sizeof out), 0);
	cr_assert_eq(memcmp(in, out, sizeof in), 0);
	/* Neighbours are still zero. */
	expect_zero(dev, 0x5000, 100);
	expect_zero(dev, 0x5000 + 140, 100);
	cr_assert_eq(nicref_hostmem_pages(dev), 1);
	/* A partial read inside the written range. */
	uint8_t mid[3];
	cr_assert_eq(nicref_hostmem_read(dev, 0x5000 + 110, mid, sizeof mid), 0);
	cr_assert_eq(mid[0], in[10]);
	cr_assert_eq(mid[2], in[12]);
	nicref_dev_destroy(dev);
}

Test(hostmem, write_across_page_boundary)
{
	struct nicref_dev *dev = make_dev(0);
	uint8_t in[32], out[32];
	for (size_t i = 0; i < sizeof in; i++)
		in[i] = (uint8_t)(0xA0 + i);
	cr_assert_eq(nicref_hostmem_write(dev, 0x1FF0, in, sizeof in), 0);
	cr_assert_eq(nicref_hostmem_pages(dev), 2, "pages %zu", nicref_hostmem_pages(dev));
	memset(out, 0, sizeof out);
	cr_assert_eq(nicref_hostmem_read(dev, 0x1FF0, out, sizeof out), 0);
	cr_assert_eq(memcmp(in, out, sizeof in), 0);
	/* Each half, read alone from its own page. */
	cr_assert_eq(nicref_hostmem_read(dev, 0x2000, out, 16), 0);
	cr_assert_eq(memcmp(in + 16, out, 16), 0);
	cr_assert_eq(nicref_hostmem_read(dev, 0x1FF0, out, 16), 0);
	cr_assert_eq(memcmp(in, out, 16), 0);
	nicref_dev_destroy(dev);
}

Test(hostmem, write_across_several_pages)
{
	struct nicref_dev *dev = make_dev(0);
	static uint8_t in[3 * 4096 + 10], out[3 * 4096 + 10];
	for (size_t i = 0; i < sizeof in; i++)
		in[i] = (uint8_t)(i ^ (i >> 8));
	cr_assert_eq(nicref_hostmem_write(dev, 0x10000 - 5, in, sizeof in), 0);
	/* 0xFFFB..0x1C004: pages 0xF, 0x10, 0x11, 0x12, 0x13. */
	cr_assert_eq(nicref_hostmem_pages(dev), 5, "pages %zu", nicref_hostmem_pages(dev));
	cr_assert_eq(nicref_hostmem_read(dev, 0x10000 - 5, out, sizeof out), 0);
	cr_assert_eq(memcmp(in, out, sizeof in), 0);
	nicref_dev_destroy(dev);
}

Test(hostmem, page_bound)
{
	struct nicref_dev *dev = make_dev(2);
	uint8_t v = 0x42, out = 0;
	cr_assert_eq(nicref_hostmem_write(dev, 0x0000, &v, 1), 0);
	cr_assert_eq(nicref_hostmem_write(dev, 0x7FFF, &v, 1), 0); /* page 7 */
	cr_assert_eq(nicref_hostmem_pages(dev), 2);
	/* Pages already held take more writes. */
	cr_assert_eq(nicref_hostmem_write(dev, 0x0FFF, &v, 1), 0);
	cr_assert_eq(nicref_hostmem_write(dev, 0x7000, &v, 1), 0);
	/* A third distinct page does not. */
	cr_assert_eq(nicref_hostmem_write(dev, 0x1000, &v, 1), -1);
	cr_assert_eq(nicref_hostmem_write(dev, 0x123456789000ull, &v, 1), -1);
	cr_assert_eq(nicref_hostmem_pages(dev), 2);
	cr_assert_eq(nicref_hostmem_read(dev, 0x1000, &out, 1), 0);
	cr_assert_eq(out, 0, "a refused write landed");
	cr_assert_eq(nicref_hostmem_read(dev, 0x7FFF, &out, 1), 0);
	cr_assert_eq(out, 0x42);
	nicref_dev_destroy(dev);
}

Test(hostmem, clear)
{
	struct nicref_dev *dev = make_dev(2);
	uint8_t in[16];
	memset(in, 0x99, sizeof in);
	cr_assert_eq(nicref_hostmem_write(dev, 0x3000, in, sizeof in), 0);
	cr_assert_eq(nicref_hostmem_write(dev, 0x9000, in, sizeof in), 0);
	cr_assert_eq(nicref_hostmem_pages(dev), 2);
	nicref_hostmem_clear(dev);
	cr_assert_eq(nicref_hostmem_pages(dev), 0);
	expect_zero(dev, 0x3000, 16);
	expect_zero(dev, 0x9000, 16);
	/* The pages are free again: two new distinct pages fit, and read back; the old
	 * contents do not reappear through a reused page. */
	cr_assert_eq(nicref_hostmem_write(dev, 0xA000, in, 1), 0);
	cr_assert_eq(nicref_hostmem_write(dev, 0xB000, in, 1), 0);
	cr_assert_eq(nicref_hostmem_pages(dev), 2);
	expect_zero(dev, 0xA001, 15);
	expect_zero(dev, 0xB001, 15);
	expect_zero(dev, 0x3000, 16);
	cr_assert_eq(nicref_hostmem_write(dev, 0x3000, in, 1), -1);
	/* Clearing an empty memory is harmless. */
	nicref_hostmem_clear(dev);
	nicref_hostmem_clear(dev);
	cr_assert_eq(nicref_hostmem_pages(dev), 0);
	nicref_dev_destroy(dev);
}

/* nicref.h: "The built-in host memory is the host's, not the device's: it is kept" by reset. */
Test(hostmem, kept_by_device_reset)
{
	struct nicref_dev *dev = make_dev(0);
	uint8_t v = 0x5C, out = 0;
	cr_assert_eq(nicref_hostmem_write(dev, 0x4242, &v, 1), 0);
	nicref_dev_reset(dev);
	cr_assert_eq(nicref_hostmem_pages(dev), 1);
	cr_assert_eq(nicref_hostmem_read(dev, 0x4242, &out, 1), 0);
	cr_assert_eq(out, 0x5C);
	nicref_dev_destroy(dev);
}

/* Many distinct pages up to the bound, then one more: the table holds them all. */
Test(hostmem, fill_to_the_bound)
{
	const uint32_t max = 64;
	struct nicref_dev *dev = make_dev(max);
	for (uint32_t i = 0; i < max; i++) {
		uint8_t v = (uint8_t)(i + 1);
		/* Spread over the address space so the page table hashes collide and probe. */
		uint64_t addr = (uint64_t)i * 0x10000000ull + (i % 7) * 4096u;
		cr_assert_eq(nicref_hostmem_write(dev, addr, &v, 1), 0, "page %u", i);
	}
	cr_assert_eq(nicref_hostmem_pages(dev), max);
	uint8_t v = 0xFF;
	cr_assert_eq(nicref_hostmem_write(dev, 0x7777000ull, &v, 1), -1);
	for (uint32_t i = 0; i < max; i++) {
		uint8_t out = 0;
		uint64_t addr = (uint64_t)i * 0x10000000ull + (i % 7) * 4096u;
		cr_assert_eq(nicref_hostmem_read(dev, addr, &out, 1), 0);
		cr_assert_eq(out, (uint8_t)(i + 1), "page %u", i);
	}
	nicref_dev_destroy(dev);
}

/* A write that cannot complete writes nothing: two new pages asked for, one left. */
Test(hostmem, write_past_the_bound_writes_nothing)
{
	struct nicref_dev *dev = make_dev(2);
	uint8_t one = 0x11, two[2] = { 0x22, 0x33 };
	cr_assert_eq(nicref_hostmem_write(dev, 0x0000, &one, 1), 0);
	cr_assert_eq(nicref_hostmem_write(dev, 0x1FFF, two, 2), -1); /* pages 1 and 2 */
	cr_assert_eq(nicref_hostmem_pages(dev), 1);
	expect_zero(dev, 0x1FFF, 2);
	nicref_dev_destroy(dev);
}

/* Error injection: device DMA into a faulted range fails; host access does not; clear ends
 * it. The device side is seen through a command whose mailbox is faulted. */
Test(hostmem, fault_ranges)
{
	struct nicref_dev *dev = make_dev(0);
	cr_assert_eq(nicref_hostmem_fault(dev, 0x5000, 0, NICREF_FAULT_READ), -1, "len 0");
	for (int i = 0; i < 8; i++)
		cr_assert_eq(nicref_hostmem_fault(dev, 0x100000 * (uint64_t)(i + 1), 16,
						  NICREF_FAULT_READ),
			     0);
	cr_assert_eq(nicref_hostmem_fault(dev, 0x5000, 16, NICREF_FAULT_READ), -1, "ninth range");
	uint8_t b = 0x5A;
	cr_assert_eq(nicref_hostmem_write(dev, 0x100000, &b, 1), 0, "host writes are not DMA");
	cr_assert_eq(nicref_hostmem_read(dev, 0x100000, &b, 1), 0, "host reads are not DMA");
	nicref_hostmem_clear(dev);
	cr_assert_eq(nicref_hostmem_fault(dev, 0x5000, 16, NICREF_FAULT_READ), 0,
		     "clear forgets the ranges");
	nicref_dev_destroy(dev);
}

/* ---- What a device holds: sized to use, not to the bound (issue 11) ---- */

/* Heap bytes in use by the process (glibc: the arena and the mmap'ed blocks), the measurement
 * harness around the model's allocations. */
static size_t heap_bytes(void)
{
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
}

#define KIB 1024u

/* A default device reserved its whole host-memory bound at creation (64 MiB: 16384 pages of
 * 4 KiB, plus a 512 KiB slot table), 68.7 MB in all. Now creation holds its tables (the
 * command gather/scatter buffers sized to profile.max_mailbox_blocks are the largest, 2 x 256
 * KiB) and host memory grows with the pages written, in 64 KiB chunks. */
Test(hostmem, a_default_device_reserves_little)
{
	/* The measurement needs glibc's allocator (a sanitizer brings its own). */
	size_t p0 = heap_bytes();
	void *probe = malloc(256 * KIB);
	size_t p1 = heap_bytes();
	free(probe);
	if (!probe || p1 < p0 + 256 * KIB)
		cr_skip_test("mallinfo2 does not see this process's allocations");
	/* Measured first, asserted after: Criterion's own bookkeeping allocates too. */
	int bad_writes = 0;
	uint8_t v = 1;
	size_t h0 = heap_bytes();
	struct nicref_dev *dev = make_dev(0);
	size_t created = heap_bytes() - h0;
	/* One byte written: one chunk and small tables. */
	bad_writes += nicref_hostmem_write(dev, 0x123000, &v, 1) != 0;
	size_t one = heap_bytes() - h0 - created;
	/* 101 pages: 7 chunks of 16 pages, and tables for 128 pages. */
	for (uint64_t i = 0; i < 100; i++)
		bad_writes += nicref_hostmem_write(dev, 0x40000000ull + i * 0x3000, &v, 1) != 0;
	size_t hundred = heap_bytes() - h0 - created;
	/* A fuzzer's per-input reset and clear, then as many pages again: nothing allocated. */
	size_t before = heap_bytes(), after[3];
	for (int round = 0; round < 3; round++) {
		nicref_dev_reset(dev);
		nicref_hostmem_clear(dev);
		for (uint64_t i = 0; i <= 100; i++)
			bad_writes +=
				nicref_hostmem_write(dev, 0x900000000ull + i * 0x5000, &v, 1) != 0;
		after[round] = heap_bytes();
	}
	size_t held = heap_bytes();
	nicref_dev_destroy(dev);
	size_t freed = held - heap_bytes();

	cr_expect_eq(bad_writes, 0);
	cr_expect_lt(created, 1024 * KIB, "a default device holds %zu bytes after create", created);
	cr_expect_leq(one, 64 * KIB + 4 * KIB, "the first page cost %zu bytes", one);
	cr_expect_leq(hundred, 7 * 64 * KIB + 8 * KIB, "101 pages cost %zu bytes", hundred);
	cr_expect_geq(hundred, 7 * 64 * KIB, "the pages are in the heap: %zu bytes", hundred);
	for (int round = 0; round < 3; round++)
		cr_expect_eq(after[round], before, "round %d allocated %zd bytes", round,
			     (ssize_t)(after[round] - before));
	/* Small freed blocks may stay counted in glibc's per-thread cache: within 8 KiB (leaks
	 * themselves are LeakSanitizer's, make check). */
	cr_expect_geq(freed + 8 * KIB, created + hundred, "destroy freed %zu of %zu bytes", freed,
		      created + hundred);
}

/* Thousands of pages through every growth of the slot table and the chunk list: each reads
 * back, the pages written in one round vanish at the clear, and the bound still holds. */
Test(hostmem, grows_to_the_bound_and_keeps_contents)
{
	const uint32_t max = 5000;
	struct nicref_dev *dev = make_dev(max);
	for (int round = 0; round < 2; round++) {
		for (uint32_t i = 0; i < max; i++) {
			uint32_t w = i * 2654435761u ^ (uint32_t)round;
			uint64_t addr = ((uint64_t)(i * 7919u) << 12) + (i % 4000);
			cr_assert_eq(nicref_hostmem_write(dev, addr, &w, sizeof w), 0, "page %u",
				     i);
		}
		cr_assert_eq(nicref_hostmem_pages(dev), max);
		uint8_t v = 1;
		cr_assert_eq(nicref_hostmem_write(dev, 0xFFFF000000ull, &v, 1), -1,
			     "past the bound");
		for (uint32_t i = 0; i < max; i++) {
			uint32_t w = 0;
			uint64_t addr = ((uint64_t)(i * 7919u) << 12) + (i % 4000);
			cr_assert_eq(nicref_hostmem_read(dev, addr, &w, sizeof w), 0);
			cr_assert_eq(w, i * 2654435761u ^ (uint32_t)round, "page %u round %d", i,
				     round);
		}
		nicref_hostmem_clear(dev);
		expect_zero(dev, 0, 16);
		expect_zero(dev, (uint64_t)(7919u * 3) << 12, 16);
	}
	nicref_dev_destroy(dev);
}
