/* The send path's public names (nicref/rules_tx.h): the send WQE opcodes (T26, D-TX-1) and the
 * syndromes of a completion with error (T74, D-TX-9), by value and by name, for vectors and
 * reports. */
#include <string.h>

#include "nicref/rules_tx.h"

struct name_row {
	unsigned value;
	const char *name;
};

static const struct name_row opcodes[] = {
#define OPCODE_ROW(id, v, cite) { v, #id },
	NICREF_SEND_OPCODES(OPCODE_ROW)
#undef OPCODE_ROW
};

static const struct name_row syndromes[] = {
#define SYNDROME_ROW(id, v, cite) { v, #id },
	NICREF_CQE_SYNDROMES(SYNDROME_ROW)
#undef SYNDROME_ROW
};

static const char *name_of(const struct name_row *t, size_t n, unsigned v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

static int value_of(const struct name_row *t, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return (int)t[i].value;
	return -1;
}

#define N(t) (sizeof(t) / sizeof((t)[0]))

const char *nicref_send_opcode_name(unsigned opcode)
{
	return name_of(opcodes, N(opcodes), opcode);
}

int nicref_send_opcode_find(const char *name)
{
	return value_of(opcodes, N(opcodes), name);
}

const char *nicref_cqe_syndrome_name(unsigned syndrome)
{
	return name_of(syndromes, N(syndromes), syndrome);
}

int nicref_cqe_syndrome_find(const char *name)
{
	return value_of(syndromes, N(syndromes), name);
}
