/* A hostile device under test for make dut-check (harness/tests/dut_check.sh; docs/dut.md "A
 * DUT that crashes or hangs"): forwards every call to the DUT library named by $REAL_DUT
 * (libnicref_dut.so) and misbehaves as -DMODE says (from the session-30 review of the DUT
 * interface):
 *   1 crash:  SIGSEGV in the 40th bar_write32
 *   3 frame_in returns 0 for a port the device does not have (nicref/dut.h: -1)
 *   4 hang:   the 40th bar_write32 never returns
 *   5 create returns NULL (refuses every configuration)
 *   7 the first DMA write of the process has the top bit of its last byte flipped (in the
 *     setup of nicref replay: ENABLE_HCA's output) */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicref/dut.h"

static const struct nicref_dut_ops *real;
static unsigned nwrites;
struct nicref_dut {
	struct nicref_dut *inner;
	struct nicref_dut_host host;
};

static int load(void)
{
	if (real)
		return 0;
	const char *path = getenv("REAL_DUT");
	void *h = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	void *s = h ? dlsym(h, NICREF_DUT_ENTRY_SYMBOL) : NULL;
	if (!s) {
		fprintf(stderr, "dut_hostile: REAL_DUT: %s\n", path ? dlerror() : "not set");
		return -1;
	}
	nicref_dut_entry_fn *e;
	memcpy(&e, &s, sizeof e);
	real = e();
	return 0;
}

static int rd(void *c, uint64_t a, void *b, size_t l)
{
	struct nicref_dut *d = c;
	return d->host.dma_read(d->host.ctx, a, b, l);
}

static int wr(void *c, uint64_t a, const void *b, size_t l)
{
	struct nicref_dut *d = c;
#if MODE == 7
	static int done;
	if (!done && l > 0 && l <= 4096) {
		uint8_t t[4096];
		memcpy(t, b, l);
		t[l - 1] ^= 0x80;
		done = 1;
		return d->host.dma_write(d->host.ctx, a, t, l);
	}
#endif
	return d->host.dma_write(d->host.ctx, a, b, l);
}

static void fo(void *c, unsigned p, const uint8_t *f, size_t l)
{
	struct nicref_dut *d = c;
	d->host.frame_out(d->host.ctx, p, f, l);
}

static void irq(void *c, unsigned v)
{
	struct nicref_dut *d = c;
	d->host.interrupt(d->host.ctx, v);
}

static struct nicref_dut *create(const struct nicref_dut_host *host,
				 const struct nicref_dut_config *cfg)
{
	if (MODE == 5 || load() != 0)
		return NULL;
	struct nicref_dut *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->host = *host;
	struct nicref_dut_host mine = { d, rd, wr, fo, irq };
	if (!(d->inner = real->create(&mine, cfg))) {
		free(d);
		return NULL;
	}
	return d;
}

static void destroy(struct nicref_dut *d)
{
	real->destroy(d->inner);
	free(d);
}

static void reset(struct nicref_dut *d)
{
	real->reset(d->inner);
}

static uint32_t r32(struct nicref_dut *d, uint32_t o)
{
	return real->bar_read32(d->inner, o);
}

static void w32(struct nicref_dut *d, uint32_t o, uint32_t v)
{
	if (++nwrites == 40) {
		if (MODE == 1)
			raise(SIGSEGV);
		while (MODE == 4)
			;
	}
	real->bar_write32(d->inner, o, v);
}

static int fin(struct nicref_dut *d, unsigned p, const uint8_t *f, size_t l)
{
	int rc = real->frame_in(d->inner, p, f, l);
	return MODE == 3 ? 0 : rc;
}

static void adv(struct nicref_dut *d, uint64_t ns)
{
	real->time_advance(d->inner, ns);
}

static const struct nicref_dut_ops ops = { NICREF_DUT_ABI_VERSION, sizeof(struct nicref_dut_ops),
					   "hostile", create, destroy, reset, r32, w32, fin, adv };
NICREF_DUT_ENTRY
{
	return &ops;
}
