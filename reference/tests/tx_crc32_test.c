/* The frame_out CRC (eth/crc32.c, D-TX-2): zlib's crc32, eight bytes a step through the tables of
 * eth/crc32_tables.h, against a bit-by-bit CRC of the IEEE 802.3 polynomial. */
#include <criterion/criterion.h>
#include <string.h>

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

/* eth_crc32_update (the RoCE ICRC) continues any register by either path: the CRC of a buffer
 * split at any point, its second part at every length to past a jumbo frame and every alignment
 * of 16, equals the table path's CRC of the whole; and from register 0 (the ICRC's start, 8 bytes
 * of 1s in front) the bit-by-bit CRC of the same. */
Test(tx_crc32, update_continues_any_register_on_both_paths)
{
	static uint8_t buf[9216 + 64];
	uint32_t x = 4242;
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (size_t k = 0; k < 48; k += 7)
		for (size_t at = 0; at < 16; at++)
			for (size_t n = 0; k + at + n <= sizeof buf; n += n < 300 ? 1 : 53) {
				const uint8_t *p = buf + at;
				uint32_t head = eth_crc32_portable(p, k);
				cr_assert_eq(eth_crc32_update(head, p + k, n),
					     eth_crc32_portable(p, k + n),
					     "%zu bytes after %zu at %zu", n, k, at);
			}
	static uint8_t ones[8 + 200];
	memset(ones, 0xFF, 8);
	memcpy(ones + 8, buf, 200);
	for (size_t n = 0; n <= 200; n++)
		cr_assert_eq(eth_crc32_update(eth_crc32_update(0, ones, 8), buf, n),
			     crc_bitwise(ones, 8 + n), "%zu bytes after the 8 of 1s", n);
}
