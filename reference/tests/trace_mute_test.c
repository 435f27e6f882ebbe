/* nicref_trace_mute (nicref/nicref.h): a muted kind never reaches the callback, every other
 * event reaches it exactly as without the mute (the same seq numbers: a muted event keeps its
 * place in the stream), the events statistic counts all, a reset keeps the mute, and the CRC
 * frame_in carries is computed whenever frame_in is not muted. */
#include <criterion/criterion.h>
#include <string.h>

#include "nicref/nicref.h"

struct seen {
	struct nicref_event ev[16];
	unsigned n;
};

static void record(void *ctx, const struct nicref_event *ev)
{
	struct seen *s = ctx;
	if (s->n < 16)
		s->ev[s->n++] = *ev;
}

static struct nicref_dev *dev_with(struct seen *s)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.trace = record;
	cfg.trace_ctx = s;
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	return dev;
}

/* Two frames on port 1 of a device nothing set up: each is traced (frame_in) and dropped
 * (rx_drop, the port down or the vport filter, whichever the profile gives). */
static void two_frames(struct nicref_dev *dev, struct seen *s)
{
	uint8_t f[64];
	for (unsigned i = 0; i < sizeof f; i++)
		f[i] = (uint8_t)(i * 7 + 1);
	s->n = 0;
	cr_assert_eq(nicref_wire_rx(dev, 1, f, sizeof f), 0);
	cr_assert_eq(nicref_wire_rx(dev, 1, f, sizeof f), 0);
}

Test(trace_mute, muted_kind_skipped_others_unchanged)
{
	struct seen all = { 0 }, some = { 0 };
	struct nicref_dev *a = dev_with(&all), *b = dev_with(&some);
	two_frames(a, &all);
	nicref_trace_mute(b, (uint64_t)1 << NICREF_EV_FRAME_IN);
	two_frames(b, &some);
	cr_assert_gt(all.n, 2u, "the frames are traced");
	unsigned k = 0;
	for (unsigned i = 0; i < all.n; i++) {
		if (all.ev[i].kind == NICREF_EV_FRAME_IN) {
			cr_expect_eq(all.ev[i].arg[1], 64u);
			cr_expect_neq(all.ev[i].arg[2], 0u, "the CRC of the frame");
			continue;
		}
		cr_assert_lt(k, some.n);
		cr_expect_eq(memcmp(&all.ev[i], &some.ev[k], sizeof all.ev[i]), 0,
			     "event %u (%s) the same with frame_in muted", i,
			     nicref_event_name(all.ev[i].kind));
		k++;
	}
	cr_expect_eq(k, some.n, "nothing but frame_in left out");
	for (unsigned i = 0; i < some.n; i++)
		cr_expect_neq(some.ev[i].kind, NICREF_EV_FRAME_IN);
	struct nicref_stats sa, sb;
	nicref_stats_get(a, &sa);
	nicref_stats_get(b, &sb);
	cr_expect_eq(sa.events, sb.events, "a muted event is counted");
	/* kept across a reset; unmuted, frame_in is back with its CRC */
	nicref_dev_reset(b);
	two_frames(b, &some);
	for (unsigned i = 0; i < some.n; i++)
		cr_expect_neq(some.ev[i].kind, NICREF_EV_FRAME_IN, "still muted after a reset");
	nicref_trace_mute(b, 0);
	nicref_dev_reset(a);
	nicref_dev_reset(b);
	two_frames(a, &all);
	two_frames(b, &some);
	cr_assert_eq(all.n, some.n);
	cr_expect_eq(memcmp(all.ev, some.ev, all.n * sizeof all.ev[0]), 0, "unmuted: the same");
	nicref_dev_destroy(a);
	nicref_dev_destroy(b);
}
