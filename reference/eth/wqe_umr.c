/* UMR WQEs (PRM §7.4.4.1.3 T31-T37, §10.1.1): the UMR control segment at 10h, the MKey context
 * at 40h, then the translations inline or the UMR pointer at 80h (T31). The WQE's form is checked
 * here; the steps of §10.1.1.1 and the MKey's update are obj/mkey_umr.c's. Decision D-TX-13
 * (docs/tx.md). */
#include <string.h>

#include "eth/eth.h"

#define UMR_CTRL 0x10u		/* T31 10-3C */
#define UMR_MKC 0x40u		/* T31 40-7C: MKeyCtx (T9) */
#define UMR_LIST 0x80u		/* T31: inline KLMs/MTTs, or the UMR pointer */
#define UMR_POINTER_ALIGN 2048u /* §7.4.4.1.3 "must be aligned to 2KB" */

/* Where the translation list is read from. */
struct umr_list {
	struct tx_wqe *w;
	uint32_t key; /* the pointer's MKey (inline: unused) */
	uint64_t addr;
	bool rlkey;
	uint8_t *dst;
};

static int read_inline(void *ctx, uint32_t first, uint32_t n, uint8_t *buf)
{
	const struct umr_list *l = ctx;
	memcpy(buf, l->w->b + UMR_LIST + (size_t)first * TX_OCTWORD, (size_t)n * TX_OCTWORD);
	return 0;
}

static int copy_piece(void *ctx, uint64_t pa, uint64_t len)
{
	struct umr_list *l = ctx;
	if (dev_dma_read(l->w->dev, pa, l->dst, (size_t)len))
		return 1;
	l->dst += len;
	return 0;
}

static struct mkey_req list_req(const struct umr_list *l, uint32_t first, uint32_t n)
{
	struct mkey_req r = { .key = l->key,
			      .pd = l->w->sq->pd,
			      .va = l->addr + (uint64_t)first * TX_OCTWORD,
			      .len = (uint64_t)n * TX_OCTWORD,
			      .access = MKEY_LOCAL_READ,
			      .rlkey = l->rlkey };
	return r;
}

static int read_pointer(void *ctx, uint32_t first, uint32_t n, uint8_t *buf)
{
	struct umr_list *l = ctx;
	struct mkey_req r = list_req(l, first, n);
	l->dst = buf;
	return mkey_translate(l->w->dev, &r, copy_piece, l) != 0;
}

/* §10.1.1.1 step 7: "If some of the checks failed, completion with error is reported" (D-TX-13:
 * steps 1-4 local protection, step 5, a len above log_max_mrw_sz and the 2 GB KLM local
 * length). */
struct umr_result_row {
	enum mkey_umr_result r;
	enum nicref_violation rule; /* NICREF_VIO_COUNT: no driver rule (a bus error) */
	uint8_t syndrome;
};
static const struct umr_result_row umr_results[] = {
	{ MKEY_UMR_INVALID, NICREF_VIO_TX_UMR_MKEY_INVALID, NICREF_CQE_SYN_LOCAL_PROTECTION },
	{ MKEY_UMR_NOT_FREE, NICREF_VIO_TX_UMR_CHECK_FREE, NICREF_CQE_SYN_LOCAL_PROTECTION },
	{ MKEY_UMR_FREE, NICREF_VIO_TX_UMR_CHECK_FREE, NICREF_CQE_SYN_LOCAL_PROTECTION },
	{ MKEY_UMR_PD, NICREF_VIO_TX_UMR_PD, NICREF_CQE_SYN_LOCAL_PROTECTION },
	{ MKEY_UMR_DISABLED, NICREF_VIO_TX_UMR_NOT_ENABLED, NICREF_CQE_SYN_LOCAL_PROTECTION },
	{ MKEY_UMR_BEYOND, NICREF_VIO_TX_UMR_TRANSLATIONS_BEYOND, NICREF_CQE_SYN_LOCAL_LENGTH },
	{ MKEY_UMR_TOO_LONG, NICREF_VIO_TX_UMR_MKEY_TOO_LONG, NICREF_CQE_SYN_LOCAL_LENGTH },
	{ MKEY_UMR_KLM_BYTE_COUNT, NICREF_VIO_TX_UMR_KLM_BYTE_COUNT, NICREF_CQE_SYN_LOCAL_LENGTH },
	{ MKEY_UMR_READ, NICREF_VIO_COUNT, NICREF_CQE_SYN_LOCAL_PROTECTION },
};

static uint8_t umr_failed(struct tx_wqe *w, enum mkey_umr_result r, uint32_t key)
{
	for (size_t i = 0; i < sizeof umr_results / sizeof umr_results[0]; i++)
		if (umr_results[i].r == r) {
			if (umr_results[i].rule != NICREF_VIO_COUNT)
				dev_violation(w->dev, umr_results[i].rule, key);
			return umr_results[i].syndrome;
		}
	NICREF_ASSERT(0 && "every mkey_umr result has a row");
	return NICREF_CQE_SYN_LOCAL_PROTECTION;
}

uint8_t wqe_umr(struct tx_wqe *w)
{
	const uint8_t *u = w->b + UMR_CTRL;
	size_t room = w->len > UMR_CTRL ? w->len - UMR_CTRL : 0;
	bool inl =
	    room >= PRM_SIZE_send_wqe_umr_ctrl && PRM_GET(send_wqe_umr_ctrl, inline, u, room) != 0;
	/* T31/T41: ctrl, the UMR control segment and the MKeyCtx segment; with inline = 0 the UMR
	 * pointer after them. */
	size_t need = UMR_LIST + (inl ? 0 : PRM_SIZE_send_wqe_umr_pointer);
	if (w->len < need) {
		tx_violation(w, NICREF_VIO_TX_UMR_SEGMENTS, (uint64_t)w->index << 8 | w->len / 16);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	uint32_t key = (uint32_t)PRM_GET(send_wqe_ctrl, umr_mkey, w->b, TX_OCTWORD);
	unsigned check_free = (unsigned)PRM_GET(send_wqe_umr_ctrl, check_free, u, room);
	uint32_t count =
	    (uint32_t)PRM_GET(send_wqe_umr_ctrl, translation_octword_actual_size, u, room);
	/* T33 translation_offset_en: "when set, translation_offset is valid". */
	uint32_t offset = PRM_GET(send_wqe_umr_ctrl, translation_offset_en, u, room)
			      ? (uint32_t)PRM_GET(send_wqe_umr_ctrl, translation_offset, u, room)
			      : 0;
	uint64_t mask = PRM_GET(send_wqe_umr_ctrl, mkeyctx_bit_mask, u, room);
	if (check_free == 3) { /* T33 Check_free "11 - reserved" */
		dev_violation(w->dev, NICREF_VIO_TX_UMR_CHECK_FREE_RESERVED, key);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	/* T33: "translation_offset and size should be aligned to 64B" (4 octwords). */
	if (count % 4 || offset % 4) {
		dev_violation(w->dev, NICREF_VIO_TX_UMR_ALIGN, key);
		return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
	}
	/* T33 mask: "other bits are reserved"; §10.1.1 "HW will block changing fields that
	 * should not be changed": reported, not applied. */
	if (mask & ~(uint64_t)MKEY_UMR_MASK_DEFINED)
		dev_violation(w->dev, NICREF_VIO_TX_UMR_MASK_RESERVED,
			      mask & ~(uint64_t)MKEY_UMR_MASK_DEFINED);
	struct umr_list l = { .w = w, .rlkey = PRM_GET(sqc, rlkey, w->sq->ctx, WQ_CTX_BYTES) != 0 };
	struct mkey_umr_req r = {
		.key = key,
		.pd = w->sq->pd,
		.check_free = check_free,
		.mask = mask & MKEY_UMR_MASK_DEFINED,
		.mkc = w->b + UMR_MKC,
		.offset = offset,
		.count = count,
		.fetch = inl ? read_inline : read_pointer,
		.ctx = &l,
	};
	if (inl) {
		if (UMR_LIST + (uint64_t)count * TX_OCTWORD > w->len) {
			tx_violation(w, NICREF_VIO_TX_UMR_INLINE_BEYOND_DS,
				     (uint64_t)w->index << 8 | w->len / 16);
			return NICREF_CQE_SYN_LOCAL_LENGTH;
		}
	} else {
		const uint8_t *p = w->b + UMR_LIST;
		l.key = (uint32_t)PRM_GET(send_wqe_umr_pointer, mkey, p, TX_OCTWORD);
		l.addr = PRM_GET(send_wqe_umr_pointer, address_h_63_32, p, TX_OCTWORD) << 32 |
			 PRM_GET(send_wqe_umr_pointer, address_l_31_0, p, TX_OCTWORD);
		if (l.addr % UMR_POINTER_ALIGN) {
			dev_violation(w->dev, NICREF_VIO_TX_UMR_POINTER_ALIGN, l.addr);
			return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
		}
		/* The list's whole range is checked first (§6.1, D-MKC-10). */
		struct mkey_req lr = list_req(&l, 0, count);
		int rc = mkey_translate(w->dev, &lr, NULL, NULL);
		if (rc < 0) {
			tx_violation(w, NICREF_VIO_TX_UMR_POINTER_LKEY,
				     (uint64_t)w->index << 8 | (unsigned)-rc);
			return mkey_err_syndrome(rc, MKEY_LOCAL_READ);
		}
		/* Step 6 copies the list after the checks: read through the MKey being rewritten,
		 * its later chunks would come through a half-changed translation (D-TX-13). */
		if (mkey_translate_passes(w->dev, &lr, MKEY_INDEX(key))) {
			dev_violation(w->dev, NICREF_VIO_TX_UMR_POINTER_SELF, key);
			return NICREF_CQE_SYN_LOCAL_PROTECTION;
		}
	}
	enum mkey_umr_result res = mkey_umr(w->dev, &r);
	if (res != MKEY_UMR_OK)
		return umr_failed(w, res, key);
	w->sq->umr_fence_due = true; /* §10.1.1: the next WQE should fence */
	return 0;
}
