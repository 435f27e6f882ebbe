/* Placeholder until the wq family lands (issue 4). */
#include "core/dev.h"

int wq_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void wq_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void wq_dev_reset(struct nicref_dev *dev)
{
	(void)dev;
}

int wq_dev_check(const struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void sq_uar_write(struct nicref_dev *dev, uint32_t uar, uint32_t offset, uint32_t value)
{
	(void)dev, (void)uar, (void)offset, (void)value;
}

void wq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	(void)dev, (void)visit, (void)ctx;
}
