/* The BAR0 initialization segment (reference/cmd/init_seg.c): PRM §4.3 T7/T8 for the register
 * map, §8.2 for the bring-up rules, decisions D-H-1, D-TS-1 (docs/decisions.md) for what the
 * PRM leaves open. Expected values are computed from the spec and the chosen profile. */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

static struct tl_trace tr;

enum {
	FW_REV = 0x0000,
	CMDIF_REV = 0x0004,
	ADDR_H = 0x0010,
	ADDR_L = 0x0014,
	DOORBELL = 0x0018,
	INITIALIZING = 0x01FC,
	TIMER_H = 0x1000,
	TIMER_L = 0x1004,
	HEALTH = 0x1010,
};

/* T8 0000h/0004h: fw_rev_minor 31:16, fw_rev_major 15:0; cmd_interface_rev 31:16,
 * fw_rev_subminor 15:0. */
Test(init_seg, revisions_from_profile)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.fw_rev_major = 0x000E;
	p.fw_rev_minor = 0x001B;
	p.fw_rev_subminor = 0x2A3C;
	p.cmd_interface_rev = 0x0005;
	struct nicref_dev *dev = tl_dev_create(&p, &tr);
	cr_assert_eq(nicref_bar_read32(dev, FW_REV), 0x001B000Eu, "got 0x%08x",
		     nicref_bar_read32(dev, FW_REV));
	cr_assert_eq(nicref_bar_read32(dev, CMDIF_REV), 0x00052A3Cu, "got 0x%08x",
		     nicref_bar_read32(dev, CMDIF_REV));
	cr_assert_eq(tr.n, 0);
	nicref_dev_destroy(dev);
}

Test(init_seg, revisions_default_profile)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	cr_assert_eq(nicref_bar_read32(dev, FW_REV),
		     (uint32_t)p.fw_rev_minor << 16 | p.fw_rev_major);
	cr_assert_eq(nicref_bar_read32(dev, CMDIF_REV),
		     (uint32_t)p.cmd_interface_rev << 16 | p.fw_rev_subminor);
	/* D-INIT-4: cmd_interface_rev 5. */
	cr_assert_eq(nicref_bar_read32(dev, CMDIF_REV) >> 16, 5);
	nicref_dev_destroy(dev);
}

/* T8 0014h: log_cmdq_size 7:4, log_cmdq_stride 3:0 (RO); D-CMD-1 defaults 5 and 6. */
Test(init_seg, cmdq_geometry_and_address)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	cr_assert_eq(nicref_bar_read32(dev, ADDR_L), 0x00000056u, "got 0x%08x",
		     nicref_bar_read32(dev, ADDR_L));
	cr_assert_eq(nicref_bar_read32(dev, ADDR_H), 0);
	nicref_bar_write32(dev, ADDR_H, 0x00000001u);
	nicref_bar_write32(dev, ADDR_L, 0xABCDE000u);
	cr_assert_eq(nicref_bar_read32(dev, ADDR_H), 0x00000001u);
	/* Address bits 31:12, nic_interface (WO) 0, geometry 0x56. */
	cr_assert_eq(nicref_bar_read32(dev, ADDR_L), 0xABCDE056u, "got 0x%08x",
		     nicref_bar_read32(dev, ADDR_L));
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0);
	nicref_dev_destroy(dev);
}

Test(init_seg, cmdq_geometry_other_profile)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_cmdq_size = 3; /* 8 entries of 128 bytes: 1 KiB */
	p.log_cmdq_stride = 7;
	struct nicref_dev *dev = tl_dev_create(&p, &tr);
	cr_assert_eq(nicref_bar_read32(dev, ADDR_L), 0x00000037u);
	nicref_dev_destroy(dev);
}

/* T8 01FCh: initializing bit 31 (1 after reset), nic_interface_supported 26:24. */
Test(init_seg, initializing_after_reset)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	/* Default nic_interface_supported = 1 (full_driver only). */
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING), 0x81000000u, "got 0x%08x",
		     nicref_bar_read32(dev, INITIALIZING));
	nicref_dev_destroy(dev);

	struct nicref_profile p;
	nicref_profile_default(&p);
	p.nic_interface_supported = 3; /* full_driver and disabled */
	dev = tl_dev_create(&p, &tr);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING), 0x83000000u, "got 0x%08x",
		     nicref_bar_read32(dev, INITIALIZING));
	nicref_dev_destroy(dev);
}

/* §8.2: write the address MSW first, then poll initializing until 0. init_delay_ns = 0. */
Test(init_seg, address_write_clears_initializing)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 1, "cleared by the MSW alone");
	cr_assert_eq(tr.n, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010000u);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING), 0x01000000u, "got 0x%08x",
		     nicref_bar_read32(dev, INITIALIZING));
	cr_assert_eq(tr.n, 1, "%zu events, expected exactly one (ready)", tr.n);
	cr_assert_eq(tr.ev[0].kind, NICREF_EV_READY);
	cr_assert_eq(tr.ev[0].seq, 0);
	cr_assert_eq(tr.ev[0].time_ns, 0);
	/* Time passing does not announce ready again. */
	nicref_clock_advance(dev, 5000);
	cr_assert_eq(tl_count(&tr, NICREF_EV_READY), 1);
	cr_assert_eq(nicref_dev_check(dev), 0);
	nicref_dev_destroy(dev);
}

/* initializing stays 1 for init_delay_ns after the LSW write. */
Test(init_seg, init_delay)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.init_delay_ns = 1000;
	struct nicref_dev *dev = tl_dev_create(&p, &tr);
	nicref_clock_advance(dev, 500);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010000u);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 1);
	nicref_clock_advance(dev, 999); /* t = 1499: 999 ns after the LSW */
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 1, "ready at 999 ns");
	cr_assert_eq(tl_count(&tr, NICREF_EV_READY), 0);
	nicref_clock_advance(dev, 1); /* t = 1500 */
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 0, "not ready at 1000 ns");
	cr_assert_eq(tl_count(&tr, NICREF_EV_READY), 1);
	cr_assert_eq(tr.n, 1);
	cr_assert_eq(tr.ev[0].time_ns, 1500);
	nicref_dev_destroy(dev);
}

/* §8.2: "If using 32-bit writes, write the most significant word first." */
Test(init_seg, lsw_before_msw)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_L, 0x00010000u);
	tl_expect_one_violation(&tr, NICREF_VIO_CMDQ_ADDR_LSW_BEFORE_MSW);
	for (size_t i = 0; i < tr.n; i++)
		if (tr.ev[i].kind == NICREF_EV_VIOLATION)
			cr_assert_eq(tr.ev[i].seq, 0, "the violation comes first");
	nicref_dev_destroy(dev);
}

/* §8.2: log_cmdq_size and log_cmdq_stride must be written as zero with the LSW. */
Test(init_seg, ro_fields_not_zero)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010056u);
	tl_expect_one_violation(&tr, NICREF_VIO_CMDQ_RO_FIELDS_NOT_ZERO);
	/* The RO geometry does not change by the write. */
	cr_assert_eq(nicref_bar_read32(dev, ADDR_L) & 0xFFu, 0x56u);
	nicref_dev_destroy(dev);

	dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010001u); /* stride field only */
	tl_expect_one_violation(&tr, NICREF_VIO_CMDQ_RO_FIELDS_NOT_ZERO);
	nicref_dev_destroy(dev);
}

/* D-TS-1: timer = now_ns * f / 1e6 with f in kHz (f_MHz / 1000 per ns). */
Test(init_seg, internal_timer)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr); /* timer_khz 156000 (156 MHz) */
	cr_assert_eq(nicref_bar_read32(dev, TIMER_H), 0);
	cr_assert_eq(nicref_bar_read32(dev, TIMER_L), 0);
	/* 2 s at 156 MHz = 312,000,000 ticks = 0x1298BE00. */
	nicref_clock_advance(dev, 2000000000ull);
	cr_assert_eq(nicref_bar_read32(dev, TIMER_H), 0);
	cr_assert_eq(nicref_bar_read32(dev, TIMER_L), 0x1298BE00u, "got 0x%08x",
		     nicref_bar_read32(dev, TIMER_L));
	/* 100,000 s = 1e14 ns: 1.56e13 ticks = 0xE30_28756000. */
	nicref_clock_advance(dev, 100000000000000ull - 2000000000ull);
	cr_assert_eq(nicref_clock_now(dev), 100000000000000ull);
	cr_assert_eq(nicref_bar_read32(dev, TIMER_H), 0x00000E30u, "got 0x%08x",
		     nicref_bar_read32(dev, TIMER_H));
	cr_assert_eq(nicref_bar_read32(dev, TIMER_L), 0x28756000u, "got 0x%08x",
		     nicref_bar_read32(dev, TIMER_L));
	cr_assert_eq(tr.n, 0);
	nicref_dev_destroy(dev);
}

Test(init_seg, internal_timer_other_frequency)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.timer_khz = 1000000; /* 1 GHz: one tick per ns */
	struct nicref_dev *dev = tl_dev_create(&p, &tr);
	nicref_clock_advance(dev, 0x123456789ABull);
	cr_assert_eq(nicref_bar_read32(dev, TIMER_H), 0x123u);
	cr_assert_eq(nicref_bar_read32(dev, TIMER_L), 0x456789ABu);
	nicref_dev_destroy(dev);
}

/* D-H-1 / D-H-3: 1010h[23:0] counts health periods; syndrome 31:24 is 0 while healthy. */
Test(init_seg, health_counter)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr); /* health_period_ns 1 ms */
	cr_assert_eq(nicref_bar_read32(dev, HEALTH), 0);
	nicref_clock_advance(dev, 5500000); /* 5.5 ms: five whole periods */
	cr_assert_eq(nicref_bar_read32(dev, HEALTH), 5, "got 0x%08x",
		     nicref_bar_read32(dev, HEALTH));
	nicref_clock_advance(dev, 500000); /* 6 ms */
	cr_assert_eq(nicref_bar_read32(dev, HEALTH), 6);
	nicref_dev_destroy(dev);

	struct nicref_profile p;
	nicref_profile_default(&p);
	p.health_period_ns = 10;
	dev = tl_dev_create(&p, &tr);
	/* The counter is 24 bits: (2^24 + 3) periods read 3 with syndrome 0. */
	nicref_clock_advance(dev, ((1ull << 24) + 3) * 10 + 9);
	cr_assert_eq(nicref_bar_read32(dev, HEALTH), 3, "got 0x%08x",
		     nicref_bar_read32(dev, HEALTH));
	nicref_dev_destroy(dev);
}

/* T8: 0000h is RO. */
Test(init_seg, write_to_read_only)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	uint32_t before = nicref_bar_read32(dev, FW_REV);
	nicref_bar_write32(dev, FW_REV, 0xFFFFFFFFu);
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_RO_WRITE);
	cr_assert_eq(nicref_bar_read32(dev, FW_REV), before);
	nicref_dev_destroy(dev);

	dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, INITIALIZING, 0);
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_RO_WRITE);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 1, "initializing cleared by SW");
	nicref_dev_destroy(dev);
}

/* T7: registers are dwords. */
Test(init_seg, unaligned_access)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	(void)nicref_bar_read32(dev, 0x0002);
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_UNALIGNED);
	nicref_dev_destroy(dev);

	dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_H + 1, 0x12345678u);
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_UNALIGNED);
	cr_assert_eq(nicref_bar_read32(dev, ADDR_H), 0, "an unaligned write changed 10h");
	nicref_dev_destroy(dev);
}

/* §8.2: the doorbell needs a command queue and initializing = 0. */
Test(init_seg, doorbell_before_address)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, DOORBELL, 0x1);
	tl_expect_one_violation(&tr, NICREF_VIO_DB_NO_CMDQ);
	cr_assert_eq(tl_count(&tr, NICREF_EV_CMD_DONE), 0);
	nicref_dev_destroy(dev);
}

Test(init_seg, doorbell_while_initializing)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.init_delay_ns = 1000;
	struct nicref_dev *dev = tl_dev_create(&p, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010000u);
	nicref_bar_write32(dev, DOORBELL, 0x1);
	tl_expect_one_violation(&tr, NICREF_VIO_DB_WHILE_INITIALIZING);
	cr_assert_eq(tl_count(&tr, NICREF_EV_CMD_DONE), 0);
	nicref_dev_destroy(dev);
}

/* nicref.h: reset is the power-on state again, clock 0 and trace sequence 0. */
Test(init_seg, reset)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010000u);
	nicref_bar_write32(dev, FW_REV, 1); /* a violation: seq 1 */
	nicref_clock_advance(dev, 12345);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 0);
	cr_assert_eq(tr.n, 2);
	cr_assert_eq(tr.ev[1].seq, 1);

	nicref_dev_reset(dev);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING), 0x81000000u);
	cr_assert_eq(nicref_clock_now(dev), 0);
	cr_assert_eq(nicref_bar_read32(dev, HEALTH), 0);
	cr_assert_eq(nicref_bar_read32(dev, TIMER_L), 0);
	struct nicref_stats st;
	nicref_stats_get(dev, &st);
	cr_assert_eq(st.events, 0);
	cr_assert_eq(st.violations, 0);
	/* The queue address is forgotten: a doorbell now has no queue. */
	tl_mark(&tr);
	nicref_bar_write32(dev, DOORBELL, 0x1);
	tl_expect_one_violation(&tr, NICREF_VIO_DB_NO_CMDQ);
	cr_assert_eq(tr.ev[0].seq, 0, "first event after reset has seq %llu",
		     (unsigned long long)tr.ev[0].seq);
	cr_assert_eq(tr.ev[0].time_ns, 0);
	/* And bring-up works again from scratch. */
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00020000u);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 0);
	cr_assert_eq(tl_count(&tr, NICREF_EV_READY), 1);
	cr_assert_eq(tr.ev[tr.n - 1].seq, 1);
	nicref_dev_destroy(dev);
}

/* PRM §0 "Reserved fields": SW writes zeros. T8 0008h-000Ch and 14h[11:10] are reserved; a
 * non-zero write there is a violation and has no effect (D-BAR-1); a zero write is legal. */
Test(init_seg, reserved_writes)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, 0x0008, 0);
	nicref_bar_write32(dev, 0x0200, 0);
	cr_assert_eq(tr.n, 0, "a zero write to a reserved dword is a violation");
	nicref_bar_write32(dev, 0x0008, 0x1);
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_RESERVED_WRITE);
	cr_assert_eq(nicref_bar_read32(dev, 0x0008), 0);
	nicref_dev_destroy(dev);

	dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010400u); /* 14h bit 10 */
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_RESERVED_WRITE);
	nicref_dev_destroy(dev);

	/* T8 100Ch: clear_int is bit 0; bits 31:1 reserved. */
	dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, 0x100C, 0x1);
	cr_assert_eq(tr.n, 0);
	nicref_bar_write32(dev, 0x100C, 0x2);
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_RESERVED_WRITE);
	nicref_dev_destroy(dev);
}

/* D-H-3: the internal error buffer (T7 200h-23Ch) reads zero on a healthy device (its first
 * dword turns non-zero on a fatal error: health_test.c); D-BAR-1: an unaligned read returns 0. */
Test(init_seg, reserved_and_unaligned_reads)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	for (uint32_t off = 0x200; off < 0x240; off += 4)
		cr_assert_eq(nicref_bar_read32(dev, off), 0, "0x%x", off);
	cr_assert_eq(nicref_bar_read32(dev, 0x0018), 0, "the WO doorbell reads back");
	cr_assert_eq(tr.n, 0);
	cr_assert_eq(nicref_bar_read32(dev, 0x01FD), 0); /* inside the initializing dword */
	tl_expect_one_violation(&tr, NICREF_VIO_BAR_UNALIGNED);
	nicref_dev_destroy(dev);
}

/* T8 14h[9:8] nic_interface: 0 full_driver, 1 disabled; 1FCh[26:24] says which are supported.
 * 18h: "When driver is in No DRAM NIC mode, this field must not be written" (D-CMD-17). */
Test(init_seg, nic_interface)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr); /* supported = 1: full_driver only */
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010100u); /* disabled */
	tl_expect_one_violation(&tr, NICREF_VIO_NIC_INTERFACE_UNSUPPORTED);
	nicref_dev_destroy(dev);

	dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010200u); /* 2 names no mode */
	tl_expect_one_violation(&tr, NICREF_VIO_NIC_INTERFACE_UNSUPPORTED);
	nicref_dev_destroy(dev);

	struct nicref_profile p;
	nicref_profile_default(&p);
	p.nic_interface_supported = 3;
	dev = tl_dev_create(&p, &tr);
	nicref_bar_write32(dev, ADDR_H, 0);
	nicref_bar_write32(dev, ADDR_L, 0x00010100u); /* disabled, and supported */
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0);
	/* nic_interface is WO: it reads as 0. */
	cr_assert_eq(nicref_bar_read32(dev, ADDR_L), 0x00010056u);
	nicref_bar_write32(dev, DOORBELL, 0x1);
	tl_expect_one_violation(&tr, NICREF_VIO_DB_NIC_DISABLED);
	cr_assert_eq(tl_count(&tr, NICREF_EV_CMD_DONE), 0);
	nicref_dev_destroy(dev);
}

/* D-CMD-11: the address is latched at the LSW; LSW first latches with the old MSW. */
Test(init_seg, lsw_first_latches_old_msw)
{
	struct nicref_dev *dev = tl_dev_create(NULL, &tr);
	nicref_bar_write32(dev, ADDR_L, 0x00010000u);
	cr_assert_eq(nicref_bar_read32(dev, INITIALIZING) >> 31, 0);
	nicref_bar_write32(dev, ADDR_H, 0x7);
	cr_assert_eq(nicref_bar_read32(dev, ADDR_H), 0x7);
	cr_assert_eq(nicref_dev_check(dev), 0);
	nicref_dev_destroy(dev);
}

/* Writes the command queue address the driver already uses again, MSW first (§8.2). */
static void rewrite_cmdq_addr(struct tl_dev *t)
{
	nicref_bar_write32(t->dev, ADDR_H, (uint32_t)(t->d.cmdq_addr >> 32));
	nicref_bar_write32(t->dev, ADDR_L, (uint32_t)t->d.cmdq_addr);
}

/* PRM §4.3 T8 10h/14h: cmdq_phy_addr "should not be modified after INIT_HCA until
 * TEARDOWN_HCA". Inside that window the rewrite is reported, as a warning (a "should",
 * D-CMD-19); before INIT_HCA and after TEARDOWN_HCA it is allowed. The address takes effect
 * either way: a NOP completes through it. */
Test(init_seg, cmdq_addr_rewrite_only_reported_in_t8_window)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_ENABLED);
	rewrite_cmdq_addr(t);
	cr_expect_eq(t->tr.violations, 0, "ENABLED, before INIT_HCA: outside T8's window");
	uint8_t in[16] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x80D); /* NOP */
	cr_expect_eq(tl_cmd(t, in, 16, out, 16), 0);
	tl_down(t);

	t = tl_up_to(NULL, REFDRV_INITIALIZED);
	rewrite_cmdq_addr(t);
	/* One report for the MSW + LSW pair, at the MSW (T8 10h "should not be modified" too). */
	tl_expect_one_violation(&t->tr, NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED);
	cr_expect_eq(t->tr.last_violation_arg, (uint32_t)(t->d.cmdq_addr >> 32));
	cr_expect_eq(nicref_violation_is_warning(NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED), 1);
	cr_expect_str_eq(nicref_violation_citation(NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED),
			 "PRM §4.3 T8");
	cr_expect_eq(tl_cmd(t, in, 16, out, 16), 0);

	tl_mark(&t->tr);
	uint8_t td[16] = { 0 };
	tl_setf(td, 0x00, 31, 16, 0x103); /* TEARDOWN_HCA, profile 0 (T169/T170) */
	cr_assert_eq(tl_cmd(t, td, 16, out, 16), 0);
	rewrite_cmdq_addr(t);
	cr_expect_eq(t->tr.violations, 0, "TORN_DOWN: T8's window has closed");
	cr_expect_eq(tl_cmd(t, in, 16, out, 16), 0);
	tl_down(t);
}

/* D-CMD-11: the address takes effect when the LSW (14h) is written; an MSW (10h) written
 * alone moves nothing. Once the queue runs (ENABLED), 10h = 7 alone, and a NOP still runs at
 * the old address (a device that latched at the MSW would fetch it from 0x7_00010000). */
Test(init_seg, msw_alone_does_not_move_the_queue)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_ENABLED);
	cr_assert_eq(t->d.cmdq_addr >> 32, 0);
	nicref_bar_write32(t->dev, ADDR_H, 0x7);
	cr_expect_eq(nicref_bar_read32(t->dev, ADDR_H), 0x7, "T8 10h RW: reads back");
	uint8_t in[16] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x80D); /* NOP */
	cr_expect_eq(tl_cmd(t, in, 16, out, 16), 0, "the queue moved at the MSW write");
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_DMA_ERROR), 0);
	tl_down(t);
}

/* D-INIT-6: T8 1FCh[26:24] nic_interface_supported is a "Bitmask indicating which
 * nic_interface modes are supported"; the default profile has 1 (full_driver only). A mode it
 * does not list (1 disabled, or 2 which names none) is reported and not taken: the device
 * stays in full_driver and the next command runs. */
Test(init_seg, unsupported_nic_interface_keeps_the_mode)
{
	static const uint32_t modes[] = { 1, 2, 3 };
	for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		struct tl_dev *t = tl_up_to(NULL, REFDRV_ENABLED);
		nicref_bar_write32(t->dev, ADDR_H, (uint32_t)(t->d.cmdq_addr >> 32));
		nicref_bar_write32(t->dev, ADDR_L, (uint32_t)t->d.cmdq_addr | modes[i] << 8);
		tl_expect_one_violation(&t->tr, NICREF_VIO_NIC_INTERFACE_UNSUPPORTED);
		cr_expect_eq(t->tr.last_violation_arg, modes[i]);
		tl_mark(&t->tr);
		uint8_t in[16] = { 0 }, out[16];
		tl_setf(in, 0x00, 31, 16, 0x80D); /* NOP */
		cr_expect_eq(tl_cmd(t, in, 16, out, 16), 0, "mode %u took effect", modes[i]);
		cr_expect_eq(t->tr.vio[NICREF_VIO_DB_NIC_DISABLED], 0);
		tl_down(t);
	}
}

/* PRM §7.12.10.1: "The timestamp should be divided by the frequency [HCA_CAP
 * device_frequency_mhz, T145] to produce a value in micro-seconds". D-TS-1: the timer counts a
 * whole number of MHz, the one the capability reports, so 1 s of virtual time is 1,000,000 us
 * exactly; a profile whose timer is not a whole MHz is refused. */
Test(init_seg, timer_over_device_frequency_is_microseconds)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_ENABLED);
	tl_begin(t, "query_hca_cap_in", "QUERY_HCA_CAP");
	tl_set(t, "query_hca_cap_in", "op_mod", 1); /* general device capabilities, current */
	cr_assert_eq(tl_run(t, 0x10, 0x1010), 0);
	uint32_t mhz = tl_getf(t->out + 0x10, 0x98, 31, 0); /* T145 98h device_frequency_mhz */
	cr_assert_eq(mhz, 156);
	uint64_t t0 = (uint64_t)nicref_bar_read32(t->dev, TIMER_H) << 32 |
		      nicref_bar_read32(t->dev, TIMER_L);
	nicref_clock_advance(t->dev, 1000000000ull);
	uint64_t t1 = (uint64_t)nicref_bar_read32(t->dev, TIMER_H) << 32 |
		      nicref_bar_read32(t->dev, TIMER_L);
	cr_expect_eq((t1 - t0) / mhz, 1000000u, "1 s reads %llu us",
		     (unsigned long long)((t1 - t0) / mhz));
	tl_down(t);

	struct nicref_profile p;
	nicref_profile_default(&p);
	p.timer_khz = 156250;
	struct nicref_config c;
	nicref_config_default(&c);
	c.profile = p;
	cr_expect_null(nicref_dev_create(&c), "156.25 MHz: device_frequency_mhz cannot say it");
}

/* PRM §4.3 T8 10h cmdq_phy_addr[63:32]: "should not be modified after INIT_HCA until
 * TEARDOWN_HCA", as 14h. An MSW written alone while INITIALIZED is reported (D-CMD-19, a
 * warning, its value the argument), and moves nothing (D-CMD-11): a NOP still runs. */
Test(init_seg, msw_alone_while_initialized_is_reported)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	nicref_bar_write32(t->dev, ADDR_H, 0x7);
	tl_expect_one_violation(&t->tr, NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED);
	cr_expect_eq(t->tr.last_violation_arg, 0x7);
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, ADDR_H, (uint32_t)(t->d.cmdq_addr >> 32));
	tl_mark(&t->tr);
	uint8_t in[16] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x80D); /* NOP */
	cr_expect_eq(tl_cmd(t, in, 16, out, 16), 0);
	cr_expect_eq(t->tr.violations, 0);
	/* The LSW that completes the reported MSW is not reported again; an LSW alone is. */
	nicref_bar_write32(t->dev, ADDR_L, (uint32_t)t->d.cmdq_addr);
	cr_expect_eq(t->tr.violations, 0);
	nicref_bar_write32(t->dev, ADDR_L, (uint32_t)t->d.cmdq_addr);
	cr_expect_eq(t->tr.vio[NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED], 1);
	cr_expect_eq(t->tr.vio[NICREF_VIO_CMDQ_ADDR_LSW_BEFORE_MSW], 1);
	tl_down(t);
}
