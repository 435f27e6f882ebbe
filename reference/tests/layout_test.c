/* PRM layouts and the bounds-checked big-endian accessor (reference/prm/layout.c, layouts.c).
 *
 * Every expected value below is computed by hand from the PRM ("Byte Endianness": bit 31 of the
 * dword at NNh is the MSB of byte NNh) and from the field-description tables it cites; none is
 * copied from what the library prints. */
#include <stdint.h>
#include <string.h>

#include "prm/layouts.h"
#include "testlib.h"

/* ---- Structural checks over every registered layout -------------------------------------- */

static const struct nicref_layout *const *all_layouts(size_t *n)
{
	const struct nicref_layout *const *all = nicref_layouts(n);
	cr_assert_not_null(all);
	cr_assert_gt(*n, 0u);
	return all;
}

Test(layout_tables, every_field_inside_its_layout)
{
	size_t n;
	const struct nicref_layout *const *all = all_layouts(&n);
	for (size_t i = 0; i < n; i++) {
		const struct nicref_layout *l = all[i];
		cr_assert_not_null(l->name);
		cr_assert_gt(l->size, 0u, "%s: size 0", l->name);
		for (uint32_t k = 0; k < l->nfields; k++) {
			const struct nicref_field *f = &l->fields[k];
			cr_assert_gt(f->bit_width, 0u, "%s.%s: width 0", l->name, f->name);
			if (f->flags & NICREF_FIELD_ARRAY)
				/* An array starts at or before the end of the fixed part. */
				cr_assert_leq(f->bit_offset, (uint64_t)l->size * 8u,
					      "%s.%s: array starts at bit %u past size 0x%x", l->name,
					      f->name, f->bit_offset, l->size);
			else
				cr_assert_leq((uint64_t)f->bit_offset + f->bit_width,
					      (uint64_t)l->size * 8u,
					      "%s.%s: bits %u..%u past size 0x%x", l->name, f->name,
					      f->bit_offset, f->bit_offset + f->bit_width - 1, l->size);
		}
	}
}

/* An array repeats to the end of the buffer: it occupies [bit_offset, infinity). */
static uint64_t field_end(const struct nicref_field *f)
{
	return (f->flags & NICREF_FIELD_ARRAY) ? UINT64_MAX : (uint64_t)f->bit_offset + f->bit_width;
}

Test(layout_tables, no_unintended_overlap)
{
	size_t n;
	const struct nicref_layout *const *all = all_layouts(&n);
	for (size_t i = 0; i < n; i++) {
		const struct nicref_layout *l = all[i];
		for (uint32_t a = 0; a < l->nfields; a++) {
			for (uint32_t b = a + 1; b < l->nfields; b++) {
				const struct nicref_field *fa = &l->fields[a], *fb = &l->fields[b];
				if ((fa->flags | fb->flags) & NICREF_FIELD_ALIAS)
					continue;
				int overlap = fa->bit_offset < field_end(fb) &&
					      fb->bit_offset < field_end(fa);
				cr_assert(!overlap, "%s: %s [%u,+%u) overlaps %s [%u,+%u)", l->name,
					  fa->name, fa->bit_offset, fa->bit_width, fb->name,
					  fb->bit_offset, fb->bit_width);
			}
		}
	}
}

Test(layout_tables, names_unique)
{
	size_t n;
	const struct nicref_layout *const *all = all_layouts(&n);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++)
			cr_assert_str_neq(all[i]->name, all[j]->name, "layout name %s repeated",
					  all[i]->name);
		const struct nicref_layout *l = all[i];
		for (uint32_t a = 0; a < l->nfields; a++) {
			cr_assert_not_null(l->fields[a].name);
			cr_assert_neq(l->fields[a].name[0], '\0', "%s: empty field name", l->name);
			for (uint32_t b = a + 1; b < l->nfields; b++)
				cr_assert_str_neq(l->fields[a].name, l->fields[b].name,
						  "%s: field %s repeated", l->name, l->fields[a].name);
		}
	}
}

/* The PRM prints every field as (dword offset, msb:lsb) or (offset, width in bits); the
 * numeric view must be the same field. */
Test(layout_tables, bit_offsets_match_prm_coordinates)
{
	size_t n;
	const struct nicref_layout *const *all = all_layouts(&n);
	for (size_t i = 0; i < n; i++) {
		const struct nicref_layout *l = all[i];
		for (uint32_t k = 0; k < l->nfields; k++) {
			const struct nicref_field *f = &l->fields[k];
			cr_assert_eq(f->prm_offset % 4, 0, "%s.%s: PRM offset 0x%x not a dword",
				     l->name, f->name, f->prm_offset);
			cr_assert_leq(f->msb, 31, "%s.%s", l->name, f->name);
			cr_assert_geq(f->msb, f->lsb, "%s.%s", l->name, f->name);
			cr_assert_eq(f->bit_offset, (uint32_t)f->prm_offset * 8u + 31u - f->msb,
				     "%s.%s: bit_offset %u, PRM %xh[%u:%u]", l->name, f->name,
				     f->bit_offset, f->prm_offset, f->msb, f->lsb);
			if (f->bit_width <= 32 && !(f->flags & NICREF_FIELD_ARRAY)) {
				cr_assert_eq(f->bit_width, (uint32_t)(f->msb - f->lsb + 1u),
					     "%s.%s: width %u, PRM %xh[%u:%u]", l->name, f->name,
					     f->bit_width, f->prm_offset, f->msb, f->lsb);
			} else if (f->bit_width > 32) {
				/* Multi-dword fields span whole dwords, MSB first. */
				cr_assert_eq(f->msb, 31, "%s.%s", l->name, f->name);
				cr_assert_eq(f->lsb, 0, "%s.%s", l->name, f->name);
				cr_assert_eq(f->bit_width % 32, 0, "%s.%s", l->name, f->name);
			}
		}
	}
}

Test(layout_tables, lookup_by_name)
{
	size_t n;
	const struct nicref_layout *const *all = all_layouts(&n);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(nicref_layout_find(all[i]->name), all[i], "%s", all[i]->name);
		for (uint32_t k = 0; k < all[i]->nfields; k++)
			cr_assert_eq(nicref_layout_field(all[i], all[i]->fields[k].name),
				     &all[i]->fields[k]);
	}
	const struct nicref_layout *e = nicref_layout_find("cmdq_entry");
	cr_assert_not_null(e);
	cr_assert_str_eq(e->name, "cmdq_entry");
	cr_assert_null(nicref_layout_find("no_such_layout"));
	cr_assert_null(nicref_layout_find(""));
	cr_assert_null(nicref_layout_find("cmdq_entr"));
	cr_assert_null(nicref_layout_field(e, "no_such_field"));
	cr_assert_null(nicref_layout_field(e, ""));
	cr_assert_null(nicref_layout_field(e, "toke"));
}

/* ---- Spot checks against the PRM tables ---------------------------------------------------- */

static void expect_field(const char *layout, const char *name, uint32_t bit_offset,
			 uint32_t width)
{
	const struct nicref_field *f = tl_field(layout, name);
	cr_expect_eq(f->bit_offset, bit_offset, "%s.%s: bit_offset %u, expected %u", layout, name,
		     f->bit_offset, bit_offset);
	cr_expect_eq(f->bit_width, width, "%s.%s: width %u, expected %u", layout, name,
		     f->bit_width, width);
}

/* PRM §7.14.1 T95/T96. */
Test(layout_prm, cmdq_entry_t96)
{
	const struct nicref_layout *l = nicref_layout_find("cmdq_entry");
	cr_assert_not_null(l);
	cr_assert_eq(l->size, 0x40);
	expect_field("cmdq_entry", "type", 0, 8);                             /* 00h[31:24] */
	expect_field("cmdq_entry", "input_length", 32, 32);                   /* 04h[31:0] */
	expect_field("cmdq_entry", "input_mailbox_pointer_63_32", 64, 32);    /* 08h[31:0] */
	expect_field("cmdq_entry", "input_mailbox_pointer_31_9", 96, 23);     /* 0Ch[31:9] */
	expect_field("cmdq_entry", "command_input_inline_data", 128, 128);    /* 10h-1Ch */
	expect_field("cmdq_entry", "command_output_inline_data", 256, 128);   /* 20h-2Ch */
	expect_field("cmdq_entry", "output_mailbox_pointer_63_32", 384, 32);  /* 30h[31:0] */
	expect_field("cmdq_entry", "output_mailbox_pointer_31_9", 416, 23);   /* 34h[31:9] */
	expect_field("cmdq_entry", "output_length", 448, 32);                 /* 38h[31:0] */
	expect_field("cmdq_entry", "token", 0x3C * 8, 8);                     /* 3Ch[31:24] */
	expect_field("cmdq_entry", "signature", 0x3C * 8 + 8, 8);             /* 3Ch[23:16] */
	expect_field("cmdq_entry", "status", 0x3C * 8 + 24, 7);               /* 3Ch[7:1] */
	expect_field("cmdq_entry", "ownership", 511, 1);                      /* 3Ch[0] */
	const struct nicref_field *st = tl_field("cmdq_entry", "status");
	cr_expect_eq(st->prm_offset, 0x3C);
	cr_expect_eq(st->msb, 7);
	cr_expect_eq(st->lsb, 1);
}

/* PRM §7.14.1.1 T97/T98. */
Test(layout_prm, cmd_mailbox_t98)
{
	const struct nicref_layout *l = nicref_layout_find("cmd_mailbox");
	cr_assert_not_null(l);
	cr_assert_eq(l->size, 0x240);
	expect_field("cmd_mailbox", "mailbox_data", 0, 4096);                 /* 00h-1FCh */
	expect_field("cmd_mailbox", "next_pointer_63_32", 0x230 * 8, 32);     /* 230h */
	expect_field("cmd_mailbox", "next_pointer_31_10", 0x234 * 8, 22);     /* 234h[31:10] */
	expect_field("cmd_mailbox", "block_number", 0x238 * 8, 32);           /* 238h */
	expect_field("cmd_mailbox", "token", 0x23C * 8 + 8, 8);               /* 23Ch[23:16] */
	expect_field("cmd_mailbox", "ctrl_signature", 0x23C * 8 + 16, 8);     /* 23Ch[15:8] */
	expect_field("cmd_mailbox", "signature", 0x23C * 8 + 24, 8);          /* 23Ch[7:0] */
	cr_expect_eq(tl_field("cmd_mailbox", "block_number")->prm_offset, 0x238);
}

/* PRM §4.3 T8. */
Test(layout_prm, init_seg_t8)
{
	expect_field("init_seg", "fw_rev_minor", 0, 16);
	expect_field("init_seg", "fw_rev_major", 16, 16);
	expect_field("init_seg", "cmd_interface_rev", 32, 16);
	expect_field("init_seg", "fw_rev_subminor", 48, 16);
	expect_field("init_seg", "cmdq_phy_addr_63_32", 0x10 * 8, 32);
	expect_field("init_seg", "cmdq_phy_addr_31_12", 0x14 * 8, 20);
	expect_field("init_seg", "nic_interface", 0x14 * 8 + 31 - 9, 2);
	expect_field("init_seg", "log_cmdq_size", 0x14 * 8 + 24, 4);
	expect_field("init_seg", "log_cmdq_stride", 0x14 * 8 + 28, 4);
	expect_field("init_seg", "initializing", 0x1FC * 8, 1); /* 1FCh bit 31 */
	expect_field("init_seg", "nic_interface_supported", 0x1FC * 8 + 5, 3);
	expect_field("init_seg", "internal_timer_h", 0x1000 * 8, 32);
	expect_field("init_seg", "internal_timer_l", 0x1004 * 8, 32);
	expect_field("init_seg", "clear_int", 0x100C * 8 + 31, 1);
	expect_field("init_seg", "health_syndrome", 0x1010 * 8, 8);
	/* A 24-bit field, 1010h[23:0]: bit_offset off*8 + 8, width 24. */
	expect_field("init_seg", "health_counter", 0x1010 * 8 + 8, 24);
	const struct nicref_field *ini = tl_field("init_seg", "initializing");
	cr_expect_eq(ini->prm_offset, 0x1FC);
	cr_expect_eq(ini->msb, 31);
	cr_expect_eq(ini->lsb, 31);
}

/* PRM §7.14.1.2 T99-T102 and §12.3.13 T196 (ALLOC_PD output pd 08h[23:0], a 24-bit field). */
Test(layout_prm, command_headers)
{
	expect_field("cmd_in", "opcode", 0, 16);
	expect_field("cmd_in", "op_mod", 0x04 * 8 + 16, 16);
	expect_field("cmd_out", "status", 0, 8);
	expect_field("cmd_out", "syndrome", 32, 32);
	expect_field("alloc_pd_out", "pd", 0x08 * 8 + 8, 24);
	const struct nicref_field *cmd = tl_field("cmd_in", "command");
	cr_expect(cmd->flags & NICREF_FIELD_ARRAY);
	cr_expect_eq(cmd->bit_offset, 0x08 * 8);
	cr_expect_eq(cmd->bit_width, 32);
	/* PRM §12.18.1 T493-T496: NOP input and output are 10h bytes (08h-0Ch reserved). */
	cr_expect_eq(nicref_layout_find("nop_in")->size, 0x10);
	cr_expect_eq(nicref_layout_find("nop_out")->size, 0x10);
}

/* ---- The raw accessor, with hand-computed bytes ------------------------------------------ */

static void expect_bytes(const uint8_t *got, const uint8_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(got[i], want[i], "byte %zu: got 0x%02x, expected 0x%02x", i, got[i],
			     want[i]);
}

Test(layout_accessor, one_bit)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 7;
	cr_assert_eq(nicref_bits_set(b, sizeof b, 0, 1, 1), 0); /* 00h bit 31: MSB of byte 0 */
	cr_assert_eq(nicref_bits_set(b, sizeof b, 63, 1, 1), 0); /* 04h bit 0: LSB of byte 7 */
	const uint8_t want[8] = { 0x80, 0, 0, 0, 0, 0, 0, 0x01 };
	expect_bytes(b, want, 8);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 63, 1, &v), 0);
	cr_assert_eq(v, 1);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 62, 1, &v), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 0, 1, 0), 0);
	cr_assert_eq(b[0], 0x00);
}

Test(layout_accessor, seven_bits_in_one_byte)
{
	/* 04h[7:1] (like the delivery status): bit_offset 4*8 + 31 - 7 = 56, width 7. */
	uint8_t b[8] = { 0, 0, 0, 0, 0, 0, 0, 0x01 };
	uint64_t v = 0;
	cr_assert_eq(nicref_bits_set(b, sizeof b, 56, 7, 0x10), 0);
	cr_assert_eq(b[7], 0x21, "0x10 in bits 7:1 with bit 0 kept is byte 0x21, got 0x%02x", b[7]);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 56, 7, 0x7F), 0);
	cr_assert_eq(b[7], 0xFF);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 56, 7, 0x05), 0);
	cr_assert_eq(b[7], 0x0B);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 56, 7, &v), 0);
	cr_assert_eq(v, 0x05);
	for (int i = 0; i < 7; i++)
		cr_assert_eq(b[i], 0);
}

Test(layout_accessor, twelve_bits_across_a_byte_boundary)
{
	/* 0x123 into 04h[19:8]: bit_offset 4*8 + 31 - 19 = 44; bytes 4..7 = 00 01 23 00. */
	uint8_t b[8] = { 0 };
	uint64_t v = 0;
	cr_assert_eq(nicref_bits_set(b, sizeof b, 44, 12, 0x123), 0);
	const uint8_t want[8] = { 0, 0, 0, 0, 0x00, 0x01, 0x23, 0x00 };
	expect_bytes(b, want, 8);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 44, 12, &v), 0);
	cr_assert_eq(v, 0x123);
	/* The neighbours of the field are kept. */
	uint8_t c[8];
	memset(c, 0xFF, sizeof c);
	cr_assert_eq(nicref_bits_set(c, sizeof c, 44, 12, 0x123), 0);
	const uint8_t want_c[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF1, 0x23, 0xFF };
	expect_bytes(c, want_c, 8);
	cr_assert_eq(nicref_bits_get(c, sizeof c, 44, 12, &v), 0);
	cr_assert_eq(v, 0x123);
}

Test(layout_accessor, twenty_four_bits)
{
	/* 08h[23:0] = 0xABCDEF: bit_offset 8*8 + 8 = 72; bytes 8..11 = 00 AB CD EF. */
	uint8_t b[12];
	memset(b, 0x5A, sizeof b);
	uint64_t v = 0;
	cr_assert_eq(nicref_bits_set(b, sizeof b, 72, 24, 0xABCDEF), 0);
	const uint8_t want[12] = { 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A,
				   0x5A, 0x5A, 0x5A, 0xAB, 0xCD, 0xEF };
	expect_bytes(b, want, 12);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 72, 24, &v), 0);
	cr_assert_eq(v, 0xABCDEF);
	/* Through the table: ALLOC_PD output pd, 08h[23:0]. */
	uint8_t out[0x10] = { 0 };
	const struct nicref_field *pd = tl_field("alloc_pd_out", "pd");
	cr_assert_eq(nicref_field_set(out, sizeof out, pd, 0x123456), 0);
	cr_assert_eq(out[8], 0x00);
	cr_assert_eq(out[9], 0x12);
	cr_assert_eq(out[10], 0x34);
	cr_assert_eq(out[11], 0x56);
}

Test(layout_accessor, thirty_two_bits)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 0;
	cr_assert_eq(nicref_bits_set(b, sizeof b, 32, 32, 0xDEADBEEF), 0);
	const uint8_t want[8] = { 0, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xEF };
	expect_bytes(b, want, 8);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 32, 32, &v), 0);
	cr_assert_eq(v, 0xDEADBEEF);
}

Test(layout_accessor, sixty_four_bits)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 0;
	cr_assert_eq(nicref_bits_set(b, sizeof b, 0, 64, 0x0102030405060708ull), 0);
	const uint8_t want[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	expect_bytes(b, want, 8);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 0, 64, &v), 0);
	cr_assert_eq(v, 0x0102030405060708ull);
	/* All ones fits a 64-bit field. */
	cr_assert_eq(nicref_bits_set(b, sizeof b, 0, 64, UINT64_MAX), 0);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(b[i], 0xFF);
	/* Not byte aligned: bits 4..67 of a 9-byte buffer span nine bytes, nibble-shifted. */
	uint8_t c[9] = { 0 };
	cr_assert_eq(nicref_bits_set(c, sizeof c, 4, 64, 0x0123456789ABCDEFull), 0);
	const uint8_t want_c[9] = { 0x00, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0 };
	expect_bytes(c, want_c, 9);
	cr_assert_eq(nicref_bits_get(c, sizeof c, 4, 64, &v), 0);
	cr_assert_eq(v, 0x0123456789ABCDEFull);
}

Test(layout_accessor, wider_than_64_bits_as_bytes)
{
	uint8_t e[0x40] = { 0 };
	uint8_t in[16], out[16];
	uint64_t v = 0;
	const struct nicref_field *f = tl_field("cmdq_entry", "command_input_inline_data");
	for (int i = 0; i < 16; i++)
		in[i] = (uint8_t)(0xA0 + i);
	/* A 128-bit field takes no scalar value. */
	cr_assert_eq(nicref_field_get(e, sizeof e, f, &v), -1);
	cr_assert_eq(nicref_bits_get(e, sizeof e, 0, 65, &v), -1);
	cr_assert_eq(nicref_bits_set(e, sizeof e, 0, 65, 1), -1);
	/* As bytes: 10h-1Fh. */
	cr_assert_eq(nicref_field_set_bytes(e, sizeof e, f, in, sizeof in), 0);
	for (int i = 0; i < 0x40; i++)
		cr_assert_eq(e[i], (i >= 0x10 && i < 0x20) ? (uint8_t)(0xA0 + i - 0x10) : 0,
			     "byte 0x%x", i);
	memset(out, 0, sizeof out);
	cr_assert_eq(nicref_field_get_bytes(e, sizeof e, f, out, sizeof out), 0);
	cr_assert_eq(memcmp(out, in, sizeof in), 0);
	/* The length must be the field's: 16 bytes. */
	cr_assert_eq(nicref_field_get_bytes(e, sizeof e, f, out, 15), -1);
	cr_assert_eq(nicref_field_set_bytes(e, sizeof e, f, in, 17), -1);
	/* A buffer that ends inside the field. */
	uint8_t short_e[0x1F];
	memset(short_e, 0x33, sizeof short_e);
	cr_assert_eq(nicref_field_set_bytes(short_e, sizeof short_e, f, in, sizeof in), -1);
	for (size_t i = 0; i < sizeof short_e; i++)
		cr_assert_eq(short_e[i], 0x33);
	cr_assert_eq(nicref_field_get_bytes(short_e, sizeof short_e, f, out, sizeof out), -1);
	/* A field that is not whole bytes cannot be read as bytes (status is 3Ch[7:1]). */
	uint8_t one;
	cr_assert_eq(nicref_field_get_bytes(e, sizeof e, tl_field("cmdq_entry", "status"), &one, 1),
		     -1);
}

Test(layout_accessor, out_of_bounds_fails_and_writes_nothing)
{
	uint8_t b[4];
	memset(b, 0x77, sizeof b);
	uint64_t v = 0xC0FFEE;
	/* Exactly fitting is fine. */
	cr_assert_eq(nicref_bits_get(b, sizeof b, 24, 8, &v), 0);
	cr_assert_eq(v, 0x77);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 0, 32, &v), 0);
	cr_assert_eq(v, 0x77777777);
	/* One bit past the end. */
	v = 0xC0FFEE;
	cr_assert_eq(nicref_bits_get(b, sizeof b, 25, 8, &v), -1);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 0, 33, &v), -1);
	cr_assert_eq(nicref_bits_get(b, sizeof b, 32, 1, &v), -1);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 30, 4, 0x0), -1);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 0, 33, 0x0), -1);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 32, 1, 0x0), -1);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(b[i], 0x77, "byte %d written by a failed set", i);
	/* A table field past a short buffer: cmdq_entry.token at 3Ch with only 3Ch bytes. */
	uint8_t e[0x3C];
	memset(e, 0x11, sizeof e);
	const struct nicref_field *tok = tl_field("cmdq_entry", "token");
	cr_assert_eq(nicref_field_set(e, sizeof e, tok, 0), -1);
	cr_assert_eq(nicref_field_get(e, sizeof e, tok, &v), -1);
	for (size_t i = 0; i < sizeof e; i++)
		cr_assert_eq(e[i], 0x11);
}

/* A bit offset near 2^64 is far outside any buffer: bit_offset + width must not wrap round to a
 * small number and pass the bounds check (layout.h: -1 when the field does not lie inside
 * buf[0..len)). */
Test(layout_accessor, huge_bit_offset_is_out_of_bounds)
{
	uint8_t b[4];
	memset(b, 0x77, sizeof b);
	uint64_t v = 0xC0FFEE;
	int rs = nicref_bits_set(b, sizeof b, UINT64_MAX - 3, 8, 0x00);
	int rg = nicref_bits_get(b, sizeof b, UINT64_MAX - 3, 8, &v);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(b[i], 0x77, "byte %d written by a set at bit 2^64-4: now 0x%02x", i,
			     b[i]);
	cr_expect_eq(rs, -1, "set at bit 2^64-4 returned %d", rs);
	cr_expect_eq(rg, -1, "get at bit 2^64-4 returned %d", rg);
}

Test(layout_accessor, value_too_wide_fails_and_writes_nothing)
{
	uint8_t b[8];
	memset(b, 0x00, sizeof b);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 56, 7, 0x80), -1);  /* 8 bits into 7 */
	cr_assert_eq(nicref_bits_set(b, sizeof b, 44, 12, 0x1000), -1);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 0, 1, 2), -1);
	cr_assert_eq(nicref_bits_set(b, sizeof b, 0, 32, 0x100000000ull), -1);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(b[i], 0, "byte %d written by a failed set", i);
	/* Through a table field: 3Ch[7:1] holds at most 0x7F. */
	uint8_t e[0x40] = { 0 };
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "status"), 0x80), -1);
	cr_assert_eq(e[0x3F], 0);
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "ownership"), 2), -1);
	cr_assert_eq(e[0x3F], 0);
}

Test(layout_accessor, table_fields_place_big_endian)
{
	uint8_t e[0x40] = { 0 };
	uint64_t v = 0;
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "type"), 0x07), 0);
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "input_length"), 0x610), 0);
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "token"), 0xAB), 0);
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "signature"), 0xCD), 0);
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "status"), 0x10), 0);
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "ownership"), 1), 0);
	/* input mailbox pointer[31:9] holds address bits 31:9: 0x12345600 >> 9 = 0x91A2B. */
	cr_assert_eq(nicref_field_set(e, sizeof e, tl_field("cmdq_entry", "input_mailbox_pointer_31_9"),
				      0x12345600u >> 9),
		     0);
	cr_assert_eq(e[0x00], 0x07);
	cr_assert_eq(e[0x04], 0x00);
	cr_assert_eq(e[0x05], 0x00);
	cr_assert_eq(e[0x06], 0x06);
	cr_assert_eq(e[0x07], 0x10);
	cr_assert_eq(e[0x0C], 0x12);
	cr_assert_eq(e[0x0D], 0x34);
	cr_assert_eq(e[0x0E], 0x56);
	cr_assert_eq(e[0x0F], 0x00);
	cr_assert_eq(e[0x3C], 0xAB);
	cr_assert_eq(e[0x3D], 0xCD);
	cr_assert_eq(e[0x3E], 0x00);
	cr_assert_eq(e[0x3F], 0x21); /* D-CMD-2: status 0x10 is byte 0x20, | ownership */
	cr_assert_eq(nicref_field_get(e, sizeof e, tl_field("cmdq_entry", "status"), &v), 0);
	cr_assert_eq(v, 0x10);
	/* Mailbox block number at 238h. */
	uint8_t m[0x240] = { 0 };
	cr_assert_eq(nicref_field_set(m, sizeof m, tl_field("cmd_mailbox", "block_number"), 0x0102),
		     0);
	cr_assert_eq(m[0x238], 0);
	cr_assert_eq(m[0x239], 0);
	cr_assert_eq(m[0x23A], 0x01);
	cr_assert_eq(m[0x23B], 0x02);
	cr_assert_eq(nicref_field_set(m, sizeof m, tl_field("cmd_mailbox", "token"), 0x5C), 0);
	cr_assert_eq(m[0x23D], 0x5C);
	cr_assert_eq(m[0x23C], 0x00);
}

Test(layout_accessor, array_element)
{
	/* cmd_in.command[i] is dword 08h + 4i (T99/T100). */
	const struct nicref_field *cmd = tl_field("cmd_in", "command");
	struct nicref_field e2 = nicref_field_element(cmd, 2);
	cr_assert_eq(e2.bit_offset, (0x08 + 2 * 4) * 8);
	cr_assert_eq(e2.bit_width, 32);
	cr_assert_eq(e2.flags & NICREF_FIELD_ARRAY, 0);
	uint8_t in[0x20] = { 0 };
	cr_assert_eq(nicref_field_set(in, sizeof in, &e2, 0xCAFEF00D), 0);
	cr_assert_eq(in[0x10], 0xCA);
	cr_assert_eq(in[0x11], 0xFE);
	cr_assert_eq(in[0x12], 0xF0);
	cr_assert_eq(in[0x13], 0x0D);
	/* Element 6 would be 20h-23h: past a 20h-byte buffer. */
	struct nicref_field e6 = nicref_field_element(cmd, 6);
	cr_assert_eq(nicref_field_set(in, sizeof in, &e6, 1), -1);
	/* MANAGE_PAGES pas[i] is 8 bytes at 10h + 8i (T135). */
	const struct nicref_field *pas = tl_field("manage_pages_in", "pas");
	cr_assert(pas->flags & NICREF_FIELD_ARRAY);
	struct nicref_field p1 = nicref_field_element(pas, 1);
	cr_assert_eq(p1.bit_offset, (0x10 + 8) * 8);
	cr_assert_eq(p1.bit_width, 64);
	uint8_t mp[0x20] = { 0 };
	cr_assert_eq(nicref_field_set(mp, sizeof mp, &p1, 0x0000000123456000ull), 0);
	const uint8_t want[8] = { 0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x60, 0x00 };
	expect_bytes(mp + 0x18, want, 8);
	struct nicref_field p0 = nicref_field_element(pas, 0);
	cr_assert_eq(p0.bit_offset, pas->bit_offset);
}

/* Element i of an array lies at bit_offset + i * bit_width, which for a large i is past any
 * buffer: it must not wrap round into the fixed part. cmd_in.command[2^27] starts at byte
 * 08h + 2^29, so a set into a 10h-byte buffer must fail and leave the buffer alone. */
Test(layout_accessor, array_element_far_index_does_not_wrap)
{
	const struct nicref_field *cmd = tl_field("cmd_in", "command");
	struct nicref_field far = nicref_field_element(cmd, 1u << 27);
	uint8_t in[0x10];
	memset(in, 0, sizeof in);
	int rc = nicref_field_set(in, sizeof in, &far, 0xFFFFFFFFu);
	for (size_t i = 0; i < sizeof in; i++)
		cr_expect_eq(in[i], 0, "byte 0x%zx written through element 2^27: 0x%02x", i, in[i]);
	cr_expect_eq(rc, -1, "set of element 2^27 into 16 bytes returned %d (bit_offset %u)", rc,
		     far.bit_offset);
}

/* PRM_GET/PRM_SET take each field's offset and width as compile-time constants (PRMB_/PRMW_,
 * prm/layouts.h): every one of them, in every layout, equals its row in the registry. One table
 * row per field and one loop (an assertion per field would make a function too large for the
 * sanitizer builds). */
static const struct const_row {
	const struct nicref_layout *l;
	unsigned field;
	uint64_t bit_offset;
	uint32_t bit_width;
} const_rows[] = {
#define CONST_ROW(L, n, ...) { &nicref_layout_##L, PRMF_##L##__##n, PRMB_##L##__##n, PRMW_##L##__##n },
#define CONST_LAYOUT(L, size, src) PRM_L_##L(CONST_ROW, CONST_ROW, CONST_ROW, L)
	NICREF_LAYOUT_LIST(CONST_LAYOUT)
#undef CONST_LAYOUT
#undef CONST_ROW
};

Test(layout, constant_offsets_equal_the_rows)
{
	size_t n = sizeof const_rows / sizeof const_rows[0];
	cr_expect_gt(n, 100u);
	for (size_t i = 0; i < n; i++) {
		const struct const_row *r = &const_rows[i];
		const struct nicref_field *f = &r->l->fields[r->field];
		cr_expect_eq(r->bit_offset, f->bit_offset, "%s.%s offset", r->l->name, f->name);
		cr_expect_eq(r->bit_width, f->bit_width, "%s.%s width", r->l->name, f->name);
	}
}
