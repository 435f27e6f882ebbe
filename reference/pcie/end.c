/* One end of the link: its life from the DL_Inactive reset, its clock (the timers of T7 and R6 and
 * what falls due), and the transmit side's priority (T11). */
#include <string.h>

#include "pcie/pcie_int.h"

void pcie_emit(struct nicref_pcie_dll *d, struct nicref_pcie_event *ev)
{
	ev->t = d->now;
	if (d->ops.event)
		d->ops.event(d->ops.ctx, ev);
}

void pcie_error(struct nicref_pcie_dll *d, enum nicref_pcie_error e, enum nicref_pcie_rule r)
{
	d->errors[e]++;
	struct nicref_pcie_event ev = { .kind = NICREF_PCIE_EV_ERROR, .error = (uint8_t)e,
					.rule = (uint8_t)r };
	pcie_emit(d, &ev);
}

size_t nicref_pcie_storage_bytes(uint32_t tlp_max)
{
	return (size_t)NICREF_PCIE_RETRY_SLOTS * tlp_max;
}

/* The DL_Inactive values (L23, L25, L29, L184, L189, L194); the timer held (nothing sent). */
static void reset_state(struct nicref_pcie_dll *d)
{
	d->next_transmit_seq = 0;
	d->ackd_seq = 0xFFF;
	d->replay_num = 0;
	d->retraining = d->replay_pending = d->replaying = d->replay_again = false;
	d->replay_next = d->replay_end = 0;
	d->next_rcv_seq = 0;
	d->nak_scheduled = d->nak_pending = d->ack_pending = d->rx_unacked = false;
	d->acknak_latency_timer = 0;
	d->triggers_since_progress = 0;
	pcie_timer_hold(d);
}

int nicref_pcie_init(struct nicref_pcie_dll *d, const struct nicref_pcie_params *p,
		     const struct nicref_pcie_ops *ops, uint8_t *storage, size_t storage_len)
{
	size_t tlp_max = storage_len / NICREF_PCIE_RETRY_SLOTS;
	if (nicref_pcie_params_check(p) != 0 || !storage || tlp_max == 0)
		return -1;
	memset(d, 0, sizeof *d);
	d->p = *p;
	if (ops)
		d->ops = *ops;
	d->store = storage;
	d->tlp_max = (uint32_t)(tlp_max > NICREF_PCIE_TLP_MAX ? NICREF_PCIE_TLP_MAX : tlp_max);
	reset_state(d);
	return 0;
}

int nicref_pcie_set_params(struct nicref_pcie_dll *d, const struct nicref_pcie_params *p)
{
	if (nicref_pcie_params_check(p) != 0)
		return -1;
	d->p = *p;
	/* R7 compares with the new Ack latency limit at once. */
	pcie_ack_check(d);
	pcie_flush(d);
	return 0;
}

void nicref_pcie_set_paced(struct nicref_pcie_dll *d, bool paced)
{
	d->paced = paced;
}

void nicref_pcie_link_down(struct nicref_pcie_dll *d)
{
	reset_state(d);
}

/* T11 (L140): what one end transmits first when several things are due; each class sends
 * one packet when it has one. Completion of the packet in progress (1) is the link's pacing;
 * FC DLLPs (4, 7) and other DLLPs (8) are not modelled; new TLPs (6) come from the TL only when
 * nothing here is due. */
typedef bool (*tx_class)(struct nicref_pcie_dll *d);
static const tx_class priority_order[NICREF_PCIE_PRIO_COUNT][3] = {
	[NICREF_PCIE_PRIO_RECOMMENDED] = { pcie_send_nak, pcie_send_ack, pcie_replay_one },
	[NICREF_PCIE_PRIO_REPLAY_FIRST] = { pcie_replay_one, pcie_send_nak, pcie_send_ack },
};

bool nicref_pcie_pump(struct nicref_pcie_dll *d)
{
	for (unsigned i = 0; i < 3; i++)
		if (priority_order[d->p.priority][i](d))
			return true;
	return false;
}

void pcie_flush(struct nicref_pcie_dll *d)
{
	if (d->paced)
		return;
	/* Each call transmits one packet; a replay has at most 2047 and ends. */
	while (nicref_pcie_pump(d))
		;
}

bool nicref_pcie_tx_pending(const struct nicref_pcie_dll *d)
{
	return !d->retraining && (d->nak_pending || d->ack_pending ||
				  (d->replay_pending && retry_count(d) > 0) || d->replaying);
}

uint64_t nicref_pcie_next_due(const struct nicref_pcie_dll *d)
{
	uint64_t due = UINT64_MAX;
	if (d->retraining)
		return due; /* T7(f) (L38), R7 (L280): nothing falls due out of L0 */
	if (d->replay_timer_running && retry_count(d) > 0)
		due = d->replay_timer >= d->replay_limit_now
			      ? 0
			      : d->replay_timer_wait + (d->replay_limit_now - d->replay_timer);
	if (d->rx_unacked && !d->ack_pending && !d->nak_scheduled) {
		uint64_t a = d->acknak_latency_timer >= d->p.ack_latency_limit
				     ? 0
				     : d->p.ack_latency_limit - d->acknak_latency_timer;
		if (a < due)
			due = a;
	}
	return due;
}

/* What is due at this instant; true when something fired. */
static bool on_due(struct nicref_pcie_dll *d)
{
	bool fired = false;
	if (!d->retraining && d->replay_timer_running && retry_count(d) > 0 &&
	    d->replay_timer >= d->replay_limit_now) {
		/* T7(g) (L123, L131): a replay, and the REPLAY_TIMER Timeout port error; the timer
		 * is reset and held until the replay restarts it (T7(e), L37). */
		pcie_error(d, NICREF_PCIE_ERR_REPLAY_TIMEOUT, NICREF_PCIE_RULE_T7G_EXPIRY);
		pcie_timer_hold(d);
		pcie_replay_trigger(d, REPLAY_BY_TIMER);
		fired = true;
	}
	if (!d->ack_pending) {
		pcie_ack_check(d);
		fired |= d->ack_pending;
	}
	return fired;
}

void nicref_pcie_advance(struct nicref_pcie_dll *d, uint64_t dt)
{
	uint64_t target = d->now + dt < d->now ? UINT64_MAX : d->now + dt;
	for (;;) {
		uint64_t step = target - d->now, due = nicref_pcie_next_due(d);
		if (due < step)
			step = due;
		/* The timers count symbol times; REPLAY_TIMER holds out of L0 (T7(f), L38). It
		 * counts only once the last symbol of the packet that started it is out
		 * (D-DLL-22): that packet is on the wire whether or not the link retrains. */
		uint64_t waited = step < d->replay_timer_wait ? step : d->replay_timer_wait;
		d->replay_timer_wait -= waited;
		if (d->replay_timer_running && !d->retraining)
			d->replay_timer += step - waited;
		if (d->rx_unacked)
			d->acknak_latency_timer += step;
		d->now += step;
		bool fired = on_due(d);
		pcie_flush(d);
		if (d->now == target && !fired)
			return;
	}
}

void nicref_pcie_phy_recovery(struct nicref_pcie_dll *d)
{
	d->retraining = true;
}

void nicref_pcie_retrain_done(struct nicref_pcie_dll *d)
{
	if (!d->retraining)
		return;
	/* L90: the replay continues after the retrain; DLLPs due go first (T11). */
	d->retraining = false;
	pcie_ack_check(d);
	pcie_flush(d);
}

unsigned nicref_pcie_retry_count(const struct nicref_pcie_dll *d)
{
	return retry_count(d);
}

uint16_t nicref_pcie_retry_seq(const struct nicref_pcie_dll *d, unsigned i)
{
	return seq_add(d->ackd_seq, 1u + i);
}

uint32_t nicref_pcie_replay_limit(const struct nicref_pcie_dll *d)
{
	return d->replay_limit_now;
}
