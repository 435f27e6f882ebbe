/* Send doorbells and Blue Flame buffers of the UAR pages (PRM §7.2, §7.2.2.1, §7.2.2.2,
 * §7.4.3.1; spec-map §3.6, D-DB-2, D-DB-3, D-DB-4).
 *
 * BAR0 offsets 800h-FFFh of a UAR page are Blue Flame registers of 2^log_bf_reg_size bytes,
 * each a pair of equal buffers (even, odd). The send doorbell is the first two dwords of a
 * buffer, the WQE's ctrl dwords 0-1 (T26: wqe_index << 8 | opcode, sqn << 8 | ds), written
 * lower dword first (§7.2.2.2); the device acts on it at the second dword. A Blue Flame post
 * also writes the rest of the WQE (ds * 16 bytes) into the buffer, in any order (§7.2.2.1). */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"

#define BF_AREA 0x800u   /* §7.2.2 T13: DB_BlueFlame_Buffer0_even */
#define BF_AREA_END 0x1000u
#define BF_BUF_MAX 512u  /* a buffer of the largest register modelled (2^10 bytes) */
#define BF_BUFS_MAX 8u   /* buffers in 800h-FFFh with the smallest register modelled (2^9) */

struct bf_buf {
	bool d0_valid;                /* dword 0 written, the doorbell half rung */
	uint32_t d0;
	uint64_t written[BF_BUF_MAX / 4 / 64]; /* dwords written since the last doorbell */
	uint8_t data[BF_BUF_MAX];     /* as written, big-endian like the WQE in memory */
};

struct bf_page {
	struct bf_buf buf[BF_BUFS_MAX];
};

struct wq_dev {
	struct bf_page *page[DEV_MAX_UARS]; /* made at a UAR page's first Blue Flame write */
};

int wq_db_init(struct nicref_dev *dev)
{
	dev->wqd = calloc(1, sizeof *dev->wqd);
	return dev->wqd ? 0 : -1;
}

void wq_db_reset(struct nicref_dev *dev)
{
	if (!dev->wqd)
		return;
	for (unsigned i = 0; i < DEV_MAX_UARS; i++) {
		free(dev->wqd->page[i]);
		dev->wqd->page[i] = NULL;
	}
}

void wq_db_fini(struct nicref_dev *dev)
{
	wq_db_reset(dev);
	free(dev->wqd);
	dev->wqd = NULL;
}

/* log2 of a Blue Flame register (T145 4Ch[20:16] log_bf_reg_size), within what is modelled. */
static unsigned bf_log_reg(const struct nicref_dev *dev)
{
	unsigned l = (unsigned)CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_bf_reg_size);
	return l < 9 ? 9 : l > 10 ? 10 : l;
}

static bool bf_written(const struct bf_buf *b, unsigned dword)
{
	return b->written[dword / 64] >> (dword % 64) & 1;
}

/* D-DB-3: the device takes the WQE from the Blue Flame buffer when it is whole there (ds >= 2,
 * §7.2.2.1 "For WQEs with DS=1, blue flame is not supported"; ds * 16 bytes within the buffer,
 * every dword of them written since the buffer's last doorbell) and is the WQE the SQ holds at
 * that index ("the WQE must be posted to the Work WQ without padding", §7.2.2.1). Otherwise it
 * reads the WQE from memory, as for a plain doorbell. */
static bool bf_usable(struct nicref_dev *dev, const struct sq *sq, struct bf_buf *b,
		      unsigned buf_size, uint32_t d0, uint32_t d1, uint16_t index)
{
	unsigned ds = d1 & 0x3F;
	if (ds < 2 || ds * 16u > buf_size)
		return false;
	for (unsigned dw = 2; dw < ds * 4u; dw++)
		if (!bf_written(b, dw))
			return false;
	uint8_t mem[BF_BUF_MAX];
	if (wq_read(dev, &sq->wq, index, 0, mem, ds * 16u))
		return false;
	for (unsigned i = 0; i < 4; i++) {
		b->data[i] = (uint8_t)(d0 >> (24 - 8 * i));
		b->data[4 + i] = (uint8_t)(d1 >> (24 - 8 * i));
	}
	return memcmp(mem, b->data, ds * 16u) == 0;
}

static void sq_doorbell(struct nicref_dev *dev, uint32_t uar, unsigned bufno, struct bf_buf *b,
			unsigned buf_size, uint32_t d0, uint32_t d1)
{
	/* T26: 00h[31:24] and 04h[7:6] reserved. */
	if (d0 & 0xFF000000u || d1 & 0xC0u)
		dev_violation(dev, NICREF_VIO_SQ_DB_RESERVED, (uint64_t)d0 << 32 | d1);
	uint32_t sqn = d1 >> 8;
	unsigned ds = d1 & 0x3F, opcode = d0 & 0xFF;
	uint16_t index = (uint16_t)(d0 >> 8);
	struct sq *sq = obj_get(dev, OBJ_SQ, sqn);
	if (!sq) {
		dev_violation(dev, NICREF_VIO_SQ_DB_NO_SQ, (uint64_t)uar << 32 | sqn);
		return;
	}
	/* §7.2 item 4: "HCA validates that the UAR page used to post the command matches the one
	 * specified in the contexts of that object"; otherwise the doorbell is not acted on. */
	if (sq->uar != uar) {
		dev_violation(dev, NICREF_VIO_SQ_DB_WRONG_UAR, (uint64_t)uar << 32 | sqn);
		return;
	}
	/* §7.2.2: "Send DBs of a SQ can be rung on specific Blue Flame registers and cannot be
	 * interleaved on multiple Blue Flame registers" (D-DB-4: reported, then acted on). */
	int8_t reg = (int8_t)(bufno / 2);
	if (sq->bf_reg >= 0 && sq->bf_reg != reg)
		dev_violation(dev, NICREF_VIO_SQ_DB_BF_REGISTER, (uint64_t)sqn << 8 | (uint8_t)reg);
	sq->bf_reg = reg;
	/* T63: RST, "Doorbells are not processed"; ERR without flush_in_error_en: WQEs "cannot be
	 * submitted" (§7.9.2). */
	if (sq->state == WQ_RST || (sq->state == WQ_ERR && !sq->flush_in_error_en))
		return;
	/* §7.4.3.1: the record holds sq_wqebb_counter, the doorbell the index of the first
	 * WQEBB of the last WQE posted. D-DB-2: acted on when the index lies in [hw_counter,
	 * record); a doorbell "for WQE that has already been executed ... is ignored". */
	uint16_t db;
	if (wq_dbr_read(dev, &sq->wq, true, &db))
		return;
	sq->wq.sw_counter = db;
	if ((uint16_t)(index - sq->wq.hw_counter) >= (uint16_t)(db - sq->wq.hw_counter))
		return;
	uint64_t a[5] = { sqn, index, opcode, ds,
			  bf_usable(dev, sq, b, buf_size, d0, d1, index) ? 1u : 0u };
	dev_emit(dev, NICREF_EV_SQ_DOORBELL, a, 5);
	/* The WQEs run in the data path. In ERR they are flushed (T63, L3641). */
	if (sq->state == WQ_ERR)
		sq_flush(dev, sq);
}

void sq_uar_write(struct nicref_dev *dev, uint32_t uar, uint32_t offset, uint32_t value)
{
	struct wq_dev *wd = dev->wqd;
	if (!wd || uar >= DEV_MAX_UARS || offset < BF_AREA || offset >= BF_AREA_END)
		return; /* obj/uar.c routes only 800h-FFFh of allocated pages here */
	/* §7.2.2.1: "written in chunks of DWORDs (aligned on 4 bytes)"; the BAR refuses other
	 * writes before they reach a UAR page (BAR_UNALIGNED). */
	if (offset & 3)
		return;
	unsigned buf_size = (1u << bf_log_reg(dev)) / 2;
	unsigned bufno = (offset - BF_AREA) / buf_size, at = (offset - BF_AREA) % buf_size;
	if (!wd->page[uar] && !(wd->page[uar] = calloc(1, sizeof *wd->page[uar])))
		return; /* out of memory: the write is lost */
	struct bf_buf *b = &wd->page[uar]->buf[bufno];
	if (at == 0) {
		b->d0 = value;
		b->d0_valid = true;
	} else if (at == 4) {
		/* §7.2.2.2: the lower dword first; the doorbell is rung by the second. */
		if (!b->d0_valid) {
			dev_violation(dev, NICREF_VIO_SQ_DB_ORDER, (uint64_t)uar << 32 | offset);
			return;
		}
		b->d0_valid = false;
		sq_doorbell(dev, uar, bufno, b, buf_size, b->d0, value);
		memset(b->written, 0, sizeof b->written);
	} else {
		b->data[at] = (uint8_t)(value >> 24);
		b->data[at + 1] = (uint8_t)(value >> 16);
		b->data[at + 2] = (uint8_t)(value >> 8);
		b->data[at + 3] = (uint8_t)value;
		b->written[at / 4 / 64] |= 1ull << (at / 4 % 64);
	}
}
