/* The QP steps of the vectors (docs/vectors.md "RoCE"): qp_setup (one device, or both devices
 * of a group of two, connected), qp_post (a send WQE of a QP), qp_recv (receive WQEs of a QP)
 * and the cqes of a QP's CQs. The reference driver's QP helpers (harness/driver_qp.c) do the
 * work; each step checks its value first, the same whether checking or running. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonval.h"
#include "vectors_roce_int.h"

#define QP_STRUCT_LO 0x60000000ull /* docs/vectors.md "Fixed placement" of the QP stacks */
#define QP_STRUCT_HI 0x62800000ull
#define MAX_DATA (16ull << 20)
#define MAX_RECV_ENTRIES 64u /* 1 KB stride / 16 */

static enum name_space ns_none(const char *key)
{
	(void)key;
	return NS_NONE;
}

/* A number of obj[key] at most max (bits wide), dflt when absent. */
static int num_le(struct run *r, const char *what, const json_t *obj, const char *key,
		  unsigned bits, uint64_t lo, uint64_t max, uint64_t dflt, uint64_t *out)
{
	char f[64];
	const json_t *v = json_object_get(obj, key);
	snprintf(f, sizeof f, "%s%s%s", what ? what : "", what ? "." : "", key);
	*out = dflt;
	if (!v)
		return 0;
	if (vnum_at(r, f, v, NS_NONE, bits, out))
		return -1;
	if (*out < lo || *out > max) {
		vbad(r, f, "%llu is outside %llu to %llu", (unsigned long long)*out,
		     (unsigned long long)lo, (unsigned long long)max);
		return -1;
	}
	return 0;
}

static int mac_parse(const char *s, uint64_t *mac)
{
	uint64_t m = 0;
	unsigned n = 0;
	for (; *s; s++) {
		if (*s == ':' || *s == '-')
			continue;
		int v = *s >= '0' && *s <= '9'	 ? *s - '0'
			: *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
			: *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
						 : -1;
		if (v < 0 || ++n > 12)
			return -1;
		m = m << 4 | (unsigned)v;
	}
	if (n != 12)
		return -1;
	*mac = m;
	return 0;
}

/* An address object (local, peer): ip, mac, l3, gid_index (local), qpn (peer). */
static int addr_parse(struct run *r, const char *what, const json_t *o, struct refdrv_qp_addr *x,
		      bool local, uint32_t *qpn, const char *v6_default)
{
	char f[48];
	const json_t *ip = json_object_get(o, "ip"), *mac = json_object_get(o, "mac"),
		     *l3 = json_object_get(o, "l3");
	uint64_t v;
	if (!o)
		return 0;
	if (local && json_object_get(o, "qpn")) {
		vbad(r, what, "qpn names the peer's QP, not the device's (the device chooses it)");
		return -1;
	}
	if (!local && json_object_get(o, "gid_index")) {
		vbad(r, what, "gid_index is the device's own (local.gid_index)");
		return -1;
	}
	bool v6 = l3 && !strcmp(json_string_value(l3), "ipv6");
	if (ip) {
		snprintf(f, sizeof f, "%s.ip", what);
		if (refdrv_qp_addr_ip(x, json_string_value(ip)) != 0) {
			vbad(r, f, "\"%s\" is neither a dotted IPv4 address nor an IPv6 address",
			     json_string_value(ip));
			return -1;
		}
		if (l3 && x->ipv6 != v6) {
			vbad(r, f, "\"%s\" is not of the l3 family \"%s\"", json_string_value(ip),
			     json_string_value(l3));
			return -1;
		}
	} else if (l3) {
		refdrv_qp_addr_ip(x, v6 ? v6_default : (local ? "192.0.2.1" : "192.0.2.2"));
	}
	if (mac) {
		snprintf(f, sizeof f, "%s.mac", what);
		if (mac_parse(json_string_value(mac), &x->mac)) {
			vbad(r, f, "\"%s\" is not six hex bytes", json_string_value(mac));
			return -1;
		}
	}
	if (local && num_le(r, what, o, "gid_index", 8, 0, 255, x->gid_index, &v) == 0)
		x->gid_index = (unsigned)v;
	else if (local)
		return -1;
	if (!local && qpn) {
		if (num_le(r, what, o, "qpn", 24, 0, 0xFFFFFF, *qpn, &v))
			return -1;
		*qpn = (uint32_t)v;
	}
	return 0;
}

struct path_ctx {
	struct run *r;
	const json_t *path;
};

static void apply_path(void *ctx, unsigned qp, uint8_t *ads, size_t len)
{
	const struct path_ctx *p = ctx;
	(void)qp;
	if (p->path)
		(void)vec_set_fields(p->r, "path", nicref_layout_find("ads"), p->path, ads, len,
				     ns_none, NULL);
}

/* The keys of one device (the step's, then its "a" or "b"). */
static int side_parse(struct run *r, const char *what, const json_t *o, struct refdrv_qp_attr *a,
		      const json_t **path)
{
	static const struct {
		const char *key;
		unsigned bits;
		uint64_t lo, hi;
		size_t off;
	} nums[] = {
#define N(k, b, lo, hi) { #k, b, lo, hi, offsetof(struct refdrv_qp_attr, k) }
		N(port, 8, 1, 255),	 N(mtu, 3, 1, 5),	   N(log_sq_size, 4, 0, 12),
		N(log_rq_size, 4, 0, 12), N(log_rq_stride, 3, 0, 6), N(log_cq_size, 5, 0, 12),
		N(cqe_sz, 1, 0, 1),	 N(rre, 1, 0, 1),	   N(rwe, 1, 0, 1),
		N(rae, 1, 0, 1),	 N(retry_count, 3, 0, 7), N(rnr_retry, 3, 0, 7),
		N(min_rnr_nak, 5, 0, 31), N(ack_timeout, 5, 0, 31), N(log_sra_max, 3, 0, 7),
		N(log_rra_max, 3, 0, 7),
#undef N
	};
	uint64_t v;
	if (!o)
		return 0;
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		unsigned *p = (unsigned *)((char *)a + nums[i].off);
		if (num_le(r, what, o, nums[i].key, nums[i].bits, nums[i].lo, nums[i].hi, *p, &v))
			return -1;
		*p = (unsigned)v;
	}
	if (num_le(r, what, o, "sq_psn", 24, 0, 0xFFFFFF, a->sq_psn, &v))
		return -1;
	a->sq_psn = (uint32_t)v;
	if (num_le(r, what, o, "rq_psn", 24, 0, 0xFFFFFF, a->rq_psn, &v))
		return -1;
	a->rq_psn = (uint32_t)v;
	if (num_le(r, what, o, "q_key", 32, 0, 0xFFFFFFFFu, a->q_key, &v))
		return -1;
	a->q_key = (uint32_t)v;
	const json_t *mk = json_object_get(o, "mkey");
	if (mk) {
		bool *bits[3] = { &a->mk_lw, &a->mk_rr, &a->mk_rw };
		const char *names[3] = { "lw", "rr", "rw" };
		for (int i = 0; i < 3; i++) {
			if (num_le(r, "mkey", mk, names[i], 1, 0, 1, *bits[i], &v))
				return -1;
			*bits[i] = v != 0;
		}
	}
	const json_t *data = json_object_get(o, "data");
	if (data) {
		if (num_le(r, "data", data, "addr", 64, 0, UINT64_MAX, a->data_addr, &a->data_addr) ||
		    num_le(r, "data", data, "size", 64, 64, MAX_DATA, a->data_size, &a->data_size))
			return -1;
		if (vec_range_ok(r, "data", a->data_addr, a->data_size))
			return -1;
		if (a->data_addr < QP_STRUCT_HI && a->data_addr + a->data_size > QP_STRUCT_LO) {
			vbad(r, "data", "the data region overlaps the QP structures "
					"(0x60000000-0x627FFFFF, docs/vectors.md \"Fixed placement\")");
			return -1;
		}
	}
	const json_t *local = json_object_get(o, "local");
	if (addr_parse(r, "local", local, &a->local, true, NULL,
		       a->local.gid[15] == 2 ? "2001:db8::2" : "2001:db8::1"))
		return -1;
	const json_t *p = json_object_get(o, "path");
	if (p) {
		uint8_t ads[0x2C] = { 0 };
		const struct nicref_layout *l = nicref_layout_find("ads");
		if (!l || vec_set_fields(r, "path", l, p, ads, sizeof ads, ns_none, NULL))
			return -1;
		*path = p;
	}
	return 0;
}

static void qpdev_note(struct vec_qpdev *q, const struct refdrv_qp_attr *a)
{
	*q = (struct vec_qpdev){ .setup = true, .st = a->st, .nqp = a->nqp, .to = a->to,
				 .log_sq_size = a->log_sq_size, .log_rq_size = a->log_rq_size,
				 .log_rq_stride = a->log_rq_stride, .data_addr = a->data_addr,
				 .data_size = a->data_size, .q_key = a->q_key };
}

/* The device (the one in struct run) is brought up far enough for a qp_setup. */
static bool initialized(struct run *r, const char *which)
{
	if (r->tx.stage != REFDRV_INITIALIZED) {
		vbad(r, NULL, "a qp_setup needs a bring_up to initialized before it%s", which);
		return false;
	}
	return true;
}

static bool live(struct run *r, const char *which)
{
	if (!r->drv_live || r->drv->reached != REFDRV_INITIALIZED) {
		vfail(r, "qp_setup: the bring_up%s did not reach initialized", which);
		return false;
	}
	return true;
}

static void setup_failed(struct run *r, const char *which)
{
	vfail(r, "qp_setup%s: %s", which, r->drv->error);
}

void st_qp_setup(struct run *r, const json_t *s)
{
	struct vec_roce *x = vec_roce(r);
	if (!x) {
		vbad(r, NULL, "out of memory");
		return;
	}
	bool two = x->devices == 2;
	if (x->qp_setup) {
		vbad(r, NULL, "the QPs are set up once a test: this is a second qp_setup");
		return;
	}
	struct refdrv_qp_attr aa, ab;
	refdrv_qp_defaults(&aa);
	if (r->cfg.profile.roce_profile == 1)
		aa.rre = 0; /* seed004: no remote READ (D-QP-14) */
	const json_t *jt = json_object_get(s, "type"), *jto = json_object_get(s, "to");
	if (jt)
		aa.st = !strcmp(json_string_value(jt), "UD") ? REFDRV_QP_ST_UD : REFDRV_QP_ST_RC;
	if (jto) {
		static const char *const states[4] = { "RST", "INIT", "RTR", "RTS" };
		for (unsigned i = 0; i < 4; i++)
			if (!strcmp(json_string_value(jto), states[i]))
				aa.to = (enum refdrv_qp_state)i;
	}
	uint64_t nqp;
	if (num_le(r, NULL, s, "qps", 8, 1, REFDRV_QP_MAX, 1, &nqp))
		return;
	aa.nqp = (unsigned)nqp;
	ab = aa;
	if (two) {
		aa.local.mac = 0x024E4943520Aull;
		ab.local.mac = 0x024E4943520Bull;
		refdrv_qp_addr_ip(&ab.local, "192.0.2.2");
		if (json_object_get(s, "peer")) {
			vbad(r, "peer", "on two devices each device is the other's peer");
			return;
		}
	} else if (json_object_get(s, "a") || json_object_get(s, "b")) {
		vbad(r, json_object_get(s, "a") ? "a" : "b",
		     "a and b are the devices of a group of two (\"devices\": 2)");
		return;
	}
	const json_t *path_a = NULL, *path_b = NULL;
	if (side_parse(r, NULL, s, &aa, &path_a) || side_parse(r, NULL, s, &ab, &path_b) ||
	    side_parse(r, "a", json_object_get(s, "a"), &aa, &path_a) ||
	    side_parse(r, "b", json_object_get(s, "b"), &ab, &path_b))
		return;
	/* Each end's rq_psn is the other's sq_psn unless given (two devices). */
	const json_t *sa = json_object_get(s, "a"), *sb = json_object_get(s, "b");
	bool rq_a = json_object_get(s, "rq_psn") || (sa && json_object_get(sa, "rq_psn"));
	bool rq_b = json_object_get(s, "rq_psn") || (sb && json_object_get(sb, "rq_psn"));
	if (two && !rq_a)
		aa.rq_psn = ab.sq_psn;
	if (two && !rq_b)
		ab.rq_psn = aa.sq_psn;
	struct refdrv_qp_addr peer = { .mac = 0x024E49435250ull };
	uint32_t peer_qpn = 0x100;
	refdrv_qp_addr_ip(&peer, aa.local.ipv6 ? "2001:db8::2" : "192.0.2.2");
	if (addr_parse(r, "peer", json_object_get(s, "peer"), &peer, false, &peer_qpn,
		       "2001:db8::2"))
		return;
	if (!two && peer.ipv6 != aa.local.ipv6) {
		vbad(r, "peer.ip", "the peer's address is of the other family than the local one");
		return;
	}
	/* Both devices must be up. */
	if (!initialized(r, two ? " (device a)" : ""))
		return;
	if (two) {
		vec_roce_use(r, 1);
		bool ok = initialized(r, " (device b)");
		vec_roce_use(r, 0);
		if (!ok)
			return;
	}
	x->qp_setup = true;
	qpdev_note(&x->q[0], &aa);
	x->q[0].peer = peer;
	x->q[0].peer_qpn = peer_qpn;
	if (two)
		qpdev_note(&x->q[1], &ab);
	if (r->checking)
		return;

	struct path_ctx pa = { r, path_a }, pb = { r, path_b };
	aa.path = apply_path;
	aa.path_ctx = &pa;
	ab.path = apply_path;
	ab.path_ctx = &pb;
	if (!two) {
		if (!live(r, ""))
			return;
		if (refdrv_qp_stack_up(r->drv, &aa, &x->stacks[0]) != 0) {
			setup_failed(r, "");
			return;
		}
		for (unsigned i = 0; i < aa.nqp; i++)
			if (refdrv_qp_connect(r->drv, &x->stacks[0], i, peer_qpn + i, &peer) != 0) {
				setup_failed(r, "");
				return;
			}
		x->q[0].stack = &x->stacks[0];
		x->q[0].up = true;
		r->ev_cursor = r->nev;
		return;
	}
	/* Two devices: both stacks, then each QP connected to the other device's. */
	if (!live(r, " (device a)"))
		return;
	if (refdrv_qp_stack_up(r->drv, &aa, &x->stacks[0]) != 0) {
		setup_failed(r, " (device a)");
		return;
	}
	vec_roce_use(r, 1);
	bool ok = live(r, " (device b)") && refdrv_qp_stack_up(r->drv, &ab, &x->stacks[1]) == 0;
	if (!ok && r->drv_live)
		setup_failed(r, " (device b)");
	vec_roce_use(r, 0);
	for (unsigned i = 0; ok && i < aa.nqp; i++) {
		if (refdrv_qp_connect(r->drv, &x->stacks[0], i, x->stacks[1].qp[i].qpn,
				      &x->stacks[1].a.local) != 0) {
			setup_failed(r, " (device a)");
			ok = false;
			break;
		}
		vec_roce_use(r, 1);
		if (refdrv_qp_connect(r->drv, &x->stacks[1], i, x->stacks[0].qp[i].qpn,
				      &x->stacks[0].a.local) != 0) {
			setup_failed(r, " (device b)");
			ok = false;
		}
		vec_roce_use(r, 0);
	}
	if (!ok)
		return;
	for (int d = 0; d < 2; d++) {
		x->q[d].stack = &x->stacks[d];
		x->q[d].up = true;
		vec_roce_use(r, d);
		r->ev_cursor = r->nev; /* the setup's events are not the test's */
	}
	vec_roce_use(r, 0);
}

/* The QP of a step on the current device: 0 and *q, *i; or -1 after vbad / vfail. */
static int step_qp(struct run *r, const json_t *s, const char *what, struct vec_qpdev **q,
		   unsigned *i)
{
	struct vec_roce *x = r->roce;
	uint64_t v;
	if (!x || !x->q[x->cur].setup) {
		vbad(r, NULL, "%s needs a qp_setup before it (in the group's setup or the test)",
		     what);
		return -1;
	}
	*q = &x->q[x->cur];
	if (vnum(r, s, "qp", NS_NONE, 8, 0, &v))
		return -1;
	if (v >= (*q)->nqp) {
		vbad(r, "qp", "%llu: the qp_setup made %u QP%s (from 0)", (unsigned long long)v,
		     (*q)->nqp, (*q)->nqp == 1 ? "" : "s");
		return -1;
	}
	*i = (unsigned)v;
	if (!r->checking && !(*q)->up) {
		vfail(r, "%s: no QP (the qp_setup failed)", what);
		return -1;
	}
	return 0;
}

struct refdrv_cq *vec_roce_cq(struct run *r, const json_t *s, bool *named, bool *ok)
{
	const json_t *cq = json_object_get(s, "cq"), *qp = json_object_get(s, "qp");
	const char *which = cq ? json_string_value(cq) : NULL;
	struct vec_roce *x = r->roce;
	bool qp_cq = qp || (which && (!strcmp(which, "send") || !strcmp(which, "recv")));
	*named = false;
	*ok = false;
	if (!qp_cq) {
		if (!cq && !r->tx.setup && !r->rx.setup && x && x->q[x->cur].setup) {
			*named = true;
			vbad(r, "cq", "the cqes of a QP name its CQ: \"send\" or \"recv\"");
		}
		return NULL;
	}
	*named = true;
	if (!which || (strcmp(which, "send") && strcmp(which, "recv"))) {
		vbad(r, "cq", "the cqes of a QP name its CQ: \"send\" or \"recv\"");
		return NULL;
	}
	struct vec_qpdev *q;
	unsigned i;
	if (step_qp(r, s, "a cqes step of a QP", &q, &i))
		return NULL;
	*ok = true;
	if (r->checking)
		return NULL;
	return !strcmp(which, "send") ? &q->stack->qp[i].scq : &q->stack->qp[i].rcq;
}

/* ---- qp_post ---- */

static int ring_parse(struct run *r, const json_t *s, enum refdrv_ring *ring)
{
	const json_t *v = json_object_get(s, "ring");
	static const char *const names[4] = { "db", "bf", "record", "none" };
	static const enum refdrv_ring rings[4] = { REFDRV_RING_DB, REFDRV_RING_BF,
						   REFDRV_RING_RECORD, REFDRV_RING_NONE };
	*ring = REFDRV_RING_DB;
	if (!v)
		return 0;
	for (int i = 0; i < 4; i++)
		if (json_is_string(v) && !strcmp(json_string_value(v), names[i])) {
			*ring = rings[i];
			return 0;
		}
	vbad(r, "ring", "\"db\", \"bf\", \"record\" or \"none\"");
	return -1;
}

static bool is_rdma(unsigned op)
{
	return op == REFDRV_QP_OP_RDMA_WRITE || op == REFDRV_QP_OP_RDMA_WRITE_IMM ||
	       op == REFDRV_QP_OP_RDMA_READ;
}

static bool is_named_nonrdma(unsigned op)
{
	return op == REFDRV_QP_OP_SEND || op == REFDRV_QP_OP_SEND_IMM || op == REFDRV_QP_OP_NOP;
}

/* The remote-address segment's values. */
static int raddr_values(struct run *r, const json_t *ra, bool two, const struct vec_roce *x,
			uint64_t *addr, uint32_t *rkey)
{
	const json_t *ja = json_object_get(ra, "addr"), *jo = json_object_get(ra, "offset"),
		     *jk = json_object_get(ra, "rkey");
	uint64_t v;
	int peer = 1 - x->cur;
	bool data_key = !jk || (json_is_string(jk) && !strcmp(json_string_value(jk), "data"));
	if (!two && (jo || data_key || !ja)) {
		vbad(r, "raddr", "on one device raddr gives addr and a numeric rkey (the peer is the "
				 "vector's: no data region or MKey of its own)");
		return -1;
	}
	if (ja && jo) {
		vbad(r, "raddr", "addr or offset, not both");
		return -1;
	}
	if (ja && vnum_at(r, "raddr.addr", ja, NS_NONE, 64, addr))
		return -1;
	if (!ja) {
		if (num_le(r, "raddr", ra, "offset", 64, 0, x->q[peer].data_size - 1, 0, &v))
			return -1;
		*addr = x->q[peer].data_addr + v;
	}
	if (!data_key) {
		if (vnum_at(r, "raddr.rkey", jk, NS_NONE, 32, &v))
			return -1;
		*rkey = (uint32_t)v;
	} else {
		*rkey = r->checking || !x->q[peer].stack ? 0 : x->q[peer].stack->key;
	}
	return 0;
}

static int av_values(struct run *r, const json_t *av, bool two, const struct vec_roce *x,
		     unsigned i, struct refdrv_qp_av *out)
{
	int peer = 1 - x->cur;
	const struct vec_qpdev *me = &x->q[x->cur];
	struct refdrv_qp_addr pa = me->peer;
	uint32_t dqpn = me->peer_qpn + i, q_key = me->q_key;
	if (two) {
		const struct refdrv_qp_stack *ps = x->q[peer].stack;
		pa = ps ? ps->a.local : pa;
		dqpn = ps ? ps->qp[i].qpn : 0;
		q_key = x->q[peer].q_key;
	}
	*out = (struct refdrv_qp_av){ .dqpn = dqpn, .q_key = q_key, .mac = pa.mac,
				      .hop_limit = 64, .udp_sport = (uint16_t)(0xC000 + i),
				      .gid_index = me->stack ? me->stack->a.local.gid_index : 0 };
	memcpy(out->gid, pa.gid, 16);
	if (!av)
		return 0;
	uint64_t v;
	if (num_le(r, "av", av, "qpn", 24, 0, 0xFFFFFF, out->dqpn, &v))
		return -1;
	out->dqpn = (uint32_t)v;
	if (num_le(r, "av", av, "q_key", 32, 0, 0xFFFFFFFFu, out->q_key, &v))
		return -1;
	out->q_key = (uint32_t)v;
	if (num_le(r, "av", av, "hop_limit", 8, 0, 255, out->hop_limit, &v))
		return -1;
	out->hop_limit = (unsigned)v;
	if (num_le(r, "av", av, "tclass", 8, 0, 255, out->tclass, &v))
		return -1;
	out->tclass = (unsigned)v;
	if (num_le(r, "av", av, "flow_label", 20, 0, 0xFFFFF, out->flow_label, &v))
		return -1;
	out->flow_label = (uint32_t)v;
	if (num_le(r, "av", av, "udp_sport", 16, 0, 0xFFFF, out->udp_sport, &v))
		return -1;
	out->udp_sport = (uint16_t)v;
	struct refdrv_qp_addr a = pa;
	if (addr_parse(r, "av", av, &a, false, NULL, "2001:db8::2"))
		return -1;
	out->mac = a.mac;
	memcpy(out->gid, a.gid, 16);
	return 0;
}

/* The data segments of qp_post through the wqe step's code, over the QP device's data region
 * from its middle (r->tx stands in for the send path's region meanwhile). */
static int post_data(struct run *r, struct vec_qpdev *q, const json_t *list, uint32_t key,
		     struct refdrv_wqe *w)
{
	struct vec_tx keep = r->tx;
	struct refdrv_sq_stack *keep_sq = r->sq, shadow = { .lkey = key };
	r->tx.data_addr = q->data_addr + q->data_size / 2;
	r->tx.data_size = q->data_size - q->data_size / 2;
	r->tx.data_next = q->data_next;
	r->tx.up = true;
	r->sq = &shadow;
	int rc = vec_wqe_data(r, list, w);
	q->data_next = r->tx.data_next;
	r->tx = keep;
	r->sq = keep_sq;
	return rc;
}

void st_qp_post(struct run *r, const json_t *s)
{
	struct vec_qpdev *q;
	unsigned i;
	enum refdrv_ring ring;
	if (step_qp(r, s, "a qp_post", &q, &i) || ring_parse(r, s, &ring))
		return;
	struct vec_roce *x = r->roce;
	bool two = x->devices == 2;
	struct refdrv_qp *qp = r->checking ? NULL : &q->stack->qp[i];
	uint16_t pc = qp ? qp->sq.pc : 0;
	uint32_t qpn = qp ? qp->qpn : 0, key = qp ? q->stack->key : 0;
	static struct refdrv_wqe w;
	memset(&w, 0, sizeof w);
	const json_t *hex = json_object_get(s, "hex");
	if (hex) {
		static const char *const others[] = { "opcode", "ctrl", "imm", "raddr", "av", "data" };
		for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
			if (json_object_get(s, others[k])) {
				vbad(r, others[k], "a WQE given whole (hex) has nothing built: no %s",
				     others[k]);
				return;
			}
		long n = vec_hex_bytes(r, "hex", hex, sizeof w.b, false);
		if (n < 0)
			return;
		if (n < 16) {
			vbad(r, "hex", "%ld bytes: a WQE is at least its 16-byte ctrl segment", n);
			return;
		}
		hex_parse(json_string_value(hex), w.b, sizeof w.b);
		w.len = (size_t)n;
	} else {
		const json_t *jop = json_object_get(s, "opcode");
		uint64_t op;
		if (!jop) {
			vbad(r, "opcode", "a qp_post gives its opcode (or the WQE whole, hex)");
			return;
		}
		if (json_is_string(jop) && refdrv_qp_opcode_find(json_string_value(jop)) >= 0)
			op = (uint64_t)refdrv_qp_opcode_find(json_string_value(jop));
		else if (json_is_string(jop) && !strchr("0123456789", json_string_value(jop)[0])) {
			vbad(r, "opcode", "\"%s\" is not a QP opcode (NOP, SEND, SEND_IMM, RDMA_WRITE, "
					  "RDMA_WRITE_IMM, RDMA_READ) or a number",
			     json_string_value(jop));
			return;
		} else if (vnum_at(r, "opcode", jop, NS_NONE, 8, &op))
			return;
		const json_t *ra = json_object_get(s, "raddr"), *av = json_object_get(s, "av");
		if (is_rdma((unsigned)op) && !ra) {
			vbad(r, "raddr", "RDMA WRITE and READ carry the remote address (raddr)");
			return;
		}
		if (ra && is_named_nonrdma((unsigned)op)) {
			vbad(r, "raddr", "only RDMA WRITE and READ carry a remote address");
			return;
		}
		if (av && q->st != REFDRV_QP_ST_UD) {
			vbad(r, "av", "an address vector is a UD QP's (this QP is RC)");
			return;
		}
		uint64_t imm, raddr = 0;
		uint32_t rkey = 0;
		struct refdrv_qp_av a;
		if (vnum(r, s, "imm", NS_NONE, 32, 0, &imm) ||
		    (ra && raddr_values(r, ra, two, x, &raddr, &rkey)) ||
		    (q->st == REFDRV_QP_ST_UD && av_values(r, av, two, x, i, &a)))
			return;
		if (refdrv_wqe_begin(&w, (unsigned)op, pc, qpn) < 0 ||
		    (q->st == REFDRV_QP_ST_UD && refdrv_wqe_datagram(&w, &a) < 0) ||
		    (ra && refdrv_wqe_raddr(&w, raddr, rkey) < 0)) {
			vbad(r, NULL, "the WQE cannot be built: %s", w.error ? w.error : "?");
			return;
		}
		const json_t *data = json_object_get(s, "data");
		if (data && post_data(r, q, data, key, &w))
			return;
		struct refdrv_wqe_ctrl c = { .ce = 2 };
		if (refdrv_wqe_finish(&w, &c, false) != 0) {
			vbad(r, NULL, "the WQE cannot be built: %s", w.error ? w.error : "?");
			return;
		}
		refdrv_wqe_imm(&w, (uint32_t)imm);
		const json_t *ctrl = json_object_get(s, "ctrl");
		const struct nicref_layout *cl = nicref_layout_find("send_wqe_ctrl");
		if (ctrl && (!cl || vec_set_fields(r, "ctrl", cl, ctrl, w.b, 16, ns_none, NULL)))
			return;
	}
	size_t bbs = (w.len + 63) / 64;
	if (bbs > 1u << q->log_sq_size) {
		vbad(r, NULL, "the WQE takes %zu WQEBBs, more than the QP's SQ has (%u)", bbs,
		     1u << q->log_sq_size);
		return;
	}
	if (r->checking)
		return;
	if (refdrv_sq_post(r->drv, &qp->sq, &w, ring) != 0)
		vfail(r, "qp_post: %s", r->drv->error);
}

/* ---- qp_recv ---- */

void st_qp_recv(struct run *r, const json_t *s)
{
	struct vec_qpdev *q;
	unsigned i;
	if (step_qp(r, s, "a qp_recv", &q, &i))
		return;
	const json_t *list = json_object_get(s, "entries"), *e;
	struct refdrv_rx_sge sge[MAX_RECV_ENTRIES];
	size_t room = ((size_t)16 << q->log_rq_stride) / 16, k;
	uint64_t count;
	if (json_array_size(list) > room) {
		vbad(r, "entries", "%zu entries: the receive WQE of %u bytes holds %zu",
		     json_array_size(list), 16u << q->log_rq_stride, room);
		return;
	}
	if (num_le(r, NULL, s, "count", 32, 1, 1ull << q->log_rq_size, 1, &count))
		return;
	uint32_t key = r->checking ? 0 : q->stack->key;
	json_array_foreach(list, k, e)
	{
		char what[32];
		uint64_t off, bc, addr, lkey = key;
		const json_t *lk = json_object_get(e, "lkey");
		snprintf(what, sizeof what, "entries[%zu]", k);
		if (json_is_true(json_object_get(e, "null"))) {
			if (json_object_size(e) != 1) {
				vbad(r, what, "a Null entry (PRM §7.4.1.2) has no other key");
				return;
			}
			sge[k] = (struct refdrv_rx_sge){ .lkey = 0x100 };
			continue;
		}
		if (num_le(r, what, e, "byte_count", 31, 0, 0x7FFFFFFF, 256, &bc))
			return;
		if (json_object_get(e, "addr")) {
			if (json_object_get(e, "offset")) {
				vbad(r, what, "an entry gives offset (in the data region) or addr");
				return;
			}
			if (num_le(r, what, e, "addr", 64, 0, UINT64_MAX, 0, &addr))
				return;
		} else {
			if (num_le(r, what, e, "offset", 64, 0, q->data_size - 1, 0, &off))
				return;
			addr = q->data_addr + off;
		}
		if (lk && !(json_is_string(lk) && !strcmp(json_string_value(lk), "data"))) {
			char f[48];
			snprintf(f, sizeof f, "%s.lkey", what);
			if (vnum_at(r, f, lk, NS_NONE, 32, &lkey))
				return;
		}
		sge[k] = (struct refdrv_rx_sge){ .addr = addr, .lkey = (uint32_t)lkey,
						 .byte_count = (uint32_t)bc };
	}
	if (r->checking)
		return;
	struct refdrv_rq_ring *ring = &q->stack->qp[i].rq;
	for (uint64_t n = 0; n < count; n++)
		if (refdrv_rq_write(r->drv, ring, sge, (unsigned)json_array_size(list)) != 0) {
			vfail(r, "qp_recv: %s", r->drv->error);
			return;
		}
	if (!json_is_false(json_object_get(s, "record")) && refdrv_rq_record(r->drv, ring) != 0)
		vfail(r, "qp_recv: %s", r->drv->error);
}
