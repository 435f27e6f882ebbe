/* The interposition that gives every program driving the model the differential engine
 * (dut_diff.h). Linked with DUT_WRAP_LDFLAGS (the Makefile, fuzzers/fuzz.mk): the linker sends
 * the program's calls of these public functions here (ld --wrap, as the fuzz builds already do
 * for nicref_assert_failed) and __real_X is the library's X. A device without a twin goes
 * straight through: one lookup in an empty table. This file is kept out of the harness objects
 * other programs link (HAR_OBJ), which need no flag. */
#include "dut_diff.h"
#include "nicref/nicref.h"
#include "repro_record.h"

#define DUT_WRAPPED(X)                                                                          \
	X(struct nicref_dev *, nicref_dev_create, (const struct nicref_config * cfg))           \
	X(void, nicref_dev_destroy, (struct nicref_dev * dev))                                  \
	X(void, nicref_dev_reset, (struct nicref_dev * dev))                                    \
	X(uint32_t, nicref_bar_read32, (struct nicref_dev * dev, uint32_t offset))              \
	X(void, nicref_bar_write32, (struct nicref_dev * dev, uint32_t offset, uint32_t value)) \
	X(void, nicref_clock_advance, (struct nicref_dev * dev, uint64_t ns))                   \
	X(int, nicref_wire_rx,                                                                  \
	  (struct nicref_dev * dev, unsigned port, const uint8_t *frame, size_t len))           \
	X(int, nicref_hostmem_write,                                                            \
	  (struct nicref_dev * dev, uint64_t addr, const void *buf, size_t len))                \
	X(void, nicref_hostmem_clear, (struct nicref_dev * dev))                                \
	X(int, nicref_hostmem_fault,                                                            \
	  (struct nicref_dev * dev, uint64_t addr, uint64_t len, unsigned flags))

#define DECLARE(ret, name, params)                                                              \
	ret __real_##name params;                                                               \
	ret __wrap_##name params;
DUT_WRAPPED(DECLARE)
#undef DECLARE

const struct dut_model_fns dut_model_real = {
	__real_nicref_dev_create,   __real_nicref_dev_destroy,	 __real_nicref_dev_reset,
	__real_nicref_bar_read32,   __real_nicref_bar_write32,	 __real_nicref_clock_advance,
	__real_nicref_wire_rx,	    __real_nicref_hostmem_write, __real_nicref_hostmem_clear,
	__real_nicref_hostmem_fault,
};

/* The twin of dev, when there is one. */
#define PAIR(dev) (dut_npairs ? dut_pair_of(dev) : NULL)
/* No twin anywhere and no recording: the stimuli a replay gives every frame (a frame, a time
 * advance, the driver's doorbell records) go straight to the library in a tail call; the
 * interposition proper is out of line (noinline: its frame set-up stays out of the entry). */
#define IDLE() (!dut_npairs && !(repro_record_enter && !repro_record_off))
#define NOINLINE __attribute__((noinline))

struct nicref_dev *__wrap_nicref_dev_create(const struct nicref_config *cfg)
{
	struct nicref_dev *dev = dut_diff_active() && dut_diff_twinning()
					 ? dut_pair_create(cfg)
					 : __real_nicref_dev_create(cfg);
	/* nicref repro's recorder (repro_record.h): each stimulus below is bracketed too. */
	REPRO_ENTER(dev, REPRO_CREATE, 0, 0, NULL, 0);
	REPRO_LEAVE();
	return dev;
}

void __wrap_nicref_dev_destroy(struct nicref_dev *dev)
{
	struct dut_pair *p = PAIR(dev);
	if (p)
		dut_pair_destroy(p);
	else
		__real_nicref_dev_destroy(dev);
}

void __wrap_nicref_dev_reset(struct nicref_dev *dev)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_RESET, 0, 0, NULL, 0);
	if (p)
		dut_pair_reset(p);
	else
		__real_nicref_dev_reset(dev);
	REPRO_LEAVE();
}

uint32_t __wrap_nicref_bar_read32(struct nicref_dev *dev, uint32_t offset)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_BAR_READ, offset, 0, NULL, 0);
	uint32_t v = p ? dut_pair_bar_read32(p, offset) : __real_nicref_bar_read32(dev, offset);
	REPRO_LEAVE();
	return v;
}

void __wrap_nicref_bar_write32(struct nicref_dev *dev, uint32_t offset, uint32_t value)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_BAR_WRITE, offset, value, NULL, 0);
	if (p)
		dut_pair_bar_write32(p, offset, value);
	else
		__real_nicref_bar_write32(dev, offset, value);
	REPRO_LEAVE();
}

static NOINLINE void clock_advance(struct nicref_dev *dev, uint64_t ns)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_TIME, ns, 0, NULL, 0);
	if (p)
		dut_pair_clock_advance(p, ns);
	else
		__real_nicref_clock_advance(dev, ns);
	REPRO_LEAVE();
}

void __wrap_nicref_clock_advance(struct nicref_dev *dev, uint64_t ns)
{
	if (IDLE())
		__real_nicref_clock_advance(dev, ns);
	else
		clock_advance(dev, ns);
}

static NOINLINE int wire_rx(struct nicref_dev *dev, unsigned port, const uint8_t *frame,
			    size_t len)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_FRAME, port, 0, frame, len);
	int rc = p ? dut_pair_wire_rx(p, port, frame, len)
		   : __real_nicref_wire_rx(dev, port, frame, len);
	REPRO_LEAVE();
	return rc;
}

int __wrap_nicref_wire_rx(struct nicref_dev *dev, unsigned port, const uint8_t *frame, size_t len)
{
	return IDLE() ? __real_nicref_wire_rx(dev, port, frame, len)
		      : wire_rx(dev, port, frame, len);
}

static NOINLINE int hostmem_write(struct nicref_dev *dev, uint64_t addr, const void *buf,
				  size_t len)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_MEM, addr, 0, buf, len);
	int rc = p ? dut_pair_hostmem_write(p, addr, buf, len)
		   : __real_nicref_hostmem_write(dev, addr, buf, len);
	REPRO_LEAVE();
	return rc;
}

int __wrap_nicref_hostmem_write(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len)
{
	return IDLE() ? __real_nicref_hostmem_write(dev, addr, buf, len)
		      : hostmem_write(dev, addr, buf, len);
}

void __wrap_nicref_hostmem_clear(struct nicref_dev *dev)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_CLEAR, 0, 0, NULL, 0);
	if (p)
		dut_pair_hostmem_clear(p);
	else
		__real_nicref_hostmem_clear(dev);
	REPRO_LEAVE();
}

int __wrap_nicref_hostmem_fault(struct nicref_dev *dev, uint64_t addr, uint64_t len,
				unsigned flags)
{
	struct dut_pair *p = PAIR(dev);
	REPRO_ENTER(dev, REPRO_FAULT, addr, len, NULL, flags);
	int rc = p ? dut_pair_hostmem_fault(p, addr, len, flags)
		   : __real_nicref_hostmem_fault(dev, addr, len, flags);
	REPRO_LEAVE();
	return rc;
}
