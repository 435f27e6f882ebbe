/* The LRO causes' public names (nicref/lro.h): why a segment opened, joined, ended or bypassed a
 * session, by value and by name, for the trace, vectors and `nicref lro explain`. */
#include <string.h>

#include "nicref/lro.h"

struct cause_row {
	const char *name, *clause, *text;
	int abrt, restart;
};

static const struct cause_row causes[NICREF_LRO_CAUSE_COUNT] = {
	[NICREF_LRO_NONE] = { "none", "", "", -1, 0 },
#define CAUSE_ROW(id, nm, ab, rs, cl, tx) [NICREF_LRO_##id] = { nm, cl, tx, ab, rs },
	NICREF_LRO_CAUSES(CAUSE_ROW)
#undef CAUSE_ROW
};

static const struct cause_row *row(enum nicref_lro_cause c)
{
	return (unsigned)c < NICREF_LRO_CAUSE_COUNT ? &causes[c] : NULL;
}

const char *nicref_lro_cause_name(enum nicref_lro_cause c)
{
	return row(c) ? row(c)->name : NULL;
}

const char *nicref_lro_cause_clause(enum nicref_lro_cause c)
{
	return row(c) ? row(c)->clause : NULL;
}

const char *nicref_lro_cause_text(enum nicref_lro_cause c)
{
	return row(c) ? row(c)->text : NULL;
}

int nicref_lro_cause_abrt(enum nicref_lro_cause c)
{
	return row(c) ? row(c)->abrt : -1;
}

int nicref_lro_cause_restarts(enum nicref_lro_cause c)
{
	return row(c) ? row(c)->restart : 0;
}

int nicref_lro_cause_find(const char *name)
{
	for (unsigned i = 0; name && i < NICREF_LRO_CAUSE_COUNT; i++)
		if (strcmp(causes[i].name, name) == 0)
			return (int)i;
	return -1;
}
