/* The VFIO front end's instruction decoder (harness/vfio/x86_decode.c): the load and store
 * forms a driver's MMIO accessors compile to, each with its length, width and register, and
 * forms it must leave to the single-step fallback. Encodings from the Intel SDM Vol. 2
 * (MOV, MOVZX, MOVSX), as objdump prints them for Debian's libmlx5.so.1. */
#include <criterion/criterion.h>

#include "vfio/x86_decode.h"

static struct x86_access dec(const uint8_t *code, size_t n)
{
	struct x86_access a;
	x86_decode(code, n, &a);
	return a;
}

Test(x86_decode, mov_load_r32_disp32)
{
	/* 8b 87 fc 01 00 00: mov 0x1fc(%rdi),%eax */
	const uint8_t c[] = { 0x8b, 0x87, 0xfc, 0x01, 0x00, 0x00 };
	struct x86_access a = dec(c, sizeof c);
	cr_expect_eq(a.kind, X86_LOAD);
	cr_expect_eq(a.len, 6);
	cr_expect_eq(a.width, 4);
	cr_expect_eq(a.dst_width, 4);
	cr_expect_eq(a.reg, 0, "eax");
}

Test(x86_decode, mov_load_disp8_and_rex_r)
{
	/* 8b 4a 14: mov 0x14(%rdx),%ecx */
	const uint8_t c1[] = { 0x8b, 0x4a, 0x14 };
	struct x86_access a = dec(c1, sizeof c1);
	cr_expect_eq(a.len, 3);
	cr_expect_eq(a.reg, 1, "ecx");
	/* 44 8b 42 10: mov 0x10(%rdx),%r8d */
	const uint8_t c2[] = { 0x44, 0x8b, 0x42, 0x10 };
	a = dec(c2, sizeof c2);
	cr_expect_eq(a.len, 4);
	cr_expect_eq(a.reg, 8, "r8d");
	cr_expect_eq(a.width, 4);
}

Test(x86_decode, mov_store_and_wide_store)
{
	/* 89 93 fc 01 00 00: mov %edx,0x1fc(%rbx) */
	const uint8_t c1[] = { 0x89, 0x93, 0xfc, 0x01, 0x00, 0x00 };
	struct x86_access a = dec(c1, sizeof c1);
	cr_expect_eq(a.kind, X86_STORE_REG);
	cr_expect_eq(a.width, 4);
	cr_expect_eq(a.reg, 2, "edx");
	/* 48 89 8a 30 02 00 00: mov %rcx,0x230(%rdx): 8 bytes (BAR_WIDE) */
	const uint8_t c2[] = { 0x48, 0x89, 0x8a, 0x30, 0x02, 0x00, 0x00 };
	a = dec(c2, sizeof c2);
	cr_expect_eq(a.width, 8);
	cr_expect_eq(a.len, 7);
	cr_expect_eq(a.reg, 1, "rcx");
}

Test(x86_decode, sib_and_sixteen_bit)
{
	/* 8b 04 24: mov (%rsp),%eax — a SIB byte, no displacement */
	const uint8_t c1[] = { 0x8b, 0x04, 0x24 };
	cr_expect_eq(dec(c1, sizeof c1).len, 3);
	/* 66 89 47 08: mov %ax,0x8(%rdi) — 16 bits (BAR_NARROW) */
	const uint8_t c2[] = { 0x66, 0x89, 0x47, 0x08 };
	struct x86_access a = dec(c2, sizeof c2);
	cr_expect_eq(a.width, 2);
	cr_expect_eq(a.len, 4);
}

Test(x86_decode, immediates)
{
	/* c7 40 18 01 00 00 00: movl $0x1,0x18(%rax) */
	const uint8_t c1[] = { 0xc7, 0x40, 0x18, 0x01, 0x00, 0x00, 0x00 };
	struct x86_access a = dec(c1, sizeof c1);
	cr_expect_eq(a.kind, X86_STORE_IMM);
	cr_expect_eq(a.len, 7);
	cr_expect_eq(a.width, 4);
	cr_expect_eq(a.imm, 1);
	/* 48 c7 00 ff ff ff ff: movq $-1,(%rax): the imm32 sign-extended to 64 bits */
	const uint8_t c2[] = { 0x48, 0xc7, 0x00, 0xff, 0xff, 0xff, 0xff };
	a = dec(c2, sizeof c2);
	cr_expect_eq(a.width, 8);
	cr_expect_eq(a.imm, 0xFFFFFFFFFFFFFFFFull);
	/* c6 40 3f 01: movb $0x1,0x3f(%rax) */
	const uint8_t c3[] = { 0xc6, 0x40, 0x3f, 0x01 };
	a = dec(c3, sizeof c3);
	cr_expect_eq(a.width, 1);
	cr_expect_eq(a.len, 4);
	cr_expect_eq(a.imm, 1);
}

Test(x86_decode, byte_registers_and_extension)
{
	/* 8a 67 10: mov 0x10(%rdi),%ah — high byte without REX */
	const uint8_t c1[] = { 0x8a, 0x67, 0x10 };
	struct x86_access a = dec(c1, sizeof c1);
	cr_expect(a.high8);
	cr_expect_eq(a.reg, 0, "ah is rax's byte 1");
	/* 40 8a 77 10: mov 0x10(%rdi),%sil — with REX, 6 is sil */
	const uint8_t c2[] = { 0x40, 0x8a, 0x77, 0x10 };
	a = dec(c2, sizeof c2);
	cr_expect(!a.high8);
	cr_expect_eq(a.reg, 6);
	/* 0f b6 94 24 30 02 00 00: movzbl 0x230(%rsp),%edx — movzx's destination is edx */
	const uint8_t c3[] = { 0x0f, 0xb6, 0x94, 0x24, 0x30, 0x02, 0x00, 0x00 };
	a = dec(c3, sizeof c3);
	cr_expect_eq(a.kind, X86_LOAD);
	cr_expect_eq(a.len, 8);
	cr_expect_eq(a.width, 1);
	cr_expect_eq(a.dst_width, 4);
	cr_expect_eq(a.extend, 1);
	cr_expect(!a.high8, "edx, not dh");
	cr_expect_eq(a.reg, 2);
	/* 48 0f bf 47 04: movswq 0x4(%rdi),%rax */
	const uint8_t c4[] = { 0x48, 0x0f, 0xbf, 0x47, 0x04 };
	a = dec(c4, sizeof c4);
	cr_expect_eq(a.width, 2);
	cr_expect_eq(a.dst_width, 8);
	cr_expect_eq(a.extend, 2);
}

Test(x86_decode, left_to_single_step)
{
	/* 41 80 be fc 01 00 00 00: cmpb $0x0,0x1fc(%r14) — libmlx5's initializing poll */
	const uint8_t c1[] = { 0x41, 0x80, 0xbe, 0xfc, 0x01, 0x00, 0x00, 0x00 };
	cr_expect_eq(dec(c1, sizeof c1).kind, X86_UNKNOWN);
	/* f0 89 07: lock mov — a prefix the decoder does not take */
	const uint8_t c2[] = { 0xf0, 0x89, 0x07 };
	cr_expect_eq(dec(c2, sizeof c2).kind, X86_UNKNOWN);
	/* 89 c0: mov %eax,%eax — no memory operand */
	const uint8_t c3[] = { 0x89, 0xc0 };
	cr_expect_eq(dec(c3, sizeof c3).kind, X86_UNKNOWN);
	/* c7 48 18 ...: C7 /1 is not a mov */
	const uint8_t c4[] = { 0xc7, 0x48, 0x18, 0x01, 0x00, 0x00, 0x00 };
	cr_expect_eq(dec(c4, sizeof c4).kind, X86_UNKNOWN);
	/* truncated: the displacement runs past the bytes given */
	const uint8_t c5[] = { 0x8b, 0x87, 0xfc };
	cr_expect_eq(dec(c5, sizeof c5).kind, X86_UNKNOWN);
	/* 65 8b 04 25 28 00 00 00: mov %gs:0x28,%eax — a segment the decoder does not take */
	const uint8_t c6[] = { 0x65, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00 };
	cr_expect_eq(dec(c6, sizeof c6).kind, X86_UNKNOWN);
}

/* The stores of libmlx5's send path (post_send, for verbs QPs; the DevX program of M2 makes
 * the same ones), as objdump prints them for Debian's libmlx5.so.1 44.0: the doorbell, one
 * quadword through base + index (+0x4c84d), and the Blue Flame copy, eight quadword movs with
 * an 8-bit displacement (+0x4c93e ... +0x4c97a; rdma-core's mmio_memcpy_x64 on x86-64). No
 * SSE or AVX store: the decoder needs no vector form (docs/drivers.md, D-VFIO-8). */
Test(x86_decode, libmlx5_doorbell_and_blue_flame_stores)
{
	/* 48 89 0c 02: mov %rcx,(%rdx,%rax,1) */
	const uint8_t db[] = { 0x48, 0x89, 0x0c, 0x02 };
	struct x86_access a = dec(db, sizeof db);
	cr_expect_eq(a.kind, X86_STORE_REG);
	cr_expect_eq(a.width, 8);
	cr_expect_eq(a.len, 4);
	cr_expect_eq(a.reg, 1, "rcx");
	/* 48 89 50 c0: mov %rdx,-0x40(%rax) */
	const uint8_t bf0[] = { 0x48, 0x89, 0x50, 0xc0 };
	a = dec(bf0, sizeof bf0);
	cr_expect_eq(a.kind, X86_STORE_REG);
	cr_expect_eq(a.width, 8);
	cr_expect_eq(a.len, 4);
	cr_expect_eq(a.reg, 2, "rdx");
	/* 48 89 71 38: mov %rsi,0x38(%rcx) */
	const uint8_t bf7[] = { 0x48, 0x89, 0x71, 0x38 };
	a = dec(bf7, sizeof bf7);
	cr_expect_eq(a.width, 8);
	cr_expect_eq(a.len, 4);
	cr_expect_eq(a.reg, 6, "rsi");
}
