/* Shared by the flow steering tests: a device with TIRs, frames built by hand, and the match
 * key and verdict of a frame through the model's parser and classifier. */
#ifndef NICREF_TESTS_STEER_UTIL_H
#define NICREF_TESTS_STEER_UTIL_H

#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_steer.h"
#include "driver_tir.h"
#include "steer/steer.h"
#include "testlib.h"

struct senv {
	struct tl_dev *t;
	uint32_t td, tir[3];
};

static inline struct senv senv_up(void)
{
	struct senv e = { tl_up(NULL), 0, { 0 } };
	uint32_t pd = tl_alloc_pd(e.t);
	e.td = tl_alloc_td(e.t);
	for (unsigned i = 0; i < 3; i++) {
		struct refdrv_tir_attr a = { .inline_rqn = tl_rq(e.t, pd), .td = e.td };
		cr_assert_eq(refdrv_create_tir(&e.t->d, &a, &e.tir[i]), 0);
	}
	return e;
}

/* A frame: Ethernet (dmac 02:00:00:00:00:0b, smac 02:00:00:00:00:0a), `ntags` tags (TPID tpid[i],
 * TCI tci[i]), IPv4 10.0.0.1 → dst, protocol proto (6 TCP with flags, 17 UDP), ports 1000 →
 * dport. Returns its length. */
struct sframe {
	unsigned ntags;
	uint16_t tpid[2], tci[2];
	uint32_t dst;
	uint8_t proto, tos, tcp_flags;
	uint16_t dport;
	bool ipv6;
	uint32_t flow_label;
};

static inline size_t sframe_build(const struct sframe *f, uint8_t *p)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 0xb, 2, 0, 0, 0, 0, 0xa };
	memset(p, 0, 128);
	memcpy(p, macs, 12);
	size_t o = 12;
	for (unsigned i = 0; i < f->ntags; i++, o += 4) {
		p[o] = (uint8_t)(f->tpid[i] >> 8), p[o + 1] = (uint8_t)f->tpid[i];
		p[o + 2] = (uint8_t)(f->tci[i] >> 8), p[o + 3] = (uint8_t)f->tci[i];
	}
	size_t l4;
	if (!f->ipv6) {
		p[o] = 0x08, p[o + 1] = 0x00;
		uint8_t *ip = p + o + 2;
		ip[0] = 0x45, ip[1] = f->tos, ip[3] = f->proto == 6 ? 40 : 28, ip[8] = 64, ip[9] = f->proto;
		ip[12] = 10, ip[15] = 1;
		tl_put32(ip + 16, f->dst);
		l4 = o + 2 + 20;
	} else {
		p[o] = 0x86, p[o + 1] = 0xdd;
		uint8_t *ip = p + o + 2;
		tl_put32(ip, 6u << 28 | (uint32_t)f->tos << 20 | (f->flow_label & 0xFFFFF));
		ip[5] = f->proto == 6 ? 20 : 8, ip[6] = f->proto, ip[7] = 64;
		ip[23] = 1;
		tl_put32(ip + 36, f->dst);
		l4 = o + 2 + 40;
	}
	p[l4] = 0x03, p[l4 + 1] = 0xe8; /* sport 1000 */
	p[l4 + 2] = (uint8_t)(f->dport >> 8), p[l4 + 3] = (uint8_t)f->dport;
	if (f->proto == 6) {
		p[l4 + 12] = 0x50, p[l4 + 13] = f->tcp_flags;
		return l4 + 20;
	}
	p[l4 + 5] = 8;
	return l4 + 8;
}

static inline void sclassify(struct tl_dev *t, enum steer_table_type type, const struct sframe *f,
			     struct steer_verdict *v)
{
	uint8_t p[128], key[STEER_KEY_LEN];
	size_t n = sframe_build(f, p);
	struct pkt_info pi;
	pkt_parse(p, n, &pi);
	steer_key_build(p, n, &pi, key);
	steer_classify(t->dev, type, key, (uint32_t)n, v);
}

/* Match parameter fields (T407) by name into m (REFDRV_MATCH_LEN bytes). */
static inline void mset(uint8_t *m, const char *name, uint64_t v)
{
	cr_assert_eq(refdrv_field_set(m, REFDRV_MATCH_LEN, "fte_match_param", name, v), 0, "%s", name);
}

static inline void mset_ip4(uint8_t *m, const char *name, uint32_t v)
{
	uint8_t b[16] = { 0 };
	tl_put32(b + 12, v);
	cr_assert_eq(nicref_field_set_bytes(m, REFDRV_MATCH_LEN, tl_field("fte_match_param", name), b, 16),
		     0);
}

/* The property `name` of table type `type` (T151) lowered in the device's current caps. */
static inline void sprop(struct tl_dev *t, unsigned type, const char *name, uint64_t v)
{
	uint8_t *caps = t->dev->core.caps.cur[CAP_FLOW_TABLE_NIC] + (type ? 0x100 : 0x40);
	cr_assert_eq(nicref_field_set(caps, 0x40, tl_field("flow_table_properties", name), v), 0);
}

#endif
