/* CRC-32 of the IEEE 802.3 FCS polynomial (0x04C11DB7, reflected 0xEDB88320), initial value and
 * final XOR 0xFFFFFFFF: zlib's crc32. The frame_out event carries it so a trace compares a
 * frame's bytes without printing them (D-TX-2). A nibble table keeps it small. */
#include "eth/eth.h"

static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC, 0x76DC4190, 0x6B6B51F4,
	0x4DB26158, 0x5005713C, 0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C,
	0x9B64C2B0, 0x86D3D2D4, 0xA00AE278, 0xBDBDF21C,
};

uint32_t eth_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		c = (c >> 4) ^ crc_nibble[c & 0xF];
		c = (c >> 4) ^ crc_nibble[c & 0xF];
	}
	return c ^ 0xFFFFFFFFu;
}
