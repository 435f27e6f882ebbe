/* Private to libnicref: the device capabilities of PRM §12.3.3 (T144-T153), held as the PRM
 * lays them out so QUERY_HCA_CAP copies them and the model reads them through the layouts.
 * max holds what the device can do (op_mod bit 0 = 0), cur what is in force (bit 0 = 1);
 * SET_HCA_CAP changes cur before INIT_HCA. */
#ifndef NICREF_CORE_CAPS_H
#define NICREF_CORE_CAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "prm/layouts.h"

struct nicref_dev;
struct nicref_profile;

/* The capability types of QUERY_HCA_CAP op_mod[15:1] (T141) this PRM defines. */
enum cap_type { CAP_GENERAL, CAP_ETH_OFFLOAD, CAP_FLOW_TABLE_NIC, CAP_TYPES };
#define CAP_BYTES 0x1000 /* T143: capability 10h-100Ch */

struct caps {
	uint8_t max[CAP_TYPES][CAP_BYTES];
	uint8_t cur[CAP_TYPES][CAP_BYTES];
	uint8_t cur_default[CAP_TYPES][CAP_BYTES]; /* cur at power-on */
	bool cur_changed;                          /* SET_HCA_CAP wrote cur since reset */
	/* cur written (SET_HCA_CAP, caps_reset's copy) since the last snapshot taken or restored:
	 * a restore copies cur back only then (core/snapshot.c). */
	bool cur_written;
};

/* Once, at device creation: max and the power-on current set from the device profile
 * (core/caps_default.c), then lowered by its capability settings. */
void caps_init(struct nicref_dev *dev);
/* Whether every capability setting of the profile lowers (or keeps) what the device offers:
 * nicref_dev_create refuses the profile otherwise. */
int caps_profile_ok(const struct nicref_profile *p);
/* Power-on: cur back to its defaults; a copy, and only when SET_HCA_CAP changed it. */
void caps_reset(struct nicref_dev *dev);

/* A current capability, e.g. CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_pd) (dev_core_c:
 * core/dev.h). PRM_GET: the field's offset and width as constants (a received frame reads a
 * few capabilities: cqe_version, cache_line_128byte, vlan_cap). */
#define CAPS_CUR(dev, type, L, n) PRM_GET(L, n, dev_core_c(dev)->caps.cur[type], CAP_BYTES)
#define CAPS_MAX(dev, type, L, n) PRM_GET(L, n, dev_core_c(dev)->caps.max[type], CAP_BYTES)

#endif
