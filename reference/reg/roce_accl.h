/* Private to libnicref: the ROCE_ACCL register's state (seed 000), owned by reg/roce_accl.c. */
#ifndef NICREF_REG_ROCE_ACCL_H
#define NICREF_REG_ROCE_ACCL_H

#include <stdbool.h>

#include "nicref/adp.h"

struct roce_accl {
	bool adp_retrans_en;       /* roce_adp_retrans_en (seed 000 L55-59) */
	uint8_t active_profile_id; /* 0: none selected (firmware-defined timeouts, seed 001 L70) */
	struct nicref_adp_profile profile;  /* the selected profile (when active_profile_id > 0) */
	struct nicref_adp_counters counters; /* roce_adp_retrans / _to of the function (D-ADP-18) */
};

struct nicref_dev;
/* Power-on: roce_accl_subsys (reg/roce_accl.c, cmd/ctl_dev.h) clears the register. */
/* What one ADP timer expiry of a QP of this function adds to the counters (RC QPs call it
 * with the outcome of nicref_adp_on_timeout). */
void roce_accl_count(struct nicref_dev *dev, const struct nicref_adp_qp *qp, bool retransmitted);
/* 0, or negative when the register state breaks an invariant (a selected profile that the
 * write checks would refuse, an id above the capability). */
int roce_accl_check(const struct nicref_dev *dev);

#endif
