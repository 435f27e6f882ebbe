/* MKeys: CREATE/QUERY/DESTROY_MKEY and QUERY_SPECIAL_CONTEXTS (PRM §12.5, T226-T241), and the
 * translation and protection API (obj/mkey.h; PRM §6.1-§6.3) with hand-computed addresses.
 * Decisions: docs/mkey.md (D-MKC-*). */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_mkey.h"
#include "obj/mkey.h"
#include "testlib.h"

/* ---- translation pieces, collected ---- */

struct pieces {
	unsigned n;
	uint64_t pa[16], len[16];
	unsigned stop_after; /* 0: never */
};

static int collect(void *ctx, uint64_t pa, uint64_t len)
{
	struct pieces *p = ctx;
	cr_assert_lt(p->n, 16u);
	p->pa[p->n] = pa;
	p->len[p->n] = len;
	p->n++;
	return p->stop_after && p->n == p->stop_after ? 7 : 0;
}

static int xlate(struct tl_dev *t, uint32_t key, uint32_t pd, uint64_t va, uint64_t len,
		 unsigned access, struct pieces *p)
{
	struct mkey_req r = { key, pd, va, len, access, false };
	memset(p, 0, sizeof *p);
	return mkey_translate(t->dev, &r, collect, p);
}

#define expect_piece(p, i, a, l)                                                                \
	do {                                                                                    \
		cr_expect_eq((p).pa[i], (uint64_t)(a), "piece %d pa 0x%llx", i,                 \
			     (unsigned long long)(p).pa[i]);                                    \
		cr_expect_eq((p).len[i], (uint64_t)(l), "piece %d len 0x%llx", i,              \
			     (unsigned long long)(p).len[i]);                                   \
	} while (0)

static uint32_t mk(struct tl_dev *t, const struct refdrv_mkey_attr *a)
{
	uint32_t idx = 0;
	cr_assert_eq(refdrv_create_mkey(&t->d, a, &idx), 0, "CREATE_MKEY: %s rule %s", t->d.error,
		     tl_rule_of(t->d.last_syndrome));
	return idx;
}

#define LR MKEY_LOCAL_READ
#define LW MKEY_LOCAL_WRITE
#define RR MKEY_REMOTE_READ
#define RW MKEY_REMOTE_WRITE

/* MKey "A" of several tests: MTT, 4 KB pages, region [0x10000800, 0x10003000) over the pages
 * 0x10000000, 0x10001000, 0x10002000 mapped to 0x5000000, 0x7000000, 0x9000000. */
static const uint64_t a_mtt[] = { 0x5000000, 0x7000000, 0x9000000 };
static struct refdrv_mkey_attr attr_a(uint32_t pd)
{
	struct refdrv_mkey_attr a = { .access_mode = MKEY_AM_MTT, .pd = pd, .tag = 0x5A, .lw = true,
				      .start_addr = 0x10000800, .len = 0x2800,
				      .log_entity_size = 12, .mtt = a_mtt, .nmtt = 3 };
	return a;
}

Test(mkey_translate, mtt_split_across_pages)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	struct refdrv_mkey_attr aa = attr_a(pd);
	uint32_t key = MKEY_KEY(mk(t, &aa), 0x5A);
	struct pieces p;

	/* §6.1 Direct mode: [0x10000F00, 0x10002100) covers the end of page 0, all of page 1
	 * and the start of page 2; each page keeps its offset (naturally aligned pages). */
	cr_expect_eq(xlate(t, key, pd, 0x10000F00, 0x1200, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 3);
	expect_piece(p, 0, 0x5000F00, 0x100);
	expect_piece(p, 1, 0x7000000, 0x1000);
	expect_piece(p, 2, 0x9000000, 0x100);

	/* The whole region: it starts 0x800 into its first page (§6.2 Figure 10). */
	cr_expect_eq(xlate(t, key, pd, 0x10000800, 0x2800, LR | LW, &p), MKEY_OK);
	cr_assert_eq(p.n, 3);
	expect_piece(p, 0, 0x5000800, 0x800);
	expect_piece(p, 1, 0x7000000, 0x1000);
	expect_piece(p, 2, 0x9000000, 0x1000);

	/* Bounds (§6.1 step 1): the last byte is in, one before the start or past the end is
	 * not; nothing is handed out for a refused range. */
	cr_expect_eq(xlate(t, key, pd, 0x10002FFF, 1, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 1);
	expect_piece(p, 0, 0x9000FFF, 1);
	cr_expect_eq(xlate(t, key, pd, 0x100007FF, 1, LR, &p), MKEY_ERR_BOUNDS);
	cr_expect_eq(xlate(t, key, pd, 0x10002FFF, 2, LR, &p), MKEY_ERR_BOUNDS);
	cr_expect_eq(xlate(t, key, pd, 0x10001000, UINT64_MAX, LR, &p), MKEY_ERR_BOUNDS);
	cr_expect_eq(p.n, 0);

	/* Key (Figure 6: index and the variant part), PD, rights (T10 lr/lw/rr/rw). */
	cr_expect_eq(xlate(t, key ^ 1, pd, 0x10001000, 8, LR, &p), MKEY_ERR_TAG);
	cr_expect_eq(xlate(t, key + 0x100, pd, 0x10001000, 8, LR, &p), MKEY_ERR_INVALID);
	cr_expect_eq(xlate(t, key, pd + 1, 0x10001000, 8, LR, &p), MKEY_ERR_PD);
	cr_expect_eq(xlate(t, key, pd, 0x10001000, 8, RR, &p), MKEY_ERR_ACCESS);
	cr_expect_eq(xlate(t, key, pd, 0x10001000, 8, RW, &p), MKEY_ERR_ACCESS);
	cr_expect_eq(xlate(t, key, pd, 0x10001000, 8, LW, &p), MKEY_OK);
	expect_piece(p, 0, 0x7000000, 8);

	/* Zero length checks key, PD and rights but hands out nothing. */
	cr_expect_eq(xlate(t, key, pd, 0x10003000, 0, LR, &p), MKEY_OK);
	cr_expect_eq(p.n, 0);
	cr_expect_eq(xlate(t, key, pd, 0x10001000, 0, RR, &p), MKEY_ERR_ACCESS);

	/* The callback may stop the walk with its own positive value. */
	struct mkey_req r = { key, pd, 0x10000800, 0x2800, LR, false };
	memset(&p, 0, sizeof p);
	p.stop_after = 1;
	cr_expect_eq(mkey_translate(t->dev, &r, collect, &p), 7);
	cr_expect_eq(p.n, 1);
	/* No callback: the check alone. */
	cr_expect_eq(mkey_translate(t->dev, &r, NULL, NULL), MKEY_OK);
	tl_down_clean(t);
}

Test(mkey_translate, mtt_large_pages_and_undelivered_entries)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	/* log_entity_size 21: 2 MB pages. [0x401FF000, 0x40201000) straddles the first page
	 * boundary. */
	static const uint64_t big[] = { 0x80000000, 0x20000000 };
	struct refdrv_mkey_attr c = { .access_mode = MKEY_AM_MTT, .pd = pd, .tag = 1,
				      .start_addr = 0x40000000, .len = 0x400000,
				      .log_entity_size = 21, .mtt = big, .nmtt = 2 };
	uint32_t ck = MKEY_KEY(mk(t, &c), 1);
	struct pieces p;
	cr_expect_eq(xlate(t, ck, pd, 0x401FF000, 0x2000, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 2);
	expect_piece(p, 0, 0x801FF000, 0x1000);
	expect_piece(p, 1, 0x20000000, 0x1000);

	/* translations_octword_size 4 (8 entries) but one octword delivered (2 entries): the
	 * third page has no translation (D-MKC-8), and nothing of the range is handed out. */
	static const uint64_t two[] = { 0x1000000, 0x2000000 };
	struct refdrv_mkey_attr b = { .access_mode = MKEY_AM_MTT, .pd = pd, .tag = 2,
				      .start_addr = 0, .len = 0x8000, .log_entity_size = 12,
				      .mtt = two, .nmtt = 2, .octword_size = 4 };
	uint32_t bk = MKEY_KEY(mk(t, &b), 2);
	cr_expect_eq(xlate(t, bk, pd, 0x1800, 0x1000, LR, &p), MKEY_ERR_UNMAPPED);
	cr_expect_eq(p.n, 0);
	cr_expect_eq(xlate(t, bk, pd, 0x1800, 0x800, LR, &p), MKEY_OK);
	expect_piece(p, 0, 0x2000800, 0x800);
	tl_down_clean(t);
}

Test(mkey_translate, per_page_access_rights)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	/* T227 pg_access: page 0 read only (rd_en, bit 0), page 1 read and write (T12). */
	static const uint64_t mtt[] = { 0x3000000 | 1, 0x4000000 | 3 };
	struct refdrv_mkey_attr d = { .access_mode = MKEY_AM_MTT, .pd = pd, .tag = 3, .lw = true,
				      .pg_access = true, .start_addr = 0, .len = 0x2000,
				      .log_entity_size = 12, .mtt = mtt, .nmtt = 2 };
	uint32_t dk = MKEY_KEY(mk(t, &d), 3);
	struct pieces p;
	cr_expect_eq(xlate(t, dk, pd, 0, 0x2000, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 2);
	expect_piece(p, 0, 0x3000000, 0x1000);
	expect_piece(p, 1, 0x4000000, 0x1000);
	cr_expect_eq(xlate(t, dk, pd, 0x1000, 0x10, LW, &p), MKEY_OK);
	expect_piece(p, 0, 0x4000000, 0x10);
	cr_expect_eq(xlate(t, dk, pd, 0xFF0, 0x20, LW, &p), MKEY_ERR_PAGE_ACCESS);
	cr_expect_eq(p.n, 0);
	tl_down_clean(t);
}

Test(mkey_translate, pa_length64_free_and_destroyed)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	struct pieces p;
	/* T10 access_mode PA: VA = PA, inside the region, with the region's rights. */
	struct refdrv_mkey_attr e = { .access_mode = MKEY_AM_PA, .pd = pd, .tag = 4,
				      .start_addr = 0x100000, .len = 0x1000 };
	uint32_t ek = MKEY_KEY(mk(t, &e), 4);
	cr_expect_eq(xlate(t, ek, pd, 0x100800, 0x100, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 1);
	expect_piece(p, 0, 0x100800, 0x100);
	cr_expect_eq(xlate(t, ek, pd, 0x100800, 0x100, LW, &p), MKEY_ERR_ACCESS);
	cr_expect_eq(xlate(t, ek, pd, 0x100F00, 0x101, LR, &p), MKEY_ERR_BOUNDS);

	/* length64 (T10 0Ch[31]): 2^64 bytes from start_addr, wrapping; a range may end at
	 * the region's end but not run past it. */
	struct refdrv_mkey_attr f = { .access_mode = MKEY_AM_PA, .pd = pd, .tag = 5, .lw = true,
				      .length64 = true, .start_addr = 0xFFFFFFFFFFFFF000ull };
	uint32_t fk = MKEY_KEY(mk(t, &f), 5);
	cr_expect_eq(xlate(t, fk, pd, 0x10, 0x10, LW, &p), MKEY_OK);
	expect_piece(p, 0, 0x10, 0x10);
	cr_expect_eq(xlate(t, fk, pd, 0xFFFFFFFFFFFFEFFFull, 1, LR, &p), MKEY_OK);
	cr_expect_eq(xlate(t, fk, pd, 0xFFFFFFFFFFFFEFFFull, 2, LR, &p), MKEY_ERR_BOUNDS);

	/* T10 00h[30] free: "Cannot be used for address translation". */
	struct refdrv_mkey_attr g = { .access_mode = MKEY_AM_PA, .pd = pd, .tag = 6, .free = true,
				      .start_addr = 0, .len = 0x1000 };
	uint32_t gi = mk(t, &g);
	cr_expect_eq(xlate(t, MKEY_KEY(gi, 6), pd, 0, 8, LR, &p), MKEY_ERR_FREE);

	/* T225: after DESTROY_MKEY, accesses fault; a new MKey at the same index with another
	 * tag does not answer the old key (§6.1 "generation identifier"). */
	cr_expect_eq(refdrv_destroy_mkey(&t->d, MKEY_INDEX(ek)), 0);
	cr_expect_eq(xlate(t, ek, pd, 0x100800, 8, LR, &p), MKEY_ERR_INVALID);
	e.tag = 0x44;
	uint32_t again = mk(t, &e);
	cr_expect_eq(again, MKEY_INDEX(ek), "lowest free index first (D-OBJ-2)");
	cr_expect_eq(xlate(t, ek, pd, 0x100800, 8, LR, &p), MKEY_ERR_TAG);
	cr_expect_eq(xlate(t, MKEY_KEY(again, 0x44), pd, 0x100800, 8, LR, &p), MKEY_OK);
	tl_down_clean(t);
}

/* A PA MKey hands out VA = PA (T10 access_mode PA), so a range its length64 region accepts but
 * whose addresses would run past 2^64 is refused as the reserved LKey's is (D-MKC-14). */
Test(mkey_translate, pa_piece_never_runs_past_2_64)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	struct pieces p;
	struct refdrv_mkey_attr a = { .access_mode = MKEY_AM_PA, .pd = pd, .tag = 0x21,
				      .length64 = true, .start_addr = 0x1000 };
	uint32_t k = MKEY_KEY(mk(t, &a), 0x21);
	/* Inside the region [0x1000, 0x1000 + 2^64): offsets 2^64 - 0x2000 .. 2^64 - 1. */
	cr_expect_eq(xlate(t, k, pd, 0xFFFFFFFFFFFFF000ull, 0x2000, LR, &p), MKEY_ERR_BOUNDS,
		     "%u piece(s), pa 0x%llx len 0x%llx", p.n, (unsigned long long)p.pa[0],
		     (unsigned long long)p.len[0]);
	cr_expect_eq(p.n, 0u, "nothing handed out");
	/* Up to the last address is fine. */
	cr_expect_eq(xlate(t, k, pd, 0xFFFFFFFFFFFFF000ull, 0x1000, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 1u);
	expect_piece(p, 0, 0xFFFFFFFFFFFFF000ull, 0x1000);
	tl_down_clean(t);
}

Test(mkey_translate, reserved_lkey)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t resd = 0xFFFFFFFF;
	cr_assert_eq(refdrv_query_special_contexts(&t->d, &resd), 0);
	cr_expect_eq(resd, MKEY_RESD_LKEY, "D-MKC-3");
	/* §6.3: one-to-one mapping, qualified by the WQ's rlkey; an LKey: local only. */
	struct mkey_req r = { resd, 9, 0x1234, 0x10, LR | LW, true };
	struct pieces p = { 0 };
	cr_expect_eq(mkey_translate(t->dev, &r, collect, &p), MKEY_OK);
	cr_assert_eq(p.n, 1);
	expect_piece(p, 0, 0x1234, 0x10);
	r.rlkey = false;
	cr_expect_eq(mkey_translate(t->dev, &r, NULL, NULL), MKEY_ERR_RLKEY);
	r.rlkey = true;
	r.access = RR;
	cr_expect_eq(mkey_translate(t->dev, &r, NULL, NULL), MKEY_ERR_RLKEY);
	cr_expect_eq(mkey_err_syndrome(MKEY_ERR_RLKEY, LR), 0x04, "T74 Local_Protection_Error");
	cr_expect_eq(mkey_err_syndrome(MKEY_ERR_ACCESS, RW), 0x11, "T74 Local_Access_Error");
	cr_expect_eq(mkey_err_syndrome(MKEY_OK, LR), 0x00);
	tl_down_clean(t);
}

Test(mkey_translate, klm_segments_and_hops)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t), pd2 = tl_alloc_pd(t);
	struct refdrv_mkey_attr aa = attr_a(pd);
	uint32_t ak = MKEY_KEY(mk(t, &aa), 0x5A);
	static const uint64_t big[] = { 0x80000000, 0x20000000 };
	struct refdrv_mkey_attr c = { .access_mode = MKEY_AM_MTT, .pd = pd, .tag = 1, .lw = true,
				      .start_addr = 0x40000000, .len = 0x400000,
				      .log_entity_size = 21, .mtt = big, .nmtt = 2 };
	uint32_t ck = MKEY_KEY(mk(t, &c), 1);

	/* An indirect MKey: [0, 0x1000) is A at 0x10001000 (0x7000000), [0x1000, 0x3000) is C
	 * at 0x401FF000 (0x801FF000, then 0x20000000 past the 2 MB boundary). */
	struct refdrv_klm kl[] = { { 0x1000, ak, 0x10001000 }, { 0x2000, ck, 0x401FF000 } };
	struct refdrv_mkey_attr k = { .access_mode = MKEY_AM_KLM, .pd = pd, .tag = 0x11,
				      .lw = true, .start_addr = 0, .len = 0x4000, .klm = kl,
				      .nklm = 2 };
	uint32_t kk = MKEY_KEY(mk(t, &k), 0x11);
	struct pieces p;
	cr_expect_eq(xlate(t, kk, pd, 0x800, 0x1000, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 2);
	expect_piece(p, 0, 0x7000800, 0x800);
	expect_piece(p, 1, 0x801FF000, 0x800);
	cr_expect_eq(xlate(t, kk, pd, 0x1800, 0x1000, LR | LW, &p), MKEY_OK);
	cr_assert_eq(p.n, 2);
	expect_piece(p, 0, 0x801FF800, 0x800);
	expect_piece(p, 1, 0x20000000, 0x800);
	/* The region is 0x4000 but the KLMs cover 0x3000. */
	cr_expect_eq(xlate(t, kk, pd, 0x2FFF, 2, LR, &p), MKEY_ERR_UNMAPPED);
	cr_expect_eq(p.n, 0);

	/* §6.1 Indirect mode: every hop is checked. E (PA, pd, lr only): a write through an
	 * indirect MKey that allows it still fails at E; an MKey of another PD fails; a KLM
	 * naming no MKey fails. */
	struct refdrv_mkey_attr e = { .access_mode = MKEY_AM_PA, .pd = pd, .tag = 4,
				      .start_addr = 0x100000, .len = 0x1000 };
	uint32_t ek = MKEY_KEY(mk(t, &e), 4);
	struct refdrv_mkey_attr o = e;
	o.pd = pd2;
	uint32_t ok = MKEY_KEY(mk(t, &o), 4);
	struct refdrv_klm bad[] = { { 0x100, ek, 0x100000 }, { 0x100, ok, 0x100000 },
				    { 0x100, ok + 0x10000, 0 } };
	struct refdrv_mkey_attr h = { .access_mode = MKEY_AM_KLM, .pd = pd, .tag = 7, .lw = true,
				      .start_addr = 0, .len = 0x300, .klm = bad, .nklm = 3 };
	uint32_t hk = MKEY_KEY(mk(t, &h), 7);
	cr_expect_eq(xlate(t, hk, pd, 0x80, 0x10, LR, &p), MKEY_OK);
	expect_piece(p, 0, 0x100080, 0x10);
	cr_expect_eq(xlate(t, hk, pd, 0x80, 0x10, LW, &p), MKEY_ERR_ACCESS);
	cr_expect_eq(xlate(t, hk, pd, 0x180, 0x10, LR, &p), MKEY_ERR_PD);
	cr_expect_eq(xlate(t, hk, pd, 0x280, 0x10, LR, &p), MKEY_ERR_INVALID);
	/* A range whose first part is fine and second is not hands out nothing. */
	cr_expect_eq(xlate(t, hk, pd, 0xF0, 0x20, LR, &p), MKEY_ERR_PD);
	cr_expect_eq(p.n, 0);
	tl_down_clean(t);
}

/* An indirect MKey of one KLM covering [0, 0x1000) of `to` at `addr`. */
static uint32_t chain(struct tl_dev *t, uint32_t pd, uint32_t to, uint64_t addr)
{
	struct refdrv_klm kl = { 0x1000, to, addr };
	struct refdrv_mkey_attr a = { .access_mode = MKEY_AM_KLM, .pd = pd, .tag = 0x22,
				      .start_addr = 0, .len = 0x1000, .klm = &kl, .nklm = 1 };
	return MKEY_KEY(mk(t, &a), 0x22);
}

Test(mkey_translate, indirection_depth_limit)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	/* T145 20h[31:24] max_indirection is 4 in the default profile. */
	cr_assert_eq(CAPS_CUR(t->dev, CAP_GENERAL, hca_cap, max_indirection), 4);
	struct refdrv_mkey_attr aa = attr_a(pd);
	uint32_t ak = MKEY_KEY(mk(t, &aa), 0x5A);
	uint32_t l1 = chain(t, pd, ak, 0x10001000);
	uint32_t l2 = chain(t, pd, l1, 0);
	uint32_t l3 = chain(t, pd, l2, 0);
	uint32_t l4 = chain(t, pd, l3, 0);
	uint32_t l5 = chain(t, pd, l4, 0);
	struct pieces p;
	/* l4 -> l3 -> l2 -> l1 -> A: four indirections, the limit (D-MKC-7). */
	cr_expect_eq(xlate(t, l4, pd, 0x10, 0x20, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 1);
	expect_piece(p, 0, 0x7000010, 0x20);
	/* l5: five, one beyond (§6.1.1 "terminates with an error"). */
	cr_expect_eq(xlate(t, l5, pd, 0x10, 0x20, LR, &p), MKEY_ERR_DEPTH);
	cr_expect_eq(p.n, 0);

	/* A KLM naming its own MKey ends at the limit, not in a loop: the index it will get is
	 * the lowest free one (D-OBJ-2), found with a throw-away MKey. */
	uint32_t probe = MKEY_INDEX(chain(t, pd, ak, 0x10001000));
	cr_assert_eq(refdrv_destroy_mkey(&t->d, probe), 0);
	uint32_t self = chain(t, pd, MKEY_KEY(probe, 0x22), 0);
	cr_assert_eq(MKEY_INDEX(self), probe);
	cr_expect_eq(xlate(t, self, pd, 0, 8, LR, &p), MKEY_ERR_DEPTH);
	tl_down_clean(t);
}

/* ---- commands ---- */

Test(mkey_cmd, query_round_trips_every_context_field)
{
	struct tl_dev *t = tl_up(NULL);
	tl_alloc_pd(t);
	uint32_t pd2 = tl_alloc_pd(t);
	/* Every field of T10 at a value other than its default, for an MTT MKey with per-page
	 * rights, then for a KLM MKey with length64 (len and log_entity_size are reserved
	 * there). */
	struct {
		const char *name;
		uint64_t v;
	} mtt_ctx[] = {
		{ "free", 1 },
		{ "umr_en", 1 },
		{ "rw", 1 },
		{ "rr", 1 },
		{ "lw", 1 },
		{ "lr", 1 },
		{ "access_mode", 1 },
		{ "qpn", 0xFFFFFF },
		{ "mkey_7_0", 0xC3 },
		{ "length64", 0 },
		{ "pd", pd2 },
		{ "start_addr", 0x123456789000ull },
		{ "len", 0x5000 },
		{ "translations_octword_size", 8 },
		{ "log_entity_size", 14 },
	};
	const struct nicref_layout *mkc = nicref_layout_find("mkc");
	cr_assert_eq(mkc->nfields, sizeof mtt_ctx / sizeof mtt_ctx[0], "every T10 field listed");
	tl_begin(t, "create_mkey_in", "CREATE_MKEY");
	for (size_t i = 0; i < sizeof mtt_ctx / sizeof mtt_ctx[0]; i++)
		tl_set(t, "create_mkey_in", mtt_ctx[i].name, mtt_ctx[i].v);
	tl_set(t, "create_mkey_in", "pg_access", 1);
	tl_set(t, "create_mkey_in", "translations_octword_actual_size", 2);
	/* Four MTT entries (T11): ptag, reserved bits 7:2 (not kept), wr_en, rd_en. */
	static const uint64_t ent[] = { 0x0000000A00004003ull, 0x00000B0000008FFDull,
					0x0000000000010002ull, 0x123456789ABCD001ull };
	for (uint32_t i = 0; i < 4; i++)
		tl_set_elem(t, "create_mkey_in", "klm_pas_mtt", i, ent[i]);
	cr_assert_eq(tl_run_paged(t, 0x110 + 32, 16), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	uint32_t idx = (uint32_t)tl_get(t, "create_mkey_out", "mkey_index");

	/* QUERY_MKEY with pg_access: the MTTs with their rights (T233). */
	tl_begin(t, "query_mkey_in", "QUERY_MKEY");
	tl_set(t, "query_mkey_in", "mkey_index", idx);
	tl_set(t, "query_mkey_in", "pg_access", 1);
	cr_assert_eq(tl_run_paged(t, 16, 0x110 + 64), 0);
	for (size_t i = 0; i < sizeof mtt_ctx / sizeof mtt_ctx[0]; i++)
		cr_expect_eq(tl_get(t, "query_mkey_out", mtt_ctx[i].name), mtt_ctx[i].v, "%s",
			     mtt_ctx[i].name);
	static const uint64_t mtt_back[] = { 0x0000000A00004003ull, 0x00000B0000008F01ull,
					     0x0000000000010002ull, 0x123456789ABCD001ull };
	for (uint32_t i = 0; i < 4; i++)
		cr_expect_eq(tl_get_elem(t, "query_mkey_out", "bsf_klm_pas_mtt", i), mtt_back[i],
			     "entry %u", i);
	for (uint32_t i = 4; i < 8; i++)
		cr_expect_eq(tl_get_elem(t, "query_mkey_out", "bsf_klm_pas_mtt", i), 0,
			     "entry %u was not delivered", i);
	/* Without pg_access: PASs (T138 pa_h, pa_l[31:12]). */
	tl_set(t, "query_mkey_in", "pg_access", 0);
	cr_assert_eq(tl_run_paged(t, 16, 0x110 + 32), 0);
	static const uint64_t pas_back[] = { 0x0000000A00004000ull, 0x00000B0000008000ull,
					     0x0000000000010000ull, 0x123456789ABCD000ull };
	for (uint32_t i = 0; i < 4; i++)
		cr_expect_eq(tl_get_elem(t, "query_mkey_out", "bsf_klm_pas_mtt", i), pas_back[i]);
	/* The output is filled "up to the mailbox size" (§12.5.2): 0x118 holds one entry. */
	cr_assert_eq(tl_run_paged(t, 16, 0x118), 0);
	cr_expect_eq(tl_get_elem(t, "query_mkey_out", "bsf_klm_pas_mtt", 0), pas_back[0]);
	cr_expect_eq(tl_get_elem(t, "query_mkey_out", "bsf_klm_pas_mtt", 1), 0);

	/* A KLM MKey with length64: KLM entries come back as given. */
	tl_begin(t, "create_mkey_in", "CREATE_MKEY");
	tl_set(t, "create_mkey_in", "lr", 1);
	tl_set(t, "create_mkey_in", "rr", 1);
	tl_set(t, "create_mkey_in", "access_mode", 2);
	tl_set(t, "create_mkey_in", "qpn", 0xFFFFFF);
	tl_set(t, "create_mkey_in", "mkey_7_0", 0x3C);
	tl_set(t, "create_mkey_in", "length64", 1);
	tl_set(t, "create_mkey_in", "pd", pd2);
	tl_set(t, "create_mkey_in", "start_addr", 0xFEDCBA9876543210ull);
	tl_set(t, "create_mkey_in", "translations_octword_size", 4);
	tl_set(t, "create_mkey_in", "translations_octword_actual_size", 1);
	tl_set_elem(t, "create_mkey_in", "klm_pas_mtt", 0, 0x80000000ull << 32 | 0x00000277);
	tl_set_elem(t, "create_mkey_in", "klm_pas_mtt", 1, 0x0102030405060708ull);
	cr_assert_eq(tl_run_paged(t, 0x120, 16), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	uint32_t kidx = (uint32_t)tl_get(t, "create_mkey_out", "mkey_index");
	tl_begin(t, "query_mkey_in", "QUERY_MKEY");
	tl_set(t, "query_mkey_in", "mkey_index", kidx);
	cr_assert_eq(tl_run_paged(t, 16, 0x120), 0);
	cr_expect_eq(tl_get(t, "query_mkey_out", "access_mode"), 2);
	cr_expect_eq(tl_get(t, "query_mkey_out", "length64"), 1);
	cr_expect_eq(tl_get(t, "query_mkey_out", "len"), 0);
	cr_expect_eq(tl_get(t, "query_mkey_out", "rr"), 1);
	cr_expect_eq(tl_get(t, "query_mkey_out", "lw"), 0);
	cr_expect_eq(tl_get(t, "query_mkey_out", "mkey_7_0"), 0x3C);
	cr_expect_eq(tl_get(t, "query_mkey_out", "start_addr"), 0xFEDCBA9876543210ull);
	cr_expect_eq(tl_get(t, "query_mkey_out", "translations_octword_size"), 4);
	cr_expect_eq(tl_get(t, "query_mkey_out", "log_entity_size"), 0);
	cr_expect_eq(tl_get_elem(t, "query_mkey_out", "bsf_klm_pas_mtt", 0),
		     0x80000000ull << 32 | 0x00000277);
	cr_expect_eq(tl_get_elem(t, "query_mkey_out", "bsf_klm_pas_mtt", 1), 0x0102030405060708ull);
	tl_down_clean(t);
}

Test(mkey_cmd, entries_are_copied_at_create)
{
	/* §12.5.1: the context is "taken from the input mailbox"; the driver may reuse its
	 * buffer (the mailbox is rewritten by the next command). */
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	struct refdrv_mkey_attr aa = attr_a(pd);
	uint32_t key = MKEY_KEY(mk(t, &aa), 0x5A);
	struct refdrv_mkey_attr other = attr_a(pd);
	static const uint64_t junk[] = { 0xAA000000, 0xBB000000, 0xCC000000 };
	other.mtt = junk;
	mk(t, &other);
	struct pieces p;
	cr_expect_eq(xlate(t, key, pd, 0x10001000, 4, LR, &p), MKEY_OK);
	expect_piece(p, 0, 0x7000000, 4);
	tl_down_clean(t);
}

Test(mkey_cmd, refusals_change_nothing)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	struct nicref_hca_info before, after;
	struct refdrv_mkey_attr aa = attr_a(pd);
	mk(t, &aa); /* pages are given now */
	nicref_hca_info(t->dev, &before);
	uint32_t idx;
	aa.log_entity_size = 11; /* T10 "Must be >=12" */
	tl_refused(t, refdrv_create_mkey(&t->d, &aa, &idx), MKEY_ENTITY_SIZE_SMALL);
	aa = attr_a(pd + 5); /* a PD in range, never allocated */
	tl_refused(t, refdrv_create_mkey(&t->d, &aa, &idx), MKEY_PD_INVALID);
	aa = attr_a(0); /* PDs are numbered from 1 (D-OBJ-2) */
	tl_refused(t, refdrv_create_mkey(&t->d, &aa, &idx), MKEY_PD_OUT_OF_RANGE);
	nicref_hca_info(t->dev, &after);
	cr_expect_eq(after.mkeys, before.mkeys);
	cr_expect_eq(after.query_pages[2], before.query_pages[2]);
	cr_expect_eq(((struct obj_hdr *)obj_get(t->dev, OBJ_PD, pd))->refs, 1);
	/* DEALLOC_PD of the PD an MKey names is refused (D-OBJ-1); after DESTROY_MKEY it goes. */
	uint8_t in[16] = { 0 }, out[16];
	nicref_field_set(in, 16, tl_field("dealloc_pd_in", "opcode"),
			 (uint64_t)nicref_opcode_find("DEALLOC_PD"));
	nicref_field_set(in, 16, tl_field("dealloc_pd_in", "pd"), pd);
	tl_refused(t, refdrv_cmd(&t->d, in, 16, out, 16), PD_IN_USE);
	cr_expect_eq(refdrv_destroy_mkey(&t->d, 1), 0);
	cr_expect_eq(refdrv_cmd(&t->d, in, 16, out, 16), 0);
	tl_down_clean(t);
}

Test(mkey_cmd, teardown_releases_every_mkey)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	for (int i = 0; i < 70; i++) { /* more than one ICM page of contexts (64, D-PG-4) */
		struct refdrv_mkey_attr aa = attr_a(pd);
		mk(t, &aa);
	}
	struct nicref_hca_info info;
	nicref_hca_info(t->dev, &info);
	cr_expect_eq(info.mkeys, 70);
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	nicref_dev_reset(t->dev);
	nicref_hca_info(t->dev, &info);
	cr_expect_eq(info.mkeys, 0);
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	refdrv_fini(&t->d);
	nicref_dev_destroy(t->dev);
	free(t);
}

Test(mkey_cmd, count_limit)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_max_objects = 1; /* 2^1 MKeys (T145 1Ch log_max_mkey follows the profile) */
	struct tl_dev *t = tl_up(&p);
	uint32_t pd = tl_alloc_pd(t);
	struct refdrv_mkey_attr aa = attr_a(pd);
	mk(t, &aa);
	mk(t, &aa);
	struct nicref_hca_info before, after;
	nicref_hca_info(t->dev, &before);
	uint32_t idx;
	tl_refused(t, refdrv_create_mkey(&t->d, &aa, &idx), MKEY_EXHAUSTED);
	nicref_hca_info(t->dev, &after);
	cr_expect_eq(after.mkeys, 2);
	cr_expect_eq(after.query_pages[2], before.query_pages[2]);
	cr_expect_eq(((struct obj_hdr *)obj_get(t->dev, OBJ_PD, pd))->refs, 2);
	/* After a destroy the freed index is handed out again (D-OBJ-2). */
	cr_assert_eq(refdrv_destroy_mkey(&t->d, 1), 0);
	cr_expect_eq(mk(t, &aa), 1);
	tl_down_clean(t);
}

Test(mkey_translate, klm_many_segments_and_empty_ones)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pd = tl_alloc_pd(t);
	struct refdrv_mkey_attr e = { .access_mode = MKEY_AM_PA, .pd = pd, .tag = 9,
				      .start_addr = 0, .len = 1ull << 40 };
	uint32_t ek = MKEY_KEY(mk(t, &e), 9);
	/* 1000 KLMs: entry k covers 0x100 bytes at 0x1000000 * k + 0x10 of the PA MKey, every
	 * third one is empty (byte_count 0, covers nothing). The region offset of entry k is
	 * 0x100 * (k - k / 3 rounded up) for the non-empty ones before it. */
	static struct refdrv_klm kl[1000];
	for (uint32_t k = 0; k < 1000; k++)
		kl[k] = (struct refdrv_klm){ k % 3 == 0 ? 0 : 0x100, ek, 0x1000000ull * k + 0x10 };
	struct refdrv_mkey_attr a = { .access_mode = MKEY_AM_KLM, .pd = pd, .tag = 1,
				      .start_addr = 0x5000, .len = 0x100000, .klm = kl,
				      .nklm = 1000 };
	uint32_t ak = MKEY_KEY(mk(t, &a), 1);
	struct pieces p;
	/* Non-empty entries are 1, 2, 4, 5, 7, ...: the n-th (from 0) is k = n + n / 2 + 1.
	 * Offset 0x8080 is 0x80 into the 0x80-th non-empty entry: k = 0x80 + 0x40 + 1 = 193. It
	 * runs 0x100 bytes: 0x80 there, then 0x80 into entry 194 (195 is empty). */
	cr_expect_eq(xlate(t, ak, pd, 0x5000 + 0x8080, 0x100, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 2);
	expect_piece(p, 0, 0x1000000ull * 193 + 0x10 + 0x80, 0x80);
	expect_piece(p, 1, 0x1000000ull * 194 + 0x10, 0x80);
	/* 0x80-th non-empty entry ends at 0x8100; the next (k = 194 + 2 = 196 after the empty
	 * 195) follows with no gap. */
	cr_expect_eq(xlate(t, ak, pd, 0x5000 + 0x81F0, 0x20, LR, &p), MKEY_OK);
	cr_assert_eq(p.n, 2);
	expect_piece(p, 0, 0x1000000ull * 194 + 0x10 + 0xF0, 0x10);
	expect_piece(p, 1, 0x1000000ull * 196 + 0x10, 0x10);
	/* 666 non-empty entries cover 0x29A00 bytes; beyond is unmapped. */
	cr_expect_eq(xlate(t, ak, pd, 0x5000 + 0x299FF, 1, LR, &p), MKEY_OK);
	expect_piece(p, 0, 0x1000000ull * 998 + 0x10 + 0xFF, 1);
	cr_expect_eq(xlate(t, ak, pd, 0x5000 + 0x29A00, 1, LR, &p), MKEY_ERR_UNMAPPED);
	tl_down_clean(t);
}
