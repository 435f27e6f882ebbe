/* Target: roce_pair, RC traffic between two devices over nicref_link (issue 17 items 8 and 11;
 * nicref/link.h, docs/roce.md "RC transport"). Two devices A and B per RoCE profile (connectx,
 * seed004), the pair built on them and kept as snapshots, one per configuration an input can
 * ask for (first PSN, ECT), made at the first input that asks (fuzz_snap.h; D-ROCE-18: the
 * QPs and their transport state are in it); without snapshots each input builds the pair and
 * destroys the QPs at its end. The pair: RC QPs A0-B0 and A1-B1 (harness/driver_qp.h refdrv_qp_pair; MTU
 * 1024, ack_timeout 8 = 1.05 ms, retry_count 7, rnr_retry 7 = infinite, min_rnr_nak 1), the
 * link joining the devices' port 1 (a new link per input, tick 10 us).
 *
 * Input: a config byte, then ops (operands past the end read as 0):
 *   config: bits 1:0 the first PSN of every QP (0, 0xFFFFF0, 0x7FFFFC, 0x0ABCDE: wraps and
 *           half-window edges, IBTA Vol. 1 §9.7.1), bit 2 the seed004 profile (its operation
 *           set: SEND and WRITE, so SEND_IMM, WRITE_IMM and READ are posted as SEND / WRITE),
 *           bit 3 not-ECT traffic (else the address paths' tclass is ECT(0), RFC 3168 §5, so
 *           the link's CE marking reaches the notification point)
 *   0x00 POST  who:u8 op:u8 len:u16  a send WQE on QP who bit 1 of side who bit 0 (0 A, 1 B):
 *              op % 5 SEND, SEND_IMM, RDMA_WRITE, RDMA_WRITE_IMM, RDMA_READ of len % 4097
 *              bytes (at most 32 per QP per input; each message has its own source bytes and
 *              its own 4 KB slot at the far end); who bits 3:2 its ctrl CE (PRM §7.4.4.1
 *              T26): 0 10b (every CQE: what who < 4 always meant), 1 11b (and solicited),
 *              2 00b (on error only), 3 01b (on the first error only); who bit 4 its ctrl SE
 *              (the BTH SE of the message's last packet, D-ROCE-20)
 *   0x01 RECV  who:u8 n:u8   n % 9 receive WQEs of 4 KB (at most 32 per QP per input)
 *   0x02 FAULT dir:u8 kind:u8 v:u8  faults of direction dir & 1 (0 A to B): kind % 7: 0 lose
 *              every (v % 8 + 2)th frame, 1 lose with v * 3922 ppm (255: all), 2 duplicate, 3 reorder (hold
 *              v * 100 ns more), 4 CE-mark (the v ppm of each), 5 delay v * 200 ns, 6 none
 *   0x03 TIME  t:u16   the link and both devices advance t * 100 ns
 *   0x04-0xFF  reserved: the op byte alone, nothing happens
 * The op loop stops after 128 ops, or at the work cap: once the link has carried 512 frames or
 * TIME ops have asked for 64 ms in all (a TIME op advances in slices of 100 us, the cap checked
 * between them, so it stops within one). Then the drain (never capped): faults off, a receive
 * WQE for every message that needs one, a zero-length RDMA WRITE of CE 10b on each QP whose
 * last WQE had CE 00b or 01b (its CQE, in order, shows every WQE before it completed: a WQE of
 * those CEs that completes well has none), time until every send WQE has completed (at most
 * 400 ms). The cap bounds what the target asks of the model, not what the model does with it: an
 * input's cost is its frames (an RNR NAK and retry every 10 us, min_rnr_nak 1 with rnr_retry 7
 * infinite, made ~500 frames of up to 1 KB a simulated ms: 65 ms of TIME cost 1.8 s under ASan,
 * 128 TIME ops of 6.5 ms 22 s) and, idle, its simulated time (~0.65 us a simulated us). Under
 * the cap the slowest input measured takes ~60 ms under ASan+UBSan, the drain included. Every
 * frame and every step before the cap is checked as before (the properties below), the drain's
 * liveness check is whole, and a model loop that does not end inside one slice or step still hangs the input
 * (a libFuzzer timeout): the cap counts the target's frames and time, never the model's
 * iterations. The slices also change where the link's 10 us steps fall, so a timer can fire
 * at another step end than in one long advance (both within one tick of its deadline).
 *
 * Properties (a broken one prints "property NAME broken at FILE:LINE: STATE" and traps), on
 * top of the shared oracles of both devices (nicref_dev_check with the transport's invariants
 * -600..-604 after every op, the traces' sequence and time, no driver violation):
 *  - PLACED_ONCE: the bytes of an RDMA WRITE, a READ response and a SEND are written into their
 *    slot in order and exactly once (each DMA write continues where the slot's previous one
 *    ended: a duplicate or a retransmitted packet is never placed again, IBTA Vol. 1
 *    §9.7.5.1.1 C9-103..), and when the message completes the slot holds exactly its source's
 *    bytes;
 *  - CQE_ONCE: each QP's send CQEs name its send WQEs in the order posted, at most once each
 *    (those CE_MODE lets pass over completed without one); a receive
 *    CQE names the next receive WQE and the next message of the peer that takes one (SEND,
 *    SEND_IMM, WRITE_IMM: its opcode, its byte count, its bytes); after an error CQE (retry
 *    exhaustion 0x15 first, IBTA §9.7.5.1.4 C9-137) only flushed ones (0x05), and by then
 *    every receive WQE posted has completed or been flushed (one a SEND in progress holds
 *    too: IBTA §10.3.1; F6); at the drain's end every send WQE has completed;
 *  - PSN_LEGAL: a request packet's PSN is either the QP's next new PSN (then the next new PSN
 *    moves by 1, or by the READ's response count) or an older one being sent again within the
 *    24-bit half window; never one ahead (§9.7.1, §9.7.4.1);
 *  - CE_MODE: a send WQE has a CQE exactly when its CE asks (PRM §7.4.4.1 T26, D-ROCE-20), as
 *    roce_rx checks it: completion being in order, the WQEs a CQE passes over completed without
 *    one, so well before the first error CQE (CE 00b or 01b) and flushed after it (01b only);
 *    a success CQE is for 10b or 11b, with se 1 for 11b only; an error CQE is never for 01b
 *    after a WQE in error;
 *  - SE_CQE: a receive CQE that completes a message well has T68 se 1 exactly when the
 *    message's send WQE had its ctrl SE (the BTH SE of its last packet, D-ROCE-20, D-ROCE-21);
 *    flush CQEs se 0;
 *  - WINDOW (seed004): a message starts only while fewer than the limit in force are
 *    outstanding (16, ROCE_OUTSTANDING_MAX, or the reaction point's roce_cc limit; seed 004
 *    L126-143); connectx has no fixed cap (docs/roce.md "Device profiles"). Outstanding as the
 *    send CQEs show it (a CQE completes its WQE and every one before it), less the WQEs of CE
 *    00b/01b right after the last one named, which may have completed without a CQE;
 *  - ACKED_DELIVERED: a SEND, SEND_IMM or WRITE_IMM completes at the requester only after
 *    the responder wrote its receive CQE (an ACK, explicit or implied by a later NAK, is sent
 *    for executed requests only, IBTA Vol. 1 §9.7.5.1);
 *  - LIVENESS: retry exhaustion (0x15) only on a link that lost a frame;
 *  - TIMER: a retransmission by the ACK timer (roce_retx reason 0) of PSN p comes no sooner than
 *    the IB local ACK timeout 4.096 us x 2^ack_timeout after p was last sent (IBTA §9.7.6.1.3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "driver_qp.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"
#include "nicref/adp.h"
#include "nicref/link.h"
#include "nicref/roce.h"

#define MAX_OPS 128u
/* The work cap of the op loop (header comment): frames the link carried, simulated time asked
 * for by TIME ops (which advance in slices of TIME_SLICE_NS so the cap is checked within). */
#define WORK_FRAMES 512u
#define WORK_NS 64000000ull
#define TIME_SLICE_NS 100000ull
#define NQP 2u
#define NSLOT 32u
#define SLOT 0x1000u
#define MTU_BYTES 1024u
#define ACK_TIMEOUT 8u
#define DATA 0x70000000ull
/* The data region of each device (harness/driver_qp.h data_addr, 1 MB): */
#define R_SRC 0x00000ull  /* source bytes: message m of QP q at q * 0x20000 + m * 4 KB */
#define R_WR 0x40000ull   /* RDMA WRITE targets of the peer's QP q: + q * 0x20000 + m * 4 KB */
#define R_RECV 0x80000ull /* receive buffers of QP q: + q * 0x20000 + r * 4 KB */
#define R_READ 0xC0000ull /* READ targets of QP q: + q * 0x20000 + m * 4 KB */
#define R_LEN 0x40000ull

enum op { OP_POST = 0x00, OP_RECV = 0x01, OP_FAULT = 0x02, OP_TIME = 0x03, OP_FIRST_RESERVED = 0x04 };
static const char *const op_names[OP_FIRST_RESERVED] = { "POST", "RECV", "FAULT", "TIME" };

#define PROP NICREF_FUZZ_PROP

struct msg {
	unsigned op;
	uint32_t len;
	uint16_t wqe;
	uint8_t ce; /* the ctrl's CE (T26): 0 00b, 1 01b, 2 10b, 3 11b */
	bool se;    /* the ctrl's SE */
};

/* NSLOT messages, and the drain's zero-length WRITE after them. */
struct pqp {
	struct msg m[NSLOT + 1];
	uint32_t posted, done;       /* send WQEs; those known completed by the CQEs polled */
	uint32_t completed;          /* the same by the CQE events (for the window) */
	uint32_t recv_posted, recv_done;
	uint32_t consumers_seen;     /* receive CQEs matched with the peer's messages */
	uint32_t recv_events;        /* receive CQEs written (CQE events of the receive CQ) */
	bool err;                    /* an error CQE was polled */
	uint32_t recv_at_err;        /* receive WQEs posted when it was (all owed a completion) */
	uint32_t npsn;               /* the next new request PSN on the wire */
	uint32_t started;            /* messages whose first packet left */
	unsigned limit;              /* the outstanding limit in force */
	struct { uint32_t psn; uint64_t ns; bool on; } last_tx[1024];
	/* bytes placed so far in each slot (WRITE targets of the peer's messages, receive buffers,
	 * READ targets) */
	uint32_t placed_wr[NSLOT + 1], placed_recv[NSLOT], placed_read[NSLOT + 1];
};

struct side {
	unsigned idx; /* 0 A, 1 B */
	struct nicref_dev *dev;
	struct fuzz_oracle oracle;
	struct refdrv drv;
	struct refdrv_qp_stack st;
	/* the device with the pair made, per configuration (first PSN index, ECT) */
	struct fuzz_snap snap[8];
	struct fuzz_snap_drv snap_drv[8];
	struct refdrv_qp_stack snap_st[8];
	struct pqp q[NQP];
	bool bad;
	uint64_t bad_addr;
	size_t bad_len;
	const char *bad_why;
};

static struct side sides[2][2]; /* [profile][A, B] */
static struct side *S[2];       /* this input's A and B */
static struct nicref_link *link;
static unsigned op_no, profile;
static uint64_t timeout_ns;
static uint64_t full_count, restored_count;
static bool in_input;
static bool draining;
static uint64_t work_frames, work_ns; /* the op loop's work so far (WORK_FRAMES, WORK_NS) */

static struct side *peer_of(const struct side *s)
{
	return S[s->idx ^ 1];
}

static uint8_t src_byte(unsigned side, uint64_t off)
{
	return (uint8_t)(off * 7 + (off >> 12) * 13 + side * 29 + 1);
}

/* ---- placement (PLACED_ONCE) ----------------------------------------------------------------- */

static void bad_write(struct side *s, uint64_t a, size_t n, const char *why)
{
	if (!s->bad) {
		s->bad = true;
		s->bad_addr = a;
		s->bad_len = n;
		s->bad_why = why;
	}
}

/* A write into one of the slot regions continues where the slot's bytes end. */
static void placed(struct side *s, uint64_t addr, size_t len)
{
	if (!in_input || addr < DATA || addr + len > DATA + 0x100000ull)
		return;
	uint64_t off = addr - DATA;
	if (off < R_WR) {
		bad_write(s, addr, len, "the device wrote into the source region");
		return;
	}
	uint64_t base = off < R_RECV ? R_WR : off < R_READ ? R_RECV : R_READ;
	uint64_t rel = off - base;
	unsigned q = (unsigned)(rel / 0x20000), slot = (unsigned)(rel % 0x20000 / SLOT);
	uint32_t at = (uint32_t)(rel % SLOT);
	uint32_t *p = base == R_WR ? &s->q[q].placed_wr[slot] : base == R_RECV ?
		&s->q[q].placed_recv[slot] : &s->q[q].placed_read[slot];
	if (at != *p || at + len > SLOT) {
		bad_write(s, addr, len, base == R_WR ? "an RDMA WRITE target out of order or again" :
			  base == R_RECV ? "a receive buffer out of order or again" :
			  "a READ target out of order or again");
		return;
	}
	*p += (uint32_t)len;
}

static int hook_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct side *s = ctx;
	placed(s, addr, len);
	return nicref_hostmem_write(s->dev, addr, buf, len);
}

static void check_bytes(struct side *holder, uint64_t at, unsigned src_side, uint64_t src_off,
			uint32_t len, const char *what)
{
	static uint8_t got[SLOT];
	NICREF_FUZZ_CHECK(nicref_hostmem_read(holder->dev, at, got, len) == 0);
	for (uint32_t i = 0; i < len; i++)
		PROP(got[i] == src_byte(src_side, src_off + i), "PLACED_ONCE",
		     "op %u: %s: byte %u of %u at 0x%llx on %c is 0x%02x, the source's 0x%02x", op_no,
		     what, i, len, (unsigned long long)at, 'A' + holder->idx, got[i],
		     src_byte(src_side, src_off + i));
}

/* ---- the wire (PSN_LEGAL, WINDOW) -------------------------------------------------------------- */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static int32_t psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

static void on_request(struct side *s, unsigned q, const uint8_t *bth, size_t n)
{
	struct pqp *x = &s->q[q];
	unsigned opc = bth[0];
	const struct nicref_roce_opcode_info *oi = nicref_roce_opcode(opc);
	uint32_t psn = get32(bth + 8) & 0xFFFFFF;
	bool first = oi && (oi->pos == NICREF_ROCE_POS_FIRST || oi->pos == NICREF_ROCE_POS_ONLY);
	uint64_t now = nicref_clock_now(s->dev);
	if (psn == x->npsn) {
		uint32_t span = 1;
		if (opc == NICREF_ROCE_OP_RC_RDMA_READ_REQUEST && n >= 12 + 16) {
			uint32_t dl = get32(bth + 12 + 12);
			span = dl ? (dl + MTU_BYTES - 1) / MTU_BYTES : 1;
		}
		if (first) {
			/* the WQEs after the last CQE's may have completed without one */
			uint32_t out = x->started - x->completed, silent = 0;
			while (x->completed + silent < x->started && x->m[x->completed + silent].ce < 2)
				silent++;
			out -= silent;
			/* connectx has no fixed cap (the PSN window only, docs/roce.md "Device
			 * profiles"); seed004 16, or the reaction point's 8 */
			PROP(profile == 0 || out < x->limit, "WINDOW", "op %u: %c QP %u starts a message (PSN 0x%06x, "
			     "opcode 0x%02x) with %u outstanding, the limit %u", op_no, 'A' + s->idx, q,
			     psn, opc, out, x->limit);
			x->started++;
		}
		x->npsn = (x->npsn + span) & 0xFFFFFF;
	} else {
		int32_t d = psn_diff(psn, x->npsn);
		PROP(d < 0, "PSN_LEGAL", "op %u: %c QP %u sent PSN 0x%06x (opcode 0x%02x), %d ahead "
		     "of its next new PSN 0x%06x", op_no, 'A' + s->idx, q, psn, opc, d, x->npsn);
	}
	x->last_tx[psn % 1024].psn = psn;
	x->last_tx[psn % 1024].ns = now;
	x->last_tx[psn % 1024].on = true;
}

static void on_wire_tx(void *ctx, unsigned port, const uint8_t *f, size_t len)
{
	struct side *s = ctx;
	if (link)
		nicref_link_tx(link, s->dev, port, f, len);
	if (in_input && !draining)
		work_frames++;
	if (!in_input || len < 14 + 20 + 8 + 12 || get16(f + 12) != 0x0800)
		return;
	const uint8_t *ip = f + 14;
	size_t ihl = (size_t)(ip[0] & 15) * 4;
	if (ip[9] != 17 || 14 + ihl + 8 + 12 > len ||
	    get16(ip + ihl + 2) != NICREF_ROCE_UDP_PORT)
		return;
	const uint8_t *bth = ip + ihl + 8;
	size_t n = len - 14 - ihl - 8;
	uint32_t dqp = get32(bth + 4) & 0xFFFFFF;
	unsigned opc = bth[0];
	if (opc > NICREF_ROCE_OP_RC_RDMA_READ_REQUEST)
		return; /* responses, ACKs, CNPs */
	const struct side *p = peer_of(s);
	for (unsigned q = 0; q < NQP; q++)
		if (p->st.qp[q].qpn == dqp)
			on_request(s, q, bth, n);
}

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct side *s = ctx;
	fuzz_oracle_event(&s->oracle, ev);
	if (!in_input)
		return;
	unsigned q = NQP;
	switch (ev->kind) {
	case NICREF_EV_CQE:
		for (unsigned i = 0; i < NQP; i++) {
			struct pqp *x = &s->q[i];
			uint32_t j = x->completed;
			if (s->st.qp[i].scq.cqn == ev->arg[0]) {
				while (j < x->posted && x->m[j].wqe != (uint16_t)ev->arg[4])
					j++;
				if (j < x->posted)
					x->completed = j + 1; /* in order: the WQEs before it too */
			}
			if (s->st.qp[i].rcq.cqn == ev->arg[0])
				s->q[i].recv_events++;
		}
		break;
	case NICREF_EV_ROCE_CC:
		for (unsigned i = 0; i < NQP; i++)
			if (s->st.qp[i].qpn == ev->arg[0])
				q = i;
		if (q < NQP)
			s->q[q].limit = (unsigned)ev->arg[1] ? (unsigned)ev->arg[1] : 16u;
		break;
	case NICREF_EV_ROCE_RETX:
		for (unsigned i = 0; i < NQP; i++)
			if (s->st.qp[i].qpn == ev->arg[0])
				q = i;
		if (q < NQP && ev->arg[2] == 0) {
			uint32_t p = (uint32_t)ev->arg[1];
			const struct pqp *x = &s->q[q];
			if (x->last_tx[p % 1024].on && x->last_tx[p % 1024].psn == p)
				PROP(ev->time_ns - x->last_tx[p % 1024].ns >= timeout_ns, "TIMER",
				     "op %u: %c QP %u: the ACK timer resent PSN 0x%06x %llu ns after it "
				     "was last sent, the timeout is %llu ns", op_no, 'A' + s->idx, q, p,
				     (unsigned long long)(ev->time_ns - x->last_tx[p % 1024].ns),
				     (unsigned long long)timeout_ns);
		}
		break;
	default:
		break;
	}
}

/* ---- completions (CQE_ONCE, PLACED_ONCE) ------------------------------------------------------ */

/* Whether the link lost a frame this input (a loss fault, or no room). */
static bool link_lost(void)
{
	struct nicref_link_counters c[2];
	nicref_link_counters(link, NICREF_LINK_AB, &c[0]);
	nicref_link_counters(link, NICREF_LINK_BA, &c[1]);
	return c[0].lost || c[1].lost || c[0].overflow || c[1].overflow;
}

static bool consumes_recv(unsigned op)
{
	return op == REFDRV_QP_OP_SEND || op == REFDRV_QP_OP_SEND_IMM ||
	       op == REFDRV_QP_OP_RDMA_WRITE_IMM;
}

/* The index (in the peer's posting order) of the n-th message of peer QP q that takes a
 * receive WQE, or -1. */
static int nth_consumer(const struct side *p, unsigned q, uint32_t n)
{
	for (uint32_t i = 0; i < p->q[q].posted; i++)
		if (consumes_recv(p->q[q].m[i].op) && n-- == 0)
			return (int)i;
	return -1;
}

/* Message `slot` of side s's QP q completed well: what the peer must hold by then. */
static void completed_well(struct side *s, unsigned q, uint32_t slot)
{
	struct pqp *x = &s->q[q];
	struct side *p = peer_of(s);
	const struct msg *m = &x->m[slot];
	uint64_t src = R_SRC + q * 0x20000ull + slot * SLOT;
	if (consumes_recv(m->op)) {
		uint32_t nc = 0;
		for (uint32_t k = 0; k < slot; k++)
			nc += consumes_recv(x->m[k].op);
		PROP(p->q[q].recv_events > nc, "ACKED_DELIVERED", "op %u: %c QP %u: message %u "
		     "(opcode 0x%02x, %u bytes) completed, acknowledged, while the responder has "
		     "written %u receive CQEs, not the %u-th (IBTA §9.7.5.1: an ACK or an implicit "
		     "one is sent for executed requests only)", op_no, 'A' + s->idx, q, slot, m->op,
		     m->len, p->q[q].recv_events, nc + 1);
	}
	if (m->op == REFDRV_QP_OP_RDMA_WRITE || m->op == REFDRV_QP_OP_RDMA_WRITE_IMM) {
		PROP(p->q[q].placed_wr[slot] == m->len, "PLACED_ONCE", "op %u: %c QP %u: WRITE %u of "
		     "%u bytes completed with %u placed", op_no, 'A' + s->idx, q, slot, m->len,
		     p->q[q].placed_wr[slot]);
		check_bytes(p, DATA + R_WR + q * 0x20000ull + slot * SLOT, s->idx, src, m->len,
			    "an RDMA WRITE");
	} else if (m->op == REFDRV_QP_OP_RDMA_READ) {
		PROP(x->placed_read[slot] == m->len, "PLACED_ONCE", "op %u: %c QP %u: READ %u of %u "
		     "bytes completed with %u placed", op_no, 'A' + s->idx, q, slot, m->len,
		     x->placed_read[slot]);
		check_bytes(s, DATA + R_READ + q * 0x20000ull + slot * SLOT, p->idx, src, m->len,
			    "an RDMA READ");
	}
}

/* The send CQEs of side s's QP q, in order. A CQE names WQE j (done <= j: completion is in
 * order, IBTA Vol. 1 §10.8.3 C10-90); CE_MODE for it and for the WQEs before it that completed
 * without one (PRM §7.4.4.1 T26, D-ROCE-20): the first WQE in error always has its CQE (the
 * one before it did not fail), so before the first error CQE those WQEs completed well (CE 00b
 * or 01b) and after it they were flushed (01b: the WQE before failed). */
static void poll_send(struct side *s, unsigned q)
{
	struct pqp *x = &s->q[q];
	uint8_t c[64];
	int r;
	while ((r = refdrv_rx_poll(&s->drv, &s->st.qp[q].scq, c)) == 1) {
		unsigned opc = (unsigned)refdrv_rx_cqe_field(c, "opcode");
		uint16_t ctr = (uint16_t)refdrv_rx_cqe_field(c, "wqe_counter");
		bool se = refdrv_field_get(c, sizeof c, "cqe64", "se") != 0;
		uint32_t j = x->done;
		while (j < x->posted && x->m[j].wqe != ctr)
			j++;
		PROP(j < x->posted, "CQE_ONCE", "op %u: %c QP %u: send CQE (counter %u) names none of "
		     "the %u WQEs outstanding from %u (in order, C10-90)", op_no, 'A' + s->idx, q, ctr,
		     x->posted - x->done, x->done);
		for (uint32_t i = x->done; i < j; i++) {
			unsigned ce = x->m[i].ce;
			PROP(x->err ? ce == 1 : ce <= 1, "CE_MODE", "op %u: %c QP %u: send WQE %u "
			     "(counter %u, CE %u) completed without a CQE before WQE %u's (T26: %s)",
			     op_no, 'A' + s->idx, q, i, x->m[i].wqe, ce, j, x->err ?
			     "after a WQE in error only 01b has none" :
			     "on success only 00b and 01b have none");
			if (!x->err)
				completed_well(s, q, i);
		}
		const struct msg *m = &x->m[j];
		if (opc == 13 || opc == 14) {
			unsigned syn = (unsigned)refdrv_rx_cqe_field(c, "syndrome");
			PROP(x->err ? syn == 0x05 : syn == 0x15, "CQE_ONCE", "op %u: %c QP %u: send "
			     "CQE %u: error syndrome 0x%02x (%s)", op_no, 'A' + s->idx, q, j, syn,
			     x->err ? "after an error only flushes, 0x05" :
			     "the only error this pair can meet is retry exhaustion, 0x15");
			PROP(x->err || link_lost(), "LIVENESS", "op %u: %c QP %u: send CQE %u: retry "
			     "exhaustion (0x%02x) though the link has lost no frame (IBTA §9.7.6.1.3: "
			     "retries are for lost packets)", op_no, 'A' + s->idx, q, j, syn);
			PROP(!(x->err && m->ce == 1), "CE_MODE", "op %u: %c QP %u: send WQE %u (CE 01b) "
			     "has an error CQE after a WQE in error (T26: 'if CQE on previous WQE "
			     "completed in error, no CQE will be generated')", op_no, 'A' + s->idx, q, j);
			if (!x->err)
				x->recv_at_err = x->recv_posted;
			x->err = true;
		} else {
			PROP(!x->err, "CQE_ONCE", "op %u: %c QP %u: send CQE %u succeeds after an "
			     "error CQE", op_no, 'A' + s->idx, q, j);
			PROP(m->ce >= 2 && se == (m->ce == 3), "CE_MODE", "op %u: %c QP %u: send WQE %u "
			     "(CE %u) completed with a CQE, se %u (T26: on success a CQE for 10b and 11b "
			     "only, solicited for 11b)", op_no, 'A' + s->idx, q, j, m->ce, se);
			completed_well(s, q, j);
		}
		x->done = j + 1;
	}
	NICREF_FUZZ_CHECK(r == 0);
}

static void poll_recv(struct side *s, unsigned q)
{
	struct pqp *x = &s->q[q];
	struct side *p = peer_of(s);
	uint8_t c[64];
	int r;
	while ((r = refdrv_rx_poll(&s->drv, &s->st.qp[q].rcq, c)) == 1) {
		unsigned opc = (unsigned)refdrv_rx_cqe_field(c, "opcode");
		uint16_t ctr = (uint16_t)refdrv_rx_cqe_field(c, "wqe_counter");
		PROP(x->recv_done < x->recv_posted && ctr == (uint16_t)x->recv_done, "CQE_ONCE",
		     "op %u: %c QP %u: receive CQE %u names WQE %u (%u posted)", op_no,
		     'A' + s->idx, q, x->recv_done, ctr, x->recv_posted);
		bool se = refdrv_field_get(c, sizeof c, "cqe64", "se") != 0;
		uint32_t k = x->recv_done++;
		if (opc == 13 || opc == 14) {
			unsigned syn = (unsigned)refdrv_rx_cqe_field(c, "syndrome");
			PROP(syn == 0x05, "CQE_ONCE", "op %u: %c QP %u: receive CQE %u in error 0x%02x",
			     op_no, 'A' + s->idx, q, k, syn);
			PROP(!se, "SE_CQE", "op %u: %c QP %u: flushed receive CQE %u with se 1 "
			     "(D-ROCE-21)", op_no, 'A' + s->idx, q, k);
			continue;
		}
		int mi = nth_consumer(p, q, x->consumers_seen++);
		PROP(mi >= 0, "CQE_ONCE", "op %u: %c QP %u: receive CQE %u with no message of the "
		     "peer to complete", op_no, 'A' + s->idx, q, k);
		const struct msg *m = &p->q[q].m[mi];
		unsigned want = m->op == REFDRV_QP_OP_SEND ? 2 : m->op == REFDRV_QP_OP_SEND_IMM ? 3 : 1;
		uint64_t bc = refdrv_rx_cqe_field(c, "byte_cnt");
		PROP(opc == want && (want == 1 || bc == m->len), "CQE_ONCE", "op %u: %c QP %u: "
		     "receive CQE %u: opcode %u byte_cnt %llu; the peer's message %d is opcode 0x%02x "
		     "of %u bytes (CQE opcode %u)", op_no, 'A' + s->idx, q, k, opc,
		     (unsigned long long)bc, mi, m->op, m->len, want);
		/* D-ROCE-21: solicited when the message's last packet carried BTH SE, which is its
		 * send WQE's ctrl SE (D-ROCE-20) */
		PROP(se == m->se, "SE_CQE", "op %u: %c QP %u: receive CQE %u (the peer's message %d, "
		     "opcode 0x%02x) se %u; its WQE's SE %u (D-ROCE-20, D-ROCE-21, T68)", op_no,
		     'A' + s->idx, q, k, mi, m->op, se, m->se);
		if (want != 1) {
			uint32_t slot = k % NSLOT;
			PROP(x->placed_recv[slot] == m->len, "PLACED_ONCE", "op %u: %c QP %u: receive "
			     "WQE %u holds %u bytes placed of the %u sent", op_no, 'A' + s->idx, q, k,
			     x->placed_recv[slot], m->len);
			check_bytes(s, DATA + R_RECV + q * 0x20000ull + slot * SLOT, p->idx,
				    R_SRC + q * 0x20000ull + (uint64_t)mi * SLOT, m->len, "a SEND");
		}
	}
	NICREF_FUZZ_CHECK(r == 0);
	/* The QP is in ERR (its send error CQE was polled in this step, or before): every receive
	 * WQE posted by then has completed or been flushed, a WQE a SEND in progress holds too
	 * (IBTA Vol. 1 §10.3.1; F6). Receive WQEs go in between steps, so none was posted after
	 * the QP entered ERR and before recv_at_err was taken. */
	PROP(!x->err || x->recv_done >= x->recv_at_err, "CQE_ONCE", "op %u: %c QP %u: in ERR "
	     "with %u receive WQEs posted before, %u completed (IBTA §10.3.1: every outstanding WR "
	     "completes, flushed)", op_no, 'A' + s->idx, q, x->recv_at_err, x->recv_done);
}

static void after_step(void)
{
	for (unsigned i = 0; i < 2; i++) {
		struct side *s = S[i];
		PROP(!s->bad, "PLACED_ONCE", "op %u: %c wrote %zu bytes at 0x%llx: %s", op_no,
		     'A' + s->idx, s->bad_len, (unsigned long long)s->bad_addr,
		     s->bad_why ? s->bad_why : "");
		for (unsigned q = 0; q < NQP; q++) {
			poll_send(s, q);
			poll_recv(s, q);
		}
		fuzz_oracle_check_dev(&s->oracle);
		NICREF_FUZZ_CHECK(s->oracle.violations == 0);
	}
}

/* ---- ops ------------------------------------------------------------------------------------ */

static unsigned map_op(unsigned op)
{
	if (profile == 0)
		return op;
	/* seed004 runs SEND and WRITE without immediate (docs/roce.md D-QP-14, [S004] L35) */
	return op == REFDRV_QP_OP_SEND_IMM ? REFDRV_QP_OP_SEND
	       : op == REFDRV_QP_OP_SEND ? op : REFDRV_QP_OP_RDMA_WRITE;
}

/* A send WQE: ce as T26 (0 00b .. 3 11b), se its ctrl SE; the drain's (marker) may take the
 * slot after the NSLOT the ops have. */
static void post(struct side *s, unsigned q, unsigned op, uint32_t len, unsigned ce, bool se,
		 bool marker)
{
	struct pqp *x = &s->q[q];
	struct side *p = peer_of(s);
	if (x->posted == NSLOT + marker)
		return;
	struct refdrv_qp *qp = &s->st.qp[q];
	uint32_t slot = x->posted;
	uint64_t src = DATA + R_SRC + q * 0x20000ull + slot * SLOT;
	struct refdrv_wqe w;
	NICREF_FUZZ_CHECK(refdrv_wqe_begin(&w, op, qp->sq.pc, qp->qpn) >= 0);
	if (op == REFDRV_QP_OP_RDMA_WRITE || op == REFDRV_QP_OP_RDMA_WRITE_IMM)
		NICREF_FUZZ_CHECK(refdrv_wqe_raddr(&w, DATA + R_WR + q * 0x20000ull + slot * SLOT,
						   p->st.key) >= 0);
	if (op == REFDRV_QP_OP_RDMA_READ)
		NICREF_FUZZ_CHECK(refdrv_wqe_raddr(&w, src, p->st.key) >= 0);
	if (op == REFDRV_QP_OP_SEND_IMM || op == REFDRV_QP_OP_RDMA_WRITE_IMM)
		refdrv_wqe_imm(&w, 0x1000u * s->idx + slot);
	uint64_t local = op == REFDRV_QP_OP_RDMA_READ ? DATA + R_READ + q * 0x20000ull + slot * SLOT
						      : src;
	if (len)
		NICREF_FUZZ_CHECK(refdrv_wqe_ptr(&w, s->st.key, local, len) >= 0);
	struct refdrv_wqe_ctrl c = { .ce = ce, .se = se };
	NICREF_FUZZ_CHECK(refdrv_wqe_finish(&w, &c, false) == 0);
	x->m[slot] = (struct msg){ .op = op, .len = len, .wqe = qp->sq.pc, .ce = (uint8_t)ce,
				   .se = se };
	x->posted++;
	NICREF_FUZZ_CHECK(refdrv_sq_post(&s->drv, &qp->sq, &w, REFDRV_RING_DB) == 0);
	fuzz_trace("post %c QP %u opcode 0x%02x len %u ce %u se %u", 'A' + s->idx, q, op, len, ce,
		   se);
}

static void op_post(struct reader *r)
{
	static const unsigned ops[5] = { REFDRV_QP_OP_SEND, REFDRV_QP_OP_SEND_IMM,
					 REFDRV_QP_OP_RDMA_WRITE, REFDRV_QP_OP_RDMA_WRITE_IMM,
					 REFDRV_QP_OP_RDMA_READ };
	unsigned who = rd8(r), op = map_op(ops[rd8(r) % 5]);
	uint32_t len = (uint32_t)(rdn(r, 2) % 4097);
	/* who bits 3:2 the CE: 0 10b (as before they were read), 1 11b, 2 00b, 3 01b */
	post(S[who & 1], who >> 1 & 1, op, len, 2u ^ (who >> 2 & 3u), who >> 4 & 1, false);
}

static void recv(struct side *s, unsigned q, unsigned n)
{
	struct pqp *x = &s->q[q];
	for (unsigned i = 0; i < n && x->recv_posted < NSLOT; i++) {
		struct refdrv_rx_sge g = { DATA + R_RECV + q * 0x20000ull + x->recv_posted * SLOT,
					   s->st.key, SLOT, false };
		NICREF_FUZZ_CHECK(refdrv_rq_post(&s->drv, &s->st.qp[q].rq, &g, 1) == 0);
		x->recv_posted++;
	}
}

static void op_recv(struct reader *r)
{
	unsigned who = rd8(r), n = rd8(r) % 9;
	recv(S[who & 1], who >> 1 & 1, n);
}

static void op_fault(struct reader *r)
{
	unsigned dir = rd8(r) & 1, kind = rd8(r) % 7, v = rd8(r);
	uint32_t ppm = v == 255 ? NICREF_LINK_PPM : v * 3922u;
	struct nicref_link_faults f;
	nicref_link_faults_default(&f);
	switch (kind) {
	case 0: f.loss_every = v % 8 + 2; break;
	case 1: f.loss_ppm = ppm; break;
	case 2: f.duplicate_ppm = ppm; break;
	case 3: f.reorder_ppm = ppm; f.reorder_ns = 100ull * v + 100; break;
	case 4: f.ce_ppm = ppm; break;
	case 5: f.delay_ns = 200ull * v; break;
	default: break;
	}
	f.seed = 0x5EED0000u + op_no;
	NICREF_FUZZ_CHECK(nicref_link_set_faults(link, (enum nicref_link_dir)dir, &f) == 0);
	fuzz_trace("fault dir %u kind %u v %u", dir, kind, v);
}

static bool over_cap(void)
{
	return work_frames >= WORK_FRAMES || work_ns >= WORK_NS;
}

/* The link and both devices advance t * 100 ns, in slices of at most TIME_SLICE_NS, the work cap
 * checked between them. */
static void op_time(struct reader *r)
{
	uint64_t ns = rdn(r, 2) * 100u;
	while (ns && !over_cap()) {
		uint64_t s = ns < TIME_SLICE_NS ? ns : TIME_SLICE_NS;
		nicref_link_advance(link, s);
		work_ns += s;
		ns -= s;
	}
}

/* Faults off, a receive WQE for every message that takes one, time until every send WQE has
 * completed. */
static void drain(void)
{
	struct nicref_link_faults f;
	nicref_link_faults_default(&f);
	NICREF_FUZZ_CHECK(nicref_link_set_faults(link, NICREF_LINK_AB, &f) == 0);
	NICREF_FUZZ_CHECK(nicref_link_set_faults(link, NICREF_LINK_BA, &f) == 0);
	for (unsigned i = 0; i < 2; i++)
		for (unsigned q = 0; q < NQP; q++) {
			uint32_t need = 0;
			const struct pqp *x = &peer_of(S[i])->q[q];
			for (uint32_t k = 0; k < x->posted; k++)
				need += consumes_recv(x->m[k].op);
			if (need > S[i]->q[q].recv_posted)
				recv(S[i], q, need - S[i]->q[q].recv_posted);
		}
	/* A WQE of CE 00b or 01b that completes well has no CQE: the last one's completion shows
	 * by the CQE of a WQE after it (zero bytes: no slot written). */
	for (unsigned i = 0; i < 2; i++)
		for (unsigned q = 0; q < NQP; q++) {
			const struct pqp *x = &S[i]->q[q];
			if (x->posted && x->m[x->posted - 1].ce < 2)
				post(S[i], q, REFDRV_QP_OP_RDMA_WRITE, 0, 2, false, true);
		}
	after_step();
	for (unsigned t = 0; t < 400; t++) {
		bool all = true;
		for (unsigned i = 0; i < 2; i++)
			for (unsigned q = 0; q < NQP; q++)
				all &= S[i]->q[q].done == S[i]->q[q].posted;
		if (all)
			break;
		nicref_link_advance(link, 1000000);
		after_step();
	}
	for (unsigned i = 0; i < 2; i++)
		for (unsigned q = 0; q < NQP; q++)
			PROP(S[i]->q[q].done == S[i]->q[q].posted, "CQE_ONCE", "the drain: %c QP %u "
			     "completed %u of its %u send WQEs in 400 ms without faults", 'A' + i, q,
			     S[i]->q[q].done, S[i]->q[q].posted);
}

/* ---- bring-up ------------------------------------------------------------------------------- */

static void qp_destroy(struct side *s, uint32_t qpn)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	refdrv_field_set(in, sizeof in, "destroy_qp_in", "opcode",
			 (uint64_t)nicref_opcode_find("DESTROY_QP"));
	refdrv_field_set(in, sizeof in, "destroy_qp_in", "qpn", qpn);
	NICREF_FUZZ_CHECK(refdrv_cmd(&s->drv, in, sizeof in, out, sizeof out) == 0);
}

static void bring_up(struct side *s)
{
	fuzz_dev_bring_up(s->dev, &s->oracle, &s->drv, NULL);
	full_count++;
}

/* The address path's traffic class (IPv4 TOS): ECT(0) unless the input asks for not-ECT. */
static bool ect;
static void path_tclass(void *ctx, unsigned qp, uint8_t *ads, size_t len)
{
	(void)ctx, (void)qp;
	NICREF_FUZZ_CHECK(refdrv_field_set(ads, len, "ads", "tclass", ect ? 0x02 : 0x00) == 0);
}

static void pair_up(uint32_t psn0)
{
	struct refdrv_qp_attr aa, ab;
	refdrv_qp_defaults(&aa);
	aa.nqp = NQP;
	aa.local.mac = 0x024E4943520Aull;
	aa.ack_timeout = ACK_TIMEOUT;
	aa.retry_count = 7;
	aa.rnr_retry = 7;
	aa.min_rnr_nak = 1;
	aa.sq_psn = aa.rq_psn = psn0;
	aa.path = path_tclass;
	if (profile == 1)
		aa.rre = 0; /* seed004 refuses remote READ (D-QP-14) */
	ab = aa;
	NICREF_FUZZ_CHECK(refdrv_qp_addr_ip(&ab.local, "192.0.2.2") == 0);
	ab.local.mac = 0x024E4943520Bull;
	int which = 0;
	int st = refdrv_qp_pair(&S[0]->drv, &aa, &S[0]->st, &S[1]->drv, &ab, &S[1]->st, &which);
	if (st)
		fuzz_property_failed("SETUP", __FILE__, __LINE__, "device %c: %s", 'A' + which,
				     S[which]->drv.error);
	for (unsigned i = 0; i < 2; i++) {
		struct side *s = S[i];
		/* every message's source bytes, once per pair (the device never writes them) */
		static uint8_t b[0x40000];
		for (uint64_t o = 0; o < sizeof b; o++)
			b[o] = src_byte(i, o);
		NICREF_FUZZ_CHECK(nicref_hostmem_write(s->dev, DATA + R_SRC, b, sizeof b) == 0);
		NICREF_FUZZ_CHECK(s->oracle.violations == 0);
	}
}

/* The harness's follow-up of both sides' QPs, as a pair just made starts it. */
static void pair_follow(uint32_t psn0)
{
	for (unsigned i = 0; i < 2; i++) {
		struct side *s = S[i];
		memset(s->q, 0, sizeof s->q);
		s->bad = false;
		for (unsigned q = 0; q < NQP; q++) {
			s->q[q].npsn = psn0;
			s->q[q].limit = 16;
		}
	}
}

/* Both devices with the pair made for configuration `key` (first PSN index, ECT): restored
 * from that configuration's snapshots, or built and captured; without snapshots, built. */
static void configure(unsigned key, uint32_t psn0)
{
	bool on = fuzz_snap_enabled();
	if (on && S[0]->snap[key].snap && S[1]->snap[key].snap &&
	    fuzz_dev_snap_restore(&S[0]->snap[key], &S[0]->snap_drv[key], S[0]->dev, &S[0]->oracle,
				  &S[0]->drv) &&
	    fuzz_dev_snap_restore(&S[1]->snap[key], &S[1]->snap_drv[key], S[1]->dev, &S[1]->oracle,
				  &S[1]->drv)) {
		for (unsigned i = 0; i < 2; i++)
			S[i]->st = S[i]->snap_st[key];
		restored_count++;
	} else {
		bring_up(S[0]);
		bring_up(S[1]);
		pair_up(psn0);
		for (unsigned i = 0; on && i < 2; i++) {
			struct side *s = S[i];
			nicref_snapshot_free(s->snap[key].snap);
			s->snap[key].snap = NULL;
			fuzz_dev_snap_take(&s->snap[key], &s->snap_drv[key], s->dev, &s->oracle,
					   &s->drv);
			s->snap_st[key] = s->st;
		}
	}
	pair_follow(psn0);
}

static int pair_init(void)
{
	for (unsigned p = 0; p < 2; p++)
		for (unsigned i = 0; i < 2; i++) {
			struct side *s = &sides[p][i];
			s->idx = i;
			struct nicref_config cfg;
			fuzz_dev_config(&cfg, &s->oracle);
			cfg.seed = FUZZ_DEV_SEED + i; /* fixed, one a side: a finding replays */
			cfg.trace = on_event;
			cfg.trace_ctx = s;
			cfg.ops.ctx = s;
			cfg.ops.dma_write = hook_dma_write;
			cfg.ops.wire_tx = on_wire_tx;
			cfg.profile.roce_profile = (uint8_t)p;
			if (!(s->dev = fuzz_dev_create(&cfg, &s->oracle)))
				return -1;
		}
	timeout_ns = nicref_adp_ib_timeout_ns(ACK_TIMEOUT);
	return 0;
}

static void pair_one_input(const uint8_t *data, size_t len)
{
	static const uint32_t psns[4] = { 0, 0xFFFFF0, 0x7FFFFC, 0x0ABCDE };
	struct reader r = { data, len };
	unsigned cfg = rd8(&r);
	profile = cfg >> 2 & 1;
	ect = !(cfg >> 3 & 1);
	S[0] = &sides[profile][0];
	S[1] = &sides[profile][1];
	fuzz_trace("input");
	in_input = false;
	configure((cfg & 3) | (ect ? 4u : 0u), psns[cfg & 3]);
	fuzz_trace("bring-up %s (%llu full, %llu restored)",
		   fuzz_snap_enabled() ? "from the snapshot" : "full",
		   (unsigned long long)full_count, (unsigned long long)restored_count);
	link = nicref_link_create(S[0]->dev, 1, S[1]->dev, 1, 256, 2048);
	NICREF_FUZZ_CHECK(link != NULL);
	NICREF_FUZZ_CHECK(nicref_link_set_tick(link, 10000) == 0);
	fuzz_trace("configured: profile %u, first PSN 0x%06x", profile, psns[cfg & 3]);
	in_input = true;
	draining = false;
	work_frames = work_ns = 0;
	uint8_t op;
	for (op_no = 0; op_no < MAX_OPS && !over_cap() &&
			rd_op(&r, OP_FIRST_RESERVED, op_names, &op);) {
		switch (op) {
		case OP_POST:
			op_post(&r);
			break;
		case OP_RECV:
			op_recv(&r);
			break;
		case OP_FAULT:
			op_fault(&r);
			break;
		case OP_TIME:
			op_time(&r);
			break;
		}
		op_no++;
		after_step();
	}
	if (over_cap())
		fuzz_trace("work cap after %u ops: %llu frames, %llu ns of TIME", op_no,
			   (unsigned long long)work_frames, (unsigned long long)work_ns);
	draining = true;
	drain();
	in_input = false;
	nicref_link_destroy(link);
	link = NULL;
	for (unsigned i = 0; i < 2; i++) {
		/* without snapshots the QPs go as a driver takes them down (a restore undoes them) */
		for (unsigned q = 0; q < NQP && !fuzz_snap_enabled(); q++)
			qp_destroy(S[i], S[i]->st.qp[q].qpn);
		fuzz_oracle_check_dev(&S[i]->oracle);
	}
	fuzz_trace("input done after %u ops: sends A %u/%u %u/%u B %u/%u %u/%u, receives A %u %u "
		   "B %u %u", op_no, S[0]->q[0].done, S[0]->q[0].posted, S[0]->q[1].done,
		   S[0]->q[1].posted, S[1]->q[0].done, S[1]->q[0].posted, S[1]->q[1].done,
		   S[1]->q[1].posted, S[0]->q[0].recv_done, S[0]->q[1].recv_done,
		   S[1]->q[0].recv_done, S[1]->q[1].recv_done);
}

NICREF_FUZZ_TARGET(pair_init, pair_one_input)
