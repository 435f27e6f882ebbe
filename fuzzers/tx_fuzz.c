/* Target: tx, the send path (PRM §7.4, §7.2.2, §7.9, §7.12, §3.3, §10.1.1; docs/tx.md,
 * docs/tx_offload.md): WQEs written to a live SQ, rung by doorbell or Blue Flame, on a device the
 * reference driver brought up with an SQ stack (harness/driver_sq.h: PD, TD, UAR, EQ, CQ, TIS,
 * the data MKey over 1 MiB of host memory, the SQ in RDY) and one more MKey for UMR (KLM access,
 * umr_en, free).
 *
 * Input: ops, each an op byte and its operands (fuzzers/tx_ops.h has the codes and the
 * operands of every op but TX_OP_WQE's, which are here). TX_OP_WQE is kind:u8 ctrl:u8 then:
 *   ctrl: bits 1:0 ce, bit 2 se, bits 4:3 fm (T26)
 *   NOP   pad:u8                       pad % 4 zero-length inline data segments (§7.2.2.1)
 *   SEND, LSO
 *         tmpl:u8 var:u8 cs:u8 ihs:u8 plen:u16 mss:u16 segs:u8 poff:u16 key:u8 nmut:u8
 *         then nmut % 8 pairs pos:u8 val:u8
 *     tmpl  bits 2:0 the header template (enum tx_template), bits 4:3 VLAN tags 0-3, bit 5/6
 *           the first/second tag 802.1ad (else 802.1Q)
 *     var   bits 1:0 destination (a foreign unicast, multicast, broadcast, the vport's own
 *           address), bit 2 TCP timestamps option, bits 4:3 IPv4 options / IPv6 extension
 *           headers, bit 5 checksum fields 0 (else junk), bit 6 TCP FIN|PSH, bit 7 TCP CWR
 *     cs    bit 0 l3cs, bit 1 l4cs, bit 2 IP length 0 (NDIS LSOv2), bit 3 an IP fragment,
 *           bit 7 mss on a SEND
 *     ihs   inline headers: 0 all the headers, 1 none, 2 the L2 header, 3 through L3, 4-127
 *           the headers less ihs - 3 bytes, 128-255 the headers and ihs - 128 payload bytes
 *     plen  payload bytes: SEND plen % 9800, LSO plen + plen / 16
 *     mss   T28 mss (LSO; a SEND with cs bit 7)
 *     segs  bits 2:0 data segments, bits 7:3 which of the first five are inline
 *     poff  where the payload sits in the data region (16-byte units)
 *     key   bits 1:0 l_key: the data MKey, the UMR MKey (addresses from 0 + poff * 16 % 4 KB,
 *           where its translations start), the data MKey with another tag, 0; bit 2 the first
 *           pointer's byte_count 0 (2 GB); bit 3 an address past the MKey
 *     pos, val  header byte pos % the header length := val
 *   UMR   flags:u8 n:u8 off:u8 mask:u16 start:u16 len:u16 access:u8, then n % 9 KLMs
 *         (mkey:u8 addr:u16 bc:u16)
 *     flags bit 0 inline translations (else the UMR pointer), bits 2:1 check_free, bit 3
 *           translation_offset_en, bits 5:4 umr_mkey (the UMR MKey, the data MKey, the UMR
 *           MKey with another tag, 0), bit 6 the size as given (else rounded to 64 B), bit 7
 *           the pointer 16 bytes off its 2 KB alignment
 *     mask  bits 0-8 the MkeyCtx mask bits len, log_page_size, start_addr, mkey[7:0], lr, lw,
 *           rr, rw, free (T33), bit 9 a reserved one
 *     access bit 0 lr, bit 1 lw, bit 2 free, bit 3 mkey[7:0] := the byte (else the UMR tag)
 *     KLM   mkey bits 1:0 as key above; addr in the data region (16-byte units); bc, 0xFFFF
 *           meaning 2 GB + 1
 * The op loop stops after 256 ops.
 *
 * Properties after every op (a broken one prints "property NAME broken at FILE:LINE: STATE"
 * and traps, fuzz_report.c), on top of the shared oracles (fuzz_oracle.c: nicref_dev_check, the
 * trace's sequence, time and counters) and no transport violation:
 *  - FRAME_MTU: a frame's L3 payload (after the Ethernet header and up to two 802.1Q/802.1ad
 *    tags, D-TX-6, D-REG-5) is within the MTU (the port's oper_mtu, or the vport's mtu if
 *    smaller);
 *  - FRAME_MAX: no frame longer than max_mtu + the Ethernet header + two tags (D-TXO-6), what
 *    the port can send;
 *  - FRAME_PAD: every frame at least 60 bytes with pad_tx_eth_packet (§3.3.8, D-TXO-1);
 *  - FRAME_OUT_CRC: the frame_out event's length and CRC are the frame's (D-TX-2);
 *  - CSUM_IPV4, CSUM_L4: the IPv4 header checksum and the TCP/UDP checksum (pseudo-header,
 *    IPv4 and IPv6) of every frame whose WQE asked for them (l3cs, l4cs; LSO always, D-TXO-10)
 *    where they apply (D-TXO-2, -5, -6, -7, -8), checked by the target's own parser and sum;
 *    a UDP checksum is never 0 (D-TXO-3);
 *  - FRAME_FROM_SEND: a frame only while a SEND or LSO WQE executes on a RDY SQ;
 *  - NO_FRAME_REFUSED: no frame for a WQE that completed in error or whose packet was dropped
 *    for its inline headers (§7.9.3.1); SEND_ONE_PACKET: a SEND that completes makes exactly
 *    one frame, local frame or discard;
 *  - CQE_PER_WQE: a WQE run in RDY has one CQE if ce is 10/11 (T26), an error CQE if it failed
 *    (whatever ce, the first error), no other; CQE_OF_WQE: each CQE names the WQE (wqe_counter,
 *    s_wqe_opcode); FLUSH_CQE: each WQE flushed in ERR has a flush CQE unless ce is 01 after an
 *    error (T26, §7.9.2); CQE_BUFFER: the CQ buffer holds exactly the CQEs the trace announced,
 *    in order, field by field;
 *  - SQ_STATE: the SQ moves only by the legal transitions (D-SQ-1: RST->RDY, RDY->ERR, any->RST
 *    by command; RDY->ERR by the device), to ERR by the device exactly when a WQE completed in
 *    error; QUERY_SQ agrees with the state and with the counter the WQEs run and flushed
 *    advanced; WQEs run from the device's counter in order, only in RDY (WQE_ORDER).
 *
 * Between inputs the device comes back from a snapshot taken after the bring-up (fuzz_snap.h;
 * NICREF_FUZZ_SNAPSHOT=0 or a DUT turns it off): the SQ, CQ and UMR MKey as made, the ring,
 * the data, the clock, the counters, all as they were. Without snapshots, the stack is put back
 * by what the last input changed (light_restore: the CQ and the SQ made again, the UMR MKey if
 * a UMR ran on it, Blue Flame buffers left written rung for no SQ and a plain doorbell on each
 * register's odd buffer, so its next posting is even as after ALLOC_UAR (D-DB-4), the MTUs and
 * the vport's state written back, the ring and the data zeroed) rather than by a full reset and bring-up,
 * which cost 2.6 times as much; only the clock, the EQ's index, the counters and the command
 * tokens go on. tx_init checks that a light restore makes the SQ and CQ contexts the bring-up
 * made, the selftest that the corpus does the same either way; NICREF_TX_FULL_RESET=1 forces a
 * full bring-up for every input (fuzzers/README.md).
 *
 * The target's files: this one (the ops, the bring-up and the restores, the op loop),
 * tx_follow.c (the device followed from outside and the properties above), tx_wqe.c (the WQEs
 * of TX_OP_WQE and TX_OP_WQE_RAW), tx_hdrs.c (the header templates), tx_view.c (the parser,
 * checksums and CRC the frames are held to), tx_fields.c (the fields, looked up once);
 * tx_state.h and .c (their shared state) and tx_ops.h (the op codes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_mkey.h"
#include "driver_sq.h"
#include "driver_vport.h"
#include "driver_wq.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"
#include "nicref/rules_tx.h"
#include "tx_fields.h"
#include "tx_follow.h"
#include "tx_ops.h"
#include "tx_state.h"
#include "tx_wqe.h"

#define MAX_OPS 256u
#define UMR_OCTWORDS 64u /* the UMR MKey's translations (KLMs) */

static struct refdrv_ops model_ops;

/* What a light restore recreates: the stack as the bring-up left it. */
static struct {
	bool ok;			/* light restores reach the bring-up's state (tx_init) */
	bool full;			/* NICREF_TX_FULL_RESET: a full bring-up for every input */
	struct refdrv_sq_stack st;	/* the stack right after the bring-up */
	struct refdrv_sq_attr sq;	/* the SQ's CREATE_SQ attributes (driver_sq.c's) */
	uint64_t full_count, light_count;
} snap;

/* ---- Commands of the ops, built from the cached fields (refdrv_cmd posts them) ------------- */

static uint32_t modify_sq_len;

/* MODIFY_SQ (§12.10.2 T320-T322) from `from` to `to`, no bitmask: the status. */
static int cmd_modify_sq(unsigned from, unsigned to)
{
	uint8_t i[0x110] = { 0 }, o[16];
	txf_set(tx_fld.msq_opcode, i, sizeof i, NICREF_OP_MODIFY_SQ);
	txf_set(tx_fld.msq_cur, i, sizeof i, from);
	txf_set(tx_fld.msq_sqn, i, sizeof i, tx.st.sqn);
	txf_set(tx_fld.msq_state, i, sizeof i, to);
	return refdrv_cmd(&tx.drv, i, modify_sq_len, o, sizeof o);
}

/* DESTROY_SQ (T323) or DESTROY_CQ (T264). */
static int cmd_destroy(bool is_sq, uint32_t n)
{
	uint8_t i[16] = { 0 }, o[16];
	txf_set(is_sq ? tx_fld.dsq_opcode : tx_fld.dcq_opcode, i, sizeof i,
	       is_sq ? NICREF_OP_DESTROY_SQ : NICREF_OP_DESTROY_CQ);
	txf_set(is_sq ? tx_fld.dsq_sqn : tx_fld.dcq_cqn, i, sizeof i, n);
	return refdrv_cmd(&tx.drv, i, sizeof i, o, sizeof o);
}

/* §7.12.4 (refdrv_cq_arm's): cmd_sn, cmd (solicited), arm_ci in the record's 04h (T69/T70),
 * then the UAR CQ doorbell, lower dword first (T13/T14). */
static void cq_arm(bool solicited)
{
	uint8_t rec[8] = { 0 };
	txf_set(tx_fld.arm_sn, rec, sizeof rec, tx.st.cq.arm_sn & 3u);
	txf_set(tx_fld.arm_cmd, rec, sizeof rec, solicited);
	txf_set(tx_fld.arm_ci, rec, sizeof rec, tx.st.cq.cc);
	NICREF_FUZZ_CHECK(nicref_hostmem_write(tx.dev, tx.st.cq.a.dbr + 4, rec + 4, 4) == 0);
	tx_follow_bar_write(NULL, (uint32_t)tx.k.uar_off + 0x20, txf_be32(rec + 4));
	tx_follow_bar_write(NULL, (uint32_t)tx.k.uar_off + 0x24, tx.st.cq.cqn & 0xFFFFFFu);
}

/* ---- Ringing (§7.4.3.1, §7.2.2) ----------------------------------------------------------- */

/* The buffer of Blue Flame register reg (0 or 1) for its next posting: even, odd, ... (§7.2.2.1
 * "must be used alternately", D-DB-4), as refdrv_sq_ring's; TX_OP_BF_AGAIN turns it back. */
static unsigned next_buf(unsigned reg)
{
	return reg * 2u + (tx.in.bf_odd >> reg & 1u);
}

/* The send doorbell: the last WQE's dwords 0 and 1, lower first (§7.2.2.2), at offset 0 of
 * buffer buf: refdrv_sq_ring's. */
static void ring_db(unsigned buf, uint32_t d0, uint32_t d1)
{
	uint32_t at = (uint32_t)tx.k.uar_off + TX_BF_AREA + buf * tx.k.bf_size;
	tx_follow_bar_write(NULL, at, d0);
	tx_follow_bar_write(NULL, at + 4, d1);
}

static void ring(void)
{
	ring_db(next_buf(0), txf_be32(tx.st.last_wqe), txf_be32(tx.st.last_wqe + 4));
}

/* The whole WQE through Blue Flame, padded to 64 bytes, the doorbell dwords last
 * (refdrv_sq_ring_bf's); a WQE larger than the buffer is rung the ordinary way. */
static void ring_bf(void)
{
	size_t padded = (tx.st.last_len + 63) & ~(size_t)63;
	if (padded > tx.k.bf_size) {
		ring();
		return;
	}
	unsigned buf = next_buf(0);
	uint32_t at = (uint32_t)tx.k.uar_off + TX_BF_AREA + buf * tx.k.bf_size;
	for (size_t i = 8; i < padded; i += 4)
		tx_follow_bar_write(NULL, at + (uint32_t)i, txf_be32(tx.st.last_wqe + i));
	ring_db(buf, txf_be32(tx.st.last_wqe), txf_be32(tx.st.last_wqe + 4));
}

static void op_ring(struct reader *r)
{
	unsigned mode = rd8(r) % 8u;
	int8_t delta = (int8_t)rd8(r);
	if (mode != TX_RING_DB_ONLY && mode != TX_RING_BF_ONLY)
		NICREF_FUZZ_CHECK(
			refdrv_wq_dbr_write(&tx.drv, tx.st.a.sq_dbr, true, tx.st.pc) == 0);
	uint32_t d0 = txf_be32(tx.st.last_wqe), d1 = txf_be32(tx.st.last_wqe + 4);
	switch (mode) {
	case TX_RING_DB:
	case TX_RING_DB_ONLY:
		ring();
		break;
	case TX_RING_BF:
	case TX_RING_BF_ONLY:
		ring_bf();
		break;
	case TX_RING_RECORD:
		break;
	case TX_RING_DB_INDEX:
		d0 = (d0 & 0xFFu) | (uint32_t)(uint16_t)(tx.st.last_index + delta) << 8;
		ring_db(next_buf(0), d0, d1);
		break;
	case TX_RING_DB_OTHER:
		ring_db(next_buf(1), d0, d1); /* register 1 */
		break;
	default:
		ring_db(next_buf(0), d0 | 0xA5000000u, d1 | 0xC0u); /* T26 reserved */
		break;
	}
}

static void op_bf_write(struct reader *r)
{
	uint8_t b = rd8(r), dw = rd8(r);
	uint32_t v = rdn(r, 4);
	unsigned buf = b % (TX_BF_BYTES / tx.k.bf_size);
	dw = (uint8_t)(dw % (tx.k.bf_size / 4));
	if (dw == 1 && !(b & 0x80u))
		v = tx.st.sqn << 8 | (v & 0xFFu);
	uint32_t at = (uint32_t)tx.k.uar_off + TX_BF_AREA + buf * tx.k.bf_size + dw * 4u;
	tx_follow_bar_write(NULL, at, v);
}

/* §7.2.2.1 broken on purpose: register reg % 2's next posting reuses its last buffer. */
static void op_bf_again(struct reader *r)
{
	tx.in.bf_odd ^= (uint8_t)(1u << (rd8(r) % 2u));
}

static void op_dbr(struct reader *r)
{
	uint8_t mode = rd8(r);
	uint32_t v = rdn(r, 2);
	uint16_t c = mode & 1u ? (uint16_t)v : (uint16_t)(tx.st.pc + (int8_t)(v & 0xFF));
	NICREF_FUZZ_CHECK(refdrv_wq_dbr_write(&tx.drv, tx.st.a.sq_dbr, true, c) == 0);
}

static void op_mem(struct reader *r)
{
	uint32_t off = rdn(r, 3) % TX_DATA_BYTES;
	size_t len = (size_t)rd8(r) + 1;
	unsigned rep = rd8(r) % 16u + 1u;
	uint8_t d[256];
	for (size_t i = 0; i < len; i++)
		d[i] = rd8(r);
	for (unsigned i = 0; i < rep && off < TX_DATA_BYTES; i++) {
		size_t n = len < TX_DATA_BYTES - off ? len : TX_DATA_BYTES - off;
		tx_wqe_data_write(&tx.w, tx.st.a.data_addr + off, d, n);
		off += (uint32_t)n;
	}
}

/* MODIFY_SQ from the state the SQ is in; for RST the driver zeroes the record and its producer
 * counter (T63 "SW zeroes the record before RST2RDY"). */
static void sq_modify(unsigned to)
{
	(void)cmd_modify_sq(tx_follow_sq_state(), to);
	if (to == TX_ST_RST) {
		NICREF_FUZZ_CHECK(refdrv_wq_dbr_write(&tx.drv, tx.st.a.sq_dbr, true, 0) == 0);
		tx.st.pc = 0;
		tx.st.posted = false;
	}
}

static void op_sq_modify(struct reader *r)
{
	switch (rd8(r) % 4u) {
	case TX_SQ_RECOVER:
		sq_modify(TX_ST_RST);
		sq_modify(TX_ST_RDY);
		break;
	case TX_SQ_TO_ERR:
		sq_modify(TX_ST_ERR);
		break;
	case TX_SQ_TO_RST:
		sq_modify(TX_ST_RST);
		break;
	default:
		sq_modify(TX_ST_RDY);
		break;
	}
}

/* PMTU (§11.1.1) of port 1 through ACCESS_REG (§12.4.1): read (op_mod 1), or write admin_mtu
 * (op_mod 0). The status. */
static int pmtu(bool write, unsigned admin, unsigned *oper, unsigned *max)
{
	uint8_t i[0x20] = { 0 }, o[0x20] = { 0 };
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "opcode", NICREF_OP_ACCESS_REG);
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "op_mod", write ? 0 : 1);
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "register_id", 0x5003);
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "local_port", 1);
	if (write)
		refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "admin_mtu", admin & 0xFFFF);
	int rc = refdrv_cmd(&tx.drv, i, sizeof i, o, sizeof o);
	if (rc == 0 && oper)
		*oper = (unsigned)refdrv_field_get(o, sizeof o, "access_reg_pmtu_out", "oper_mtu");
	if (rc == 0 && max)
		*max = (unsigned)refdrv_field_get(o, sizeof o, "access_reg_pmtu_out", "max_mtu");
	return rc;
}

static void op_mtu(struct reader *r)
{
	uint8_t sel = rd8(r);
	unsigned v = rdn(r, 2);
	struct refdrv_nic_vport vp;
	if (!(sel & 1u)) {
		(void)pmtu(true, v, NULL, NULL);
	} else if (refdrv_query_nic_vport_context(&tx.drv, REFDRV_LIST_UC, &vp, NULL, 0) == 0) {
		vp.mtu = v;
		(void)refdrv_modify_nic_vport_context(&tx.drv, REFDRV_VPORT_MTU, &vp);
	}
	NICREF_FUZZ_CHECK(pmtu(false, 0, &tx.in.oper_mtu, NULL) == 0);
	NICREF_FUZZ_CHECK(
		refdrv_query_nic_vport_context(&tx.drv, REFDRV_LIST_UC, &vp, NULL, 0) == 0);
	tx.in.vport_mtu = vp.mtu;
	tx.in.config_dirty = true;
}

/* D-VP-2: the vport sends when SW wants it up and its port is up (QUERY_VPORT_STATE). */
static bool vport_up(void)
{
	unsigned admin, state;
	NICREF_FUZZ_CHECK(refdrv_query_vport_state(&tx.drv, &admin, &state) == 0);
	tx.in.vport_admin = admin;
	return admin == 1 && state == 1;
}

static void op_vport(struct reader *r)
{
	(void)refdrv_modify_vport_state(&tx.drv, rd8(r) % 3u);
	tx.in.vport_up = vport_up();
	tx.in.config_dirty = true;
}

/* The SQ made again with another inline mode and signature checking: DESTROY_SQ, CREATE_SQ in RST
 * (refdrv_create_sq, the record zeroed), MODIFY_SQ to RDY. */
static void op_sq_config(struct reader *r)
{
	uint8_t sel = rd8(r);
	struct refdrv_sq_attr a = snap.sq;
	struct refdrv_nic_vport vp;
	NICREF_FUZZ_CHECK(
		refdrv_query_nic_vport_context(&tx.drv, REFDRV_LIST_UC, &vp, NULL, 0) == 0);
	a.min_wqe_inline_mode = sel % 4u < vp.min_wqe_inline_mode ? vp.min_wqe_inline_mode
								 : sel % 4u;
	a.wq.wq_signature = tx.k.wq_signature && ((sel >> 2) & 1u); /* T145 wq_signature */
	NICREF_FUZZ_CHECK(cmd_destroy(true, tx.st.sqn) == 0);
	uint32_t sqn;
	NICREF_FUZZ_CHECK(refdrv_create_sq(&tx.drv, &a, &sqn) == 0 && sqn == tx.st.sqn);
	tx_follow_sq_remade();
	tx.st.pc = 0;
	tx.st.posted = false;
	tx.w.signature = a.wq.wq_signature;
	tx.in.sq_touched = true;
	NICREF_FUZZ_CHECK(cmd_modify_sq(TX_ST_RST, TX_ST_RDY) == 0);
}

/* ---- The device --------------------------------------------------------------------------- */

/* Power-on, the reference driver's bring-up and SQ stack, and the UMR MKey. */
static void full_bring_up(void)
{
	if (fuzz_dev_sq_stack_up(tx.dev, &tx.oracle, &tx.drv, &model_ops, &tx.st) != 0) {
		fprintf(stderr, "tx_fuzz: SQ stack: %s\n", tx.drv.error);
		NICREF_FUZZ_CHECK(0);
	}
	/* §10.1.1: KLM access, so its translations reach memory only through other MKeys (the
	 * data region); free; room for UMR_OCTWORDS KLMs (D-TX-14). */
	struct refdrv_mkey_attr ma = { .access_mode = 2, .pd = tx.st.pd, .tag = TX_UMR_TAG,
				       .umr_en = true, .free = true, .octword_size = UMR_OCTWORDS };
	NICREF_FUZZ_CHECK(refdrv_create_mkey(&tx.drv, &ma, &tx.k.umr_index) == 0);
	/* The reference driver breaks no rule. */
	NICREF_FUZZ_CHECK(tx.oracle.violations == 0);
	snap.st = tx.st;
	snap.full_count++;
}

/* The light restore: the CQ and the SQ destroyed and created again as the bring-up made them
 * (same numbers: the lowest free handle, D-OBJ-2), the UMR MKey too if a UMR ran on it, the
 * ring and the data written zeroed. What stays: the clock, the EQ (consumed after every op, so
 * only its index differs), the counters, the command tokens. 0, or -1: do a full bring-up. */
static int light_restore(void)
{
	uint32_t sqn = tx.st.sqn, cqn = tx.st.cq.cqn;
	struct refdrv_eq eq = tx.st.eq;
	/* Blue Flame buffers written and not rung are rung for no SQ: the device forgets their
	 * dwords (D-DB-3) and reports the driver's SQ_DB_NO_SQ (and SQ_DB_BF_ALTERNATE when the
	 * buffer is the one its register used last), nothing else. Then a plain doorbell for no SQ
	 * on every register's odd buffer: each register's last posting is odd, as on a page
	 * ALLOC_UAR just gave out, so its next is even (D-DB-4), what tx.in.bf_odd says. */
	uint64_t vio = tx.oracle.violations, no_sq = tx.oracle.vio_by_rule[NICREF_VIO_SQ_DB_NO_SQ];
	uint64_t alt = tx.oracle.vio_by_rule[NICREF_VIO_SQ_DB_BF_ALTERNATE];
	unsigned rung = 0, nbuf = TX_BF_BYTES / tx.k.bf_size;
	for (unsigned b = 0; b < nbuf; b++)
		if ((tx.in.bf_dirty | tx.in.bf_d0) >> b & 1u) {
			uint32_t at = (uint32_t)tx.k.uar_off + TX_BF_AREA + b * tx.k.bf_size;
			tx_follow_bar_write(NULL, at, 0);
			tx_follow_bar_write(NULL, at + 4, 0xFFFFFFu << 8);
			rung++;
		}
	for (unsigned b = 1; b < nbuf; b += 2) {
		uint32_t at = (uint32_t)tx.k.uar_off + TX_BF_AREA + b * tx.k.bf_size;
		tx_follow_bar_write(NULL, at, 0);
		tx_follow_bar_write(NULL, at + 4, 0xFFFFFFu << 8);
		rung++;
	}
	alt = tx.oracle.vio_by_rule[NICREF_VIO_SQ_DB_BF_ALTERNATE] - alt;
	if (tx.oracle.vio_by_rule[NICREF_VIO_SQ_DB_NO_SQ] != no_sq + rung ||
	    tx.oracle.violations != vio + rung + alt)
		return -1;
	vio = tx.oracle.violations;
	/* The port's and the vport's MTU and the vport's state as the bring-up found them. */
	if (tx.in.config_dirty) {
		struct refdrv_nic_vport vp;
		unsigned oper = 0;
		if (pmtu(true, tx.k.oper_mtu, NULL, NULL) != 0 ||
		    refdrv_query_nic_vport_context(&tx.drv, REFDRV_LIST_UC, &vp, NULL, 0) != 0)
			return -1;
		vp.mtu = tx.k.vport_mtu;
		if (refdrv_modify_nic_vport_context(&tx.drv, REFDRV_VPORT_MTU, &vp) != 0 ||
		    refdrv_modify_vport_state(&tx.drv, tx.k.vport_admin) != 0 ||
		    pmtu(false, 0, &oper, NULL) != 0 ||
		    refdrv_query_nic_vport_context(&tx.drv, REFDRV_LIST_UC, &vp, NULL, 0) != 0 ||
		    oper != tx.k.oper_mtu || vp.mtu != tx.k.vport_mtu ||
		    vport_up() != tx.k.vport_up || tx.in.vport_admin != tx.k.vport_admin)
			return -1;
	}
	if (cmd_destroy(true, tx.st.sqn) != 0 || cmd_destroy(false, tx.st.cq.cqn) != 0)
		return -1;
	if (tx.in.umr_dirty) {
		uint32_t index = tx.k.umr_index;
		struct refdrv_mkey_attr ma = { .access_mode = 2, .pd = tx.st.pd, .tag = TX_UMR_TAG,
					       .umr_en = true, .free = true,
					       .octword_size = UMR_OCTWORDS };
		if (refdrv_destroy_mkey(&tx.drv, index) != 0 ||
		    refdrv_create_mkey(&tx.drv, &ma, &tx.k.umr_index) != 0 ||
		    tx.k.umr_index != index)
			return -1;
	}
	static const uint8_t zero[4096];
	for (uint32_t o = 0; o < tx_ring_bytes(); o += sizeof zero)
		NICREF_FUZZ_CHECK(nicref_hostmem_write(tx.dev, tx.st.a.sq_buf + o, zero,
						       sizeof zero) == 0);
	for (uint64_t a = tx.w.data_lo, hi = tx.w.data_hi; a < hi; a += sizeof zero) {
		size_t n = hi - a < sizeof zero ? (size_t)(hi - a) : sizeof zero;
		NICREF_FUZZ_CHECK(nicref_hostmem_write(tx.dev, a, zero, n) == 0);
	}
	NICREF_FUZZ_CHECK(nicref_hostmem_write(tx.dev, tx.st.a.sq_dbr, zero, 8) == 0);
	tx.st = snap.st;
	tx.st.eq = eq;
	if (refdrv_create_cq(&tx.drv, &snap.st.cq.a, &tx.st.cq) != 0)
		return -1;
	cq_arm(false); /* as refdrv_sq_stack_up */
	if (refdrv_create_sq(&tx.drv, &snap.sq, &tx.st.sqn) != 0 ||
	    cmd_modify_sq(TX_ST_RST, TX_ST_RDY) != 0)
		return -1;
	if (tx.st.sqn != sqn || tx.st.cq.cqn != cqn || tx.oracle.violations != vio)
		return -1;
	snap.light_count++;
	return 0;
}

/* Whether what the last input did allows a light restore. */
static bool light_possible(void)
{
	return snap.ok && !snap.full;
}

/* The QUERY_SQ and QUERY_CQ outputs of the stack: what the self-check compares. */
static void stack_contexts(uint8_t *sqo, uint8_t *cqo)
{
	uint8_t i[16] = { 0 };
	refdrv_field_set(i, sizeof i, "query_sq_in", "opcode", NICREF_OP_QUERY_SQ);
	refdrv_field_set(i, sizeof i, "query_sq_in", "sqn", tx.st.sqn);
	NICREF_FUZZ_CHECK(refdrv_cmd(&tx.drv, i, sizeof i, sqo, 0x110) == 0);
	NICREF_FUZZ_CHECK(refdrv_query_cq(&tx.drv, tx.st.cq.cqn, cqo, 0x110) == 0);
}

/* The SQ's attributes are driver_sq.c's: the self-check proves the light restore makes the
 * same SQ and CQ contexts (else every input gets a full bring-up, and tx_init says so). */
static void light_self_check(void)
{
	snap.sq = (struct refdrv_sq_attr){
		.wq = { .buf = tx.st.a.sq_buf, .dbr = tx.st.a.sq_dbr, .wq_type = 1,
			.log_wq_sz = tx.st.a.log_sq_size, .log_wq_stride = 6,
			.wq_signature = tx.st.a.wq_signature, .pd = tx.st.pd },
		.cqn = tx.st.cq.cqn, .tisn = tx.st.tisn, .uar = tx.st.uar,
		.user_index = tx.st.user_index,
		.min_wqe_inline_mode = tx.st.sq_inline_mode,
		.flush_in_error_en = tx.st.a.flush_in_error_en,
	};
	static uint8_t sq0[0x110], cq0[0x110], sq1[0x110], cq1[0x110];
	stack_contexts(sq0, cq0);
	snap.ok = true;
	if (light_restore() != 0) {
		snap.ok = false;
	} else {
		stack_contexts(sq1, cq1);
		snap.ok = !memcmp(sq0, sq1, sizeof sq0) && !memcmp(cq0, cq1, sizeof cq0);
	}
	if (!snap.ok)
		fprintf(stderr, "tx_fuzz: the light restore does not remake the stack of "
				"harness/driver_sq.c: a full bring-up for every input\n");
}

/* The device after full_bring_up (fuzz_snap.h), with the reference driver's side. */
static struct fuzz_snap dsnap;
static struct fuzz_snap_drv dsnap_drv;

static void bring_up(void)
{
	if (fuzz_snap_enabled() && !snap.full) {
		bool restored =
			fuzz_dev_snap_restore(&dsnap, &dsnap_drv, tx.dev, &tx.oracle, &tx.drv);
		if (restored) {
			tx.st = snap.st;
			snap.light_count++;
		} else {
			full_bring_up();
			fuzz_dev_snap_take(&dsnap, &dsnap_drv, tx.dev, &tx.oracle, &tx.drv);
		}
		fuzz_trace("bring-up %s (%llu full, %llu restored so far)",
			   restored ? "from the snapshot" : "full",
			   (unsigned long long)snap.full_count,
			   (unsigned long long)snap.light_count);
		return;
	}
	bool light = light_possible() && light_restore() == 0;
	if (!light)
		full_bring_up();
	fuzz_trace("bring-up %s (%llu full, %llu light so far; the last input: CQ broken %d, MTU "
		   "or vport %d, Blue Flame buffers not rung 0x%02x)", light ? "light" : "full",
		   (unsigned long long)snap.full_count, (unsigned long long)snap.light_count,
		   tx.in.cq_broken, tx.in.config_dirty, tx.in.bf_dirty);
}

static int tx_init(void)
{
	struct nicref_config cfg;
	tx.op_name = "bring-up";
	fuzz_dev_config(&cfg, &tx.oracle);
	tx_follow_init(&cfg);
	if (tx_fields_init() != 0 || !(tx.dev = fuzz_dev_create(&cfg, &tx.oracle)))
		return -1;
	tx.w.dev = tx.dev;
	tx.w.drv = &tx.drv;
	tx.w.st = &tx.st;
	/* T320: the context at 20h, up to the pas[] that MODIFY_SQ does not carry */
	modify_sq_len = (uint32_t)nicref_layout_find("modify_sq_in")->size;
	if (modify_sq_len < 16 || modify_sq_len > 0x110)
		return -1;
	model_ops = refdrv_ops_model(tx.dev);
	model_ops.bar_write32 = tx_follow_bar_write;
	memset(&tx.drv, 0, sizeof tx.drv);
	const char *full = getenv("NICREF_TX_FULL_RESET");
	snap.full = full && *full && strcmp(full, "0") != 0;
	full_bring_up();
	/* What the device says of itself, the same after every reset. */
	tx.k.uar_off = refdrv_uar_offset(&tx.drv, tx.st.uar);
	tx.k.bf_size = refdrv_bf_buffer_size(&tx.drv);
	const uint8_t *caps = tx.drv.caps_cur;
	size_t ncaps = sizeof tx.drv.caps_cur;
	tx.k.pad = refdrv_field_get(caps, ncaps, "hca_cap", "pad_tx_eth_packet");
	tx.k.wq_signature = refdrv_field_get(caps, ncaps, "hca_cap", "wq_signature");
	struct refdrv_nic_vport vp;
	if (pmtu(false, 0, &tx.k.oper_mtu, &tx.k.max_mtu) != 0 ||
	    refdrv_query_nic_vport_context(&tx.drv, REFDRV_LIST_UC, &vp, NULL, 0) != 0 ||
	    tx.k.bf_size < 64 || TX_BF_BYTES % tx.k.bf_size)
		return -1;
	tx.k.vport_mtu = vp.mtu;
	tx.w.own_mac = vp.permanent_address;
	tx.k.vport_up = vport_up();
	tx.k.vport_admin = tx.in.vport_admin;
	light_self_check();
	full_bring_up(); /* the first input starts from a full bring-up too */
	return 0;
}

static const char *const op_names[TX_OP_FIRST_RESERVED] = {
	"WQE_RAW", "WQE", "RING", "BF_WRITE", "DBR", "MEM", "TIME", "CQ_ARM", "SQ_MODIFY", "MTU",
	"VPORT", "SQ_CONFIG", "BF_AGAIN",
};

static void tx_one_input(const uint8_t *data, size_t len)
{
	tx_follow_reset();
	tx.op_no = 0;
	tx.op_name = "bring-up";
	bring_up(); /* by what the previous input left */
	memset(&tx.in, 0, sizeof tx.in);
	tx.in.ring_buf = -1;
	tx.in.oper_mtu = tx.k.oper_mtu;
	tx.in.vport_mtu = tx.k.vport_mtu;
	tx.in.vport_up = tx.k.vport_up;
	tx.w.umr_key = tx.k.umr_index << 8 | TX_UMR_TAG;
	tx.w.signature = false;
	tx.w.data_lo = tx.w.data_hi = 0;
	tx_follow_begin();
	fuzz_snap_check_start(&dsnap, &tx.oracle);

	struct reader r = { data, len };
	for (tx.op_no = 0; r.n && tx.op_no < MAX_OPS;) {
		size_t at = len - r.n;
		uint8_t op = rd8(&r);
		if (op >= TX_OP_FIRST_RESERVED)
			continue; /* reserved: the op byte alone */
		tx.op_name = op_names[op];
		fuzz_trace("op %s at byte %zu", tx.op_name, at);
		switch ((enum tx_op)op) {
		case TX_OP_WQE_RAW:
			tx_wqe_raw(&tx.w, &r);
			break;
		case TX_OP_WQE:
			tx_wqe_build(&tx.w, &r);
			break;
		case TX_OP_RING:
			op_ring(&r);
			break;
		case TX_OP_BF_WRITE:
			op_bf_write(&r);
			break;
		case TX_OP_DBR:
			op_dbr(&r);
			break;
		case TX_OP_MEM:
			op_mem(&r);
			break;
		case TX_OP_TIME:
			nicref_clock_advance(tx.dev, 1 + (uint64_t)rdn(&r, 3));
			break;
		case TX_OP_CQ_ARM:
			cq_arm(rd8(&r) & 1u);
			break;
		case TX_OP_SQ_MODIFY:
			op_sq_modify(&r);
			break;
		case TX_OP_MTU:
			op_mtu(&r);
			break;
		case TX_OP_VPORT:
			op_vport(&r);
			break;
		case TX_OP_SQ_CONFIG:
			op_sq_config(&r);
			break;
		case TX_OP_BF_AGAIN:
			op_bf_again(&r);
			break;
		case TX_OP_FIRST_RESERVED:
			break;
		}
		tx.op_no++;
		tx_follow_after_op();
	}
	tx_follow_end();
	if (tx.op_no == 0) /* no op's check saw the state it started from (fuzz_snap_check_start) */
		fuzz_oracle_check_dev(&tx.oracle);
	fuzz_trace("input done after %u ops", tx.op_no);
	if (!snap.full)
		/* what the input made goes within it */
		fuzz_snap_rewind(&dsnap, tx.dev, &tx.oracle);
}

NICREF_FUZZ_TARGET(tx_init, tx_one_input)

