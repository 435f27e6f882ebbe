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
