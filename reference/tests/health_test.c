/* The fatal state and the internal error buffer: PRM §9.2.2 ("HCA will halt execution - all
 * committed data transfers (PCI and network) will be completed, but no new operation will
 * start and the HCA will halt awaiting for hardware reset"), §7.13.9.1 (the internal error
 * buffer, "hardware reset should be performed"), T7/T8 (200h, 1010h); decisions D-H-2, D-H-3
 * (docs/decisions.md), D-EQ-4 (docs/eq.md). The only fatal error the model raises is T8's
 * 0xC ASYNCHRONOUS_EQ_BUF_OVERRUN (D-EQ-4). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

enum { INTERNAL_ERR = 0x0200, HEALTH = 0x1010 };

static void gen(struct tl_dev *t, const struct refdrv_eq *eq, uint8_t data0)
{
	uint8_t eqe[64] = { 0 };
	eqe[1] = 0x17; /* a type no EQ need take (GEN_EQE, §12.6.4) */
	eqe[0x20] = data0;
	cr_assert_eq(refdrv_gen_eqe(&t->d, eq->eqn, eqe), 0);
}

/* An EQ of 2 EQEs that takes Port State Change events (T86, type 09h), never consumed: the
 * third EQE overruns it, the fatal ASYNCHRONOUS_EQ_BUF_OVERRUN (T8 0xC, D-EQ-4). */
static struct refdrv_eq make_fatal(struct tl_dev *t)
{
	struct refdrv_eq eq = tl_eq(t, 1, 1ull << 0x09, 0);
	gen(t, &eq, 1);
	gen(t, &eq, 2);
	cr_assert_eq(nicref_bar_read32(t->dev, HEALTH) >> 24, 0, "healthy before the overrun");
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_FATAL), 0);
	gen(t, &eq, 3); /* completes: it was running when the error came (§9.2.2) */
	cr_assert_eq(nicref_bar_read32(t->dev, HEALTH) >> 24, 0xC, "fatal 0xC");
	return eq;
}

static void nop_in(uint8_t in[16])
{
	memset(in, 0, 16);
	tl_setf(in, 0x00, 31, 16, 0x80D); /* NOP (T127) */
}

/* D-H-2: one `fatal` event, with T8's syndrome, when the device goes fatal; a second error
 * changes nothing (the first is the one reported). */
Test(health, fatal_event_once_with_the_syndrome)
{
	struct tl_dev *t = tl_up(NULL);
	make_fatal(t);
	const struct nicref_event *ev = tl_only(&t->tr, NICREF_EV_FATAL);
	cr_assert_not_null(ev);
	cr_expect_eq(ev->arg[0], 0xC);
	cr_expect_str_eq(nicref_event_name(NICREF_EV_FATAL), "fatal");
	cr_expect_str_eq(nicref_event_arg_name(NICREF_EV_FATAL, 0), "syndrome");
	tl_down(t);
}

/* PRM §9.2.2: "no new operation will start and the HCA will halt awaiting for hardware
 * reset". D-H-2: the doorbell is consumed, the command not executed: no completion, the entry
 * stays the device's (ownership 1), and no violation (the driver did nothing wrong). */
Test(health, fatal_halts_the_command_queue)
{
	struct tl_dev *t = tl_up(NULL);
	make_fatal(t);
	tl_mark(&t->tr);
	uint8_t in[16], out[16];
	nop_in(in);
	cr_expect_neq(refdrv_cmd(&t->d, in, 16, out, 16), 0, "a NOP completed after the fatal error");
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_CMD_DONE), 0);
	cr_expect_eq(t->tr.violations, 0);
	uint8_t own;
	tl_mem_read(t, t->d.cmdq_addr + 0x3F, &own, 1); /* T96 3Ch[0], slot 0 */
	cr_expect_eq(own & 1u, 1, "the entry is still the device's");
	tl_down(t);
}

/* D-H-2: UAR doorbells are ignored. An arm doorbell with EQEs not consumed interrupts at once
 * on a healthy device (D-EQ-3); halted, nothing. A doorbell on a UAR never allocated is not
 * even reported. */
Test(health, fatal_ignores_uar_doorbells)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = make_fatal(t);
	tl_mark(&t->tr);
	refdrv_eq_doorbell(&t->d, &eq, true);
	nicref_bar_write32(t->dev, (uint32_t)refdrv_uar_offset(&t->d, 200) + 0x40, 0);
	cr_expect_eq(t->tr.n, 0, "%zu events after doorbells to a halted device", t->tr.n);
	tl_down(t);
}

/* The control: the same arm doorbell interrupts a healthy device (D-EQ-3), so the test above
 * tells a halted device from one that ignores the doorbell anyway. */
Test(health, healthy_arm_doorbell_interrupts)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 1ull << 0x09, 0);
	gen(t, &eq, 1);
	tl_mark(&t->tr);
	refdrv_eq_doorbell(&t->d, &eq, true);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	tl_down(t);
}

/* D-H-2: a frame from the wire is dropped, named (rx_drop reason 11, the port) and counted. */
Test(health, fatal_drops_frames_from_the_wire)
{
	struct tl_dev *t = tl_up(NULL);
	make_fatal(t);
	tl_mark(&t->tr);
	uint8_t frame[64] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00 };
	cr_assert_eq(nicref_wire_rx(t->dev, 1, frame, sizeof frame), 0);
	const struct nicref_event *ev = tl_only(&t->tr, NICREF_EV_RX_DROP);
	cr_assert_not_null(ev);
	cr_expect_eq(ev->arg[0], 11, "reason %llu", (unsigned long long)ev->arg[0]);
	cr_expect_eq(ev->arg[1], 1);
	cr_expect_eq(ev->arg[2], sizeof frame);
	struct nicref_stats st;
	nicref_stats_get(t->dev, &st);
	cr_expect_eq(st.rx_drops, 1);
	tl_down(t);
}

/* D-H-2: timers start nothing. An interrupt held by moderation (§7.13.15, 10 us) fires at its
 * deadline on a healthy device; once the device is fatal the deadline passes in silence. */
static size_t held_interrupt_fires(bool fatal)
{
	struct tl_dev *t = tl_up(NULL);
	tl_int_moderation(t, 3, 10);
	struct refdrv_eq a = tl_eq(t, 2, 0, 3);
	refdrv_eq_doorbell(&t->d, &a, true);
	gen(t, &a, 1); /* interrupts, and starts the 10 us timer */
	refdrv_eq_doorbell(&t->d, &a, true);
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	gen(t, &a, 2); /* held until the timer expires */
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	if (fatal)
		make_fatal(t);
	uint64_t due;
	int has = nicref_clock_next_deadline(t->dev, &due);
	cr_expect_eq(has, !fatal, "next deadline %d", has);
	tl_mark(&t->tr);
	nicref_clock_advance(t->dev, 20000);
	size_t n = tl_count(&t->tr, NICREF_EV_INTERRUPT);
	tl_down(t);
	return n;
}

Test(health, fatal_stops_timers)
{
	cr_expect_eq(held_interrupt_fires(false), 1, "healthy: the held interrupt fires");
	cr_expect_eq(held_interrupt_fires(true), 0, "fatal: nothing starts at the deadline");
}

/* PRM §7.13.9.1: "When an error is reported, the Internal Error buffer will cause a non zero
 * value to appear in the first DWORD of the buffer"; D-H-3: the buffer is T7's 200h block. It
 * reads 0 while healthy (the heartbeat at 1010h does not), not 0 after the error. */
Test(health, internal_error_buffer_first_dword)
{
	struct tl_dev *t = tl_up(NULL);
	nicref_clock_advance(t->dev, 5000000); /* 5 ms: the heartbeat has moved */
	cr_expect_neq(nicref_bar_read32(t->dev, HEALTH), 0);
	cr_expect_eq(nicref_bar_read32(t->dev, INTERNAL_ERR), 0, "healthy");
	make_fatal(t);
	cr_expect_neq(nicref_bar_read32(t->dev, INTERNAL_ERR), 0, "after the fatal error");
	for (uint32_t off = INTERNAL_ERR + 4; off < 0x240; off += 4)
		cr_expect_eq(nicref_bar_read32(t->dev, off), 0, "0x%x", off);
	tl_down(t);
}

/* PRM §7.13.9.1 "When an error is detected, hardware reset should be performed": the reset
 * recovers. Healthy again: 1010h syndrome 0, 200h 0, and a new bring-up runs commands. */
Test(health, reset_recovers)
{
	struct tl_dev *t = tl_up(NULL);
	make_fatal(t);
	nicref_dev_reset(t->dev);
	cr_expect_eq(nicref_bar_read32(t->dev, HEALTH), 0);
	cr_expect_eq(nicref_bar_read32(t->dev, INTERNAL_ERR), 0);
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	tl_mark(&t->tr);
	refdrv_fini(&t->d);
	struct refdrv_ops ops = refdrv_ops_model(t->dev);
	cr_assert_eq(refdrv_init(&t->d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&t->d, REFDRV_INITIALIZED), 0, "%s", t->d.error);
	cr_expect_eq(t->tr.violations, 0);
	uint8_t in[16], out[16];
	nop_in(in);
	cr_expect_eq(refdrv_cmd(&t->d, in, 16, out, 16), 0, "a NOP runs after the reset");
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_FATAL), 0);
	tl_down(t);
}
