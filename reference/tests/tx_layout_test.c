/* The send WQE segments as the PRM prints them (prm/layouts_wqe.h): the ctrl segment (§7.4.4.1.1
 * T25/T26), the Eth segment with its inline headers and the Padding segment (§7.4.4.1.2
 * T27-T30), the UMR control segment and pointer (§7.4.4.1.3 T31-T35; its MKeyCtx and KLMs are
 * mkc and klm, T9/T36), the data segments (§7.4.4.1.4 T38/T39) and the receive data segment
 * (§7.4.4.1.5 T40), pinned field by field, and a WQE written by hand read back through them. The
 * coordinates are read off the PRM tables, never from the library. */
#include <string.h>

#include "testlib.h"

#define NROWS(r) (sizeof(r) / sizeof(r)[0])

Test(tx_layout, ctrl_t26)
{
	static const struct tl_row rows[] = {
		{ "wqe_index", 0x00, 23, 8 },  { "opcode", 0x00, 7, 0 },
		{ "sq_number", 0x04, 31, 8 },  { "ds", 0x04, 5, 0 },
		{ "signature", 0x08, 31, 24 }, { "fm", 0x08, 7, 5 },
		{ "ce", 0x08, 3, 2 },	       { "se", 0x08, 1, 1 },
		{ "umr_mkey", 0x0C, 31, 0 },
	};
	tl_expect_layout("send_wqe_ctrl", 0x10, rows, NROWS(rows));
}

Test(tx_layout, eth_t28_with_inline_headers)
{
	static const struct tl_row rows[] = {
		{ "l4cs", 0x04, 31, 31 },
		{ "l3cs", 0x04, 30, 30 },
		{ "mss", 0x04, 13, 0 },
		{ "inline_header_size", 0x0C, 25, 16 },
		{ "inline_headers", 0x0C, 15, 0 },
		{ "inline_headers_cont_d", 0x10, 31, 0 },
	};
	tl_expect_layout("send_wqe_eth", 0x10, rows, NROWS(rows));
	/* T28 10h: "The inline headers can span multiple octowords": bytes to the segment's end. */
	const struct nicref_field *f = tl_field("send_wqe_eth", "inline_headers_cont_d");
	cr_expect(f->flags & NICREF_FIELD_ARRAY);
	cr_expect_eq(f->bit_width, 8, "one byte per element");
}

Test(tx_layout, padding_t30_umr_t33_t35)
{
	static const struct tl_row pad[] = { { "reserved", 0x00, 31, 0 } };
	tl_expect_layout("send_wqe_pad", 0x10, pad, NROWS(pad));
	cr_expect_eq(tl_field("send_wqe_pad", "reserved")->bit_width, 128, "T30 00h-0Ch");
	static const struct tl_row umr[] = {
		{ "inline", 0x00, 31, 31 },
		{ "check_free", 0x00, 30, 29 },
		{ "translation_offset_en", 0x00, 28, 28 },
		{ "translation_octword_actual_size", 0x04, 31, 16 },
		{ "translation_offset", 0x04, 15, 0 },
		{ "mkeyctx_bit_mask", 0x08, 31, 0 },
	};
	/* T31: the UMR control segment runs 10h-3Ch of the WQE: 30h bytes. */
	tl_expect_layout("send_wqe_umr_ctrl", 0x30, umr, NROWS(umr));
	cr_expect_eq(tl_field("send_wqe_umr_ctrl", "mkeyctx_bit_mask")->bit_width, 64,
		     "T33 08h-0Ch");
	static const struct tl_row ptr[] = {
		{ "mkey", 0x04, 31, 0 },
		{ "address_h_63_32", 0x08, 31, 0 },
		{ "address_l_31_0", 0x0C, 31, 0 },
	};
	tl_expect_layout("send_wqe_umr_pointer", 0x10, ptr, NROWS(ptr));
	/* The MKeyCtx segment and inline KLMs are the MKey's own layouts (T31 "See Table 9",
	 * "See Table 36"). */
	cr_expect_eq(nicref_layout_find("mkc")->size, 0x40, "T31 40-7C");
	cr_expect_eq(nicref_layout_find("klm")->size, 0x10, "T36");
}

Test(tx_layout, data_segments_t38_t39_t40)
{
	static const struct tl_row ptr[] = {
		{ "inline", 0x00, 31, 31 },
		{ "byte_count", 0x00, 30, 0 },
		{ "l_key", 0x04, 31, 0 },
		{ "local_address_63_32", 0x08, 31, 0 },
		{ "local_address_31_0", 0x0C, 31, 0 },
	};
	tl_expect_layout("send_wqe_data_ptr", 0x10, ptr, NROWS(ptr));
	static const struct tl_row inl[] = {
		{ "inline", 0x00, 31, 31 },
		{ "byte_count", 0x00, 9, 0 },
		{ "data_and_padding", 0x04, 31, 0 },
	};
	tl_expect_layout("send_wqe_data_inline", 0x04, inl, NROWS(inl));
	cr_expect(tl_field("send_wqe_data_inline", "data_and_padding")->flags & NICREF_FIELD_ARRAY);
	static const struct tl_row rcv[] = {
		{ "start_padding", 0x00, 31, 31 },
		{ "byte_count", 0x00, 30, 0 },
		{ "l_key", 0x04, 31, 0 },
		{ "local_address_63_32", 0x08, 31, 0 },
		{ "local_address_31_0", 0x0C, 31, 0 },
	};
	tl_expect_layout("recv_wqe_data", 0x10, rcv, NROWS(rcv));
}

/* A SEND WQE written byte by byte as T25/T27/T39 draw it reads back field by field. */
Test(tx_layout, a_wqe_by_hand_reads_back)
{
	uint8_t w[48] = { 0 };
	tl_put32(w + 0x00, 0x00012A0A); /* wqe_index 0x12A, opcode SEND */
	tl_put32(w + 0x04, 0x00000703); /* sq_number 7, ds 3 */
	tl_put32(w + 0x08, 0x5A00002A); /* signature 5A, fm 001, ce 10, se 1 */
	tl_put32(w + 0x14, 0xC0000000); /* eth: l4cs, l3cs */
	tl_put32(w + 0x1C, 0x000EAABB); /* inline_header_size 14, headers AA BB ... */
	tl_put32(w + 0x20, 0x8000000C); /* inline data, byte_count 12 */
	uint64_t v;
	cr_expect(nicref_field_get(w, 16, tl_field("send_wqe_ctrl", "wqe_index"), &v) == 0 &&
		  v == 0x12A);
	cr_expect(nicref_field_get(w, 16, tl_field("send_wqe_ctrl", "opcode"), &v) == 0 &&
		  v == 0x0A);
	cr_expect(nicref_field_get(w, 16, tl_field("send_wqe_ctrl", "sq_number"), &v) == 0 &&
		  v == 7);
	cr_expect(nicref_field_get(w, 16, tl_field("send_wqe_ctrl", "ds"), &v) == 0 && v == 3);
	cr_expect(nicref_field_get(w, 16, tl_field("send_wqe_ctrl", "signature"), &v) == 0 &&
		  v == 0x5A);
	cr_expect(nicref_field_get(w, 16, tl_field("send_wqe_ctrl", "fm"), &v) == 0 && v == 1);
	cr_expect(nicref_field_get(w, 16, tl_field("send_wqe_ctrl", "ce"), &v) == 0 && v == 2);
	const uint8_t *eth = w + 0x10;
	cr_expect(nicref_field_get(eth, 32, tl_field("send_wqe_eth", "l4cs"), &v) == 0 && v == 1);
	cr_expect(nicref_field_get(eth, 32, tl_field("send_wqe_eth", "l3cs"), &v) == 0 && v == 1);
	cr_expect(nicref_field_get(eth, 32, tl_field("send_wqe_eth", "inline_header_size"), &v) ==
		      0 &&
		  v == 14);
	cr_expect(nicref_field_get(eth, 32, tl_field("send_wqe_eth", "inline_headers"), &v) == 0 &&
		  v == 0xAABB);
	const uint8_t *d = w + 0x20;
	cr_expect(nicref_field_get(d, 16, tl_field("send_wqe_data_inline", "inline"), &v) == 0 &&
		  v == 1);
	cr_expect(nicref_field_get(d, 16, tl_field("send_wqe_data_inline", "byte_count"), &v) ==
		      0 &&
		  v == 12);
	cr_expect(nicref_field_get(d, 16, tl_field("send_wqe_data_ptr", "inline"), &v) == 0 &&
		      v == 1,
		  "bit 31 tells the two data segments apart (§7.4.4.1.4)");
}

/* Every segment is registered with its PRM table, so `nicref decode LAYOUT HEX`, vectors and
 * reports name its fields. */
Test(tx_layout, registered_with_their_tables)
{
	static const struct {
		const char *name, *source;
	} l[] = {
		{ "send_wqe_ctrl", "PRM §7.4.4.1.1 T25/T26" },
		{ "send_wqe_eth", "PRM §7.4.4.1.2 T27/T28" },
		{ "send_wqe_pad", "PRM §7.4.4.1.2 T29/T30" },
		{ "send_wqe_umr_ctrl", "PRM §7.4.4.1.3 T31-T33" },
		{ "send_wqe_umr_pointer", "PRM §7.4.4.1.3 T34/T35" },
		{ "send_wqe_data_ptr", "PRM §7.4.4.1.4 T38" },
		{ "send_wqe_data_inline", "PRM §7.4.4.1.4 T39" },
		{ "recv_wqe_data", "PRM §7.4.4.1.5 T40" },
	};
	for (size_t i = 0; i < NROWS(l); i++) {
		const struct nicref_layout *x = nicref_layout_find(l[i].name);
		cr_assert_not_null(x, "no layout %s", l[i].name);
		cr_expect_str_eq(x->source, l[i].source);
	}
}
