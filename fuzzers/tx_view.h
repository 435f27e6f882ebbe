/* The tx target's own packet arithmetic and its view of a frame's headers (fuzzers/tx_view.c). */
#ifndef NICREF_FUZZ_TX_VIEW_H
#define NICREF_FUZZ_TX_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the offloads find in a packet (D-TXO-6). */
struct txv {
	int ipv; /* 0: no IP */
	size_t l3, l3hdr;
	bool v4hdr_ok;   /* a complete IPv4 header (l3cs applies) */
	bool frag, srcroute;
	unsigned proto;
	size_t l4, l4hdr, end; /* L4 header start and length, the datagram's end */
	bool l4_ok;            /* TCP/UDP whose checksum applies (D-TXO-2, -5, -7) */
};

/* RFC 1071: 16-bit big-endian words added to acc (an odd last byte padded); the sum folded. */
uint64_t txv_sum16(const uint8_t *p, size_t n, uint64_t acc);
unsigned txv_fold(uint64_t acc);
/* IEEE 802.3 CRC-32 (reflected 0xEDB88320), bit by bit. */
uint32_t txv_crc32(const uint8_t *p, size_t n);
/* Big-endian stores. */
void txv_put16(uint8_t *p, unsigned v);
void txv_put32(uint8_t *p, uint32_t v);
/* 802.1Q or 802.1ad. */
bool txv_is_tag(unsigned type);
/* D-TX-6: the Ethernet header and up to two tags before the L3 payload. */
size_t txv_l2_for_mtu(const uint8_t *f, size_t len);
/* The packet's first n bytes (the WQE's; the rest may be §3.3.8 padding). */
void txv_parse(const uint8_t *f, size_t n, struct txv *v);
/* The L4 checksum over the pseudo-header and the datagram: 0xFFFF when right. */
unsigned txv_l4_sum(const uint8_t *f, const struct txv *v);

#endif
