/* Private to libnicref: transport interface send and receive objects and RQ tables (PRM
 * §7.5-§7.8, §12.8, §12.9, §12.12). Owned by obj/tis.c, tir.c, rqt.c. */
#ifndef NICREF_OBJ_TIR_H
#define NICREF_OBJ_TIR_H

#include <stdint.h>

struct nicref_dev;

int tir_dev_init(struct nicref_dev *dev);
void tir_dev_fini(struct nicref_dev *dev);
void tir_dev_reset(struct nicref_dev *dev); /* destroys every TIR, RQT and TIS */
int tir_dev_check(const struct nicref_dev *dev);

#endif
