/* Operation streams (harness/opstream.h): what the recorder writes for a stimulus, and that the
 * stream replays to the same device; the fixed op codes and the reserved ones. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicref/nicref.h"
#include "nicref/trace.h"
#include "opstream.h"

/* The trace of a device as one text, to compare two runs. */
struct trace_text {
	char text[1 << 16];
	size_t len;
	unsigned events;
};

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct trace_text *t = ctx;
	char line[256];
	int n = nicref_event_format(ev, line, sizeof line);
	cr_assert(n > 0 && (size_t)n < sizeof line);
	cr_assert_lt(t->len + (size_t)n + 1, sizeof t->text);
	memcpy(t->text + t->len, line, (size_t)n);
	t->len += (size_t)n;
	t->text[t->len++] = '\n';
	t->events++;
}

static struct nicref_dev *make_dev(struct trace_text *t)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	if (t) {
		memset(t, 0, sizeof *t);
		cfg.trace = on_event;
		cfg.trace_ctx = t;
	}
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	return dev;
}

/* A time step too long for ADVANCE's 32 bits is one op, whatever its length: the recorder never
 * allocates in proportion to a number it was given. */
Test(opstream, long_advance_is_one_op)
{
	const uint64_t ns = (1ull << 40) + 5;
	struct opstream s;
	opstream_init(&s);
	opstream_advance(&s, ns);
	cr_assert_eq(s.failed, 0);
	cr_expect_eq(s.len, 9, "one ADVANCE64 op: 1 + 8 bytes, not %zu", s.len);
	cr_expect_eq(s.buf[0], OPS_ADVANCE64);
	struct nicref_dev *dev = make_dev(NULL);
	cr_expect_eq(opstream_run(dev, s.buf, s.len, NULL, NULL), 1);
	cr_expect_eq(nicref_clock_now(dev), ns);
	nicref_dev_destroy(dev);
	opstream_free(&s);
}

/* {"advance_ns": "18446744073709551615"} in a vector: 9 bytes, and the replay reaches the clock
 * the vector's device reached (before: 2^32 ADVANCE ops, ~20 GB). */
Test(opstream, largest_advance_replays_to_the_same_clock)
{
	const uint64_t ns = UINT64_MAX;
	struct nicref_dev *direct = make_dev(NULL), *replayed = make_dev(NULL);
	struct opstream s;
	opstream_init(&s);
	opstream_advance(&s, ns);
	nicref_clock_advance(direct, ns);
	cr_assert_eq(s.failed, 0);
	cr_expect_eq(s.len, 9);
	cr_expect_eq(opstream_run(replayed, s.buf, s.len, NULL, NULL), 1);
	cr_expect_eq(nicref_clock_now(replayed), nicref_clock_now(direct));
	nicref_dev_destroy(direct);
	nicref_dev_destroy(replayed);
	opstream_free(&s);
}

/* What fits the short forms is recorded exactly as before, so the committed recordings
 * (corpora/cmdq/vec-*) are what a recording gives today. */
Test(opstream, short_forms_are_unchanged)
{
	struct opstream s;
	opstream_init(&s);
	opstream_advance(&s, 0); /* nothing to record */
	opstream_advance(&s, 0xFFFFFFFFu);
	opstream_mem_write(&s, 0xFFFFFFFCu, "abcd", 4);
	opstream_dma_fault(&s, 0x1000, 0xFFFF, 3);
	opstream_bar_write(&s, 0x18, 1);
	static const uint8_t want[] = {
		0x03, 0xFF, 0xFF, 0xFF, 0xFF,			    /* ADVANCE */
		0x02, 0xFF, 0xFF, 0xFF, 0xFC, 0x00, 0x04, 'a', 'b', 'c', 'd', /* MEM_WRITE */
		0x05, 0x00, 0x00, 0x10, 0x00, 0xFF, 0xFF, 0x03,	    /* DMA_FAULT */
		0x04, 0x00, 0x00, 0x00, 0x01,			    /* DOORBELL */
	};
	cr_assert_eq(s.len, sizeof want);
	cr_expect_arr_eq(s.buf, want, sizeof want);
	opstream_free(&s);
}

/* Host memory above 4 GiB and fault ranges longer than 64 KiB are recorded as they were given
 * (before, the address was cut to 32 bits and the length to 16). */
Test(opstream, wide_addresses_and_lengths_replay_as_given)
{
	const uint64_t addr = 0x123456789000ull;
	struct opstream s;
	opstream_init(&s);
	opstream_mem_write(&s, addr, "nicref", 6);
	opstream_mem_write(&s, 0xFFFFFFFEu, "xyz", 3); /* crosses 4 GiB */
	opstream_dma_fault(&s, 0x40000000ull, 0x1000000000000ull, 1);
	cr_assert_eq(s.failed, 0);
	cr_expect_eq(s.buf[0], OPS_MEM_WRITE64);
	struct nicref_dev *dev = make_dev(NULL);
	cr_expect_eq(opstream_run(dev, s.buf, s.len, NULL, NULL), 3);
	char got[8] = { 0 };
	cr_assert_eq(nicref_hostmem_read(dev, addr, got, 6), 0);
	cr_expect_str_eq(got, "nicref");
	memset(got, 0, sizeof got);
	cr_assert_eq(nicref_hostmem_read(dev, 0xFFFFFFFEu, got, 3), 0);
	cr_expect_str_eq(got, "xyz");
	/* the fault range is recorded whole: 2^48 bytes from 1 GiB */
	const uint8_t *f = s.buf + s.len - 18;
	cr_expect_eq(f[0], OPS_DMA_FAULT64);
	static const uint8_t fault[] = { 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1 };
	cr_expect_arr_eq(f + 1, fault, sizeof fault);
	nicref_dev_destroy(dev);
	opstream_free(&s);
}

/* Reserved op codes (OPS_COUNT..0xFF) are one byte each and do nothing: a stream with them
 * between its ops runs the same ops and leaves the same trace as the stream without them. */
Test(opstream, reserved_ops_are_ignored)
{
	struct opstream s;
	opstream_init(&s);
	opstream_bar_write(&s, 0x10, 0);
	opstream_bar_write(&s, 0x14, 0x10000);
	opstream_advance(&s, 5000000);
	opstream_bar_read(&s, 0x1FC);
	opstream_advance(&s, 1ull << 33);
	cr_assert_eq(s.failed, 0);

	/* the same ops, with every reserved code before each of them and at the end */
	uint8_t mixed[4096];
	size_t n = 0, at = 0;
	static const size_t op_len[] = { 7, 7, 5, 3, 9 };
	for (size_t i = 0; i < sizeof op_len / sizeof op_len[0]; i++) {
		for (unsigned r = OPS_COUNT; r <= 0xFF; r += 37)
			mixed[n++] = (uint8_t)r;
		memcpy(mixed + n, s.buf + at, op_len[i]);
		n += op_len[i];
		at += op_len[i];
	}
	cr_assert_eq(at, s.len);
	mixed[n++] = 0xFF;

	struct trace_text *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	cr_assert(a && b);
	struct nicref_dev *da = make_dev(a), *db = make_dev(b);
	cr_expect_eq(opstream_run(da, s.buf, s.len, NULL, NULL), 5);
	cr_expect_eq(opstream_run(db, mixed, n, NULL, NULL), 5, "reserved bytes are not ops");
	cr_expect_gt(a->events, 0);
	cr_expect_eq(a->len, b->len);
	cr_expect(memcmp(a->text, b->text, a->len) == 0, "the same trace");
	cr_expect_eq(nicref_clock_now(db), nicref_clock_now(da));
	cr_expect_eq(nicref_clock_now(da), 5000000 + (1ull << 33));
	nicref_dev_destroy(da);
	nicref_dev_destroy(db);
	free(a);
	free(b);
	opstream_free(&s);
}

/* A truncated last op is dropped, whatever its form: each stream below lacks one byte. */
Test(opstream, truncated_ops_are_dropped)
{
	static const uint8_t adv[1 + 7] = { OPS_ADVANCE64, 0, 0, 0, 1 };
	static const uint8_t mem[1 + 9] = { OPS_MEM_WRITE64 };
	static const uint8_t fault[1 + 16] = { OPS_DMA_FAULT64 };
	struct nicref_dev *dev = make_dev(NULL);
	cr_expect_eq(opstream_run(dev, adv, sizeof adv, NULL, NULL), 0);
	cr_expect_eq(opstream_run(dev, mem, sizeof mem, NULL, NULL), 0);
	cr_expect_eq(opstream_run(dev, fault, sizeof fault, NULL, NULL), 0);
	cr_expect_eq(nicref_clock_now(dev), 0);
	nicref_dev_destroy(dev);
}
