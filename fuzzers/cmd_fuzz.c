/* Target: cmd, one command's input bytes, posted by a correct driver after a correct bring-up.
 *
 * Input: output_length:u16 (big-endian, clamped to [8, 16 + 4 * 512]), then the command input
 * bytes (opcode at 0-1, op_mod at 6-7, PRM §7.14.1.2 T99/T100); input_length is their number,
 * at least 8 (shorter inputs are padded with zeros). The token is the last input byte.
 *
 * Target functions: command dispatch (PRM §12.1 T127, §12.2 T128) and the command handlers,
 * through the command queue transport (§7.14.1) with mailbox chains of any length.
 *
 * Properties. The harness (harness/cmdbuild.c) builds the entry and both chains exactly as
 * §7.14.1 asks, so anything but a clean delivery is a model bug: no driver violation at all,
 * ownership back to SW, delivery status 0, the entry and every output block correctly signed
 * (the default profile generates signatures, PRM T145 cmdif_checksum = 3), the fields the
 * driver owns left as written, a T128 status, and for a refused command no output beyond the
 * 8-byte header (decision D-CMD-6). The trace must say what host memory says. */
#include <string.h>

#include "cmdbuild.h"
#include "fuzz_oracle.h"
#include "fuzz_target.h"

#define ISEG_CMDQ_ADDR_H 0x0010u
#define ISEG_CMDQ_ADDR_L 0x0014u
#define ISEG_CMDQ_DB 0x0018u
#define ISEG_INITIALIZING 0x01FCu

/* Host memory plan: the queue (4 KiB aligned, PRM T8), then the chains, blocks 1 KiB apart. */
#define CMDQ_ADDR 0x10000ull
#define IN_MBOX 0x100000ull  /* room for IN_MAX's 1024 blocks before OUT_MBOX */
#define OUT_MBOX 0x1000000ull

#define OUT_MAX (CMD_INLINE + 4u * CMD_MBOX_DATA)
/* Past the device's chain limit (512 blocks, D-CMD-10), so the length refusal stays reachable
 * by a long input while the work per input stays bounded. */
#define IN_MAX (CMD_INLINE + 1024u * CMD_MBOX_DATA)

/* PRM §8.2 leaves the initialization time open; the default profile is ready at once. A poll
 * every microsecond for a millisecond of virtual time is a generous bound. */
#define POLL_STEP_NS 1000u
#define POLL_MAX 1000u

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static uint8_t posted_entry[64]; /* the entry as the harness wrote it */
static uint8_t out[OUT_MAX];

static int host_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	if (addr == CMDQ_ADDR && len == sizeof posted_entry)
		memcpy(posted_entry, buf, len);
	return nicref_hostmem_write(ctx, addr, buf, len);
}

static int host_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nicref_hostmem_read(ctx, addr, buf, len);
}

static int cmd_init(void)
{
	dev = fuzz_oracle_device(&oracle);
	return dev ? 0 : -1;
}

/* PRM §8.2: write the queue address, most significant word first, with nic_interface 0 (full
 * driver) and log_cmdq_size/log_cmdq_stride written as zero; then poll initializing. */
static void bring_up(void)
{
	nicref_bar_write32(dev, ISEG_CMDQ_ADDR_H, (uint32_t)(CMDQ_ADDR >> 32));
	nicref_bar_write32(dev, ISEG_CMDQ_ADDR_L, (uint32_t)CMDQ_ADDR);
	for (unsigned polls = 0; nicref_bar_read32(dev, ISEG_INITIALIZING) >> 31; polls++) {
		NICREF_FUZZ_CHECK(polls < POLL_MAX);
		nicref_clock_advance(dev, POLL_STEP_NS);
	}
	/* PRM T8 14h: the device reports its queue geometry; slot 0 must be at the base. */
	uint32_t lsw = nicref_bar_read32(dev, ISEG_CMDQ_ADDR_L);
	NICREF_FUZZ_CHECK((lsw & 0xFFFFF000u) == (uint32_t)CMDQ_ADDR);
	NICREF_FUZZ_CHECK(((lsw >> 4) & 0xFu) <= 5 && (lsw & 0xFu) >= 6);
	NICREF_FUZZ_CHECK(oracle.ready && oracle.violations == 0);
	fuzz_oracle_check_dev(&oracle);
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* T97/T98: the device writes back the control part of each output block it was given
 * (next_pointer, block_number, token) and signs it; nothing else of it changes. */
static void check_out_blocks(const struct cmd_post *p)
{
	uint32_t blocks = cmd_blocks_for(p->output_length);
	uint8_t b[CMD_MBOX_SIZE];

	for (uint32_t k = 0; k < blocks; k++) {
		uint64_t at = p->out_mbox + (uint64_t)k * CMD_MBOX_STRIDE;
		uint64_t next = k + 1 < blocks ? at + CMD_MBOX_STRIDE : 0;
		NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, at, b, sizeof b) == 0);
		for (unsigned i = 0x200; i < 0x230; i++)
			NICREF_FUZZ_CHECK(b[i] == 0);
		for (unsigned i = 0; i < 8; i++)
			NICREF_FUZZ_CHECK(b[0x230 + i] == (uint8_t)(next >> (56 - 8 * i)));
		for (unsigned i = 0; i < 4; i++)
			NICREF_FUZZ_CHECK(b[0x238 + i] == (uint8_t)(k >> (24 - 8 * i)));
		NICREF_FUZZ_CHECK(b[0x23C] == 0 && b[0x23D] == p->token);
	}
}

static void cmd_one_input(const uint8_t *data, size_t len)
{
	static const uint8_t zeros[8];
	struct cmd_result r;

	nicref_dev_reset(dev);
	nicref_hostmem_clear(dev);
	fuzz_oracle_reset(&oracle);
	bring_up();

	uint32_t output_length = len >= 2 ? be16(data) : 0;
	if (output_length < 8)
		output_length = 8;
	if (output_length > OUT_MAX)
		output_length = OUT_MAX;
	const uint8_t *in = len > 2 ? data + 2 : zeros;
	size_t in_len = len > 2 ? len - 2 : 0;
	if (in_len > IN_MAX)
		in_len = IN_MAX;
	if (in_len < 8) {
		/* Padded: input_length is at least 8 (T96), and the harness reads in_len bytes. */
		static uint8_t padded[8];
		memset(padded, 0, sizeof padded);
		memcpy(padded, in, in_len);
		in = padded;
		in_len = sizeof padded;
	}
	struct cmd_post p = {
		.entry_addr = CMDQ_ADDR, /* slot 0 */
		.in = in,
		.in_len = in_len,
		.input_length = (uint32_t)in_len,
		.output_length = output_length,
		.in_mbox = IN_MBOX,
		.out_mbox = OUT_MBOX,
		.token = len > 0 ? data[len - 1] : 0,
		.sign = true,
	};
	memset(posted_entry, 0, sizeof posted_entry);
	NICREF_FUZZ_CHECK(cmd_post_write(&p, host_write, dev) == 0);
	nicref_bar_write32(dev, ISEG_CMDQ_DB, 1u);
	fuzz_oracle_check_dev(&oracle);
	NICREF_FUZZ_CHECK(cmd_result_read(&p, host_read, dev, out, sizeof out, &r) == 0);

	/* A correct driver breaks no rule, and its command is delivered and completed once. */
	NICREF_FUZZ_CHECK(oracle.violations == 0 && oracle.cmd_done == 1);
	NICREF_FUZZ_CHECK(r.ownership == 0);
	NICREF_FUZZ_CHECK(r.delivery == 0);
	NICREF_FUZZ_CHECK(r.entry_sig_ok && r.out_sigs_ok);
	NICREF_FUZZ_CHECK(nicref_cmd_status_name(r.status) != NULL);
	/* D-CMD-6: a refused command leaves only status and syndrome. */
	if (r.status != 0)
		for (size_t i = 8; i < r.out_len; i++)
			NICREF_FUZZ_CHECK(out[i] == 0);

	/* T95: the device writes output, signature, status and ownership; the rest is SW's. */
	NICREF_FUZZ_CHECK(memcmp(r.entry, posted_entry, 0x20) == 0);
	NICREF_FUZZ_CHECK(memcmp(r.entry + 0x30, posted_entry + 0x30, 0x0D) == 0);
	NICREF_FUZZ_CHECK(r.entry[0x3E] == 0);
	check_out_blocks(&p);

	/* The trace says what host memory says. */
	const struct nicref_event *ev = &oracle.last_done;
	NICREF_FUZZ_CHECK(ev->kind == NICREF_EV_CMD_DONE && ev->arg[0] == 0);
	NICREF_FUZZ_CHECK(ev->arg[1] == be16(in) && ev->arg[2] == be16(in + 6));
	NICREF_FUZZ_CHECK(ev->arg[3] == r.delivery && ev->arg[4] == r.status &&
			  ev->arg[5] == r.syndrome);
}

NICREF_FUZZ_TARGET(cmd_init, cmd_one_input)
