/* Object tables (obj/objtab.h): lowest free handle first (D-OBJ-2), ranges, O(1) lookup and
 * memory that follows the live objects. */
#include <criterion/criterion.h>

#include "obj/objtab.h"

static int tag[8];

Test(objtab, lowest_free_first_within_the_range)
{
	struct objtab t;
	cr_assert_eq(objtab_init(&t, 1u << 24), 0);
	objtab_reset(&t, 1, 1 + 4, NULL, NULL);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(objtab_alloc(&t, &tag[i]), 1 + i);
	cr_expect_eq(objtab_alloc(&t, &tag[4]), -1, "range [1, 5) is full");
	cr_expect_eq(objtab_remove(&t, 3), &tag[2]);
	cr_expect_null(objtab_remove(&t, 3), "already removed");
	cr_expect_null(objtab_get(&t, 3));
	cr_expect_null(objtab_get(&t, 0), "below the base");
	cr_expect_null(objtab_get(&t, 5), "past the limit");
	cr_expect_eq(objtab_alloc(&t, &tag[5]), 3, "the freed handle is the lowest free");
	cr_expect_eq(objtab_get(&t, 3), &tag[5]);
	cr_expect_eq(t.nlive, 4u);
	objtab_fini(&t);
}

static void count_dtor(void *ctx, void *obj)
{
	(void)obj;
	(*(int *)ctx)++;
}

Test(objtab, reset_calls_the_destructor_once_per_object)
{
	struct objtab t;
	int n = 0;
	cr_assert_eq(objtab_init(&t, 1u << 24), 0);
	objtab_reset(&t, 1, 1u << 20, NULL, NULL);
	for (int i = 0; i < 5000; i++)
		cr_assert_eq(objtab_alloc(&t, &tag[0]), 1 + i);
	objtab_reset(&t, 1, 1u << 20, count_dtor, &n);
	cr_expect_eq(n, 5000);
	cr_expect_eq(t.nlive, 0u);
	cr_expect_eq(objtab_alloc(&t, &tag[1]), 1, "numbering starts again at the base");
	objtab_fini(&t);
}

Test(objtab, memory_follows_the_live_objects)
{
	struct objtab t;
	cr_assert_eq(objtab_init(&t, 1u << 24), 0);
	objtab_reset(&t, 0, 1u << 24, NULL, NULL);
	uint64_t empty = objtab_bytes(&t);
	/* 2^24 handles cost a directory of 4096 chunk pointers and the bitmaps, nothing more. */
	cr_expect_lt(empty, 40000u);
	for (uint32_t i = 0; i < 3 * OBJTAB_CHUNK; i++)
		cr_assert_eq(objtab_alloc(&t, &tag[0]), (int64_t)i);
	uint64_t full = objtab_bytes(&t);
	cr_expect_eq(full - empty, 3 * sizeof(struct objtab_chunk));
	/* emptying the middle chunk gives its memory back */
	for (uint32_t i = OBJTAB_CHUNK; i < 2 * OBJTAB_CHUNK; i++)
		cr_assert_not_null(objtab_remove(&t, i));
	cr_expect_eq(objtab_bytes(&t), full - sizeof(struct objtab_chunk));
	/* and the lowest free handle is the first of that chunk again */
	cr_expect_eq(objtab_alloc(&t, &tag[1]), (int64_t)OBJTAB_CHUNK);
	objtab_fini(&t);
}

Test(objtab, the_widest_handles_work)
{
	struct objtab t;
	cr_assert_eq(objtab_init(&t, 1u << 24), 0);
	uint32_t top = (1u << 24) - 2;
	objtab_reset(&t, top, 1u << 24, NULL, NULL);
	cr_expect_eq(objtab_alloc(&t, &tag[0]), top);
	cr_expect_eq(objtab_alloc(&t, &tag[1]), top + 1);
	cr_expect_eq(objtab_alloc(&t, &tag[2]), -1);
	cr_expect_eq(objtab_get(&t, top + 1), &tag[1]);
	void *o = NULL;
	cr_expect_eq(objtab_next(&t, 0, &o), top);
	cr_expect_eq(o, &tag[0]);
	cr_expect_eq(objtab_next(&t, top + 1, &o), top + 1);
	cr_expect_eq(objtab_next(&t, top + 2, NULL), -1);
	objtab_fini(&t);
}

Test(objtab, iteration_finds_every_live_handle_in_order)
{
	struct objtab t;
	cr_assert_eq(objtab_init(&t, 1u << 24), 0);
	/* handles in three chunks, then the highest chunk emptied and a middle one too */
	static const uint32_t h[] = { 0, 63, 64, 4095, 4096, 3 * 4096 + 7, 9 * 4096 + 100 };
	for (uint32_t i = 0; i <= 9 * 4096 + 100; i++)
		cr_assert_eq(objtab_alloc(&t, &tag[0]), (int64_t)i);
	for (uint32_t i = 0; i <= 9 * 4096 + 100; i++) {
		bool keep = false;
		for (size_t j = 0; j < sizeof h / sizeof h[0]; j++)
			keep |= h[j] == i;
		if (!keep)
			cr_assert_not_null(objtab_remove(&t, i));
	}
	size_t n = 0;
	for (int64_t x = objtab_next(&t, 0, NULL); x >= 0; x = objtab_next(&t, (uint32_t)x + 1, NULL))
		cr_expect_eq(x, (int64_t)h[n++]);
	cr_expect_eq(n, sizeof h / sizeof h[0]);
	cr_assert_not_null(objtab_remove(&t, 9 * 4096 + 100));
	cr_assert_not_null(objtab_remove(&t, 3 * 4096 + 7));
	cr_expect_eq(objtab_next(&t, 4097, NULL), -1, "the chunks above are gone");
	cr_expect_eq(objtab_next(&t, 4096, NULL), 4096);
	cr_expect_eq(objtab_next(&t, 65, NULL), 4095);
	objtab_fini(&t);
}

Test(objtab, capacity_must_be_a_power_of_two_up_to_2_24)
{
	struct objtab t;
	cr_expect_neq(objtab_init(&t, 0), 0);
	cr_expect_neq(objtab_init(&t, 3000), 0);
	cr_expect_neq(objtab_init(&t, 1u << 25), 0);
	cr_expect_eq(objtab_init(&t, 256), 0);
	objtab_reset(&t, 0, 1000, NULL, NULL);
	cr_expect_eq(t.limit, 256u, "the limit is clamped to the capacity");
	objtab_fini(&t);
}

/* objtab_first/objtab_then (the invariants' inline walk) return what objtab_next returns, handle
 * and object, on tables grown and thinned at random over several chunks. */
static void expect_same_walk(const struct objtab *t)
{
	struct objtab_iter it;
	void *a = NULL, *b = NULL;
	int64_t x = objtab_next(t, 0, &a);
	size_t n = 0;
	for (int64_t y = objtab_first(&it, t, &b); y >= 0; y = objtab_then(&it, &b), n++) {
		cr_assert_eq(y, x, "step %zu: walk %lld, objtab_next %lld", n, (long long)y,
			     (long long)x);
		cr_assert_eq(b, a);
		x = objtab_next(t, (uint32_t)y + 1, &a);
	}
	cr_assert_eq(x, -1, "objtab_next has more after %zu handles", n);
}

Test(objtab, inline_walk_returns_what_objtab_next_returns)
{
	struct objtab t;
	cr_assert_eq(objtab_init(&t, 1u << 16), 0);
	objtab_reset(&t, 1, 1u << 16, NULL, NULL);
	expect_same_walk(&t); /* empty */
	uint64_t s = 12345;
	for (unsigned round = 0; round < 40; round++) {
		for (unsigned i = 0; i < 700; i++)
			cr_assert_geq(objtab_alloc(&t, &tag[i % 8]), 1);
		for (unsigned i = 0; i < 650; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			(void)objtab_remove(&t, (uint32_t)(s >> 40) % (1u << 16));
		}
		expect_same_walk(&t);
	}
	cr_assert_gt(t.top, 2u, "the walk crossed chunks");
	/* A table whose range no longer covers every live handle (not what objtab_reset leaves,
	 * but the walk must still agree): handles below base skipped, the walk ends at limit. */
	uint32_t base = t.base, limit = t.limit;
	t.base = 5000;
	t.limit = 9000;
	expect_same_walk(&t);
	t.base = base;
	t.limit = limit;
	objtab_reset(&t, 1, 1u << 16, NULL, NULL);
	expect_same_walk(&t);
	objtab_fini(&t);
}
