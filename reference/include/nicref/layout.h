/* PRM structure layouts: every structure is a table of fields, declared once, as the PRM's
 * field-description tables print them (byte offset of the dword, bit range within it), with
 * the PRM table number beside it. One bounds-checked accessor reads and writes any field.
 *
 * Bit numbering: PRM structures are big-endian; bit 31 of the dword at offset NNh is the most
 * significant bit of byte NNh (PRM "Byte Endianness"). bit_offset below counts from the most
 * significant bit of byte 0 of the structure, so a field at 08h bits 23:0 has bit_offset 72
 * and bit_width 24, whatever its width. */
#ifndef NICREF_LAYOUT_H
#define NICREF_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/api.h"

enum nicref_field_flags {
	/* The field repeats to the end of the buffer (pas[], supported lists): the layout's
	 * size counts none of its elements; bit_width is one element. */
	NICREF_FIELD_ARRAY = 1u << 0,
	/* The field deliberately overlaps another one (a union in the PRM). */
	NICREF_FIELD_ALIAS = 1u << 1,
};

struct nicref_field {
	const char *name;
	uint32_t bit_offset; /* from the MSB of byte 0 of the structure */
	uint32_t bit_width;
	uint16_t prm_offset; /* byte offset of the first dword, as the PRM prints it */
	uint8_t msb, lsb;    /* bit range within that dword; 31..0 for multi-dword fields */
	uint8_t flags;
};

struct nicref_layout {
	const char *name;   /* e.g. "cmdq_entry" */
	const char *source; /* e.g. "PRM §7.14.1 T95/T96" */
	uint32_t size;      /* bytes; the fixed part when the layout ends in an array */
	const struct nicref_field *fields;
	uint32_t nfields;
};

/* Every layout the library knows, in declaration order. */
NICREF_API const struct nicref_layout *const *nicref_layouts(size_t *count);
NICREF_API const struct nicref_layout *nicref_layout_find(const char *name);
NICREF_API const struct nicref_field *nicref_layout_field(const struct nicref_layout *l,
							  const char *name);

/* Accessors. Each returns 0, or -1 when the field does not lie inside buf[0..len) or (set)
 * the value does not fit the field. Fields up to 64 bits wide take a value; wider ones (and
 * any field whose offset and width are whole bytes) can be read and written as bytes. */
NICREF_API int nicref_field_get(const void *buf, size_t len, const struct nicref_field *f,
				uint64_t *out);
NICREF_API int nicref_field_set(void *buf, size_t len, const struct nicref_field *f,
				uint64_t value);
NICREF_API int nicref_field_get_bytes(const void *buf, size_t len, const struct nicref_field *f,
				      void *out, size_t out_len);
NICREF_API int nicref_field_set_bytes(void *buf, size_t len, const struct nicref_field *f,
				      const void *in, size_t in_len);

/* Element i of an array field (flags & NICREF_FIELD_ARRAY), as a plain field. */
NICREF_API struct nicref_field nicref_field_element(const struct nicref_field *f, uint32_t i);

/* Raw big-endian bit access underneath the tables; the same bounds rules. */
NICREF_API int nicref_bits_get(const void *buf, size_t len, uint64_t bit_offset, uint32_t width,
			       uint64_t *out);
NICREF_API int nicref_bits_set(void *buf, size_t len, uint64_t bit_offset, uint32_t width,
			       uint64_t value);

#endif
