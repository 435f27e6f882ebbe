/* Private to libnicref: send, receive and shared receive queues and their work-queue buffers
 * (PRM §7.4, §7.7-§7.10, §12.10, §12.11, §12.13). Owned by obj/wq*.c, sq.c, rq.c, rmp.c. */
#ifndef NICREF_OBJ_WQ_H
#define NICREF_OBJ_WQ_H

#include <stdint.h>

struct nicref_dev;

int wq_dev_init(struct nicref_dev *dev);
void wq_dev_fini(struct nicref_dev *dev);
void wq_dev_reset(struct nicref_dev *dev); /* destroys every RQ, RMP and SQ */
int wq_dev_check(const struct nicref_dev *dev);

/* Send doorbells of a UAR page: the Blue Flame buffers at 800h-FFFh (PRM §7.2, §7.4.3). */
void sq_uar_write(struct nicref_dev *dev, uint32_t uar, uint32_t offset, uint32_t value);

#endif
