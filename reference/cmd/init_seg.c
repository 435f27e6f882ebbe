/* BAR0 initialization segment: PRM §4.3 T7/T8, bring-up behaviour from §8.2. The BAR0 map
 * (device/bar0.c) hands it the offsets below PRM_SIZE_init_seg. */
#include "cmd/ctl_dev.h"
#include "prm/layouts.h"

/* Dword offsets of T8. */
enum {
	ISEG_FW_REV = 0x0000,
	ISEG_CMDIF_REV = 0x0004,
	ISEG_CMDQ_ADDR_H = 0x0010,
	ISEG_CMDQ_ADDR_L = 0x0014,
	ISEG_CMDQ_DB = 0x0018,
	ISEG_INITIALIZING = 0x01FC,
	ISEG_INTERNAL_ERR = 0x0200, /* the internal error buffer, T7 200h-23Ch (D-H-3) */
	ISEG_TIMER_H = 0x1000,
	ISEG_TIMER_L = 0x1004,
	ISEG_CLEAR_INT = 0x100C,
	ISEG_HEALTH = 0x1010,
};

/* The profile's settings the init segment reads: nic_interface_supported is a 3-bit mask
 * (T8 1FCh), the health counter advances every health_period_ns (D-H-1), the timer counts at
 * timer_khz (D-TS-1), a whole number of MHz: HCA_CAP.device_frequency_mhz (T145) carries it,
 * and §7.12.10.1 has SW divide a timestamp by it "to produce a value in micro-seconds". */
static int init_seg_profile_ok(const struct nicref_profile *p)
{
	return p->nic_interface_supported <= 7 && p->health_period_ns != 0 && p->timer_khz != 0 &&
	       p->timer_khz % 1000u == 0;
}

static void init_seg_reset(struct nicref_dev *dev, void *state)
{
	(void)state;
	struct init_seg *s = &dev->iseg;
	*s = (struct init_seg){ 0 };
	s->initializing = true; /* PRM T8 1FCh[31]: 1 until the device is ready for commands */
}

/* Time moved, or the queue address was latched: clear initializing when due. */
static void clear_initializing(struct nicref_dev *dev)
{
	struct init_seg *s = &dev->iseg;
	/* PRM §8.2: SW writes the queue address, then polls initializing until it clears. */
	if (s->initializing && s->cmdq_valid && dev->core.now_ns >= s->ready_at_ns) {
		s->initializing = false;
		dev_emit0(dev, NICREF_EV_READY);
	}
}

static void init_seg_tick(struct nicref_dev *dev, void *state)
{
	(void)state;
	clear_initializing(dev);
}

/* initializing clears at ready_at_ns once the queue address is latched (PRM §8.2, D-INIT). */
static bool init_seg_next_deadline(const struct nicref_dev *dev, const void *state, uint64_t *t)
{
	(void)state;
	const struct init_seg *s = &dev->iseg;
	*t = s->ready_at_ns;
	return s->initializing && s->cmdq_valid;
}

static int init_seg_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	(void)state;
	const struct init_seg *s = &dev->iseg;
	if (s->cmdq_valid && (s->cmdq_addr & 0xFFF) != 0)
		return dev_broken(buf, len, NICREF_INV_CMDQ_ADDR_ALIGNED,
				  "command queue address 0x%llx latched",
				  (unsigned long long)s->cmdq_addr);
	if (!s->cmdq_valid && !s->initializing)
		return dev_broken(buf, len, NICREF_INV_INITIALIZING_UNTIL_LATCHED,
				  "initializing 0 with no queue address latched");
	if (dev->core.halted != (s->health_syndrome != 0))
		return dev_broken(buf, len, NICREF_INV_HALTED_IFF_FATAL,
				  "halted %d with health_syndrome 0x%x", dev->core.halted,
				  s->health_syndrome);
	return 0;
}

const struct dev_subsys init_seg_subsys = {
	.name = "init_seg",
	.profile_ok = init_seg_profile_ok,
	.reset = init_seg_reset,
	.tick = init_seg_tick,
	.next_deadline = init_seg_next_deadline,
	.check = init_seg_check,
};

uint64_t init_seg_timer(const struct nicref_dev *dev)
{
	/* D-TS-1: the free-running internal timer (PRM T8 1000h/1004h, §7.12.10) counts at
	 * timer_khz of virtual time; split so the product does not overflow early. */
	uint64_t ns = dev->core.now_ns, khz = dev->core.cfg.profile.timer_khz;
	return (ns / 1000000u) * khz + (ns % 1000000u) * khz / 1000000u;
}

static uint32_t health_word(const struct nicref_dev *dev)
{
	const struct init_seg *s = &dev->iseg;
	/* D-H-1: a heartbeat that advances every health_period_ns and freezes on a fatal
	 * error (health_syndrome != 0). PRM T8 1010h. */
	uint64_t beats = dev->core.now_ns / dev->core.cfg.profile.health_period_ns;
	uint32_t counter = s->health_syndrome ? s->health_counter_frozen
					      : (uint32_t)beats & 0xFFFFFFu;
	return (uint32_t)s->health_syndrome << 24 | counter;
}

void init_seg_fatal(struct nicref_dev *dev, uint8_t syndrome)
{
	struct init_seg *s = &dev->iseg;
	NICREF_ASSERT(syndrome != 0);
	/* The first fatal error is the one reported: the device halted at it. */
	if (s->health_syndrome)
		return;
	/* D-H-1: the heartbeat freezes at the fatal error. */
	s->health_counter_frozen =
		(uint32_t)(dev->core.now_ns / dev->core.cfg.profile.health_period_ns) & 0xFFFFFFu;
	s->health_syndrome = syndrome;
	/* PRM §9.2.2: "HCA will halt execution - all committed data transfers (PCI and network)
	 * will be completed, but no new operation will start and the HCA will halt awaiting for
	 * hardware reset" (D-H-2): what is running finishes; commands, doorbells, frames from the
	 * wire and timers start nothing more until nicref_dev_reset. */
	dev->core.halted = true;
	const uint64_t arg = syndrome;
	dev_emit(dev, NICREF_EV_FATAL, &arg, 1);
}

/* A single-dword field of T8 placed in its dword. */
static uint32_t dword_field(const struct nicref_field *f, uint32_t offset, uint64_t v)
{
	NICREF_ASSERT(f->prm_offset == offset && f->bit_width <= 32);
	uint64_t mask = (1ull << f->bit_width) - 1u;
	return (uint32_t)((v & mask) << f->lsb);
}

uint32_t init_seg_read(struct nicref_dev *dev, uint32_t offset)
{
	const struct nicref_profile *p = &dev->core.cfg.profile;
	const struct init_seg *s = &dev->iseg;
	uint32_t w = 0;

	/* Values are assembled through the T8 layout so positions live in one place. */
#define SET(field, v) (w |= dword_field(PRM_FIELD(init_seg, field), offset, (v)))
	switch (offset) {
	case ISEG_FW_REV:
		SET(fw_rev_minor, p->fw_rev_minor);
		SET(fw_rev_major, p->fw_rev_major);
		break;
	case ISEG_CMDIF_REV:
		SET(cmd_interface_rev, p->cmd_interface_rev);
		SET(fw_rev_subminor, p->fw_rev_subminor);
		break;
	case ISEG_CMDQ_ADDR_H:
		SET(cmdq_phy_addr_63_32, s->addr_hi);
		break;
	case ISEG_CMDQ_ADDR_L:
		/* nic_interface is write-only and reads as 0. */
		SET(cmdq_phy_addr_31_12, s->addr_lo >> 12);
		SET(log_cmdq_size, p->log_cmdq_size);
		SET(log_cmdq_stride, p->log_cmdq_stride);
		break;
	case ISEG_INITIALIZING:
		SET(initializing, s->initializing);
		SET(nic_interface_supported, p->nic_interface_supported);
		break;
	case ISEG_TIMER_H:
		SET(internal_timer_h, init_seg_timer(dev) >> 32);
		break;
	case ISEG_TIMER_L:
		SET(internal_timer_l, init_seg_timer(dev) & 0xFFFFFFFFu);
		break;
	case ISEG_INTERNAL_ERR:
		/* PRM §7.13.9.1: "When an error is reported, the Internal Error buffer will cause a
		 * non zero value to appear in the first DWORD of the buffer"; the buffer is T7's
		 * block at 200h (D-H-3). Healthy: 0; after a fatal error: its syndrome (T8 1010h's
		 * health_syndrome, never 0). The rest of the buffer reads 0. */
		w = s->health_syndrome;
		break;
	case ISEG_HEALTH: {
		uint32_t h = health_word(dev);
		SET(health_syndrome, h >> 24);
		SET(health_counter, h & 0xFFFFFFu);
		break;
	}
	default: /* reserved, and the write-only doorbell and clear_int, read as 0 */
		break;
	}
#undef SET
	return w;
}

static void write_addr_lsw(struct nicref_dev *dev, uint32_t value)
{
	struct init_seg *s = &dev->iseg;
	const struct nicref_profile *p = &dev->core.cfg.profile;
	uint32_t nic_interface = (value >> 8) & 3u;

	/* PRM §8.2: "If using 32-bit writes, write the most significant word first." */
	if (!s->msw_written)
		dev_violation(dev, NICREF_VIO_CMDQ_ADDR_LSW_BEFORE_MSW, value);
	/* PRM §8.2: log_cmdq_size and log_cmdq_stride must be set to zero. */
	if (value & 0xFFu)
		dev_violation(dev, NICREF_VIO_CMDQ_RO_FIELDS_NOT_ZERO, value & 0xFFu);
	if (value & 0xC00u) /* T8 14h[11:10] */
		dev_violation(dev, NICREF_VIO_BAR_RESERVED_WRITE, ISEG_CMDQ_ADDR_L);
	/* PRM T8: nic_interface 0 full_driver, 1 disabled; nic_interface_supported is a
	 * bitmask of the modes. 2 and 3 name no mode. D-INIT-6: a mode the device does not
	 * support is reported and not taken: the device stays in the mode it is in. */
	bool supported = nic_interface <= 1 && (p->nic_interface_supported & (1u << nic_interface));
	if (!supported)
		dev_violation(dev, NICREF_VIO_NIC_INTERFACE_UNSUPPORTED, nic_interface);

	/* PRM §4.3 T8 10h/14h: cmdq_phy_addr "should not be modified after INIT_HCA until
	 * TEARDOWN_HCA". Outside that window (disabled, enabled before INIT_HCA, torn down) the
	 * queue may move. A "should": a warning (D-CMD-19), and the new address takes effect.
	 * Once per address write: not again for the LSW of an MSW already reported. */
	if (dev->hca.state == HCA_INITIALIZED && !s->msw_reported)
		dev_violation(dev, NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED, value);
	s->msw_reported = false;
	s->addr_lo = value & 0xFFFFF000u;
	if (supported)
		s->nic_interface = (uint8_t)nic_interface;
	s->msw_written = false;
	/* D-CMD-11: the address takes effect when its LSW is written. */
	s->cmdq_addr = (uint64_t)s->addr_hi << 32 | s->addr_lo;
	if (!s->cmdq_valid)
		s->ready_at_ns = dev->core.now_ns + p->init_delay_ns < dev->core.now_ns
					 ? UINT64_MAX
					 : dev->core.now_ns + p->init_delay_ns;
	s->cmdq_valid = true;
	clear_initializing(dev);
}

static void write_doorbell(struct nicref_dev *dev, uint32_t value)
{
	const struct init_seg *s = &dev->iseg;

	if (value == 0)
		return;
	if (!s->cmdq_valid) {
		dev_violation(dev, NICREF_VIO_DB_NO_CMDQ, value);
		return;
	}
	if (s->initializing) {
		dev_violation(dev, NICREF_VIO_DB_WHILE_INITIALIZING, value);
		return;
	}
	/* PRM T8 18h: "When driver is in No DRAM NIC mode, this field must not be written." */
	if (s->nic_interface != 0) {
		dev_violation(dev, NICREF_VIO_DB_NIC_DISABLED, value);
		return;
	}
	cmdq_doorbell(dev, value);
}

void init_seg_write(struct nicref_dev *dev, uint32_t offset, uint32_t value)
{
	struct init_seg *s = &dev->iseg;

	switch (offset) {
	case ISEG_CMDQ_ADDR_H:
		/* PRM §4.3 T8 10h: "should not be modified after INIT_HCA until TEARDOWN_HCA",
		 * as 14h (D-CMD-19). Nothing moves until the LSW (D-CMD-11). */
		s->msw_reported = dev->hca.state == HCA_INITIALIZED;
		if (s->msw_reported)
			dev_violation(dev, NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED, value);
		s->addr_hi = value;
		s->msw_written = true;
		break;
	case ISEG_CMDQ_ADDR_L:
		write_addr_lsw(dev, value);
		break;
	case ISEG_CMDQ_DB:
		write_doorbell(dev, value);
		break;
	case ISEG_CLEAR_INT:
		/* PRM T8 100Ch[0]: clears INTA. The INTx line comes with EQs; bits 31:1 are
		 * reserved. */
		if (value & ~1u)
			dev_violation(dev, NICREF_VIO_BAR_RESERVED_WRITE, offset);
		break;
	case ISEG_FW_REV:
	case ISEG_CMDIF_REV:
	case ISEG_INITIALIZING:
	case ISEG_TIMER_H:
	case ISEG_TIMER_L:
	case ISEG_HEALTH:
		dev_violation(dev, NICREF_VIO_BAR_RO_WRITE, offset);
		break;
	default:
		if (value != 0)
			dev_violation(dev, NICREF_VIO_BAR_RESERVED_WRITE, offset);
		break;
	}
}
