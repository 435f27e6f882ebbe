/* A fuzz target that breaks the model on purpose, for fuzzers/tests/selftest.sh: it shows what
 * a finding prints in each fuzz build (fuzzers/fuzz_report.c). Built by `make -f fuzzers/fuzz.mk
 * selftest` only, never fuzzed.
 *
 * Input: one byte. After the reference driver's bring-up and one PD:
 *   'i'  an invariant: the PD's reference count one too many (REFCOUNT_MATCHES)
 *   'a'  a model assertion: an ICM charge given back that was never taken (obj/obj.c)
 *   'c'  a property of the target: NICREF_FUZZ_CHECK(len == 0)
 *   else nothing: every check passes.
 * The lines selftest.sh expects are those marked "selftest:". */
#include "cmd/ctl_dev.h"
#include "driver.h"
#include "fuzz_oracle.h"
#include "fuzz_target.h"

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;

static int broken_init(void)
{
	dev = fuzz_oracle_device(&oracle);
	return dev ? 0 : -1;
}

static void broken_one_input(const uint8_t *data, size_t len)
{
	nicref_dev_reset(dev);
	nicref_hostmem_clear(dev);
	fuzz_oracle_reset(&oracle);
	struct refdrv_ops ro = refdrv_ops_model(dev);
	refdrv_fini(&drv);
	NICREF_FUZZ_CHECK(refdrv_init(&drv, &ro) == 0);
	NICREF_FUZZ_CHECK(refdrv_bring_up(&drv, REFDRV_INITIALIZED) == 0);
	int64_t pd = obj_alloc_plain(dev, OBJ_PD);
	NICREF_FUZZ_CHECK(pd >= 0);
	fuzz_oracle_check_dev(&oracle);

	switch (len ? data[0] : 0) {
	case 'i':
		((struct obj_hdr *)obj_get(dev, OBJ_PD, (uint32_t)pd))->refs++;
		fuzz_oracle_check_dev(&oracle); /* selftest: invariant */
		break;
	case 'a':
		obj_uncharge(dev, OBJ_MKEY); /* selftest: assertion */
		break;
	case 'c':
		NICREF_FUZZ_CHECK(len == 0); /* selftest: check */
		break;
	default:
		break;
	}
}

NICREF_FUZZ_TARGET(broken_init, broken_one_input)
