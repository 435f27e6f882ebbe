/* What the receive path's unit tests (rx_*_test.c) share: a device brought up by the reference
 * driver with one receive stack (PD, TD, EQ, CQ, an MKey over a data region with local write,
 * an RQ with its own cyclic WQ or on an RMP, in RDY, a Direct TIR on it), receive WQEs posted
 * through harness/driver_rq.h, frames built here (Ethernet, 802.1Q, IPv4, UDP/TCP, with their
 * checksums computed by an RFC 1071 sum of this file's own) and CQEs polled as software does.
 * The tests drive the stage below steering (rx_deliver_tir / rx_deliver, eth/rx.h) or the
 * whole path through nicref_wire_rx with the stub's forced verdict. Every helper is static. */
#ifndef NICREF_TESTS_RX_UTIL_H
#define NICREF_TESTS_RX_UTIL_H

#include <stdint.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_mkey.h"
#include "driver_rq.h"
#include "driver_steer.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "eth/rx.h"
#include "testlib.h"

#define RX_DATA_SIZE 0x10000u
#define RX_MKEY_TAG 0x3Cu
#define RX_BUF 0x1000u /* offset of the first receive buffer in the data region */

struct rx_opts {
	unsigned log_stride;  /* 2^log_stride bytes per WQE */
	unsigned log_wq;
	bool wq_signature, vsd, flush;
	unsigned end_pad;     /* end_padding_mode */
	bool rmp, linked;     /* on an RMP; the WQ (the RQ's or the RMP's) of wq_type 0 (linked list) */
	unsigned lwm;
	unsigned cqe_sz;
	uint32_t user_index;
	unsigned self_lb;     /* the TIR's self_lb_en */
	uint64_t eq_events;
	const struct nicref_profile *profile; /* NULL: the default */
};

static struct tl_dev *rdev;
static struct {
	struct rx_opts o;
	uint32_t pd, td, mkey_index, lkey, rqn, rmpn, tirn;
	uint32_t ft, fg; /* rx_steer_all's NIC_RX table and group, when ft_made */
	bool ft_made;
	struct refdrv_eq eq;
	struct refdrv_cq cq;
	uint64_t data;
	struct refdrv_rq_ring ring;
} rx;

static inline struct rx_opts rx_default_opts(void)
{
	struct rx_opts o = { .log_stride = 6, .log_wq = 4, .flush = true, .user_index = 0x654321,
			     .self_lb = 3 };
	return o;
}

static inline void rx_setup_opts(const struct rx_opts *o)
{
	if (rdev)
		tl_down(rdev);
	memset(&rx, 0, sizeof rx);
	rx.o = *o;
	rdev = tl_up(o->profile);
	struct refdrv *d = &rdev->d;
	rx.pd = tl_alloc_pd(rdev);
	rx.td = tl_alloc_td(rdev);
	rx.eq = tl_eq(rdev, 4, o->eq_events, 0);
	struct refdrv_cq_attr ca = { .log_cq_size = 6, .cqe_sz = o->cqe_sz, .eqn = rx.eq.eqn };
	rx.cq = tl_cq_attr(rdev, &ca);
	rx.data = tl_hostmem(rdev, RX_DATA_SIZE);
	struct refdrv_mkey_attr m = { .access_mode = 0, .pd = rx.pd, .tag = RX_MKEY_TAG, .lw = true,
				      .start_addr = rx.data, .len = RX_DATA_SIZE };
	cr_assert_eq(refdrv_create_mkey(d, &m, &rx.mkey_index), 0, "%s", d->error);
	rx.lkey = rx.mkey_index << 8 | RX_MKEY_TAG;
	struct refdrv_wq_attr wq = { .buf = tl_hostmem(rdev, (uint64_t)1 << (o->log_wq + o->log_stride)),
				     .dbr = tl_hostmem(rdev, 8),
				     .wq_type = o->linked ? 0 : 1,
				     .log_wq_sz = o->log_wq,
				     .log_wq_stride = o->log_stride,
				     .wq_signature = o->wq_signature,
				     .end_padding_mode = o->end_pad,
				     .pd = rx.pd };
	struct refdrv_rq_attr ra = { .wq = wq, .cqn = rx.cq.cqn, .user_index = o->user_index,
				     .flush_in_error_en = o->flush && !o->rmp,
				     .vlan_strip_disable = o->vsd };
	if (o->rmp) {
		struct refdrv_rmp_attr pa = { .wq = wq, .lwm = o->lwm };
		cr_assert_eq(refdrv_create_rmp(d, &pa, &rx.rmpn), 0, "CREATE_RMP %s", d->error);
		ra.on_rmp = true;
		ra.rmpn = rx.rmpn;
		memset(&ra.wq, 0, sizeof ra.wq);
	}
	cr_assert_eq(refdrv_create_rq(d, &ra, &rx.rqn), 0, "CREATE_RQ %s (rule %s)", d->error,
		     tl_rule_of(d->last_syndrome));
	cr_assert_eq(refdrv_modify_rq(d, rx.rqn, 0, 1), 0);
	struct refdrv_tir_attr ta = { .inline_rqn = rx.rqn, .td = rx.td, .self_lb_en = o->self_lb };
	cr_assert_eq(refdrv_create_tir(d, &ta, &rx.tirn), 0, "CREATE_TIR %s", d->error);
	rx.ring = (struct refdrv_rq_ring){ .buf = wq.buf,
					   .dbr = wq.dbr,
					   .log_wq_sz = o->log_wq,
					   .log_wq_stride = o->log_stride,
					   .wq_signature = o->wq_signature,
					   .shared = o->rmp || o->linked, /* T42's next segment */
					   .linked = o->linked,
					   .ctrl_segment = o->rmp,
					   .qn = o->rmp ? rx.rmpn : rx.rqn };
	tl_mark(&rdev->tr);
}

static inline void rx_setup(void)
{
	struct rx_opts o = rx_default_opts();
	rx_setup_opts(&o);
}

static inline void rx_teardown(void)
{
	tl_down(rdev);
	rdev = NULL;
}

/* Steers every NIC_RX frame to the n TIRs with flow tag `tag` (PRM §7.11: a level-0 table, the
 * root by default (§7.11.3.2), one group without criteria, one FWD_DEST flow at index 0; several
 * TIRs are a multi-path flow, nic_rx_multi_path_tirs). A second call replaces the flow. */
static inline void rx_steer_all(const uint32_t *tirs, unsigned n, uint32_t tag)
{
	struct refdrv *d = &rdev->d;
	if (!rx.ft_made) {
		cr_assert_eq(refdrv_create_flow_table(d, 0, 0, 4, 0, 0, &rx.ft), 0, "%s", d->error);
		cr_assert_eq(refdrv_create_flow_group(d, 0, rx.ft, 0, 0, 0, NULL, &rx.fg), 0, "%s",
			     d->error);
		rx.ft_made = true;
	} else {
		cr_assert_eq(refdrv_delete_fte(d, 0, rx.ft, 0), 0, "%s", d->error);
	}
	struct refdrv_fte e = { .group_id = rx.fg, .action = 1u << 2, .flow_tag = tag, .ndest = n };
	for (unsigned i = 0; i < n; i++) {
		e.dest[i].type = 2; /* T433: TIR */
		e.dest[i].id = tirs[i];
	}
	cr_assert_eq(refdrv_set_fte(d, 0, rx.ft, 0, 0, 0, &e), 0, "SET_FLOW_TABLE_ENTRY %s (rule %s)",
		     d->error, tl_rule_of(d->last_syndrome));
}

/* Posts one WQE of entries (offset in the data region, byte_count). */
static inline void rx_post(const struct refdrv_rx_sge *sge, unsigned n)
{
	cr_assert_eq(refdrv_rq_post(&rdev->d, &rx.ring, sge, n), 0, "%s", rdev->d.error);
}

static inline struct refdrv_rx_sge rx_sge(uint64_t off, uint32_t bc)
{
	return (struct refdrv_rx_sge){ .addr = rx.data + off, .lkey = rx.lkey, .byte_count = bc };
}

static inline void rx_post1(uint64_t off, uint32_t bc)
{
	struct refdrv_rx_sge s = rx_sge(off, bc);
	rx_post(&s, 1);
}

/* ---- Frames ------------------------------------------------------------------------------- */

static const uint8_t rx_own_mac[6] = { 0x02, 0x4E, 0x49, 0x43, 0x52, 0x46 }; /* D-VP-3 */

/* RFC 1071 sum (not folded) of n bytes. */
static inline uint32_t rx_sum(uint32_t s, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}
static inline uint16_t rx_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)s;
}

struct rx_frame_opts {
	int vid;              /* -1 untagged */
	unsigned prio;
	unsigned proto;       /* 17 UDP, 6 TCP */
	unsigned tcp_flags;
	size_t payload;
	unsigned ip_opts;     /* 4-byte words of IPv4 options (NOPs) */
	bool bad_ip_csum, bad_l4_csum;
	const uint8_t *dst;   /* NULL: the vport's permanent address */
};

/* An IPv4 frame with its checksums: Ethernet (+ a C-VLAN tag), IPv4, UDP or TCP, payload bytes
 * i & 0xFF. Returns its length. */
static inline size_t rx_frame(uint8_t *f, const struct rx_frame_opts *o)
{
	size_t at = 0;
	memcpy(f, o->dst ? o->dst : rx_own_mac, 6);
	const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 0x99 };
	memcpy(f + 6, src, 6);
	at = 12;
	if (o->vid >= 0) {
		f[at++] = 0x81;
		f[at++] = 0x00;
		f[at++] = (uint8_t)(o->prio << 5 | (o->vid >> 8 & 0xF));
		f[at++] = (uint8_t)o->vid;
	}
	f[at++] = 0x08;
	f[at++] = 0x00;
	size_t ip = at, ihl = 20 + 4u * o->ip_opts;
	size_t l4len = (o->proto == 6 ? 20 : 8) + o->payload;
	memset(f + ip, 0, ihl);
	f[ip] = (uint8_t)(0x40 | ihl / 4);
	f[ip + 2] = (uint8_t)((ihl + l4len) >> 8);
	f[ip + 3] = (uint8_t)(ihl + l4len);
	f[ip + 8] = 64;
	f[ip + 9] = (uint8_t)o->proto;
	const uint8_t sa[4] = { 10, 0, 0, 1 }, da[4] = { 10, 0, 0, 2 };
	memcpy(f + ip + 12, sa, 4);
	memcpy(f + ip + 16, da, 4);
	memset(f + ip + 20, 1, 4u * o->ip_opts); /* NOP options */
	uint16_t c = (uint16_t)~rx_fold(rx_sum(0, f + ip, ihl));
	if (o->bad_ip_csum)
		c ^= 0x0100;
	f[ip + 10] = (uint8_t)(c >> 8);
	f[ip + 11] = (uint8_t)c;
	size_t l4 = ip + ihl;
	memset(f + l4, 0, l4len);
	f[l4] = 0x12;
	f[l4 + 1] = 0x34;
	f[l4 + 2] = 0x56;
	f[l4 + 3] = 0x78;
	if (o->proto == 6) {
		f[l4 + 12] = 5 << 4;
		f[l4 + 13] = (uint8_t)o->tcp_flags;
	} else {
		f[l4 + 4] = (uint8_t)(l4len >> 8);
		f[l4 + 5] = (uint8_t)l4len;
	}
	for (size_t i = 0; i < o->payload; i++)
		f[l4 + l4len - o->payload + i] = (uint8_t)i;
	uint32_t s = rx_sum(0, f + ip + 12, 8) + o->proto + (uint32_t)l4len;
	uint16_t lc = (uint16_t)~rx_fold(rx_sum(s, f + l4, l4len));
	if (lc == 0)
		lc = 0xFFFF;
	if (o->bad_l4_csum)
		lc ^= 0x0001;
	size_t cat = l4 + (o->proto == 6 ? 16 : 6);
	f[cat] = (uint8_t)(lc >> 8);
	f[cat + 1] = (uint8_t)lc;
	return l4 + l4len;
}

static inline struct rx_frame_opts rx_udp(size_t payload)
{
	struct rx_frame_opts o = { .vid = -1, .proto = 17, .payload = payload };
	return o;
}

/* Delivers the frame to the test's TIR (the stage below steering) with flow tag `tag`. */
static inline enum rx_outcome rx_give(const uint8_t *f, size_t n, uint32_t tag)
{
	struct pkt_info pi;
	pkt_parse(f, n, &pi);
	return rx_deliver_tir(rdev->dev, rx.tirn, f, n, &pi, tag);
}

/* The next CQE: asserts there is one. */
static inline void rx_cqe(uint8_t cqe[64])
{
	cr_assert_eq(refdrv_rx_poll(&rdev->d, &rx.cq, cqe), 1, "a CQE");
}

#define CQE(c, name) refdrv_rx_cqe_field((c), #name)

static inline void rx_mem(uint64_t off, void *buf, size_t n)
{
	tl_mem_read(rdev, rx.data + off, buf, n);
}

static inline size_t rx_drops_of(unsigned reason)
{
	size_t n = 0;
	for (size_t i = 0; i < tl_count(&rdev->tr, NICREF_EV_RX_DROP); i++)
		if (tl_nth(&rdev->tr, NICREF_EV_RX_DROP, i)->arg[0] == reason)
			n++;
	return n;
}

#endif
