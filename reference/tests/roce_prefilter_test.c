/* The receive path's RoCE pre-filter (roce_rx_candidate, roce/roce_rx.c): every frame from a
 * port passes it before the transport's parse, so it must refuse only frames roce_parse calls
 * ROCE_NOT_ROCE (D-ROCE-1: not IPv4/IPv6 + UDP to 4791), and it refuses every one of those
 * (it walks the same headers); where it accepts, it must name the destination address the
 * parse names (the GID the transport asks about first).
 * Checked on seeded variations of a RoCEv2 packet in the fields the two walk: VLAN tags (802.1Q
 * 0x8100, 802.1ad 0x88A8, others), the EtherType, the IP version, IHL, protocol or next header,
 * fragment fields, lengths, the UDP destination port, and truncation anywhere. */
#include <criterion/criterion.h>
#include <string.h>

#include "roce/roce.h"

static uint64_t next(uint64_t *s)
{
	/* splitmix64: a fixed seed, the same frames on every run */
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A frame whose headers are mostly those of a RoCEv2 packet (RFC 791/8200, UDP to 4791, a BTH
 * of a UD SEND ONLY and a payload), each field the filter reads sometimes wrong. */
static size_t variant(uint64_t *s, uint8_t *f, size_t cap)
{
	memset(f, 0, cap);
	for (size_t i = 0; i < 12; i++)
		f[i] = (uint8_t)(0x10 + i);
	size_t at = 12;
	static const unsigned tpids[] = { 0x8100, 0x88A8, 0x9100, 0x0800 };
	unsigned ntags = (unsigned)(next(s) % 4);
	for (unsigned t = 0; t < ntags; t++) {
		put16(f + at, tpids[next(s) % 4]);
		put16(f + at + 2, (unsigned)next(s) & 0xFFFF);
		at += 4;
	}
	bool v6 = next(s) & 1;
	unsigned r = (unsigned)(next(s) % 16);
	put16(f + at, r == 0 ? 0x8100 : r == 1 ? 0x1234 : v6 ? 0x86DD : 0x0800);
	at += 2;
	uint8_t *ip = f + at;
	size_t l4;
	if (!v6) {
		unsigned ihl = next(s) % 8 ? 5 : (unsigned)(next(s) % 16);
		ip[0] = (uint8_t)((next(s) % 8 ? 4 : next(s) % 16) << 4 | ihl);
		ip[9] = next(s) % 8 ? 17 : (uint8_t)next(s);
		put16(ip + 6, next(s) % 4 ? 0 : (unsigned)next(s) & 0xFFFF);
		put16(ip + 2, (unsigned)(next(s) % 200));
		for (unsigned k = 12; k < 20; k++)
			ip[k] = (uint8_t)next(s);
		l4 = at + (ihl ? ihl : 5) * 4u;
	} else {
		ip[0] = (uint8_t)((next(s) % 8 ? 6 : next(s) % 16) << 4);
		ip[6] = next(s) % 8 ? 17 : (uint8_t)next(s);
		put16(ip + 4, (unsigned)(next(s) % 200));
		for (unsigned k = 8; k < 40; k++)
			ip[k] = (uint8_t)next(s);
		l4 = at + 40;
	}
	if (l4 + 8 + 12 + 8 + 4 > cap)
		return cap;
	put16(f + l4, (unsigned)next(s) & 0xFFFF);
	put16(f + l4 + 2, next(s) % 4 ? NICREF_ROCE_UDP_PORT : (unsigned)next(s) & 0xFFFF);
	put16(f + l4 + 4, (unsigned)(next(s) % 100));
	f[l4 + 8] = 0x64; /* UD SEND ONLY */
	size_t len = l4 + 8 + 12 + 8 + 16 + 4;
	if (next(s) % 4 == 0)
		len = (size_t)(next(s) % (len + 1)); /* cut anywhere */
	return len;
}

Test(roce_prefilter, refuses_only_what_the_parse_calls_not_roce)
{
	uint64_t seed = 16;
	uint8_t f[256];
	unsigned refused = 0, taken = 0;
	for (unsigned i = 0; i < 200000; i++) {
		size_t len = variant(&seed, f, sizeof f);
		uint8_t dip[16];
		bool cand = roce_rx_candidate(f, len, dip);
		struct roce_pkt p;
		int r = roce_parse(f, len, 1, false, &p);
		if (!cand) {
			cr_assert_eq(r, ROCE_NOT_ROCE, "variant %u (%zu bytes): refused, parse %d", i,
				     len, r);
			refused++;
			continue;
		}
		cr_assert_neq(r, ROCE_NOT_ROCE, "variant %u (%zu bytes): taken, parse not RoCE", i,
			      len);
		cr_assert(memcmp(dip, p.dip, 16) == 0, "variant %u: the destination differs", i);
		taken++;
	}
	/* Both sides of the filter were exercised. */
	cr_expect_gt(refused, 10000);
	cr_expect_gt(taken, 10000);
}

Test(roce_prefilter, null_and_short_frames)
{
	uint8_t dip[16];
	cr_expect_not(roce_rx_candidate(NULL, 0, dip));
	uint8_t f[13] = { 0 };
	cr_expect_not(roce_rx_candidate(f, sizeof f, dip));
}
