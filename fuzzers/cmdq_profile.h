/* The cmdq target's device under another profile (cmdq_strict: cmdif_checksum 3). */
#ifndef NICREF_CMDQ_PROFILE_H
#define NICREF_CMDQ_PROFILE_H

#include "fuzz_oracle.h"

/* fuzz_oracle_device's device (the same seed, the same trace callback), with the profile's
 * cmdif_checksum (PRM T145 40h[15:14]) set: 3 makes the device check every entry and mailbox
 * signature on input (the default, 1, only generates them: docs/decisions.md D-CMD-5). NULL if
 * it cannot be created. */
struct nicref_dev *cmdq_profile_device(struct fuzz_oracle *o, unsigned cmdif_checksum);

#endif
