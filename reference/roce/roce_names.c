/* The names of nicref/roce.h: the BTH opcode table (IBTA Vol. 1 §9.2.1 Table 38, Annex A17
 * §A17.9.1) and the drop reasons, both from their one X-macro table. */
#include <string.h>

#include "roce/roce.h"

#define OP_ROW(id, c, nm, svc, knd, p, h)                                                      \
	{ .code = c,                                                                            \
	  .name = nm,                                                                           \
	  .service = NICREF_ROCE_SVC_##svc,                                                     \
	  .kind = NICREF_ROCE_K_##knd,                                                          \
	  .pos = NICREF_ROCE_POS_##p,                                                           \
	  .headers = (h) },
static const struct nicref_roce_opcode_info opcodes[] = { NICREF_ROCE_OPCODES(OP_ROW) };
#undef OP_ROW
#define NOPCODES (sizeof opcodes / sizeof opcodes[0])

const struct nicref_roce_opcode_info *nicref_roce_opcode(unsigned code)
{
	for (size_t i = 0; i < NOPCODES; i++)
		if (opcodes[i].code == code)
			return &opcodes[i];
	return NULL;
}

int nicref_roce_opcode_find(const char *name)
{
	for (size_t i = 0; name && i < NOPCODES; i++)
		if (strcmp(opcodes[i].name, name) == 0)
			return opcodes[i].code;
	return -1;
}

/* The extension headers' sizes, in the order of enum NICREF_ROCE_H_*. */
static const unsigned ext_len[] = {
	NICREF_ROCE_DETH_LEN,	   NICREF_ROCE_RETH_LEN,	 NICREF_ROCE_ATOMICETH_LEN,
	NICREF_ROCE_AETH_LEN,	   NICREF_ROCE_ATOMICACKETH_LEN, NICREF_ROCE_IMMDT_LEN,
	NICREF_ROCE_IETH_LEN,
};

unsigned nicref_roce_ext_len(unsigned code)
{
	const struct nicref_roce_opcode_info *op = nicref_roce_opcode(code);
	unsigned n = 0;
	for (unsigned b = 0; op && b < sizeof ext_len / sizeof ext_len[0]; b++)
		if (op->headers & (1u << b))
			n += ext_len[b];
	return n;
}

unsigned roce_hdr_len(unsigned opcode)
{
	return NICREF_ROCE_BTH_LEN + nicref_roce_ext_len(opcode);
}

struct drop_row {
	const char *name, *cite, *what;
};
#define DROP_ROW(id, v, nm, ct, wh) [v] = { nm, ct, wh },
static const struct drop_row drops[NICREF_ROCE_DROP_COUNT] = { NICREF_ROCE_DROPS(DROP_ROW) };
#undef DROP_ROW

static const struct drop_row *drop_row(unsigned r)
{
	return r > 0 && r < NICREF_ROCE_DROP_COUNT ? &drops[r] : NULL;
}

const char *nicref_roce_drop_name(unsigned reason)
{
	const struct drop_row *d = drop_row(reason);
	return d ? d->name : NULL;
}

const char *nicref_roce_drop_citation(unsigned reason)
{
	const struct drop_row *d = drop_row(reason);
	return d ? d->cite : NULL;
}

const char *nicref_roce_drop_text(unsigned reason)
{
	const struct drop_row *d = drop_row(reason);
	return d ? d->what : NULL;
}

int nicref_roce_drop_find(const char *name)
{
	for (unsigned r = 1; name && r < NICREF_ROCE_DROP_COUNT; r++)
		if (drops[r].name && strcmp(drops[r].name, name) == 0)
			return (int)r;
	return -1;
}
