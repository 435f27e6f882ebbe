/* The tx target's WQEs (fuzzers/tx_wqe.h): built segment by segment through the layouts
 * (§7.4.4.1, T25-T41), or raw bytes with their fixes, written at the producer counter. */
#include <string.h>

#include "driver_sq.h"
#include "nicref/nicref.h"
#include "nicref/rules_tx.h"
#include "tx_fields.h"
#include "tx_hdrs.h"
#include "tx_ops.h"
#include "tx_wqe.h"

#define UMR_LIST_AT 0xF0000u /* where a UMR pointer's list goes in the data region */
#define PAYLOAD_GAP 0x400u   /* room before the payload for header bytes not inlined */

/* A write into the data region, remembered for the next light restore. */
void tx_wqe_data_write(struct tx_wqe_env *env, uint64_t addr, const void *p, size_t n)
{
	NICREF_FUZZ_CHECK(nicref_hostmem_write(env->dev, addr, p, n) == 0);
	if (!env->data_hi || addr < env->data_lo)
		env->data_lo = addr;
	if (addr + n > env->data_hi)
		env->data_hi = addr + n;
}

struct wb {
	uint8_t b[TX_WQE_LEN_MAX + 64];
	size_t len;
	bool bad; /* longer than ds can count */
};
static struct wb wqe; /* the WQE being built (scratch) */

static size_t round16(size_t n)
{
	return (n + 15) / 16 * 16;
}

/* n more bytes (whole octowords) for a segment: its offset, or -1 past the largest WQE. */
static long wb_add(struct wb *w, size_t n)
{
	if (w->len > TX_WQE_LEN_MAX || n > TX_WQE_LEN_MAX - w->len) { /* no wrap */
		w->bad = true;
		return -1;
	}
	size_t at = w->len; /* at + n <= TX_WQE_LEN_MAX: within b */
	memset(w->b + at, 0, n);
	w->len += n;
	return (long)at;
}

static void wb_ctrl(const struct tx_wqe_env *env, struct wb *w, unsigned opcode)
{
	w->len = 0;
	w->bad = false;
	(void)wb_add(w, 16);
	txf_set(tx_fld.opcode, w->b, 16, opcode);
	txf_set(tx_fld.wqe_index, w->b, 16, env->st->pc);
	txf_set(tx_fld.sq_number, w->b, 16, env->st->sqn);
}

/* T27/T28: the Eth segment, n header bytes from 0Eh over as many octowords as they need. */
static long wb_eth(struct wb *w, const uint8_t *hdr, size_t n)
{
	size_t at = tx_fld.hdrs->bit_offset / 8;
	long e = wb_add(w, round16(at + n) > 16 ? round16(at + n) : 16);
	if (e < 0)
		return -1;
	txf_set(tx_fld.ihs, w->b + e, w->len - (size_t)e, n);
	memcpy(w->b + e + at, hdr, n);
	return e;
}

static void wb_ptr(struct wb *w, uint32_t lkey, uint64_t addr, uint32_t bc)
{
	long p = wb_add(w, 16);
	if (p < 0)
		return;
	txf_set(tx_fld.p_bc, w->b + p, 16, bc);
	txf_set(tx_fld.p_lkey, w->b + p, 16, lkey);
	txf_set(tx_fld.p_ah, w->b + p, 16, addr >> 32);
	txf_set(tx_fld.p_al, w->b + p, 16, addr & 0xFFFFFFFFu);
}

/* T39: bit 31 set, byte_count, the bytes from 04h. */
static void wb_inline(struct wb *w, const uint8_t *d, size_t n)
{
	long p = wb_add(w, round16(4 + n));
	if (p < 0)
		return;
	txf_set(tx_fld.p_inline, w->b + p, 16, 1);
	txf_set(tx_fld.i_bc, w->b + p, 16, n);
	if (n)
		memcpy(w->b + p + 4, d, n);
}

/* T26 signature, §9.2.3: when the SQ checks them (D-TX-8, refdrv_wqe_signature). */
static void sign(const struct tx_wqe_env *env, struct wb *w)
{
	if (!env->signature)
		return;
	w->b[tx_fld.signature->bit_offset / 8] =
		refdrv_wqe_signature(w->b, w->len, env->st->sqn,
				     (uint16_t)txf_get(tx_fld.wqe_index, w->b, 16));
}

/* ctrl: bits 1:0 ce, bit 2 se, bits 4:3 fm; ds counts the octowords (T26). */
static void wb_finish_post(struct tx_wqe_env *env, struct wb *w, uint8_t ctrl)
{
	if (w->bad)
		return;
	txf_set(tx_fld.ce, w->b, 16, ctrl & 3u);
	txf_set(tx_fld.se, w->b, 16, (ctrl >> 2) & 1u);
	txf_set(tx_fld.fm, w->b, 16, (ctrl >> 3) & 3u);
	txf_set(tx_fld.ds, w->b, 16, w->len / 16);
	sign(env, w);
	(void)refdrv_sq_write(env->drv, env->st, w->b, w->len);
}

static uint32_t key_of(const struct tx_wqe_env *env, unsigned sel)
{
	switch (sel & 3u) {
	case 0:
		return env->st->lkey;
	case 1:
		return env->umr_key;
	case 2:
		return env->st->lkey ^ 0x11; /* the data MKey's index, another tag */
	default:
		return 0;
	}
}

static void build_nop(struct tx_wqe_env *env, struct reader *r, uint8_t ctrl)
{
	unsigned pad = rd8(r) % 4u;
	wb_ctrl(env, &wqe, NICREF_SEND_OP_NOP);
	for (unsigned i = 0; i < pad; i++)
		wb_inline(&wqe, NULL, 0); /* §7.2.2.1 zero-length data segments */
	wb_finish_post(env, &wqe, ctrl);
}

static void build_send(struct tx_wqe_env *env, struct reader *r, uint8_t ctrl, bool lso)
{
	const struct refdrv_sq_stack *st = env->st;
	uint8_t tmpl = rd8(r), var = rd8(r), cs = rd8(r), ihs_sel = rd8(r);
	uint32_t plen = rdn(r, 2), mss = rdn(r, 2);
	uint8_t segs = rd8(r);
	uint32_t poff = rdn(r, 2);
	uint8_t key = rd8(r), nmut = rd8(r) % 8u;
	size_t payload = lso ? plen + plen / 16 : plen % 9800u;
	struct tx_hdrs h;
	tx_hdrs_build(&h, env->own_mac, tmpl, var, cs, payload);
	for (unsigned i = 0; i < nmut; i++) {
		uint8_t pos = rd8(r), val = rd8(r);
		h.b[pos % h.len] = val;
	}
	size_t H = h.len, total = H + payload, ihs = tx_hdrs_inline_size(&h, ihs_sel, total);
	/* The payload sits in the data region at P0; the packet's bytes after the inline headers
	 * are gathered from S on: the headers not inlined are written just before P0, the payload
	 * bytes inlined are read from P0. */
	uint64_t P0 = st->a.data_addr + PAYLOAD_GAP + (uint64_t)poff * 16 % (TX_DATA_BYTES / 2), S;
	uint8_t inl[TX_HDR_MAX + 128];
	memcpy(inl, h.b, ihs < H ? ihs : H);
	if (ihs <= H) {
		S = P0 - (H - ihs);
		if (H > ihs)
			tx_wqe_data_write(env, S, h.b + ihs, H - ihs);
	} else {
		NICREF_FUZZ_CHECK(nicref_hostmem_read(env->dev, P0, inl + H, ihs - H) == 0);
		S = P0 + (ihs - H);
	}
	struct wb *w = &wqe;
	wb_ctrl(env, w, lso ? NICREF_SEND_OP_LSO : NICREF_SEND_OP_SEND);
	long e = wb_eth(w, inl, ihs);
	if (e < 0)
		return;
	txf_set(tx_fld.l3cs, w->b + e, 16, cs & 1u);
	txf_set(tx_fld.l4cs, w->b + e, 16, (cs >> 1) & 1u);
	if (lso || (cs >> 7))
		txf_set(tx_fld.mss, w->b + e, 16, mss);
	/* The rest in segs & 7 data segments, inline ones where they fit. */
	size_t R = total - ihs;
	unsigned nseg = segs & 7u;
	uint64_t at = S;
	for (unsigned i = 0; i < nseg && R; i++) {
		size_t piece = i + 1 == nseg ? R : R / (nseg - i);
		if (!piece)
			continue;
		bool inl_seg = i < 5 && ((segs >> (3 + i)) & 1u);
		if (inl_seg && piece <= 256 && w->len + round16(4 + piece) <= TX_WQE_LEN_MAX) {
			uint8_t d[256];
			NICREF_FUZZ_CHECK(nicref_hostmem_read(env->dev, at, d, piece) == 0);
			wb_inline(w, d, piece);
		} else {
			uint32_t bc = (uint32_t)piece;
			uint64_t addr = at;
			if (i == 0 && ((key >> 2) & 1u))
				bc = 0; /* T38: 2 GB */
			if ((key & 3u) == 1)
				addr = at - S + (uint64_t)poff * 16 % 0x1000; /* the UMR MKey's VAs */
			if (i == 0 && ((key >> 3) & 1u))
				addr = st->a.data_addr + TX_DATA_BYTES - 8; /* runs past the MKey */
			wb_ptr(w, key_of(env, key), addr, bc);
		}
		at += piece;
		R -= piece;
	}
	wb_finish_post(env, w, ctrl);
}

static void build_umr(struct tx_wqe_env *env, struct reader *r, uint8_t ctrl)
{
	const struct refdrv_sq_stack *st = env->st;
	/* T33 MkeyCtx bit mask: len, log_page_size, start_addr, mkey[7:0], lr, lw, rr, rw, free;
	 * then a reserved bit */
	static const unsigned mask_bits[10] = { 0, 1, 6, 13, 17, 18, 19, 20, 29, 2 };
	uint8_t flags = rd8(r), n = rd8(r) % 9u, off = rd8(r);
	uint32_t msel = rdn(r, 2), start = rdn(r, 2), len = rdn(r, 2);
	uint8_t access = rd8(r);
	uint64_t mask = 0;
	for (unsigned i = 0; i < 10; i++)
		if ((msel >> i) & 1u)
			mask |= 1ull << mask_bits[i];
	bool inl = flags & 1u;
	uint32_t count = (flags >> 6) & 1u ? n : (n + 3u) / 4u * 4u;
	/* umr_mkey: the UMR MKey, the data MKey, the UMR MKey with another tag, 0 */
	static const uint8_t umr_keys[4] = { 1, 0, 1, 3 };
	uint32_t ukey = key_of(env, umr_keys[(flags >> 4) & 3u]);
	if (((flags >> 4) & 3u) == 2)
		ukey ^= 0x5A;
	struct wb *w = &wqe;
	wb_ctrl(env, w, NICREF_SEND_OP_UMR);
	txf_set(tx_fld.umr_mkey, w->b, 16, ukey);
	long u = wb_add(w, 0x30), m = wb_add(w, 0x40); /* T31: 10h-3Fh, 40h-7Fh */
	if (u < 0 || m < 0)
		return;
	uint8_t *us = w->b + u, *ms = w->b + m;
	txf_set(tx_fld.u_inline, us, 0x30, inl);
	txf_set(tx_fld.u_check_free, us, 0x30, (flags >> 1) & 3u);
	txf_set(tx_fld.u_off_en, us, 0x30, (flags >> 3) & 1u);
	txf_set(tx_fld.u_off, us, 0x30, off);
	txf_set(tx_fld.u_size, us, 0x30, count);
	txf_set(tx_fld.u_mask, us, 0x30, mask);
	txf_set(tx_fld.m_lr, ms, 0x40, access & 1u);
	txf_set(tx_fld.m_lw, ms, 0x40, (access >> 1) & 1u);
	txf_set(tx_fld.m_free, ms, 0x40, (access >> 2) & 1u);
	txf_set(tx_fld.m_tag, ms, 0x40, (access >> 3) & 1u ? access : TX_UMR_TAG);
	txf_set(tx_fld.m_start, ms, 0x40, (uint64_t)start << 4);
	txf_set(tx_fld.m_len, ms, 0x40, (uint64_t)len << 4);
	uint8_t list[12 * 16];
	memset(list, 0, sizeof list);
	for (unsigned i = 0; i < n; i++) {
		uint8_t ks = rd8(r);
		uint32_t addr = rdn(r, 2), bc = rdn(r, 2);
		uint64_t va = st->a.data_addr + (uint64_t)addr * 16;
		uint8_t *e = list + 16 * i;
		txf_set(tx_fld.k_bc, e, 16, bc == 0xFFFF ? 0x80000001u : bc); /* T37: up to 2 GB */
		txf_set(tx_fld.k_mkey, e, 16, key_of(env, ks));
		txf_set(tx_fld.k_ah, e, 16, va >> 32);
		txf_set(tx_fld.k_al, e, 16, va & 0xFFFFFFFFu);
	}
	if (inl) {
		/* T33: the KLM list padded to 64 bytes */
		long l = wb_add(w, (16u * n + 63) / 64 * 64);
		if (l < 0)
			return;
		memcpy(w->b + l, list, 16u * n);
	} else {
		long p = wb_add(w, 16);
		if (p < 0)
			return;
		uint64_t la = st->a.data_addr + UMR_LIST_AT + ((flags >> 7) & 1u ? 16 : 0);
		tx_wqe_data_write(env, la, list, sizeof list);
		txf_set(tx_fld.up_mkey, w->b + p, 16, st->lkey);
		txf_set(tx_fld.up_ah, w->b + p, 16, la >> 32);
		txf_set(tx_fld.up_al, w->b + p, 16, la & 0xFFFFFFFFu);
	}
	wb_finish_post(env, w, ctrl);
}

void tx_wqe_build(struct tx_wqe_env *env, struct reader *r)
{
	uint8_t kind = rd8(r), ctrl = rd8(r);
	switch (kind & 3u) {
	case TX_KIND_NOP:
		build_nop(env, r, ctrl);
		break;
	case TX_KIND_SEND:
		build_send(env, r, ctrl, false);
		break;
	case TX_KIND_LSO:
		build_send(env, r, ctrl, true);
		break;
	default:
		build_umr(env, r, ctrl);
		break;
	}
}

void tx_wqe_raw(struct tx_wqe_env *env, struct reader *r)
{
	const struct refdrv_sq_stack *st = env->st;
	struct wb *w = &wqe;
	uint8_t n = rd8(r), flags = rd8(r);
	w->len = 16u * (n % 63u + 1u);
	for (size_t i = 0; i < w->len; i++)
		w->b[i] = rd8(r);
	if (flags & 1u) {
		txf_set(tx_fld.wqe_index, w->b, 16, st->pc);
		txf_set(tx_fld.sq_number, w->b, 16, st->sqn);
	}
	if (flags & 2u)
		txf_set(tx_fld.ds, w->b, 16, w->len / 16);
	if ((flags & 4u) && w->len >= 32) {
		/* The data segments after the Eth segment and its inline headers (T28, T38). */
		size_t ihs = (size_t)txf_get(tx_fld.ihs, w->b + 16, 16);
		size_t o = 32 + (ihs > 2 ? round16(ihs - 2) : 0);
		for (; o + 16 <= w->len; o += 16) {
			if (txf_get(tx_fld.p_inline, w->b + o, 16)) {
				o += round16(4 + (size_t)txf_get(tx_fld.i_bc, w->b + o, 16)) - 16;
				continue;
			}
			uint64_t a = st->a.data_addr +
				     txf_get(tx_fld.p_al, w->b + o, 16) % TX_DATA_BYTES;
			txf_set(tx_fld.p_lkey, w->b + o, 16, st->lkey);
			txf_set(tx_fld.p_ah, w->b + o, 16, a >> 32);
			txf_set(tx_fld.p_al, w->b + o, 16, a & 0xFFFFFFFFu);
		}
	}
	if (flags & 8u)
		sign(env, w);
	(void)refdrv_sq_write(env->drv, env->st, w->b, w->len);
}
