/* The steps of docs/vectors.md ("Steps"). Each first checks its value completely (names,
 * widths, address ranges, bounds) and returns while the runner is only checking; then it drives
 * the device. Every stimulus is applied to the device and recorded in the op stream (the seed
 * corpus). */
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "vectors_int.h"

/* ---- stimuli ---- */

int vec_host_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct run *r = ctx;
	opstream_mem_write(&r->rec, addr, buf, len);
	return nicref_hostmem_write(r->dev, addr, buf, len);
}

int vec_host_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct run *r = ctx;
	return nicref_hostmem_read(r->dev, addr, buf, len);
}

static void bar_write(struct run *r, uint32_t off, uint32_t v)
{
	opstream_bar_write(&r->rec, off, v);
	nicref_bar_write32(r->dev, off, v);
}

static void advance(struct run *r, uint64_t ns)
{
	/* The op stream holds 32-bit advances: a longer one would be recorded as many ops (and
	 * bytes); past ADVANCE_RECORD_MAX the test is simply not exported as a seed. */
	if (ns > ADVANCE_RECORD_MAX)
		r->rec.failed = 1;
	else
		opstream_advance(&r->rec, ns);
	nicref_clock_advance(r->dev, ns);
}

/* A host memory range [addr, addr + len) for messages and checks: 0, or -1 after vbad when it
 * wraps past 2^64. */
int vec_range_ok(struct run *r, const char *field, uint64_t addr, uint64_t len)
{
	if (len == 0 || addr + (len - 1) >= addr)
		return 0;
	vbad(r, field, "0x%llx + %llu bytes wraps past 2^64", (unsigned long long)addr,
	     (unsigned long long)len);
	return -1;
}

/* A write the host memory refused: it is full (the range was checked not to wrap). */
void vec_host_refused(struct run *r, const char *what)
{
	vbad(r, NULL,
	     "host memory refused %s: it holds at most profile hostmem_max_pages = %u pages of "
	     "4 KiB, %zu in use",
	     what, r->cfg.profile.hostmem_max_pages, r->dev ? nicref_hostmem_pages(r->dev) : 0);
}

long vec_hex_bytes(struct run *r, const char *field, const json_t *v, size_t cap, bool empty_ok)
{
	long n = json_is_string(v) ? hex_length(json_string_value(v)) : -1;
	if (n < 0)
		vbad(r, field, "not hex bytes (an odd number of digits, a separator inside a digit "
			       "pair, or not a digit)");
	else if (n == 0 && !empty_ok)
		vbad(r, field, "no bytes");
	else if ((size_t)n > cap)
		vbad(r, field, "%ld bytes, at most %zu", n, cap);
	else
		return n;
	return -1;
}

/* ---- layouts ---- */

/* A command's "opcode" is a T127 name. */
enum name_space ns_command(const char *key)
{
	return strcmp(key, "opcode") == 0 ? NS_OPCODE : NS_NONE;
}

/* A field of l by name; "name[i]" (decimal i) is element i of an array field, held in *tmp.
 * NULL after vbad when there is no such field. */
static const struct nicref_field *field_lookup(struct run *r, const char *field,
					       const struct nicref_layout *l, const char *key,
					       struct nicref_field *tmp)
{
	const char *br = strchr(key, '[');
	const struct nicref_field *f;
	if (!br) {
		if (!(f = nicref_layout_field(l, key)))
			vbad(r, field, "layout %s has no field \"%s\" (nicref layouts)", l->name, key);
		return f;
	}
	char base[128];
	size_t n = (size_t)(br - key);
	unsigned long i = 0;
	const char *p = br + 1;
	if (n >= sizeof base) {
		vbad(r, field, "layout %s has no field \"%s\"", l->name, key);
		return NULL;
	}
	memcpy(base, key, n);
	base[n] = '\0';
	for (; *p >= '0' && *p <= '9' && i <= 1u << 24; p++)
		i = i * 10 + (unsigned long)(*p - '0');
	f = nicref_layout_field(l, base);
	if (!f || !(f->flags & NICREF_FIELD_ARRAY)) {
		vbad(r, field, "layout %s has no array field \"%s\"", l->name, base);
		return NULL;
	}
	if (p == br + 1 || strcmp(p, "]") != 0 || i > 1u << 24) {
		vbad(r, field, "\"%s\": an element is name[i], i a decimal index", key);
		return NULL;
	}
	*tmp = nicref_field_element(f, (uint32_t)i);
	return tmp;
}

int vec_set_fields(struct run *r, const char *what, const struct nicref_layout *l,
		   const json_t *obj, uint8_t *buf, size_t len, ns_of_fn ns_of, const char *skip)
{
	const char *key;
	json_t *v;
	int rc = 0;
	json_object_foreach((json_t *)obj, key, v)
	{
		char field[200];
		struct nicref_field tmp;
		if (skip && strcmp(key, skip) == 0)
			continue;
		snprintf(field, sizeof field, "%s.%s", what, key);
		const struct nicref_field *f = field_lookup(r, field, l, key, &tmp);
		if (!f) {
			rc = -1;
			continue;
		}
		if ((uint64_t)f->bit_offset + f->bit_width > (uint64_t)len * 8) {
			vbad(r, field, "lies past the %zu bytes %s", len,
			     ns_of == ns_command ? "of input (give a larger length)" : "built here");
			rc = -1;
			continue;
		}
		if (f->bit_width > 64) {
			uint8_t bytes[4096];
			long n = json_is_string(v) ? hex_parse(json_string_value(v), bytes, sizeof bytes)
						   : -1;
			if (n != (long)(f->bit_width / 8) ||
			    nicref_field_set_bytes(buf, len, f, bytes, (size_t)n) != 0) {
				vbad(r, field, "a %u-bit field takes exactly %u hex bytes", f->bit_width,
				     f->bit_width / 8);
				rc = -1;
			}
			continue;
		}
		uint64_t x;
		if (vnum_at(r, field, v, ns_of(key), f->bit_width, &x) != 0) {
			rc = -1;
		} else if (nicref_field_set(buf, len, f, x) != 0) {
			vbad(r, field, "cannot be set (outside the input, or wider than the field)");
			rc = -1;
		}
	}
	return rc;
}

/* ---- steps ---- */

static void st_bar_write(struct run *r, const json_t *s)
{
	uint64_t off, v;
	if (vnum(r, s, "offset", NS_NONE, 64, 0, &off) || vnum(r, s, "value", NS_NONE, 32, 0, &v))
		return;
	if (off >= BAR_LIMIT) {
		vbad(r, "offset", "0x%llx is beyond the BAR0 offsets a vector may address (below "
				  "0x%x: the op-stream seed format has 16-bit offsets)",
		     (unsigned long long)off, BAR_LIMIT);
		return;
	}
	if (!r->checking)
		bar_write(r, (uint32_t)off, (uint32_t)v);
}

/* A BAR0 read by offset (compared under mask) or by init_seg field. */
static void st_bar_read(struct run *r, const json_t *s)
{
	const json_t *fname = json_object_get(s, "field"), *want = json_object_get(s, "expect");
	const struct nicref_field *f = NULL;
	uint64_t off = 0, mask = 0xFFFFFFFFu;
	unsigned bits = 32;
	if (!fname == !json_object_get(s, "offset")) {
		vbad(r, NULL, "a bar_read names either an offset or a field of init_seg");
		return;
	}
	if (fname) {
		const char *name = json_is_string(fname) ? json_string_value(fname) : "";
		f = nicref_layout_field(nicref_layout_find("init_seg"), name);
		if (!f || f->bit_width > 32) {
			vbad(r, "field", "\"%s\" is not a field of init_seg of at most 32 bits (nicref "
					 "layouts init_seg)", name);
			return;
		}
		if (json_object_get(s, "mask")) {
			vbad(r, "mask", "goes with an offset: a field is compared whole");
			return;
		}
		off = f->prm_offset;
		bits = f->bit_width;
	} else if (vnum(r, s, "offset", NS_NONE, 64, 0, &off) ||
		   vnum(r, s, "mask", NS_NONE, 32, 0xFFFFFFFFu, &mask)) {
		return;
	} else if (off >= BAR_LIMIT) {
		vbad(r, "offset", "0x%llx is beyond the BAR0 offsets a vector may address (below "
				  "0x%x: the op-stream seed format has 16-bit offsets)",
		     (unsigned long long)off, BAR_LIMIT);
		return;
	}
	if (want && cmp_check(r, "expect", want, NS_NONE, bits) != 0)
		return;
	uint64_t w;
	if (want && !json_is_object(want) && jv_num(want, NS_NONE, 64, &w, NULL, 0) == 0 &&
	    (w & ~mask)) {
		vbad(r, "expect", "0x%llx has bits outside the mask 0x%llx", (unsigned long long)w,
		     (unsigned long long)mask);
		return;
	}
	if (r->checking)
		return;
	opstream_bar_read(&r->rec, (uint32_t)off);
	uint32_t v = nicref_bar_read32(r->dev, (uint32_t)off);
	uint64_t got = v & mask;
	if (f)
		got = (v >> f->lsb) & (bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u);
	if (want && !cmp_holds(want, NS_NONE, got)) {
		char t[160];
		cmp_text(want, NS_NONE, t, sizeof t);
		if (f)
			vfail(r, "init_seg.%s: expected %s, got 0x%llx", f->name, t,
			      (unsigned long long)got);
		else
			vfail(r, "BAR0[0x%llx] & 0x%llx: expected %s, got 0x%llx",
			      (unsigned long long)off, (unsigned long long)mask, t,
			      (unsigned long long)got);
	}
}

static void st_mem_write(struct run *r, const json_t *s)
{
	static uint8_t buf[MAX_HEX_BYTES];
	uint64_t addr;
	const json_t *hex = json_object_get(s, "hex");
	long n;
	if (vnum(r, s, "addr", NS_NONE, 64, 0, &addr) ||
	    (n = vec_hex_bytes(r, "hex", hex, MAX_HEX_BYTES, false)) < 0 ||
	    vec_range_ok(r, "addr", addr, (uint64_t)n))
		return;
	if (r->checking)
		return;
	hex_parse(json_string_value(hex), buf, sizeof buf);
	if (vec_host_write(r, addr, buf, (size_t)n) != 0) {
		char what[96];
		snprintf(what, sizeof what, "%ld bytes at 0x%llx", n, (unsigned long long)addr);
		vec_host_refused(r, what);
	}
}

/* Host-side error injection: device DMA touching the range fails like a bus error. */
static void st_dma_fault(struct run *r, const json_t *s)
{
	uint64_t addr, len;
	unsigned flags = (json_is_true(json_object_get(s, "read")) ? NICREF_FAULT_READ : 0) |
			 (json_is_true(json_object_get(s, "write")) ? NICREF_FAULT_WRITE : 0);
	if (vnum(r, s, "addr", NS_NONE, 64, 0, &addr) || vnum(r, s, "len", NS_NONE, 64, 0, &len))
		return;
	if (len == 0) {
		vbad(r, "len", "a fault range has at least one byte");
		return;
	}
	if (flags == 0) {
		vbad(r, NULL, "a fault needs \"read\": true and/or \"write\": true");
		return;
	}
	if (vec_range_ok(r, "addr", addr, len) != 0)
		return;
	if (++r->dma_faults > MAX_DMA_FAULTS) {
		vbad(r, NULL, "more than %u fault ranges in one test", MAX_DMA_FAULTS);
		return;
	}
	if (r->checking)
		return;
	if (nicref_hostmem_fault(r->dev, addr, len, flags) != 0) {
		vbad(r, NULL, "the device took no more fault ranges");
		return;
	}
	opstream_dma_fault(&r->rec, addr, len, flags);
}

/* The reference driver drives the device through the run, so its accesses are recorded in
 * the op stream like every other step's. */
static uint32_t drv_bar_read(void *ctx, uint32_t off)
{
	struct run *r = ctx;
	opstream_bar_read(&r->rec, off);
	return nicref_bar_read32(r->dev, off);
}
static void drv_bar_write(void *ctx, uint32_t off, uint32_t v)
{
	bar_write(ctx, off, v);
}
static void drv_wait(void *ctx, uint64_t ns)
{
	advance(ctx, ns);
}

struct refdrv_ops vec_driver_ops(struct run *r)
{
	return (struct refdrv_ops){ r, drv_bar_read, drv_bar_write, vec_host_write, vec_host_read,
				    drv_wait };
}

/* PRM §8.2 up to a stage, by the reference driver (harness/driver.c), which the test keeps for
 * its send-path steps (vectors_tx.c). Its events are not expectations of the test (the next
 * events step starts after them), but a violation among them still fails the test: the driver
 * must never cause one. */
static void st_bring_up(struct run *r, const json_t *s)
{
	uint64_t addr;
	int to = REFDRV_QUEUE;
	const json_t *jto = json_object_get(s, "to");
	if (vnum(r, s, "cmdq_addr", NS_NONE, 64, DEFAULT_CMDQ_ADDR, &addr))
		return;
	if ((addr & 0xFFFu) || addr > UINT64_MAX - 0xFFFu) {
		vbad(r, "cmdq_addr", "0x%llx is not a 4 KB aligned queue address (PRM §8.2: the "
				     "address registers hold bits 63:12)", (unsigned long long)addr);
		return;
	}
	if (jto && (to = json_is_string(jto) ? refdrv_stage_find(json_string_value(jto)) : -1) < 0) {
		vbad(r, "to", "not a stage of the reference driver");
		return;
	}
	/* A new bring-up is a new driver: a tx_setup must follow it. */
	r->tx = (struct vec_tx){ .stage = to };
	vec_rx_start(r); /* and an rx_setup */
	if (r->checking)
		return;
	if (!r->drv && !(r->drv = calloc(1, sizeof *r->drv))) {
		vbad(r, NULL, "out of memory");
		return;
	}
	if (r->drv_live)
		refdrv_fini(r->drv);
	struct refdrv_ops ops = vec_driver_ops(r);
	if (refdrv_init(r->drv, &ops) != 0) {
		r->drv_live = false;
		vbad(r, NULL, "out of memory");
		return;
	}
	r->drv_live = true;
	r->drv->cmdq_addr = addr;
	if (refdrv_bring_up(r->drv, (enum refdrv_stage)to) != 0)
		vfail(r, "bring_up: %s", r->drv->error);
	r->ev_cursor = r->nev;
}

/* Adds op to a small set of distinct opcodes. */
static void note_in(unsigned *set, unsigned *n, unsigned op)
{
	for (unsigned i = 0; i < *n; i++)
		if (set[i] == op)
			return;
	if (*n < REPORT_MAX_OPS)
		set[(*n)++] = op;
}

void vec_note_outcome(struct run *r, unsigned op, bool ok)
{
	if (ok)
		note_in(r->ok_ops, &r->nok, op);
	else
		note_in(r->refused_ops, &r->nrefused, op);
}

static void write_cmd_seed(struct run *r, const struct cmd_post *p)
{
	if (!r->opt->corpus_dir)
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/cmd/vec-%s-%ld-%u", r->opt->corpus_dir,
		 strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file, r->tc_id, r->ncmd);
	FILE *f = fopen(path, "wb");
	if (!f)
		return;
	uint8_t len[2] = { (uint8_t)(p->output_length >> 8), (uint8_t)p->output_length };
	fwrite(len, 1, 2, f);
	fwrite(p->in, 1, p->in_len, f);
	fclose(f);
}

static void slot_clear(struct posted *ps)
{
	memset(ps, 0, sizeof *ps);
}

/* Patches of the entry (block -1) or of one mailbox block: fields of cmdq_entry or
 * cmd_mailbox, each value within its field. */
static int add_patches(struct run *r, struct posted *ps, const char *what, const json_t *obj,
		       int block, bool output)
{
	const struct nicref_layout *l = nicref_layout_find(block < 0 ? "cmdq_entry" : "cmd_mailbox");
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		char field[200];
		uint64_t x;
		snprintf(field, sizeof field, "%s.%s", what, key);
		const struct nicref_field *f = nicref_layout_field(l, key);
		if (!f || f->bit_width > 64) {
			vbad(r, field, "%s has no field \"%s\" of at most 64 bits", l->name, key);
			return -1;
		}
		if (vnum_at(r, field, v, NS_NONE, f->bit_width, &x) != 0)
			return -1;
		if (ps->post.npatches == MAX_PATCHES) {
			vbad(r, field, "more than %u patches in one command", MAX_PATCHES);
			return -1;
		}
		/* The key lives as long as the document, which outlives the run. */
		ps->patches[ps->post.npatches++] = (struct cmd_patch){ block, output, key, x };
	}
	return 0;
}

static int add_block_patches(struct run *r, struct posted *ps, const char *key, bool output,
			     uint32_t blocks, const json_t *cmd)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(cmd, key), i, b)
	{
		char field[96];
		uint64_t k;
		snprintf(field, sizeof field, "%s[%zu].block", key, i);
		if (vnum_at(r, field, json_object_get(b, "block"), NS_NONE, 64, &k) != 0)
			return -1;
		if (k >= blocks) {
			vbad(r, field, "%llu is past the %s chain (%u block%s for %s 0x%x)",
			     (unsigned long long)k, output ? "output" : "input", blocks,
			     blocks == 1 ? "" : "s", output ? "output_length" : "input_length",
			     output ? ps->post.output_length : ps->post.input_length);
			return -1;
		}
		snprintf(field, sizeof field, "%s[%zu].fields", key, i);
		if (add_patches(r, ps, field, json_object_get(b, "fields"), (int)k, output) != 0)
			return -1;
	}
	return 0;
}

/* The input of a command: raw hex, or a layout filled field by field. Its length, or -1. */
static long command_input(struct run *r, const json_t *s, uint8_t *in)
{
	const json_t *hex = json_object_get(s, "hex");
	if (hex) {
		if (json_object_get(s, "layout") || json_object_get(s, "fields") ||
		    json_object_get(s, "length")) {
			vbad(r, "hex", "the input is raw bytes or built from a layout, not both "
				       "(drop layout, fields and length)");
			return -1;
		}
		long n = vec_hex_bytes(r, "hex", hex, MAX_CMD_BYTES, false);
		if (n > 0)
			hex_parse(json_string_value(hex), in, MAX_CMD_BYTES);
		return n;
	}
	const json_t *lname = json_object_get(s, "layout");
	const char *name = json_is_string(lname) ? json_string_value(lname) : "cmd_in";
	const struct nicref_layout *l = nicref_layout_find(name);
	uint64_t len;
	if (!l) {
		vbad(r, "layout", "\"%s\" is not a layout (nicref layouts)", name);
		return -1;
	}
	if (vnum(r, s, "length", NS_NONE, 64, l->size > 16 ? l->size : 16, &len) != 0)
		return -1;
	if (len > MAX_CMD_BYTES) {
		vbad(r, "length", "%llu bytes, at most %u", (unsigned long long)len, MAX_CMD_BYTES);
		return -1;
	}
	memset(in, 0, (size_t)len);
	const json_t *fields = json_object_get(s, "fields");
	if (fields && vec_set_fields(r, "fields", l, fields, in, (size_t)len, ns_command, NULL) != 0)
		return -1;
	return (long)len;
}

/* The mailbox chain of a length: 0, or -1 after vbad when too long or when it wraps. */
static int chain_ok(struct run *r, const char *len_key, uint64_t length, const char *mbox_key,
		    uint64_t mbox)
{
	uint64_t blocks = length > CMD_INLINE ? (length - CMD_INLINE + CMD_MBOX_DATA - 1) / CMD_MBOX_DATA
					      : 0;
	if (blocks > MAX_CHAIN_BLOCKS) {
		vbad(r, len_key, "0x%llx needs %llu mailbox blocks; a vector may use at most %u",
		     (unsigned long long)length, (unsigned long long)blocks, MAX_CHAIN_BLOCKS);
		return -1;
	}
	if (blocks == 0)
		return 0;
	return vec_range_ok(r, mbox_key, mbox, (uint64_t)(blocks - 1) * CMD_MBOX_STRIDE + CMD_MBOX_SIZE);
}

static void st_command(struct run *r, const json_t *s)
{
	const struct nicref_profile *prof = &r->cfg.profile;
	uint64_t slot, token, cmdq, in_len_field, out_len_field, in_mbox, out_mbox;
	if (vnum(r, s, "slot", NS_NONE, 64, 0, &slot))
		return;
	/* A slot past the profile's queue is a stimulus (an entry written where there is none);
	 * past 32 it is no entry of any queue. */
	if (slot >= MAX_SLOTS) {
		vbad(r, "slot", "%llu is past the %u entries a command queue has at most (PRM "
				"§7.14.1)", (unsigned long long)slot, MAX_SLOTS);
		return;
	}
	struct posted *ps = &r->slot[slot];
	slot_clear(ps);
	long in_len = command_input(r, s, r->inbuf);
	if (in_len < 0)
		return;
	if (vnum(r, s, "cmdq_addr", NS_NONE, 64, DEFAULT_CMDQ_ADDR, &cmdq) ||
	    vnum(r, s, "input_length", NS_NONE, 32, (uint64_t)in_len, &in_len_field) ||
	    vnum(r, s, "output_length", NS_NONE, 32, 16, &out_len_field) ||
	    vnum(r, s, "in_mbox", NS_NONE, 64, DEFAULT_IN_MBOX + slot * SLOT_MBOX_SPAN, &in_mbox) ||
	    vnum(r, s, "out_mbox", NS_NONE, 64, DEFAULT_OUT_MBOX + slot * SLOT_MBOX_SPAN,
		 &out_mbox) ||
	    vnum(r, s, "token", NS_NONE, 8, 0xA5, &token))
		return;
	uint64_t entry_addr = cmdq + (slot << prof->log_cmdq_stride);
	if (entry_addr < cmdq) {
		vbad(r, "cmdq_addr", "0x%llx + entry %llu wraps past 2^64", (unsigned long long)cmdq,
		     (unsigned long long)slot);
		return;
	}
	if (vec_range_ok(r, "cmdq_addr", entry_addr, 64) != 0 ||
	    chain_ok(r, "input_length", in_len_field, "in_mbox", in_mbox) != 0 ||
	    chain_ok(r, "output_length", out_len_field, "out_mbox", out_mbox) != 0)
		return;
	const json_t *sign = json_object_get(s, "sign"), *ring = json_object_get(s, "ring");
	const json_t *expect = json_object_get(s, "expect");
	ps->post = (struct cmd_post){
		.entry_addr = entry_addr,
		.in = r->inbuf,
		.in_len = (size_t)in_len,
		.input_length = (uint32_t)in_len_field,
		.output_length = (uint32_t)out_len_field,
		.in_mbox = in_mbox,
		.out_mbox = out_mbox,
		.token = (uint8_t)token,
		.sign = sign ? json_is_true(sign) : true,
		.patches = ps->patches,
	};
	const json_t *entry = json_object_get(s, "entry");
	if ((entry && add_patches(r, ps, "entry", entry, -1, false) != 0) ||
	    add_block_patches(r, ps, "mailbox_in", false, cmd_blocks_for(ps->post.input_length),
			      s) != 0 ||
	    add_block_patches(r, ps, "mailbox_out", true, cmd_blocks_for(ps->post.output_length),
			      s) != 0)
		return;
	if (ring && !json_is_true(ring) && expect) {
		vbad(r, "expect", "a command with \"ring\": false does not complete here; check it "
				  "with a completion step after the doorbell");
		return;
	}
	if (expect && expect_check(r, "expect", expect, ps->post.output_length) != 0)
		return;
	ps->used = true;
	ps->has_opcode = in_len >= 2;
	ps->opcode = (unsigned)(r->inbuf[0] << 8 | r->inbuf[1]);
	if (r->checking)
		return;
	if (cmd_post_write(&ps->post, vec_host_write, r) != 0) {
		vec_host_refused(r, "the entry or a mailbox block");
		return;
	}
	if (ps->has_opcode)
		note_in(r->opcodes, &r->nopcodes, ps->opcode);
	write_cmd_seed(r, &ps->post);
	ps->post.in = NULL; /* r->inbuf is the next command's */
	r->ncmd++;
	if (ring && !json_is_true(ring))
		return;
	bar_write(r, 0x18, (uint32_t)(1u << slot));
	if (expect)
		expect_compare(r, (unsigned)slot, expect);
}

static void st_completion(struct run *r, const json_t *s)
{
	uint64_t slot;
	if (vnum(r, s, "slot", NS_NONE, 64, 0, &slot))
		return;
	if (slot >= MAX_SLOTS || !r->slot[slot].used) {
		vbad(r, "slot", "no command was posted in slot %llu before this step",
		     (unsigned long long)slot);
		return;
	}
	if (expect_check(r, NULL, s, r->slot[slot].post.output_length) != 0 || r->checking)
		return;
	expect_compare(r, (unsigned)slot, s);
}

static void st_advance(struct run *r, const json_t *v)
{
	uint64_t ns;
	if (vnum_at(r, NULL, v, NS_NONE, 64, &ns) == 0 && !vec_roce_advance(r, ns) && !r->checking)
		advance(r, ns);
}

static void st_doorbell(struct run *r, const json_t *v)
{
	uint64_t bits;
	if (vnum_at(r, NULL, v, NS_NONE, 32, &bits) == 0 && !r->checking)
		bar_write(r, 0x18, (uint32_t)bits);
}

/* The step kinds of docs/vectors.md, one row each. */
static const struct {
	const char *name;
	void (*run)(struct run *r, const json_t *v);
} step_kinds[] = {
	{ "bring_up", st_bring_up },	   { "bar_write", st_bar_write },
	{ "bar_read", st_bar_read },	   { "mem_write", st_mem_write },
	{ "mem_expect", step_mem_expect }, { "dma_fault", st_dma_fault },
	{ "advance_ns", st_advance },	   { "command", st_command },
	{ "doorbell", st_doorbell },	   { "completion", st_completion },
	{ "events", step_events },	   { "adp_timeline", step_adp_timeline },
	{ "tx_setup", st_tx_setup },	   { "wqe", st_wqe },
	{ "sq_ring", st_sq_ring },	   { "frames", step_frames },
	{ "cqes", step_cqes },		   { "rx_setup", st_rx_setup },
	{ "rq_post", st_rq_post },	   { "rx_frame", st_rx_frame },
	{ "steer", st_steer },		   { "flow_counters", st_flow_counters },
	{ "modify_tir", st_modify_tir },   { "destroy_tir", st_destroy_tir },
	{ "rq_state", st_rq_state },
	/* RoCE (docs/vectors.md "RoCE") */
	{ "qp_setup", st_qp_setup },	   { "qp_post", st_qp_post },
	{ "qp_recv", st_qp_recv },	   { "link", st_link },
	{ "link_counters", st_link_counters },
	/* the PCIe data link layer (docs/pcie.md) */
	{ "dll", step_pcie_dll },	   { "tl_send", step_pcie_tl_send },
	{ "rx_tlp", step_pcie_rx_tlp },	   { "rx_dllp", step_pcie_rx_dllp },
	{ "advance", step_pcie_advance },  { "retrain_done", step_pcie_retrain_done },
	{ "link_down", step_pcie_link_down }, { "expect", step_pcie_expect },
};

void vec_step(struct run *r, const json_t *step, size_t index)
{
	const char *key;
	json_t *v;
	r->step = (long)index;
	r->kind = NULL;
	/* In a group of two devices "dev" may stand beside the step's key (vectors_roce.c). */
	bool dev = json_is_object(step) && json_object_get(step, "dev");
	if (!json_is_object(step) || json_object_size(step) != 1u + dev) {
		vbad(r, NULL, "a step is an object with exactly one key%s",
		     dev ? " beside \"dev\"" : "");
	} else {
		json_object_foreach((json_t *)step, key, v)
		{
			if (!strcmp(key, "dev"))
				continue;
			size_t k = 0, n = sizeof step_kinds / sizeof step_kinds[0];
			while (k < n && strcmp(step_kinds[k].name, key) != 0)
				k++;
			if (k == n) {
				vbad(r, NULL, "unknown step \"%s\"", key);
				break;
			}
			r->kind = step_kinds[k].name;
			int prev = vec_roce_step_begin(r, step, r->kind);
			if (prev == -2)
				break;
			step_kinds[k].run(r, v);
			vec_roce_step_end(r, prev);
		}
	}
	r->step = -1;
	r->kind = NULL;
}
