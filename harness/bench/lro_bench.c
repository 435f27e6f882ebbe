/* make bench: LRO merging (issue 15 item 8), one core: 1448-byte TCP segments (IPv4, the
 * timestamp option after two NOPs: 1514-byte frames) of 64 concurrent flows, round robin, into
 * nicref_wire_rx on the receive stack of harness/driver_rxstack.h (256 WQEs of 17 KB behind a
 * Direct TIR with lro_enable_mask 3, lro_timeout_period_usecs 32, lro_max_msg_sz 64): each
 * segment is parsed, steered, checked against its flow's open session (§3.3.6.4) and merged, its
 * payload scattered after the session's first frame; a session ends when the next segment would
 * pass the 16 KB of lro_max_msg_sz (11 segments), with its CQE, which is polled and its WQE
 * re-posted. Virtual time does not move (the timer never fires).
 *
 * Segments/s are per thread CPU second (as rx_bench). The frames are made once per flow; each
 * segment only writes its sequence number, TSval and TCP checksum (RFC 1624 incremental update),
 * so the figures are the model's. No allocation per segment: malloc and its kin are counted
 * during the timed loop (alloc_count.h) and any call fails the bench, as does a run in which
 * LRO merged nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver.h"
#include "driver_rq.h"
#include "driver_rxstack.h"
#include "nicref/nicref.h"

#include "alloc_count.h"

#define MIN_SECONDS 0.5
#define FLOWS 64u
#define PAYLOAD 1448u
#define TCP_HDR 32u
#define FRAME (14u + 20u + TCP_HDR + PAYLOAD)

static struct nicref_dev *dev;
static struct refdrv drv;
static struct refdrv_rx_stack st;
static uint8_t frames[FLOWS][FRAME];
static uint32_t seq[FLOWS], tsval[FLOWS];
static unsigned long cqes, merged_segs, max_num_seg;

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16), put16(p + 2, v);
}

static uint32_t get16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)s;
}

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += get16(p + i);
	return s;
}

/* Flow i: 10.0.0.1:(1000 + i) -> 10.0.0.2:80, the timestamp option after two NOPs. */
static void make_frame(unsigned i)
{
	static const uint8_t eth[14] = { 0x02, 0x4E, 0x49, 0x43, 0x52, 0x46, 0x02, 0, 0, 0, 0,
					 0x99, 0x08, 0x00 };
	uint8_t *f = frames[i], *ip = f + 14, *t = ip + 20;
	memset(f, 0, FRAME);
	memcpy(f, eth, 14);
	ip[0] = 0x45;
	put16(ip + 2, 20 + TCP_HDR + PAYLOAD);
	put16(ip + 6, 0x4000);
	ip[8] = 64, ip[9] = 6;
	put32(ip + 12, 0x0A000001u), put32(ip + 16, 0x0A000002u);
	put16(ip + 10, (uint16_t)~fold(sum16(ip, 20, 0)));
	put16(t, 1000 + i), put16(t + 2, 80);
	seq[i] = 0x10000000u * (i & 15) + i;
	tsval[i] = 1;
	put32(t + 4, seq[i]), put32(t + 8, 0xA000);
	t[12] = TCP_HDR / 4 << 4, t[13] = 0x10;
	put16(t + 14, 1000);
	t[20] = 1, t[21] = 1, t[22] = 8, t[23] = 10;
	put32(t + 24, tsval[i]), put32(t + 28, 0x7E57);
	for (unsigned k = 0; k < PAYLOAD; k++)
		t[TCP_HDR + k] = (uint8_t)(k * 7 + i);
	uint32_t ph = 0x0A00 + 0x0001 + 0x0A00 + 0x0002 + 6 + TCP_HDR + PAYLOAD;
	put16(t + 16, (uint16_t)~fold(sum16(t, TCP_HDR + PAYLOAD, ph)));
}

/* RFC 1624 eqn. 3: the checksum after a 16-bit word went from m to m2. */
static void csum_update(uint8_t *c, uint32_t m, uint32_t m2)
{
	uint32_t s = (~get16(c) & 0xFFFF) + (~m & 0xFFFF) + m2;
	put16(c, (uint16_t)~fold(s));
}

/* The flow's next segment: its sequence number and TSval advance. */
static void next_segment(unsigned i)
{
	uint8_t *t = frames[i] + 34;
	uint32_t s2 = seq[i] + PAYLOAD, ts2 = tsval[i] + 1;
	csum_update(t + 16, seq[i] >> 16, s2 >> 16);
	csum_update(t + 16, seq[i] & 0xFFFF, s2 & 0xFFFF);
	csum_update(t + 16, tsval[i] >> 16, ts2 >> 16);
	csum_update(t + 16, tsval[i] & 0xFFFF, ts2 & 0xFFFF);
	put32(t + 4, s2), put32(t + 24, ts2);
	seq[i] = s2, tsval[i] = ts2;
}

static int setup(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	if (!(dev = nicref_dev_create(&cfg)))
		return -1;
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv_rx_stack_attr a;
	refdrv_rx_stack_defaults(&a);
	a.log_rq = 8;
	a.wqe_bytes = 16384 + 1024;
	a.log_cq = 10;
	a.tir.lro_enable_mask = 3;
	a.tir.lro_timeout_usecs = 32;
	a.tir.lro_max_msg_sz = 64;
	if (refdrv_init(&drv, &ops) || refdrv_bring_up(&drv, REFDRV_INITIALIZED) ||
	    refdrv_rx_stack_up(&drv, &a, &st))
		return -1;
	for (unsigned i = 0; i < FLOWS; i++)
		make_frame(i);
	return 0;
}

/* One segment of flow i, then every CQE it produced. 0, or -1. */
static int one(unsigned i)
{
	if (nicref_wire_rx(dev, 1, frames[i], FRAME))
		return -1;
	uint8_t c[64];
	int r;
	while ((r = refdrv_rx_poll(&drv, &st.cq, c)) == 1) {
		if (refdrv_rx_cqe_field(c, "opcode") != 2 || !refdrv_rx_cqe_field(c, "l4_ok"))
			return -1;
		unsigned long n = (unsigned long)refdrv_rx_cqe_field(c, "lro_num_seg");
		cqes++;
		merged_segs += n;
		if (n > max_num_seg)
			max_num_seg = n;
		if (refdrv_rx_stack_done(&drv, &st, (uint16_t)refdrv_rx_cqe_field(c, "wqe_counter")))
			return -1;
	}
	next_segment(i);
	return r;
}

int main(void)
{
	if (setup() != 0) {
		fprintf(stderr, "lro_bench: setup: %s\n", drv.error);
		return 1;
	}
	printf("lro_bench: one core (thread CPU time), gcc -O2; wire -> parse -> steering -> TIR -> "
	       "LRO session -> scatter (-> CQE, polled, the WQE re-posted)\n");
	unsigned long n = 0;
	for (unsigned k = 0; k < 64 * FLOWS; k++) /* warm: every WQE and CQE slot used */
		if (one(k % FLOWS)) {
			fprintf(stderr, "lro_bench: warm-up segment %u failed (%s)\n", k, drv.error);
			return 1;
		}
	cqes = merged_segs = max_num_seg = 0;
	allocations = 0;
	counting = 1;
	double t0 = seconds(), t;
	do {
		for (unsigned k = 0; k < 1024; k++)
			if (one(k % FLOWS)) {
				counting = 0;
				fprintf(stderr, "lro_bench: segment %lu failed (%s)\n", n + k,
					drv.error);
				return 1;
			}
		n += 1024;
	} while ((t = seconds() - t0) < MIN_SECONDS);
	counting = 0;
	printf("%-28s %11.0f segments/s %8.2f Gbit/s payload  (%lu segments, %.2f s; %lu CQEs, "
	       "%.1f segments per CQE, lro_num_seg up to %lu)\n",
	       "1448 B TCP, 64 flows", n / t, (double)n * PAYLOAD * 8.0 / t / 1e9, n, t, cqes,
	       cqes ? (double)merged_segs / (double)cqes : 0.0, max_num_seg);
	int rc = 0;
	if (allocations) {
		fprintf(stderr, "lro_bench: FAILED: %lu allocations in the timed loop (issue 15: no "
				"allocation per segment)\n", allocations);
		rc = 1;
	}
	if (max_num_seg < 2) {
		fprintf(stderr, "lro_bench: FAILED: LRO merged no two segments (lro_num_seg at most "
				"%lu)\n", max_num_seg);
		rc = 1;
	}
	struct nicref_stats s;
	nicref_stats_get(dev, &s);
	if (s.violations) {
		fprintf(stderr, "lro_bench: %llu driver violations\n", (unsigned long long)s.violations);
		rc = 1;
	}
	if (rc == 0)
		printf("lro_bench: no allocation in the timed loop\n");
	refdrv_fini(&drv);
	nicref_dev_destroy(dev);
	return rc;
}
