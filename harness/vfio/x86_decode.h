/* The x86-64 memory-access instructions a driver's MMIO accessors compile to (mov loads and
 * stores of 8 to 64 bits, mov of an immediate, movzx/movsx loads), decoded from their bytes
 * so that a faulting BAR0 access can be emulated one access at a time. Anything else is
 * X86_UNKNOWN, and the front end single-steps it instead (vfio_bar.c). Pure: no state. */
#ifndef NICREF_X86_DECODE_H
#define NICREF_X86_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum x86_kind { X86_UNKNOWN, X86_LOAD, X86_STORE_REG, X86_STORE_IMM };

struct x86_access {
	enum x86_kind kind;
	unsigned len;   /* bytes of the instruction */
	unsigned width; /* bytes the memory access moves: 1, 2, 4 or 8 */
	/* the register loaded or stored: 0-15 as ModRM.reg with REX.R (rax, rcx, rdx, rbx,
	 * rsp, rbp, rsi, rdi, r8-r15); high8 for ah, ch, dh, bh (4-7 without a REX prefix) */
	unsigned reg;
	int high8;
	/* a load's destination size in bytes (movzx/movsx: wider than width) and how it
	 * extends: 0 mov (a 4-byte destination clears bits 63:32, 1 and 2 keep them), 1 zero,
	 * 2 sign */
	unsigned dst_width;
	int extend;
	uint64_t imm; /* a store's immediate, sign-extended to width as the CPU does */
};

/* Decodes the instruction at code[0..avail). */
void x86_decode(const uint8_t *code, size_t avail, struct x86_access *out);

#endif
