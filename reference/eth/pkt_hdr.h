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
	HDR_IPV6_FRAG_MASK = 0xFFF9,     /* offset or M: the packet is a fragment */
	HDR_IPV6_FRAG_OFF_MASK = 0xFFF8, /* the offset alone: not the first fragment */

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

/* The receive parser's fields (eth/pkt_parse.h, D-PARSE-*): what the CQE (PRM T68), the steering
 * key and RSS (§3.3.3) read beyond what the send offloads need. */
enum {
	/* IEEE 802.1Q clause 9.6: the TCI is PCP 15:13, DEI (the PRM's "cfi") 12, VID 11:0. */
	HDR_TAG_TCI = 2,
	/* IEEE 802.2 LLC (DSAP, SSAP, control) after an 802.3 length; with DSAP = SSAP = 0xAA and
	 * control 0x03 (UI) a SNAP header follows (RFC 1042): a 3-byte OUI and an EtherType. */
	HDR_LLC_LEN = 3,
	HDR_LLC_SAP_SNAP = 0xAA,
	HDR_LLC_CTRL_UI = 0x03,
	HDR_SNAP_LEN = 5,
	HDR_SNAP_TYPE = 3, /* the EtherType within the SNAP header */

	/* IPv4, RFC 791 §3.1; TOS and TTL. MF is bit 13 of the flags/offset word, the offset 12:0
	 * counts 8-byte units. */
	HDR_IPV4_TOS = 1,
	HDR_IPV4_TTL = 8,
	HDR_IPV4_DST = 16,
	HDR_IPV4_MF = 0x2000,
	HDR_IPV4_OFF_MASK = 0x1FFF,
	/* IPv6, RFC 8200 §3: traffic class 27:20 of the first word, hop limit at 7. The fragment
	 * header's offset is 15:3 of its second word, M is bit 0. */
	HDR_IPV6_HLIM = 7,
	HDR_IPV6_DST = 24,
	HDR_IPV6_FRAG_M = 0x0001,

	/* IPsec: ESP (50, RFC 4303 §2: the SPI is its first word) and AH (51, RFC 4302 §2: the SPI
	 * follows next header, payload length and 2 reserved bytes). */
	HDR_PROTO_ESP = 50,
	HDR_PROTO_AH = 51,
	HDR_ESP_SPI = 0,
	HDR_AH_SPI = 4,
	HDR_SPI_LEN = 4,

	/* TCP, RFC 9293 §3.1: ports, NS (RFC 3540) in bit 0 of byte 12, the flags in byte 13.
	 * Options: EOL 0, NOP 1, Timestamps 8 of length 10 (RFC 7323 §3). */
	HDR_L4_SPORT = 0,
	HDR_L4_DPORT = 2,
	HDR_TCP_SYN = 0x02,
	HDR_TCP_RST = 0x04,
	HDR_TCP_ACK = 0x10,
	HDR_TCP_URG = 0x20,
	HDR_TCP_ECE = 0x40,
	HDR_TCP_NS = 0x100, /* in struct pkt_info's 9-bit tcp_flags */
	HDR_TCP_OPT_EOL = 0,
	HDR_TCP_OPT_NOP = 1,
	HDR_TCP_OPT_TS = 8,
	HDR_TCP_OPT_TS_LEN = 10,

	/* UDP, RFC 768: the length (header and data) at 4. */
	HDR_UDP_LENGTH = 4,
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
