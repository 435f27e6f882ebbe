/* The golden-vector runner. The file format is docs/vectors.md, its schema
 * vectors/schemas/vector_file.schema.json. */
#include <dirent.h>
#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdbuild.h"
#include "driver.h"
#include "jsonval.h"
#include "opstream.h"
#include "vectors.h"
#include "vectors_adp.h"

/* Where the runner places things in host memory unless a test says otherwise. */
#define DEFAULT_CMDQ_ADDR 0x10000ull
#define DEFAULT_IN_MBOX 0x100000ull  /* + slot * SLOT_MBOX_SPAN */
#define DEFAULT_OUT_MBOX 0x800000ull /* + slot * SLOT_MBOX_SPAN */
#define SLOT_MBOX_SPAN 0x40000ull     /* room for 256 blocks per slot and direction */
#define MAX_CMD_BYTES (16u + 1024u * 512u)
#define MAX_SLOTS 32u
#define MAX_PATCHES 32u

struct posted {
	bool used;
	struct cmd_post post;
	uint8_t *in; /* owned copy of the input bytes */
	struct cmd_patch patches[MAX_PATCHES];
	char *patch_names[MAX_PATCHES];
};

struct run {
	const struct vec_options *opt;
	struct nicref_dev *dev;
	struct nicref_config cfg;
	/* this test */
	struct nicref_event *ev;
	bool *ev_matched;
	size_t nev, cap_ev, ev_cursor;
	char *fail;
	size_t fail_len;
	struct posted slot[MAX_SLOTS];
	struct opstream rec;
	unsigned opcodes[REPORT_MAX_OPS], nopcodes;
	unsigned ok_ops[REPORT_MAX_OPS], nok, refused_ops[REPORT_MAX_OPS], nrefused;
	unsigned ncmd;
	const char *file;
	long tc_id;
	FILE *out;
};

static void failf(struct run *r, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	size_t n = strlen(line);
	char *p = realloc(r->fail, r->fail_len + n + 2);
	if (!p)
		return;
	r->fail = p;
	memcpy(r->fail + r->fail_len, line, n);
	r->fail_len += n;
	r->fail[r->fail_len++] = '\n';
	r->fail[r->fail_len] = '\0';
	fprintf(r->out, "FAIL %s#%ld: %s\n", r->file, r->tc_id, line);
}

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct run *r = ctx;
	if (r->nev == r->cap_ev) {
		size_t cap = r->cap_ev ? 2 * r->cap_ev : 64;
		struct nicref_event *e = realloc(r->ev, cap * sizeof *e);
		bool *m = realloc(r->ev_matched, cap * sizeof *m);
		if (e)
			r->ev = e;
		if (m)
			r->ev_matched = m;
		if (!e || !m)
			return;
		r->cap_ev = cap;
	}
	r->ev[r->nev] = *ev;
	r->ev_matched[r->nev] = false;
	r->nev++;
	if (r->opt->trace) {
		char line[256];
		nicref_event_format(ev, line, sizeof line);
		fprintf(r->opt->trace, "%s#%ld %s\n", r->file, r->tc_id, line);
	}
}

/* --- stimuli: every one is applied to the device and recorded for the seed corpus --- */

static int host_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct run *r = ctx;
	opstream_mem_write(&r->rec, addr, buf, len);
	return nicref_hostmem_write(r->dev, addr, buf, len);
}

static int host_read(void *ctx, uint64_t addr, void *buf, size_t len)
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
	opstream_advance(&r->rec, ns);
	nicref_clock_advance(r->dev, ns);
}

/* --- helpers --- */

static int get_u64(struct run *r, const json_t *obj, const char *key, enum name_space ns,
		   uint64_t dflt, uint64_t *out)
{
	const json_t *v = json_object_get(obj, key);
	char err[160];
	if (!v) {
		*out = dflt;
		return 0;
	}
	if (jv_u64(v, ns, out, err, sizeof err) != 0) {
		failf(r, "%s: %s", key, err);
		return -1;
	}
	return 0;
}

/* A field of l by name; "name[i]" is element i of an array field (pas[3], rq_num[0]), held in
 * *tmp. NULL when there is no such field. */
static const struct nicref_field *field_lookup(const struct nicref_layout *l, const char *key,
					       struct nicref_field *tmp)
{
	const char *br = strchr(key, '[');
	if (!br)
		return nicref_layout_field(l, key);
	char base[128];
	size_t n = (size_t)(br - key);
	char *end;
	if (n >= sizeof base)
		return NULL;
	memcpy(base, key, n);
	base[n] = 0;
	unsigned long i = strtoul(br + 1, &end, 0);
	const struct nicref_field *f = nicref_layout_field(l, base);
	if (!f || !(f->flags & NICREF_FIELD_ARRAY) || end == br + 1 || strcmp(end, "]") != 0 ||
	    i > 1u << 20)
		return NULL;
	*tmp = nicref_field_element(f, (uint32_t)i);
	return tmp;
}

/* Sets every "name": value of obj into buf through layout l. */
static int set_fields(struct run *r, const struct nicref_layout *l, const json_t *obj,
		      uint8_t *buf, size_t len)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		struct nicref_field tmp;
		const struct nicref_field *f = field_lookup(l, key, &tmp);
		if (!f) {
			failf(r, "layout %s has no field '%s'", l->name, key);
			return -1;
		}
		if (json_is_string(v) && f->bit_width > 64) {
			uint8_t bytes[4096];
			long n = hex_parse(json_string_value(v), bytes, sizeof bytes);
			if (n != (long)(f->bit_width / 8) ||
			    nicref_field_set_bytes(buf, len, f, bytes, (size_t)n) != 0) {
				failf(r, "%s.%s: want %u hex bytes", l->name, key, f->bit_width / 8);
				return -1;
			}
			continue;
		}
		uint64_t x;
		char err[160];
		enum name_space ns = strcmp(key, "opcode") == 0 ? NS_OPCODE : NS_NONE;
		if (jv_u64(v, ns, &x, err, sizeof err) != 0 ||
		    nicref_field_set(buf, len, f, x) != 0) {
			failf(r, "%s.%s: value does not fit (%u bits) or is not a number", l->name,
			      key, f->bit_width);
			return -1;
		}
	}
	return 0;
}

/* Compares every "name": value of obj with the fields of buf under layout l. */
static void expect_fields(struct run *r, const char *what, const struct nicref_layout *l,
			  const json_t *obj, const uint8_t *buf, size_t len)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		struct nicref_field tmp;
		const struct nicref_field *f = field_lookup(l, key, &tmp);
		uint64_t want, got;
		char err[160];
		if (!f) {
			failf(r, "layout %s has no field '%s'", l->name, key);
			continue;
		}
		if (f->bit_width > 64) {
			uint8_t w[4096], g[4096];
			char hw[8193], hg[8193];
			long n = json_is_string(v) ? hex_parse(json_string_value(v), w, sizeof w) : -1;
			if (n != (long)(f->bit_width / 8) ||
			    nicref_field_get_bytes(buf, len, f, g, (size_t)n) != 0) {
				failf(r, "%s.%s: cannot compare (want %u hex bytes)", what, key,
				      f->bit_width / 8);
				continue;
			}
			if (memcmp(w, g, (size_t)n) != 0) {
				hex_format(w, (size_t)n, hw);
				hex_format(g, (size_t)n, hg);
				failf(r, "%s.%s: expected %s, got %s", what, key, hw, hg);
			}
			continue;
		}
		if (jv_u64(v, NS_NONE, &want, err, sizeof err) != 0) {
			failf(r, "%s.%s: %s", what, key, err);
			continue;
		}
		if (nicref_field_get(buf, len, f, &got) != 0) {
			failf(r, "%s.%s: outside the %zu bytes returned", what, key, len);
			continue;
		}
		if (got != want)
			failf(r, "%s.%s: expected %llu (0x%llx), got %llu (0x%llx)", what, key,
			      (unsigned long long)want, (unsigned long long)want,
			      (unsigned long long)got, (unsigned long long)got);
	}
}

static const char *status_label(unsigned v, int delivery)
{
	const char *n = delivery ? nicref_delivery_status_name(v) : nicref_cmd_status_name(v);
	return n ? n : "?";
}

/* --- steps --- */

static void step_bar_read(struct run *r, const json_t *s)
{
	const json_t *fname = json_object_get(s, "field");
	const struct nicref_layout *l = nicref_layout_find("init_seg");
	uint64_t off, want;
	if (fname) {
		const struct nicref_field *f =
			json_is_string(fname) ? nicref_layout_field(l, json_string_value(fname))
					      : NULL;
		if (!f) {
			failf(r, "bar_read: init_seg has no field %s",
			      json_is_string(fname) ? json_string_value(fname) : "?");
			return;
		}
		opstream_bar_read(&r->rec, f->prm_offset);
		uint32_t v = nicref_bar_read32(r->dev, f->prm_offset);
		uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8),
				 (uint8_t)v };
		uint64_t got = 0;
		struct nicref_field local = *f;
		local.bit_offset = 31u - f->msb;
		(void)nicref_field_get(b, 4, &local, &got);
		if (get_u64(r, s, "expect", NS_NONE, 0, &want) == 0 && got != want)
			failf(r, "init_seg.%s: expected 0x%llx, got 0x%llx", f->name,
			      (unsigned long long)want, (unsigned long long)got);
		return;
	}
	if (get_u64(r, s, "offset", NS_NONE, 0, &off) != 0)
		return;
	opstream_bar_read(&r->rec, (uint32_t)off);
	uint32_t got = nicref_bar_read32(r->dev, (uint32_t)off);
	uint64_t mask = 0xFFFFFFFFu;
	if (get_u64(r, s, "mask", NS_NONE, 0xFFFFFFFFu, &mask) != 0)
		return;
	if (json_object_get(s, "expect") && get_u64(r, s, "expect", NS_NONE, 0, &want) == 0 &&
	    (got & mask) != (want & mask))
		failf(r, "BAR0[0x%llx] & 0x%llx: expected 0x%llx, got 0x%x",
		      (unsigned long long)off, (unsigned long long)mask,
		      (unsigned long long)(want & mask), (unsigned)(got & mask));
}

static void step_mem_write(struct run *r, const json_t *s)
{
	uint64_t addr;
	const json_t *hex = json_object_get(s, "hex");
	static uint8_t buf[1 << 16];
	if (get_u64(r, s, "addr", NS_NONE, 0, &addr) != 0)
		return;
	long n = json_is_string(hex) ? hex_parse(json_string_value(hex), buf, sizeof buf) : -1;
	if (n < 0) {
		failf(r, "mem_write: bad hex");
		return;
	}
	if (host_write(r, addr, buf, (size_t)n) != 0)
		failf(r, "mem_write: host memory refused 0x%llx", (unsigned long long)addr);
}

static void step_mem_expect(struct run *r, const json_t *s)
{
	uint64_t addr;
	const json_t *hex = json_object_get(s, "hex");
	static uint8_t want[1 << 16], got[1 << 16];
	if (get_u64(r, s, "addr", NS_NONE, 0, &addr) != 0)
		return;
	long n = json_is_string(hex) ? hex_parse(json_string_value(hex), want, sizeof want) : -1;
	if (n < 0) {
		failf(r, "mem_expect: bad hex");
		return;
	}
	(void)nicref_hostmem_read(r->dev, addr, got, (size_t)n);
	for (long i = 0; i < n; i++)
		if (want[i] != got[i]) {
			failf(r, "memory[0x%llx]: expected 0x%02x, got 0x%02x",
			      (unsigned long long)(addr + (uint64_t)i), want[i], got[i]);
			return;
		}
}

/* Host-side error injection: device DMA touching the range fails like a bus error. */
static void step_dma_fault(struct run *r, const json_t *s)
{
	uint64_t addr, len;
	unsigned flags = (json_is_true(json_object_get(s, "read")) ? NICREF_FAULT_READ : 0) |
			 (json_is_true(json_object_get(s, "write")) ? NICREF_FAULT_WRITE : 0);
	if (get_u64(r, s, "addr", NS_NONE, 0, &addr) != 0 ||
	    get_u64(r, s, "len", NS_NONE, 0, &len) != 0)
		return;
	if (flags == 0 || nicref_hostmem_fault(r->dev, addr, len, flags) != 0) {
		failf(r, "dma_fault: needs read and/or write, a length, and at most 8 ranges");
		return;
	}
	opstream_dma_fault(&r->rec, addr, len, flags);
}

/* The §8.2 steps up to a queue that takes commands: address MSW, LSW, poll initializing. */
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

/* PRM §8.2 up to a stage, by the reference driver (harness/driver.c). Its events are not
 * expectations of the test (the next events step starts after them), but a violation among
 * them still fails the test: the driver must never cause one. */
static void step_bring_up(struct run *r, const json_t *s)
{
	uint64_t addr = DEFAULT_CMDQ_ADDR;
	int to = REFDRV_QUEUE;
	if (json_is_object(s) && get_u64(r, s, "cmdq_addr", NS_NONE, DEFAULT_CMDQ_ADDR, &addr))
		return;
	const json_t *jto = json_is_object(s) ? json_object_get(s, "to") : NULL;
	if (jto && (!json_is_string(jto) || (to = refdrv_stage_find(json_string_value(jto))) < 0)) {
		failf(r, "bring_up: unknown stage");
		return;
	}
	struct refdrv_ops ops = { r, drv_bar_read, drv_bar_write, host_write, host_read, drv_wait };
	struct refdrv d;
	if (refdrv_init(&d, &ops) != 0) {
		failf(r, "bring_up: out of memory");
		return;
	}
	d.cmdq_addr = addr;
	if (refdrv_bring_up(&d, (enum refdrv_stage)to) != 0)
		failf(r, "bring_up: %s", d.error);
	refdrv_fini(&d);
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

static void note_opcode(struct run *r, unsigned opcode)
{
	note_in(r->opcodes, &r->nopcodes, opcode);
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
	free(ps->in);
	for (unsigned i = 0; i < MAX_PATCHES; i++)
		free(ps->patch_names[i]);
	memset(ps, 0, sizeof *ps);
}

static int add_patches(struct run *r, struct posted *ps, const json_t *obj, int block,
		       bool output)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		if (ps->post.npatches == MAX_PATCHES) {
			failf(r, "too many patches");
			return -1;
		}
		uint64_t x;
		char err[160];
		if (jv_u64(v, NS_NONE, &x, err, sizeof err) != 0) {
			failf(r, "patch %s: %s", key, err);
			return -1;
		}
		size_t i = ps->post.npatches++;
		ps->patch_names[i] = strdup(key);
		ps->patches[i] = (struct cmd_patch){ block, output, ps->patch_names[i], x };
	}
	return 0;
}

static int add_block_patches(struct run *r, struct posted *ps, const json_t *arr, bool output)
{
	size_t i;
	json_t *b;
	json_array_foreach((json_t *)arr, i, b)
	{
		uint64_t k;
		if (get_u64(r, b, "block", NS_NONE, 0, &k) != 0 ||
		    add_patches(r, ps, json_object_get(b, "fields"), (int)k, output) != 0)
			return -1;
	}
	return 0;
}

static void check_completion(struct run *r, unsigned slot, const json_t *e);

static void step_command(struct run *r, const json_t *s)
{
	uint64_t slot, token, v;
	if (get_u64(r, s, "slot", NS_NONE, 0, &slot) != 0)
		return;
	if (slot >= MAX_SLOTS) {
		failf(r, "command: slot %llu out of range", (unsigned long long)slot);
		return;
	}
	struct posted *ps = &r->slot[slot];
	slot_clear(ps);
	ps->in = calloc(1, MAX_CMD_BYTES);
	if (!ps->in)
		return;

	/* The input: hex, or a layout filled field by field (opcode by name allowed). */
	size_t in_len = 16;
	const json_t *hex = json_object_get(s, "hex");
	const json_t *lname = json_object_get(s, "layout");
	const struct nicref_layout *l = NULL;
	if (json_is_string(hex)) {
		long n = hex_parse(json_string_value(hex), ps->in, MAX_CMD_BYTES);
		if (n < 0) {
			failf(r, "command: bad hex");
			return;
		}
		in_len = (size_t)n;
	} else {
		l = nicref_layout_find(json_is_string(lname) ? json_string_value(lname) : "cmd_in");
		if (!l) {
			failf(r, "command: unknown layout %s", json_string_value(lname));
			return;
		}
		in_len = l->size > 16 ? l->size : 16;
		if (get_u64(r, s, "length", NS_NONE, in_len, &v) != 0 || v > MAX_CMD_BYTES)
			return;
		in_len = (size_t)v;
		const json_t *fields = json_object_get(s, "fields");
		if (fields && set_fields(r, l, fields, ps->in, in_len) != 0)
			return;
	}
	struct cmd_post *p = &ps->post;
	const struct nicref_profile *prof = &r->cfg.profile;
	uint64_t cmdq = DEFAULT_CMDQ_ADDR, in_len_field, out_len_field, in_mbox, out_mbox;
	if (get_u64(r, s, "cmdq_addr", NS_NONE, DEFAULT_CMDQ_ADDR, &cmdq) ||
	    get_u64(r, s, "input_length", NS_NONE, in_len, &in_len_field) ||
	    get_u64(r, s, "output_length", NS_NONE, 16, &out_len_field) ||
	    get_u64(r, s, "in_mbox", NS_NONE, DEFAULT_IN_MBOX + slot * SLOT_MBOX_SPAN, &in_mbox) ||
	    get_u64(r, s, "out_mbox", NS_NONE, DEFAULT_OUT_MBOX + slot * SLOT_MBOX_SPAN,
		    &out_mbox) ||
	    get_u64(r, s, "token", NS_NONE, 0xA5, &token))
		return;
	const json_t *sign = json_object_get(s, "sign");
	*p = (struct cmd_post){
		.entry_addr = cmdq + (slot << prof->log_cmdq_stride),
		.in = ps->in,
		.in_len = in_len,
		.input_length = (uint32_t)in_len_field,
		.output_length = (uint32_t)out_len_field,
		.in_mbox = in_mbox,
		.out_mbox = out_mbox,
		.token = (uint8_t)token,
		.sign = sign ? json_is_true(sign) : true,
		.patches = ps->patches,
	};
	const json_t *entry = json_object_get(s, "entry");
	if ((entry && add_patches(r, ps, entry, -1, false) != 0) ||
	    add_block_patches(r, ps, json_object_get(s, "mailbox_in"), false) != 0 ||
	    add_block_patches(r, ps, json_object_get(s, "mailbox_out"), true) != 0)
		return;
	if (cmd_post_write(p, host_write, r) != 0) {
		failf(r, "command: could not write the entry or a mailbox (bad patch field?)");
		return;
	}
	ps->used = true;
	note_opcode(r, (unsigned)(ps->in[0] << 8 | ps->in[1]));
	write_cmd_seed(r, p);
	r->ncmd++;

	const json_t *ring = json_object_get(s, "ring");
	if (ring && !json_is_true(ring))
		return;
	bar_write(r, 0x18, 1u << slot);
	check_completion(r, (unsigned)slot, json_object_get(s, "expect"));
}

static void check_completion(struct run *r, unsigned slot, const json_t *e)
{
	struct posted *ps = &r->slot[slot];
	static uint8_t out[MAX_CMD_BYTES];
	struct cmd_result res;
	uint64_t want;
	char err[160];

	if (!e)
		return;
	if (!ps->used) {
		failf(r, "completion: nothing was posted in slot %u", slot);
		return;
	}
	if (cmd_result_read(&ps->post, host_read, r, out, sizeof out, &res) != 0) {
		failf(r, "completion: could not read slot %u back", slot);
		return;
	}
	if (res.ownership == 0 && ps->post.in_len >= 2) {
		unsigned op = (unsigned)(ps->in[0] << 8 | ps->in[1]);
		if (res.delivery == 0 && res.status == 0)
			note_in(r->ok_ops, &r->nok, op);
		else
			note_in(r->refused_ops, &r->nrefused, op);
	}
	const json_t *v;
	if ((v = json_object_get(e, "ownership")) ? jv_u64(v, NS_NONE, &want, err, sizeof err) == 0
						  : (want = 0, 1)) {
		if (res.ownership != want)
			failf(r, "slot %u entry.ownership: expected %llu, got %u", slot,
			      (unsigned long long)want, res.ownership);
	}
	if ((v = json_object_get(e, "delivery")) ? jv_u64(v, NS_DELIVERY, &want, err, sizeof err) == 0
						 : (want = 0, 1)) {
		if (res.delivery != want)
			failf(r, "slot %u entry.status (delivery): expected %s (0x%llx), got %s (0x%x)",
			      slot, status_label((unsigned)want, 1), (unsigned long long)want,
			      status_label(res.delivery, 1), res.delivery);
	} else {
		failf(r, "delivery: %s", err);
	}
	if ((v = json_object_get(e, "status"))) {
		if (jv_u64(v, NS_STATUS, &want, err, sizeof err) != 0)
			failf(r, "status: %s", err);
		else if (res.status != want)
			failf(r, "slot %u output.status: expected %s (0x%llx), got %s (0x%x)", slot,
			      status_label((unsigned)want, 0), (unsigned long long)want,
			      status_label(res.status, 0), res.status);
	}
	if ((v = json_object_get(e, "rule"))) {
		/* D-CMD-6: the syndrome names the refusing rule. */
		if (jv_u64(v, NS_CMD_RULE, &want, err, sizeof err) != 0)
			failf(r, "rule: %s", err);
		else if (res.syndrome != nicref_cmd_rule_syndrome((unsigned)want))
			failf(r, "slot %u output.syndrome: expected 0x%08x (rule %s), got 0x%08x",
			      slot, nicref_cmd_rule_syndrome((unsigned)want),
			      nicref_cmd_rule_name((unsigned)want), res.syndrome);
	}
	if ((v = json_object_get(e, "syndrome"))) {
		if (jv_u64(v, NS_NONE, &want, err, sizeof err) != 0)
			failf(r, "syndrome: %s", err);
		else if (res.syndrome != want)
			failf(r, "slot %u output.syndrome: expected 0x%08llx, got 0x%08x", slot,
			      (unsigned long long)want, res.syndrome);
	}
	if ((v = json_object_get(e, "entry_signature_valid")) &&
	    json_is_true(v) != res.entry_sig_ok)
		failf(r, "slot %u entry.signature: expected the entry to XOR to %s0xFF", slot,
		      res.entry_sig_ok ? "not " : "");
	if ((v = json_object_get(e, "output_signatures_valid")) &&
	    json_is_true(v) != res.out_sigs_ok)
		failf(r, "slot %u output mailbox signatures: expected %s", slot,
		      json_is_true(v) ? "valid" : "invalid");
	if ((v = json_object_get(e, "entry")))
		expect_fields(r, "entry", nicref_layout_find("cmdq_entry"), v, res.entry,
			      sizeof res.entry);
	if ((v = json_object_get(e, "output"))) {
		const json_t *ln = json_object_get(v, "layout");
		const struct nicref_layout *l =
			nicref_layout_find(json_is_string(ln) ? json_string_value(ln) : "cmd_out");
		if (!l)
			failf(r, "output: unknown layout");
		else
			expect_fields(r, "output", l, json_object_get(v, "fields"), out,
				      res.out_len);
	}
	if ((v = json_object_get(e, "output_hex"))) {
		static uint8_t w[MAX_CMD_BYTES];
		long n = json_is_string(v) ? hex_parse(json_string_value(v), w, sizeof w) : -1;
		if (n < 0 || (size_t)n > res.out_len)
			failf(r, "output_hex: bad hex or longer than the output");
		else
			for (long i = 0; i < n; i++)
				if (w[i] != out[i]) {
					failf(r, "output byte %ld: expected 0x%02x, got 0x%02x", i,
					      w[i], out[i]);
					break;
				}
	}
}

static void step_completion(struct run *r, const json_t *s)
{
	uint64_t slot;
	if (get_u64(r, s, "slot", NS_NONE, 0, &slot) != 0 || slot >= MAX_SLOTS)
		return;
	check_completion(r, (unsigned)slot, s);
}

static enum name_space arg_space(enum nicref_event_kind k, const char *arg)
{
	if (strcmp(arg, "rule") == 0)
		return k == NICREF_EV_VIOLATION ? NS_VIOLATION : NS_CMD_RULE;
	if (strcmp(arg, "status") == 0)
		return NS_STATUS;
	if (strcmp(arg, "delivery") == 0)
		return NS_DELIVERY;
	if (strcmp(arg, "opcode") == 0)
		return NS_OPCODE;
	return NS_NONE;
}

static bool event_matches(struct run *r, const struct nicref_event *ev, int kind,
			  const json_t *want, bool report)
{
	const char *key;
	json_t *v;
	if ((int)ev->kind != kind)
		return false;
	json_object_foreach((json_t *)want, key, v)
	{
		if (strcmp(key, "event") == 0)
			continue;
		int i = nicref_event_arg_find(ev->kind, key);
		uint64_t x;
		char err[160];
		if (i < 0 || jv_u64(v, arg_space(ev->kind, key), &x, err, sizeof err) != 0) {
			if (report)
				failf(r, "events: %s has no argument '%s' or a bad value",
				      nicref_event_name(ev->kind), key);
			return false;
		}
		if (ev->arg[i] != x)
			return false;
	}
	return true;
}

static void describe(const json_t *want, char *buf, size_t len)
{
	char *s = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
	snprintf(buf, len, "%s", s ? s : "?");
	free(s);
}

/* Expected events appear in order among the events since the last check (exact: and nothing
 * else). */
static void step_events(struct run *r, const json_t *s)
{
	const json_t *list = json_object_get(s, "expect");
	bool exact = json_is_true(json_object_get(s, "exact"));
	size_t i;
	json_t *want;
	size_t at = r->ev_cursor;
	json_array_foreach((json_t *)list, i, want)
	{
		const json_t *kn = json_object_get(want, "event");
		int kind = json_is_string(kn) ? nicref_event_kind_find(json_string_value(kn)) : -1;
		char d[512];
		if (kind < 0) {
			failf(r, "events: unknown event kind");
			return;
		}
		size_t j = at;
		if (exact) {
			if (j >= r->nev || !event_matches(r, &r->ev[j], kind, want, true)) {
				describe(want, d, sizeof d);
				char got[256] = "nothing";
				if (j < r->nev)
					nicref_event_format(&r->ev[j], got, sizeof got);
				failf(r, "events[%zu]: expected %s, got %s", i, d, got);
				return;
			}
		} else {
			while (j < r->nev && !event_matches(r, &r->ev[j], kind, want, false))
				j++;
			if (j == r->nev) {
				describe(want, d, sizeof d);
				failf(r, "events: expected %s (in order), not found", d);
				return;
			}
		}
		r->ev_matched[j] = true;
		at = j + 1;
	}
	if (exact && at != r->nev) {
		char got[256];
		nicref_event_format(&r->ev[at], got, sizeof got);
		failf(r, "events: unexpected further event %s", got);
	}
	r->ev_cursor = r->nev;
}

static void step_bar_write(struct run *r, const json_t *s)
{
	uint64_t off, v;
	if (get_u64(r, s, "offset", NS_NONE, 0, &off) == 0 &&
	    get_u64(r, s, "value", NS_NONE, 0, &v) == 0)
		bar_write(r, (uint32_t)off, (uint32_t)v);
}

/* Steps whose value is a bare number. */
static int step_number(struct run *r, const json_t *v, const char *what, uint64_t *out)
{
	char err[160];
	if (jv_u64(v, NS_NONE, out, err, sizeof err) == 0)
		return 0;
	failf(r, "%s: %s", what, err);
	return -1;
}

static void step_advance(struct run *r, const json_t *v)
{
	uint64_t ns;
	if (step_number(r, v, "advance_ns", &ns) == 0)
		advance(r, ns);
}

static void step_doorbell(struct run *r, const json_t *v)
{
	uint64_t bits;
	if (step_number(r, v, "doorbell", &bits) == 0)
		bar_write(r, 0x18, (uint32_t)bits);
}

/* adp_timeline (harness/vectors_adp.c): an ADP timeline compared attempt by attempt. */
static void adp_fail(void *ctx, const char *msg)
{
	failf(ctx, "%s", msg);
}
static void step_adp_timeline(struct run *r, const json_t *v)
{
	vec_adp_timeline(v, r->dev, adp_fail, r);
}

/* The step kinds of docs/vectors.md, one row each. */
static const struct {
	const char *name;
	void (*run)(struct run *r, const json_t *v);
} step_kinds[] = {
	{ "bring_up", step_bring_up },	     { "bar_write", step_bar_write },
	{ "bar_read", step_bar_read },	     { "mem_write", step_mem_write },
	{ "mem_expect", step_mem_expect },   { "dma_fault", step_dma_fault },
	{ "advance_ns", step_advance },	     { "command", step_command },
	{ "doorbell", step_doorbell },	     { "completion", step_completion },
	{ "events", step_events },	     { "adp_timeline", step_adp_timeline },
};

static void run_step(struct run *r, const json_t *step, size_t index)
{
	const char *key;
	json_t *v;
	if (json_object_size(step) != 1) {
		failf(r, "step %zu: a step has exactly one key", index);
		return;
	}
	json_object_foreach((json_t *)step, key, v)
	{
		size_t k = 0, n = sizeof step_kinds / sizeof step_kinds[0];
		while (k < n && strcmp(step_kinds[k].name, key) != 0)
			k++;
		if (k == n)
			failf(r, "step %zu: unknown step '%s'", index, key);
		else
			step_kinds[k].run(r, v);
	}
}

/* Profile settings a group may change: name, offset, size. */
#define PROFILE_FIELDS(X)                                                                       \
	X(fw_rev_major) X(fw_rev_minor) X(fw_rev_subminor) X(cmd_interface_rev)                 \
	X(log_cmdq_size) X(log_cmdq_stride) X(nic_interface_supported) X(cmdif_checksum)        \
	X(init_delay_ns) X(health_period_ns) X(timer_khz) X(max_mailbox_blocks)                 \
	X(hostmem_max_pages) X(reserved_check) X(boot_pages) X(init_pages) X(max_icm_pages)     \
	X(supported_issi) X(msix_vectors) X(num_ports) X(uar_base) X(log_max_pd)                \
	X(log_max_transport_domain) X(driver_version) X(adp_max_range_num)                      \
	X(adp_max_profile_id) X(adp_base_timeout_min_ns) X(adp.first_timeout)                   \
	X(adp.dec_reading) X(adp.init_range) X(adp.dec_trigger) X(log_max_objects)               \
	X(contexts_per_page)

static int apply_profile(struct run *r, struct nicref_profile *p, const json_t *obj)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		uint64_t x;
		char err[160];
		if (jv_u64(v, NS_NONE, &x, err, sizeof err) != 0) {
			failf(r, "profile.%s: %s", key, err);
			return -1;
		}
#define PROFILE_SET(f)                                                                          \
	if (strcmp(key, #f) == 0) {                                                             \
		p->f = (__typeof__(p->f))x;                                                     \
		if ((uint64_t)p->f != x) {                                                      \
			failf(r, "profile.%s: %llu does not fit", key, (unsigned long long)x);  \
			return -1;                                                              \
		}                                                                               \
		continue;                                                                       \
	}
		PROFILE_FIELDS(PROFILE_SET)
#undef PROFILE_SET
		failf(r, "profile: unknown setting '%s'", key);
		return -1;
	}
	return 0;
}

static char *dup_str(const json_t *v)
{
	return json_is_string(v) ? strdup(json_string_value(v)) : NULL;
}

static void write_ops_seed(struct run *r)
{
	if (!r->opt->corpus_dir || r->rec.len == 0 || r->rec.failed)
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/cmdq/vec-%s-%ld", r->opt->corpus_dir,
		 strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file, r->tc_id);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(r->rec.buf, 1, r->rec.len, f);
		fclose(f);
	}
}

static void run_test(struct run *r, const json_t *group, const json_t *t, const char *feature,
		     struct report *rep)
{
	struct test_result tr = { 0 };
	json_int_t id = json_integer_value(json_object_get(t, "tcId"));
	r->tc_id = (long)id;
	r->nev = 0;
	r->ev_cursor = 0;
	r->fail = NULL;
	r->fail_len = 0;
	r->nopcodes = 0;
	r->nok = r->nrefused = 0;
	r->ncmd = 0;
	opstream_free(&r->rec);
	opstream_init(&r->rec);

	tr.file = strdup(r->file);
	tr.feature = strdup(feature);
	tr.tc_id = (long)id;
	tr.comment = dup_str(json_object_get(t, "comment"));
	tr.cite = dup_str(json_object_get(t, "cite"));
	tr.result = dup_str(json_object_get(t, "result"));

	const json_t *skip = json_object_get(t, "skip");
	if (skip) {
		tr.outcome = TEST_SKIP;
		tr.failures = dup_str(skip);
		report_add(rep, &tr);
		return;
	}

	r->cfg = (struct nicref_config){ 0 };
	nicref_config_default(&r->cfg);
	r->cfg.trace = on_event;
	r->cfg.trace_ctx = r;
	const json_t *prof = json_object_get(group, "profile");
	if (prof && apply_profile(r, &r->cfg.profile, prof) != 0)
		goto done;
	r->dev = nicref_dev_create(&r->cfg);
	if (!r->dev) {
		failf(r, "the device profile is impossible");
		goto done;
	}
	/* Group setup steps, then the test's own. */
	const json_t *lists[2] = { json_object_get(group, "setup"), json_object_get(t, "steps") };
	for (int l = 0; l < 2; l++) {
		size_t i;
		json_t *step;
		json_array_foreach((json_t *)lists[l], i, step) run_step(r, step, i);
		/* The test's event expectations start after the group setup. */
		if (l == 0)
			r->ev_cursor = r->nev;
	}
	/* Nothing lost: a driver violation nobody expected fails the test. */
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].kind == NICREF_EV_VIOLATION && !r->ev_matched[i])
			failf(r, "unexpected violation %s (%s): %s",
			      nicref_violation_name((unsigned)r->ev[i].arg[0]),
			      nicref_violation_citation((unsigned)r->ev[i].arg[0]),
			      nicref_violation_text((unsigned)r->ev[i].arg[0]));
	if (nicref_dev_check(r->dev) != 0)
		failf(r, "model invariant %d broken", nicref_dev_check(r->dev));
	write_ops_seed(r);
	nicref_dev_destroy(r->dev);
	r->dev = NULL;
done:
	for (unsigned s = 0; s < MAX_SLOTS; s++)
		slot_clear(&r->slot[s]);
	tr.outcome = r->fail ? TEST_FAIL : TEST_PASS;
	tr.failures = r->fail;
	memcpy(tr.opcodes, r->opcodes, sizeof tr.opcodes);
	tr.nopcodes = r->nopcodes;
	memcpy(tr.ok_ops, r->ok_ops, sizeof tr.ok_ops);
	tr.nok = r->nok;
	memcpy(tr.refused_ops, r->refused_ops, sizeof tr.refused_ops);
	tr.nrefused = r->nrefused;
	if (tr.outcome == TEST_PASS && r->opt->verbose)
		fprintf(r->out, "ok   %s#%ld %s\n", r->file, r->tc_id, tr.comment ? tr.comment : "");
	report_add(rep, &tr);
}

static int run_file(struct run *r, const char *path, struct report *rep)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	r->file = path;
	r->tc_id = 0;
	if (!root) {
		struct test_result tr = { .file = strdup(path), .outcome = TEST_FAIL };
		char msg[512];
		snprintf(msg, sizeof msg, "cannot read: %s (line %d)", jerr.text, jerr.line);
		fprintf(r->out, "FAIL %s: %s\n", path, msg);
		tr.failures = strdup(msg);
		report_add(rep, &tr);
		return -1;
	}
	const char *feature = json_string_value(json_object_get(root, "feature"));
	size_t gi, ti;
	json_t *g, *t;
	size_t count = 0;
	json_array_foreach(json_object_get(root, "testGroups"), gi, g)
	{
		json_array_foreach(json_object_get(g, "tests"), ti, t)
		{
			run_test(r, g, t, feature ? feature : "", rep);
			count++;
		}
	}
	/* numberOfTests guards against a test silently dropped from a file. */
	json_int_t declared = json_integer_value(json_object_get(root, "numberOfTests"));
	int rc = 0;
	if ((size_t)declared != count) {
		struct test_result tr = { .file = strdup(path), .outcome = TEST_FAIL };
		char msg[256];
		snprintf(msg, sizeof msg, "numberOfTests is %lld but the file has %zu tests",
			 (long long)declared, count);
		fprintf(r->out, "FAIL %s: %s\n", path, msg);
		tr.failures = strdup(msg);
		report_add(rep, &tr);
		rc = -1;
	}
	json_decref(root);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects *.json under path, sorted, so runs are in a stable order. */
static int collect(const char *path, char ***list, size_t *n, size_t *cap)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 32;
			char **p = realloc(*list, *cap * sizeof *p);
			if (!p)
				return -1;
			*list = p;
		}
		(*list)[(*n)++] = strdup(path);
		return 0;
	}
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *de;
	size_t first = *n;
	int rc = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char sub[4096];
		snprintf(sub, sizeof sub, "%s%s%s", path,
			 path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
		struct stat ss;
		if (stat(sub, &ss) != 0)
			continue;
		size_t len = strlen(de->d_name);
		if (S_ISDIR(ss.st_mode)) {
			if (strcmp(de->d_name, "schemas") != 0)
				rc |= collect(sub, list, n, cap);
		} else if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			rc |= collect(sub, list, n, cap);
		}
	}
	closedir(d);
	qsort(*list + first, *n - first, sizeof **list, cmp_str);
	return rc;
}

int vectors_run_paths(char **paths, int npaths, const struct vec_options *opt,
		      struct report *rep, FILE *out)
{
	char **files = NULL;
	size_t n = 0, cap = 0;
	int rc = VEC_PASSED;
	for (int i = 0; i < npaths; i++)
		if (collect(paths[i], &files, &n, &cap) != 0) {
			fprintf(out, "FAIL %s: cannot read\n", paths[i]);
			struct test_result tr = { .file = strdup(paths[i]), .outcome = TEST_FAIL,
						  .failures = strdup("cannot read") };
			report_add(rep, &tr);
			rc = VEC_BAD_INPUT;
		}
	struct run r = { .opt = opt, .out = out };
	opstream_init(&r.rec);
	for (size_t i = 0; i < n; i++) {
		if (run_file(&r, files[i], rep) != 0)
			rc = VEC_BAD_INPUT;
		free(files[i]);
	}
	free(files);
	if (rc == VEC_PASSED && rep->failed > 0)
		rc = VEC_FAILED;
	free(r.ev);
	free(r.ev_matched);
	opstream_free(&r.rec);
	return rc;
}
