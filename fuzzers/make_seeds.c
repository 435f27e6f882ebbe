/* Writes the hand-made seed corpora and the dictionaries of the fuzz targets:
 *
 *   make -f fuzzers/fuzz.mk seeds      (runs: make_seeds corpora fuzzers)
 *
 * corpora/cmdq/seed-*   operation streams (harness/opstream.h): bring-up and commands as a
 *                       driver posts them, and the driver mistakes the model must survive;
 * corpora/cmd/seed-*    inputs of the cmd target: stage:4 output_length:12, then command input
 *                       bytes; one per opcode of PRM T127, sized from the command's layouts, in
 *                       the automatic stage, and a few in chosen stages;
 * corpora/bringup/seed-*  op lists of the bringup target (fuzzers/bringup_ops.h): the §8.2
 *                       sequence by hand and by the reference driver, objects, teardown and
 *                       reclaim, panic, the driver mistakes, capabilities, registers, pages;
 * corpora/tx/seed-*     op lists of the tx target (fuzzers/tx_ops.h): SEND and LSO of every
 *                       header template, inline and pointer data, Blue Flame, NOPs, UMR, the
 *                       ring's wrap, errors and the flush, recovery, MTU drops, the vport down;
 * fuzzers/cmdq.dict, fuzzers/cmd.dict, fuzzers/bringup.dict, fuzzers/tx.dict   tokens,
 *                       generated from the same tables as the model and the targets (T127
 *                       opcodes, T8 offsets, op bytes, T26 opcodes), so they cannot drift
 *                       from them;
 * corpora/cmdq_strict/seed-*, fuzzers/cmdq_strict.dict   cmdq's, for its twin cmdq_strict.
 *
 * Rerunnable: it rewrites only files named seed-* and the three dictionaries. Names other than
 * seed-* in corpora/ belong to other exporters (the golden-vector runner). Each cmdq seed is
 * also run once on a device here, and its expected outcome checked, so a seed that stopped
 * meaning what its name says fails the build. The cmd and bringup seeds are property-checked
 * by `make -f fuzzers/fuzz.mk replay-corpus`, which runs them through their targets. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bringup_ops.h"
#include "cmdbuild.h"
#include "driver.h"
#include "driver_sq.h"
#include "nicref/nicref.h"
#include "nicref/rules_tx.h"
#include "make_seeds.h"
#include "opstream.h"
#include "tx_ops.h"

#define CMDQ_ADDR 0x10000u
#define IN_MBOX 0x20000u
#define OUT_MBOX 0x40000u
#define CMD_OUT_MAX (CMD_INLINE + 4u * CMD_MBOX_DATA) /* cmd_fuzz.c's output clamp */

const char *seeds_corpora_dir;
static const char *fuzzers_dir;
static int failures;

void seeds_write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[1024];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
		fprintf(stderr, "make_seeds: path too long: %s/%s\n", dir, name);
		exit(1);
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "make_seeds: cannot write %s\n", path);
		exit(1);
	}
}

/* ---- cmdq: operation streams ---------------------------------------------------------- */

static int ops_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	opstream_mem_write(ctx, addr, buf, len);
	return 0;
}

/* PRM §8.2: address MSW then LSW (nic_interface 0, log fields 0), poll initializing. */
static void bring_up(struct opstream *s)
{
	opstream_bar_write(s, 0x10, 0);
	opstream_bar_write(s, 0x14, CMDQ_ADDR);
	opstream_bar_read(s, 0x1FC);
	opstream_advance(s, 1000);
	opstream_bar_read(s, 0x1FC);
}

static void post(struct opstream *s, unsigned slot, const uint8_t *in, size_t in_len,
		 uint32_t output_length, uint8_t token, bool sign)
{
	struct cmd_post p = {
		.entry_addr = CMDQ_ADDR + 64u * slot,
		.in = in,
		.in_len = in_len,
		.input_length = (uint32_t)in_len,
		.output_length = output_length,
		.in_mbox = IN_MBOX + 0x4000u * slot,
		.out_mbox = OUT_MBOX + 0x4000u * slot,
		.token = token,
		.sign = sign,
	};
	if (cmd_post_write(&p, ops_write, s) != 0) {
		fprintf(stderr, "make_seeds: cmd_post_write failed\n");
		exit(1);
	}
}

static void cmd_header(uint8_t *in, size_t len, unsigned opcode, unsigned op_mod)
{
	memset(in, 0, len);
	in[0] = (uint8_t)(opcode >> 8);
	in[1] = (uint8_t)opcode;
	in[6] = (uint8_t)(op_mod >> 8);
	in[7] = (uint8_t)op_mod;
}

/* What a seed must produce when run: cmd_done events by delivery and status, violations. */
struct outcome {
	unsigned done, done_ok, delivery_err, status_err, violations, ready;
};

static void count_event(void *ctx, const struct nicref_event *ev)
{
	struct outcome *o = ctx;
	switch (ev->kind) {
	case NICREF_EV_CMD_DONE:
		o->done++;
		if (ev->arg[3] != 0)
			o->delivery_err++;
		else if (ev->arg[4] != 0)
			o->status_err++;
		else
			o->done_ok++;
		break;
	case NICREF_EV_VIOLATION:
		o->violations++;
		break;
	case NICREF_EV_READY:
		o->ready++;
		break;
	default:
		break;
	}
}

static void cmdq_seed(const char *name, struct opstream *s, struct outcome want)
{
	struct outcome got = { 0 };
	struct nicref_config cfg;

	if (s->failed) {
		fprintf(stderr, "make_seeds: out of memory building %s\n", name);
		exit(1);
	}
	nicref_config_default(&cfg);
	/* The outcomes are those of a device that checks signatures (cmdq_strict's profile; the
	 * default only generates them, D-CMD-5): seed-delivery-errors' unsigned entry is refused. */
	cfg.profile.cmdif_checksum = 3;
	cfg.trace = count_event;
	cfg.trace_ctx = &got;
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	if (!dev) {
		fprintf(stderr, "make_seeds: nicref_dev_create failed\n");
		exit(1);
	}
	(void)opstream_run(dev, s->buf, s->len, NULL, NULL);
	nicref_dev_destroy(dev);
	if (memcmp(&got, &want, sizeof got) != 0) {
		fprintf(stderr,
			"make_seeds: %s: got done=%u ok=%u delivery_err=%u status_err=%u "
			"violations=%u ready=%u, want %u/%u/%u/%u/%u/%u\n",
			name, got.done, got.done_ok, got.delivery_err, got.status_err,
			got.violations, got.ready, want.done, want.done_ok, want.delivery_err,
			want.status_err, want.violations, want.ready);
		failures++;
	}
	char dir[512];
	snprintf(dir, sizeof dir, "%s/cmdq", seeds_corpora_dir);
	seeds_write_file(dir, name, s->buf, s->len);
	/* cmdq_strict, the twin that checks the signatures, starts from the same signed seeds. */
	snprintf(dir, sizeof dir, "%s/cmdq_strict", seeds_corpora_dir);
	seeds_write_file(dir, name, s->buf, s->len);
	opstream_free(s);
	opstream_init(s);
}

static void cmdq_seeds(void)
{
	struct opstream s;
	uint8_t in[16 + 2 * CMD_MBOX_DATA];
	opstream_init(&s);

	/* The driver's first command: bring-up, a signed NOP in slot 0, doorbell bit 0. */
	bring_up(&s);
	cmd_header(in, 16, NICREF_OP_NOP, 0);
	post(&s, 0, in, 16, 16, 0, true);
	opstream_bar_write(&s, 0x18, 1);
	cmdq_seed("seed-bringup-nop", &s, (struct outcome){ 1, 1, 0, 0, 0, 1 });

	/* A NOP whose input and output spill into mailbox chains (2 input, 1 output block). */
	bring_up(&s);
	cmd_header(in, sizeof in, NICREF_OP_NOP, 0);
	post(&s, 0, in, sizeof in, 16 + CMD_MBOX_DATA, 0x5A, true);
	opstream_bar_write(&s, 0x18, 1);
	cmdq_seed("seed-nop-mailboxes", &s, (struct outcome){ 1, 1, 0, 0, 0, 1 });

	/* Two slots rung by one doorbell: a NOP, then a T127 command not modelled yet. */
	bring_up(&s);
	cmd_header(in, 16, NICREF_OP_NOP, 0);
	post(&s, 0, in, 16, 16, 1, true);
	cmd_header(in, 16, NICREF_OP_QUERY_HCA_CAP, 1);
	post(&s, 1, in, 16, 16 + 8 * CMD_MBOX_DATA, 2, true);
	opstream_bar_write(&s, 0x18, 3);
	cmdq_seed("seed-two-slots", &s, (struct outcome){ 2, 1, 0, 1, 0, 1 });

	/* Refusals: op_mod not described (BAD_OP), then an opcode outside T127. */
	bring_up(&s);
	cmd_header(in, 16, NICREF_OP_NOP, 1);
	post(&s, 0, in, 16, 16, 0, true);
	opstream_bar_write(&s, 0x18, 1);
	cmd_header(in, 16, 0x0FFF, 0);
	post(&s, 0, in, 16, 16, 0, true);
	opstream_bar_write(&s, 0x18, 1);
	cmdq_seed("seed-refused", &s, (struct outcome){ 2, 0, 0, 2, 0, 1 });

	/* Delivery errors: an unsigned entry, then a good entry rung again after completion
	 * (ownership 0: a violation, no completion). */
	bring_up(&s);
	cmd_header(in, 16, NICREF_OP_NOP, 0);
	post(&s, 0, in, 16, 16, 0, false);
	opstream_bar_write(&s, 0x18, 1);
	post(&s, 0, in, 16, 16, 0, true);
	opstream_bar_write(&s, 0x18, 1);
	opstream_bar_write(&s, 0x18, 1);
	cmdq_seed("seed-delivery-errors", &s, (struct outcome){ 2, 1, 1, 0, 2, 1 });

	/* Driver mistakes around bring-up (PRM §8.2, T8), one violation each except the LSW
	 * write (two): doorbell with no queue, address LSW first with the log fields set, an
	 * unaligned read, a read-only write, reserved bits of clear_int, a reserved dword. */
	opstream_bar_write(&s, 0x18, 1);
	opstream_bar_write(&s, 0x14, CMDQ_ADDR | 0x56);
	opstream_bar_read(&s, 0x1FE);
	opstream_bar_write(&s, 0x1FC, 0);
	opstream_bar_write(&s, 0x100C, 0x2);
	opstream_bar_write(&s, 0x20, 1);
	opstream_advance(&s, 10);
	opstream_bar_read(&s, 0x1FC);
	cmdq_seed("seed-bringup-mistakes", &s, (struct outcome){ 0, 0, 0, 0, 7, 1 });

	/* Time: the free-running timer and the health counter move only with ADVANCE. */
	bring_up(&s);
	opstream_bar_read(&s, 0x1000);
	opstream_bar_read(&s, 0x1004);
	opstream_advance(&s, 5000000);
	opstream_bar_read(&s, 0x1000);
	opstream_bar_read(&s, 0x1004);
	opstream_bar_read(&s, 0x1010);
	opstream_bar_write(&s, 0x100C, 1);
	opstream_advance(&s, 0xFFFFFFFFu);
	opstream_bar_read(&s, 0x1010);
	cmdq_seed("seed-time", &s, (struct outcome){ 0, 0, 0, 0, 0, 1 });

	opstream_free(&s);
}

/* ---- cmd: one command's input ---------------------------------------------------------- */

static uint32_t layout_size(const char *opname, const char *suffix, uint32_t dflt)
{
	char name[96];
	size_t n = 0;
	for (const char *p = opname; *p && n + 1 < sizeof name; p++)
		name[n++] = (char)tolower((unsigned char)*p);
	name[n] = '\0';
	strncat(name, suffix, sizeof name - n - 1);
	const struct nicref_layout *l = nicref_layout_find(name);
	return l && l->size >= 8 ? l->size : dflt;
}

static void cmd_seed(const char *name, uint32_t output_length, const uint8_t *in, size_t in_len)
{
	uint8_t buf[2 + 0x2000];
	char dir[512];
	if (in_len > sizeof buf - 2) {
		fprintf(stderr, "make_seeds: %s too long\n", name);
		exit(1);
	}
	buf[0] = (uint8_t)(output_length >> 8);
	buf[1] = (uint8_t)output_length;
	memcpy(buf + 2, in, in_len);
	snprintf(dir, sizeof dir, "%s/cmd", seeds_corpora_dir);
	seeds_write_file(dir, name, buf, 2 + in_len);
}

static void cmd_seeds(void)
{
	uint8_t in[0x2000];

	/* The NOP of PRM §12.18.1: 16 bytes in, 16 out. */
	cmd_header(in, 16, NICREF_OP_NOP, 0);
	cmd_seed("seed-nop", 16, in, 16);
	cmd_seed("seed-nop-output-short", 8, in, 16);
	cmd_seed("seed-nop-input-short", 16, in, 8);
	cmd_header(in, 16 + 600, NICREF_OP_NOP, 0);
	cmd_seed("seed-nop-mailboxes", CMD_OUT_MAX, in, 16 + 600);
	cmd_header(in, 16, NICREF_OP_NOP, 1);
	cmd_seed("seed-nop-op-mod", 16, in, 16);
	cmd_header(in, 16, 0x0000, 0);
	cmd_seed("seed-opcode-zero", 16, in, 16);

	/* Chosen stages (bits 15:12 of the first u16, see cmd_fuzz.c). */
	cmd_header(in, 16, NICREF_OP_QUERY_ISSI, 0);
	cmd_seed("seed-stage-queue-query-issi", 1u << 12 | 0x70, in, 16);
	cmd_header(in, 16, NICREF_OP_INIT_HCA, 0);
	cmd_seed("seed-stage-enabled-init-hca", 2u << 12 | 16, in, 16);
	cmd_header(in, 16, NICREF_OP_MANAGE_PAGES, 2);
	in[15] = 8; /* input_num_entries: every page back */
	cmd_seed("seed-stage-torn-down-return-pages", 8u << 12 | (16 + 8 * 8), in, 16);
	cmd_header(in, 16, NICREF_OP_DISABLE_HCA, 0);
	cmd_seed("seed-stage-reclaimed-disable-hca", 9u << 12 | 16, in, 16);
	cmd_header(in, 16, NICREF_OP_ENABLE_HCA, 0);
	cmd_seed("seed-stage-disabled-again-enable-hca", 10u << 12 | 16, in, 16);
	cmd_header(in, 16, NICREF_OP_NOP, 0);
	cmd_seed("seed-stage-panic-nop", 11u << 12 | 16, in, 16);
	cmd_header(in, 16, NICREF_OP_NOP, 0);
	in[3] = 0x01; /* T99 00h[15:0] reserved */
	cmd_seed("seed-reserved-bit-nop", 16, in, 16);

	/* One per opcode of T127, sized from its layouts when the model has them. */
	for (unsigned i = 0; i < nicref_opcode_count(); i++) {
		unsigned op = nicref_opcode_at(i);
		const char *opname = nicref_opcode_name(op);
		char name[128];
		uint32_t il = layout_size(opname, "_in", 16), ol = layout_size(opname, "_out", 16);
		if (il > sizeof in)
			il = sizeof in;
		if (ol > CMD_OUT_MAX)
			ol = CMD_OUT_MAX;
		cmd_header(in, il, op, 0);
		snprintf(name, sizeof name, "seed-op-%s", opname);
		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		cmd_seed(name, ol, in, il);
	}
}

/* ---- bringup: op lists (fuzzers/bringup_fuzz.c) ----------------------------------------- */

struct bu {
	uint8_t b[1024];
	size_t n;
};

static void bu_bytes(struct bu *s, const void *p, size_t n)
{
	if (s->n + n > sizeof s->b) {
		fprintf(stderr, "make_seeds: bringup seed too long\n");
		exit(1);
	}
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

/* An op byte and its operands, each operand one byte unless given as a string. */
static void bu(struct bu *s, unsigned op, int nargs, ...)
{
	va_list ap;
	uint8_t b = (uint8_t)op;
	bu_bytes(s, &b, 1);
	va_start(ap, nargs);
	for (int i = 0; i < nargs; i++) {
		b = (uint8_t)va_arg(ap, unsigned);
		bu_bytes(s, &b, 1);
	}
	va_end(ap);
}

/* A command op: sel picks the op_mod (bringup_ops.h), flags 0 (no reserved bit). */
#define BU_CMD(s, op, sel, ...) bu(s, op, 2 + BU_NARGS(__VA_ARGS__), sel, 0, ##__VA_ARGS__)
#define BU_NARGS(...) ((int)(sizeof((unsigned[]){ 0, ##__VA_ARGS__ }) / sizeof(unsigned)) - 1)

static void bu_seed(const char *name, struct bu *s)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/bringup", seeds_corpora_dir);
	seeds_write_file(dir, name, s->b, s->n);
	s->n = 0;
}

/* PRM §8.2 by hand: every start-up command in order, then INIT_HCA and what follows it. */
static void bu_full_bringup(struct bu *s)
{
	BU_CMD(s, BU_ENABLE_HCA, 0);
	BU_CMD(s, BU_QUERY_ISSI, 0);
	BU_CMD(s, BU_SET_ISSI, 0, 0x00); /* ISSI 1 */
	BU_CMD(s, BU_QUERY_PAGES, BU_PAGES_BOOT);
	BU_CMD(s, BU_MANAGE_PAGES, BU_MP_GIVE, 2, 0x00);
	BU_CMD(s, BU_QUERY_HCA_CAP, BU_CAP_GEN_MAX);
	BU_CMD(s, BU_QUERY_HCA_CAP, BU_CAP_GEN_CUR);
	BU_CMD(s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 0); /* the current values back */
	BU_CMD(s, BU_QUERY_PAGES, BU_PAGES_INIT);
	BU_CMD(s, BU_MANAGE_PAGES, BU_MP_GIVE, 6, 0x00);
	BU_CMD(s, BU_INIT_HCA, 0);
	BU_CMD(s, BU_SET_DRIVER_VERSION, 0, 0); /* "nicref,bringup,1.000.000000" */
	BU_CMD(s, BU_QUERY_ADAPTER, 0);
	BU_CMD(s, BU_QUERY_PAGES, BU_PAGES_REGULAR);
	BU_CMD(s, BU_NOP, 0);
}

static void bringup_seeds(void)
{
	struct bu s = { .n = 0 };

	bu_full_bringup(&s);
	bu_seed("seed-full-bringup", &s);

	/* The reference driver: up, down, up again; a partial bring-up aborted (DISABLE_HCA
	 * with the boot pages held: PAGES_NOT_RECLAIMED) and started afresh. */
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	BU_CMD(&s, BU_NOP, 0);
	bu(&s, BU_DRV_TEARDOWN, 0);
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	BU_CMD(&s, BU_ALLOC_PD, 0);
	bu(&s, BU_DRV_TEARDOWN, 0);
	bu(&s, BU_BRING_UP, 1, REFDRV_BOOT_PAGES);
	BU_CMD(&s, BU_DISABLE_HCA, 0);
	bu(&s, BU_BRING_UP, 1, REFDRV_CAPS);
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED); /* not DISABLED: nothing */
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_INIT);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 6, 0x00);
	BU_CMD(&s, BU_INIT_HCA, 0);
	bu(&s, BU_DRV_TEARDOWN, 0);
	bu_seed("seed-driver-cycle", &s);

	/* PD, UAR, TD: allocate, free a live one, free a dead one, reuse the lowest; interrupt
	 * moderation in and out of range. */
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	BU_CMD(&s, BU_ALLOC_PD, 0);
	BU_CMD(&s, BU_ALLOC_PD, 0);
	BU_CMD(&s, BU_ALLOC_PD, 0);
	BU_CMD(&s, BU_DEALLOC_PD, 0, 0x01);  /* live[1] */
	BU_CMD(&s, BU_DEALLOC_PD, 0, 0xC0);  /* the one just freed: BAD_RESOURCE */
	BU_CMD(&s, BU_ALLOC_PD, 0);          /* the lowest free again */
	BU_CMD(&s, BU_ALLOC_UAR, 0);
	BU_CMD(&s, BU_ALLOC_UAR, 0);
	BU_CMD(&s, BU_DEALLOC_UAR, 0, 0x00);
	BU_CMD(&s, BU_DEALLOC_UAR, 0, 0xE0); /* UAR 0: the init segment, never a UAR */
	BU_CMD(&s, BU_ALLOC_TD, 0);
	BU_CMD(&s, BU_DEALLOC_TD, 0, 0xFF, 0xFF, 0xFF, 0xFF); /* handle 0xFFFFFF */
	BU_CMD(&s, BU_DEALLOC_TD, 0, 0x00);
	BU_CMD(&s, BU_CONFIG_INT_MODERATION, BU_INTMOD_WRITE, 3, 0x01, 0x23);
	BU_CMD(&s, BU_CONFIG_INT_MODERATION, BU_INTMOD_READ, 3, 0x00, 0x00);
	BU_CMD(&s, BU_CONFIG_INT_MODERATION, BU_INTMOD_WRITE, 0xF0, 0x00, 0x40, 0x00, 0x01);
	BU_CMD(&s, BU_TEARDOWN_HCA, 0, 0x00); /* frees every object */
	BU_CMD(&s, BU_DEALLOC_PD, 0, 0xE1);
	bu_seed("seed-alloc-dealloc", &s);

	/* §8.3: extra pages, some back while initialized, teardown, every page back, disable. */
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 10, 0x00);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_RETURN, 4, 0x00);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 1, 0x80); /* a page returned: the host's again */
	BU_CMD(&s, BU_TEARDOWN_HCA, 0, 0x00);
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_REGULAR);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 1, 0x00); /* after teardown: BAD_SYS_STATE */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_RETURN, 8, 0xC0); /* output too short */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_RETURN, 0xF0, 0x00); /* up to 256: all of them */
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_REGULAR);
	BU_CMD(&s, BU_DISABLE_HCA, 0);
	BU_CMD(&s, BU_ENABLE_HCA, 0);
	BU_CMD(&s, BU_NOP, 0);
	bu_seed("seed-teardown-reclaim", &s);

	/* Panic close (D-INIT-8): its completion, then every doorbell dropped until reset. */
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	BU_CMD(&s, BU_ALLOC_PD, 0);
	BU_CMD(&s, BU_ALLOC_UAR, 0);
	BU_CMD(&s, BU_TEARDOWN_HCA, 0, 0xA0);
	BU_CMD(&s, BU_NOP, 0);
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_REGULAR);
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	bu(&s, BU_RAW, 4, 0x03, 0x01, 0x00, 0x00);
	bu(&s, BU_RESET, 0);
	bu(&s, BU_BRING_UP, 1, REFDRV_ENABLED);
	BU_CMD(&s, BU_NOP, 0);
	bu_seed("seed-panic", &s);

	/* What a driver gets wrong, one each. */
	BU_CMD(&s, BU_ENABLE_HCA, 0);
	BU_CMD(&s, BU_INIT_HCA, 0);                          /* no pages: NO_RESOURCES */
	BU_CMD(&s, BU_SET_ISSI, 0, 0xC5);                    /* ISSI 5: BAD_PARAM */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 3, 0xC2, 1); /* entry 1 not aligned */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 3, 0xC1, 2); /* entry 2 = entry 0 */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 3, 0xC3, 0); /* one entry claimed too many */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 8, 0x00);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 2, 0xC0, 5); /* a page the device holds */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_FAIL, 0, 0x00);
	BU_CMD(&s, BU_INIT_HCA, 0);                          /* without SET_ISSI: ISSI_NOT_SET */
	BU_CMD(&s, BU_SET_DRIVER_VERSION, 0, 2);             /* malformed: DRIVER_VERSION_FORMAT */
	BU_CMD(&s, BU_SET_DRIVER_VERSION, 0, 4);             /* unterminated: BAD_PARAM */
	BU_CMD(&s, BU_SET_DRIVER_VERSION, 0, 1, 5, 0x00, 0x07, 0x30, 0x39);
	bu(&s, BU_NOP, 2, 0, 0xF0);                          /* a reserved bit: BAD_PARAM */
	bu(&s, BU_NOP, 2, 0xE1, 0);                          /* op_mod 1: BAD_OP */
	BU_CMD(&s, BU_ENABLE_HCA, 0);                        /* BAD_SYS_STATE */
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 0);        /* after INIT_HCA: BAD_SYS_STATE */
	bu(&s, BU_RAW, 4, 0x0F, 0xFF, 0x00, 0x00);           /* not in T127 */
	BU_CMD(&s, BU_TEARDOWN_HCA, 0, 0xC5);                /* profile 5: BAD_PARAM */
	BU_CMD(&s, BU_TEARDOWN_HCA, 0, 0x00);
	BU_CMD(&s, BU_DISABLE_HCA, 0);                       /* pages held: PAGES_NOT_RECLAIMED */
	bu_seed("seed-mistakes", &s);

	/* Capabilities (§12.3.3-§12.3.4): every type queried, the RW fields set (cmdif_checksum
	 * 0 turns the signatures off at once), SET_HCA_CAP after QUERY_PAGES(init) (D-INIT-1),
	 * then a 1 MB UAR page: no UAR left past the init segment (D-UAR-1). */
	BU_CMD(&s, BU_ENABLE_HCA, 0);
	for (unsigned t = BU_CAP_GEN_CUR; t <= BU_CAP_FT_MAX; t++)
		BU_CMD(&s, BU_QUERY_HCA_CAP, t);
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 1, 0, 0);    /* cmdif_checksum 0 */
	BU_CMD(&s, BU_NOP, 0);
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 1, 0, 3);    /* cmdif_checksum 3 */
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 1, 0, 2);    /* 2 is undefined: BAD_PARAM */
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 1, 0xC0, 0xFF, 0x00, 0x00); /* reserved */
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_ETH, 0);
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_FT, 0);
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 1, 3, 8);    /* log_uar_page_sz 8 */
	BU_CMD(&s, BU_QUERY_HCA_CAP, BU_CAP_GEN_CUR);
	BU_CMD(&s, BU_SET_ISSI, 0, 0x00);
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_BOOT);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 2, 0x00);
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_INIT);
	BU_CMD(&s, BU_SET_HCA_CAP, BU_SETCAP_GEN, 1, 2, 0);    /* SET_HCA_CAP_AFTER_INIT_PAGES */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 6, 0x00);
	BU_CMD(&s, BU_INIT_HCA, 0);
	BU_CMD(&s, BU_ALLOC_UAR, 0);                           /* EXCEED_LIM */
	BU_CMD(&s, BU_ALLOC_PD, 0);
	BU_CMD(&s, BU_QUERY_HCA_CAP, BU_CAP_GEN_CUR);
	bu_seed("seed-caps", &s);

	/* ACCESS_REG (§12.4.1): each port register read, enabled and initialized; writes; an
	 * unknown register, an argument, a short register. */
	bu(&s, BU_BRING_UP, 1, REFDRV_ISSI);
	for (unsigned r = 0; r < 5; r++)
		BU_CMD(&s, BU_ACCESS_REG, BU_REG_READ, r, 0, 0, 0);
	BU_CMD(&s, BU_DISABLE_HCA, 0); /* no page given yet */
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	for (unsigned r = 0; r < 5; r++)
		BU_CMD(&s, BU_ACCESS_REG, BU_REG_READ, r, 0, 0, 0);
	BU_CMD(&s, BU_ACCESS_REG, BU_REG_READ, 1, 0, 0, 4, 0x00, 0x01, 0x00, 0x04); /* PTYS Eth */
	BU_CMD(&s, BU_ACCESS_REG, BU_REG_WRITE, 2, 0, 0, 4, 0x00, 0x01, 0x02, 0x00); /* PAOS */
	BU_CMD(&s, BU_ACCESS_REG, BU_REG_WRITE, 0, 0, 0, 0);                         /* PMTU */
	BU_CMD(&s, BU_ACCESS_REG, BU_REG_READ, 0xF0, 0x12, 0x34, 0, 0, 0);
	BU_CMD(&s, BU_ACCESS_REG, BU_REG_READ, 1, 0xF0, 0, 0, 0, 1, 0, 0);
	BU_CMD(&s, BU_ACCESS_REG, BU_REG_READ, 4, 0, 0xC1, 0);
	bu_seed("seed-access-reg", &s);

	/* Pages up to the device's limit (profile max_icm_pages, D-PG-3), then all back. */
	bu(&s, BU_BRING_UP, 1, REFDRV_INITIALIZED);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 0xFF, 0x00); /* 4096 more: EXCEED_LIM */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 0xFE, 0x00); /* 3840 */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 0xF0, 0x00); /* 256: EXCEED_LIM */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 0xEF, 0x00); /* 239 */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 9, 0x00);    /* 9: exactly the limit */
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_GIVE, 8, 0x00);    /* EXCEED_LIM */
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_REGULAR);
	BU_CMD(&s, BU_TEARDOWN_HCA, 0, 0x00);
	BU_CMD(&s, BU_MANAGE_PAGES, BU_MP_RETURN, 0xFF, 0x00);
	BU_CMD(&s, BU_DISABLE_HCA, 0);
	bu_seed("seed-pages-limit", &s);

	/* Time and reset: nothing moves but the clock; a reset is power-on again. */
	bu(&s, BU_ADVANCE, 2, 0x03, 0xE8);
	bu(&s, BU_BRING_UP, 1, REFDRV_ISSI);
	bu(&s, BU_ADVANCE, 2, 0xFF, 0xFF);
	BU_CMD(&s, BU_QUERY_ISSI, 0);
	bu(&s, BU_RESET, 0);
	bu(&s, BU_ADVANCE, 2, 0x00, 0x01);
	BU_CMD(&s, BU_QUERY_ISSI, 0);
	BU_CMD(&s, BU_QUERY_PAGES, BU_PAGES_BOOT); /* not enabled: BAD_SYS_STATE */
	BU_CMD(&s, BU_NOP, 0);
	bu_seed("seed-time-reset", &s);
}

/* ---- dictionaries ---------------------------------------------------------------------- */

static void dict_bytes(FILE *f, const char *name, const uint8_t *b, size_t n)
{
	fprintf(f, "%s=\"", name);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\\x%02x", b[i]);
	fprintf(f, "\"\n");
}

static void dict_be(FILE *f, const char *name, uint64_t v, unsigned bytes)
{
	uint8_t b[8];
	for (unsigned i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
	dict_bytes(f, name, b, bytes);
}

static FILE *dict_open(const char *target)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s.dict", fuzzers_dir, target);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "make_seeds: cannot write %s\n", path);
		exit(1);
	}
	fprintf(f, "# Dictionary of the %s fuzz target (libFuzzer -dict= / afl-fuzz -x).\n",
		target);
	fprintf(f, "# Generated by fuzzers/make_seeds.c (make -f fuzzers/fuzz.mk seeds); do not "
		   "edit.\n");
	return f;
}

static void dict_close(FILE *f)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "make_seeds: cannot write a dictionary\n");
		exit(1);
	}
}

/* A twin target's dictionary: the same tokens as its target's (cmdq_strict: cmdq's). */
static void dict_copy(const char *from, const char *to)
{
	char path[512], buf[4096];
	snprintf(path, sizeof path, "%s/%s.dict", fuzzers_dir, from);
	FILE *in = fopen(path, "r");
	FILE *out = dict_open(to);
	size_t n;
	if (!in) {
		fprintf(stderr, "make_seeds: cannot read %s\n", path);
		exit(1);
	}
	fprintf(out, "# The tokens of %s.dict:\n", from);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	dict_close(out);
}

/* Shared by both targets: PRM T127 opcodes, T100 op_mods, T96 fields, lengths. */
static void dict_command_tokens(FILE *f)
{
	fprintf(f, "\n# PRM §12.1 T127 opcodes, input bytes 0-1 (big-endian)\n");
	for (unsigned i = 0; i < nicref_opcode_count(); i++) {
		unsigned op = nicref_opcode_at(i);
		char name[96];
		snprintf(name, sizeof name, "op_%s", nicref_opcode_name(op));
		dict_be(f, name, op, 2);
	}
	fprintf(f, "\n# PRM §7.14.1.2 T100 op_mod, input bytes 6-7\n");
	for (unsigned m = 1; m <= 4; m++) {
		char name[32];
		snprintf(name, sizeof name, "op_mod_%u", m);
		dict_be(f, name, m, 2);
	}
	fprintf(f, "\n# lengths: header, inline, one mailbox block, the cmd target's output "
		   "clamp, HCA caps\n");
	dict_be(f, "len_header", 8, 2);
	dict_be(f, "len_inline", CMD_INLINE, 2);
	dict_be(f, "len_one_block", CMD_INLINE + CMD_MBOX_DATA, 2);
	dict_be(f, "len_four_blocks", CMD_OUT_MAX, 2);
	dict_be(f, "len_hca_cap", 0x1010, 2);
	fprintf(f, "\n# common 32-bit values\n");
	dict_be(f, "u32_one", 1, 4);
	dict_be(f, "u32_max", 0xFFFFFFFFu, 4);
	dict_be(f, "u32_high_bit", 0x80000000u, 4);
}


/* ---- lro: TCP segment streams (fuzzers/lro_fuzz.c's ops) -------------------------------- */

struct lro_in {
	uint8_t b[4096];
	size_t n;
};

static void lro_bytes(struct lro_in *s, const uint8_t *p, size_t n)
{
	if (s->n + n > sizeof s->b) {
		fprintf(stderr, "make_seeds: an lro seed is too long\n");
		exit(1);
	}
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

/* SEG flow flags seq len:u16 opt ts ecn misc (lro_fuzz.c) */
static void lro_seg(struct lro_in *s, unsigned flow, unsigned flags, unsigned seq, unsigned len,
		    unsigned opt, unsigned ts, unsigned ecn, unsigned misc)
{
	const uint8_t op[] = { 0x00, (uint8_t)flow, (uint8_t)flags, (uint8_t)seq,
			       (uint8_t)(len >> 8), (uint8_t)len, (uint8_t)opt, (uint8_t)ts,
			       (uint8_t)ecn, (uint8_t)misc };
	lro_bytes(s, op, sizeof op);
}

static void lro_time(struct lro_in *s, unsigned t)
{
	lro_bytes(s, (const uint8_t[]){ 0x01, (uint8_t)(t >> 8), (uint8_t)t }, 3);
}

static void lro_seeds(void)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/lro", seeds_corpora_dir);
	struct lro_in s = { .n = 0 };
	/* six in-sequence 1448-byte segments with timestamps, then the timer */
	for (unsigned i = 0; i < 6; i++)
		lro_seg(&s, 0, 0, 0, 1448, 0, 1, 0, 0);
	lro_time(&s, 1000);
	seeds_write_file(dir, "seed-merge-six", s.b, s.n);
	/* three flows interleaved: IPv4, IPv6, IPv4 with a VLAN tag; no timestamps */
	s.n = 0;
	for (unsigned i = 0; i < 4; i++) {
		lro_seg(&s, 1, 0, 0, 1000, 4, 0, 0, 0);
		lro_seg(&s, 9, 0, 0, 1200, 4, 0, 0, 0);
		lro_seg(&s, 18, 0x08, 0, 700, 0, 2, 0, 8 | 0x30);
	}
	lro_time(&s, 0xFFFF);
	seeds_write_file(dir, "seed-flows", s.b, s.n);
	/* one cause after another on flow 2 */
	s.n = 0;
	lro_seg(&s, 2, 0, 0, 1448, 0, 1, 0, 0);
	lro_seg(&s, 2, 0, 1, 1448, 0, 1, 0, 0);    /* out of order */
	lro_seg(&s, 2, 0, 0, 1448, 0, 1, 0, 0);
	lro_seg(&s, 2, 0x02 ^ 0x10, 0, 100, 0, 1, 0, 0); /* SYN alone */
	lro_seg(&s, 2, 0, 0, 1448, 0, 1, 0, 0);
	lro_seg(&s, 2, 0, 0, 1448, 0, 1, 1, 0);    /* ECN changed */
	lro_seg(&s, 2, 0, 0, 1448, 0, 0xF0, 1, 0); /* an older TSval */
	lro_seg(&s, 2, 0, 0, 1448, 4, 0, 1, 0);    /* no timestamp */
	lro_seg(&s, 2, 0, 0, 1448, 6, 0, 1, 0);    /* an MSS option */
	lro_seg(&s, 2, 0, 0, 0, 4, 0, 1, 0);       /* a pure ACK */
	lro_bytes(&s, (const uint8_t[]){ 0x04, 2, 0, 100 }, 4); /* UDP */
	lro_time(&s, 0x8000);
	seeds_write_file(dir, "seed-causes", s.b, s.n);
	/* the size limits: lro_max_msg_sz 8 (2 KB), then 255 against the 16 KB WQE */
	s.n = 0;
	lro_bytes(&s, (const uint8_t[]){ 0x02, 3, 0, 32, 8 }, 5);
	for (unsigned i = 0; i < 4; i++)
		lro_seg(&s, 3, 0, 0, 1000, 4, 0, 0, 0);
	lro_bytes(&s, (const uint8_t[]){ 0x02, 3, 0, 32, 255 }, 5);
	for (unsigned i = 0; i < 14; i++)
		lro_seg(&s, 3, 0, 0, 1400, 4, 0, 0, 0);
	lro_bytes(&s, (const uint8_t[]){ 0x03, 0 }, 2); /* the RQ recovered */
	lro_seg(&s, 3, 0, 0, 1400, 4, 0, 0, 0);
	seeds_write_file(dir, "seed-sizes", s.b, s.n);
	/* the timer across time steps, a TIR modify and the RQ to ERR with sessions open */
	s.n = 0;
	lro_seg(&s, 4, 0, 0, 1448, 0, 1, 0, 0);
	lro_time(&s, 40);  /* 10 µs */
	lro_seg(&s, 4, 0, 0, 1448, 0, 1, 0, 0);
	lro_time(&s, 200); /* 50 µs: past 32 µs */
	lro_seg(&s, 4, 0, 0, 1448, 0, 1, 0, 0);
	lro_seg(&s, 5, 0, 0, 1448, 0, 1, 0, 0);
	lro_bytes(&s, (const uint8_t[]){ 0x02, 1, 0x04, 0x00, 64 }, 5); /* IPv4 only, 1024 µs */
	lro_seg(&s, 4, 0, 0, 1448, 0, 1, 0, 0);
	lro_seg(&s, 12, 0, 0, 1448, 0, 1, 0, 0); /* IPv6: not enabled */
	lro_bytes(&s, (const uint8_t[]){ 0x03, 1 }, 2);
	lro_seg(&s, 4, 0, 0, 1448, 0, 1, 0, 0);
	lro_time(&s, 0xFFFF);
	seeds_write_file(dir, "seed-timer-modify", s.b, s.n);
	/* a long stream: 8 flows of both versions, 1448-byte segments, 1 µs apart, an ACK-only
	 * segment now and then (long inputs lift libFuzzer's length limit for this target) */
	s.n = 0;
	for (unsigned i = 0; i < 180; i++) {
		unsigned flow = (i * 5) % 8 | (i & 8);
		lro_seg(&s, flow, i % 37 == 36 ? 0x08 : 0, 0, i % 23 == 22 ? 0 : 1448,
			flow & 1 ? 4 : 0, 1, 0, 0);
		lro_time(&s, 4);
	}
	seeds_write_file(dir, "seed-long-stream", s.b, s.n);
}

static void dicts(void)
{
	FILE *f = dict_open("cmd");
	fprintf(f, "\n# Input: output_length:u16, then the command input bytes.\n");
	dict_command_tokens(f);
	dict_close(f);

	f = dict_open("cmdq");
	fprintf(f, "\n# Op-stream tokens (harness/opstream.h): op byte and leading operands\n");
	dict_bytes(f, "bar_write_cmdq_msw", (const uint8_t[]){ 0x00, 0x00, 0x10 }, 3);
	dict_bytes(f, "bar_write_cmdq_lsw", (const uint8_t[]){ 0x00, 0x00, 0x14 }, 3);
	dict_bytes(f, "bar_write_clear_int", (const uint8_t[]){ 0x00, 0x10, 0x0C }, 3);
	dict_bytes(f, "bar_read_initializing", (const uint8_t[]){ 0x01, 0x01, 0xFC }, 3);
	dict_bytes(f, "bar_read_timer_h", (const uint8_t[]){ 0x01, 0x10, 0x00 }, 3);
	dict_bytes(f, "bar_read_health", (const uint8_t[]){ 0x01, 0x10, 0x10 }, 3);
	dict_bytes(f, "doorbell_slot0", (const uint8_t[]){ 0x04, 0x00, 0x00, 0x00, 0x01 }, 5);
	dict_bytes(f, "doorbell_all", (const uint8_t[]){ 0x04, 0xFF, 0xFF, 0xFF, 0xFF }, 5);
	dict_bytes(f, "advance_1ms", (const uint8_t[]){ 0x03, 0x00, 0x0F, 0x42, 0x40 }, 5);
	dict_bytes(f, "advance64_2p32ns",
		   (const uint8_t[]){ OPS_ADVANCE64, 0, 0, 0, 1, 0, 0, 0, 0 }, 9);
	dict_bytes(f, "mem_write_entry",
		   (const uint8_t[]){ 0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x40 }, 7);
	dict_bytes(f, "mem_write_mailbox",
		   (const uint8_t[]){ 0x02, 0x00, 0x02, 0x00, 0x00, 0x02, 0x40 }, 7);
	fprintf(f, "\n# PRM §4.3 T8 BAR0 offsets (16-bit operands)\n");
	dict_be(f, "bar_cmdq_addr_h", 0x0010, 2);
	dict_be(f, "bar_cmdq_addr_l", 0x0014, 2);
	dict_be(f, "bar_cmdq_doorbell", 0x0018, 2);
	dict_be(f, "bar_initializing", 0x01FC, 2);
	dict_be(f, "bar_timer_h", 0x1000, 2);
	dict_be(f, "bar_timer_l", 0x1004, 2);
	dict_be(f, "bar_clear_int", 0x100C, 2);
	dict_be(f, "bar_health", 0x1010, 2);
	fprintf(f, "\n# PRM §7.14.1 T96 entry: type, the queue address the seeds use, "
		   "ownership\n");
	dict_bytes(f, "entry_type", (const uint8_t[]){ 0x07, 0x00, 0x00, 0x00 }, 4);
	dict_be(f, "cmdq_addr", CMDQ_ADDR, 4);
	dict_be(f, "entry_owned", 0x01, 1);
	fprintf(f, "\n# PRM §7.14.1.1 T98 mailbox trailer (200h-23Fh tail: next_pointer, "
		   "block_number,\n# token 0, ctrl_signature, signature) of a zero block 0x240 "
		   "bytes long\n");
	for (unsigned k = 0; k < 2; k++) {
		uint8_t t[16] = { 0 };
		char name[32];
		t[11] = (uint8_t)k;
		/* ctrl_signature makes 200h-23Eh XOR to 0xFF; signature makes the block do so. */
		t[14] = (uint8_t)~cmd_xor8(t, sizeof t);
		t[15] = (uint8_t)~cmd_xor8(t, sizeof t);
		snprintf(name, sizeof name, "mailbox_trailer_%u", k);
		dict_bytes(f, name, t, sizeof t);
	}
	dict_command_tokens(f);
	dict_close(f);
	dict_copy("cmdq", "cmdq_strict");

	f = dict_open("bringup");
	fprintf(f, "\n# Ops (fuzzers/bringup_ops.h): op byte, sel, flags and leading operands\n");
	dict_bytes(f, "bring_up_initialized", (const uint8_t[]){ BU_BRING_UP, REFDRV_INITIALIZED }, 2);
	dict_bytes(f, "bring_up_boot_pages", (const uint8_t[]){ BU_BRING_UP, REFDRV_BOOT_PAGES }, 2);
	dict_bytes(f, "drv_teardown", (const uint8_t[]){ BU_DRV_TEARDOWN }, 1);
	dict_bytes(f, "reset", (const uint8_t[]){ BU_RESET }, 1);
	dict_bytes(f, "advance_1ms", (const uint8_t[]){ BU_ADVANCE, 0x03, 0xE8 }, 3);
	dict_bytes(f, "enable_hca", (const uint8_t[]){ BU_ENABLE_HCA, 0, 0 }, 3);
	dict_bytes(f, "set_issi_1", (const uint8_t[]){ BU_SET_ISSI, 0, 0, 0x00 }, 4);
	dict_bytes(f, "query_pages_init", (const uint8_t[]){ BU_QUERY_PAGES, BU_PAGES_INIT, 0 }, 3);
	dict_bytes(f, "give_8_pages", (const uint8_t[]){ BU_MANAGE_PAGES, BU_MP_GIVE, 0, 8, 0 }, 5);
	dict_bytes(f, "return_256_pages",
		   (const uint8_t[]){ BU_MANAGE_PAGES, BU_MP_RETURN, 0, 0xF0, 0 }, 5);
	dict_bytes(f, "init_hca", (const uint8_t[]){ BU_INIT_HCA, 0, 0 }, 3);
	dict_bytes(f, "alloc_pd", (const uint8_t[]){ BU_ALLOC_PD, 0, 0 }, 3);
	dict_bytes(f, "alloc_uar", (const uint8_t[]){ BU_ALLOC_UAR, 0, 0 }, 3);
	dict_bytes(f, "alloc_td", (const uint8_t[]){ BU_ALLOC_TD, 0, 0 }, 3);
	dict_bytes(f, "teardown_graceful", (const uint8_t[]){ BU_TEARDOWN_HCA, 0, 0, 0x00 }, 4);
	dict_bytes(f, "teardown_panic", (const uint8_t[]){ BU_TEARDOWN_HCA, 0, 0, 0xA0 }, 4);
	dict_bytes(f, "disable_hca", (const uint8_t[]){ BU_DISABLE_HCA, 0, 0 }, 3);
	dict_bytes(f, "flags_reserved_bit", (const uint8_t[]){ 0xF0 }, 1);
	dict_bytes(f, "sel_raw_op_mod", (const uint8_t[]){ 0xFF }, 1);
	fprintf(f, "\n# ACCESS_REG register ids (PRM §11.1 T104), SET_DRIVER_VERSION strings\n");
	dict_be(f, "reg_pmtu", 0x5003, 2);
	dict_be(f, "reg_ptys", 0x5004, 2);
	dict_be(f, "reg_paos", 0x5006, 2);
	dict_be(f, "reg_pfcc", 0x5007, 2);
	dict_be(f, "reg_ppcnt", 0x5008, 2);
	fprintf(f, "version_ok=\"nicref,bringup,1.000.000000\"\n");
	fprintf(f, "version_linux=\"Linux,mlx5_core,5.000.000000\"\n");
	fprintf(f, "\n# T145 capability offsets of the RW fields and the limits (raw patches)\n");
	dict_be(f, "cap_cmdif_checksum", 0x40, 2);
	dict_be(f, "cap_cache_line", 0x2C, 2);
	dict_be(f, "cap_log_max_sq", 0x6C, 2);
	dict_be(f, "cap_log_uar_page_sz", 0x90, 2);
	dict_be(f, "cap_log_max_pd", 0x64, 2);
	fprintf(f, "\n# handles (24-bit)\n");
	dict_be(f, "handle_1", 1, 3);
	dict_be(f, "handle_uar_5", 5, 3);
	dict_be(f, "handle_max", 0xFFFFFF, 3);
	dict_command_tokens(f);
	dict_close(f);

	f = dict_open("lro");
	fprintf(f, "\n# lro_fuzz.c ops: SEG (in sequence, ACK, 1448 bytes, the timestamp), TIME, TIR, RQ\n");
	dict_bytes(f, "seg_in_seq_1448_ts",
		   (const uint8_t[]){ 0x00, 0x00, 0x00, 0x00, 0x05, 0xA8, 0x00, 0x01, 0x00, 0x00 },
		   10);
	dict_bytes(f, "seg_in_seq_1448_nots",
		   (const uint8_t[]){ 0x00, 0x00, 0x00, 0x00, 0x05, 0xA8, 0x04, 0x00, 0x00, 0x00 },
		   10);
	dict_bytes(f, "time_32us", (const uint8_t[]){ 0x01, 0x00, 0x80 }, 3);
	dict_bytes(f, "time_64us", (const uint8_t[]){ 0x01, 0x01, 0x00 }, 3);
	dict_bytes(f, "tir_default", (const uint8_t[]){ 0x02, 0x03, 0x00, 0x20, 0x40 }, 5);
	dict_bytes(f, "tir_msg_255", (const uint8_t[]){ 0x02, 0x03, 0x00, 0x20, 0xFF }, 5);
	dict_bytes(f, "rq_to_err", (const uint8_t[]){ 0x03, 0x01 }, 2);
	dict_bytes(f, "len_1448", (const uint8_t[]){ 0x05, 0xA8 }, 2);
	dict_close(f);

	f = dict_open("tx");
	fprintf(f, "\n# Ops (fuzzers/tx_ops.h) with their leading operands\n");
	dict_bytes(f, "wqe_nop", (const uint8_t[]){ TX_OP_WQE, TX_KIND_NOP, 2 }, 3);
	dict_bytes(f, "wqe_send", (const uint8_t[]){ TX_OP_WQE, TX_KIND_SEND, 2 }, 3);
	dict_bytes(f, "wqe_lso", (const uint8_t[]){ TX_OP_WQE, TX_KIND_LSO, 2 }, 3);
	dict_bytes(f, "wqe_umr", (const uint8_t[]){ TX_OP_WQE, TX_KIND_UMR, 2 }, 3);
	dict_bytes(f, "wqe_raw_fixed", (const uint8_t[]){ TX_OP_WQE_RAW, 3, 0x07 }, 3);
	for (unsigned m = 0; m < 8; m++) {
		char name[32];
		snprintf(name, sizeof name, "ring_mode_%u", m);
		dict_bytes(f, name, (const uint8_t[]){ TX_OP_RING, (uint8_t)m }, 2);
	}
	dict_bytes(f, "sq_recover", (const uint8_t[]){ TX_OP_SQ_MODIFY, TX_SQ_RECOVER }, 2);
	dict_bytes(f, "sq_to_err", (const uint8_t[]){ TX_OP_SQ_MODIFY, TX_SQ_TO_ERR }, 2);
	dict_bytes(f, "bf_doorbell_dword", (const uint8_t[]){ TX_OP_BF_WRITE, 0, 1 }, 3);
	dict_bytes(f, "vport_mtu_1500", (const uint8_t[]){ TX_OP_MTU, 1, 0x05, 0xDC }, 4);
	dict_bytes(f, "sq_inline_l4_signed", (const uint8_t[]){ TX_OP_SQ_CONFIG, 0x07 }, 2);
	dict_bytes(f, "bf_again", (const uint8_t[]){ TX_OP_BF_AGAIN, 0 }, 2);
	fprintf(f, "\n# PRM §7.4.4.1.1 T26 send WQE opcodes (LSO: D-TX-1), ctrl byte 3\n");
#define TX_DICT_OPCODE(id, v, cite) dict_be(f, "opcode_" #id, v, 1);
	NICREF_SEND_OPCODES(TX_DICT_OPCODE)
#undef TX_DICT_OPCODE
	fprintf(f, "\n# T26 ds and the fm/ce/se byte, T38/T39 data segments, T28 l3cs|l4cs\n");
	dict_be(f, "ds_max", 63, 1);
	dict_be(f, "ctrl_ce_always", 0x08, 1);
	dict_be(f, "ctrl_small_fence_ce_always", 0x28, 1);
	dict_be(f, "inline_seg_16", 0x80000010u, 4);
	dict_be(f, "inline_seg_0", 0x80000000u, 4);
	dict_be(f, "eth_l3cs_l4cs", 0xC0, 1);
	dict_be(f, "byte_count_1k", 0x400, 4);
	fprintf(f, "\n# EtherTypes and TPIDs, IP protocols, IPv6 extension headers, IPv4 fields, "
		   "TCP flags\n");
	dict_be(f, "ethertype_ipv4", 0x0800, 2);
	dict_be(f, "ethertype_ipv6", 0x86DD, 2);
	dict_be(f, "ethertype_arp", 0x0806, 2);
	dict_be(f, "tpid_8021q", 0x8100, 2);
	dict_be(f, "tpid_8021ad", 0x88A8, 2);
	dict_be(f, "tpid_9100", 0x9100, 2);
	dict_be(f, "proto_tcp", 6, 1);
	dict_be(f, "proto_udp", 17, 1);
	dict_be(f, "v6_routing", 43, 1);
	dict_be(f, "v6_fragment", 44, 1);
	dict_be(f, "v6_esp", 50, 1);
	dict_be(f, "v6_ah", 51, 1);
	dict_be(f, "v6_dest_opts", 60, 1);
	dict_be(f, "v4_version_ihl5", 0x45, 1);
	dict_be(f, "v4_lsrr", 0x83, 1);
	dict_be(f, "v4_ssrr", 0x89, 1);
	dict_be(f, "v4_mf", 0x2000, 2);
	dict_be(f, "tcp_fin_psh_ack", 0x19, 1);
	dict_be(f, "tcp_cwr", 0x80, 1);
	fprintf(f, "\n# mss, MTUs (PMTU T106), the largest LSO payload (T147 max_lso_cap 16)\n");
	dict_be(f, "mss_1400", 1400, 2);
	dict_be(f, "mss_536", 536, 2);
	dict_be(f, "mtu_1500", 1500, 2);
	dict_be(f, "mtu_9000", 9000, 2);
	dict_be(f, "lso_max", 0xFFFF, 2);
	/* The data MKey's l_key and the SQ number the tx target's stack gets (D-OBJ-2). */
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	struct refdrv d;
	struct refdrv_ops ops = dev ? refdrv_ops_model(dev) : (struct refdrv_ops){ 0 };
	struct refdrv_sq_stack_attr a;
	struct refdrv_sq_stack st;
	refdrv_sq_stack_defaults(&a);
	if (!dev || refdrv_init(&d, &ops) != 0 || refdrv_bring_up(&d, REFDRV_INITIALIZED) != 0 ||
	    refdrv_sq_stack_up(&d, &a, &st) != 0) {
		fprintf(stderr, "make_seeds: the SQ stack did not come up\n");
		exit(1);
	}
	fprintf(f, "\n# the data MKey's l_key and the SQ number of the tx target's stack\n");
	dict_be(f, "data_lkey", st.lkey, 4);
	dict_be(f, "sqn", st.sqn, 3);
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
	dict_close(f);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: make_seeds <corpora dir> <fuzzers dir>\n");
		return 2;
	}
	seeds_corpora_dir = argv[1];
	fuzzers_dir = argv[2];
	cmdq_seeds();
	cmd_seeds();
	bringup_seeds();
	tx_seeds();
	lro_seeds();
	dicts();
	if (failures) {
		fprintf(stderr, "make_seeds: %d seed(s) no longer do what they say\n", failures);
		return 1;
	}
	printf("make_seeds: wrote corpora/cmdq (and cmdq_strict), corpora/cmd, corpora/bringup, "
	       "corpora/tx, corpora/lro seeds "
	       "and the dictionaries\n");
	return 0;
}
