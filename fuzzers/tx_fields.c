/* The tx target's fields, looked up once (fuzzers/tx_fields.h). */
#include <stdio.h>

#include "driver_sq.h"
#include "fuzz_target.h"
#include "tx_fields.h"

struct tx_fields tx_fld;

static const struct field_row {
	int seg; /* enum refdrv_wqe_seg, or -1: the layout named */
	const char *layout, *field;
	const struct nicref_field **to;
} field_rows[] = {
	{ REFDRV_SEG_CTRL, 0, "opcode", &tx_fld.opcode },
	{ REFDRV_SEG_CTRL, 0, "wqe_index", &tx_fld.wqe_index },
	{ REFDRV_SEG_CTRL, 0, "sq_number", &tx_fld.sq_number },
	{ REFDRV_SEG_CTRL, 0, "ds", &tx_fld.ds },
	{ REFDRV_SEG_CTRL, 0, "fm", &tx_fld.fm },
	{ REFDRV_SEG_CTRL, 0, "ce", &tx_fld.ce },
	{ REFDRV_SEG_CTRL, 0, "se", &tx_fld.se },
	{ REFDRV_SEG_CTRL, 0, "umr_mkey", &tx_fld.umr_mkey },
	{ REFDRV_SEG_CTRL, 0, "signature", &tx_fld.signature },
	{ REFDRV_SEG_ETH, 0, "l4cs", &tx_fld.l4cs },
	{ REFDRV_SEG_ETH, 0, "l3cs", &tx_fld.l3cs },
	{ REFDRV_SEG_ETH, 0, "mss", &tx_fld.mss },
	{ REFDRV_SEG_ETH, 0, "inline_header_size", &tx_fld.ihs },
	{ REFDRV_SEG_ETH, 0, "inline_headers", &tx_fld.hdrs },
	{ REFDRV_SEG_DATA, 0, "inline", &tx_fld.p_inline },
	{ REFDRV_SEG_DATA, 0, "byte_count", &tx_fld.p_bc },
	{ REFDRV_SEG_DATA, 0, "l_key", &tx_fld.p_lkey },
	{ REFDRV_SEG_DATA, 0, "local_address_63_32", &tx_fld.p_ah },
	{ REFDRV_SEG_DATA, 0, "local_address_31_0", &tx_fld.p_al },
	{ REFDRV_SEG_INLINE, 0, "byte_count", &tx_fld.i_bc },
	{ REFDRV_SEG_UMR_CTRL, 0, "inline", &tx_fld.u_inline },
	{ REFDRV_SEG_UMR_CTRL, 0, "check_free", &tx_fld.u_check_free },
	{ REFDRV_SEG_UMR_CTRL, 0, "translation_offset_en", &tx_fld.u_off_en },
	{ REFDRV_SEG_UMR_CTRL, 0, "translation_octword_actual_size", &tx_fld.u_size },
	{ REFDRV_SEG_UMR_CTRL, 0, "translation_offset", &tx_fld.u_off },
	{ REFDRV_SEG_UMR_CTRL, 0, "mkeyctx_bit_mask", &tx_fld.u_mask },
	{ REFDRV_SEG_MKEY_CTX, 0, "free", &tx_fld.m_free },
	{ REFDRV_SEG_MKEY_CTX, 0, "lr", &tx_fld.m_lr },
	{ REFDRV_SEG_MKEY_CTX, 0, "lw", &tx_fld.m_lw },
	{ REFDRV_SEG_MKEY_CTX, 0, "mkey_7_0", &tx_fld.m_tag },
	{ REFDRV_SEG_MKEY_CTX, 0, "start_addr", &tx_fld.m_start },
	{ REFDRV_SEG_MKEY_CTX, 0, "len", &tx_fld.m_len },
	{ REFDRV_SEG_KLM, 0, "byte_count", &tx_fld.k_bc },
	{ REFDRV_SEG_KLM, 0, "mkey", &tx_fld.k_mkey },
	{ REFDRV_SEG_KLM, 0, "address_h_63_32", &tx_fld.k_ah },
	{ REFDRV_SEG_KLM, 0, "address_l_31_0", &tx_fld.k_al },
	{ REFDRV_SEG_UMR_PTR, 0, "mkey", &tx_fld.up_mkey },
	{ REFDRV_SEG_UMR_PTR, 0, "address_h_63_32", &tx_fld.up_ah },
	{ REFDRV_SEG_UMR_PTR, 0, "address_l_31_0", &tx_fld.up_al },
	{ -1, "cqe64", "opcode", &tx_fld.c_opcode },
	{ -1, "cqe64", "wqe_counter", &tx_fld.c_counter },
	{ -1, "cqe64", "s_wqe_opcode", &tx_fld.c_sop },
	{ -1, "err_cqe", "syndrome", &tx_fld.e_syndrome },
	{ -1, "cq_dbr", "update_ci", &tx_fld.update_ci },
	{ -1, "cq_dbr", "cmd_sn", &tx_fld.arm_sn },
	{ -1, "cq_dbr", "cmd", &tx_fld.arm_cmd },
	{ -1, "cq_dbr", "arm_ci", &tx_fld.arm_ci },
	{ -1, "modify_sq_in", "opcode", &tx_fld.msq_opcode },
	{ -1, "modify_sq_in", "sq_state", &tx_fld.msq_cur },
	{ -1, "modify_sq_in", "sqn", &tx_fld.msq_sqn },
	{ -1, "modify_sq_in", "state", &tx_fld.msq_state },
	{ -1, "query_sq_in", "opcode", &tx_fld.qsq_opcode },
	{ -1, "query_sq_in", "sqn", &tx_fld.qsq_sqn },
	{ -1, "query_sq_out", "state", &tx_fld.qsq_state },
	{ -1, "query_sq_out", "hw_counter", &tx_fld.qsq_hw },
	{ -1, "destroy_sq_in", "opcode", &tx_fld.dsq_opcode },
	{ -1, "destroy_sq_in", "sqn", &tx_fld.dsq_sqn },
	{ -1, "destroy_cq_in", "opcode", &tx_fld.dcq_opcode },
	{ -1, "destroy_cq_in", "cqn", &tx_fld.dcq_cqn },
};

int tx_fields_init(void)
{
	for (size_t i = 0; i < sizeof field_rows / sizeof field_rows[0]; i++) {
		const struct field_row *r = &field_rows[i];
		const struct nicref_layout *l = r->seg >= 0 ? refdrv_wqe_layout((enum refdrv_wqe_seg)r->seg)
							    : nicref_layout_find(r->layout);
		*r->to = l ? nicref_layout_field(l, r->field) : NULL;
		if (!*r->to) {
			fprintf(stderr, "tx_fuzz: no field %s in layout %s\n", r->field,
				r->seg >= 0 ? refdrv_wqe_layout_name((enum refdrv_wqe_seg)r->seg)
					    : r->layout);
			return -1;
		}
	}
	return 0;
}

void txf_set(const struct nicref_field *fd, uint8_t *b, size_t len, uint64_t v)
{
	if (fd->bit_width < 64)
		v &= (1ull << fd->bit_width) - 1;
	NICREF_FUZZ_CHECK(nicref_field_set(b, len, fd, v) == 0);
}
