/* Private to libnicref: the port model behind the port registers of PRM §9 (T104-T126):
 * admin/oper status, speed, MTU, pause settings and counters. */
#ifndef NICREF_REG_PORT_H
#define NICREF_REG_PORT_H

#include <stdint.h>

struct nicref_dev;

#define NICREF_MAX_PORTS 4

struct port {
	uint8_t admin_status, oper_status;
};

/* Power-on state of every port of the profile. */
void port_reset(struct nicref_dev *dev);
/* TEARDOWN_HCA panic close: "Moves the network ports to the Link down state" (PRM §12.3.7). */
void port_panic(struct nicref_dev *dev);

#endif
