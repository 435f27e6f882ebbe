/* The invariants' table (nicref/invariants.h) and the one way a check describes what it found
 * broken (dev_broken). Pure: the text goes to the caller's buffer, never anywhere else. */
#include <stdarg.h>
#include <stdio.h>

#include "core/dev.h"

struct invariant_row {
	int code;
	const char *name, *cite, *what;
};

static const struct invariant_row invariants[] = {
#define INVARIANT_ROW(id, code, cite, what) { code, #id, cite, what },
	NICREF_INVARIANTS(INVARIANT_ROW)
#undef INVARIANT_ROW
};

static const struct invariant_row *row(int code)
{
	for (size_t i = 0; i < sizeof invariants / sizeof invariants[0]; i++)
		if (invariants[i].code == code)
			return &invariants[i];
	return NULL;
}

const char *nicref_invariant_name(int code)
{
	const struct invariant_row *r = row(code);
	return r ? r->name : NULL;
}

const char *nicref_invariant_citation(int code)
{
	const struct invariant_row *r = row(code);
	return r ? r->cite : NULL;
}

const char *nicref_invariant_description(int code)
{
	const struct invariant_row *r = row(code);
	return r ? r->what : NULL;
}

int dev_broken(char *buf, size_t len, int code, const char *fmt, ...)
{
	if (len > 0) {
		va_list ap;
		va_start(ap, fmt);
		(void)vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return code;
}
