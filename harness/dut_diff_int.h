/* What the differential engine's files share (dut_diff.c, dut_name.c): the twin of a model
 * device and what each side did during the current stimulus. */
#ifndef NICREF_DUT_DIFF_INT_H
#define NICREF_DUT_DIFF_INT_H

#include <stdarg.h>

#include "dut_diff.h"
#include "nicref/dut.h"
#include "nicref/nicref.h"

/* X(ID, "name"): the stimuli, as messages name them. */
#define DUT_STIMULI(X)                                                                          \
	X(RESET, "reset")                                                                       \
	X(BAR_READ, "bar_read32")                                                               \
	X(BAR_WRITE, "bar_write32")                                                             \
	X(ADVANCE, "time_advance")                                                              \
	X(FRAME_IN, "frame_in")                                                                 \
	X(HOST_WRITE, "host memory write")                                                      \
	X(HOST_CLEAR, "host memory clear")                                                      \
	X(HOST_FAULT, "host memory fault")                                                      \
	X(CREATE, "create")                                                                     \
	X(DESTROY, "destroy")

enum dut_stim_kind {
#define STIM_ENUM(id, name) STIM_##id,
	DUT_STIMULI(STIM_ENUM)
#undef STIM_ENUM
};

struct dut_stim {
	enum dut_stim_kind kind;
	uint64_t a, b;
};

struct dut_range {
	uint64_t addr;
	uint64_t len;
};

struct dut_frame {
	unsigned port;
	size_t off, len; /* in the side's fbytes */
};

/* What one side did during the current stimulus. */
struct dut_side {
	struct dut_range *w;
	size_t nw, capw;
	struct dut_frame *fr;
	size_t nfr, capfr;
	uint8_t *fbytes;
	size_t nfb, capfb;
	unsigned *irq;
	size_t nirq, capirq;
	bool lost; /* out of memory while recording */
};

/* A structure the model wrote during the current stimulus, told by its trace: the names a
 * difference inside it gets. */
enum dut_region_kind { REG_CQE, REG_EQE, REG_CMD_ENTRY, REG_CMD_MAILBOX };
struct dut_region {
	enum dut_region_kind kind;
	uint64_t addr, len;
	uint64_t a, b, c; /* CQE: cqn, counter; EQE: eqn, index; command: slot, opcode, block */
};

#define DUT_MAX_FAULTS 8 /* the built-in memory's */
#define DUT_MAX_REGIONS 64

struct dut_fault {
	uint64_t addr, len;
	unsigned flags;
};

struct dut_pair {
	struct nicref_dev *model;
	struct nicref_dev *mem; /* the DUT's host memory */
	struct nicref_dut *dut; /* NULL: the DUT refused the configuration */
	struct nicref_host_ops user; /* the program's own ops, still served */
	void (*user_trace)(void *ctx, const struct nicref_event *ev);
	void *user_trace_ctx;
	dut_diff_handler_fn *handler;
	void *handler_ctx;
	struct dut_fault fault[DUT_MAX_FAULTS];
	unsigned nfault;
	struct dut_side side[2]; /* 0 the model, 1 the DUT */
	struct dut_stim stim;
	unsigned long long nstim, ndiv;
	int depth_user; /* inside the program's dma_write op */
	bool in_model;  /* inside a call into the model */
	uint64_t last_addr, last_len; /* the model's last DMA write */
	uint32_t cmdq_hi;
	uint64_t cmdq_addr;
	unsigned log_stride;
	struct dut_region reg[DUT_MAX_REGIONS];
	unsigned nreg;
};

/* The guard (dut_guard.c, dut_diff_guard): the pair whose DUT is running (NULL: none), and a
 * count of the calls into a DUT, which the watchdog reads to tell one long call from many
 * short ones. Set around every call into the DUT's entry points; read by signal handlers. */
extern struct dut_pair *volatile dut_guard_pair;
extern volatile unsigned long dut_guard_calls;
static inline void dut_guard_enter(struct dut_pair *p)
{
	dut_guard_calls++;
	dut_guard_pair = p;
}
static inline void dut_guard_leave(void)
{
	dut_guard_pair = NULL;
}

/* A divergence: counted; the first goes to the handler with the stimulus. */
void dut_diverged(struct dut_pair *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The DUT crashed or hung inside a call (the guard): counted, and told to the handler whatever
 * the count (the program's FAIL line names the test and the stimulus); the caller exits. */
void dut_diverged_fatal(struct dut_pair *p, const char *what);
/* The stimulus in progress, as messages name it ("bar_write32(0x18, 0x00000001)"). */
void dut_stim_text(const struct dut_pair *p, char *buf, size_t len);
/* The model wrote host memory (its DMA). */
void dut_model_wrote(struct dut_pair *p, uint64_t addr, size_t len);

/* dut_name.c: a model event that tells what the last write was; and the messages. */
void dut_name_event(struct dut_pair *p, const struct nicref_event *ev);
void dut_name_memory(struct dut_pair *p, uint64_t addr, uint8_t model, uint8_t dut);
void dut_name_frame(struct dut_pair *p, unsigned port, size_t k, const uint8_t *fm, size_t lm,
		    const uint8_t *fd, size_t ld, size_t at);
void dut_name_bar(struct dut_pair *p, uint32_t offset, uint32_t model, uint32_t dut);

#endif
