/* An operation stream: the whole-device stimulus format of the cmdq fuzz target and of its seed
 * corpus, which `nicref vectors --corpus` records from the golden vectors (harness/vectors.c).
 *
 * Each op is one op byte followed by big-endian operands. The op codes are fixed numbers:
 *   0x00 BAR_WRITE    offset:u16 value:u32
 *   0x01 BAR_READ     offset:u16
 *   0x02 MEM_WRITE    addr:u32 len:u16 data[len]
 *   0x03 ADVANCE      ns:u32
 *   0x04 DOORBELL     vector:u32       (a BAR_WRITE of the command doorbell, 18h)
 *   0x05 DMA_FAULT    addr:u32 len:u16 flags:u8   (host error injection, nicref_hostmem_fault)
 *   0x06 ADVANCE64    ns:u64
 *   0x07 MEM_WRITE64  addr:u64 len:u16 data[len]
 *   0x08 DMA_FAULT64  addr:u64 len:u64 flags:u8
 *   0x09-0xFF         reserved: the op byte alone is consumed and nothing happens (no step)
 * A new op takes the lowest reserved code, so an existing stream never changes meaning: every
 * op it holds keeps its code, and a reserved byte in it was a no-op. Every byte string is a
 * valid stream; a truncated last op is dropped (MEM_WRITE data is cut to what is left). The
 * recorder writes the short forms whenever the values fit, so recordings stay small and
 * byte-identical to those of earlier versions. */
#ifndef NICREF_OPSTREAM_H
#define NICREF_OPSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/nicref.h"

enum opstream_op {
	OPS_BAR_WRITE = 0x00,
	OPS_BAR_READ = 0x01,
	OPS_MEM_WRITE = 0x02,
	OPS_ADVANCE = 0x03,
	OPS_DOORBELL = 0x04,
	OPS_DMA_FAULT = 0x05,
	OPS_ADVANCE64 = 0x06,
	OPS_MEM_WRITE64 = 0x07,
	OPS_DMA_FAULT64 = 0x08,
	OPS_COUNT /* the first reserved code */
};

/* A growable encoder (harness only; the model never allocates per op). */
struct opstream {
	uint8_t *buf;
	size_t len, cap;
	int failed; /* an allocation failed; the stream is incomplete */
};

void opstream_init(struct opstream *s);
void opstream_free(struct opstream *s);
void opstream_bar_write(struct opstream *s, uint32_t offset, uint32_t value);
void opstream_bar_read(struct opstream *s, uint32_t offset);
void opstream_mem_write(struct opstream *s, uint64_t addr, const void *data, size_t len);
/* One op whatever ns is (ADVANCE, or ADVANCE64 past 2^32 - 1; nothing for 0): a recording
 * never grows with the time it stands for. */
void opstream_advance(struct opstream *s, uint64_t ns);
void opstream_dma_fault(struct opstream *s, uint64_t addr, uint64_t len, unsigned flags);

/* Called after every op that ran, e.g. to check invariants; non-zero stops the run. */
typedef int (*opstream_step_fn)(void *ctx, struct nicref_dev *dev);

/* Runs a stream against a device; returns the number of ops run (reserved bytes are not ops),
 * or -1 if a step callback stopped it. */
long opstream_run(struct nicref_dev *dev, const uint8_t *data, size_t len,
		  opstream_step_fn step, void *ctx);

#endif
