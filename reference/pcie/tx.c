/* The TLP transmitter of one end (PCIe Base §3.6.2.1-§3.6.2.2): sequence numbers, the LCRC,
 * nullified TLPs, the retry buffer, REPLAY_TIMER, REPLAY_NUM, the replay, and what a received
 * Ack or Nak does. Rule names T1-T10 are docs/pcie.md's. */
#include <string.h>

#include "pcie/pcie_int.h"

/* A TLP on the wire: sequence header, the TLP, LCRC (Fig. 3-14). */
static uint32_t wire_bytes(uint32_t tlp_len)
{
	return NICREF_PCIE_SEQHDR_BYTES + tlp_len + NICREF_PCIE_LCRC_BYTES;
}

static uint32_t limit_now(const struct nicref_pcie_dll *d)
{
	/* L124-126: the simplified limit by Extended Synch (D-DLL-3). */
	return d->p.extended_synch ? d->p.replay_limit_es1 : d->p.replay_limit;
}

/* T7(b)/(c): reset and restart. The limit is taken now (D-DLL-14: L127 lets a change of
 * Extended Synch apply at the next reset). The timer counts from the last symbol of the packet
 * that restarts it (L33-35, L102, L134): in a link the end is told at its first symbol, and
 * waits for the rest of it on the wire (D-DLL-22). */
void pcie_timer_restart(struct nicref_pcie_dll *d, uint32_t bytes)
{
	d->replay_timer = 0;
	d->replay_timer_running = true;
	d->replay_timer_wait = (uint64_t)bytes * d->symbol_cost;
	d->replay_limit_now = limit_now(d);
}

/* T7(d)/(e): reset and hold. */
void pcie_timer_hold(struct nicref_pcie_dll *d)
{
	d->replay_timer = 0;
	d->replay_timer_running = false;
	d->replay_timer_wait = 0;
	d->replay_limit_now = limit_now(d);
}

/* T7(a) (L33): started by a (re)transmission when not running; only while TLPs wait for their
 * acknowledgement (T7(d), L40: held while the retry buffer is empty). */
static void timer_start_if_idle(struct nicref_pcie_dll *d, uint32_t tlp_len)
{
	if (!d->replay_timer_running && retry_count(d) > 0)
		pcie_timer_restart(d, wire_bytes(tlp_len));
}

static void emit_tlp(struct nicref_pcie_dll *d, uint16_t seq, const uint8_t *tlp, uint32_t len,
		     uint32_t lcrc, bool nullified, bool replay, bool begins)
{
	struct nicref_pcie_event ev = { .kind = NICREF_PCIE_EV_TX, .seq = seq, .tlp = tlp,
					.len = len, .lcrc = lcrc, .nullified = nullified,
					.replay = replay, .replay_begins = begins };
	pcie_emit(d, &ev);
}

bool nicref_pcie_can_accept(const struct nicref_pcie_dll *d)
{
	/* L96: no new TLP while a replay is due or under way (nor while it waits for the
	 * retrain, D-DLL-15); T1 (L48): the window. */
	return !d->retraining && !d->replay_pending && !d->replaying &&
	       seq_diff(d->next_transmit_seq, d->ackd_seq) < NICREF_PCIE_WINDOW;
}

enum nicref_pcie_accept nicref_pcie_tl_send(struct nicref_pcie_dll *d, const uint8_t *tlp,
					    size_t len, bool nullify)
{
	if (len == 0 || len > d->tlp_max)
		return NICREF_PCIE_TOO_LONG;
	if (d->retraining || d->replay_pending || d->replaying)
		return NICREF_PCIE_BLOCKED;
	/* T1 (L48): stop accepting while (NEXT_TRANSMIT_SEQ - ACKD_SEQ) mod 4096 >= 2048; no error
	 * (D-DLL-1, erratum E7). */
	if (seq_diff(d->next_transmit_seq, d->ackd_seq) >= NICREF_PCIE_WINDOW)
		return NICREF_PCIE_STALLED;
	uint16_t seq = d->next_transmit_seq;
	uint8_t hdr[NICREF_PCIE_SEQHDR_BYTES];
	nicref_pcie_seqhdr(seq, 0, hdr); /* T2: reserved bits 0000b (L13) */
	uint32_t lcrc = nicref_pcie_lcrc(hdr, tlp, len);
	if (nullify) {
		/* T6 (L72-81): the uncomplemented remainder, EDB; NEXT_TRANSMIT_SEQ unchanged, not
		 * stored (L83), so never replayed; no timer (D-DLL-20). */
		emit_tlp(d, seq, tlp, (uint32_t)len, ~lcrc, true, false, false);
		return NICREF_PCIE_SENT;
	}
	/* T5 (L83): the copy in the retry buffer, with its LCRC (a replay sends the original). */
	memcpy(slot_bytes(d, seq), tlp, len);
	d->slot[seq % NICREF_PCIE_RETRY_SLOTS] = (struct nicref_pcie_slot){ lcrc, (uint16_t)len };
	/* T4 (L49). */
	d->next_transmit_seq = seq_add(seq, 1);
	emit_tlp(d, seq, slot_bytes(d, seq), (uint32_t)len, lcrc, false, false, false);
	timer_start_if_idle(d, (uint32_t)len);
	return NICREF_PCIE_SENT;
}

void pcie_replay_trigger(struct nicref_pcie_dll *d, enum replay_cause why)
{
	if (d->replaying) {
		/* L109-113: Naks during a replay are processed and collapse; the replay finishes
		 * (D-DLL-6) and one more follows, unless a later Ack supersedes it (D-DLL-16). */
		d->replay_again = true;
		(void)why;
		return;
	}
	if (d->replay_pending)
		return; /* waiting for the retrain: collapsed into it (D-DLL-16) */
	/* T10(1) (L86): everything acknowledged: no replay. */
	if (retry_count(d) == 0)
		return;
	/* T7(e) (L37): reset and hold until the replay restarts it. */
	pcie_timer_hold(d);
	/* T10(2) (L88): REPLAY_NUM += 1, always (D-DLL-5). */
	d->replay_num = (uint8_t)((d->replay_num + 1u) & 3u);
	d->triggers_since_progress++;
	d->replay_pending = true;
	if (d->replay_num == 0) {
		/* T10(3) (L90-91): rolled over 11b -> 00b: retrain, a port error; the state and the
		 * retry buffer are kept; the replay waits for the retrain. */
		pcie_error(d, NICREF_PCIE_ERR_REPLAY_ROLLOVER, NICREF_PCIE_RULE_T10_ROLLOVER);
		d->retraining = true;
		struct nicref_pcie_event ev = { .kind = NICREF_PCIE_EV_RETRAIN };
		pcie_emit(d, &ev);
	}
}

bool pcie_replay_one(struct nicref_pcie_dll *d)
{
	if (d->retraining)
		return false;
	bool first = false;
	if (d->replay_pending) {
		d->replay_pending = false;
		/* T10(1) again: an Ack may have emptied the buffer while the replay waited. */
		if (retry_count(d) == 0)
			return false;
		/* T10(5) (L100): from the oldest unacknowledged TLP, in the original order. */
		d->replaying = true;
		d->replay_next = seq_add(d->ackd_seq, 1);
		d->replay_end = d->next_transmit_seq;
		d->replays++;
		first = true;
	}
	if (!d->replaying)
		return false;
	uint16_t seq = d->replay_next;
	const struct nicref_pcie_slot *s = &d->slot[seq % NICREF_PCIE_RETRY_SLOTS];
	/* The original sequence number and LCRC (L100). The slot stays intact even when an Ack
	 * purged it meanwhile: no new TLP is accepted during a replay (L96). */
	emit_tlp(d, seq, slot_bytes(d, seq), s->len, s->lcrc, false, true, first);
	if (first && retry_count(d) > 0)
		pcie_timer_restart(d, wire_bytes(s->len)); /* T7(b), T10(6) (L34, L102) */
	else
		timer_start_if_idle(d, s->len);
	d->replay_next = seq_add(seq, 1);
	if (d->replay_next == d->replay_end) {
		/* T10(8) (L104, L118): normal operation again. */
		d->replaying = false;
		if (d->replay_again) {
			d->replay_again = false;
			pcie_replay_trigger(d, REPLAY_BY_NAK);
		}
	}
	return true;
}

void pcie_acknak(struct nicref_pcie_dll *d, bool nak, uint16_t seq)
{
	/* T8 (L158-160): AckNak_Seq_Num must be ACKD_SEQ or the seq of an unacknowledged TLP. */
	uint16_t outstanding = seq_diff(seq_add(d->next_transmit_seq, NICREF_PCIE_SEQ_MOD - 1u),
					d->ackd_seq);
	if (seq_diff(seq, d->ackd_seq) > outstanding) {
		pcie_error(d, NICREF_PCIE_ERR_DL_PROTOCOL, NICREF_PCIE_RULE_T8_SEQ);
		return;
	}
	if (seq != d->ackd_seq) {
		/* Forward progress (L162-168): purge through seq, ACKD_SEQ := seq, REPLAY_NUM := 0
		 * (only here: D-DLL-4), and the timer. */
		struct nicref_pcie_event ev = { .kind = NICREF_PCIE_EV_ACKED,
						.first = seq_add(d->ackd_seq, 1), .seq = seq };
		d->ackd_seq = seq;
		d->replay_num = 0;
		d->triggers_since_progress = 0;
		/* T10(1) (L86): a replay waiting with nothing left to send is over. */
		if (d->replay_pending && retry_count(d) == 0)
			d->replay_pending = false;
		/* A replay that waits keeps the timer held until it restarts it (T7(e)). */
		if (!d->replay_pending) {
			if (retry_count(d) > 0)
				pcie_timer_restart(d, NICREF_PCIE_DLLP_BYTES); /* T7(c) (L35, L134) */
			else
				pcie_timer_hold(d); /* T7(d) (L40) */
		}
		/* L113: an Ack after a Nak during a replay supersedes the Nak. */
		if (!nak)
			d->replay_again = false;
		pcie_emit(d, &ev);
	}
	if (nak)
		pcie_replay_trigger(d, REPLAY_BY_NAK); /* L170; no error (L173) */
}
