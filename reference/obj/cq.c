/* Placeholder until the cq family lands (issue 4). */
#include "core/dev.h"

int cq_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void cq_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void cq_dev_reset(struct nicref_dev *dev)
{
	(void)dev;
}

int cq_dev_check(const struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

int cq_post(struct nicref_dev *dev, uint32_t cqn, const uint8_t cqe[64])
{
	(void)dev, (void)cqn, (void)cqe;
	return -1;
}

void cq_uar_write(struct nicref_dev *dev, uint32_t uar, uint32_t offset, uint32_t value)
{
	(void)dev, (void)uar, (void)offset, (void)value;
}

void cq_tick(struct nicref_dev *dev)
{
	(void)dev;
}

void cq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	(void)dev, (void)visit, (void)ctx;
}
