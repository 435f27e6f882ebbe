/* The reference driver (see driver.h). Every step names the PRM clause it follows. Fields are
 * read and written through the public PRM layouts by name, as a driver author would transcribe
 * them from the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdbuild.h"
#include "driver.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"
#include "nicref/nicref.h"

/* PRM §4.3 T8 init segment offsets. */
#define ISEG_FW_REV 0x000
#define ISEG_CMDIF_REV 0x004
#define ISEG_CMDQ_ADDR_H 0x010
#define ISEG_CMDQ_ADDR_L 0x014
#define ISEG_DOORBELL 0x018
#define ISEG_INITIALIZING 0x1FC

#define CMDIF_REV 5          /* the command interface revision this driver speaks (§8.2) */
#define PAGE 4096u
#define OUT_MBOX_OFFSET 0x100000u
#define POLL_NS 1000u        /* between polls of initializing and of ownership */
#define POLL_LIMIT 100000u   /* 100 ms of device time */
#define PAGES_PER_CMD 256u   /* MANAGE_PAGES entries per command */

/* Names to layouts, fields and opcodes, answered from a table filled on first use. The driver
 * asks for the same few names on every command, WQE and CQE (the fuzz targets post and poll
 * thousands per second), and a lookup by name walks every layout (or opcode) with strcmp, which
 * under libFuzzer is worse than slow: each strcmp call goes through the sanitizer's interceptor
 * to libFuzzer's comparison hook (a third of an `rx` input's time went there). The table is keyed
 * by the names' addresses (callers pass literals) and confirms every hit by comparing the names
 * it found with the ones asked for, so a name in a reused buffer is still answered right; the
 * comparison is a loop of its own, not strcmp, to stay out of the interceptor. A full table
 * (more distinct names than slots) answers by the walk. Single-threaded, as the driver is. */
#define NAME_SLOTS 1024u
#define NAME_PROBES 8u

static bool same_name(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

enum name_kind { NAME_LAYOUT, NAME_FIELD, NAME_OPCODE };

static struct name_slot {
	const void *key1; /* the layout name (NAME_FIELD: the layout) */
	const char *key2; /* the field name */
	unsigned kind;    /* enum name_kind + 1; 0: empty */
	const void *found;
	int opcode;
} name_slots[NAME_SLOTS];

static struct name_slot *name_slot(unsigned kind, const void *key1, const char *key2,
				   bool *hit)
{
	uintptr_t h = (uintptr_t)key1 * 0x9E3779B1u ^ (uintptr_t)key2 * 0x85EBCA77u ^ kind;
	h ^= h >> 15;
	for (unsigned p = 0; p < NAME_PROBES; p++) {
		struct name_slot *e = &name_slots[(h + p) % NAME_SLOTS];
		if (e->kind == 0) {
			*hit = false;
			return e;
		}
		if (e->kind == kind + 1 && e->key1 == key1 && e->key2 == key2) {
			*hit = true;
			return e;
		}
	}
	*hit = false;
	return NULL;
}

const struct nicref_layout *refdrv_layout(const char *name)
{
	bool hit;
	struct name_slot *e = name_slot(NAME_LAYOUT, name, NULL, &hit);
	if (hit && same_name(((const struct nicref_layout *)e->found)->name, name))
		return e->found;
	const struct nicref_layout *l = nicref_layout_find(name);
	if (e && l && !hit)
		*e = (struct name_slot){ name, NULL, NAME_LAYOUT + 1, l, 0 };
	return l;
}

const struct nicref_field *refdrv_layout_field(const struct nicref_layout *l, const char *field)
{
	if (!l)
		return NULL;
	bool hit;
	struct name_slot *e = name_slot(NAME_FIELD, l, field, &hit);
	if (hit && same_name(((const struct nicref_field *)e->found)->name, field))
		return e->found;
	const struct nicref_field *f = nicref_layout_field(l, field);
	if (e && f && !hit)
		*e = (struct name_slot){ l, field, NAME_FIELD + 1, f, 0 };
	return f;
}

const struct nicref_field *refdrv_field(const char *layout, const char *field)
{
	return refdrv_layout_field(refdrv_layout(layout), field);
}

int refdrv_opcode(const char *name)
{
	bool hit;
	struct name_slot *e = name_slot(NAME_OPCODE, name, NULL, &hit);
	if (hit && same_name(e->found, name))
		return e->opcode;
	int op = nicref_opcode_find(name);
	/* The canonical name is kept, not the caller's pointer: a buffer the caller fills
	 * again with another name must miss (same_name above compares against it). */
	if (e && op >= 0 && !hit)
		*e = (struct name_slot){ name, NULL, NAME_OPCODE + 1, nicref_opcode_name((unsigned)op),
					 op };
	return op;
}

int refdrv_field_set(void *buf, size_t len, const char *layout, const char *field, uint64_t v)
{
	const struct nicref_field *f = refdrv_field(layout, field);
	return f ? nicref_field_set(buf, len, f, v) : -1;
}

uint64_t refdrv_field_get(const void *buf, size_t len, const char *layout, const char *field)
{
	uint64_t v = 0;
	const struct nicref_field *f = refdrv_field(layout, field);
	if (f)
		(void)nicref_field_get(buf, len, f, &v);
	return v;
}

int refdrv_field_set_elem(void *buf, size_t len, const char *layout, const char *field,
			  uint32_t i, uint64_t v)
{
	const struct nicref_field *f = refdrv_field(layout, field);
	if (!f)
		return -1;
	struct nicref_field e = nicref_field_element(f, i);
	return nicref_field_set(buf, len, &e, v);
}


static int fail(struct refdrv *d, const char *fmt, const char *what, long v)
{
	snprintf(d->error, sizeof d->error, fmt, what, v);
	return -1;
}

/* --- ops for a model instance --- */

static uint32_t model_bar_read(void *ctx, uint32_t off)
{
	return nicref_bar_read32(ctx, off);
}
static void model_bar_write(void *ctx, uint32_t off, uint32_t v)
{
	nicref_bar_write32(ctx, off, v);
}
static int model_mem_write(void *ctx, uint64_t a, const void *b, size_t n)
{
	return nicref_hostmem_write(ctx, a, b, n);
}
static int model_mem_read(void *ctx, uint64_t a, void *b, size_t n)
{
	return nicref_hostmem_read(ctx, a, b, n);
}
static void model_wait(void *ctx, uint64_t ns)
{
	nicref_clock_advance(ctx, ns);
}

struct refdrv_ops refdrv_ops_model(struct nicref_dev *dev)
{
	return (struct refdrv_ops){ dev, model_bar_read, model_bar_write, model_mem_write,
				    model_mem_read, model_wait };
}

static const char *const stage_names[] = { "queue", "enabled",	   "issi",	  "boot_pages",
					   "caps",  "init_pages", "initialized" };

int refdrv_stage_find(const char *name)
{
	for (unsigned i = 0; i < sizeof stage_names / sizeof stage_names[0]; i++)
		if (strcmp(stage_names[i], name) == 0)
			return (int)i;
	return -1;
}

/* struct refdrv.caps_epoch: the writes of any driver's capability copies so far. */
static uint64_t caps_epochs;

int refdrv_init(struct refdrv *d, const struct refdrv_ops *ops)
{
	memset(d, 0, sizeof *d);
	d->caps_epoch = ++caps_epochs;
	d->ops = *ops;
	d->cmdq_addr = 0x10000;
	d->mbox_addr = 0x20000000;
	d->page_addr = 0x10000000;
	d->reached = -1;
	d->pages_cap = 64;
	d->pages = malloc(d->pages_cap * sizeof *d->pages);
	return d->pages ? 0 : -1;
}

void refdrv_fini(struct refdrv *d)
{
	free(d->pages);
	d->pages = NULL;
}

/* --- one command (§7.14.1) --- */

/* Slot 1 carries the answers to a Page Request while slot 0 waits (D-PG-6); its mailbox
 * chains lie 2 MB above slot 0's, so the waiting command's input stays as it was posted. */
#define PAGE_SLOT 1u
#define PAGE_SLOT_MBOX_OFFSET 0x200000u
/* Polls of a command still owned by the device between two looks at whether it waits for
 * pages (the first look comes after one poll: the model runs a command at its doorbell). */
#define PAGE_LOOK_POLLS 10000u

static int answer_page_request(struct refdrv *d);

static int cmd_in_slot(struct refdrv *d, unsigned slot, const void *in, uint32_t in_len, void *out,
		       uint32_t out_len)
{
	struct refdrv_ops *o = &d->ops;
	uint64_t mbox = d->mbox_addr + (slot ? PAGE_SLOT_MBOX_OFFSET : 0);
	/* T95/T96: a fresh non-zero token per command ties the entry to its mailboxes. */
	d->token = (uint8_t)(d->token % 255u + 1u);
	struct cmd_post p = {
		.entry_addr = d->cmdq_addr + ((uint64_t)slot << d->log_cmdq_stride),
		.in = in,
		.in_len = in_len,
		.input_length = in_len,
		.output_length = out_len,
		.in_mbox = mbox,
		.out_mbox = mbox + OUT_MBOX_OFFSET,
		.token = d->token,
		/* §7.14.1.1.1: always sign; a device with cmdif_checksum 0 or 1 ignores it. */
		.sign = true,
	};
	if (cmd_post_write(&p, o->mem_write, o->ctx) != 0)
		return fail(d, "%s: host memory write failed (%ld)", "command", 0);
	if ((d->mistakes & REFDRV_MISTAKE_MAILBOX_SIGNATURE) && slot != PAGE_SLOT &&
	    cmd_blocks_for(in_len)) {
		/* T98 signature of input block 0, off by one bit. */
		uint64_t sig = mbox + refdrv_layout_field(refdrv_layout("cmd_mailbox"),
							  "signature")->bit_offset / 8;
		uint8_t b;
		if (o->mem_read(o->ctx, sig, &b, 1) == 0) {
			b ^= 1;
			(void)o->mem_write(o->ctx, sig, &b, 1);
		}
	}
	/* T8 18h: bit s rings slot s. */
	o->bar_write32(o->ctx, ISEG_DOORBELL, 1u << slot);
	/* T96 3Ch[0]: ownership returns to software when the command is done. */
	struct cmd_result r;
	for (unsigned i = 0;; i++) {
		if (cmd_result_read(&p, o->mem_read, o->ctx, out, out_len, &r) != 0)
			return fail(d, "%s: host memory read failed (%ld)", "command", 0);
		if (r.ownership == 0)
			break;
		if (i == POLL_LIMIT)
			return fail(d, "%s: not completed after %ld polls", "command", POLL_LIMIT);
		/* D-PG-6: a create short of ICM pages waits until SW answers the Page Request. */
		if (slot != PAGE_SLOT && i % PAGE_LOOK_POLLS == 1 && answer_page_request(d) != 0)
			return -1;
		o->wait_ns(o->ctx, POLL_NS);
	}
	d->last_delivery = r.delivery;
	d->last_status = r.status;
	d->last_syndrome = r.syndrome;
	if (r.delivery != 0)
		return fail(d, "%s: delivery status 0x%lx", "command", (long)r.delivery);
	/* §7.14.1.1.1: the device signs its output unless cmdif_checksum is 0. */
	if (d->check_out_sigs && (!r.entry_sig_ok || !r.out_sigs_ok))
		return fail(d, "%s: output signature wrong (%ld)", "command", 0);
	return r.status;
}

int refdrv_cmd(struct refdrv *d, const void *in, uint32_t in_len, void *out, uint32_t out_len)
{
	return cmd_in_slot(d, 0, in, in_len, out, out_len);
}

/* A command with a 16-byte input of opcode and op_mod and a 16-byte output; status or -1. */
static int simple_in_slot(struct refdrv *d, unsigned slot, const char *opcode, unsigned op_mod,
			  uint8_t out[16])
{
	uint8_t in[16] = { 0 };
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode", (uint64_t)refdrv_opcode(opcode));
	refdrv_field_set(in, sizeof in, "cmd_in", "op_mod", op_mod);
	return cmd_in_slot(d, slot, in, sizeof in, out, 16);
}

static int simple(struct refdrv *d, const char *opcode, unsigned op_mod, uint8_t out[16])
{
	return simple_in_slot(d, 0, opcode, op_mod, out);
}

static int expect_ok(struct refdrv *d, const char *what, int st)
{
	if (st < 0)
		return -1;
	if (st != 0)
		return fail(d, "%s: status 0x%lx", what, st);
	return 0;
}

/* --- pages (§12.3.1-§12.3.2) --- */

static int query_pages(struct refdrv *d, unsigned slot, unsigned op_mod, int32_t *n)
{
	uint8_t out[16];
	if (expect_ok(d, "QUERY_PAGES", simple_in_slot(d, slot, "QUERY_PAGES", op_mod, out)) != 0)
		return -1;
	*n = (int32_t)refdrv_field_get(out, sizeof out, "query_pages_out", "num_pages");
	return 0;
}

/* T134/T135, op_mod 1: n pages, PAGES_PER_CMD at a time. */
static int give_pages(struct refdrv *d, unsigned slot, uint32_t n)
{
	uint8_t in[16 + 8 * PAGES_PER_CMD], out[16];
	while (n) {
		uint32_t k = n < PAGES_PER_CMD ? n : PAGES_PER_CMD;
		if (d->npages + k > d->pages_cap) {
			uint32_t cap = (d->npages + k) * 2;
			uint64_t *p = realloc(d->pages, cap * sizeof *p);
			if (!p)
				return fail(d, "%s: out of memory (%ld)", "MANAGE_PAGES", 0);
			d->pages = p;
			d->pages_cap = cap;
		}
		uint32_t len = 16 + 8 * k;
		memset(in, 0, len);
		refdrv_field_set(in, len, "manage_pages_in", "opcode", (uint64_t)refdrv_opcode("MANAGE_PAGES"));
		refdrv_field_set(in, len, "manage_pages_in", "op_mod", 1); /* ALLOCATION_SUCCESS */
		refdrv_field_set(in, len, "manage_pages_in", "input_num_entries", k);
		for (uint32_t i = 0; i < k; i++) {
			uint64_t a = d->page_addr + (uint64_t)PAGE * d->next_page++;
			struct nicref_field e = nicref_field_element(
				refdrv_layout_field(refdrv_layout("manage_pages_in"), "pas"), i);
			(void)nicref_field_set(in, len, &e, a); /* T138: pa_h, pa_l[31:12] */
			d->pages[d->npages + i] = a;
		}
		if (expect_ok(d, "MANAGE_PAGES", cmd_in_slot(d, slot, in, len, out, sizeof out)) != 0)
			return -1;
		d->npages += k;
		n -= k;
	}
	return 0;
}

/* T136/T137, op_mod 2: the device lists the pages it gives back; each must be one we gave. */
static int reclaim_pages(struct refdrv *d, uint32_t n)
{
	uint8_t in[16] = { 0 }, out[16 + 8 * PAGES_PER_CMD];
	while (n) {
		uint32_t k = n < PAGES_PER_CMD ? n : PAGES_PER_CMD;
		uint32_t out_len = 16 + 8 * k;
		refdrv_field_set(in, sizeof in, "manage_pages_in", "opcode",
		    (uint64_t)refdrv_opcode("MANAGE_PAGES"));
		refdrv_field_set(in, sizeof in, "manage_pages_in", "op_mod", 2); /* HCA_RETURN_PAGES */
		refdrv_field_set(in, sizeof in, "manage_pages_in", "input_num_entries", k);
		if (expect_ok(d, "MANAGE_PAGES", refdrv_cmd(d, in, sizeof in, out, out_len)) != 0)
			return -1;
		uint32_t got = (uint32_t)refdrv_field_get(out, out_len, "manage_pages_out", "output_num_entries");
		if (got == 0 || got > k)
			return fail(d, "%s: returned %ld pages", "MANAGE_PAGES", got);
		const struct nicref_field *pas =
			refdrv_layout_field(refdrv_layout("manage_pages_out"), "pas");
		for (uint32_t i = 0; i < got; i++) {
			struct nicref_field e = nicref_field_element(pas, i);
			uint64_t a = 0;
			(void)nicref_field_get(out, out_len, &e, &a);
			/* Search from the latest given: a device returning LIFO (as this model
			 * does) is found at once; any other order is still accepted. */
			uint32_t j = d->npages;
			while (j > 0 && d->pages[j - 1] != a)
				j--;
			if (j == 0)
				return fail(d, "%s: returned a page never given (%ld)", "MANAGE_PAGES",
					    (long)(a >> 12));
			d->pages[j - 1] = d->pages[--d->npages];
		}
		n -= got;
	}
	return 0;
}

static int supply_pages(struct refdrv *d, unsigned op_mod)
{
	int32_t n;
	if (query_pages(d, 0, op_mod, &n) != 0)
		return -1;
	return n > 0 ? give_pages(d, 0, (uint32_t)n) : 0;
}

/* D-PG-6: while slot 0 is owned by the device, ask through slot 1 whether it wants pages
 * (QUERY_PAGES regular answers what a pending Page Request asks, D-PG-4) and give them; the
 * waiting command then runs again when MANAGE_PAGES completes. Pages this driver cannot give
 * (the device refuses them) are answered with ALLOCATION_FAIL (§12.3.2, T135 op_mod 0), which
 * completes the waiting command with its NO_RESOURCES. A queue of one slot cannot answer: the
 * command then runs into the poll limit, which says so. 0, or -1 with d->error set. */
static int answer_page_request(struct refdrv *d)
{
	if (d->log_cmdq_size == 0)
		return 0;
	/* T96 3Ch[0]: slot 1 must be SW's (never rung, or completed) before it is written. */
	struct refdrv_ops *o = &d->ops;
	uint8_t own;
	uint64_t own_at = d->cmdq_addr + ((uint64_t)PAGE_SLOT << d->log_cmdq_stride) + 0x3F;
	if (o->mem_read(o->ctx, own_at, &own, 1) == 0 && (own & 1))
		return 0;
	int32_t n;
	if (query_pages(d, PAGE_SLOT, 3, &n) != 0)
		return -1;
	if (n <= 0)
		return 0;
	if (give_pages(d, PAGE_SLOT, (uint32_t)n) == 0)
		return 0;
	if (d->last_delivery != 0 || d->last_status == 0)
		return -1; /* not a refusal: d->error says what broke */
	uint8_t in[16] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, "manage_pages_in", "opcode",
			 (uint64_t)refdrv_opcode("MANAGE_PAGES"));
	refdrv_field_set(in, sizeof in, "manage_pages_in", "op_mod", 0); /* ALLOCATION_FAIL */
	refdrv_field_set(in, sizeof in, "manage_pages_in", "input_num_entries", (uint64_t)n);
	if (expect_ok(d, "MANAGE_PAGES", cmd_in_slot(d, PAGE_SLOT, in, sizeof in, out, sizeof out)))
		return -1;
	d->error[0] = 0; /* the refused gift was answered: nothing failed */
	return 0;
}

int refdrv_cmd_paged(struct refdrv *d, const void *in, uint32_t in_len, void *out,
		     uint32_t out_len)
{
	int st = refdrv_cmd(d, in, in_len, out, out_len);
	if (st != 0x0F) /* T128 NO_RESOURCES */
		return st;
	/* D-PG-4: the device wants pages for the new context; QUERY_PAGES regular says how
	 * many (the answer to its Page Request event). */
	int32_t n;
	if (query_pages(d, 0, 3, &n) != 0)
		return -1;
	if (n <= 0)
		return st; /* not a page shortage: the refusal stands */
	if (give_pages(d, 0, (uint32_t)n) != 0)
		return -1;
	return refdrv_cmd(d, in, in_len, out, out_len);
}

/* --- the §8.2 stages --- */

static int stage_queue(struct refdrv *d)
{
	struct refdrv_ops *o = &d->ops;
	/* §8.2: "The driver must match the command interface revision number." */
	uint32_t rev = o->bar_read32(o->ctx, ISEG_CMDIF_REV) >> 16;
	if (rev != CMDIF_REV)
		return fail(d, "%s: cmd_interface_rev %ld not supported", "init segment", rev);
	uint32_t addr_l = o->bar_read32(o->ctx, ISEG_CMDQ_ADDR_L);
	d->log_cmdq_stride = addr_l & 0xF;
	d->log_cmdq_size = addr_l >> 4 & 0xF; /* T8 14h[7:4] */
	/* §8.2: MSW first; nic_interface, log_cmdq_size and log_cmdq_stride written as 0. */
	o->bar_write32(o->ctx, ISEG_CMDQ_ADDR_H, (uint32_t)(d->cmdq_addr >> 32));
	o->bar_write32(o->ctx, ISEG_CMDQ_ADDR_L, (uint32_t)d->cmdq_addr & 0xFFFFF000u);
	/* §8.2: "Repeat until it is cleared." */
	for (unsigned i = 0; o->bar_read32(o->ctx, ISEG_INITIALIZING) >> 31; i++) {
		if (i == POLL_LIMIT)
			return fail(d, "%s: initializing still 1 after %ld polls", "init segment",
				    POLL_LIMIT);
		o->wait_ns(o->ctx, POLL_NS);
	}
	return 0;
}

static int stage_issi(struct refdrv *d)
{
	uint8_t in[16] = { 0 }, out[0x70];
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode", (uint64_t)refdrv_opcode("QUERY_ISSI"));
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st < 0)
		return -1;
	/* §7.1: BAD_OP means only ISSI 0 is supported, "no need to perform SET_ISSI". */
	if (st == 0x02) {
		d->issi = 0;
		return 0;
	}
	if (st != 0)
		return fail(d, "%s: status 0x%lx", "QUERY_ISSI", st);
	/* T184: bit N of supported_issi (20h-6Ch, big-endian) is ISSI N. */
	int max = -1;
	for (unsigned n = 0; n < 640; n++)
		if (out[0x6F - n / 8] >> (n % 8) & 1)
			max = (int)n;
	if (max < 0)
		return fail(d, "%s: no supported ISSI (%ld)", "QUERY_ISSI", 0);
	/* §7.1: actual_issi = min(sw_issi, max_supported_issi). */
	d->issi = (uint16_t)(max < REFDRV_SW_ISSI ? max : REFDRV_SW_ISSI);
	if (d->mistakes & REFDRV_MISTAKE_SKIP_SET_ISSI)
		return 0;
	memset(in, 0, sizeof in);
	refdrv_field_set(in, sizeof in, "set_issi_in", "opcode", (uint64_t)refdrv_opcode("SET_ISSI"));
	refdrv_field_set(in, sizeof in, "set_issi_in", "current_issi", d->issi);
	return expect_ok(d, "SET_ISSI", refdrv_cmd(d, in, sizeof in, out, 16));
}

/* §12.3.3: QUERY_HCA_CAP op_mod bit 0 (0 max, 1 current), bits 15:1 type. */
static int query_caps(struct refdrv *d, unsigned type, unsigned current, uint8_t caps[0x1000])
{
	static const unsigned out_len = 0x1010;
	uint8_t in[16] = { 0 };
	uint8_t *out = malloc(out_len);
	if (!out)
		return fail(d, "%s: out of memory (%ld)", "QUERY_HCA_CAP", 0);
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode", (uint64_t)refdrv_opcode("QUERY_HCA_CAP"));
	refdrv_field_set(in, sizeof in, "cmd_in", "op_mod", type << 1 | current);
	int rc = expect_ok(d, "QUERY_HCA_CAP", refdrv_cmd(d, in, sizeof in, out, out_len));
	if (rc == 0 && caps)
		memcpy(caps, out + 0x10, 0x1000);
	free(out);
	return rc;
}

static int stage_caps(struct refdrv *d)
{
	d->caps_epoch = ++caps_epochs; /* whatever the queries write of them */
	if (query_caps(d, 0, 0, d->caps_max) != 0 || query_caps(d, 0, 1, d->caps_cur) != 0)
		return -1;
	/* T145 40h[15:14]: output signatures are generated unless cmdif_checksum is 0. */
	d->check_out_sigs = refdrv_field_get(d->caps_cur, 0x1000, "hca_cap", "cmdif_checksum") != 0;
	/* T145: the per-type capabilities exist when the general ones announce them. */
	if (refdrv_field_get(d->caps_cur, 0x1000, "hca_cap", "eth_net_offloads") &&
	    (query_caps(d, 1, 0, NULL) != 0 || query_caps(d, 1, 1, NULL) != 0))
		return -1;
	if (refdrv_field_get(d->caps_cur, 0x1000, "hca_cap", "nic_flow_table") &&
	    (query_caps(d, 7, 0, NULL) != 0 || query_caps(d, 7, 1, NULL) != 0))
		return -1;
	/* §12.3.4: write back the current general capabilities. This driver changes none of
	 * the RW fields: the defaults suit it. */
	static const unsigned in_len = 0x1010;
	uint8_t *in = calloc(1, in_len), out[16];
	if (!in)
		return fail(d, "%s: out of memory (%ld)", "SET_HCA_CAP", 0);
	refdrv_field_set(in, in_len, "cmd_in", "opcode", (uint64_t)refdrv_opcode("SET_HCA_CAP"));
	memcpy(in + 0x10, d->caps_cur, 0x1000);
	int rc = expect_ok(d, "SET_HCA_CAP", refdrv_cmd(d, in, in_len, out, sizeof out));
	free(in);
	return rc;
}

static int stage_initialized(struct refdrv *d)
{
	uint8_t out[16];
	if (expect_ok(d, "INIT_HCA", simple(d, "INIT_HCA", 0, out)) != 0)
		return -1;
	/* §8.2: SET_DRIVER_VERSION "only in case HCA_CAP.driver_version==1"; T190 format. */
	if (!refdrv_field_get(d->caps_cur, 0x1000, "hca_cap", "driver_version"))
		return 0;
	uint8_t in[0x50] = { 0 };
	static const char version[] = "nicref,refdrv,1.000.000000";
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode", (uint64_t)refdrv_opcode("SET_DRIVER_VERSION"));
	memcpy(in + 0x10, version, sizeof version);
	return expect_ok(d, "SET_DRIVER_VERSION", refdrv_cmd(d, in, sizeof in, out, sizeof out));
}

int refdrv_bring_up(struct refdrv *d, enum refdrv_stage to)
{
	uint8_t out[16];
	for (int s = d->reached + 1; s <= (int)to; s++) {
		int rc = 0;
		switch ((enum refdrv_stage)s) {
		case REFDRV_QUEUE:
			rc = stage_queue(d);
			break;
		case REFDRV_ENABLED:
			rc = expect_ok(d, "ENABLE_HCA", simple(d, "ENABLE_HCA", 0, out));
			break;
		case REFDRV_ISSI:
			rc = stage_issi(d);
			break;
		case REFDRV_BOOT_PAGES:
			rc = supply_pages(d, 1);
			break;
		case REFDRV_CAPS:
			rc = stage_caps(d);
			break;
		case REFDRV_INIT_PAGES:
			rc = supply_pages(d, 2);
			break;
		case REFDRV_INITIALIZED:
			rc = stage_initialized(d);
			break;
		}
		if (rc != 0)
			return -1;
		d->reached = s;
	}
	return 0;
}

int refdrv_teardown(struct refdrv *d)
{
	uint8_t in[16] = { 0 }, out[16];
	/* §8.3 / §12.3.7 T170: graceful close (profile 0). */
	refdrv_field_set(in, sizeof in, "teardown_hca_in", "opcode", (uint64_t)refdrv_opcode("TEARDOWN_HCA"));
	refdrv_field_set(in, sizeof in, "teardown_hca_in", "profile", 0);
	if (expect_ok(d, "TEARDOWN_HCA", refdrv_cmd(d, in, sizeof in, out, sizeof out)) != 0)
		return -1;
	/* §8.3: reclaim pages until the device holds none (T133: negative = reclaimable). */
	for (;;) {
		int32_t n;
		if (query_pages(d, 0, 3, &n) != 0)
			return -1;
		if (n >= 0)
			break;
		if (reclaim_pages(d, (uint32_t)-(int64_t)n) != 0)
			return -1;
	}
	if (d->npages)
		return fail(d, "%s: %ld pages never returned", "teardown", d->npages);
	if (expect_ok(d, "DISABLE_HCA", simple(d, "DISABLE_HCA", 0, out)) != 0)
		return -1;
	/* The queue address stays latched; a new §8.2 sequence resumes at ENABLE_HCA. */
	d->reached = REFDRV_QUEUE;
	return 0;
}
