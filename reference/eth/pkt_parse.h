/* The send offloads' packet parser: where the L3 and L4 headers of a frame are, as far as the
 * bytes given go (docs/tx_offload.md D-TXO-6 says what it recognises, D-TXO-8 what a malformed
 * packet gets). Every read is bounds-checked against the length given: a truncated or malformed
 * packet parses as far as it is well formed and the rest reads as "none", never past the end. */
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
};

/* Parses the len bytes at p (a frame from its Ethernet header) into *pi. Never fails: what is
 * not recognised reads as PKT_L3_NONE / PKT_L4_NONE. */
void pkt_parse(const uint8_t *p, size_t len, struct pkt_info *pi);

#endif
