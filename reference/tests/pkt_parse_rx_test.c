/* The receive path's view of the one packet parser (eth/pkt_parse.h; docs/rss.md D-PARSE-*): VLAN
 * tags, the last EtherType, LLC/SNAP, the IP fields, fragments, extension headers, the IPsec SPI,
 * TCP flags and options, the UDP length and the checksums' validity, for frames built with Scapy
 * (pkt_parse_cases.h, reference/tests/gen/rss_gen.py); every prefix of every frame parsed from a
 * buffer of exactly its length, so a read past the frame is an ASan report. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "eth/pkt_parse.h"
#include "pkt_parse_cases.h"

static void check_case(const struct pp_case *c)
{
	struct pkt_info pi;
	pkt_parse(c->frame, c->len, &pi);
	const char *n = c->name;
	cr_expect(pi.l2_complete, "%s: l2_complete", n);
	cr_expect_eq(pi.ntags, c->ntags, "%s: ntags %u", n, pi.ntags);
	for (unsigned t = 0; t < c->ntags; t++) {
		cr_expect_eq(pi.tag[t].tpid, c->tag_tpid[t], "%s: tag %u tpid %#x", n, t, pi.tag[t].tpid);
		cr_expect_eq(pi.tag[t].vid, c->tag_vid[t], "%s: tag %u vid %u", n, t, pi.tag[t].vid);
		cr_expect_eq(pi.tag[t].prio, c->tag_prio[t], "%s: tag %u prio", n, t);
		cr_expect_eq(pi.tag[t].cfi, c->tag_cfi[t], "%s: tag %u cfi", n, t);
	}
	cr_expect_eq(pi.ethertype, c->ethertype, "%s: ethertype %#x", n, pi.ethertype);
	cr_expect_eq(pi.llc, c->llc, "%s: llc", n);
	cr_expect_eq(pi.llc_snap, c->llc_snap, "%s: llc_snap", n);
	cr_expect_eq(pi.l3, c->l3, "%s: l3 %u", n, pi.l3);
	cr_expect_eq(pi.l4_rx, c->l4_rx, "%s: l4_rx %u", n, pi.l4_rx);
	cr_expect_eq(pi.tos, c->tos, "%s: tos %#x", n, pi.tos);
	cr_expect_eq(pi.ttl, c->ttl, "%s: ttl %u", n, pi.ttl);
	cr_expect_eq(pi.ip_len, c->ip_len, "%s: ip_len %u", n, pi.ip_len);
	cr_expect_eq(pi.frag_off, c->frag_off, "%s: frag_off %u", n, pi.frag_off);
	cr_expect_eq(pi.more_frags, c->more_frags, "%s: more_frags", n);
	cr_expect_eq(pi.fragment, c->fragment, "%s: fragment", n);
	cr_expect_eq(pi.ip_opts, c->ip_opts, "%s: ip_opts", n);
	cr_expect_eq(pi.ipv6_ext, c->ipv6_ext, "%s: ipv6_ext", n);
	cr_expect_eq(pi.ipv6_frag_hdr, c->ipv6_frag_hdr, "%s: ipv6_frag_hdr", n);
	cr_expect_eq(pi.ip_csum_ok, c->ip_csum_ok, "%s: ip_csum_ok %d", n, pi.ip_csum_ok);
	cr_expect_eq(pi.has_spi, c->has_spi, "%s: has_spi", n);
	cr_expect_eq(pi.spi, c->spi, "%s: spi %#x", n, pi.spi);
	cr_expect_eq(pi.sport, c->sport, "%s: sport %u", n, pi.sport);
	cr_expect_eq(pi.dport, c->dport, "%s: dport %u", n, pi.dport);
	cr_expect_eq(pi.tcp_flags, c->tcp_flags, "%s: tcp_flags %#x", n, pi.tcp_flags);
	cr_expect_eq(pi.tcp_opts, c->tcp_opts, "%s: tcp_opts", n);
	cr_expect_eq(pi.tcp_ts_off != 0, c->tcp_ts, "%s: tcp_ts_off %zu", n, pi.tcp_ts_off);
	cr_expect_eq(pi.tcp_opt_other, c->tcp_opt_other, "%s: tcp_opt_other", n);
	cr_expect_eq(pi.udp_len, c->udp_len, "%s: udp_len %u", n, pi.udp_len);
	cr_expect_eq(pi.l4_csum_ok, c->l4_csum_ok, "%s: l4_csum_ok %d", n, pi.l4_csum_ok);
}

Test(pkt_parse_rx, scapy_cases)
{
	for (size_t i = 0; i < sizeof(pp_cases) / sizeof(pp_cases[0]); i++)
		check_case(&pp_cases[i]);
}

/* Every prefix of every frame, from a heap buffer of exactly that length: nothing is read past it
 * (ASan under make check), and what is cut off reads as absent: a prefix that ends inside a
 * header never reports that header or anything after it. */
Test(pkt_parse_rx, every_prefix_stays_in_bounds)
{
	for (size_t i = 0; i < sizeof(pp_cases) / sizeof(pp_cases[0]); i++) {
		const struct pp_case *c = &pp_cases[i];
		struct pkt_info full;
		pkt_parse(c->frame, c->len, &full);
		for (size_t n = 0; n <= c->len; n++) {
			uint8_t *b = malloc(n ? n : 1);
			cr_assert_not_null(b);
			memcpy(b, c->frame, n);
			struct pkt_info pi;
			pkt_parse(b, n, &pi);
			free(b);
			cr_expect_eq(pi.l2_complete, n >= 14 + 4u * c->ntags || (n >= 14 && c->ntags == 0),
				     "%s[:%zu]: l2_complete", c->name, n);
			if (pi.l4_rx != PKT_L4_NONE)
				cr_expect_geq(n, pi.l4_off + pi.l4_hdr_len, "%s[:%zu]: l4 past the end",
					      c->name, n);
			if (pi.l3 == PKT_L3_IPV4)
				cr_expect_geq(n, pi.l4_off, "%s[:%zu]: IPv4 header past the end", c->name, n);
			if (pi.tcp_ts_off)
				cr_expect_geq(n, pi.tcp_ts_off + 8, "%s[:%zu]: TSval/TSecr", c->name, n);
			if (pi.ip_end)
				cr_expect_leq(pi.ip_end, n, "%s[:%zu]: ip_end", c->name, n);
			/* A checksum cannot verify over bytes the prefix lacks (except UDP/IPv4 0). */
			if (n < c->len && pi.l4_csum_ok && full.l4_csum_ok)
				cr_expect_geq(n, full.ip_end, "%s[:%zu]: l4_csum_ok on a cut datagram",
					      c->name, n);
		}
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

/* The Timestamps option's TSval and TSecr where tcp_ts_off says (RFC 7323 §3: the generator's
 * TSval 1, TSecr 2). */
Test(pkt_parse_rx, tcp_timestamp_offset)
{
	const struct pp_case *c = find("ipv4_tcp_opts_ts");
	struct pkt_info pi;
	pkt_parse(c->frame, c->len, &pi);
	cr_assert_neq(pi.tcp_ts_off, 0);
	const uint8_t want[8] = { 0, 0, 0, 1, 0, 0, 0, 2 };
	cr_expect_arr_eq(c->frame + pi.tcp_ts_off, want, 8);
}

/* D-PARSE-1: a third tag is not skipped: its TPID is the last EtherType and no IP is found. */
Test(pkt_parse_rx, third_tag_ends_l2)
{
	const struct pp_case *c = find("qinq_ipv4_tcp");
	uint8_t f[256];
	cr_assert_leq(c->len + 4, sizeof(f));
	memcpy(f, c->frame, 20);                         /* MACs, S-tag, C-tag TPID+TCI */
	f[20] = 0x81, f[21] = 0x00, f[22] = 0x00, f[23] = 0x05; /* a third C-tag, VID 5 */
	memcpy(f + 24, c->frame + 20, c->len - 20);
	struct pkt_info pi;
	pkt_parse(f, c->len + 4, &pi);
	cr_expect_eq(pi.ntags, 2);
	cr_expect_eq(pi.ethertype, 0x8100);
	cr_expect_eq(pi.l3, PKT_L3_NONE);
	cr_expect_eq(pi.l4_rx, PKT_L4_NONE);
}

/* An IPv6 extension chain cut off by the frame's end: the header is IPv6, the chain incomplete,
 * an extension header is present, no L4. */
Test(pkt_parse_rx, ipv6_chain_cut)
{
	const struct pp_case *c = find("ipv6_ext_tcp");
	struct pkt_info pi;
	pkt_parse(c->frame, 14 + 40 + 8 + 4, &pi); /* hop-by-hop whole, destination options cut */
	cr_expect_eq(pi.l3, PKT_L3_IPV6);
	cr_expect(!pi.l3_complete);
	cr_expect(pi.ipv6_ext);
	cr_expect_eq(pi.l4_rx, PKT_L4_NONE);
	cr_expect(!pi.l4_csum_ok);
	pkt_parse(c->frame, c->len, &pi);
	cr_expect(pi.l3_complete);
}

/* A frame shorter than an Ethernet header is nothing at all. */
Test(pkt_parse_rx, runt)
{
	const struct pp_case *c = find("ipv4_tcp");
	struct pkt_info pi;
	pkt_parse(c->frame, 13, &pi);
	cr_expect(!pi.l2_complete);
	cr_expect_eq(pi.ethertype, 0);
	cr_expect_eq(pi.l3, PKT_L3_NONE);
}
