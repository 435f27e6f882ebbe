/* The wqe and sq_ring steps of docs/vectors.md ("Send path"): a send WQE built through the WQE
 * segment layouts by name (harness/driver_sq.h), in the order of PRM §7.4.4.1 (ctrl, Eth, UMR
 * segments, data segments), or given whole; then posted at the SQ's producer counter and rung.
 * The step builds the very WQE it will post while the runner only checks, with the data region
 * placement it will use, so a WQE that cannot be built, placed or counted is refused before
 * anything runs. */
#include <stdlib.h>
#include <string.h>

#include "driver_sq.h"
#include "vectors_int.h"

#define UMR_OPCODE 0x25u /* T26 */

static enum name_space ns_wqe(const char *key)
{
	return strcmp(key, "opcode") == 0 ? NS_WQE_OPCODE : NS_NONE;
}

static enum name_space ns_none(const char *key)
{
	(void)key;
	return NS_NONE;
}

/* A segment that could not be built: the library lacks its layout, or the WQE is too long. */
static int seg_refused(struct run *r, const char *field, enum refdrv_wqe_seg seg,
		       const struct refdrv_wqe *w)
{
	vbad(r, field, "%s (layout %s, PRM §7.4.4.1)", w->error ? w->error : "cannot be built",
	     refdrv_wqe_layout_name(seg));
	return -1;
}

/* The fields obj names, into the segment at off of n bytes. */
static int seg_fields(struct run *r, const char *what, enum refdrv_wqe_seg seg,
		      struct refdrv_wqe *w, long off, size_t n, const json_t *obj,
		      ns_of_fn ns_of, const char *skip)
{
	if (!obj)
		return 0;
	return vec_set_fields(r, what, refdrv_wqe_layout(seg), obj, w->b + off, n, ns_of, skip);
}

/* The Eth segment: inline_header, then its fields by name. */
static int wqe_eth(struct run *r, const json_t *eth, struct refdrv_wqe *w)
{
	uint8_t hdr[REFDRV_WQE_MAX];
	const json_t *ih = json_object_get(eth, "inline_header");
	long n = 0;
	if (ih && (n = vec_hex_bytes(r, "eth.inline_header", ih, sizeof hdr, true)) < 0)
		return -1;
	if (n)
		hex_parse(json_string_value(ih), hdr, sizeof hdr);
	long off = refdrv_wqe_eth(w, hdr, (size_t)n);
	if (off < 0)
		return seg_refused(r, "eth", REFDRV_SEG_ETH, w);
	return seg_fields(r, "eth", REFDRV_SEG_ETH, w, off, w->len - (size_t)off, eth, ns_none,
			  "inline_header");
}

/* The UMR segments (T31): control, MKey context, then the translations inline (klm, mtt) or
 * through a pointer. */
static int wqe_umr(struct run *r, const json_t *umr, unsigned opcode, struct refdrv_wqe *w)
{
	static const struct {
		const char *key;
		enum refdrv_wqe_seg seg;
	} lists[] = { { "klm", REFDRV_SEG_KLM }, { "mtt", REFDRV_SEG_MTT } };
	if (opcode != UMR_OPCODE) {
		vbad(r, "umr", "goes with opcode UMR (0x25, PRM T26); give another WQE as hex");
		return -1;
	}
	const json_t *ptr = json_object_get(umr, "pointer");
	if (!!json_object_get(umr, "klm") + !!json_object_get(umr, "mtt") + !!ptr > 1) {
		vbad(r, "umr", "klm, mtt and pointer are the translations inline or through a pointer "
			       "(PRM T33 inline): give at most one");
		return -1;
	}
	long off = refdrv_wqe_seg(w, REFDRV_SEG_UMR_CTRL);
	if (off < 0)
		return seg_refused(r, "umr.ctrl", REFDRV_SEG_UMR_CTRL, w);
	if (seg_fields(r, "umr.ctrl", REFDRV_SEG_UMR_CTRL, w, off, w->len - (size_t)off,
		       json_object_get(umr, "ctrl"), ns_none, NULL))
		return -1;
	if ((off = refdrv_wqe_seg(w, REFDRV_SEG_MKEY_CTX)) < 0)
		return seg_refused(r, "umr.mkey_ctx", REFDRV_SEG_MKEY_CTX, w);
	if (seg_fields(r, "umr.mkey_ctx", REFDRV_SEG_MKEY_CTX, w, off, w->len - (size_t)off,
		       json_object_get(umr, "mkey_ctx"), ns_none, NULL))
		return -1;
	if (ptr) {
		if ((off = refdrv_wqe_seg(w, REFDRV_SEG_UMR_PTR)) < 0)
			return seg_refused(r, "umr.pointer", REFDRV_SEG_UMR_PTR, w);
		return seg_fields(r, "umr.pointer", REFDRV_SEG_UMR_PTR, w, off,
				  w->len - (size_t)off, ptr, ns_none, NULL);
	}
	for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
		const json_t *list = json_object_get(umr, lists[k].key), *e;
		const struct nicref_layout *l = refdrv_wqe_layout(lists[k].seg);
		size_t i, n = json_array_size(list);
		if (!list)
			continue;
		if ((off = refdrv_wqe_entries(w, lists[k].seg, n)) < 0)
			return seg_refused(r, lists[k].key, lists[k].seg, w);
		json_array_foreach(list, i, e)
		{
			char what[32];
			snprintf(what, sizeof what, "umr.%s[%zu]", lists[k].key, i);
			if (seg_fields(r, what, lists[k].seg, w, off + (long)(i * l->size), l->size, e,
				       ns_none, NULL))
				return -1;
		}
	}
	return 0;
}

/* One pointer data segment (T38): its bytes placed in the data region (or at addr), written
 * there when running. */
static int wqe_pointer(struct run *r, const json_t *it, const char *at, struct refdrv_wqe *w)
{
	static uint8_t buf[MAX_TX_DATA];
	char f[64];
	const json_t *bytes = json_object_get(it, "bytes"), *jl = json_object_get(it, "lkey");
	const json_t *ja = json_object_get(it, "addr"), *jb = json_object_get(it, "byte_count");
	long n = 0;
	uint64_t lkey = r->sq && r->tx.up ? r->sq->lkey : 0, addr, bc;
	if (!bytes && (!ja || !jb)) {
		vbad(r, at, "a pointer segment (PRM T38) gives \"bytes\" (placed in the data region), "
			    "or \"addr\" and \"byte_count\" of memory the test wrote");
		return -1;
	}
	snprintf(f, sizeof f, "%s.bytes", at);
	if (bytes && (n = vec_hex_bytes(r, f, bytes, sizeof buf, false)) < 0)
		return -1;
	snprintf(f, sizeof f, "%s.lkey", at);
	if (jl && !(json_is_string(jl) && !strcmp(json_string_value(jl), "data")) &&
	    vnum_at(r, f, jl, NS_NONE, 32, &lkey))
		return -1;
	snprintf(f, sizeof f, "%s.addr", at);
	if (ja) {
		if (vnum_at(r, f, ja, NS_NONE, 64, &addr) || (n && vec_range_ok(r, f, addr, (uint64_t)n)))
			return -1;
	} else {
		/* The next free offset of the data region, 64-byte aligned. */
		uint64_t o = (r->tx.data_next + 63) & ~(uint64_t)63;
		if (o > r->tx.data_size || (uint64_t)n > r->tx.data_size - o) {
			snprintf(f, sizeof f, "%s.bytes", at);
			vbad(r, f, "%ld bytes do not fit the data region (0x%llx bytes at 0x%llx, 0x%llx "
				   "of them taken by the test's earlier segments): give tx_setup a larger "
				   "data.size", n, (unsigned long long)r->tx.data_size,
			     (unsigned long long)r->tx.data_addr, (unsigned long long)r->tx.data_next);
			return -1;
		}
		addr = r->tx.data_addr + o;
		r->tx.data_next = o + (uint64_t)n;
	}
	snprintf(f, sizeof f, "%s.byte_count", at);
	if (jb ? vnum_at(r, f, jb, NS_NONE, 31, &bc) : (bc = (uint64_t)n, 0)) /* T38 [30:0] */
		return -1;
	if (!r->checking && n) {
		hex_parse(json_string_value(bytes), buf, sizeof buf);
		if (vec_host_write(r, addr, buf, (size_t)n) != 0) {
			snprintf(f, sizeof f, "%s.bytes", at);
			vec_host_refused(r, f);
			return -1;
		}
	}
	if (refdrv_wqe_ptr(w, (uint32_t)lkey, addr, (uint32_t)bc) < 0)
		return seg_refused(r, at, REFDRV_SEG_DATA, w);
	return 0;
}

static int wqe_data(struct run *r, const json_t *list, struct refdrv_wqe *w);

int vec_wqe_data(struct run *r, const json_t *list, struct refdrv_wqe *w)
{
	return wqe_data(r, list, w);
}

static int wqe_data(struct run *r, const json_t *list, struct refdrv_wqe *w)
{
	size_t i;
	json_t *it;
	json_array_foreach(list, i, it)
	{
		char at[32], f[48];
		uint8_t tmp[REFDRV_WQE_MAX];
		const json_t *inl = json_object_get(it, "inline");
		snprintf(at, sizeof at, "data[%zu]", i);
		if (!inl) {
			if (wqe_pointer(r, it, at, w))
				return -1;
			continue;
		}
		if (json_object_size(it) != 1) {
			vbad(r, at, "an inline data segment (PRM T39) has \"inline\", its bytes, only");
			return -1;
		}
		snprintf(f, sizeof f, "%s.inline", at);
		long n = vec_hex_bytes(r, f, inl, sizeof tmp, true);
		if (n < 0)
			return -1;
		if (n)
			hex_parse(json_string_value(inl), tmp, sizeof tmp);
		if (refdrv_wqe_inline(w, tmp, (size_t)n) < 0)
			return seg_refused(r, at, REFDRV_SEG_INLINE, w);
	}
	return 0;
}

/* The WQE of a wqe step, built from its segments or given whole: 0, or -1 after vbad. */
static int wqe_segments(struct run *r, const json_t *s, struct refdrv_wqe *w)
{
	const json_t *op = json_object_get(s, "opcode");
	uint64_t opcode;
	if (!op) {
		vbad(r, NULL, "a WQE built from segments names its opcode (NOP, SEND, LSO, UMR or a "
			      "number, PRM T26), or is given whole as hex");
		return -1;
	}
	if (vnum_at(r, "opcode", op, NS_WQE_OPCODE, 8, &opcode))
		return -1;
	if (refdrv_wqe_begin(w, (unsigned)opcode, 0, 0) < 0)
		return seg_refused(r, "ctrl", REFDRV_SEG_CTRL, w);
	const json_t *eth = json_object_get(s, "eth"), *umr = json_object_get(s, "umr");
	if ((eth && wqe_eth(r, eth, w)) || (umr && wqe_umr(r, umr, (unsigned)opcode, w)) ||
	    wqe_data(r, json_object_get(s, "data"), w))
		return -1;
	struct refdrv_wqe_ctrl none = { 0 };
	if (refdrv_wqe_finish(w, &none, false) != 0) {
		vbad(r, NULL, "the WQE is %zu bytes: ds (6 bits, PRM T26) counts at most %u octowords; "
			      "give a longer WQE whole as hex", w->len, REFDRV_WQE_DS_MAX);
		return -1;
	}
	return 0;
}

/* A WQE given whole: its bytes exactly, nothing filled in (the vector owns every byte, a
 * deliberately wrong index, SQ number or signature included), so no ctrl fields beside it. */
static int wqe_whole(struct run *r, const json_t *s, struct refdrv_wqe *w)
{
	static const char *const built[] = { "opcode", "ctrl", "eth", "data", "umr" };
	for (size_t i = 0; i < sizeof built / sizeof built[0]; i++)
		if (json_object_get(s, built[i])) {
			vbad(r, "hex", "the WQE is given whole or built from segments, not both (drop "
				       "%s)", built[i]);
			return -1;
		}
	memset(w, 0, sizeof *w);
	long n = vec_hex_bytes(r, "hex", json_object_get(s, "hex"), sizeof w->b, false);
	if (n < 0)
		return -1;
	if (n < 16) {
		vbad(r, "hex", "%ld bytes: a WQE starts with its 16-byte ctrl segment (PRM T25)", n);
		return -1;
	}
	hex_parse(json_string_value(json_object_get(s, "hex")), w->b, sizeof w->b);
	w->len = (size_t)n;
	return 0;
}

static int wqe_build(struct run *r, const json_t *s, struct refdrv_wqe *w)
{
	const json_t *ctrl = json_object_get(s, "ctrl");
	if (json_object_get(s, "hex"))
		return wqe_whole(r, s, w);
	if (wqe_segments(r, s, w))
		return -1;
	/* What only the device's choices fix (the producer counter, the SQ's number), then the
	 * vector's ctrl fields, then the signature over them (§9.2.3) when the SQ checks it. */
	bool up = !r->checking && r->tx.up;
	if (refdrv_wqe_address(w, up ? r->sq->pc : 0, up ? r->sq->sqn : 0))
		return seg_refused(r, "ctrl", REFDRV_SEG_CTRL, w);
	if (seg_fields(r, "ctrl", REFDRV_SEG_CTRL, w, 0, refdrv_wqe_layout(REFDRV_SEG_CTRL)->size,
		       ctrl, ns_wqe, NULL))
		return -1;
	if (r->tx.wq_signature && !json_object_get(ctrl, "signature"))
		refdrv_wqe_sign(w);
	return 0;
}

enum ring { RING_DB, RING_BF, RING_RECORD, RING_NONE };

static int ring_of(struct run *r, const json_t *s, bool none_ok, enum ring *out)
{
	static const char *const names[] = { "db", "bf", "record", "none" };
	const json_t *v = json_object_get(s, "ring");
	*out = RING_DB;
	if (!v)
		return 0;
	for (int i = 0; i < (none_ok ? 4 : 3); i++)
		if (json_is_string(v) && !strcmp(json_string_value(v), names[i])) {
			*out = (enum ring)i;
			return 0;
		}
	vbad(r, "ring", "not one of db, bf, record%s", none_ok ? ", none" : "");
	return -1;
}

/* The record, then the doorbell or Blue Flame of the last WQE posted, as ring says. */
static void ring_sq(struct run *r, enum ring ring)
{
	if (ring == RING_NONE)
		return;
	if (ring == RING_BF && ((r->sq->last_len + 63) & ~(size_t)63) > refdrv_bf_buffer_size(r->drv)) {
		vbad(r, "ring", "the WQE is %zu bytes, larger than a Blue Flame buffer of this device "
				"(%u bytes, HCA_CAP.log_bf_reg_size): it cannot be posted through Blue "
				"Flame (PRM §7.2.2.1)", r->sq->last_len, refdrv_bf_buffer_size(r->drv));
		return;
	}
	if (refdrv_sq_record(r->drv, r->sq) != 0) {
		vec_host_refused(r, "the send doorbell record");
		return;
	}
	if (ring == RING_DB)
		refdrv_sq_ring(r->drv, r->sq);
	else if (ring == RING_BF)
		(void)refdrv_sq_ring_bf(r->drv, r->sq); /* its size was checked above */
}

void st_wqe(struct run *r, const json_t *s)
{
	struct refdrv_wqe w;
	enum ring ring;
	if (!vec_tx_ready(r, "a wqe") || ring_of(r, s, true, &ring) || wqe_build(r, s, &w))
		return;
	size_t bbs = (w.len + 63) / 64;
	if (bbs > 1u << r->tx.log_sq_size) {
		vbad(r, NULL, "the WQE takes %zu WQEBBs, more than the SQ's %u (tx_setup "
			      "log_sq_size %u)", bbs, 1u << r->tx.log_sq_size, r->tx.log_sq_size);
		return;
	}
	r->tx.posted = true;
	if (r->checking)
		return;
	if (refdrv_sq_write(r->drv, r->sq, w.b, w.len) != 0) {
		vec_host_refused(r, "the WQE");
		return;
	}
	ring_sq(r, ring);
}

void st_sq_ring(struct run *r, const json_t *s)
{
	enum ring ring;
	if (!vec_tx_ready(r, "an sq_ring") || ring_of(r, s, false, &ring))
		return;
	if (!r->tx.posted) {
		vbad(r, NULL, "no WQE was posted before this sq_ring (it rings for the last one)");
		return;
	}
	if (!r->checking)
		ring_sq(r, ring);
}

