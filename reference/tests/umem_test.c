/* UMEMs: CREATE_UMEM/DESTROY_UMEM and the translation through a UMEM's pages (beyond PRM Rev
 * 0.40: Linux include/linux/mlx5/mlx5_ifc.h umem_bits, mtt_bits; docs/umem.md D-UMEM-*). The
 * command rules are pinned by vectors/umem/umem.json; here what a vector cannot reach. */
#include "cmd/ctl_dev.h"
#include "nicref/snapshot.h"
#include "obj/umem.h"
#include "testlib.h"

/* One UMEM of n pages of 4 KB * 2^log_page_size at base, base + page, ...; page_offset off. */
static int create_umem(struct tl_dev *t, unsigned n, unsigned log_page_size, uint32_t off,
		       uint64_t base)
{
	tl_begin(t, "create_umem_in", "CREATE_UMEM");
	tl_set(t, "create_umem_in", "log_page_size", log_page_size);
	tl_set(t, "create_umem_in", "page_offset", off);
	tl_set(t, "create_umem_in", "num_of_mtt", n);
	for (unsigned i = 0; i < n; i++) /* mlx5_ifc.h mtt_bits: rd_en [0], wr_en [1] */
		tl_set_elem(t, "create_umem_in", "mtt", i,
			    (base + ((uint64_t)i << (12 + log_page_size))) | 3);
	return tl_run(t, 0x30 + 8 * n, 16);
}

Test(umem, count_limit)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_max_objects = 1; /* D-UMEM-1: 2^log_max_objects umem_ids */
	struct tl_dev *t = tl_up(&p);
	cr_assert_eq(create_umem(t, 1, 0, 0, 0x20000000), 0);
	cr_expect_eq(tl_get(t, "create_umem_out", "umem_id"), 1);
	cr_assert_eq(create_umem(t, 1, 0, 0, 0x20001000), 0);
	cr_expect_eq(tl_get(t, "create_umem_out", "umem_id"), 2);
	tl_refused(t, create_umem(t, 1, 0, 0, 0x20002000), UMEM_EXHAUSTED);
	cr_expect_eq(t->dev->obj[OBJ_UMEM].nlive, 2);
	tl_down_clean(t);
}

Test(umem, translate_through_pages)
{
	struct tl_dev *t = tl_up(NULL);
	/* Three 8 KB pages, given out of order, byte 0 of the UMEM at 0x100 of the first. */
	tl_begin(t, "create_umem_in", "CREATE_UMEM");
	tl_set(t, "create_umem_in", "log_page_size", 1);
	tl_set(t, "create_umem_in", "page_offset", 0x100);
	tl_set(t, "create_umem_in", "num_of_mtt", 3);
	tl_set_elem(t, "create_umem_in", "mtt", 0, 0x40006000 | 3);
	tl_set_elem(t, "create_umem_in", "mtt", 1, 0x40000000 | 1);
	tl_set_elem(t, "create_umem_in", "mtt", 2, 0x50002000 | 2);
	cr_assert_eq(tl_run(t, 0x48, 16), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	uint32_t id = (uint32_t)tl_get(t, "create_umem_out", "umem_id");
	uint64_t a = 0;
	cr_expect_eq(umem_translate(t->dev, id, 0, 64, &a), 0);
	cr_expect_eq(a, 0x40006100);
	/* 0x1F00 + 0x100 = 0x2000: the first byte of the second page (the access bits dropped). */
	cr_expect_eq(umem_translate(t->dev, id, 0x1F00, 64, &a), 0);
	cr_expect_eq(a, 0x40000000);
	cr_expect_eq(umem_translate(t->dev, id, 0x1F00 + 0x2000 + 0x10, 4, &a), 0);
	cr_expect_eq(a, 0x50002010);
	/* Across a page boundary, past the end (3 * 8 KB - 0x100 bytes), an unknown id: refused. */
	cr_expect_eq(umem_translate(t->dev, id, 0x1EF0, 64, &a), -1);
	cr_expect_eq(umem_translate(t->dev, id, 3 * 0x2000 - 0x100, 1, &a), -1);
	cr_expect_eq(umem_translate(t->dev, id, 3 * 0x2000 - 0x101, 1, &a), 0);
	cr_expect_eq(a, 0x50003FFF);
	cr_expect_eq(umem_translate(t->dev, id + 1, 0, 1, &a), -1);
	/* Destroyed: nothing translates any more. */
	tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
	tl_set(t, "destroy_umem_in", "umem_id", id);
	cr_assert_eq(tl_run(t, 16, 16), 0);
	cr_expect_eq(umem_translate(t->dev, id, 0, 1, &a), -1);
	tl_down_clean(t);
}

Test(umem, released_at_teardown)
{
	struct tl_dev *t = tl_up(NULL);
	cr_assert_eq(create_umem(t, 4, 0, 0, 0x20000000), 0);
	cr_assert_eq(create_umem(t, 2, 2, 0x10, 0x30000000), 0);
	cr_expect_eq(t->dev->obj[OBJ_UMEM].nlive, 2);
	/* D-UMEM-1: a UMEM holds no ICM, so QUERY_PAGES is unchanged by it; teardown frees both
	 * (ASan's leak check in make check sees the mtt lists go). */
	tl_down(t);
}

/* A snapshot taken with a UMEM live saves it with its page list and restores it (the fuzz
 * targets snapshot whatever commands left: a UMEM among the objects must not break it). */
Test(umem, snapshot_with_a_live_umem)
{
	struct tl_dev *t = tl_up(NULL);
	cr_assert_eq(create_umem(t, 5, 0, 0x20, 0x20000000), 0);
	uint32_t id = (uint32_t)tl_get(t, "create_umem_out", "umem_id");
	int why = -1;
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, &why);
	cr_assert(s, "snapshot refused (%d)", why);
	cr_expect_eq(nicref_snapshot_restore(t->dev, s), 0, "no command since: restorable");
	uint64_t a = 0;
	cr_expect_eq(umem_translate(t->dev, id, 5 * 4096 - 0x21, 1, &a), 0);
	cr_expect_eq(a, 0x20004FFF);
	nicref_snapshot_free(s);
	tl_down_clean(t);
}
