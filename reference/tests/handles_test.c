/* Handle spaces: lowest free handle first (D-OBJ-2), exactly limit - base handles, frees
 * checked, and the same behaviour across the word and level boundaries of the bitmaps. */
#include <criterion/criterion.h>

#include "obj/handles.h"

Test(handles, lowest_free_first_within_range)
{
	struct handle_space hs;
	cr_assert_eq(handle_space_init(&hs, 300), 0);
	handle_space_reset(&hs, 5, 300);
	cr_expect_eq(handle_alloc(&hs), 5, "the first handle is base");
	cr_expect_eq(handle_alloc(&hs), 6);
	cr_expect_eq(handle_alloc(&hs), 7);
	cr_expect_eq(handle_free(&hs, 6), 0);
	cr_expect_eq(handle_alloc(&hs), 6, "a freed handle is the lowest free again");
	cr_expect_eq(handle_free(&hs, 4), -1, "below base: never live");
	cr_expect_eq(handle_free(&hs, 8), -1, "never allocated");
	cr_expect_eq(handle_free(&hs, 7), 0);
	cr_expect_eq(handle_free(&hs, 7), -1, "double free refused");
	cr_expect(!handle_live(&hs, 7));
	cr_expect(handle_live(&hs, 5));
	cr_expect_eq(hs.nlive, 2);
	handle_space_fini(&hs);
}

Test(handles, exhaustion_and_reuse_across_levels)
{
	/* 2^16 + 1 handles: three levels of bitmaps (1025 words, 17, 1). */
	const uint32_t cap = (1u << 16) + 1;
	struct handle_space hs;
	cr_assert_eq(handle_space_init(&hs, cap), 0);
	cr_expect_eq(hs.levels, 3);
	handle_space_reset(&hs, 1, cap);
	for (uint32_t i = 1; i < cap; i++)
		cr_assert_eq(handle_alloc(&hs), (int64_t)i);
	cr_expect_eq(handle_alloc(&hs), -1, "exactly limit - base handles");
	cr_expect_eq(handle_free(&hs, 4097), 0);
	cr_expect_eq(handle_free(&hs, 64), 0);
	cr_expect_eq(handle_alloc(&hs), 64);
	cr_expect_eq(handle_alloc(&hs), 4097);
	cr_expect_eq(handle_alloc(&hs), -1);
	handle_space_reset(&hs, 1, 3);
	cr_expect_eq(hs.nlive, 0, "reset frees everything");
	cr_expect_eq(handle_alloc(&hs), 1);
	cr_expect_eq(handle_alloc(&hs), 2);
	cr_expect_eq(handle_alloc(&hs), -1, "a narrower range after reset");
	handle_space_fini(&hs);
}

Test(handles, empty_range)
{
	struct handle_space hs;
	cr_assert_eq(handle_space_init(&hs, 64), 0);
	handle_space_reset(&hs, 0, 0);
	cr_expect_eq(handle_alloc(&hs), -1);
	cr_expect(!handle_live(&hs, 0));
	handle_space_reset(&hs, 0, 1000);
	cr_expect_eq(hs.limit, 64, "the limit is clamped to the capacity");
	handle_space_fini(&hs);
}
