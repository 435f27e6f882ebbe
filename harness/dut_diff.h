/* The differential engine: a model device and a device under test (nicref/dut.h) driven with
 * identical stimuli, compared on what a host can observe (docs/dut.md):
 *   - the bytes each wrote to host memory, at the end of every stimulus, named by layout and
 *     field when the address is a CQE, an EQE, a command queue entry or a command's output;
 *   - the frames each put out, per port, in order;
 *   - the interrupts each raised, per vector;
 *   - the value of every BAR0 read.
 * The first divergence of a device goes to the handler with the stimulus that caused it.
 *
 * How stimuli reach it. Every program that drives the model through the public API gets the
 * engine without a change to its code: its link interposes on the API's stimulus functions
 * (harness/dut_wrap.c, linked with DUT_WRAP_LDFLAGS: nicref_dev_create, _destroy, _reset,
 * nicref_bar_read32/_write32, nicref_clock_advance, nicref_wire_rx, nicref_hostmem_write,
 * _clear, _fault). Once dut_diff_use has loaded a DUT and a handler is set, each device created
 * gets a twin: a DUT instance with the same seed and profile, and its own host memory (a second
 * libnicref instance's built-in memory: the same page bound and fault rules). Each stimulus to
 * the model is applied to the twin too; host memory writes are mirrored. The model's answers
 * are the ones the program sees, so its own checks run unchanged. */
#ifndef NICREF_DUT_DIFF_H
#define NICREF_DUT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nicref_dev;
struct nicref_config;

struct dut_divergence {
	unsigned long long index; /* stimulus number since the device was created or reset */
	char stimulus[160];       /* "bar_write32(0x18, 0x1)" */
	char where[256];          /* what the program says of its position (dut_diff_set_where) */
	char what[1536];          /* "host memory 0x...: CQE cqn 3 counter 0: cqe64.byte_cnt
				   * model 0x40, DUT 0x41" */
};

typedef void dut_diff_handler_fn(void *ctx, const struct dut_divergence *d);
typedef void dut_diff_where_fn(void *ctx, char *buf, size_t len);

/* Loads the DUT library for the devices created from now on. 0, or -1 with err naming the
 * library and what is wrong (dut_load.h); -1 too when this program was linked without the
 * interposition (dut_wrap.c). */
int dut_diff_use(const char *path, char *err, size_t errlen);
/* Whether a DUT is loaded, and its name (nicref_dut_ops.name) and path. */
bool dut_diff_active(void);
const char *dut_diff_name(void);
const char *dut_diff_path(void);
/* Where divergences go; NULL stops twinning new devices (devices twinned before keep theirs). */
void dut_diff_set_handler(dut_diff_handler_fn *fn, void *ctx);
/* Whether devices created now get a twin (a DUT is loaded and a handler set). */
bool dut_diff_twinning(void);
/* What the program says of its position, asked when a divergence is found (vector and step;
 * fuzz input and op). */
void dut_diff_set_where(dut_diff_where_fn *fn, void *ctx);

/* Where the divergences of the device's twin go from now on (a program that learns its position
 * only after the create: nicref replay, once the setup is done). */
void dut_diff_retarget(const struct nicref_dev *model, dut_diff_handler_fn *fn, void *ctx);
/* The device's twin state: -1 no twin (no DUT in use, or the device was created while no
 * handler was set), else the number of divergences found since create. A DUT that refused
 * the configuration (create returned NULL) counts as one divergence (the handler was told). */
long long dut_diff_divergences(const struct nicref_dev *model);
/* Stimuli applied to both since the twin was created (all devices, for summaries). */
unsigned long long dut_diff_stimuli(void);
/* Divergences found on every twin since the program started, destroyed ones included (a
 * program whose device is gone: nicref replay after a setup that failed). */
unsigned long long dut_diff_divergences_all(void);

/* For a program that owns its process (nicref vectors, nicref replay): from now on a fatal
 * signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) raised while a call into the DUT runs, or
 * one call into it that lasts timeout_ms (0: no limit), is reported -- a line on stderr naming
 * the DUT, the signal or the limit and the stimulus, then the device's divergence to its
 * handler (the program's FAIL line) -- and the process exits 1 (dut_guard.c). Outside the
 * DUT's calls the signals go where they went before. The limit's watchdog is a periodic
 * SIGALRM (ITIMER_REAL): a program using either for itself does not call this. A fuzz target
 * does not: its engine saves the input that crashes or hangs the DUT, as any other. 0, or -1
 * (errno). Call it before printing anything to stdout. */
int dut_diff_guard(unsigned timeout_ms);
/* The limit a program gives when --dut-timeout is not: a minute per call, room for a slow
 * simulation of one doorbell or frame, nothing a working DUT reaches. */
#define DUT_DIFF_TIMEOUT_DEFAULT_MS 60000u
/* --dut-timeout SECONDS (a decimal number, 0 no limit) in milliseconds: 0, or -1 when s is
 * not one. */
int dut_diff_timeout_arg(const char *s, unsigned *ms);

/* ---- for harness/dut_wrap.c: the engine behind the interposed functions ---- */

/* The real functions of the model (the interposition's __real_ symbols). */
struct dut_model_fns {
	struct nicref_dev *(*dev_create)(const struct nicref_config *cfg);
	void (*dev_destroy)(struct nicref_dev *dev);
	void (*dev_reset)(struct nicref_dev *dev);
	uint32_t (*bar_read32)(struct nicref_dev *dev, uint32_t offset);
	void (*bar_write32)(struct nicref_dev *dev, uint32_t offset, uint32_t value);
	void (*clock_advance)(struct nicref_dev *dev, uint64_t ns);
	int (*wire_rx)(struct nicref_dev *dev, unsigned port, const uint8_t *frame, size_t len);
	int (*hostmem_write)(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len);
	void (*hostmem_clear)(struct nicref_dev *dev);
	int (*hostmem_fault)(struct nicref_dev *dev, uint64_t addr, uint64_t len, unsigned flags);
};
/* dut_wrap.c defines it; a program linked without it has no interposition. */
extern const struct dut_model_fns dut_model_real __attribute__((weak));

struct dut_pair;
/* The twin of a model device, or NULL (the common case: one test of a counter). */
struct dut_pair *dut_pair_of(const struct nicref_dev *model);
extern unsigned dut_npairs;

struct nicref_dev *dut_pair_create(const struct nicref_config *cfg);
void dut_pair_destroy(struct dut_pair *p);
void dut_pair_reset(struct dut_pair *p);
uint32_t dut_pair_bar_read32(struct dut_pair *p, uint32_t offset);
void dut_pair_bar_write32(struct dut_pair *p, uint32_t offset, uint32_t value);
void dut_pair_clock_advance(struct dut_pair *p, uint64_t ns);
int dut_pair_wire_rx(struct dut_pair *p, unsigned port, const uint8_t *frame, size_t len);
int dut_pair_hostmem_write(struct dut_pair *p, uint64_t addr, const void *buf, size_t len);
void dut_pair_hostmem_clear(struct dut_pair *p);
int dut_pair_hostmem_fault(struct dut_pair *p, uint64_t addr, uint64_t len, unsigned flags);

#endif
