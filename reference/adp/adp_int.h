/* Private to reference/adp/: names shared by the profile checks, the codec and the engine. */
#ifndef NICREF_ADP_INT_H
#define NICREF_ADP_INT_H

#include "nicref/adp.h"

/* seed 000 L215-221: dec_mode codes. */
enum { ADP_DEC_TO_DIV_4 = 0, ADP_DEC_TO_DIV_2 = 1, ADP_DEC_TO_LOW_BOUND = 2 };

/* time_base in ns (time_unit 0x1 = us, seed 000 L145). */
uint64_t adp_base_ns(const struct nicref_adp_profile *p);

#endif
