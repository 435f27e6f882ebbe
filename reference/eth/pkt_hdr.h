/* The protocol header fields the send offloads read and write, declared once: byte offsets
 * from the start of their header, sizes and constant values. These headers are not PRM
 * structures (the PRM offloads them, §3.3, without describing them), so they are not PRM
 * layouts: each line cites the standard that defines it. All fields are big-endian ("network
 * byte order"), like every PRM structure. */
#ifndef NICREF_ETH_PKT_HDR_H
#define NICREF_ETH_PKT_HDR_H

#include <stddef.h>
#include <stdint.h>

enum {
	/* IEEE 802.3 clause 3.2: destination, source, then the EtherType (a length below 0x600:
	 * an 802.3 length field, LLC follows, no IP). The FCS is not part of the model's frames. */
	HDR_ETH_LEN = 14,
	HDR_ETH_TYPE = 12,
	HDR_ETHERTYPE_MIN = 0x600,
	/* IEEE 802.1Q clause 9: a tag is a TPID (in the EtherType slot) and a TCI, 4 bytes, and
	 * the next EtherType follows it. 802.1Q C-tag 0x8100, 802.1ad S-tag 0x88A8. */
	HDR_TAG_LEN = 4,
	HDR_TPID_CTAG = 0x8100,
	HDR_TPID_STAG = 0x88A8,
	HDR_ETHERTYPE_IPV4 = 0x0800,
	HDR_ETHERTYPE_IPV6 = 0x86DD,

	/* IPv4, RFC 791 §3.1. */
	HDR_IPV4_MIN_LEN = 20,
	HDR_IPV4_VER_IHL = 0, /* version 7:4, IHL 3:0 (32-bit words) */
	HDR_IPV4_TOT_LEN = 2,
	HDR_IPV4_ID = 4,
	HDR_IPV4_FRAG = 6, /* flags 15:13 (MF is 13), fragment offset 12:0 */
	HDR_IPV4_FRAG_MASK = 0x3FFF, /* MF and the offset: non-zero is a fragment */
	HDR_IPV4_PROTO = 9,
	HDR_IPV4_CSUM = 10,
	HDR_IPV4_SRC = 12,
	HDR_IPV4_ADDR_LEN = 4,
	/* RFC 791 §3.1 options: EOL and NOP are one byte, every other option is type, length
	 * (counting both), data. Loose and strict source routes (LSRR, SSRR) are types 131, 137. */
	HDR_IPV4_OPT_EOL = 0,
	HDR_IPV4_OPT_NOP = 1,
	HDR_IPV4_OPT_LSRR = 131,
	HDR_IPV4_OPT_SSRR = 137,

	/* IPv6, RFC 8200 §3 and §4. */
	HDR_IPV6_LEN = 40,
	HDR_IPV6_PLEN = 4,
	HDR_IPV6_NEXT = 6,
	HDR_IPV6_SRC = 8,
	HDR_IPV6_ADDR_LEN = 16,
	HDR_IPV6_FRAG_OFF = 2, /* fragment header: offset 15:3, M flag 0 */
	HDR_IPV6_FRAG_MASK = 0xFFF9,

	/* IP protocol numbers (IANA): the two L4 headers the offloads know. */
	HDR_PROTO_TCP = 6,
	HDR_PROTO_UDP = 17,

	/* TCP, RFC 9293 §3.1; CWR and ECE, RFC 3168 §6.1. */
	HDR_TCP_MIN_LEN = 20,
	HDR_TCP_SEQ = 4,
	HDR_TCP_DOFF = 12, /* data offset 7:4 (32-bit words) */
	HDR_TCP_FLAGS = 13,
	HDR_TCP_CSUM = 16,
	HDR_TCP_FIN = 0x01,
	HDR_TCP_PSH = 0x08,
	HDR_TCP_CWR = 0x80,

	/* UDP, RFC 768. */
	HDR_UDP_LEN = 8,
	HDR_UDP_CSUM = 6,
};

static inline uint16_t hdr_get16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t hdr_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void hdr_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void hdr_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif
