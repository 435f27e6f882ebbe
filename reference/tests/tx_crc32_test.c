/* The frame_out CRC (eth/crc32.c, D-TX-2): zlib's crc32, eight bytes a step through the tables of
 * eth/crc32_tables.h, against a bit-by-bit CRC of the IEEE 802.3 polynomial. */
#include <criterion/criterion.h>

#include "eth/crc32_tables.h"
#include "eth/eth.h"

static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = c >> 1 ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
}

Test(tx_crc32, every_table_entry)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int b = 0; b < 8; b++)
			c = c >> 1 ^ (0xEDB88320u & (0u - (c & 1u)));
		cr_expect_eq(crc32_slice[0][i], c, "T[0][%u]", i);
		for (int k = 1; k < 8; k++)
			cr_expect_eq(crc32_slice[k][i],
				     crc32_slice[k - 1][i] >> 8 ^ crc32_slice[0][crc32_slice[k - 1][i] & 0xFF],
				     "T[%d][%u]", k, i);
	}
}

Test(tx_crc32, every_length_and_alignment)
{
	static uint8_t buf[300];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 1103515245u + 12345u; /* a fixed sequence */
		buf[i] = (uint8_t)(x >> 16);
	}
	for (size_t at = 0; at < 9; at++)
		for (size_t n = 0; at + n <= sizeof buf; n += n < 40 ? 1 : 37)
			cr_expect_eq(eth_crc32(buf + at, n), crc_bitwise(buf + at, n), "%zu bytes at %zu",
				     n, at);
	cr_expect_eq(eth_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u, "the check value");
}

/* The folding path (x86-64 with PCLMULQDQ) and the table path agree on every length to past a
 * jumbo frame, at every alignment of 16, and both against the bit-by-bit CRC on a sample: the
 * trace's frame CRC cannot depend on the CPU. */
Test(tx_crc32, folding_path_equals_table_path)
{
	static uint8_t buf[9216 + 16];
	uint32_t x = 777;
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (size_t at = 0; at < 16; at++)
		for (size_t n = 0; at + n <= sizeof buf; n += n < 600 ? 1 : 61) {
			uint32_t t = eth_crc32_portable(buf + at, n);
			cr_assert_eq(eth_crc32(buf + at, n), t, "%zu bytes at %zu", n, at);
			if (n % 97 == 0)
				cr_assert_eq(t, crc_bitwise(buf + at, n), "%zu bytes at %zu", n, at);
		}
}
