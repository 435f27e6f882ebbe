/* RSS (eth/rss.h; PRM §3.3.3.1, T45-T47, T59, T68; docs/rss.md D-RSS-*): the Toeplitz hash against
 * Microsoft's published verification values, through frames as well as raw inputs; every
 * rx_hash_field_select combination of T46/T47 for every frame of pkt_parse_cases.h against the
 * independent generator (reference/tests/gen/rss_gen.py); symmetric hashing; inverted XOR8; the
 * CQE's rx_hash_type; the RQT index. */
#include <criterion/criterion.h>
#include <string.h>

#include "eth/pkt_parse.h"
#include "eth/rss.h"
#include "rss_cases.h"

enum { SEL_IP = RSS_SEL_SRC_IP | RSS_SEL_DST_IP,
       SEL_4T = SEL_IP | RSS_SEL_L4_SPORT | RSS_SEL_L4_DPORT };

Test(rss_hash, toeplitz_microsoft_inputs)
{
	for (size_t i = 0; i < sizeof(rss_ms_cases) / sizeof(rss_ms_cases[0]); i++) {
		const struct rss_ms_case *m = &rss_ms_cases[i];
		size_t al = m->v6 ? 16 : 4;
		uint8_t in[36];
		memcpy(in, m->src, al);
		memcpy(in + al, m->dst, al);
		in[2 * al] = (uint8_t)(m->sport >> 8), in[2 * al + 1] = (uint8_t)m->sport;
		in[2 * al + 2] = (uint8_t)(m->dport >> 8), in[2 * al + 3] = (uint8_t)m->dport;
		cr_expect_eq(rss_toeplitz(rss_ms_key, 40, in, 2 * al), m->hash_ip, "case %zu IP", i);
		cr_expect_eq(rss_toeplitz(rss_ms_key, 40, in, 2 * al + 4), m->hash_tcp, "case %zu TCP", i);
	}
}

/* A TCP frame carrying the case's addresses and ports (Ethernet, IPv4 or IPv6, a 20-byte TCP
 * header); only the fields RSS reads matter, the checksums are left 0. */
static size_t ms_frame(const struct rss_ms_case *m, uint8_t *f)
{
	memset(f, 0, 128);
	size_t l3 = 14, ip = m->v6 ? 40 : 20, al = m->v6 ? 16 : 4;
	f[12] = m->v6 ? 0x86 : 0x08, f[13] = m->v6 ? 0xDD : 0x00;
	if (m->v6) {
		f[l3] = 0x60, f[l3 + 5] = 20, f[l3 + 6] = 6, f[l3 + 7] = 64;
		memcpy(f + l3 + 8, m->src, al);
		memcpy(f + l3 + 24, m->dst, al);
	} else {
		f[l3] = 0x45, f[l3 + 3] = 40, f[l3 + 8] = 64, f[l3 + 9] = 6;
		memcpy(f + l3 + 12, m->src, al);
		memcpy(f + l3 + 16, m->dst, al);
	}
	uint8_t *t = f + l3 + ip;
	t[0] = (uint8_t)(m->sport >> 8), t[1] = (uint8_t)m->sport;
	t[2] = (uint8_t)(m->dport >> 8), t[3] = (uint8_t)m->dport;
	t[12] = 0x50;
	return l3 + ip + 20;
}

/* Through the parser and the TIR's selector: IP-only and IP+TCP hashes are the published ones,
 * and rx_hash_type names IPv4/IPv6 and TCP in their slots (T68). */
Test(rss_hash, microsoft_frames_through_rss_compute)
{
	struct rss_cfg c = { .fn = RSS_HASH_TOEPLITZ };
	memcpy(c.key, rss_ms_key, 40);
	for (size_t i = 0; i < sizeof(rss_ms_cases) / sizeof(rss_ms_cases[0]); i++) {
		const struct rss_ms_case *m = &rss_ms_cases[i];
		uint8_t f[128];
		size_t len = ms_frame(m, f);
		struct pkt_info pi;
		pkt_parse(f, len, &pi);
		struct rss_result r;
		uint32_t l3 = m->v6 ? RSS_SEL_L3_IPV6 : 0;
		uint8_t ip = m->v6 ? 0x0A : 0x05; /* 10 or 01 in the source and destination slots */
		c.sel = l3 | SEL_IP;
		rss_compute(&c, f, len, &pi, &r);
		cr_expect(r.hashed);
		cr_expect_eq(r.hash, m->hash_ip, "case %zu IP: %#x", i, r.hash);
		cr_expect_eq(r.hash_type, ip, "case %zu IP: type %#x", i, r.hash_type);
		c.sel = l3 | SEL_4T;
		rss_compute(&c, f, len, &pi, &r);
		cr_expect_eq(r.hash, m->hash_tcp, "case %zu TCP: %#x", i, r.hash);
		cr_expect_eq(r.hash_type, ip | 0x50, "case %zu TCP: type %#x", i, r.hash_type);
	}
}

/* Every selector (l3_prot_type, l4_prot_type, the 32 selected_fields sets) on every frame:
 * rx_hash_type, Toeplitz plain and symmetric, inverted XOR8 (rqt_max_size 64), as the
 * independent generator derives them. */
Test(rss_hash, every_selector_every_frame)
{
	size_t n = sizeof(rss_cases) / sizeof(rss_cases[0]);
	cr_assert_eq(n, (sizeof(pp_cases) / sizeof(pp_cases[0])) * 128);
	for (size_t i = 0; i < n; i++) {
		const struct rss_case *k = &rss_cases[i];
		const struct pp_case *p = &pp_cases[k->frame];
		struct pkt_info pi;
		pkt_parse(p->frame, p->len, &pi);
		struct rss_cfg c = { .fn = RSS_HASH_TOEPLITZ, .sel = k->sel, .rqt_max_size = 64 };
		memcpy(c.key, rss_ms_key, 40);
		struct rss_result r;
		rss_compute(&c, p->frame, p->len, &pi, &r);
		cr_expect_eq(r.hash_type, k->hash_type, "%s sel %#x: type %#x", p->name, k->sel,
			     r.hash_type);
		cr_expect_eq(r.hashed, k->hash_type != 0, "%s sel %#x: hashed", p->name, k->sel);
		cr_expect_eq(r.hash, k->toeplitz, "%s sel %#x: toeplitz %#x", p->name, k->sel, r.hash);
		c.symmetric = true;
		rss_compute(&c, p->frame, p->len, &pi, &r);
		cr_expect_eq(r.hash, k->toeplitz_sym, "%s sel %#x: symmetric %#x", p->name, k->sel,
			     r.hash);
		c.symmetric = false;
		c.fn = RSS_HASH_INVERTED_XOR8;
		rss_compute(&c, p->frame, p->len, &pi, &r);
		cr_expect_eq(r.hash, k->xor8, "%s sel %#x: xor8 %#x", p->name, k->sel, r.hash);
		cr_expect_eq(r.hash_type, k->hash_type, "%s sel %#x: xor8 type", p->name, k->sel);
	}
}

static const struct pp_case *find(const char *name)
{
	for (size_t i = 0; i < sizeof(pp_cases) / sizeof(pp_cases[0]); i++)
		if (strcmp(pp_cases[i].name, name) == 0)
			return &pp_cases[i];
	cr_assert_fail("no case %s", name);
	return NULL;
}

static uint32_t hash_of(const char *name, uint8_t fn, bool sym, uint32_t sel)
{
	const struct pp_case *p = find(name);
	struct pkt_info pi;
	pkt_parse(p->frame, p->len, &pi);
	struct rss_cfg c = { .fn = fn, .symmetric = sym, .sel = sel, .rqt_max_size = 64 };
	memcpy(c.key, rss_ms_key, 40);
	struct rss_result r;
	rss_compute(&c, p->frame, p->len, &pi, &r);
	return r.hash;
}

/* T45 rx_hash_symmetric (D-RSS-4): the two directions of a flow hash alike; without it they do
 * not (for this key and flow). Inverted XOR8 is symmetric by construction. */
Test(rss_hash, symmetric_directions_agree)
{
	cr_expect_eq(hash_of("ipv4_tcp", RSS_HASH_TOEPLITZ, true, SEL_4T),
		     hash_of("ipv4_tcp_rev", RSS_HASH_TOEPLITZ, true, SEL_4T));
	cr_expect_neq(hash_of("ipv4_tcp", RSS_HASH_TOEPLITZ, false, SEL_4T),
		      hash_of("ipv4_tcp_rev", RSS_HASH_TOEPLITZ, false, SEL_4T));
	cr_expect_eq(hash_of("ipv4_tcp", RSS_HASH_INVERTED_XOR8, false, SEL_4T),
		     hash_of("ipv4_tcp_rev", RSS_HASH_INVERTED_XOR8, false, SEL_4T));
}

/* HASH_NONE and the reserved functions hash nothing (T45 24h[31:28]). */
Test(rss_hash, none_and_reserved_functions)
{
	const struct pp_case *p = find("ipv4_tcp");
	struct pkt_info pi;
	pkt_parse(p->frame, p->len, &pi);
	for (unsigned fn = 0; fn < 16; fn++) {
		if (fn == RSS_HASH_INVERTED_XOR8 || fn == RSS_HASH_TOEPLITZ)
			continue;
		struct rss_cfg c = { .fn = (uint8_t)fn, .sel = SEL_4T };
		memcpy(c.key, rss_ms_key, 40);
		struct rss_result r = { .hashed = true, .hash = 1, .hash_type = 1 };
		rss_compute(&c, p->frame, p->len, &pi, &r);
		cr_expect(!r.hashed, "fn %u", fn);
		cr_expect_eq(r.hash, 0, "fn %u", fn);
		cr_expect_eq(r.hash_type, 0, "fn %u", fn);
	}
}

/* D-RSS-5: inverted XOR8 reverses the order of its log2(rqt_max_size) LSBs, at most 8 (the
 * complement reading would give 0xF9 and 0x01 below). */
Test(rss_hash, xor8_inverted_bits)
{
	const struct pp_case *p = &pp_cases[0];
	struct pkt_info pi;
	pkt_parse(p->frame, p->len, &pi);
	for (size_t i = 0; i < sizeof(rss_xor8_cases) / sizeof(rss_xor8_cases[0]); i++) {
		struct rss_cfg c = { .fn = RSS_HASH_INVERTED_XOR8, .sel = SEL_4T,
				     .rqt_max_size = rss_xor8_cases[i].rqt_max_size };
		struct rss_result r;
		rss_compute(&c, p->frame, p->len, &pi, &r);
		cr_expect_eq(r.hash, rss_xor8_cases[i].hash, "rqt_max_size %u: %#x",
			     rss_xor8_cases[i].rqt_max_size, r.hash);
	}
	const uint8_t in[3] = { 0x0F, 0xF0, 0x01 }; /* XOR 0xFE */
	cr_expect_eq(rss_xor8(in, 3, 1), 0xFE);
	cr_expect_eq(rss_xor8(in, 3, 8), 0xFB, "110 reversed: 011");
	cr_expect_eq(rss_xor8(in, 3, 4096), 0x7F, "11111110 reversed");
	const uint8_t zero[2] = { 0x5A, 0x5A }; /* XOR 0x00: reversal keeps 0, a complement not */
	cr_expect_eq(rss_xor8(zero, 2, 4), 0x00);
	cr_expect_eq(rss_xor8(zero, 0, 256), 0x00, "over nothing (D-RSS-3)");
}

/* D-RSS-9: key bits past the key read as 0. Key FF FF FF FF, input bit 7 set: the window is key
 * bits 7..38, of which 7..31 are ones. */
Test(rss_hash, toeplitz_key_runs_out)
{
	const uint8_t key[4] = { 0xFF, 0xFF, 0xFF, 0xFF };
	const uint8_t b0[1] = { 0x80 }, b7[1] = { 0x01 }, b8[2] = { 0x00, 0x80 };
	cr_expect_eq(rss_toeplitz(key, 4, b0, 1), 0xFFFFFFFFu);
	cr_expect_eq(rss_toeplitz(key, 4, b7, 1), 0xFFFFFF80u);
	cr_expect_eq(rss_toeplitz(key, 4, b8, 2), 0xFFFFFF00u);
	cr_expect_eq(rss_toeplitz(key, 4, b0, 0), 0);
}

/* D-RSS-1: the RQT entry is the hash's log2(rqt_actual_size) LSBs. */
Test(rss_hash, rqt_index)
{
	cr_expect_eq(rss_rqt_index(0x12345678u, 1), 0);
	cr_expect_eq(rss_rqt_index(0x12345678u, 2), 0);
	cr_expect_eq(rss_rqt_index(0x12345679u, 2), 1);
	cr_expect_eq(rss_rqt_index(0x12345678u, 64), 0x38);
	cr_expect_eq(rss_rqt_index(0x12345678u, 0x10000), 0x5678);
	cr_expect_eq(rss_rqt_index(0xFFFFFFFFu, 0x80000000u), 0x7FFFFFFF);
	cr_expect_eq(rss_rqt_index(0x12345678u, 0), 0);
	cr_expect_eq(rss_rqt_index(0x12345678u, 100), 0x12345678u % 100);
}

/* The carry-less-multiply path (x86-64 with PCLMULQDQ) gives the bit-by-bit hash for every input
 * length up to RSS_MAX_INPUT and key lengths short of, equal to and past what the input reads:
 * the trace's hash cannot depend on the CPU. */
Test(rss_hash, folding_path_equals_bitwise)
{
	uint8_t key[64], in[RSS_MAX_INPUT];
	uint32_t x = 4242;
	for (int t = 0; t < 2000; t++) {
		for (size_t i = 0; i < sizeof key; i++) {
			x = x * 1103515245u + 12345u;
			key[i] = (uint8_t)(x >> 16);
		}
		for (size_t i = 0; i < sizeof in; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = (uint8_t)(x >> 16);
		}
		size_t keylen = (size_t)t % (sizeof key + 1), n = (size_t)t % (RSS_MAX_INPUT + 1);
		cr_assert_eq(rss_toeplitz(key, keylen, in, n), rss_toeplitz_portable(key, keylen, in, n),
			     "key of %zu bytes, %zu input bytes", keylen, n);
	}
}
