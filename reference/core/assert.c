/* Where a model assertion stops the model (NICREF_ASSERT, core/dev.h). A function of its own,
 * in a file of its own that asserts nothing, so that a program linking the model statically can
 * wrap it (ld --wrap=nicref_assert_failed) to say which assertion failed before the trap: the
 * fuzz targets do (fuzzers/fuzz_report.c). The model itself prints nothing. */
#include "core/dev.h"

void nicref_assert_failed(const char *expr, const char *file, int line)
{
	(void)expr;
	(void)file;
	(void)line;
	__builtin_trap();
}
