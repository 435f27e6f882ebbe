/* Private to libnicref: the ROCE_ACCL register's state (seed 000), owned by reg/roce_accl.c. */
#ifndef NICREF_REG_ROCE_ACCL_H
#define NICREF_REG_ROCE_ACCL_H

#include <stdbool.h>

#include "nicref/adp.h"

struct roce_accl {
	bool adp_retrans_en;
	uint8_t active_profile_id; /* 0: none selected (firmware-defined timeouts) */
};

struct nicref_dev;
/* Power-on (firmware reset) state: ADP off, no profile selected. */
void roce_accl_reset(struct nicref_dev *dev);

#endif
