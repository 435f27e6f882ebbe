/* Completions: CQE writing with the ownership and signature rules and overrun detection (PRM
 * §7.12.1, §7.12.3, §7.12.5, T67/T68), the CQ doorbell (§7.2.2 T13/T14) and doorbell record
 * (§7.12.2 T69/T70), the CQ event state machine (§7.12.4) and completion event moderation
 * (§7.13.14). Decisions: docs/cq.md. */
#include <string.h>

#include "cmd/ctl_dev.h"

#define M CQ_COUNTER_MASK
/* T67: the byte of the signature, and the byte and bit of the owner (write_entry). */
enum {
	CQE_SIG_BYTE = PRMB_cqe64__signature / 8,
	CQE_OWNER_BYTE = PRMB_cqe64__owner / 8,
	CQE_OWNER_BIT = 1u << (7 - PRMB_cqe64__owner % 8)
};
_Static_assert((int)PRMB_cqe64__signature % 8 == 0 && (int)PRMW_cqe64__signature == 8 &&
		       (int)PRMW_cqe64__owner == 1 && CQE_OWNER_BYTE != CQE_SIG_BYTE &&
		       (int)CQE_OWNER_BYTE < (int)PRM_SIZE_cqe64,
	       "the signature is a byte of its own, the owner a bit of another");

struct cq *cq_get(const struct nicref_dev *dev, uint32_t cqn)
{
	return obj_at(dev, OBJ_CQ, cqn);
}

static uint32_t cqe_bytes(const struct cq *cq)
{
	return cq->cqe_sz ? 128u : 64u; /* T76 cqe_sz: 0 BYTES_64, 1 BYTES_128 */
}

int cq_read_update_ci(struct nicref_dev *dev, struct cq *cq, uint32_t *ci)
{
	/* T69/T70: update_ci at record 00h[23:0], "Consumer counter of the last polled CQE"; the
	 * device monitors overflow with it (§7.12.1, D-CQ-2). */
	uint8_t b[4]; /* the record's first dword */
	if (dev_dma_read(dev, cq->dbr_addr, b, sizeof b) != 0)
		return -1;
	*ci = (uint32_t)PRM_GET(cq_dbr, update_ci, b, sizeof b);
	return 0;
}

/* ---- The timer list of held events (§7.13.14) --------------------------------------------- */

static void timer_add(struct nicref_dev *dev, struct cq *cq)
{
	struct cq_dev *d = &dev->eqd.cq;
	if (cq->on_timers)
		return;
	cq->tprev = NULL;
	cq->tnext = d->timers;
	if (d->timers)
		d->timers->tprev = cq;
	d->timers = cq;
	cq->on_timers = true;
	d->ntimers++;
}

void cq_timer_drop(struct nicref_dev *dev, struct cq *cq)
{
	struct cq_dev *d = &dev->eqd.cq;
	if (!cq->on_timers)
		return;
	if (cq->tprev)
		cq->tprev->tnext = cq->tnext;
	else
		d->timers = cq->tnext;
	if (cq->tnext)
		cq->tnext->tprev = cq->tprev;
	cq->tprev = cq->tnext = NULL;
	cq->on_timers = false;
	d->ntimers--;
}

static uint64_t period_ns(const struct cq *cq)
{
	return (uint64_t)cq->cq_period * 1000u; /* T76 cq_period: 1 usec granularity */
}

/* ---- Events (§7.12.4, §7.13.14) ----------------------------------------------------------- */

/* `at`: when the event was due. A held event released by the clock (cq_fire_next) was generated at its
 * deadline, so upon_event restarts the timer there, not at the end of the clock advance that
 * found it due (D-CQ-6), and the interrupt the EQE requests is requested at `at` too (D-EQ-11);
 * the EQE itself is written at `now`. */
static void fire(struct nicref_dev *dev, struct cq *cq, uint64_t at)
{
	/* §7.12.4: the completion event is an EQE on the CQ's EQ (T80/T81); "CQ is transferred to
	 * fired state after event has been reported" (§7.13.14). */
	cq_timer_drop(dev, cq);
	cq->pending = false;
	cq->st = CQ_ST_FIRED;
	cq->sn = (uint8_t)((cq->sn + 1u) & 3u); /* D-CQ-4: events delivered, mod 4 */
	cq->since_event = 0;                    /* D-CQ-6 */
	cq->last_notified = (cq->pc - 1u) & M;  /* D-CQ-11: the newest CQE the event covers */
	if (cq->period_mode == 0)
		cq->timer_ns = at; /* T76 upon_event, §7.13.14: "restarts ... upon event generation" */
	eq_post_completion(dev, cq->c_eqn, cq->hdr.handle, at);
}

void cq_moderate(struct nicref_dev *dev, struct cq *cq)
{
	if (cq->st == CQ_ST_FIRED || !cq->pending) {
		cq->pending = cq->st != CQ_ST_FIRED && cq->pending;
		cq_timer_drop(dev, cq);
		return;
	}
	/* §7.13.14: an armed CQ with an event pending generates it when the cq_period timer has
	 * expired, or when the completions since the one that triggered the last event reached
	 * cq_max_count (D-CQ-6); T76: 0 disables either. With both 0 there is no moderation. */
	bool go = (cq->cq_period == 0 && cq->cq_max_count == 0) ||
		  (cq->cq_max_count != 0 && cq->since_event >= cq->cq_max_count) ||
		  (cq->cq_period != 0 && dev->core.now_ns - cq->timer_ns >= period_ns(cq));
	if (go)
		fire(dev, cq, dev->core.now_ns);
	else if (cq->cq_period != 0)
		timer_add(dev, cq);
	else
		cq_timer_drop(dev, cq);
}

/* The held event due first (the earliest deadline, then the lowest cqn, so the order does not
 * depend on how time was advanced), or NULL when none is held. */
static struct cq *next_held(const struct nicref_dev *dev, uint64_t *due)
{
	struct cq *best = NULL;
	for (struct cq *cq = dev->eqd.cq.timers; cq; cq = cq->tnext) {
		uint64_t p = period_ns(cq);
		uint64_t d = cq->timer_ns > UINT64_MAX - p ? UINT64_MAX : cq->timer_ns + p;
		if (!best || d < *due || (d == *due && cq->hdr.handle < best->hdr.handle)) {
			best = cq;
			*due = d;
		}
	}
	return best;
}

bool cq_next_due(const struct nicref_dev *dev, uint64_t *due)
{
	return next_held(dev, due) != NULL;
}

void cq_fire_next(struct nicref_dev *dev)
{
	uint64_t due = 0;
	struct cq *cq = next_held(dev, &due);
	NICREF_ASSERT(cq != NULL && due <= dev->core.now_ns); /* obj_tick asked cq_next_due */
	fire(dev, cq, due);
}

/* T84/T85: the CQ error event (type 0x04) with the CQ number and the syndrome, to the EQ that
 * takes CQ errors (§7.12.5: "Hardware will deliver the auxiliary information ... in an EQE"). */
static void cq_error(struct nicref_dev *dev, struct cq *cq, uint8_t status, uint8_t syndrome)
{
	uint8_t eqe[EQE_SIZE] = { 0 };
	cq->status = status;
	PRM_SET(eqe_cq_error, cqn, eqe, sizeof eqe, cq->hdr.handle);
	PRM_SET(eqe_cq_error, syndrome, eqe, sizeof eqe, syndrome);
	eq_post_event(dev, EQ_EVENT_CQ_ERROR, eqe);
}

/* Writes one CQE (64 bytes, owner and signature still to be set) at counter `counter` of the
 * current buffer. D-CQE-2: a 128-byte CQE carries it in its second half (cqe128), data_64 zero.
 * 0, or -1 on a DMA error. */
static int write_entry(struct nicref_dev *dev, struct cq *cq, const uint8_t cqe[CQE_SIZE],
		       uint32_t counter)
{
	uint8_t e[PRM_SIZE_cqe128] = { 0 };
	uint32_t esz = cqe_bytes(cq);
	uint8_t *c64 = e + esz - PRM_SIZE_cqe64;
	memcpy(c64, cqe, PRM_SIZE_cqe64);
	/* §7.12.3.1: the owner value flips each time the CQ wraps: (pc >> log_cq_size) & 1
	 * (SW initialised the buffer to owner 1, opcode 0xF: §12.7.1, D-CQ-8). The signature
	 * covers the whole entry (T68, D-CQE-1); data_64 is zero, so T68's "taken into account
	 * if data / GRH was written to it" changes nothing. */
	uint8_t own = (uint8_t)((cqe[CQE_OWNER_BYTE] & ~CQE_OWNER_BIT) |
				(counter >> cq->log_size & 1u ? CQE_OWNER_BIT : 0u));
	/* The XOR of the entry is that of the CQE handed in (the first half of a 128-byte entry
	 * is zero) with the owner byte and a zero signature in place of theirs; both bytes are
	 * stored once, never read back: a load of bytes just stored one by one waits for them
	 * to leave the store buffer (no store forwarding), and each frame wrote a CQE. */
	uint8_t sig = (uint8_t)(eq_entry_signature(cqe, PRM_SIZE_cqe64, counter) ^
				cqe[CQE_SIG_BYTE] ^ cqe[CQE_OWNER_BYTE] ^ own);
	c64[CQE_OWNER_BYTE] = own;
	c64[CQE_SIG_BYTE] = sig;
	/* T76 cc: "all CQEs are written (collapsed) to first CQ entry". */
	uint32_t index = cq->cc ? 0 : (counter & ((1u << cq->log_size) - 1u));
	return dev_dma_write(dev, qbuf_addr(&cq->buf, (uint64_t)index * esz), e, esz);
}

static bool is_error_cqe(unsigned opcode)
{
	return opcode == CQE_OP_REQ_ERR || opcode == CQE_OP_RESP_ERR; /* T68 13, 14: T73 format */
}

static void trace_cqe(struct nicref_dev *dev, const struct cq *cq, const uint8_t *cqe)
{
	unsigned opcode = (unsigned)PRM_GET(cqe64, opcode, cqe, CQE_SIZE);
	/* T74: error CQEs carry their syndrome at 34h[7:0]. */
	uint64_t syndrome = is_error_cqe(opcode) ? PRM_GET(err_cqe, syndrome, cqe, CQE_SIZE) : 0;
	const uint64_t args[] = { cq->hdr.handle, cq->pc, opcode, syndrome,
				  PRM_GET(cqe64, wqe_counter, cqe, CQE_SIZE) };
	dev_emit(dev, NICREF_EV_CQE, args, 5);
}

int cq_post(struct nicref_dev *dev, uint32_t cqn, const uint8_t cqe[64])
{
	struct cq *cq = cq_get(dev, cqn);
	if (!cq || cq->status != CQ_STATUS_OK)
		return -1; /* §7.12.1: a CQ in error takes no more CQEs */

	/* §7.12.1 / D-CQ-2: full when pc - cc == 2^log_cq_size, cc the record's update_ci. With
	 * oi "old CQEs may be overwritten"; a collapsed CQ (cc) never fills. */
	if (!cq->oi && !cq->cc) {
		uint32_t ci;
		if (cq_read_update_ci(dev, cq, &ci) != 0) {
			cq_error(dev, cq, CQ_STATUS_WRITE_FAIL, 0x2); /* D-CQ-12 */
			return -1;
		}
		uint32_t outstanding = (cq->pc - ci) & M;
		if (outstanding > (1u << cq->log_size)) {
			/* update_ci ahead of the CQEs written: SW's bug, not an overflow. */
			dev_violation(dev, NICREF_VIO_CQ_DBR_CI_BEYOND_PC, (uint64_t)cqn << 24 | ci);
		} else {
			cq->cc_seen = ci;
			if (outstanding == (1u << cq->log_size)) {
				/* §7.12.1 steps 1-3: the CQ to error (T76 status CQ_OVERFLOW), the
				 * caller's WQ to error (our -1), the event (T85 syndrome 0x1); the CQE
				 * is not written (§7.12.5). */
				dev_violation(dev, NICREF_VIO_CQ_OVERRUN, cqn);
				cq_error(dev, cq, CQ_STATUS_OVERFLOW, 0x1);
				return -1;
			}
		}
	}
	if (write_entry(dev, cq, cqe, cq->pc) != 0) {
		cq_error(dev, cq, CQ_STATUS_WRITE_FAIL, 0x2); /* T76 0xA CQ_WRITE_FAIL, D-CQ-12 */
		return -1;
	}
	trace_cqe(dev, cq, cqe);
	/* T68 se: "This CQE cause EQE generation for solicited event"; D-CQ-5: error CQEs too. */
	bool solicited = PRM_GET(cqe64, se, cqe, CQE_SIZE) ||
			 is_error_cqe((unsigned)PRM_GET(cqe64, opcode, cqe, CQE_SIZE));
	if (solicited) {
		cq->last_solicit = cq->pc; /* T76 last_solicit_index */
		cq->solicit_seen = true;
	}
	cq->pc = (cq->pc + 1u) & M;
	if (cq->since_event != UINT32_MAX)
		cq->since_event++;
	if (cq->period_mode == 1)
		cq->timer_ns = dev->core.now_ns; /* T76 upon_cqe: the timer restarts on a completion */

	/* §7.12.4: an event when a CQE arrives on a CQ armed by ARM_NEXT, or by ARM_SOLICITED
	 * and the CQE is solicited. */
	if (cq->st == CQ_ST_ARMED || (cq->st == CQ_ST_SOL_ARMED && solicited))
		cq->pending = true;
	/* T76 / §7.13.14: with scqe_break_moderation_en a solicited CQE "causes immediate EQE
	 * generation". */
	if (cq->pending && cq->scqe_break && solicited)
		fire(dev, cq, dev->core.now_ns);
	else
		cq_moderate(dev, cq);
	return 0;
}

void cq_write_resize_cqe(struct nicref_dev *dev, struct cq *cq, uint32_t outstanding)
{
	/* D-CQ-14: a CQ in error takes no more CQEs (§7.12.1), the Resize CQE included; the
	 * resize itself goes on. */
	if (cq->status != CQ_STATUS_OK)
		return;
	/* §7.12.6: "it is advised that the driver reserves room for one extra CQE": an old
	 * buffer full by the record (D-CQ-2) has none, the driver's fault; D-CQ-7 writes the
	 * Resize CQE anyway (over the oldest unconsumed CQE). With oi or cc there is no full. */
	if (!cq->oi && !cq->cc && outstanding == (1u << cq->log_size))
		dev_violation(dev, NICREF_VIO_CQ_RESIZE_NO_ROOM, cq->hdr.handle);
	/* §7.12.6: "the hardware will report a special CQE called Resize_Cq (CQE.opcode = 5h) to
	 * the old CQ"; T72 gives only owner and signature (all else 0). D-CQ-7: it takes the
	 * slot of the producer counter in the old buffer, and the counter does not move. */
	uint8_t cqe[PRM_SIZE_resize_cqe] = { 0 };
	PRM_SET(resize_cqe, opcode, cqe, sizeof cqe, CQE_OP_RESIZE);
	if (write_entry(dev, cq, cqe, cq->pc) != 0) {
		cq_error(dev, cq, CQ_STATUS_WRITE_FAIL, 0x2);
		return;
	}
	trace_cqe(dev, cq, cqe);
}

/* ---- The CQ doorbell (§7.2.2 T13/T14) ----------------------------------------------------- */

void cq_arm(struct nicref_dev *dev, uint32_t uar, uint32_t cqn, unsigned cmd_sn, unsigned cmd,
	    uint32_t ci)
{
	struct cq *cq = cq_get(dev, cqn);
	if (!cq) {
		dev_violation(dev, NICREF_VIO_CQ_DB_NO_CQ, cqn);
		return;
	}
	if (cq->uar != uar) { /* §7.2 item 4 */
		dev_violation(dev, NICREF_VIO_CQ_DB_WRONG_UAR, cqn);
		return;
	}
	if (cq->oi) { /* T76 oi: "Request completion notifications ... should not be rung" */
		dev_violation(dev, NICREF_VIO_CQ_DB_WITH_OI, cqn);
		return;
	}
	/* T14 cq_ci: the consumer counter at the time of the ring: not ahead of the CQEs written,
	 * not behind what the device has seen. */
	if (((cq->pc - ci) & M) > ((cq->pc - cq->cc_seen) & M)) {
		dev_violation(dev, NICREF_VIO_CQ_ARM_CI_BEYOND_PC, cqn);
		return;
	}
	/* D-CQ-4: an arm whose cmd_sn is not the count of events delivered (mod 4) is stale. */
	if (cmd_sn != cq->sn)
		return;
	cq->cc_seen = ci;
	/* §7.12.4 Figure 21 (D-CQ-3): FIRED or SOL_ARMED + ARM_NEXT -> ARMED; FIRED + ARM_SOL
	 * -> SOL_ARMED; an ARMED CQ stays ARMED on ARM_SOL (T71: SW "does not ring" it). */
	if (cmd == 0)
		cq->st = CQ_ST_ARMED;
	else if (cq->st != CQ_ST_ARMED)
		cq->st = CQ_ST_SOL_ARMED;
	/* §7.12.4: "If new CQEs are posted ... and these CQEs are not yet consumed, then an event
	 * will be generated immediately after the request for notification is executed": for
	 * ARMED any CQE at or after ci, for SOL_ARMED a solicited one (last_solicit_index). */
	uint32_t unread = (cq->pc - ci) & M;
	if (cq->st == CQ_ST_ARMED ? unread != 0
				  : cq->solicit_seen && ((cq->last_solicit - ci) & M) < unread)
		cq->pending = true;
	cq_moderate(dev, cq);
}
