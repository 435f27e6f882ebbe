/* The cmdq target's device under another profile (cmdq_profile.h). */
#include "cmdq_profile.h"

struct nicref_dev *cmdq_profile_device(struct fuzz_oracle *o, unsigned cmdif_checksum)
{
	struct nicref_config cfg;

	nicref_config_default(&cfg);

	cfg.snapshots = true; /* restored per input (fuzz_snap.h, D-SNAP-3) */
	cfg.profile.cmdif_checksum = (uint8_t)cmdif_checksum;
	cfg.seed = 0x6e6963726566ull; /* fuzz_oracle_device's: a finding must replay */
	cfg.trace = fuzz_oracle_event;
	cfg.trace_ctx = o;
	o->dev = nicref_dev_create(&cfg);
	return o->dev;
}
