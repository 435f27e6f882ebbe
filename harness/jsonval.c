/* Values in vector JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonval.h"
#include "nicref/nicref.h"

static int name_lookup(const char *s, enum name_space ns, uint64_t *out)
{
	int v = -1;
	switch (ns) {
	case NS_STATUS:
		for (unsigned i = 0; i < 256 && v < 0; i++)
			if (nicref_cmd_status_name(i) && strcmp(nicref_cmd_status_name(i), s) == 0)
				v = (int)i;
		break;
	case NS_DELIVERY:
		for (unsigned i = 0; i < 128 && v < 0; i++)
			if (nicref_delivery_status_name(i) &&
			    strcmp(nicref_delivery_status_name(i), s) == 0)
				v = (int)i;
		break;
	case NS_OPCODE:
		v = nicref_opcode_find(s);
		break;
	case NS_VIOLATION:
		v = nicref_violation_find(s);
		break;
	case NS_CMD_RULE:
		v = nicref_cmd_rule_find(s);
		break;
	case NS_NONE:
		break;
	}
	if (v < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int jv_u64(const json_t *v, enum name_space ns, uint64_t *out, char *err, size_t errlen)
{
	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0) {
			snprintf(err, errlen, "negative number");
			return -1;
		}
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_boolean(v)) {
		*out = json_is_true(v) ? 1 : 0;
		return 0;
	}
	if (!json_is_string(v)) {
		snprintf(err, errlen, "expected a number or a name");
		return -1;
	}
	const char *s = json_string_value(v);
	char *end = NULL;
	if (s[0] >= '0' && s[0] <= '9') {
		unsigned long long n = strtoull(s, &end, 0);
		if (*end == '\0') {
			*out = n;
			return 0;
		}
	}
	if (ns != NS_NONE && name_lookup(s, ns, out) == 0)
		return 0;
	snprintf(err, errlen, "'%s' is not a number%s", s, ns != NS_NONE ? " or a known name" : "");
	return -1;
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long hex_parse(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r' || *s == ':' || *s == '_')
			continue;
		int d = nibble(*s);
		if (d < 0)
			return -1;
		if (hi < 0) {
			hi = d;
			continue;
		}
		if (n == cap)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | d);
		hi = -1;
	}
	return hi < 0 ? (long)n : -1;
}

void hex_format(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}
