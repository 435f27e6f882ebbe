/* Completion queues, their CQEs: CQEs in host memory (PRM §7.12.1, §7.12.3, T67/T68) written
 * through cq_post (the work queues' entry point), overrun and the CQ error event (§7.12.1,
 * §7.12.5, T84/T85), the CQ doorbell and doorbell record (§7.2.2 T13/T14, §7.12.2 T69/T70) and
 * arming (§7.12.4). Decisions: docs/cq.md. Shared tools: cq_util.h. */
#include <string.h>

#include "cq_util.h"

/* ---- CQEs ----------------------------------------------------------------------------------- */

Test(cq_post, ownership_signature_and_wrap)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn); /* 2 CQEs */
	uint8_t c[64], want[64];
	tl_mark(&t->tr);
	cr_assert_eq(post(t, &cq, 0x1234, false), 0);
	cr_assert_eq(post(t, &cq, 0x1235, false), 0);
	for (unsigned i = 0; i < 2; i++) {
		read_cqe(t, &cq.a, i, c);
		req_cqe(want, (uint16_t)(0x1234 + i), false);
		/* Every byte as given but the signature (3Dh... byte 3Eh) and owner (3Fh bit 0):
		 * owner (pc >> 1) & 1 = 0 on the first pass (§7.12.3.1). */
		cr_expect_eq(memcmp(c, want, 0x3E), 0, "CQE %u content", i);
		cr_expect_eq(c[0x3F], 0x00, "opcode 0, owner 0");
		cr_expect_eq(tl_xor_index(c, 64, i), 0xFF, "T68 signature with index %u (D-CQE-1)", i);
		const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_CQE, i);
		cr_assert(ev);
		cr_expect_eq(ev->arg[0], cq.cqn);
		cr_expect_eq(ev->arg[1], i);
		cr_expect_eq(ev->arg[2], 0);
		cr_expect_eq(ev->arg[4], 0x1234 + i);
	}
	/* Software consumes both (update_ci 2 in the record) and the device wraps: index 0,
	 * owner (2 >> 1) & 1 = 1. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 0);
	cr_assert_eq(post(t, &cq, 0x1236, false), 0);
	read_cqe(t, &cq.a, 0, c);
	cr_expect_eq(c[0x3F], 0x01);
	cr_expect_eq(tl_xor_index(c, 64, 2), 0xFF);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(q(t, &cq, "producer_counter"), 3);
	cr_expect_eq(q(t, &cq, "consumer_counter"), 2, "the update_ci the device read (T76)");
	tl_down(t);
}

/* The owner bit and the signature are the device's whatever the CQE handed to cq_post holds
 * there (write_entry derives the signature from the CQE as handed in): stale bytes in both
 * change neither the stored owner nor the XOR rule, on either lap. */
Test(cq_post, signature_ignores_stale_owner_and_signature)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn); /* 2 CQEs */
	uint8_t in[64], c[64];
	for (unsigned i = 0; i < 4; i++) {
		req_cqe(in, (uint16_t)(0x40 + i), false);
		cqe_set(in, "signature", 0xA5u + i);
		cqe_set(in, "owner", i & 1u ? 0 : 1); /* the opposite of the lap's, or the same */
		cr_assert_eq(cq_post(t->dev, cq.cqn, in), 0);
		read_cqe(t, &cq.a, i & 1u, c);
		cr_expect_eq(memcmp(c, in, 0x3E), 0, "CQE %u content", i);
		cr_expect_eq(c[0x3F], (i >> 1) & 1u, "opcode 0, owner of lap %u", i >> 1);
		cr_expect_eq(tl_xor_index(c, 64, i), 0xFF, "T68 signature with index %u", i);
		cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	}
	tl_down(t);
}

Test(cq_post, cqe_128_bytes_and_error_cqe)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 2, .eqn = eq.eqn, .cqe_sz = 1 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t e[128], c[64];
	memset(c, 0, 64);
	/* T73/T74: requester error, syndrome 0x4 Local_Protection, wqe_counter 9. */
	cr_assert_eq(nicref_field_set(c, 64, tl_field("err_cqe", "opcode"), 13), 0);
	cr_assert_eq(nicref_field_set(c, 64, tl_field("err_cqe", "syndrome"), 4), 0);
	cr_assert_eq(nicref_field_set(c, 64, tl_field("err_cqe", "wqe_counter"), 9), 0);
	tl_mark(&t->tr);
	cr_assert_eq(cq_post(t->dev, cq.cqn, c), 0);
	tl_mem_read(t, cq.a.buf, e, 128);
	/* D-CQE-2: the 64-byte CQE in bytes 40h-7Fh; the first half zero; owner at 7Fh. */
	static const uint8_t zero[64];
	cr_expect_eq(memcmp(e, zero, 64), 0);
	cr_expect_eq(e[0x40 + 0x37], 4);
	cr_expect_eq(e[0x7F], 0xD0, "opcode 13, owner 0");
	cr_expect_eq(tl_xor_index(e, 128, 0), 0xFF);
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_CQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[2], 13);
	cr_expect_eq(ev->arg[3], 4, "T74 syndrome traced");
	cr_expect_eq(ev->arg[4], 9);
	/* The driver polls the 128-byte entry. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(c[0x3F] >> 4, 13);
	tl_down(t);
}

Test(cq_post, overrun_is_the_cq_error_event)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = async_eq(t);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn);
	uint8_t before[64], after[64], e[64];
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	read_cqe(t, &cq.a, 0, before);
	tl_mark(&t->tr);
	/* §7.12.1: pc - update_ci == 2 == CQ size: full. oi = 0: the CQ to error, the WQ to
	 * error (cq_post -1), the event, and the CQE not written (§7.12.5). */
	cr_expect_eq(post(t, &cq, 3, false), -1);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CQE), 0);
	tl_violation(t, CQ_OVERRUN, cq.cqn);
	read_cqe(t, &cq.a, 0, after);
	cr_expect_eq(memcmp(before, after, 64), 0);
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_EQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[0], eq.eqn);
	cr_expect_eq(ev->arg[2], 0x04, "T79 CQ_Error");
	tl_mem_read(t, eq.a.buf, e, 64);
	cr_expect_eq((uint32_t)e[0x21] << 16 | e[0x22] << 8 | e[0x23], cq.cqn, "T85 cqn 00h");
	cr_expect_eq(e[0x2B], 0x1, "T85 syndrome 08h: CQ_overrun");
	cr_expect_eq(q(t, &cq, "cq_status"), 0x9, "T76 CQ_OVERFLOW");
	/* The CQ takes nothing more, even with room again. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, e), 1);
	tl_mark(&t->tr);
	cr_expect_eq(post(t, &cq, 4, false), -1);
	cr_expect_eq(t->tr.n, 0);
	tl_down(t);
}

Test(cq_post, overrun_ignore_and_record_violation)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 1, .eqn = eq.eqn, .oi = true };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64];
	for (unsigned i = 0; i < 3; i++)
		cr_expect_eq(post(t, &cq, (uint16_t)i, false), 0, "T76 oi: old CQEs overwritten");
	read_cqe(t, &cq.a, 0, c);
	cr_expect_eq(c[0x3D], 2, "entry 0 holds the third CQE");
	cr_expect_eq(c[0x3F], 0x01);

	struct refdrv_cq cq2 = tl_cq(t, 1, eq.eqn);
	uint8_t rec[4] = { 0, 0, 0, 5 }; /* update_ci 5 with nothing written */
	tl_mem_write(t, cq2.a.dbr, rec, 4);
	tl_mark(&t->tr);
	cr_expect_eq(post(t, &cq2, 0, false), 0);
	tl_violation(t, CQ_DBR_CI_BEYOND_PC, (uint64_t)cq2.cqn << 24 | 5);
	tl_down(t);
}

Test(cq_post, write_failure)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = async_eq(t);
	struct refdrv_cq cq = tl_cq(t, 2, eq.eqn);
	cr_assert_eq(nicref_hostmem_fault(t->dev, cq.a.buf, 64, NICREF_FAULT_WRITE), 0);
	tl_mark(&t->tr);
	cr_expect_eq(post(t, &cq, 1, false), -1);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_DMA_ERROR), 1);
	cr_expect_eq(q(t, &cq, "cq_status"), 0xA, "T76 CQ_WRITE_FAIL");
	uint8_t e[64];
	tl_mem_read(t, eq.a.buf, e, 64);
	cr_expect_eq(e[0x2B], 0x2, "T85 syndrome 0x2 (D-CQ-12)");
	tl_down(t);
}

/* ---- Arming (§7.12.4) ----------------------------------------------------------------------- */

Test(cq_arm, one_event_per_arm_and_cmd_sn)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	uint8_t c[64], e[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false); /* ARM_NEXT, cmd_sn 0 ("0 for the first DoorBell") */
	cr_expect_eq(q(t, &cq, "st"), 0x9, "NOTIFICATION_REQUEST_ARMED");
	cr_expect_eq(completions(t, cq.cqn), 0);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	/* §7.12.4 condition 1: one completion event, an EQE of type 0 with the CQN (T81). */
	cr_assert_eq(completions(t, cq.cqn), 1);
	tl_mem_read(t, eq.a.buf, e, 64);
	cr_expect_eq(e[1], 0);
	cr_expect_eq((uint32_t)e[0x39] << 16 | e[0x3A] << 8 | e[0x3B], cq.cqn, "T81 18h");
	cr_expect_eq(q(t, &cq, "st"), 0xA, "FIRED");
	cr_expect_eq(q(t, &cq, "last_notified_index"), 0, "D-CQ-11");
	cr_assert_eq(post(t, &cq, 2, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "no event before a new request");
	/* D-CQ-4: an arm with the old cmd_sn (0; one event delivered) is stale. */
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(q(t, &cq, "st"), 0xA);
	/* With cmd_sn 1 it arms; everything consumed: no event now, one at the next CQE. */
	refdrv_cq_event_seen(&cq);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(q(t, &cq, "st"), 0x9);
	cr_expect_eq(completions(t, cq.cqn), 1);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 2);
	cr_expect_eq(q(t, &cq, "last_notified_index"), 2);
	tl_down(t);
}

Test(cq_arm, immediate_event_when_armed_with_unconsumed_cqes)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	tl_mark(&t->tr);
	/* §7.12.4: CQEs posted and not consumed: "an event will be generated immediately". */
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(completions(t, cq.cqn), 1);
	cr_expect_eq(q(t, &cq, "st"), 0xA);
	tl_down(t);
}

Test(cq_arm, solicited)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(q(t, &cq, "st"), 0x6, "SOLICITED_NOTIFICATION_REQUEST_ARMED");
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0, "an unsolicited CQE does not fire ARM_SOLICITED");
	cr_assert_eq(post(t, &cq, 2, true), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "§7.12.4 condition 2: SE set");
	cr_expect_eq(q(t, &cq, "last_solicit_index"), 1);
	/* Arming solicited with an unconsumed unsolicited CQE only: no event; with the solicited
	 * one not consumed: at once. */
	refdrv_cq_event_seen(&cq);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1); /* cc 1: CQE 1 (solicited) unread */
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(completions(t, cq.cqn), 2);
	refdrv_cq_event_seen(&cq);
	cr_expect_eq(refdrv_cq_poll(&t->d, &cq, c), 1);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(completions(t, cq.cqn), 2, "only an unsolicited CQE unread");
	/* D-CQ-5: an error CQE fires ARM_SOLICITED. */
	uint8_t err[64] = { 0 };
	err[0x3F] = 14 << 4;
	cr_assert_eq(cq_post(t->dev, cq.cqn, err), 0);
	cr_expect_eq(completions(t, cq.cqn), 3);
	/* ARM_NEXT after ARM_SOLICITED: ARMED; an ARMED CQ stays ARMED on ARM_SOLICITED (T71). */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, true);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_expect_eq(q(t, &cq, "st"), 0x9);
	refdrv_cq_arm(&t->d, &cq, true);
	cr_expect_eq(q(t, &cq, "st"), 0x9);
	tl_down(t);
}

Test(cq_arm, doorbell_violations)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 3, eq.eqn);
	uint32_t page = (uint32_t)refdrv_uar_offset(&t->d, t->uar);
	uint32_t uar2;
	cr_assert_eq(refdrv_alloc_uar(&t->d, &uar2), 0);
	uint32_t page2 = (uint32_t)refdrv_uar_offset(&t->d, uar2);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x20, 0);
	nicref_bar_write32(t->dev, page + 0x24, 99); /* T14 cqn 99: none */
	tl_violation(t, CQ_DB_NO_CQ, 99);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page2 + 0x20, 0);
	nicref_bar_write32(t->dev, page2 + 0x24, cq.cqn); /* §7.2 item 4 */
	tl_violation(t, CQ_DB_WRONG_UAR, cq.cqn);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x24, cq.cqn); /* §7.2.2.2: lower dword first */
	tl_violation(t, CQ_DB_SPLIT, (uint64_t)t->uar << 16 | 0x24);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x20, 0);
	nicref_bar_write32(t->dev, page + 0x48, eq.eqn << 24); /* another doorbell in between */
	tl_violation(t, CQ_DB_SPLIT, (uint64_t)t->uar << 16 | 0x48);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x20, 3); /* ci 3, nothing written */
	nicref_bar_write32(t->dev, page + 0x24, cq.cqn);
	tl_violation(t, CQ_ARM_CI_BEYOND_PC, cq.cqn);
	cr_expect_eq(q(t, &cq, "st"), 0xA, "no arm took effect");
	struct refdrv_cq_attr m = { .oi = true };
	cr_assert_eq(refdrv_modify_cq(&t->d, &cq, 1u << 2, &m), 0);
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false); /* T76 oi: arm doorbells "should not be rung" */
	tl_violation(t, CQ_DB_WITH_OI, cq.cqn);
	cr_expect_eq(q(t, &cq, "st"), 0xA);
	tl_down(t);
}
