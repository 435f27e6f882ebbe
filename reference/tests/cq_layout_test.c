/* The completion queue entries as the PRM prints them (prm/layouts_cqe.h): the 64-byte CQE
 * (§7.12.1.1 T67/T68), its 128-byte form (D-CQE-2), the error CQE (§7.12.7 T73/T74) and the
 * Resize CQE (§7.12.6 T72), pinned field by field, and a CQE the device writes read back through
 * them. The coordinates below are read off the PRM tables by hand (T68 widths packed into the
 * T67 rows, §7.12.1.1), never from the library. Shared tools: cq_util.h. */
#include <string.h>

#include "cq_util.h"

/* T67 rows with T68 widths; every field a requester CQE of the send path fills is here
 * (wqe_counter, s_wqe_opcode, srqn_user_index, timestamp, se, signature, owner). */
static const struct tl_row cqe64_rows[] = {
	{ "lro_timestamp_is_valid", 0x04, 31, 31 },
	{ "lro_tcp_psh", 0x04, 30, 30 },
	{ "lro_abrt", 0x04, 29, 28 },
	{ "lro_dup_ack_cnt", 0x04, 27, 24 },
	{ "lro_min_ttl", 0x04, 23, 16 },
	{ "lro_tcp_win", 0x04, 15, 0 },
	{ "lro_ack_seq_num", 0x08, 31, 0 },
	{ "rx_hash_result", 0x0C, 31, 0 },
	{ "rx_hash_type", 0x10, 31, 24 },
	{ "checksum", 0x14, 31, 16 },
	{ "l4_ok", 0x1C, 26, 26 },
	{ "l3_ok", 0x1C, 25, 25 },
	{ "l2_ok", 0x1C, 24, 24 },
	{ "ip_frag", 0x1C, 23, 23 },
	{ "l4_hdr_type", 0x1C, 22, 20 },
	{ "l3_hdr_type", 0x1C, 19, 18 },
	{ "ip_ext_opts", 0x1C, 17, 17 },
	{ "cv", 0x1C, 16, 16 },
	{ "up", 0x1C, 15, 13 },
	{ "cfi", 0x1C, 12, 12 },
	{ "vid", 0x1C, 11, 0 },
	{ "lro_num_seg", 0x20, 31, 24 },
	{ "srqn_user_index", 0x20, 23, 0 },
	{ "byte_cnt", 0x2C, 31, 0 },
	{ "timestamp_h", 0x30, 31, 0 },
	{ "timestamp_l", 0x34, 31, 0 },
	{ "s_wqe_opcode", 0x38, 31, 24 },
	{ "flow_tag", 0x38, 23, 0 },
	{ "wqe_counter", 0x3C, 31, 16 },
	{ "signature", 0x3C, 15, 8 },
	{ "opcode", 0x3C, 7, 4 },
	{ "cqe_format", 0x3C, 3, 2 },
	{ "se", 0x3C, 1, 1 },
	{ "owner", 0x3C, 0, 0 },
};
#define NROWS(r) (sizeof(r) / sizeof(r)[0])

Test(cq_layout, cqe64_t67_t68)
{
	tl_expect_layout("cqe64", 0x40, cqe64_rows, NROWS(cqe64_rows));
}

Test(cq_layout, cqe128_is_data_64_then_the_64_byte_cqe)
{
	/* D-CQE-2: T68's data_64 segment in 00h-3Fh, the T67 CQE in 40h-7Fh: owner and opcode
	 * in the entry's last byte, 7Fh. */
	const struct nicref_layout *l = nicref_layout_find("cqe128");
	cr_assert_not_null(l);
	cr_expect_eq(l->size, 0x80u);
	cr_expect_eq(l->nfields, NROWS(cqe64_rows) + 1);
	const struct nicref_field *d = tl_field("cqe128", "data_64");
	cr_expect_eq(d->bit_offset, 0u);
	cr_expect_eq(d->bit_width, 512u);
	for (size_t i = 0; i < NROWS(cqe64_rows); i++) {
		const struct tl_row *r = &cqe64_rows[i];
		tl_pin("cqe128", r->name, 0x40 + r->off, r->msb, r->lsb);
	}
	tl_pin("cqe128", "owner", 0x7C, 0, 0);
}

Test(cq_layout, err_cqe_t73_t74_and_resize_cqe_t72)
{
	static const struct tl_row err[] = {
		{ "wqe_id", 0x00, 15, 0 },
		{ "srqn_user_index", 0x20, 23, 0 }, /* T73 "usr_index", at T67's place */
		{ "byte_cnt", 0x2C, 31, 0 },
		{ "vendor_error_syndrome", 0x34, 15, 8 },
		{ "syndrome", 0x34, 7, 0 },
		{ "s_wqe_opcode", 0x38, 31, 24 },
		{ "flow_tag", 0x38, 23, 0 },
		{ "wqe_counter", 0x3C, 31, 16 },
		{ "signature", 0x3C, 15, 8 },
		{ "opcode", 0x3C, 7, 4 },
		{ "owner", 0x3C, 0, 0 },
	};
	tl_expect_layout("err_cqe", 0x40, err, NROWS(err));
	static const struct tl_row resize[] = {
		{ "signature", 0x3C, 15, 8 },
		{ "opcode", 0x3C, 7, 4 },
		{ "owner", 0x3C, 0, 0 },
	};
	tl_expect_layout("resize_cqe", 0x40, resize, NROWS(resize));
}

static uint64_t get(const uint8_t *e, size_t len, const char *layout, const char *name)
{
	uint64_t v = 0;
	cr_assert_eq(nicref_field_get(e, len, tl_field(layout, name), &v), 0, "%s.%s", layout,
		     name);
	return v;
}

Test(cq_layout, a_128_byte_requester_cqe_reads_back_through_cqe128)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 1, .eqn = eq.eqn, .cqe_sz = 1 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	cr_assert_eq(post(t, &cq, 0xBEEF, true), 0);
	uint8_t e[128];
	tl_mem_read(t, cq.a.buf, e, sizeof e);
	static const uint8_t zero[64];
	cr_expect_eq(memcmp(e, zero, 64), 0, "data_64 zero: cqe_format 0");
	cr_expect_eq(get(e, 128, "cqe128", "opcode"), 0, "T68 0 requester");
	cr_expect_eq(get(e, 128, "cqe128", "wqe_counter"), 0xBEEF);
	cr_expect_eq(get(e, 128, "cqe128", "s_wqe_opcode"), 0x0A);
	cr_expect_eq(get(e, 128, "cqe128", "srqn_user_index"), 0x123456);
	cr_expect_eq(get(e, 128, "cqe128", "se"), 1);
	cr_expect_eq(get(e, 128, "cqe128", "cqe_format"), 0);
	cr_expect_eq(get(e, 128, "cqe128", "owner"), 0, "first pass: (0 >> 1) & 1 (§7.12.3.1)");
	cr_expect_eq(tl_xor_index(e, 128, 0), 0xFF, "T68 signature over the 128 bytes");
	/* The same 64 bytes are a cqe64. */
	cr_expect_eq(get(e + 0x40, 64, "cqe64", "wqe_counter"), 0xBEEF);
	tl_down(t);
}
