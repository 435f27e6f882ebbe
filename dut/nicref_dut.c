/* libnicref as a device under test (libnicref_dut.so): the DUT interface of nicref/dut.h over
 * libnicref's public API, nothing more. Loading it with `nicref vectors --dut` or NICREF_DUT
 * compares libnicref with itself through every path the differential engine has, so a
 * difference it reports is the engine's or the interface's, never the model's; the mutants of
 * harness/tests/mutants/ are this adapter over a model with one deliberate bug. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicref/dut.h"
#include "nicref/nicref.h"

struct nicref_dut {
	struct nicref_dev *dev;
	struct nicref_dut_host host;
};

static int on_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct nicref_dut *d = ctx;
	return d->host.dma_read ? d->host.dma_read(d->host.ctx, addr, buf, len) : -1;
}

static int on_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct nicref_dut *d = ctx;
	return d->host.dma_write ? d->host.dma_write(d->host.ctx, addr, buf, len) : -1;
}

static void on_frame(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	struct nicref_dut *d = ctx;
	if (d->host.frame_out)
		d->host.frame_out(d->host.ctx, port, frame, len);
}

static void on_interrupt(void *ctx, unsigned vector)
{
	struct nicref_dut *d = ctx;
	if (d->host.interrupt)
		d->host.interrupt(d->host.ctx, vector);
}

/* The lowered capabilities point into the caller's layout tables: set them again by name, into
 * this library's own (nicref_profile_cap_set). */
static int caps_by_name(struct nicref_profile *to, const struct nicref_profile *from)
{
	to->ncaps = 0;
	for (unsigned i = 0; i < from->ncaps && i < NICREF_MAX_CAP_SETTINGS; i++) {
		const struct nicref_cap_setting *c = &from->caps[i];
		char path[256];
		size_t at = 0;
		for (unsigned k = 0; k < 2 && c->at[k]; k++)
			at += (size_t)snprintf(path + at, sizeof path - at, "%s.", c->at[k]->name);
		snprintf(path + at, sizeof path - at, "%s", c->field->name);
		if (nicref_profile_cap_set(to, c->layout->name, path, c->value) != NICREF_CAP_SET_OK)
			return -1;
	}
	return 0;
}

static struct nicref_dut *dut_create(const struct nicref_dut_host *host,
				     const struct nicref_dut_config *cfg)
{
	struct nicref_config c;
	nicref_config_default(&c);
	if (cfg) {
		/* The profile is ours only when the caller lays it out as this build does. */
		if (cfg->size < sizeof *cfg ||
		    cfg->nicref_version != (NICREF_VERSION_MAJOR << 16 | NICREF_VERSION_MINOR << 8 |
					    NICREF_VERSION_PATCH))
			return NULL;
		if (cfg->profile) {
			if (cfg->profile_size != sizeof c.profile)
				return NULL;
			memcpy(&c.profile, cfg->profile, sizeof c.profile);
			if (caps_by_name(&c.profile, cfg->profile) != 0)
				return NULL;
		}
		c.seed = cfg->seed;
	}
	struct nicref_dut *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	if (host)
		d->host = *host;
	c.ops = (struct nicref_host_ops){ d, on_dma_read, on_dma_write, on_frame, on_interrupt };
	if (!(d->dev = nicref_dev_create(&c))) {
		free(d);
		return NULL;
	}
	return d;
}

static void dut_destroy(struct nicref_dut *d)
{
	if (!d)
		return;
	nicref_dev_destroy(d->dev);
	free(d);
}

static void dut_reset(struct nicref_dut *d)
{
	nicref_dev_reset(d->dev);
}

static uint32_t dut_bar_read32(struct nicref_dut *d, uint32_t offset)
{
	return nicref_bar_read32(d->dev, offset);
}

static void dut_bar_write32(struct nicref_dut *d, uint32_t offset, uint32_t value)
{
	nicref_bar_write32(d->dev, offset, value);
}

static int dut_frame_in(struct nicref_dut *d, unsigned port, const uint8_t *frame, size_t len)
{
	return nicref_wire_rx(d->dev, port, frame, len);
}

static void dut_time_advance(struct nicref_dut *d, uint64_t ns)
{
	nicref_clock_advance(d->dev, ns);
}

static const struct nicref_dut_ops ops = {
	.abi_version = NICREF_DUT_ABI_VERSION,
	.size = sizeof(struct nicref_dut_ops),
	.name = "libnicref " NICREF_VERSION_STRING,
	.create = dut_create,
	.destroy = dut_destroy,
	.reset = dut_reset,
	.bar_read32 = dut_bar_read32,
	.bar_write32 = dut_bar_write32,
	.frame_in = dut_frame_in,
	.time_advance = dut_time_advance,
};

NICREF_DUT_ENTRY
{
	return &ops;
}
