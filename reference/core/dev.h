/* Private to libnicref: the core of the device, and the services every layer above shares.
 *
 * Core owns the configuration, the virtual clock, the PRNG, the trace, the built-in host
 * memory, the capabilities and the page pool (struct dev_core). It does not know the rest of
 * the device: struct nicref_dev is composed above it (cmd/ctl_dev.h) with a struct dev_core as
 * its first member, and core reaches that part through dev_core(). What sits above reaches
 * core's state as dev->core and plugs its own power-on, time, invariants and counters into the
 * table of subsystems core walks (core/subsys.h, defined by device/device.c). */
#ifndef NICREF_CORE_DEV_H
#define NICREF_CORE_DEV_H

#include <stdbool.h>
#include <stddef.h>

#include "core/caps.h"
#include "core/devmem.h"
#include "core/hostmem.h"
#include "core/pages.h"
#include "core/subsys.h"
#include "nicref/nicref.h"

struct dev_core {
	struct nicref_config cfg;
	uint64_t now_ns;
	uint64_t prng;
	uint64_t trace_seq;
	uint64_t trace_muted; /* nicref_trace_mute: bit k, kind k's callback is not called */
	/* events, violations and DMA errors; the subsystems add theirs at nicref_stats_get */
	struct nicref_stats stats;
	struct hostmem hostmem;
	struct caps caps;
	struct page_pool pages;
	/* The subsystems, in the order the composition gives them, and each one's state. */
	const struct dev_subsys *const *subsys;
	unsigned nsubsys;
	unsigned ncreated; /* rows whose create ran */
	void **state;
	/* The rows with a tick, in the table's order: the clock calls only them (a time advance
	 * comes with every frame a capture replays). */
	unsigned *ticking;
	unsigned nticking;
	/* A fatal error halted the device (PRM §9.2.2 "no new operation will start and the HCA
	 * will halt awaiting for hardware reset"; D-H-2, set by cmd/init_seg.c init_seg_fatal):
	 * time passes but no row ticks, so no timer starts anything; the reset clears it. */
	bool halted;
	/* A snapshot is being restored: events are muted (the restored trace position is the
	 * snapshot's, core/snapshot.c). */
	bool quiet;
	/* Snapshots (core/snapshot.c): ids handed out; the id of the one the device was last
	 * taken into or restored from, 0 when none or after a reset; during a
	 * restore, whether the snapshot restored is that one (a row may then copy back only what
	 * moved since, instead of everything). */
	uint64_t snap_ids, snap_last;
	bool snap_continues;
	/* What the objects hold (core/devmem.h): kept so a snapshot can bring them back. */
	struct dev_mem mem;
};

/* A device's core part: the first member of struct nicref_dev (cmd/ctl_dev.h checks that it is),
 * so a pointer to the device is a pointer to it (C11 6.7.2.1p15). */
static inline struct dev_core *dev_core(struct nicref_dev *dev)
{
	return (struct dev_core *)(void *)dev;
}
static inline const struct dev_core *dev_core_c(const struct nicref_dev *dev)
{
	return (const struct dev_core *)(const void *)dev;
}

/* nicref_dev_create for a device of `size` bytes (struct nicref_dev) made of the `n` rows of
 * `subsys` (kept, not copied): the profile checked by core and by every row, the device
 * allocated and zeroed, core's part made, each row's create in order, then a power-on reset.
 * NULL when the profile is refused or memory runs out. */
struct nicref_dev *dev_create(const struct nicref_config *cfg,
			      const struct dev_subsys *const *subsys, unsigned n, size_t size);

/* Tells the subsystems that object num is about to change (core/subsys.h enum dev_note): the
 * control plane calls it before the change, so a layer above can complete what it holds for
 * the object (LRO sessions, PRM §3.3.6.1) while the object is still as it was. */
void dev_notify(struct nicref_dev *dev, enum dev_note note, uint32_t num);

/* The one way events leave the device. */
void dev_emit(struct nicref_dev *dev, enum nicref_event_kind kind, const uint64_t *args,
	      unsigned nargs);
void dev_emit0(struct nicref_dev *dev, enum nicref_event_kind kind);
void dev_emit2(struct nicref_dev *dev, enum nicref_event_kind kind, uint64_t a, uint64_t b);
/* Whether an event is to go no further than its place in the stream: none while a snapshot
 * is restored (quiet: not even counted); a kind no callback sees (none set, or muted) keeps its
 * sequence number and its count and is not built. dev_emit decides the same; inline, it spares
 * a muted event the calls (a replay mutes the frame_in of every frame). */
static inline bool dev_emit_settled(struct nicref_dev *dev, enum nicref_event_kind kind)
{
	struct dev_core *c = dev_core(dev);
	if (c->quiet)
		return true;
	if (c->cfg.trace && !(c->trace_muted >> kind & 1u))
		return false;
	c->trace_seq++;
	c->stats.events++;
	return true;
}
static inline void dev_emit3(struct nicref_dev *dev, enum nicref_event_kind kind, uint64_t a,
			     uint64_t b, uint64_t c)
{
	if (dev_emit_settled(dev, kind))
		return;
	const uint64_t args[] = { a, b, c };
	dev_emit(dev, kind, args, 3);
}
void dev_violation(struct nicref_dev *dev, enum nicref_violation rule, uint64_t arg);
/* Whether an event of this kind reaches a trace callback now: what is computed only to be
 * an event's argument (a frame's CRC) is skipped when it does not (nicref_trace_mute). */
static inline bool dev_traced(const struct nicref_dev *dev, enum nicref_event_kind kind)
{
	const struct dev_core *c = dev_core_c(dev);
	return c->cfg.trace && !c->quiet && !(c->trace_muted >> kind & 1u);
}

/* DMA through the injected ops or the built-in host memory. Non-zero on a bus error, which is
 * also traced. */
int dev_dma_read_any(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len);
int dev_dma_write_any(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len);
/* The same, with the common case inline (a received frame makes about eight accesses): no
 * injected ops, no fault ranges, no dirty tracking, within one page of the built-in memory
 * that exists. Every other access is dev_dma_*_any's. */
static inline int dev_dma_read(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len)
{
	const struct dev_core *c = dev_core_c(dev);
	const uint8_t *p = c->cfg.ops.dma_read || c->hostmem.nfault
				   ? NULL
				   : hostmem_at(&c->hostmem, addr, len);
	if (!p)
		return dev_dma_read_any(dev, addr, buf, len);
	hostmem_copy_small(buf, p, len);
	return 0;
}
static inline int dev_dma_write(struct nicref_dev *dev, uint64_t addr, const void *buf,
				size_t len)
{
	const struct dev_core *c = dev_core_c(dev);
	uint8_t *p = c->cfg.ops.dma_write || c->hostmem.nfault || c->hostmem.track
			     ? NULL
			     : hostmem_at(&c->hostmem, addr, len);
	if (!p)
		return dev_dma_write_any(dev, addr, buf, len);
	hostmem_copy_small(p, buf, len);
	return 0;
}

/* Model bugs stop the model: fuzzers must see them. Never used for bad input. The trap is in
 * nicref_assert_failed (core/assert.c), out of line, so the fuzz targets can wrap it to print
 * the assertion and its place first (fuzzers/fuzz_report.c); the model prints nothing. */
_Noreturn void nicref_assert_failed(const char *expr, const char *file, int line);
#define NICREF_ASSERT(c)                                                                        \
	do {                                                                                    \
		if (!(c))                                                                       \
			nicref_assert_failed(#c, __FILE__, __LINE__);                           \
	} while (0)

/* An invariant check found `code` broken (nicref/invariants.h): describes the state it found
 * into buf (snprintf rules; nothing when len is 0) and returns code. Every check reads
 * `return dev_broken(buf, len, NICREF_INV_..., "what it saw", ...)`, so nicref_dev_check (len 0)
 * and nicref_dev_check_explain run the same code. */
__attribute__((format(printf, 4, 5))) int dev_broken(char *buf, size_t len, int code,
						     const char *fmt, ...);

#endif
