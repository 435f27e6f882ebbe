/* Random packets through the send offloads (seeded, so every run is the same): Ethernet with 0-3
 * tags of known and unknown TPIDs, IPv4 with random IHL, options and lengths, IPv6 with random
 * extension header chains, TCP and UDP with random data offsets, cut at random points; random
 * requests (checksums, LSO, mss, inline size, padding, max_lso_cap, scratch sizes). The packet
 * and the scratch are heap buffers of exactly their size, so under ASan (make check runs the
 * unit tests under ASan+UBSan) any read or write past them fails the test. Beside that, the
 * invariants of eth/tx_offload.h: a result from the enum; no frame unless TX_OK; every frame in
 * the scratch, within its length and at least min_frame long; a plain send is one frame of
 * max(len, min_frame) bytes that differs from the packet only in the two checksum fields and the
 * zero padding; the same request twice gives the same frames. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "eth/tx_offload.h"

#define ROUNDS 50000
#define PKT_MAX 4096

static uint64_t rnd(uint64_t *s) /* splitmix64 */
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n)
{
	return (unsigned)(rnd(s) % n);
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void fill(uint8_t *p, size_t n, uint64_t *s)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd(s);
}

/* Up to 3 tags of the TPIDs the device knows, one it does not, or a random one. */
static size_t put_l2(uint8_t *b, uint64_t *s)
{
	static const unsigned tpids[] = { 0x8100, 0x88A8, 0x9100, 0x8100, 0x88A8 };
	fill(b, 12, s);
	size_t at = 12;
	for (unsigned n = below(s, 4); n > 0; n--, at += 4) {
		put16(b + at, below(s, 8) ? tpids[below(s, 5)] : (unsigned)rnd(s));
		put16(b + at + 2, (unsigned)rnd(s));
	}
	static const unsigned types[] = { 0x0800, 0x86DD, 0x0800, 0x86DD, 0x0806 };
	put16(b + at, below(s, 10) ? types[below(s, 5)] : (unsigned)rnd(s));
	return at + 2;
}

static unsigned l4_proto(uint64_t *s)
{
	static const unsigned protos[] = { 6, 17, 6, 6, 1, 58 };
	return below(s, 10) ? protos[below(s, 6)] : (unsigned)rnd(s) & 0xFF;
}

/* IPv4: IHL mostly 5-15 (options random bytes, sometimes a source route), now and then any. */
static size_t put_ipv4(uint8_t *b, uint64_t *s, unsigned *proto)
{
	unsigned ihl = below(s, 8) ? 5 + below(s, 11) : below(s, 16);
	b[0] = (uint8_t)((below(s, 10) ? 4 : below(s, 16)) << 4 | ihl);
	fill(b + 1, 59, s);
	b[6] = below(s, 4) ? 0x40 : b[6];
	b[7] = below(s, 4) ? 0 : b[7];
	*proto = l4_proto(s);
	b[9] = (uint8_t)*proto;
	if (ihl > 5 && below(s, 2)) {
		static const uint8_t opts[] = { 0, 1, 7, 68, 131, 137, 148 };
		for (unsigned o = 20; o < ihl * 4; o++)
			b[o] = below(s, 3) ? opts[below(s, 7)] : (uint8_t)(below(s, 12));
	}
	return ihl * 4u < 20 ? 20 : ihl * 4u;
}

/* IPv6: a chain of 0-4 extension headers of the kinds the parser walks and some it does not. */
static size_t put_ipv6(uint8_t *b, uint64_t *s, unsigned *proto)
{
	static const unsigned nhs[] = { 0, 43, 44, 51, 60, 135, 50, 59 };
	fill(b, 40, s);
	b[0] = (uint8_t)(below(s, 10) ? 0x60 : rnd(s));
	size_t at = 40;
	uint8_t *next = &b[6];
	for (unsigned n = below(s, 5); n > 0; n--) {
		*next = (uint8_t)nhs[below(s, 8)];
		fill(b + at, 8, s);
		b[at + 1] = (uint8_t)below(s, 3);
		size_t hl = *next == 44 ? 8 : *next == 51 ? (b[at + 1] + 2u) * 4 : (b[at + 1] + 1u) * 8;
		if (*next == 44 && below(s, 2))
			b[at + 2] = b[at + 3] = 0;
		fill(b + at + 8, hl - 8, s);
		next = &b[at];
		at += hl;
	}
	*proto = l4_proto(s);
	*next = (uint8_t)*proto;
	return at;
}

static size_t put_l4(uint8_t *b, uint64_t *s, unsigned proto)
{
	fill(b, 60, s);
	if (proto != 6)
		return 8;
	unsigned doff = below(s, 8) ? 5 + below(s, 11) : below(s, 16);
	b[12] = (uint8_t)(doff << 4);
	return doff * 4u < 20 ? 20 : doff * 4u;
}

/* A packet into b; *hdr is where its L4 payload starts (a plausible inline size). Lengths in
 * the IP headers are right most of the time. */
static size_t put_packet(uint8_t *b, uint64_t *s, size_t *hdr)
{
	size_t l3 = put_l2(b, s);
	unsigned proto = 6;
	bool v6 = below(s, 2);
	size_t l4 = l3 + (v6 ? put_ipv6(b + l3, s, &proto) : put_ipv4(b + l3, s, &proto));
	*hdr = l4 + put_l4(b + l4, s, proto);
	size_t pay = below(s, 4) ? below(s, 200) : below(s, 3000);
	fill(b + *hdr, pay, s);
	size_t len = *hdr + pay;
	if (below(s, 4)) {
		size_t ip = v6 ? len - l3 - 40 : len - l3;
		put16(b + l3 + (v6 ? 4 : 2), (unsigned)(below(s, 2) ? ip : (ip & ~0xFFull) ^ rnd(s)));
	}
	return len;
}

struct run {
	const uint8_t *scratch;
	size_t scratch_len, min_frame;
	size_t n;
	uint64_t hash;
	size_t first_len;
	uint8_t first[PKT_MAX + 256];
};

static void emit(void *ctx, const uint8_t *frame, size_t len)
{
	struct run *r = ctx;
	cr_assert_eq(frame, r->scratch, "a frame outside the scratch");
	cr_assert_leq(len, r->scratch_len, "a frame longer than the scratch");
	cr_assert_geq(len, r->min_frame, "a frame shorter than min_frame");
	for (size_t i = 0; i < len; i++) /* every byte read: ASan checks the whole frame */
		r->hash = (r->hash ^ frame[i]) * 0x100000001B3ull;
	r->hash = (r->hash ^ len) * 0x100000001B3ull;
	if (r->n++ == 0) {
		r->first_len = len;
		memcpy(r->first, frame, len < sizeof(r->first) ? len : sizeof(r->first));
	}
}

static enum tx_result run_once(const struct tx_request *rq, uint8_t *scratch, size_t scratch_len,
			       struct run *r)
{
	memset(r, 0, offsetof(struct run, first));
	r->scratch = scratch;
	r->scratch_len = scratch_len;
	r->min_frame = rq->min_frame;
	return tx_offload(rq, scratch, scratch_len, emit, r);
}

/* A plain send: the packet, then zeros; only the two checksum fields may differ. */
static void check_plain(const uint8_t *pkt, size_t len, const struct run *r, unsigned round)
{
	cr_assert_eq(r->n, 1, "round %u: a plain send gives one frame", round);
	size_t want = len > r->min_frame ? len : r->min_frame;
	cr_assert_eq(r->first_len, want, "round %u: frame of %zu bytes, expected %zu", round,
		     r->first_len, want);
	unsigned diff = 0;
	for (size_t i = 0; i < len; i++)
		diff += r->first[i] != pkt[i];
	cr_assert_leq(diff, 4, "round %u: %u bytes changed, the checksums are 4", round, diff);
	for (size_t i = len; i < want; i++)
		cr_assert_eq(r->first[i], 0, "round %u: padding byte %zu not zero", round, i);
}

Test(tx_offload_fuzz, random_packets_stay_in_bounds)
{
	uint64_t seed = 0x7E57AB1Eull, *s = &seed;
	static const uint8_t min_frames[] = { 0, 60, 64, 255 };
	static uint8_t build[PKT_MAX + 256];
	unsigned counts[TX_RESULT_COUNT] = { 0 }, lso_segments = 0;
	for (unsigned round = 0; round < ROUNDS; round++) {
		size_t hdr;
		size_t full = put_packet(build, s, &hdr);
		size_t len = below(s, 3) ? full : below(s, (unsigned)full + 1);
		struct tx_request rq = {
			.len = len,
			.l3cs = below(s, 2),
			.l4cs = below(s, 2),
			.lso = below(s, 5) < 2,
			.mss = (uint16_t)(below(s, 8) ? 1 + below(s, below(s, 2) ? 64 : 1500) : below(s, 4) ? 0 : rnd(s)),
			.inline_hdr_sz = (uint16_t)(below(s, 4) ? hdr + below(s, 3) - 1 : below(s, 200)),
			.min_frame = min_frames[below(s, 4)],
			.max_lso_cap = (uint8_t)(below(s, 4) ? 16 : below(s, 32)),
		};
		if (rq.inline_hdr_sz > len && below(s, 4))
			rq.inline_hdr_sz = (uint16_t)len;
		uint8_t *pkt = malloc(len ? len : 1);
		cr_assert_not_null(pkt);
		memcpy(pkt, build, len);
		rq.pkt = pkt;
		size_t need = len > rq.min_frame ? len : rq.min_frame;
		size_t scratch_len = below(s, 8) ? need : below(s, (unsigned)need + 1);
		uint8_t *scratch = malloc(scratch_len ? scratch_len : 1);
		cr_assert_not_null(scratch);

		static struct run a, b;
		enum tx_result r = run_once(&rq, scratch, scratch_len, &a);
		cr_assert_lt((unsigned)r, TX_RESULT_COUNT, "round %u: result %d", round, r);
		counts[r]++;
		if (r != TX_OK)
			cr_assert_eq(a.n, 0, "round %u: %s with %zu frames", round,
				     tx_result_name(r), a.n);
		else if (!rq.lso)
			check_plain(pkt, len, &a, round);
		else
			cr_assert_geq(a.n, 1, "round %u: LSO gave no segment", round);
		lso_segments += rq.lso && r == TX_OK ? (unsigned)a.n : 0;
		if (scratch_len == need)
			cr_assert_neq(r, TX_ERR_SCRATCH, "round %u: max(len, min_frame) is enough",
				      round);
		cr_assert(memcmp(pkt, build, len) == 0, "round %u: the packet was written", round);
		cr_assert_eq(run_once(&rq, scratch, scratch_len, &b), r, "round %u: not repeatable",
			     round);
		cr_assert(a.n == b.n && a.hash == b.hash, "round %u: not the same frames", round);
		free(pkt);
		free(scratch);
	}
	/* The rounds reached every outcome (else the generator lost its reach). */
	for (unsigned i = 0; i < TX_RESULT_COUNT; i++)
		cr_expect_gt(counts[i], 0, "no round ended %s", tx_result_name((enum tx_result)i));
	cr_expect_gt(lso_segments, 1000, "LSO segmented too little: %u segments", lso_segments);
}
