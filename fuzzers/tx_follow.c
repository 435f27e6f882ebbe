/* The tx target's view of the device from outside (fuzzers/tx_follow.h): which WQE runs, seen
 * through the device's reads of the SQ ring (ops.dma_read), its frames (ops.wire_tx), the
 * Blue Flame area as written (every BAR write), the CQEs, state changes and events of the
 * trace, the CQ's buffer and QUERY_SQ after every op; and the properties of tx_fuzz.c's header
 * checked on them as they happen. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "driver_cq.h"
#include "fuzz_target.h"
#include "nicref/rules_tx.h"
#include "tx_fields.h"
#include "tx_follow.h"
#include "tx_view.h"

#define MIN_FRAME 60u /* §3.3.8 without the FCS (D-TX-2) */
#define EXPECT_MAX 256u

enum { CQE_REQ = 0x0, CQE_REQ_ERR = 0xD }; /* T68 opcode */
enum { SYN_FLUSH = 0x5 };                   /* T74 WR_FLUSHED */

/* The SQ as the oracle follows it. */
static struct {
	uint8_t state;
	uint16_t hw;	/* the device's counter: WQEs run or flushed advance it */
	bool last_err;	/* the previous WQE completed in error (T26 CE 01) */
	bool db_bf;	/* the doorbell being acted on came with a whole Blue Flame copy */
	uint16_t db_index;
	int db_buf;
} sq;

/* The WQE executing, from its first read to the next one (or the end of the op). */
static struct exec {
	bool active;
	uint16_t index, bbs;
	uint32_t ring_off, ext; /* where it lies in the ring, and its bytes */
	uint8_t opcode, ce;
	bool se, l3cs, l4cs, from_bf;
	uint32_t umr_key;
	uint64_t umr_mask;
	uint8_t umr_new_tag;
	unsigned frames, local, discards, inline_drops, ok, err;
	uint8_t syndrome;
	bool sq_error;
} cur;

/* A WQE being flushed (ERR): its flush CQE. */
static struct {
	bool active;
	uint16_t index;
	uint8_t opcode;
	bool expect;
	unsigned cqes;
} fl;

/* CQEs the trace announced, to be found in the buffer in this order. */
static struct expect_cqe {
	uint16_t wqe_counter;
	uint8_t opcode, syndrome, s_wqe_opcode;
} expect[EXPECT_MAX];
static unsigned nexpect;
static bool expect_lost;

/* The last frame on the wire, for its frame_out event. */
static struct {
	bool pending;
	size_t len;
	uint32_t crc;
} wire;

static bool following; /* the ops of an input run: the SQ is followed (not during bring-up) */

/* ---- Findings ------------------------------------------------------------------------------ */

static void describe_cur(char *b, size_t n)
{
	if (!cur.active) {
		snprintf(b, n, "no WQE executing");
		return;
	}
	snprintf(b, n,
		 "WQE %u (%s, ce %u, l3cs %d, l4cs %d, %s): frames %u, local %u, discards %u, "
		 "inline drops %u, CQEs ok %u err %u (syndrome 0x%x), SQ error %d",
		 cur.index, nicref_send_opcode_name(cur.opcode) ? nicref_send_opcode_name(cur.opcode)
								 : "?",
		 cur.ce, cur.l3cs, cur.l4cs, cur.from_bf ? "Blue Flame" : "memory", cur.frames,
		 cur.local, cur.discards, cur.inline_drops, cur.ok, cur.err, cur.syndrome,
		 cur.sq_error);
}

/* "property NAME broken at FILE:LINE: STATE", then the op and the WQE, then the trap. */
#define PROP(cond, name, ...)                                                                   \
	do {                                                                                    \
		if (!(cond))                                                                    \
			prop_failed(name, __FILE__, __LINE__, __VA_ARGS__);                      \
	} while (0)

__attribute__((format(printf, 4, 5))) _Noreturn static void
prop_failed(const char *name, const char *file, int line, const char *fmt, ...)
{
	char state[512], w[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(state, sizeof state, fmt, ap);
	va_end(ap);
	describe_cur(w, sizeof w);
	fuzz_property_failed(name, file, line,
			     "%s\n  op %u (%s); SQ state %u, counter %u; %s", state, tx.op_no,
			     tx.op_name, sq.state, sq.hw, w);
}

/* The frame's own checks. */
static void check_frame(const uint8_t *f, size_t len)
{
	PROP(cur.active && sq.state == TX_ST_RDY, "FRAME_FROM_SEND",
	     "a %zu-byte frame with no WQE executing on a RDY SQ", len);
	PROP(cur.opcode == NICREF_SEND_OP_SEND || cur.opcode == NICREF_SEND_OP_LSO,
	     "FRAME_FROM_SEND", "a %zu-byte frame from a WQE of opcode 0x%02x", len, cur.opcode);
	unsigned mtu = tx.in.oper_mtu;
	if (tx.in.vport_mtu && tx.in.vport_mtu < mtu)
		mtu = tx.in.vport_mtu;
	size_t l2 = txv_l2_for_mtu(f, len);
	PROP(len <= l2 || len - l2 <= mtu, "FRAME_MTU",
	     "a %zu-byte frame, L2 %zu bytes: L3 payload %zu > MTU %u (port %u, vport %u)", len,
	     l2, len - l2, mtu, tx.in.oper_mtu, tx.in.vport_mtu);
	PROP(len <= tx.k.max_mtu + 14u + 8u, "FRAME_MAX",
	     "a %zu-byte frame: longer than max_mtu %u + Ethernet header + two tags", len,
	     tx.k.max_mtu);
	PROP(!tx.k.pad || len >= MIN_FRAME, "FRAME_PAD",
	     "a %zu-byte frame with pad_tx_eth_packet set", len);
	PROP(tx.in.vport_up, "FRAME_VPORT_DOWN",
	     "a %zu-byte frame on the wire while the vport is down", len);
	/* The packet's bytes: all of a frame longer than the minimum; of a minimum frame, up to
	 * its trailing zeros, which may be padding (D-TXO-1). */
	size_t known = len;
	if (tx.k.pad && len == MIN_FRAME)
		while (known && f[known - 1] == 0)
			known--;
	struct txv v;
	txv_parse(f, known, &v);
	bool lso = cur.opcode == NICREF_SEND_OP_LSO;
	if ((cur.l3cs || lso) && v.v4hdr_ok) {
		unsigned s = txv_fold(txv_sum16(f + v.l3, v.l3hdr, 0));
		PROP(s == 0xFFFF, "CSUM_IPV4",
		     "a %zu-byte frame: IPv4 header at %zu (%zu bytes) sums to 0x%04x, checksum "
		     "0x%04x", len, v.l3, v.l3hdr, s, txf_be16(f + v.l3 + 10));
	}
	fuzz_trace("frame %zu bytes of WQE %u: IPv%d, IPv4 header checksum %s, L4 checksum %s",
		   len, cur.index, v.ipv,
		   (cur.l3cs || lso) && v.v4hdr_ok ? "checked" : "not asked or not applicable",
		   (cur.l4cs || lso) && v.l4_ok ? "checked" : "not asked or not applicable");
	if ((cur.l4cs || lso) && v.l4_ok) {
		unsigned s = txv_l4_sum(f, &v);
		size_t at = v.l4 + (v.proto == 6 ? 16 : 6);
		PROP(s == 0xFFFF, "CSUM_L4",
		     "a %zu-byte frame: %s over IPv%d, L4 at %zu, datagram end %zu: sums to 0x%04x, "
		     "checksum 0x%04x", len, v.proto == 6 ? "TCP" : "UDP", v.ipv, v.l4, v.end, s,
		     txf_be16(f + at));
		PROP(v.proto != 17 || txf_be16(f + at) != 0, "CSUM_L4",
		     "a %zu-byte frame: UDP checksum computed as 0 (D-TXO-3: 0xFFFF)", len);
	}
}

/* ---- Following the device ----------------------------------------------------------------- */

static uint32_t ring_off(uint16_t index)
{
	return (uint32_t)(index & ((1u << tx.st.a.log_sq_size) - 1)) * 64u;
}

/* The doorbell record's sq_wqebb_counter as the device reads it (T24: the send word at +4,
 * bits 15:0, big-endian). */
static uint16_t record(void)
{
	uint8_t w[4];
	NICREF_FUZZ_CHECK(nicref_hostmem_read(tx.dev, tx.st.a.sq_dbr + 4, w, sizeof w) == 0);
	return (uint16_t)txf_be16(w + 2);
}

/* The WQE's bytes as executed: the Blue Flame copy of the doorbell's buffer, or the ring
 * (wrapping at its end, §7.4.1.1). */
static size_t wqe_bytes(uint16_t index, bool from_bf, uint8_t *b)
{
	const uint8_t *bf = tx.in.bf + (size_t)sq.db_buf * tx.k.bf_size;
	uint64_t ring = tx.st.a.sq_buf;
	if (from_bf)
		memcpy(b, bf, 16);
	else
		NICREF_FUZZ_CHECK(nicref_hostmem_read(tx.dev, ring + ring_off(index), b, 16) == 0);
	unsigned ds = (unsigned)txf_get(tx_fld.ds, b, 16);
	size_t len = ds ? ds * 16u : 16u;
	if (from_bf) {
		memcpy(b, bf, len);
		return len;
	}
	for (size_t i = 16; i < len; i += 16) {
		uint32_t off = (ring_off(index) + (uint32_t)i) % tx_ring_bytes();
		NICREF_FUZZ_CHECK(nicref_hostmem_read(tx.dev, ring + off, b + i, 16) == 0);
	}
	return len;
}

static bool sends_frames(uint8_t opcode)
{
	return opcode == NICREF_SEND_OP_SEND || opcode == NICREF_SEND_OP_LSO;
}

/* The WQE executing has completed (the next one starts, or the op ends). */
static void finish_wqe(void)
{
	if (!cur.active)
		return;
	/* With the CQ broken (overrun, error) the SQ also goes to ERR for a completion the CQ did
	 * not take: then only an error CQE says the WQE failed. */
	bool known = !tx.in.cq_broken, failed = cur.err > 0 || (known && cur.sq_error);
	if (known) {
		PROP(cur.ok + cur.err <= 1, "CQE_PER_WQE", "more than one CQE for one WQE");
		PROP((cur.err > 0) == cur.sq_error, "SQ_STATE", "the SQ went to ERR %s an error CQE",
		     cur.sq_error ? "without" : "with no");
		/* T26 CE: 10/11 a CQE; any mode reports the first error (01: none after an
		 * error). */
		if (cur.sq_error)
			PROP(cur.err == (unsigned)!(cur.ce == 1 && sq.last_err), "CQE_PER_WQE",
			     "a WQE that completed in error has %u error CQEs", cur.err);
		else
			PROP(cur.ok == (cur.ce >= 2 ? 1u : 0u), "CQE_PER_WQE",
			     "ce %u: %u CQEs for a WQE that completed", cur.ce, cur.ok);
	}
	if (failed || !sends_frames(cur.opcode) || cur.inline_drops)
		PROP(cur.frames + cur.local == 0, "NO_FRAME_REFUSED",
		     "frames from a WQE that failed, dropped its packet or sends none");
	if (known && !failed && cur.opcode == NICREF_SEND_OP_SEND)
		PROP(cur.frames + cur.local + cur.discards == 1, "SEND_ONE_PACKET",
		     "a SEND made %u frames, %u local frames, %u discards", cur.frames, cur.local,
		     cur.discards);
	/* A UMR that changed the UMR MKey's tag (mask bit 13): its key from now on. */
	if (!failed && cur.opcode == NICREF_SEND_OP_UMR && (cur.umr_mask >> 13 & 1) &&
	    cur.umr_key >> 8 == tx.k.umr_index)
		tx.w.umr_key = tx.k.umr_index << 8 | cur.umr_new_tag;
	sq.last_err = failed;
	cur.active = false;
}

static void finish_flush(void)
{
	if (!fl.active)
		return;
	if (!tx.in.cq_broken)
		PROP(fl.cqes == (fl.expect ? 1u : 0u), "FLUSH_CQE",
		     "WQE %u flushed with %u CQEs, %u expected", fl.index, fl.cqes, fl.expect);
	fl.active = false;
}

static void finish_exec(void)
{
	finish_wqe();
	finish_flush();
}

/* The ctrl segment of a WQE flushed in ERR (obj/sq.c reads each one, §7.9.2). */
static void flush_start(const uint8_t *b)
{
	unsigned ds = (unsigned)txf_get(tx_fld.ds, b, 16), ce = (unsigned)txf_get(tx_fld.ce, b, 16);
	uint16_t bbs = ds ? (uint16_t)((ds + 3) / 4) : 1, left = (uint16_t)(record() - sq.hw);
	if (bbs > left)
		return; /* D-SQ-5: a WQE past the record is not flushed (no CQE); it stays posted */
	fl.active = true;
	fl.index = sq.hw;
	fl.opcode = (uint8_t)txf_get(tx_fld.opcode, b, 16);
	fl.expect = !(ce == 1 && sq.last_err);
	fl.cqes = 0;
	sq.last_err = true;
	sq.hw = (uint16_t)(sq.hw + bbs);
}

/* A device read of the SQ ring. The first read of a WQE starts it: its ctrl segment, or the
 * whole WQE compared with a Blue Flame copy (D-TX-4); in ERR each read is a flush. Nothing else
 * reads the ring: the data and the UMR lists come through the MKeys, which cover only the data
 * region. */
static void on_ring_read(uint32_t off, const uint8_t *b, size_t len)
{
	if (cur.active && (off - cur.ring_off) % tx_ring_bytes() < cur.ext)
		return; /* the rest of the WQE executing */
	PROP(sq.state != TX_ST_RST, "WQE_ORDER", "the ring read at %u while the SQ is in RST", off);
	/* (a flush the broken CQ stopped left the counter short of where it was followed: it is
	 * taken from QUERY_SQ after the op) */
	PROP(off == ring_off(sq.hw) || tx.in.cq_broken, "WQE_ORDER",
	     "a WQE read at ring offset %u, the device's counter %u is at %u", off, sq.hw,
	     ring_off(sq.hw));
	if (off != ring_off(sq.hw))
		sq.hw = (uint16_t)((sq.hw & ~((1u << tx.st.a.log_sq_size) - 1)) | off / 64u);
	finish_exec();
	if (sq.state == TX_ST_ERR) {
		PROP(len == 16, "WQE_ORDER", "a %zu-byte read of the ring in ERR", len);
		flush_start(b);
		return;
	}
	memset(&cur, 0, sizeof cur);
	cur.active = true;
	cur.index = sq.hw;
	cur.ring_off = off;
	cur.from_bf = sq.db_bf && sq.db_index == sq.hw; /* D-TX-4 */
	uint8_t w[TX_WQE_LEN_MAX];
	size_t n = wqe_bytes(cur.index, cur.from_bf, w);
	cur.ext = (uint32_t)n;
	cur.bbs = (uint16_t)((n + 63) / 64);
	cur.opcode = (uint8_t)txf_get(tx_fld.opcode, w, n);
	cur.ce = (uint8_t)txf_get(tx_fld.ce, w, n);
	cur.se = txf_get(tx_fld.se, w, n) != 0;
	if (n >= 32) {
		cur.l3cs = txf_get(tx_fld.l3cs, w + 16, n - 16) != 0;
		cur.l4cs = txf_get(tx_fld.l4cs, w + 16, n - 16) != 0;
	}
	if (cur.opcode == NICREF_SEND_OP_UMR && n >= 0x80) {
		cur.umr_key = (uint32_t)txf_get(tx_fld.umr_mkey, w, n);
		tx.in.umr_dirty |= cur.umr_key >> 8 == tx.k.umr_index;
		cur.umr_mask = txf_get(tx_fld.u_mask, w + 0x10, 0x30);
		cur.umr_new_tag = (uint8_t)txf_get(tx_fld.m_tag, w + 0x40, 0x40);
	}
	sq.hw = (uint16_t)(sq.hw + cur.bbs);
}

static int hook_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (nicref_hostmem_read(tx.dev, addr, buf, len) != 0)
		return -1;
	if (following && addr >= tx.st.a.sq_buf && addr < tx.st.a.sq_buf + tx_ring_bytes())
		on_ring_read((uint32_t)(addr - tx.st.a.sq_buf), buf, len);
	return 0;
}

static void hook_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	(void)ctx;
	PROP(port == 1, "FRAME_FROM_SEND", "a frame on port %u", port);
	check_frame(frame, len);
	cur.frames++;
	wire.pending = true;
	wire.len = len;
	wire.crc = txv_crc32(frame, len);
}

static bool our_sq(uint64_t sqn)
{
	return sqn == tx.st.sqn;
}

static void on_cqe(const struct nicref_event *ev)
{
	uint8_t opcode = (uint8_t)ev->arg[2], syndrome = (uint8_t)ev->arg[3];
	uint16_t counter = (uint16_t)ev->arg[4];
	uint8_t s_op;
	if (sq.state == TX_ST_ERR && fl.active) {
		PROP(opcode == CQE_REQ_ERR && syndrome == SYN_FLUSH && counter == fl.index,
		     "FLUSH_CQE", "CQE opcode 0x%x syndrome 0x%x for WQE %u while WQE %u is flushed",
		     opcode, syndrome, counter, fl.index);
		fl.cqes++;
		s_op = fl.opcode;
	} else {
		PROP(cur.active && sq.state == TX_ST_RDY, "CQE_OF_WQE",
		     "CQE opcode 0x%x for WQE %u, none executing", opcode, counter);
		PROP(counter == cur.index, "CQE_OF_WQE", "CQE for WQE %u while WQE %u executes",
		     counter, cur.index);
		PROP(opcode == CQE_REQ || (opcode == CQE_REQ_ERR && syndrome != SYN_FLUSH),
		     "CQE_OF_WQE", "CQE opcode 0x%x syndrome 0x%x for a WQE run", opcode, syndrome);
		if (opcode == CQE_REQ) {
			cur.ok++;
		} else {
			cur.err++;
			cur.syndrome = syndrome;
		}
		s_op = cur.opcode;
	}
	if (nexpect < EXPECT_MAX)
		expect[nexpect++] = (struct expect_cqe){ counter, opcode, syndrome, s_op };
	else
		expect_lost = true;
}

static void on_wq_state(const struct nicref_event *ev)
{
	unsigned from = (unsigned)ev->arg[2], to = (unsigned)ev->arg[3], cause = (unsigned)ev->arg[4];
	PROP(from == sq.state, "SQ_STATE", "wq_state from %u, the SQ was in %u", from, sq.state);
	/* D-SQ-1: by command RST->RDY, RDY->ERR, any->RST; by the device RDY->ERR. */
	bool ok = cause == 0 ? (to == TX_ST_RST || (to == TX_ST_RDY && from == TX_ST_RST) ||
				(to == TX_ST_ERR && from == TX_ST_RDY))
			     : (cause == 1 && from == TX_ST_RDY && to == TX_ST_ERR);
	PROP(ok, "SQ_STATE", "wq_state %u -> %u, cause %u", from, to, cause);
	if (cause == 1) {
		PROP(cur.active, "SQ_STATE", "the device moved the SQ to ERR with no WQE executing");
		cur.sq_error = true;
	}
	sq.state = (uint8_t)to;
	if (to == TX_ST_RST) {
		sq.hw = 0; /* T63: the queue starts over */
		sq.last_err = false;
	}
}

static void on_event(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	fuzz_oracle_event(&tx.oracle, ev);
	if (!following)
		return;
	switch (ev->kind) {
	case NICREF_EV_SQ_DOORBELL:
		if (our_sq(ev->arg[0])) {
			tx.in.sq_touched = true;
			finish_exec();
			sq.db_bf = ev->arg[4] != 0;
			sq.db_index = (uint16_t)ev->arg[1];
			sq.db_buf = tx.in.ring_buf;
			if (sq.db_bf)
				PROP(tx.in.ring_buf >= 0, "WQE_ORDER",
				     "a Blue Flame doorbell from no buffer");
		}
		break;
	case NICREF_EV_WQ_STATE:
		if (ev->arg[0] == 0 && our_sq(ev->arg[1])) {
			tx.in.sq_touched = true;
			on_wq_state(ev);
		}
		break;
	case NICREF_EV_CQE:
		if (ev->arg[0] == tx.st.cq.cqn && !tx.in.cq_broken)
			on_cqe(ev);
		break;
	case NICREF_EV_TX_DISCARD:
		PROP(our_sq(ev->arg[0]) && cur.active && ev->arg[1] == cur.index, "FRAME_FROM_SEND",
		     "tx_discard of WQE %llu", (unsigned long long)ev->arg[1]);
		cur.discards++;
		cur.inline_drops += ev->arg[2] == 1;
		break;
	case NICREF_EV_TX_LOOPBACK:
		PROP(our_sq(ev->arg[0]) && cur.active && sq.state == TX_ST_RDY &&
			 sends_frames(cur.opcode),
		     "FRAME_FROM_SEND", "a looped frame with no SEND executing");
		cur.local += ev->arg[2] == 1;
		break;
	case NICREF_EV_FRAME_OUT:
		PROP(wire.pending && ev->arg[1] == wire.len && ev->arg[2] == wire.crc,
		     "FRAME_OUT_CRC", "frame_out len %llu crc 0x%08llx; the wire got %zu bytes, crc "
		     "0x%08x", (unsigned long long)ev->arg[1], (unsigned long long)ev->arg[2],
		     wire.len, wire.crc);
		wire.pending = false;
		break;
	case NICREF_EV_VIOLATION:
		/* D-TX-3: a WQE beyond the record was not run; it stays posted. */
		if (ev->arg[0] == NICREF_VIO_TX_WQE_BEYOND_RECORD && our_sq(ev->arg[1] >> 32) &&
		    cur.active && cur.index == (uint16_t)(ev->arg[1] >> 16) && !cur.ok && !cur.err) {
			sq.hw = cur.index;
			cur.active = false;
		}
		break;
	case NICREF_EV_EQE:
		/* T79 type 00h: a completion event (the CQ's only EQ); 04h: a CQ error. */
		if (ev->arg[0] == tx.st.eq.eqn && ev->arg[2] == 0x00)
			refdrv_cq_event_seen(&tx.st.cq);
		if (ev->arg[2] == 0x04)
			tx.in.cq_broken = true;
		break;
	case NICREF_EV_EQE_DROPPED:
		if (ev->arg[1] == 0x04)
			tx.in.cq_broken = true;
		break;
	default:
		break;
	}
}

/* Every BAR write (the reference driver's and the ops'): the Blue Flame area of the SQ's UAR
 * page is remembered as written, the copy a whole Blue Flame doorbell executes. */
void tx_follow_bar_write(void *ctx, uint32_t offset, uint32_t value)
{
	(void)ctx;
	tx.in.ring_buf = -1;
	if (tx.st.up && offset >= tx.k.uar_off + TX_BF_AREA &&
	    offset < tx.k.uar_off + TX_BF_AREA + TX_BF_BYTES) {
		uint32_t at = offset - (uint32_t)tx.k.uar_off - TX_BF_AREA;
		uint8_t bit = (uint8_t)(1u << (at / tx.k.bf_size));
		txv_put32(tx.in.bf + at, value);
		if (at % tx.k.bf_size == 4) {
			tx.in.ring_buf = (int)(at / tx.k.bf_size); /* dword 1: the doorbell rings */
			if (tx.in.bf_d0 & bit) { /* it rang: the buffer starts afresh (D-DB-3) */
				unsigned buf = at / tx.k.bf_size, reg = buf / 2;
				tx.in.bf_d0 = (uint8_t)(tx.in.bf_d0 & ~bit);
				tx.in.bf_dirty = (uint8_t)(tx.in.bf_dirty & ~bit);
				/* §7.2.2.1: the register's next posting takes the other buffer. */
				tx.in.bf_odd = (uint8_t)((tx.in.bf_odd & ~(1u << reg)) |
							 (~buf & 1u) << reg);
			}
		} else {
			tx.in.bf_dirty |= bit;
			if (at % tx.k.bf_size == 0)
				tx.in.bf_d0 |= bit;
		}
	}
	nicref_bar_write32(tx.dev, offset, value);
	tx.in.ring_buf = -1;
}

/* ---- The CQ and the EQ, as software polls them (§7.12.3.2, §7.13.2) ----------------------- */

static int cq_poll(uint8_t cqe[64])
{
	struct refdrv_cq *cq = &tx.st.cq;
	uint32_t size = 1u << cq->a.log_cq_size; /* 64-byte CQEs in one page (the stack's) */
	NICREF_FUZZ_CHECK(nicref_hostmem_read(tx.dev, cq->a.buf + (cq->cc & (size - 1)) * 64u, cqe,
					      64) == 0);
	/* §7.12.3.2: software owns it when its owner bit is the counter's wrap bit and its
	 * opcode is not 0xF (invalid). */
	if ((cqe[0x3F] & 1u) != ((cq->cc >> cq->a.log_cq_size) & 1u) || cqe[0x3F] >> 4 == 0xF)
		return 0;
	cq->cc = (cq->cc + 1) & 0xFFFFFFu;
	uint8_t rec[8] = { 0 };
	txf_set(tx_fld.update_ci, rec, sizeof rec, cq->cc); /* T69/T70 */
	NICREF_FUZZ_CHECK(nicref_hostmem_write(tx.dev, cq->a.dbr, rec, 4) == 0);
	return 1;
}

static void eq_consume(void)
{
	struct refdrv_eq *eq = &tx.st.eq;
	uint32_t size = 1u << eq->a.log_eq_size, n = 0;
	for (;;) {
		uint8_t eqe[64];
		uint64_t at = eq->a.buf + (eq->cc & (size - 1)) * 64u;
		NICREF_FUZZ_CHECK(nicref_hostmem_read(tx.dev, at, eqe, 64) == 0);
		if ((eqe[0x3F] & 1u) != ((eq->cc >> eq->a.log_eq_size) & 1u))
			break;
		eq->cc = (eq->cc + 1) & 0xFFFFFFu;
		n++;
	}
	/* T13: 40h updates the consumer index and arms. */
	if (n)
		tx_follow_bar_write(NULL, (uint32_t)tx.k.uar_off + 0x40, eq->eqn << 24 | eq->cc);
}

/* QUERY_SQ (§12.10.4 T327-T330): the state and T55 hw_counter. */
static int cmd_query_sq(unsigned *state, uint16_t *hw)
{
	uint8_t i[16] = { 0 }, o[0x110];
	txf_set(tx_fld.qsq_opcode, i, sizeof i, NICREF_OP_QUERY_SQ);
	txf_set(tx_fld.qsq_sqn, i, sizeof i, tx.st.sqn);
	int rc = refdrv_cmd(&tx.drv, i, sizeof i, o, sizeof o);
	*state = (unsigned)txf_get(tx_fld.qsq_state, o, sizeof o);
	*hw = (uint16_t)txf_get(tx_fld.qsq_hw, o, sizeof o);
	return rc;
}

/* ---- After every op ------------------------------------------------------------------------ */

static void check_cq(void)
{
	uint8_t cqe[64];
	unsigned got = 0;
	while (cq_poll(cqe)) {
		if (tx.in.cq_broken || expect_lost) {
			got++;
			continue;
		}
		PROP(got < nexpect, "CQE_BUFFER", "a CQE in the buffer the trace did not announce");
		const struct expect_cqe *e = &expect[got++];
		unsigned op = (unsigned)txf_get(tx_fld.c_opcode, cqe, 64);
		unsigned syn =
			op == CQE_REQ_ERR ? (unsigned)txf_get(tx_fld.e_syndrome, cqe, 64) : 0;
		unsigned ctr = (unsigned)txf_get(tx_fld.c_counter, cqe, 64);
		unsigned sop = (unsigned)txf_get(tx_fld.c_sop, cqe, 64);
		PROP(op == e->opcode && syn == e->syndrome && ctr == e->wqe_counter &&
			 sop == e->s_wqe_opcode,
		     "CQE_BUFFER", "CQE %u: opcode 0x%x syndrome 0x%x wqe_counter %u s_wqe_opcode "
		     "0x%x; the trace said 0x%x 0x%x %u, the WQE's opcode 0x%x", got - 1, op, syn,
		     ctr, sop, e->opcode, e->syndrome, e->wqe_counter, e->s_wqe_opcode);
	}
	if (!tx.in.cq_broken && !expect_lost)
		PROP(got == nexpect, "CQE_BUFFER", "%u CQEs in the buffer, %u announced", got,
		     nexpect);
	nexpect = 0;
	expect_lost = false;
	eq_consume();
}

static void check_sq(void)
{
	unsigned state;
	uint16_t hw;
	NICREF_FUZZ_CHECK(cmd_query_sq(&state, &hw) == 0);
	PROP(state == sq.state, "SQ_STATE", "QUERY_SQ state %u", state);
	if (!tx.in.cq_broken)
		PROP(hw == sq.hw, "SQ_STATE", "QUERY_SQ hw_counter %u, the WQEs run and flushed "
		     "reach %u", hw, sq.hw);
	sq.hw = hw;
}

/* ---- What the target calls ---------------------------------------------------------------- */

void tx_follow_init(struct nicref_config *cfg)
{
	cfg->trace = on_event;
	cfg->trace_ctx = NULL; /* on_event's oracle is the target's */
	cfg->ops.dma_read = hook_dma_read;
	cfg->ops.wire_tx = hook_wire_tx;
}

void tx_follow_reset(void)
{
	memset(&sq, 0, sizeof sq);
	memset(&cur, 0, sizeof cur);
	memset(&fl, 0, sizeof fl);
	memset(&wire, 0, sizeof wire);
	nexpect = 0;
	expect_lost = false;
	following = false;
}

void tx_follow_begin(void)
{
	following = true;
	sq.state = TX_ST_RDY;
}

void tx_follow_after_op(void)
{
	finish_exec();
	check_cq();
	fuzz_oracle_check_dev(&tx.oracle);
	/* the reference driver posts every command and doorbell correctly */
	NICREF_FUZZ_CHECK(tx.oracle.transport_violations == 0);
	if (tx.in.sq_touched)
		check_sq();
	tx.in.sq_touched = false;
	sq.db_bf = false;
}

void tx_follow_end(void)
{
	following = false;
}

unsigned tx_follow_sq_state(void)
{
	return sq.state;
}

void tx_follow_sq_remade(void)
{
	sq.state = TX_ST_RST;
	sq.hw = 0;
	sq.last_err = false;
}
