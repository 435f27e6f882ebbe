/* What a finding prints before the trap, and the optional trace (fuzz_target.h).
 *
 * Three kinds of finding, one line each on stderr, then __builtin_trap():
 *   fuzz check failed at fuzzers/ctrl_fuzz.c:271: st >= 0
 *   invariant REFCOUNT_MATCHES broken at fuzzers/cmdq_fuzz.c:33: PD 1: refs 2, held by 1 (...)
 *     nicref_dev_check -12 (D-OBJ-1): each object's reference count equals ...
 *   model assertion failed at reference/obj/obj.c:162: dev->obj_charged[type] > 0
 * The first is a property of a target (NICREF_FUZZ_CHECK); the second one a target names and
 * explains (fuzz_property_failed, e.g. tx's FRAME_MTU); the third a model invariant
 * (nicref_dev_check, named by nicref/invariants.h and described by nicref_dev_check_explain)
 * checked where the target asked for it; the fourth a NICREF_ASSERT inside the model, which
 * reaches us because every fuzz build links with -Wl,--wrap=nicref_assert_failed (fuzz.mk):
 * the model stays free of I/O and still says where it stopped. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_oracle.h"
#include "fuzz_target.h"

void fuzz_check_failed(const char *cond, const char *file, int line)
{
	fprintf(stderr, "fuzz check failed at %s:%d: %s\n", file, line, cond);
	__builtin_trap();
}

void fuzz_property_failed(const char *name, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "property %s broken at %s:%d: ", name, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	__builtin_trap();
}

void fuzz_check_invariants(const struct nicref_dev *dev, const char *file, int line)
{
	if (nicref_dev_check(dev) == 0)
		return;
	char state[512];
	int code = nicref_dev_check_explain(dev, state, sizeof state);
	const char *name = nicref_invariant_name(code);
	if (name)
		fprintf(stderr, "invariant %s broken at %s:%d: %s\n  nicref_dev_check %d (%s): %s\n",
			name, file, line, state, code, nicref_invariant_citation(code),
			nicref_invariant_description(code));
	else
		fprintf(stderr, "invariant %d (no row in nicref/invariants.h) broken at %s:%d: %s\n",
			code, file, line, state);
	__builtin_trap();
}

/* ld --wrap: the model's calls to nicref_assert_failed arrive here; the real one traps. */
_Noreturn void __real_nicref_assert_failed(const char *expr, const char *file, int line);
_Noreturn void __wrap_nicref_assert_failed(const char *expr, const char *file, int line);

void __wrap_nicref_assert_failed(const char *expr, const char *file, int line)
{
	fprintf(stderr, "model assertion failed at %s:%d: %s\n", file, line, expr);
	__real_nicref_assert_failed(expr, file, line);
}

/* -1 until the first call, then whether NICREF_FUZZ_TRACE is set to something other than 0. */
static int tracing = -1;

bool fuzz_tracing(void)
{
	if (tracing < 0) {
		const char *v = getenv("NICREF_FUZZ_TRACE");
		tracing = v && *v && !(v[0] == '0' && v[1] == '\0');
	}
	return tracing;
}

void fuzz_trace(const char *fmt, ...)
{
	if (!fuzz_tracing())
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
