/* The device profile of a driver run: NICREF_VFIO_PROFILE="key=value,key=value" over
 * nicref_profile_default(), one row per setting `nicref drive --profile` offers. */
#ifndef NICREF_VFIO_PROFILE_H
#define NICREF_VFIO_PROFILE_H

#include <stddef.h>

#include "nicref/nicref.h"

/* 0, or -1 with a message naming the setting in err. NULL or "" changes nothing. */
int vfio_profile_apply(struct nicref_profile *p, const char *text, char *err, size_t len);
/* The settings, one "name: meaning" line each, for usage texts. */
const char *vfio_profile_help(void);

#endif
