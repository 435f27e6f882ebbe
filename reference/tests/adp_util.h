/* Shared by the ADP engine's test files (adp_*test.c): the ADP engine (reference/adp/), profile
 * validation, the per-QP timer state machine, the timeline, the profile codec. Seeds 000
 * (ROCE_ACCL and profile layouts) and 001 (the algorithm); decisions D-ADP-* in
 * docs/decisions.md.
 *
 * Every expected value is worked out by hand from the seed text, with the arithmetic
 * in the comments; none is copied from what the model prints.
 *
 * The example profile E (also docs/adp.md):
 *   time_unit 1 (us), time_base 4 -> base = 4000 ns; V(e) = 4000 << e ns:
 *     e:    1     2      3      4       5       6       7        8        9        10
 *     V: 8000 16000  32000  64000  128000  256000  512000  1024000  2048000  4096000
 *   init low 2, size 2: seed 001 L7 draws e in [2, 2 + 2 - 1] = {2, 3}
 *   range 0: lo 1 size 3 -> [1, 4], retry_num 2, dec_mode 1 TO_DIV_2, prev 0
 *   range 1: lo 5 size 2 -> [5, 7], retry_num 1, dec_mode 0 TO_DIV_4, prev 0
 *   range 2: lo 8 size 2 -> [8, 10], retry_num 1, dec_mode 2 TO_LOW_BOUND, prev 1
 *   start_range_index 0; qp_total_timeout 0, retx_total_timeout 12 -> 4000 << 12 = 16384000
 *   QP: timeout 14 -> cap 4096 << 14 = 67108864 ns (above every V(e) used), retry_cnt 7. */
#ifndef NICREF_TESTS_ADP_UTIL_H
#define NICREF_TESTS_ADP_UTIL_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nicref/nicref.h"

static inline struct nicref_adp_profile example(void)
{
	struct nicref_adp_profile p;
	memset(&p, 0, sizeof p);
	p.range_num = 3;
	p.start_range_index = 0;
	p.time_unit = 1;
	p.time_base = 4;
	p.retx_total_timeout = 12;
	p.timeout_init_low_bound = 2;
	p.timeout_init_range_size = 2;
	p.range[0] = (struct nicref_adp_range){ 0, 1, 2, 1, 3 };
	p.range[1] = (struct nicref_adp_range){ 0, 0, 1, 5, 2 };
	p.range[2] = (struct nicref_adp_range){ 1, 2, 1, 8, 2 };
	return p;
}

static inline struct nicref_adp_mode mode_of(const struct nicref_adp_profile *p)
{
	struct nicref_adp_mode m;
	memset(&m, 0, sizeof m);
	m.adp = true;
	m.profile = *p;
	m.base_timeout_min_ns = 4000; /* seed 001 L27/L60: 4 us */
	return m;
}

static const struct nicref_adp_qp_attr QP_ATTR = { 14, 7 };

#endif
