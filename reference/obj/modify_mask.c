/* The context fields a MODIFY bitmask does not select are reserved (D-MOD-1), and those another
 * field's value makes reserved (D-TIR-3): both under D-CMD-8's one rule. */
#include "obj/modify_mask.h"

#include "cmd/cmd_table.h"

/* The longest MODIFY input layout (MODIFY_TIR, _RQT, _SQ, _RQ, _RMP: 110h bytes). */
#define MODIFY_MAX_DWORDS (0x110 / 4)

static int selected(uint32_t field, const struct modify_sel *sel, size_t nsel, uint64_t mask)
{
	for (size_t i = 0; i < nsel; i++)
		if (sel[i].field == field)
			return sel[i].bit == MODIFY_ALWAYS ||
			       (sel[i].bit < 64 && (mask >> sel[i].bit & 1));
	return 0; /* a field no bitmask bit names is not modifiable */
}

static void mark_field(uint32_t *rsv, const struct nicref_field *f, uint64_t off_bits)
{
	for (uint64_t b = off_bits + f->bit_offset; b < off_bits + f->bit_offset + f->bit_width; b++)
		rsv[b / 32] |= 1u << (31 - b % 32);
}

/* D-CMD-8's one rule for the input dwords [0, size) and their reserved bits rsv[]: each dword
 * with one set is a violation; RESERVED_NOT_ZERO under the strict profile. Only what was
 * gathered is checked (bits past the input read as zero). */
static enum nicref_cmd_rule report(struct cmd_ctx *c, const uint32_t *rsv, size_t size)
{
	if (size > c->in_len)
		size = c->in_len;
	int found = 0;
	for (size_t d = 0; d + 4 <= size; d += 4) {
		uint32_t v = (uint32_t)c->in[d] << 24 | (uint32_t)c->in[d + 1] << 16 |
			     (uint32_t)c->in[d + 2] << 8 | c->in[d + 3];
		uint32_t bad = v & rsv[d / 4];
		if (bad) {
			dev_violation(c->dev, NICREF_VIO_CMD_RESERVED_NOT_ZERO,
				      (uint64_t)d << 32 | bad);
			found = 1;
		}
	}
	return found && c->dev->core.cfg.profile.reserved_check ? NICREF_RULE_RESERVED_NOT_ZERO
							  : NICREF_RULE_NONE;
}

enum nicref_cmd_rule modify_check_unselected(struct cmd_ctx *c, const struct nicref_layout *l,
					     size_t ctx_off, const struct modify_sel *sel,
					     size_t nsel, uint64_t mask)
{
	uint32_t rsv[MODIFY_MAX_DWORDS] = { 0 };
	NICREF_ASSERT(l->size <= sizeof rsv);
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		if ((f->flags & NICREF_FIELD_ARRAY) || f->bit_offset < ctx_off * 8 ||
		    selected(i, sel, nsel, mask))
			continue;
		mark_field(rsv, f, 0);
	}
	return report(c, rsv, l->size);
}

enum nicref_cmd_rule fields_reserved_here(struct cmd_ctx *c, const struct nicref_layout *l,
					  size_t off, const uint16_t *fields, size_t n)
{
	uint32_t rsv[MODIFY_MAX_DWORDS] = { 0 };
	NICREF_ASSERT(off + l->size <= sizeof rsv);
	for (size_t i = 0; i < n; i++) {
		NICREF_ASSERT(fields[i] < l->nfields);
		mark_field(rsv, &l->fields[fields[i]], (uint64_t)off * 8);
	}
	return report(c, rsv, off + l->size);
}
