/* The LCRC (PCIe Base §3.6.2.1, seed 003 L53-69; D-DLL-2) and the DLLP CRC (§3.6.2.2, L143-146),
 * against values computed without reference/pcie/: zlib's published crc32 check value and
 * Python's zlib.crc32, and a bit-serial CRC written here from the text (MSB-first register,
 * bits of each byte taken from bit 0, remainder complemented, bit 15 of the remainder into bit 0
 * of the first CRC byte). */
#include "pcie_util.h"

/* The text's algorithm, bit by bit: polynomial poly of width w, initial all ones. */
static uint32_t serial_crc(const uint8_t *b, size_t n, uint32_t poly, unsigned w)
{
	uint32_t top = 1u << (w - 1), mask = (w == 32) ? 0xFFFFFFFFu : (1u << w) - 1u;
	uint32_t reg = mask;
	for (size_t i = 0; i < n; i++)
		for (unsigned bit = 0; bit < 8; bit++) { /* L63: bit 0 to bit 7 */
			uint32_t in = (b[i] >> bit) & 1u;
			uint32_t fb = ((reg & top) ? 1u : 0u) ^ in;
			reg = (reg << 1) & mask;
			if (fb)
				reg ^= poly;
		}
	return ~reg & mask;
}

/* The field bytes of a remainder: bit w-1 goes to bit 0 of the first byte, and so on (the
 * mapping of Figure 3-12 / Table 3-6 as the base spec draws them). */
static void map_field(uint32_t rem, unsigned w, uint8_t *out)
{
	memset(out, 0, w / 8);
	for (unsigned k = 0; k < w; k++)
		if (rem & (1u << (w - 1 - k)))
			out[k / 8] |= (uint8_t)(1u << (k % 8));
}

Test(pcie_crc, crc32_check_value)
{
	/* The CRC-32 check value of "123456789" is CBF43926h (zlib, Ethernet FCS). */
	uint32_t reg = nicref_pcie_crc32_update(0xFFFFFFFFu, "123456789", 9);
	cr_assert_eq(~reg, 0xCBF43926u);
}

Test(pcie_crc, lcrc_known_answer)
{
	/* Python: zlib.crc32(bytes([0, 0]) + bytes(range(12))) == 0x381E76CD. */
	uint8_t hdr[2], tlp[12];
	nicref_pcie_seqhdr(0, 0, hdr);
	for (unsigned i = 0; i < 12; i++)
		tlp[i] = (uint8_t)i;
	cr_assert_eq(nicref_pcie_lcrc(hdr, tlp, 12), 0x381E76CDu);
}

Test(pcie_crc, lcrc_matches_the_serial_reading_and_the_residue)
{
	uint8_t pkt[2 + 40 + 4];
	for (unsigned seq = 0; seq < 4096; seq += 257) {
		nicref_pcie_seqhdr((uint16_t)seq, 0, pkt);
		for (unsigned i = 0; i < 40; i++)
			pkt[2 + i] = (uint8_t)(seq * 7 + i * 31);
		uint32_t v = nicref_pcie_lcrc(pkt, pkt + 2, 40);
		uint8_t want[4];
		map_field(serial_crc(pkt, 42, 0x04C11DB7u, 32), 32, want);
		for (unsigned k = 0; k < 4; k++) /* the value's bytes little-endian */
			cr_assert_eq((uint8_t)(v >> (8 * k)), want[k], "seq %u byte %u", seq, k);
		memcpy(pkt + 42, want, 4);
		cr_assert_eq(nicref_pcie_crc32_update(0xFFFFFFFFu, pkt, sizeof pkt),
			     NICREF_PCIE_LCRC_RESIDUE, "residue, seq %u", seq);
	}
}

Test(pcie_crc, seqhdr_layout)
{
	/* T2 (L46-47): byte 0 = reserved(4) | seq[11:8], byte 1 = seq[7:0]. */
	uint8_t h[2];
	nicref_pcie_seqhdr(0xABC, 0x5, h);
	cr_assert_eq(h[0], 0x5A);
	cr_assert_eq(h[1], 0xBC);
}

Test(pcie_crc, dllp_known_answers)
{
	/* Computed with a reflected CRC-16 (D008h, initial FFFFh, complemented) in Python. */
	static const struct {
		uint8_t body[4];
		uint16_t crc;
	} kat[] = { { { 0x00, 0, 0, 0 }, 0x62B3 },
		    { { 0x10, 0, 0, 0 }, 0x0558 },
		    { { 0x00, 0, 0x0F, 0xFF }, 0xA825 },
		    { { 0x00, 0, 0, 0x05 }, 0x1796 } };
	for (unsigned i = 0; i < sizeof kat / sizeof kat[0]; i++)
		cr_assert_eq(nicref_pcie_dllp_crc(kat[i].body), kat[i].crc, "case %u", i);
}

Test(pcie_crc, dllp_matches_the_serial_reading)
{
	for (unsigned t = 0; t < 2; t++)
		for (unsigned seq = 0; seq < 4096; seq += 111) {
			struct nicref_pcie_dllp p = { .type = t ? 0x10 : 0x00, .seq = (uint16_t)seq,
						      .reserved = (uint16_t)(seq * 3 & 0xFFF) };
			uint8_t b[6], want[2];
			nicref_pcie_dllp_encode(&p, b);
			uint16_t v = nicref_pcie_dllp_crc(b);
			map_field(serial_crc(b, 4, 0x100Bu, 16), 16, want);
			cr_assert_eq(v & 0xFF, want[0], "seq %u", seq);
			cr_assert_eq(v >> 8, want[1], "seq %u", seq);
		}
}

Test(pcie_crc, dllp_codec)
{
	/* Ack/Nak: byte 0 type, bytes 1-3 reserved(12) | seq(12), bytes 4-5 the CRC value LE. */
	struct nicref_pcie_dllp p = { .type = 0x10, .reserved = 0xABC, .seq = 0x123, .crc = 0xBEEF };
	uint8_t b[6];
	nicref_pcie_dllp_encode(&p, b);
	const uint8_t want[6] = { 0x10, 0xAB, 0xC1, 0x23, 0xEF, 0xBE };
	cr_assert_arr_eq(b, want, 6);
	struct nicref_pcie_dllp q;
	nicref_pcie_dllp_decode(b, &q);
	cr_assert_eq(q.type, 0x10);
	cr_assert_eq(q.reserved, 0xABC);
	cr_assert_eq(q.seq, 0x123);
	cr_assert_eq(q.crc, 0xBEEF);
}
