/* Placeholder until the mkey family lands (issue 4). */
#include "core/dev.h"

int mkey_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void mkey_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void mkey_dev_reset(struct nicref_dev *dev)
{
	(void)dev;
}

int mkey_dev_check(const struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void mkey_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	(void)dev, (void)visit, (void)ctx;
}
