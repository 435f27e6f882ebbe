/* Private to libnicref: the function's NIC vport, its counters and the L2 table (PRM §7.3,
 * §12.15-§12.17). Owned by obj/vport*.c, l2_table.c. */
#ifndef NICREF_OBJ_VPORT_H
#define NICREF_OBJ_VPORT_H

#include <stdint.h>

struct nicref_dev;
struct vport; /* allocated by vport_dev_init */

int vport_dev_init(struct nicref_dev *dev);
void vport_dev_fini(struct nicref_dev *dev);
void vport_dev_reset(struct nicref_dev *dev);
int vport_dev_check(const struct nicref_dev *dev);

/* The NIC vport context's min_wqe_inline_mode (PRM §7.3 T15 00h[26:24]): the least inline
 * mode an SQ of this vport may be created with (PRM §7.4.4.1.2: "An attempt to create SQ with
 * inline mode < minimal required by the Vport NIC will fail"). Meaningful only when
 * HCA_CAP.wqe_inline_mode == 1; 0 (L2) before the vport state exists. */
unsigned vport_min_wqe_inline_mode(const struct nicref_dev *dev);

#endif
