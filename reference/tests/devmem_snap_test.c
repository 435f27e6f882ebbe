/* The two mechanisms under a snapshot's restore over object changes (D-SNAP-1): the object
 * tables' undo log (obj/objtab.h) and the device's allocator (core/devmem.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "core/dev.h"
#include "core/devmem.h"
#include "nicref/nicref.h"
#include "obj/objtab.h"

static int tag[16];

/* What a table holds, compared handle by handle (and what the next allocation hands out). */
static void expect_holds(const struct objtab *t, const int64_t *h, void *const *o, size_t n)
{
	size_t k = 0;
	void *got;
	for (int64_t x = objtab_next(t, 0, &got); x >= 0; x = objtab_next(t, (uint32_t)x + 1, &got)) {
		cr_assert_lt(k, n, "handle %lld is live, not expected", (long long)x);
		cr_expect_eq(x, h[k], "live handle %zu: %lld, expected %lld", k, (long long)x,
			     (long long)h[k]);
		cr_expect_eq(got, o[k]);
		k++;
	}
	cr_expect_eq(k, n, "%zu live, expected %zu", k, n);
	cr_expect_eq(t->nlive, n);
}

Test(devmem_snap, the_undo_log_takes_a_table_back)
{
	struct objtab t;
	cr_assert_eq(objtab_init(&t, 1u << 24), 0);
	objtab_reset(&t, 1, 1u << 20, NULL, NULL);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(objtab_alloc(&t, &tag[i]), 1 + i);
	objtab_undo_start(&t);
	/* since: a removal, creations (one far away: a chunk of its own), a put, a reset with a
	 * new range and more creations */
	cr_assert_eq(objtab_remove(&t, 2), &tag[1]);
	cr_assert_eq(objtab_alloc(&t, &tag[3]), 2);
	cr_assert_eq(objtab_alloc(&t, &tag[4]), 4);
	cr_assert_eq(objtab_put(&t, 9000, &tag[5]), 0);
	objtab_reset(&t, 5, 50, NULL, NULL);
	cr_assert_eq(objtab_alloc(&t, &tag[6]), 5);
	cr_expect(objtab_undo_complete(&t));
	cr_assert_eq(objtab_undo(&t), 0);
	const int64_t h[3] = { 1, 2, 3 };
	void *const o[3] = { &tag[0], &tag[1], &tag[2] };
	expect_holds(&t, h, o, 3);
	cr_expect_eq(t.base, 1u);
	cr_expect_eq(t.limit, 1u << 20);
	cr_expect_eq(objtab_alloc(&t, &tag[7]), 4, "the lowest free after the undo");
	cr_expect_null(objtab_get(&t, 9000));
	/* the log restarted: undo again goes back to the three */
	cr_assert_eq(objtab_undo(&t), 0);
	expect_holds(&t, h, o, 3);
	objtab_fini(&t);
}

Test(devmem_snap, a_table_without_its_log_says_so)
{
	struct objtab t;
	cr_assert_eq(objtab_init(&t, 1u << 12), 0);
	cr_expect(!objtab_undo_complete(&t), "never started");
	objtab_undo_start(&t);
	cr_expect(objtab_undo_complete(&t));
	objtab_fini(&t);
}

static struct nicref_dev *device(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.snapshots = true; /* the allocator under test tracks its blocks (D-SNAP-3) */
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	return dev;
}

Test(devmem_snap, blocks_made_since_go_and_blocks_freed_since_come_back)
{
	struct nicref_dev *dev = device();
	struct dev_mem *m = &dev_core(dev)->mem;
	size_t live0 = dev_mem_count(m, NULL);
	uint8_t *a = dev_malloc(dev, 100), *b = dev_calloc(dev, 4, 8);
	cr_assert(a && b);
	memset(a, 0xA5, 100);
	struct mem_snap *s = dev_mem_snap_take(m);
	cr_assert_not_null(s);
	cr_expect_geq(dev_mem_snap_bytes(s), 132u);
	/* since: a written, b freed, c made, a reallocated (a new block; the old one held) */
	memset(a, 0x11, 100);
	dev_free(dev, b);
	uint8_t *c = dev_malloc(dev, 64);
	cr_assert(c);
	uint8_t *a2 = dev_realloc(dev, a, 200);
	cr_assert(a2 && a2 != a);
	cr_expect_eq(a2[99], 0x11, "realloc keeps the bytes");
	cr_expect_eq(dev_mem_count(m, NULL), live0 + 2, "a2 and c live; a and b kept aside");
	dev_mem_snap_restore(m, s, true);
	cr_expect_eq(dev_mem_count(m, NULL), live0 + 2, "a and b back, a2 and c gone");
	cr_expect_eq(a[0], 0xA5, "a's bytes as at the snapshot");
	cr_expect_eq(a[99], 0xA5);
	for (unsigned i = 0; i < 32; i++)
		cr_expect_eq(b[i], 0, "b's bytes as at the snapshot");
	/* again, through the walk of every block (another snapshot or a reset came between) */
	uint8_t *d = dev_malloc(dev, 10);
	cr_assert(d);
	dev_free(dev, a);
	dev_mem_snap_restore(m, s, false);
	cr_expect_eq(dev_mem_count(m, NULL), live0 + 2);
	cr_expect_eq(a[50], 0xA5);
	dev_mem_snap_free(s);
	nicref_dev_destroy(dev);
}

/* A block two snapshots hold stays until the last of them goes (ASan would report the use
 * after free below, or a leak, if not). */
Test(devmem_snap, a_block_held_twice_lives_until_both_snapshots_go)
{
	struct nicref_dev *dev = device();
	struct dev_mem *m = &dev_core(dev)->mem;
	uint8_t *a = dev_malloc(dev, 16);
	cr_assert(a);
	a[0] = 7;
	struct mem_snap *s1 = dev_mem_snap_take(m), *s2 = dev_mem_snap_take(m);
	cr_assert(s1 && s2);
	dev_free(dev, a);
	dev_mem_snap_free(s1);
	dev_mem_snap_restore(m, s2, false);
	cr_expect_eq(a[0], 7);
	dev_mem_snap_free(s2);
	nicref_dev_destroy(dev);
}
