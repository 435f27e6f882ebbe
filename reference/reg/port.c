/* The port model behind the port registers (PRM §9). */
#include <string.h>

#include "core/dev.h"

void port_reset(struct nicref_dev *dev)
{
	memset(dev->port, 0, sizeof dev->port);
}

void port_panic(struct nicref_dev *dev)
{
	(void)dev;
}
