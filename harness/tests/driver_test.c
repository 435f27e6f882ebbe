/* The reference driver brings a device up and down without a single driver violation, and
 * each deliberate mistake is reported as its specific violation or status. The tests bring the
 * device up themselves: the bring-up is what they test. */
#include <stdio.h>
#include <string.h>

#include "testlib.h"

Test(refdrv, up_and_down_without_violations)
{
	static struct tl_trace s;
	struct nicref_dev *dev = tl_dev_create(NULL, &s);
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
	cr_expect_eq(s.violations, 0, "the reference driver caused a driver violation");
	cr_expect_eq(tl_count(&s, NICREF_EV_CMD_FAIL), 0, "a command was refused");

	/* Up again on the same device: DISABLE_HCA left it ready for a new §8.2 sequence from
	 * ENABLE_HCA (the queue address stays latched). */
	cr_expect_eq(d.reached, REFDRV_QUEUE);
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_INITIALIZED), 0, "%s", d.error);
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.state, NICREF_HCA_INITIALIZED);
	cr_expect_eq(s.violations, 0);
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
}

Test(refdrv, wrong_mailbox_signature_is_reported)
{
	static struct tl_trace s;
	struct nicref_profile strict; /* D-CMD-5: signatures checked (cmdif_checksum 3) */
	nicref_profile_default(&strict);
	strict.cmdif_checksum = 3;
	struct nicref_dev *dev = tl_dev_create(&strict, &s);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv d;
	cr_assert_eq(refdrv_init(&d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_ISSI), 0, "%s", d.error);
	d.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	/* The first command with an input mailbox is MANAGE_PAGES giving the boot pages. */
	cr_assert_neq(refdrv_bring_up(&d, REFDRV_BOOT_PAGES), 0);
	cr_expect_eq(d.last_delivery, 0x1, "T96 delivery status 0x1 signature error");
	cr_expect_eq(s.vio[NICREF_VIO_MAILBOX_SIGNATURE], 1);
	cr_expect_eq(s.violations, 1, "only the one mistake is reported");
	struct nicref_hca_info info;
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.pages, 0, "an undelivered command changes nothing");
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
}

Test(refdrv, skipped_set_issi_is_reported)
{
	static struct tl_trace s;
	struct nicref_dev *dev = tl_dev_create(NULL, &s);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv d;
	cr_assert_eq(refdrv_init(&d, &ops), 0);
	d.mistakes = REFDRV_MISTAKE_SKIP_SET_ISSI;
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_INITIALIZED), 0, "%s", d.error);
	cr_expect_eq(s.vio[NICREF_VIO_ISSI_NOT_SET], 1, "§7.1: SET_ISSI is mandatory");
	cr_expect_eq(s.violations, 1);
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

/* The driver's name table answers by content, not by the caller's pointer: one buffer filled
 * with two opcode names in turn gives each its own opcode (T127). */
Test(refdrv, opcode_names_from_a_reused_buffer)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%s", "QUERY_PAGES");
	cr_expect_eq(refdrv_opcode(buf), NICREF_OP_QUERY_PAGES);
	snprintf(buf, sizeof buf, "%s", "MANAGE_PAGES");
	cr_expect_eq(refdrv_opcode(buf), NICREF_OP_MANAGE_PAGES);
	snprintf(buf, sizeof buf, "%s", "NOT_AN_OPCODE");
	cr_expect_lt(refdrv_opcode(buf), 0);
}

/* caps_epoch names the write of the capability copies a driver holds: a new value at every
 * write (refdrv_init's clearing, the bring-up's queries), a copy of the driver keeps it, and
 * two drivers never share one but by a copy (fuzzers/fuzz_snap.c copies the 8 KB only when it
 * differs). */
Test(refdrv, caps_epoch_names_each_write_of_the_capabilities)
{
	struct nicref_dev *dev = tl_dev_create(NULL, NULL);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	static struct refdrv a, b, copy;
	cr_assert_eq(refdrv_init(&a, &ops), 0);
	cr_assert_eq(refdrv_init(&b, &ops), 0);
	cr_expect_neq(a.caps_epoch, b.caps_epoch, "two drivers");
	uint64_t init = a.caps_epoch;
	cr_assert_eq(refdrv_bring_up(&a, REFDRV_BOOT_PAGES), 0, "%s", a.error);
	cr_expect_eq(a.caps_epoch, init, "no capability written before the caps stage");
	cr_assert_eq(refdrv_bring_up(&a, REFDRV_CAPS), 0, "%s", a.error);
	cr_expect_neq(a.caps_epoch, init, "QUERY_HCA_CAP wrote them");
	cr_expect_neq(a.caps_epoch, b.caps_epoch);
	copy = a;
	cr_expect_eq(copy.caps_epoch, a.caps_epoch, "a copy holds the same bytes");
	uint64_t up = a.caps_epoch;
	refdrv_fini(&a);
	cr_assert_eq(refdrv_init(&a, &ops), 0);
	cr_expect(a.caps_epoch != up && a.caps_epoch != init, "cleared again: another write");
	refdrv_fini(&a);
	refdrv_fini(&b);
	nicref_dev_destroy(dev);
}
