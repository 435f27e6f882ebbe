/* The send checksums (PRM §3.3.1; Eth segment l3cs/l4cs, §7.4.4.1.2 T28): the IPv4 header
 * checksum and the TCP/UDP checksum over the pseudo-header, written into a frame the offload
 * owns. The Internet checksum is RFC 1071's: the one's complement of the one's complement sum
 * of the 16-bit big-endian words, an odd last byte padded with a zero. */
#ifndef NICREF_ETH_CSUM_H
#define NICREF_ETH_CSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eth/pkt_parse.h"

/* The one's complement sum of n bytes added to sum (not folded, not complemented). Bytes are
 * taken as if they started at an even offset. Only csum_fold of a sum (of such sums and small
 * terms) is defined: two sums of the same bytes may differ as numbers (they are congruent
 * modulo 0xFFFF, and 0 only for zero bytes), never folded. */
uint64_t csum_add(uint64_t sum, const uint8_t *p, size_t n);
/* The same by big-endian words whatever the host (csum_add is checked against it). */
uint64_t csum_add_portable(uint64_t sum, const uint8_t *p, size_t n);
/* sum folded to 16 bits and complemented: the value a checksum field carries. */
uint16_t csum_fold(uint64_t sum);

/* Writes the IPv4 header checksum of the frame f parsed as pi (pi->l3 == PKT_L3_IPV4): over the
 * IHL × 4 header bytes with the checksum field taken as 0 (RFC 791 §3.1). */
void csum_ipv4_hdr(uint8_t *f, const struct pkt_info *pi);

/* Whether the device computes the L4 checksum of a packet parsed as pi when asked (l4cs):
 * TCP or UDP, not a fragment, no source route, the IP length covering the L4 header (D-TXO-2,
 * D-TXO-5, D-TXO-7). */
bool csum_l4_applies(const struct pkt_info *pi);

/* Writes the TCP or UDP checksum of the frame f parsed as pi, over the L4 bytes from
 * pi->l4_off to l4_end and the pseudo-header (RFC 9293 §3.1, RFC 768; RFC 8200 §8.1 for IPv6)
 * of the header's addresses, the protocol and l4_end - pi->l4_off. The value the field held is
 * ignored (PRM §3.3.1). A UDP result of 0 is sent as 0xFFFF (RFC 768, RFC 8200 §8.1; D-TXO-3). */
void csum_l4(uint8_t *f, const struct pkt_info *pi, size_t l4_end);

#endif
