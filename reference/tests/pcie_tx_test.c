/* The transmitter of one end (PCIe Base §3.6.2.1-§3.6.2.2, seed 003): sequence numbers, the
 * window, the retry buffer, Ack/Nak processing, REPLAY_TIMER, REPLAY_NUM and its rollover. */
#include "pcie_util.h"

Test(pcie_tx, reset_values)
{
	/* L23, L25, L29: NEXT_TRANSMIT_SEQ 0, ACKD_SEQ FFFh, REPLAY_NUM 0. */
	struct pu *u = pu_new(NULL);
	cr_assert_eq(u->d.next_transmit_seq, 0);
	cr_assert_eq(u->d.ackd_seq, 0xFFF);
	cr_assert_eq(u->d.replay_num, 0);
	cr_assert_eq(nicref_pcie_retry_count(&u->d), 0);
	cr_assert(!u->d.replay_timer_running);
	pu_free(u);
}

Test(pcie_tx, send_assigns_seq_and_lcrc)
{
	struct pu *u = pu_new(NULL);
	uint8_t t[12], h[2];
	pu_tlp(t, 0);
	pu_send(u, 0);
	const struct nicref_pcie_event *e = pu_nth(u, 0, NICREF_PCIE_EV_TX, 0, 0);
	cr_assert(e);
	cr_assert_eq(e->seq, 0);
	nicref_pcie_seqhdr(0, 0, h);
	cr_assert_eq(e->lcrc, nicref_pcie_lcrc(h, t, 12));
	cr_assert_eq(u->d.next_transmit_seq, 1); /* T4 */
	cr_assert_eq(nicref_pcie_retry_count(&u->d), 1);
	cr_assert(u->d.replay_timer_running); /* T7(a) */
	cr_assert_eq(u->d.replay_timer, 0);
	pu_free(u);
}

Test(pcie_tx, nullified_keeps_seq_and_buffer)
{
	/* T6 (L76-81): inverted LCRC, seq not advanced, not stored; no timer (D-DLL-20). */
	struct pu *u = pu_new(NULL);
	uint8_t t[12], h[2];
	pu_tlp(t, 1);
	cr_assert_eq(nicref_pcie_tl_send(&u->d, t, 12, true), NICREF_PCIE_SENT);
	const struct nicref_pcie_event *e = pu_nth(u, 0, NICREF_PCIE_EV_TX, 0, 0);
	nicref_pcie_seqhdr(0, 0, h);
	cr_assert_eq(e->lcrc, ~nicref_pcie_lcrc(h, t, 12));
	cr_assert(e->nullified);
	cr_assert_eq(u->d.next_transmit_seq, 0);
	cr_assert_eq(nicref_pcie_retry_count(&u->d), 0);
	cr_assert(!u->d.replay_timer_running);
	pu_free(u);
}

Test(pcie_tx, window_stops_at_2047_outstanding)
{
	/* T1 (L48): with ACKD_SEQ FFFh, TLP 2046 makes NEXT_TRANSMIT_SEQ 2047 and
	 * d(2047, 4095) = 2048: the next is refused, with no error (D-DLL-1). */
	struct pu *u = pu_new(NULL);
	for (unsigned i = 0; i < 2047; i++)
		pu_send(u, i);
	uint8_t t[12];
	pu_tlp(t, 9);
	cr_assert_eq(nicref_pcie_tl_send(&u->d, t, 12, false), NICREF_PCIE_STALLED);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_ERROR, -1), 0);
	/* An Ack of seq 0 opens the window by one. */
	pu_dllp(u, NICREF_PCIE_DLLP_ACK, 0);
	cr_assert_eq(nicref_pcie_tl_send(&u->d, t, 12, false), NICREF_PCIE_SENT);
	cr_assert_eq(u->d.next_transmit_seq, 2048);
	pu_free(u);
}

Test(pcie_tx, ack_purges_and_restarts_timer)
{
	struct pu *u = pu_new(NULL);
	for (unsigned i = 0; i < 3; i++)
		pu_send(u, i);
	nicref_pcie_advance(&u->d, 100);
	cr_assert_eq(u->d.replay_timer, 100);
	pu_dllp(u, NICREF_PCIE_DLLP_ACK, 1); /* T8: purge 0 and 1 */
	cr_assert_eq(u->d.ackd_seq, 1);
	cr_assert_eq(nicref_pcie_retry_count(&u->d), 1);
	cr_assert_eq(nicref_pcie_retry_seq(&u->d, 0), 2);
	cr_assert(u->d.replay_timer_running); /* T7(c) */
	cr_assert_eq(u->d.replay_timer, 0);
	pu_dllp(u, NICREF_PCIE_DLLP_ACK, 2);
	cr_assert(!u->d.replay_timer_running); /* T7(d) */
	/* An Ack of ACKD_SEQ with nothing outstanding: no error (L160). */
	pu_dllp(u, NICREF_PCIE_DLLP_ACK, 2);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_ERROR, -1), 0);
	pu_free(u);
}

Test(pcie_tx, ack_for_unsent_is_a_protocol_error)
{
	/* T8 (L158-159): seq 5 is neither ACKD_SEQ (FFFh) nor an unacknowledged TLP (0, 1). */
	struct pu *u = pu_new(NULL);
	pu_send(u, 0);
	pu_send(u, 1);
	pu_dllp(u, NICREF_PCIE_DLLP_ACK, 5);
	const struct nicref_pcie_event *e = pu_nth(u, 0, NICREF_PCIE_EV_ERROR, -1, 0);
	cr_assert(e);
	cr_assert_eq(e->error, NICREF_PCIE_ERR_DL_PROTOCOL);
	cr_assert_eq(u->d.ackd_seq, 0xFFF);
	pu_free(u);
}

Test(pcie_tx, nak_replays_everything_unacknowledged)
{
	struct pu *u = pu_new(NULL);
	for (unsigned i = 0; i < 4; i++)
		pu_send(u, i);
	unsigned from = u->n;
	pu_dllp(u, NICREF_PCIE_DLLP_NAK, 0); /* acknowledges 0, replays 1..3 */
	cr_assert_eq(pu_count(u, from, NICREF_PCIE_EV_TX, 0), 3);
	for (unsigned k = 0; k < 3; k++) {
		const struct nicref_pcie_event *e = pu_nth(u, from, NICREF_PCIE_EV_TX, 0, k);
		cr_assert_eq(e->seq, 1 + k);
		cr_assert(e->replay);
	}
	cr_assert_eq(u->d.replay_num, 1); /* D-DLL-5: incremented after the reset */
	cr_assert(u->d.replay_timer_running);
	cr_assert_eq(u->d.replay_timer, 0);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_ERROR, -1), 0); /* L173 */
	pu_free(u);
}

Test(pcie_tx, timer_expiry_replays)
{
	/* T7(g), D-DLL-13: at the limit (24000), not before. */
	struct pu *u = pu_new(NULL);
	pu_send(u, 0);
	nicref_pcie_advance(&u->d, 23999);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 0), 1);
	nicref_pcie_advance(&u->d, 1);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 0), 2);
	const struct nicref_pcie_event *e = pu_nth(u, 0, NICREF_PCIE_EV_ERROR, -1, 0);
	cr_assert_eq(e->error, NICREF_PCIE_ERR_REPLAY_TIMEOUT);
	cr_assert_eq(e->t, 24000);
	cr_assert_eq(u->d.replay_num, 1);
	pu_free(u);
}

Test(pcie_tx, rollover_retrains_then_replays)
{
	/* T10(3) (L90): the fourth trigger without progress rolls REPLAY_NUM 3 -> 0. */
	struct pu *u = pu_new(NULL);
	pu_send(u, 0);
	nicref_pcie_advance(&u->d, 4 * 24000);
	cr_assert_eq(u->d.replay_num, 0);
	cr_assert(u->d.retraining);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 0), 4); /* original + 3 replays */
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_REPLAY_TIMEOUT], 4);
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_REPLAY_ROLLOVER], 1);
	uint8_t t[12];
	pu_tlp(t, 3);
	cr_assert_eq(nicref_pcie_tl_send(&u->d, t, 12, false), NICREF_PCIE_BLOCKED);
	nicref_pcie_advance(&u->d, 100000); /* held while retraining (T7(f)) */
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 0), 4);
	nicref_pcie_retrain_done(&u->d);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 0), 5);
	cr_assert(u->d.replay_timer_running);
	pu_free(u);
}

Test(pcie_tx, seq_wraps_at_4096)
{
	struct pu *u = pu_new(NULL);
	for (unsigned i = 0; i < 4100; i++) {
		pu_send(u, i);
		pu_dllp(u, NICREF_PCIE_DLLP_ACK, (uint16_t)(i & 0xFFF));
	}
	cr_assert_eq(u->d.next_transmit_seq, 4100 - 4096);
	cr_assert_eq(u->d.ackd_seq, 3);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_ERROR, -1), 0);
	pu_free(u);
}

Test(pcie_tx, ack_emptying_the_buffer_cancels_a_waiting_replay)
{
	/* T10(1) (L86): a replay due (a Nak, not yet transmitted: a paced end whose wire is busy)
	 * with every TLP then acknowledged has nothing to send: the TL is not held back by it. */
	struct pu *u = pu_new(NULL);
	nicref_pcie_set_paced(&u->d, true);
	pu_send(u, 0);
	pu_dllp(u, NICREF_PCIE_DLLP_NAK, 0xFFF);
	cr_assert(u->d.replay_pending);
	cr_assert(!nicref_pcie_can_accept(&u->d));
	pu_dllp(u, NICREF_PCIE_DLLP_ACK, 0);
	cr_assert(!u->d.replay_pending);
	cr_assert(nicref_pcie_can_accept(&u->d));
	cr_assert(!nicref_pcie_pump(&u->d));
	pu_free(u);
}

Test(pcie_tx, timer_counts_from_the_last_symbol_when_packets_take_time)
{
	/* D-DLL-22, PCIe Base §3.6.2.1 (seed 003 L33, L35, L102, L134): REPLAY_TIMER starts at
	 * the last symbol of the TLP transmitted (or retransmitted first in a replay) and
	 * restarts at the last symbol of the Ack received. At 3 symbol times a byte a 12-byte
	 * TLP (18 bytes with its sequence number and LCRC) lasts 54, a DLLP (6 bytes) 18. */
	struct pu *u = pu_new(NULL);
	u->d.symbol_cost = 3;
	pu_send(u, 0);
	nicref_pcie_advance(&u->d, 54);
	cr_assert_eq(u->d.replay_timer, 0, "counting before the last symbol: %llu",
		     (unsigned long long)u->d.replay_timer);
	nicref_pcie_advance(&u->d, 10);
	cr_assert_eq(u->d.replay_timer, 10);
	pu_send(u, 1);
	pu_dllp(u, NICREF_PCIE_DLLP_ACK, 0); /* T7(c): TLP 1 outstanding */
	nicref_pcie_advance(&u->d, 18);
	cr_assert_eq(u->d.replay_timer, 0);
	unsigned from = u->n;
	nicref_pcie_advance(&u->d, 23999);
	cr_assert_eq(pu_count(u, from, NICREF_PCIE_EV_TX, 0), 0, "replayed early");
	nicref_pcie_advance(&u->d, 1); /* 18 + 24000 after the Ack arrived */
	cr_assert_eq(pu_count(u, from, NICREF_PCIE_EV_TX, 0), 1);
	cr_assert(pu_nth(u, from, NICREF_PCIE_EV_TX, 0, 0)->replay);
	/* T7(b): the replay restarts it at the last symbol of its first TLP. */
	nicref_pcie_advance(&u->d, 54);
	cr_assert_eq(u->d.replay_timer, 0);
	nicref_pcie_advance(&u->d, 7);
	cr_assert_eq(u->d.replay_timer, 7);
	pu_free(u);
}
