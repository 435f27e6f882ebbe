/* The doorbell layer (obj/uar_db.h): every write to a UAR page, decoded once and handed to its
 * queue (PRM §7.2, §7.2.2, T13/T14; D-DB-3 in docs/wq.md, D-UAR-1 in docs/decisions.md).
 *
 * A UAR page holds, in its first 4 KB, the CQ doorbell (20h-27h), the EQ doorbells (40h, 48h)
 * and the Blue Flame registers (800h-FFFh: registers of 2^log_bf_reg_size bytes, each a pair of
 * equal buffers, even and odd; a send doorbell is the first two dwords of a buffer). Everything
 * else of the page is reserved. The state a page keeps between writes (the first half of a
 * split CQ doorbell, the first dword of a send doorbell, the Blue Flame bytes, which buffer of
 * each Blue Flame register its last send doorbell used) is made when its UAR number is first
 * allocated (ALLOC_UAR: at most the UAR area's pages, the capability) and kept until the device
 * goes, so no write allocates. It is emptied when the objects go (TEARDOWN_HCA, DISABLE_HCA,
 * reset), not at DEALLOC_UAR: a number given out again finds what its page held, but for the
 * Blue Flame alternation, which starts afresh at each ALLOC_UAR (D-DB-4). A reset empties only
 * the pages written since the last one, so it costs what was used. */
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"

#define BF_AREA 0x800u      /* §7.2.2 T13: DB_BlueFlame_Buffer0_even */
#define BF_AREA_END 0x1000u
#define BF_BYTES (BF_AREA_END - BF_AREA)
#define BF_BUFS_MAX 8u /* buffers in the area with the smallest register modelled (2^9) */

struct uar_page {
	/* §7.2.2.2: the 20h half of a CQ doorbell written by 32-bit halves, until 24h. */
	bool cq_low_valid;
	uint32_t cq_low;
	/* Per buffer: dword 0 of a send doorbell, until dword 1 rings it (bit b of d0_valid). */
	uint8_t d0_valid;
	uint32_t d0[BF_BUFS_MAX];
	bool touched; /* on the touched list: written since the last reset */
	/* §7.2.2.1 alternation (D-DB-4), a bit per Blue Flame register: its last send doorbell
	 * rang on its even buffer. Clear after ALLOC_UAR and reset, as if the last had been odd:
	 * the register's first posting is its "even" one. */
	uint8_t bf_even;
	/* The Blue Flame area as written, and which of its dwords were written since their
	 * buffer's last doorbell. */
	uint64_t written[BF_BYTES / 4 / 64];
	uint8_t bf[BF_BYTES];
};

struct uar_db {
	struct uar_page *page[DEV_MAX_UARS]; /* made at the first ALLOC_UAR of each number */
	uint16_t touched[DEV_MAX_UARS];
	unsigned ntouched;
	/* Pages written or emptied since the last snapshot taken or restored (a bit per UAR
	 * number): a restore of that snapshot copies back only these (uar_db_snap_restore). A
	 * page made since and never written is as calloc made it, what the restore would make. */
	uint64_t snap_dirty[DEV_MAX_UARS / 64];
};

static void mark_dirty(struct uar_db *d, uint32_t uar)
{
	d->snap_dirty[uar / 64] |= 1ull << (uar % 64);
}

int uar_db_init(struct nicref_dev *dev)
{
	dev->uar_db = calloc(1, sizeof *dev->uar_db);
	return dev->uar_db ? 0 : -1;
}

void uar_db_fini(struct nicref_dev *dev)
{
	if (!dev->uar_db)
		return;
	for (unsigned i = 0; i < DEV_MAX_UARS; i++)
		free(dev->uar_db->page[i]);
	free(dev->uar_db);
	dev->uar_db = NULL;
}

int uar_db_open(struct nicref_dev *dev, uint32_t uar)
{
	struct uar_db *d = dev->uar_db;
	NICREF_ASSERT(uar < DEV_MAX_UARS); /* the UAR table holds no more (obj/obj.c) */
	/* calloc: a page starts empty; its Blue Flame bytes are read only once written. */
	if (!d->page[uar] && !(d->page[uar] = calloc(1, sizeof *d->page[uar])))
		return -1;
	/* D-DB-4: a page given out again (§7.2 item 1, another consumer) counts its postings
	 * afresh: the first to each register is an even one. */
	if (d->page[uar]->bf_even) {
		mark_dirty(d, uar);
		d->page[uar]->bf_even = 0;
	}
	return 0;
}

void uar_db_reset(struct nicref_dev *dev)
{
	struct uar_db *d = dev->uar_db;
	if (!d)
		return;
	/* The Blue Flame bytes stay: a dword is read only while its written bit is set. */
	for (unsigned i = 0; i < d->ntouched; i++) {
		struct uar_page *pg = d->page[d->touched[i]];
		mark_dirty(d, d->touched[i]);
		pg->cq_low_valid = false;
		pg->d0_valid = 0;
		pg->bf_even = 0;
		pg->touched = false;
		memset(pg->written, 0, sizeof pg->written);
	}
	d->ntouched = 0;
}

static struct uar_page *touch(struct uar_db *d, uint32_t uar)
{
	struct uar_page *pg = d->page[uar];
	mark_dirty(d, uar);
	if (!pg->touched) {
		pg->touched = true;
		d->touched[d->ntouched++] = (uint16_t)uar;
	}
	return pg;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* ---- The CQ doorbell (T13/T14): 64 bits by two dwords ---------------------------------------- */

/* §7.2.2.2: a 64-bit doorbell written as two dwords, the lower address first, nothing else on
 * the page in between; the device acts on the second. */
static void cq_db_split(struct nicref_dev *dev, uint32_t uar, uint32_t in_page)
{
	dev_violation(dev, NICREF_VIO_CQ_DB_SPLIT, (uint64_t)uar << 16 | in_page);
}

/* §7.2.2.2: "No other DoorBell can be rung (or even start ringing) in the midst of an on-going
 * write of a DoorBell over a given UAR page." A doorbell write (CQ, EQ, or a send doorbell's
 * dword 0 or 1) while the other kind is half written: the half-written one is dropped and the
 * stray write reported; the stray doorbell itself goes on (D-CQ-15, D-DB-4). Send doorbells of
 * different buffers are not each other's stray writes (§7.2.2.1: different Blue Flame
 * registers are written "simultaneously and independently"). */
static void cq_db_interrupted(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar,
			      uint32_t in_page)
{
	if (pg->cq_low_valid) {
		cq_db_split(dev, uar, in_page);
		pg->cq_low_valid = false;
	}
}

static void sq_db_interrupted(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar,
			      uint32_t in_page)
{
	if (pg->d0_valid) {
		dev_violation(dev, NICREF_VIO_SQ_DB_SPLIT, (uint64_t)uar << 32 | in_page);
		pg->d0_valid = 0;
	}
}

static void cq_db_low(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar, uint32_t in_page,
		      uint32_t value)
{
	sq_db_interrupted(dev, pg, uar, in_page);
	if (pg->cq_low_valid)
		cq_db_split(dev, uar, in_page);
	pg->cq_low_valid = true;
	pg->cq_low = value;
}

static void cq_db_high(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar,
		       uint32_t in_page, uint32_t value)
{
	sq_db_interrupted(dev, pg, uar, in_page);
	if (!pg->cq_low_valid) {
		cq_db_split(dev, uar, in_page);
		return;
	}
	pg->cq_low_valid = false;
	/* T13/T14 (prm/layouts_cq.h uar_page): cmd_sn ("cmds") 20h[29:28], cmd 20h[24], cq_ci
	 * 20h[23:0]; cqn 24h[23:0]. The doorbell as the page holds it, decoded by the layout. */
	uint8_t r[0x28] = { 0 };
	put_be32(r + 0x20, pg->cq_low);
	put_be32(r + 0x24, value);
	uint32_t cqn = (uint32_t)PRM_GET(uar_page, cqn, r, sizeof r);
	unsigned sn = (unsigned)PRM_GET(uar_page, cmd_sn, r, sizeof r);
	unsigned cmd = (unsigned)PRM_GET(uar_page, cmd, r, sizeof r);
	uint32_t ci = (uint32_t)PRM_GET(uar_page, cq_ci, r, sizeof r);
	/* The bits no field of T13/T14 names (20h[31:30], 20h[27:25], 24h[31:24]): the
	 * doorbell re-encoded from its fields differs. Reported and acted on, as a send
	 * doorbell's (SQ_DB_RESERVED, D-CQ-15). */
	uint8_t f[0x28] = { 0 };
	PRM_SET(uar_page, cqn, f, sizeof f, cqn);
	PRM_SET(uar_page, cmd_sn, f, sizeof f, sn);
	PRM_SET(uar_page, cmd, f, sizeof f, cmd);
	PRM_SET(uar_page, cq_ci, f, sizeof f, ci);
	if (memcmp(r + 0x20, f + 0x20, 8) != 0)
		dev_violation(dev, NICREF_VIO_CQ_DB_RESERVED, (uint64_t)pg->cq_low << 32 | value);
	cq_arm(dev, uar, cqn, sn, cmd, ci);
}

/* ---- The EQ doorbells (T13) ------------------------------------------------------------------ */

static void eq_db(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar, uint32_t in_page,
		  uint32_t value)
{
	/* §7.2.2.2: no other doorbell of the page in the midst of a split CQ or send doorbell. */
	cq_db_interrupted(dev, pg, uar, in_page);
	sq_db_interrupted(dev, pg, uar, in_page);
	/* T13 (prm/layouts_cq.h uar_page): eqn 31:24, consumer index 23:0, no reserved bit; 40h
	 * updates CI and arms, 48h updates CI only. */
	uint8_t r[0x4C] = { 0 };
	put_be32(r + in_page, value);
	bool arm = in_page == 0x40;
	uint32_t eqn = (uint32_t)(arm ? PRM_GET(uar_page, eqn_arm, r, sizeof r)
				      : PRM_GET(uar_page, eqn, r, sizeof r));
	uint32_t ci = (uint32_t)(arm ? PRM_GET(uar_page, eq_ci_arm, r, sizeof r)
				     : PRM_GET(uar_page, eq_ci, r, sizeof r));
	eq_doorbell(dev, uar, eqn, ci, arm);
}

/* ---- The Blue Flame registers (§7.2.2, §7.2.2.1) --------------------------------------------- */

/* log2 of a Blue Flame register (T145 4Ch[20:16] log_bf_reg_size), within what is modelled. */
static unsigned bf_log_reg(const struct nicref_dev *dev)
{
	unsigned l = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_bf_reg_size);
	return l < 9 ? 9 : l > 10 ? 10 : l;
}

/* Bytes from the start of the buffer at dword `first` (ndw dwords) all written since its last
 * doorbell, counting its first two dwords, the doorbell itself. */
static unsigned bf_whole(const uint64_t *written, unsigned first, unsigned ndw)
{
	unsigned n = 2;
	while (n < ndw) {
		unsigned dw = first + n, left = 64 - dw % 64;
		/* the run of written dwords from dw on, within this word */
		uint64_t unwritten = ~(written[dw / 64] >> (dw % 64));
		unsigned run = unwritten ? (unsigned)__builtin_ctzll(unwritten) : 64;
		n += run < left ? run : left;
		if (run < left)
			break;
	}
	return (n < ndw ? n : ndw) * 4;
}

/* Whether any dword of the buffer past the doorbell (ndw dwords from `first`, whole words) was
 * written since its last doorbell: the doorbell is a Blue Flame posting, not a plain one. */
static bool bf_copied(const uint64_t *written, unsigned first, unsigned ndw)
{
	for (unsigned w = first / 64; w < (first + ndw) / 64; w++)
		if (written[w])
			return true;
	return false;
}

/* §7.2.2.1: "The two buffers in the BlueFlame register must be used alternately; in other
 * words, BlueFlame_Bufferi_even should be used for each even posting to BlueFlame register i,
 * and BlueFlame_Bufferi_odd ... for each odd posting" (D-DB-4). Every send doorbell rung on a
 * buffer uses it (§7.2: the doorbell register "is the first 2 DWORDS of the blue-flame
 * buffer"); a Blue Flame posting, the WQE written into the buffer past the doorbell, must use
 * the buffer the register's previous doorbell did not (the first after ALLOC_UAR or a reset:
 * the even one). A plain doorbell (8 bytes, "regular (not BlueFlame) DoorBells") is not held to
 * it. Reported, then acted on like any other (D-DB-3 decides whether the copy runs). */
static void bf_alternate(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar,
			 unsigned bufno, unsigned size, bool copied)
{
	unsigned reg = bufno / 2, even = !(bufno & 1u);
	if (copied && (pg->bf_even >> reg & 1u) == even)
		dev_violation(dev, NICREF_VIO_SQ_DB_BF_ALTERNATE,
			      (uint64_t)uar << 32 | (BF_AREA + bufno * size));
	pg->bf_even = (uint8_t)((pg->bf_even & ~(1u << reg)) | even << reg);
}

/* Dword 1 of a buffer: the send doorbell rings (§7.2.2.2: dword 0 first). */
static void bf_ring(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar, unsigned bufno,
		    unsigned size, uint32_t d1)
{
	uint32_t d0 = pg->d0[bufno];
	unsigned first = bufno * size / 4, ndw = size / 4;
	bf_alternate(dev, pg, uar, bufno, size, bf_copied(pg->written, first, ndw));
	uint8_t *buf = pg->bf + bufno * size;
	put_be32(buf, d0);
	put_be32(buf + 4, d1);
	pg->d0_valid &= (uint8_t)~(1u << bufno);
	/* T26 (prm/layouts_wqe.h send_wqe_ctrl, dwords 0-1): 00h[31:24] and 04h[7:6] reserved,
	 * the bits the fields re-encoded do not give back. */
	const struct sq_db db = {
		.d0 = d0,
		.d1 = d1,
		.sqn = (uint32_t)PRM_GET(send_wqe_ctrl, sq_number, buf, 8),
		.wqe_index = (uint16_t)PRM_GET(send_wqe_ctrl, wqe_index, buf, 8),
		.opcode = (uint8_t)PRM_GET(send_wqe_ctrl, opcode, buf, 8),
		.ds = (uint8_t)PRM_GET(send_wqe_ctrl, ds, buf, 8),
		.bf_reg = bufno / 2,
		.bf = buf,
		.bf_size = size,
		.bf_whole = bf_whole(pg->written, first, ndw),
	};
	uint8_t f[8] = { 0 };
	PRM_SET(send_wqe_ctrl, sq_number, f, sizeof f, db.sqn);
	PRM_SET(send_wqe_ctrl, wqe_index, f, sizeof f, db.wqe_index);
	PRM_SET(send_wqe_ctrl, opcode, f, sizeof f, db.opcode);
	PRM_SET(send_wqe_ctrl, ds, f, sizeof f, db.ds);
	if (memcmp(buf, f, sizeof f) != 0)
		dev_violation(dev, NICREF_VIO_SQ_DB_RESERVED, (uint64_t)d0 << 32 | d1);
	sq_doorbell(dev, uar, &db);
	/* The next post to this buffer starts afresh (buffers are whole multiples of a word). */
	memset(&pg->written[first / 64], 0, ndw / 8);
}

static void bf_write(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar, uint32_t in_page,
		     uint32_t value)
{
	/* §7.2.2.1: "written in chunks of DWORDs (aligned on 4 bytes)"; the BAR refuses other
	 * writes before they reach a UAR page (BAR_UNALIGNED). */
	unsigned size = (1u << bf_log_reg(dev)) / 2, off = in_page - BF_AREA;
	unsigned bufno = off / size, at = off % size;
	/* The doorbell dwords start or finish ringing; the rest of the WQE does not (§7.2.2.2). */
	if (at < 8)
		cq_db_interrupted(dev, pg, uar, in_page);
	if (at == 0) {
		pg->d0[bufno] = value;
		pg->d0_valid |= (uint8_t)(1u << bufno);
	} else if (at == 4) {
		if (!(pg->d0_valid >> bufno & 1u)) {
			dev_violation(dev, NICREF_VIO_SQ_DB_ORDER, (uint64_t)uar << 32 | in_page);
			return;
		}
		bf_ring(dev, pg, uar, bufno, size, value);
	} else {
		/* The rest of the WQE (ds * 16 bytes), in any order (§7.2.2.1). */
		put_be32(pg->bf + off, value);
		pg->written[off / 4 / 64] |= 1ull << (off / 4 % 64);
	}
}

/* ---- The page -------------------------------------------------------------------------------- */

/* PRM §7.2 T13: the registers of a UAR page, each [from, to) of the page. */
static const struct uar_reg {
	uint32_t from, to;
	void (*on_write)(struct nicref_dev *dev, struct uar_page *pg, uint32_t uar,
			 uint32_t in_page, uint32_t value);
} uar_regs[] = {
	{ 0x020, 0x024, cq_db_low },	   /* CQ doorbell, dword 0: cmd_sn, cmd, ci (T14) */
	{ 0x024, 0x028, cq_db_high },	   /* CQ doorbell, dword 1: cqn; rings it */
	{ 0x040, 0x044, eq_db },	   /* EQ doorbell: update CI and arm */
	{ 0x048, 0x04C, eq_db },	   /* EQ doorbell: update CI */
	{ BF_AREA, BF_AREA_END, bf_write }, /* Blue Flame registers (§7.2.2) */
};

void uar_db_write(struct nicref_dev *dev, uint32_t offset, uint32_t value)
{
	/* The page size is 4 KB << log_uar_page_sz; the registers sit in its first 4 KB. */
	unsigned log_page = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_uar_page_sz);
	uint32_t shift = 12 + (log_page < 8 ? log_page : 8);
	uint32_t uar = offset >> shift, in_page = offset & ((1u << shift) - 1);
	/* PRM §9.2.2: a device halted by a fatal error starts nothing: the write is ignored
	 * (D-H-2). */
	if (dev->core.halted)
		return;
	/* §7.2: software rings only the UAR pages it was given. */
	if (dev->hca.state != HCA_INITIALIZED || !obj_get(dev, OBJ_UAR, uar)) {
		dev_violation(dev, NICREF_VIO_UAR_DB_NOT_ALLOCATED, offset);
		return;
	}
	/* A live UAR was opened (uar_db_open) at its ALLOC_UAR. */
	NICREF_ASSERT(uar < DEV_MAX_UARS && dev->uar_db->page[uar]);
	for (size_t i = 0; i < sizeof uar_regs / sizeof uar_regs[0]; i++) {
		const struct uar_reg *r = &uar_regs[i];
		if (in_page >= r->from && in_page < r->to) {
			r->on_write(dev, touch(dev->uar_db, uar), uar, in_page, value);
			return;
		}
	}
	dev_violation(dev, NICREF_VIO_UAR_DB_RESERVED, offset);
}

/* ---- Snapshots (cmd/ctl_snap_obj.c) ------------------------------------------------------------
 * The blob: the touched list, where each page made so far has its registers in the blob, and
 * each such page's registers. A restore of the snapshot the device
 * was last taken into or restored from (dev_core.snap_continues) copies back the pages marked
 * since (snap_dirty: written, or emptied when the objects went); another restore, every page. */
#define NOT_SAVED UINT16_MAX
struct uar_db_blob {
	unsigned ntouched;
	uint16_t touched[DEV_MAX_UARS];
	unsigned npages;
	uint16_t at[DEV_MAX_UARS]; /* UAR number -> its index in page[], or NOT_SAVED */
	struct uar_page page[];
};

size_t uar_db_snap_bytes(const struct nicref_dev *dev)
{
	size_t n = 0;
	for (unsigned i = 0; i < DEV_MAX_UARS; i++)
		n += dev->uar_db->page[i] != NULL;
	return sizeof(struct uar_db_blob) + n * sizeof(struct uar_page);
}

void uar_db_snap_save(struct nicref_dev *dev, void *blob)
{
	struct uar_db *d = dev->uar_db;
	struct uar_db_blob *b = blob;
	b->ntouched = d->ntouched;
	memcpy(b->touched, d->touched, sizeof b->touched);
	b->npages = 0;
	for (unsigned i = 0; i < DEV_MAX_UARS; i++) {
		b->at[i] = NOT_SAVED;
		if (d->page[i]) {
			b->at[i] = (uint16_t)b->npages;
			b->page[b->npages++] = *d->page[i];
		}
	}
	memset(d->snap_dirty, 0, sizeof d->snap_dirty);
}

/* Page i back to the snapshot's registers, or, made since (an ALLOC_UAR of a new number), to
 * what calloc made, as a device that never made it would make it at that number's next
 * ALLOC_UAR. */
static void restore_page(struct uar_db *d, const struct uar_db_blob *b, unsigned i)
{
	if (b->at[i] != NOT_SAVED) {
		NICREF_ASSERT(d->page[i]); /* pages are kept until the device goes */
		*d->page[i] = b->page[b->at[i]];
	} else if (d->page[i]) {
		memset(d->page[i], 0, sizeof *d->page[i]);
	}
}

void uar_db_snap_restore(struct nicref_dev *dev, const void *blob)
{
	struct uar_db *d = dev->uar_db;
	const struct uar_db_blob *b = blob;
	d->ntouched = b->ntouched;
	memcpy(d->touched, b->touched, b->ntouched * sizeof d->touched[0]); /* the rest unread */
	if (!dev->core.snap_continues) {
		for (unsigned i = 0; i < DEV_MAX_UARS; i++)
			restore_page(d, b, i);
	} else {
		for (unsigned w = 0; w < DEV_MAX_UARS / 64; w++)
			for (uint64_t m = d->snap_dirty[w]; m; m &= m - 1)
				restore_page(d, b, w * 64 + (unsigned)__builtin_ctzll(m));
	}
	memset(d->snap_dirty, 0, sizeof d->snap_dirty);
}
