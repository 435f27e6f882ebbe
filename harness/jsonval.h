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
};

/* 0 and *out set, or -1 with a message in err. */
int jv_u64(const json_t *v, enum name_space ns, uint64_t *out, char *err, size_t errlen);

/* Parses hex digits, ignoring whitespace, ':' and '_' and an optional "0x" prefix. Returns the
 * number of bytes, or -1 on a bad digit, an odd count, or more than cap bytes. */
long hex_parse(const char *s, uint8_t *out, size_t cap);
void hex_format(const uint8_t *p, size_t n, char *out); /* out: 2n+1 bytes */

#endif
