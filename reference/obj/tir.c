/* Placeholder until the tir family lands (issue 4). */
#include "core/dev.h"

int tir_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void tir_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void tir_dev_reset(struct nicref_dev *dev)
{
	(void)dev;
}

int tir_dev_check(const struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void tir_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	(void)dev, (void)visit, (void)ctx;
}
