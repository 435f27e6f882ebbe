/* Values in vector JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_sq.h"
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
	case NS_WQE_OPCODE:
		v = refdrv_wqe_opcode_find(s);
		break;
	case NS_LRO_CAUSE:
		v = nicref_lro_cause_find(s);
		break;
	case NS_ROCE_OPCODE:
		v = nicref_roce_opcode_find(s);
		break;
	case NS_ROCE_DROP:
		v = nicref_roce_drop_find(s);
		break;
	case NS_NONE:
		break;
	}
	if (v < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

const char *jv_space_what(enum name_space ns)
{
	switch (ns) {
	case NS_STATUS:
		return "a return status name (PRM T128)";
	case NS_DELIVERY:
		return "a delivery status name (PRM T96)";
	case NS_OPCODE:
		return "a command name (PRM T127)";
	case NS_VIOLATION:
		return "a driver violation rule name";
	case NS_CMD_RULE:
		return "a command rule name";
	case NS_WQE_OPCODE:
		return "a WQE opcode name (PRM T26: NOP, SEND, LSO, UMR)";
	case NS_LRO_CAUSE:
		return "an LRO cause name (nicref/lro.h: timer, max_size, out_of_order, ...)";
	case NS_ROCE_OPCODE:
		return "a BTH opcode name (nicref/roce.h: RC_SEND_ONLY, RC_ACKNOWLEDGE, CNP, ...)";
	case NS_ROCE_DROP:
		return "a RoCE drop reason (nicref/roce.h: icrc, no_qp, pkey, qkey, ...)";
	case NS_NONE:
		break;
	}
	return "a number";
}

/* Digits of a string number; -1 when it is not one, -2 when it overflows 64 bits. */
static int parse_digits(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / (unsigned)base)
			return -2;
		v = v * (unsigned)base + d;
	}
	*out = v;
	return 0;
}

/* The value as JSON, for a message. */
static void value_text(const json_t *v, char *text, size_t len)
{
	char *dump = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(text, len, "%s", dump ? dump : "?");
	free(dump);
}

int jv_num(const json_t *v, enum name_space ns, unsigned bits, uint64_t *out, char *err,
	   size_t errlen)
{
	uint64_t x = 0;
	char text[80];
	const char *problem = NULL;
	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0)
			problem = "is negative";
		x = (uint64_t)json_integer_value(v);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		int rc = parse_digits(s, &x);
		if (rc == -2)
			problem = "is above 2^64-1";
		else if (rc != 0 && (ns == NS_NONE || name_lookup(s, ns, &x) != 0))
			problem = "";
	} else {
		problem = "";
	}
	if (!problem && bits < 64 && x >> bits) {
		value_text(v, text, sizeof text);
		snprintf(err, errlen, "%s does not fit in %u bit%s", text, bits, bits == 1 ? "" : "s");
		return -1;
	}
	if (!problem) {
		*out = x;
		return 0;
	}
	value_text(v, text, sizeof text);
	if (problem[0])
		snprintf(err, errlen, "%s %s", text, problem);
	else
		snprintf(err, errlen, "%s is not %s%s", text, ns == NS_NONE ? "a number" : "a number or ",
			 ns == NS_NONE ? "" : jv_space_what(ns));
	return -1;
}

int jv_u64(const json_t *v, enum name_space ns, uint64_t *out, char *err, size_t errlen)
{
	return jv_num(v, ns, 64, out, err, errlen);
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

/* What may stand between two digit pairs, for reading ("00 01", "00:01", "00_01"); never
 * inside a pair. */
static bool is_separator(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ':' || c == '_';
}

long hex_parse(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		if (is_separator(*s)) {
			if (hi >= 0)
				return -1; /* inside a digit pair (docs/vectors.md: between pairs) */
			continue;
		}
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

long hex_length(const char *s)
{
	size_t digits = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		if (is_separator(*s)) {
			if (digits % 2)
				return -1; /* inside a digit pair */
			continue;
		}
		if (nibble(*s) < 0)
			return -1;
		digits++;
	}
	return digits % 2 ? -1 : (long)(digits / 2);
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
