/* The reserved-bit check of command inputs (cmd/dispatch.c cmd_check_reserved, D-CMD-8), bit by
 * bit against a mask built here from the layouts' fields independently of the model's: for every
 * layout the check takes, one bit set at a time at every field edge (the bits either side of
 * each field's first and last bit) and everywhere in the first 64 bytes, a bit no field covers
 * is reported as CMD_RESERVED_NOT_ZERO with its dword and the bit, a covered one is not. The
 * model builds its mask a byte range per field and skips clean eight-byte runs: the partial
 * bytes at a field's ends and the runs' edges are where that could go wrong. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"
#include "testlib.h"

#define MAX_BYTES 0x1010 /* dispatch.c's CMD_RESERVED_MAX: the largest structure checked */

/* Whether bit b (big-endian, from the MSB of byte 0) of a structure of `size` bytes lies in a
 * field of l (an array field covers to the end). */
static bool covered(const struct nicref_layout *l, size_t size, uint64_t b)
{
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		uint64_t lo = f->bit_offset;
		uint64_t hi = f->flags & NICREF_FIELD_ARRAY ? (uint64_t)size * 8 : lo + f->bit_width;
		if (b >= lo && b < hi)
			return true;
	}
	return false;
}

static void expect_bit(struct nicref_dev *dev, struct tl_trace *tr, const struct nicref_layout *l,
		       uint8_t *in, uint64_t b)
{
	size_t size = l->size;
	if (b >= (uint64_t)size * 8)
		return;
	memset(in, 0, size);
	in[b / 8] = (uint8_t)(0x80u >> (b % 8));
	struct cmd_ctx c = { .dev = dev, .in = in, .in_len = size };
	tl_mark(tr);
	enum nicref_cmd_rule rule = cmd_check_reserved(&c, l, 0);
	if (covered(l, size, b)) {
		cr_expect_eq(tl_count(tr, NICREF_EV_VIOLATION), 0, "%s bit %llu is a field's", l->name,
			     (unsigned long long)b);
		cr_expect_eq(rule, NICREF_RULE_NONE, "%s bit %llu", l->name, (unsigned long long)b);
		return;
	}
	uint64_t want = (b / 32 * 4) << 32 | (1u << (31 - b % 32));
	cr_expect_eq(tl_count(tr, NICREF_EV_VIOLATION), 1, "%s bit %llu is reserved", l->name,
		     (unsigned long long)b);
	cr_expect_eq(tr->last_violation, NICREF_VIO_CMD_RESERVED_NOT_ZERO, "%s bit %llu", l->name,
		     (unsigned long long)b);
	cr_expect_eq(tr->last_violation_arg, want, "%s bit %llu: argument %#llx, want %#llx",
		     l->name, (unsigned long long)b, (unsigned long long)tr->last_violation_arg,
		     (unsigned long long)want);
	cr_expect_eq(rule, NICREF_RULE_RESERVED_NOT_ZERO, "%s bit %llu", l->name,
		     (unsigned long long)b);
}

Test(reserved_bits, every_field_edge_of_every_layout)
{
	struct tl_trace *tr = calloc(1, sizeof *tr);
	cr_assert(tr != NULL);
	struct nicref_dev *dev = tl_dev_create(NULL, tr);
	cr_assert(dev != NULL);
	uint8_t *in = malloc(MAX_BYTES);
	cr_assert(in != NULL);
	size_t n;
	const struct nicref_layout *const *ls = nicref_layouts(&n);
	unsigned checked = 0, reserved = 0;
	for (size_t k = 0; k < n; k++) {
		const struct nicref_layout *l = ls[k];
		if (l->size == 0 || l->size > MAX_BYTES)
			continue;
		for (uint64_t b = 0; b < 64 * 8; b++)
			expect_bit(dev, tr, l, in, b);
		for (uint32_t i = 0; i < l->nfields; i++) {
			const struct nicref_field *f = &l->fields[i];
			uint64_t lo = f->bit_offset, hi = lo + f->bit_width;
			const uint64_t edges[] = { lo - 1, lo, lo + 1, hi - 2, hi - 1, hi, hi + 1 };
			for (unsigned e = 0; e < sizeof edges / sizeof edges[0]; e++)
				if (edges[e] < (uint64_t)l->size * 8) {
					expect_bit(dev, tr, l, in, edges[e]);
					reserved += !covered(l, l->size, edges[e]);
				}
		}
		checked++;
	}
	/* The default profile refuses (reserved_check strict) and the tables do have reserved
	 * bits: the test looked at something. */
	cr_expect_gt(checked, 100);
	cr_expect_gt(reserved, 100);
	free(in);
	nicref_dev_destroy(dev);
	free(tr);
}
