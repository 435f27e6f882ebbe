/* Numbers and hex bytes as vectors write them (harness/jsonval.c, docs/vectors.md "Numbers and
 * names"). */
#include <criterion/criterion.h>
#include <string.h>

#include "jsonval.h"

/* revrunner F8: separators go between digit pairs, never inside one. */
Test(jsonval, hex_separators_only_between_pairs)
{
	uint8_t b[8];
	cr_expect_eq(hex_parse("12 34", b, sizeof b), 2);
	cr_expect(b[0] == 0x12 && b[1] == 0x34);
	cr_expect_eq(hex_parse("0x12:34_56\n78", b, sizeof b), 4);
	cr_expect_eq(hex_length("12 34"), 2);
	cr_expect_eq(hex_length(" 12 34 "), 2);
	cr_expect_eq(hex_parse("1 2 3 4", b, sizeof b), -1);
	cr_expect_eq(hex_length("1 2 3 4"), -1);
	cr_expect_eq(hex_parse("12 3:4", b, sizeof b), -1);
	cr_expect_eq(hex_length("12 3_4"), -1);
	cr_expect_eq(hex_length("123"), -1);
}
