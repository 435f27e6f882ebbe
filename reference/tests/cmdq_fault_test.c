/* The command queue when host memory fails (PRM §7.14.1 T96 0x6 internal error, D-CMD-15,
 * D-CMD-18): a DMA read that fails on the entry or on a mailbox, and the built-in host memory's
 * injected read and write faults. Entries are built byte by byte from the PRM (cmdq_util.h). */
#include <stdint.h>
#include <string.h>

#include "cmdq_util.h"

TestSuite(cmdq_fault, .init = setup, .fini = teardown);

/* ---- DMA failure: T96 0x6 internal error ------------------------------------------------------ */

struct failing_host {
	struct nicref_dev *dev;
	uint64_t bad_lo, bad_hi; /* reads touching [bad_lo, bad_hi) fail */
};
static struct failing_host fh;

static int failing_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct failing_host *h = ctx;
	if (addr < h->bad_hi && addr + len > h->bad_lo)
		return -1;
	return nicref_hostmem_read(h->dev, addr, buf, len);
}

Test(cmdq_dma, mailbox_read_fails)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	const uint64_t in = 0x20000;
	fh.bad_lo = in;
	fh.bad_hi = in + MBOX;
	cfg.ops.ctx = &fh;
	cfg.ops.dma_read = failing_read;
	/* dma_read is only called on doorbells, after fh.dev is set below. */
	dev = make_ready_dev(&cfg);
	fh.dev = dev;

	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = in;
	build_entry(e, &s);
	struct block_spec bs = { 0, 0, 0x5A, 1 };
	build_block(b, NULL, &bs);
	put_block(in, b);
	post(0, e);
	ring(0x1);

	expect_completed(0, 0x6);
	uint8_t got[ENTRY];
	read_entry(0, got);
	for (int i = 0x20; i < 0x30; i++)
		cr_assert_eq(got[i], 0xEE, "output inline byte 0x%x written", i);
	const struct nicref_event *d = tl_only(&tr, NICREF_EV_DMA_ERROR);
	cr_assert_eq(d->arg[0], in, "dma_error addr 0x%llx", (unsigned long long)d->arg[0]);
	cr_assert_eq(d->arg[2], 0, "dma_error reported as a write");
	struct nicref_stats st;
	nicref_stats_get(dev, &st);
	cr_assert_eq(st.dma_errors, 1);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* D-CMD-15: a failure reading the entry itself cannot be reported through the entry: a
 * dma_error event, no completion, nothing written. */
Test(cmdq_dma, entry_read_fails)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	fh.bad_lo = TL_QADDR + 1 * ENTRY;
	fh.bad_hi = TL_QADDR + 2 * ENTRY;
	cfg.ops.ctx = &fh;
	cfg.ops.dma_read = failing_read;
	dev = make_ready_dev(&cfg);
	fh.dev = dev;
	uint8_t e[ENTRY], got[ENTRY];
	struct entry_spec s = nop_spec();
	build_entry(e, &s);
	post(0, e);
	post(1, e);
	ring(0x3);
	const struct nicref_event *d = tl_only(&tr, NICREF_EV_DMA_ERROR);
	cr_assert_eq(d->arg[0], TL_QADDR + ENTRY);
	cr_assert_eq(d->arg[1], ENTRY);
	cr_assert_eq(d->arg[2], 0);
	const struct nicref_event *c = tl_only(&tr, NICREF_EV_CMD_DONE);
	cr_assert_eq(c->arg[0], 0, "slot 0 still completes");
	cr_assert_eq(nicref_hostmem_read(dev, TL_QADDR + ENTRY, got, ENTRY), 0);
	cr_assert_eq(memcmp(got, e, ENTRY), 0);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* ---- Injected faults and impossible pointers (D-CMD-15, D-CMD-18) ---------------------------- */

/* The built-in host memory's error injection: a read fault on the one input block gives 0x6,
 * not executed, with the dma_error event and no violation (the host failed, not the driver). */
Test(cmdq_fault, injected_read_fault_is_internal_error)
{
	const uint64_t in = 0x20000;
	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.input_length = 16 + MBOX_DATA;
	s.in_ptr = in;
	build_entry(e, &s);
	struct block_spec bs = { 0, 0, 0x5A, 1 };
	build_block(b, NULL, &bs);
	put_block(in, b);
	post(0, e);
	cr_assert_eq(nicref_hostmem_fault(dev, in + 0x100, 1, NICREF_FAULT_READ), 0);
	ring(0x1);
	expect_completed(0, 0x6);
	cr_assert_eq(tl_count(&tr, NICREF_EV_VIOLATION), 0);
	cr_assert_eq(tl_only(&tr, NICREF_EV_DMA_ERROR)->arg[0], in);
}

/* A write fault on the output block: the NOP ran (status OK) but its output is lost, so the
 * delivery status says 0x6. The inline output still reaches the entry. */
Test(cmdq_fault, injected_write_fault_on_output_is_internal_error)
{
	const uint64_t out = 0x40000;
	uint8_t e[ENTRY], b[MBOX];
	struct entry_spec s = nop_spec();
	s.output_length = 16 + MBOX_DATA;
	s.out_ptr = out;
	build_entry(e, &s);
	struct block_spec bs = { 0, 0, 0x5A, 0 };
	build_block(b, NULL, &bs);
	put_block(out, b);
	post(0, e);
	cr_assert_eq(nicref_hostmem_fault(dev, out, MBOX, NICREF_FAULT_WRITE), 0);
	ring(0x1);
	expect_completed(0, 0x6);
	read_entry(0, e);
	cr_assert_eq(e[0x20], 0x00, "the NOP itself succeeded");
	const struct nicref_event *d = tl_only(&tr, NICREF_EV_DMA_ERROR);
	cr_assert_eq(d->arg[0], out);
	cr_assert_eq(d->arg[2], 1, "reported as a write");
}
