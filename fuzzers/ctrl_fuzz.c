/* Target: ctrl, the control plane as a stateful stream: commands of PRM §12.3 (PD, UAR, TD,
 * pages), §12.5-§12.13 and §12.15-§12.17 built field by field from their input layouts, UAR
 * doorbells, host-memory writes and time steps, on a device the reference driver
 * (harness/driver.c) brought up to INITIALIZED and gave spare pages.
 *
 * Input: a sequence of operations, each a kind byte and its bytes (a short input reads as
 * zeros, so every prefix of an input is an input). The kinds are fixed numbers:
 *   0x00-0x03  a command: opcode selector (ctrl_cmds[] below: 0x00-0x33 the commands, each
 *              at a fixed number; 0x34-0xFF reserved: the kind and the selector are consumed
 *              and nothing happens), op_mod selector, then one selector byte per input field
 *              (mode 0: a live handle of the type the field names, or a small number; 1: a
 *              small number 0..15; 2: the field's value from the next bytes; 3: zero), then the
 *              number of array elements (pas[], rq_num[], ...) and one byte per element (a page
 *              of the queue-buffer pool, or a live handle); kinds 0x00-0x02 give the command
 *              the output length its output layout takes (16 bytes for most: no output
 *              mailbox; see out_length), 0x03 the 2,320-byte output with five mailboxes
 *              that every command had up to session 26 (the one change of meaning so far:
 *              the committed corpus gives the same trace either way, docs/fuzzing.md)
 *   0x04       a UAR doorbell: UAR selector, register selector (CQ 20h/24h, EQ 40h/48h, a Blue
 *              Flame offset), 4 value bytes with the handle bits biased to live objects
 *   0x05       a host-memory write into the queue-buffer pool: page, offset, 1..64 bytes
 *   0x06       time: 1 ns .. 16 ms
 *   0x07       MANAGE_PAGES giving 1..16 more pages (the answer to a Page Request)
 *   0x08-0xFF  reserved: the kind byte alone is consumed and nothing happens
 * A new kind or command takes the next free number, so no existing input changes meaning (a
 * command whose input layout gains or loses fields still reads a different number of field
 * selectors: that changes what follows it). A command the model starts implementing in the
 * families below must be added to ctrl_cmds[]: the target refuses to start until it is.
 * Valid handles are likely: the harness keeps the handles that creates returned (the output's
 * 08h, PRM T228/T245/T262/... all put the new handle there) until a destroy of them succeeds,
 * and fields are matched to object types by the PRM's names (cqn, c_eqn, pd, uar_page, ...).
 *
 * Properties after every operation: the device's invariants (nicref_dev_check: every
 * reference names a live object of the right type and the reference counts add up, the state
 * machines are in legal states, owner bits and counters are consistent, every ICM context is
 * charged), the trace's (fuzz_oracle: sequence, time, command accounting), no transport
 * violation (the commands are the reference driver's, correctly posted), every command
 * delivered with a T128 status, the built-in host memory within its bound and every object
 * count within 2^log_max of its type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"

#define POOL_ADDR 0x40000000ull /* queue buffers and doorbell records the stream points at */
#define POOL_PAGES 64u
#define SPARE_ADDR 0x50000000ull /* extra ICM pages given to the device */
#define MAX_LIVE 64u             /* handles remembered per type */
#define IN_MAX (0x110u + 8u * 64u)
#define OUT_MAX (0x110u + 8u * 256u)

enum htype { H_PD, H_UAR, H_TD, H_MKEY, H_EQ, H_CQ, H_TIS, H_SQ, H_RMP, H_RQ, H_RQT, H_TIR, H_N };

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static uint32_t live[H_N][MAX_LIVE];
static unsigned nlive[H_N];
static uint32_t spare_pages;
static uint8_t in_buf[IN_MAX], out_buf[OUT_MAX];
/* The device brought up with its spare pages (fuzz_snap.h), with the reference driver's side
 * as it was then: its token, its pages. */
static struct fuzz_snap snap;
static struct fuzz_snap_drv snap_drv;
static uint32_t snap_spare_pages;

/* The commands of the stream, by the fixed number the opcode selector gives each: the control
 * plane the model implements (§12.3 PD, UAR, TD and pages, §12.5-§12.13, §12.15-§12.17), in the
 * order the selector had when it was taken modulo their count. Append only. */
static const uint16_t ctrl_cmds[] = {
	[0x00] = NICREF_OP_QUERY_PAGES,
	[0x01] = NICREF_OP_MANAGE_PAGES,
	[0x02] = NICREF_OP_CREATE_MKEY,
	[0x03] = NICREF_OP_QUERY_MKEY,
	[0x04] = NICREF_OP_DESTROY_MKEY,
	[0x05] = NICREF_OP_QUERY_SPECIAL_CONTEXTS,
	[0x06] = NICREF_OP_CREATE_EQ,
	[0x07] = NICREF_OP_DESTROY_EQ,
	[0x08] = NICREF_OP_QUERY_EQ,
	[0x09] = NICREF_OP_GEN_EQE,
	[0x0A] = NICREF_OP_CREATE_CQ,
	[0x0B] = NICREF_OP_DESTROY_CQ,
	[0x0C] = NICREF_OP_QUERY_CQ,
	[0x0D] = NICREF_OP_MODIFY_CQ,
	[0x0E] = NICREF_OP_QUERY_VPORT_STATE,
	[0x0F] = NICREF_OP_MODIFY_VPORT_STATE,
	[0x10] = NICREF_OP_QUERY_NIC_VPORT_CONTEXT,
	[0x11] = NICREF_OP_MODIFY_NIC_VPORT_CONTEXT,
	[0x12] = NICREF_OP_QUERY_VPORT_COUNTER,
	[0x13] = NICREF_OP_ALLOC_PD,
	[0x14] = NICREF_OP_DEALLOC_PD,
	[0x15] = NICREF_OP_ALLOC_UAR,
	[0x16] = NICREF_OP_DEALLOC_UAR,
	[0x17] = NICREF_OP_ALLOC_TRANSPORT_DOMAIN,
	[0x18] = NICREF_OP_DEALLOC_TRANSPORT_DOMAIN,
	[0x19] = NICREF_OP_SET_L2_TABLE_ENTRY,
	[0x1A] = NICREF_OP_QUERY_L2_TABLE_ENTRY,
	[0x1B] = NICREF_OP_DELETE_L2_TABLE_ENTRY,
	[0x1C] = NICREF_OP_CREATE_TIR,
	[0x1D] = NICREF_OP_MODIFY_TIR,
	[0x1E] = NICREF_OP_DESTROY_TIR,
	[0x1F] = NICREF_OP_QUERY_TIR,
	[0x20] = NICREF_OP_CREATE_SQ,
	[0x21] = NICREF_OP_MODIFY_SQ,
	[0x22] = NICREF_OP_DESTROY_SQ,
	[0x23] = NICREF_OP_QUERY_SQ,
	[0x24] = NICREF_OP_CREATE_RQ,
	[0x25] = NICREF_OP_MODIFY_RQ,
	[0x26] = NICREF_OP_DESTROY_RQ,
	[0x27] = NICREF_OP_QUERY_RQ,
	[0x28] = NICREF_OP_CREATE_RMP,
	[0x29] = NICREF_OP_MODIFY_RMP,
	[0x2A] = NICREF_OP_DESTROY_RMP,
	[0x2B] = NICREF_OP_QUERY_RMP,
	[0x2C] = NICREF_OP_CREATE_TIS,
	[0x2D] = NICREF_OP_MODIFY_TIS,
	[0x2E] = NICREF_OP_DESTROY_TIS,
	[0x2F] = NICREF_OP_QUERY_TIS,
	[0x30] = NICREF_OP_CREATE_RQT,
	[0x31] = NICREF_OP_MODIFY_RQT,
	[0x32] = NICREF_OP_DESTROY_RQT,
	[0x33] = NICREF_OP_QUERY_RQT,
};
#define CTRL_CMDS (sizeof ctrl_cmds / sizeof ctrl_cmds[0])

/* What op_command needs of each command, worked out once in ctrl_init rather than per command
 * (a layout lookup by name and a suffix match per field were a tenth of an input's time): its
 * name, its input layout, how each field is filled and what a success creates or destroys. */
#define PLAN_MAX_FIELDS 256u
enum { F_OPCODE = -4, F_OP_MOD = -3, F_ARRAY = -2, F_PLAIN = -1 }; /* or an enum htype */
static struct cmd_plan {
	const char *name;
	const struct nicref_layout *in; /* NULL: no input layout the target can fill */
	int created;			/* the type a success creates or destroys, or -1 */
	bool destroy;
	const struct nicref_field *array; /* the (last) array field, or NULL */
	int array_type;			/* its handle type, or -1 */
	uint32_t out_len;		/* the output length kinds 0x00-0x02 give (out_length) */
	int8_t field[PLAN_MAX_FIELDS];	/* F_* or the handle type of the field */
	/* The fields a selector byte fills (field[] is a handle type or F_PLAIN), in layout
	 * order, with what is fixed per field worked out: the loop of op_command then branches
	 * only on the input's bytes. */
	struct plan_field {
		uint16_t index; /* into in->fields */
		int8_t type;	/* field[index] */
		uint8_t bytes;	/* the bytes mode 2 reads: 0 for a field wider than 64 bits */
		uint64_t mask;	/* the values the field holds */
	} fill[PLAN_MAX_FIELDS];
	uint32_t nfill;
	const struct nicref_field *opcode, *op_mod; /* NULL when the layout has none */
} plans[CTRL_CMDS], manage_pages_plan;

enum ctrl_kind {
	CTRL_COMMAND = 0x00, /* 0x00-0x02: the command's own output length */
	CTRL_COMMAND_LONG = 0x03, /* the same with the whole OUT_MAX output */
	CTRL_DOORBELL = 0x04,
	CTRL_MEMORY = 0x05,
	CTRL_TIME = 0x06,
	CTRL_PAGES = 0x07,
	CTRL_KINDS /* the first reserved kind */
};

static bool listed(unsigned op)
{
	for (size_t i = 0; i < CTRL_CMDS; i++)
		if (ctrl_cmds[i] == op)
			return true;
	return false;
}

/* The object type a field names, by the PRM's field names (suffix match, so a context field
 * embedded in a command layout matches too); -1 for none. */
static int field_type(const char *name)
{
	static const struct {
		const char *suffix;
		enum htype t;
	} map[] = {
		{ "c_eqn", H_EQ },	   { "eq_number", H_EQ },    { "eqn", H_EQ },
		{ "cqn", H_CQ },	   { "uar_page", H_UAR },    { "uar", H_UAR },
		{ "transport_domain", H_TD }, { "tis_num_0", H_TIS }, { "tisn", H_TIS },
		{ "sqn", H_SQ },	   { "rmpn", H_RMP },	     { "inline_rqn", H_RQ },
		{ "rqn", H_RQ },	   { "indirect_table", H_RQT }, { "rqtn", H_RQT },
		{ "tirn", H_TIR },	   { "mkey_index", H_MKEY }, { "pd", H_PD },
		{ "rq_num", H_RQ },
	};
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		size_t k = strlen(map[i].suffix);
		if (n >= k && strcmp(name + n - k, map[i].suffix) == 0)
			return (int)map[i].t;
	}
	return -1;
}

/* What a successful command of `name` creates or destroys. */
static int created_type(const char *name, bool *destroy)
{
	static const struct {
		const char *obj;
		enum htype t;
	} objs[] = {
		{ "_PD", H_PD },   { "_UAR", H_UAR }, { "TRANSPORT_DOMAIN", H_TD }, { "_MKEY", H_MKEY },
		{ "_EQ", H_EQ },   { "_CQ", H_CQ },   { "_TIS", H_TIS },	    { "_SQ", H_SQ },
		{ "_RMP", H_RMP }, { "_RQ", H_RQ },   { "_RQT", H_RQT },	    { "_TIR", H_TIR },
	};
	bool create = !strncmp(name, "CREATE_", 7) || !strncmp(name, "ALLOC_", 6);
	*destroy = !strncmp(name, "DESTROY_", 8) || !strncmp(name, "DEALLOC_", 8);
	if (!create && !*destroy)
		return -1;
	const char *us = strchr(name, '_');
	for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++)
		if (us && strcmp(us, objs[i].obj) == 0)
			return (int)objs[i].t;
	return -1;
}

/* The output length a command is given by default: what its output layout needs, as a driver
 * gives it (the 16 inline bytes, T96, for most commands: no output mailbox), rounded up to the
 * whole mailboxes it takes (T98: 512 data bytes each). An output that ends in a list (the pas[]
 * of MANAGE_PAGES' reclaim and of QUERY_CQ, the rq_num[] of QUERY_RQT, the addresses of
 * QUERY_NIC_VPORT_CONTEXT) gets at least one mailbox for it: the rest of the last mailbox,
 * 256 bytes after a 272-byte query (32 pas entries), 512 after MANAGE_PAGES' 16 (64 pages),
 * more than any array this target writes (8). Kind 0x03 gives OUT_MAX instead, the length every
 * command had before (2,320 bytes, five output mailboxes), so the long chains and the
 * handlers' own output-too-short rules for lists longer than that room stay reachable. */
static uint32_t out_length(const struct nicref_layout *out)
{
	uint32_t size = out ? out->size : OUT_MAX;
	for (uint32_t i = 0; out && i < out->nfields; i++)
		if (out->fields[i].flags & NICREF_FIELD_ARRAY) {
			size += 8; /* room for an element at least: a mailbox past the fixed part */
			break;
		}
	if (size <= 16)
		return 16;
	uint32_t len = 16 + (size - 16 + 511) / 512 * 512;
	return len < OUT_MAX ? len : OUT_MAX;
}

/* The plan of command `op` (struct cmd_plan); -1 when its layout has more fields than a plan
 * holds (a harness limit to raise, not a reason to fuzz the command differently). */
static int plan_command(struct cmd_plan *p, unsigned op)
{
	p->name = nicref_opcode_name(op);
	p->created = created_type(p->name, &p->destroy);
	char lname[64];
	size_t k = 0;
	for (; p->name[k] && k + 4 < sizeof lname; k++)
		lname[k] = (char)(p->name[k] >= 'A' && p->name[k] <= 'Z' ? p->name[k] - 'A' + 'a'
									   : p->name[k]);
	memcpy(lname + k, "_out", 5);
	p->out_len = out_length(nicref_layout_find(lname));
	memcpy(lname + k, "_in", 4);
	const struct nicref_layout *l = nicref_layout_find(lname);
	p->in = l && l->size <= IN_MAX ? l : NULL;
	p->array = NULL;
	p->array_type = -1;
	if (!p->in)
		return 0;
	if (l->nfields > PLAN_MAX_FIELDS) {
		fprintf(stderr, "ctrl_fuzz: %s has %u fields, more than PLAN_MAX_FIELDS\n", lname,
			l->nfields);
		return -1;
	}
	p->nfill = 0;
	p->opcode = p->op_mod = NULL;
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		if (!strcmp(f->name, "opcode")) {
			if (p->opcode) /* op_command sets one */
				return -1;
			p->field[i] = F_OPCODE;
			p->opcode = f;
		} else if (!strcmp(f->name, "op_mod")) {
			if (p->op_mod)
				return -1;
			p->field[i] = F_OP_MOD;
			p->op_mod = f;
		} else if (f->flags & NICREF_FIELD_ARRAY) {
			p->field[i] = F_ARRAY;
			p->array = f;
			p->array_type = field_type(f->name);
		} else {
			p->field[i] = (int8_t)field_type(f->name);
			p->fill[p->nfill++] = (struct plan_field){
				.index = (uint16_t)i,
				.type = p->field[i],
				.bytes = (uint8_t)(f->bit_width > 64 ? 0 : (f->bit_width + 7) / 8),
				.mask = f->bit_width < 64 ? (1ull << f->bit_width) - 1 : ~0ull,
			};
		}
	}
	return 0;
}

static int ctrl_init(void)
{
	dev = fuzz_oracle_device(&oracle);
	if (!dev)
		return -1;
	/* Every command the model implements in the families of this target has a number: a new
	 * one is appended to ctrl_cmds[], never fuzzed by accident of a modulus. */
	int missing = 0;
	for (unsigned i = 0; i < nicref_opcode_count(); i++) {
		unsigned op = nicref_opcode_at(i);
		const char *sec = nicref_opcode_section(op);
		const char *name = nicref_opcode_name(op);
		if (!sec || !name || !nicref_opcode_modelled(op))
			continue;
		/* §12.5-§12.13 (12.14, flow steering, comes with the receive path) and §12.15-§12.17,
		 * plus the PD, UAR, TD and page commands of §12.3 that the objects depend on. */
		int major = 0, minor = 0;
		if (sscanf(sec, "%d.%d", &major, &minor) != 2 || major != 12)
			continue;
		bool ctrl = (minor >= 5 && minor <= 13) || (minor >= 15 && minor <= 17);
		bool base = strstr(name, "_PD") || strstr(name, "_UAR") ||
			    strstr(name, "TRANSPORT_DOMAIN") || strstr(name, "_PAGES");
		if ((ctrl || base) && !listed(op)) {
			fprintf(stderr, "ctrl_fuzz: %s (0x%X, PRM §%s) is modelled but has no number: "
				"append it to ctrl_cmds[] in fuzzers/ctrl_fuzz.c\n", name, op, sec);
			missing++;
		}
	}
	for (size_t i = 0; i < CTRL_CMDS; i++)
		if (!nicref_opcode_modelled(ctrl_cmds[i]))
			missing++;
	for (size_t i = 0; i < CTRL_CMDS; i++)
		if (plan_command(&plans[i], ctrl_cmds[i]) != 0)
			missing++;
	if (plan_command(&manage_pages_plan, NICREF_OP_MANAGE_PAGES) != 0)
		missing++;
	return missing ? -1 : 0;
}

static uint32_t pick_handle(int t, uint8_t sel)
{
	if (t < 0 || !nlive[t])
		return sel & 7u;
	return live[t][sel % nlive[t]];
}

static void remember(int t, uint32_t h)
{
	if (nlive[t] < MAX_LIVE)
		live[t][nlive[t]++] = h;
}

static void forget(int t, uint32_t h)
{
	for (unsigned i = 0; i < nlive[t]; i++)
		if (live[t][i] == h) {
			live[t][i] = live[t][--nlive[t]];
			return;
		}
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One command and its bookkeeping; the status, or -1 when it was not delivered. */
static int run(const struct cmd_plan *p, uint32_t in_len, uint32_t out_len)
{
	uint32_t handle_in = get_be32(in_buf + 8) & 0xFFFFFFu;
	/* T8 1010h[31:24] health_syndrome: a fatal error (an overrun of an EQ that takes events,
	 * D-EQ-4) halted the device, which executes no command until a reset (D-H-2). */
	bool halted = nicref_bar_read32(dev, 0x1010) >> 24 != 0;
	int st = refdrv_cmd(&drv, in_buf, in_len, out_buf, out_len);
	if (halted) {
		NICREF_FUZZ_CHECK(st < 0);
		return st;
	}
	/* The reference driver posts correctly: every command is delivered (T96 status 0). */
	NICREF_FUZZ_CHECK(st >= 0);
	int t = p->created;
	if (st == 0 && t >= 0) {
		if (p->destroy)
			forget(t, t == H_EQ ? handle_in & 0xFF : handle_in);
		else
			remember(t, get_be32(out_buf + 8) & (t == H_EQ ? 0xFFu : 0xFFFFFFu));
	}
	return st;
}

/* Element i of an array field of in_buf set to v, as nicref_field_set would: a whole-byte
 * 64-bit element (pas[], the page addresses, T98-style big-endian) written at once, any other
 * shape through the generic accessor (which sets bit by bit). 0, or -1 when it does not fit. */
static int set_element(const struct nicref_field *array, unsigned i, uint64_t v)
{
	struct nicref_field e = nicref_field_element(array, i);
	if (e.bit_width != 64 || e.bit_offset % 8 != 0)
		return nicref_field_set(in_buf, sizeof in_buf, &e, v);
	size_t at = e.bit_offset / 8;
	if (at + 8 > sizeof in_buf)
		return -1;
	uint8_t *b = in_buf + at; /* no loop: this file's loops are coverage-traced */
	b[0] = (uint8_t)(v >> 56);
	b[1] = (uint8_t)(v >> 48);
	b[2] = (uint8_t)(v >> 40);
	b[3] = (uint8_t)(v >> 32);
	b[4] = (uint8_t)(v >> 24);
	b[5] = (uint8_t)(v >> 16);
	b[6] = (uint8_t)(v >> 8);
	b[7] = (uint8_t)v;
	return 0;
}

static void give_pages(unsigned n)
{
	/* manage_pages_in's fields, looked up by name once */
	static const struct nicref_field *opcode, *op_mod, *num, *pas;
	const struct nicref_layout *l = manage_pages_plan.in;
	if (!pas) {
		opcode = nicref_layout_field(l, "opcode");
		op_mod = nicref_layout_field(l, "op_mod");
		num = nicref_layout_field(l, "input_num_entries");
		pas = nicref_layout_field(l, "pas");
	}
	memset(in_buf, 0, sizeof in_buf);
	nicref_field_set(in_buf, sizeof in_buf, opcode, NICREF_OP_MANAGE_PAGES);
	nicref_field_set(in_buf, sizeof in_buf, op_mod, 1);
	nicref_field_set(in_buf, sizeof in_buf, num, n);
	for (unsigned i = 0; i < n; i++)
		(void)set_element(pas, i, SPARE_ADDR + 4096ull * spare_pages++);
	(void)run(&manage_pages_plan, l->size + 8 * n, 16);
}

static void op_command(struct reader *r, bool long_output)
{
	uint8_t cmd = rd8(r);
	if (cmd >= CTRL_CMDS) /* reserved */
		return;
	unsigned op = ctrl_cmds[cmd];
	const struct cmd_plan *p = &plans[cmd];
	fuzz_trace("command 0x%02x %s", cmd, p->name);
	const struct nicref_layout *l = p->in;
	if (!l)
		return;
	memset(in_buf, 0, sizeof in_buf);
	uint8_t opm = rd8(r);
	if (p->opcode)
		nicref_field_set(in_buf, sizeof in_buf, p->opcode, op);
	/* mostly the op_mod values T100 describes (0, 1, 2) */
	if (p->op_mod)
		nicref_field_set(in_buf, sizeof in_buf, p->op_mod, opm < 200 ? opm % 3u : opm);
	/* a selector byte per field in layout order (the opcode, op_mod and arrays take none) */
	for (uint32_t i = 0; i < p->nfill; i++) {
		const struct plan_field *pf = &p->fill[i];
		uint8_t mode = rd8(r);
		uint64_t v = 0;
		switch (mode % 4) {
		case 0:
			v = pick_handle(pf->type, mode >> 2);
			break;
		case 1:
			v = (mode >> 2) & 15u;
			break;
		case 2:
			v = rdn(r, pf->bytes);
			break;
		default:
			break;
		}
		if (pf->bytes)
			nicref_field_set(in_buf, sizeof in_buf, &l->fields[pf->index], v & pf->mask);
	}
	uint32_t in_len = l->size < 16 ? 16 : l->size;
	if (p->array) {
		unsigned n = rd8(r) % 9u;
		int t = p->array_type;
		for (unsigned i = 0; i < n; i++) {
			struct nicref_field e = nicref_field_element(p->array, i);
			uint8_t sel = rd8(r);
			uint64_t v = t >= 0 ? pick_handle(t, sel)
				   : POOL_ADDR + 4096ull * (sel % POOL_PAGES);
			if (e.bit_width < 64)
				v &= (1ull << e.bit_width) - 1;
			if (set_element(p->array, i, v) == 0) {
				uint32_t end = (e.bit_offset + e.bit_width + 7) / 8;
				if (end > in_len)
					in_len = end;
			}
		}
	}
	(void)run(p, in_len, long_output ? OUT_MAX : p->out_len);
}

static void op_doorbell(struct reader *r)
{
	static const uint32_t regs[] = { 0x20, 0x24, 0x40, 0x48, 0x800, 0x804, 0x900, 0xA00 };
	/* with no UAR allocated, a page past the init segment (D-UAR-1): a doorbell to a page
	 * not allocated is the driver's content violation, not a transport one */
	uint8_t us = rd8(r);
	uint32_t uar = nlive[H_UAR] ? pick_handle(H_UAR, us) : 5u + (us & 3u);
	uint8_t sel = rd8(r);
	uint32_t reg = regs[sel % 8u];
	uint32_t v = (uint32_t)rdn(r, 4);
	/* the number the register names: EQ 31:24 (T13), CQ 23:0 of dword 24h, SQ 31:8 of 804h */
	if (reg == 0x40 || reg == 0x48)
		v = (v & 0xFFFFFFu) | pick_handle(H_EQ, (uint8_t)(v >> 24)) << 24;
	else if (reg == 0x24)
		v = pick_handle(H_CQ, (uint8_t)v);
	else if (reg == 0x804)
		v = (v & 0xFFu) | pick_handle(H_SQ, (uint8_t)(v >> 8)) << 8;
	nicref_bar_write32(dev, uar * 4096u + reg, v);
}

static void op_memory(struct reader *r)
{
	uint8_t buf[64];
	uint64_t addr = POOL_ADDR + 4096ull * (rd8(r) % POOL_PAGES) + (rdn(r, 2) & 0xFFFu);
	unsigned n = 1 + rd8(r) % 64u;
	for (unsigned i = 0; i < n; i++)
		buf[i] = rd8(r);
	(void)nicref_hostmem_write(dev, addr, buf, n);
}

/* Whether the device and the driver are as the snapshot holds them: restored at the end of the
 * last input (rewind). */
static bool at_snap;

/* The device, the oracle and the driver back to the snapshot: true, or false when there is none
 * (or no longer one: fuzz_snap_restore). */
static bool rewind_to_snap(void)
{
	if (!fuzz_dev_snap_restore(&snap, &snap_drv, dev, &oracle, &drv))
		return false;
	spare_pages = snap_spare_pages;
	return true;
}

/* The device initialized by the reference driver, 16 pages to spare. */
static void configure(void)
{
	memset(nlive, 0, sizeof nlive);
	if (at_snap || rewind_to_snap()) {
		at_snap = false;
		return;
	}
	spare_pages = 0;
	fuzz_dev_bring_up(dev, &oracle, &drv, NULL);
	/* The reference driver's bring-up never breaks a rule. */
	NICREF_FUZZ_CHECK(oracle.violations == 0);
	give_pages(16);
	fuzz_oracle_check_dev(&oracle);
	if (fuzz_dev_snap_take(&snap, &snap_drv, dev, &oracle, &drv))
		snap_spare_pages = spare_pages;
}

static void ctrl_one_input(const uint8_t *data, size_t len)
{
	fuzz_trace("input");
	configure();
	fuzz_trace("configured"); /* what follows is the same with and without a snapshot */

	struct reader r = { data, len };
	for (unsigned steps = 0; r.n && steps < 256;) {
		uint8_t kind = rd8(&r);
		switch (kind) {
		case CTRL_COMMAND:
		case CTRL_COMMAND + 1:
		case CTRL_COMMAND + 2:
			op_command(&r, false);
			break;
		case CTRL_COMMAND_LONG:
			op_command(&r, true);
			break;
		case CTRL_DOORBELL:
			op_doorbell(&r);
			break;
		case CTRL_MEMORY:
			op_memory(&r);
			break;
		case CTRL_TIME:
			nicref_clock_advance(dev, 1 + (rdn(&r, 3) << 10 >> 10));
			break;
		case CTRL_PAGES:
			give_pages(1 + rd8(&r) % 16u);
			break;
		default: /* reserved */
			continue;
		}
		steps++;
		fuzz_oracle_check_dev(&oracle);
		/* the commands are correctly posted: their transport never breaks a rule */
		NICREF_FUZZ_CHECK(oracle.transport_violations == 0);
		NICREF_FUZZ_CHECK(nicref_hostmem_pages(dev) <= 16384u);
		/* still initialized; memory within the device's limits: no type past 2^16 (the
		 * default counts) */
		fuzz_oracle_check_hca(&oracle, NICREF_HCA_INITIALIZED, (1u << 16) + 1u);
	}
	/* Rewound now rather than when the next input starts: what this input allocated (its
	 * objects) is freed within it, so libFuzzer sees as many frees as mallocs and does not
	 * run the input a second time to look for a leak (-detect_leaks), which it did for every
	 * input that created an object. The next input meets the same device either way. */
	at_snap = rewind_to_snap();
}

NICREF_FUZZ_TARGET(ctrl_init, ctrl_one_input)
