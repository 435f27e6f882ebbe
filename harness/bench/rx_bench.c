/* make bench: the receive path (issue 13 item 12), one core, through the whole path: a frame into
 * nicref_wire_rx (frame checks, the parse, vport acceptance, NIC_RX steering, the TIR, RSS
 * through the RQT, the RQ's WQE, the scatter through the MKey, the CQE), the CQE polled and the
 * CQ's update_ci written, the WQE re-posted (the receive doorbell record advanced over a WQE that
 * still describes the same buffer), so neither the CQ nor the RQ ever runs dry:
 *  - frames of 64 and 1500 bytes (no FCS), IPv4/UDP to the function's address;
 *  - 1 rule: a level-0 NIC_RX table with one flow matching the destination IP and UDP port,
 *    forwarding to an Indirect TIR (Toeplitz over IPv4 addresses and ports, an RQT of one RQ);
 *  - 100,000 rules (log_max_flow raised to 17: the default capabilities hold 65,536 flows of a
 *    type): the same match in a table of 65,536 flows (log_max_ft_size 16) whose miss
 *    goes to a second table holding the other 34,464; the frame matches the last flow of the
 *    second table (every lookup misses in the first).
 * The device was brought up by the reference driver; the loop is a lean driver of its own (the
 * WQEs posted once, the CQE read by offset) so the figures are the model's. No allocation per
 * frame (issue 13): malloc and its kin are counted during every timed loop, as tx_bench does, and
 * any call fails the bench. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/ctl_dev.h"
#include "driver.h"
#include "driver_cq.h"
#include "driver_mkey.h"
#include "driver_rq.h"
#include "driver_sq.h"
#include "driver_steer.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "nicref/nicref.h"

#include "alloc_count.h"

/* ---- The device and the receive stack ----------------------------------------------------- */

#define MIN_SECONDS 0.5
#define LOG_RQ 8u
#define BUF 2048u
#define MEM 0x60000000ull
#define DATA 0x70000000ull
#define TAG 0x42u
#define RULES_MANY 100000u
#define FIRST_TABLE 65536u

static struct nicref_dev *dev;
static struct refdrv drv;
static struct refdrv_sq_stack st;
static struct refdrv_cq cq;
static struct refdrv_rq_ring ring;
static uint32_t rqn, tirn;

/* The CPU time of this thread: "one core" is what the path costs on a core, not what a shared
 * machine's scheduler leaves it (wall time on two busy cores varied by 30 % run to run). */
static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int setup(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	if (!(dev = nicref_dev_create(&cfg)))
		return -1;
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	if (refdrv_init(&drv, &ops) || refdrv_bring_up(&drv, REFDRV_INITIALIZED) ||
	    refdrv_sq_stack_up(&drv, &a, &st))
		return -1;
	struct refdrv_mkey_attr m = { .access_mode = 0, .pd = st.pd, .tag = TAG, .lw = true,
				      .start_addr = DATA, .len = (uint64_t)BUF << LOG_RQ };
	uint32_t mi;
	struct refdrv_cq_attr ca = { .buf = MEM, .dbr = MEM + 0x100000, .log_cq_size = 10,
				     .uar = st.uar, .eqn = st.eq.eqn };
	struct refdrv_wq_attr wq = { .buf = MEM + 0x200000, .dbr = MEM + 0x100040, .wq_type = 1,
				     .log_wq_sz = LOG_RQ, .log_wq_stride = 4, .pd = st.pd };
	struct refdrv_rq_attr ra = { .wq = wq, .user_index = 1 };
	if (refdrv_create_mkey(&drv, &m, &mi) || refdrv_create_cq(&drv, &ca, &cq))
		return -1;
	ra.cqn = cq.cqn;
	if (refdrv_create_rq(&drv, &ra, &rqn) || refdrv_modify_rq(&drv, rqn, 0, 1))
		return -1;
	ring = (struct refdrv_rq_ring){ .buf = wq.buf, .dbr = wq.dbr, .log_wq_sz = LOG_RQ,
					.log_wq_stride = 4, .qn = rqn };
	/* Every WQE of the ring, once: WQE i scatters into buffer i. */
	for (unsigned i = 0; i < 1u << LOG_RQ; i++) {
		struct refdrv_rx_sge s = { .addr = DATA + (uint64_t)i * BUF, .lkey = mi << 8 | TAG,
					   .byte_count = BUF };
		if (refdrv_rq_post(&drv, &ring, &s, 1))
			return -1;
	}
	static const uint8_t key[40] = { 0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
					 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
					 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
					 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa };
	uint32_t rqt;
	if (refdrv_create_rqt(&drv, 1, &rqn, 1, &rqt))
		return -1;
	struct refdrv_tir_attr ta = { .indirect = true, .rqt = rqt, .hash_fn = 2,
				      .toeplitz_key = key, .sel_outer = 0xF, .td = st.td };
	return refdrv_create_tir(&drv, &ta, &tirn);
}

static uint8_t crit[REFDRV_MATCH_LEN];

/* Flow i: destination 10.<i> and UDP port i & 0xFFFF, forwarding to the TIR with tag i + 1. */
static int rule(uint32_t ft, uint32_t fg, uint32_t index, uint32_t i)
{
	uint8_t m[REFDRV_MATCH_LEN] = { 0 };
	uint32_t ip = 0x0A000000u + i;
	m[0x3C] = (uint8_t)(ip >> 24), m[0x3D] = (uint8_t)(ip >> 16);
	m[0x3E] = (uint8_t)(ip >> 8), m[0x3F] = (uint8_t)ip;
	if (refdrv_field_set(m, sizeof m, "fte_match_param", "outer_udp_dport", i & 0xFFFF))
		return -1;
	struct refdrv_fte e = { .group_id = fg, .action = 4, .flow_tag = i + 1, .match = m,
				.ndest = 1 };
	e.dest[0].type = 2;
	e.dest[0].id = tirn;
	return refdrv_set_fte(&drv, 0, ft, index, 0, 0, &e);
}

/* NIC_RX tables of n rules (1 or RULES_MANY); returns the rule the frames match. */
static int tables(uint32_t n, uint32_t *hit)
{
	memset(crit, 0, sizeof crit);
	memset(crit + 0x3C, 0xFF, 4); /* outer_dst_ip, its IPv4 dword (T413) */
	if (refdrv_field_set(crit, sizeof crit, "fte_match_param", "outer_udp_dport", 0xFFFF))
		return -1;
	uint32_t first = n < FIRST_TABLE ? n : FIRST_TABLE, ft1, ft2 = 0, g1, g2 = 0;
	if (n > FIRST_TABLE) {
		/* T151 log_max_flow is 16 in the default capabilities (65,536 flows of a type):
		 * 100,000 rules need 17, raised here in the device's current NIC_RX properties. */
		uint8_t *p = dev->core.caps.cur[CAP_FLOW_TABLE_NIC] + 0x40;
		if (nicref_field_set(p, 0x40, nicref_layout_field(nicref_layout_find(
						 "flow_table_properties"), "log_max_flow"), 17))
			return -1;
	}
	if (n > FIRST_TABLE) {
		if (refdrv_create_flow_table(&drv, 0, 1, 16, 0, 0, &ft2) ||
		    refdrv_create_flow_group(&drv, 0, ft2, 0, n - FIRST_TABLE - 1, 1, crit, &g2))
			return -1;
	}
	if (refdrv_create_flow_table(&drv, 0, 0, 16, ft2 ? 1 : 0, ft2, &ft1) ||
	    refdrv_create_flow_group(&drv, 0, ft1, 0, first - 1, 1, crit, &g1))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (i < FIRST_TABLE ? rule(ft1, g1, i, i) : rule(ft2, g2, i - FIRST_TABLE, i))
			return -1;
	*hit = n - 1;
	return 0;
}

static size_t frame(uint8_t *f, size_t len, uint32_t i)
{
	static const uint8_t hdr[34] = {
		0x02, 0x4E, 0x49, 0x43, 0x52, 0x46, 0x02, 0, 0, 0, 0, 0x99, 0x08, 0x00, /* Ethernet */
		0x45, 0, 0, 0, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 0, 0, 0, 0,	    /* IPv4 */
	};
	memset(f, 0, len);
	memcpy(f, hdr, sizeof hdr);
	uint32_t ip = 0x0A000000u + i;
	f[16] = (uint8_t)((len - 14) >> 8), f[17] = (uint8_t)(len - 14);
	f[30] = (uint8_t)(ip >> 24), f[31] = (uint8_t)(ip >> 16);
	f[32] = (uint8_t)(ip >> 8), f[33] = (uint8_t)ip;
	uint32_t s = 0;
	for (unsigned k = 14; k < 34; k += 2)
		s += (uint32_t)f[k] << 8 | f[k + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	f[24] = (uint8_t)(~s >> 8), f[25] = (uint8_t)~s;
	f[34] = 0x12, f[35] = 0x34; /* UDP 0x1234 -> i */
	f[36] = (uint8_t)(i >> 8), f[37] = (uint8_t)i;
	f[38] = (uint8_t)((len - 34) >> 8), f[39] = (uint8_t)(len - 34);
	for (size_t k = 42; k < len; k++)
		f[k] = (uint8_t)k;
	return len;
}

/* One frame through the whole path: 0, or -1 when its CQE is not a good one of tag `tag`. */
static int one(const uint8_t *f, size_t len, uint32_t tag)
{
	if (nicref_wire_rx(dev, 1, f, len))
		return -1;
	uint32_t size = 1u << cq.a.log_cq_size;
	uint8_t c[64];
	nicref_hostmem_read(dev, cq.a.buf + (cq.cc & (size - 1)) * 64u, c, sizeof c);
	if ((c[63] & 1u) != ((cq.cc >> cq.a.log_cq_size) & 1u) || c[63] >> 4 != 2)
		return -1;
	uint32_t ft = (uint32_t)c[0x39] << 16 | (uint32_t)c[0x3A] << 8 | c[0x3B]; /* T67 flow_tag 38h[23:0] */
	if (ft != tag)
		return -1;
	cq.cc = (cq.cc + 1) & 0xFFFFFFu;
	uint8_t ci[4] = { 0, (uint8_t)(cq.cc >> 16), (uint8_t)(cq.cc >> 8), (uint8_t)cq.cc };
	nicref_hostmem_write(dev, cq.a.dbr, ci, sizeof ci);
	/* the WQE consumed goes back to the device (T24 receive counter) */
	ring.pc++;
	uint8_t rec[4] = { 0, 0, (uint8_t)(ring.pc >> 8), (uint8_t)ring.pc };
	nicref_hostmem_write(dev, ring.dbr, rec, sizeof rec);
	return 0;
}

static int run(const char *what, size_t len, uint32_t hit)
{
	static uint8_t f[1600];
	frame(f, len, hit);
	for (unsigned i = 0; i < 2048; i++) /* warm: every WQE and CQE slot used once */
		if (one(f, len, hit + 1) != 0)
			return -1;
	unsigned long n = 0;
	allocations = 0;
	counting = 1;
	double t0 = seconds(), t;
	do {
		for (unsigned i = 0; i < 1000; i++)
			if (one(f, len, hit + 1) != 0) {
				counting = 0;
				fprintf(stderr, "rx_bench: %s: frame %lu was not received\n", what, n + i);
				return -1;
			}
		n += 1000;
	} while ((t = seconds() - t0) < MIN_SECONDS);
	counting = 0;
	printf("%-28s %11.0f frames/s %8.2f Gbit/s  (%lu frames, %.2f s)\n", what, n / t,
	       (double)n * len * 8.0 / t / 1e9, n, t);
	if (allocations) {
		fprintf(stderr, "rx_bench: FAILED: %s allocated %lu times in the timed loop (issue 13: "
				"no allocation per frame)\n", what, allocations);
		return -1;
	}
	return 0;
}

/* rx_bench [--one-rule]: the 1-rule figures only (for a profiler). */
int main(int argc, char **argv)
{
	uint32_t hit;
	bool one_rule = argc > 1 && strcmp(argv[1], "--one-rule") == 0;
	if (setup() != 0) {
		fprintf(stderr, "rx_bench: setup: %s\n", drv.error);
		return 1;
	}
	printf("rx_bench: one core (thread CPU time), gcc -O2; wire -> parse -> steering -> RSS -> scatter -> CQE, "
	       "the CQ polled, the WQE re-posted\n");
	if (tables(1, &hit) || run("64 B, 1 rule", 64, hit) || run("1500 B, 1 rule", 1500, hit)) {
		fprintf(stderr, "rx_bench: 1 rule failed (%s)\n", drv.error);
		return 1;
	}
	if (one_rule)
		return 0;
	/* a second device state: the 100,000 rules (a fresh device, the same stack) */
	refdrv_fini(&drv);
	nicref_dev_destroy(dev);
	if (setup() != 0 || tables(RULES_MANY, &hit) || run("64 B, 100,000 rules", 64, hit) ||
	    run("1500 B, 100,000 rules", 1500, hit)) {
		fprintf(stderr, "rx_bench: 100,000 rules failed (%s)\n", drv.error);
		return 1;
	}
	struct nicref_stats s;
	nicref_stats_get(dev, &s);
	if (s.violations) {
		fprintf(stderr, "rx_bench: %llu driver violations\n", (unsigned long long)s.violations);
		return 1;
	}
	printf("rx_bench: no allocation in any timed loop\n");
	refdrv_fini(&drv);
	nicref_dev_destroy(dev);
	return 0;
}
