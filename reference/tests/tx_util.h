/* What the send path's unit tests (tx_*_test.c) share: a device brought up by the reference
 * driver with one SQ stack (PD, TD, EQ, CQ, TIS, an MKey over a data region, the SQ in RDY), the
 * frames it puts on the wire captured through ops.wire_tx, send WQEs built segment by segment
 * through the public layouts (prm/layouts_wqe.h, by name), posted on the WQEBB ring (with its
 * wrap, §7.4.1.1), rung by doorbell or Blue Flame (§7.4.3.1, §7.2.2.1), and CQEs polled as
 * software does (refdrv_cq_poll, §7.12.3). The helpers do the mechanics; each test says what the
 * PRM makes it expect. Every helper is static: one copy per test file. */
#ifndef NICREF_TESTS_TX_UTIL_H
#define NICREF_TESTS_TX_UTIL_H

#include <stdint.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_mkey.h"
#include "driver_tir.h"
#include "nicref/rules_tx.h"
#include "testlib.h"

#define TX_FRAMES_MAX 64
#define TX_DATA_SIZE 0x100000u /* the data region the MKey covers */
#define TX_MKEY_TAG 0x5Au
#define TX_WQE_BYTES 1024u

struct tx_frame {
	uint8_t b[2048];
	size_t len;
	unsigned port;
};

/* The SQ as a test wants it (defaults in tx_setup_default). */
struct tx_opts {
	unsigned log_sq;     /* 2^log_sq WQEBBs */
	unsigned min_inline; /* T61 min_wqe_inline_mode */
	bool wq_signature, flush_in_error_en, rlkey;
	uint32_t user_index;
	unsigned tis_prio;
	const struct nicref_profile *profile; /* NULL: the default */
};

static struct tl_dev *tdev;
static struct {
	struct tx_opts o;
	uint32_t pd, td, tisn, sqn, mkey_index, lkey;
	struct refdrv_eq eq;
	struct refdrv_cq cq;
	uint64_t sq_buf, sq_dbr, data;
	uint16_t pc;	  /* the producer counter: the next WQEBB (§7.4.1.1) */
	unsigned bf_post; /* Blue Flame posts on register 0: even, odd, ... (§7.2.2.1) */
	struct tx_frame frames[TX_FRAMES_MAX];
	unsigned nframes, frames_lost;
} tx;

static inline void tx_capture(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	(void)ctx;
	if (tx.nframes >= TX_FRAMES_MAX || len > sizeof tx.frames[0].b) {
		tx.frames_lost++;
		return;
	}
	struct tx_frame *f = &tx.frames[tx.nframes++];
	memcpy(f->b, frame, len);
	f->len = len;
	f->port = port;
}

static inline void tx_setup_opts(const struct tx_opts *o)
{
	if (tdev) /* a test's own .init runs after its suite's (Criterion) */
		tl_down(tdev);
	memset(&tx, 0, sizeof tx);
	tx.o = *o;
	tdev = tl_up(o->profile);
	tdev->dev->core.cfg.ops.wire_tx = tx_capture; /* frames out (nicref.h) */
	tx.pd = tl_alloc_pd(tdev);
	tx.td = tl_alloc_td(tdev);
	tx.eq = tl_eq(tdev, 4, 0, 0);
	tx.cq = tl_cq(tdev, 6, tx.eq.eqn);
	cr_assert_eq(refdrv_create_tis(&tdev->d, tx.td, o->tis_prio, &tx.tisn), 0);
	/* A PA MKey (§6.1) over the data region, local read, the SQ's PD. */
	tx.data = tl_hostmem(tdev, TX_DATA_SIZE);
	struct refdrv_mkey_attr m = { .access_mode = 0,
				      .pd = tx.pd,
				      .tag = TX_MKEY_TAG,
				      .start_addr = tx.data,
				      .len = TX_DATA_SIZE };
	cr_assert_eq(refdrv_create_mkey(&tdev->d, &m, &tx.mkey_index), 0, "%s", tdev->d.error);
	tx.lkey = tx.mkey_index << 8 | TX_MKEY_TAG;
	tx.sq_buf = tl_hostmem(tdev, 64ull << o->log_sq);
	tx.sq_dbr = tl_hostmem(tdev, 8);
	struct refdrv_sq_attr a = {
		.wq = { .buf = tx.sq_buf,
			.dbr = tx.sq_dbr,
			.wq_type = 1,
			.log_wq_sz = o->log_sq,
			.log_wq_stride = 6,
			.wq_signature = o->wq_signature,
			.pd = tx.pd },
		.cqn = tx.cq.cqn,
		.tisn = tx.tisn,
		.uar = tdev->uar,
		.user_index = o->user_index,
		.min_wqe_inline_mode = o->min_inline,
		.flush_in_error_en = o->flush_in_error_en,
		.rlkey = o->rlkey,
	};
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &tx.sqn), 0, "CREATE_SQ %s (rule %s)",
		     tdev->d.error, tl_rule_of(tdev->d.last_syndrome));
	cr_assert_eq(refdrv_modify_sq(&tdev->d, tx.sqn, 0, 1), 0);
	tl_mark(&tdev->tr);
}

static inline struct tx_opts tx_default_opts(void)
{
	struct tx_opts o = {
		.log_sq = 6, .min_inline = 1, .flush_in_error_en = true, .user_index = 0x123456
	};
	return o;
}

static inline void tx_setup(void)
{
	struct tx_opts o = tx_default_opts();
	tx_setup_opts(&o);
}

static inline void tx_teardown(void)
{
	cr_expect_eq(tx.frames_lost, 0, "every frame captured");
	tl_down(tdev);
	tdev = NULL;
}

/* ---- WQEs, segment by segment (prm/layouts_wqe.h) -------------------------------------------- */

struct wqe {
	uint8_t b[TX_WQE_BYTES];
	size_t len;	/* bytes so far: whole octwords */
	uint16_t index; /* where tx_post put it */
};

static inline void seg_set(struct wqe *w, size_t at, const char *layout, const char *field,
			   uint64_t v)
{
	cr_assert_eq(refdrv_field_set(w->b + at, sizeof w->b - at, layout, field, v), 0,
		     "%s.%s = 0x%llx", layout, field, (unsigned long long)v);
}

static inline uint64_t seg_get(const uint8_t *b, size_t len, const char *layout, const char *field)
{
	return refdrv_field_get(b, len, layout, field);
}

static inline size_t round16(size_t n)
{
	return (n + 15) / 16 * 16;
}

/* T25/T26: the ctrl segment (wqe_index, sq_number and ds are filled by tx_post). */
static inline void w_ctrl(struct wqe *w, uint8_t opcode, unsigned ce)
{
	memset(w, 0, sizeof *w);
	seg_set(w, 0, "send_wqe_ctrl", "opcode", opcode);
	seg_set(w, 0, "send_wqe_ctrl", "ce", ce);
	w->len = 16;
}

/* T27/T28: the Eth segment with n inline header bytes. */
static inline void w_eth(struct wqe *w, unsigned l3cs, unsigned l4cs, unsigned mss,
			 const uint8_t *hdr, size_t n)
{
	size_t at = w->len;
	seg_set(w, at, "send_wqe_eth", "l3cs", l3cs);
	seg_set(w, at, "send_wqe_eth", "l4cs", l4cs);
	seg_set(w, at, "send_wqe_eth", "mss", mss);
	seg_set(w, at, "send_wqe_eth", "inline_header_size", n);
	memcpy(w->b + at + 0x0E, hdr, n); /* 0Ch[15:0], then the octwords from 10h */
	w->len += 16 + round16(n > 2 ? n - 2 : 0);
}

/* T38: a memory pointer. */
static inline void w_ptr(struct wqe *w, uint32_t lkey, uint64_t addr, uint32_t bc)
{
	size_t at = w->len;
	seg_set(w, at, "send_wqe_data_ptr", "byte_count", bc);
	seg_set(w, at, "send_wqe_data_ptr", "l_key", lkey);
	seg_set(w, at, "send_wqe_data_ptr", "local_address_63_32", addr >> 32);
	seg_set(w, at, "send_wqe_data_ptr", "local_address_31_0", addr & 0xFFFFFFFF);
	w->len += 16;
}

/* T39: inline data. */
static inline void w_inline(struct wqe *w, const uint8_t *d, size_t n)
{
	size_t at = w->len;
	seg_set(w, at, "send_wqe_data_inline", "inline", 1);
	seg_set(w, at, "send_wqe_data_inline", "byte_count", n);
	memcpy(w->b + at + 4, d, n);
	w->len += round16(4 + n);
}

/* Bytes written to the data region at `off`; their address. */
static inline uint64_t tx_data(uint64_t off, const uint8_t *bytes, size_t n)
{
	tl_mem_write(tdev, tx.data + off, bytes, n);
	return tx.data + off;
}

/* The signature of §9.2.3 as D-TX-8 reads it: the WQE, the SQ number (3 bytes), the index (2)
 * XOR to 0xFF. */
static inline uint8_t wqe_signature(const struct wqe *w)
{
	uint8_t x = 0;
	for (size_t i = 0; i < w->len; i++)
		x ^= w->b[i];
	x ^= (uint8_t)(tx.sqn >> 16) ^ (uint8_t)(tx.sqn >> 8) ^ (uint8_t)tx.sqn;
	x ^= (uint8_t)(w->index >> 8) ^ (uint8_t)w->index;
	return (uint8_t)(0xFF ^ x);
}

/* Fills wqe_index, sq_number, ds (and the signature when the SQ checks them) and writes the
 * WQE at the producer counter, WQEBB by WQEBB, wrapping at the ring's end (Figure 14). */
static inline uint16_t tx_post(struct wqe *w)
{
	w->index = tx.pc;
	seg_set(w, 0, "send_wqe_ctrl", "wqe_index", w->index);
	seg_set(w, 0, "send_wqe_ctrl", "sq_number", tx.sqn);
	seg_set(w, 0, "send_wqe_ctrl", "ds", w->len / 16);
	if (tx.o.wq_signature) {
		seg_set(w, 0, "send_wqe_ctrl", "signature", 0);
		seg_set(w, 0, "send_wqe_ctrl", "signature", wqe_signature(w));
	}
	unsigned bbs = (unsigned)(w->len + 63) / 64;
	for (unsigned k = 0; k < bbs; k++) {
		uint64_t slot = (uint64_t)((tx.pc + k) & ((1u << tx.o.log_sq) - 1)) * 64;
		size_t n = w->len - k * 64u < 64 ? w->len - k * 64u : 64;
		tl_mem_write(tdev, tx.sq_buf + slot, w->b + k * 64, n);
	}
	tx.pc = (uint16_t)(tx.pc + bbs);
	return w->index;
}

/* §7.4.3.1: the record (sq_wqebb_counter), then the doorbell naming the last WQE posted. */
static inline void tx_ring(const struct wqe *last)
{
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, tx.sq_dbr, true, tx.pc), 0);
	refdrv_sq_doorbell(&tdev->d, tdev->uar, 0, tx.sqn, last->index, last->b[3],
			   (unsigned)last->len / 16);
}

/* Posts one WQE and rings for it. */
static inline void tx_send(struct wqe *w)
{
	tx_post(w);
	tx_ring(w);
}

/* §7.2.2.1: the WQE posted in memory, the record, then the whole WQE through the next Blue
 * Flame buffer of register 0 (even, odd, ...): the body, then dwords 0-1, the doorbell. */
static inline void tx_send_bf(struct wqe *w)
{
	tx_post(w);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, tx.sq_dbr, true, tx.pc), 0);
	uint32_t buf = tdev->uar * 4096u + 0x800 + (tx.bf_post++ & 1) * 0x100;
	for (size_t i = 8; i < w->len; i += 4)
		nicref_bar_write32(tdev->dev, buf + (uint32_t)i, tl_get32(w->b + i));
	nicref_bar_write32(tdev->dev, buf, tl_get32(w->b));
	nicref_bar_write32(tdev->dev, buf + 4, tl_get32(w->b + 4));
}

/* The next CQE software owns (§7.12.3): 1, or 0 when the CQ is empty. */
static inline int tx_poll(uint8_t cqe[64])
{
	int rc = refdrv_cq_poll(&tdev->d, &tx.cq, cqe);
	cr_assert_geq(rc, 0, "CQ poll: %s", tdev->d.error);
	return rc;
}

#define CQE(cqe, f) seg_get((cqe), 64, "cqe64", f)
#define ERR_CQE(cqe, f) seg_get((cqe), 64, "err_cqe", f)

/* The SQ's state and counters (QUERY_SQ). */
static inline struct refdrv_wq_status tx_query(void)
{
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&tdev->d, tx.sqn, &st), 0);
	return st;
}

/* ---- Packets --------------------------------------------------------------------------------- */

/* An Ethernet II + IPv4 + UDP packet of `total` bytes (at least 42) to dmac, payload bytes i. */
static inline size_t tx_udp_packet(uint8_t *p, size_t total, uint64_t dmac)
{
	memset(p, 0, total);
	for (int i = 0; i < 6; i++)
		p[i] = (uint8_t)(dmac >> (40 - 8 * i));
	static const uint8_t rest[] = {
		0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, /* smac, IPv4 */
		0x45, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x40, 0x11,
		0x00, 0x00, 0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02, /* IPv4, UDP */
		0x04, 0xD2, 0x16, 0x2E, 0x00, 0x00, 0x00, 0x00,		    /* UDP 1234 -> 5678 */
	};
	memcpy(p + 6, rest, sizeof rest);
	p[16] = (uint8_t)((total - 14) >> 8); /* IPv4 total length */
	p[17] = (uint8_t)(total - 14);
	p[38] = (uint8_t)((total - 34) >> 8); /* UDP length */
	p[39] = (uint8_t)(total - 34);
	for (size_t i = 42; i < total; i++)
		p[i] = (uint8_t)i;
	return total;
}

#define TX_DMAC 0x020000000002ull /* a unicast address the function does not own */

/* A SEND of pkt: its first `inl` bytes inline in the Eth segment, the rest behind a memory
 * pointer into the data region at `off` (l3cs, l4cs 0: the frame is the packet, padded). */
static inline void w_send_packet(struct wqe *w, unsigned ce, const uint8_t *pkt, size_t len,
				 size_t inl, uint64_t off)
{
	w_ctrl(w, NICREF_SEND_OP_SEND, ce);
	w_eth(w, 0, 0, 0, pkt, inl);
	if (len > inl)
		w_ptr(w, tx.lkey, tx_data(off, pkt + inl, len - inl), (uint32_t)(len - inl));
}

/* The frame i captured is pkt padded with zeros to 60 bytes (§3.3.8, D-TX-2). */
static inline void tx_expect_frame(unsigned i, const uint8_t *pkt, size_t len)
{
	cr_assert_gt(tx.nframes, i, "frame %u not sent (%u)", i, tx.nframes);
	size_t want = len < 60 ? 60 : len;
	cr_expect_eq(tx.frames[i].len, want, "frame %u: %zu bytes, expected %zu", i,
		     tx.frames[i].len, want);
	cr_expect_eq(tx.frames[i].port, 1, "the function's port");
	if (tx.frames[i].len == want) {
		cr_expect_eq(memcmp(tx.frames[i].b, pkt, len), 0, "frame %u bytes", i);
		for (size_t k = len; k < want; k++)
			cr_expect_eq(tx.frames[i].b[k], 0, "padding byte %zu", k);
	}
}

#endif
