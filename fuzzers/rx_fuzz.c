/* Target: rx, the receive path (PRM §7.3-§7.12, §3.3.3, §3.3.7, §3.3.9-§3.3.10; docs/rx.md):
 * frames from the wire (nicref_wire_rx) into a device the reference driver configured with four
 * RQs, each on its own CQ (RQ0 strips VLAN tags and end-pads, RQ1 keeps tags and is a linked
 * list, T55 wq_type 0, D-RX-16: a Direct TIR reaches it, and keeping tags does not touch the
 * WQE's format; RQ2 checks WQE signatures, RQ3 has 128-byte strides and end-pads), an RQT of
 * RQ2 and RQ3, and four TIRs: Direct to RQ0, Direct to RQ1, Indirect Toeplitz and Indirect
 * inverted XOR8 over the RQT; the NIC_RX flow tables are the input's, built through the steer
 * target's ops and mirrored in its model (fuzzers/steer_model.h).
 *
 * Input: ops, each an op byte and its operands (operands past the end read as 0):
 *   0x00-0x0A  the flow-table ops of steer_model.h (enum sm_op)
 *   0x0B       FRAME: 16 selector bytes (sm_frame), then ext:u8 (the frame grows to
 *              60 + 8 * ext bytes when that is longer), nmut:u8 and nmut % 8 pairs pos:u8
 *              val:u8 (frame byte pos % len := val): the frame from port 1
 *   0x0C       POST: rq:u8 (% 4) n:u8 (1 + n % 4 entries, at most what the stride holds after
 *              a signature or next segment: 3 on RQ1 and RQ2) flags:u8 (bit 0 start padding on
 *              the first entry; bit 1 on the signing RQ2: the WQE's signature byte XORed with
 *              1 + flags / 4 after the driver signed it, so the device's check refuses it) then
 *              4 sizes:u16 (1 + size % 512; the first n used): one receive WQE, entry k in
 *              the WQE's 2 KB area at k * 512. On the linked-list RQ1 (T55 wq_type 0,
 *              D-RX-16) the driver fills the stride its last WQE named (stride 0 after create
 *              and RECOVER) and names in this one's next segment (T42/T43 Next_WQE_index) the
 *              (flags / 4 mod m)-th of the m strides it owns (no CQE outstanding), counted
 *              from the stride after this one; none (15 posted), no post. Bit 1 breaks the
 *              list: Next_WQE_index XORed with 1 + flags / 4 once written, another stride
 *              (posted, free, or this one) for flags / 4 < 15, a value beyond the ring from
 *              15 on. RQ1's ring starts as a driver makes a fresh one: each stride naming
 *              the next (refdrv_rq_ll_init), no scatter entries
 *   0x0D       RECOVER: rq:u8 (% 4): the RQ to RST, its ring emptied, to RDY (MODIFY_RQ)
 *   0x0E-0xFF  reserved: the op byte alone, nothing happens
 * The op loop stops after 256 ops.
 *
 * Properties after each frame (a broken one prints "property NAME broken at FILE:LINE: STATE"
 * and traps), on top of the shared oracles (nicref_dev_check after every op, the trace's
 * sequence, time and counters) and no transport violation:
 *  - DEST_ALLOWED: a frame that reaches steering lands only on the RQs of the TIRs the
 *    reference classifier names (a Direct TIR's RQ, an Indirect one's RQT), with their flow
 *    tags, one outcome per copy (a CQE, good or in error, or a drop of the copy); a frame the
 *    classifier does not deliver, or the port or the vport refuses, makes no CQE;
 *  - BYTE_CNT: a good CQE's byte_cnt is the frame's length less the stripped tag (an RQ that
 *    strips, an outer 802.1Q tag), and exactly those bytes were written, in order, into the
 *    WQE's entries (after the start padding); an error CQE wrote no CQE data;
 *  - WQE_SIGNATURE: a CQE on the signing RQ2 is an error CQE with syndrome 0x2 (local QP
 *    operation) exactly when the WQE it consumed had its signature broken by POST's bit 1
 *    (PRM §9.2.3, T23/T43; D-RX-14);
 *  - LIST_ORDER: RQ1's CQEs, good, in error or flushed (§7.7.2.1), name (wqe_counter, the
 *    stride: D-RX-15) the WQEs in the order of the list in host memory, broken or not: stride 0
 *    first after create and RECOVER (2RST), then each WQE's Next_WQE_index as it was when the
 *    device took it (T42/T43, D-RX-16), one beyond the ring modulo the ring (16 strides), and
 *    the device reports RX_LL_NEXT_BEYOND_RING exactly each time it follows such a pointer to
 *    take a WQE (D-RX-16); RQ1 holds exactly the CQEs the device reported;
 *  - LIST_END: RQ1 takes only the WQEs the doorbell record counts (T24), whatever the list
 *    names next: a copy with none left is dropped for want of a WQE (rx_drop 9), one with a WQE
 *    left is not, and the next good CQE reports those drops in rx_drop_counter (T68, D-RX-4);
 *    an error CQE puts RQ1 in ERR, which flushes every WQE posted and not taken;
 *  - WRITE_INSIDE: the device writes host memory only inside the entries of the WQE it
 *    consumes, the CQ buffers and the EQ buffer;
 *  - COUNTERS: a frame the vport takes counts once in its RX counters (T486) by destination;
 *    the device's receive counters (nicref_stats) add up with the trace; the flow counters
 *    equal the reference classifier's at the end of the input.
 *
 * Between inputs the device comes back from a snapshot taken after the bring-up (fuzz_snap.h):
 * the flow objects an input made, its posts, recoveries, frames and counters are undone by the
 * restore, with the harness's side (driver, rings, the model) put back beside it. Without
 * snapshots (NICREF_FUZZ_SNAPSHOT=0, or a DUT) the light restore of before runs instead: the
 * flow objects go as in the steer target (sm_teardown), each RQ an input used goes to RST and
 * back to RDY with its ring emptied, the CQs are drained (the clock, the CQs' indexes and the
 * counters go on); a full reset and bring-up happens only when the flow objects cannot all be
 * destroyed (an explicit root, D-FT-8) or an RQ does not come back. */
#include <stdio.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver.h"
#include "driver_cq.h"
#include "driver_mkey.h"
#include "driver_rq.h"
#include "driver_sq.h"
#include "driver_steer.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "eth/pkt_parse.h"
#include "fuzz_bytes.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"
#include "steer/steer.h"
#include "steer_model.h"

#define MAX_OPS 256u
#define OP_FRAME 0x0Bu
#define OP_POST 0x0Cu
#define OP_RECOVER 0x0Du
#define OP_FIRST_RESERVED 0x0Eu
#define NRQ 4u
#define LL 1u /* the linked-list RQ (wq_type 0, D-RX-16) */
#define LL_LOG 96u /* RQ1's events in one frame: at most SM_MAX_TIRS copies and 15 flushes */
#define MEM 0x60000000ull     /* rings, records, CQs */
#define DATA 0x68000000ull    /* the receive buffers: 16 WQE areas of 2 KB per RQ */
#define DATA_SIZE (NRQ * 16u * 2048u)
#define AREA 2048u
#define ENTRY 512u
#define FRAME_MAX 2176u /* 60 + 8 * 255, the longest FRAME */
#define MKEY_TAG 0x77u

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static struct refdrv_sq_stack st;
static struct steer_model model;
static bool need_full = true;
static unsigned op_no;
static uint64_t full_count, light_count;

static struct rx_cfg {
	uint32_t lkey, rqt, tir[4];
	struct rq_ctx {
		uint32_t rqn;
		bool vsd, sig, end_pad;
		unsigned log_stride;
		struct refdrv_cq cq;
		struct refdrv_rq_ring ring;
		bool used;
		/* what each of the 16 slots holds (the WQE of counter pc sits at pc % 16) */
		struct wqe_rec {
			unsigned n;
			bool start_pad;
			bool bad_sig; /* its signature broken (POST bit 1) */
			uint32_t bc[4];
		} w[16];
		/* The linked list (RQ1): the strides the driver posted and has seen no CQE for
		 * (the device's, as far as the driver knows); each stride's Next_WQE_index as host
		 * memory holds it; where the device stands on the list: the stride it takes next
		 * (0 after 2RST, D-RX-16), the WQEs it took since (completed or flushed), the
		 * list-end drops since its last good CQE (D-RX-4), and whether it reaches that
		 * stride through a Next_WQE_index beyond the ring (taken modulo the ring, a
		 * violation when followed: D-RX-16). */
		bool linked;
		uint16_t owned;
		uint16_t next[16];
		uint16_t dev_at, taken;
		unsigned drops;
		bool beyond;
	} rq[NRQ];
	unsigned cl; /* cache line: 64 or 128 (cache_line_128byte) */
	bool start_pad_cap, end_pad_cap;
} k;

/* The device after full_bring_up (fuzz_snap.h), with the harness's side as it was then. */
static struct fuzz_snap snap;
static struct fuzz_snap_drv snap_drv;
static struct refdrv_sq_stack snap_st;
static struct rx_cfg snap_k;

/* Host writes of the frame being received. */
static struct {
	bool on;
	uint64_t bad_addr;
	size_t bad_len;
	bool bad;
	uint8_t shadow[DATA_SIZE]; /* what the frame wrote into the data region */
	uint8_t mark[DATA_SIZE];
	uint32_t lo, hi;           /* the range marked */
	/* the events of the frame */
	unsigned frame_drops, copy_drops, cqes;
	/* RQ1's, in order: its CQEs (flushes included) and its no-WQE drops */
	struct ll_ev {
		bool drop;
		uint8_t opcode, syndrome;
		uint16_t wqe_counter;
	} ll[LL_LOG];
	unsigned nll;
	bool ll_overflow;
} w;

static const char *const op_names[OP_FIRST_RESERVED] = {
	"CREATE_FT", "DESTROY_FT", "CREATE_FG", "DESTROY_FG", "SET_FTE", "DELETE_FTE", "ROOT",
	"MODIFY_FT", "ALLOC_FC", "DEALLOC_FC", "QUERY_FC", "FRAME", "POST", "RECOVER",
};

#define PROP NICREF_FUZZ_PROP

static bool inside(uint64_t a, size_t n, uint64_t base, uint64_t size)
{
	return a >= base && a + n <= base + size;
}

static int hook_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	if (w.on) {
		bool ok = inside(addr, len, st.eq.a.buf, 64ull << st.eq.a.log_eq_size);
		for (unsigned i = 0; i < NRQ && !ok; i++)
			ok = inside(addr, len, k.rq[i].cq.a.buf, 64ull << k.rq[i].cq.a.log_cq_size);
		if (!ok && inside(addr, len, DATA, DATA_SIZE)) {
			ok = true; /* checked against the WQE's entries after the CQE (BYTE_CNT) */
			uint32_t o = (uint32_t)(addr - DATA);
			memcpy(w.shadow + o, buf, len);
			memset(w.mark + o, 1, len);
			if (o < w.lo)
				w.lo = o;
			if (o + len > w.hi)
				w.hi = (uint32_t)(o + len);
		}
		if (!ok && !w.bad) {
			w.bad = true;
			w.bad_addr = addr;
			w.bad_len = len;
		}
	}
	return nicref_hostmem_write(ctx, addr, buf, len);
}

static void on_event(void *ctx, const struct nicref_event *ev)
{
	fuzz_oracle_event(ctx, ev);
	if (!w.on)
		return;
	if (ev->kind == NICREF_EV_RX_DROP) {
		unsigned r = (unsigned)ev->arg[0];
		if (r >= 6 && r <= 9) /* a copy: self loopback, no destination, RQ not RDY, no WQE */
			w.copy_drops++;
		else
			w.frame_drops++;
	} else if (ev->kind == NICREF_EV_CQE && !(ev->arg[2] == 14 && ev->arg[3] == 5)) {
		w.cqes++; /* a good or an error CQE; flushes (T74 0x5) follow an error: no copy */
	}
	bool ll_drop = ev->kind == NICREF_EV_RX_DROP && ev->arg[0] == 9 &&
		       ev->arg[1] == k.rq[LL].rqn;
	if (ll_drop || (ev->kind == NICREF_EV_CQE && ev->arg[0] == k.rq[LL].cq.cqn)) {
		if (w.nll == LL_LOG) {
			w.ll_overflow = true;
			return;
		}
		w.ll[w.nll++] = (struct ll_ev){ .drop = ll_drop, .opcode = (uint8_t)ev->arg[2],
						.syndrome = (uint8_t)ev->arg[3],
						.wqe_counter = (uint16_t)ev->arg[4] };
	}
}

/* ---- Bring-up -------------------------------------------------------------------------------- */

/* The list's state after create or 2RST: the device at stride 0 (D-RX-16), the driver filling
 * stride 0 first, nothing posted or taken, rx_drop_counter restarted (D-RX-4). */
static void ll_restart(struct rq_ctx *q)
{
	q->ring.ll_head = 0;
	q->owned = 0;
	q->dev_at = q->taken = 0;
	q->drops = 0;
	q->beyond = false;
}

static void rq_up(unsigned i)
{
	struct rq_ctx *q = &k.rq[i];
	q->linked = i == LL;
	q->vsd = i == 1;
	q->sig = i == 2;
	q->end_pad = i == 0 || i == 3;
	q->log_stride = i == 3 ? 7 : 6;
	uint64_t base = MEM + i * 0x100000ull;
	struct refdrv_cq_attr ca = { .buf = base, .dbr = base + 0x80000, .log_cq_size = 7,
				     .uar = st.uar, .eqn = st.eq.eqn };
	NICREF_FUZZ_CHECK(refdrv_create_cq(&drv, &ca, &q->cq) == 0);
	struct refdrv_wq_attr wq = { .buf = base + 0x40000, .dbr = base + 0x80040,
				     .wq_type = q->linked ? 0 : 1,
				     .log_wq_sz = 4, .log_wq_stride = q->log_stride,
				     .wq_signature = q->sig, .end_padding_mode = q->end_pad,
				     .pd = st.pd };
	struct refdrv_rq_attr ra = { .wq = wq, .cqn = q->cq.cqn, .user_index = i + 1,
				     .flush_in_error_en = true, .vlan_strip_disable = q->vsd };
	NICREF_FUZZ_CHECK(refdrv_create_rq(&drv, &ra, &q->rqn) == 0);
	NICREF_FUZZ_CHECK(refdrv_modify_rq(&drv, q->rqn, 0, 1) == 0);
	q->ring = (struct refdrv_rq_ring){ .buf = wq.buf, .dbr = wq.dbr, .log_wq_sz = 4,
					   .log_wq_stride = q->log_stride,
					   .wq_signature = q->sig, .qn = q->rqn,
					   .shared = q->linked, .linked = q->linked };
	if (q->linked) {
		/* A fresh ring, as a driver makes it: stride i names stride i + 1 (T43). */
		NICREF_FUZZ_CHECK(refdrv_rq_ll_init(&drv, &q->ring) == 0);
		for (unsigned s = 0; s < 16; s++) {
			q->next[s] = (uint16_t)((s + 1) % 16);
			q->w[s] = (struct wqe_rec){ 0 };
		}
		ll_restart(q);
	}
}

static void full_bring_up(void)
{
	NICREF_FUZZ_CHECK(fuzz_dev_sq_stack_up(dev, &oracle, &drv, NULL, &st) == 0);
	struct refdrv_mkey_attr m = { .access_mode = 0, .pd = st.pd, .tag = MKEY_TAG, .lw = true,
				      .start_addr = DATA, .len = DATA_SIZE };
	uint32_t mi;
	NICREF_FUZZ_CHECK(refdrv_create_mkey(&drv, &m, &mi) == 0);
	k.lkey = mi << 8 | MKEY_TAG;
	for (unsigned i = 0; i < NRQ; i++)
		rq_up(i);
	uint32_t rqs[2] = { k.rq[2].rqn, k.rq[3].rqn };
	NICREF_FUZZ_CHECK(refdrv_create_rqt(&drv, 2, rqs, 2, &k.rqt) == 0);
	static const uint8_t key[40] = { 0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
					 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
					 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
					 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa };
	struct refdrv_tir_attr t[4] = {
		{ .inline_rqn = k.rq[0].rqn, .td = st.td, .self_lb_en = 3 },
		{ .inline_rqn = k.rq[1].rqn, .td = st.td, .self_lb_en = 3 },
		/* T46: IPv4, TCP, src/dst IP and ports (l3 0, l4 0, fields 0xF) */
		{ .indirect = true, .rqt = k.rqt, .hash_fn = 2, .toeplitz_key = key,
		  .sel_outer = 0xF, .td = st.td },
		{ .indirect = true, .rqt = k.rqt, .hash_fn = 1, .td = st.td },
	};
	memset(&model, 0, sizeof model);
	for (unsigned i = 0; i < 4; i++) {
		NICREF_FUZZ_CHECK(refdrv_create_tir(&drv, &t[i], &k.tir[i]) == 0);
		model.tirs[i] = k.tir[i];
	}
	NICREF_FUZZ_CHECK(oracle.violations == 0);
	full_count++;
}

static int rx_init(void)
{
	struct nicref_config cfg;
	fuzz_dev_config(&cfg, &oracle);
	cfg.trace = on_event;
	if (!(dev = fuzz_dev_create(&cfg, &oracle)))
		return -1;
	dev->core.cfg.ops.dma_write = hook_dma_write;
	dev->core.cfg.ops.ctx = dev;
	memset(&drv, 0, sizeof drv);
	full_bring_up();
	k.cl = refdrv_field_get(drv.caps_cur, sizeof drv.caps_cur, "hca_cap", "cache_line_128byte")
		       ? 128 : 64;
	k.start_pad_cap = refdrv_field_get(drv.caps_cur, sizeof drv.caps_cur, "hca_cap", "start_pad");
	k.end_pad_cap = refdrv_field_get(drv.caps_cur, sizeof drv.caps_cur, "hca_cap", "end_pad");
	return 0;
}

/* ---- Ops ------------------------------------------------------------------------------------- */

static void op_post(struct reader *r)
{
	struct rq_ctx *q = &k.rq[rd8(r) % NRQ];
	unsigned n = 1 + rd8(r) % 4;
	unsigned flags = rd8(r);
	bool sp = flags & 1;
	bool bad_sig = (flags & 2) && q->sig;
	/* the first segment: the signature's (T22) or a linked list's next segment (T42) */
	unsigned room = ((1u << q->log_stride) - (q->sig || q->linked ? 16u : 0u)) / 16u;
	if (n > room)
		n = room;
	struct refdrv_rx_sge sge[4];
	uint32_t bcs[4];
	unsigned slot = q->linked ? q->ring.ll_head : q->ring.pc % 16u;
	for (unsigned e = 0; e < 4; e++) {
		uint32_t bc = 1 + (uint32_t)rdn(r, 2) % ENTRY;
		bcs[e] = bc;
		if (e >= n)
			continue;
		sge[e] = (struct refdrv_rx_sge){
			.addr = DATA + ((uint64_t)(q - k.rq) * 16 + slot) * AREA + e * ENTRY,
			.lkey = k.lkey, .byte_count = bc, .start_padding = sp && e == 0 };
	}
	/* A linked list: the WQE names the stride the driver fills next, one it owns (no CQE
	 * outstanding): the (flags / 4 mod free)-th such stride after this one; none, the list
	 * is full (15 posted). */
	uint16_t nx = 0;
	if (q->linked) {
		uint16_t free[15];
		unsigned nfree = 0;
		for (unsigned i = 1; i < 16; i++)
			if (!(q->owned >> ((slot + i) % 16) & 1))
				free[nfree++] = (uint16_t)((slot + i) % 16);
		if (!nfree)
			return;
		nx = free[(flags >> 2) % nfree];
	} else if (q->ring.pc >= 16) {
		/* a full ring: the driver does not post over WQEs the device has not consumed */
		struct refdrv_wq_status s;
		NICREF_FUZZ_CHECK(refdrv_query_rq(&drv, q->rqn, &s) == 0);
		if ((uint16_t)(q->ring.pc - s.hw_counter) >= 16)
			return;
	}
	/* The slot's record only now: a WQE not posted leaves the one in the slot described. */
	struct wqe_rec *rec = &q->w[slot];
	rec->n = n;
	rec->start_pad = sp;
	rec->bad_sig = bad_sig;
	memcpy(rec->bc, bcs, sizeof rec->bc);
	if (q->linked) {
		NICREF_FUZZ_CHECK(refdrv_rq_ll_write(&drv, &q->ring, nx, sge, n) == 0);
		q->owned |= (uint16_t)(1u << slot);
		q->next[slot] = nx;
		if (flags & 2) {
			/* A broken list: Next_WQE_index (T43 00h[15:0]) XORed with 1 + flags / 4
			 * after the driver wrote it: another stride (posted, free or this one) for
			 * flags / 4 up to 14, a value beyond the ring from 15 on. */
			q->next[slot] = nx ^ (uint16_t)(1 + (flags >> 2));
			uint8_t b[2] = { (uint8_t)(q->next[slot] >> 8), (uint8_t)q->next[slot] };
			uint64_t at = q->ring.buf + ((uint64_t)slot << q->log_stride) + 2;
			NICREF_FUZZ_CHECK(drv.ops.mem_write(drv.ops.ctx, at, b, 2) == 0);
		}
		fuzz_trace("RQ1 WQE in stride %u, Next_WQE_index %u%s", slot, q->next[slot],
			   flags & 2 ? " (broken)" : "");
	} else {
		NICREF_FUZZ_CHECK(refdrv_rq_write(&drv, &q->ring, sge, n) == 0);
	}
	if (bad_sig) {
		/* T43: the signature is byte 04h of the first segment (D-RQ-3, D-RX-14) */
		uint64_t at = q->ring.buf + ((uint64_t)slot << q->log_stride) + 4;
		uint8_t b;
		NICREF_FUZZ_CHECK(drv.ops.mem_read(drv.ops.ctx, at, &b, 1) == 0);
		b ^= (uint8_t)(1 + (flags >> 2));
		NICREF_FUZZ_CHECK(drv.ops.mem_write(drv.ops.ctx, at, &b, 1) == 0);
	}
	NICREF_FUZZ_CHECK(refdrv_rq_record(&drv, &q->ring) == 0);
	q->used = true;
}

static int rq_reset(struct rq_ctx *q)
{
	struct refdrv_wq_status s;
	if (refdrv_query_rq(&drv, q->rqn, &s) != 0)
		return -1;
	if (s.state != 0 && refdrv_modify_rq(&drv, q->rqn, s.state, 0) != 0)
		return -1;
	q->ring.pc = 0;
	if (q->linked)
		ll_restart(q);
	if (refdrv_wq_dbr_write(&drv, q->ring.dbr, false, 0) != 0)
		return -1;
	return refdrv_modify_rq(&drv, q->rqn, 0, 1) == 0 ? 0 : -1;
}

/* The driver's side of a CQE of the linked list: the WQE it names is the driver's again (as
 * mlx5e frees the WQE of cqe->wqe_counter, the stride the device took: D-RX-16). */
static void ll_completed(const uint8_t *c)
{
	k.rq[LL].owned &= (uint16_t)~(1u << (refdrv_rx_cqe_field(c, "wqe_counter") % 16));
}

static void drain(void)
{
	uint8_t c[64];
	for (unsigned i = 0; i < NRQ; i++)
		while (refdrv_cq_poll(&drv, &k.rq[i].cq, c) == 1)
			if (i == LL)
				ll_completed(c);
}

/* The RQs a TIR's copy may reach. */
static unsigned rq_mask_of_tir(uint32_t tirn)
{
	for (unsigned i = 0; i < 4; i++)
		if (k.tir[i] == tirn)
			return i < 2 ? 1u << i : 0xCu;
	return 0;
}

/* What RQ1's k-th CQE of the frame must say, from check_list: its rx_drop_counter when good. */
struct ll_exp {
	unsigned rdc;
};

/* LIST_ORDER and LIST_END over RQ1's events of the frame, in the order the device made them:
 * the expectations of its CQEs into exp; returns their number. `beyond`: the device's
 * RX_LL_NEXT_BEYOND_RING reports during the frame (only RQ1 is a linked list). */
static unsigned check_list(struct ll_exp *exp, uint64_t beyond)
{
	struct rq_ctx *q = &k.rq[LL];
	unsigned n = 0;
	uint64_t follows = 0;
	bool err = false;
	for (unsigned e = 0; e < w.nll; e++) {
		const struct ll_ev *v = &w.ll[e];
		uint16_t posted = (uint16_t)(q->ring.pc - q->taken);
		if (v->drop) {
			/* T24: the record counts the WQEs posted; none left, whatever the list
			 * names next: no WQE (drop 9), counted for the next CQE (D-RX-4). */
			PROP(posted == 0, "LIST_END", "op %u: RQ1 dropped a copy for want of a WQE "
			     "with %u posted and not taken (record %u)", op_no, posted, q->ring.pc);
			if (q->drops < 255)
				q->drops++;
			continue;
		}
		bool flush = v->opcode == 14 && v->syndrome == 5;
		const char *what = flush ? "flush CQE" : "CQE";
		PROP(posted > 0, "LIST_END", "op %u: RQ1 %s for stride %u, beyond the %u WQEs the "
		     "record counts (T24)", op_no, what, v->wqe_counter, q->ring.pc);
		PROP(v->wqe_counter == q->dev_at, "LIST_ORDER", "op %u: RQ1 %s names stride %u, the "
		     "list's next is stride %u (D-RX-16)", op_no, what, v->wqe_counter, q->dev_at);
		exp[n++] = (struct ll_exp){ .rdc = q->drops };
		follows += q->beyond;
		if (v->opcode == 2)
			q->drops = 0;
		err |= v->opcode == 14 && !flush;
		q->taken++;
		/* the device read the next segment as it takes the WQE; one beyond the ring
		 * leads modulo the ring (D-RX-16) */
		q->beyond = q->next[q->dev_at] >= 16;
		q->dev_at = q->next[q->dev_at] % 16;
	}
	PROP(beyond == follows, "LIST_ORDER", "op %u: RQ1 reported RX_LL_NEXT_BEYOND_RING %llu "
	     "times, it followed %llu Next_WQE_index beyond the ring (D-RX-16)", op_no,
	     (unsigned long long)beyond, (unsigned long long)follows);
	/* A frame makes at most SM_MAX_TIRS copies, and at most 15 WQEs are posted and not
	 * taken (each post makes a stride the driver's, each take frees at most one). */
	PROP(!w.ll_overflow, "LIST_END", "op %u: RQ1 made more than %u CQEs and drops", op_no,
	     LL_LOG);
	/* §7.7.2.1 (flush_in_error_en): in ERR the rest of the list is flushed, each WQE posted. */
	PROP(!err || q->taken == q->ring.pc, "LIST_END", "op %u: RQ1 went to ERR and flushed %u "
	     "of the %u WQEs posted", op_no, q->taken, q->ring.pc);
	return n;
}

/* One CQE of RQ i for this frame: the checks of BYTE_CNT. */
static void check_cqe(unsigned i, const uint8_t *c, const uint8_t *f, size_t len,
		      const struct sm_verdict *mv)
{
	struct rq_ctx *q = &k.rq[i];
	unsigned op = (unsigned)refdrv_rx_cqe_field(c, "opcode");
	unsigned syn = op == 14 ? (unsigned)refdrv_rx_cqe_field(c, "syndrome") : 0;
	if (op == 14 && syn == 5)
		return; /* a flush after an error CQE (flush_in_error_en): no copy of this frame */
	if (q->sig) {
		uint16_t at = (uint16_t)refdrv_rx_cqe_field(c, "wqe_counter");
		bool refused = op == 14 && syn == 2;
		PROP(refused == q->w[at % 16].bad_sig, "WQE_SIGNATURE", "op %u: RQ%u WQE %u, its "
		     "signature %s, completed with opcode 0x%x syndrome 0x%x", op_no, i, at,
		     q->w[at % 16].bad_sig ? "broken" : "right", op, syn);
	}
	uint32_t tag = (uint32_t)refdrv_rx_cqe_field(c, "flow_tag");
	bool tag_ok = false;
	for (unsigned t = 0; t < mv->ntirs; t++)
		if ((rq_mask_of_tir(mv->tirn[t]) >> i & 1) && (mv->tag[t] & 0xFFFFFF) == tag)
			tag_ok = true;
	PROP(tag_ok, "DEST_ALLOWED", "op %u: a CQE on RQ%u with flow_tag 0x%x that no copy for "
	     "it carries", op_no, i, tag);
	if (op != 2)
		return; /* an error (14) or a flush (13): no data to check */
	uint16_t ctr = (uint16_t)refdrv_rx_cqe_field(c, "wqe_counter");
	const struct wqe_rec *rec = &q->w[ctr % 16];
	bool strip = !q->vsd && len >= 16 && f[12] == 0x81 && f[13] == 0x00;
	size_t n = len - (strip ? 4 : 0);
	uint32_t bc = (uint32_t)refdrv_rx_cqe_field(c, "byte_cnt");
	PROP(bc == n, "BYTE_CNT", "op %u: RQ%u byte_cnt %u for a %zu-byte frame (strip %d)", op_no,
	     i, bc, len, strip);
	size_t pad = rec->start_pad && k.start_pad_cap ? (k.cl - n % k.cl) % k.cl : 0;
	size_t at = 0, skip = pad;
	uint64_t area = DATA + ((uint64_t)i * 16 + ctr % 16) * AREA - DATA;
	for (unsigned e = 0; e < rec->n && at < n; e++) {
		size_t off = skip < rec->bc[e] ? skip : rec->bc[e];
		skip -= off;
		for (size_t b = off; b < rec->bc[e] && at < n; b++, at++) {
			size_t src = strip && at >= 12 ? at + 4 : at;
			size_t o = (size_t)area + e * ENTRY + b;
			PROP(w.mark[o] && w.shadow[o] == f[src], "BYTE_CNT",
			     "op %u: RQ%u WQE %u entry %u byte %zu: %s 0x%02x, the frame's 0x%02x",
			     op_no, i, ctr, e, b, w.mark[o] ? "written" : "not written",
			     w.shadow[o], f[src]);
		}
	}
	PROP(at == n, "BYTE_CNT", "op %u: RQ%u: %zu of %zu bytes fit the entries", op_no, i, at, n);
}

static uint64_t vport_rx(void)
{
	return vport_counter_get(dev, VPORT_CNT_RX_UNICAST).packets +
	       vport_counter_get(dev, VPORT_CNT_RX_MULTICAST).packets +
	       vport_counter_get(dev, VPORT_CNT_RX_BROADCAST).packets;
}

static void op_frame(struct reader *r)
{
	static uint8_t f[FRAME_MAX];
	uint8_t key[SM_KEY], dkey[STEER_KEY_LEN];
	unsigned type;
	size_t len = sm_frame(r, f, key, &type);
	size_t ext = 60 + 8u * rd8(r);
	if (ext > len) {
		fuzz_fill_counting(f + len, ext - len, (uint32_t)len);
		len = ext;
	}
	unsigned nmut = rd8(r) % 8;
	for (unsigned i = 0; i < nmut; i++) {
		size_t pos = rd8(r) % len;
		f[pos] = rd8(r);
	}
	drain();
	struct nicref_stats s0, s1;
	nicref_stats_get(dev, &s0);
	uint64_t v0 = vport_rx();
	memset(w.mark + w.lo, 0, w.hi > w.lo ? w.hi - w.lo : 0);
	w.lo = DATA_SIZE, w.hi = 0;
	w.on = true, w.bad = false, w.frame_drops = w.copy_drops = w.cqes = 0;
	w.nll = 0, w.ll_overflow = false;
	uint64_t beyond0 = oracle.vio_by_rule[NICREF_VIO_RX_LL_NEXT_BEYOND_RING];
	NICREF_FUZZ_CHECK(nicref_wire_rx(dev, 1, f, len) == 0);
	w.on = false;
	struct ll_exp exp[LL_LOG];
	unsigned nexp = check_list(exp, oracle.vio_by_rule[NICREF_VIO_RX_LL_NEXT_BEYOND_RING] -
					     beyond0), ll_polled = 0;
	nicref_stats_get(dev, &s1);
	PROP(!w.bad, "WRITE_INSIDE", "op %u: the device wrote %zu bytes at 0x%llx, outside the "
	     "entries, the CQs and the EQ", op_no, w.bad_len, (unsigned long long)w.bad_addr);
	PROP(s1.frames_in == s0.frames_in + 1 && s1.rx_cqes - s0.rx_cqes == w.cqes &&
	     s1.rx_drops - s0.rx_drops == w.frame_drops + w.copy_drops, "COUNTERS",
	     "op %u: stats frames_in +%llu, rx_cqes +%llu (%u CQE events), rx_drops +%llu", op_no,
	     (unsigned long long)(s1.frames_in - s0.frames_in),
	     (unsigned long long)(s1.rx_cqes - s0.rx_cqes), w.cqes,
	     (unsigned long long)(s1.rx_drops - s0.rx_drops));
	/* Did the frame reach steering? Only a frame-level drop before it says no. */
	struct pkt_info pi;
	pkt_parse(f, len, &pi);
	steer_key_build(f, len, &pi, dkey);
	struct sm_verdict mv = { 0 };
	/* The classifier runs (and counts) only for a frame the vport took (D-RX-7: counted once
	 * then, whatever steering makes of it); a steering drop is the only frame-level drop
	 * after it. */
	uint64_t dv_rx = vport_rx() - v0;
	PROP(dv_rx <= 1, "COUNTERS", "op %u: the vport counted the frame %llu times", op_no,
	     (unsigned long long)dv_rx);
	if (dv_rx == 1)
		sm_classify(&model, 0, dkey, (uint32_t)len, &mv);
	PROP(dv_rx == 1 || w.cqes == 0, "DEST_ALLOWED", "op %u: %u CQEs for a frame the vport did "
	     "not take", op_no, w.cqes);
	if (dv_rx == 1) {
		bool delivered = mv.action == 2;
		PROP(delivered || (w.cqes == 0 && w.copy_drops == 0 && w.frame_drops == 1),
		     "DEST_ALLOWED", "op %u: the reference classifier does not deliver (action %u) "
		     "but %u CQEs, %u copy drops, %u frame drops", op_no, mv.action, w.cqes,
		     w.copy_drops, w.frame_drops);
		PROP(!delivered || (w.frame_drops == 0 && w.cqes + w.copy_drops == mv.ntirs),
		     "DEST_ALLOWED", "op %u: %u copies, but %u CQEs + %u copy drops (%u frame drops)",
		     op_no, mv.ntirs, w.cqes, w.copy_drops, w.frame_drops);
	}
	/* each CQE: on an allowed RQ, with its bytes */
	unsigned allowed = 0;
	for (unsigned t = 0; t < mv.ntirs; t++)
		allowed |= rq_mask_of_tir(mv.tirn[t]);
	uint8_t c[64];
	for (unsigned i = 0; i < NRQ; i++) {
		while (refdrv_cq_poll(&drv, &k.rq[i].cq, c) == 1) {
			PROP(allowed >> i & 1, "DEST_ALLOWED", "op %u: a CQE on RQ%u, which no copy "
			     "may reach (allowed 0x%x)", op_no, i, allowed);
			if (i == LL) {
				PROP(ll_polled < nexp, "LIST_ORDER", "op %u: RQ1 holds more CQEs than "
				     "the %u the device reported", op_no, nexp);
				const struct ll_exp *x = &exp[ll_polled++];
				unsigned rdc = (unsigned)refdrv_rx_cqe_field(c, "s_wqe_opcode");
				PROP(refdrv_rx_cqe_field(c, "opcode") != 2 || rdc == x->rdc,
				     "LIST_END", "op %u: RQ1's CQE reports rx_drop_counter %u, %u "
				     "dropped for want of a WQE since its last (D-RX-4)", op_no, rdc,
				     x->rdc);
				ll_completed(c);
			}
			check_cqe(i, c, f, len, &mv);
		}
	}
	PROP(ll_polled == nexp, "LIST_ORDER", "op %u: RQ1 holds %u CQEs, the device reported %u",
	     op_no, ll_polled, nexp);
	fuzz_trace("frame %zu bytes: %u CQEs, %u copy drops, %u frame drops", len, w.cqes,
		   w.copy_drops, w.frame_drops);
}

/* The device as full_bring_up leaves it: restored from the snapshot, or built (and captured);
 * without snapshots, as the last input's light restore left it. */
static void configure(void)
{
	if (fuzz_snap_enabled()) {
		if (fuzz_dev_snap_restore(&snap, &snap_drv, dev, &oracle, &drv)) {
			st = snap_st;
			k = snap_k;
			sm_clear(&model);
			light_count++;
			return;
		}
		full_bring_up();
		if (fuzz_dev_snap_take(&snap, &snap_drv, dev, &oracle, &drv)) {
			snap_st = st;
			snap_k = k;
		}
		return;
	}
	if (need_full)
		full_bring_up();
	else
		light_count++;
}

static void rx_one_input(const uint8_t *data, size_t len)
{
	configure();
	fuzz_dev_trace_bring_up(need_full, full_count, light_count);
	fuzz_snap_check_start(&snap, &oracle);
	struct reader r = { data, len };
	uint8_t op;
	for (op_no = 0; op_no < MAX_OPS && rd_op(&r, OP_FIRST_RESERVED, op_names, &op);) {
		if (op == OP_FRAME) {
			op_frame(&r);
		} else if (op == OP_POST) {
			op_post(&r);
		} else if (op == OP_RECOVER) {
			struct rq_ctx *q = &k.rq[rd8(&r) % NRQ];
			NICREF_FUZZ_CHECK(rq_reset(q) == 0);
			drain();
		} else {
			bool mismatch = false;
			int s = sm_op(&model, &drv, op, &r, &mismatch);
			PROP(s >= 0, "CMD_COMPLETES", "op %u (%s): %s", op_no, op_names[op], drv.error);
			PROP(!mismatch, "COUNTERS", "op %u: QUERY_FLOW_COUNTER differs from the "
			     "reference classifier's count", op_no);
		}
		op_no++;
		fuzz_oracle_check_dev(&oracle);
		NICREF_FUZZ_CHECK(oracle.transport_violations == 0);
	}
	unsigned queried = sm_check_counters(&model, &drv, "COUNTERS");
	if (!fuzz_snap_enabled()) {
		need_full = sm_teardown(&model, &drv) != 0;
		for (unsigned i = 0; i < NRQ; i++) {
			if (k.rq[i].used && rq_reset(&k.rq[i]) != 0)
				need_full = true;
			k.rq[i].used = false;
		}
		drain();
	}
	/* Else the device is as the check after the last op saw it (fuzz_snap_check_start). */
	if (op_no == 0 || queried || !fuzz_snap_enabled())
		fuzz_oracle_check_dev(&oracle);
	fuzz_trace("input done after %u ops", op_no);
	fuzz_snap_rewind(&snap, dev, &oracle); /* what the input made goes within it */
}

NICREF_FUZZ_TARGET(rx_init, rx_one_input)
