/* The reference driver's EQ and CQ helpers (harness/driver_eq.c, driver_cq.c): they prepare the
 * queue buffers and doorbell records as the PRM asks, give the device the pages it asks for,
 * poll and arm as §7.12-§7.13 describe, and never trigger a driver violation. CQEs are produced
 * with the library's cq_post, the entry point of the work queues. */
#include <string.h>

#include "obj/cq.h"
#include "testlib.h"

/* §8.3 by the driver, then: no driver violation, the model's invariants hold. */
static void down(struct tl_dev *t)
{
	cr_expect_eq(refdrv_teardown(&t->d), 0, "%s", t->d.error);
	tl_down_clean(t);
}

Test(refdrv_eq, create_poll_arm_destroy)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t pages = t->d.npages;
	struct refdrv_eq_attr a = { .buf = 0x50000000, .log_eq_size = 3, .uar = t->uar, .intr = 2 };
	struct refdrv_eq eq;
	cr_assert_eq(refdrv_create_eq(&t->d, &a, &eq), 0, "%s", t->d.error);
	cr_expect_eq(t->d.npages, pages, "the init pages hold the first EQ's context (D-PG-5)");
	/* §12.6.1: every EQE owned by hardware (owner 1) before the device writes any. */
	for (unsigned i = 0; i < 8; i++) {
		uint8_t b;
		cr_assert_eq(nicref_hostmem_read(t->dev, a.buf + 64 * i + 0x3F, &b, 1), 0);
		cr_expect_eq(b, 1, "EQE %u owner", i);
	}
	uint8_t e[64] = { 0 }, got[64];
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, got), 0, "empty");
	refdrv_eq_doorbell(&t->d, &eq, true);
	e[1] = 0x17;
	cr_assert_eq(refdrv_gen_eqe(&t->d, eq.eqn, e), 0);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1, "armed: one interrupt");
	cr_assert_eq(refdrv_eq_poll(&t->d, &eq, got), 1);
	cr_expect_eq(got[1], 0x17);
	cr_expect_eq(eq.cc, 1);
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, got), 0);
	refdrv_eq_doorbell(&t->d, &eq, true);
	uint8_t q[0x118];
	cr_assert_eq(refdrv_query_eq(&t->d, eq.eqn, q, sizeof q), 0);
	cr_expect_eq(q[0x10 + 0x28 + 3], 1, "the device saw CI 1 (T94 consumer_counter)");
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0);
	/* A refused create returns its status: UAR 7 is not allocated (BAD_RESOURCE). */
	a.uar = 7;
	cr_expect_eq(refdrv_create_eq(&t->d, &a, &eq), 0x05);
	down(t);
}

static void post(struct nicref_dev *dev, uint32_t cqn, uint16_t wqe_counter)
{
	uint8_t c[64] = { 0 };
	c[0x3C] = (uint8_t)(wqe_counter >> 8); /* T68 wqe_counter 3Ch[31:16], opcode 0 */
	c[0x3D] = (uint8_t)wqe_counter;
	cr_assert_eq(cq_post(dev, cqn, c), 0);
}

Test(refdrv_cq, create_poll_arm_resize_destroy)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq_attr ea = { .buf = 0x50000000, .log_eq_size = 3, .uar = t->uar };
	struct refdrv_eq eq;
	cr_assert_eq(refdrv_create_eq(&t->d, &ea, &eq), 0, "%s", t->d.error);
	/* A doorbell record with stale content: the helper zeroes it (it must start at 0). */
	uint8_t junk[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, rec[8];
	cr_assert_eq(nicref_hostmem_write(t->dev, 0x51000000, junk, 8), 0);
	struct refdrv_cq_attr a = { .buf = 0x52000000, .dbr = 0x51000000, .log_cq_size = 2,
				    .cqe_sz = 1, .uar = t->uar, .eqn = eq.eqn };
	struct refdrv_cq cq;
	cr_assert_eq(refdrv_create_cq(&t->d, &a, &cq), 0, "%s", t->d.error);
	cr_assert_eq(nicref_hostmem_read(t->dev, a.dbr, rec, 8), 0);
	cr_expect_eq(memcmp(rec, (uint8_t[8]){ 0 }, 8), 0, "record zeroed");
	for (unsigned i = 0; i < 4; i++) {
		uint8_t b;
		cr_assert_eq(nicref_hostmem_read(t->dev, a.buf + 128 * i + 0x7F, &b, 1), 0);
		cr_expect_eq(b, 0xF1, "CQE %u op_own (D-CQ-8, 128-byte CQE: 7Fh)", i);
	}
	/* Arm (cmd_sn 0), one CQE: one completion event; poll it; the record says update_ci 1. */
	refdrv_cq_arm(&t->d, &cq, false);
	post(t->dev, cq.cqn, 0x100);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE), 1);
	uint8_t c[64];
	cr_assert_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(c[0x3D], 0x00);
	cr_expect_eq(c[0x3C], 0x01);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 0);
	cr_assert_eq(nicref_hostmem_read(t->dev, a.dbr, rec, 8), 0);
	cr_expect_eq(rec[3], 1, "T70 update_ci");
	/* Re-arm after the event: the record's arm word carries cmd_sn 1, ARM_NEXT, ci 1. */
	refdrv_cq_event_seen(&cq);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(nicref_hostmem_read(t->dev, a.dbr, rec, 8), 0);
	cr_expect_eq(rec[4], 0x10, "cmd_sn 1 at 04h[29:28], cmd 0");
	cr_expect_eq(rec[7], 1, "arm_ci 1");
	post(t->dev, cq.cqn, 0x101);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE), 2, "the re-armed CQ has its event");
	post(t->dev, cq.cqn, 0x102);
	/* Resize to 8 64-byte CQEs; the driver drains the old buffer to the Resize CQE and goes on
	 * in the new one. */
	cr_assert_eq(refdrv_resize_cq(&t->d, &cq, 0x53000000, 3, 0, 0), 0, "%s", t->d.error);
	post(t->dev, cq.cqn, 0x103);
	uint16_t seen[3];
	for (unsigned i = 0; i < 3; i++) {
		cr_assert_eq(refdrv_cq_poll(&t->d, &cq, c), 1, "CQE %u", i);
		seen[i] = (uint16_t)(c[0x3C] << 8 | c[0x3D]);
	}
	cr_expect_eq(seen[0], 0x101);
	cr_expect_eq(seen[1], 0x102);
	cr_expect_eq(seen[2], 0x103);
	cr_expect_eq(cq.draining, false);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 0);
	struct refdrv_cq_attr m = { .cq_period = 3, .cq_max_count = 4 };
	cr_expect_eq(refdrv_modify_cq(&t->d, &cq, 0x3, &m), 0);
	cr_expect_eq(cq.a.cq_max_count, 4);
	cr_expect_eq(refdrv_destroy_cq(&t->d, cq.cqn), 0);
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0);
	down(t);
}

/* D-PG-6 from the driver's side: a create short of ICM pages, once its Page Request reached an
 * EQ, waits in slot 0 owned by the device; the driver answers through slot 1 and the create
 * completes. The EQ carries only the Page Request event (T244 bit 0Bh). */
static void page_request_eq(struct tl_dev *t)
{
	struct refdrv_eq_attr a = { .buf = 0x50000000, .log_eq_size = 3, .uar = t->uar,
				    .events = 1ull << 0xB };
	struct refdrv_eq eq;
	cr_assert_eq(refdrv_create_eq(&t->d, &a, &eq), 0, "%s", t->d.error);
}

static size_t done_in_slot(const struct tl_trace *tr, unsigned slot, unsigned opcode,
			   unsigned op_mod)
{
	size_t n = 0;
	for (size_t i = 0; i < tl_count(tr, NICREF_EV_CMD_DONE); i++) {
		const struct nicref_event *e = tl_nth(tr, NICREF_EV_CMD_DONE, i);
		n += e->arg[0] == slot && e->arg[1] == opcode && e->arg[2] == op_mod;
	}
	return n;
}

Test(refdrv_pages, a_create_waiting_for_pages_is_answered_through_slot_1)
{
	struct tl_dev *t = tl_up(NULL);
	page_request_eq(t);
	uint32_t pages = t->d.npages;
	tl_mark(&t->tr);
	struct refdrv_cq_attr a = { .buf = 0x52000000, .dbr = 0x51000000, .log_cq_size = 2,
				    .uar = t->uar };
	struct refdrv_cq cq;
	cr_assert_eq(refdrv_create_cq(&t->d, &a, &cq), 0, "%s", t->d.error);
	cr_expect_eq(t->d.npages, pages + 1, "one regular page for the first CQ context (D-PG-4)");
	cr_expect_eq(done_in_slot(&t->tr, 1, NICREF_OP_QUERY_PAGES, 3), 1, "QUERY_PAGES regular");
	cr_expect_eq(done_in_slot(&t->tr, 1, NICREF_OP_MANAGE_PAGES, 1), 1, "pages given");
	cr_expect_eq(done_in_slot(&t->tr, 0, NICREF_OP_CREATE_CQ, 0), 1, "the create completed");
	tl_down_clean(t);
}

/* Pages the device will not take (profile max_icm_pages already held) are answered with
 * ALLOCATION_FAIL (§12.3.2, T135 op_mod 0): the waiting create completes refused,
 * NO_RESOURCES, instead of holding its slot. */
Test(refdrv_pages, pages_the_device_refuses_are_answered_with_allocation_fail)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.max_icm_pages = p.boot_pages + p.init_pages;
	struct tl_dev *t = tl_up(&p);
	page_request_eq(t);
	tl_mark(&t->tr);
	struct refdrv_cq_attr a = { .buf = 0x52000000, .dbr = 0x51000000, .log_cq_size = 2,
				    .uar = t->uar };
	struct refdrv_cq cq;
	cr_expect_eq(refdrv_create_cq(&t->d, &a, &cq), 0x0F, "NO_RESOURCES (T128)");
	cr_expect_eq(done_in_slot(&t->tr, 1, NICREF_OP_MANAGE_PAGES, 0), 1, "ALLOCATION_FAIL");
	/* the create completed once, in slot 0, with NO_RESOURCES ICM_PAGES_SHORT */
	size_t creates = 0;
	for (size_t i = 0; i < tl_count(&t->tr, NICREF_EV_CMD_DONE); i++) {
		const struct nicref_event *e = tl_nth(&t->tr, NICREF_EV_CMD_DONE, i);
		if (e->arg[1] != NICREF_OP_CREATE_CQ)
			continue;
		creates++;
		cr_expect_eq(e->arg[0], 0);
		cr_expect_eq(e->arg[4], 0x0F);
		cr_expect_eq(e->arg[5], nicref_cmd_rule_syndrome(NICREF_RULE_ICM_PAGES_SHORT));
	}
	cr_expect_eq(creates, 1);
	tl_down_clean(t);
}

/* D-PG-6: a command waits only when SW was told. A Page Request the EQ could not take (its
 * buffer write failed: T94 EQ_WRITE_FAILURE) told nobody, so the create is refused at once
 * (D-PG-4) and the driver's page dance (refdrv_cmd_paged) supplies the page; nothing goes
 * through slot 1. */
Test(refdrv_pages, a_page_request_the_eq_did_not_take_is_refused_at_once)
{
	struct tl_dev *t = tl_up(NULL);
	page_request_eq(t);
	cr_assert_eq(nicref_hostmem_fault(t->dev, 0x50000000, 64 * 8, NICREF_FAULT_WRITE), 0);
	tl_mark(&t->tr);
	struct refdrv_cq_attr a = { .buf = 0x52000000, .dbr = 0x51000000, .log_cq_size = 2,
				    .uar = t->uar };
	struct refdrv_cq cq;
	cr_assert_eq(refdrv_create_cq(&t->d, &a, &cq), 0, "%s", t->d.error);
	cr_expect_eq(done_in_slot(&t->tr, 1, NICREF_OP_QUERY_PAGES, 3), 0, "no wait to answer");
	cr_expect_eq(done_in_slot(&t->tr, 1, NICREF_OP_MANAGE_PAGES, 1), 0);
	cr_expect_eq(done_in_slot(&t->tr, 0, NICREF_OP_MANAGE_PAGES, 1), 1, "D-PG-4's dance");
	cr_expect_eq(done_in_slot(&t->tr, 0, NICREF_OP_CREATE_CQ, 0), 2, "refused, then created");
	tl_down_clean(t);
}
