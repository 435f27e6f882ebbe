/* CONFIG_INT_MODERATION (PRM §12.3.17): the minimal interval between interrupts of a vector,
 * one setting per MSI-X vector of the profile (eq_event.c applies them), and its row of the
 * subsystem table (core/subsys.h). */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"

/* D-INT-1: the device has profile.msix_vectors vectors; MSI-X has at most 2048 (its Table Size
 * field is 11 bits). */
static int int_moderation_profile_ok(const struct nicref_profile *p)
{
	return p->msix_vectors != 0 && p->msix_vectors <= 2048;
}

static int int_moderation_create(struct nicref_dev *dev, void **state)
{
	(void)state;
	dev->int_min_delay = calloc(dev->core.cfg.profile.msix_vectors, sizeof(uint16_t));
	return dev->int_min_delay ? 0 : -1;
}

static void int_moderation_destroy(struct nicref_dev *dev, void *state)
{
	(void)state;
	free(dev->int_min_delay);
}

static void int_moderation_reset(struct nicref_dev *dev, void *state)
{
	(void)state;
	memset(dev->int_min_delay, 0, dev->core.cfg.profile.msix_vectors * sizeof(uint16_t));
}

const struct dev_subsys int_moderation_subsys = {
	.name = "int_moderation",
	.profile_ok = int_moderation_profile_ok,
	.create = int_moderation_create,
	.destroy = int_moderation_destroy,
	.reset = int_moderation_reset,
};

enum { INT_MOD_WRITE, INT_MOD_READ }; /* T210 op_mod */

enum nicref_cmd_rule cmd_config_int_moderation(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	uint64_t vec = PRM_GET(config_int_moderation_in, int_vector, c->in, c->in_len);
	/* T210: int_vector "holds the MSI-X vector"; the device has profile.msix_vectors
	 * (D-INT-1). */
	if (vec >= dev->core.cfg.profile.msix_vectors)
		return NICREF_RULE_INT_VECTOR_OUT_OF_RANGE;
	if (c->op_mod == INT_MOD_WRITE)
		dev->int_min_delay[vec] = (uint16_t)PRM_GET(config_int_moderation_in, min_delay,
							    c->in, c->in_len);
	/* T212: the output carries the vector's setting (as written, for a write). */
	PRM_SET(config_int_moderation_out, min_delay, c->out, c->out_len, dev->int_min_delay[vec]);
	PRM_SET(config_int_moderation_out, int_vector, c->out, c->out_len, vec);
	return NICREF_RULE_NONE;
}
