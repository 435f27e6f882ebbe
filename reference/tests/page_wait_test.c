/* A command waiting for ICM pages (decision D-PG-6, reference/cmd/cmdq.c) at the edges of its
 * wait: what answers it (only a MANAGE_PAGES that completed with status OK, PRM §12.3.2) and
 * what ends it with the HCA's life (TEARDOWN_HCA, PRM §12.3.7 "releases all HCA allocated
 * resources ... will stop further execution of descriptors"; §12.3.8 ENABLE_HCA starts §8.2
 * afresh). The commands are posted slot by slot here, not through the reference driver, which
 * would answer the wait itself. */
#include <stdint.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "cmdbuild.h"
#include "testlib.h"

#define MBOXES 0x70000000ull /* the chains of slot s at MBOXES + s MB, output 512 KB above */
#define DOORBELL 0x18u       /* PRM §4.3 T8 18h */

static int host_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	return nicref_hostmem_write(ctx, addr, buf, len);
}

static int host_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nicref_hostmem_read(ctx, addr, buf, len);
}

/* Posts in[0, in_len) in `slot` (signed, §7.14.1.1.1) and rings it (T8 18h bit `slot`). */
static struct cmd_post post(struct tl_dev *t, unsigned slot, const uint8_t *in, uint32_t in_len)
{
	struct cmd_post p = {
		.entry_addr = t->d.cmdq_addr + ((uint64_t)slot << t->d.log_cmdq_stride),
		.in = in,
		.in_len = in_len,
		.input_length = in_len,
		.output_length = 0x10,
		.in_mbox = MBOXES + ((uint64_t)slot << 20),
		.out_mbox = MBOXES + ((uint64_t)slot << 20) + 0x80000,
		.token = (uint8_t)(0x30 + slot),
		.sign = true,
	};
	cr_assert_eq(cmd_post_write(&p, host_write, t->dev), 0);
	nicref_bar_write32(t->dev, DOORBELL, 1u << slot);
	return p;
}

/* The entry of a posted command as it stands (T96 3Ch: ownership, delivery status; T101
 * status and syndrome of the inline output). */
static struct cmd_result look(struct tl_dev *t, const struct cmd_post *p)
{
	struct cmd_result r;
	uint8_t out[0x10];
	cr_assert_eq(cmd_result_read(p, host_read, t->dev, out, sizeof out, &r), 0);
	return r;
}

/* A 16-byte command of `layout` in `slot`: completed and delivered; its status. */
static unsigned run16(struct tl_dev *t, unsigned slot, const char *layout, const char *opcode,
		      const char *field, uint64_t v)
{
	tl_begin(t, layout, opcode);
	if (field)
		tl_set(t, layout, field, v);
	struct cmd_post p = post(t, slot, t->in, 0x10);
	struct cmd_result r = look(t, &p);
	cr_assert_eq(r.ownership, 0, "%s in slot %u not completed", opcode, slot);
	cr_assert_eq(r.delivery, 0, "%s: delivery status 0x%x", opcode, r.delivery);
	return r.status;
}

/* A device INITIALIZED by the reference driver with an EQ that takes Page Requests (event type
 * 0Bh, §7.13.10.2) and a CREATE_CQ in slot 0 that waits for its page (D-PG-6: owned by the
 * device, its cmd_fail ICM_PAGES_SHORT traced). `cq_in` keeps the CREATE_CQ's input. */
static struct tl_dev *waiting_create(uint8_t cq_in[0x118], struct cmd_post *cq)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 1ull << 0x0B, 0);
	cr_assert_eq(eq.eqn, 0);
	tl_begin(t, "create_cq_in", "CREATE_CQ");
	tl_set(t, "create_cq_in", "log_cq_size", 2);
	tl_set(t, "create_cq_in", "uar_page", t->uar);
	tl_set(t, "create_cq_in", "c_eqn", eq.eqn);
	tl_set(t, "create_cq_in", "dbr_addr", tl_hostmem(t, 8));
	tl_set_elem(t, "create_cq_in", "pas", 0, tl_hostmem(t, 0x1000));
	memcpy(cq_in, t->in, 0x118);
	tl_mark(&t->tr);
	*cq = post(t, 0, cq_in, 0x118);
	cr_assert_eq(look(t, cq).ownership, 1, "the CREATE_CQ waits (D-PG-6)");
	const struct nicref_event *f = tl_only(&t->tr, NICREF_EV_CMD_FAIL);
	cr_assert_not_null(f);
	cr_assert_eq(f->arg[2], NICREF_RULE_ICM_PAGES_SHORT);
	cr_assert_eq(t->dev->hca.slots_waiting, 1u);
	tl_mark(&t->tr);
	return t;
}

/* PRM §12.3.7: a graceful close releases everything and stops executing descriptors; the
 * command held for pages completes then (ownership back to SW), refused as the TORN_DOWN state
 * refuses a create (BAD_SYS_STATE, D-INIT-2), and slot 0 serves the next life: after
 * DISABLE_HCA, ENABLE_HCA posted in slot 0 runs (§12.3.8). */
Test(page_wait, graceful_teardown_completes_the_waiting_command)
{
	uint8_t in[0x118];
	struct cmd_post cq;
	struct tl_dev *t = waiting_create(in, &cq);
	cr_assert_eq(run16(t, 1, "destroy_eq_in", "DESTROY_EQ", "eq_number", 0), 0);
	cr_expect_eq(look(t, &cq).ownership, 1, "DESTROY_EQ does not answer the request");
	tl_mark(&t->tr);
	cr_assert_eq(run16(t, 1, "teardown_hca_in", "TEARDOWN_HCA", "profile", 0), 0);
	struct cmd_result r = look(t, &cq);
	cr_expect_eq(r.ownership, 0, "the waiting CREATE_CQ completes at TEARDOWN_HCA");
	cr_expect_eq(r.delivery, 0);
	cr_expect_eq(r.status, nicref_cmd_rule_status(NICREF_RULE_HCA_TORN_DOWN));
	cr_expect_eq(r.syndrome, nicref_cmd_rule_syndrome(NICREF_RULE_HCA_TORN_DOWN));
	cr_expect(r.entry_sig_ok, "the device signs the entry it completes (D-CMD-12)");
	/* The teardown's completion first, then the CREATE_CQ's. */
	const struct nicref_event *d0 = tl_nth(&t->tr, NICREF_EV_CMD_DONE, 0);
	const struct nicref_event *d1 = tl_nth(&t->tr, NICREF_EV_CMD_DONE, 1);
	cr_assert(d0 && d1);
	cr_expect_eq(d0->arg[0], 1);
	cr_expect_eq(d1->arg[0], 0);
	cr_expect_eq(d1->arg[1], 0x400, "CREATE_CQ");
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CMD_DONE), 2);
	cr_expect_eq(t->dev->hca.slots_waiting, 0);
	cr_expect_eq(nicref_dev_check(t->dev), 0);

	/* §8.3 without reclaiming the pages: DISABLE_HCA says so (D-INIT-7); not the point. */
	tl_mark(&t->tr);
	cr_assert_eq(run16(t, 1, "disable_hca_in", "DISABLE_HCA", NULL, 0), 0);
	tl_expect_one_violation(&t->tr, NICREF_VIO_PAGES_NOT_RECLAIMED);
	tl_mark(&t->tr);
	cr_expect_eq(run16(t, 0, "enable_hca_in", "ENABLE_HCA", NULL, 0), 0);
	cr_expect_eq(t->tr.violations, 0, "no DB_SLOT_BUSY: slot 0 is SW's again");
	struct nicref_hca_info info;
	nicref_hca_info(t->dev, &info);
	cr_expect_eq(info.state, NICREF_HCA_ENABLED);
	tl_down(t);
}

/* A TEARDOWN_HCA refused (here: an EQ still lives, D-INIT-3) releases nothing: the command
 * waits on, and a MANAGE_PAGES with the page then completes it. */
Test(page_wait, refused_teardown_leaves_the_wait)
{
	uint8_t in[0x118];
	struct cmd_post cq;
	struct tl_dev *t = waiting_create(in, &cq);
	cr_assert_eq(run16(t, 1, "teardown_hca_in", "TEARDOWN_HCA", "profile", 0),
		     nicref_cmd_rule_status(NICREF_RULE_OBJECTS_LIVE_AT_TEARDOWN));
	cr_expect_eq(look(t, &cq).ownership, 1);
	cr_expect_eq(t->dev->hca.slots_waiting, 1u);
	tl_begin(t, "manage_pages_in", "MANAGE_PAGES");
	tl_set(t, "manage_pages_in", "op_mod", MP_ALLOCATION_SUCCESS);
	tl_set(t, "manage_pages_in", "input_num_entries", 1);
	tl_set_elem(t, "manage_pages_in", "pas", 0, 0x12000000);
	struct cmd_post mp = post(t, 1, t->in, 0x18);
	cr_assert_eq(look(t, &mp).status, 0);
	struct cmd_result r = look(t, &cq);
	cr_expect_eq(r.ownership, 0);
	cr_expect_eq(r.status, 0, "the CREATE_CQ got its page");
	tl_down(t);
}

/* PRM §12.3.7 panic close: the device stops mastering the bus (D-INIT-8), so the waiting
 * command is never written back; it no longer waits either (the invariant
 * PAGE_WAIT_ONLY_INITIALIZED holds). */
Test(page_wait, panic_teardown_drops_the_waiting_command)
{
	uint8_t in[0x118];
	struct cmd_post cq;
	struct tl_dev *t = waiting_create(in, &cq);
	cr_assert_eq(run16(t, 1, "teardown_hca_in", "TEARDOWN_HCA", "profile", 1), 0);
	cr_expect_eq(look(t, &cq).ownership, 1, "nothing written after a panic close");
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CMD_DONE), 1, "the teardown's own only");
	cr_expect_eq(t->dev->hca.slots_waiting, 0);
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	tl_down(t);
}

/* PRM §12.3.2: only a MANAGE_PAGES that completed with status OK answers the Page Request. One
 * its own rules refuse (a page address not 4 KB aligned, T139: BAD_PARAM PAGE_NOT_ALIGNED) moved
 * no page: the waiting command is not run again (no second cmd_fail ICM_PAGES_SHORT). */
Test(page_wait, refused_manage_pages_does_not_rerun)
{
	uint8_t in[0x118];
	struct cmd_post cq;
	struct tl_dev *t = waiting_create(in, &cq);
	tl_begin(t, "manage_pages_in", "MANAGE_PAGES");
	tl_set(t, "manage_pages_in", "op_mod", MP_ALLOCATION_SUCCESS);
	tl_set(t, "manage_pages_in", "input_num_entries", 1);
	tl_set_elem(t, "manage_pages_in", "pas", 0, 0x12000800);
	struct cmd_post mp = post(t, 1, t->in, 0x18);
	struct cmd_result r = look(t, &mp);
	cr_assert_eq(r.ownership, 0);
	cr_assert_eq(r.status, nicref_cmd_rule_status(NICREF_RULE_PAGE_NOT_ALIGNED));
	cr_assert_eq(r.syndrome, nicref_cmd_rule_syndrome(NICREF_RULE_PAGE_NOT_ALIGNED));
	const struct nicref_event *f = tl_only(&t->tr, NICREF_EV_CMD_FAIL);
	cr_assert_not_null(f, "one cmd_fail: the MANAGE_PAGES's, not a re-run of the CREATE_CQ");
	cr_expect_eq(f->arg[0], 1);
	cr_expect_eq(f->arg[2], NICREF_RULE_PAGE_NOT_ALIGNED);
	cr_expect_eq(look(t, &cq).ownership, 1, "the CREATE_CQ still waits");
	tl_down(t);
}

/* The invariant the fixes keep: a command waits only while INITIALIZED. Broken by hand (no
 * input can break it). */
Test(page_wait, invariant_wait_only_initialized)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_ENABLED);
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	t->dev->hca.slots_waiting = 1u << 3;
	char buf[128];
	cr_expect_eq(nicref_dev_check_explain(t->dev, buf, sizeof buf),
		     NICREF_INV_PAGE_WAIT_ONLY_INITIALIZED);
	cr_expect_str_eq(buf, "slots 0x8 wait for pages, HCA ENABLED");
	t->dev->hca.slots_waiting = 0;
	tl_down(t);
}
