/* The stimulus recorder of `nicref repro` (docs/repro.md): with NICREF_REPRO_RECORD=FILE in the
 * environment, every stimulus a program gives its first device (the public functions
 * harness/dut_wrap.c interposes on) is written to FILE as one line, before the stimulus runs,
 * so the last line of a run that crashed is the stimulus during which it did. Calls the model
 * makes while a stimulus runs (a target's DMA hook writing host memory) are the device's, not
 * the host's, and are not recorded. The lines:
 *
 *   C                   the device was created (power-on state)
 *   R                   nicref_dev_reset
 *   K                   nicref_hostmem_clear
 *   W OFF VALUE         nicref_bar_write32 (hex)
 *   r OFF               nicref_bar_read32
 *   T NS                nicref_clock_advance (decimal)
 *   M ADDR HEX          nicref_hostmem_write
 *   F PORT HEX          nicref_wire_rx
 *   X ADDR LEN FLAGS    nicref_hostmem_fault
 *
 * The hooks are weak: a program linked without repro_record.c (a build script that lists its
 * sources) records nothing and needs nothing. */
#ifndef NICREF_REPRO_RECORD_H
#define NICREF_REPRO_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct nicref_dev;

enum repro_stim {
	REPRO_CREATE = 'C',
	REPRO_RESET = 'R',
	REPRO_CLEAR = 'K',
	REPRO_BAR_WRITE = 'W',
	REPRO_BAR_READ = 'r',
	REPRO_TIME = 'T',
	REPRO_MEM = 'M',
	REPRO_FRAME = 'F',
	REPRO_FAULT = 'X',
};

/* A stimulus begins (a, b and buf as the line above says); every enter has its leave. */
void repro_record_enter(const struct nicref_dev *dev, enum repro_stim kind, uint64_t a,
			uint64_t b, const void *buf, size_t len) __attribute__((weak));
void repro_record_leave(void) __attribute__((weak));

#define REPRO_ENTER(dev, kind, a, b, buf, len)                                                  \
	do {                                                                                    \
		if (repro_record_enter)                                                         \
			repro_record_enter(dev, kind, a, b, buf, len);                         \
	} while (0)
#define REPRO_LEAVE()                                                                           \
	do {                                                                                    \
		if (repro_record_leave)                                                         \
			repro_record_leave();                                                   \
	} while (0)

#endif
