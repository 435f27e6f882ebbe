/* Loading a device under test: everything a library could get wrong is checked here, once,
 * with a message that names the library and the check (docs/dut.md, "Loading"). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "dut_load.h"
#include "nicref/nicref.h"

int dut_load(const char *path, struct dut_lib *lib, char *err, size_t errlen)
{
	memset(lib, 0, sizeof *lib);
	/* dlopen searches the library path for a bare name: a path names a file. */
	char buf[sizeof lib->path];
	snprintf(buf, sizeof buf, "%s%s", strchr(path, '/') ? "" : "./", path);
	void *h = dlopen(buf, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		snprintf(err, errlen, "%s: cannot load the DUT library: %s", path,
			 why ? why : "dlopen failed");
		return -1;
	}
	/* C forbids converting the object pointer dlsym returns to a function pointer; POSIX
	 * guarantees it works, through memcpy. */
	void *sym = dlsym(h, NICREF_DUT_ENTRY_SYMBOL);
	nicref_dut_entry_fn *entry = NULL;
	const struct nicref_dut_ops *ops = NULL;
	if (sym)
		memcpy(&entry, &sym, sizeof entry);
	if (!entry)
		snprintf(err, errlen, "%s: not a DUT library: no symbol %s (nicref/dut.h)", path,
			 NICREF_DUT_ENTRY_SYMBOL);
	else if (!(ops = entry()))
		snprintf(err, errlen, "%s: %s() returned NULL", path, NICREF_DUT_ENTRY_SYMBOL);
	else if (ops->abi_version != NICREF_DUT_ABI_VERSION)
		snprintf(err, errlen, "%s: DUT ABI version %u, this nicref speaks version %u "
			 "(nicref/dut.h): rebuild the DUT against this nicref's header", path,
			 ops->abi_version, NICREF_DUT_ABI_VERSION);
	else if (ops->size < sizeof *ops)
		snprintf(err, errlen, "%s: DUT entry table of %u bytes, version %u has %zu "
			 "(nicref/dut.h): rebuild the DUT against this nicref's header", path,
			 ops->size, NICREF_DUT_ABI_VERSION, sizeof *ops);
	else {
		static const char *const names[] = { "create",	    "destroy",	   "reset",
						      "bar_read32", "bar_write32", "frame_in",
						      "time_advance" };
		const int present[] = { ops->create != NULL,	   ops->destroy != NULL,
					ops->reset != NULL,	   ops->bar_read32 != NULL,
					ops->bar_write32 != NULL, ops->frame_in != NULL,
					ops->time_advance != NULL };
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (!present[i]) {
				snprintf(err, errlen, "%s: DUT entry point %s is NULL (every entry "
					 "of nicref/dut.h is required)", path, names[i]);
				dlclose(h);
				return -1;
			}
		lib->handle = h;
		lib->ops = ops;
		snprintf(lib->path, sizeof lib->path, "%s", path);
		return 0;
	}
	dlclose(h);
	return -1;
}

void dut_unload(struct dut_lib *lib)
{
	if (lib->handle)
		dlclose(lib->handle);
	memset(lib, 0, sizeof *lib);
}

void dut_config_of(const struct nicref_config *cfg, struct nicref_dut_config *out)
{
	*out = (struct nicref_dut_config){
		.size = sizeof *out,
		.nicref_version = NICREF_VERSION_MAJOR << 16 | NICREF_VERSION_MINOR << 8 |
				  NICREF_VERSION_PATCH,
		.seed = cfg->seed,
		.profile = &cfg->profile,
		.profile_size = sizeof cfg->profile,
	};
}
