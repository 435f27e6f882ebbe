/* make bench: CQs and SQs at scale (issue 4 item 6), through the command queue as a driver
 * creates them (the reference driver, harness/driver_*.c):
 *  - CREATE_CQ per second up to 100,000 live CQs on one EQ, and the heap bytes per live CQ
 *    (what the model allocated for them: object, tables, ICM page bookkeeping), measured with
 *    glibc's mallinfo2 around the creates;
 *  - the same for CREATE_SQ: 100,000 live SQs on one CQ, TIS, PD and UAR;
 *  - the time of one full device reset (nicref_dev_reset) that frees them all.
 * The device profile raises the object counts to 2^17 (log_max_objects) and the ICM pages to
 * what 100,000 contexts need (64 per page, D-PG-4). */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "nicref/nicref.h"

#define LIVE 100000u

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

/* ALLOC_PD / ALLOC_TRANSPORT_DOMAIN: 16-byte input, the handle at output 08h[23:0]. */
static uint32_t alloc_handle(struct refdrv *d, unsigned opcode)
{
	uint8_t in[16] = { (uint8_t)(opcode >> 8), (uint8_t)opcode }, out[16];
	if (refdrv_cmd(d, in, sizeof in, out, sizeof out) != 0)
		return 0;
	return (uint32_t)out[9] << 16 | (uint32_t)out[10] << 8 | out[11]; /* 08h[23:0] */
}

static struct nicref_dev *device(struct refdrv *d)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.log_max_objects = 17;
	cfg.profile.max_icm_pages = 8192;
	cfg.profile.hostmem_max_pages = 65536;
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	if (!dev)
		return NULL;
	struct refdrv_ops ops = refdrv_ops_model(dev);
	if (refdrv_init(d, &ops) != 0 || refdrv_bring_up(d, REFDRV_INITIALIZED) != 0) {
		fprintf(stderr, "ctrl_bench: bring-up failed: %s\n", d->error);
		return NULL;
	}
	return dev;
}

static int eq_for(struct refdrv *d, uint32_t uar, uint32_t *eqn)
{
	struct refdrv_eq_attr ea = { .buf = 0x60000000ull, .log_eq_size = 6, .uar = uar };
	struct refdrv_eq eq;
	if (refdrv_create_eq(d, &ea, &eq) != 0)
		return -1;
	*eqn = eq.eqn;
	return 0;
}

static void report(const char *what, double s, size_t before, size_t after, double reset_s)
{
	printf("%-10s %u live: %.0f creates/s (%.3f s), %.0f heap bytes per live object, "
	       "device reset %.3f ms\n",
	       what, LIVE, LIVE / s, s, (double)(after - before) / LIVE, reset_s * 1e3);
}

static int bench_cq(void)
{
	struct refdrv d;
	struct nicref_dev *dev = device(&d);
	uint32_t uar, eqn;
	if (!dev || refdrv_alloc_uar(&d, &uar) != 0 || eq_for(&d, uar, &eqn) != 0)
		return -1;
	/* Every CQ of 64 CQEs shares one buffer: CREATE_CQ does not read it (§7.12.1). */
	struct refdrv_cq_attr a = { .buf = 0x61000000ull, .dbr = 0x62000000ull, .log_cq_size = 6,
				    .uar = uar, .eqn = eqn };
	size_t before = heap_in_use();
	double t0 = seconds();
	for (uint32_t i = 0; i < LIVE; i++) {
		struct refdrv_cq cq;
		if (refdrv_create_cq(&d, &a, &cq) != 0) {
			fprintf(stderr, "ctrl_bench: CREATE_CQ %u failed: %s\n", i, d.error);
			return -1;
		}
	}
	double s = seconds() - t0;
	size_t after = heap_in_use();
	t0 = seconds();
	nicref_dev_reset(dev);
	double reset_s = seconds() - t0;
	report("CQ", s, before, after, reset_s);
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
	return 0;
}

static int bench_sq(void)
{
	struct refdrv d;
	struct nicref_dev *dev = device(&d);
	uint32_t uar, eqn, tisn;
	if (!dev || refdrv_alloc_uar(&d, &uar) != 0 || eq_for(&d, uar, &eqn) != 0)
		return -1;
	uint32_t pd = alloc_handle(&d, NICREF_OP_ALLOC_PD);
	uint32_t td = alloc_handle(&d, NICREF_OP_ALLOC_TRANSPORT_DOMAIN);
	struct refdrv_cq_attr ca = { .buf = 0x61000000ull, .dbr = 0x62000000ull,
				     .log_cq_size = 6, .uar = uar, .eqn = eqn };
	struct refdrv_cq cq;
	if (!pd || !td || refdrv_create_cq(&d, &ca, &cq) != 0 ||
	    refdrv_create_tis(&d, td, 0, &tisn) != 0)
		return -1;
	struct refdrv_sq_attr a = {
		.wq = { .buf = 0x63000000ull, .dbr = 0x64000000ull, .wq_type = 1, .log_wq_sz = 6,
			.log_wq_stride = 6, .pd = pd },
		.cqn = cq.cqn, .tisn = tisn, .uar = uar, .min_wqe_inline_mode = 1,
	};
	size_t before = heap_in_use();
	double t0 = seconds();
	for (uint32_t i = 0; i < LIVE; i++) {
		uint32_t sqn;
		if (refdrv_create_sq(&d, &a, &sqn) != 0) {
			fprintf(stderr, "ctrl_bench: CREATE_SQ %u failed: %s\n", i, d.error);
			return -1;
		}
	}
	double s = seconds() - t0;
	size_t after = heap_in_use();
	t0 = seconds();
	nicref_dev_reset(dev);
	double reset_s = seconds() - t0;
	report("SQ", s, before, after, reset_s);
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
	return 0;
}

int main(void)
{
	if (bench_cq() != 0 || bench_sq() != 0) {
		fprintf(stderr, "ctrl_bench: failed\n");
		return 1;
	}
	return 0;
}
