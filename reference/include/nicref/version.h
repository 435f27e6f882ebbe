/* The version of libnicref and the nicref tool. These three numbers are the only place it is
 * written: the Makefile reads them for the shared library's file name and SONAME
 * (libnicref.so.MAJOR, libnicref.so.MAJOR.MINOR.PATCH) and for nicref.pc; `nicref --version`
 * prints nicref_version(). MAJOR changes when the ABI breaks. */
#ifndef NICREF_VERSION_H
#define NICREF_VERSION_H

#include "nicref/api.h"

#define NICREF_VERSION_MAJOR 0
#define NICREF_VERSION_MINOR 1
#define NICREF_VERSION_PATCH 0

#define NICREF_VERSION_STR_(x) #x
#define NICREF_VERSION_STR(x) NICREF_VERSION_STR_(x)
/* "MAJOR.MINOR.PATCH" of the headers a program was compiled with. */
#define NICREF_VERSION_STRING                                                                   \
	NICREF_VERSION_STR(NICREF_VERSION_MAJOR)                                                \
	"." NICREF_VERSION_STR(NICREF_VERSION_MINOR) "." NICREF_VERSION_STR(NICREF_VERSION_PATCH)

/* "MAJOR.MINOR.PATCH" of the library a program runs with (may differ from
 * NICREF_VERSION_STRING when the shared library was upgraded under it). */
NICREF_API const char *nicref_version(void);

#endif
