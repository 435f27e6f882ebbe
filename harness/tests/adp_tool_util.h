/* Shared by the test files of `nicref adp` (adp_check_test.c, adp_pkt_test.c, adp_cmd_test.c):
 * the example profile and the configurations of the capture checker.
 *
 * The example profile (corpora/adp_captures/example_profile.json): time_base 4 us; initial exponents
 * 1..4 (low 1, size 4: seed 001 L7 [low, low + size - 1]); range 0 = exponents 2..4 (16..64 us,
 * retry 2, TO_DIV_2), range 1 = 5..7 (128..512 us, retry 2, TO_DIV_4), range 2 = 8..11
 * (1.024..8.192 ms, retry 1, TO_LOW_BOUND, prev 1); total 4 us << 12 = 16.384 ms. With QP
 * timeout 10 the cap is 4.096 us << 10 = 4194.304 us. */
#ifndef NICREF_TESTS_ADP_TOOL_UTIL_H
#define NICREF_TESTS_ADP_TOOL_UTIL_H

#include <criterion/criterion.h>
#include <string.h>

#include "adp_check.h"
#include "adp_profile.h"

#define EXAMPLE "corpora/adp_captures/example_profile.json"
#define US 1000u

static inline struct adp_check_cfg example_cfg(void)
{
	struct adp_check_cfg c;
	memset(&c, 0, sizeof c);
	char err[256];
	cr_assert_eq(adp_profile_from_file(EXAMPLE, &c.mode.profile, err, sizeof err), 0, "%s", err);
	c.mode.adp = true;
	c.mode.retrans_en = true;
	c.mode.base_timeout_min_ns = 4000;
	c.attr.timeout = 10;
	c.attr.retry_cnt = 7;
	c.tol_ns = ADP_CHECK_DEFAULT_TOL_NS;
	return c;
}

static inline struct adp_check_cfg classic_cfg(uint8_t timeout, uint8_t retry_cnt)
{
	struct adp_check_cfg c;
	memset(&c, 0, sizeof c);
	c.attr.timeout = timeout;
	c.attr.retry_cnt = retry_cnt;
	c.tol_ns = ADP_CHECK_DEFAULT_TOL_NS;
	return c;
}

#endif
