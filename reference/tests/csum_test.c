/* The Internet checksum's sum (eth/csum.c): the little-endian fast path (bytes as they lie,
 * eight a step with their carries, folded and swapped) against the portable big-endian path
 * and a word-by-word RFC 1071 sum. Sums are defined only folded (eth/csum.h), so every check
 * compares csum_fold of them: on every length and alignment, on zero bytes (a zero sum folds
 * to 0xFFFF) and on 0xFF bytes (a non-zero multiple of 0xFFFF folds to 0), and sums added
 * together as the receive path adds them (the CQE checksum, T4: the IP header's sum plus the
 * L4 sum; pkt_parse: the pseudo-header's plus the L4 sum). */
#include <criterion/criterion.h>

#include "eth/csum.h"

static uint64_t words(uint64_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint64_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint64_t)p[n - 1] << 8;
	return sum;
}

static void fill(uint8_t *b, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u; /* a fixed sequence */
		b[i] = (uint8_t)(seed >> 16);
	}
}

static const uint64_t starts[] = { 0, 1, 0xFFFF, 0x1234, 0xFFFFFFFFull, 0x3FFFFull };

static void every_length(const uint8_t *buf, size_t size, const char *what)
{
	for (size_t at = 0; at < 16; at++)
		for (size_t n = 0; at + n <= size; n += n < 200 ? 1 : 53)
			for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
				uint16_t want = csum_fold(words(starts[s], buf + at, n));
				cr_expect_eq(csum_fold(csum_add(starts[s], buf + at, n)), want,
					     "%s: %zu bytes at %zu from %#llx", what, n, at,
					     (unsigned long long)starts[s]);
				cr_expect_eq(csum_fold(csum_add_portable(starts[s], buf + at, n)), want,
					     "%s (portable): %zu bytes at %zu", what, n, at);
			}
}

Test(csum, every_length_and_alignment)
{
	static uint8_t buf[9216 + 16];
	fill(buf, sizeof buf, 4242);
	every_length(buf, sizeof buf, "random");
}

Test(csum, zero_and_all_ones)
{
	static uint8_t buf[1600];
	every_length(buf, sizeof buf, "zero");
	cr_expect_eq(csum_fold(csum_add(0, buf, 64)), 0xFFFF, "zero bytes fold to 0xFFFF");
	memset(buf, 0xFF, sizeof buf);
	every_length(buf, sizeof buf, "0xFF");
	cr_expect_eq(csum_fold(csum_add(0, buf, 64)), 0, "0xFF bytes fold to 0");
}

/* Sums of pieces, each piece summed from 0, as pkt_parse and rx_hdr add them; and a piece
 * that is a checksum field's complement, so that the total is a non-zero multiple of 0xFFFF
 * (the "checksum good" case, which folds to 0). */
Test(csum, sums_of_pieces)
{
	static uint8_t buf[1600];
	fill(buf, sizeof buf, 99);
	for (size_t cut = 0; cut <= 64; cut += 2)
		for (size_t n = cut; n <= sizeof buf; n += n < 100 ? 1 : 97) {
			uint16_t want = csum_fold(words(0, buf, n));
			cr_expect_eq(csum_fold(csum_add(0, buf, cut) + csum_add(0, buf + cut, n - cut)),
				     want, "%zu bytes cut at %zu", n, cut);
		}
	for (size_t n = 20; n <= 1500; n += 7) {
		fill(buf, n, (uint32_t)n);
		buf[10] = buf[11] = 0;
		uint16_t c = csum_fold(words(0, buf, n));
		buf[10] = (uint8_t)(c >> 8);
		buf[11] = (uint8_t)c;
		cr_expect_eq(csum_fold(csum_add(0, buf, 12) + csum_add(0, buf + 12, n - 12)), 0,
			     "a good checksum over %zu bytes", n);
		cr_expect_eq(csum_fold(csum_add(0, buf, n)), 0, "a good checksum over %zu bytes", n);
	}
}
