/* UMEMs: CREATE_UMEM/DESTROY_UMEM and the translation through a UMEM's pages (beyond PRM Rev
 * 0.40: Linux include/linux/mlx5/mlx5_ifc.h umem_bits, mtt_bits; docs/umem.md D-UMEM-*). The
 * command rules are pinned by vectors/umem/umem.json; here what a vector cannot reach. */
#include "cmd/ctl_dev.h"
#include "cq_util.h"
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

/* CREATE_CQ with cq_umem_valid and dbr_umem_valid (mlx5_ifc.h create_cq_in, cqc; D-UMEM-5/6). */
static int create_cq_umem(struct tl_dev *t, uint32_t eqn, uint32_t buf_id, uint64_t buf_off,
			  uint32_t dbr_id, uint64_t dbr_off)
{
	tl_begin(t, "create_cq_in", "CREATE_CQ");
	tl_set(t, "create_cq_in", "log_cq_size", 6); /* 64 CQEs of 64 B: one 4 KB page */
	tl_set(t, "create_cq_in", "uar_page", t->uar);
	tl_set(t, "create_cq_in", "c_eqn", eqn);
	tl_set(t, "create_cq_in", "cq_umem_valid", 1);
	tl_set(t, "create_cq_in", "cq_umem_id", buf_id);
	tl_set(t, "create_cq_in", "cq_umem_offset", buf_off);
	tl_set(t, "create_cq_in", "dbr_umem_valid", 1);
	tl_set(t, "create_cq_in", "dbr_umem_id", dbr_id);
	tl_set(t, "create_cq_in", "dbr_addr", dbr_off);
	return tl_run_paged(t, 0x110, 0x10); /* no pas[]: the buffer is in the UMEM */
}

Test(umem, cq_buffer_and_record_in_umems)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	/* Buffer UMEM: two 8 KB pages, given in reverse order, byte 0 at 0x1000 of the first; the
	 * CQ at offset 0x1000, i.e. at 0x2000 of the UMEM's pages = the second page's start. */
	uint64_t mem = tl_hostmem(t, 0x8000);
	uint64_t p0 = (mem + 0x1FFF) & ~0x1FFFull, p1 = p0 + 0x2000;
	tl_begin(t, "create_umem_in", "CREATE_UMEM");
	tl_set(t, "create_umem_in", "log_page_size", 1);
	tl_set(t, "create_umem_in", "page_offset", 0x1000);
	tl_set(t, "create_umem_in", "num_of_mtt", 2);
	tl_set_elem(t, "create_umem_in", "mtt", 0, p1 | 3);
	tl_set_elem(t, "create_umem_in", "mtt", 1, p0 | 3);
	cr_assert_eq(tl_run(t, 0x40, 16), 0);
	uint32_t ub = (uint32_t)tl_get(t, "create_umem_out", "umem_id");
	/* Record UMEM: one 4 KB page, the record at 0x18. */
	uint64_t rec = (tl_hostmem(t, 0x2000) + 0xFFF) & ~0xFFFull;
	cr_assert_eq(create_umem(t, 1, 0, 0, rec), 0);
	uint32_t ur = (uint32_t)tl_get(t, "create_umem_out", "umem_id");

	/* Refused: an unknown UMEM, a buffer off a 4 KB boundary, past the end (the UMEM holds
	 * 2 * 8 KB - 0x1000 bytes), a record past it. */
	tl_refused(t, create_cq_umem(t, eq.eqn, 9, 0x1000, ur, 0x18), UMEM_REF_NOT_FOUND);
	tl_refused(t, create_cq_umem(t, eq.eqn, ub, 0x1800, ur, 0x18), UMEM_REF_MISALIGNED);
	tl_refused(t, create_cq_umem(t, eq.eqn, ub, 0x3000, ur, 0x18), UMEM_REF_BEYOND);
	tl_refused(t, create_cq_umem(t, eq.eqn, ub, 0x1000, ur, 0x1000), UMEM_REF_BEYOND);
	tl_refused(t, create_cq_umem(t, eq.eqn, ub, 0x1000, 9, 0x18), UMEM_REF_NOT_FOUND);

	cr_assert_eq(create_cq_umem(t, eq.eqn, ub, 0x1000, ur, 0x18), 0, "%s",
		     tl_rule_of(t->d.last_syndrome));
	uint32_t cqn = (uint32_t)tl_get(t, "create_cq_out", "cqn");
	/* The first CQE lands at the first byte of the second page given (p0), owner bit 0. */
	uint8_t cqe[64];
	req_cqe(cqe, 7, false);
	cr_assert_eq(cq_post(t->dev, cqn, cqe), 0);
	uint8_t got[64];
	tl_mem_read(t, p0, got, 64);
	cr_expect_eq(tl_getf(got, 0x3C, 31, 16), 7, "wqe_counter of the CQE at p0");
	/* The record is read where the UMEM puts it: update_ci written there is seen. */
	struct cq *cq = obj_get(t->dev, OBJ_CQ, cqn);
	cr_expect_eq(cq->dbr_addr, rec + 0x18);
	/* Named by a live CQ, neither UMEM can go (D-OBJ-1); after DESTROY_CQ both can. */
	tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
	tl_set(t, "destroy_umem_in", "umem_id", ub);
	tl_refused(t, tl_run(t, 16, 16), UMEM_IN_USE);
	tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
	tl_set(t, "destroy_umem_in", "umem_id", ur);
	tl_refused(t, tl_run(t, 16, 16), UMEM_IN_USE);
	tl_begin(t, "destroy_cq_in", "DESTROY_CQ");
	tl_set(t, "destroy_cq_in", "cqn", cqn);
	cr_assert_eq(tl_run(t, 16, 16), 0);
	tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
	tl_set(t, "destroy_umem_in", "umem_id", ub);
	cr_expect_eq(tl_run(t, 16, 16), 0);
	tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
	tl_set(t, "destroy_umem_in", "umem_id", ur);
	cr_expect_eq(tl_run(t, 16, 16), 0);
	tl_down_clean(t);
}

/* CREATE_RMP whose WQ buffer and doorbell record live in UMEMs (mlx5_ifc.h wq_bits
 * wq_umem_valid/wq_umem_id/wq_umem_offset, dbr_umem_valid/dbr_umem_id; D-UMEM-7): the same
 * parse serves SQs and RQs. */
static int create_rmp_umem(struct tl_dev *t, uint32_t pd, uint32_t buf_id, uint64_t buf_off,
			   uint32_t dbr_id, uint32_t dbr_off)
{
	tl_begin(t, "create_rmp_in", "CREATE_RMP");
	tl_set(t, "create_rmp_in", "state", 1); /* RDY */
	tl_set(t, "create_rmp_in", "wq_type", 1);
	tl_set(t, "create_rmp_in", "pd", pd);
	tl_set(t, "create_rmp_in", "log_wq_stride", 6); /* 64-byte WQEs */
	tl_set(t, "create_rmp_in", "log_wq_sz", 6);     /* 64 of them: one 4 KB page */
	tl_set(t, "create_rmp_in", "wq_umem_valid", 1);
	tl_set(t, "create_rmp_in", "wq_umem_id", buf_id);
	tl_set(t, "create_rmp_in", "wq_umem_offset", buf_off);
	tl_set(t, "create_rmp_in", "dbr_umem_valid", 1);
	tl_set(t, "create_rmp_in", "dbr_umem_id", dbr_id);
	tl_set(t, "create_rmp_in", "dbr_addr_31_0", dbr_off);
	return tl_run_paged(t, 0x110, 0x10); /* no pas[] */
}

Test(umem, rmp_buffer_and_record_in_umems)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	uint64_t buf = (tl_hostmem(t, 0x4000) + 0xFFF) & ~0xFFFull;
	cr_assert_eq(create_umem(t, 2, 0, 0, buf), 0); /* two 4 KB pages */
	uint32_t ub = (uint32_t)tl_get(t, "create_umem_out", "umem_id");
	uint64_t rec = (tl_hostmem(t, 0x2000) + 0xFFF) & ~0xFFFull;
	cr_assert_eq(create_umem(t, 1, 0, 0, rec), 0);
	uint32_t ur = (uint32_t)tl_get(t, "create_umem_out", "umem_id");
	tl_refused(t, create_rmp_umem(t, pd, ub, 0x800, ur, 0x20), UMEM_REF_MISALIGNED);
	tl_refused(t, create_rmp_umem(t, pd, ub, 0x2000, ur, 0x20), UMEM_REF_BEYOND);
	tl_refused(t, create_rmp_umem(t, pd, ub, 0x1000, 9, 0x20), UMEM_REF_NOT_FOUND);
	cr_assert_eq(create_rmp_umem(t, pd, ub, 0x1000, ur, 0x20), 0, "%s",
		     tl_rule_of(t->d.last_syndrome));
	uint32_t rmpn = (uint32_t)tl_get(t, "create_rmp_out", "rmpn");
	const struct rmp *r = obj_get(t->dev, OBJ_RMP, rmpn);
	cr_assert(r);
	cr_expect_eq(r->wq.npas, 1);
	cr_expect_eq(r->wq.pas[0], buf + 0x1000, "the UMEM's second page");
	cr_expect_eq(r->wq.dbr_addr, rec + 0x20);
	tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
	tl_set(t, "destroy_umem_in", "umem_id", ub);
	tl_refused(t, tl_run(t, 16, 16), UMEM_IN_USE);
	tl_begin(t, "destroy_rmp_in", "DESTROY_RMP");
	tl_set(t, "destroy_rmp_in", "rmpn", rmpn);
	cr_assert_eq(tl_run(t, 16, 16), 0);
	for (uint32_t id = ub; id <= ur; id++) {
		tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
		tl_set(t, "destroy_umem_in", "umem_id", id);
		cr_expect_eq(tl_run(t, 16, 16), 0, "DESTROY_UMEM %u", id);
	}
	tl_down_clean(t);
}

/* [IFC] mtt_bits [7:2] are reserved: D-CMD-8's rule for reserved input bits reaches each mtt[]
 * entry (the dispatcher's check covers the fixed fields only). Strict profile: refused
 * RESERVED_NOT_ZERO; permissive: a violation, the UMEM made, the bits not used. */
Test(umem, mtt_reserved_bits)
{
	struct tl_dev *t = tl_up(NULL);
	tl_begin(t, "create_umem_in", "CREATE_UMEM");
	tl_set(t, "create_umem_in", "num_of_mtt", 1);
	tl_set_elem(t, "create_umem_in", "mtt", 0, 0x20000000ull | 0xFC | 3);
	tl_refused(t, tl_run(t, 0x38, 16), RESERVED_NOT_ZERO);
	tl_violation(t, CMD_RESERVED_NOT_ZERO, 0x34ull << 32 | 0xFC);
	tl_down(t);

	struct nicref_profile p;
	nicref_profile_default(&p);
	p.reserved_check = 0;
	t = tl_up(&p);
	tl_begin(t, "create_umem_in", "CREATE_UMEM");
	tl_set(t, "create_umem_in", "num_of_mtt", 1);
	tl_set_elem(t, "create_umem_in", "mtt", 0, 0x20000000ull | 0xFC | 3);
	cr_assert_eq(tl_run(t, 0x38, 16), 0);
	tl_violation(t, CMD_RESERVED_NOT_ZERO, 0x34ull << 32 | 0xFC);
	const struct umem *u = obj_get(t->dev, OBJ_UMEM, 1);
	cr_assert(u);
	cr_expect_eq(u->mtt[0], 0x20000000ull, "the page address only");
	tl_down(t);
}

/* D-OBJ-2: a umem_id outside the UMEM ids (from 1, 2^log_max_objects of them, D-UMEM-1) is
 * BAD_INDEX (T128 0x0A "beyond table size"), in DESTROY_UMEM and where a CQ or a WQ names one
 * (cq_umem_id, dbr_umem_id, wq_umem_id); an id in them that is not live stays BAD_RESOURCE. */
static int destroy_umem(struct tl_dev *t, uint32_t id)
{
	tl_begin(t, "destroy_umem_in", "DESTROY_UMEM");
	tl_set(t, "destroy_umem_in", "umem_id", id);
	return tl_run(t, 16, 16);
}

Test(umem, ids_beyond_the_umem_table_are_bad_index)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_max_objects = 4; /* umem_ids 1..16 */
	struct tl_dev *t = tl_up(&p);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	uint32_t pd = tl_alloc_pd(t);
	uint64_t buf = (tl_hostmem(t, 0x4000) + 0xFFF) & ~0xFFFull;
	cr_assert_eq(create_umem(t, 2, 0, 0, buf), 0);
	uint32_t u = (uint32_t)tl_get(t, "create_umem_out", "umem_id");
	cr_assert_eq(u, 1);

	int st = destroy_umem(t, 17); /* one past the last id */
	cr_expect_eq(st, 0x0A);
	tl_refused(t, st, UMEM_INDEX_OUT_OF_RANGE);
	st = destroy_umem(t, 0); /* below the first */
	cr_expect_eq(st, 0x0A);
	tl_refused(t, st, UMEM_INDEX_OUT_OF_RANGE);
	st = destroy_umem(t, 16); /* the last id: in range, not live */
	cr_expect_eq(st, 0x05);
	tl_refused(t, st, UMEM_NOT_FOUND);

	/* CREATE_CQ naming a buffer UMEM, then a record UMEM, outside the ids; then in range. */
	st = create_cq_umem(t, eq.eqn, 0xFFFFFF, 0, u, 0x1800);
	cr_expect_eq(st, 0x0A);
	tl_refused(t, st, UMEM_REF_OUT_OF_RANGE);
	st = create_cq_umem(t, eq.eqn, u, 0, 17, 0x18);
	cr_expect_eq(st, 0x0A);
	tl_refused(t, st, UMEM_REF_OUT_OF_RANGE);
	st = create_cq_umem(t, eq.eqn, u, 0, 16, 0x18);
	cr_expect_eq(st, 0x05);
	tl_refused(t, st, UMEM_REF_NOT_FOUND);
	/* An RMP (the parse of every WQ) naming them. */
	st = create_rmp_umem(t, pd, 0, 0, u, 0x1800);
	cr_expect_eq(st, 0x0A);
	tl_refused(t, st, UMEM_REF_OUT_OF_RANGE);
	st = create_rmp_umem(t, pd, u, 0, 0x80000000u, 0x1800);
	cr_expect_eq(st, 0x0A);
	tl_refused(t, st, UMEM_REF_OUT_OF_RANGE);
	st = create_rmp_umem(t, pd, 16, 0, u, 0x1800);
	cr_expect_eq(st, 0x05);
	tl_refused(t, st, UMEM_REF_NOT_FOUND);
	/* Nothing was created or kept: the UMEM goes. */
	cr_expect_eq(dev_obj_count(t->dev, OBJ_CQ), 0);
	cr_expect_eq(dev_obj_count(t->dev, OBJ_RMP), 0);
	cr_expect_eq(destroy_umem(t, u), 0);
	tl_down_clean(t);
}
