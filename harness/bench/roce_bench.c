/* make bench: the RoCE transport's speed and scale (issue 17 item 12).
 *
 *  - RC WRITE through a connected pair: two devices joined by nicref_link (no delay, no faults),
 *    RC QP A0 -> B0 (harness/driver_qp.h refdrv_qp_pair, MTU 1024), RDMA WRITEs posted 16 at a
 *    time (the outstanding window, ROCE_OUTSTANDING_MAX) and the link advanced until their 16
 *    CQEs are polled: messages per second and packets per second (both directions: requests
 *    and ACKs, from the link's counters) for 64-byte (1 packet) and 4096-byte (4 packets)
 *    messages, each for about a second of wall time;
 *  - 1,000,000 live QPs on one device (profile.log_max_objects 21): CREATE_QP and RST2INIT_QP
 *    through the command queue (one 4 KB buffer page and one doorbell record shared by all, a
 *    send and a receive CQ shared by all; profile.max_icm_pages 2^22 for their ICM), then the model's heap bytes per live QP (glibc
 *    mallinfo2 before and after: struct qp with its pas[] (one block), struct roce_qp, the
 *    object table's share), against the target of 512 B (QPs in INIT: the transport state
 *    is made at RST2INIT), then 100,000 of them taken on to RTS and the heap measured again
 *    (nothing is allocated at RTR or RTS: the target holds for connected QPs too); and QUERY_QP commands per second on
 *    random live QPNs at 1,024 and at 1,000,000 live QPs (a lookup by QP number in O(1)
 *    shows as the same rate).
 * Speed figures live here, never in unit tests. */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver.h"
#include "driver_qp.h"
#include "nicref/link.h"
#include "nicref/nicref.h"
#include "obj/qp.h"
#include "roce/roce.h"

#define NQPS 1000000u
#define NRTS 100000u /* of them taken on to RTS */
#define WINDOW 16u
#define DATA 0x70000000ull

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- RC WRITE through a pair ------------------------------------------------------------------ */

struct side {
	struct nicref_dev *dev;
	struct refdrv d;
	struct refdrv_qp_stack st;
};

static struct nicref_link *link;

static void wtx(void *ctx, unsigned port, const uint8_t *f, size_t len)
{
	struct side *s = ctx;
	if (link)
		nicref_link_tx(link, s->dev, port, f, len);
}

static int side_up(struct side *s)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.ops.wire_tx = wtx;
	cfg.ops.ctx = s;
	if (!(s->dev = nicref_dev_create(&cfg)))
		return -1;
	struct refdrv_ops ops = refdrv_ops_model(s->dev);
	if (refdrv_init(&s->d, &ops) != 0 || refdrv_bring_up(&s->d, REFDRV_INITIALIZED) != 0)
		return -1;
	return 0;
}

static int pair_bench(struct side *a, struct side *b, uint32_t len)
{
	struct refdrv_qp *q = &a->st.qp[0];
	uint64_t msgs = 0;
	struct nicref_link_counters c0[2], c1[2];
	nicref_link_counters(link, NICREF_LINK_AB, &c0[0]);
	nicref_link_counters(link, NICREF_LINK_BA, &c0[1]);
	double t0 = seconds(), t = 0;
	while ((t = seconds() - t0) < 1.0) {
		for (unsigned i = 0; i < WINDOW; i++) {
			struct refdrv_wqe w;
			if (refdrv_wqe_begin(&w, REFDRV_QP_OP_RDMA_WRITE, q->sq.pc, q->qpn) < 0 ||
			    refdrv_wqe_raddr(&w, DATA + 0x80000, b->st.key) < 0 ||
			    refdrv_wqe_ptr(&w, a->st.key, DATA, len) < 0)
				return -1;
			struct refdrv_wqe_ctrl c = { .ce = 2 };
			if (refdrv_wqe_finish(&w, &c, false) != 0 ||
			    refdrv_sq_post(&a->d, &q->sq, &w, REFDRV_RING_DB) != 0)
				return -1;
		}
		unsigned done = 0;
		for (unsigned k = 0; done < WINDOW && k < 1000; k++) {
			nicref_link_advance(link, 20000);
			uint8_t cqe[64];
			while (refdrv_rx_poll(&a->d, &q->scq, cqe) == 1) {
				if (refdrv_rx_cqe_field(cqe, "opcode") != 0) {
					fprintf(stderr, "roce_bench: a WRITE completed in error\n");
					return -1;
				}
				done++;
			}
		}
		if (done != WINDOW) {
			fprintf(stderr, "roce_bench: %u of %u WRITEs completed\n", done, WINDOW);
			return -1;
		}
		msgs += WINDOW;
	}
	nicref_link_counters(link, NICREF_LINK_AB, &c1[0]);
	nicref_link_counters(link, NICREF_LINK_BA, &c1[1]);
	uint64_t pkts = c1[0].delivered - c0[0].delivered + c1[1].delivered - c0[1].delivered;
	printf("  RC WRITE %4u B: %10.0f messages/s %10.0f packets/s (%llu messages, %llu "
	       "packets both ways in %.2f s)\n", len, (double)msgs / t, (double)pkts / t,
	       (unsigned long long)msgs, (unsigned long long)pkts, t);
	return 0;
}

static int bench_pair(void)
{
	static struct side a, b;
	if (side_up(&a) != 0 || side_up(&b) != 0)
		return -1;
	struct refdrv_qp_attr aa, ab;
	refdrv_qp_defaults(&aa);
	aa.local.mac = 0x024E4943520Aull;
	ab = aa;
	refdrv_qp_addr_ip(&ab.local, "192.0.2.2");
	ab.local.mac = 0x024E4943520Bull;
	int which = 0;
	if (refdrv_qp_pair(&a.d, &aa, &a.st, &b.d, &ab, &b.st, &which) != 0) {
		fprintf(stderr, "roce_bench: the pair: %s\n", which ? b.d.error : a.d.error);
		return -1;
	}
	if (!(link = nicref_link_create(a.dev, 1, b.dev, 1, 1024, 2048)))
		return -1;
	printf("RoCE RC through a connected pair (nicref_link, MTU 1024, window %u):\n", WINDOW);
	int rc = pair_bench(&a, &b, 64) || pair_bench(&a, &b, 4096) ? -1 : 0;
	nicref_link_destroy(link);
	link = NULL;
	nicref_dev_destroy(a.dev);
	nicref_dev_destroy(b.dev);
	refdrv_fini(&a.d);
	refdrv_fini(&b.d);
	return rc;
}

/* ---- 1,000,000 live QPs ----------------------------------------------------------------------- */

static int set(void *in, size_t len, const char *L, const char *f, uint64_t v)
{
	return refdrv_field_set(in, len, L, f, v);
}

static int create_qp(struct refdrv *d, const struct refdrv_qp_stack *s, uint32_t *qpn)
{
	uint8_t in[0x110 + 8] = { 0 }, out[0x10] = { 0 };
	const char *L = "create_qp_in";
	int bad = set(in, sizeof in, L, "opcode", (uint64_t)nicref_opcode_find("CREATE_QP"));
	bad |= set(in, sizeof in, L, "st", REFDRV_QP_ST_RC);
	bad |= set(in, sizeof in, L, "pd", s->pd);
	bad |= set(in, sizeof in, L, "uar_page", s->uar);
	bad |= set(in, sizeof in, L, "log_sq_size", 5);  /* 32 x 64 B */
	bad |= set(in, sizeof in, L, "log_rq_size", 5);  /* 32 x 64 B: one 4 KB page in all */
	bad |= set(in, sizeof in, L, "log_rq_stride", 2);
	bad |= set(in, sizeof in, L, "cqn_snd", s->qp[0].scq.cqn);
	bad |= set(in, sizeof in, L, "cqn_rcv", s->qp[0].rcq.cqn);
	uint8_t dbr[8];
	for (int i = 0; i < 8; i++)
		dbr[i] = (uint8_t)(s->qp[0].dbr >> (56 - 8 * i));
	const struct nicref_layout *l = nicref_layout_find(L);
	const struct nicref_field *f = l ? nicref_layout_field(l, "dbr_addr") : NULL;
	if (!f)
		return -1;
	memcpy(in + f->bit_offset / 8, dbr, 8);
	bad |= refdrv_field_set_elem(in, sizeof in, L, "pas", 0, s->qp[0].buf);
	if (bad)
		return -1;
	int st = refdrv_cmd_paged(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*qpn = (uint32_t)refdrv_field_get(out, sizeof out, "create_qp_out", "qpn");
	return st;
}

static int rst2init(struct refdrv *d, uint32_t qpn)
{
	uint8_t in[0x110] = { 0 }, out[0x10] = { 0 };
	const char *L = "rst2init_qp_in";
	int bad = set(in, sizeof in, L, "opcode", (uint64_t)nicref_opcode_find("RST2INIT_QP"));
	bad |= set(in, sizeof in, L, "qpn", qpn);
	bad |= set(in, sizeof in, L, "primary_address_path_vhca_port_num", 1);
	bad |= set(in, sizeof in, L, "rwe", 1);
	return bad ? -1 : refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

static int query_qp(struct refdrv *d, uint32_t qpn)
{
	static uint8_t out[0x110 + 8];
	uint8_t in[0x10] = { 0 };
	set(in, sizeof in, "query_qp_in", "opcode", (uint64_t)nicref_opcode_find("QUERY_QP"));
	set(in, sizeof in, "query_qp_in", "qpn", qpn);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

static double query_rate(struct refdrv *d, const uint32_t *qpns, uint32_t n)
{
	uint64_t x = 0x9E3779B97F4A7C15ull;
	const unsigned N = 50000;
	double t0 = seconds();
	for (unsigned i = 0; i < N; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if (query_qp(d, qpns[(x >> 33) % n]) != 0)
			return -1;
	}
	return N / (seconds() - t0);
}

static int bench_scale(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.log_max_objects = 21;
	cfg.profile.max_icm_pages = 1u << 22; /* the QPs' ICM (D-PG-4) */
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	static struct refdrv d;
	static struct refdrv_qp_stack s;
	if (!dev)
		return -1;
	struct refdrv_ops ops = refdrv_ops_model(dev);
	if (refdrv_init(&d, &ops) != 0 || refdrv_bring_up(&d, REFDRV_INITIALIZED) != 0)
		return -1;
	struct refdrv_qp_attr a;
	refdrv_qp_defaults(&a);
	a.to = REFDRV_QPS_INIT;
	if (refdrv_qp_stack_up(&d, &a, &s) != 0) {
		fprintf(stderr, "roce_bench: the QP stack: %s\n", d.error);
		return -1;
	}
	uint32_t *qpns = malloc(NQPS * sizeof *qpns);
	if (!qpns)
		return -1;
	qpns[0] = s.qp[0].qpn;
	struct mallinfo2 m0 = mallinfo2();
	double q1k = 0, t0 = seconds();
	for (uint32_t i = 1; i < NQPS; i++) {
		if (create_qp(&d, &s, &qpns[i]) != 0 || rst2init(&d, qpns[i]) != 0) {
			fprintf(stderr, "roce_bench: QP %u: %s\n", i, d.error);
			return -1;
		}
		if (i == 1023) {
			struct mallinfo2 mq = mallinfo2();
			double tq = seconds();
			q1k = query_rate(&d, qpns, 1024);
			t0 += seconds() - tq;
			m0.uordblks += mallinfo2().uordblks - mq.uordblks; /* none expected */
		}
	}
	double t_create = seconds() - t0;
	struct mallinfo2 m1 = mallinfo2();
	double per = (double)(m1.uordblks - m0.uordblks) / (NQPS - 1);
	double q1m = query_rate(&d, qpns, NQPS);
	/* RTR and RTS allocate nothing more (D-ROCE-RC-24): NRTS of the QPs taken there, each
	 * connected to the device's own address, and the heap measured again. */
	struct refdrv_qp keep = s.qp[0];
	s.a.to = REFDRV_QPS_RTS;
	struct mallinfo2 m2 = mallinfo2();
	for (uint32_t i = 1; i <= NRTS; i++) {
		s.qp[0].qpn = qpns[i];
		s.qp[0].state = REFDRV_QPS_INIT;
		if (refdrv_qp_connect(&d, &s, 0, qpns[i], &s.a.local) != 0) {
			fprintf(stderr, "roce_bench: QP %u to RTS: %s\n", qpns[i], d.error);
			return -1;
		}
	}
	double per_rts = (double)(mallinfo2().uordblks - m2.uordblks) / NRTS;
	s.qp[0] = keep;
	printf("RoCE scale: %u live QPs in INIT (transport state made), log_max_objects 21:\n",
	       NQPS);
	printf("  CREATE_QP + RST2INIT_QP:   %10.0f QPs/s (%.2f s)\n", (NQPS - 1) / t_create,
	       t_create);
	printf("  heap bytes per live QP:    %10.1f B (target <= 512 B: %s)\n", per,
	       per <= 512 ? "met" : "NOT MET");
	printf("    of which struct qp %zu B with pas[] in the same block (its qpc copy %u B), "
	       "struct roce_qp %zu B (rc_req %zu B, rc_resp %zu B); malloc's headers and the "
	       "object table's share the rest\n", sizeof(struct qp), QP_CTX_BYTES,
	       sizeof(struct roce_qp), sizeof(struct rc_req), sizeof(struct rc_resp));
	printf("  INIT2RTR + RTR2RTS of %u of them: %+.2f heap bytes per QP (in RTS: %.1f B per "
	       "live QP)\n", NRTS, per_rts, per + per_rts);
	printf("  QUERY_QP by QPN:           %10.0f /s at 1,024 live, %10.0f /s at %u live "
	       "(ratio %.2f)\n", q1k, q1m, NQPS, q1m / q1k);
	free(qpns);
	nicref_dev_destroy(dev);
	refdrv_fini(&d);
	return per <= 512 && per + per_rts <= 512 ? 0 : 1;
}

int main(void)
{
	if (bench_pair() != 0) {
		fprintf(stderr, "roce_bench: the pair bench failed\n");
		return 1;
	}
	int rc = bench_scale();
	if (rc < 0)
		fprintf(stderr, "roce_bench: the scale bench failed\n");
	return rc ? 1 : 0;
}
