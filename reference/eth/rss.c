/* Receive Side Scaling (eth/rss.h; PRM §3.3.3.1, T45-T47, T58/T59, T68). */
#include "eth/rss.h"

#include <string.h>

#include "eth/pkt_hdr.h"

/* Where an IP version keeps its addresses, and what rx_hash_type calls it, by enum pkt_l3. */
static const struct {
	uint8_t src, dst, len, ht;
} rss_ip[] = {
	[PKT_L3_IPV4] = { HDR_IPV4_SRC, HDR_IPV4_DST, HDR_IPV4_ADDR_LEN, RSS_HT_IPV4 },
	[PKT_L3_IPV6] = { HDR_IPV6_SRC, HDR_IPV6_DST, HDR_IPV6_ADDR_LEN, RSS_HT_IPV6 },
};

/* What rx_hash_type calls each L4 header's ports, by enum pkt_l4. */
static const uint8_t rss_port_ht[] = { [PKT_L4_TCP] = RSS_HT_TCP, [PKT_L4_UDP] = RSS_HT_UDP };

/* An IP address (4 or 16 bytes) from s to d: copies of a constant length the compilers do in a
 * load and a store, not a call (the hash input is built for every frame). */
static inline void put_addr(uint8_t *d, const uint8_t *s, size_t n)
{
	if (n == HDR_IPV6_ADDR_LEN)
		memcpy(d, s, HDR_IPV6_ADDR_LEN);
	else
		memcpy(d, s, HDR_IPV4_ADDR_LEN);
}

/* The fields of T47 selected_fields the frame has (D-RSS-3), in the order they enter the hash
 * (D-RSS-2: the Microsoft NDIS order, source before destination, L3 before L4, the SPI last):
 *   - the IP addresses of the version l3_prot_type names (pkt_parse set l3 only with the
 *     whole fixed header there, addresses included);
 *   - the ports of the L4 header l4_prot_type names, in a packet that is not a fragment
 *     (D-RSS-6);
 *   - the SPI of an IPsec header, not in a fragment.
 * Symmetric hashing (T45 rx_hash_symmetric, D-RSS-4): the two fields of a pair, both taken, in
 * ascending order of their bytes (big-endian, unsigned). Each field's rx_hash_type slot (T68)
 * says what it is; the two of a pair say the same, so the order does not change them. */
size_t rss_input(const struct rss_cfg *c, const uint8_t *frame, size_t len,
		 const struct pkt_info *pi, uint8_t in[RSS_MAX_INPUT], uint8_t *hash_type)
{
	(void)len; /* pkt_parse checked every offset read here against it */
	uint32_t sel = c->sel;
	unsigned ht = 0;
	size_t n = 0;
	uint8_t l3 = sel & RSS_SEL_L3_IPV6 ? PKT_L3_IPV6 : PKT_L3_IPV4;
	if ((sel & (RSS_SEL_SRC_IP | RSS_SEL_DST_IP)) && pi->l3 == l3) {
		const uint8_t *ip = frame + pi->l3_off;
		const uint8_t *a = ip + rss_ip[l3].src, *b = ip + rss_ip[l3].dst;
		size_t k = rss_ip[l3].len;
		unsigned code = rss_ip[l3].ht;
		bool sa = sel & RSS_SEL_SRC_IP, sb = sel & RSS_SEL_DST_IP;
		if (c->symmetric && sa && sb && memcmp(a, b, k) > 0) {
			const uint8_t *t = a;
			a = b;
			b = t;
		}
		if (sa) {
			put_addr(in + n, a, k);
			n += k;
			ht |= code << RSS_HT_IP_SRC_SHIFT;
		}
		if (sb) {
			put_addr(in + n, b, k);
			n += k;
			ht |= code << RSS_HT_IP_DST_SHIFT;
		}
	}
	uint8_t l4 = sel & RSS_SEL_L4_UDP ? PKT_L4_UDP : PKT_L4_TCP;
	if ((sel & (RSS_SEL_L4_SPORT | RSS_SEL_L4_DPORT)) && pi->l4_rx == l4 && !pi->fragment) {
		uint16_t a = pi->sport, b = pi->dport;
		unsigned code = rss_port_ht[l4];
		bool sa = sel & RSS_SEL_L4_SPORT, sb = sel & RSS_SEL_L4_DPORT;
		if (c->symmetric && sa && sb && a > b) {
			uint16_t t = a;
			a = b;
			b = t;
		}
		if (sa) {
			hdr_put16(in + n, a);
			n += 2;
			ht |= code << RSS_HT_L4_SRC_SHIFT;
		}
		if (sb) {
			hdr_put16(in + n, b);
			n += 2;
			ht |= code << RSS_HT_L4_DST_SHIFT;
		}
	}
	if ((sel & RSS_SEL_IPSEC_SPI) && pi->has_spi && !pi->fragment) {
		hdr_put32(in + n, pi->spi);
		n += HDR_SPI_LEN;
		/* D-RSS-7: the SPI stands for the L4 pair: "11 IPSEC.SPI" in each L4 slot no port
		 * holds. */
		if (!(ht >> RSS_HT_L4_SRC_SHIFT & 3))
			ht |= (unsigned)RSS_HT_SPI << RSS_HT_L4_SRC_SHIFT;
		if (!(ht >> RSS_HT_L4_DST_SHIFT & 3))
			ht |= (unsigned)RSS_HT_SPI << RSS_HT_L4_DST_SHIFT;
	}
	*hash_type = (uint8_t)ht;
	return n;
}

uint32_t rss_toeplitz_portable(const uint8_t *key, size_t keylen, const uint8_t *in, size_t n)
{
	/* win holds key bits 8i .. 8i+63 while input byte i is looked at: input bit j of the byte
	 * (0 the MSB) takes the 32 key bits from 8i + j on, win >> (32 - j). Key bits past the
	 * key read 0 (D-RSS-9). */
	uint64_t win = 0;
	for (size_t k = 0; k < 8; k++)
		win = win << 8 | (k < keylen ? key[k] : 0u);
	uint32_t res = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned x = in[i];
		for (unsigned j = 0; j < 8; j++)
			res ^= (uint32_t)(win >> (32 - j)) & (0u - (x >> (7 - j) & 1u));
		win = win << 8 | (i + 8 < keylen ? key[i + 8] : 0u);
	}
	return res;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* The same hash by carry-less multiplication, four input bytes a step. Input bit b of the
 * step's four bytes (0 the MSB of the first) takes the key's bits 32m+b .. 32m+b+31: with W the
 * key's bytes 4m .. 4m+7 as a big-endian number, bits 32..63 of W << b. So the step's share is
 * bits 32..63 of the carry-less product of W and y, y having bit b set where input bit b is:
 * y's byte k is input byte 4m+k with its bits reversed. Nothing else is reversed, and the key
 * is read where it lies (a copy padded with zeros only when it is shorter than the input
 * reads: key bits past the key read 0, as in the portable loop, D-RSS-9). */
static inline uint64_t load_be64(const uint8_t *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w); /* little-endian host (x86-64) */
	return __builtin_bswap64(w);
}

/* One step's share: W, the key's 8 bytes at w, times y (bits 32..63 of it are the share). */
__attribute__((target("pclmul,sse2"))) static inline __m128i share(const uint8_t *w, uint32_t y)
{
	return _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)load_be64(w)),
				    _mm_cvtsi32_si128((int)y), 0x00);
}

/* The input's bytes with their bits reversed, sixteen per step (SSSE3 PSHUFB over the two
 * nibbles: the reverse of a byte is the reversed low nibble above the reversed high one), into
 * out (48 bytes; the bytes past n are 0, whose reverse is 0). */
__attribute__((target("ssse3,sse2"))) static inline void reverse_bits(const uint8_t *in, size_t n,
								   uint8_t out[48])
{
	const __m128i lo = _mm_setr_epi8(0x00, (char)0x80, 0x40, (char)0xC0, 0x20, (char)0xA0,
					 0x60, (char)0xE0, 0x10, (char)0x90, 0x50, (char)0xD0,
					 0x30, (char)0xB0, 0x70, (char)0xF0);
	const __m128i hi = _mm_setr_epi8(0x0, 0x8, 0x4, 0xC, 0x2, 0xA, 0x6, 0xE, 0x1, 0x9, 0x5,
					 0xD, 0x3, 0xB, 0x7, 0xF);
	const __m128i m = _mm_set1_epi8(0x0F);
	uint8_t buf[48] = { 0 };
	memcpy(buf, in, n);
	for (size_t i = 0; i < 48; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(buf + i));
		__m128i r = _mm_or_si128(_mm_shuffle_epi8(lo, _mm_and_si128(v, m)),
					 _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), m)));
		_mm_storeu_si128((__m128i *)(void *)(out + i), r);
	}
}

__attribute__((target("pclmul,ssse3,sse2"))) static uint32_t toeplitz_clmul(const uint8_t *key,
									size_t keylen,
									const uint8_t *in,
									size_t n)
{
	uint8_t pad[RSS_MAX_INPUT + 8];
	size_t need = (n + 3) / 4 * 4 + 4; /* key bytes the last step's W reads */
	if (keylen < need) {
		memset(pad, 0, sizeof pad);
		memcpy(pad, key, keylen);
		key = pad;
	}
	/* y's byte k is input byte 4m+k with its bits reversed; a last step of fewer than four
	 * bytes has zeros above them (bytes past the input add nothing). */
	uint8_t rev[48];
	reverse_bits(in, n, rev);
	__m128i acc = _mm_setzero_si128();
	for (size_t i = 0; i < n; i += 4) {
		uint32_t y;
		memcpy(&y, rev + i, sizeof y); /* little-endian: rev[i] in the low byte */
		acc = _mm_xor_si128(acc, share(key + i, y));
	}
	return (uint32_t)((uint64_t)_mm_cvtsi128_si64(acc) >> 32);
}

uint32_t rss_toeplitz(const uint8_t *key, size_t keylen, const uint8_t *in, size_t n)
{
	if (n <= RSS_MAX_INPUT && __builtin_cpu_supports("pclmul") &&
	    __builtin_cpu_supports("ssse3"))
		return toeplitz_clmul(key, keylen, in, n);
	return rss_toeplitz_portable(key, keylen, in, n);
}
#else
uint32_t rss_toeplitz(const uint8_t *key, size_t keylen, const uint8_t *in, size_t n)
{
	return rss_toeplitz_portable(key, keylen, in, n);
}
#endif

uint32_t rss_xor8(const uint8_t *in, size_t n, uint16_t rqt_max_size)
{
	uint8_t x = 0;
	for (size_t i = 0; i < n; i++)
		x ^= in[i];
	unsigned bits = 0;
	while (bits < 8 && (2u << bits) <= rqt_max_size)
		bits++; /* floor(log2(rqt_max_size)), at most 8 */
	/* T45 rx_hash_fn 1: "XOR8 results but with inverted LSBs" read as the `bits` LSBs in
	 * reversed order (D-RSS-5; the other reading complements them). */
	uint8_t rev = 0;
	for (unsigned i = 0; i < bits; i++)
		rev = (uint8_t)(rev | ((x >> i) & 1u) << (bits - 1u - i));
	uint8_t high = bits < 8 ? (uint8_t)(x & ~((1u << bits) - 1u)) : 0;
	return (uint8_t)(high | rev);
}

void rss_compute(const struct rss_cfg *c, const uint8_t *frame, size_t len,
		 const struct pkt_info *pi, struct rss_result *r)
{
	*r = (struct rss_result){ 0 };
	if (c->fn != RSS_HASH_INVERTED_XOR8 && c->fn != RSS_HASH_TOEPLITZ)
		return;
	uint8_t in[RSS_MAX_INPUT];
	size_t n = rss_input(c, frame, len, pi, in, &r->hash_type);
	r->hash = c->fn == RSS_HASH_TOEPLITZ ? rss_toeplitz(c->key, RSS_KEY_LEN, in, n)
					     : rss_xor8(in, n, c->rqt_max_size);
	r->hashed = r->hash_type != 0;
}

uint32_t rss_rqt_index(uint32_t hash, uint32_t rqt_actual_size)
{
	if (rqt_actual_size == 0)
		return 0;
	if ((rqt_actual_size & (rqt_actual_size - 1)) == 0)
		return hash & (rqt_actual_size - 1);
	return hash % rqt_actual_size;
}
