/* Private to libnicref: event queues and events (PRM §7.13, §12.6). Owned by obj/eq*.c.
 * The other objects raise events only through this interface.
 *
 *  - eq.c        the device-level hooks, invariants and references;
 *  - eq_cmd.c    CREATE_EQ, DESTROY_EQ, QUERY_EQ, GEN_EQE (§12.6);
 *  - eq_event.c  EQE writing (ownership, signature, overrun), event-type mapping, the EQ
 *                doorbell (eq_doorbell, which the doorbell layer obj/uar_db.c calls), arming
 *                and interrupts with their frequency moderation (§7.13.15);
 *  - eq_qbuf.c   the page lists (pas[]) of EQ and CQ buffers.
 * Decisions D-EQ-* are in docs/eq.md. */
#ifndef NICREF_OBJ_EQ_H
#define NICREF_OBJ_EQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "obj/cq.h"
#include "obj/obj.h"
#include "prm/layouts.h"

struct nicref_dev;

/* The events of PRM T79, one per row of PRM_EQE_EVENTS (prm/layouts_eqe.h): EQ_EVENT_<ID>
 * names a row (type and sub-type), EQ_TYPE_<ID> its event_type code. */
#define EQ_EVENT_ENUM(id, type, sub, name, clause, layout) EQ_EVENT_##id,
enum eq_event { PRM_EQE_EVENTS(EQ_EVENT_ENUM) EQ_EVENT_COUNT };
#undef EQ_EVENT_ENUM
#define EQ_TYPE_ENUM(id, type, sub, name, clause, layout) EQ_TYPE_##id = (type),
enum eq_event_type { PRM_EQE_EVENTS(EQ_TYPE_ENUM) };
#undef EQ_TYPE_ENUM

/* A row of the table: what an EQE of the event carries and where the PRM says so. */
struct eq_event_desc {
	uint8_t type, sub_type;            /* T78 event_type 00h[23:16], event_sub_type 00h[7:0] */
	const char *name;                  /* T79 "Event Description" */
	const char *clause;                /* the EQE format's clause */
	const struct nicref_layout *layout; /* the whole EQE, event data at 20h */
};
/* obj/eq_types.c: the row of ev. */
const struct eq_event_desc *eq_event_desc(enum eq_event ev);
#define EQ_EVENT_TYPES 64 /* T244: a 64-bit event bitmask, bit i = event type i */

/* PRM T94 st and status. */
enum { EQ_ST_ARMED = 0x9, EQ_ST_FIRED = 0xA };
enum { EQ_STATUS_OK = 0x0, EQ_STATUS_WRITE_FAILURE = 0xA };

#define EQ_COUNTER_MASK 0xFFFFFFu /* T94: 24-bit consumer and producer counters */
#define EQE_SIZE 64u              /* §7.13.1: "EQE size is 64 bytes" */

struct eq {
	struct obj_hdr hdr;
	struct qbuf buf;
	uint64_t mapped; /* event types mapped to this EQ now (bit i = type i) */
	uint32_t uar;
	uint32_t cc, pc;  /* consumer counter (last doorbell), producer counter; 24 bits */
	uint8_t log_size; /* 2^log_size EQEs */
	uint8_t intr;     /* MSI-X vector */
	uint8_t st;       /* EQ_ST_* */
	uint8_t status;   /* EQ_STATUS_* */
	bool ec, oi;
	bool broken; /* overran without oi, or a write failed: every later EQE is dropped */
};

/* Device-level event state. */
struct eq_dev {
	/* eqn + 1 of the EQ each event type is mapped to, 0 when none (§7.13.6). */
	uint16_t type_eq[EQ_EVENT_TYPES];
	/* Command completion events (§7.13.10.1): slots completed and not yet reported, and
	 * whether the command now completing changed the mapping of the event (§12.6.1 L6810:
	 * "there will be no event on DESTROY_EQ and CREATE_EQ for the EQ that the event is
	 * mapped to"). */
	uint32_t cmd_unreported;
	bool cmd_no_event;
	/* Interrupt frequency moderation per MSI-X vector (§7.13.15). */
	uint32_t nvec;
	uint64_t *vec_last_ns; /* when the vector last fired */
	uint8_t *vec_flags;    /* EQ_VEC_* */
	uint8_t *vec_eqn;      /* the EQ whose request is held */
	uint32_t vec_held;     /* vectors with a held request */
	struct cq_dev cq;
};
enum { EQ_VEC_FIRED = 1, EQ_VEC_HELD = 2 };

int eq_dev_init(struct nicref_dev *dev);  /* at create; 0 or -1 out of memory */
void eq_dev_fini(struct nicref_dev *dev);
void eq_dev_reset(struct nicref_dev *dev); /* destroys every EQ (power-on, teardown) */

/* An asynchronous event (PRM T79): eqe holds the event data, written through the fields of the
 * event's layout (its row of PRM_EQE_EVENTS); the device adds event_type and event_sub_type,
 * owner and signature, and writes it to the EQ mapped to the type, or drops it when none is
 * (L6787). 0 when the EQE was written, -1 when it was not (not mapped, or dropped: traced). */
int eq_post_event(struct nicref_dev *dev, enum eq_event ev, uint8_t eqe[EQE_SIZE]);
/* Whether an EQ takes the type of ev now. */
bool eq_event_mapped(const struct nicref_dev *dev, enum eq_event ev);
/* A completion event of CQ cqn on EQ eqn (T80/T81), generated at `at` (<= now: a held event
 * was generated at its deadline, D-CQ-6): the interrupt it requests is requested then. */
void eq_post_completion(struct nicref_dev *dev, uint32_t eqn, uint32_t cqn, uint64_t at);
/* The command of slot `slot` completed (cmd/cmdq.c): a command completion event when an EQ
 * takes them (§7.14, §7.13.10.1). */
void eq_cmd_completion(struct nicref_dev *dev, unsigned slot);
/* Virtual time moved (interrupt moderation, PRM §7.13.15): whether an interrupt is held, with
 * the deadline of the one due first, and firing that one (its deadline <= now). */
bool eq_next_due(const struct nicref_dev *dev, uint64_t *due);
void eq_fire_next(struct nicref_dev *dev);

/* eq_event.c, for the commands: writes a 64-byte EQE (owner and signature are the device's)
 * to eq as §7.13.2 says: 0 written, -1 dropped (traced). */
int eq_write_eqe(struct nicref_dev *dev, struct eq *eq, uint8_t eqe[EQE_SIZE]);
/* The EQ of eqn, or NULL. */
struct eq *eq_get(const struct nicref_dev *dev, uint32_t eqn);
/* Unmaps every event type of eq (DESTROY_EQ, L6808). */
void eq_unmap_all(struct nicref_dev *dev, struct eq *eq);
/* Maps the event types of `mask` to eq, moving them from any other EQ (L6806). */
void eq_map(struct nicref_dev *dev, struct eq *eq, uint64_t mask);

/* The 24-bit XOR signature of a 64-byte CQE or EQE at counter `index` (§9.2.4, T68/T78;
 * D-CQE-1): the value of the signature byte that makes the entry and the index XOR to 0xFF
 * (the signature byte itself taken as 0). */
uint8_t eq_entry_signature(const uint8_t *entry, size_t len, uint32_t index);

#endif
