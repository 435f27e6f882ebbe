/* Private to libnicref: the registry of PRM layouts and the field indices the model uses.
 *
 * A layout is an X-macro row list, written as the PRM's field-description table reads:
 *   F(L, name, off, msb, lsb)  a field in the dword at byte offset `off`, bits msb..lsb
 *   W(L, name, off, bits)      a field of `bits` bits (a multiple of 32) starting at bit 31 of
 *                              the dword at `off` (64-bit pointers, 128-bit inline data, ...)
 *   A(L, name, off, bits)      an array of `bits`-bit elements from `off` to the end
 * Field names are the PRM's, made into C identifiers ("input mailbox pointer[63:32]" becomes
 * input_mailbox_pointer_63_32). Bits that no row covers are reserved (PRM "Reserved fields").
 *
 * Each layout is registered once in NICREF_LAYOUT_LIST with its size in bytes and its source;
 * layouts.c instantiates the tables and an enum PRMF_<layout>__<field> for each field, so the
 * model writes PRM_GET(cmdq_entry, token, buf, len) and the name, offset and width come from
 * the one row above. */
#ifndef NICREF_PRM_LAYOUTS_H
#define NICREF_PRM_LAYOUTS_H

#include "nicref/layout.h"
#include "prm/layouts_cmdif.h"
#include "prm/layouts_init.h"
#include "prm/layouts_caps.h"
#include "prm/layouts_regs.h"
#include "prm/layouts_adp.h"
#include "prm/layouts_pcie.h"
#include "prm/layouts_eq.h"
#include "prm/layouts_eqe.h"
#include "prm/layouts_cq.h"
#include "prm/layouts_cqe.h"
#include "prm/layouts_vport.h"
#include "prm/layouts_wq.h"
#include "prm/layouts_wqe.h"
#include "prm/layouts_mkey.h"
#include "prm/layouts_tir.h"
#include "prm/layouts_steer.h"
#include "prm/layouts_qp.h"
#include "prm/layouts_roce.h"
#include "prm/layouts_umem.h"

/* X(layout, size_bytes, "source") */
#define NICREF_LAYOUT_LIST(X)                                                                   \
	NICREF_LAYOUTS_CMDIF(X)                                                                 \
	NICREF_LAYOUTS_INIT(X)                                                                  \
	NICREF_LAYOUTS_CAPS(X)                                                                  \
	NICREF_LAYOUTS_REGS(X)                                                                  \
	NICREF_LAYOUTS_ADP(X)                                                                  \
	NICREF_LAYOUTS_PCIE(X)                                                                 \
	NICREF_LAYOUTS_EQ(X)                                                                   \
	NICREF_LAYOUTS_EQE(X)                                                                  \
	NICREF_LAYOUTS_CQ(X)                                                                   \
	NICREF_LAYOUTS_CQE(X)                                                                  \
	NICREF_LAYOUTS_VPORT(X)                                                                \
	NICREF_LAYOUTS_WQ(X)                                                                   \
	NICREF_LAYOUTS_WQE(X)                                                                  \
	NICREF_LAYOUTS_MKEY(X)                                                                 \
	NICREF_LAYOUTS_TIR(X)                                                                  \
	NICREF_LAYOUTS_STEER(X)                                                                 \
	NICREF_LAYOUTS_QP(X)                                                                   \
	NICREF_LAYOUTS_ROCE(X)                                                                 \
	NICREF_LAYOUTS_UMEM(X)

#define PRM_ENUM_F(L, n, ...) PRMF_##L##__##n,
/* Each field's bit offset and width as constants too (the same arithmetic as prm/layouts.c's
 * rows), so that PRM_GET/PRM_SET compile to a load, a mask and a shift instead of reading the
 * field's row while running (the receive path writes every CQE field of every frame). */
#define PRM_BITS_F(L, n, off, hi, lo)                                                           \
	PRMB_##L##__##n = (off) * 8 + 31 - (hi), PRMW_##L##__##n = (hi) - (lo) + 1,
#define PRM_BITS_W(L, n, off, bits) PRMB_##L##__##n = (off) * 8, PRMW_##L##__##n = (bits),
#define PRM_DECLARE(L, size, src)                                                               \
	enum { PRM_L_##L(PRM_ENUM_F, PRM_ENUM_F, PRM_ENUM_F, L) PRMN_##L };                    \
	enum { PRM_L_##L(PRM_BITS_F, PRM_BITS_W, PRM_BITS_W, L) PRMB_END_##L };                 \
	extern const struct nicref_layout nicref_layout_##L;                                    \
	extern const struct nicref_field nicref_fields_##L[];                                   \
	enum { PRM_SIZE_##L = (size) };
NICREF_LAYOUT_LIST(PRM_DECLARE)
#undef PRM_DECLARE

/* A field's row, at an address the linker fixes (nicref_fields_<layout>, the array the layout
 * points at). Taken through the layout's `fields` pointer instead, every PRM_GET/PRM_SET loaded
 * the pointer and, under UBSan, checked the pointer arithmetic (pointer-overflow), whose two
 * comparisons the coverage-traced fuzz build hooked (docs/fuzzing.md "Throughput"), though the
 * row is read only when a field does not take the inline path. */
#define PRM_FIELD(L, n) (&nicref_fields_##L[PRMF_##L##__##n])

/* Field access for the model's own buffers, whose size it knows: a field that does not fit is
 * a model bug, so these return the value directly and leave the bounds check to the accessor
 * (a failing check reads as 0 and writes nothing; unit tests pin the layouts). */
/* Most PRM fields lie within one big-endian dword (F rows): one load and a mask. The data path
 * reads and writes CQE, WQE and match-key fields per frame, so the accessors below take this
 * path inline and leave every other shape to the general accessor (prm/layout.c, which takes
 * the same path). prm_dword_at: the dword's byte offset, or -1 when the field is not within
 * one dword of the buffer. */
static inline long prm_dword_at(size_t len, uint64_t bit_offset, uint32_t width)
{
	uint64_t dw = bit_offset / 32;
	if (width == 0 || width > 32 || (bit_offset + width - 1) / 32 != dw || (dw + 1) * 4 > len)
		return -1;
	return (long)(dw * 4);
}

static inline uint32_t prm_dword_mask(uint64_t bit_offset, uint32_t width)
{
	return (width == 32 ? 0xFFFFFFFFu : (1u << width) - 1u)
	       << (unsigned)(32 - bit_offset % 32 - width);
}

static inline uint32_t prm_be32(const uint8_t *q)
{
	return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

static inline void prm_put_be32(uint8_t *q, uint32_t w)
{
	q[0] = (uint8_t)(w >> 24), q[1] = (uint8_t)(w >> 16), q[2] = (uint8_t)(w >> 8);
	q[3] = (uint8_t)w;
}

static inline uint64_t prm_get(const void *buf, size_t len, const struct nicref_field *f)
{
	long at = prm_dword_at(len, f->bit_offset, f->bit_width);
	if (at >= 0)
		return (prm_be32((const uint8_t *)buf + at) & prm_dword_mask(f->bit_offset, f->bit_width))
		       >> (unsigned)(32 - f->bit_offset % 32 - f->bit_width);
	uint64_t v = 0;
	(void)nicref_field_get(buf, len, f, &v);
	return v;
}

static inline void prm_set(void *buf, size_t len, const struct nicref_field *f, uint64_t v)
{
	long at = prm_dword_at(len, f->bit_offset, f->bit_width);
	if (at >= 0 && (v >> f->bit_width) == 0) {
		uint8_t *q = (uint8_t *)buf + at;
		uint32_t m = prm_dword_mask(f->bit_offset, f->bit_width);
		prm_put_be32(q, (prm_be32(q) & ~m) |
					((uint32_t)v << (unsigned)(32 - f->bit_offset % 32 - f->bit_width) & m));
		return;
	}
	(void)nicref_field_set(buf, len, f, v);
}

/* prm_get/prm_set with the field's offset and width given as constants (equal to f's). */
static inline uint64_t prm_get_k(const void *buf, size_t len, uint64_t bit_offset,
				 uint32_t bit_width, const struct nicref_field *f)
{
	long at = prm_dword_at(len, bit_offset, bit_width);
	if (at >= 0)
		return (prm_be32((const uint8_t *)buf + at) & prm_dword_mask(bit_offset, bit_width)) >>
		       (unsigned)(32 - bit_offset % 32 - bit_width);
	uint64_t v = 0;
	(void)nicref_field_get(buf, len, f, &v);
	return v;
}

static inline void prm_set_k(void *buf, size_t len, uint64_t bit_offset, uint32_t bit_width,
			     const struct nicref_field *f, uint64_t v)
{
	long at = prm_dword_at(len, bit_offset, bit_width);
	if (at >= 0 && (v >> bit_width) == 0) {
		uint8_t *q = (uint8_t *)buf + at;
		uint32_t m = prm_dword_mask(bit_offset, bit_width);
		prm_put_be32(q, (prm_be32(q) & ~m) |
					((uint32_t)v << (unsigned)(32 - bit_offset % 32 - bit_width) & m));
		return;
	}
	(void)nicref_field_set(buf, len, f, v);
}

#define PRM_GET(L, n, buf, len)                                                                 \
	prm_get_k((buf), (len), PRMB_##L##__##n, PRMW_##L##__##n, PRM_FIELD(L, n))
#define PRM_SET(L, n, buf, len, v)                                                              \
	prm_set_k((buf), (len), PRMB_##L##__##n, PRMW_##L##__##n, PRM_FIELD(L, n), (v))

#endif
