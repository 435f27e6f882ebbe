/* make bench: the object tables (reference/obj/objtab.h) at scale (issue 4 item 6).
 *
 *  - objtab alone, a table of 2^24 handles: allocations per second up to 100,000 live handles,
 *    the table's own bytes per live handle (objtab_bytes; the objects themselves belong to
 *    their types), lookups per second of live handles in a scattered order, removals per
 *    second;
 *  - a device with 100,000 live PDs (profile.log_max_pd = 17, ALLOC_PD through the reference
 *    driver's command queue): ALLOC_PD commands per second and the time of one full device
 *    reset (nicref_dev_reset) that frees them, against the reset of an idle device. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "driver.h"
#include "nicref/nicref.h"
#include "obj/objtab.h"

#define LIVE 100000u
#define ROUNDS 5
#define LOOKUPS 10000000u

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- objtab alone ------------------------------------------------------------------------ */

static int bench_objtab(void)
{
	static char objs[LIVE]; /* the table stores pointers; any distinct ones will do */
	struct objtab t;
	if (objtab_init(&t, 1u << OBJTAB_MAX_LOG) != 0)
		return -1;
	uint64_t empty_bytes = objtab_bytes(&t);
	double alloc_s = 0, remove_s = 0;
	uint64_t bytes = 0;
	for (int r = 0; r < ROUNDS; r++) {
		objtab_reset(&t, 1, 1u << OBJTAB_MAX_LOG, NULL, NULL);
		double t0 = seconds();
		for (uint32_t i = 0; i < LIVE; i++)
			if (objtab_alloc(&t, &objs[i]) < 0)
				return -1;
		alloc_s += seconds() - t0;
		bytes = objtab_bytes(&t);
		if (r + 1 < ROUNDS) {
			t0 = seconds();
			for (uint32_t h = 1; h <= LIVE; h++)
				if (!objtab_remove(&t, h))
					return -1;
			remove_s += seconds() - t0;
		}
	}
	/* Lookups of live handles in a scattered order (an LCG over 1..LIVE). */
	uint64_t x = 12345, sum = 0;
	double t0 = seconds();
	for (uint32_t i = 0; i < LOOKUPS; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t h = 1 + (uint32_t)((x >> 33) % LIVE);
		sum += (uintptr_t)objtab_get(&t, h) & 1;
	}
	double lookup_s = seconds() - t0;
	printf("objtab, 2^24 handles, %u live:\n", LIVE);
	printf("  alloc (lowest free first): %12.0f allocs/s\n", LIVE * (double)ROUNDS / alloc_s);
	printf("  remove:                    %12.0f removes/s\n",
	       LIVE * (double)(ROUNDS - 1) / remove_s);
	printf("  lookup (scattered):        %12.0f lookups/s (checksum %llu)\n",
	       LOOKUPS / lookup_s, (unsigned long long)sum);
	printf("  table bytes per live:      %12.1f B (%llu B in all; %llu B empty)\n",
	       (double)bytes / LIVE, (unsigned long long)bytes, (unsigned long long)empty_bytes);
	objtab_fini(&t);
	return 0;
}

/* ---- a device with 100,000 live PDs ------------------------------------------------------ */

static struct nicref_dev *make_dev(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.log_max_pd = 17; /* 131,072 PDs: room for LIVE */
	return nicref_dev_create(&cfg);
}

/* Brings the device up and allocates LIVE PDs; the seconds the ALLOC_PDs took, or < 0. */
static double populate(struct nicref_dev *dev)
{
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv d;
	if (refdrv_init(&d, &ops) != 0)
		return -1;
	if (refdrv_bring_up(&d, REFDRV_INITIALIZED) != 0) {
		fprintf(stderr, "bring-up: %s\n", d.error);
		refdrv_fini(&d);
		return -1;
	}
	/* PRM §12.3.13 T193: ALLOC_PD, opcode 0x800 at 00h[31:16]. */
	uint8_t in[16] = { 0x08, 0x00 }, out[16];
	double t0 = seconds();
	for (uint32_t i = 0; i < LIVE; i++) {
		if (refdrv_cmd(&d, in, sizeof in, out, sizeof out) != 0) {
			fprintf(stderr, "ALLOC_PD %u: status 0x%x %s\n", i, d.last_status, d.error);
			refdrv_fini(&d);
			return -1;
		}
	}
	double s = seconds() - t0;
	refdrv_fini(&d);
	struct nicref_hca_info info;
	nicref_hca_info(dev, &info);
	return info.pds == LIVE ? s : -1;
}

static int bench_reset(void)
{
	struct nicref_dev *dev = make_dev();
	if (!dev)
		return -1;
	double alloc_s = 0, reset_s = 0;
	for (int r = 0; r < ROUNDS; r++) {
		double s = populate(dev);
		if (s < 0)
			return -1;
		alloc_s += s;
		double t0 = seconds();
		nicref_dev_reset(dev);
		reset_s += seconds() - t0;
		struct nicref_hca_info info;
		nicref_hca_info(dev, &info);
		if (info.pds != 0)
			return -1;
	}
	/* the reset of an idle device, for comparison */
	long n = 10000;
	double t0 = seconds();
	for (long i = 0; i < n; i++)
		nicref_dev_reset(dev);
	double idle = (seconds() - t0) / (double)n;
	printf("device with %u live PDs (profile log_max_pd 17):\n", LIVE);
	printf("  ALLOC_PD via the command queue: %8.0f commands/s\n",
	       LIVE * (double)ROUNDS / alloc_s);
	printf("  full device reset:              %8.3f ms (idle device: %.1f us)\n",
	       reset_s / ROUNDS * 1e3, idle * 1e6);
	nicref_dev_destroy(dev);
	return 0;
}

int main(void)
{
	if (bench_objtab() != 0) {
		fprintf(stderr, "objtab bench failed\n");
		return 1;
	}
	if (bench_reset() != 0) {
		fprintf(stderr, "device reset bench failed\n");
		return 1;
	}
	return 0;
}
