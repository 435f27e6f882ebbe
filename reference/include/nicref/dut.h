/* The device-under-test interface: a versioned C ABI through which nicref drives any
 * implementation of the device (RTL under a simulator, an FPGA model, another software model)
 * exactly as it drives libnicref, so that the two can be compared (`nicref vectors --dut LIB`,
 * fuzz targets with NICREF_DUT=LIB; docs/dut.md).
 *
 * A DUT is a shared library exporting one symbol, NICREF_DUT_ENTRY_SYMBOL, a function that
 * returns its table of entry points. The shape is libnicref's own (nicref.h): the host gives
 * callbacks for DMA, frames out and interrupts at create; nicref calls reset, BAR0 32-bit read
 * and write, frame in and time advance. Nothing else crosses: the DUT keeps its own state and
 * reaches host memory only through the callbacks.
 *
 * Versioning. abi_version is NICREF_DUT_ABI_VERSION of the header the DUT was built with;
 * nicref loads a DUT whose version equals its own and refuses any other. `size` is
 * sizeof(struct nicref_dut_ops) as the DUT was built: entry points are only ever appended, a
 * later minor revision of this header tells them apart by size, and nicref refuses a table
 * smaller than the one it needs. A change that is not an append bumps the version.
 *
 * The synchronous contract. What a call causes happens before it returns: a BAR0 write that
 * rings a doorbell has written its completions, interrupts and frames when bar_write32
 * returns; a frame_in has been delivered (or dropped) when frame_in returns; time-driven work
 * (timers, moderation) happens inside time_advance. A wrapper around a clocked simulation runs
 * the simulation until the device is idle before returning (docs/dut.md shows how). nicref
 * compares the host-visible effects at the end of every call. A call that crashes the process
 * or does not return is reported as the DUT's failure (docs/dut.md, "A DUT that crashes or
 * hangs"). */
#ifndef NICREF_DUT_H
#define NICREF_DUT_H

#include <stddef.h>
#include <stdint.h>

#define NICREF_DUT_ABI_VERSION 1u
/* The symbol a DUT library exports (dlsym), of type nicref_dut_entry_fn. */
#define NICREF_DUT_ENTRY_SYMBOL "nicref_dut_entry"

struct nicref_dut; /* the DUT's own instance, opaque to nicref */
struct nicref_profile;

/* How the DUT reaches the host: nicref provides these at create; they stay valid until
 * destroy. A DUT calls them only from inside one of its entry points (the synchronous
 * contract). */
struct nicref_dut_host {
	void *ctx;
	/* Host memory. Return 0, or non-zero for a bus error (nothing was read or written; the
	 * DUT handles it as the device handles a failed DMA). */
	int (*dma_read)(void *ctx, uint64_t addr, void *buf, size_t len);
	int (*dma_write)(void *ctx, uint64_t addr, const void *buf, size_t len);
	/* A frame the device transmits on local port `port` (1..num_ports): destination MAC to
	 * the end of the payload, no FCS (libnicref's convention, docs/tx.md D-TX-2). */
	void (*frame_out)(void *ctx, unsigned port, const uint8_t *frame, size_t len);
	/* An MSI-X vector fires (PRM §7.13: an armed EQ's interrupt). */
	void (*interrupt)(void *ctx, unsigned vector);
};

/* What the device must be. A DUT that cannot be this device (a profile it does not implement)
 * returns NULL from create, and nicref reports that the DUT refused the configuration. */
struct nicref_dut_config {
	uint32_t size;              /* sizeof(struct nicref_dut_config) of the caller */
	uint32_t nicref_version;    /* NICREF_VERSION_MAJOR << 16 | MINOR << 8 | PATCH */
	uint64_t seed;              /* the model's PRNG seed (nicref_config.seed) */
	/* The device's identity and the choices the spec leaves open (nicref.h, docs/decisions.md)
	 * as libnicref of nicref_version lays them out, profile_size bytes. A DUT that is not
	 * libnicref reads the fields it implements, or compares the whole profile with the one it
	 * was built for. */
	const struct nicref_profile *profile;
	uint32_t profile_size;
};

struct nicref_dut_ops {
	uint32_t abi_version; /* NICREF_DUT_ABI_VERSION */
	uint32_t size;        /* sizeof(struct nicref_dut_ops) */
	const char *name;     /* what the DUT is, for reports ("libnicref 0.1.0", "rtl rev 7") */

	/* A device at power-on. NULL when the DUT cannot be this device or is out of memory.
	 * `host` and `cfg` are read during the call; the callbacks are kept. */
	struct nicref_dut *(*create)(const struct nicref_dut_host *host,
				     const struct nicref_dut_config *cfg);
	void (*destroy)(struct nicref_dut *dut);
	/* Power-on state again (nicref_dev_reset): registers, queues, clock 0. Host memory is
	 * the host's and is not touched. */
	void (*reset)(struct nicref_dut *dut);
	/* BAR0, 32-bit accesses at a byte offset (PRM §4.3): the initialization segment, then the
	 * UAR pages. Values as the CPU sees them (the register's bits, PRM bit 0 the LSB). */
	uint32_t (*bar_read32)(struct nicref_dut *dut, uint32_t offset);
	void (*bar_write32)(struct nicref_dut *dut, uint32_t offset, uint32_t value);
	/* A frame arrives on local port `port` (nicref_wire_rx): destination MAC to the end of
	 * the payload, no FCS. 0, or -1 when port is not a port of the device (compared with
	 * the model's answer). */
	int (*frame_in)(struct nicref_dut *dut, unsigned port, const uint8_t *frame, size_t len);
	/* Virtual time moves ns nanoseconds forward (nicref_clock_advance). */
	void (*time_advance)(struct nicref_dut *dut, uint64_t ns);
};

typedef const struct nicref_dut_ops *(nicref_dut_entry_fn)(void);

/* In a DUT's source, defines the entry point with its prototype and default visibility:
 *     NICREF_DUT_ENTRY { return &my_ops; }                                              */
#if defined(__GNUC__) || defined(__clang__)
#define NICREF_DUT_EXPORT __attribute__((visibility("default")))
#else
#define NICREF_DUT_EXPORT
#endif
#define NICREF_DUT_ENTRY                                                                        \
	NICREF_DUT_EXPORT nicref_dut_entry_fn nicref_dut_entry;                                 \
	NICREF_DUT_EXPORT const struct nicref_dut_ops *nicref_dut_entry(void)

#endif
