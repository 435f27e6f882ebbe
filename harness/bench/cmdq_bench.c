/* make bench: commands per second through the whole transport, and the cost of a reset. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmdbuild.h"
#include "nicref/nicref.h"

static int hw(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	return nicref_hostmem_write(ctx, addr, buf, len);
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double run_nops(struct nicref_dev *dev, uint32_t out_len, long n)
{
	uint8_t in[16] = { 0x08, 0x0D };
	struct cmd_post p = { .entry_addr = 0x10000, .in = in, .in_len = 16, .input_length = 16,
			      .output_length = out_len, .in_mbox = 0x100000, .out_mbox = 0x800000,
			      .token = 1, .sign = true };
	double t0 = seconds();
	for (long i = 0; i < n; i++) {
		cmd_post_write(&p, hw, dev);
		nicref_bar_write32(dev, 0x18, 1);
	}
	return (double)n / (seconds() - t0);
}

int main(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	if (!dev)
		return 1;
	nicref_bar_write32(dev, 0x10, 0);
	nicref_bar_write32(dev, 0x14, 0x10000);
	printf("NOP, inline only:            %10.0f commands/s\n", run_nops(dev, 16, 200000));
	printf("NOP, 3-block output chain:   %10.0f commands/s\n", run_nops(dev, 16 + 3 * 512, 50000));
	long n = 200000;
	double t0 = seconds();
	for (long i = 0; i < n; i++)
		nicref_dev_reset(dev);
	printf("device reset:                %10.1f ns\n", (seconds() - t0) / (double)n * 1e9);
	nicref_dev_destroy(dev);
	return 0;
}
