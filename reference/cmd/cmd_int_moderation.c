/* CONFIG_INT_MODERATION (PRM §12.3.17): the minimal interval between interrupts of a vector. */
#include "cmd/cmd_table.h"

enum { INT_MOD_WRITE, INT_MOD_READ }; /* T210 op_mod */

enum nicref_cmd_rule cmd_config_int_moderation(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint64_t vec = PRM_GET(config_int_moderation_in, int_vector, c->in, c->in_len);
	/* T210: int_vector "holds the MSI-X vector"; the device has profile.msix_vectors
	 * (D-INT-1). */
	if (vec >= dev->cfg.profile.msix_vectors)
		return NICREF_RULE_INT_VECTOR_OUT_OF_RANGE;
	if (c->op_mod == INT_MOD_WRITE)
		dev->int_min_delay[vec] = (uint16_t)PRM_GET(config_int_moderation_in, min_delay,
							    c->in, c->in_len);
	/* T212: the output carries the vector's setting (as written, for a write). */
	PRM_SET(config_int_moderation_out, min_delay, c->out, c->out_len, dev->int_min_delay[vec]);
	PRM_SET(config_int_moderation_out, int_vector, c->out, c->out_len, vec);
	return NICREF_RULE_NONE;
}
