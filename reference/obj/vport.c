/* Placeholder until the vport family lands (issue 4). */
#include "core/dev.h"

int vport_dev_init(struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

void vport_dev_fini(struct nicref_dev *dev)
{
	(void)dev;
}

void vport_dev_reset(struct nicref_dev *dev)
{
	(void)dev;
}

int vport_dev_check(const struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}

/* PRM §7.3 T15 00h[26:24]; no context modelled yet: the power-on value 0. */
unsigned vport_min_wqe_inline_mode(const struct nicref_dev *dev)
{
	(void)dev;
	return 0;
}
