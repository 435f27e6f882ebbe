/* User-mode memory registration applied to an MKey (PRM §10.1.1.1, §7.4.4.1.3 T31-T37): the
 * checks of steps 1-5, then the copy of the translation list and of the MKey context fields the
 * MkeyCtx bit mask selects (step 6). The send engine (eth/wqe_umr.c) parses the WQE and reports
 * the completion (step 7); this file owns what the MKey holds. Decisions: docs/tx.md (D-TX-13,
 * D-TX-14). No allocation: the table's room was made at CREATE_MKEY (obj/mkey.c). */
#include <string.h>

#include "cmd/cmd_table.h"

#define OCTWORD 16u
#define KLM_MAX_BYTES 0x80000000ull /* T37 byte_count "Must be up to 2GB" */

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Step 1: "Checks whether the MKey is valid": a live MKey of that index whose variant part is
 * the key's (D-MKC-4). */
static struct mkey *umr_target(const struct nicref_dev *dev, uint32_t key)
{
	struct mkey *m = obj_get(dev, OBJ_MKEY, MKEY_INDEX(key));
	return m && m->tag == (uint8_t)key ? m : NULL;
}

/* The list, octword by octword, in chunks: each KLM within 2 GB (T37); with `m` the entries
 * are stored at offset + i (step 6), with the bits a stored entry keeps (obj/mkey.c). */
static enum mkey_umr_result walk_list(const struct mkey_umr_req *r, struct mkey *m, bool klm,
				      uint64_t keep)
{
	uint8_t buf[MKEY_UMR_CHUNK * OCTWORD];
	for (uint32_t i = 0; i < r->count; i += MKEY_UMR_CHUNK) {
		uint32_t n = r->count - i < MKEY_UMR_CHUNK ? r->count - i : MKEY_UMR_CHUNK;
		if (r->fetch(r->ctx, i, n, buf))
			return MKEY_UMR_READ;
		for (uint32_t k = 0; k < n; k++) {
			uint64_t w0 = be64(buf + k * OCTWORD), w1 = be64(buf + k * OCTWORD + 8);
			if (klm && (w0 >> 32) > KLM_MAX_BYTES)
				return MKEY_UMR_KLM_BYTE_COUNT;
			if (m) {
				size_t at = 2 * ((size_t)r->offset + i + k);
				m->t[at] = w0 & keep;
				m->t[at + 1] = w1 & keep;
			}
		}
	}
	return MKEY_UMR_OK;
}

/* Step 6, the context: T33 "MkeyCtx bit mask ... One bit per field"; a bit clear leaves the
 * field as it was ("HW will block changing fields that should not be changed", §10.1.1). */
static void apply_mask(struct mkey *m, const struct mkey_umr_req *r)
{
	const uint8_t *c = r->mkc;
#define MKC(n) PRM_GET(mkc, n, c, PRM_SIZE_mkc)
	if (r->mask & MKEY_UMR_M_LEN) {
		m->length64 = MKC(length64) != 0;
		m->len = m->length64 ? 0 : MKC(len); /* T10 18h: reserved with length64 */
	}
	if ((r->mask & MKEY_UMR_M_PAGE_SIZE) && m->access_mode == MKEY_AM_MTT &&
	    MKC(log_entity_size) >= 12)
		m->log_entity_size = (uint8_t)MKC(log_entity_size); /* D-MKC-1 kept */
	if (r->mask & MKEY_UMR_M_START)
		m->start_addr = MKC(start_addr);
	if (r->mask & MKEY_UMR_M_TAG)
		m->tag = (uint8_t)MKC(mkey_7_0);
	if (r->mask & MKEY_UMR_M_LR)
		m->lr = MKC(lr) || m->lr; /* T10 lr "Must be set for all MKeys" (D-TX-13) */
	if (r->mask & MKEY_UMR_M_LW)
		m->lw = MKC(lw) != 0;
	if (r->mask & MKEY_UMR_M_RR)
		m->rr = MKC(rr) != 0;
	if (r->mask & MKEY_UMR_M_RW)
		m->rw = MKC(rw) != 0;
	if (r->mask & MKEY_UMR_M_FREE)
		m->free = MKC(free) != 0;
#undef MKC
}

enum mkey_umr_result mkey_umr(struct nicref_dev *dev, const struct mkey_umr_req *r)
{
	struct mkey *m = umr_target(dev, r->key);
	if (!m)
		return MKEY_UMR_INVALID;
	/* Step 2, T33 Check_free: 01 "If the status of the MKey is not free, the UMR operation
	 * will fail", 10 "If the status of the MKey is free". */
	if (r->check_free == 1 && !m->free)
		return MKEY_UMR_NOT_FREE;
	if (r->check_free == 2 && m->free)
		return MKEY_UMR_FREE;
	if (m->pd != r->pd)
		return MKEY_UMR_PD; /* step 3 */
	if (!m->umr_en)
		return MKEY_UMR_DISABLED; /* step 4 */
	/* Step 5: "buffers' list ... does not exceed the memory allocated for that MKey": the
	 * table of translations_octword_size octwords (T10 34h), as far as its room goes. */
	uint64_t end = (uint64_t)r->offset + r->count;
	if (r->count && (end > m->octword_size || end > m->room))
		return MKEY_UMR_BEYOND;
	/* Only delivered entries translate (D-MKC-8): an offset past them would leave entries
	 * never written inside the delivered range (an MTT one translating to address 0), so it
	 * is step 5's error too (D-TX-13). */
	if (r->count && r->offset > m->octwords)
		return MKEY_UMR_BEYOND;
	/* T145 20h[22:16] log_max_mrw_sz bounds len as at CREATE_MKEY (D-MKC-5) unless length64
	 * asks for 2^64: the context step 6 would copy is checked with the rest (D-TX-13). */
	const uint8_t *c = r->mkc;
	uint64_t log_mrw = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_mrw_sz);
	if ((r->mask & MKEY_UMR_M_LEN) && !PRM_GET(mkc, length64, c, PRM_SIZE_mkc) &&
	    log_mrw < 64 && PRM_GET(mkc, len, c, PRM_SIZE_mkc) > (1ull << log_mrw))
		return MKEY_UMR_TOO_LONG;
	bool klm = m->access_mode == MKEY_AM_KLM;
	/* Checked whole before anything changes: a refused UMR leaves the MKey as it was. */
	enum mkey_umr_result rc = walk_list(r, NULL, klm, 0);
	if (rc != MKEY_UMR_OK)
		return rc;
	/* The entries keep what CREATE_MKEY keeps (D-MKC-12): KLMs whole, MTTs with their
	 * rights under pg_access, PASs page-aligned otherwise. */
	uint64_t keep = klm	       ? UINT64_MAX
			: m->pg_access ? 0xFFFFFFFFFFFFFF03ull
				       : 0xFFFFFFFFFFFFF000ull;
	if ((rc = walk_list(r, m, klm, keep)) != MKEY_UMR_OK) {
		/* Backstop: the second read reads what the first did unless the list is read
		 * through m itself, which eth/wqe_umr.c refuses (D-TX-13). Should it fail anyway,
		 * the entries read so far are written: the KLM offsets follow them, so the MKey
		 * stays one the walk can use (invariant -306). */
		if (klm)
			mkey_klm_restart(m);
		return rc;
	}
	if (r->count && end > m->octwords)
		m->octwords = (uint32_t)end; /* T33 translation_offset: "changing only some" */
	if (klm)
		mkey_klm_restart(m);
	apply_mask(m, r);
	return MKEY_UMR_OK;
}
