/* nicref_link (nicref/link.h): delay, order, loss, duplication, reordering, CE marking and
 * determinism, observed as the far device sees them (its frame_in events: port, length and the
 * CRC-32 of the bytes it received). Frames enter through nicref_link_tx as a device's wire_tx
 * would hand them over. */
#include <criterion/criterion.h>
#include <string.h>

#include "eth/eth.h"
#include "nicref/link.h"
#include "nicref/nicref.h"

#define MAXIN 64
struct seen {
	unsigned n;
	uint64_t len[MAXIN], crc[MAXIN], at[MAXIN];
	struct nicref_dev *dev;
};

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct seen *s = ctx;
	if (ev->kind == NICREF_EV_FRAME_IN && s->n < MAXIN) {
		s->len[s->n] = ev->arg[1];
		s->crc[s->n] = ev->arg[2];
		s->at[s->n] = s->dev ? nicref_clock_now(s->dev) : 0;
		s->n++;
	}
}

static struct nicref_dev *a, *b;
static struct seen sa, sb;
static struct nicref_link *l;

static struct nicref_dev *mk(struct seen *s)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.trace = on_event;
	cfg.trace_ctx = s;
	memset(s, 0, sizeof *s);
	struct nicref_dev *d = nicref_dev_create(&cfg);
	s->dev = d;
	return d;
}

static void setup(void)
{
	a = mk(&sa);
	b = mk(&sb);
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	l = nicref_link_create(a, 1, b, 1, 8, 256);
	cr_assert_not_null(l);
}

static void teardown(void)
{
	nicref_link_destroy(l);
	nicref_dev_destroy(a);
	nicref_dev_destroy(b);
}

/* A 64-byte frame whose length tells it apart: len 64 + i. IPv4 with the given TOS when ip. */
static size_t frame(uint8_t *f, unsigned i, bool ip, uint8_t tos)
{
	size_t len = 64 + i;
	memset(f, 0, len);
	memset(f, 0xFF, 6);
	f[6] = 0x02;
	f[11] = (uint8_t)i;
	f[12] = ip ? 0x08 : 0x88;
	f[13] = ip ? 0x00 : 0xB5;
	if (ip) {
		uint8_t *h = f + 14;
		h[0] = 0x45;
		h[1] = tos;
		h[2] = 0;
		h[3] = (uint8_t)(len - 14);
		h[8] = 64;
		h[9] = 17;
		h[12] = 192, h[13] = 0, h[14] = 2, h[15] = 1;
		h[16] = 192, h[17] = 0, h[18] = 2, h[19] = 2;
		uint32_t sum = 0;
		for (int k = 0; k < 20; k += 2)
			sum += (uint32_t)h[k] << 8 | h[k + 1];
		while (sum >> 16)
			sum = (sum & 0xFFFF) + (sum >> 16);
		h[10] = (uint8_t)(~sum >> 8);
		h[11] = (uint8_t)~sum;
	}
	return len;
}

static void send(struct nicref_dev *from, unsigned i)
{
	uint8_t f[256];
	size_t n = frame(f, i, false, 0);
	cr_assert_eq(nicref_link_tx(l, from, 1, f, n), 0);
}

static void faults(enum nicref_link_dir d, void (*set)(struct nicref_link_faults *))
{
	struct nicref_link_faults f;
	nicref_link_faults_default(&f);
	set(&f);
	cr_assert_eq(nicref_link_set_faults(l, d, &f), 0);
}

TestSuite(link, .init = setup, .fini = teardown);

Test(link, no_delay_delivers_at_once_in_order)
{
	send(a, 0);
	send(a, 1);
	send(b, 2);
	cr_assert_eq(sb.n, 0, "nothing is delivered from inside nicref_link_tx");
	cr_assert_eq(nicref_link_deliver(l), 3);
	cr_assert_eq(sb.n, 2);
	cr_assert_eq(sb.len[0], 64);
	cr_assert_eq(sb.len[1], 65);
	cr_assert_eq(sa.n, 1);
	cr_assert_eq(sa.len[0], 66);
}

static void delay_1000(struct nicref_link_faults *f)
{
	f->delay_ns = 1000;
}

Test(link, delay_holds_frames_until_due)
{
	faults(NICREF_LINK_AB, delay_1000);
	send(a, 0);
	cr_assert_eq(nicref_link_deliver(l), 0);
	nicref_link_advance(l, 999);
	cr_assert_eq(sb.n, 0);
	nicref_link_advance(l, 1);
	cr_assert_eq(sb.n, 1);
	cr_assert_eq(sb.at[0], 1000, "the device's clock is at the due time when it receives");
	cr_assert_eq(nicref_clock_now(a), 1000);
	cr_assert_eq(nicref_link_now(l), 1000);
	/* The other direction has no delay. */
	send(b, 1);
	cr_assert_eq(nicref_link_deliver(l), 1);
}

static void lose_1_and_every_3(struct nicref_link_faults *f)
{
	f->loss[0] = 1;
	f->nloss = 1;
	f->loss_every = 3;
}

Test(link, loss_by_ordinal_and_every_nth)
{
	faults(NICREF_LINK_AB, lose_1_and_every_3);
	for (unsigned i = 0; i < 7; i++)
		send(a, i);
	nicref_link_deliver(l);
	/* lost: ordinal 1 (list), 2 and 5 (every 3rd) */
	cr_assert_eq(sb.n, 4);
	cr_assert_eq(sb.len[0], 64);
	cr_assert_eq(sb.len[1], 67);
	cr_assert_eq(sb.len[2], 68);
	cr_assert_eq(sb.len[3], 70);
	struct nicref_link_counters c;
	nicref_link_counters(l, NICREF_LINK_AB, &c);
	cr_assert_eq(c.entered, 7);
	cr_assert_eq(c.lost, 3);
	cr_assert_eq(c.delivered, 4);
	cr_assert_eq(c.queued, 0);
}

static void dup_0(struct nicref_link_faults *f)
{
	f->duplicate[0] = 0;
	f->nduplicate = 1;
}

Test(link, duplicate_follows_the_original)
{
	faults(NICREF_LINK_AB, dup_0);
	send(a, 0);
	send(a, 1);
	nicref_link_deliver(l);
	cr_assert_eq(sb.n, 3);
	cr_assert_eq(sb.len[0], 64);
	cr_assert_eq(sb.len[1], 64);
	cr_assert_eq(sb.crc[0], sb.crc[1]);
	cr_assert_eq(sb.len[2], 65);
}

static void reorder_0(struct nicref_link_faults *f)
{
	f->delay_ns = 100;
	f->reorder[0] = 0;
	f->nreorder = 1;
	f->reorder_ns = 50;
}

Test(link, reordered_frame_is_overtaken)
{
	faults(NICREF_LINK_AB, reorder_0);
	send(a, 0);
	send(a, 1);
	nicref_link_advance(l, 100);
	cr_assert_eq(sb.n, 1);
	cr_assert_eq(sb.len[0], 65);
	nicref_link_advance(l, 100);
	cr_assert_eq(sb.n, 2);
	cr_assert_eq(sb.len[1], 64);
	cr_assert_eq(sb.at[1], 150);
}

static void ce_all(struct nicref_link_faults *f)
{
	f->ce_ppm = NICREF_LINK_PPM;
}

Test(link, ce_marks_ect_ipv4_and_fixes_the_checksum)
{
	faults(NICREF_LINK_AB, ce_all);
	uint8_t f[256], want[256];
	size_t n = frame(f, 0, true, 0x02 /* ECT(0) */);
	size_t m = frame(want, 0, true, 0x03 /* CE, checksum computed afresh */);
	cr_assert_eq(n, m);
	nicref_link_tx(l, a, 1, f, n);
	n = frame(f, 1, true, 0x00 /* not-ECT: left alone */);
	nicref_link_tx(l, a, 1, f, n);
	nicref_link_deliver(l);
	cr_assert_eq(sb.n, 2);
	cr_assert_eq(sb.crc[0], eth_crc32(want, m), "CE set and the header checksum corrected");
	cr_assert_eq(sb.crc[1], eth_crc32(f, n));
	struct nicref_link_counters c;
	nicref_link_counters(l, NICREF_LINK_AB, &c);
	cr_assert_eq(c.ce_marked, 1);
	cr_assert_eq(c.ce_not_ect, 1);
}

static void ce_threshold_2(struct nicref_link_faults *f)
{
	f->delay_ns = 10;
	f->ce_threshold = 2;
}

Test(link, ce_by_queue_threshold)
{
	faults(NICREF_LINK_AB, ce_threshold_2);
	uint8_t f[256];
	for (unsigned i = 0; i < 4; i++) {
		size_t n = frame(f, i, true, 0x01 /* ECT(1) */);
		nicref_link_tx(l, a, 1, f, n);
	}
	struct nicref_link_counters c;
	nicref_link_counters(l, NICREF_LINK_AB, &c);
	cr_assert_eq(c.ce_marked, 2, "the third and fourth found two or more queued");
	cr_assert_eq(c.queued, 4);
}

Test(link, overflow_when_full_or_too_long)
{
	for (unsigned i = 0; i < 9; i++)
		send(a, i);
	uint8_t big[300] = { 0 };
	nicref_link_tx(l, a, 1, big, sizeof big);
	struct nicref_link_counters c;
	nicref_link_counters(l, NICREF_LINK_AB, &c);
	cr_assert_eq(c.overflow, 2);
	cr_assert_eq(c.queued, 8);
	cr_assert_eq(nicref_link_deliver(l), 8);
}

Test(link, refuses_out_of_range_settings_and_foreign_frames)
{
	struct nicref_link_faults f;
	nicref_link_faults_default(&f);
	f.loss_ppm = NICREF_LINK_PPM + 1;
	cr_assert_eq(nicref_link_set_faults(l, NICREF_LINK_AB, &f), -1);
	nicref_link_faults_default(&f);
	f.delay_ns = NICREF_LINK_MAX_NS + 1;
	cr_assert_eq(nicref_link_set_faults(l, NICREF_LINK_BA, &f), -1);
	cr_assert_eq(nicref_link_set_tick(l, NICREF_LINK_MAX_NS + 1), -1);
	uint8_t fr[64] = { 0 };
	cr_assert_eq(nicref_link_tx(l, a, 2, fr, sizeof fr), -1, "port 2 is not joined");
	cr_assert_null(nicref_link_create(a, 1, b, 1, 0, 64));
}

static void random_faults(struct nicref_link_faults *f)
{
	f->seed = 77;
	f->loss_ppm = 300000;
	f->duplicate_ppm = 200000;
}

/* The same seed gives the same deliveries; another seed another pattern. */
static unsigned pattern(uint64_t seed, uint64_t *lens)
{
	struct nicref_link_faults f;
	nicref_link_faults_default(&f);
	random_faults(&f);
	f.seed = seed;
	cr_assert_eq(nicref_link_set_faults(l, NICREF_LINK_AB, &f), 0);
	sb.n = 0;
	for (unsigned i = 0; i < 8; i++) {
		send(a, i);
		nicref_link_deliver(l);
	}
	for (unsigned i = 0; i < sb.n; i++)
		lens[i] = sb.len[i];
	return sb.n;
}

Test(link, random_faults_follow_the_seed)
{
	uint64_t x[MAXIN], y[MAXIN], z[MAXIN];
	unsigned nx = pattern(77, x), ny = pattern(77, y), nz = pattern(78, z);
	cr_assert_eq(nx, ny);
	cr_assert_eq(memcmp(x, y, nx * sizeof x[0]), 0);
	cr_assert(nz != nx || memcmp(x, z, nx * sizeof x[0]) != 0, "seed 78 differs from 77");
}

Test(link, tick_limits_the_interval)
{
	cr_assert_eq(nicref_link_set_tick(l, 300), 0);
	nicref_link_advance(l, 1000);
	cr_assert_eq(nicref_link_now(l), 1000);
	cr_assert_eq(nicref_clock_now(a), 1000);
	cr_assert_eq(nicref_clock_now(b), 1000);
}

Test(link, null_link_and_frame_do_nothing)
{
	struct nicref_link_faults f;
	struct nicref_link_counters c = { .entered = 9 };
	nicref_link_faults_default(&f);
	cr_assert_eq(nicref_link_set_faults(NULL, NICREF_LINK_AB, &f), -1);
	cr_assert_eq(nicref_link_set_faults(l, NICREF_LINK_AB, NULL), -1);
	cr_assert_eq(nicref_link_set_tick(NULL, 1), -1);
	cr_assert_eq(nicref_link_tx(NULL, a, 1, (const uint8_t *)"x", 1), -1);
	cr_assert_eq(nicref_link_tx(l, a, 1, NULL, 60), -1);
	cr_assert_eq(nicref_link_deliver(NULL), 0);
	nicref_link_advance(NULL, 10);
	cr_assert_eq(nicref_link_now(NULL), 0);
	nicref_link_counters(NULL, NICREF_LINK_AB, &c);
	cr_assert_eq(c.entered, 0);
	nicref_link_counters(l, NICREF_LINK_AB, &c);
	cr_assert_eq(c.entered, 0, "the NULL frame did not enter");
	nicref_link_destroy(NULL);
}

/* IPv6 behind a VLAN tag: the traffic class's ECN bits (byte 1 bits 5:4) become CE. */
Test(link, ce_marks_ect_ipv6_behind_a_vlan_tag)
{
	faults(NICREF_LINK_AB, ce_all);
	uint8_t f[80] = { 0 }, want[80];
	memset(f, 0xFF, 6);
	f[6] = 0x02;
	f[12] = 0x81, f[13] = 0x00, f[14] = 0x00, f[15] = 0x05; /* C-VLAN 5 */
	f[16] = 0x86, f[17] = 0xDD;
	f[18] = 0x60, f[19] = 0x20; /* version 6, traffic class 0x02: ECT(0) */
	f[24] = 17, f[25] = 64;
	memcpy(want, f, sizeof f);
	want[19] = 0x30; /* traffic class 0x03: CE */
	nicref_link_tx(l, a, 1, f, sizeof f);
	nicref_link_deliver(l);
	cr_assert_eq(sb.n, 1);
	cr_assert_eq(sb.crc[0], eth_crc32(want, sizeof want));
}
