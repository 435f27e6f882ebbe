/* The one accessor behind every PRM layout, and lookup by name. */
#include <string.h>

#include "nicref/layout.h"
#include "prm/layouts.h"

static int in_bounds(size_t len, uint64_t bit_offset, uint64_t width)
{
	uint64_t bits = (uint64_t)len * 8u;
	/* Written so that no sum can wrap, whatever offset a caller passes. */
	return width > 0 && bit_offset <= bits && width <= bits - bit_offset;
}

int nicref_bits_get(const void *buf, size_t len, uint64_t bit_offset, uint32_t width,
		    uint64_t *out)
{
	const uint8_t *p = buf;
	uint64_t v = 0;

	if (width > 64 || !in_bounds(len, bit_offset, width))
		return -1;
	long at = prm_dword_at(len, bit_offset, width);
	if (at >= 0) { /* within one dword (prm/layouts.h) */
		*out = (prm_be32(p + at) & prm_dword_mask(bit_offset, width)) >>
		       (unsigned)(32 - bit_offset % 32 - width);
		return 0;
	}
	/* Walk the bytes the field touches, most significant first (big-endian). */
	uint64_t first = bit_offset / 8, last = (bit_offset + width - 1) / 8;
	unsigned head = (unsigned)(bit_offset % 8);
	unsigned tail = (unsigned)(7 - (bit_offset + width - 1) % 8);
	for (uint64_t i = first; i <= last; i++) {
		uint8_t b = p[i];
		unsigned nbits = 8;
		if (i == first) {
			b &= (uint8_t)(0xFFu >> head);
			nbits -= head;
		}
		if (i == last) {
			b >>= tail;
			nbits -= tail;
		}
		v = (v << nbits) | b;
	}
	*out = v;
	return 0;
}

int nicref_bits_set(void *buf, size_t len, uint64_t bit_offset, uint32_t width, uint64_t value)
{
	uint8_t *p = buf;

	if (width > 64 || !in_bounds(len, bit_offset, width))
		return -1;
	if (width < 64 && (value >> width) != 0)
		return -1;
	long at = prm_dword_at(len, bit_offset, width);
	if (at >= 0) { /* within one dword (prm/layouts.h) */
		uint32_t m = prm_dword_mask(bit_offset, width);
		prm_put_be32(p + at, (prm_be32(p + at) & ~m) |
					     ((uint32_t)value << (unsigned)(32 - bit_offset % 32 - width) & m));
		return 0;
	}
	/* Least significant bits go to the last byte; walk backwards. */
	uint64_t pos = bit_offset + width; /* one past the last bit */
	uint32_t left = width;
	while (left > 0) {
		uint64_t byte = (pos - 1) / 8;
		unsigned lsb_in_byte = (unsigned)(7 - (pos - 1) % 8); /* bit index from LSB */
		unsigned room = 8 - lsb_in_byte;
		unsigned n = left < room ? left : room;
		uint8_t mask = (uint8_t)(((1u << n) - 1u) << lsb_in_byte);
		p[byte] = (uint8_t)((p[byte] & ~mask) | (((unsigned)value << lsb_in_byte) & mask));
		value >>= n;
		left -= n;
		pos -= n;
	}
	return 0;
}

int nicref_field_get(const void *buf, size_t len, const struct nicref_field *f, uint64_t *out)
{
	return nicref_bits_get(buf, len, f->bit_offset, f->bit_width, out);
}

int nicref_field_set(void *buf, size_t len, const struct nicref_field *f, uint64_t value)
{
	return nicref_bits_set(buf, len, f->bit_offset, f->bit_width, value);
}

static int byte_shaped(const struct nicref_field *f)
{
	return f->bit_offset % 8 == 0 && f->bit_width % 8 == 0;
}

int nicref_field_get_bytes(const void *buf, size_t len, const struct nicref_field *f, void *out,
			   size_t out_len)
{
	if (!byte_shaped(f) || out_len != f->bit_width / 8 ||
	    !in_bounds(len, f->bit_offset, f->bit_width))
		return -1;
	memcpy(out, (const uint8_t *)buf + f->bit_offset / 8, out_len);
	return 0;
}

int nicref_field_set_bytes(void *buf, size_t len, const struct nicref_field *f, const void *in,
			   size_t in_len)
{
	if (!byte_shaped(f) || in_len != f->bit_width / 8 ||
	    !in_bounds(len, f->bit_offset, f->bit_width))
		return -1;
	memcpy((uint8_t *)buf + f->bit_offset / 8, in, in_len);
	return 0;
}

struct nicref_field nicref_field_element(const struct nicref_field *f, uint32_t i)
{
	struct nicref_field e = *f;
	uint64_t off = f->bit_offset + (uint64_t)i * f->bit_width;
	/* An element beyond 2^32 bits lies outside any buffer: keep it there, never wrap. */
	e.bit_offset = off > UINT32_MAX ? UINT32_MAX : (uint32_t)off;
	e.flags = (uint8_t)(f->flags & ~NICREF_FIELD_ARRAY);
	return e;
}

const struct nicref_layout *nicref_layout_find(const char *name)
{
	size_t n;
	const struct nicref_layout *const *all = nicref_layouts(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

const struct nicref_field *nicref_layout_field(const struct nicref_layout *l, const char *name)
{
	for (uint32_t i = 0; i < l->nfields; i++)
		if (strcmp(l->fields[i].name, name) == 0)
			return &l->fields[i];
	return NULL;
}
