/* Private to libnicref: event queues and events (PRM §7.13, §12.6). Owned by obj/eq*.c.
 * The other objects raise events only through this interface. */
#ifndef NICREF_OBJ_EQ_H
#define NICREF_OBJ_EQ_H

#include <stdint.h>

struct nicref_dev;

/* Device-level event state (which EQ takes which event type, ...). */
struct eq_dev {
	uint8_t unused;
};

int eq_dev_init(struct nicref_dev *dev);  /* at create; 0 or -1 out of memory */
void eq_dev_fini(struct nicref_dev *dev);
void eq_dev_reset(struct nicref_dev *dev); /* destroys every EQ (power-on, teardown) */
int eq_dev_check(const struct nicref_dev *dev); /* invariants: 0 or negative */

/* An asynchronous event (PRM T79): an EQE of `type`/`sub_type` with the 28 bytes of event data
 * (EQE 20h-3Bh), to the EQ mapped to the type, or dropped when none is (L6787). */
void eq_post_event(struct nicref_dev *dev, uint8_t type, uint8_t sub_type, const uint8_t data[28]);
/* A completion event of CQ cqn on EQ eqn (T80/T81). */
void eq_post_completion(struct nicref_dev *dev, uint32_t eqn, uint32_t cqn);
/* EQ doorbells of a UAR page: offset 40h (update CI and arm) or 48h (update CI). */
void eq_uar_write(struct nicref_dev *dev, uint32_t uar, uint32_t offset, uint32_t value);
/* Virtual time moved (interrupt moderation, PRM §7.13.15). */
void eq_tick(struct nicref_dev *dev);

#endif
