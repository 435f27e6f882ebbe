/* Target: roce_rx, RoCEv2 packets into a configured responder (issue 17 item 11; nicref/roce.h,
 * docs/roce.md). One device brought up once, its QPs made, and kept as a snapshot (fuzz_snap.h;
 * D-ROCE-18: the QPs and their transport state are in it; each input starts from it, whatever
 * the last one did to them): two RC QPs in RTS connected to a
 * peer that exists only in the input (192.0.2.2, QPNs 0x100/0x101, sq_psn = rq_psn = 0), and a
 * UD QP (Q_Key 0x11111111), each with 8 receive WQEs of 4 KB posted and an MKey with remote
 * read and write rights over the data region (harness/driver_qp.h defaults).
 *
 * Every packet's Ethernet, IPv4/IPv6 and UDP headers are the harness's (to the device's GID, UDP
 * port 4791 unless asked otherwise); the transport part (BTH and what follows) comes from the
 * input. roce_rx computes the ICRC (nicref_roce_icrc) so mutations reach the transport's checks;
 * its twin roce_rx_icrc (roce_rx_icrc_fuzz.c) takes the 4 ICRC bytes from the input, which keeps
 * the ICRC check (and the drop it leads to) in the path.
 *
 * Input: ops, each an op byte and its operands (operands past the end read as 0):
 *   0x00 PKT   flags:u8 sel:u8 len:u16 body[len % 1100] (roce_rx_icrc: then icrc:4)
 *              flags: bit 0 IPv6 (to ::ffff:192.0.2.1, not the IPv4 GID: the Ethernet path),
 *              bits 2:1 the IP ECN field, bit 3 UDP destination port 4790 (not RoCE), bit 4 a
 *              bad IPv4 header checksum, bits 7:5 TTL 64 - 8 * n;
 *              sel % 4: the BTH destination QP is 0 RC QP 0, 1 RC QP 1, 2 the UD QP, 3 as the
 *              body has it; sel bit 2: the PSN (bytes 9-11 of the body) taken modulo 16
 *   0x01 TIME  t:u16      virtual time advances t * 1 us
 *   0x02 RECV  sel:u8 n:u8 n % 9 receive WQEs of 4 KB on QP sel % 3 (2: the UD QP)
 *   0x03 SEND  sel:u8 op:u8 len:u16 raddr:u16  a send WQE on RC QP sel % 2: op % 5 SEND,
 *              SEND_IMM, RDMA_WRITE, RDMA_WRITE_IMM, RDMA_READ of len % 4097 bytes, the remote
 *              address 0x1000 * raddr (the peer's R_Key 0x1234), so responses and ACKs of the
 *              input meet a requester that waits for them; sel bits 2:1 its ctrl CE (PRM
 *              §7.4.4.1 T26): 0 10b, 1 11b, 2 00b, 3 01b; sel bit 3 its ctrl SE (the BTH SE
 *              of its last packet, D-ROCE-20)
 *   0x04 ARM   sel:u8  a completion notification request (PRM §7.12.4) of QP (sel & 3) % 3's
 *              receive CQ (sel bit 2) or send CQ, ARM_SOLICITED when sel bit 3 (else ARM_NEXT)
 *   0x05-0xFF  reserved: the op byte alone, nothing happens
 * A PKT body sets the BTH SE bit (byte 1 bit 7) itself. Every CQ is armed (ARM_NEXT) at set-up;
 * the harness polls the CQs and the EQs after every op, so an ARM finds no CQE pending.
 * The op loop stops after 64 ops.
 *
 * Properties after every op (a broken one prints "property NAME broken at FILE:LINE: STATE" and
 * traps), on top of the shared oracles (nicref_dev_check with the transport's invariants
 * -600..-604, the trace's sequence and time, no driver violation):
 *  - WRITE_INSIDE: during packets and time the device writes host memory only into the QPs'
 *    CQs, the EQ and the data region its MKeys cover (IBTA Vol. 1 §10.6: R_Key/L_Key bounds);
 *  - FRAME_OUT: every frame the device sends is a RoCEv2 packet to the peer (its MAC, UDP port
 *    4791) whose ICRC is right (Annex A17 §A17.3.3) and whose BTH names the peer's QP of an
 *    RC QP of ours with an opcode of IBTA Table 38, or a CNP (0x81) to the DETH source QP of
 *    the UD packet being taken (D-ROCE-9: a UD packet's CNP goes to its DETH source QP);
 *  - ICRC_AGREES (roce_rx only): no packet whose ICRC the harness computed is dropped for its
 *    ICRC (the sender's nicref_roce_icrc and the receiver's check agree);
 *  - CQE_ONCE: a QP's receive CQEs never outnumber its receive WQEs posted, nor its send CQEs
 *    its send WQEs; a receive CQE names the next WQE in order, a send CQE a WQE outstanding,
 *    later than the last one named (wqe_counter; RC and UD queues complete in order, IBTA
 *    Vol. 1 §10.8.3, C10-90);
 *  - CE_MODE: a send WQE has a CQE exactly when its CE asks (PRM §7.4.4.1 T26, D-ROCE-20): on
 *    success 10b and 11b (se 1 for 11b, 0 for 10b), 00b and 01b none; in error 00b, 10b, 11b,
 *    and 01b unless the WQE before it failed. Completion being in order and the first WQE in
 *    error always having its CQE, the WQEs a CQE passes over completed well before the first
 *    error CQE (so had CE 00b or 01b) and were flushed after it (so had CE 01b);
 *  - SE_CQE: a receive CQE that completes a message well has T68 se 1 exactly when the packet
 *    of the op (its last packet) carried BTH SE; error and flush CQEs se 0 (D-ROCE-21);
 *  - CQ_EVENT: each CQ's completion events (the completion EQEs, T80/T81 cq_number, polled
 *    after every op) in an op are exactly what its arm asks (PRM §7.12.4 Figure 21, docs/cq.md
 *    D-CQ-3/-5/-17; these CQs have no moderation): ARMED, one at its first CQE; SOL_ARMED, one
 *    at its first CQE with se 1 or in error; none once fired until the next ARM (ARM_SOLICITED
 *    leaves an ARMED CQ ARMED).
 */
#include <stddef.h>
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
#include "nicref/roce.h"

#ifndef ROCE_RX_KEEP_ICRC
#define ROCE_RX_KEEP_ICRC 0
#endif

#define MAX_OPS 64u
#define BODY_MAX 1100u
#define FRAME_MAX 1600u
#define NRECV_INIT 8u
#define RBUF 4096u
#define PEER_QPN 0x100u
#define PEER_RKEY 0x1234u

enum op { OP_PKT = 0x00, OP_TIME = 0x01, OP_RECV = 0x02, OP_SEND = 0x03, OP_ARM = 0x04,
	  OP_FIRST_RESERVED = 0x05 };
static const char *const op_names[OP_FIRST_RESERVED] = { "PKT", "TIME", "RECV", "SEND", "ARM" };

/* A CQ's completion event state as software requested it (PRM §7.12.4 Figure 21; docs/cq.md
 * D-CQ-3, D-CQ-17): FIRED after its event (nothing requested), ARMED for the next CQE,
 * SOL_ARMED for the next solicited or error CQE (D-CQ-5). */
enum arm { ARM_FIRED, ARM_NEXT, ARM_SOL };

#define PROP NICREF_FUZZ_PROP

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static struct refdrv_qp_stack rc, ud;
static struct refdrv_qp_attr rc_attr, ud_attr;
static struct refdrv_qp_addr peer;
static uint64_t full_count, restored_count;
static unsigned op_no;

static struct fuzz_snap snap;
static struct fuzz_snap_drv snap_drv;
static struct refdrv_qp_stack snap_rc, snap_ud;

/* The three QPs: 0, 1 RC, 2 UD. */
#define NQ 3u
static struct qstate {
	struct refdrv_qp *q;        /* in rc or ud */
	uint64_t rbuf;             /* receive buffers: rbuf + 4 KB * (index % 16) */
	uint32_t recv_posted, recv_done;
	uint32_t send_posted, send_done;
	uint16_t send_wqe[64];     /* the WQE counter of each send posted, by index % 64 */
	uint8_t send_ce[64];       /* its ctrl CE (T26), by index % 64 */
	bool send_err;             /* an error CQE was polled: every later WQE is flushed */
	uint64_t laddr;
	uint8_t arm[2];            /* enum arm of the send (0) and receive (1) CQ */
	unsigned events[2];        /* their completion EQEs polled in this op */
} qs[NQ], snap_qs[NQ];

/* The op in progress. */
static struct {
	bool on, bad, cmd;
	uint64_t bad_addr;
	size_t bad_len;
	bool fixed;        /* the harness computed this packet's ICRC */
	bool icrc_drop;
	unsigned frames_out;
	bool ud_src_on;    /* the packet being taken is UD with a DETH: its source QP */
	uint32_t ud_src;
	bool pkt_se;       /* the packet being taken carries BTH SE */
} w;

static const uint64_t MAC_PEER = 0x024E4943520Bull;

static bool inside(uint64_t a, size_t n, uint64_t base, uint64_t size)
{
	return a >= base && a + n <= base + size;
}

static bool write_allowed(uint64_t a, size_t n)
{
	const struct refdrv_qp_stack *ss[2] = { &rc, &ud };
	for (unsigned s = 0; s < 2; s++) {
		const struct refdrv_qp_stack *x = ss[s];
		if (inside(a, n, x->a.data_addr, x->a.data_size) ||
		    inside(a, n, x->eq.a.buf, 64ull << x->eq.a.log_eq_size))
			return true;
		for (unsigned i = 0; i < x->nqp; i++)
			if (inside(a, n, x->qp[i].scq.a.buf, 64ull << x->qp[i].scq.a.log_cq_size) ||
			    inside(a, n, x->qp[i].rcq.a.buf, 64ull << x->qp[i].rcq.a.log_cq_size))
				return true;
	}
	return false;
}

static int hook_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	(void)ctx;
	if (w.on && !w.cmd && !w.bad && !write_allowed(addr, len)) {
		w.bad = true;
		w.bad_addr = addr;
		w.bad_len = len;
	}
	return nicref_hostmem_write(dev, addr, buf, len);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16), put16(p + 2, v);
}

/* A frame the device sent (ops.wire_tx): FRAME_OUT. */
static void on_wire_tx(void *ctx, unsigned port, const uint8_t *f, size_t len)
{
	(void)ctx, (void)port;
	w.frames_out++;
	fuzz_trace("frame out %zu bytes", len);
	PROP(len >= 14 + 20 + 8 + 12 + 4, "FRAME_OUT", "op %u: a frame of %zu bytes", op_no, len);
	uint64_t dmac = 0;
	for (int i = 0; i < 6; i++)
		dmac = dmac << 8 | f[i];
	PROP(dmac == MAC_PEER && get16(f + 12) == 0x0800, "FRAME_OUT",
	     "op %u: to MAC %012llx, EtherType 0x%04x (the peer is %012llx over IPv4)", op_no,
	     (unsigned long long)dmac, get16(f + 12), (unsigned long long)MAC_PEER);
	const uint8_t *ip = f + 14;
	size_t ihl = (size_t)(ip[0] & 15) * 4, iplen = get16(ip + 2);
	PROP(ip[0] >> 4 == 4 && ihl >= 20 && iplen <= len - 14 && iplen >= ihl + 8 + 12 + 4 &&
	     ip[9] == 17 && get16(ip + ihl + 2) == NICREF_ROCE_UDP_PORT, "FRAME_OUT",
	     "op %u: not IPv4/UDP 4791 (version %u, ihl %zu, length %zu of %zu, protocol %u)",
	     op_no, ip[0] >> 4, ihl, iplen, len - 14, ip[9]);
	uint32_t icrc = 0;
	PROP(nicref_roce_icrc(ip, iplen, &icrc) == 0, "FRAME_OUT", "op %u: no BTH", op_no);
	const uint8_t *t = ip + iplen - 4;
	uint32_t got = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
		       (uint32_t)t[3] << 24;
	PROP(got == icrc, "FRAME_OUT", "op %u: ICRC 0x%08x, the packet's is 0x%08x (A17.3.3)",
	     op_no, got, icrc);
	const uint8_t *bth = ip + ihl + 8;
	uint32_t dqp = (uint32_t)bth[5] << 16 | (uint32_t)bth[6] << 8 | bth[7];
	const struct nicref_roce_opcode_info *oi = nicref_roce_opcode(bth[0]);
	PROP(oi != NULL, "FRAME_OUT", "op %u: opcode 0x%02x not in Table 38", op_no, bth[0]);
	bool cnp_to_ud_src = bth[0] == 0x81 && w.ud_src_on && dqp == w.ud_src;
	PROP(dqp == PEER_QPN || dqp == PEER_QPN + 1 || cnp_to_ud_src, "FRAME_OUT",
	     "op %u: opcode 0x%02x to QP 0x%06x, not the peer's 0x%x/0x%x (nor a CNP to the "
	     "UD packet's source QP)", op_no, bth[0], dqp, PEER_QPN, PEER_QPN + 1);
}

static void on_event(void *ctx, const struct nicref_event *ev)
{
	fuzz_oracle_event(ctx, ev);
	if (!w.on)
		return;
	if (ev->kind == NICREF_EV_ROCE_DROP && ev->arg[1] == NICREF_ROCE_DROP_ICRC)
		w.icrc_drop = true;
}

/* ---- the QPs' completions ------------------------------------------------------------------- */

/* The completion EQEs of both stacks' EQs (T80/T81: cq_number): each counts for its CQ, and
 * software takes note (the next arm's cmd_sn, D-CQ-4); the consumer index goes to the device. */
static void poll_eqs(void)
{
	struct refdrv_qp_stack *ss[2] = { &rc, &ud };
	for (unsigned s = 0; s < 2; s++) {
		uint8_t e[64];
		int r, n = 0;
		while ((r = refdrv_eq_poll(&drv, &ss[s]->eq, e)) == 1) {
			n++;
			if (refdrv_field_get(e, sizeof e, "eqe", "event_type") != 0)
				continue;
			uint32_t cqn = (uint32_t)refdrv_field_get(e, sizeof e, "eqe_completion",
								   "cq_number");
			for (unsigned k = 0; k < NQ; k++)
				for (unsigned j = 0; j < 2; j++) {
					struct refdrv_cq *cq = j ? &qs[k].q->rcq : &qs[k].q->scq;
					if (cq->cqn == cqn) {
						qs[k].events[j]++;
						refdrv_cq_event_seen(cq);
					}
				}
		}
		NICREF_FUZZ_CHECK(r == 0);
		if (n)
			refdrv_eq_doorbell(&drv, &ss[s]->eq, true);
	}
}

/* A send CQE naming WQE j (send_done <= j): CE_MODE for it and for the WQEs before it that
 * completed without one (PRM §7.4.4.1 T26, D-ROCE-20). Completions are in order (C10-90), and
 * the first WQE in error always has a CQE (its previous one did not fail), so before the first
 * error CQE every WQE completed well: those without a CQE had CE 00b or 01b. After it every WQE
 * is flushed (in error): 00b, 10b and 11b have a CQE, 01b none (its previous one failed). */
static void send_cqe(unsigned k, uint32_t j, bool err, bool se)
{
	struct qstate *x = &qs[k];
	for (uint32_t i = x->send_done; i < j; i++) {
		unsigned ce = x->send_ce[i % 64];
		PROP(x->send_err ? ce == 1 : ce <= 1, "CE_MODE", "op %u: QP %u: send WQE %u (counter "
		     "%u, CE %u) completed without a CQE before WQE %u's (T26: %s)", op_no, k, i,
		     x->send_wqe[i % 64], ce, j, x->send_err ? "after a WQE in error only 01b has "
		     "none" : "on success only 00b and 01b have none");
	}
	unsigned ce = x->send_ce[j % 64];
	if (!err) {
		PROP(!x->send_err, "CQE_ONCE", "op %u: QP %u: send WQE %u succeeds after an error CQE",
		     op_no, k, j);
		PROP(ce >= 2 && se == (ce == 3), "CE_MODE", "op %u: QP %u: send WQE %u (CE %u) "
		     "completed with a CQE, se %u (T26: on success a CQE for 10b and 11b only, "
		     "solicited for 11b)", op_no, k, j, ce, se);
	} else {
		PROP(!(x->send_err && ce == 1), "CE_MODE", "op %u: QP %u: send WQE %u (CE 01b) has "
		     "an error CQE after a WQE in error (T26: 'if CQE on previous WQE completed in "
		     "error, no CQE will be generated')", op_no, k, j);
		x->send_err = true;
	}
	x->send_done = j + 1;
}

/* The CQEs of QP k's send or receive CQ since the last op, in order; CQ_EVENT: the completion
 * events of the CQ in this op are exactly what its arm asks for (PRM §7.12.4; no moderation on
 * these CQs): one at the first CQE when ARMED, at the first solicited or error CQE when
 * SOL_ARMED (T68 se, D-ROCE-20/-21, D-CQ-5), none when FIRED. */
static void check_cq(unsigned k, bool send)
{
	struct qstate *x = &qs[k];
	struct refdrv_cq *cq = send ? &x->q->scq : &x->q->rcq;
	uint8_t *arm = &x->arm[!send];
	unsigned want = 0;
	uint8_t c[64];
	int r;
	while ((r = refdrv_rx_poll(&drv, cq, c)) == 1) {
		uint64_t op = refdrv_rx_cqe_field(c, "opcode");
		uint16_t ctr = (uint16_t)refdrv_rx_cqe_field(c, "wqe_counter");
		bool err = op == 13 || op == 14;
		bool se = refdrv_field_get(c, sizeof c, "cqe64", "se") != 0;
		fuzz_trace("cqe qp %u %s opcode %llu counter %u se %u", k, send ? "send" : "recv",
			   (unsigned long long)op, ctr, se);
		if (*arm == ARM_NEXT || (*arm == ARM_SOL && (se || err))) {
			want++;
			*arm = ARM_FIRED;
		}
		if (send) {
			uint32_t j = x->send_done;
			while (j < x->send_posted && x->send_wqe[j % 64] != ctr)
				j++;
			PROP(j < x->send_posted, "CQE_ONCE", "op %u: QP %u: send CQE (counter %u) names "
			     "none of the %u WQEs outstanding from %u (in order, C10-90)", op_no, k, ctr,
			     x->send_posted - x->send_done, x->send_done);
			send_cqe(k, j, err, se);
		} else {
			PROP(x->recv_done < x->recv_posted, "CQE_ONCE", "op %u: QP %u: receive CQE "
			     "%u with %u receive WQEs posted", op_no, k, x->recv_done, x->recv_posted);
			PROP(ctr == (uint16_t)x->recv_done, "CQE_ONCE", "op %u: QP %u: receive CQE %u "
			     "names WQE %u (in order, C10-90)", op_no, k, x->recv_done, ctr);
			/* D-ROCE-21: a message's receive CQE is solicited when its last packet, the
			 * packet of this op (nothing else completes a receive WQE well), carried BTH
			 * SE; error and flush CQEs carry 0. */
			PROP(se == (!err && w.pkt_se), "SE_CQE", "op %u: QP %u: receive CQE %u (opcode "
			     "%llu) se %u; the packet's BTH SE %u (D-ROCE-21, T68)", op_no, k,
			     x->recv_done, (unsigned long long)op, se, w.pkt_se);
			x->recv_done++;
		}
	}
	NICREF_FUZZ_CHECK(r == 0);
	PROP(x->events[!send] == want, "CQ_EVENT", "op %u: QP %u: %u completion events of its %s "
	     "CQ 0x%x, its arm asked for %u (PRM §7.12.4, D-CQ-5, D-CQ-17)", op_no, k,
	     x->events[!send], send ? "send" : "receive", cq->cqn, want);
	x->events[!send] = 0;
}

static void begin(bool cmd)
{
	w.on = true, w.bad = false, w.cmd = cmd, w.fixed = false, w.icrc_drop = false;
	w.ud_src_on = false, w.pkt_se = false;
}

static void end(void)
{
	w.on = false;
	PROP(!w.bad, "WRITE_INSIDE", "op %u: the device wrote %zu bytes at 0x%llx, outside the "
	     "CQs, the EQ and the MKeys' data regions", op_no, w.bad_len,
	     (unsigned long long)w.bad_addr);
	poll_eqs();
	for (unsigned k = 0; k < NQ; k++) {
		check_cq(k, false);
		check_cq(k, true);
	}
}

/* ---- ops ------------------------------------------------------------------------------------ */

static uint32_t qpn_of(unsigned k)
{
	return qs[k].q->qpn;
}

static void op_pkt(struct reader *r)
{
	static uint8_t f[FRAME_MAX];
	unsigned flags = rd8(r), sel = rd8(r), len = (unsigned)(rdn(r, 2) % BODY_MAX);
	bool v6 = flags & 1;
	size_t ihl = v6 ? 40 : 20, l4 = 8 + len + 4, n = 14 + ihl + l4, sent = n < 60 ? 60 : n;
	memset(f, 0, sent); /* the bytes sent, padding included; none past them is read */
	put32(f, 0x024E4943), put16(f + 4, 0x5246); /* the device's MAC (refdrv_qp_defaults) */
	put32(f + 6, (uint32_t)(MAC_PEER >> 16)), put16(f + 10, (uint32_t)MAC_PEER);
	put16(f + 12, v6 ? 0x86DD : 0x0800);
	uint8_t *ip = f + 14;
	uint8_t ecn = (uint8_t)(flags >> 1 & 3), ttl = (uint8_t)(64 - 8 * (flags >> 5));
	if (!v6) {
		ip[0] = 0x45, ip[1] = ecn;
		put16(ip + 2, (uint32_t)(20 + l4));
		put16(ip + 6, 0x4000);
		ip[8] = ttl, ip[9] = 17;
		put32(ip + 12, 0xC0000202u), put32(ip + 16, 0xC0000201u);
		uint32_t s = 0;
		for (int i = 0; i < 20; i += 2)
			s += get16(ip + i);
		while (s >> 16)
			s = (s & 0xFFFF) + (s >> 16);
		put16(ip + 10, (uint16_t)~s ^ (flags & 0x10 ? 0x5A5Au : 0));
	} else {
		put32(ip, 6u << 28 | (uint32_t)ecn << 20);
		put16(ip + 4, (uint32_t)l4);
		ip[6] = 17, ip[7] = ttl;
		ip[18] = ip[19] = 0xFF; /* ::ffff:192.0.2.2 to ::ffff:192.0.2.1 */
		put32(ip + 20, 0xC0000202u);
		ip[34] = ip[35] = 0xFF;
		put32(ip + 36, 0xC0000201u);
	}
	uint8_t *udp = ip + ihl;
	put16(udp, 0xC000 + (sel & 0xF0));
	put16(udp + 2, flags & 8 ? 4790 : NICREF_ROCE_UDP_PORT);
	put16(udp + 4, (uint32_t)l4);
	uint8_t *body = udp + 8;
	for (unsigned i = 0; i < len; i++)
		body[i] = rd8(r);
	if (len >= 12) {
		unsigned q = sel % 4;
		if (q < 3) {
			uint32_t qpn = qpn_of(q);
			body[5] = (uint8_t)(qpn >> 16), body[6] = (uint8_t)(qpn >> 8);
			body[7] = (uint8_t)qpn;
		}
		if (sel & 4)
			body[9] = body[10] = 0, body[11] &= 0x0F;
	}
	uint8_t *icrc = body + len;
#if ROCE_RX_KEEP_ICRC
	for (int i = 0; i < 4; i++)
		icrc[i] = rd8(r);
#else
	uint32_t c = 0;
	if (nicref_roce_icrc(ip, ihl + l4, &c) == 0) {
		icrc[0] = (uint8_t)c, icrc[1] = (uint8_t)(c >> 8);
		icrc[2] = (uint8_t)(c >> 16), icrc[3] = (uint8_t)(c >> 24);
		w.fixed = true;
	}
#endif
	bool fixed = w.fixed;
	begin(false);
	w.fixed = fixed;
	/* UD_SEND_ONLY (0x64) and its immediate form (0x65): the DETH follows the BTH, its source
	 * QP in bytes 5-7 (IBTA Vol. 1 §9.3.3), where a CNP for this packet goes (D-ROCE-9). */
	w.pkt_se = len >= 12 && (body[1] & 0x80);
	if (len >= 20 && (body[0] == 0x64 || body[0] == 0x65)) {
		w.ud_src_on = true;
		w.ud_src = (uint32_t)body[17] << 16 | (uint32_t)body[18] << 8 | body[19];
	}
	NICREF_FUZZ_CHECK(nicref_wire_rx(dev, 1, f, sent) == 0);
	PROP(!(w.fixed && w.icrc_drop && !(flags & 0x10)), "ICRC_AGREES", "op %u: a packet "
	     "whose ICRC nicref_roce_icrc computed was dropped for its ICRC", op_no);
	end();
	fuzz_trace("pkt flags 0x%02x sel 0x%02x len %u opcode 0x%02x: %u frames out", flags, sel,
		   len, len ? body[0] : 0, w.frames_out);
}

static void op_time(struct reader *r)
{
	uint64_t ns = rdn(r, 2) * 1000u;
	begin(false);
	nicref_clock_advance(dev, ns);
	end();
}

static void post_recv(unsigned k, unsigned n)
{
	struct qstate *x = &qs[k];
	const struct refdrv_qp_stack *s = k < 2 ? &rc : &ud;
	for (unsigned i = 0; i < n; i++) {
		if (x->recv_posted - x->recv_done >= (1u << s->a.log_rq_size))
			return;
		struct refdrv_rx_sge g = { x->rbuf + RBUF * (x->recv_posted % 16), s->key, RBUF,
					   false };
		begin(true);
		NICREF_FUZZ_CHECK(refdrv_rq_post(&drv, &x->q->rq, &g, 1) == 0);
		end();
		x->recv_posted++;
	}
}

static void op_recv(struct reader *r)
{
	unsigned k = rd8(r) % 3, n = rd8(r) % 9;
	post_recv(k, n);
}

static void op_send(struct reader *r)
{
	static const unsigned ops[5] = { REFDRV_QP_OP_SEND, REFDRV_QP_OP_SEND_IMM,
					 REFDRV_QP_OP_RDMA_WRITE, REFDRV_QP_OP_RDMA_WRITE_IMM,
					 REFDRV_QP_OP_RDMA_READ };
	unsigned sel = rd8(r), k = sel % 2, op = ops[rd8(r) % 5], len = (unsigned)(rdn(r, 2) % 4097);
	/* sel bits 2:1 the ctrl's CE: 0 10b (every CQE), 1 11b (and solicited), 2 00b, 3 01b */
	unsigned ce = 2u ^ (sel >> 1 & 3u);
	uint64_t raddr = rdn(r, 2) * 0x1000ull;
	struct qstate *x = &qs[k];
	struct refdrv_qp *q = x->q;
	if (x->send_posted - x->send_done >= 32u)
		return; /* the ring (64 WQEBBs) has room for these WQEs of at most 2 */
	struct refdrv_wqe wq;
	NICREF_FUZZ_CHECK(refdrv_wqe_begin(&wq, op, q->sq.pc, q->qpn) >= 0);
	if (op == REFDRV_QP_OP_RDMA_WRITE || op == REFDRV_QP_OP_RDMA_WRITE_IMM ||
	    op == REFDRV_QP_OP_RDMA_READ)
		NICREF_FUZZ_CHECK(refdrv_wqe_raddr(&wq, raddr, PEER_RKEY) >= 0);
	if (op == REFDRV_QP_OP_SEND_IMM || op == REFDRV_QP_OP_RDMA_WRITE_IMM)
		refdrv_wqe_imm(&wq, 0xA5A5A5A5u ^ op_no);
	if (len)
		NICREF_FUZZ_CHECK(refdrv_wqe_ptr(&wq, rc.key, x->laddr, len) >= 0);
	struct refdrv_wqe_ctrl c = { .ce = ce, .se = sel >> 3 & 1 };
	NICREF_FUZZ_CHECK(refdrv_wqe_finish(&wq, &c, false) == 0);
	x->send_wqe[x->send_posted % 64] = q->sq.pc;
	x->send_ce[x->send_posted % 64] = (uint8_t)ce;
	begin(false); /* the doorbell runs the requester: packets leave now */
	w.cmd = false;
	NICREF_FUZZ_CHECK(refdrv_sq_post(&drv, &q->sq, &wq, REFDRV_RING_DB) == 0);
	x->send_posted++;
	end();
	fuzz_trace("send qp %u opcode 0x%02x len %u ce %u: %u frames out", k, op, len, ce,
		   w.frames_out);
}

/* A completion notification request (PRM §7.12.4, T13/T14 through refdrv_cq_arm, cmd_sn of the
 * events seen): sel bits 1:0 the QP (3: QP 0), bit 2 its receive CQ (else the send CQ), bit 3
 * ARM_SOLICITED.
 * Every CQE was polled at the last op's end, so none is pending: no event at the arm. */
static void op_arm(struct reader *r)
{
	unsigned sel = rd8(r), k = (sel & 3) % 3, j = sel >> 2 & 1;
	bool sol = sel >> 3 & 1;
	struct qstate *x = &qs[k];
	begin(false);
	refdrv_cq_arm(&drv, j ? &x->q->rcq : &x->q->scq, sol);
	/* Figure 21: ARM_NEXT always arms; ARM_SOL arms solicited unless ARMED (D-CQ-17) */
	if (!sol)
		x->arm[j] = ARM_NEXT;
	else if (x->arm[j] != ARM_NEXT)
		x->arm[j] = ARM_SOL;
	end();
	fuzz_trace("arm qp %u %s cq%s", k, j ? "recv" : "send", sol ? " solicited" : "");
}

/* ---- bring-up ------------------------------------------------------------------------------- */

static void qp_destroy(uint32_t qpn)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	refdrv_field_set(in, sizeof in, "destroy_qp_in", "opcode",
			 (uint64_t)nicref_opcode_find("DESTROY_QP"));
	refdrv_field_set(in, sizeof in, "destroy_qp_in", "qpn", qpn);
	NICREF_FUZZ_CHECK(refdrv_cmd(&drv, in, sizeof in, out, sizeof out) == 0);
}

static void bring_up(void)
{
	fuzz_dev_bring_up(dev, &oracle, &drv, NULL);
	full_count++;
}

/* The QPs on the initialized device, each with its receive WQEs. */
static void qps_up(void)
{
	w.on = false;
	int st = refdrv_qp_stack_up(&drv, &rc_attr, &rc);
	if (st)
		fuzz_property_failed("SETUP", __FILE__, __LINE__, "RC stack: %s", drv.error);
	for (unsigned i = 0; i < 2; i++) {
		st = refdrv_qp_connect(&drv, &rc, i, PEER_QPN + i, &peer);
		if (st)
			fuzz_property_failed("SETUP", __FILE__, __LINE__, "RC QP %u: %s", i, drv.error);
	}
	st = refdrv_qp_stack_up(&drv, &ud_attr, &ud);
	if (st)
		fuzz_property_failed("SETUP", __FILE__, __LINE__, "UD stack: %s", drv.error);
	st = refdrv_qp_connect(&drv, &ud, 0, 0, &peer);
	if (st)
		fuzz_property_failed("SETUP", __FILE__, __LINE__, "UD QP: %s", drv.error);
	memset(qs, 0, sizeof qs);
	for (unsigned k = 0; k < NQ; k++) {
		qs[k].q = k < 2 ? &rc.qp[k] : &ud.qp[0];
		uint64_t base = k < 2 ? rc.a.data_addr : ud.a.data_addr;
		qs[k].rbuf = base + 0x80000ull + 0x10000ull * (k % 2);
		qs[k].laddr = base + 0x1000ull * k;
		qs[k].arm[0] = qs[k].arm[1] = ARM_NEXT; /* refdrv_qp_stack_up armed both CQs */
	}
	for (unsigned k = 0; k < NQ; k++)
		post_recv(k, NRECV_INIT);
	NICREF_FUZZ_CHECK(oracle.violations == 0);
	fuzz_trace("QPs 0x%x 0x%x (RC) 0x%x (UD), data keys 0x%x 0x%x", rc.qp[0].qpn, rc.qp[1].qpn,
		   ud.qp[0].qpn, rc.key, ud.key);
}

static void qps_down(void)
{
	w.on = false;
	for (unsigned i = 0; i < rc.nqp; i++)
		qp_destroy(rc.qp[i].qpn);
	for (unsigned i = 0; i < ud.nqp; i++)
		qp_destroy(ud.qp[i].qpn);
}

/* A stack back to its saved copy: its words and the QPs it made (nqp of REFDRV_QP_MAX, 14 KB
 * in all); the slots past nqp are no QP's, and nothing writes them after refdrv_qp_stack_up. */
static void stack_restore(struct refdrv_qp_stack *s, const struct refdrv_qp_stack *saved)
{
	memcpy(s, saved, offsetof(struct refdrv_qp_stack, qp) + saved->nqp * sizeof s->qp[0]);
}

/* The device with its QPs made: restored from the snapshot (the harness's side with it), or
 * built (and captured); without snapshots, built for every input. */
static void configure(void)
{
	if (fuzz_snap_enabled() && fuzz_dev_snap_restore(&snap, &snap_drv, dev, &oracle, &drv)) {
		stack_restore(&rc, &snap_rc);
		stack_restore(&ud, &snap_ud);
		memcpy(qs, snap_qs, sizeof qs);
		memset(&w, 0, sizeof w);
		restored_count++;
		return;
	}
	bring_up();
	qps_up();
	if (fuzz_dev_snap_take(&snap, &snap_drv, dev, &oracle, &drv)) {
		snap_rc = rc;
		snap_ud = ud;
		memcpy(snap_qs, qs, sizeof qs);
	}
}

static int roce_rx_init(void)
{
	struct nicref_config cfg;
	fuzz_dev_config(&cfg, &oracle);
	cfg.trace = on_event;
	cfg.ops.dma_write = hook_dma_write;
	cfg.ops.wire_tx = on_wire_tx;
	if (!(dev = fuzz_dev_create(&cfg, &oracle)))
		return -1;
	memset(&drv, 0, sizeof drv);
	refdrv_qp_defaults(&rc_attr);
	rc_attr.nqp = 2;
	rc_attr.ack_timeout = 10; /* 4.2 ms: TIME ops reach the retransmissions */
	rc_attr.retry_count = 3;
	rc_attr.rnr_retry = 3;
	ud_attr = rc_attr;
	ud_attr.st = REFDRV_QP_ST_UD;
	ud_attr.nqp = 1;
	ud_attr.data_addr = 0x70100000ull;
	ud_attr.eq_buf = 0x64000000ull, ud_attr.qp_dbr = 0x64FF0000ull;
	ud_attr.cq_dbr = 0x64FE0000ull, ud_attr.qp_buf = 0x65000000ull;
	ud_attr.cq_buf = 0x66000000ull;
	ud_attr.udp_sport = 0xD000;
	NICREF_FUZZ_CHECK(refdrv_qp_addr_ip(&peer, "192.0.2.2") == 0);
	peer.mac = MAC_PEER;
	return 0;
}

static void roce_rx_one_input(const uint8_t *data, size_t len)
{
	fuzz_trace("input");
	configure();
	fuzz_trace("bring-up %s (%llu full, %llu restored)",
		   fuzz_snap_enabled() ? "from the snapshot" : "full",
		   (unsigned long long)full_count, (unsigned long long)restored_count);
	fuzz_trace("configured"); /* what follows is the input's own */
	fuzz_snap_check_start(&snap, &oracle);
	struct reader r = { data, len };
	uint8_t op;
	for (op_no = 0; op_no < MAX_OPS && rd_op(&r, OP_FIRST_RESERVED, op_names, &op);) {
		w.frames_out = 0;
		switch (op) {
		case OP_PKT:
			op_pkt(&r);
			break;
		case OP_TIME:
			op_time(&r);
			break;
		case OP_RECV:
			op_recv(&r);
			break;
		case OP_SEND:
			op_send(&r);
			break;
		case OP_ARM:
			op_arm(&r);
			break;
		}
		op_no++;
		fuzz_oracle_check_dev(&oracle);
		NICREF_FUZZ_CHECK(oracle.violations == 0);
	}
	if (!fuzz_snap_enabled())
		qps_down(); /* the QPs go as a driver takes them down (the restore undoes them) */
	/* Else the device is as the check after the last op saw it (fuzz_snap_check_start). */
	if (op_no == 0 || !fuzz_snap_enabled())
		fuzz_oracle_check_dev(&oracle);
	fuzz_trace("input done after %u ops", op_no);
	fuzz_snap_rewind(&snap, dev, &oracle); /* what the input made goes within it */
}

NICREF_FUZZ_TARGET(roce_rx_init, roce_rx_one_input)
