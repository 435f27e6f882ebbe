/* BAR0 as the driver maps it: a mapping without access, so every load and store faults here
 * and reaches the model one access at a time, in program order (the method of Linux's
 * mmiotrace). The faulting instruction is decoded (x86_decode.c) and emulated: its register
 * or immediate goes to nicref_bar_write32, or nicref_bar_read32's value to its register, and
 * the instruction is skipped. An instruction the decoder does not know is run once over a
 * shadow of the page with the trap flag set: the dwords it may touch are read from the model
 * first, the dwords it changed are written to the model at the trap. Accesses narrower or
 * wider than a dword, or past the region, are violations (vfio_rules.h). Faults anywhere else
 * are the program's crash: recorded, then the default action. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "vfio/vfio.h"
#include "vfio/x86_decode.h"

#define VFIO_API __attribute__((visibility("default")))
#define GUARD VFIO_BAR_SIZE /* past the region: reads all ones, writes dropped */
#define TRAP_FLAG 0x100ull
#define SHADOW_LEN 128u

static size_t bar_len; /* the region's bytes as the driver mapped them */

/* The single-step in progress (at most one: the trap comes at the next instruction). */
static struct {
	int active;
	uint8_t *page;
	size_t at; /* offset in BAR0 of the shadowed chunk */
	uint8_t before[SHADOW_LEN];
} step;

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

static void *sys_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	return (void *)syscall(SYS_mmap, a, n, prot, flags, fd, off);
}

void *vfio_bar_mmap(size_t len, off_t off)
{
	if (off != 0 || len == 0 || len > VFIO_BAR_SIZE || vfio.bar) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	void *p = sys_mmap(NULL, len + GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return p;
	vfio.bar = p;
	vfio.bar_map_len = len + GUARD;
	bar_len = len;
	vfio_record("mmap bar0 0x%zx", len);
	return p;
}

int vfio_bar_owns(const void *addr, size_t len)
{
	const uint8_t *a = addr;
	return vfio.bar && a >= vfio.bar && a < vfio.bar + vfio.bar_map_len && len <= vfio.bar_map_len;
}

VFIO_API void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (vfio_fd_kind(fd) == VFD_DEVICE)
		return vfio_bar_mmap(len, off);
	return sys_mmap(addr, len, prot, flags, fd, off);
}

VFIO_API void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

VFIO_API int munmap(void *addr, size_t len)
{
	if (vfio.bar && addr == vfio.bar) {
		syscall(SYS_munmap, vfio.bar, vfio.bar_map_len);
		vfio.bar = NULL;
		vfio_record("munmap bar0");
		return 0;
	}
	return (int)syscall(SYS_munmap, addr, len);
}

/* One dword to or from the model, virtual time moving with it; the command queue address is
 * noted for the exit checks. `v` is the register's value (the PRM's bit numbering). */
static uint32_t bar_read(size_t off)
{
	vfio_time_advance(VFIO_BAR_STEP_NS);
	vfio.bar_accesses++;
	return nicref_bar_read32(vfio.dev, (uint32_t)off);
}

static void bar_write(size_t off, uint32_t v)
{
	vfio_time_advance(VFIO_BAR_STEP_NS);
	vfio.bar_accesses++;
	if (off == 0x10)
		vfio.cmdq_h = v;
	else if (off == 0x14)
		vfio.cmdq_iova = (uint64_t)vfio.cmdq_h << 32 | (v & 0xFFFFF000u);
	nicref_bar_write32(vfio.dev, (uint32_t)off, v);
}

/* Memory's view of a dword: the bytes the CPU loads are the register big-endian. */
static uint32_t mem_read32(size_t off)
{
	if (off >= bar_len)
		return 0xFFFFFFFFu;
	return bswap32(bar_read(off));
}

static const int gpr[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
			     REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
			     REG_R12, REG_R13, REG_R14, REG_R15 };

static uint64_t reg_get(const ucontext_t *uc, const struct x86_access *a)
{
	uint64_t v = (uint64_t)uc->uc_mcontext.gregs[gpr[a->reg]];
	return a->high8 ? (v >> 8) & 0xFF : v;
}

static void reg_set(ucontext_t *uc, const struct x86_access *a, uint64_t v)
{
	greg_t *r = &uc->uc_mcontext.gregs[gpr[a->reg]];
	uint64_t old = (uint64_t)*r;
	unsigned w = a->dst_width;
	if (a->extend == 2 && a->width < 8) { /* movsx: sign-extend from the access width */
		unsigned bits = 8 * a->width;
		if (v & (1ull << (bits - 1)))
			v |= ~0ull << bits;
	}
	if (a->high8)
		old = (old & ~0xFF00ull) | (v & 0xFF) << 8;
	else if (w == 1)
		old = (old & ~0xFFull) | (v & 0xFF);
	else if (w == 2)
		old = (old & ~0xFFFFull) | (v & 0xFFFF);
	else if (w == 4)
		old = v & 0xFFFFFFFFull; /* a 32-bit destination clears bits 63:32 */
	else
		old = v;
	*r = (greg_t)old;
}

static void context(char *buf, size_t len, const void *pc, const struct x86_access *a, size_t off,
		    const char *what)
{
	char where[128];
	vfio_where(pc, where, sizeof where);
	snprintf(buf, len, "%s of %u bytes at BAR0 0x%zx by %s", what, a->width, off, where);
}

/* A 64-bit store that is one doorbell write (PRM §7.2.2.2: "SQ/RQ and CQ DoorBells require
 * 64-bit writes"; §7.2.2.1: a Blue Flame buffer "must be written in chunks of DWORDs ... or
 * multiple DWORDs"): aligned, in a UAR page (past profile.uar_base pages, D-UAR-1), at the CQ
 * doorbell (T13 20h) or in the Blue Flame registers (800h-FFFh, whose buffers start with the
 * send doorbell). It reaches the model as its two dwords, lower address first, which is the
 * order §7.2.2.2 gives for a doorbell split in two; not BAR_WIDE (D-VFIO-8). Anything else wider
 * than a dword is. */
static int doorbell_quadword(const struct x86_access *a, size_t off)
{
	size_t in_page = off & 0xFFF;
	return a->kind != X86_LOAD && a->width == 8 && (off & 7) == 0 &&
	       off >= (size_t)vfio.profile.uar_base * 4096u && (in_page == 0x20 || in_page >= 0x800);
}

/* Emulates a decoded access. */
static void emulate(ucontext_t *uc, const void *pc, const struct x86_access *a, size_t off)
{
	char ctx[256];
	int load = a->kind == X86_LOAD;
	if (vfio.log_bar) {
		char where[128];
		vfio_where(pc, where, sizeof where);
		vfio_record("bar %s %u 0x%zx by %s", load ? "read" : "write", a->width, off, where);
	}
	if (off >= bar_len) {
		context(ctx, sizeof ctx, pc, a, off, load ? "read" : "write");
		vfio_violation(VFIO_RULE_BAR_BEYOND_SIZE, "%s (region 0x%zx bytes)", ctx, bar_len);
		if (load)
			reg_set(uc, a, ~0ull);
		return;
	}
	if (a->width != 4 && !doorbell_quadword(a, off)) {
		context(ctx, sizeof ctx, pc, a, off, load ? "read" : "write");
		vfio_violation(a->width < 4 ? VFIO_RULE_BAR_NARROW : VFIO_RULE_BAR_WIDE, "%s%s", ctx,
			       a->width < 4 && !load ? "; dropped" : "");
	}
	if (load) {
		uint64_t v;
		if (a->width == 4) {
			v = mem_read32(off);
		} else if (a->width == 8) {
			uint64_t lo = mem_read32(off);
			v = lo | (uint64_t)mem_read32(off + 4) << 32;
		} else { /* the lanes of the dword(s) covering the access */
			size_t base = off & ~(size_t)3;
			uint64_t d = mem_read32(base);
			if ((off & 3) + a->width > 4)
				d |= (uint64_t)mem_read32(base + 4) << 32;
			v = (d >> (8 * (off & 3))) & (a->width == 1 ? 0xFFu : 0xFFFFu);
		}
		reg_set(uc, a, v);
		return;
	}
	uint64_t v = a->kind == X86_STORE_IMM ? a->imm : reg_get(uc, a);
	if (a->width == 4) {
		bar_write(off, bswap32((uint32_t)v));
	} else if (a->width == 8) {
		bar_write(off, bswap32((uint32_t)v));
		bar_write(off + 4, bswap32((uint32_t)(v >> 32)));
	}
	/* narrower: dropped (reported above) */
}

static void chain_default(int sig)
{
	signal(sig, SIG_DFL);
}

static void crash(int sig, const siginfo_t *si, const ucontext_t *uc)
{
	char where[128] = "?";
	if (uc)
		vfio_where((const void *)uc->uc_mcontext.gregs[REG_RIP], where, sizeof where);
	vfio_record("crash %d addr 0x%llx at %s", sig,
		    si ? (unsigned long long)(uintptr_t)si->si_addr : 0ull, where);
}

/* The unknown form: run it once over the shadow of its page. */
static void single_step(ucontext_t *uc, const uint8_t *pc, size_t off)
{
	char where[128];
	vfio_where(pc, where, sizeof where);
	vfio_violation(VFIO_RULE_BAR_UNDECODABLE,
		       "instruction %02x %02x %02x %02x %02x %02x at BAR0 0x%zx by %s; single-stepped",
		       pc[0], pc[1], pc[2], pc[3], pc[4], pc[5], off, where);
	size_t at = off & ~(size_t)63;
	if (at + SHADOW_LEN > bar_len)
		at = bar_len - SHADOW_LEN;
	uint8_t *page = vfio.bar + (off & ~(size_t)4095);
	mprotect(page, 4096, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < SHADOW_LEN; i += 4) {
		uint32_t v = mem_read32(at + i);
		memcpy(vfio.bar + at + i, &v, 4);
	}
	memcpy(step.before, vfio.bar + at, SHADOW_LEN);
	step.active = 1;
	step.page = page;
	step.at = at;
	uc->uc_mcontext.gregs[REG_EFL] |= (greg_t)TRAP_FLAG;
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	if (!step.active) {
		crash(sig, si, uc);
		chain_default(sig);
		raise(sig);
		return;
	}
	for (size_t i = 0; i < SHADOW_LEN; i += 4) {
		uint32_t now;
		memcpy(&now, vfio.bar + step.at + i, 4);
		if (memcmp(&now, step.before + i, 4) != 0)
			bar_write(step.at + i, bswap32(now));
	}
	memset(step.page, 0, 4096);
	mprotect(step.page, 4096, PROT_NONE);
	step.active = 0;
	uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
}

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	const uint8_t *addr = si->si_addr;
	if (!vfio_bar_owns(addr, 1) || !vfio.dev) {
		crash(sig, si, uc);
		chain_default(sig); /* the access faults again, now fatally */
		return;
	}
	vfio_wire_tick(); /* an injection pending since the last command happens first */
	const uint8_t *pc = (const uint8_t *)uc->uc_mcontext.gregs[REG_RIP];
	size_t off = (size_t)(addr - vfio.bar);
	struct x86_access a;
	x86_decode(pc, 15, &a);
	if (a.kind == X86_UNKNOWN) {
		if (off >= bar_len) {
			crash(sig, si, uc);
			chain_default(sig);
			return;
		}
		single_step(uc, pc, off);
		return;
	}
	emulate(uc, pc, &a, off);
	uc->uc_mcontext.gregs[REG_RIP] += a.len;
}

static void on_fatal(int sig, siginfo_t *si, void *ucv)
{
	crash(sig, si, ucv);
	chain_default(sig);
	raise(sig);
}

void vfio_bar_install_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	sa.sa_sigaction = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	sa.sa_sigaction = on_fatal;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
}
