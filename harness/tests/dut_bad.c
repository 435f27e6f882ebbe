/* Broken DUT libraries for the loader's checks (harness/tests/dut_check.sh builds this file
 * once per case, -DBAD=N): each must be refused with exit 2 and a message naming the library
 * and what is wrong. */
#include "nicref/dut.h"

static uint32_t r32(struct nicref_dut *d, uint32_t o)
{
	(void)d;
	return o;
}

static const struct nicref_dut_ops ops = {
#if BAD == 1 /* another ABI version */
	.abi_version = NICREF_DUT_ABI_VERSION + 1,
#else
	.abi_version = NICREF_DUT_ABI_VERSION,
#endif
#if BAD == 2 /* a table shorter than this version's */
	.size = 24,
#else
	.size = sizeof(struct nicref_dut_ops),
#endif
	.name = "broken",
	/* BAD == 3: every entry NULL but bar_read32 */
	.bar_read32 = r32,
};

NICREF_DUT_ENTRY
{
#if BAD == 4 /* no table at all */
	return (const struct nicref_dut_ops *)0;
#else
	return &ops;
#endif
}
