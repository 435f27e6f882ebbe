/* Private to libnicref: completion queues (PRM §7.12, §12.7). Owned by obj/cq*.c. The work
 * queues complete only through this interface. */
#ifndef NICREF_OBJ_CQ_H
#define NICREF_OBJ_CQ_H

#include <stdint.h>

struct nicref_dev;

int cq_dev_init(struct nicref_dev *dev);
void cq_dev_fini(struct nicref_dev *dev);
void cq_dev_reset(struct nicref_dev *dev);
int cq_dev_check(const struct nicref_dev *dev);

/* Writes a 64-byte CQE (fields as T67/T73 lay them out; the device fills owner and signature
 * and, for 128-byte CQEs, the placement) to CQ cqn, then raises the completion event as the CQ's
 * arm state and moderation allow. 0 when written; -1 when it was not (overrun with oi = 0, CQ
 * in error, write failure): the caller's work queue then goes to ERR (PRM §7.12.1). */
int cq_post(struct nicref_dev *dev, uint32_t cqn, const uint8_t cqe[64]);
/* The CQ doorbell of a UAR page: the 64-bit register at 20h (dword 20h, then 24h). */
void cq_uar_write(struct nicref_dev *dev, uint32_t uar, uint32_t offset, uint32_t value);
/* Virtual time moved (moderation period, PRM §7.13.14). */
void cq_tick(struct nicref_dev *dev);

#endif
