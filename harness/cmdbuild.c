/* Host side of the command queue: PRM §7.14.1, T95-T98, §7.14.1.1.1. Written apart from the
 * model's cmd/cmdq.c on purpose: a driver-side implementation that shared the model's signature
 * code could not catch the model getting it wrong. */
#include <string.h>

#include "cmdbuild.h"
#include "nicref/layout.h"

uint8_t cmd_xor8(const uint8_t *p, size_t n)
{
	/* Eight bytes a step, folded at the end: the same XOR as byte by byte (XOR commutes), at
	 * an eighth of the loads, which a sanitized build checks one by one. */
	uint64_t w = 0, x;
	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&x, p, sizeof x);
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

uint32_t cmd_blocks_for(uint32_t length)
{
	/* In 64 bits: a length near 2^32 must not wrap to a short chain. */
	return length > CMD_INLINE
		       ? (uint32_t)(((uint64_t)length - CMD_INLINE + CMD_MBOX_DATA - 1) / CMD_MBOX_DATA)
		       : 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static bool is_sig_field(const char *name)
{
	return strcmp(name, "signature") == 0 || strcmp(name, "ctrl_signature") == 0;
}

/* Applies the patches aimed at one structure; `late` selects the signature patches. */
static int apply_patches(const struct cmd_post *p, int block, bool output, bool late,
			 uint8_t *buf, size_t len)
{
	if (p->npatches == 0) /* the usual case: no lookup of the layout by name */
		return 0;
	const struct nicref_layout *l =
		nicref_layout_find(block < 0 ? "cmdq_entry" : "cmd_mailbox");
	for (size_t i = 0; i < p->npatches; i++) {
		const struct cmd_patch *c = &p->patches[i];
		if (c->block != block || (block >= 0 && c->output_chain != output) ||
		    is_sig_field(c->field) != late)
			continue;
		const struct nicref_field *f = l ? nicref_layout_field(l, c->field) : NULL;
		if (!f || nicref_field_set(buf, len, f, c->value) != 0)
			return -1;
	}
	return 0;
}

/* §7.14.1.1.1 (control part 200h-23Fh, docs/decisions.md D-CMD-3): the ctrl_signature, and
 * for an input block the signature of the whole block; an output block's signature byte is 0
 * (SW does not sign output blocks), so its whole-block XOR is not computed. */
static void sign_block(uint8_t *b, bool output)
{
	b[0x23E] = 0;
	b[0x23F] = 0;
	b[0x23E] = (uint8_t)~cmd_xor8(b + 0x200, 0x40);
	if (!output)
		b[0x23F] = (uint8_t)~cmd_xor8(b, CMD_MBOX_SIZE);
}

static int write_chain(const struct cmd_post *p, bool output, host_write_fn write, void *ctx)
{
	uint32_t length = output ? p->output_length : p->input_length;
	uint64_t base = output ? p->out_mbox : p->in_mbox;
	uint32_t blocks = cmd_blocks_for(length);
	uint8_t b[CMD_MBOX_SIZE];

	/* Input data beyond what `in` holds (input_length > in_len) reads as zeros. Each byte of
	 * the block is written once (the data, then the zero rest and control part), not zeroed
	 * whole first: every command posts a block or two, and the fuzz targets post thousands. */
	for (uint32_t k = 0; k < blocks; k++) {
		size_t n = 0;
		if (!output) {
			size_t from = CMD_INLINE + (size_t)k * CMD_MBOX_DATA;
			if (p->in_len > from) {
				n = p->in_len - from;
				n = n > CMD_MBOX_DATA ? CMD_MBOX_DATA : n;
				memcpy(b, p->in + from, n);
			}
		}
		memset(b + n, 0, sizeof b - n);
		uint64_t next = k + 1 < blocks ? base + (uint64_t)(k + 1) * CMD_MBOX_STRIDE : 0;
		put32(b + 0x230, (uint32_t)(next >> 32));
		put32(b + 0x234, (uint32_t)next);
		put32(b + 0x238, k);
		b[0x23D] = p->token;
		if (apply_patches(p, (int)k, output, false, b, sizeof b) != 0)
			return -1;
		/* Input blocks are signed whole; output blocks get their ctrl_signature. */
		if (p->sign)
			sign_block(b, output);
		if (apply_patches(p, (int)k, output, true, b, sizeof b) != 0)
			return -1;
		if (write(ctx, base + (uint64_t)k * CMD_MBOX_STRIDE, b, sizeof b) != 0)
			return -1;
	}
	return 0;
}

int cmd_post_write(const struct cmd_post *p, host_write_fn write, void *ctx)
{
	uint8_t e[64] = { 0 };

	e[0] = 0x7; /* T96 type: PCIe_cmd_if_transport */
	put32(e + 0x04, p->input_length);
	put32(e + 0x08, (uint32_t)(p->in_mbox >> 32));
	put32(e + 0x0C, (uint32_t)p->in_mbox);
	memcpy(e + 0x10, p->in, p->in_len < CMD_INLINE ? p->in_len : CMD_INLINE);
	put32(e + 0x30, (uint32_t)(p->out_mbox >> 32));
	put32(e + 0x34, (uint32_t)p->out_mbox);
	put32(e + 0x38, p->output_length);
	e[0x3C] = p->token;
	e[0x3F] = 1; /* ownership to HW, status 0 */
	if (apply_patches(p, -1, false, false, e, sizeof e) != 0)
		return -1;
	if (p->sign) {
		e[0x3D] = 0;
		e[0x3D] = (uint8_t)~cmd_xor8(e, sizeof e);
	}
	if (apply_patches(p, -1, false, true, e, sizeof e) != 0)
		return -1;
	/* Chains first, the entry (which hands ownership over) last. */
	if (write_chain(p, false, write, ctx) != 0 || write_chain(p, true, write, ctx) != 0)
		return -1;
	return write(ctx, p->entry_addr, e, sizeof e);
}

int cmd_result_read(const struct cmd_post *p, host_read_fn read, void *ctx, uint8_t *out,
		    size_t out_cap, struct cmd_result *r)
{
	/* Every field is set below, so the result is not zeroed first (every command of every
	 * fuzz target reads one back); a failed read leaves a zero result. */
	if (read(ctx, p->entry_addr, r->entry, sizeof r->entry) != 0) {
		memset(r, 0, sizeof *r);
		return -1;
	}
	r->delivery = r->entry[0x3F] >> 1;
	r->ownership = r->entry[0x3F] & 1u;
	r->status = r->entry[0x20];
	r->syndrome = (uint32_t)r->entry[0x24] << 24 | (uint32_t)r->entry[0x25] << 16 |
		      (uint32_t)r->entry[0x26] << 8 | r->entry[0x27];
	r->entry_sig_ok = cmd_xor8(r->entry, sizeof r->entry) == 0xFF;
	r->out_sigs_ok = true;

	size_t want = p->output_length < out_cap ? p->output_length : out_cap;
	size_t n = want < CMD_INLINE ? want : CMD_INLINE;
	memcpy(out, r->entry + 0x20, n);
	r->out_len = n;
	uint32_t blocks = cmd_blocks_for(p->output_length);
	uint8_t b[CMD_MBOX_SIZE];
	for (uint32_t k = 0; k < blocks; k++) {
		if (read(ctx, p->out_mbox + (uint64_t)k * CMD_MBOX_STRIDE, b, sizeof b) != 0)
			return -1;
		if (cmd_xor8(b + 0x200, 0x3F) != 0xFF || cmd_xor8(b, sizeof b) != 0xFF)
			r->out_sigs_ok = false;
		if (r->out_len < want) {
			size_t m = want - r->out_len;
			memcpy(out + r->out_len, b, m > CMD_MBOX_DATA ? CMD_MBOX_DATA : m);
			r->out_len += m > CMD_MBOX_DATA ? CMD_MBOX_DATA : m;
		}
	}
	return 0;
}
