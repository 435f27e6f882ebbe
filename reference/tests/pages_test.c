/* The page pool: membership in O(1), LIFO return, deletion that keeps every probe chain. */
#include <criterion/criterion.h>

#include "core/pages.h"

Test(page_pool, add_has_take_last)
{
	struct page_pool p;
	cr_assert_eq(page_pool_init(&p, 4), 0);
	cr_expect(!page_pool_has(&p, 0));
	cr_expect_eq(page_pool_add(&p, 0), 0, "page 0 is a valid address");
	cr_expect_eq(page_pool_add(&p, 0x1000), 0);
	cr_expect_eq(page_pool_add(&p, 0x7fff000), 0);
	cr_expect(page_pool_has(&p, 0));
	cr_expect(page_pool_has(&p, 0x7fff000));
	cr_expect(!page_pool_has(&p, 0x2000));
	cr_expect_eq(page_pool_take_last(&p), 0x7fff000, "latest given first");
	cr_expect(!page_pool_has(&p, 0x7fff000));
	cr_expect(page_pool_has(&p, 0x1000));
	cr_expect_eq(page_pool_add(&p, 0x3000), 0);
	cr_expect_eq(page_pool_add(&p, 0x4000), 0);
	cr_expect_eq(page_pool_add(&p, 0x5000), -1, "full at capacity");
	page_pool_clear(&p);
	cr_expect_eq(p.count, 0);
	cr_expect(!page_pool_has(&p, 0x1000));
	page_pool_fini(&p);
}

Test(page_pool, many_collisions_survive_deletion)
{
	/* Fill a pool, remove every page in LIFO order, and check membership of the rest at
	 * each step: a broken backward-shift deletion loses pages further down a probe run. */
	enum { N = 3000 };
	struct page_pool p;
	cr_assert_eq(page_pool_init(&p, N), 0);
	for (uint64_t i = 0; i < N; i++)
		cr_assert_eq(page_pool_add(&p, (i * 7919u % 100003u) << 12), 0);
	for (uint64_t i = N; i-- > 0;) {
		cr_assert_eq(page_pool_take_last(&p), (i * 7919u % 100003u) << 12);
		if (i % 97 == 0)
			for (uint64_t j = 0; j < i; j++)
				cr_assert(page_pool_has(&p, (j * 7919u % 100003u) << 12));
	}
	page_pool_fini(&p);
}
