/* The tx target's bytes and fields (fuzzers/tx_fields.c): every field of a WQE segment, a CQE, a
 * doorbell record or a command that the target reads or writes, looked up once by the PRM's
 * names through the library's layouts (tx_fields_init), so that no op pays for a name lookup;
 * and the big-endian reads. Only the tx target's files use it. */
#ifndef NICREF_FUZZ_TX_FIELDS_H
#define NICREF_FUZZ_TX_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/layout.h"

struct tx_fields {
	/* the WQE's segments (driver_sq.h enum refdrv_wqe_seg): ctrl, Eth, data pointer,
	 * inline data, UMR ctrl, MkeyCtx, KLM, UMR pointer */
	const struct nicref_field *opcode, *wqe_index, *sq_number, *ds, *fm, *ce, *se, *umr_mkey;
	const struct nicref_field *signature;
	const struct nicref_field *l4cs, *l3cs, *mss, *ihs, *hdrs;
	const struct nicref_field *p_inline, *p_bc, *p_lkey, *p_ah, *p_al, *i_bc;
	const struct nicref_field *u_inline, *u_check_free, *u_off_en, *u_size, *u_off, *u_mask;
	const struct nicref_field *m_free, *m_lr, *m_lw, *m_tag, *m_start, *m_len;
	const struct nicref_field *k_bc, *k_mkey, *k_ah, *k_al, *up_mkey, *up_ah, *up_al;
	/* the CQE, the CQ's doorbell record, MODIFY_SQ, QUERY_SQ, DESTROY_SQ and DESTROY_CQ */
	const struct nicref_field *c_opcode, *c_counter, *c_sop, *e_syndrome, *update_ci;
	const struct nicref_field *arm_sn, *arm_cmd, *arm_ci;
	const struct nicref_field *msq_opcode, *msq_cur, *msq_sqn, *msq_state;
	const struct nicref_field *qsq_opcode, *qsq_sqn, *qsq_state, *qsq_hw;
	const struct nicref_field *dsq_opcode, *dsq_sqn, *dcq_opcode, *dcq_cqn;
};

/* Filled once by tx_fields_init (the target's init), read-only afterwards. */
extern struct tx_fields tx_fld;

/* 0, or -1 (a field the layouts do not have: said on stderr). */
int tx_fields_init(void);

static inline unsigned txf_be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static inline uint32_t txf_be32(const uint8_t *p)
{
	return (uint32_t)txf_be16(p) << 16 | txf_be16(p + 2);
}

/* Field fd of the len bytes at b (0 when it does not fit). */
static inline uint64_t txf_get(const struct nicref_field *fd, const uint8_t *b, size_t len)
{
	uint64_t v = 0;
	(void)nicref_field_get(b, len, fd, &v);
	return v;
}

/* Field fd of the len bytes at b := v, cut to the field's width (it must fit). Out of line:
 * inlined at each of its ~100 callers it would add its branches to the coverage map at each. */
void txf_set(const struct nicref_field *fd, uint8_t *b, size_t len, uint64_t v);

#endif
