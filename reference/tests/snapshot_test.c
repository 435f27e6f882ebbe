/* Snapshot and restore (nicref/snapshot.h): a restored device is the device as it was.
 *
 * Each scenario runs on a device the reference driver initialized, three times: on the device
 * as first brought up; on the same device restored from a snapshot taken before that first run
 * (after another scenario changed it too, then a second restore); and on a fresh device brought
 * up the same way. The three traces (every event, field by field), the counters and the host
 * memory (every page, by page number and bytes) must be equal. The scenarios cover the command
 * queue, objects of every family the stacks build, the send path, the receive path with LRO
 * sessions, and the timers (LRO session timers, CQ and EQ moderation, the clock). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/obj.h"
#include "driver_eq.h"
#include "driver_qp.h"
#include "driver_rxstack.h"
#include "driver_steer.h"
#include "driver_vport.h"
#include "driver_wq.h"
#include "nicref/snapshot.h"
#include "testlib.h"

/* ---- What a run leaves ---------------------------------------------------------------------- */

struct outcome {
	size_t n;
	struct nicref_event ev[TL_MAX_EVENTS];
	struct nicref_stats st;
	uint64_t mem_hash; /* FNV-1a over (page number, bytes) of every page in hand-out order */
	size_t pages;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001B3ull;
	return h;
}

static void outcome_of(struct tl_dev *t, struct outcome *o)
{
	cr_assert_eq(t->tr.dropped, 0, "the scenario fits the trace buffer");
	o->n = t->tr.n;
	memcpy(o->ev, t->tr.ev, o->n * sizeof o->ev[0]);
	nicref_stats_get(t->dev, &o->st);
	const struct hostmem *hm = &t->dev->core.hostmem;
	o->pages = hm->used;
	o->mem_hash = 0xCBF29CE484222325ull;
	for (size_t i = 0; i < hm->used; i++) {
		uint64_t pfn;
		const uint8_t *page = hostmem_page(hm, i, &pfn);
		o->mem_hash = fnv(fnv(o->mem_hash, &pfn, sizeof pfn), page, HOSTMEM_PAGE);
	}
}

static void expect_same(const struct outcome *a, const struct outcome *b, const char *what)
{
	cr_assert_eq(a->n, b->n, "%s: %zu events, then %zu", what, a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct nicref_event *x = &a->ev[i], *y = &b->ev[i];
		cr_assert(x->seq == y->seq && x->time_ns == y->time_ns && x->kind == y->kind &&
				  memcmp(x->arg, y->arg, sizeof x->arg) == 0,
			  "%s: event %zu differs (%s, then %s)", what, i,
			  nicref_event_name(x->kind), nicref_event_name(y->kind));
	}
	cr_assert(memcmp(&a->st, &b->st, sizeof a->st) == 0, "%s: counters differ", what);
	cr_assert_eq(a->pages, b->pages, "%s: %zu host pages, then %zu", what, a->pages, b->pages);
	cr_assert_eq(a->mem_hash, b->mem_hash, "%s: host memory differs", what);
}

/* ---- The driver's side, kept beside the device's snapshot ----------------------------------- */

struct host {
	struct refdrv d;
	uint64_t *pages;
	uint32_t uar, cqn;
	uint64_t next_mem;
	bool have_cq;
};

static void host_save(const struct tl_dev *t, struct host *h)
{
	h->d = t->d;
	h->pages = malloc((t->d.npages + 1) * sizeof *h->pages);
	cr_assert(h->pages);
	memcpy(h->pages, t->d.pages, t->d.npages * sizeof *h->pages);
	h->uar = t->uar;
	h->cqn = t->cqn;
	h->next_mem = t->next_mem;
	h->have_cq = t->have_cq;
}

static void host_restore(struct tl_dev *t, const struct host *h)
{
	uint64_t *pages = t->d.pages;
	uint32_t cap = t->d.pages_cap;
	t->d = h->d;
	t->d.pages = pages;
	t->d.pages_cap = cap;
	cr_assert(h->d.npages <= cap);
	memcpy(pages, h->pages, h->d.npages * sizeof *pages);
	t->uar = h->uar;
	t->cqn = h->cqn;
	t->next_mem = h->next_mem;
	t->have_cq = h->have_cq;
}

/* ---- Scenarios ------------------------------------------------------------------------------- */

typedef void scenario_fn(struct tl_dev *t);

/* The command queue: handle allocations, a refused command, a query with a mailbox output. */
static void sc_commands(struct tl_dev *t)
{
	(void)tl_alloc_pd(t);
	(void)tl_alloc_td(t);
	(void)tl_alloc_pd(t);
	uint8_t in[16] = { 0x7F, 0xFE }, out[16];
	(void)tl_cmd(t, in, sizeof in, out, sizeof out); /* no such opcode: refused */
	uint8_t q[16] = { 0x01, 0x00 }; /* QUERY_HCA_CAP, op_mod 1: current general caps */
	q[7] = 1;
	static uint8_t caps[16 + 0x1000];
	(void)tl_cmd(t, q, sizeof q, caps, sizeof caps);
	nicref_clock_advance(t->dev, 5000);
}

/* Objects of every family the send stack builds, then half of them destroyed. */
static void sc_objects(struct tl_dev *t)
{
	struct refdrv_sq_stack_attr a;
	struct refdrv_sq_stack s;
	refdrv_sq_stack_defaults(&a);
	cr_assert_eq(refdrv_sq_stack_up(&t->d, &a, &s), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_sq_stack_down(&t->d, &s), 0, "%s", t->d.error);
	(void)tl_alloc_pd(t);
}

/* The send path: three SENDs of 100 bytes (the headers inline), one through Blue Flame, on
 * the send stack (send_up: commands; send_traffic: none). */
static struct refdrv_sq_stack_attr sq_attr;
static struct refdrv_sq_stack sq_stack;
static const uint8_t *send_frame(void)
{
	static uint8_t frame[100];
	for (unsigned i = 0; i < sizeof frame; i++)
		frame[i] = (uint8_t)(i * 7);
	memset(frame, 0xFF, 6); /* broadcast */
	return frame;
}

static void send_up(struct tl_dev *t)
{
	refdrv_sq_stack_defaults(&sq_attr);
	cr_assert_eq(refdrv_sq_stack_up(&t->d, &sq_attr, &sq_stack), 0, "%s", t->d.error);
	tl_mem_write(t, sq_attr.data_addr, send_frame(), 100);
}

static void send_traffic(struct tl_dev *t)
{
	const uint8_t *frame = send_frame();
	for (unsigned k = 0; k < 3; k++) {
		struct refdrv_wqe w;
		memset(&w, 0, sizeof w);
		cr_assert(refdrv_wqe_begin(&w, (unsigned)refdrv_wqe_opcode_find("SEND"),
					   sq_stack.pc, sq_stack.sqn) >= 0);
		cr_assert(refdrv_wqe_eth(&w, frame, 18) >= 0);
		cr_assert(refdrv_wqe_ptr(&w, sq_stack.lkey, sq_attr.data_addr + 18, 100 - 18) >= 0);
		struct refdrv_wqe_ctrl c = { .ce = 2 };
		cr_assert_eq(refdrv_wqe_finish(&w, &c, sq_attr.wq_signature), 0);
		cr_assert_eq(refdrv_sq_write(&t->d, &sq_stack, w.b, w.len), 0);
		cr_assert_eq(refdrv_sq_record(&t->d, &sq_stack), 0);
		if (k == 2)
			cr_assert_eq(refdrv_sq_ring_bf(&t->d, &sq_stack), 0);
		else
			refdrv_sq_ring(&t->d, &sq_stack);
		nicref_clock_advance(t->dev, 1000);
	}
}

static void sc_send(struct tl_dev *t)
{
	send_up(t);
	send_traffic(t);
}

/* An IPv4 TCP segment of flow `port` with `payload` bytes from the wire (valid checksums). */
static size_t tcp_frame(uint8_t *f, uint16_t port, uint32_t seq, size_t payload)
{
	static const uint8_t hdr[14] = { 0x02, 0x4E, 0x49, 0x43, 0x52, 0x46, 0x02, 0, 0, 0, 0, 1,
					 0x08, 0x00 };
	size_t ip_len = 20 + 20 + payload;
	memset(f, 0, 14 + ip_len);
	memcpy(f, hdr, 14);
	uint8_t *ip = f + 14, *tcp = ip + 20;
	ip[0] = 0x45;
	ip[2] = (uint8_t)(ip_len >> 8);
	ip[3] = (uint8_t)ip_len;
	ip[6] = 0x40; /* DF */
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, (const uint8_t[]){ 10, 0, 0, 1, 10, 0, 0, 2 }, 8);
	tcp[0] = (uint8_t)(port >> 8);
	tcp[1] = (uint8_t)port;
	tcp[2] = 0x1F;
	tcp[3] = 0x90;
	for (unsigned i = 0; i < 4; i++)
		tcp[4 + i] = (uint8_t)(seq >> (24 - 8 * i));
	tcp[11] = 1;     /* ack 1 */
	tcp[12] = 0x50;  /* 5 words */
	tcp[13] = 0x10;  /* ACK */
	tcp[14] = 0x10;  /* window */
	for (size_t i = 0; i < payload; i++)
		tcp[20 + i] = (uint8_t)(seq + i);
	uint32_t s = 0;
	for (unsigned i = 0; i < 20; i += 2)
		s += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	ip[10] = (uint8_t)(~s >> 8);
	ip[11] = (uint8_t)~s;
	size_t tl = 20 + payload;
	s = 0x0A00 + 0x0001 + 0x0A00 + 0x0002 + 6 + (uint32_t)tl;
	for (size_t i = 0; i < tl; i += 2)
		s += (uint32_t)tcp[i] << 8 | (i + 1 < tl ? tcp[i + 1] : 0);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	tcp[16] = (uint8_t)(~s >> 8);
	tcp[17] = (uint8_t)~s;
	return 14 + ip_len;
}

/* The receive path with LRO: two flows whose segments merge into sessions, then the sessions'
 * timers end them (PRM §3.3.6), on the receive stack (lro_up: commands; lro_traffic: none). */
static struct refdrv_rx_stack rx_stack;
static void lro_up(struct tl_dev *t)
{
	struct refdrv_rx_stack_attr a;
	refdrv_rx_stack_defaults(&a);
	a.log_rq = 4;
	a.wqe_bytes = 16384;
	a.log_cq = 6;
	a.tir.lro_enable_mask = 3;
	a.tir.lro_timeout_usecs = 32;
	a.tir.lro_max_msg_sz = 64;
	cr_assert_eq(refdrv_rx_stack_up(&t->d, &a, &rx_stack), 0, "%s", t->d.error);
}

static void lro_traffic(struct tl_dev *t)
{
	uint8_t f[1600];
	for (unsigned k = 0; k < 4; k++) {
		for (uint16_t flow = 0; flow < 2; flow++) {
			size_t n = tcp_frame(f, (uint16_t)(1000 + flow), 100 + 200 * k, 200);
			cr_assert_eq(nicref_wire_rx(t->dev, 1, f, n), 0);
		}
		nicref_clock_advance(t->dev, 3000);
	}
	nicref_clock_advance(t->dev, 1000000); /* past every session's timer */
}

static void sc_lro(struct tl_dev *t)
{
	lro_up(t);
	lro_traffic(t);
}

/* Both stacks, for traffic over a snapshot holding their objects. */
static void both_up(struct tl_dev *t)
{
	send_up(t);
	lro_up(t);
}

/* Traffic of both kinds, interleaved differently. */
static void mixed_traffic(struct tl_dev *t)
{
	lro_traffic(t);
	send_traffic(t);
	nicref_clock_advance(t->dev, 12345);
}

/* ---- The runs ---------------------------------------------------------------------------------- */

static void run(struct tl_dev *t, scenario_fn *sc, struct outcome *o)
{
	tl_mark(&t->tr);
	sc(t);
	cr_assert_eq(t->tr.violations, 0, "the scenario breaks no rule");
	cr_assert_eq(nicref_dev_check(t->dev), 0, "invariants");
	outcome_of(t, o);
}

static struct outcome first, again, fresh;

static void check_scenario(scenario_fn *sc, scenario_fn *other)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	struct host h;
	host_save(t, &h);
	int why = -1;
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, &why);
	cr_assert(s, "snapshot refused (%d)", why);
	cr_assert_eq(why, NICREF_SNAP_OK);
	run(t, sc, &first);
	/* Changed by another scenario in between: the restore undoes whatever came since. */
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	host_restore(t, &h);
	run(t, other, &again);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	host_restore(t, &h);
	run(t, sc, &again);
	expect_same(&first, &again, "restored");
	nicref_snapshot_free(s);
	free(h.pages);
	tl_down(t);

	t = tl_up_to(NULL, REFDRV_INITIALIZED);
	run(t, sc, &fresh);
	expect_same(&first, &fresh, "fresh device");
	tl_down(t);
}

Test(snapshot, commands_replay_the_same)
{
	check_scenario(sc_commands, sc_lro);
}

Test(snapshot, objects_replay_the_same)
{
	check_scenario(sc_objects, sc_send);
}

Test(snapshot, send_path_replays_the_same)
{
	check_scenario(sc_send, sc_lro);
}

Test(snapshot, receive_path_with_lro_sessions_and_timers_replays_the_same)
{
	check_scenario(sc_lro, sc_send);
}

/* The scenarios do something: each emits events and writes host memory, so the comparisons
 * above compare something. */
Test(snapshot, scenarios_leave_a_trace)
{
	scenario_fn *const all[] = { sc_commands, sc_objects, sc_send, sc_lro };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
		size_t pages = t->dev->core.hostmem.used;
		run(t, all[i], &first);
		cr_expect_gt(first.n, 2, "scenario %zu: %zu events", i, first.n);
		cr_expect(i == 0 || first.pages > pages, "scenario %zu writes new pages", i);
		tl_down(t);
	}
	/* The LRO scenario merges and its timers end sessions. */
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	run(t, sc_lro, &first);
	cr_expect_gt(first.st.lro_sessions_opened, 0);
	tl_down(t);
	t = tl_up_to(NULL, REFDRV_INITIALIZED);
	run(t, sc_send, &first);
	cr_expect_eq(first.st.send_wqes, 3);
	cr_expect_eq(first.st.frames_out, 3);
	tl_down(t);
}

/* ---- Snapshots holding objects ---------------------------------------------------------------- */

/* The driver's stacks as they were at the snapshot. */
static struct refdrv_sq_stack sq_saved;
static struct refdrv_rx_stack rx_saved;

static void traffic_restore(struct tl_dev *t, struct nicref_snapshot *s, const struct host *h)
{
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0, "no command since: restorable");
	host_restore(t, h);
	sq_stack = sq_saved;
	rx_stack = rx_saved;
}

/* The first half of the send CQ's doorbell (T13 20h: cmd_sn 0, ARM_NEXT, ci 0), left for
 * the traffic to complete with 24h: the doorbell layer holds it across the snapshot. */
static void cq_db_low(struct tl_dev *t)
{
	nicref_bar_write32(t->dev, sq_stack.uar * 4096u + 0x20, 0);
}

static void cq_db_high_then_send(struct tl_dev *t)
{
	nicref_bar_write32(t->dev, sq_stack.uar * 4096u + 0x24, sq_stack.cq.cqn);
	send_traffic(t);
}

/* The other run: the doorbell completed too (a send doorbell between its halves would be a
 * CQ_DB_SPLIT, §7.2.2.2), then traffic of both kinds. */
static void cq_db_high_then_mixed(struct tl_dev *t)
{
	nicref_bar_write32(t->dev, sq_stack.uar * 4096u + 0x24, sq_stack.cq.cqn);
	mixed_traffic(t);
}

/* The stacks built (then `pre`, when given), the snapshot taken over their objects, then
 * traffic only. */
static void check_traffic_pre(scenario_fn *pre, scenario_fn *traffic, scenario_fn *other)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	both_up(t);
	if (pre)
		pre(t);
	struct host h;
	host_save(t, &h);
	sq_saved = sq_stack;
	rx_saved = rx_stack;
	int why = -1;
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, &why);
	cr_assert(s, "snapshot refused (%d)", why);
	run(t, traffic, &first);
	traffic_restore(t, s, &h);
	run(t, other, &again);
	traffic_restore(t, s, &h);
	run(t, traffic, &again);
	expect_same(&first, &again, "restored");
	nicref_snapshot_free(s);
	free(h.pages);
	tl_down(t);

	t = tl_up_to(NULL, REFDRV_INITIALIZED);
	both_up(t);
	if (pre)
		pre(t);
	run(t, traffic, &fresh);
	expect_same(&first, &fresh, "fresh device");
	tl_down(t);
}

static void check_traffic(scenario_fn *traffic, scenario_fn *other)
{
	check_traffic_pre(NULL, traffic, other);
}

Test(snapshot, doorbell_half_over_objects_replays_the_same)
{
	check_traffic_pre(cq_db_low, cq_db_high_then_send, cq_db_high_then_mixed);
}

Test(snapshot, send_traffic_over_objects_replays_the_same)
{
	check_traffic(send_traffic, mixed_traffic);
}

Test(snapshot, lro_traffic_and_timers_over_objects_replay_the_same)
{
	check_traffic(lro_traffic, mixed_traffic);
}

Test(snapshot, mixed_traffic_over_objects_replays_the_same)
{
	check_traffic(mixed_traffic, send_traffic);
}

/* Commands that change objects in place (MODIFY_TIR of the LRO group, queries) over a snapshot
 * holding objects: the restore still brings the device back. */
static void modify_then_lro_traffic(struct tl_dev *t)
{
	cr_assert_eq(refdrv_rx_stack_modify_lro(&t->d, &rx_stack, 1, 64, 32), 0, "%s",
		     t->d.error);
	lro_traffic(t);
	cr_assert_eq(refdrv_rx_stack_modify_lro(&t->d, &rx_stack, 3, 32, 64), 0, "%s",
		     t->d.error);
	send_traffic(t);
}

Test(snapshot, in_place_commands_over_objects_replay_the_same)
{
	check_traffic(modify_then_lro_traffic, mixed_traffic);
}

/* ---- Objects created, destroyed and reallocated over a snapshot holding objects ------------
 * (D-SNAP-1). The snapshot holds both stacks; `churn` then destroys the send stack (SQ, TIS, CQ,
 * EQ, MKey, UAR, TD, PD), reallocates what objects hold (the receive CQ's buffer by a resize,
 * the vport's unicast list, the L2 table), and creates objects of the other families (a flow
 * table with a group, an entry and a counter, an RMP, a PD, a QP stack: UAR, EQ, CQs, MKey, a
 * GID, QPs with transport state). A restore brings the device back: the same trace as the
 * first run and as a fresh device's, both for traffic after the churn was undone and for the
 * churn itself run again (its creations get the same handles). */
static struct refdrv_qp_attr qp_attr;
static struct refdrv_qp_stack qp_stack, qp_saved;

static void qp_attr_set(unsigned nqp)
{
	refdrv_qp_defaults(&qp_attr);
	qp_attr.nqp = nqp;
	/* clear of both stacks' host memory (0x30000000-0x31FFFFFF, 0x60000000-, 1 << 32-) */
	qp_attr.eq_buf = 0x50000000ull;
	qp_attr.qp_dbr = 0x50FF0000ull;
	qp_attr.cq_dbr = 0x50FE0000ull;
	qp_attr.qp_buf = 0x51000000ull;
	qp_attr.cq_buf = 0x52000000ull;
	qp_attr.data_addr = 0x54000000ull;
}

static void churn(struct tl_dev *t)
{
	cr_assert_eq(refdrv_sq_stack_down(&t->d, &sq_stack), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_resize_cq(&t->d, &rx_stack.cq, 0x58000000ull, 7, 0, 0), 0, "%s",
		     t->d.error);
	uint64_t macs[2] = { 0x020000000011ull, 0x020000000022ull };
	struct refdrv_nic_vport v = { .list_type = 0, .list_size = 2, .list = macs };
	cr_assert_eq(refdrv_modify_nic_vport_context(&t->d, REFDRV_VPORT_ADDRESSES_LIST, &v), 0,
		     "%s", t->d.error);
	struct refdrv_l2_entry l2 = { .mac = 0x020000000033ull };
	cr_assert_eq(refdrv_set_l2_entry(&t->d, 3, &l2), 0, "%s", t->d.error);
	uint32_t ft, fg, fc;
	cr_assert_eq(refdrv_create_flow_table(&t->d, 0, 1, 4, 0, 0, &ft), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_create_flow_group(&t->d, 0, ft, 0, 15, 0, NULL, &fg), 0, "%s",
		     t->d.error);
	cr_assert_eq(refdrv_alloc_flow_counter(&t->d, &fc), 0, "%s", t->d.error);
	struct refdrv_fte e = { .group_id = fg, .action = 1 | 8, .ncnt = 1, .cnt = { (uint16_t)fc } };
	cr_assert_eq(refdrv_set_fte(&t->d, 0, ft, 0, 0, 0, &e), 0, "%s", t->d.error);
	struct refdrv_rmp_attr rmp = { .wq = { .buf = 0x59000000ull, .dbr = 0x59100000ull,
					       .wq_type = 1, .log_wq_sz = 4, .log_wq_stride = 6,
					       .pd = rx_stack.sq.pd } };
	uint32_t rmpn;
	cr_assert_eq(refdrv_create_rmp(&t->d, &rmp, &rmpn), 0, "%s", t->d.error);
	(void)tl_alloc_pd(t);
	qp_attr_set(2);
	cr_assert_eq(refdrv_qp_stack_up(&t->d, &qp_attr, &qp_stack), 0, "%s", t->d.error);
	nicref_clock_advance(t->dev, 100);
}

static void churn_then_traffic(struct tl_dev *t)
{
	churn(t);
	lro_traffic(t);
}

Test(snapshot, objects_made_destroyed_and_reallocated_since_are_undone)
{
	check_traffic(mixed_traffic, churn);
}

Test(snapshot, creations_after_a_restore_replay_the_same)
{
	check_traffic(churn_then_traffic, churn_then_traffic);
}

/* A reset since (every object destroyed, the tables closed, the snapshot no longer tracked):
 * the restore brings the objects back from the snapshot's list and blocks. */
static void reset_device(struct tl_dev *t)
{
	nicref_dev_reset(t->dev);
	nicref_hostmem_clear(t->dev);
}

Test(snapshot, a_reset_since_is_undone)
{
	check_traffic(mixed_traffic, reset_device);
}

/* A snapshot of a device with no object, restored after objects of every family came and
 * some went, then taken again over them and restored across each other. */
Test(snapshot, churn_over_a_bare_snapshot_replays_the_same)
{
	check_scenario(sc_objects, sc_lro);
	check_scenario(sc_lro, sc_objects);
}

/* ---- QPs in snapshots (D-ROCE-18) -------------------------------------------------------------
 * Two RC QPs connected to each other through the device's own GID (D-ROCE-12 loopback), in the
 * snapshot with their transport state; RDMA WRITEs and SENDs run over it, the retransmission
 * timer armed and disarmed, then QPs go to ERR and are destroyed by `qp_churn`. */
static void qp_up(struct tl_dev *t)
{
	qp_attr_set(2);
	cr_assert_eq(refdrv_qp_stack_up(&t->d, &qp_attr, &qp_stack), 0, "%s", t->d.error);
	for (unsigned i = 0; i < 2; i++)
		cr_assert_eq(refdrv_qp_connect(&t->d, &qp_stack, i, qp_stack.qp[1 - i].qpn,
					       &qp_attr.local),
			     0, "%s", t->d.error);
	uint8_t pattern[512];
	for (unsigned i = 0; i < sizeof pattern; i++)
		pattern[i] = (uint8_t)(i * 13 + 1);
	tl_mem_write(t, qp_attr.data_addr, pattern, sizeof pattern);
}

static void qp_post(struct tl_dev *t, unsigned from, unsigned op, uint64_t raddr, uint32_t len)
{
	struct refdrv_qp *q = &qp_stack.qp[from];
	struct refdrv_wqe w;
	memset(&w, 0, sizeof w);
	cr_assert(refdrv_wqe_begin(&w, op, q->sq.pc, q->qpn) >= 0);
	if (op == REFDRV_QP_OP_RDMA_WRITE)
		cr_assert(refdrv_wqe_raddr(&w, raddr, qp_stack.key) >= 0);
	cr_assert(refdrv_wqe_ptr(&w, qp_stack.key, qp_attr.data_addr, len) >= 0);
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0);
	cr_assert_eq(refdrv_sq_post(&t->d, &q->sq, &w, REFDRV_RING_DB), 0, "%s", t->d.error);
}

static void qp_traffic(struct tl_dev *t)
{
	for (unsigned k = 0; k < 3; k++) {
		qp_post(t, 0, REFDRV_QP_OP_RDMA_WRITE, qp_attr.data_addr + 0x8000 + 0x1000 * k,
			100 + 50 * k);
		nicref_clock_advance(t->dev, 1000);
	}
	qp_post(t, 1, REFDRV_QP_OP_SEND, 0, 64); /* no receive WQE posted: RNR NAKs, retries */
	/* Each advance passes two RNR waits (min_rnr_nak 1: 10 us), each retried at its deadline
	 * (nicref_clock_advance stops there): 16 retries fit the trace buffer. */
	for (unsigned k = 0; k < 8; k++)
		nicref_clock_advance(t->dev, 20000);
}

static void qp_destroy(struct tl_dev *t, uint32_t qpn)
{
	tl_begin(t, "destroy_qp_in", "DESTROY_QP");
	tl_set(t, "destroy_qp_in", "qpn", qpn);
	cr_assert_eq(tl_run(t, 0x10, 0x10), 0, "DESTROY_QP %u", qpn);
}

static void qp_churn(struct tl_dev *t)
{
	qp_post(t, 0, REFDRV_QP_OP_SEND, 0, 32);
	qp_destroy(t, qp_stack.qp[1].qpn);
	nicref_clock_advance(t->dev, 5000000);
	qp_destroy(t, qp_stack.qp[0].qpn);
	struct refdrv_qp_stack more;
	struct refdrv_qp_attr a = qp_attr;
	a.nqp = 1;
	a.qp_buf = 0x5A000000ull;
	a.cq_buf = 0x5B000000ull;
	a.eq_buf = 0x5C000000ull;
	a.qp_dbr = 0x5CFF0000ull;
	a.cq_dbr = 0x5CFE0000ull;
	cr_assert_eq(refdrv_qp_stack_up(&t->d, &a, &more), 0, "%s", t->d.error);
	nicref_clock_advance(t->dev, 10);
}

static void check_qps(scenario_fn *traffic, scenario_fn *other)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	qp_up(t);
	struct host h;
	host_save(t, &h);
	qp_saved = qp_stack;
	int why = -1;
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, &why);
	cr_assert(s, "snapshot refused (%d)", why);
	run(t, traffic, &first);
	for (unsigned k = 0; k < 2; k++) {
		cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
		host_restore(t, &h);
		qp_stack = qp_saved;
		run(t, k ? traffic : other, &again);
	}
	expect_same(&first, &again, "restored");
	nicref_snapshot_free(s);
	free(h.pages);
	tl_down(t);

	t = tl_up_to(NULL, REFDRV_INITIALIZED);
	qp_up(t);
	run(t, traffic, &fresh);
	expect_same(&first, &fresh, "fresh device");
	tl_down(t);
}

Test(snapshot, qp_traffic_over_a_snapshot_holding_qps_replays_the_same)
{
	check_qps(qp_traffic, qp_churn);
}

Test(snapshot, qps_destroyed_and_made_since_are_undone)
{
	check_qps(qp_churn, qp_traffic);
}

/* The QP scenarios do something: packets, completions, a retransmission or an RNR NAK. */
Test(snapshot, qp_scenarios_leave_a_trace)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	qp_up(t);
	run(t, qp_traffic, &first);
	cr_expect_gt(first.st.roce_pkts_out, 3);
	cr_expect_gt(first.st.roce_pkts_in, 3);
	cr_expect_gt(first.st.roce_rnr_naks_sent + first.st.roce_retransmits, 0);
	tl_down(t);
}

/* Another snapshot tracked since, and the host memory cleared since: both restore every page
 * of the snapshot, and the device is still the one captured. */
Test(snapshot, untracked_or_cleared_restore_is_whole)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	struct host h;
	host_save(t, &h);
	struct nicref_snapshot *s1 = nicref_snapshot_take(t->dev, NULL);
	cr_assert(s1);
	run(t, sc_send, &first);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s1), 0);
	host_restore(t, &h);
	nicref_clock_advance(t->dev, 77);
	struct nicref_snapshot *s2 = nicref_snapshot_take(t->dev, NULL); /* now tracked */
	cr_assert(s2);
	run(t, sc_commands, &again);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s1), 0);
	host_restore(t, &h);
	run(t, sc_send, &again);
	expect_same(&first, &again, "after another snapshot");
	nicref_hostmem_clear(t->dev);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s1), 0);
	host_restore(t, &h);
	run(t, sc_send, &again);
	expect_same(&first, &again, "after a clear");
	cr_expect_eq(nicref_snapshot_restore(t->dev, NULL), -1);
	nicref_snapshot_free(s2);
	nicref_snapshot_free(s1);
	free(h.pages);
	tl_down(t);
}

/* Two snapshots of one device at two stages, restored across each other after the device
 * changed (objects, an L2 entry's worth of commands, traffic): each restore is its own stage
 * exactly, as a fresh device brought to that stage is. (A fuzz run found this: a restore of one
 * snapshot that trusted what the device had done since another.) */
static void query_issi(struct tl_dev *t)
{
	uint8_t in[16] = { 0x01, 0x0A }, out[0x70];
	(void)tl_cmd(t, in, sizeof in, out, sizeof out);
	nicref_clock_advance(t->dev, 10);
}

Test(snapshot, snapshots_of_two_stages_restore_across_each_other)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_ENABLED);
	struct host ha, hb;
	host_save(t, &ha);
	struct nicref_snapshot *a = nicref_snapshot_take(t->dev, NULL);
	cr_assert(a);
	cr_assert_eq(refdrv_bring_up(&t->d, REFDRV_INITIALIZED), 0, "%s", t->d.error);
	host_save(t, &hb);
	struct nicref_snapshot *b = nicref_snapshot_take(t->dev, NULL);
	cr_assert(b);
	sc_send(t);
	cr_assert_eq(nicref_snapshot_restore(t->dev, a), 0);
	host_restore(t, &ha);
	run(t, query_issi, &first);
	cr_assert_eq(nicref_snapshot_restore(t->dev, b), 0);
	host_restore(t, &hb);
	run(t, sc_commands, &again);
	cr_assert_eq(nicref_snapshot_restore(t->dev, a), 0);
	host_restore(t, &ha);
	run(t, query_issi, &again);
	expect_same(&first, &again, "stage ENABLED");
	cr_assert_eq(nicref_snapshot_restore(t->dev, b), 0);
	host_restore(t, &hb);
	run(t, sc_send, &again);
	nicref_snapshot_free(b);
	nicref_snapshot_free(a);
	free(ha.pages);
	free(hb.pages);
	tl_down(t);

	t = tl_up_to(NULL, REFDRV_ENABLED);
	run(t, query_issi, &fresh);
	expect_same(&first, &fresh, "fresh ENABLED");
	tl_down(t);
	t = tl_up_to(NULL, REFDRV_INITIALIZED);
	run(t, sc_send, &fresh);
	expect_same(&again, &fresh, "fresh INITIALIZED");
	tl_down(t);
}

/* ---- What a restore copies back only when it changed ------------------------------------------
 * A restore of the snapshot the device continues from skips what was not written since: the
 * current capabilities (written by SET_HCA_CAP and by a reset undoing one), the doorbell pages
 * (written, emptied by a reset, or made by an ALLOC_UAR of a new number), and the ports past the
 * profile's (never written but by a reset). Each comes back when it did change; a snapshot
 * refused half way leaves the one the device continues from whole. */

static void set_log_max_sq(struct tl_dev *t, uint64_t v)
{
	static uint8_t in[0x1010];
	uint8_t out[16];
	memset(in, 0, sizeof in);
	cr_assert_eq(nicref_field_set(in, 16, tl_field("cmd_in", "opcode"),
				      (uint64_t)nicref_opcode_find("SET_HCA_CAP")), 0);
	memcpy(in + 0x10, t->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES);
	cr_assert_eq(nicref_field_set(in + 0x10, CAP_BYTES, tl_field("hca_cap", "log_max_sq"), v), 0);
	cr_assert_eq(tl_cmd(t, in, sizeof in, out, sizeof out), 0, "SET_HCA_CAP log_max_sq %llu",
		     (unsigned long long)v);
}

/* A 16-byte command that must succeed (DISABLE_HCA, TEARDOWN_HCA graceful: op_mod and the
 * rest 0). */
static void simple_cmd(struct tl_dev *t, const char *opcode)
{
	uint8_t in[16] = { 0 }, out[16];
	cr_assert_eq(nicref_field_set(in, 16, tl_field("cmd_in", "opcode"),
				      (uint64_t)nicref_opcode_find(opcode)), 0);
	cr_assert_eq(tl_cmd(t, in, sizeof in, out, sizeof out), 0, "%s", opcode);
}

static void expect_caps(const struct tl_dev *t, const uint8_t *want, const char *what)
{
	cr_assert_eq(memcmp(t->dev->core.caps.cur, want, sizeof t->dev->core.caps.cur), 0,
		     "%s: the current capabilities are not the snapshot's", what);
}

Test(snapshot, capabilities_written_since_come_back)
{
	static uint8_t want[CAP_TYPES][CAP_BYTES], dflt[CAP_TYPES][CAP_BYTES];
	struct tl_dev *t = tl_up_to(NULL, REFDRV_ENABLED);
	memcpy(dflt, t->dev->core.caps.cur, sizeof dflt);
	set_log_max_sq(t, 10);
	memcpy(want, t->dev->core.caps.cur, sizeof want);
	cr_assert_neq(memcmp(want, dflt, sizeof want), 0, "SET_HCA_CAP changed a capability");
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, NULL);
	cr_assert(s);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_caps(t, want[0], "nothing since");
	set_log_max_sq(t, 0);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_caps(t, want[0], "SET_HCA_CAP since");
	set_log_max_sq(t, 12); /* again after a restore */
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_caps(t, want[0], "SET_HCA_CAP after a restore");
	simple_cmd(t, "DISABLE_HCA"); /* the defaults back (§12.3.9), the snapshot still tracked */
	expect_caps(t, dflt[0], "DISABLE_HCA");
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_caps(t, want[0], "DISABLE_HCA since");
	nicref_dev_reset(t->dev);
	expect_caps(t, dflt[0], "the reset");
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_caps(t, want[0], "a reset since");
	/* and the device knows its capabilities are changed: a reset puts the defaults back */
	nicref_dev_reset(t->dev);
	expect_caps(t, dflt[0], "a reset after the restore");
	nicref_snapshot_free(s);
	tl_down(t);
}

/* The first or the second half of the CQ doorbell (T13 20h, 24h) on UAR page `uar`. */
static void cq_db_half(struct tl_dev *t, uint32_t uar, unsigned reg, uint32_t v)
{
	nicref_bar_write32(t->dev, (uint32_t)refdrv_uar_offset(&t->d, uar) + reg, v);
}

/* The second half rung on `uar`: the page held a first half (the doorbell rings, for CQ 0x123
 * that does not exist: CQ_DB_NO_CQ) or did not (CQ_DB_SPLIT, §7.2.2.2). */
static void expect_first_half(struct tl_dev *t, uint32_t uar, bool held, const char *what)
{
	tl_mark(&t->tr);
	cq_db_half(t, uar, 0x24, 0x123);
	const struct nicref_event *v = tl_nth(&t->tr, NICREF_EV_VIOLATION, 0);
	cr_assert(v, "%s: no violation", what);
	cr_expect_eq(v->arg[0], held ? NICREF_VIO_CQ_DB_NO_CQ : NICREF_VIO_CQ_DB_SPLIT,
		     "%s: %s, so the page %s a first half", what,
		     nicref_violation_name((unsigned)v->arg[0]), held ? "held" : "did not hold");
}

Test(snapshot, doorbell_pages_written_made_or_emptied_since_come_back)
{
	struct tl_dev *t = tl_up(NULL);
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, NULL);
	cr_assert(s);
	cq_db_half(t, t->uar, 0x20, 0); /* written since */
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_first_half(t, t->uar, false, "a page written since");
	uint32_t uar2;
	cr_assert_eq(refdrv_alloc_uar(&t->d, &uar2), 0, "%s", t->d.error);
	cq_db_half(t, uar2, 0x20, 0); /* made since */
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	uint32_t uar3;
	cr_assert_eq(refdrv_alloc_uar(&t->d, &uar3), 0, "%s", t->d.error);
	cr_assert_eq(uar3, uar2, "the same number (D-OBJ-2)");
	expect_first_half(t, uar2, false, "a page made since");
	nicref_snapshot_free(s);

	cq_db_half(t, t->uar, 0x20, 0); /* held by the next snapshot */
	s = nicref_snapshot_take(t->dev, NULL);
	cr_assert(s);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_first_half(t, t->uar, true, "nothing since");
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	/* TEARDOWN_HCA empties the pages written since the last reset (the objects go), the
	 * snapshot still tracked; a reset, and the next restore copies everything. */
	simple_cmd(t, "TEARDOWN_HCA");
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_first_half(t, t->uar, true, "TEARDOWN_HCA since");
	nicref_dev_reset(t->dev);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	expect_first_half(t, t->uar, true, "a reset since");
	nicref_snapshot_free(s);
	tl_down(t);
}

Test(snapshot, ports_come_back_whole)
{
	static struct port saved[NICREF_MAX_PORTS];
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	memcpy(saved, t->dev->port, sizeof saved);
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, NULL);
	cr_assert(s);
	sc_send(t);
	cr_assert_neq(memcmp(saved, t->dev->port, sizeof saved), 0, "the frames counted");
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	cr_expect_eq(memcmp(saved, t->dev->port, sizeof saved), 0, "the ports are the snapshot's");
	nicref_dev_reset(t->dev);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	cr_expect_eq(memcmp(saved, t->dev->port, sizeof saved), 0, "after a reset too");
	nicref_snapshot_free(s);
	tl_down(t);
}

/* A snapshot refused for an open LRO session after the object row saved its part (its undo
 * logs started afresh): the restore of the snapshot taken before still undoes the objects the
 * receive stack made. */
Test(snapshot, a_refused_snapshot_leaves_the_last_one_whole)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);
	struct host h;
	host_save(t, &h);
	struct nicref_snapshot *s = nicref_snapshot_take(t->dev, NULL);
	cr_assert(s);
	run(t, sc_send, &first);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	host_restore(t, &h);
	lro_up(t);
	uint8_t f[1600];
	size_t n = tcp_frame(f, 1000, 100, 200);
	cr_assert_eq(nicref_wire_rx(t->dev, 1, f, n), 0);
	int why = -1;
	cr_assert_null(nicref_snapshot_take(t->dev, &why), "an LRO session is open");
	cr_assert_eq(why, NICREF_SNAP_UNSUPPORTED_STATE, "refusal %d", why);
	cr_assert_eq(nicref_snapshot_restore(t->dev, s), 0);
	host_restore(t, &h);
	cr_assert_eq(nicref_dev_check(t->dev), 0, "invariants after the restore");
	run(t, sc_send, &again);
	expect_same(&first, &again, "restored after a refused snapshot");
	nicref_snapshot_free(s);
	free(h.pages);
	tl_down(t);
}

/* D-SNAP-3: a device made without nicref_config.snapshots keeps its objects in plain malloc
 * blocks, so it cannot be captured: the refusal says why, and nothing else changes. */
Test(snapshot, refused_without_the_config_flag)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cr_assert(!cfg.snapshots, "snapshots are asked for, not the default");
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	int why = -1;
	struct nicref_snapshot *s = nicref_snapshot_take(dev, &why);
	cr_expect_null(s);
	cr_expect_eq(why, NICREF_SNAP_NOT_ENABLED, "refusal %d", why);
	nicref_snapshot_free(s);
	nicref_dev_destroy(dev);

	cfg.snapshots = true;
	dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	s = nicref_snapshot_take(dev, &why);
	cr_expect_not_null(s);
	cr_expect_eq(why, NICREF_SNAP_OK);
	nicref_snapshot_free(s);
	nicref_dev_destroy(dev);
}
