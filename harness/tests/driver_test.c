/* The reference driver brings a device up and down without a single driver violation, and
 * each deliberate mistake is reported as its specific violation or status. */
#include <criterion/criterion.h>
#include <string.h>

#include "driver.h"
#include "nicref/cmd.h"
#include "nicref/nicref.h"
#include "nicref/trace.h"

struct seen {
	unsigned violations[NICREF_VIO_COUNT];
	unsigned fails;
	unsigned last_rule;
};

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct seen *s = ctx;
	if (ev->kind == NICREF_EV_VIOLATION && ev->arg[0] < NICREF_VIO_COUNT)
		s->violations[ev->arg[0]]++;
	if (ev->kind == NICREF_EV_CMD_FAIL) {
		s->fails++;
		s->last_rule = (unsigned)ev->arg[2];
	}
}

static struct nicref_dev *make_dev(struct seen *s)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.trace = on_event;
	cfg.trace_ctx = s;
	memset(s, 0, sizeof *s);
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert(dev);
	return dev;
}

static unsigned total(const struct seen *s)
{
	unsigned n = 0;
	for (unsigned i = 0; i < NICREF_VIO_COUNT; i++)
		n += s->violations[i];
	return n;
}

Test(refdrv, up_and_down_without_violations)
{
	struct seen s;
	struct nicref_dev *dev = make_dev(&s);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv d;
	cr_assert_eq(refdrv_init(&d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_INITIALIZED), 0, "%s", d.error);

	struct nicref_hca_info info;
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.state, NICREF_HCA_INITIALIZED);
	cr_expect_eq(info.issi, 1, "§7.1: min(driver ISSI 1, device max 1)");
	cr_expect_eq(info.pages, 8, "default profile: 2 boot + 6 init pages");
	cr_expect_eq(info.query_pages[2], 0, "nothing more to give, nothing to reclaim");

	cr_assert_eq(refdrv_teardown(&d), 0, "%s", d.error);
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.state, NICREF_HCA_DISABLED);
	cr_expect_eq(info.pages, 0);
	cr_expect_eq(d.npages, 0);
	cr_expect_eq(total(&s), 0, "the reference driver caused a driver violation");
	cr_expect_eq(s.fails, 0, "a command was refused");

	/* Up again on the same device: DISABLE_HCA left it ready for a new §8.2 sequence from
	 * ENABLE_HCA (the queue address stays latched). */
	cr_expect_eq(d.reached, REFDRV_QUEUE);
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_INITIALIZED), 0, "%s", d.error);
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.state, NICREF_HCA_INITIALIZED);
	cr_expect_eq(total(&s), 0);
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
}

Test(refdrv, wrong_mailbox_signature_is_reported)
{
	struct seen s;
	struct nicref_dev *dev = make_dev(&s);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv d;
	cr_assert_eq(refdrv_init(&d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_ISSI), 0, "%s", d.error);
	d.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	/* The first command with an input mailbox is MANAGE_PAGES giving the boot pages. */
	cr_assert_neq(refdrv_bring_up(&d, REFDRV_BOOT_PAGES), 0);
	cr_expect_eq(d.last_delivery, 0x1, "T96 delivery status 0x1 signature error");
	cr_expect_eq(s.violations[NICREF_VIO_MAILBOX_SIGNATURE], 1);
	cr_expect_eq(total(&s), 1, "only the one mistake is reported");
	struct nicref_hca_info info;
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.pages, 0, "an undelivered command changes nothing");
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
}

Test(refdrv, skipped_set_issi_is_reported)
{
	struct seen s;
	struct nicref_dev *dev = make_dev(&s);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv d;
	cr_assert_eq(refdrv_init(&d, &ops), 0);
	d.mistakes = REFDRV_MISTAKE_SKIP_SET_ISSI;
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_INITIALIZED), 0, "%s", d.error);
	cr_expect_eq(s.violations[NICREF_VIO_ISSI_NOT_SET], 1, "§7.1: SET_ISSI is mandatory");
	cr_expect_eq(total(&s), 1);
	struct nicref_hca_info info;
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.issi, 0, "the device runs ISSI 0 when none was set");
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
}

Test(refdrv, stage_names)
{
	cr_expect_eq(refdrv_stage_find("queue"), REFDRV_QUEUE);
	cr_expect_eq(refdrv_stage_find("initialized"), REFDRV_INITIALIZED);
	cr_expect_eq(refdrv_stage_find("running"), -1);
}
