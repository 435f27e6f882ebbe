/* Private to libnicref: memory keys, their translation and protection (PRM §6, §12.5).
 * Owned by obj/mkey*.c. Decisions: docs/mkey.md (D-MKC-*).
 *
 * An MKey is created by CREATE_MKEY with its context (MKC, T9/T10) and its translation entries
 * (MTT/PAS, or KLMs), which the device copies at create: the driver may reuse its buffer. The
 * data path translates {key, va, len} through mkey_translate, which checks every protection
 * rule of §6.1 on every MKey it passes through and hands the physical pieces to a callback, so
 * a gather or scatter entry spanning pages (or KLM segments) needs no allocation. */
#ifndef NICREF_OBJ_MKEY_H
#define NICREF_OBJ_MKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "obj/obj.h"

struct nicref_dev;

int mkey_dev_init(struct nicref_dev *dev);
void mkey_dev_fini(struct nicref_dev *dev);
void mkey_dev_reset(struct nicref_dev *dev); /* destroys every MKey */

/* The 32-bit key of §6.1 Figure 6: the index the device returned (CREATE_MKEY mkey_index,
 * 24 bits) and the variant part MKC.mkey[7:0] (D-MKC-4). */
#define MKEY_KEY(index, tag) ((uint32_t)(index) << 8 | (uint32_t)(uint8_t)(tag))
#define MKEY_INDEX(key) ((uint32_t)(key) >> 8)
/* The reserved LKey QUERY_SPECIAL_CONTEXTS reports (§6.3, T241; D-MKC-3): index 0 is never a
 * created MKey (the MKey table starts at 1). */
#define MKEY_RESD_LKEY 0x00000000u

/* T10 00h[9:8] access_mode. */
enum mkey_access_mode { MKEY_AM_PA = 0, MKEY_AM_MTT = 1, MKEY_AM_KLM = 2 };

/* One MKey: the context as created, field by field (QUERY_MKEY returns these), and the
 * translation entries delivered at create, two 64-bit words per octword:
 *  - MTT: entry i is t[i], as T11 lays it out (ptag[63:8], wr_en bit 1, rd_en bit 0); with
 *    pg_access clear the entries are PASs (T138) and bits 11:0 are kept 0;
 *  - KLM: entry k is t[2k] = byte_count << 32 | mkey and t[2k + 1] = address (T36/T37); then
 *    mkey_klm_starts(m)[k] is the region offset where entry k starts (the sum of the byte
 *    counts before it), so the walk finds a segment by binary search.
 * t[] has room for `room` octwords: those delivered at create, or for an MKey with umr_en the
 * whole table a UMR may write (translations_octword_size, at most 2^log_max_klm_list_size
 * octwords, docs/tx.md D-TX-14), so a UMR never allocates. */
struct mkey {
	struct obj_hdr hdr;
	bool free, umr_en, rw, rr, lw, lr, length64, pg_access;
	uint8_t access_mode, tag, log_entity_size;
	uint32_t qpn;
	uint32_t pd;
	uint64_t start_addr, len;
	uint32_t octword_size; /* translations_octword_size (0 for PA: reserved) */
	uint32_t octwords;     /* translations_octword_actual_size: octwords delivered */
	uint32_t room;         /* octwords t[] holds (>= octwords) */
	uint64_t t[];
};

/* The KLM start offsets (KLM mode): room entries after the 2 * room words of the table. */
static inline uint64_t *mkey_klm_starts(struct mkey *m)
{
	return &m->t[2 * (size_t)m->room];
}
static inline const uint64_t *mkey_klm_starts_c(const struct mkey *m)
{
	return &m->t[2 * (size_t)m->room];
}

/* The MKey named by key (index and tag), or NULL when none is live with that index. The tag is
 * not compared here. */
const struct mkey *mkey_find(const struct nicref_dev *dev, uint32_t key);

/* Access kinds of a memory request (§6.1 "Operation check"; T10 lr/lw/rr/rw): gathers read
 * locally, scatters write locally, the responder of a remote operation reads or writes
 * remotely. A request may combine them. */
enum {
	MKEY_LOCAL_READ = 1u << 0,
	MKEY_LOCAL_WRITE = 1u << 1,
	MKEY_REMOTE_READ = 1u << 2,
	MKEY_REMOTE_WRITE = 1u << 3,
};

/* Why a translation failed, in the order of the checks (§6.1; each KLM hop repeats them). */
enum mkey_err {
	MKEY_OK = 0,
	MKEY_ERR_INVALID = -1,     /* no MKey with this index (never created, or destroyed) */
	MKEY_ERR_TAG = -2,         /* key[7:0] is not the MKey's mkey[7:0] */
	MKEY_ERR_FREE = -3,        /* MKC.free: "cannot be used for address translation" */
	MKEY_ERR_RLKEY = -4,       /* the reserved LKey without rlkey, or for a remote access */
	MKEY_ERR_PD = -5,          /* the MKey's PD is not the request's */
	MKEY_ERR_BOUNDS = -6,      /* [va, va + len) not inside [start_addr, start_addr + len) */
	MKEY_ERR_ACCESS = -7,      /* an access right (lr/lw/rr/rw) is missing */
	MKEY_ERR_PAGE_ACCESS = -8, /* pg_access: the page's rd_en/wr_en forbids it */
	MKEY_ERR_UNMAPPED = -9,    /* no translation entry delivered for part of the range */
	MKEY_ERR_DEPTH = -10,      /* more KLM indirections than HCA_CAP.max_indirection */
};

/* A memory request of the data path. */
struct mkey_req {
	uint32_t key;    /* lkey or rkey: index << 8 | tag */
	uint32_t pd;     /* the PD of the work queue */
	uint64_t va;     /* virtual address in the MKey's address space */
	uint64_t len;    /* bytes; 0 checks the key, PD and rights only */
	unsigned access; /* MKEY_LOCAL_READ | ... */
	bool rlkey;      /* the SQ/RQ context's rlkey: the reserved LKey is allowed (§6.3) */
};

/* Receives each physically contiguous piece, in address order of the request; returns 0 to go
 * on, or a positive value that stops the walk and is returned by mkey_translate. */
typedef int (*mkey_piece_fn)(void *ctx, uint64_t pa, uint64_t len);

/* Translates r: checks the whole range first (no piece is handed out when any part fails), then
 * calls fn (if not NULL) for each piece: at most one per MTT page or KLM segment, never
 * merged. Returns MKEY_OK, an enum mkey_err (< 0), or what fn stopped with (> 0). Does not
 * allocate. */
int mkey_translate(const struct nicref_dev *dev, const struct mkey_req *r, mkey_piece_fn fn,
		   void *ctx);

/* Whether translating r (its checking pass, to wherever it stops) passes through the MKey of
 * index `index` (its key or any KLM hop names it). */
bool mkey_translate_passes(const struct nicref_dev *dev, const struct mkey_req *r,
			   uint32_t index);

/* Recomputes the KLM start offsets of the entries delivered (KLM mode). */
void mkey_klm_restart(struct mkey *m);

/* ---- UMR (PRM §7.4.4.1.3, §10.1.1; obj/mkey_umr.c) ------------------------------------------
 * A UMR WQE as the send engine (eth/) parsed it. The translation list (inline in the WQE or
 * behind the UMR pointer) is read through `fetch` in chunks of at most MKEY_UMR_CHUNK octwords,
 * big-endian as in the WQE; mkey_umr reads it twice (check, then copy), so a refused UMR changes
 * nothing. */
#define MKEY_UMR_CHUNK 16u
/* T33 MkeyCtx bit mask: the fields a UMR may change. */
enum {
	MKEY_UMR_M_LEN = 1ull << 0,       /* length[63:0], len64 */
	MKEY_UMR_M_PAGE_SIZE = 1ull << 1, /* log_page_size (T10 log_entity_size) */
	MKEY_UMR_M_START = 1ull << 6,     /* start_addr */
	MKEY_UMR_M_TAG = 1ull << 13,      /* mkey[7:0] */
	MKEY_UMR_M_LR = 1ull << 17,
	MKEY_UMR_M_LW = 1ull << 18,
	MKEY_UMR_M_RR = 1ull << 19,
	MKEY_UMR_M_RW = 1ull << 20,
	MKEY_UMR_M_FREE = 1ull << 29,
};
#define MKEY_UMR_MASK_DEFINED                                                                   \
	(MKEY_UMR_M_LEN | MKEY_UMR_M_PAGE_SIZE | MKEY_UMR_M_START | MKEY_UMR_M_TAG |            \
	 MKEY_UMR_M_LR | MKEY_UMR_M_LW | MKEY_UMR_M_RR | MKEY_UMR_M_RW | MKEY_UMR_M_FREE)
struct mkey_umr_req {
	uint32_t key;        /* ctrl umr_mkey: {mkey_index, tag} */
	uint32_t pd;         /* the SQ's PD */
	unsigned check_free; /* T33: 0 no check, 1 fail if not free, 2 fail if free */
	uint64_t mask;       /* T33 MkeyCtx bit mask, defined bits only */
	const uint8_t *mkc;  /* the WQE's MKeyCtx segment (T9/T10), PRM_SIZE_mkc bytes */
	uint32_t offset;     /* translation_offset, octwords (0 unless translation_offset_en) */
	uint32_t count;      /* translation_octword_actual_size, octwords */
	int (*fetch)(void *ctx, uint32_t first, uint32_t n, uint8_t *buf); /* 0, or failed */
	void *ctx;
};
/* The outcome, in the order of §10.1.1.1 steps 1-6. */
enum mkey_umr_result {
	MKEY_UMR_OK = 0,
	MKEY_UMR_INVALID,    /* step 1: no MKey of that index and tag */
	MKEY_UMR_NOT_FREE,   /* step 2: check_free 01 and the MKey is not free */
	MKEY_UMR_FREE,       /* step 2: check_free 10 and the MKey is free */
	MKEY_UMR_PD,         /* step 3 */
	MKEY_UMR_DISABLED,   /* step 4: umr_en 0 */
	MKEY_UMR_BEYOND,     /* step 5: offset + count beyond the table (or the room, D-TX-14),
			      * or offset past the octwords delivered (D-TX-13) */
	MKEY_UMR_TOO_LONG,   /* the new len above 2^log_max_mrw_sz (T145, D-MKC-5) */
	MKEY_UMR_KLM_BYTE_COUNT, /* a KLM of more than 2 GB (T37) */
	MKEY_UMR_READ,       /* the list could not be read (fetch failed) */
};
/* Runs §10.1.1.1 on r: checks every step, then copies the list and the masked MKC fields.
 * Does not allocate. */
enum mkey_umr_result mkey_umr(struct nicref_dev *dev, const struct mkey_umr_req *r);

/* The CQE syndrome (T74 error CQE syndrome) of a failed translation (D-MKC-6): 0x4
 * Local_Protection_Error for local accesses (send gather, receive scatter), 0x11
 * Local_Access_Error for the responder of a remote access. */
uint8_t mkey_err_syndrome(int err, unsigned access);

#endif
