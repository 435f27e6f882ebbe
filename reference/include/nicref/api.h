/* NICREF_API marks what libnicref exports. The library is built with -fvisibility=hidden, so a
 * function is part of libnicref.so's interface exactly when its declaration in
 * reference/include/nicref/ carries this macro; everything else stays private to the library
 * (ci/check_exports.sh checks that only nicref_* names are exported, and all declared ones). */
#ifndef NICREF_API_H
#define NICREF_API_H

#if defined(__GNUC__) || defined(__clang__)
#define NICREF_API __attribute__((visibility("default")))
#else
#define NICREF_API
#endif

#endif
