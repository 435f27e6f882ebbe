/* The send doorbell of an SQ (PRM §7.2, §7.2.2.1, §7.4.3.1; spec-map §3.6, D-DB-2, D-DB-3,
 * D-DB-4): what an SQ does with a doorbell the doorbell layer decoded (obj/uar_db.c), and
 * whether the Blue Flame buffer that came with it holds the WQE. */
#include <string.h>

#include "cmd/cmd_table.h"

#define BF_BUF_MAX 512u /* a buffer of the largest register modelled (2^10 bytes) */

/* D-DB-3: the device takes the WQE from the Blue Flame buffer when it is whole there (ds >= 2,
 * §7.2.2.1 "For WQEs with DS=1, blue flame is not supported"; ds * 16 bytes within the buffer,
 * every dword of them written since the buffer's last doorbell) and is the WQE the SQ holds at
 * that index ("the WQE must be posted to the Work WQ without padding", §7.2.2.1). Otherwise it
 * reads the WQE from memory, as for a plain doorbell. */
static bool bf_usable(struct nicref_dev *dev, const struct sq *sq, const struct sq_db *db)
{
	unsigned bytes = db->ds * 16u;
	if (db->ds < 2 || bytes > db->bf_size || bytes > db->bf_whole)
		return false;
	uint8_t mem[BF_BUF_MAX];
	if (wq_read(dev, &sq->wq, db->wqe_index, 0, mem, bytes))
		return false;
	return memcmp(mem, db->bf, bytes) == 0;
}

void sq_doorbell(struct nicref_dev *dev, uint32_t uar, const struct sq_db *db)
{
	uint32_t sqn = db->sqn;
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
	int8_t reg = (int8_t)db->bf_reg;
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
	uint16_t rec;
	if (wq_dbr_read(dev, &sq->wq, true, &rec))
		return;
	sq->wq.sw_counter = rec;
	uint16_t index = db->wqe_index;
	if ((uint16_t)(index - sq->wq.hw_counter) >= (uint16_t)(rec - sq->wq.hw_counter))
		return;
	uint64_t a[5] = { sqn, index, db->opcode, db->ds, bf_usable(dev, sq, db) ? 1u : 0u };
	dev_emit(dev, NICREF_EV_SQ_DOORBELL, a, 5);
	/* The WQEs run in the data path. In ERR they are flushed (T63, L3641). */
	if (sq->state == WQ_ERR)
		sq_flush(dev, sq);
}
