/* The library's version (nicref/version.h is where it is written). */
#include "nicref/version.h"

const char *nicref_version(void)
{
	return NICREF_VERSION_STRING;
}
