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

/* X(layout, size_bytes, "source") */
#define NICREF_LAYOUT_LIST(X)                                                                   \
	NICREF_LAYOUTS_CMDIF(X)                                                                 \
	NICREF_LAYOUTS_INIT(X)                                                                  \
	NICREF_LAYOUTS_CAPS(X)                                                                  \
	NICREF_LAYOUTS_REGS(X)                                                                  \
	NICREF_LAYOUTS_ADP(X)                                                                  \
	NICREF_LAYOUTS_EQ(X)                                                                   \
	NICREF_LAYOUTS_EQE(X)                                                                  \
	NICREF_LAYOUTS_CQ(X)                                                                   \
	NICREF_LAYOUTS_CQE(X)                                                                  \
	NICREF_LAYOUTS_VPORT(X)                                                                \
	NICREF_LAYOUTS_WQ(X)                                                                   \
	NICREF_LAYOUTS_WQE(X)                                                                  \
	NICREF_LAYOUTS_MKEY(X)                                                                 \
	NICREF_LAYOUTS_TIR(X)                                                                  \
	NICREF_LAYOUTS_STEER(X)

#define PRM_ENUM_F(L, n, ...) PRMF_##L##__##n,
#define PRM_DECLARE(L, size, src)                                                               \
	enum { PRM_L_##L(PRM_ENUM_F, PRM_ENUM_F, PRM_ENUM_F, L) PRMN_##L };                    \
	extern const struct nicref_layout nicref_layout_##L;                                    \
	enum { PRM_SIZE_##L = (size) };
NICREF_LAYOUT_LIST(PRM_DECLARE)
#undef PRM_DECLARE

#define PRM_FIELD(L, n) (&nicref_layout_##L.fields[PRMF_##L##__##n])

/* Field access for the model's own buffers, whose size it knows: a field that does not fit is
 * a model bug, so these return the value directly and leave the bounds check to the accessor
 * (a failing check reads as 0 and writes nothing; unit tests pin the layouts). */
static inline uint64_t prm_get(const void *buf, size_t len, const struct nicref_field *f)
{
	uint64_t v = 0;
	(void)nicref_field_get(buf, len, f, &v);
	return v;
}

static inline void prm_set(void *buf, size_t len, const struct nicref_field *f, uint64_t v)
{
	(void)nicref_field_set(buf, len, f, v);
}

#define PRM_GET(L, n, buf, len) prm_get((buf), (len), PRM_FIELD(L, n))
#define PRM_SET(L, n, buf, len, v) prm_set((buf), (len), PRM_FIELD(L, n), (v))

#endif
