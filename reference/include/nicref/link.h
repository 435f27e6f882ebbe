/* nicref_link: two devices' ports joined by a virtual link (issue 17 item 8; docs/vectors.md
 * "RoCE", "link"). The link carries the frames each device transmits to the other device's
 * port in virtual time, with a delay and faults chosen per direction: loss (by ordinal, every
 * Nth, or with a probability), duplication, reordering (a frame held longer than the delay),
 * and ECN Congestion Experienced marking (by ordinal, probability, or a queue threshold).
 * Everything is deterministic: the random faults draw from a splitmix64 stream seeded per
 * direction, four draws per frame whatever is set.
 *
 * The link uses only the public API (nicref_wire_rx, nicref_clock_advance): the caller routes
 * each device's ops.wire_tx to nicref_link_tx, and moves time with nicref_link_advance (both
 * devices and the link together). Frames are delivered only by nicref_link_deliver and
 * nicref_link_advance, never from inside nicref_link_tx, so a device never re-enters itself.
 * Memory is allocated at nicref_link_create only (capacity frames of max_frame bytes per
 * direction); nothing is allocated per frame. A NULL link is accepted everywhere and does
 * nothing (nicref_link_tx and the setters return -1). */
#ifndef NICREF_LINK_H
#define NICREF_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/api.h"

struct nicref_dev;
struct nicref_link;

enum nicref_link_dir { NICREF_LINK_AB = 0, NICREF_LINK_BA = 1 };

#define NICREF_LINK_MAX_LIST 64u        /* ordinals of one fault list */
#define NICREF_LINK_PPM 1000000u        /* probabilities are parts per million */
#define NICREF_LINK_MAX_NS (1ull << 40) /* longest delay, hold or tick */
/* Most frames one delivery pass hands over: two devices bouncing frames with no delay would
 * otherwise never leave the instant. */
#define NICREF_LINK_MAX_BURST 65536u

/* The faults of one direction. A frame's ordinal is its number among the frames that entered
 * the direction, from 0. */
struct nicref_link_faults {
	uint64_t delay_ns;   /* every frame is due this long after it entered */
	uint64_t seed;       /* of the random faults (XORed with the direction) */
	uint32_t loss_every; /* 0 off; N: ordinal + 1 a multiple of N is lost */
	uint32_t loss_ppm, duplicate_ppm, reorder_ppm, ce_ppm;
	uint64_t reorder_ns;   /* the extra hold of a reordered frame */
	uint32_t ce_threshold; /* 0 off; N: marked when N or more frames of the direction queued */
	uint8_t nloss, nduplicate, nreorder, nce;
	uint64_t loss[NICREF_LINK_MAX_LIST], duplicate[NICREF_LINK_MAX_LIST],
		reorder[NICREF_LINK_MAX_LIST], ce[NICREF_LINK_MAX_LIST];
};

struct nicref_link_counters {
	uint64_t entered;    /* frames handed to the direction (nicref_link_tx) */
	uint64_t delivered;  /* copies given to the far device (duplicates included) */
	uint64_t lost;       /* by a loss fault */
	uint64_t duplicated; /* copies made */
	uint64_t reordered;  /* frames held reorder_ns longer */
	uint64_t ce_marked;  /* IP frames whose ECN field was set to CE */
	uint64_t ce_not_ect; /* frames chosen for marking that were not ECN-capable IP */
	uint64_t overflow;   /* frames (or copies) dropped: no room, or longer than max_frame */
	uint64_t queued;     /* in the link now */
};

/* No faults: no delay, no loss, reorder_ns 1000. */
NICREF_API void nicref_link_faults_default(struct nicref_link_faults *f);

/* Joins port_a of a and port_b of b. capacity frames of at most max_frame bytes per direction
 * (both at least 1). NULL when memory is exhausted or an argument is 0. The devices are the
 * caller's; the link only calls them. */
NICREF_API struct nicref_link *nicref_link_create(struct nicref_dev *a, unsigned port_a,
						  struct nicref_dev *b, unsigned port_b,
						  unsigned capacity, size_t max_frame);
NICREF_API void nicref_link_destroy(struct nicref_link *l);

/* Replaces the faults of a direction: 0, or -1 (nothing changes) when a value is out of range:
 * a ppm above NICREF_LINK_PPM, a list longer than NICREF_LINK_MAX_LIST, a delay or hold above
 * NICREF_LINK_MAX_NS. */
NICREF_API int nicref_link_set_faults(struct nicref_link *l, enum nicref_link_dir d,
				      const struct nicref_link_faults *f);
/* The longest interval nicref_link_advance moves the clocks by at once (0: no limit). The
 * intervals end at every due frame and every device timer anyway (nicref_clock_next_deadline),
 * so a frame a timer sends leaves at the timer's deadline; the tick bounds the rest (a device
 * polling, say). -1 above NICREF_LINK_MAX_NS. */
NICREF_API int nicref_link_set_tick(struct nicref_link *l, uint64_t tick_ns);

/* A frame `from` transmitted on `port` (call it from the device's ops.wire_tx): it enters the
 * link at the link's time, takes the direction's faults and waits. A frame of a device or port
 * the link does not join is ignored (returns -1). Never delivers. */
NICREF_API int nicref_link_tx(struct nicref_link *l, const struct nicref_dev *from,
			      unsigned port, const uint8_t *frame, size_t len);
/* Delivers every frame due by the link's time, in (due time, entry order), until none is due
 * (frames the deliveries make with no delay included), at most NICREF_LINK_MAX_BURST. The
 * number delivered. A call from inside a delivery does nothing (returns 0). */
NICREF_API unsigned nicref_link_deliver(struct nicref_link *l);
/* Moves the link and both devices ns forward: in intervals ending at each due frame and each
 * device timer's deadline (and at most the tick long), each advancing a then b, then delivering what is due. When a delivery
 * pass ends at NICREF_LINK_MAX_BURST with frames still due, time moves on to the end anyway. */
NICREF_API void nicref_link_advance(struct nicref_link *l, uint64_t ns);
/* The link's time: ns advanced since create. */
NICREF_API uint64_t nicref_link_now(const struct nicref_link *l);
NICREF_API void nicref_link_counters(const struct nicref_link *l, enum nicref_link_dir d,
				     struct nicref_link_counters *out);

#endif
