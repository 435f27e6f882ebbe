/* CRC-32 of the IEEE 802.3 FCS polynomial (0x04C11DB7, reflected 0xEDB88320), initial value and
 * final XOR 0xFFFFFFFF: zlib's crc32. The frame_out event carries it so a trace compares a
 * frame's bytes without printing them (D-TX-2). Every byte of every frame goes through it, so it
 * takes eight bytes a step (slicing-by-8, eth/crc32_tables.h): eight independent table reads
 * instead of a chain of sixteen nibble reads. */
#include "eth/crc32_tables.h"
#include "eth/eth.h"

uint32_t eth_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (; n >= 8; p += 8, n -= 8) {
		/* The register takes the first four bytes (little-endian: the reflected CRC); the
		 * eight bytes then leave it through the table of their distance to the end. */
		uint32_t x = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				  (uint32_t)p[3] << 24);
		c = crc32_slice[7][x & 0xFF] ^ crc32_slice[6][x >> 8 & 0xFF] ^
		    crc32_slice[5][x >> 16 & 0xFF] ^ crc32_slice[4][x >> 24] ^ crc32_slice[3][p[4]] ^
		    crc32_slice[2][p[5]] ^ crc32_slice[1][p[6]] ^ crc32_slice[0][p[7]];
	}
	for (; n; n--, p++)
		c = c >> 8 ^ crc32_slice[0][(c ^ *p) & 0xFF];
	return c ^ 0xFFFFFFFFu;
}
