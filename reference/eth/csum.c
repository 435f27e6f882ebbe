/* The send checksums (eth/csum.h). */
#include "eth/csum.h"

#include "eth/pkt_hdr.h"

#include <string.h>

/* Eight bytes of p as a big-endian 64-bit number: one load and (on a little-endian host) one
 * byte swap where the compilers know the idiom, byte by byte elsewhere. */
static inline uint64_t load_be64(const uint8_t *p)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w;
	memcpy(&w, p, sizeof w);
	return __builtin_bswap64(w);
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	uint64_t w;
	memcpy(&w, p, sizeof w);
	return w;
#else
	return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
	       (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
	       (uint64_t)p[6] << 8 | p[7];
#endif
}

uint64_t csum_add_portable(uint64_t sum, const uint8_t *p, size_t n)
{
	size_t i = 0;
	/* Big-endian 32-bit words into two 64-bit sums (2^32 words before either could wrap):
	 * a word hi * 2^16 + lo is congruent to hi + lo modulo 0xFFFF, so the folded sum is the
	 * sum of the 16-bit words (RFC 1071 §2(B)). a takes the first word of each eight bytes,
	 * b the second; sixteen bytes a step into two pairs of sums, added at the end (the same
	 * totals, so the same result, as one pair). */
	uint64_t a = 0, b = 0, c = 0, d = 0;
	for (; i + 16 <= n; i += 16) {
		uint64_t w = load_be64(p + i), v = load_be64(p + i + 8);
		a += w >> 32;
		b += w & 0xFFFFFFFFu;
		c += v >> 32;
		d += v & 0xFFFFFFFFu;
	}
	if (i + 8 <= n) {
		uint64_t w = load_be64(p + i);
		a += w >> 32;
		b += w & 0xFFFFFFFFu;
		i += 8;
	}
	a += c;
	b += d;
	sum += (a >> 32) + (a & 0xFFFFFFFFu) + (b >> 32) + (b & 0xFFFFFFFFu);
	for (; i + 2 <= n; i += 2)
		sum += hdr_get16(p + i);
	if (i < n)
		sum += (uint64_t)p[i] << 8;
	return sum;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The fast path of a little-endian host: the bytes as they lie, eight at a time, summed with
 * their carries (one add and one add-with-carry a word). RFC 1071 §2(B): the one's complement
 * sum of the byte-swapped words is the byte-swapped sum, so the little-endian sum folded to
 * 16 bits and swapped is congruent modulo 0xFFFF to the big-endian one; it is 0 only when
 * every byte is (the folds never make 0 of a non-zero sum). csum_fold, the one consumer of a
 * sum, depends on nothing else: the results are the portable path's (csum_test holds them
 * equal on every length and alignment). */
static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
	return w;
}

#if defined(__x86_64__)
/* x86-64: the 32-byte steps in add-with-carry chains (the loop's decrement leaves the carry
 * flag alone), one instruction a word instead of four; the carries wrap around into the sum
 * (2^64 is 1 modulo 0xFFFF). An odd step first, then two steps (64 bytes) a turn. Each chain
 * ends with two adds of the carry: the first can carry once more only from all-ones, after
 * which the second cannot; the next chain starts from that sum. The sum is 0 only when every
 * word is (an end-around-carry sum of non-zero words is never 0). */
static inline uint64_t sum_steps32(const uint8_t *p, size_t steps)
{
	uint64_t s = 0;
	if (steps & 1) {
		__asm__("clc\n\t"
			"adcq (%[p]), %[s]\n\t"
			"adcq 8(%[p]), %[s]\n\t"
			"adcq 16(%[p]), %[s]\n\t"
			"adcq 24(%[p]), %[s]\n\t"
			"adcq $0, %[s]\n\t"
			"adcq $0, %[s]"
			: [s] "+r"(s)
			: [p] "r"(p)
			: "cc", "memory");
		p += 32;
	}
	size_t pairs = steps / 2;
	if (!pairs)
		return s;
	__asm__("clc\n"
		"1:\n\t"
		"adcq (%[p]), %[s]\n\t"
		"adcq 8(%[p]), %[s]\n\t"
		"adcq 16(%[p]), %[s]\n\t"
		"adcq 24(%[p]), %[s]\n\t"
		"adcq 32(%[p]), %[s]\n\t"
		"adcq 40(%[p]), %[s]\n\t"
		"adcq 48(%[p]), %[s]\n\t"
		"adcq 56(%[p]), %[s]\n\t"
		"leaq 64(%[p]), %[p]\n\t"
		"decq %[n]\n\t"
		"jnz 1b\n\t"
		"adcq $0, %[s]\n\t"
		"adcq $0, %[s]"
		: [s] "+r"(s), [p] "+r"(p), [n] "+r"(pairs)
		:
		: "cc", "memory");
	return s;
}
#endif

uint64_t csum_add(uint64_t sum, const uint8_t *p, size_t n)
{
	/* A carry out of bit 63 is worth 2^64, and a 2^32 half 2^32: both 1 modulo 0xFFFF. */
	uint64_t s0 = 0, s1 = 0, c0 = 0, c1 = 0;
	size_t i = 0;
#if defined(__x86_64__)
	s0 = sum_steps32(p, n / 32);
	i = n / 32 * 32;
#else
	for (; i + 32 <= n; i += 32) {
		c0 += __builtin_add_overflow(s0, load_le64(p + i), &s0);
		c1 += __builtin_add_overflow(s1, load_le64(p + i + 8), &s1);
		c0 += __builtin_add_overflow(s0, load_le64(p + i + 16), &s0);
		c1 += __builtin_add_overflow(s1, load_le64(p + i + 24), &s1);
	}
#endif
	if (i + 16 <= n) {
		c0 += __builtin_add_overflow(s0, load_le64(p + i), &s0);
		c1 += __builtin_add_overflow(s1, load_le64(p + i + 8), &s1);
		i += 16;
	}
	if (i + 8 <= n) {
		c0 += __builtin_add_overflow(s0, load_le64(p + i), &s0);
		i += 8;
	}
	uint64_t t = (s0 >> 32) + (s0 & 0xFFFFFFFFu) + (s1 >> 32) + (s1 & 0xFFFFFFFFu) + c0 + c1;
	for (; i + 2 <= n; i += 2)
		t += (uint64_t)p[i] | (uint64_t)p[i + 1] << 8;
	if (i < n)
		t += p[i]; /* the odd last byte, the high byte of its big-endian word */
	while (t >> 16)
		t = (t & 0xFFFFu) + (t >> 16);
	return sum + (uint16_t)(t << 8 | t >> 8);
}
#else
uint64_t csum_add(uint64_t sum, const uint8_t *p, size_t n)
{
	return csum_add_portable(sum, p, n);
}
#endif

uint16_t csum_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

void csum_ipv4_hdr(uint8_t *f, const struct pkt_info *pi)
{
	uint8_t *ip = f + pi->l3_off;
	size_t hl = pi->l4_off - pi->l3_off;
	hdr_put16(ip + HDR_IPV4_CSUM, 0);
	hdr_put16(ip + HDR_IPV4_CSUM, csum_fold(csum_add(0, ip, hl)));
}

bool csum_l4_applies(const struct pkt_info *pi)
{
	return pi->l4 != PKT_L4_NONE && !pi->fragment && !pi->src_route && pi->ip_end != 0 &&
	       pi->ip_end - pi->l4_off >= pi->l4_hdr_len;
}

/* Where each L4 header keeps its checksum, by enum pkt_l4. */
static const uint8_t l4_csum_at[] = {
	[PKT_L4_TCP] = HDR_TCP_CSUM,
	[PKT_L4_UDP] = HDR_UDP_CSUM,
};

/* The pseudo-header's addresses (source then destination, adjacent in both IP headers) and
 * their length, by enum pkt_l3. */
static const struct { uint8_t at, len; } pseudo_addrs[] = {
	[PKT_L3_IPV4] = { HDR_IPV4_SRC, 2 * HDR_IPV4_ADDR_LEN },
	[PKT_L3_IPV6] = { HDR_IPV6_SRC, 2 * HDR_IPV6_ADDR_LEN },
};

void csum_l4(uint8_t *f, const struct pkt_info *pi, size_t l4_end)
{
	uint8_t *l4 = f + pi->l4_off;
	size_t n = l4_end - pi->l4_off;
	uint8_t *field = l4 + l4_csum_at[pi->l4];
	hdr_put16(field, 0);
	/* The pseudo-header: the addresses, the protocol and the L4 length. Its layout differs
	 * between IPv4 (zero, protocol, 16-bit length) and IPv6 (32-bit length, three zero bytes,
	 * next header), but both add up to the same one's complement sum. */
	uint64_t sum = csum_add(0, f + pi->l3_off + pseudo_addrs[pi->l3].at,
				pseudo_addrs[pi->l3].len);
	sum += pi->ip_proto + (uint64_t)(n >> 16) + (n & 0xFFFF);
	uint16_t c = csum_fold(csum_add(sum, l4, n));
	if (c == 0 && pi->l4 == PKT_L4_UDP)
		c = 0xFFFF;
	hdr_put16(field, c);
}
