/* make bench: the send path (issue 12 item 12), one core, through the whole path: a WQE written
 * into the SQ ring, the doorbell record, the doorbell (§7.4.3.1), the WQE run, its frame(s) on
 * ops.wire_tx, its CQE (ce 10) polled and the CQ's update_ci written, so the CQ never fills:
 *  - SEND frames/s of 64 and 1500 bytes (the frame, no FCS: D-TX-2), IPv4/UDP with the IPv4
 *    and UDP checksums asked (l3cs, l4cs), the data
 *      pointer: the L2 header inline (the inline mode's minimum) and the rest through one
 *               memory-pointer data segment (T38);
 *      inline:  the L2 header inline and the rest in one inline data segment (T39); a WQE is
 *               at most 1008 bytes (T26 ds: 63 octowords), so of 1500 bytes 928 go inline and
 *               the last 558 through a pointer (1500 bytes cannot be sent inline);
 *  - LSO WQEs/s of 64 KB (the TCP payload, 2^max_lso_cap, T147) over IPv4/TCP, mss 1460: 45
 *    segments each, every one checksummed (D-TXO-10).
 * The device was brought up by the reference driver (harness/driver_sq.h); the loop is a lean
 * driver of its own (prebuilt WQEs, no layout lookups) so the figures are the model's.
 * No allocation per WQE or frame (issue 12): malloc, calloc, realloc and their aligned forms
 * are counted by this program's own definitions (forwarding to glibc's __libc_*) during every
 * timed loop, and any call fails the bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver.h"
#include "driver_eq.h"
#include "driver_sq.h"
#include "driver_wq.h"
#include "nicref/nicref.h"
#include "nicref/rules_tx.h"

#include "alloc_count.h"

/* ---- The device and the stack ------------------------------------------------------------- */

#define PAYLOAD_AT 0x1000u /* in the data region */
#define MIN_SECONDS 0.5

static struct nicref_dev *dev;
static struct refdrv drv;
static struct refdrv_sq_stack st;
static uint64_t uar_off;
static unsigned bf_size;
static const struct nicref_field *f_wqe_index;
static unsigned long frames, frame_bytes;

static void on_wire(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	(void)ctx;
	(void)port;
	(void)frame;
	frames++;
	frame_bytes += len;
}

/* The CPU time of this thread: "one core" is what the path costs on a core, not what a shared
 * machine's scheduler leaves it (wall time on two busy cores varied by 30 % run to run). */
static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int setup(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.ops.wire_tx = on_wire;
	if (!(dev = nicref_dev_create(&cfg)))
		return -1;
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	if (refdrv_init(&drv, &ops) != 0 || refdrv_bring_up(&drv, REFDRV_INITIALIZED) != 0 ||
	    refdrv_sq_stack_up(&drv, &a, &st) != 0) {
		fprintf(stderr, "tx_bench: bring-up: %s\n", drv.error);
		return -1;
	}
	uar_off = refdrv_uar_offset(&drv, st.uar);
	bf_size = refdrv_bf_buffer_size(&drv);
	f_wqe_index = nicref_layout_field(refdrv_wqe_layout(REFDRV_SEG_CTRL), "wqe_index");
	/* Every page the loop touches exists before it: host memory is the host's. */
	static uint8_t data[0x20000];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 7);
	if (!f_wqe_index ||
	    nicref_hostmem_write(dev, st.a.data_addr, data, sizeof data) != 0 ||
	    nicref_hostmem_write(dev, st.a.sq_buf, data, 64u << st.a.log_sq_size) != 0)
		return -1;
	return 0;
}

/* IPv4 + UDP (or TCP) headers for an IP datagram of `ip` bytes, checksum fields junk. */
static size_t headers(uint8_t *h, size_t ip, bool tcp)
{
	static const uint8_t eth[14] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x02, 0xAA,
					 0xBB, 0xCC, 0xDD, 0xEE, 0x08, 0x00 };
	memcpy(h, eth, sizeof eth);
	uint8_t *v4 = h + 14, *l4 = v4 + 20;
	memset(v4, 0, 20 + (tcp ? 20 : 8));
	v4[0] = 0x45;
	v4[2] = (uint8_t)(ip >> 8);
	v4[3] = (uint8_t)ip;
	v4[8] = 64;
	v4[9] = tcp ? 6 : 17;
	v4[10] = 0xDE;
	v4[12] = 10, v4[15] = 1, v4[16] = 10, v4[19] = 2;
	l4[1] = 0x35, l4[3] = 0x36;
	if (tcp) {
		l4[12] = 0x50;
		l4[13] = 0x18; /* ACK, PSH */
		l4[14] = 0xFF;
		return 54;
	}
	l4[4] = (uint8_t)((ip - 20) >> 8);
	l4[5] = (uint8_t)(ip - 20);
	return 42;
}

/* A WQE by the reference driver's builders (driver_sq.h), ce 10 (a CQE each). */
static int build(struct refdrv_wqe *w, unsigned opcode, size_t frame, size_t inl_data,
		 unsigned mss)
{
	bool lso = opcode == NICREF_SEND_OP_LSO;
	uint8_t h[64];
	size_t hl = headers(h, lso ? 40 + frame : frame - 14, lso);
	size_t ihs = lso ? hl : 14; /* LSO: through TCP (D-TXO-12); SEND: L2 */
	long e;
	if (refdrv_wqe_begin(w, opcode, 0, st.sqn) < 0 || (e = refdrv_wqe_eth(w, h, ihs)) < 0)
		return -1;
	const struct nicref_layout *le = refdrv_wqe_layout(REFDRV_SEG_ETH);
	refdrv_field_set(w->b + e, 16, le->name, "l3cs", 1);
	refdrv_field_set(w->b + e, 16, le->name, "l4cs", 1);
	refdrv_field_set(w->b + e, 16, le->name, "mss", mss);
	/* the rest of the packet: the headers not inlined, then the payload at PAYLOAD_AT */
	size_t rest = (lso ? hl + frame : frame) - ihs, hrest = hl - ihs;
	uint64_t at = st.a.data_addr + PAYLOAD_AT - hrest;
	if (nicref_hostmem_write(dev, at, h + ihs, hrest) != 0)
		return -1;
	if (inl_data) {
		uint8_t d[1024];
		if (nicref_hostmem_read(dev, at, d, inl_data) != 0 ||
		    refdrv_wqe_inline(w, d, inl_data) < 0)
			return -1;
		at += inl_data;
		rest -= inl_data;
	}
	if (rest && refdrv_wqe_ptr(w, st.lkey, at, (uint32_t)rest) < 0)
		return -1;
	return refdrv_wqe_finish(w, &(struct refdrv_wqe_ctrl){ .ce = 2 }, false);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One WQE through the whole path; 0, or -1 when its CQE is not a good completion. */
static int one(struct refdrv_wqe *w, unsigned n)
{
	uint32_t ring = 64u << st.a.log_sq_size, off = (uint32_t)(st.pc % (ring / 64)) * 64;
	size_t first = w->len < ring - off ? w->len : ring - off;
	nicref_field_set(w->b, 16, f_wqe_index, st.pc);
	/* §7.4.3.1: the WQE (wrapping, §7.4.1.1), the record, the doorbell (§7.2.2) */
	nicref_hostmem_write(dev, st.a.sq_buf + off, w->b, first);
	if (first < w->len)
		nicref_hostmem_write(dev, st.a.sq_buf, w->b + first, w->len - first);
	st.pc = (uint16_t)(st.pc + (w->len + 63) / 64);
	uint8_t rec[4] = { 0, 0, (uint8_t)(st.pc >> 8), (uint8_t)st.pc };
	nicref_hostmem_write(dev, st.a.sq_dbr + 4, rec, sizeof rec);
	uint32_t bf = (uint32_t)uar_off + 0x800 + (n & 1u) * bf_size;
	nicref_bar_write32(dev, bf, be32(w->b));
	nicref_bar_write32(dev, bf + 4, be32(w->b + 4));
	/* §7.12.3.2: the CQE, owned by software, then update_ci (T69) */
	uint32_t size = 1u << st.cq.a.log_cq_size;
	uint8_t cqe[64];
	nicref_hostmem_read(dev, st.cq.a.buf + (st.cq.cc & (size - 1)) * 64u, cqe, sizeof cqe);
	if ((cqe[63] & 1u) != ((st.cq.cc >> st.cq.a.log_cq_size) & 1u) || cqe[63] >> 4 != 0)
		return -1;
	st.cq.cc = (st.cq.cc + 1) & 0xFFFFFFu;
	uint8_t ci[4] = { 0, (uint8_t)(st.cq.cc >> 16), (uint8_t)(st.cq.cc >> 8), (uint8_t)st.cq.cc };
	nicref_hostmem_write(dev, st.cq.a.dbr, ci, sizeof ci);
	return 0;
}

/* Runs the WQE for at least MIN_SECONDS; prints WQEs/s and frames/s. */
static int run(const char *what, struct refdrv_wqe *w, unsigned long frames_per_wqe)
{
	for (unsigned i = 0; i < 64; i++) /* warm: every ring slot and CQE written once */
		if (one(w, i) != 0)
			return -1;
	unsigned long n = 0, f0 = frames, b0 = frame_bytes;
	allocations = 0;
	counting = 1;
	double t0 = seconds(), t;
	do {
		for (unsigned i = 0; i < 1000; i++)
			if (one(w, (unsigned)n + i) != 0) {
				counting = 0;
				fprintf(stderr, "tx_bench: %s: WQE %lu did not complete\n", what, n + i);
				return -1;
			}
		n += 1000;
	} while ((t = seconds() - t0) < MIN_SECONDS);
	counting = 0;
	unsigned long nf = frames - f0;
	printf("%-26s %10.0f WQEs/s %11.0f frames/s %8.2f Gbit/s  (%lu WQEs, %.2f s)\n", what,
	       n / t, nf / t, (frame_bytes - b0) * 8.0 / t / 1e9, n, t);
	if (nf != n * frames_per_wqe) {
		fprintf(stderr, "tx_bench: %s: %lu frames for %lu WQEs\n", what, nf, n);
		return -1;
	}
	if (allocations) {
		fprintf(stderr, "tx_bench: FAILED: %s allocated %lu times in the timed loop (issue "
				"12: no allocation per WQE or frame)\n", what, allocations);
		return -1;
	}
	return 0;
}

int main(void)
{
	static struct refdrv_wqe w;
	static const struct {
		const char *what;
		unsigned opcode;
		size_t frame, inl;
		unsigned mss;
		unsigned long frames;
	} cases[] = {
		{ "SEND 64 B, pointer", NICREF_SEND_OP_SEND, 64, 0, 0, 1 },
		{ "SEND 64 B, inline", NICREF_SEND_OP_SEND, 64, 50, 0, 1 },
		{ "SEND 1500 B, pointer", NICREF_SEND_OP_SEND, 1500, 0, 0, 1 },
		{ "SEND 1500 B, inline 928 B", NICREF_SEND_OP_SEND, 1500, 928, 0, 1 },
		{ "LSO 64 KB, mss 1460", NICREF_SEND_OP_LSO, 65536, 0, 1460, 45 },
	};
	if (setup() != 0)
		return 1;
	printf("tx_bench: one core (thread CPU time), gcc -O2; doorbell -> frame(s) -> CQE, the CQ polled\n");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (build(&w, cases[i].opcode, cases[i].frame, cases[i].inl, cases[i].mss) != 0 ||
		    run(cases[i].what, &w, cases[i].frames) != 0) {
			fprintf(stderr, "tx_bench: %s failed (%s)\n", cases[i].what,
				w.error ? w.error : drv.error);
			return 1;
		}
	struct nicref_stats s;
	nicref_stats_get(dev, &s);
	if (s.violations) {
		fprintf(stderr, "tx_bench: %llu driver violations\n", (unsigned long long)s.violations);
		return 1;
	}
	printf("tx_bench: no allocation in any timed loop\n");
	refdrv_fini(&drv);
	nicref_dev_destroy(dev);
	return 0;
}
