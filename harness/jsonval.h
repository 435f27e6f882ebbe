/* Reading values out of vector JSON: numbers written as JSON integers, "0x..." or decimal
 * strings, or names (statuses, rules, opcodes); hex byte strings. */
#ifndef NICREF_JSONVAL_H
#define NICREF_JSONVAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* What a name may mean where a number is expected. */
enum name_space {
	NS_NONE,
	NS_STATUS,    /* T128 return status names */
	NS_DELIVERY,  /* T96 delivery status names */
	NS_OPCODE,    /* T127 command names */
	NS_VIOLATION, /* driver violation rule names */
	NS_CMD_RULE,  /* command refusal rule names */
	NS_WQE_OPCODE, /* send WQE opcode names (T26; harness/driver_sq.h) */
	NS_LRO_CAUSE, /* LRO causes (nicref/lro.h) */
	NS_ROCE_OPCODE, /* BTH opcode names (nicref/roce.h, IBTA Table 38) */
	NS_ROCE_DROP,   /* RoCE drop reasons (nicref/roce.h) */
};

/* What the names of a space are, for messages: "a return status name (PRM T128)". */
const char *jv_space_what(enum name_space ns);

/* A number as vectors write it, for a destination `bits` wide (1-64):
 *   - a JSON integer >= 0 (no reals, no negatives, no booleans);
 *   - a string "0x" (or "0X") and 1-16 hex digits, or decimal digits only ("010" is ten: no
 *     octal), no sign, no spaces, nothing past 2^64-1;
 *   - in a name space, one of its names.
 * The value must fit `bits`. 0 and *out set, or -1 with a message in err naming the value
 * ("\"banana\" is not a number", "0x1ff does not fit in 8 bits"). */
int jv_num(const json_t *v, enum name_space ns, unsigned bits, uint64_t *out, char *err,
	   size_t errlen);

/* jv_num for a 64-bit destination. */
int jv_u64(const json_t *v, enum name_space ns, uint64_t *out, char *err, size_t errlen);

/* Parses hex digit pairs, ignoring whitespace, ':' and '_' between pairs (never inside one:
 * "1 2" is refused) and an optional "0x" prefix. Returns the number of bytes, or -1 on a bad
 * digit, a separator inside a pair, an odd count, or more than cap bytes. */
long hex_parse(const char *s, uint8_t *out, size_t cap);
/* The number of bytes hex_parse would return (no limit), or -1 when it would fail. */
long hex_length(const char *s);
void hex_format(const uint8_t *p, size_t n, char *out); /* out: 2n+1 bytes */

#endif
