/* Profile settings by name: a table of the nicref_profile fields a driver run may set. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfio/vfio_profile.h"

#define PROFILE_KEYS(X)                                                                      \
	X(cmdif_checksum, 3, "0 off, 1 generate, 3 check and generate (D-CMD-5)")             \
	X(reserved_check, 1, "1 refuse reserved input bits with BAD_PARAM, 0 run (D-CMD-8)")   \
	X(boot_pages, UINT32_MAX, "QUERY_PAGES boot answer (D-PG-2)")                          \
	X(init_pages, UINT32_MAX, "QUERY_PAGES init answer (D-PG-2)")                          \
	X(msix_vectors, 256, "MSI-X vectors")                                                   \
	X(num_ports, 2, "ports")                                                                \
	X(init_delay_ns, UINT64_MAX, "initializing stays 1 this long (D-INIT-5)")              \
	X(health_period_ns, UINT64_MAX, "health counter period (D-H-1)")

struct key {
	const char *name;
	size_t off, size;
	uint64_t max;
	const char *help;
};

static const struct key keys[] = {
#define KEY_ROW(f, mx, h) \
	{ #f, offsetof(struct nicref_profile, f), sizeof(((struct nicref_profile *)0)->f), mx, h },
	PROFILE_KEYS(KEY_ROW)
#undef KEY_ROW
};

static void store(struct nicref_profile *p, const struct key *k, uint64_t v)
{
	char *at = (char *)p + k->off;
	switch (k->size) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(at, &x, 1); break; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(at, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(at, &x, 4); break; }
	default: memcpy(at, &v, 8); break;
	}
}

int vfio_profile_apply(struct nicref_profile *p, const char *text, char *err, size_t len)
{
	if (!text)
		return 0;
	const char *s = text;
	while (*s) {
		const char *end = strchr(s, ',');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		char item[128];
		if (n == 0 || n >= sizeof item) {
			snprintf(err, len, "setting '%.*s' is empty or too long", (int)(n > 40 ? 40 : n), s);
			return -1;
		}
		memcpy(item, s, n);
		item[n] = 0;
		char *eq = strchr(item, '=');
		if (!eq) {
			snprintf(err, len, "setting '%s' is not NAME=VALUE", item);
			return -1;
		}
		*eq = 0;
		const struct key *k = NULL;
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (strcmp(keys[i].name, item) == 0)
				k = &keys[i];
		if (!k) {
			snprintf(err, len, "no profile setting '%s' (settings: %s)", item,
				 vfio_profile_help());
			return -1;
		}
		char *e;
		errno = 0;
		unsigned long long v = strtoull(eq + 1, &e, 0);
		if (errno || e == eq + 1 || *e || eq[1] == '-' || v > k->max) {
			snprintf(err, len, "profile setting %s: '%s' is not a number up to %llu", item,
				 eq + 1, (unsigned long long)k->max);
			return -1;
		}
		store(p, k, v);
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

const char *vfio_profile_help(void)
{
	return
#define KEY_NAME(f, mx, h) #f " "
		PROFILE_KEYS(KEY_NAME)
#undef KEY_NAME
		;
}
