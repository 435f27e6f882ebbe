/* Profile, option, duration and loss-pattern inputs of the `nicref adp` tools. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_profile.h"
#include "jsonval.h"
#include "nicref/layout.h"

/* The profile fields with their register widths (seed 000 profile layout), so a JSON value
 * that would not fit the register is refused rather than truncated. */
struct pfield {
	const char *name;
	unsigned bits;
	size_t off;
	size_t size;
};
#define PF(f, b) { #f, b, offsetof(struct nicref_adp_profile, f), \
		   sizeof(((struct nicref_adp_profile *)0)->f) }
static const struct pfield profile_fields[] = {
	PF(qp_total_timeout, 1),       PF(range_num, 3),
	PF(start_range_index, 3),      PF(time_unit, 2),
	PF(time_base, 16),             PF(retx_total_timeout, 8),
	PF(timeout_init_low_bound, 8), PF(timeout_init_range_size, 8),
};
#define RF(f, b) { #f, b, offsetof(struct nicref_adp_range, f), \
		   sizeof(((struct nicref_adp_range *)0)->f) }
static const struct pfield range_fields[] = {
	RF(prev_range_index, 3), RF(dec_mode, 2),   RF(timeout_retry_num, 10),
	RF(range_low_bound, 8),  RF(range_size, 8),
};

static void store(void *base, const struct pfield *f, uint64_t v)
{
	uint8_t *p = (uint8_t *)base + f->off;
	if (f->size == 1) {
		uint8_t x = (uint8_t)v;
		memcpy(p, &x, 1);
	} else {
		uint16_t x = (uint16_t)v;
		memcpy(p, &x, 2);
	}
}

static int fill(const json_t *obj, const struct pfield *fields, size_t nf, void *base,
		const char *where, char *err, size_t errlen)
{
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)obj, key, val) {
		size_t k = 0;
		while (k < nf && strcmp(fields[k].name, key) != 0)
			k++;
		if (k == nf) {
			snprintf(err, errlen, "%s: unknown field '%s'", where, key);
			return -1;
		}
		uint64_t v;
		char e[128];
		if (jv_u64(val, NS_NONE, &v, e, sizeof e) != 0) {
			snprintf(err, errlen, "%s.%s: %s", where, key, e);
			return -1;
		}
		if (v >> fields[k].bits) {
			snprintf(err, errlen, "%s.%s: %llu does not fit its %u-bit register field",
				 where, key, (unsigned long long)v, fields[k].bits);
			return -1;
		}
		store(base, &fields[k], v);
	}
	return 0;
}

static int from_json(const json_t *root, struct nicref_adp_profile *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	if (!json_is_object(root)) {
		snprintf(err, errlen, "profile: expected a JSON object");
		return -1;
	}
	json_t *scalars = json_object();
	json_t *ranges = NULL;
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)root, key, val) {
		if (!strcmp(key, "range") || !strcmp(key, "timeout_range")) {
			if (ranges) {
				snprintf(err, errlen, "profile: both 'range' and 'timeout_range'");
				json_decref(scalars);
				return -1;
			}
			ranges = val;
		} else {
			json_object_set(scalars, key, val);
		}
	}
	int rc = fill(scalars, profile_fields, sizeof profile_fields / sizeof *profile_fields, p,
		      "profile", err, errlen);
	json_decref(scalars);
	if (rc != 0)
		return -1;
	if (!ranges)
		return 0;
	if (!json_is_array(ranges) || json_array_size(ranges) > NICREF_ADP_MAX_RANGES) {
		snprintf(err, errlen, "profile.range: expected an array of at most %d objects",
			 NICREF_ADP_MAX_RANGES);
		return -1;
	}
	for (size_t i = 0; i < json_array_size(ranges); i++) {
		char where[48];
		snprintf(where, sizeof where, "profile.range[%u]", (unsigned)i);
		const json_t *r = json_array_get(ranges, i);
		if (!json_is_object(r)) {
			snprintf(err, errlen, "%s: expected an object", where);
			return -1;
		}
		if (fill(r, range_fields, sizeof range_fields / sizeof *range_fields, &p->range[i],
			 where, err, errlen) != 0)
			return -1;
	}
	return 0;
}

int adp_profile_from_json_text(const char *text, struct nicref_adp_profile *p, char *err,
			       size_t errlen)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(err, errlen, "profile JSON line %d: %s", je.line, je.text);
		return -1;
	}
	int rc = from_json(root, p, err, errlen);
	json_decref(root);
	return rc;
}

int adp_profile_from_file(const char *path, struct nicref_adp_profile *p, char *err,
			  size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(err, errlen, "%s line %d: %s", path, je.line, je.text);
		return -1;
	}
	int rc = from_json(root, p, err, errlen);
	json_decref(root);
	return rc;
}

/* A field of the ROCE_ACCL register header through the seed 000 layout (prm/layouts_adp.h). */
static uint32_t reg_field(const uint8_t *b, size_t len, const char *name)
{
	const struct nicref_layout *l = nicref_layout_find("roce_accl");
	const struct nicref_field *f = l ? nicref_layout_field(l, name) : NULL;
	uint64_t v = 0;
	if (!f || nicref_field_get(b, len, f, &v) != 0)
		return 0;
	return (uint32_t)v;
}

int adp_profile_from_bytes(const uint8_t *b, size_t len, struct adp_reg_image *img, char *err,
			   size_t errlen)
{
	memset(img, 0, sizeof *img);
	if (len == ADP_PROFILE_BYTES) {
		nicref_adp_profile_decode(b, len, &img->profile);
		return 0;
	}
	if (len != ADP_ROCE_ACCL_BYTES) {
		snprintf(err, errlen, "%zu bytes: expected %d (adp_retx_profile) or %d (ROCE_ACCL "
			 "register data)", len, ADP_PROFILE_BYTES, ADP_ROCE_ACCL_BYTES);
		return -1;
	}
	img->whole_register = true;
	img->profile_id = (uint8_t)reg_field(b, len, "adp_retx_profile_id");
	img->adp_retrans_en = reg_field(b, len, "roce_adp_retrans_en") != 0;
	img->max_range_num = (uint8_t)reg_field(b, len, "adp_retx_profile_max_range_num");
	img->max_id = (uint8_t)reg_field(b, len, "adp_retx_profile_max_id");
	img->base_timeout_min_ns = reg_field(b, len, "adp_retx_base_timeout_min");
	/* seed 000 L89-97: adp_retx_profile at 10h. */
	nicref_adp_profile_decode(b + 0x10, len - 0x10, &img->profile);
	return 0;
}

int adp_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (*end || v > max)
		return -1;
	*out = v;
	return 0;
}

int adp_parse_duration(const char *s, uint64_t *ns)
{
	/* digits[.digits]unit, computed in integers so "1.5ms" is exactly 1500000 ns. */
	uint64_t whole = 0, frac = 0, fscale = 1;
	const char *p = s;
	if (!(*p >= '0' && *p <= '9'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (fscale >= 1000000000u)
				return -1; /* below a nanosecond */
			frac = frac * 10 + (uint64_t)(*p - '0');
			fscale *= 10;
		}
	}
	uint64_t unit;
	if (!strcmp(p, "") || !strcmp(p, "ns"))
		unit = 1;
	else if (!strcmp(p, "us"))
		unit = 1000;
	else if (!strcmp(p, "ms"))
		unit = 1000000;
	else if (!strcmp(p, "s"))
		unit = 1000000000;
	else
		return -1;
	if (whole > UINT64_MAX / unit || (frac * unit) % fscale != 0)
		return -1; /* overflow, or a fraction of a nanosecond */
	uint64_t v = whole * unit, f = frac * unit / fscale;
	if (v > UINT64_MAX - f)
		return -1;
	*ns = v + f;
	return 0;
}

/* Option names and values, in enum order (include/nicref/adp.h, docs/decisions.md D-ADP-*). */
static const struct {
	const char *key;
	size_t off;
	const char *values[3];
} options[] = {
	{ "first-timeout", offsetof(struct nicref_adp_options, first_timeout),
	  { "retry-once", "escalate" } },
	{ "dec", offsetof(struct nicref_adp_options, dec_reading),
	  { "by-name", "by-amount", "by-factor" } },
	{ "init-range", offsetof(struct nicref_adp_options, init_range),
	  { "exclusive", "inclusive" } },
	{ "dec-trigger", offsetof(struct nicref_adp_options, dec_trigger),
	  { "every-progress", "clean-progress" } },
	{ "retry-uses", offsetof(struct nicref_adp_options, retry_uses),
	  { "arms", "retransmissions" } },
};

int adp_option_set(struct nicref_adp_options *o, const char *key, const char *val)
{
	for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
		if (strcmp(options[i].key, key) != 0)
			continue;
		for (uint8_t v = 0; v < 3; v++)
			if (options[i].values[v] && !strcmp(options[i].values[v], val)) {
				memcpy((uint8_t *)o + options[i].off, &v, 1);
				return 0;
			}
		return -1;
	}
	return 1;
}

const char *adp_option_value_name(const char *key, unsigned v)
{
	for (size_t i = 0; i < sizeof options / sizeof *options; i++)
		if (!strcmp(options[i].key, key))
			return v < 3 && options[i].values[v] ? options[i].values[v] : "?";
	return "?";
}

static int set_bit(uint64_t *words, size_t nwords, uint64_t k)
{
	if (k / 64 >= nwords)
		return -1;
	words[k / 64] |= 1ull << (k % 64);
	return 0;
}

int adp_loss_list(const char *s, uint64_t *words, size_t nwords)
{
	memset(words, 0, nwords * sizeof *words);
	if (!*s)
		return 0;
	const char *p = s;
	for (;;) {
		char *end;
		if (!(*p >= '0' && *p <= '9'))
			return -1;
		unsigned long long a = strtoull(p, &end, 10), b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!(*p >= '0' && *p <= '9'))
				return -1;
			b = strtoull(p, &end, 10);
			p = end;
			if (b < a)
				return -1;
		}
		if (b / 64 >= nwords)
			return -1;
		for (unsigned long long k = a; k <= b; k++)
			set_bit(words, nwords, k);
		if (*p == '\0')
			return 0;
		if (*p != ',')
			return -1;
		p++;
	}
}

int adp_loss_bits(const char *s, uint64_t *words, size_t nwords)
{
	memset(words, 0, nwords * sizeof *words);
	for (size_t k = 0; s[k]; k++) {
		if (s[k] != '0' && s[k] != '1')
			return -1;
		if (s[k] == '1' && set_bit(words, nwords, k) != 0)
			return -1;
	}
	return 0;
}
