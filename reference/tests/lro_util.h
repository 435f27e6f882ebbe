/* What the LRO unit tests (lro_*_test.c) share, on top of rx_util.h's receive stack: a second,
 * LRO-enabled Direct TIR on the same RQ (PRM T45 10h), TCP segments over IPv4 or IPv6 built here
 * with their checksums (RFC 1071, RFC 9293 §3.1, RFC 7323 §3 timestamps) and the LRO trace
 * events by kind. Expected values in the tests are computed from the PRM's rules by hand, from
 * the bytes these helpers build, never from what the model reports. Every helper is static. */
#ifndef NICREF_TESTS_LRO_UTIL_H
#define NICREF_TESTS_LRO_UTIL_H

#include "nicref/lro.h"
#include "rx_util.h"

struct lro_tir_opts {
	unsigned mask, timeout_usecs, max_msg_sz;
};

static uint32_t lro_tirn;

static inline uint32_t lro_make_tir(const struct lro_tir_opts *t)
{
	struct refdrv_tir_attr ta = { .inline_rqn = rx.rqn, .td = rx.td, .self_lb_en = 3,
				      .lro_enable_mask = t->mask,
				      .lro_timeout_usecs = t->timeout_usecs,
				      .lro_max_msg_sz = t->max_msg_sz };
	uint32_t n;
	cr_assert_eq(refdrv_create_tir(&rdev->d, &ta, &n), 0, "CREATE_TIR (LRO) %s", rdev->d.error);
	return n;
}

/* The receive stack with the options o, and TIR lro_tirn with LRO t (rx.tirn keeps the plain
 * one). WQEs of 64-byte strides hold 3 entries and the Null one. */
static inline void lro_setup_with(const struct rx_opts *o, const struct lro_tir_opts *t)
{
	rx_setup_opts(o);
	lro_tirn = lro_make_tir(t);
	tl_mark(&rdev->tr);
}

static inline struct lro_tir_opts lro_tir_default(void)
{
	/* T45: both IP versions, 32 µs (a supported period, T147), 64 × 256 bytes. */
	struct lro_tir_opts t = { .mask = 3, .timeout_usecs = 32, .max_msg_sz = 64 };
	return t;
}

static inline void lro_setup(void)
{
	struct rx_opts o = rx_default_opts();
	struct lro_tir_opts t = lro_tir_default();
	lro_setup_with(&o, &t);
}

/* A capability of T147 in the live device (per_protocol_networking_offload_caps). */
static inline void lro_set_eth_cap(const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(rdev->dev->core.caps.cur[CAP_ETH_OFFLOAD], CAP_BYTES,
				      tl_field("per_protocol_networking_offload_caps", name), v),
		     0, "%s", name);
}

/* ---- TCP segments ------------------------------------------------------------------------- */

enum { SEG_FIN = 0x01, SEG_SYN = 0x02, SEG_RST = 0x04, SEG_PSH = 0x08, SEG_ACK = 0x10,
       SEG_URG = 0x20, SEG_ECE = 0x40, SEG_CWR = 0x80 };

struct seg {
	bool v6;
	int vid;              /* -1 untagged */
	uint16_t sport;       /* the flow: 0x1234 unless given */
	uint32_t seq, ack;
	uint16_t win;
	unsigned flags;       /* byte 13 */
	unsigned ns_res;      /* byte 12 bits 3:0: NS (bit 0) and the reserved bits */
	size_t payload;
	uint8_t fill;         /* payload byte i is fill + i */
	bool ts;              /* the Timestamps option after two NOPs (RFC 7323 Appendix A) */
	uint32_t tsval, tsecr;
	bool mss_opt;         /* an MSS option (kind 2) */
	uint8_t ttl;          /* 0: 64 */
	uint8_t tos;          /* IPv4 TOS / IPv6 traffic class */
	unsigned ip_opts;     /* IPv4: 4-byte words of NOP options */
	bool mf;              /* IPv4 More Fragments */
	bool df;              /* IPv4 Don't Fragment */
	uint16_t ip_id;
	bool bad_tcp_csum, bad_ip_csum;
};

static inline struct seg seg_of(uint32_t seq, size_t payload)
{
	struct seg s = { .vid = -1, .seq = seq, .ack = 0x1000, .win = 0x2000, .flags = SEG_ACK,
			 .payload = payload };
	return s;
}

static inline void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}
static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* The TCP header's length for s. */
static inline size_t seg_tcp_len(const struct seg *s)
{
	return 20u + (s->ts ? 12u : 0u) + (s->mss_opt ? 4u : 0u);
}

/* Builds s into f; its length. *tcp_at: the TCP header's offset. */
static inline size_t seg_build(uint8_t *f, const struct seg *s, size_t *tcp_at)
{
	memcpy(f, rx_own_mac, 6);
	const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 0x99 };
	memcpy(f + 6, src, 6);
	size_t at = 12;
	if (s->vid >= 0) {
		f[at++] = 0x81;
		f[at++] = 0x00;
		f[at++] = (uint8_t)(s->vid >> 8 & 0xF);
		f[at++] = (uint8_t)s->vid;
	}
	f[at++] = s->v6 ? 0x86 : 0x08;
	f[at++] = s->v6 ? 0xDD : 0x00;
	size_t ip = at, tl = seg_tcp_len(s), ihl = s->v6 ? 40 : 20 + 4u * s->ip_opts;
	size_t l4 = ip + ihl, l4len = tl + s->payload;
	memset(f + ip, 0, ihl + tl);
	uint32_t pseudo;
	if (s->v6) {
		f[ip] = (uint8_t)(0x60 | s->tos >> 4);
		f[ip + 1] = (uint8_t)(s->tos << 4);
		put16(f + ip + 4, (uint32_t)l4len);
		f[ip + 6] = 6;
		f[ip + 7] = s->ttl ? s->ttl : 64;
		f[ip + 8] = 0x20; /* 2001:db8::1 -> 2001:db8::2 */
		f[ip + 9] = 0x01;
		f[ip + 10] = 0x0D;
		f[ip + 11] = 0xB8;
		f[ip + 23] = 1;
		memcpy(f + ip + 24, f + ip + 8, 16);
		f[ip + 39] = 2;
		pseudo = rx_sum(0, f + ip + 8, 32) + 6 + (uint32_t)l4len;
	} else {
		f[ip] = (uint8_t)(0x40 | ihl / 4);
		f[ip + 1] = s->tos;
		put16(f + ip + 2, (uint32_t)(ihl + l4len));
		put16(f + ip + 4, s->ip_id);
		f[ip + 6] = (uint8_t)((s->df ? 0x40 : 0) | (s->mf ? 0x20 : 0));
		f[ip + 8] = s->ttl ? s->ttl : 64;
		f[ip + 9] = 6;
		const uint8_t sa[4] = { 10, 0, 0, 1 }, da[4] = { 10, 0, 0, 2 };
		memcpy(f + ip + 12, sa, 4);
		memcpy(f + ip + 16, da, 4);
		memset(f + ip + 20, 1, 4u * s->ip_opts);
		uint16_t c = (uint16_t)~rx_fold(rx_sum(0, f + ip, ihl));
		if (s->bad_ip_csum)
			c ^= 0x0100;
		put16(f + ip + 10, c);
		pseudo = rx_sum(0, f + ip + 12, 8) + 6 + (uint32_t)l4len;
	}
	put16(f + l4, s->sport ? s->sport : 0x1234);
	put16(f + l4 + 2, 0x5678);
	put32(f + l4 + 4, s->seq);
	put32(f + l4 + 8, s->ack);
	f[l4 + 12] = (uint8_t)((tl / 4) << 4 | (s->ns_res & 0xF));
	f[l4 + 13] = (uint8_t)s->flags;
	put16(f + l4 + 14, s->win);
	size_t o = l4 + 20;
	if (s->mss_opt) {
		f[o] = 2;
		f[o + 1] = 4;
		put16(f + o + 2, 1460);
		o += 4;
	}
	if (s->ts) {
		f[o] = f[o + 1] = 1; /* NOP NOP */
		f[o + 2] = 8;
		f[o + 3] = 10;
		put32(f + o + 4, s->tsval);
		put32(f + o + 8, s->tsecr);
		o += 12;
	}
	for (size_t i = 0; i < s->payload; i++)
		f[o + i] = (uint8_t)(s->fill + i);
	uint16_t c = (uint16_t)~rx_fold(rx_sum(pseudo, f + l4, l4len));
	if (s->bad_tcp_csum)
		c ^= 1;
	put16(f + l4 + 16, c);
	if (tcp_at)
		*tcp_at = l4;
	return l4 + l4len;
}

/* Builds and delivers s to the LRO TIR. */
static inline enum rx_outcome seg_give(const struct seg *s)
{
	uint8_t f[2048];
	size_t n = seg_build(f, s, NULL);
	struct pkt_info pi;
	pkt_parse(f, n, &pi);
	return rx_deliver_tir(rdev->dev, lro_tirn, f, n, &pi, 0);
}

/* The i-th event of kind k since the mark (asserted). */
static inline const struct nicref_event *lro_ev(enum nicref_event_kind k, size_t i)
{
	const struct nicref_event *e = tl_nth(&rdev->tr, k, i);
	cr_assert_not_null(e, "event %s #%zu", nicref_event_name(k), i);
	return e;
}

/* The cause of the i-th lro_pass / lro_end. */
static inline uint64_t lro_pass_cause(size_t i)
{
	return lro_ev(NICREF_EV_LRO_PASS, i)->arg[2];
}
static inline uint64_t lro_end_cause(size_t i)
{
	return lro_ev(NICREF_EV_LRO_END, i)->arg[3];
}

/* The kinds of the LRO events since the mark, in order, as a string of letters: o open, m
 * merge, e end, p pass, c a CQE. */
static inline const char *lro_story(char *buf, size_t cap)
{
	static const char letter[NICREF_EV_COUNT] = { [NICREF_EV_LRO_OPEN] = 'o',
						      [NICREF_EV_LRO_MERGE] = 'm',
						      [NICREF_EV_LRO_END] = 'e',
						      [NICREF_EV_LRO_PASS] = 'p',
						      [NICREF_EV_CQE] = 'c' };
	size_t n = 0;
	const struct tl_trace *tr = &rdev->tr;
	for (size_t i = 0; i < tr->n && n + 1 < cap; i++)
		if ((unsigned)tr->ev[i].kind < NICREF_EV_COUNT && letter[tr->ev[i].kind])
			buf[n++] = letter[tr->ev[i].kind];
	buf[n] = '\0';
	return buf;
}

#endif
