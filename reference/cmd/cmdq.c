/* Command queue transport: PRM §7.14.1 (entries, T95/T96), §7.14.1.1 (mailboxes, T97/T98),
 * §7.14.1.1.1 (signatures). A doorbell executes its commands synchronously, lowest bit first,
 * so the trace is the same on every run. */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "prm/layouts.h"

#define ENTRY_SIZE PRM_SIZE_cmdq_entry /* 64 */
#define MBOX_SIZE PRM_SIZE_cmd_mailbox /* 0x240 */
#define MBOX_DATA 512u                 /* T98: mailbox data 00h-1FFh */
#define MBOX_CTRL 0x200u               /* D-CMD-3: the control part is 200h-23Fh */
#define INLINE_LEN 16u                 /* T96: command_input/output_inline_data */

/* The XOR of n bytes, eight at a time: the same byte whatever the host's byte order (XOR
 * commutes), and an eighth of the loop a sanitized, coverage-traced fuzz build pays for per
 * byte of every entry and mailbox (fuzzers/coverage_ignore.txt, docs/fuzzing.md). */
static uint8_t xor8(const uint8_t *p, size_t n)
{
	uint64_t w = 0, x;
	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&x, p, 8);
		w ^= x;
	}
	w ^= w >> 32;
	w ^= w >> 16;
	w ^= w >> 8;
	uint8_t b = (uint8_t)w;
	while (n--)
		b ^= *p++;
	return b;
}

/* Whether any of n bytes is not zero, eight bytes a step, as xor8 reads them. */
static int nonzero(const uint8_t *p, size_t n)
{
	uint64_t w = 0, x;
	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&x, p, 8);
		w |= x;
	}
	while (n--)
		w |= *p++;
	return w != 0;
}

#define ENTRY_FIELD(field) PRM_FIELD(cmdq_entry, field)
#define ENTRY_GET(field, e) PRM_GET(cmdq_entry, field, (e), ENTRY_SIZE)
#define ENTRY_SET(field, e, v) PRM_SET(cmdq_entry, field, (e), ENTRY_SIZE, (v))
#define MBOX_GET(field, b) PRM_GET(cmd_mailbox, field, (b), MBOX_SIZE)
#define MBOX_SET(field, b, v) PRM_SET(cmd_mailbox, field, (b), MBOX_SIZE, (v))

/* The byte a whole-byte field starts at. */
static size_t field_byte(const struct nicref_field *f)
{
	return f->bit_offset / 8;
}

static uint64_t blocks_for(uint32_t length)
{
	/* T96: the first 16 bytes are inline, the rest fills 512-byte mailbox data fields. */
	return length > INLINE_LEN ? ((uint64_t)length - INLINE_LEN + MBOX_DATA - 1) / MBOX_DATA : 0;
}

static int checking(const struct nicref_dev *dev)
{
	/* PRM T145 cmdif_checksum, as currently in force (the profile seeds it at reset,
	 * SET_HCA_CAP may change it). */
	return CAPS_CUR(dev, CAP_GENERAL, hca_cap, cmdif_checksum) == 3;
}

static int generating(const struct nicref_dev *dev)
{
	return CAPS_CUR(dev, CAP_GENERAL, hca_cap, cmdif_checksum) != 0;
}

struct chain_dir {
	bool output;
	enum nicref_delivery_status bad_pointer;
	enum nicref_violation pointer_rule;
};

static const struct chain_dir DIR_IN = { false, NICREF_DELIVERY_BAD_INPUT_POINTER,
					 NICREF_VIO_INPUT_POINTER };
static const struct chain_dir DIR_OUT = { true, NICREF_DELIVERY_BAD_OUTPUT_POINTER,
					  NICREF_VIO_OUTPUT_POINTER };

/* Fails a delivery: the violation that caused it, then the status. */
static enum nicref_delivery_status refuse(struct nicref_dev *dev, enum nicref_violation rule,
					  uint64_t arg, enum nicref_delivery_status st)
{
	dev_violation(dev, rule, arg);
	return st;
}

/* Walks one mailbox chain of `blocks` blocks from `addr`, checking each block as T98 and
 * §7.14.1.1.1 say (decisions.md D-CMD-9 gives the order). Input data is gathered into
 * dev->cmd_in + 16; output block addresses and control parts are kept for the scatter. */
static enum nicref_delivery_status walk_chain(struct nicref_dev *dev, const struct chain_dir *d,
					      uint64_t addr, uint64_t blocks, uint8_t token)
{
	uint8_t blk[MBOX_SIZE];

	for (uint64_t k = 0; k < blocks; k++) {
		/* D-CMD-18: a block that would run past 2^64 has no address: a bad pointer. */
		if (addr > UINT64_MAX - (MBOX_SIZE - 1))
			return refuse(dev, d->pointer_rule, k, d->bad_pointer);
		if (dev_dma_read(dev, addr, blk, sizeof blk) != 0)
			return NICREF_DELIVERY_INTERNAL;
		if (checking(dev)) {
			/* §7.14.1.1.1: ctrl_signature makes the control part XOR to 0xFF with the
			 * signature byte taken as 0; SW computes it for output blocks too, "to
			 * protect the output mailbox pointers and token fields". */
			if (xor8(blk + MBOX_CTRL, MBOX_SIZE - MBOX_CTRL - 1) != 0xFF)
				return refuse(dev, NICREF_VIO_MAILBOX_CTRL_SIGNATURE, k,
					      NICREF_DELIVERY_SIGNATURE);
			/* T98: the whole input block XORs to 0xFF. SW does not sign output blocks. */
			if (!d->output && xor8(blk, MBOX_SIZE) != 0xFF)
				return refuse(dev, NICREF_VIO_MAILBOX_SIGNATURE, k,
					      NICREF_DELIVERY_SIGNATURE);
		}
		if (MBOX_GET(token, blk) != token) /* T96/T98 */
			return refuse(dev, NICREF_VIO_MAILBOX_TOKEN, k, NICREF_DELIVERY_TOKEN);
		if (MBOX_GET(block_number, blk) != k) /* T98: 0, 1, 2, ... */
			return refuse(dev, NICREF_VIO_MAILBOX_BLOCK_NUMBER, k,
				      NICREF_DELIVERY_BAD_BLOCK_NUMBER);
		/* T97: 200h-22Fh and 23Ch[31:24] are reserved. */
		if (nonzero(blk + MBOX_CTRL, 0x30) || blk[0x23C] != 0)
			return refuse(dev, NICREF_VIO_MAILBOX_RESERVED, k,
				      NICREF_DELIVERY_RESERVED_NOT_ZERO);
		uint64_t next = MBOX_GET(next_pointer_63_32, blk) << 32 |
				MBOX_GET(next_pointer_31_10, blk) << 10;
		uint32_t next_low = (uint32_t)(blk[0x236] & 3u) << 8 | blk[0x237];
		if (d->output) {
			dev->out_block_addr[k] = addr;
			memcpy(dev->out_block_ctrl + k * 0x40, blk + MBOX_CTRL, 0x40);
		} else {
			memcpy(dev->cmd_in + INLINE_LEN + k * MBOX_DATA, blk, MBOX_DATA);
		}
		if (k + 1 == blocks) {
			/* T98: "If no additional block is needed, the pointer should be 0." */
			if (next != 0 || next_low != 0)
				dev_violation(dev, NICREF_VIO_MAILBOX_NEXT_NOT_ZERO, k);
			break;
		}
		/* D-CMD-4: next_pointer carries bits 63:10, so a block is 1 KiB aligned. */
		if (next == 0 || next_low != 0)
			return refuse(dev, d->pointer_rule, k + 1, d->bad_pointer);
		addr = next;
	}
	return NICREF_DELIVERY_OK;
}

/* The delivery checks of T96 on the entry itself, in the order of D-CMD-9. */
static enum nicref_delivery_status check_entry(struct nicref_dev *dev, const uint8_t *e,
					       uint64_t in_ptr, uint64_t out_ptr)
{
	if (ENTRY_GET(type, e) != 0x7) /* T96: 0x7 PCIe_cmd_if_transport */
		return refuse(dev, NICREF_VIO_ENTRY_BAD_TYPE, ENTRY_GET(type, e),
			      NICREF_DELIVERY_BAD_TYPE);
	/* T96: signature over the 64-byte entry, mailboxes excluded (D-CMD-12). */
	if (checking(dev) && xor8(e, ENTRY_SIZE) != 0xFF)
		return refuse(dev, NICREF_VIO_ENTRY_SIGNATURE, xor8(e, ENTRY_SIZE),
			      NICREF_DELIVERY_SIGNATURE);
	/* T95: 00h[23:0] and 3Ch[15:8] are reserved; SW sets them to zero (§7.14.1). */
	if (nonzero(e + 1, 3) || e[0x3E] != 0)
		return refuse(dev, NICREF_VIO_ENTRY_RESERVED, 0, NICREF_DELIVERY_RESERVED_NOT_ZERO);
	uint32_t in_len = (uint32_t)ENTRY_GET(input_length, e);
	uint32_t out_len = (uint32_t)ENTRY_GET(output_length, e);
	if (in_len < 8)
		return refuse(dev, NICREF_VIO_INPUT_LENGTH_SHORT, in_len,
			      NICREF_DELIVERY_INPUT_LEN);
	if (out_len < 8)
		return refuse(dev, NICREF_VIO_OUTPUT_LENGTH_SHORT, out_len,
			      NICREF_DELIVERY_OUTPUT_LEN);
	/* T96: "pointer not aligned to mailbox size": the fields carry bits 63:9 (D-CMD-4); a
	 * chain that is needed must have a pointer. */
	if ((e[0x0F] | (e[0x0E] & 1u)) != 0 || (blocks_for(in_len) && in_ptr == 0))
		return refuse(dev, NICREF_VIO_INPUT_POINTER, in_ptr | (e[0x0E] & 1u) << 8 | e[0x0F],
			      NICREF_DELIVERY_BAD_INPUT_POINTER);
	if ((e[0x37] | (e[0x36] & 1u)) != 0 || (blocks_for(out_len) && out_ptr == 0))
		return refuse(dev, NICREF_VIO_OUTPUT_POINTER,
			      out_ptr | (e[0x36] & 1u) << 8 | e[0x37],
			      NICREF_DELIVERY_BAD_OUTPUT_POINTER);
	return NICREF_DELIVERY_OK;
}

static void sign_block(uint8_t *blk)
{
	/* §7.14.1.1.1: zero both signatures, sign the control part, then the whole block. */
	MBOX_SET(ctrl_signature, blk, 0);
	MBOX_SET(signature, blk, 0);
	MBOX_SET(ctrl_signature, blk, (uint8_t)~xor8(blk + MBOX_CTRL, MBOX_SIZE - MBOX_CTRL));
	MBOX_SET(signature, blk, (uint8_t)~xor8(blk, MBOX_SIZE));
}

/* Returns non-zero if a block could not be written (the DMA error is traced). */
static int scatter_output(struct nicref_dev *dev, const struct cmd_exec *x, uint64_t blocks)
{
	uint8_t blk[MBOX_SIZE];
	int failed = 0;

	for (uint64_t k = 0; k < blocks; k++) {
		size_t from = INLINE_LEN + (size_t)k * MBOX_DATA;
		size_t n = x->out_len > from ? x->out_len - from : 0;
		if (n > MBOX_DATA)
			n = MBOX_DATA;
		memset(blk, 0, MBOX_DATA);
		memcpy(blk, x->out + from, n);
		if (!generating(dev)) {
			failed |= dev_dma_write(dev, dev->out_block_addr[k], blk, MBOX_DATA);
			continue;
		}
		/* §9.2.1 item 6 / D-CMD-5: the device signs the output blocks it writes. */
		memcpy(blk + MBOX_CTRL, dev->out_block_ctrl + k * 0x40, 0x40);
		sign_block(blk);
		failed |= dev_dma_write(dev, dev->out_block_addr[k], blk, MBOX_SIZE);
	}
	return failed;
}

/* D-PG-6: a command refused for want of ICM pages waits, owned by the device, when the
 * profile says so, its Page Request EQE was written (SW knows), and another slot stays free
 * to carry the MANAGE_PAGES that answers it. Otherwise no answer may ever come, and it is
 * refused (D-PG-4). Nothing of it is written back until it runs again. */
static bool waits_for_pages(const struct nicref_dev *dev, unsigned slot, uint64_t status,
			    uint64_t syndrome)
{
	uint32_t waiting = dev->hca.slots_waiting | 1u << slot;
	unsigned busy = 0;
	for (uint32_t w = waiting; w; w &= w - 1)
		busy++;
	return dev->core.cfg.profile.page_wait && !dev->hca.pages_refused &&
	       status == NICREF_STATUS_NO_RESOURCES &&
	       syndrome == nicref_cmd_rule_syndrome(NICREF_RULE_ICM_PAGES_SHORT) &&
	       dev->hca.pages_wanted != 0 && dev->hca.page_request_posted &&
	       busy < 1u << dev->core.cfg.profile.log_cmdq_size;
}

static void execute_slot(struct nicref_dev *dev, unsigned slot);

/* After a MANAGE_PAGES completed OK: the waiting commands run again, lowest slot first
 * (D-PG-6); one still short waits on (a new Page Request asks for the rest). `refused` (an
 * ALLOCATION_FAIL, §12.3.2: SW cannot supply the pages; or a graceful TEARDOWN_HCA, which
 * withdraws the request) completes them with whatever their run answers now, and posts no new
 * Page Request: waiting on would hold the slot for ever. */
static void run_waiting(struct nicref_dev *dev, bool refused)
{
	uint32_t w = dev->hca.slots_waiting;
	bool armed = dev->hca.page_request_armed;
	dev->hca.slots_waiting = 0;
	if (refused) {
		dev->hca.pages_refused = true;
		dev->hca.page_request_armed = false;
	}
	for (unsigned s = 0; s < 32; s++)
		if (w & (1u << s))
			execute_slot(dev, s);
	if (refused) {
		dev->hca.pages_refused = false;
		dev->hca.page_request_armed = armed;
		dev->hca.pages_wanted = 0;
	}
}

static void execute_slot(struct nicref_dev *dev, unsigned slot)
{
	const struct nicref_profile *p = &dev->core.cfg.profile;
	uint64_t addr = dev->iseg.cmdq_addr + ((uint64_t)slot << p->log_cmdq_stride);
	uint8_t e[ENTRY_SIZE];

	/* D-H-2: once a fatal error halted the device (PRM §9.2.2 "no new operation will
	 * start"), a command rung with others, or waiting for pages, is not started: it stays
	 * the device's until the reset. */
	if (dev->core.halted)
		return;
	/* Without the entry the device cannot even report; the DMA error is traced. */
	if (dev_dma_read(dev, addr, e, sizeof e) != 0)
		return;
	if (!ENTRY_GET(ownership, e)) {
		dev_violation(dev, NICREF_VIO_DB_NOT_OWNED, slot);
		return;
	}
	if (ENTRY_GET(status, e) != 0) /* T96: "SW should set this field to 0" */
		dev_violation(dev, NICREF_VIO_ENTRY_STATUS_NOT_ZERO, ENTRY_GET(status, e));

	uint64_t in_ptr = ENTRY_GET(input_mailbox_pointer_63_32, e) << 32 |
			  ENTRY_GET(input_mailbox_pointer_31_9, e) << 9;
	uint64_t out_ptr = ENTRY_GET(output_mailbox_pointer_63_32, e) << 32 |
			   ENTRY_GET(output_mailbox_pointer_31_9, e) << 9;
	uint8_t token = (uint8_t)ENTRY_GET(token, e);
	struct cmd_exec x = {
		.slot = slot,
		.input_length = (uint32_t)ENTRY_GET(input_length, e),
		.output_length = (uint32_t)ENTRY_GET(output_length, e),
		.in = dev->cmd_in,
		.out = dev->cmd_out,
	};
	uint64_t in_blocks = blocks_for(x.input_length), out_blocks = blocks_for(x.output_length);
	/* D-CMD-10: chains longer than the device takes are refused with a length status, and
	 * never walked. */
	x.in_too_long = in_blocks > p->max_mailbox_blocks;
	x.out_too_long = out_blocks > p->max_mailbox_blocks;
	if (x.in_too_long)
		in_blocks = 0;
	if (x.out_too_long)
		out_blocks = 0;

	enum nicref_delivery_status st = check_entry(dev, e, in_ptr, out_ptr);
	if (st == NICREF_DELIVERY_OK)
		st = walk_chain(dev, &DIR_IN, in_ptr, in_blocks, token);
	if (st == NICREF_DELIVERY_OK)
		st = walk_chain(dev, &DIR_OUT, out_ptr, out_blocks, token);

	/* The header of the inline input (T99), whatever became of the command. */
	uint8_t inline_in[INLINE_LEN];
	(void)nicref_field_get_bytes(e, ENTRY_SIZE, ENTRY_FIELD(command_input_inline_data),
				     inline_in, INLINE_LEN);
	uint64_t opcode = PRM_GET(cmd_in, opcode, inline_in, INLINE_LEN);
	uint64_t op_mod = PRM_GET(cmd_in, op_mod, inline_in, INLINE_LEN);
	uint64_t status = 0, syndrome = 0;
	bool ran = st == NICREF_DELIVERY_OK; /* executed, whatever became of its output */
	if (ran) {
		memcpy(dev->cmd_in, inline_in, INLINE_LEN);
		x.in_len = INLINE_LEN + (size_t)in_blocks * MBOX_DATA;
		if (x.in_len > x.input_length)
			x.in_len = x.input_length;
		x.out_len = INLINE_LEN + (size_t)out_blocks * MBOX_DATA;
		if (x.out_len > x.output_length && x.output_length > INLINE_LEN)
			x.out_len = x.output_length;
		cmd_execute(dev, &x);
		status = PRM_GET(cmd_out, status, x.out, x.out_len);
		syndrome = PRM_GET(cmd_out, syndrome, x.out, x.out_len);
		if (waits_for_pages(dev, slot, status, syndrome)) {
			dev->hca.slots_waiting |= 1u << slot;
			return;
		}
		const struct nicref_field *out_inline = ENTRY_FIELD(command_output_inline_data);
		(void)nicref_field_set_bytes(e, ENTRY_SIZE, out_inline, x.out, INLINE_LEN);
		/* D-CMD-15: the command ran, but SW cannot see its output: say so. */
		int lost = scatter_output(dev, &x, out_blocks);
		size_t at = field_byte(out_inline);
		lost |= dev_dma_write(dev, addr + at, e + at, INLINE_LEN);
		if (lost)
			st = NICREF_DELIVERY_INTERNAL;
	}

	/* T96 3Ch: the delivery status, ownership back to SW. */
	ENTRY_SET(status, e, st);
	ENTRY_SET(ownership, e, 0);
	if (generating(dev)) {
		/* D-CMD-12: the entry is signed as it is finally written, ownership 0. */
		ENTRY_SET(signature, e, 0);
		ENTRY_SET(signature, e, (uint8_t)~xor8(e, ENTRY_SIZE));
	}
	/* The dword of signature, status and ownership, after everything else: §7.14 "Once a
	 * command is completed, the ownership bit of the command is updated". */
	size_t last = ENTRY_FIELD(ownership)->prm_offset;
	(void)dev_dma_write(dev, addr + last, e + last, 4);

	dev->cmd_completed++;
	const uint64_t args[] = { slot, opcode, op_mod, st, status, syndrome };
	dev_emit(dev, NICREF_EV_CMD_DONE, args, 6);
	/* §7.14: "Once a command is completed, the ownership bit of the command is updated and
	 * the event is generated" (command completion EQE, §7.13.10.1, when an EQ takes it). */
	eq_cmd_completion(dev, slot);
	if (!ran || status != NICREF_STATUS_OK || !dev->hca.slots_waiting)
		return;
	/* Only a MANAGE_PAGES that completed with status OK answers the request (§12.3.2): one
	 * refused at delivery never reached the device's page logic, and one refused by its own
	 * rules (BAD_PARAM, BAD_SYS_STATE, a length status) moved no page and re-armed nothing. */
	if (opcode == NICREF_OP_MANAGE_PAGES)
		run_waiting(dev, op_mod == MP_ALLOCATION_FAIL);
	/* §12.3.7: a graceful TEARDOWN_HCA "releases all HCA allocated resources" and "will stop
	 * further execution of descriptors": the request for pages goes with them, and the
	 * commands waiting on it complete now, as after ALLOCATION_FAIL, run again in the
	 * TORN_DOWN state, which refuses them (BAD_SYS_STATE, D-INIT-2). Waiting on would hold
	 * their slots into the next ENABLE_HCA (D-PG-6). A panic close drops them
	 * (cmd/cmd_hca.c). */
	else if (opcode == NICREF_OP_TEARDOWN_HCA)
		run_waiting(dev, true);
}

void cmdq_doorbell(struct nicref_dev *dev, uint32_t vector)
{
	unsigned entries = 1u << dev->core.cfg.profile.log_cmdq_size;
	uint32_t valid = entries >= 32 ? 0xFFFFFFFFu : (1u << entries) - 1u;

	/* PRM §12.3.7: after a panic close "DoorBells will still be consumed by the HCA, and
	 * they will be silently dropped"; the device no longer masters the bus. */
	if (dev->hca.state == HCA_PANIC)
		return;
	/* PRM §9.2.2: after a fatal error "HCA will halt execution ... no new operation will
	 * start and the HCA will halt awaiting for hardware reset" (§7.13.9.1 "hardware reset
	 * should be performed"). D-H-2: the doorbell is consumed and nothing is executed; the
	 * entries stay owned by the device (ownership 1) until the reset. */
	if (dev->core.halted)
		return;

	/* T8 18h: "The valid bits in this vector are [number of commands-1..0]". */
	if (vector & ~valid)
		dev_violation(dev, NICREF_VIO_DB_BIT_OUT_OF_RANGE, vector & ~valid);
	vector &= valid;
	/* §7.14.1: one write may ring several entries; they run lowest first (D-CMD-13). The
	 * loop ends after the highest bit rung (slot 0 alone: one step, not 32). */
	for (unsigned slot = 0; vector; slot++, vector >>= 1) {
		if (!(vector & 1u))
			continue;
		/* T8 18h: a doorbell hands an entry to HW; one HW still holds (its command waits
		 * for pages, D-PG-6) is not a new command: reported and ignored. */
		if (dev->hca.slots_waiting & 1u << slot)
			dev_violation(dev, NICREF_VIO_DB_SLOT_BUSY, slot);
		else
			execute_slot(dev, slot);
	}
}
