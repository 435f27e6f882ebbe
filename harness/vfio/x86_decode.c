/* x86-64 decoding of the MMIO load and store forms (Intel SDM Vol. 2, "Instruction Format";
 * MOV 88/89/8A/8B/C6/C7, MOVZX 0F B6/B7, MOVSX 0F BE/BF). Prefixes understood: 66
 * (operand size), REX; the data-segment overrides 2E/3E/26/36 are ignored as the CPU does in
 * 64-bit mode; anything else (LOCK, REP, FS/GS, VEX, SSE) is X86_UNKNOWN. */
#include <string.h>

#include "vfio/x86_decode.h"

/* Bytes of ModRM, SIB and displacement from the ModRM byte at m; 0 for a register operand
 * (mod 3: no memory access) or when the bytes run out. */
static unsigned modrm_len(const uint8_t *m, size_t avail)
{
	if (avail < 1)
		return 0;
	unsigned mod = m[0] >> 6, rm = m[0] & 7, n = 1;
	if (mod == 3)
		return 0;
	if (rm == 4) { /* SIB */
		if (avail < 2)
			return 0;
		n++;
		if (mod == 0 && (m[1] & 7) == 5)
			n += 4; /* no base: disp32 */
	} else if (mod == 0 && rm == 5) {
		n += 4; /* RIP-relative disp32 */
	}
	n += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return n <= avail ? n : 0;
}

static uint64_t imm_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void x86_decode(const uint8_t *code, size_t avail, struct x86_access *out)
{
	memset(out, 0, sizeof *out);
	size_t i = 0;
	int opsize16 = 0;
	unsigned rex = 0;
	for (; i < avail && i < 14; i++) {
		uint8_t b = code[i];
		if (b == 0x66)
			opsize16 = 1;
		else if (b == 0x2E || b == 0x3E || b == 0x26 || b == 0x36)
			continue;
		else
			break;
	}
	if (i < avail && (code[i] & 0xF0) == 0x40)
		rex = code[i++];
	if (i >= avail)
		return;
	int rex_w = (rex >> 3) & 1, rex_r = (rex >> 2) & 1;
	unsigned full = rex_w ? 8 : opsize16 ? 2 : 4;
	uint8_t op = code[i++];
	unsigned width = 0, dst = 0, imm_n = 0;
	int extend = 0;
	enum x86_kind kind = X86_UNKNOWN;
	switch (op) {
	case 0x88: kind = X86_STORE_REG, width = 1; break;
	case 0x89: kind = X86_STORE_REG, width = full; break;
	case 0x8A: kind = X86_LOAD, width = dst = 1; break;
	case 0x8B: kind = X86_LOAD, width = dst = full; break;
	case 0xC6: kind = X86_STORE_IMM, width = 1, imm_n = 1; break;
	case 0xC7: kind = X86_STORE_IMM, width = full, imm_n = full == 2 ? 2 : 4; break;
	case 0x0F:
		if (i >= avail)
			return;
		op = code[i++];
		if (op != 0xB6 && op != 0xB7 && op != 0xBE && op != 0xBF)
			return;
		kind = X86_LOAD;
		width = (op & 1) ? 2 : 1;
		dst = full;
		extend = op >= 0xBE ? 2 : 1;
		break;
	default:
		return;
	}
	unsigned ml = modrm_len(code + i, avail - i);
	if (ml == 0)
		return;
	unsigned reg = (code[i] >> 3) & 7;
	if (kind == X86_STORE_IMM && reg != 0)
		return; /* C6/C7 /0 only */
	i += ml;
	if (i + imm_n > avail)
		return;
	out->kind = kind;
	out->width = width;
	out->dst_width = dst;
	out->extend = extend;
	out->reg = reg | (unsigned)rex_r << 3;
	/* a byte register operand (88, 8A; not movzx's destination): 4-7 are ah-bh without REX */
	int byte_reg = (kind == X86_STORE_REG && width == 1) || (kind == X86_LOAD && dst == 1);
	out->high8 = byte_reg && !rex && reg >= 4;
	if (out->high8)
		out->reg = reg - 4;
	if (imm_n) {
		uint64_t v = imm_le(code + i, imm_n);
		if (imm_n == 4 && width == 8 && (v & 0x80000000u))
			v |= 0xFFFFFFFF00000000ull; /* C7 with REX.W: imm32 sign-extended */
		out->imm = v;
		i += imm_n;
	}
	out->len = (unsigned)i;
}
