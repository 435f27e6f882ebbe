/* The cmdq target's device under another profile (cmdq_profile.h). */
#include "cmdq_profile.h"
#include "fuzz_dev.h"

struct nicref_dev *cmdq_profile_device(struct fuzz_oracle *o, unsigned cmdif_checksum)
{
	struct nicref_config cfg;
	fuzz_dev_config(&cfg, o);
	cfg.profile.cmdif_checksum = (uint8_t)cmdif_checksum;
	return fuzz_dev_create(&cfg, o);
}
