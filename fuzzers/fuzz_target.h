/* The one shape of a nicref fuzz target (the idea of s2n's S2N_FUZZ_TARGET).
 *
 * A target file defines
 *   static int  <init>(void);                                  0, or non-zero to give up
 *   static void <one_input>(const uint8_t *data, size_t len);  __builtin_trap() on a finding
 * and ends with NICREF_FUZZ_TARGET(<init>, <one_input>). The same object then links with
 * libFuzzer (clang -fsanitize=fuzzer), with AFL++'s libAFLDriver, or with
 * fuzzers/standalone_main.c, which replays corpus files as a regression test under gcc.
 *
 * Rules every target keeps:
 * - deterministic: no real clock, no unseeded randomness; the device seed is fixed;
 * - one device, created once in <init> and kept in a static of the target file; each input
 *   starts with nicref_dev_reset + nicref_hostmem_clear (cheap reset is the design: a target
 *   never creates or destroys a device per input);
 * - it checks properties (invariants, trace properties, agreement of what the trace says with
 *   what host memory holds), not only crashes; a broken property prints what broke and where
 *   (fuzzers/fuzz_report.c) and then traps (__builtin_trap()), which every engine reports as a
 *   crash with the input saved. */
#ifndef NICREF_FUZZ_TARGET_H
#define NICREF_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* The libFuzzer entry points (also what libAFLDriver and standalone_main.c call). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A finding: "fuzz check failed at FILE:LINE: COND" on stderr, then a trap at once, so the
 * engine saves the input (fuzzers/fuzz_report.c). */
_Noreturn void fuzz_check_failed(const char *cond, const char *file, int line);
#define NICREF_FUZZ_CHECK(cond)                                                                 \
	do {                                                                                    \
		if (!(cond))                                                                    \
			fuzz_check_failed(#cond, __FILE__, __LINE__);                          \
	} while (0)

/* A property a target states in its own terms is broken: "property NAME broken at FILE:LINE:
 * STATE" on stderr (STATE from fmt, which may hold more lines), then a trap (fuzz_report.c). */
__attribute__((format(printf, 4, 5))) _Noreturn void
fuzz_property_failed(const char *name, const char *file, int line, const char *fmt, ...);

/* Property NAME holds when cond is true; otherwise fuzz_property_failed with the state the
 * format and arguments after NAME describe, at the caller's file and line. */
#define NICREF_FUZZ_PROP(cond, name, ...)                                                       \
	do {                                                                                    \
		if (!(cond))                                                                    \
			fuzz_property_failed(name, __FILE__, __LINE__, __VA_ARGS__);             \
	} while (0)

/* NICREF_FUZZ_TRACE=1 in the environment: a line on stderr per device event and per op the
 * targets report (fuzz_trace), to read what an input does; off, nothing is printed. */
__attribute__((format(printf, 1, 2))) void fuzz_trace(const char *fmt, ...);

/* NICREF_DUT=LIB: compare every device the target creates with the device under test LIB
 * (fuzzers/fuzz_dut.c, docs/dut.md); a divergence is a finding. Exits 2 when LIB cannot be
 * loaded. */
void fuzz_dut_init(void);

#define NICREF_FUZZ_TARGET(init_fn, one_input_fn)                                               \
	int LLVMFuzzerInitialize(int *argc, char ***argv)                                       \
	{                                                                                       \
		(void)argc;                                                                     \
		(void)argv;                                                                     \
		fuzz_dut_init();                                                                \
		/* A target that cannot set up has nothing to fuzz; that is a harness bug. */ \
		NICREF_FUZZ_CHECK(init_fn() == 0);                                              \
		return 0;                                                                       \
	}                                                                                       \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                            \
	{                                                                                       \
		one_input_fn(data, size);                                                       \
		return 0;                                                                       \
	}

#endif
