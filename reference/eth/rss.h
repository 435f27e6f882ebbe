/* Receive Side Scaling (PRM §3.3.3, §3.3.3.1; TIR T44/T45, RX_HASH_FIELD_SELECT T46/T47, RQT
 * T58/T59, CQE rx_hash_result / rx_hash_type T68): the hash an Indirect TIR computes over the
 * selected fields of a parsed frame, and the RQT entry it selects. Pure functions of their
 * arguments; docs/rss.md says what is hashed for each selector and why (D-RSS-1 to D-RSS-11). */
#ifndef NICREF_ETH_RSS_H
#define NICREF_ETH_RSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eth/pkt_parse.h"

/* T45 24h[31:28] rx_hash_fn. Other values are reserved: they hash nothing (as HASH_NONE). */
enum rss_hash_fn {
	RSS_HASH_NONE = 0x0,
	RSS_HASH_INVERTED_XOR8 = 0x1,
	RSS_HASH_TOEPLITZ = 0x2,
};

/* T46/T47 RX_HASH_FIELD_SELECT: l3_prot_type 31, l4_prot_type 30, selected_fields 29:0. */
enum rss_sel {
	RSS_SEL_SRC_IP = 1u << 0,
	RSS_SEL_DST_IP = 1u << 1,
	RSS_SEL_L4_SPORT = 1u << 2,
	RSS_SEL_L4_DPORT = 1u << 3,
	RSS_SEL_IPSEC_SPI = 1u << 4,
	RSS_SEL_FIELDS = (1u << 30) - 1, /* selected_fields 29:0; bits 5-29 reserved */
	RSS_SEL_L4_UDP = 1u << 30,       /* l4_prot_type: 0 TCP, 1 UDP */
	RSS_SEL_L3_IPV6 = 1u << 31,      /* l3_prot_type: 0 IPv4, 1 IPv6 */
};

/* T68 rx_hash_type: four 2-bit slots, each saying what was hashed in its place. */
enum rss_hash_type {
	RSS_HT_IP_SRC_SHIFT = 0, /* 01 IPv4, 10 IPv6 */
	RSS_HT_IP_DST_SHIFT = 2,
	RSS_HT_L4_SRC_SHIFT = 4, /* 01 TCP, 10 UDP, 11 IPSEC.SPI */
	RSS_HT_L4_DST_SHIFT = 6,
	RSS_HT_IPV4 = 1,
	RSS_HT_IPV6 = 2,
	RSS_HT_TCP = 1,
	RSS_HT_UDP = 2,
	RSS_HT_SPI = 3,
};

/* The Toeplitz key: T45 28h-4Fh rx_hash_toeplitz_key[319:0], byte 28h first (bits 319:312). */
#define RSS_KEY_LEN 40u
/* The longest hash input: two IPv6 addresses, two ports and an SPI (D-RSS-2). */
#define RSS_MAX_INPUT 40u

/* The TIR's hash configuration. fn: T45 rx_hash_fn (0 none, 1 inverted XOR8, 2 Toeplitz);
 * symmetric: T45 20h[31] rx_hash_symmetric; key: T45 28h-4Fh; sel: T45 50h
 * rx_hash_field_selector_outer. rqt_max_size: the RQT's T59 14h, which sets how many LSBs
 * inverted XOR8 inverts (T45 rx_hash_fn 0x1); unused by Toeplitz. */
struct rss_cfg {
	uint8_t fn;
	bool symmetric;
	uint8_t key[RSS_KEY_LEN];
	uint32_t sel;
	uint16_t rqt_max_size;
};

/* hashed: the CQE reports the hash (rx_hash_type != 0, T68 "valid only when rx_hash_type is not
 * zero"); hash: the value the RQT index is taken from, and the CQE's rx_hash_result (also when
 * hashed is false: the hash of no field, D-RSS-3); hash_type: the CQE's rx_hash_type (T68). */
struct rss_result {
	bool hashed;
	uint32_t hash;
	uint8_t hash_type;
};

/* The hash of the TIR c over the frame (len bytes, parsed into *pi by pkt_parse) (D-RSS-2 to
 * D-RSS-8). Never fails; HASH_NONE and reserved functions give { false, 0, 0 }. */
void rss_compute(const struct rss_cfg *c, const uint8_t *frame, size_t len,
		 const struct pkt_info *pi, struct rss_result *r);

/* The Toeplitz hash (Microsoft NDIS RSS "RSS Hashing Functions") of the n bytes at in, under the
 * key of keylen bytes: for every set input bit i (MSB of in[0] first), the 32 key bits from bit
 * i on (MSB of key[0] first) are XORed into the result. Key bits past keylen × 8 read as 0
 * (D-RSS-9). */
uint32_t rss_toeplitz(const uint8_t *key, size_t keylen, const uint8_t *in, size_t n);
/* The same bit by bit on every CPU (rss_toeplitz takes a carry-less-multiply path where the CPU
 * has one; tests/rss_hash_test.c checks that the two agree). */
uint32_t rss_toeplitz_portable(const uint8_t *key, size_t keylen, const uint8_t *in, size_t n);

/* Inverted XOR8 (T45 rx_hash_fn 0x1): the XOR of the n bytes at in, with the order of its
 * log2(rqt_max_size) least significant bits reversed, at most its 8 (D-RSS-5). */
uint32_t rss_xor8(const uint8_t *in, size_t n, uint16_t rqt_max_size);

/* The RQT entry a hash selects: its log2(rqt_actual_size) least significant bits (D-RSS-1;
 * T59: rqt_actual_size is a power of two). A size that is not (no RQT the commands accept has
 * one) takes the hash modulo the size; size 0 gives 0. */
uint32_t rss_rqt_index(uint32_t hash, uint32_t rqt_actual_size);

/* The hash input of the TIR c for the frame, as rss_compute builds it (into in, at most
 * RSS_MAX_INPUT bytes), its length returned and its CQE rx_hash_type in *hash_type. For tests and
 * traces. */
size_t rss_input(const struct rss_cfg *c, const uint8_t *frame, size_t len,
		 const struct pkt_info *pi, uint8_t in[RSS_MAX_INPUT], uint8_t *hash_type);

#endif
