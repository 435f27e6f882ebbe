/* ROCE_ACCL register (seed 000): adaptive retransmission enable and profiles. */
#include <string.h>

#include "core/dev.h"

void roce_accl_reset(struct nicref_dev *dev)
{
	memset(&dev->roce_accl, 0, sizeof dev->roce_accl);
}
