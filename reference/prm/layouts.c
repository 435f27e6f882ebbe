/* Instantiates every layout table registered in NICREF_LAYOUT_LIST. */
#include "prm/layouts.h"

#define PRM_ROW_F(L, n, off, hi, lo)                                                            \
	{ #n, (uint32_t)(off) * 8u + 31u - (hi), (hi) - (lo) + 1u, (off), (hi), (lo), 0 },
#define PRM_ROW_W(L, n, off, bits) { #n, (uint32_t)(off) * 8u, (bits), (off), 31, 0, 0 },
#define PRM_ROW_A(L, n, off, bits)                                                              \
	{ #n, (uint32_t)(off) * 8u, (bits), (off), 31, 0, NICREF_FIELD_ARRAY },

#define PRM_DEFINE(L, size, src)                                                                \
	static const struct nicref_field L##_fields[] = { PRM_L_##L(PRM_ROW_F, PRM_ROW_W,        \
								    PRM_ROW_A, L) };            \
	const struct nicref_layout nicref_layout_##L = {                                        \
		#L, src, (size), L##_fields, (uint32_t)(sizeof L##_fields / sizeof L##_fields[0]) \
	};
NICREF_LAYOUT_LIST(PRM_DEFINE)

#define PRM_REF(L, size, src) &nicref_layout_##L,
static const struct nicref_layout *const all_layouts[] = { NICREF_LAYOUT_LIST(PRM_REF) };

const struct nicref_layout *const *nicref_layouts(size_t *count)
{
	*count = sizeof all_layouts / sizeof all_layouts[0];
	return all_layouts;
}
