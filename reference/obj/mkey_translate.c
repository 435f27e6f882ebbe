/* MKey address translation and protection checks (PRM §6.1, §6.1.1, §6.2, §6.3), the internal
 * API of obj/mkey.h. Decisions: docs/mkey.md (D-MKC-*).
 *
 * A request {key, pd, va, len, access} is checked on its MKey in the order of §6.1 (the key,
 * the PD, the boundary, the operation) and then translated by the MKey's access mode:
 *  - PA: no translation (T10 "VA=PA").
 *  - MTT: each entry translates a naturally aligned page of 2^log_entity_size bytes (§6.1
 *    "Direct mode"), so the entry of va is (va >> s) - (start_addr >> s) and the offset in the
 *    page is va's own (D-MKC-9).
 *  - KLM: the region is the concatenation of the KLM segments {byte_count, mkey, address};
 *    each part of the request falling in a segment is a new request on that segment's MKey at
 *    address + offset, checked again in full ("memory protection checks must pass on ALL
 *    indirect MKeys as well as the direct MKey", §6.1 "Indirect mode").
 * The walk runs twice: first to check everything (no piece escapes when a later part fails,
 * D-MKC-10), then to hand out the pieces. It recurses at most HCA_CAP.max_indirection deep. */
#include "cmd/ctl_dev.h"

struct walk {
	const struct nicref_dev *dev;
	const struct mkey_req *r;
	unsigned max_indirection;
	mkey_piece_fn fn; /* NULL in the checking pass */
	void *ctx;
	/* The checking pass's pieces: how many, and the first. A request of one piece (a receive
	 * buffer within a page) is handed out from here, without a second walk. */
	unsigned npieces;
	uint64_t pa0, len0;
	/* mkey_translate_passes: the MKey index looked for (0: none, the reserved LKey's), and
	 * whether the walk met it. */
	uint32_t watch;
	bool met;
};

static int emit(struct walk *w, uint64_t pa, uint64_t len)
{
	if (!len)
		return 0;
	if (w->fn)
		return w->fn(w->ctx, pa, len);
	if (w->npieces++ == 0) {
		w->pa0 = pa;
		w->len0 = len;
	}
	return 0;
}

/* §6.1 step 2 "Operation check": every access right the request needs (T10 lr/lw/rr/rw). */
static bool rights_ok(const struct mkey *m, unsigned access)
{
	return (!(access & MKEY_LOCAL_READ) || m->lr) && (!(access & MKEY_LOCAL_WRITE) || m->lw) &&
	       (!(access & MKEY_REMOTE_READ) || m->rr) && (!(access & MKEY_REMOTE_WRITE) || m->rw);
}

/* §6.1 step 1 "Boundary check": [va, va + len) inside the region [start_addr, start_addr +
 * len), or [start_addr, start_addr + 2^64) with length64 (T10 0Ch[31]). Offsets are taken
 * modulo 2^64 with length64 (the region then covers every address once). */
static bool bounds_ok(const struct mkey *m, uint64_t va, uint64_t len)
{
	uint64_t off = va - m->start_addr;
	if (m->length64)
		return len == 0 || len - 1 <= UINT64_MAX - off;
	return va >= m->start_addr && off <= m->len && len <= m->len - off;
}

static int walk(struct walk *w, uint32_t key, uint64_t va, uint64_t len, unsigned depth);

/* Direct mode (§6.1): page by page through the delivered MTT entries. */
static int walk_mtt(struct walk *w, const struct mkey *m, uint64_t va, uint64_t len)
{
	unsigned s = m->log_entity_size;
	uint64_t page = 1ull << s, mask = page - 1;
	uint64_t first = m->start_addr >> s;
	while (len) {
		uint64_t idx = (va >> s) - first;
		/* Only the entries delivered at create translate (D-MKC-8). */
		if (idx >= 2ull * m->octwords)
			return MKEY_ERR_UNMAPPED;
		uint64_t e = m->t[idx];
		/* T227 0Ch[31] pg_access: rd_en/wr_en of the entry are the page's rights (T12). */
		if (m->pg_access) {
			bool reads = w->r->access & (MKEY_LOCAL_READ | MKEY_REMOTE_READ);
			bool writes = w->r->access & (MKEY_LOCAL_WRITE | MKEY_REMOTE_WRITE);
			if ((reads && !(e & 1)) || (writes && !(e & 2)))
				return MKEY_ERR_PAGE_ACCESS;
		}
		uint64_t in_page = page - (va & mask);
		uint64_t n = len < in_page ? len : in_page;
		/* T12: the ptag bits below the page size are not part of the tag. */
		int rc = emit(w, (e & ~mask) | (va & mask), n);
		if (rc)
			return rc;
		va += n;
		len -= n;
	}
	return MKEY_OK;
}

/* Indirect mode (§6.1, §6.1.1): find the segment of each part, recurse into its MKey. The
 * first segment is found by binary search over the start offsets (obj/mkey.h); the next ones
 * follow in order. */
static int walk_klm(struct walk *w, const struct mkey *m, uint64_t va, uint64_t len,
		    unsigned depth)
{
	uint64_t off = va - m->start_addr;
	const uint64_t *start = mkey_klm_starts_c(m);
	/* The last entry starting at or before off (zero-length entries share their start). */
	uint32_t lo = 0, hi = m->octwords;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (start[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t k = lo ? lo - 1 : 0; k < m->octwords && len; k++) {
		uint64_t bc = m->t[2 * k] >> 32, pos = start[k];
		if (off >= pos && off < pos + bc) {
			uint64_t sub = off - pos;
			uint64_t n = len < bc - sub ? len : bc - sub;
			/* §6.1.1: "If the number of translation indirections exceeds the configured
			 * limit, the address translation operation terminates with an error"
			 * (T145 20h[31:24] max_indirection; D-MKC-7). */
			if (depth + 1 > w->max_indirection)
				return MKEY_ERR_DEPTH;
			uint32_t key = (uint32_t)m->t[2 * k];
			int rc = walk(w, key, m->t[2 * k + 1] + sub, n, depth + 1);
			if (rc)
				return rc;
			off += n;
			len -= n;
		}
	}
	return len ? MKEY_ERR_UNMAPPED : MKEY_OK;
}

static int walk(struct walk *w, uint32_t key, uint64_t va, uint64_t len, unsigned depth)
{
	const struct mkey_req *r = w->r;
	/* §6.3: the reserved LKey maps one to one, only where the WQ's rlkey allows it; an LKey
	 * serves local accesses only (D-MKC-3). */
	if (key == MKEY_RESD_LKEY) {
		if (!r->rlkey || (r->access & (MKEY_REMOTE_READ | MKEY_REMOTE_WRITE)))
			return MKEY_ERR_RLKEY;
		if (len && len - 1 > UINT64_MAX - va)
			return MKEY_ERR_BOUNDS;
		return emit(w, va, len);
	}
	/* §6.1: the MKey of the index, with the variant part the key carries (Figure 6), not
	 * free (T10 00h[30]). */
	const struct mkey *m = mkey_find(w->dev, key);
	if (!m)
		return MKEY_ERR_INVALID;
	if (w->watch && MKEY_INDEX(key) == w->watch)
		w->met = true;
	if ((uint8_t)key != m->tag)
		return MKEY_ERR_TAG;
	if (m->free)
		return MKEY_ERR_FREE;
	/* T10 0Ch[23:0]: the region belongs to one protection domain, the WQ's (§3.1). */
	if (m->pd != r->pd)
		return MKEY_ERR_PD;
	if (!bounds_ok(m, va, len))
		return MKEY_ERR_BOUNDS;
	if (!rights_ok(m, r->access))
		return MKEY_ERR_ACCESS;
	if (len == 0)
		return MKEY_OK;
	switch (m->access_mode) {
	case MKEY_AM_PA: /* T10: "no virtual to physical address translation" */
		/* VA = PA: a length64 region's range may wrap 2^64, a physical range may not
		 * (D-MKC-14, as the reserved LKey above). */
		if (len - 1 > UINT64_MAX - va)
			return MKEY_ERR_BOUNDS;
		return emit(w, va, len);
	case MKEY_AM_MTT:
		return walk_mtt(w, m, va, len);
	default:
		return walk_klm(w, m, va, len, depth);
	}
}

int mkey_translate(const struct nicref_dev *dev, const struct mkey_req *r, mkey_piece_fn fn,
		   void *ctx)
{
	struct walk w = { dev, r,
			  (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, max_indirection), NULL,
			  NULL, 0, 0, 0, 0, false };
	int rc = walk(&w, r->key, r->va, r->len, 0);
	if (rc || !fn)
		return rc;
	/* The walk is a function of the device's state, which the checking pass did not change:
	 * a second walk would hand out the same piece. */
	if (w.npieces <= 1)
		return w.npieces ? fn(ctx, w.pa0, w.len0) : MKEY_OK;
	w.fn = fn;
	w.ctx = ctx;
	return walk(&w, r->key, r->va, r->len, 0);
}

bool mkey_translate_passes(const struct nicref_dev *dev, const struct mkey_req *r,
			   uint32_t index)
{
	struct walk w = { dev, r,
			  (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, max_indirection), NULL,
			  NULL, 0, 0, 0, index, false };
	(void)walk(&w, r->key, r->va, r->len, 0);
	return w.met;
}

uint8_t mkey_err_syndrome(int err, unsigned access)
{
	/* T74 syndrome 0x4 Local_Protection_Error, 0x11 Local_Access_Error (D-MKC-6). */
	if (err >= 0)
		return 0;
	return (access & (MKEY_REMOTE_READ | MKEY_REMOTE_WRITE)) ? 0x11 : 0x04;
}
