/* Target: lro, Large Receive Offload (PRM §3.3.6, T5, T45, T68, T147; nicref/lro.h,
 * docs/lro.md): a stream of TCP segments from the wire into one RQ behind a Direct TIR with LRO,
 * on the receive stack of harness/driver_rxstack.h (128 WQEs of 16 KB, re-posted in completion
 * order; the TIR starts with lro_enable_mask 3, lro_timeout_period_usecs 32, lro_max_msg_sz 64).
 *
 * Input: ops, each an op byte and its operands (operands past the end read as 0):
 *   0x00 SEG   flow:u8 flags:u8 seq:u8 len:u16 opt:u8 ts:u8 ecn:u8 misc:u8
 *              one TCP segment of flow `flow` (bits 2:0 the ports, bit 3 IPv6, bit 4 an
 *              802.1Q tag of VLAN 5 + bits 2:0): TCP flags = flags ^ 0x10 (0: ACK alone);
 *              seq bits 1:0: 0 the flow's next sequence number, 1 that + 1..64, 2 a
 *              retransmission of the last segment's, 3 that - 1..64 (bits 7:2 the amount);
 *              payload len % 1601 bytes; opt % 8: 0-3 the timestamp option after two NOPs,
 *              4 none, 5 the timestamp alone (padded by an End of option list), 6 an MSS
 *              option, 7 a truncated option; ts: TSval advances by (int8_t)ts (TSecr fixed);
 *              ecn: bits 1:0 the IP ECN field, bit 2 ECE, bit 3 CWR; misc: bit 0 a bad IP
 *              header checksum, bit 1 IPv4 options (a NOP word) / an IPv6 hop-by-hop header,
 *              bit 2 a fragment (IPv4 MF), bit 3 TTL 64 - (misc >> 4), bit 4 DSCP 8 (an IP
 *              field merging keeps), bit 5 a bad TCP checksum, bit 6 DF clear
 *   0x01 TIME  t:u16   virtual time advances t * 250 ns (up to 16 ms)
 *   0x02 TIR   mask:u8 timeout:u16 msg:u8   MODIFY_TIR of the LRO group (T48 bit 0):
 *              lro_enable_mask mask % 4, lro_timeout_period_usecs timeout, lro_max_msg_sz msg
 *   0x03 RQ    sel:u8  sel & 1: MODIFY_RQ RDY -> ERR (the sessions flush, D-LRO-10); then, or
 *              else, the RQ to RST and RDY again with its WQEs posted (the driver's recovery)
 *   0x04 UDP   flow:u8 len:u16   a UDP datagram of the flow's addresses (no LRO event)
 *   0x05-0xFF  reserved: the op byte alone, nothing happens
 * The op loop stops after 256 ops.
 *
 * Properties (a broken one prints "property NAME broken at FILE:LINE: STATE" and traps), after
 * every op, on top of the shared oracles (nicref_dev_check, the trace's sequence and time) and
 * no driver violation but RX_WQE_TOO_SHORT (a session an lro_max_msg_sz over 63 lets grow past
 * the 16 KB WQE, §3.3.6.5, which ends it with an error CQE, D-LRO-3):
 *  - MERGE_RULE: the harness re-checks each lro_open and lro_merge from what it built, by PRM
 *    §3.3.6.2 and §3.3.6.4: the segment is eligible (TCP over IPv4/IPv6 of an enabled version,
 *    only ACK/PSH/ECE/CWR set, PSH only with lro_psh_flag, no option but NOP and the timestamp,
 *    the timestamp only with lro_time_stamp, no IP options, extension header or fragment, valid
 *    checksums, payload >= lro_min_mss_size, the TIR active); a merge is of the session's flow,
 *    at its next sequence number, with the IP fields other than TTL, checksum, length and ID
 *    unchanged, the same ECN, ECE and CWR as the previous segment, a timestamp present exactly
 *    when the previous had one and a TSval not below it, within lro_max_msg_sz (D-LRO-6) and
 *    the WQE's room;
 *  - BYTE_CNT: lro_open's len is the frame as scattered (its VLAN tag stripped); each
 *    lro_merge's bytes, lro_end's byte_cnt and num_seg, and the session's CQE byte_cnt and
 *    lro_num_seg are the first frame up to the end of its IP datagram (Ethernet padding is not
 *    TCP data, D-LRO-3) plus every merged payload, and the buffer holds exactly those bytes (the
 *    first frame, then the payloads in order, §3.3.6.5); a frame alone
 *    (lro_pass) has a CQE with lro_num_seg 0 and its own length;
 *  - CQE_FIELDS: a session's CQE carries lro_tcp_psh (any PSH), lro_min_ttl, lro_tcp_win and
 *    lro_ack_seq_num of the last segment, lro_timestamp_is_valid with the last TSval/TSecr, and
 *    lro_abrt of its cause (nicref_lro_cause_abrt, D-LRO-4, D-LRO-7);
 *  - TIMER: no session is open longer than 2N µs of the TIR's period in force N (T147), and one
 *    the timer ended was open at least N;
 *  - WRITE_INSIDE: during frames and time steps the device writes host memory only into the CQ,
 *    the EQ and the buffer of a WQE posted to it (not one completed and not yet re-posted).
 *
 * Between inputs (light restore): time runs until every session has ended, the CQ is drained,
 * the RQ is recovered if it is not RDY and the TIR's LRO group put back; a full bring-up only
 * when one of these fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "driver_rq.h"
#include "driver_rxstack.h"
#include "driver_wq.h"
#include "fuzz_bytes.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"

#define MAX_OPS 256u
#define LOG_RQ 7u
#define NWQE (1u << LOG_RQ)
#define WQE_BYTES 16384u
#define FRAME_MAX 2048u
#define NFLOW 32u

enum op { OP_SEG = 0x00, OP_TIME = 0x01, OP_TIR = 0x02, OP_RQ = 0x03, OP_UDP = 0x04,
	  OP_FIRST_RESERVED = 0x05 };
static const char *const op_names[OP_FIRST_RESERVED] = { "SEG", "TIME", "TIR", "RQ", "UDP" };

#define PROP NICREF_FUZZ_PROP

/* What the harness built into a frame. */
struct seg {
	unsigned flow;
	bool v6, vlan;
	uint8_t flags, ttl, ecn, dscp;
	bool df, ts, bad_opt, ipopt, frag, bad_ipcsum, bad_tcpcsum;
	uint32_t seq, ack, tsval, tsecr;
	uint16_t win;
	uint32_t payload, tcp_hdr, len, scattered;
	uint32_t dgram; /* scattered bytes up to the end of the IP datagram (no Ethernet padding) */
	size_t pay_at; /* the payload's offset in the frame */
};

struct sess {
	bool open, ended;
	int cause;
	struct seg first, last;
	uint32_t next_seq, num, min_ttl, psh;
	uint64_t bytes, open_ns;
	unsigned period;
	uint8_t exp[WQE_BYTES];
};

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static struct refdrv_rx_stack st;
static struct refdrv_lro_caps caps;
static bool need_full = true;
static unsigned op_no;
static uint64_t full_count, light_count;

static struct {
	unsigned mask, timeout, msg, period; /* the TIR's LRO group, and its period in force */
	bool rq_err;                         /* the RQ is not RDY */
} tir;

static struct flow {
	uint32_t next_seq, last_seq, tsval;
} flows[NFLOW];

static struct sess sess[NWQE]; /* by WQE slot */
/* Slots a session opened in since the snapshot (bit per slot): only those are cleared. */
static uint64_t sess_touched[NWQE / 64];

/* The device after full_bring_up (fuzz_snap.h), with the harness's side as it was then. */
static struct fuzz_snap snap;
static struct fuzz_snap_drv snap_drv;
static struct refdrv_rx_stack snap_st;

/* The step in progress: its frame, its events. */
static struct {
	bool on, bad;
	bool cmd; /* a command runs: its queue entry and mailboxes are written too */
	uint64_t bad_addr;
	size_t bad_len;
	const struct seg *seg; /* the frame's, or NULL */
	const uint8_t *frame;
	bool passed, opened, merged, dropped;
	/* completions announced, in order: a session slot, or -1 the frame */
	int owner[2 * NWQE + 8];
	unsigned nowner;
} w;

static const uint8_t MAC_DST[6] = { 0x02, 0x4E, 0x49, 0x43, 0x52, 0x46 };
static const uint8_t MAC_SRC[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x99 };

static bool inside(uint64_t a, size_t n, uint64_t base, uint64_t size)
{
	return a >= base && a + n <= base + size;
}

static bool slot_done(uint32_t slot)
{
	return st.done[slot >> 3] >> (slot & 7) & 1;
}

static int hook_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	(void)ctx;
	if (w.on && !w.cmd) {
		bool ok = inside(addr, len, st.cq.a.buf, 64ull << st.cq.a.log_cq_size) ||
			  inside(addr, len, st.sq.eq.a.buf, 64ull << st.sq.eq.a.log_eq_size) ||
			  inside(addr, len, st.sq.cq.a.buf, 64ull << st.sq.cq.a.log_cq_size);
		if (!ok && inside(addr, len, st.a.data, (uint64_t)NWQE * WQE_BYTES)) {
			uint32_t slot = (uint32_t)((addr - st.a.data) / WQE_BYTES);
			ok = inside(addr, len, st.a.data + (uint64_t)slot * WQE_BYTES, WQE_BYTES) &&
			     !slot_done(slot);
		}
		if (!ok && !w.bad) {
			w.bad = true;
			w.bad_addr = addr;
			w.bad_len = len;
		}
	}
	return nicref_hostmem_write(dev, addr, buf, len);
}

/* ---- the harness's re-check (PRM §3.3.6.2, §3.3.6.4) ------------------------------------ */

/* Why the segment may not open or join a session, or NULL (§3.3.6.2). */
static const char *ineligible(const struct seg *s)
{
	if (!(tir.mask >> (s->v6 ? 1 : 0) & 1))
		return "its IP version is not enabled (lro_enable_mask)";
	if (tir.period == 0 || tir.msg == 0)
		return "LRO is inactive on the TIR";
	if (s->bad_ipcsum || s->bad_tcpcsum)
		return "a bad checksum";
	if (s->flags & ~(0x10u | 0x08u | 0x40u | 0x80u))
		return "a TCP flag other than ACK, PSH, ECE, CWR";
	if ((s->flags & 0x08u) && !caps.psh_flag)
		return "PSH without lro_psh_flag";
	if (s->bad_opt)
		return "a TCP option other than NOP and the timestamp";
	if (s->ts && !caps.time_stamp)
		return "a timestamp without lro_time_stamp";
	if (s->ipopt)
		return "IP options or an IPv6 extension header";
	if (s->frag)
		return "a fragment";
	if (s->payload < caps.min_mss_size || s->payload == 0)
		return "a payload under lro_min_mss_size";
	return NULL;
}

/* Why the segment may not join session x, or NULL (§3.3.6.4; D-LRO-6). */
static const char *unmergeable(const struct sess *x, const struct seg *s)
{
	const struct seg *f = &x->first, *p = &x->last;
	const char *why = ineligible(s);
	if (why)
		return why;
	if (s->flow != f->flow || s->v6 != f->v6 || s->vlan != f->vlan)
		return "another flow";
	if (s->seq != x->next_seq)
		return "out of sequence";
	if (s->dscp != f->dscp || s->df != f->df)
		return "an IP field changed";
	if (s->ecn != p->ecn || (s->flags & 0xC0u) != (p->flags & 0xC0u))
		return "ECN, ECE or CWR changed";
	if (s->ts != p->ts)
		return "the timestamp option appeared or went";
	/* older as numbers and as serial numbers (RFC 7323 §5.2): the PRM says only "<" */
	if (s->ts && s->tsval < p->tsval && (int32_t)(s->tsval - p->tsval) < 0)
		return "an older TSval";
	uint64_t limit = (uint64_t)tir.msg * 256u;
	uint64_t size = caps.max_msg_sz_mode == 0 ? f->tcp_hdr + (x->bytes - f->dgram) +
						    f->payload + s->payload
						  : x->bytes + s->payload;
	if (size > limit)
		return "past lro_max_msg_sz";
	if (x->bytes + s->payload > WQE_BYTES)
		return "past the WQE's room";
	return NULL;
}

/* ---- building frames ------------------------------------------------------------------------ */

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)~s;
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16), put16(p + 2, v);
}

/* Ethernet, the tag, the IP header of the flow for an L4 of `l4len` bytes of protocol `proto`;
 * returns where L4 starts. */
static size_t l2l3(uint8_t *f, const struct seg *s, uint8_t proto, size_t l4len)
{
	size_t at = 12;
	memcpy(f, MAC_DST, 6);
	memcpy(f + 6, MAC_SRC, 6);
	if (s->vlan) {
		put16(f + 12, 0x8100);
		put16(f + 14, 5 + (s->flow & 7));
		at = 16;
	}
	put16(f + at, s->v6 ? 0x86DD : 0x0800);
	uint8_t *ip = f + at + 2;
	if (!s->v6) {
		size_t ihl = s->ipopt ? 24 : 20;
		memset(ip, 0, ihl);
		ip[0] = (uint8_t)(0x40 | ihl / 4);
		ip[1] = (uint8_t)(s->dscp << 2 | s->ecn);
		put16(ip + 2, (uint32_t)(ihl + l4len));
		put16(ip + 4, 0x1234);
		put16(ip + 6, (s->df ? 0x4000u : 0) | (s->frag ? 0x2000u : 0));
		ip[8] = s->ttl;
		ip[9] = proto;
		put32(ip + 12, 0x0A000001u);
		put32(ip + 16, 0x0A000002u);
		if (s->ipopt)
			memset(ip + 20, 1, 4); /* four NOP options */
		put16(ip + 10, fold(sum16(ip, ihl, 0)) ^ (s->bad_ipcsum ? 0x5A5Au : 0));
		return at + 2 + ihl;
	}
	size_t ext = s->ipopt ? 8 : 0;
	memset(ip, 0, 40 + ext);
	put32(ip, 6u << 28 | (uint32_t)s->dscp << 22 | (uint32_t)s->ecn << 20 | 0x12345);
	put16(ip + 4, (uint32_t)(ext + l4len));
	ip[6] = s->ipopt ? 0 : proto;
	ip[7] = s->ttl;
	ip[8] = 0xFD, ip[23] = 1;
	ip[24] = 0xFD, ip[39] = 2;
	if (s->ipopt) {
		ip[40] = proto; /* hop-by-hop: next header, length 0, a PadN of 4 */
		ip[42] = 1, ip[43] = 4;
	}
	return at + 2 + 40 + ext;
}

/* The pseudo-header sum of the flow (RFC 793, RFC 8200 §8.1). */
static uint32_t pseudo(const struct seg *s, uint8_t proto, size_t l4len)
{
	uint32_t x = proto + (uint32_t)l4len;
	if (!s->v6)
		return x + 0x0A00 + 0x0001 + 0x0A00 + 0x0002;
	return x + 0xFD00 + 1 + 0xFD00 + 2;
}

static size_t build_seg(uint8_t *f, struct seg *s, unsigned opt, const uint8_t *data)
{
	uint8_t o[16];
	size_t on = 0;
	if (opt <= 3 || opt == 5) {
		if (opt != 5)
			o[on++] = 1, o[on++] = 1;
		o[on++] = 8, o[on++] = 10;
		put32(o + on, s->tsval), put32(o + on + 4, s->tsecr);
		on += 8;
		if (opt == 5)
			o[on++] = 0, o[on++] = 0;
		s->ts = true;
	} else if (opt == 6) {
		o[on++] = 2, o[on++] = 4, o[on++] = 0x05, o[on++] = 0xB4;
		s->bad_opt = true;
	} else if (opt == 7) {
		o[on++] = 8, o[on++] = 10, o[on++] = 0, o[on++] = 0; /* runs past the header */
		s->bad_opt = true;
	}
	s->tcp_hdr = (uint32_t)(20 + on);
	size_t l4 = s->tcp_hdr + s->payload;
	size_t at = l2l3(f, s, 6, l4);
	uint8_t *t = f + at;
	memset(t, 0, 20);
	put16(t, 0x1000 + (s->flow & 7)), put16(t + 2, 80);
	put32(t + 4, s->seq), put32(t + 8, s->ack);
	t[12] = (uint8_t)(s->tcp_hdr / 4 << 4);
	t[13] = s->flags;
	put16(t + 14, s->win);
	memcpy(t + 20, o, on);
	s->pay_at = at + s->tcp_hdr;
	memcpy(f + s->pay_at, data, s->payload);
	put16(t + 16, fold(sum16(t, l4, pseudo(s, 6, l4))) ^ (s->bad_tcpcsum ? 0x0101u : 0));
	s->len = (uint32_t)(at + l4);
	s->dgram = s->len - (s->vlan ? 4u : 0u);
	if (s->len < 60) {
		memset(f + s->len, 0, 60 - s->len);
		s->len = 60;
	}
	s->scattered = s->len - (s->vlan ? 4u : 0u);
	return s->len;
}

/* ---- events ------------------------------------------------------------------------------- */

static void on_event(void *ctx, const struct nicref_event *ev)
{
	fuzz_oracle_event(ctx, ev);
	if (!w.on)
		return;
	uint32_t slot = (uint32_t)ev->arg[2] % NWQE;
	struct sess *x = &sess[slot];
	const struct seg *s = w.seg;
	switch (ev->kind) {
	case NICREF_EV_LRO_OPEN: {
		PROP(s && !w.opened && !w.merged && !w.passed, "MERGE_RULE",
		     "op %u: lro_open without a segment of its own", op_no);
		const char *why = ineligible(s);
		PROP(!why, "MERGE_RULE", "op %u: a session opened with a segment that may not "
		     "open one: %s (PRM §3.3.6.2)", op_no, why);
		PROP(!x->open, "MERGE_RULE", "op %u: a session opened in WQE %u, which holds one",
		     op_no, (unsigned)ev->arg[2]);
		PROP(ev->arg[3] == s->scattered, "BYTE_CNT", "op %u: lro_open len %llu, the frame "
		     "scatters %u bytes", op_no, (unsigned long long)ev->arg[3], s->scattered);
		sess_touched[slot / 64] |= 1ull << (slot % 64);
		*x = (struct sess){ .open = true, .first = *s, .last = *s,
				    .next_seq = s->seq + s->payload, .num = 1, .min_ttl = s->ttl,
				    .psh = s->flags >> 3 & 1, .bytes = s->dgram,
				    .open_ns = ev->time_ns, .period = tir.period };
		/* the first frame as scattered: the tag stripped */
		if (s->vlan) {
			memcpy(x->exp, w.frame, 12);
			memcpy(x->exp + 12, w.frame + 16, s->len - 16);
		} else {
			memcpy(x->exp, w.frame, s->len);
		}
		w.opened = true;
		break;
	}
	case NICREF_EV_LRO_MERGE: {
		PROP(s && x->open && !w.merged && !w.opened && !w.passed, "MERGE_RULE",
		     "op %u: lro_merge into WQE %u: %s", op_no, (unsigned)ev->arg[2],
		     !s ? "no segment" : !x->open ? "no session open there" : "a second event");
		const char *why = unmergeable(x, s);
		PROP(!why, "MERGE_RULE", "op %u: a segment (seq %u, %u bytes) merged into the "
		     "session of WQE %u (next seq %u, %u segments, %llu bytes) although: %s (PRM "
		     "§3.3.6.4)", op_no, s->seq, s->payload, (unsigned)ev->arg[2], x->next_seq,
		     x->num, (unsigned long long)x->bytes, why);
		memcpy(x->exp + x->bytes, w.frame + s->pay_at, s->payload);
		x->bytes += s->payload;
		x->num++;
		x->next_seq += s->payload;
		x->last = *s;
		if (s->ttl < x->min_ttl)
			x->min_ttl = s->ttl;
		x->psh |= s->flags >> 3 & 1;
		PROP(ev->arg[3] == x->num && ev->arg[4] == x->bytes, "BYTE_CNT",
		     "op %u: lro_merge num_seg %llu bytes %llu; the segments merged make %u and "
		     "%llu", op_no, (unsigned long long)ev->arg[3], (unsigned long long)ev->arg[4],
		     x->num, (unsigned long long)x->bytes);
		w.merged = true;
		break;
	}
	case NICREF_EV_LRO_END: {
		PROP(x->open, "BYTE_CNT", "op %u: lro_end of WQE %u, where no session is open", op_no,
		     (unsigned)ev->arg[2]);
		PROP(ev->arg[4] == x->num && ev->arg[5] == x->bytes, "BYTE_CNT",
		     "op %u: lro_end num_seg %llu byte_cnt %llu; the segments merged make %u and "
		     "%llu", op_no, (unsigned long long)ev->arg[4], (unsigned long long)ev->arg[5],
		     x->num, (unsigned long long)x->bytes);
		uint64_t open_for = ev->time_ns - x->open_ns;
		PROP(ev->arg[3] != NICREF_LRO_TIMER || open_for >= x->period * 1000ull, "TIMER",
		     "op %u: the timer ended a session open %llu ns, under its period %u µs", op_no,
		     (unsigned long long)open_for, x->period);
		x->open = false;
		x->ended = true;
		x->cause = (int)ev->arg[3];
		break;
	}
	case NICREF_EV_LRO_PASS:
		PROP(s && !w.passed && !w.merged, "MERGE_RULE", "op %u: lro_pass %s", op_no,
		     s ? "twice, or after a merge" : "without a segment");
		w.passed = true;
		break;
	case NICREF_EV_RX_DROP:
		w.dropped = true;
		break;
	case NICREF_EV_CQE:
		if (ev->arg[0] != st.cq.cqn || w.nowner == sizeof w.owner / sizeof *w.owner)
			break;
		uint32_t ws = (uint32_t)ev->arg[4] % NWQE;
		w.owner[w.nowner++] = sess[ws].ended ? (int)ws : -1;
		sess[ws].ended = false; /* its completion is this one */
		break;
	default:
		break;
	}
}

/* The CQE fields the checks read (T67/T68), resolved by name once: a lookup by name per read
 * was most of the target's time. */
#define CQE_READ(X)                                                                             \
	X(opcode) X(wqe_counter) X(byte_cnt) X(lro_num_seg) X(lro_tcp_psh) X(lro_min_ttl)       \
	X(lro_tcp_win) X(lro_ack_seq_num) X(lro_timestamp_is_valid) X(timestamp_h)              \
	X(timestamp_l) X(lro_abrt)
#define CQE_ENUM(f) Q_##f,
enum { CQE_READ(CQE_ENUM) Q_COUNT };
#undef CQE_ENUM
static const struct nicref_field *cqe_f[Q_COUNT];

static void cqe_fields_init(void)
{
	const struct nicref_layout *l = nicref_layout_find("cqe64");
	NICREF_FUZZ_CHECK(l != NULL);
#define CQE_FIND(f) NICREF_FUZZ_CHECK((cqe_f[Q_##f] = nicref_layout_field(l, #f)) != NULL);
	CQE_READ(CQE_FIND)
#undef CQE_FIND
}

static uint64_t cqe_get(const uint8_t c[64], unsigned q)
{
	uint64_t v = 0;
	NICREF_FUZZ_CHECK(nicref_field_get(c, 64, cqe_f[q], &v) == 0);
	return v;
}

/* The CQEs of the step, each against what it completes. */
static void check_cqes(void)
{
	uint8_t c[64];
	unsigned k = 0;
	int r;
	while ((r = refdrv_rx_poll(&drv, &st.cq, c)) == 1) {
		unsigned op = (unsigned)cqe_get(c, Q_opcode);
		uint16_t ctr = (uint16_t)cqe_get(c, Q_wqe_counter);
		int own = k < w.nowner ? w.owner[k++] : -1;
		uint64_t bc = cqe_get(c, Q_byte_cnt);
		uint64_t ns = op == 2 ? cqe_get(c, Q_lro_num_seg) : 0;
		if (own >= 0 && op == 2) {
			struct sess *x = &sess[own];
			int cause = x->cause;
			PROP(bc == x->bytes && ns == x->num, "BYTE_CNT", "op %u: the CQE of WQE %u: "
			     "byte_cnt %llu lro_num_seg %llu; the segments merged make %llu and %u",
			     op_no, ctr, (unsigned long long)bc, (unsigned long long)ns,
			     (unsigned long long)x->bytes, x->num);
			static uint8_t got[WQE_BYTES];
			NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, refdrv_rx_stack_buf(&st, ctr), got,
							      x->bytes) == 0);
			for (uint32_t b = 0; b < x->bytes; b++)
				PROP(got[b] == x->exp[b], "BYTE_CNT", "op %u: WQE %u byte %u of %llu: "
				     "0x%02x, the merged stream's 0x%02x (first frame %u bytes)", op_no,
				     ctr, b, (unsigned long long)x->bytes, got[b], x->exp[b],
				     x->first.scattered);
			const struct seg *l = &x->last;
			uint64_t psh = cqe_get(c, Q_lro_tcp_psh),
				 ttl = cqe_get(c, Q_lro_min_ttl),
				 win = cqe_get(c, Q_lro_tcp_win),
				 ack = cqe_get(c, Q_lro_ack_seq_num),
				 tsv = cqe_get(c, Q_lro_timestamp_is_valid),
				 th = cqe_get(c, Q_timestamp_h),
				 tl = cqe_get(c, Q_timestamp_l),
				 abrt = cqe_get(c, Q_lro_abrt);
			PROP(psh == x->psh && ttl == x->min_ttl && win == l->win && ack == l->ack &&
			     tsv == l->ts && (!l->ts || (th == l->tsval && tl == l->tsecr)),
			     "CQE_FIELDS", "op %u: WQE %u: lro_tcp_psh %llu lro_min_ttl %llu "
			     "lro_tcp_win %llu lro_ack_seq_num %llu ts %llu %llu/%llu; expected %u %u "
			     "%u %u %d %u/%u", op_no, ctr, (unsigned long long)psh,
			     (unsigned long long)ttl, (unsigned long long)win, (unsigned long long)ack,
			     (unsigned long long)tsv, (unsigned long long)th, (unsigned long long)tl,
			     x->psh, x->min_ttl, l->win, l->ack, l->ts, l->tsval, l->tsecr);
			int want = nicref_lro_cause_abrt((enum nicref_lro_cause)cause);
			PROP(want < 0 || abrt == (uint64_t)want || (want == 2 && abrt == 3),
			     "CQE_FIELDS", "op %u: WQE %u ended for %s: lro_abrt %llu, not %d "
			     "(D-LRO-4)", op_no, ctr, nicref_lro_cause_name(cause),
			     (unsigned long long)abrt, want);
		} else if (own < 0 && op == 2 && w.passed) {
			PROP(ns == 0 && w.seg && bc == w.seg->scattered, "BYTE_CNT",
			     "op %u: a segment alone: lro_num_seg %llu byte_cnt %llu (frame %u)", op_no,
			     (unsigned long long)ns, (unsigned long long)bc,
			     w.seg ? w.seg->scattered : 0);
		}
		if (op == 13 || op == 14)
			tir.rq_err = true;
		NICREF_FUZZ_CHECK(refdrv_rx_stack_done(&drv, &st, ctr) == 0);
	}
	NICREF_FUZZ_CHECK(r == 0);
	w.nowner = 0;
}

/* After every op: no session older than 2N (T147). */
static void check_timers(void)
{
	uint64_t now = nicref_clock_now(dev);
	for (unsigned i = 0; i < NWQE; i++) {
		const struct sess *x = &sess[i];
		if (x->open)
			PROP(now - x->open_ns <= 2000ull * x->period, "TIMER", "op %u: the session of "
			     "WQE slot %u is open %llu ns, past twice its period %u µs", op_no, i,
			     (unsigned long long)(now - x->open_ns), x->period);
	}
}

static void begin(const struct seg *s, const uint8_t *f)
{
	w.on = true, w.bad = false, w.cmd = false, w.seg = s, w.frame = f;
	w.passed = w.opened = w.merged = w.dropped = false;
}

static void end(void)
{
	w.on = false;
	PROP(!w.bad, "WRITE_INSIDE", "op %u: the device wrote %zu bytes at 0x%llx, outside the "
	     "CQ, the EQ and the posted buffers", op_no, w.bad_len, (unsigned long long)w.bad_addr);
	check_cqes();
	w.seg = NULL;
}

/* ---- ops ------------------------------------------------------------------------------------ */

static void op_seg(struct reader *r)
{
	static uint8_t f[FRAME_MAX + 64], data[FRAME_MAX];
	struct seg s = { 0 };
	unsigned fl = rd8(r), flags = rd8(r), sq = rd8(r), len = (unsigned)rdn(r, 2) % 1601;
	unsigned opt = rd8(r) % 8, ts = rd8(r), ecn = rd8(r), misc = rd8(r);
	s.flow = fl & 0x1F;
	s.v6 = fl >> 3 & 1;
	s.vlan = fl >> 4 & 1;
	struct flow *fw = &flows[s.flow];
	unsigned amount = 1 + (sq >> 2);
	s.seq = (sq & 3) == 0 ? fw->next_seq : (sq & 3) == 1 ? fw->next_seq + amount
		: (sq & 3) == 2 ? fw->last_seq : fw->next_seq - amount;
	s.payload = len;
	fw->tsval += (uint32_t)(int32_t)(int8_t)ts;
	s.tsval = fw->tsval;
	s.tsecr = 0x7E57;
	s.ecn = ecn & 3;
	/* TCP flags (RFC 9293 §3.1): CWR 0x80, ECE 0x40 from ecn; URG, ACK, PSH, RST, SYN, FIN */
	s.flags = (uint8_t)(((flags ^ 0x10u) & 0x3Fu) | (ecn & 4 ? 0x40u : 0) |
			    (ecn & 8 ? 0x80u : 0));
	s.bad_ipcsum = (misc & 1) && !s.v6;
	s.ipopt = misc >> 1 & 1;
	s.frag = (misc >> 2 & 1) && !s.v6;
	s.ttl = (uint8_t)(misc & 8 ? 64 - (misc >> 4) : 64);
	s.dscp = misc & 0x10 ? 8 : 0;
	s.bad_tcpcsum = misc >> 5 & 1;
	s.df = !(misc >> 6 & 1) && !s.v6;
	s.ack = 0xA000 + op_no;
	s.win = (uint16_t)(1000 + op_no);
	fuzz_fill_counting(data, len, s.seq);
	size_t n = build_seg(f, &s, opt, data);
	fw->last_seq = s.seq;
	if (s.seq == fw->next_seq)
		fw->next_seq += s.payload;
	begin(&s, f);
	NICREF_FUZZ_CHECK(nicref_wire_rx(dev, 1, f, n) == 0);
	end();
	fuzz_trace("seg flow %u seq %u len %u flags 0x%02x: %s", s.flow, s.seq, s.payload, s.flags,
		   w.opened ? "opened" : w.merged ? "merged" : w.passed ? "alone" : w.dropped ?
		   "dropped" : "?");
}

static void op_udp(struct reader *r)
{
	static uint8_t f[FRAME_MAX + 64];
	struct seg s = { .flow = rd8(r) & 0x1F, .ttl = 64, .df = true };
	s.v6 = s.flow >> 3 & 1;
	s.vlan = s.flow >> 4 & 1;
	size_t len = (size_t)(rdn(r, 2) % 1401), l4 = 8 + len;
	size_t at = l2l3(f, &s, 17, l4);
	put16(f + at, 0x2000), put16(f + at + 2, 0x2001), put16(f + at + 4, (uint32_t)l4);
	put16(f + at + 6, 0);
	memset(f + at + 8, 0x55, len);
	size_t n = at + l4 < 60 ? 60 : at + l4;
	memset(f + at + l4, 0, n - at - l4);
	begin(NULL, f);
	NICREF_FUZZ_CHECK(nicref_wire_rx(dev, 1, f, n) == 0);
	PROP(!w.opened && !w.merged && !w.passed, "MERGE_RULE", "op %u: a UDP datagram made an "
	     "LRO event (D-LRO-9)", op_no);
	end();
}

static void op_time(struct reader *r)
{
	uint64_t ns = rdn(r, 2) * 250u;
	begin(NULL, NULL);
	nicref_clock_advance(dev, ns);
	end();
}

static int tir_set(unsigned mask, unsigned timeout, unsigned msg)
{
	begin(NULL, NULL);
	w.cmd = true; /* a command writes its queue and mailboxes */
	int rc = refdrv_rx_stack_modify_lro(&drv, &st, mask, timeout, msg);
	end();
	if (rc == 0) {
		tir.mask = mask, tir.timeout = timeout, tir.msg = msg;
		tir.period = mask ? refdrv_lro_period(&caps, timeout) : 0;
	}
	return rc;
}

static void op_tir(struct reader *r)
{
	unsigned mask = rd8(r) % 4, timeout = (unsigned)rdn(r, 2), msg = rd8(r);
	NICREF_FUZZ_CHECK(tir_set(mask, timeout, msg) == 0);
	for (unsigned i = 0; i < NWQE; i++)
		PROP(!sess[i].open, "TIMER", "op %u: MODIFY_TIR of the LRO group left the session of "
		     "WQE slot %u open (D-LRO-10)", op_no, i);
}

/* The driver's recovery: the RQ to RST, its completions polled (the sessions it held end
 * first, D-LRO-10), then RDY with every WQE posted again. */
static int rq_recover(void)
{
	begin(NULL, NULL);
	w.cmd = true;
	int rc = refdrv_rx_stack_stop(&drv, &st);
	end();
	for (unsigned i = 0; i < NWQE; i++)
		PROP(!sess[i].open, "TIMER", "op %u: the RQ left RDY with the session of WQE slot %u "
		     "open (D-LRO-10)", op_no, i);
	begin(NULL, NULL);
	w.cmd = true;
	rc = rc ? rc : refdrv_rx_stack_recover(&drv, &st);
	end();
	for (unsigned i = 0; i < NWQE; i++)
		sess[i].open = sess[i].ended = false;
	tir.rq_err = rc != 0;
	return rc;
}

static void op_rq(struct reader *r)
{
	unsigned sel = rd8(r);
	if ((sel & 1) && !tir.rq_err) {
		begin(NULL, NULL);
		w.cmd = true;
		NICREF_FUZZ_CHECK(refdrv_modify_rq(&drv, st.rqn, 1, 3) == 0);
		end();
		for (unsigned i = 0; i < NWQE; i++)
			PROP(!sess[i].open, "TIMER", "op %u: the RQ left RDY with the session of WQE "
			     "slot %u open (D-LRO-10)", op_no, i);
		tir.rq_err = true;
	}
	NICREF_FUZZ_CHECK(rq_recover() == 0);
}

/* ---- bring-up and restore -------------------------------------------------------------------- */

static void full_bring_up(void)
{
	fuzz_dev_bring_up(dev, &oracle, &drv, NULL);
	struct refdrv_rx_stack_attr a;
	refdrv_rx_stack_defaults(&a);
	a.log_rq = LOG_RQ;
	a.wqe_bytes = WQE_BYTES;
	a.log_cq = 9;
	a.tir.lro_enable_mask = 3;
	a.tir.lro_timeout_usecs = 32;
	a.tir.lro_max_msg_sz = 64;
	NICREF_FUZZ_CHECK(refdrv_rx_stack_up(&drv, &a, &st) == 0);
	NICREF_FUZZ_CHECK(refdrv_lro_caps_query(&drv, &caps) == 0);
	tir.mask = 3, tir.timeout = 32, tir.msg = 64, tir.rq_err = false;
	tir.period = refdrv_lro_period(&caps, 32);
	memset(sess, 0, sizeof sess);
	NICREF_FUZZ_CHECK(oracle.violations == 0);
	full_count++;
}

/* Every session ended, the CQ drained, the RQ receiving, the TIR's LRO group as at the start:
 * 0, or -1 when a full bring-up is needed. */
static int light_restore(void)
{
	for (unsigned k = 0; k < 8; k++) {
		bool open = false;
		for (unsigned i = 0; i < NWQE; i++)
			open |= sess[i].open;
		if (!open)
			break;
		begin(NULL, NULL);
		nicref_clock_advance(dev, 2000ull * (tir.period ? tir.period : 1) + 1000);
		end();
	}
	if (tir.rq_err && rq_recover() != 0)
		return -1;
	if ((tir.mask != 3 || tir.timeout != 32 || tir.msg != 64) && tir_set(3, 32, 64) != 0)
		return -1;
	for (unsigned i = 0; i < NWQE; i++)
		if (sess[i].open)
			return -1;
	return 0;
}

static int lro_init(void)
{
	struct nicref_config cfg;
	fuzz_dev_config(&cfg, &oracle);
	cfg.trace = on_event;
	cfg.ops.dma_write = hook_dma_write;
	if (!(dev = fuzz_dev_create(&cfg, &oracle)))
		return -1;
	cqe_fields_init();
	memset(&drv, 0, sizeof drv);
	full_bring_up();
	return 0;
}

/* The harness's side back to the snapshot's (the driver's came back with the device,
 * fuzz_dev_snap_restore): the stack, the TIR's LRO group, the sessions that opened since
 * cleared. */
static void host_restore(void)
{
	st = snap_st;
	tir.mask = 3, tir.timeout = 32, tir.msg = 64, tir.rq_err = false;
	tir.period = refdrv_lro_period(&caps, 32);
	for (unsigned i = 0; i < NWQE; i++)
		if (sess_touched[i / 64] >> (i % 64) & 1)
			memset(&sess[i], 0, sizeof sess[i]);
	memset(sess_touched, 0, sizeof sess_touched);
}

static void host_take(void)
{
	snap_st = st;
	memset(sess_touched, 0, sizeof sess_touched);
}

/* The device as full_bring_up leaves it: restored from the snapshot, or built (and captured). */
static void configure(void)
{
	if (fuzz_snap_enabled()) {
		if (fuzz_dev_snap_restore(&snap, &snap_drv, dev, &oracle, &drv)) {
			host_restore();
			light_count++;
			return;
		}
		full_bring_up();
		if (fuzz_dev_snap_take(&snap, &snap_drv, dev, &oracle, &drv))
			host_take();
		return;
	}
	if (need_full)
		full_bring_up();
	else
		light_count++;
}

static void lro_one_input(const uint8_t *data, size_t len)
{
	fuzz_trace("input");
	configure();
	fuzz_dev_trace_bring_up(need_full, full_count, light_count);
	fuzz_trace("configured"); /* what follows is the input's own */
	for (unsigned i = 0; i < NFLOW; i++)
		flows[i] = (struct flow){ .next_seq = 1000u * (i + 1), .last_seq = 1000u * (i + 1),
					  .tsval = 100 };
	fuzz_snap_check_start(&snap, &oracle);
	struct reader r = { data, len };
	uint8_t op;
	for (op_no = 0; op_no < MAX_OPS && rd_op(&r, OP_FIRST_RESERVED, op_names, &op);) {
		switch (op) {
		case OP_SEG:
			op_seg(&r);
			break;
		case OP_TIME:
			op_time(&r);
			break;
		case OP_TIR:
			op_tir(&r);
			break;
		case OP_RQ:
			op_rq(&r);
			break;
		case OP_UDP:
			op_udp(&r);
			break;
		}
		op_no++;
		check_timers();
		fuzz_oracle_check_dev(&oracle);
		/* the one rule an input may make the driver break: a session longer than its
		 * WQE (lro_max_msg_sz past the 16 KB buffers; §3.3.6.5, D-LRO-3) */
		NICREF_FUZZ_CHECK(oracle.violations ==
				  oracle.vio_by_rule[NICREF_VIO_RX_WQE_TOO_SHORT]);
	}
	/* Without snapshots, the next input starts from what this one left, put back by
	 * commands (light_restore) or, failing that, by a full bring-up. */
	if (!fuzz_snap_enabled())
		need_full = light_restore() != 0;
	/* Else the device is as the check after the last op saw it (fuzz_snap_check_start). */
	if (op_no == 0 || !fuzz_snap_enabled())
		fuzz_oracle_check_dev(&oracle);
	fuzz_trace("input done after %u ops", op_no);
	fuzz_snap_rewind(&snap, dev, &oracle); /* what the input made goes within it */
}

NICREF_FUZZ_TARGET(lro_init, lro_one_input)
