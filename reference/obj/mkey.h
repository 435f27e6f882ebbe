/* Private to libnicref: memory keys, their translation and protection (PRM §6, §12.5).
 * Owned by obj/mkey*.c. */
#ifndef NICREF_OBJ_MKEY_H
#define NICREF_OBJ_MKEY_H

#include <stdint.h>

struct nicref_dev;

int mkey_dev_init(struct nicref_dev *dev);
void mkey_dev_fini(struct nicref_dev *dev);
void mkey_dev_reset(struct nicref_dev *dev);
int mkey_dev_check(const struct nicref_dev *dev);

#endif
