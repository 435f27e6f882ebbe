/* Command dispatch: the opcode table of PRM T127, the return statuses of T128 and their fixed
 * precedence (docs/decisions.md D-CMD-7), and the rules that refuse a command. */
#include <string.h>

#include "cmd/cmd_table.h"
#include "prm/layouts.h"

/* The largest fixed input layout (SET_HCA_CAP, T154: 1010h bytes). */
#define CMD_RESERVED_MAX 0x1010

struct opcode_desc {
	const char *name;
	const char *section;
	uint16_t opcode;
};

static const struct opcode_desc opcodes[] = {
#define OPCODE_ROW(id, op, sec) { #id, sec, op },
	NICREF_OPCODES(OPCODE_ROW)
#undef OPCODE_ROW
};
#define NOPCODES (sizeof opcodes / sizeof opcodes[0])

struct modelled_desc {
	uint16_t opcode;
	cmd_handler handler;
	const struct nicref_layout *in, *out;
	uint64_t op_mods;
	unsigned states;
};

static const struct modelled_desc modelled[] = {
#define MODELLED_ROW(id, fn, lin, lout, mods, states)                                           \
	{ NICREF_OP_##id, fn, &nicref_layout_##lin, &nicref_layout_##lout, mods, states },
	NICREF_MODELLED_COMMANDS(MODELLED_ROW)
#undef MODELLED_ROW
};

/* Opcodes are sparse below 0xA10 (0x940 in T127; CREATE_UMEM/DESTROY_UMEM 0xA08/0xA0A beyond
 * it, docs/umem.md); a byte per opcode finds its rows in O(1). 0 means absent,
 * otherwise 1 + the row's index. Both indexes are generated from the tables above. */
#define OPCODE_SPAN 0xA10
enum {
#define T127_POS(id, op, sec) T127_POS_##id,
	NICREF_OPCODES(T127_POS)
#undef T127_POS
};
enum {
#define MODELLED_POS(id, fn, lin, lout, mods, states) MODELLED_POS_##id,
	NICREF_MODELLED_COMMANDS(MODELLED_POS)
#undef MODELLED_POS
};
static const uint8_t t127_index[OPCODE_SPAN] = {
#define T127_INDEX(id, op, sec) [op] = T127_POS_##id + 1,
	NICREF_OPCODES(T127_INDEX)
#undef T127_INDEX
};
static const uint8_t modelled_index[OPCODE_SPAN] = {
#define MODELLED_INDEX(id, fn, lin, lout, mods, states) [NICREF_OP_##id] = MODELLED_POS_##id + 1,
	NICREF_MODELLED_COMMANDS(MODELLED_INDEX)
#undef MODELLED_INDEX
};

static const struct opcode_desc *t127_row(unsigned opcode)
{
	return opcode < OPCODE_SPAN && t127_index[opcode] ? &opcodes[t127_index[opcode] - 1]
							  : NULL;
}

static const struct modelled_desc *modelled_row(unsigned opcode)
{
	return opcode < OPCODE_SPAN && modelled_index[opcode]
		       ? &modelled[modelled_index[opcode] - 1]
		       : NULL;
}

const char *nicref_opcode_name(unsigned opcode)
{
	const struct opcode_desc *d = t127_row(opcode);
	return d ? d->name : NULL;
}

const char *nicref_opcode_section(unsigned opcode)
{
	const struct opcode_desc *d = t127_row(opcode);
	return d ? d->section : NULL;
}

int nicref_opcode_find(const char *name)
{
	for (size_t i = 0; i < NOPCODES; i++)
		if (strcmp(opcodes[i].name, name) == 0)
			return opcodes[i].opcode;
	return -1;
}

int nicref_opcode_modelled(unsigned opcode)
{
	return modelled_row(opcode) != NULL;
}

unsigned nicref_opcode_count(void)
{
	return (unsigned)NOPCODES;
}

unsigned nicref_opcode_at(unsigned i)
{
	return i < NOPCODES ? opcodes[i].opcode : 0;
}

struct status_desc {
	const char *name;
	uint8_t value;
};
static const struct status_desc statuses[] = {
#define STATUS_ROW(id, v, d) { #id, v },
	NICREF_CMD_STATUSES(STATUS_ROW)
#undef STATUS_ROW
};
static const struct status_desc deliveries[] = {
#define DELIVERY_ROW(id, v, d) { #id, v },
	NICREF_DELIVERY_STATUSES(DELIVERY_ROW)
#undef DELIVERY_ROW
};

/* Both status fields are 8 bits wide (T96 3Ch[7:1] delivery, T99 status): a byte per value
 * finds its row in O(1) (the oracles name the status of every command), generated from the
 * tables above. 0 means absent, otherwise 1 + the row's index. */
enum {
#define STATUS_POS(id, v, d) STATUS_POS_##id,
	NICREF_CMD_STATUSES(STATUS_POS)
#undef STATUS_POS
};
enum {
#define DELIVERY_POS(id, v, d) DELIVERY_POS_##id,
	NICREF_DELIVERY_STATUSES(DELIVERY_POS)
#undef DELIVERY_POS
};
static const uint8_t status_index[256] = {
#define STATUS_INDEX(id, v, d) [v] = STATUS_POS_##id + 1,
	NICREF_CMD_STATUSES(STATUS_INDEX)
#undef STATUS_INDEX
};
static const uint8_t delivery_index[256] = {
#define DELIVERY_INDEX(id, v, d) [v] = DELIVERY_POS_##id + 1,
	NICREF_DELIVERY_STATUSES(DELIVERY_INDEX)
#undef DELIVERY_INDEX
};

const char *nicref_cmd_status_name(unsigned status)
{
	return status < 256 && status_index[status] ? statuses[status_index[status] - 1].name
						    : NULL;
}

const char *nicref_delivery_status_name(unsigned status)
{
	return status < 256 && delivery_index[status]
		       ? deliveries[delivery_index[status] - 1].name
		       : NULL;
}

static enum nicref_cmd_rule state_rule(enum hca_state st, unsigned allowed);

/* The checks every command passes before its handler, in the precedence of D-CMD-7. */
static enum nicref_cmd_rule precheck(struct nicref_dev *dev, const struct cmd_exec *x,
				     unsigned opcode, unsigned op_mod,
				     const struct modelled_desc **out)
{
	const struct modelled_desc *m = modelled_row(opcode);
	*out = m;
	/* 1. lengths: beyond what the device takes, then below the command's layouts. */
	if (x->in_too_long)
		return NICREF_RULE_INPUT_TOO_LONG;
	if (x->out_too_long)
		return NICREF_RULE_OUTPUT_TOO_LONG;
	if (m && x->input_length < m->in->size)
		return NICREF_RULE_INPUT_TOO_SHORT;
	if (m && x->output_length < m->out->size)
		return NICREF_RULE_OUTPUT_TOO_SHORT;
	/* 2. opcode: not in T127, then not implemented here. */
	if (!t127_row(opcode))
		return NICREF_RULE_UNKNOWN_OPCODE;
	if (!m) {
		dev_emit2(dev, NICREF_EV_UNMODELLED, x->slot, opcode);
		return NICREF_RULE_UNMODELLED_OPCODE;
	}
	/* 3. op_mod (T100). */
	if (op_mod >= 64 || !(m->op_mods & OPMOD(op_mod)))
		return NICREF_RULE_BAD_OP_MOD;
	/* 4. the device state (D-INIT-2). */
	return state_rule(dev->hca.state, m->states);
}

/* Why a command is not allowed in the current state (PRM §8.2-§8.3), or NONE. */
static enum nicref_cmd_rule state_rule(enum hca_state st, unsigned allowed)
{
	if (allowed & (1u << st))
		return NICREF_RULE_NONE;
	switch (st) {
	case HCA_DISABLED:
		return NICREF_RULE_HCA_NOT_ENABLED;
	case HCA_ENABLED:
		return allowed & S_INI ? NICREF_RULE_HCA_NOT_INITIALIZED
				       : NICREF_RULE_HCA_ALREADY_ENABLED;
	case HCA_INITIALIZED:
		return allowed & S_TDN ? NICREF_RULE_HCA_NOT_TORN_DOWN
				       : NICREF_RULE_HCA_ALREADY_INITIALIZED;
	case HCA_TORN_DOWN:
	case HCA_PANIC:
		break;
	}
	return NICREF_RULE_HCA_TORN_DOWN;
}

/* Marks in mask[] (one bit per input bit, big-endian like the input) the bits that fields of l
 * cover, for the bytes [0, size): per field its partial first and last bytes, and the whole
 * bytes between at once (a context of a few hundred bytes is a handful of fields). */
static void cover_fields(uint8_t *mask, size_t size, const struct nicref_layout *l)
{
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		uint64_t lo = f->bit_offset;
		uint64_t hi = f->flags & NICREF_FIELD_ARRAY ? (uint64_t)size * 8 : lo + f->bit_width;
		if (hi > (uint64_t)size * 8)
			hi = (uint64_t)size * 8;
		if (lo >= hi)
			continue;
		size_t first = (size_t)(lo / 8), last = (size_t)((hi - 1) / 8);
		uint8_t head = (uint8_t)(0xFFu >> (lo % 8));
		uint8_t tail = (uint8_t)(0xFFu << (7 - (hi - 1) % 8));
		if (first == last) {
			mask[first] |= head & tail;
			continue;
		}
		mask[first] |= head;
		memset(mask + first + 1, 0xFF, last - first - 1);
		mask[last] |= tail;
	}
}

enum nicref_cmd_rule cmd_check_reserved(struct cmd_ctx *c, const struct nicref_layout *l,
					size_t off)
{
	/* Bits past the gathered input read as zero: only what the driver sent is checked. */
	if (off >= c->in_len)
		return NICREF_RULE_NONE;
	size_t size = l->size < c->in_len - off ? l->size : c->in_len - off;
	uint8_t mask[CMD_RESERVED_MAX];
	NICREF_ASSERT(size <= sizeof mask);
	memset(mask, 0, size);
	cover_fields(mask, size, l);
	bool found = false;
	for (size_t d = 0; d < size; d += 4) {
		/* Eight bytes with no reserved bit set (nearly every input) at one step. */
		if (d + 8 <= size) {
			uint64_t in, m;
			memcpy(&in, c->in + off + d, sizeof in);
			memcpy(&m, mask + d, sizeof m);
			if (!(in & ~m)) {
				d += 4;
				continue;
			}
		}
		/* The dword's reserved bits that are set, big-endian (bytes past size as zero). */
		uint32_t bad = 0;
		for (size_t b = d; b < d + 4; b++)
			bad = bad << 8 | (b < size ? (uint8_t)(c->in[off + b] & ~mask[b]) : 0);
		if (bad) {
			dev_violation(c->dev, NICREF_VIO_CMD_RESERVED_NOT_ZERO,
				      (uint64_t)(off + d) << 32 | bad);
			found = true;
		}
	}
	return found && c->dev->core.cfg.profile.reserved_check ? NICREF_RULE_RESERVED_NOT_ZERO
							  : NICREF_RULE_NONE;
}

void cmd_execute(struct nicref_dev *dev, struct cmd_exec *x)
{
	unsigned opcode = (unsigned)PRM_GET(cmd_in, opcode, x->in, x->in_len);
	unsigned op_mod = (unsigned)PRM_GET(cmd_in, op_mod, x->in, x->in_len);
	const struct modelled_desc *m;

	memset(x->out, 0, x->out_len);
	enum nicref_cmd_rule rule = precheck(dev, x, opcode, op_mod, &m);
	if (rule == NICREF_RULE_NONE) {
		struct cmd_ctx c = { dev,	     x->slot,	     x->in,
				     x->in_len,	     x->out,	     x->out_len,
				     (uint16_t)op_mod, x->input_length, x->output_length };
		/* 5. reserved input bits (D-CMD-8), then the command's own rules. */
		rule = cmd_check_reserved(&c, m->in, 0);
		if (rule == NICREF_RULE_NONE)
			rule = m->handler(&c);
	}
	if (rule != NICREF_RULE_NONE) {
		/* D-CMD-6: a refused command leaves only status and syndrome. */
		memset(x->out, 0, x->out_len);
		dev_emit3(dev, NICREF_EV_CMD_FAIL, x->slot, opcode, rule);
	}
	PRM_SET(cmd_out, status, x->out, x->out_len, nicref_cmd_rule_status(rule));
	PRM_SET(cmd_out, syndrome, x->out, x->out_len, nicref_cmd_rule_syndrome(rule));
}
