/* Byte loops for the targets' frames (fuzz_bytes.h). */
#include "fuzz_bytes.h"

void fuzz_fill_counting(uint8_t *p, size_t n, uint32_t start)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(start + i);
}
