/* CRC-32 of the IEEE 802.3 FCS polynomial (0x04C11DB7, reflected 0xEDB88320), initial value and
 * final XOR 0xFFFFFFFF: zlib's crc32. The frame_in and frame_out events carry it so a trace
 * compares a frame's bytes without printing them (D-TX-2). Every byte of every frame goes
 * through it, so it has two paths that give the same value for every input:
 *   - the table path (portable): eight bytes a step (slicing-by-8, eth/crc32_tables.h), eight
 *     independent table reads instead of a chain of sixteen nibble reads;
 *   - on x86-64 with PCLMULQDQ (asked of the CPU at run time, the table path otherwise): the
 *     frame is folded 64 bytes a step by carry-less multiplication into a 128-bit remainder
 *     congruent to it modulo the polynomial, reduced to the 32-bit register (Barrett), and the
 *     last n mod 16 bytes go through the tables (Gopal et al., "Fast CRC Computation for
 *     Generic Polynomials Using PCLMULQDQ Instruction", Intel 2009; the constants are x^k mod
 *     P, bit-reflected, for the fold distances).
 * eth_crc32_update (the RoCE ICRC: every byte of every RoCE packet) takes the same two paths
 * from the register it continues: the fold starts from any register as from 0xFFFFFFFF, XORed
 * into the first four bytes. tests/tx_crc32_test.c compares the paths on every length and
 * alignment, and from other registers. */
#include "eth/crc32_tables.h"
#include "eth/eth.h"

/* The register c (not yet inverted) through n bytes, eight a step. */
static uint32_t crc32_tables(uint32_t c, const uint8_t *p, size_t n)
{
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
	return c;
}

uint32_t eth_crc32_portable(const uint8_t *p, size_t n)
{
	return crc32_tables(0xFFFFFFFFu, p, n) ^ 0xFFFFFFFFu;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define CRC32_CLMUL_MIN 64 /* below one 64-byte block the tables are as fast */

/* x * x^(8*dist) mod P for a 128-bit x: lo(x) * k.lo ^ hi(x) * k.hi, 128 bits congruent. */
__attribute__((target("pclmul,sse2"))) static inline __m128i fold(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/* The register c (not yet inverted) through n >= 64 bytes. */
__attribute__((target("pclmul,sse2"))) static uint32_t crc32_clmul(uint32_t c, const uint8_t *p,
								 size_t n)
{
	/* The reflected constants x^(512+32) and x^(512-32) mod P (fold by 64 bytes), then
	 * x^(128+32) and x^(128-32) mod P (fold by 16 bytes), as the paper's Table gives them. */
	const __m128i k512 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
	const __m128i k128 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	__m128i x0 = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
	__m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
	__m128i x3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 48));
	/* The register is XORed into the first four bytes (0xFFFFFFFF: them inverted). */
	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)c));
	p += 64;
	n -= 64;
	for (; n >= 64; p += 64, n -= 64) {
		x0 = _mm_xor_si128(fold(x0, k512), _mm_loadu_si128((const __m128i *)(const void *)p));
		x1 = _mm_xor_si128(fold(x1, k512),
				   _mm_loadu_si128((const __m128i *)(const void *)(p + 16)));
		x2 = _mm_xor_si128(fold(x2, k512),
				   _mm_loadu_si128((const __m128i *)(const void *)(p + 32)));
		x3 = _mm_xor_si128(fold(x3, k512),
				   _mm_loadu_si128((const __m128i *)(const void *)(p + 48)));
	}
	x0 = _mm_xor_si128(fold(x0, k128), x1);
	x0 = _mm_xor_si128(fold(x0, k128), x2);
	x0 = _mm_xor_si128(fold(x0, k128), x3);
	for (; n >= 16; p += 16, n -= 16)
		x0 = _mm_xor_si128(fold(x0, k128), _mm_loadu_si128((const __m128i *)(const void *)p));
	/* The 128-bit remainder down to the 32-bit register: a fold by 64 bits, one by 32 (both
	 * append zeros, x^64 and x^32 mod P), then Barrett's reduction with mu = x^64 / P (the
	 * paper's §4, reflected); the tail then goes through the tables from that register. */
	const __m128i k64 = _mm_set_epi64x(0, 0x163cd6124);
	const __m128i poly = _mm_set_epi64x(0x1f7011641, 0x1db710641); /* mu, P */
	const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
	x0 = _mm_xor_si128(_mm_clmulepi64_si128(k128, x0, 0x01), _mm_srli_si128(x0, 8));
	x0 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x0, mask32), k64, 0x00),
			   _mm_srli_si128(x0, 4));
	__m128i t = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), poly, 0x10);
	t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly, 0x00);
	c = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(_mm_xor_si128(t, x0), 4));
	return crc32_tables(c, p, n);
}

/* The register c through n bytes by the faster path this CPU has. */
static uint32_t crc32_any(uint32_t c, const uint8_t *p, size_t n)
{
	if (n >= CRC32_CLMUL_MIN && __builtin_cpu_supports("pclmul"))
		return crc32_clmul(c, p, n);
	return crc32_tables(c, p, n);
}
#else
static uint32_t crc32_any(uint32_t c, const uint8_t *p, size_t n)
{
	return crc32_tables(c, p, n);
}
#endif

uint32_t eth_crc32(const uint8_t *p, size_t n)
{
	return crc32_any(0xFFFFFFFFu, p, n) ^ 0xFFFFFFFFu;
}

/* zlib's crc32(crc, p, n): the CRC of what crc covered followed by p (the RoCE ICRC goes over
 * a masked copy of the headers, then the payload where it lies: roce/roce_icrc.c). */
uint32_t eth_crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	return ~crc32_any(~crc, p, n);
}
