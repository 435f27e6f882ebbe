/* Names for a divergence: which structure a differing host memory byte belongs to (the model's
 * trace tells which of its writes were CQEs, EQEs and command completions), field by field
 * through the layouts; which header field of a frame; which register of BAR0. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dut_diff_int.h"

static void add_region(struct dut_pair *p, enum dut_region_kind kind, uint64_t addr,
		       uint64_t len, uint64_t a, uint64_t b, uint64_t c)
{
	if (p->nreg < DUT_MAX_REGIONS)
		p->reg[p->nreg++] = (struct dut_region){ kind, addr, len, a, b, c };
}

static uint64_t get(const struct nicref_layout *l, const char *field, const uint8_t *buf,
		    size_t len)
{
	uint64_t v = 0;
	const struct nicref_field *f = nicref_layout_field(l, field);
	if (f)
		(void)nicref_field_get(buf, len, f, &v);
	return v;
}

/* A command completed: its entry, and the output mailboxes its output fills (PRM §7.14.1). */
static void name_command(struct dut_pair *p, unsigned slot, unsigned opcode)
{
	if (!p->cmdq_addr)
		return;
	uint64_t at = p->cmdq_addr + ((uint64_t)slot << p->log_stride);
	uint8_t e[0x40];
	if (nicref_hostmem_read(p->model, at, e, sizeof e) != 0)
		return;
	add_region(p, REG_CMD_ENTRY, at, sizeof e, slot, opcode, 0);
	const struct nicref_layout *l = nicref_layout_find("cmdq_entry");
	const struct nicref_layout *mb = nicref_layout_find("cmd_mailbox");
	uint64_t out_len = get(l, "output_length", e, sizeof e);
	uint64_t ptr = get(l, "output_mailbox_pointer_63_32", e, sizeof e) << 32 |
		       get(l, "output_mailbox_pointer_31_9", e, sizeof e) << 9;
	for (uint64_t k = 0; out_len > 16 + 512 * k && ptr && k < 32; k++) {
		uint8_t b[0x240];
		if (nicref_hostmem_read(p->model, ptr, b, sizeof b) != 0)
			return;
		add_region(p, REG_CMD_MAILBOX, ptr, sizeof b, slot, opcode, k);
		ptr = get(mb, "next_pointer_63_32", b, sizeof b) << 32 |
		      get(mb, "next_pointer_31_10", b, sizeof b) << 10;
	}
}

void dut_name_event(struct dut_pair *p, const struct nicref_event *ev)
{
	/* The model traces a CQE or an EQE right after writing it (obj/cq_post.c, eq_event.c). */
	if (ev->kind == NICREF_EV_CQE && (p->last_len == 64 || p->last_len == 128))
		add_region(p, REG_CQE, p->last_addr, p->last_len, ev->arg[0], ev->arg[1], 0);
	else if (ev->kind == NICREF_EV_EQE && p->last_len == 64)
		add_region(p, REG_EQE, p->last_addr, 64, ev->arg[0], ev->arg[1], 0);
	else if (ev->kind == NICREF_EV_CMD_DONE)
		name_command(p, (unsigned)ev->arg[0], (unsigned)ev->arg[1]);
}

/* Up to three fields of layout l that differ between a and b (len bytes each), narrow fields
 * first: "cqe64.byte_cnt model 0x40, DUT 0x41; ...". */
static void fields_text(const struct nicref_layout *l, const uint8_t *a, const uint8_t *b,
			size_t len, char *out, size_t outlen)
{
	size_t at = 0, shown = 0, more = 0;
	out[0] = '\0';
	for (int wide = 0; wide < 2; wide++)
		for (uint32_t i = 0; i < l->nfields; i++) {
			const struct nicref_field *f = &l->fields[i];
			if ((f->flags & (NICREF_FIELD_ARRAY | NICREF_FIELD_ALIAS)) ||
			    (f->bit_width > 64) != wide)
				continue;
			uint64_t va = 0, vb = 0;
			bool differs;
			if (!wide) {
				if (nicref_field_get(a, len, f, &va) || nicref_field_get(b, len, f, &vb))
					continue;
				differs = va != vb;
			} else {
				size_t off = f->bit_offset / 8, n = f->bit_width / 8;
				if (off + n > len)
					continue;
				differs = memcmp(a + off, b + off, n) != 0;
			}
			if (!differs)
				continue;
			if (shown == 3) {
				more++;
				continue;
			}
			if (!wide)
				at += (size_t)snprintf(out + at, at < outlen ? outlen - at : 0,
						       "%s%s.%s model 0x%llx, DUT 0x%llx",
						       shown ? "; " : "", l->name, f->name,
						       (unsigned long long)va, (unsigned long long)vb);
			else
				at += (size_t)snprintf(out + at, at < outlen ? outlen - at : 0,
						       "%s%s.%s differs", shown ? "; " : "",
						       l->name, f->name);
			shown++;
		}
	if (more)
		at += (size_t)snprintf(out + at, at < outlen ? outlen - at : 0,
				       " (and %zu more field%s)", more, more == 1 ? "" : "s");
	if (!shown)
		snprintf(out, outlen, "a bit no field of %s covers (reserved)", l->name);
}

/* The output of the command in `slot` as each side sees it: the entry's inline 16 bytes, then
 * each output mailbox's 512 data bytes. Its length. */
static size_t command_output(struct dut_pair *p, struct nicref_dev *mem, unsigned slot,
			     uint8_t *out, size_t cap)
{
	size_t n = 0;
	for (unsigned i = 0; i < p->nreg; i++) {
		const struct dut_region *r = &p->reg[i];
		if (r->a != slot)
			continue;
		if (r->kind == REG_CMD_ENTRY && n + 16 <= cap &&
		    nicref_hostmem_read(mem, r->addr + 0x20, out, 16) == 0)
			n = n > 16 ? n : 16;
		else if (r->kind == REG_CMD_MAILBOX && 16 + 512 * (r->c + 1) <= cap &&
			 nicref_hostmem_read(mem, r->addr, out + 16 + 512 * r->c, 512) == 0 &&
			 16 + 512 * (r->c + 1) > n)
			n = 16 + 512 * (size_t)(r->c + 1);
	}
	return n;
}

static void name_output(struct dut_pair *p, const struct dut_region *r, char *text, size_t len)
{
	static uint8_t a[16 + 512 * 32], b[sizeof a];
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	size_t n = command_output(p, p->model, (unsigned)r->a, a, sizeof a);
	(void)command_output(p, p->mem, (unsigned)r->a, b, sizeof b);
	char lname[64] = "cmd_out";
	const char *op = nicref_opcode_name((unsigned)r->b);
	if (op) {
		size_t i = 0;
		for (; op[i] && i + 5 < sizeof lname; i++)
			lname[i] = (char)tolower((unsigned char)op[i]);
		snprintf(lname + i, sizeof lname - i, "_out");
	}
	const struct nicref_layout *l = nicref_layout_find(lname);
	char f[700];
	fields_text(l ? l : nicref_layout_find("cmd_out"), a, b, n, f, sizeof f);
	snprintf(text, len, "output of command %s (0x%llx) in slot %llu: %s", op ? op : "?",
		 (unsigned long long)r->b, (unsigned long long)r->a, f);
}

void dut_name_memory(struct dut_pair *p, uint64_t addr, uint8_t vm, uint8_t vd)
{
	char text[1200] = "no structure the model's trace names";
	for (unsigned i = p->nreg; i-- > 0;) {
		const struct dut_region *r = &p->reg[i];
		if (addr < r->addr || addr >= r->addr + r->len)
			continue;
		uint8_t a[0x240], b[0x240];
		if (nicref_hostmem_read(p->model, r->addr, a, r->len) != 0 ||
		    nicref_hostmem_read(p->mem, r->addr, b, r->len) != 0)
			break;
		uint64_t off = addr - r->addr;
		char f[700];
		if (r->kind == REG_CQE) {
			/* D-CQE-2: a 128-byte CQE carries the 64-byte one in its second half. */
			size_t o = (size_t)r->len - 64;
			fields_text(nicref_layout_find("cqe64"), a + o, b + o, 64, f, sizeof f);
			snprintf(text, sizeof text, "CQE of CQ 0x%llx (counter %llu, %llu bytes): %s",
				 (unsigned long long)r->a, (unsigned long long)r->b,
				 (unsigned long long)r->len, off < o ? "its data_64 half" : f);
		} else if (r->kind == REG_EQE) {
			fields_text(nicref_layout_find("eqe"), a, b, 64, f, sizeof f);
			snprintf(text, sizeof text, "EQE of EQ 0x%llx (index %llu): %s",
				 (unsigned long long)r->a, (unsigned long long)r->b, f);
		} else if ((r->kind == REG_CMD_ENTRY && off >= 0x20 && off < 0x30) ||
			   (r->kind == REG_CMD_MAILBOX && off < 0x200)) {
			name_output(p, r, text, sizeof text);
		} else {
			bool entry = r->kind == REG_CMD_ENTRY;
			fields_text(nicref_layout_find(entry ? "cmdq_entry" : "cmd_mailbox"), a, b,
				    (size_t)r->len, f, sizeof f);
			snprintf(text, sizeof text, "command queue %s of slot %llu (%s): %s",
				 entry ? "entry" : "output mailbox", (unsigned long long)r->a,
				 nicref_opcode_name((unsigned)r->b) ? nicref_opcode_name((unsigned)r->b)
								     : "?",
				 f);
		}
		break;
	}
	dut_diverged(p, "host memory 0x%llx: model wrote 0x%02x, DUT 0x%02x: %s",
		     (unsigned long long)addr, vm, vd, text);
}

/* The header field of an Ethernet frame at byte `at` (Ethernet, one VLAN tag, IPv4/IPv6,
 * TCP/UDP), for messages. */
static const char *frame_field(const uint8_t *f, size_t len, size_t at)
{
	if (at < 6)
		return "Ethernet destination";
	if (at < 12)
		return "Ethernet source";
	size_t l3 = 14;
	unsigned type = len >= 14 ? (unsigned)f[12] << 8 | f[13] : 0;
	if (type == 0x8100 && len >= 18) {
		if (at < 16)
			return "VLAN tag";
		type = (unsigned)f[16] << 8 | f[17];
		l3 = 18;
	}
	if (at < l3)
		return "EtherType";
	size_t l4;
	unsigned proto;
	if (type == 0x0800 && len >= l3 + 20) {
		static const char *const v4[20] = {
			"IPv4 version/IHL", "IPv4 DSCP/ECN", "IPv4 total length", "IPv4 total length",
			"IPv4 identification", "IPv4 identification", "IPv4 flags/fragment",
			"IPv4 flags/fragment", "IPv4 TTL", "IPv4 protocol", "IPv4 header checksum",
			"IPv4 header checksum", "IPv4 source", "IPv4 source", "IPv4 source",
			"IPv4 source", "IPv4 destination", "IPv4 destination", "IPv4 destination",
			"IPv4 destination"
		};
		l4 = l3 + (size_t)(f[l3] & 0xF) * 4;
		if (at < l3 + 20)
			return v4[at - l3];
		if (at < l4)
			return "IPv4 options";
		proto = f[l3 + 9];
	} else if (type == 0x86DD && len >= l3 + 40) {
		if (at < l3 + 8)
			return at < l3 + 4 ? "IPv6 version/class/flow" : "IPv6 length/next/hops";
		if (at < l3 + 40)
			return at < l3 + 24 ? "IPv6 source" : "IPv6 destination";
		l4 = l3 + 40;
		proto = f[l3 + 6];
	} else {
		return "payload";
	}
	if (proto == 6 && at < l4 + 20)
		return at < l4 + 4 ? "TCP ports" : at >= l4 + 16 && at < l4 + 18 ? "TCP checksum"
										  : "TCP header";
	if (proto == 17 && at < l4 + 8)
		return at < l4 + 4 ? "UDP ports" : at < l4 + 6 ? "UDP length" : "UDP checksum";
	return "payload";
}

void dut_name_frame(struct dut_pair *p, unsigned port, size_t k, const uint8_t *fm, size_t lm,
		    const uint8_t *fd, size_t ld, size_t at)
{
	if (at < lm && at < ld)
		dut_diverged(p, "frame %zu out on port %u: byte %zu (%s) model 0x%02x, DUT 0x%02x "
			     "(lengths %zu and %zu)", k, port, at, frame_field(fm, lm, at), fm[at],
			     fd[at], lm, ld);
	else
		dut_diverged(p, "frame %zu out on port %u: the model's is %zu bytes, the DUT's %zu "
			     "(the same up to the shorter)", k, port, lm, ld);
}

void dut_name_bar(struct dut_pair *p, uint32_t offset, uint32_t vm, uint32_t vd)
{
	char name[160] = "";
	const struct nicref_layout *l = nicref_layout_find("init_seg");
	if (offset < 0x1014) {
		size_t at = 0;
		for (uint32_t i = 0; l && i < l->nfields; i++) {
			const struct nicref_field *f = &l->fields[i];
			if (f->prm_offset != offset)
				continue;
			uint32_t mask = f->msb - f->lsb >= 31 ? 0xFFFFFFFFu
							      : ((1u << (f->msb - f->lsb + 1)) - 1u)
									<< f->lsb;
			if ((vm ^ vd) & mask)
				at += (size_t)snprintf(name + at, at < sizeof name ? sizeof name - at
										  : 0,
						       "%sinit_seg.%s", at ? ", " : "", f->name);
		}
	}
	if (!name[0])
		snprintf(name, sizeof name, offset < 0x1014 ? "the initialization segment"
							   : "a UAR page");
	dut_diverged(p, "BAR0 read of 0x%x (%s): model 0x%08x, DUT 0x%08x", offset, name, vm, vd);
}
