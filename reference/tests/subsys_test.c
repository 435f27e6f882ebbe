/* The table of subsystems (core/subsys.h): a device made of the model's rows (device/device.c)
 * and one probe row, as a layer to come (eth/, steer/, roce/) would plug in, sees each of its
 * hooks run where core/subsys.h says, with the state its create made, and core changes
 * nothing for it. */
#include <stdlib.h>

#include "cmd/ctl_dev.h"
#include "device/device.h"
#include "testlib.h"

/* What the probe saw. Its create hands core this struct as the row's state, so the test reads
 * it after the device is gone. */
struct probe {
	int refuse_profile, fail_create, broken;
	unsigned profile_checks, creates, destroys, resets, ticks, checks, counts;
	void *state_seen;     /* the state a hook was given (the last one) */
	uint64_t now_at_tick; /* the device's clock when the tick ran */
	uint32_t uar_pages;   /* UARs live when the probe's reset ran (after the objects' row) */
};

static struct probe probe;

static int probe_profile_ok(const struct nicref_profile *p)
{
	(void)p;
	probe.profile_checks++;
	return !probe.refuse_profile;
}

static int probe_create(struct nicref_dev *dev, void **state)
{
	(void)dev;
	probe.creates++;
	cr_expect_null(*state, "a row's state starts NULL");
	*state = &probe;
	return probe.fail_create ? -1 : 0;
}

static void probe_destroy(struct nicref_dev *dev, void *state)
{
	(void)dev;
	probe.destroys++;
	probe.state_seen = state;
}

static void probe_reset(struct nicref_dev *dev, void *state)
{
	probe.resets++;
	probe.state_seen = state;
	probe.uar_pages = dev_obj_count(dev, OBJ_UAR);
}

static void probe_tick(struct nicref_dev *dev, void *state)
{
	probe.ticks++;
	probe.state_seen = state;
	probe.now_at_tick = nicref_clock_now(dev);
}

static int probe_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	(void)dev;
	probe.checks++;
	probe.state_seen = (void *)(uintptr_t)state;
	return probe.broken ? dev_broken(buf, len, -999, "probe broken %d", probe.broken) : 0;
}

static void probe_counters(const struct nicref_dev *dev, const void *state,
			   struct nicref_stats *out)
{
	(void)dev;
	(void)state;
	probe.counts++;
	out->dma_errors += 1000;
}

static const struct dev_subsys probe_row = {
	.name = "probe",
	.profile_ok = probe_profile_ok,
	.create = probe_create,
	.destroy = probe_destroy,
	.reset = probe_reset,
	.tick = probe_tick,
	.check = probe_check,
	.counters = probe_counters,
};

#define MAX_ROWS 32

/* The model's rows, then the probe. */
static unsigned with_probe(const struct dev_subsys **rows)
{
	cr_assert_lt(device_nsubsystems, MAX_ROWS);
	for (unsigned i = 0; i < device_nsubsystems; i++)
		rows[i] = device_subsystems[i];
	rows[device_nsubsystems] = &probe_row;
	return device_nsubsystems + 1;
}

static struct nicref_dev *probe_dev(void)
{
	static const struct dev_subsys *rows[MAX_ROWS];
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	return dev_create(&cfg, rows, with_probe(rows), sizeof(struct nicref_dev));
}

Test(subsys, a_row_runs_its_hooks_with_its_state)
{
	probe = (struct probe){ 0 };
	struct nicref_dev *dev = probe_dev();
	cr_assert_not_null(dev);
	/* create once, then the power-on reset of nicref_dev_create */
	cr_expect_eq(probe.profile_checks, 1);
	cr_expect_eq(probe.creates, 1);
	cr_expect_eq(probe.resets, 1);
	cr_expect_eq(probe.state_seen, &probe, "reset gets the state create made");

	nicref_dev_reset(dev);
	cr_expect_eq(probe.resets, 2);

	/* core's clock moves first, then the rows' ticks */
	nicref_clock_advance(dev, 5000);
	cr_expect_eq(probe.ticks, 1);
	cr_expect_eq(probe.now_at_tick, 5000);

	/* the row's counts are added to core's (no DMA error happened) */
	struct nicref_stats st;
	nicref_stats_get(dev, &st);
	cr_expect_eq(probe.counts, 1);
	cr_expect_eq(st.dma_errors, 1000);

	/* its invariant is checked after the model's, and explained */
	cr_expect_eq(nicref_dev_check(dev), 0);
	cr_expect_eq(probe.checks, 1);
	probe.broken = 7;
	char why[64];
	cr_expect_eq(nicref_dev_check_explain(dev, why, sizeof why), -999);
	cr_expect_str_eq(why, "probe broken 7");
	probe.broken = 0;

	nicref_dev_destroy(dev);
	cr_expect_eq(probe.destroys, 1);
	cr_expect_eq(probe.state_seen, &probe, "destroy gets the state create made");
}

/* A row after the objects' sees the objects' power-on already done: every UAR released. */
Test(subsys, rows_reset_in_table_order)
{
	probe = (struct probe){ 0 };
	struct nicref_dev *dev = probe_dev();
	cr_assert_not_null(dev);
	struct refdrv d;
	struct refdrv_ops ops = refdrv_ops_model(dev);
	uint32_t uar;
	cr_assert_eq(refdrv_init(&d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_INITIALIZED), 0, "%s", d.error);
	cr_assert_eq(refdrv_alloc_uar(&d, &uar), 0, "%s", d.error);
	cr_assert_eq(dev_obj_count(dev, OBJ_UAR), 1);
	nicref_dev_reset(dev);
	cr_expect_eq(probe.uar_pages, 0, "the objects' row reset before the probe's");
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
}

Test(subsys, a_row_refusing_the_profile_creates_nothing)
{
	probe = (struct probe){ .refuse_profile = 1 };
	cr_expect_null(probe_dev());
	cr_expect_eq(probe.profile_checks, 1);
	cr_expect_eq(probe.creates, 0);
	cr_expect_eq(probe.destroys, 0);
}

/* The device is undone: every row created so far destroyed, the failed one with what it left
 * (LeakSanitizer, make check, sees anything kept). */
Test(subsys, a_failed_create_is_undone)
{
	probe = (struct probe){ .fail_create = 1 };
	cr_expect_null(probe_dev());
	cr_expect_eq(probe.creates, 1);
	cr_expect_eq(probe.destroys, 1);
	cr_expect_eq(probe.state_seen, &probe);
	cr_expect_eq(probe.resets, 0, "no power-on for a device that was not made");
}

/* The model's table: every row named once. */
Test(subsys, the_model_rows_are_named_once)
{
	for (unsigned i = 0; i < device_nsubsystems; i++) {
		cr_assert_not_null(device_subsystems[i]->name);
		for (unsigned j = 0; j < i; j++)
			cr_expect_str_neq(device_subsystems[i]->name, device_subsystems[j]->name);
	}
}
