/* What the parts of build/seeds/make_seeds share (fuzzers/make_seeds.c, make_seeds_tx.c). */
#ifndef NICREF_FUZZ_MAKE_SEEDS_H
#define NICREF_FUZZ_MAKE_SEEDS_H

#include <stddef.h>

/* The corpora directory of the run (argv[1]). */
extern const char *seeds_corpora_dir;
/* dir/name with len bytes of data; exits on failure. */
void seeds_write_file(const char *dir, const char *name, const void *data, size_t len);
/* corpora/tx/seed-* (make_seeds_tx.c). */
void tx_seeds(void);

#endif
