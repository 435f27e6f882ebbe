/* The command queue's signatures fixed up before each doorbell (fixup_cmdq.h). */
#include <string.h>

#include "cmdbuild.h"
#include "fixup_cmdq.h"
#include "fuzz_oracle.h"
#include "opstream.h"

#define ENTRY_BYTES 64u
#define ENTRY_SIG 0x3Du   /* T96 signature */
#define ENTRY_OWN 0x3Fu   /* T96 ownership, bit 0 */
#define MBOX_CTRL 0x200u  /* the control part 200h-23Fh (D-CMD-3) */
#define MBOX_CTRL_SIG 0x23Eu
#define MBOX_SIG 0x23Fu

static uint64_t be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

struct nicref_dev *fixup_cmdq_device(struct fuzz_oracle *o, unsigned cmdif_checksum)
{
	struct nicref_config cfg;

	nicref_config_default(&cfg);
	cfg.profile.cmdif_checksum = (uint8_t)cmdif_checksum;
	cfg.seed = 0x6e6963726566ull; /* fuzz_oracle_device's */
	cfg.trace = fuzz_oracle_event;
	cfg.trace_ctx = o;
	o->dev = nicref_dev_create(&cfg);
	return o->dev;
}

void fixup_cmdq_reset(struct fixup_cmdq *f, const struct nicref_profile *p)
{
	*f = (struct fixup_cmdq){ .log_size = p->log_cmdq_size,
				  .log_stride = p->log_cmdq_stride,
				  .max_blocks = p->max_mailbox_blocks };
}

/* Signs the `length`'s chain from `addr` (T98). Stops where the device would refuse the
 * pointer (0 or not 1 KiB aligned, D-CMD-4) or could not read the block. */
static void sign_chain(struct fixup_cmdq *f, struct nicref_dev *dev, uint64_t addr,
		       uint32_t length, bool output)
{
	uint32_t blocks = cmd_blocks_for(length);
	uint8_t b[CMD_MBOX_SIZE];

	if (blocks > f->max_blocks) /* D-CMD-10: never walked */
		return;
	for (uint32_t k = 0; k < blocks && addr != 0; k++) {
		if (addr > UINT64_MAX - (CMD_MBOX_SIZE - 1) ||
		    nicref_hostmem_read(dev, addr, b, sizeof b) != 0)
			return;
		/* §7.14.1.1.1: the control part XORs to 0xFF (signature byte taken as 0), then an
		 * input block as a whole. */
		uint8_t sig = b[MBOX_SIG];
		b[MBOX_CTRL_SIG] = 0;
		b[MBOX_SIG] = 0;
		b[MBOX_CTRL_SIG] = (uint8_t)~cmd_xor8(b + MBOX_CTRL, CMD_MBOX_SIZE - MBOX_CTRL);
		b[MBOX_SIG] = output ? sig : (uint8_t)~cmd_xor8(b, CMD_MBOX_SIZE);
		(void)nicref_hostmem_write(dev, addr + MBOX_CTRL_SIG, b + MBOX_CTRL_SIG, 2);
		f->blocks++;
		uint64_t next = be(b + 0x230, 8);
		if (next & 0x3FFu)
			return;
		addr = next;
	}
}

bool fixup_cmdq_sign_slot(struct fixup_cmdq *f, struct nicref_dev *dev, unsigned slot)
{
	uint64_t at = f->addr + ((uint64_t)slot << f->log_stride);
	uint8_t e[ENTRY_BYTES];

	if (nicref_hostmem_read(dev, at, e, sizeof e) != 0 || !(e[ENTRY_OWN] & 1u))
		return false;
	/* T96: the pointers carry bits 63:9 (D-CMD-4); the device refuses the others before it
	 * walks a chain, and reads a block of an aligned one wherever it lies. */
	sign_chain(f, dev, be(e + 0x08, 8) & ~0x1FFull, (uint32_t)be(e + 0x04, 4), false);
	sign_chain(f, dev, be(e + 0x30, 8) & ~0x1FFull, (uint32_t)be(e + 0x38, 4), true);
	/* The entry last: a block the chains signed may lie over it. */
	if (nicref_hostmem_read(dev, at, e, sizeof e) != 0)
		return false;
	e[ENTRY_SIG] = 0;
	e[ENTRY_SIG] = (uint8_t)~cmd_xor8(e, sizeof e);
	(void)nicref_hostmem_write(dev, at + ENTRY_SIG, e + ENTRY_SIG, 1);
	f->entries++;
	return true;
}

void fixup_cmdq_before(void *ctx, struct nicref_dev *dev, unsigned op, const uint8_t *a)
{
	struct fixup_cmdq *f = ctx;
	uint32_t offset, value;

	if (op == OPS_DOORBELL) {
		offset = 0x18;
		value = (uint32_t)be(a, 4);
	} else if (op == OPS_BAR_WRITE) {
		offset = (uint32_t)be(a, 2);
		value = (uint32_t)be(a + 2, 4);
	} else {
		return;
	}
	switch (offset) {
	case 0x10: /* T8 cmdq_phy_addr_63_32 */
		f->addr_hi = value;
		return;
	case 0x14: /* T8 cmdq_phy_addr_31_12: the address takes effect (D-CMD-11) */
		f->addr = (uint64_t)f->addr_hi << 32 | (value & 0xFFFFF000u);
		f->valid = true;
		return;
	case 0x18: /* T8 command doorbell: its valid bits are [entries - 1 .. 0] */
		if (!f->valid)
			return;
		for (unsigned s = 0; s < (1u << f->log_size) && s < 32; s++)
			if (value & (1u << s))
				(void)fixup_cmdq_sign_slot(f, dev, s);
		return;
	default:
		return;
	}
}
