/* make bench: TLPs per second through a PCIe link of two data link layer ends (issue 18 item
 * 7): reference/pcie/'s link, one core, 1% of each fault (a TLP's LCRC corrupted, a TLP
 * nullified by the link, a TLP duplicated, a DLLP dropped, a DLLP's CRC corrupted, an Ack
 * delayed), both ends sending 64-byte TLPs to each other as fast as the window and the wire
 * allow. Every TLP must be delivered once and in order (checked as it arrives), or the bench
 * fails. Virtual time: 1 symbol time per byte, 100 symbol times of delay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicref/pcie.h"

#define TLP_BYTES 64u
#define TLPS_PER_END 500000u

struct bench {
	struct nicref_pcie_link link;
	uint8_t tlp[2][TLP_BYTES];
	uint32_t offered[2], delivered[2];
	unsigned long long replays, errors;
	int broken;
};

/* Wall time, and the process's CPU time (the machine may be shared: the rate is given on
 * both). */
static double seconds(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stamp(uint8_t *t, uint32_t n)
{
	memcpy(t, &n, sizeof n);
}

static bool tl_next(void *ctx, unsigned end, const uint8_t **tlp, size_t *len, bool *nullify)
{
	struct bench *b = ctx;
	if (b->offered[end] == TLPS_PER_END)
		return false;
	stamp(b->tlp[end], b->offered[end]++);
	*tlp = b->tlp[end];
	*len = TLP_BYTES;
	*nullify = false;
	return true;
}

static void on_event(void *ctx, unsigned end, const struct nicref_pcie_event *ev)
{
	struct bench *b = ctx;
	if (ev->kind == NICREF_PCIE_EV_DELIVER) {
		uint32_t n;
		memcpy(&n, ev->tlp, sizeof n);
		if (n != b->delivered[end]++)
			b->broken = 1;
	} else if (ev->kind == NICREF_PCIE_EV_ERROR) {
		b->errors++;
	} else if (ev->kind == NICREF_PCIE_EV_TX && ev->replay_begins) {
		b->replays++;
	}
}

int main(void)
{
	static struct bench b;
	size_t sz = nicref_pcie_link_storage_bytes(TLP_BYTES);
	uint8_t *store = malloc(sz);
	struct nicref_pcie_params p;
	struct nicref_pcie_link_params lp;
	nicref_pcie_params_default(&p);
	nicref_pcie_link_params_default(&lp);
	const uint16_t pct = 655; /* 1% of 65536 */
	lp.faults = (struct nicref_pcie_faults){ pct, pct, pct, pct, pct, pct, 500 };
	lp.seed = 2026;
	struct nicref_pcie_link_ops ops = { .ctx = &b, .event = on_event, .tl_next = tl_next };
	if (!store || nicref_pcie_link_init(&b.link, &p, &lp, &ops, TLP_BYTES, store, sz) != 0) {
		fprintf(stderr, "dll_bench: cannot set up the link\n");
		return 1;
	}
	double t0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
	while (!b.broken && !(b.delivered[0] == TLPS_PER_END && b.delivered[1] == TLPS_PER_END &&
			      nicref_pcie_link_idle(&b.link)))
		nicref_pcie_link_run(&b.link, b.link.now + 1000000u);
	double dt = seconds(CLOCK_MONOTONIC) - t0, dc = seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
	if (b.broken) {
		fprintf(stderr, "dll_bench: a TLP was delivered out of order or twice\n");
		return 1;
	}
	unsigned long long total = (unsigned long long)b.delivered[0] + b.delivered[1];
	printf("PCIe DLL link, 1%% faults:  %10.0f TLPs/s delivered (%.0f per CPU second; %llu "
	       "TLPs of %u bytes both ways in %.2f s; %llu replays, %llu errors, %.1f M symbol "
	       "times)\n",
	       (double)total / dt, (double)total / dc, total, TLP_BYTES, dt, b.replays, b.errors,
	       (double)b.link.now / 1e6);
	free(store);
	return 0;
}
