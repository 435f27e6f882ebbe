/* Events: EQE writing with the ownership and signature rules (PRM §7.13.2, T77/T78), the
 * mapping of event types to EQs (§7.13.6, §12.6.1), the EQ doorbells (§7.2.2 T13, §7.13.2.3),
 * the EQ state machine and its interrupts (§7.13.12) with interrupt frequency moderation
 * (§7.13.15), and command completion events (§7.14, §7.13.10.1). Decisions: docs/eq.md. */
#include <string.h>

#include "cmd/ctl_dev.h"

#define M EQ_COUNTER_MASK

struct eq *eq_get(const struct nicref_dev *dev, uint32_t eqn)
{
	return obj_get(dev, OBJ_EQ, eqn);
}

uint8_t eq_entry_signature(const uint8_t *entry, size_t len, uint32_t index)
{
	/* T68/T78: "valid if byte-wise XOR of entire CQE/EQE (including signature field) and the
	 * index is 0xff"; the index is the 24-bit counter, 3 bytes (D-CQE-1). */
	uint8_t x = (uint8_t)(index >> 16) ^ (uint8_t)(index >> 8) ^ (uint8_t)index;
	/* Eight bytes a step (a CQE per received frame), folded to one byte: XOR is bytewise. */
	uint64_t w = 0;
	size_t i = 0;
	if (len == 64) { /* a CQE or an EQE: the eight words at once, no loop */
		uint64_t v[8];
		memcpy(v, entry, sizeof v);
		w = (v[0] ^ v[1]) ^ (v[2] ^ v[3]) ^ ((v[4] ^ v[5]) ^ (v[6] ^ v[7]));
		i = 64;
	}
	for (; i + 8 <= len; i += 8) {
		uint64_t v;
		memcpy(&v, entry + i, 8);
		w ^= v;
	}
	w ^= w >> 32;
	w ^= w >> 16;
	w ^= w >> 8;
	x ^= (uint8_t)w;
	for (; i < len; i++)
		x ^= entry[i];
	return (uint8_t)~x;
}

static void dropped(struct nicref_dev *dev, uint64_t eqn, uint8_t type, unsigned reason)
{
	dev_emit3(dev, NICREF_EV_EQE_DROPPED, eqn, type, reason);
}

/* ---- Interrupts (§7.13.12) and their frequency moderation (§7.13.15) ---------------------- */

static uint64_t vec_delay_ns(const struct nicref_dev *dev, uint32_t vec)
{
	/* CONFIG_INT_MODERATION min_delay, 1 us units (T210). */
	return (uint64_t)dev->int_min_delay[vec] * 1000u;
}

/* `at`: when the interrupt was due; a held one released by the clock (eq_fire_next) fired at its deadline, so
 * the timer reloads there, not at the end of the clock advance (D-EQ-11). */
static void vec_fire(struct nicref_dev *dev, uint32_t vec, uint32_t eqn, uint64_t at)
{
	struct eq_dev *d = &dev->eqd;
	dev_emit2(dev, NICREF_EV_INTERRUPT, vec, eqn);
	if (dev->core.cfg.ops.interrupt)
		dev->core.cfg.ops.interrupt(dev->core.cfg.ops.ctx, vec);
	/* §7.13.15: "Every time interrupt is fired ... the timer is re-loaded". */
	d->vec_last_ns[vec] = at;
	d->vec_flags[vec] |= EQ_VEC_FIRED;
}

/* An interrupt request of eq on its vector at `at` (now, or the deadline of a held completion
 * event generated earlier in this clock advance: D-CQ-6). §7.13.15: with the vector's timer at
 * zero the interrupt fires and reloads the timer; otherwise it waits for the timer, and requests
 * meanwhile coalesce into that one interrupt (D-EQ-11: it names the first EQ that asked). */
static void interrupt_request(struct nicref_dev *dev, const struct eq *eq, uint64_t at)
{
	struct eq_dev *d = &dev->eqd;
	uint32_t vec = eq->intr;
	NICREF_ASSERT(vec < d->nvec); /* CREATE_EQ checked intr (D-EQ-8) */
	if (d->vec_flags[vec] & EQ_VEC_HELD)
		return;
	uint64_t delay = vec_delay_ns(dev, vec);
	/* obj_tick fires held events and interrupts in deadline order, so the vector never fired
	 * after `at`. */
	NICREF_ASSERT(!(d->vec_flags[vec] & EQ_VEC_FIRED) || at >= d->vec_last_ns[vec]);
	if (!(d->vec_flags[vec] & EQ_VEC_FIRED) || delay == 0 || at - d->vec_last_ns[vec] >= delay) {
		vec_fire(dev, vec, eq->hdr.handle, at);
		return;
	}
	d->vec_flags[vec] |= EQ_VEC_HELD;
	d->vec_eqn[vec] = (uint8_t)eq->hdr.handle;
	d->vec_held++;
}

/* The held vector due first (the earliest deadline, then the lowest vector, so the trace order
 * does not depend on how time was advanced), or nvec when none is held. */
static uint32_t next_held(const struct nicref_dev *dev, uint64_t *due)
{
	const struct eq_dev *d = &dev->eqd;
	uint32_t best = d->nvec;
	for (uint32_t v = 0; d->vec_held && v < d->nvec; v++) {
		if (!(d->vec_flags[v] & EQ_VEC_HELD))
			continue;
		uint64_t delay = vec_delay_ns(dev, v);
		uint64_t t = d->vec_last_ns[v] > UINT64_MAX - delay ? UINT64_MAX
								     : d->vec_last_ns[v] + delay;
		if (best == d->nvec || t < *due) {
			best = v;
			*due = t;
		}
	}
	return best;
}

bool eq_next_due(const struct nicref_dev *dev, uint64_t *due)
{
	return next_held(dev, due) < dev->eqd.nvec;
}

void eq_fire_next(struct nicref_dev *dev)
{
	struct eq_dev *d = &dev->eqd;
	uint64_t due = 0;
	uint32_t v = next_held(dev, &due);
	NICREF_ASSERT(v < d->nvec && due <= dev->core.now_ns); /* obj_tick asked eq_next_due */
	d->vec_flags[v] &= (uint8_t)~EQ_VEC_HELD;
	d->vec_held--;
	vec_fire(dev, v, d->vec_eqn[v], due);
}

/* ---- EQEs ---------------------------------------------------------------------------------- */

/* eq_write_eqe, the event generated at `at` (<= now). */
static int write_eqe_at(struct nicref_dev *dev, struct eq *eq, uint8_t eqe[EQE_SIZE], uint64_t at)
{
	uint32_t eqn = eq->hdr.handle;
	uint8_t type = (uint8_t)PRM_GET(eqe, event_type, eqe, EQE_SIZE);
	uint8_t sub_type = (uint8_t)PRM_GET(eqe, event_sub_type, eqe, EQE_SIZE);
	uint32_t size = 1u << eq->log_size;

	if (eq->broken) {
		dropped(dev, eqn, type, 2);
		return -1;
	}
	/* D-EQ-4: full when pc - cc == 2^log_eq_size (§7.12.1 "same as CQ is managed",
	 * §7.13.2). With oi the device overwrites (T94 "overrun ignore"); with ec every EQE goes
	 * to entry 0 and nothing is ever full. */
	if (!eq->oi && !eq->ec && ((eq->pc - eq->cc) & M) >= size) {
		dev_violation(dev, NICREF_VIO_EQ_OVERRUN, eqn);
		dropped(dev, eqn, type, 1);
		eq->broken = true;
		/* D-EQ-4: an overrun of an EQ that takes asynchronous events is the device's
		 * fatal ASYNCHRONOUS_EQ_BUF_OVERRUN (T8 health_syndrome 0xC; D-H-2). */
		if (eq->mapped)
			init_seg_fatal(dev, 0xC);
		return -1;
	}
	/* §7.13.2.1 -> §7.12.3.1: the owner bit HW writes flips at each wrap,
	 * (pc >> log_eq_size) & 1; SW initialised the buffer to 1 (§12.6.1 L6859), so the first
	 * pass writes 0. */
	uint32_t index = eq->ec ? 0 : (eq->pc & (size - 1));
	PRM_SET(eqe, owner, eqe, EQE_SIZE, (eq->pc >> eq->log_size) & 1u);
	PRM_SET(eqe, signature, eqe, EQE_SIZE, 0);
	PRM_SET(eqe, signature, eqe, EQE_SIZE, eq_entry_signature(eqe, EQE_SIZE, eq->pc)); /* T78 */
	if (dev_dma_write(dev, qbuf_addr(&eq->buf, (uint64_t)index * EQE_SIZE), eqe, EQE_SIZE)) {
		/* T94 status 0xA EQ_WRITE_FAILURE; the EQ writes nothing more (D-EQ-4). */
		eq->status = EQ_STATUS_WRITE_FAILURE;
		eq->broken = true;
		dropped(dev, eqn, type, 2);
		return -1;
	}
	const uint64_t args[] = { eqn, eq->pc, type, sub_type };
	dev_emit(dev, NICREF_EV_EQE, args, 4);
	eq->pc = (eq->pc + 1) & M;
	/* §7.13.12: "While EQ is in Armed state, when an event is generated, hardware disarms
	 * the EQ" and interrupts; no further interrupts until re-armed. */
	if (eq->st == EQ_ST_ARMED) {
		eq->st = EQ_ST_FIRED;
		interrupt_request(dev, eq, at);
	}
	return 0;
}

int eq_write_eqe(struct nicref_dev *dev, struct eq *eq, uint8_t eqe[EQE_SIZE])
{
	return write_eqe_at(dev, eq, eqe, dev->core.now_ns);
}

/* Whether eqe's event data (T78 20h-3Bh) lies within the fields of layout l: an event's EQE
 * carries its format (T80-T92) and nothing else. */
static bool data_within(const uint8_t eqe[EQE_SIZE], const struct nicref_layout *l)
{
	uint8_t rest[EQE_SIZE];
	memcpy(rest, eqe, EQE_SIZE);
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		for (uint32_t done = 0; done < f->bit_width; done += 64) {
			uint32_t w = f->bit_width - done < 64 ? f->bit_width - done : 64;
			(void)nicref_bits_set(rest, EQE_SIZE, f->bit_offset + done, w, 0);
		}
	}
	const struct nicref_field *data = PRM_FIELD(eqe, event_data);
	for (uint32_t b = data->bit_offset / 8; b < (data->bit_offset + data->bit_width) / 8; b++)
		if (rest[b])
			return false;
	return true;
}

/* The EQ that takes event type `type` now, or NULL (§7.13.6). */
static struct eq *mapped_eq(const struct nicref_dev *dev, uint8_t type)
{
	uint16_t mapped = type < EQ_EVENT_TYPES ? dev->eqd.type_eq[type] : 0;
	return mapped ? eq_get(dev, mapped - 1u) : NULL; /* eqn + 1, 0 when none */
}

static int post_event(struct nicref_dev *dev, enum eq_event ev, uint8_t eqe[EQE_SIZE])
{
	const struct eq_event_desc *d = eq_event_desc(ev);
	NICREF_ASSERT(data_within(eqe, d->layout)); /* the raiser wrote its event's fields only */
	struct eq *eq = mapped_eq(dev, d->type);
	if (!eq) {
		/* §12.6: "Events that are not mapped to any EQ are not reported by hardware." */
		dropped(dev, 0xFFFFFFFFu, d->type, 0);
		return -1;
	}
	PRM_SET(eqe, event_type, eqe, EQE_SIZE, d->type);
	PRM_SET(eqe, event_sub_type, eqe, EQE_SIZE, d->sub_type);
	return eq_write_eqe(dev, eq, eqe);
}

int eq_post_event(struct nicref_dev *dev, enum eq_event ev, uint8_t eqe[EQE_SIZE])
{
	return post_event(dev, ev, eqe);
}

bool eq_event_mapped(const struct nicref_dev *dev, enum eq_event ev)
{
	return mapped_eq(dev, eq_event_desc(ev)->type) != NULL;
}

void eq_post_completion(struct nicref_dev *dev, uint32_t eqn, uint32_t cqn, uint64_t at)
{
	struct eq *eq = eq_get(dev, eqn);
	if (!eq) {
		/* Cannot happen: a CQ holds a reference on its c_eqn (D-EQ-1). */
		dropped(dev, eqn, EQ_TYPE_COMPLETION, 0);
		return;
	}
	/* T80/T81: completion event, the CQ number in the event data; not mapped by type: the
	 * CQ names its EQ (§12.6, D-EQ-18). */
	const struct eq_event_desc *d = eq_event_desc(EQ_EVENT_COMPLETION);
	uint8_t eqe[EQE_SIZE] = { 0 };
	PRM_SET(eqe, event_type, eqe, sizeof eqe, d->type);
	PRM_SET(eqe, event_sub_type, eqe, sizeof eqe, d->sub_type);
	PRM_SET(eqe_completion, cq_number, eqe, sizeof eqe, cqn & 0xFFFFFFu); /* 24 bits */
	(void)write_eqe_at(dev, eq, eqe, at);
}

void eq_cmd_completion(struct nicref_dev *dev, unsigned slot)
{
	struct eq_dev *d = &dev->eqd;
	/* §12.6.1 L6810, §12.6.2 L6865: the CREATE_EQ or DESTROY_EQ that (un)maps the command
	 * completion event has no event of its own. */
	if (d->cmd_no_event) {
		d->cmd_no_event = false;
		return;
	}
	/* §7.14: "If EQ is set and mapped to this command queue, SW will be informed on command
	 * completion by EQE" - without such an EQ there is no event to drop (D-EQ-6). */
	if (!d->type_eq[EQ_TYPE_CMD_COMPLETION] || slot >= 32)
		return;
	/* T90: "Bits in this vector are set for commands completed and not yet reported by
	 * event": one event per completed command, carrying any slot whose event was lost. */
	d->cmd_unreported |= 1u << slot;
	uint8_t eqe[EQE_SIZE] = { 0 };
	PRM_SET(eqe_cmd, command_completion_vector, eqe, sizeof eqe, d->cmd_unreported);
	if (post_event(dev, EQ_EVENT_CMD_COMPLETION, eqe) == 0)
		d->cmd_unreported = 0;
}

/* ---- Mapping (§7.13.6, §12.6.1) ----------------------------------------------------------- */

void eq_map(struct nicref_dev *dev, struct eq *eq, uint64_t mask)
{
	struct eq_dev *d = &dev->eqd;
	for (unsigned t = 1; t < EQ_EVENT_TYPES; t++) {
		if (!(mask >> t & 1u))
			continue;
		/* L6806: "If the event group was previously mapped to another EQ, it will be
		 * remapped to the new EQ." */
		if (d->type_eq[t]) {
			struct eq *old = eq_get(dev, d->type_eq[t] - 1u);
			NICREF_ASSERT(old != NULL);
			old->mapped &= ~(1ull << t);
		}
		if (t == EQ_TYPE_CMD_COMPLETION)
			d->cmd_unreported = 0;
		d->type_eq[t] = (uint16_t)(eq->hdr.handle + 1u);
		eq->mapped |= 1ull << t;
	}
}

void eq_unmap_all(struct nicref_dev *dev, struct eq *eq)
{
	struct eq_dev *d = &dev->eqd;
	/* L6808: "Destroying the EQ will cause all events mapped to this EQ to be unmapped." */
	for (unsigned t = 1; t < EQ_EVENT_TYPES; t++) {
		if (!(eq->mapped >> t & 1u))
			continue;
		d->type_eq[t] = 0;
		if (t == EQ_TYPE_CMD_COMPLETION)
			d->cmd_unreported = 0;
	}
	eq->mapped = 0;
}

/* ---- Doorbells (§7.2.2 T13) --------------------------------------------------------------- */

void eq_doorbell(struct nicref_dev *dev, uint32_t uar, uint32_t eqn, uint32_t ci, bool arm)
{
	struct eq *eq = eq_get(dev, eqn);
	if (!eq) {
		dev_violation(dev, NICREF_VIO_EQ_DB_NO_EQ, eqn);
		return;
	}
	/* §7.2 item 4: the UAR page must be the one the EQ was created with. */
	if (eq->uar != uar) {
		dev_violation(dev, NICREF_VIO_EQ_DB_WRONG_UAR, eqn);
		return;
	}
	/* §7.13.2: the consumer counter counts EQEs polled: it moves forward, up to the producer
	 * counter. */
	if (((eq->pc - ci) & M) > ((eq->pc - eq->cc) & M)) {
		dev_violation(dev, NICREF_VIO_EQ_DB_CI_BEYOND_PC, (uint64_t)eqn << 24 | ci);
		return;
	}
	eq->cc = ci;
	if (!arm)
		return;
	/* §7.13.12 Figure 24: arming moves the EQ to ARMED; D-EQ-3: with EQEs not yet consumed
	 * the interrupt is raised at once and the EQ fires again. */
	eq->st = EQ_ST_ARMED;
	if (eq->pc != eq->cc) {
		eq->st = EQ_ST_FIRED;
		interrupt_request(dev, eq, dev->core.now_ns);
	}
}
