/* Loading a device under test (nicref/dut.h): dlopen, the entry symbol, the ABI version and
 * table size, every entry point present. docs/dut.md. */
#ifndef NICREF_DUT_LOAD_H
#define NICREF_DUT_LOAD_H

#include <stddef.h>

#include "nicref/dut.h"

struct dut_lib {
	void *handle;
	const struct nicref_dut_ops *ops;
	char path[1024];
};

/* 0 and *lib, or -1 with err naming the library and what is wrong ("build/x.so: ABI version 2,
 * this nicref speaks 1"). The tools exit 2 on it. */
int dut_load(const char *path, struct dut_lib *lib, char *err, size_t errlen);
void dut_unload(struct dut_lib *lib);

/* The nicref_dut_config of a model's configuration (its seed and profile). */
struct nicref_config;
void dut_config_of(const struct nicref_config *cfg, struct nicref_dut_config *out);

#endif
