/* The send engine's loop (PRM §7.4.1.1, §7.4.3, §7.2.2.1, §7.9): on an acted-on doorbell of a
 * RDY SQ, the WQEs from the device's counter (hw_counter) to the doorbell record, one after
 * the other: each fetched from the WQEBB ring (wrapping at its end, §7.4.1.1 Figure 14) or from
 * the Blue Flame buffer, checked, executed through the opcode table, completed. Decisions
 * D-TX-1, D-TX-3, D-TX-4 (docs/tx.md). */
#include <string.h>

#include "eth/eth.h"

void tx_violation(const struct tx_wqe *w, enum nicref_violation rule, uint64_t low)
{
	dev_violation(w->dev, rule, (uint64_t)w->sq->hdr.handle << 32 | low);
}

uint32_t tx_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* T26 OPCODE, with LSO (§3.3.2, D-TX-1): what each opcode runs. T41 gives each its segments;
 * the handler checks them. */
struct tx_op {
	uint8_t opcode;
	uint8_t (*run)(struct tx_wqe *w);
};
static const struct tx_op tx_ops[] = {
	{ NICREF_SEND_OP_NOP, wqe_nop },
	{ NICREF_SEND_OP_SEND, wqe_send },
	{ NICREF_SEND_OP_LSO, wqe_send },
	{ NICREF_SEND_OP_UMR, wqe_umr },
};

static uint8_t execute(struct tx_wqe *w)
{
	uint8_t syndrome = wqe_ctrl_check(w);
	if (syndrome)
		return syndrome;
	for (size_t i = 0; i < sizeof tx_ops / sizeof tx_ops[0]; i++)
		if (tx_ops[i].opcode == w->opcode)
			return tx_ops[i].run(w);
	/* T26: an opcode outside NOP, send, UMR (and LSO) "on the SQ" is malformed (D-TX-9). */
	tx_violation(w, NICREF_VIO_TX_WQE_OPCODE, (uint64_t)w->index << 8 | w->opcode);
	return NICREF_CQE_SYN_LOCAL_QP_OPERATION;
}

/* Fetches the WQE at the device's counter into es->wqe: 0 with its WQEBBs in *bbs, or -1 when
 * it is not (wholly) posted or cannot be read, which ends the run: it stays posted. */
static int fetch(struct tx_wqe *w, const struct sq_db *db, bool bf_ok, uint16_t left, uint16_t *bbs)
{
	struct nicref_dev *dev = w->dev;
	struct sq *sq = w->sq;
	struct eth_state *es = w->es;
	/* D-TX-4: the Blue Flame copy is the WQE the doorbell names, when obj/sq_db.c found it
	 * whole (D-DB-3); the device executes it without reading memory (§7.2.2.1). */
	bool use_bf = bf_ok && w->index == db->wqe_index;
	if (use_bf)
		memcpy(es->wqe, db->bf, TX_OCTWORD);
	else if (wq_read(dev, &sq->wq, w->index, 0, es->wqe, TX_OCTWORD))
		return -1;
	/* T26 DS in octowords; a WQE takes ceil(ds / 4) WQEBBs (§7.4.1.1), ds 0 one (D-SQ-5). */
	unsigned ds = (unsigned)PRM_GET(send_wqe_ctrl, ds, es->wqe, TX_OCTWORD);
	*bbs = ds ? (uint16_t)((ds + 3) / 4) : 1;
	if (*bbs > left) {
		/* §7.4.3: HW owns what the record covers; the rest of this WQE is not posted. */
		tx_violation(w, NICREF_VIO_TX_WQE_BEYOND_RECORD, (uint64_t)w->index << 16 | ds);
		return -1;
	}
	w->len = ds ? ds * TX_OCTWORD : TX_OCTWORD;
	if (use_bf) {
		memcpy(es->wqe, db->bf, w->len);
		/* §7.2.2.1: the WQE is written to the Blue Flame buffer "in addition to memory";
		 * a copy that differs is the driver's mistake (D-TX-4), never a device error. */
		if (wq_read(dev, &sq->wq, w->index, 0, es->mem, w->len) == 0 &&
		    memcmp(es->mem, es->wqe, w->len) != 0)
			tx_violation(w, NICREF_VIO_SQ_BF_MISMATCH, w->index);
		return 0;
	}
	if (w->len > TX_OCTWORD &&
	    wq_read(dev, &sq->wq, w->index, TX_OCTWORD, es->wqe + TX_OCTWORD, w->len - TX_OCTWORD))
		return -1;
	/* §7.2.2.1 "For WQEs with DS=1, blue flame is not supported": the doorbell's buffer was
	 * written past the doorbell for a WQE of ds 1; the device read memory. */
	if (w->index == db->wqe_index && db->ds == 1 && db->bf_whole > 8)
		tx_violation(w, NICREF_VIO_SQ_BF_DS_ONE, w->index);
	return 0;
}

void eth_sq_run(struct nicref_dev *dev, struct sq *sq, const struct sq_db *db, bool bf_ok)
{
	struct eth_state *es = dev->datapath.state;
	/* obj/sq_db.c read the record (sq_wqebb_counter, §7.4.2) into sw_counter. */
	uint16_t rec = sq->wq.sw_counter;
	if ((uint16_t)(rec - sq->wq.hw_counter) > (1u << sq->wq.log_size)) {
		/* More WQEBBs posted than the ring holds (§7.4.1.1): the WQEs overwrote each
		 * other; none is executed (D-TX-3). */
		dev_violation(dev, NICREF_VIO_SQ_DB_RECORD_OVERFLOW,
			      (uint64_t)sq->hdr.handle << 32 | (uint64_t)sq->wq.hw_counter << 16 |
				  rec);
		return;
	}
	/* T63 RDY: "Work requests are processed normally"; a WQE error moves the SQ to ERR
	 * (tx_complete), which ends the run (the flush took the rest). */
	while (sq->state == WQ_RDY && sq->wq.hw_counter != rec) {
		struct tx_wqe w = {
			.dev = dev, .es = es, .sq = sq, .b = es->wqe, .index = sq->wq.hw_counter
		};
		uint16_t bbs;
		if (fetch(&w, db, bf_ok, (uint16_t)(rec - w.index), &bbs))
			return;
		w.opcode = (uint8_t)PRM_GET(send_wqe_ctrl, opcode, w.b, TX_OCTWORD);
		w.ce = (uint8_t)PRM_GET(send_wqe_ctrl, ce, w.b, TX_OCTWORD);
		w.fm = (uint8_t)PRM_GET(send_wqe_ctrl, fm, w.b, TX_OCTWORD);
		w.se = PRM_GET(send_wqe_ctrl, se, w.b, TX_OCTWORD) != 0;
		es->wqes++;
		tx_complete(&w, execute(&w), bbs);
	}
}
