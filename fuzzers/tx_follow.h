/* The tx target's view of the device from outside (fuzzers/tx_follow.c): the SQ, the WQE
 * executing and the one being flushed, the CQEs the trace announced and the last frame, followed
 * through the device's hooks and events while the ops of an input run; and the properties of
 * tx_fuzz.c's header, checked as they happen and after every op. A broken one prints "property
 * NAME broken at FILE:LINE: STATE", the op and the WQE executing, and traps (fuzz_report.c).
 * Only the tx target uses it. */
#ifndef NICREF_FUZZ_TX_FOLLOW_H
#define NICREF_FUZZ_TX_FOLLOW_H

#include <stdint.h>

#include "nicref/nicref.h"
#include "tx_state.h"

/* cfg (before fuzz_dev_create) gets the trace callback (which passes every event to tx's
 * oracle) and the dma_read and wire_tx hooks. */
void tx_follow_init(struct nicref_config *cfg);

/* Every BAR write, the reference driver's (refdrv_ops bar_write32) and the target's: the Blue
 * Flame area of the SQ's UAR page is remembered as written (the copy a whole Blue Flame doorbell
 * executes), then the write goes to the device. */
void tx_follow_bar_write(void *ctx, uint32_t offset, uint32_t value);

/* An input starts, before its bring-up: nothing followed, nothing pending. */
void tx_follow_reset(void);
/* Its ops begin: the SQ (in RDY) followed from here. */
void tx_follow_begin(void);
/* After every op: the WQE executing and the flush completed, the CQ's buffer against the CQEs
 * announced (then the EQ consumed), the shared oracles (fuzz_oracle_check_dev, no transport
 * violation), QUERY_SQ when the op touched the SQ. */
void tx_follow_after_op(void);
/* The ops are over: nothing followed until the next tx_follow_begin. */
void tx_follow_end(void);

/* The SQ's state as followed (TX_ST_*). */
unsigned tx_follow_sq_state(void);
/* The SQ was destroyed and created again in RST: its counter and error history start over. */
void tx_follow_sq_remade(void);

#endif
