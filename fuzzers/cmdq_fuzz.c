/* Target: cmdq, the whole device driven by an operation stream (harness/opstream.h): BAR
 * writes and reads, host memory writes, command doorbells and time steps, in any order.
 *
 * Target functions: nicref_bar_write32, nicref_bar_read32, nicref_clock_advance, the init
 * segment (PRM §4.3, §8.2), the command queue transport (§7.14.1) and dispatch (§12.1/12.2).
 *
 * Properties: after every op nicref_dev_check is 0 and the device's counters agree with the
 * trace; every event keeps the trace properties of fuzz_oracle.c (seq from 0 and consecutive,
 * time monotonic, cmd_done with a T96 delivery status and a T128 status, no status for an
 * undelivered command, refusals that agree with their completion).
 *
 * The device keeps the default profile: signatures generated, not checked (PRM T145
 * cmdif_checksum = 1, docs/decisions.md D-CMD-5), so every mutated entry and mailbox reaches the
 * command behind them. The twin cmdq_strict (cmdq_strict_fuzz.c) checks them (CMDQ_CMDIF_CHECKSUM
 * 3; docs/fuzzing.md "Fix-ups and twins"). */
#include "cmdq_profile.h"
#include "fuzz_oracle.h"
#include "fuzz_target.h"
#include "opstream.h"

/* Ops per input. A doorbell runs up to 32 commands, so this bounds the work of one input. */
#define CMDQ_FUZZ_MAX_OPS 4096

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static long ops_run;

static int cmdq_init(void)
{
#ifdef CMDQ_CMDIF_CHECKSUM
	dev = cmdq_profile_device(&oracle, CMDQ_CMDIF_CHECKSUM);
#else
	dev = fuzz_oracle_device(&oracle);
#endif
	return dev ? 0 : -1;
}

static int after_op(void *ctx, struct nicref_dev *d)
{
	(void)ctx;
	(void)d;
	fuzz_oracle_check_dev(&oracle);
	return ++ops_run >= CMDQ_FUZZ_MAX_OPS;
}

static void cmdq_one_input(const uint8_t *data, size_t len)
{
	nicref_dev_reset(dev);
	nicref_hostmem_clear(dev);
	fuzz_oracle_reset(&oracle);
	ops_run = 0;
	/* Reset is power-on: clock 0, host memory empty, nothing emitted. */
	NICREF_FUZZ_CHECK(nicref_clock_now(dev) == 0 && nicref_hostmem_pages(dev) == 0);
	fuzz_oracle_check_dev(&oracle);

	(void)opstream_run(dev, data, len, after_op, NULL);
}

NICREF_FUZZ_TARGET(cmdq_init, cmdq_one_input)
