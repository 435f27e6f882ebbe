/* The one packet parser of the data path: where the L2, L3 and L4 headers of a frame are and what
 * they say, as far as the bytes given go. The send offloads read the first block of fields
 * (docs/tx_offload.md D-TXO-6 says what it recognises, D-TXO-8 what a malformed packet gets);
 * the receive path (CQE T68, steering key, RSS §3.3.3) reads all of them (docs/rss.md D-PARSE-*).
 * Every read is bounds-checked against the length given: a truncated or malformed packet parses
 * as far as it is well formed and the rest reads as "none", never past the end. */
#ifndef NICREF_ETH_PKT_PARSE_H
#define NICREF_ETH_PKT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pkt_l3 { PKT_L3_NONE, PKT_L3_IPV4, PKT_L3_IPV6 };
enum pkt_l4 { PKT_L4_NONE, PKT_L4_TCP, PKT_L4_UDP };

/* At most this many VLAN tags are skipped (D-TXO-6: the outer and the inner tag of QinQ). */
#define PKT_MAX_TAGS 2

struct pkt_info {
	uint8_t l3;       /* enum pkt_l3: a complete IPv4 header / IPv6 header and its chain */
	uint8_t l4;       /* enum pkt_l4: a complete TCP or UDP header after it */
	uint8_t ntags;    /* VLAN tags skipped */
	uint8_t ip_proto; /* IPv4 protocol / the IPv6 next header that ends the chain */
	size_t l3_off;    /* the IP header: after the Ethernet header and its tags */
	size_t l4_off;    /* the L4 header: after the IPv4 options / the IPv6 extension headers */
	size_t l4_hdr_len; /* TCP data offset × 4, or UDP's 8 */
	/* The end of the IP datagram as its length field says (IPv4 total length, IPv6 payload
	 * length), when that length covers the L3 headers and fits the bytes given; 0 otherwise. */
	size_t ip_end;
	/* PRM §3.3.1 excludes these from the L4 checksum: an IPv4 LSRR or SSRR option, an IPv6
	 * routing header; and an IPv4 option list that cannot be walked (D-TXO-2). */
	bool src_route;
	bool fragment; /* IPv4 MF or offset; an IPv6 fragment header with M or an offset (D-TXO-7) */

	/* ---- The receive path's fields (issue 13; D-PARSE-1 to D-PARSE-10) ---- */
	bool l2_complete;  /* the 14-byte Ethernet header and every tag counted in ntags are there */
	/* The tags in frame order (tag[0] the outermost), ntags of them (IEEE 802.1Q clause 9.6). */
	struct pkt_tag {
		uint16_t tpid; /* 0x8100 C-tag or 0x88A8 S-tag */
		uint8_t prio;  /* PCP, TCI 15:13 (T68 "up") */
		uint8_t cfi;   /* DEI, TCI 12 (T68 "cfi") */
		uint16_t vid;  /* TCI 11:0 */
	} tag[PKT_MAX_TAGS];
	/* The last EtherType (T410 ethertype): the one after the tags, or for LLC/SNAP the SNAP
	 * header's; 0 for an 802.3 length frame without SNAP (D-PARSE-2). 0 when the frame ends
	 * before it. */
	uint16_t ethertype;
	bool llc;      /* an 802.3 length (< 0x600) where the EtherType would be: LLC follows */
	bool llc_snap; /* LLC AA-AA-03 and a complete SNAP header (no IP is looked for behind it) */
	/* IP (l3 != PKT_L3_NONE): the fields as the header writes them. IPv6: tos is the traffic
	 * class, ttl the hop limit, ip_len the payload length. */
	uint8_t tos;
	uint8_t ttl;
	uint16_t ip_len;     /* IPv4 total length / IPv6 payload length, as written */
	uint16_t frag_off;   /* fragment offset in 8-byte units (IPv4 header / IPv6 fragment header) */
	bool more_frags;     /* IPv4 MF / the IPv6 fragment header's M */
	bool ip_opts;        /* IPv4: IHL > 5 (T68 ip_ext_opts) */
	/* IPv6: at least one extension header of T68's list (hop-by-hop, routing, fragment,
	 * destination options, AH, mobility) or of the parser's (HIP, shim6), complete or not. */
	bool ipv6_ext;
	bool ipv6_frag_hdr;  /* a complete IPv6 fragment header, atomic (offset 0, M 0) or not */
	/* The L3 headers are complete: IPv4's IHL × 4 bytes; IPv6's 40 and its whole extension
	 * chain (l4_off set). The L4 header is complete iff l4 != PKT_L4_NONE. */
	bool l3_complete;
	/* The IPv4 header checksum verifies over IHL × 4 bytes (RFC 791 §3.1; RFC 1071): the
	 * one's complement sum of the header is 0xFFFF. Always false for IPv6 (it has none). */
	bool ip_csum_ok;
	/* IPv4: what that check summed (csum_add from 0 over the IHL × 4 bytes at l3_off, which
	 * end at l4_off): the CQE checksum (T4, rx_hdr.c) starts with the same bytes. */
	uint64_t ip_hdr_sum;
	/* IPsec (RSS IPSEC_SPI, T47): the SPI of the first ESP or AH header after the IP header
	 * (IPv4 protocol, or in the IPv6 chain), when its 4 bytes are there and the packet is not a
	 * fragment other than the first (D-PARSE-7). */
	bool has_spi;
	uint32_t spi;
	/* L4 as the receive path sees it: l4, except none in a fragment other than the first (the
	 * bytes there are payload, not a header: D-PARSE-5). Ports valid iff l4_rx != NONE. */
	uint8_t l4_rx;
	uint16_t sport;
	uint16_t dport;
	uint16_t tcp_flags;  /* TCP: byte 13 and NS (RFC 3540) as bit 8 (HDR_TCP_NS) */
	bool tcp_opts;       /* TCP: data offset > 5 */
	/* TCP options (RFC 9293 §3.2): the offset in the frame of a Timestamps option's TSval
	 * (RFC 7323 §3; 0 when none), and whether any option other than EOL, NOP and one
	 * well-formed Timestamps is there, or the list cannot be walked (LRO §3.3.6.2 reads both). */
	size_t tcp_ts_off;
	bool tcp_opt_other;
	uint16_t udp_len;    /* UDP: the length field, as written */
	/* The TCP/UDP checksum verifies (RFC 9293 §3.1, RFC 768, RFC 8200 §8.1) over the L4 bytes
	 * the IP length gives (UDP: its own length, within the IP payload) and the pseudo-header.
	 * False when it cannot be checked: not l4_rx, a fragment, a source route (PRM §3.3.1's
	 * exclusions), an IP or UDP length that does not cover the L4 header; UDP over IPv4 with
	 * checksum 0 ("no checksum", RFC 768) is true, over IPv6 false (RFC 8200 §8.1) (D-PARSE-8). */
	bool l4_csum_ok;
	/* What that check summed of the L4 bytes (csum_add from 0 over l4_off .. l4_sum_end;
	 * l4_sum_end 0 when it summed none): the CQE checksum (T4, rx_hdr.c) covers the same
	 * bytes and takes the sum instead of going over the payload a second time. */
	uint64_t l4_sum;
	size_t l4_sum_end;
};

/* Parses the len bytes at p (a frame from its Ethernet header) into *pi. Never fails: what is
 * not recognised reads as PKT_L3_NONE / PKT_L4_NONE. */
void pkt_parse(const uint8_t *p, size_t len, struct pkt_info *pi);

#endif
