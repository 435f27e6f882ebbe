/* Private to reference/pcie/: what the transmitter, the receiver and the time keeping of one
 * end share. */
#ifndef NICREF_PCIE_INT_H
#define NICREF_PCIE_INT_H

#include "nicref/pcie.h"

/* d(a, b) = (a - b) mod 4096: all sequence arithmetic (L22, L48, L243). */
static inline uint16_t seq_diff(uint16_t a, uint16_t b)
{
	return (uint16_t)((a - b) & (NICREF_PCIE_SEQ_MOD - 1u));
}
static inline uint16_t seq_add(uint16_t a, unsigned n)
{
	return (uint16_t)((a + n) & (NICREF_PCIE_SEQ_MOD - 1u));
}

/* Unacknowledged TLPs in the retry buffer: (NEXT_TRANSMIT_SEQ - ACKD_SEQ) mod 4096 - 1
 * (L24-25: the difference counts the TLPs not yet acknowledged, plus one). */
static inline unsigned retry_count(const struct nicref_pcie_dll *d)
{
	return (unsigned)seq_diff(d->next_transmit_seq, d->ackd_seq) - 1u;
}
static inline uint8_t *slot_bytes(const struct nicref_pcie_dll *d, uint16_t seq)
{
	return d->store + (size_t)(seq % NICREF_PCIE_RETRY_SLOTS) * d->tlp_max;
}

/* Events. */
void pcie_emit(struct nicref_pcie_dll *d, struct nicref_pcie_event *ev);
void pcie_error(struct nicref_pcie_dll *d, enum nicref_pcie_error e, enum nicref_pcie_rule r);

/* REPLAY_TIMER (T7, L31-40), restarted by a packet of `bytes` bytes on the wire: it counts from
 * that packet's last symbol (L33-35, L102, L134; D-DLL-22). */
void pcie_timer_restart(struct nicref_pcie_dll *d, uint32_t bytes);
void pcie_timer_hold(struct nicref_pcie_dll *d);

/* The transmitter (tx.c): a replay is triggered (by a Nak, or the timer: T10 steps 1-3). */
enum replay_cause { REPLAY_BY_NAK, REPLAY_BY_TIMER };
void pcie_replay_trigger(struct nicref_pcie_dll *d, enum replay_cause why);
/* One replayed TLP; false when no replay is due. */
bool pcie_replay_one(struct nicref_pcie_dll *d);
/* An Ack or Nak received, after the DLLP checks (T8). */
void pcie_acknak(struct nicref_pcie_dll *d, bool nak, uint16_t seq);

/* The receiver (rx.c): R7, an Ack falls due. */
void pcie_ack_check(struct nicref_pcie_dll *d);
/* A scheduled Nak or Ack transmitted. */
bool pcie_send_nak(struct nicref_pcie_dll *d);
bool pcie_send_ack(struct nicref_pcie_dll *d);

/* Everything due, by priority (unpaced ends; end.c). */
void pcie_flush(struct nicref_pcie_dll *d);

#endif
