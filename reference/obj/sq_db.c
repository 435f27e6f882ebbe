/* The send doorbell of an SQ (PRM §7.2, §7.2.2.1, §7.4.3.1; D-DB-2, D-DB-3, D-DB-4 in
 * docs/wq.md, D-TX-3, D-TX-4 in docs/tx.md): what an SQ does with a doorbell the doorbell layer
 * decoded (obj/uar_db.c), whether the Blue Flame buffer that came with it holds the WQE, and the
 * hand-over of an acted-on doorbell to the data path (dev->datapath, cmd/ctl_dev.h). */
#include "cmd/cmd_table.h"

/* D-DB-3 (as D-TX-4 refines it, docs/tx.md): the Blue Flame buffer holds the WQE when it is
 * whole there: ds >= 2 (§7.2.2.1 "For WQEs with DS=1, blue flame is not supported"), ds * 16
 * bytes within the buffer, every dword of them written since the buffer's last doorbell. The
 * data path then executes that copy; whether it equals the WQE in memory ("the WQE must be
 * posted to the Work WQ", §7.2.2.1) is the driver's rule, which the data path checks. */
static bool bf_usable(const struct sq_db *db)
{
	unsigned bytes = db->ds * 16u;
	return db->ds >= 2 && bytes <= db->bf_size && bytes <= db->bf_whole;
}

/* A send doorbell that names a QP (D-ROCE-2; beyond PRM Rev 0.40): the UAR rule of §7.2 item 4
 * as for an SQ ([IFC] qpc uar_page); a QP in RST, INIT or RTR has no send queue working ([IBTA]
 * §10.3.1: Post Send is refused before RTS) and its doorbell is not acted on. The transport
 * (dev->datapath.qp_run) reads the doorbell record and applies D-DB-2 with its counters. */
static void qp_doorbell(struct nicref_dev *dev, uint32_t uar, struct qp *qp,
			const struct sq_db *db, bool bf_ok)
{
	if (qp->uar != uar) {
		dev_violation(dev, NICREF_VIO_SQ_DB_WRONG_UAR, (uint64_t)uar << 32 | db->sqn);
		return;
	}
	if (qp->state == QP_RST || qp->state == QP_INIT || qp->state == QP_RTR)
		return;
	if (dev->datapath.qp_run)
		dev->datapath.qp_run(dev, qp, db, bf_ok);
}

void sq_doorbell(struct nicref_dev *dev, uint32_t uar, const struct sq_db *db)
{
	uint32_t sqn = db->sqn;
	struct sq *sq = obj_get(dev, OBJ_SQ, sqn);
	/* D-ROCE-2: SQNs and QPNs are one space; a number that is no SQ may be a QP's. */
	struct qp *qp = sq ? NULL : obj_get(dev, OBJ_QP, sqn);
	if (qp) {
		qp_doorbell(dev, uar, qp, db, bf_usable(db));
		return;
	}
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
	if ((uint16_t)(index - sq->wq.hw_counter) >= (uint16_t)(rec - sq->wq.hw_counter)) {
		/* Not in [hw_counter, record): behind the device's counter it is "already
		 * executed"; at or past the record (within half the counter space) it names a WQE
		 * SW has not posted (D-TX-3). Neither is acted on. */
		if ((uint16_t)(index - rec) < 0x8000u)
			dev_violation(dev, NICREF_VIO_SQ_DB_AHEAD_OF_RECORD,
				      (uint64_t)sqn << 32 | (uint64_t)index << 16 | rec);
		return;
	}
	bool bf = bf_usable(db);
	uint64_t a[5] = { sqn, index, db->opcode, db->ds, bf ? 1u : 0u };
	dev_emit(dev, NICREF_EV_SQ_DOORBELL, a, 5);
	/* In ERR the WQEs are flushed (T63, L3641); in RDY the data path runs them. */
	if (sq->state == WQ_ERR)
		sq_flush(dev, sq);
	else if (dev->datapath.sq_run)
		dev->datapath.sq_run(dev, sq, db, bf);
}
