/* Private to libnicref: the device's subsystem table (device/device.c), for what composes a
 * device of its own from it (the unit tests add a probe row, reference/tests/subsys_test.c). */
#ifndef NICREF_DEVICE_DEVICE_H
#define NICREF_DEVICE_DEVICE_H

#include "core/subsys.h"

/* The rows nicref_dev_create hands core, in order. */
extern const struct dev_subsys *const device_subsystems[];
extern const unsigned device_nsubsystems;

#endif
