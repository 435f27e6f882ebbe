/* Placeholder until the eq family lands (issue 4). */
#include "core/dev.h"

int eq_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void eq_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void eq_dev_reset(struct nicref_dev *dev)
{
	(void)dev;
}

int eq_dev_check(const struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void eq_post_event(struct nicref_dev *dev, uint8_t type, uint8_t sub_type, const uint8_t data[28])
{
	(void)dev, (void)type, (void)sub_type, (void)data;
}

void eq_post_completion(struct nicref_dev *dev, uint32_t eqn, uint32_t cqn)
{
	(void)dev, (void)eqn, (void)cqn;
}

void eq_uar_write(struct nicref_dev *dev, uint32_t uar, uint32_t offset, uint32_t value)
{
	(void)dev, (void)uar, (void)offset, (void)value;
}

void eq_tick(struct nicref_dev *dev)
{
	(void)dev;
}

void eq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	(void)dev, (void)visit, (void)ctx;
}
