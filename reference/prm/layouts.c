/* Instantiates every layout table registered in NICREF_LAYOUT_LIST. */
#include "prm/layouts.h"

#define PRM_ROW_F(L, n, off, hi, lo)                                                            \
	{ #n, (uint32_t)(off) * 8u + 31u - (hi), (hi) - (lo) + 1u, (off), (hi), (lo), 0 },
#define PRM_ROW_W(L, n, off, bits) { #n, (uint32_t)(off) * 8u, (bits), (off), 31, 0, 0 },
#define PRM_ROW_A(L, n, off, bits)                                                              \
	{ #n, (uint32_t)(off) * 8u, (bits), (off), 31, 0, NICREF_FIELD_ARRAY },

/* The rows are nicref_fields_<layout> (layouts.h declares them for PRM_FIELD) and the layout
 * points at them. */
#define PRM_DEFINE(L, size, src)                                                                \
	const struct nicref_field nicref_fields_##L[] = { PRM_L_##L(PRM_ROW_F, PRM_ROW_W,        \
								    PRM_ROW_A, L) };            \
	const struct nicref_layout nicref_layout_##L = {                                        \
		#L, src, (size), nicref_fields_##L,                                             \
		(uint32_t)(sizeof nicref_fields_##L / sizeof nicref_fields_##L[0])              \
	};
NICREF_LAYOUT_LIST(PRM_DEFINE)

#define PRM_REF(L, size, src) &nicref_layout_##L,
static const struct nicref_layout *const all_layouts[] = { NICREF_LAYOUT_LIST(PRM_REF) };

const struct nicref_layout *const *nicref_layouts(size_t *count)
{
	*count = sizeof all_layouts / sizeof all_layouts[0];
	return all_layouts;
}
