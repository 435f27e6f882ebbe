/* The tx target's own packet arithmetic (RFC 1071 checksums, IEEE 802.3 CRC-32) and its view of
 * a sent frame's headers (D-TX-6, D-TXO-2, -5, -6, -7), written from the RFCs and the decisions,
 * not from the model's eth/ code: what the tx target holds the device's frames to. Only
 * the tx target uses it (tx_follow.c, tx_hdrs.c). */
#include <string.h>

#include "tx_view.h"

static unsigned be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

uint64_t txv_sum16(const uint8_t *p, size_t n, uint64_t acc)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		acc += (uint64_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		acc += (uint64_t)p[n - 1] << 8;
	return acc;
}

unsigned txv_fold(uint64_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xFFFF) + (acc >> 16);
	return (unsigned)acc;
}

/* Eight bytes a step (slicing-by-8: the target checks the CRC of every frame it sees, a tenth of
 * its time a byte at a time). t[0][v] is byte v through the register's eight shift-and-XOR
 * steps of the bitwise definition (reflected polynomial 0xEDB88320); t[k][v] is t[k-1][v]
 * through eight more steps with zero bytes, so t[k] is a byte's share k bytes before the end
 * of an 8-byte group, and the group's eight shares XOR together. Filled on first use. */
uint32_t txv_crc32(const uint8_t *p, size_t n)
{
	static uint32_t t[8][256];
	static bool filled;
	if (!filled) {
		for (uint32_t v = 0; v < 256; v++) {
			uint32_t c = v;
			for (int b = 0; b < 8; b++)
				c = c >> 1 ^ (0xEDB88320u & (0u - (c & 1u)));
			t[0][v] = c;
		}
		for (unsigned k = 1; k < 8; k++)
			for (uint32_t v = 0; v < 256; v++)
				t[k][v] = t[k - 1][v] >> 8 ^ t[0][t[k - 1][v] & 0xFF];
		filled = true;
	}
	uint32_t c = 0xFFFFFFFFu;
	for (; n >= 8; p += 8, n -= 8) {
		uint32_t x = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				  (uint32_t)p[3] << 24);
		c = t[7][x & 0xFF] ^ t[6][x >> 8 & 0xFF] ^ t[5][x >> 16 & 0xFF] ^ t[4][x >> 24] ^
		    t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
	}
	for (; n; n--, p++)
		c = c >> 8 ^ t[0][(c ^ *p) & 0xFF];
	return ~c;
}

void txv_put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void txv_put32(uint8_t *p, uint32_t v)
{
	txv_put16(p, v >> 16);
	txv_put16(p + 2, v & 0xFFFF);
}

bool txv_is_tag(unsigned type)
{
	return type == 0x8100 || type == 0x88A8; /* 802.1Q, 802.1ad */
}

/* D-TX-6: the Ethernet header and up to two 802.1Q/802.1ad tags before the L3 payload. */
size_t txv_l2_for_mtu(const uint8_t *f, size_t len)
{
	size_t l2 = 14;
	for (int tags = 0; tags < 2 && l2 + 4 <= len && txv_is_tag(be16(f + l2 - 2)); tags++)
		l2 += 4;
	return l2;
}

static void txv_parse_v4(const uint8_t *f, size_t n, struct txv *v)
{
	size_t l3 = v->l3;
	if (l3 + 20 > n || f[l3] >> 4 != 4 || (f[l3] & 15) < 5)
		return;
	size_t ihl = (size_t)(f[l3] & 15) * 4;
	if (l3 + ihl > n)
		return;
	v->ipv = 4;
	v->l3hdr = ihl;
	v->v4hdr_ok = true;
	v->frag = (be16(f + l3 + 6) & 0x3FFF) != 0; /* MF or an offset (D-TXO-7) */
	v->proto = f[l3 + 9];
	/* D-TXO-2: LSRR (131) or SSRR (137), or a list that cannot be walked. */
	for (size_t i = 20; i < ihl;) {
		unsigned t = f[l3 + i];
		if (t == 0)
			break;
		if (t == 1) {
			i++;
			continue;
		}
		if (i + 1 >= ihl || f[l3 + i + 1] < 2 || i + f[l3 + i + 1] > ihl) {
			v->srcroute = true;
			break;
		}
		if (t == 131 || t == 137)
			v->srcroute = true;
		i += f[l3 + i + 1];
	}
	v->l4 = l3 + ihl;
	v->end = l3 + be16(f + l3 + 2);
}

static void txv_parse_v6(const uint8_t *f, size_t n, struct txv *v)
{
	size_t l3 = v->l3;
	if (l3 + 40 > n || f[l3] >> 4 != 6)
		return;
	v->ipv = 6;
	v->end = l3 + 40 + be16(f + l3 + 4);
	unsigned nh = f[l3 + 6];
	size_t off = l3 + 40;
	for (;;) {
		size_t len;
		switch (nh) {
		case 0: case 43: case 60: case 135: case 139: case 140:
			if (off + 2 > n)
				return;
			len = ((size_t)f[off + 1] + 1) * 8;
			if (nh == 43)
				v->srcroute = true;
			break;
		case 44: {
			if (off + 8 > n)
				return;
			unsigned fo = be16(f + off + 2);
			if (fo >> 3 || (fo & 1))
				v->frag = true;
			len = 8;
			break;
		}
		case 51:
			if (off + 2 > n)
				return;
			len = ((size_t)f[off + 1] + 2) * 4;
			break;
		case 6: case 17:
			v->proto = nh;
			v->l4 = off;
			v->l3hdr = off - l3;
			return;
		default:
			return; /* ESP, No Next Header, unknown: no L4 */
		}
		if (off + len > n)
			return;
		nh = f[off];
		off += len;
	}
}

/* The packet's first n bytes are known to be the WQE's (the rest may be §3.3.8 padding). */
void txv_parse(const uint8_t *f, size_t n, struct txv *v)
{
	memset(v, 0, sizeof *v);
	if (n < 14)
		return;
	size_t type_at = 12;
	for (unsigned tags = 0; txv_is_tag(be16(f + type_at)); tags++) {
		if (tags == 2 || type_at + 6 > n)
			return; /* a third tag leaves no L3 (D-TXO-6) */
		type_at += 4;
	}
	v->l3 = type_at + 2;
	unsigned type = be16(f + type_at);
	if (type == 0x0800)
		txv_parse_v4(f, n, v);
	else if (type == 0x86DD)
		txv_parse_v6(f, n, v);
	if (!v->l4 || (v->proto != 6 && v->proto != 17) || v->frag || v->srcroute)
		return;
	if (v->proto == 17) {
		v->l4hdr = 8;
	} else {
		if (v->l4 + 20 > n || f[v->l4 + 12] >> 4 < 5)
			return;
		v->l4hdr = (size_t)(f[v->l4 + 12] >> 4) * 4;
	}
	/* D-TXO-5: the IP length covers the L3 and L4 headers and lies within the packet. */
	v->l4_ok = v->l4 + v->l4hdr <= n && v->l4 + v->l4hdr <= v->end && v->end <= n;
}

/* The L4 checksum over the pseudo-header and the datagram: 0xFFFF when right. */
unsigned txv_l4_sum(const uint8_t *f, const struct txv *v)
{
	size_t l4len = v->end - v->l4;
	uint64_t acc = 0;
	if (v->ipv == 4)
		acc = txv_sum16(f + v->l3 + 12, 8, 0);
	else
		acc = txv_sum16(f + v->l3 + 8, 32, 0);
	acc += v->proto + (uint64_t)(l4len & 0xFFFF) + (l4len >> 16);
	return txv_fold(txv_sum16(f + v->l4, l4len, acc));
}
