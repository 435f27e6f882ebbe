/* make bench: `nicref adp check` at scale (issue 21 item 6). Writes a capture of 1,000,000
 * frames and 50,000 RC flows into the build folder with a small C writer (the classic pcap
 * format, nanosecond timestamps), then times the whole command on it (read, classify, pair,
 * check; its output to /dev/null) and each phase alone.
 *
 * The capture: 50 host pairs (10.h.0.1 -> 10.h.0.2), 1,000 QP pairs each. Every flow sends ten
 * SEND-only requests, is acknowledged up to its fifth, times out once (the classic IB timer,
 * QP timeout 10: 4.096 us << 10 after that ACK, which restarted the QP's one timer: IBTA Vol. 1
 * §9.7.6.1.3), resends its last five go-back-N and is acknowledged; with a
 * UD send, a CNP and a DNS datagram beside it: 20 frames a flow. In the even host pairs each
 * QP pair uses one UDP source port in both directions (paired by the port); in the odd ones
 * every packet has its own (paired by the PSN). Flows run interleaved, 1 ns apart, so frame
 * order is time order. Every flow conforms: the command must exit 0. */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adp_cmd.h"
#include "adp_pkt.h"
#include "roce_capture.h"

#define HOSTS 50u
#define QPS 1000u
#define FLOWS (HOSTS * QPS)
#define PER_FLOW 20u
#define SLOT_NS 60000u       /* > FLOWS * 1 ns: slots never overlap */
#define TIMER_NS (4096u << 10) /* classic IB timer, QP timeout 10 */

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	return x ^ (x >> 16);
}

/* One frame: Ethernet, IPv4, UDP (dport), BTH (+ AETH), ICRC. dir 0: requester -> responder. */
static size_t frame(uint8_t *f, uint32_t flow, int dir, uint16_t sport, uint16_t dport,
		    uint8_t op, uint32_t dqp, uint32_t psn)
{
	uint32_t h = flow / QPS;
	int aeth = op == 0x11;
	size_t ulen = 8 + 12 + (aeth ? 4 : 0) + 4;
	memset(f, 0, 14 + 20 + ulen);
	f[12] = 0x08;
	uint8_t *ip = f + 14;
	ip[0] = 0x45;
	ip[2] = (uint8_t)((20 + ulen) >> 8), ip[3] = (uint8_t)(20 + ulen);
	ip[6] = 0x40, ip[8] = 64, ip[9] = 17;
	uint8_t a[4] = { 10, (uint8_t)h, 0, 1 }, b[4] = { 10, (uint8_t)h, 0, 2 };
	memcpy(ip + 12, dir ? b : a, 4);
	memcpy(ip + 16, dir ? a : b, 4);
	uint8_t *u = ip + 20;
	u[0] = (uint8_t)(sport >> 8), u[1] = (uint8_t)sport;
	u[2] = (uint8_t)(dport >> 8), u[3] = (uint8_t)dport;
	u[4] = (uint8_t)(ulen >> 8), u[5] = (uint8_t)ulen;
	uint8_t *t = u + 8;
	t[0] = op, t[2] = 0xff, t[3] = 0xff;
	t[5] = (uint8_t)(dqp >> 16), t[6] = (uint8_t)(dqp >> 8), t[7] = (uint8_t)dqp;
	t[9] = (uint8_t)(psn >> 16), t[10] = (uint8_t)(psn >> 8), t[11] = (uint8_t)psn;
	return 14 + 20 + ulen;
}

/* Frame k (0..19) of a flow: its time offset and the frame. */
static size_t flow_frame(uint8_t *f, uint32_t i, uint32_t k, uint64_t *t, uint32_t *serial)
{
	uint32_t psn0 = (i * 341u + 0x7ffff0u) & 0xffffffu; /* disjoint windows, some wrap */
	uint32_t rq = 0x10000u + i, rp = 0x20000u + i;       /* requester, responder QP */
	int own_port = (i / QPS) % 2 == 0;
	uint16_t port = (uint16_t)(own_port ? 0xc000u + i % QPS : 0x8000u | (mix32(++*serial) & 0x7fff));
	if (k < 10) { /* requests */
		*t = (uint64_t)k * SLOT_NS;
		return frame(f, i, 0, port, 4791, 0x04, rp, (psn0 + k) & 0xffffffu);
	}
	switch (k) {
	case 10: /* coalesced ACK up to the fifth */
		*t = 10ull * SLOT_NS;
		return frame(f, i, 1, port, 4791, 0x11, rq, (psn0 + 4) & 0xffffffu);
	case 11: /* a UD send */
		*t = 11ull * SLOT_NS;
		return frame(f, i, 0, port, 4791, 0x64, 0x30000u + i, 0);
	case 12: /* a CNP */
		*t = 12ull * SLOT_NS;
		return frame(f, i, 1, port, 4791, 0x81, rq, 0);
	case 13: /* not RoCE: a DNS datagram */
		*t = 13ull * SLOT_NS;
		return frame(f, i, 0, port, 53, 0x04, 0, 0);
	case 19: /* the ACK of the resent requests */
		*t = 15ull * SLOT_NS + TIMER_NS;
		return frame(f, i, 1, port, 4791, 0x11, rq, (psn0 + 9) & 0xffffffu);
	default: /* 14..18: the timer, restarted by the ACK (frame 10), expires for the sixth;
		  * go-back-N resends 6..10 */
		*t = (uint64_t)(k - 14 + 10) * SLOT_NS + TIMER_NS;
		return frame(f, i, 0, port, 4791, 0x04, rp, (psn0 + 5 + k - 14) & 0xffffffu);
	}
}

static int write_capture(const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	static char buf[1 << 20];
	setvbuf(f, buf, _IOFBF, sizeof buf);
	uint32_t h[6] = { 0xa1b23c4d, 0x00040002, 0, 0, 262144, 1 };
	fwrite(h, sizeof h, 1, f);
	/* Slot order: the 20 frames are in time order by k (14..18 and 19 after 0..13), and
	 * within a slot flows are 1 ns apart. */
	static const uint32_t order[PER_FLOW] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
						  10, 11, 12, 13, 14, 15, 16, 17, 18, 19 };
	uint32_t serial = 0;
	for (uint32_t s = 0; s < PER_FLOW; s++)
		for (uint32_t i = 0; i < FLOWS; i++) {
			uint8_t fr[128];
			uint64_t t;
			size_t n = flow_frame(fr, i, order[s], &t, &serial);
			t += 1000000000ull + i;
			uint32_t r[4] = { (uint32_t)(t / 1000000000u), (uint32_t)(t % 1000000000u),
					  (uint32_t)n, (uint32_t)n };
			fwrite(r, sizeof r, 1, f);
			fwrite(fr, n, 1, f);
		}
	return fclose(f);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "build/adp_check_bench.pcap";
	double t0 = seconds();
	if (write_capture(path) != 0) {
		fprintf(stderr, "adp_check_bench: cannot write %s\n", path);
		return 1;
	}
	double t1 = seconds();
	printf("adp check bench: %u frames, %u RC flows (%u host pairs x %u QPs) written to %s "
	       "in %.2f s\n", FLOWS * PER_FLOW, FLOWS, HOSTS, QPS, path, t1 - t0);

	/* Phases alone. */
	struct roce_load_opts lo = { .roce_port = ROCE_UDP_PORT,
					     .reorder_tol_ns = CAP_REORDER_TOL_DEFAULT_NS };
	struct roce_capture rc;
	char err[1024];
	double a = seconds();
	if (roce_capture_load(path, &lo, &rc, err, sizeof err) != 0) {
		fprintf(stderr, "adp_check_bench: %s\n", err);
		return 1;
	}
	double b = seconds();
	struct adp_flowset fs;
	if (adp_flows_build(rc.rc, rc.nrc, rc.cm, rc.ncm, NULL, 0, &fs, err, sizeof err) != 0) {
		fprintf(stderr, "adp_check_bench: %s\n", err);
		return 1;
	}
	double c = seconds();
	size_t by[8] = { 0 };
	for (size_t f = 0; f < fs.nflows; f++)
		by[fs.flows[f].paired_by]++;
	printf("  read + classify %.3f s, pair %.3f s: %zu flows (%zu paired by udp_sport, %zu "
	       "by psn), %llu frames (rc %llu, ud %llu, cnp %llu, not_roce %llu)\n",
	       b - a, c - b, fs.nflows, by[ADP_PAIRED_UDP_SPORT], by[ADP_PAIRED_PSN],
	       (unsigned long long)rc.sum.frames, (unsigned long long)rc.sum.cls[ROCE_CLASS_RC],
	       (unsigned long long)rc.sum.cls[ROCE_CLASS_UD],
	       (unsigned long long)rc.sum.cls[ROCE_CLASS_CNP],
	       (unsigned long long)rc.sum.cls[ROCE_CLASS_NOT_ROCE]);
	adp_flows_free(&fs);
	roce_capture_free(&rc);

	/* The whole command, as a user runs it. */
	char *args[] = { "check", (char *)path, "--classic", "--timeout", "10", NULL };
	fflush(stdout);
	int saved = dup(1), null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	double d = seconds();
	int code = adp_main(5, args);
	fflush(stdout);
	double e = seconds();
	dup2(saved, 1);
	close(null);
	close(saved);
	double rate = (double)FLOWS * PER_FLOW / (e - d);
	printf("  nicref adp check %s --classic --timeout 10: exit %d in %.3f s: %.2f M frames/s "
	       "(target >= 1 M frames/s%s)\n", path, code, e - d, rate / 1e6,
	       rate >= 1e6 ? "" : ": BELOW TARGET");
	unlink(path);
	return code == 0 ? 0 : 1;
}
