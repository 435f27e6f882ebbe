/* NICREF_DUT=LIB in a fuzz target's environment: every device the target creates gets a twin in
 * the device under test LIB (nicref/dut.h), driven with the same stimuli (harness/dut_diff.h),
 * and the first thing a host could see differ is a finding: "property DUT_DIVERGENCE broken",
 * the stimulus and the field, then the trap that makes the engine save the input. Unset, the
 * target runs as always. Called by NICREF_FUZZ_TARGET before the target's own init. */
#include <stdio.h>
#include <stdlib.h>

#include "dut_diff.h"
#include "fuzz_target.h"

static void on_divergence(void *ctx, const struct dut_divergence *d)
{
	(void)ctx;
	fuzz_property_failed("DUT_DIVERGENCE", __FILE__, __LINE__,
			     "the DUT %s (%s) differs from the model at op %llu since the last reset "
			     "(%s): %s\n  reproduce: NICREF_DUT=%s <this target> <the saved input>",
			     dut_diff_name(), dut_diff_path(), d->index, d->stimulus, d->what,
			     dut_diff_path());
}

void fuzz_dut_init(void)
{
	const char *lib = getenv("NICREF_DUT");
	if (!lib || !*lib)
		return;
	char err[1200];
	if (dut_diff_use(lib, err, sizeof err) != 0) {
		fprintf(stderr, "NICREF_DUT: %s\n", err);
		exit(2);
	}
	dut_diff_set_handler(on_divergence, NULL);
	fprintf(stderr, "NICREF_DUT: every device is compared with the DUT %s (%s)\n",
		dut_diff_name(), lib);
}
