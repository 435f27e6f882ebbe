/* Target: cmd, one command's input bytes, posted by a correct driver on a device the reference
 * driver (harness/driver.c) brought up to a stage.
 *
 * Input: stage_and_output_length:u16 (big-endian), then the command input bytes (opcode at 0-1,
 * op_mod at 6-7, PRM §7.14.1.2 T99/T100); input_length is their number, at least 8 (shorter
 * inputs are padded with zeros). The token is the last input byte.
 *   bits 11:0   output_length, clamped to [8, 16 + 4 * 512]
 *   bits 15:12  the device state the command meets (PRM §8.2-§8.3, D-INIT-2), fixed numbers:
 *     0         automatic: where a driver sends this opcode in the §8.2 sequence (ENABLE_HCA
 *               after the queue; QUERY_ISSI/SET_ISSI after ENABLE_HCA; QUERY/MANAGE_PAGES
 *               after the ISSI; QUERY/SET_HCA_CAP after the boot pages; INIT_HCA after the
 *               init pages; DISABLE_HCA after TEARDOWN_HCA and the page reclaim; everything
 *               else on an initialized device). Every older input (high nibble 0) keeps its
 *               meaning and reaches its handler.
 *     1-7       the reference driver's stages queue, enabled, issi, boot_pages, caps,
 *               init_pages, initialized
 *     8         initialized, then TEARDOWN_HCA graceful: torn down, pages still held
 *     9         as 8, then every page reclaimed (MANAGE_PAGES return)
 *     10        initialized, then the reference driver's §8.3 teardown: disabled again
 *     11        initialized, then TEARDOWN_HCA panic: the command must be dropped unseen
 *     12-15     reserved: the input is ignored (nothing runs), so a stage added later at one of
 *               these numbers changes no input a corpus keeps (until this version they were
 *               automatic, as 0; no committed input used them)
 * A stage the model cannot reach yet (a handler of the sequence still answers BAD_OP as not
 * modelled: QUERY_HCA_CAP before cmd/cmd_caps.c) stops the bring-up where it is, and the
 * command runs there; any other bring-up failure is a finding.
 *
 * Target functions: command dispatch (PRM §12.1 T127, §12.2 T128), the lifecycle gate of each
 * command (D-INIT-2) and the command handlers, through the command queue transport (§7.14.1)
 * with mailbox chains of any length.
 *
 * Properties. The bring-up is the reference driver's, which must never break a rule: no
 * violation at all while it runs. The fuzzed command's entry and chains come from
 * harness/cmdbuild.c exactly as §7.14.1 asks, so its transport must stay clean: no transport
 * violation (fuzz_oracle_transport_violation: init segment, doorbell, entry, mailboxes), ownership
 * back to SW, delivery status 0, the entry and every output block correctly signed (the
 * default profile generates signatures, PRM T145 cmdif_checksum = 3), the fields the driver owns
 * left as written, a T128 status, and for a refused command no output beyond the 8-byte header
 * (decision D-CMD-6); a SET_HCA_CAP that turns cmdif_checksum off is not signed. Its content may break the content rules (reserved input bits, ISSI not
 * set, SET_HCA_CAP after the init pages, pages not reclaimed, a malformed driver version): the
 * command is free to be wrong, the transport is not. The trace must say what host memory says.
 * After a panic close (stage 11) the doorbell is dropped (D-INIT-8): no event, ownership stays
 * with the device. */
#include <string.h>

#include "cmdbuild.h"
#include "driver.h"
#include "fuzz_oracle.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"

#define ISEG_CMDQ_ADDR_L 0x0014u
#define ISEG_CMDQ_DB 0x0018u
#define ISEG_INITIALIZING 0x01FCu

/* Host memory plan: the queue (4 KiB aligned, PRM T8; the reference driver's default, whose
 * slot 0 the fuzzed command reuses), then the chains, blocks 1 KiB apart. The reference driver
 * keeps its own mailboxes at 0x20000000 and names pages from 0x10000000. */
#define CMDQ_ADDR 0x10000ull
#define IN_MBOX 0x100000ull  /* room for IN_MAX's 1024 blocks before OUT_MBOX */
#define OUT_MBOX 0x1000000ull

/* SET_HCA_CAP input: capability at 10h (T154), cmdif_checksum at its 40h[15:14] (T145). */
#define CAP_CMDIF_BYTE (0x10u + 0x40u + 2u)

#define OUT_MAX (CMD_INLINE + 4u * CMD_MBOX_DATA)
/* Past the device's chain limit (512 blocks, D-CMD-10), so the length refusal stays reachable
 * by a long input while the work per input stays bounded. */
#define IN_MAX (CMD_INLINE + 1024u * CMD_MBOX_DATA)

/* Stages past the reference driver's own (see the input format). */
enum {
	STAGE_AUTO = -1,
	STAGE_TORN_DOWN = REFDRV_INITIALIZED + 1,
	STAGE_RECLAIMED,
	STAGE_DISABLED_AGAIN,
	STAGE_PANIC,
};

/* The stage selector, bits 15:12 of the first u16: fixed numbers (whatever stages the reference
 * driver gains); STAGE_SELECTORS..15 are reserved. */
static const int stage_of[] = {
	STAGE_AUTO,	 REFDRV_QUEUE,	     REFDRV_ENABLED,  REFDRV_ISSI,
	REFDRV_BOOT_PAGES, REFDRV_CAPS,	     REFDRV_INIT_PAGES, REFDRV_INITIALIZED,
	STAGE_TORN_DOWN, STAGE_RECLAIMED, STAGE_DISABLED_AGAIN, STAGE_PANIC,
};
#define STAGE_SELECTORS (sizeof stage_of / sizeof stage_of[0])

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static uint8_t posted_entry[64]; /* the entry as the harness wrote it */
static uint8_t out[OUT_MAX];
/* The device at each stage once built (fuzz_snap.h), and the stage the bring-up reached. */
static struct fuzz_snap stage_snap[STAGE_PANIC + 1];
static int stage_reached[STAGE_PANIC + 1];

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

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Where a driver sends the opcode in the §8.2 sequence (the automatic stage). */
static int natural_stage(unsigned opcode)
{
	switch (opcode) {
	case NICREF_OP_ENABLE_HCA:
		return REFDRV_QUEUE;
	case NICREF_OP_QUERY_ISSI:
	case NICREF_OP_SET_ISSI:
		return REFDRV_ENABLED;
	case NICREF_OP_QUERY_PAGES:
	case NICREF_OP_MANAGE_PAGES:
		return REFDRV_ISSI;
	case NICREF_OP_QUERY_HCA_CAP:
	case NICREF_OP_SET_HCA_CAP:
		return REFDRV_BOOT_PAGES;
	case NICREF_OP_INIT_HCA:
		return REFDRV_INIT_PAGES;
	case NICREF_OP_DISABLE_HCA:
		return STAGE_RECLAIMED;
	default:
		return REFDRV_INITIALIZED;
	}
}

/* A command of the bring-up sequence the reference driver sends itself (16-byte input with
 * opcode and op_mod, one 32-bit field at 08h or 0Ch); it must succeed. */
static void drv_cmd(unsigned opcode, unsigned op_mod, unsigned at, uint32_t v, uint32_t out_len)
{
	uint8_t in[16] = { (uint8_t)(opcode >> 8), (uint8_t)opcode };
	in[6] = (uint8_t)(op_mod >> 8);
	in[7] = (uint8_t)op_mod;
	for (unsigned i = 0; i < 4; i++)
		in[at + i] = (uint8_t)(v >> (24 - 8 * i));
	NICREF_FUZZ_CHECK(refdrv_cmd(&drv, in, sizeof in, out, out_len) == 0);
}

/* Brings the device to `stage` with the reference driver. Returns the stage reached: short of
 * `stage` only when a command of the sequence is not modelled yet. */
static int bring_up(int stage)
{
	struct refdrv_ops ops = refdrv_ops_model(dev);
	NICREF_FUZZ_CHECK(refdrv_init(&drv, &ops) == 0);
	drv.cmdq_addr = CMDQ_ADDR;
	int drv_stage = stage > REFDRV_INITIALIZED ? REFDRV_INITIALIZED : stage;
	if (refdrv_bring_up(&drv, (enum refdrv_stage)drv_stage) != 0) {
		/* Only a handler that is not modelled yet may stop a correct driver. */
		NICREF_FUZZ_CHECK(drv.reached >= REFDRV_QUEUE && drv.last_delivery == 0 &&
				  oracle.last_rule == NICREF_RULE_UNMODELLED_OPCODE);
		return drv.reached;
	}
	/* PRM T8 14h: the device reports its queue geometry; slot 0 must be at the base. */
	uint32_t lsw = nicref_bar_read32(dev, ISEG_CMDQ_ADDR_L);
	NICREF_FUZZ_CHECK((lsw & 0xFFFFF000u) == (uint32_t)CMDQ_ADDR);
	NICREF_FUZZ_CHECK(((lsw >> 4) & 0xFu) <= 5 && (lsw & 0xFu) >= 6);
	NICREF_FUZZ_CHECK(oracle.ready && !(nicref_bar_read32(dev, ISEG_INITIALIZING) >> 31));
	switch (stage) {
	case STAGE_TORN_DOWN:
	case STAGE_RECLAIMED:
		drv_cmd(NICREF_OP_TEARDOWN_HCA, 0, 8, 0, 16); /* T170 profile 0: graceful */
		if (stage == STAGE_RECLAIMED) /* T134: op_mod 2 HCA_RETURN_PAGES, every page */
			drv_cmd(NICREF_OP_MANAGE_PAGES, 2, 12, drv.npages, 16 + 8 * drv.npages);
		break;
	case STAGE_DISABLED_AGAIN:
		NICREF_FUZZ_CHECK(refdrv_teardown(&drv) == 0);
		break;
	case STAGE_PANIC:
		drv_cmd(NICREF_OP_TEARDOWN_HCA, 0, 8, 1, 16); /* T170 profile 1: panic */
		break;
	}
	return stage;
}

/* Whether n bytes are all zero, eight at a step (this target's own code is traced: a loop per
 * byte paid a comparison hook per byte of every output). */
static bool all_zero(const uint8_t *p, size_t n)
{
	uint64_t w = 0, x;
	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&x, p, sizeof x);
		w |= x;
	}
	while (n--)
		w |= *p++;
	return w == 0;
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
		/* 200h-22Fh reserved, zero */
		NICREF_FUZZ_CHECK(all_zero(b + 0x200, 0x30));
		/* 230h next_pointer, 238h block_number, 23Ch reserved, 23Dh token */
		uint8_t want[14] = { 0 };
		for (unsigned i = 0; i < 8; i++)
			want[i] = (uint8_t)(next >> (56 - 8 * i));
		for (unsigned i = 0; i < 4; i++)
			want[8 + i] = (uint8_t)(k >> (24 - 8 * i));
		want[13] = p->token;
		NICREF_FUZZ_CHECK(memcmp(b + 0x230, want, sizeof want) == 0);
	}
}

/* The stage whose snapshot the device is at: rewound at the end of the last input (-1: none). */
static int at_stage = -1;

/* One input; the stage whose snapshot it ran on, or -1 when nothing ran. */
static int cmd_input(const uint8_t *data, size_t len)
{
	static const uint8_t zeros[8];
	struct cmd_result r;

	fuzz_trace("input");
	uint32_t head = len >= 2 ? be16(data) : 0;
	unsigned sel = head >> 12;
	if (sel >= STAGE_SELECTORS) /* reserved */
		return -1;
	uint32_t output_length = head & 0xFFFu;
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

	int stage = stage_of[sel];
	fuzz_trace("stage %u, opcode 0x%x, input %zu bytes, output %u", sel, be16(in), in_len,
		   output_length);
	if (stage == STAGE_AUTO)
		stage = natural_stage(be16(in));
	int reached = stage_reached[stage];
	bool there = at_stage == stage;
	at_stage = -1;
	if (!there && !fuzz_snap_restore(&stage_snap[stage], dev, &oracle)) {
		nicref_dev_reset(dev);
		nicref_hostmem_clear(dev);
		fuzz_oracle_reset(&oracle);
		reached = stage_reached[stage] = bring_up(stage);
		refdrv_fini(&drv);
		/* The reference driver breaks no rule, of the transport or of content. */
		NICREF_FUZZ_CHECK(oracle.violations == 0);
		fuzz_oracle_check_dev(&oracle);
		fuzz_snap_take(&stage_snap[stage], dev, &oracle);
	}
	fuzz_trace("configured"); /* what follows is the same with and without a snapshot */
	struct nicref_hca_info info;
	nicref_hca_info(dev, &info);
	bool panic = reached == STAGE_PANIC;
	NICREF_FUZZ_CHECK((info.state == NICREF_HCA_PANIC) == panic);
	uint64_t done_before = oracle.cmd_done, events_before = oracle.events;

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
	NICREF_FUZZ_CHECK(oracle.transport_violations == 0);

	if (panic) {
		/* D-INIT-8: dropped without a trace; the entry stays as posted, owned by HW. */
		NICREF_FUZZ_CHECK(oracle.events == events_before && r.ownership == 1);
		NICREF_FUZZ_CHECK(memcmp(r.entry, posted_entry, sizeof posted_entry) == 0);
		return stage;
	}

	/* The command is delivered and completed once. */
	NICREF_FUZZ_CHECK(oracle.cmd_done == done_before + 1);
	NICREF_FUZZ_CHECK(r.ownership == 0);
	NICREF_FUZZ_CHECK(r.delivery == 0);
	/* T145 40h[15:14] cmdif_checksum: 0 stops the signatures, and SET_HCA_CAP's own
	 * completion already follows the value it sets (cmd/cmd_caps.c). */
	bool unsigned_now = be16(in) == NICREF_OP_SET_HCA_CAP && r.status == 0 &&
			    (be16(in + 6) >> 1) == 0 && in_len > CAP_CMDIF_BYTE &&
			    (in[CAP_CMDIF_BYTE] >> 6) == 0;
	NICREF_FUZZ_CHECK(unsigned_now || (r.entry_sig_ok && r.out_sigs_ok));
	NICREF_FUZZ_CHECK(nicref_cmd_status_name(r.status) != NULL);
	/* D-CMD-6: a refused command leaves only status and syndrome. */
	if (r.status != 0)
		NICREF_FUZZ_CHECK(r.out_len <= 8 || all_zero(out + 8, r.out_len - 8));

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
	return stage;
}

static void cmd_one_input(const uint8_t *data, size_t len)
{
	int stage = cmd_input(data, len);
	/* Rewound now rather than when the next input starts: what the command allocated (an
	 * object it created) is freed within the input, so libFuzzer sees as many frees as
	 * mallocs and does not run the input a second time to look for a leak (-detect_leaks).
	 * An input of another stage restores that stage's snapshot over this one. */
	if (stage >= 0 && fuzz_snap_restore(&stage_snap[stage], dev, &oracle))
		at_stage = stage;
}

NICREF_FUZZ_TARGET(cmd_init, cmd_one_input)
