/* The receive path of docs/vectors.md ("Receive path"): rx_setup builds a receive configuration
 * with the reference driver (harness/driver_rq.h, driver_wq.h, driver_tir.h, driver_steer.h):
 * its PD, transport domain, UAR, EQ, CQ, an MKey over a data region, RQs (on their own WQ or on
 * an RMP), an RQT, TIRs (Direct or Indirect with their hash) and, when asked, one NIC_RX flow
 * that sends every frame to some TIRs; rq_post posts receive WQEs; rx_frame hands a frame to a
 * port (nicref_wire_rx), given as hex or as a record of a small pcap beside the vector (read
 * through harness/capture.h). steer and flow_counters are in vectors_rx_steer.c.
 * The CQEs are read by the cqes step (vectors_tx.c, "cq": "rx"). Like every step, each checks
 * its value whole (r->checking) before it drives the device, with the same state both times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "driver_mkey.h"
#include "driver_sq.h"
#include "driver_steer.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "nicref/rx.h"
#include "vectors_rx_int.h"

void vec_rx_start(struct run *r)
{
	memset(&r->rx, 0, sizeof r->rx);
}

void vec_rx_free(struct run *r)
{
	free(r->rxs);
	r->rxs = NULL;
}

struct rx_stack *vec_rx_stack(struct run *r)
{
	if (!r->rxs)
		r->rxs = calloc(1, sizeof *r->rxs);
	return r->rxs;
}

/* ---- small readers ---- */

/* A number of obj under key, named "what.key" (or "key") in messages. */
int vec_rx_num_in(struct run *r, const char *what, const json_t *obj, const char *key,
		   unsigned bits, uint64_t dflt, uint64_t *out)
{
	char field[96];
	const json_t *v = json_object_get(obj, key);
	snprintf(field, sizeof field, "%s%s%s", what ? what : "", what ? "." : "", key);
	*out = dflt;
	return v ? vnum_at(r, field, v, NS_NONE, bits, out) : 0;
}

/* A number at most max. */
static int num_max(struct run *r, const char *what, const json_t *obj, const char *key,
		   uint64_t max, uint64_t dflt, uint64_t *out, const char *why)
{
	if (vec_rx_num_in(r, what, obj, key, 64, dflt, out))
		return -1;
	if (*out > max) {
		char field[96];
		snprintf(field, sizeof field, "%s%s%s", what ? what : "", what ? "." : "", key);
		vbad(r, field, "%llu: at most %llu (%s)", (unsigned long long)*out,
		     (unsigned long long)max, why);
		return -1;
	}
	return 0;
}

/* ---- rx_setup ---- */

/* A work queue's sizes (shared by the RQs and the RMP): 0, or -1 after vbad. */
static int wq_values(struct run *r, const char *what, const json_t *o, struct vec_rx_wq *q)
{
	uint64_t lsz, lst, sig, pad;
	if (num_max(r, what, o, "log_wq_sz", 16, 4, &lsz, "a 16-bit WQE counter, PRM T54") ||
	    vec_rx_num_in(r, what, o, "log_wq_stride", 64, 6, &lst) ||
	    vec_rx_num_in(r, what, o, "wq_signature", 1, 0, &sig) ||
	    num_max(r, what, o, "end_padding_mode", 3, 0, &pad, "PRM T55: 2 bits"))
		return -1;
	if (lst < 4 || lst > 12) {
		char f[96];
		snprintf(f, sizeof f, "%s.log_wq_stride", what);
		vbad(r, f, "%llu: a receive stride is 16 bytes to 4 KB here (PRM T55; the reference "
			   "driver's buffer)", (unsigned long long)lst);
		return -1;
	}
	if (lsz + lst > 20) {
		vbad(r, what, "2^log_wq_sz strides of 2^log_wq_stride bytes exceed the 1 MiB a queue "
			      "is given (docs/vectors.md \"Receive path\")");
		return -1;
	}
	q->log_wq_sz = (unsigned)lsz;
	q->log_stride = (unsigned)lst;
	q->signature = sig != 0;
	q->end_pad = (unsigned)pad;
	return 0;
}

static int rqs_values(struct run *r, const json_t *s)
{
	const json_t *rqs = json_object_get(s, "rqs"), *o;
	size_t i;
	if (json_array_size(rqs) > VEC_RX_MAX_RQS) {
		vbad(r, "rqs", "%zu RQs: at most %u", json_array_size(rqs), VEC_RX_MAX_RQS);
		return -1;
	}
	r->rx.nrq = rqs ? (unsigned)json_array_size(rqs) : 1;
	for (i = 0; i < r->rx.nrq; i++) {
		char what[32];
		uint64_t vsd, flush, on_rmp, ui, wqt;
		struct vec_rx_rq *q = &r->rx.rq[i];
		o = rqs ? json_array_get(rqs, i) : NULL;
		snprintf(what, sizeof what, "rqs[%zu]", i);
		if (wq_values(r, what, o, &q->wq) || vec_rx_num_in(r, what, o, "vsd", 1, 0, &vsd) ||
		    vec_rx_num_in(r, what, o, "flush_in_error_en", 1, 1, &flush) ||
		    vec_rx_num_in(r, what, o, "on_rmp", 1, 0, &on_rmp) ||
		    vec_rx_num_in(r, what, o, "wq_type", 1, 1, &wqt) ||
		    vec_rx_num_in(r, what, o, "user_index", 24, RX_USER_INDEX_BASE + i, &ui))
			return -1;
		q->linked = wqt == 0;
		q->vsd = vsd != 0;
		q->flush = flush != 0;
		q->on_rmp = on_rmp != 0;
		q->user_index = (uint32_t)ui;
		if (q->on_rmp && !r->rx.rmp) {
			vbad(r, what, "on_rmp: the rx_setup has no rmp");
			return -1;
		}
	}
	return 0;
}

/* An index into a list of n, named field. */
int vec_rx_index_in(struct run *r, const char *field, const json_t *v, unsigned n,
		    const char *list, uint64_t *out)
{
	if (vnum_at(r, field, v, NS_NONE, 64, out))
		return -1;
	if (*out >= n) {
		vbad(r, field, "%llu: the rx_setup has %u %s", (unsigned long long)*out, n, list);
		return -1;
	}
	return 0;
}

static int rqt_values(struct run *r, const json_t *s)
{
	const json_t *rqt = json_object_get(s, "rqt"), *v;
	const json_t *list = json_object_get(rqt, "rqs");
	size_t i;
	uint64_t max;
	if (!rqt)
		return 0;
	if (num_max(r, "rqt", rqt, "max_size", 256, 0, &max, "the runner's RQT")) /* T59 */
		return -1;
	if (json_array_size(list) == 0 || json_array_size(list) > max) {
		vbad(r, "rqt.rqs", "%zu entries: 1 to max_size (%llu) (PRM T59)",
		     json_array_size(list), (unsigned long long)max);
		return -1;
	}
	json_array_foreach(list, i, v)
	{
		char f[32];
		uint64_t k;
		snprintf(f, sizeof f, "rqt.rqs[%zu]", i);
		if (vec_rx_index_in(r, f, v, r->rx.nrq, "RQs", &k))
			return -1;
		r->rx.rqt[i] = (uint8_t)k;
	}
	r->rx.rqt_max = (unsigned)max;
	r->rx.rqt_n = (unsigned)json_array_size(list);
	return 0;
}

static int tirs_values(struct run *r, const json_t *s)
{
	const json_t *tirs = json_object_get(s, "tirs"), *o;
	size_t i;
	if (json_array_size(tirs) > VEC_RX_MAX_TIRS) {
		vbad(r, "tirs", "%zu TIRs: at most %u", json_array_size(tirs), VEC_RX_MAX_TIRS);
		return -1;
	}
	r->rx.ntir = tirs ? (unsigned)json_array_size(tirs) : 1;
	for (i = 0; i < r->rx.ntir; i++) {
		char what[32], f[48];
		struct vec_rx_tir *t = &r->rx.tir[i];
		uint64_t rq = 0, fn, sym, sel, lb;
		const json_t *key;
		o = tirs ? json_array_get(tirs, i) : NULL;
		snprintf(what, sizeof what, "tirs[%zu]", i);
		t->indirect = json_is_true(json_object_get(o, "indirect"));
		if (num_max(r, what, o, "hash_fn", 2, t->indirect ? 2 : 0, &fn, "PRM T45") ||
		    vec_rx_num_in(r, what, o, "symmetric", 1, 0, &sym) ||
		    vec_rx_num_in(r, what, o, "sel", 32, 0, &sel) ||
		    vec_rx_num_in(r, what, o, "self_lb_en", 2, 0, &lb))
			return -1;
		if (!t->indirect) {
			snprintf(f, sizeof f, "%s.rq", what);
			const json_t *v = json_object_get(o, "rq");
			if (v && vec_rx_index_in(r, f, v, r->rx.nrq, "RQs", &rq))
				return -1;
			if (json_object_get(o, "hash_fn") || json_object_get(o, "key") ||
			    json_object_get(o, "sel") || json_object_get(o, "symmetric")) {
				vbad(r, what, "a Direct TIR has no hash (PRM T45: the hash fields are "
					      "for disp_type INDIRECT): give \"indirect\": true");
				return -1;
			}
		} else {
			if (json_object_get(o, "rq")) {
				vbad(r, what, "an Indirect TIR takes the rqt, not an rq (PRM T45)");
				return -1;
			}
			if (!r->rx.rqt_n) {
				vbad(r, what, "an Indirect TIR needs the rx_setup's rqt");
				return -1;
			}
		}
		memset(t->key, 0, sizeof t->key);
		if ((key = json_object_get(o, "key")) != NULL) {
			snprintf(f, sizeof f, "%s.key", what);
			long n = vec_hex_bytes(r, f, key, 40, false);
			if (n < 0)
				return -1;
			if (n != 40) {
				vbad(r, f, "%ld bytes: the Toeplitz key is 40 (PRM T45 28h-4Fh)", n);
				return -1;
			}
			hex_parse(json_string_value(key), t->key, sizeof t->key);
		}
		/* T45 10h: LRO only when the TIR says so (docs/vectors.md "Large Receive
		 * Offload"). */
		t->lro = (struct vec_rx_lro){ 0, 0, 0 };
		if (json_object_get(o, "lro") &&
		    vec_rx_lro_values(r, what, json_object_get(o, "lro"), &t->lro))
			return -1;
		t->rq = (unsigned)rq;
		t->hash_fn = (unsigned)fn;
		t->symmetric = sym != 0;
		t->sel = (uint32_t)sel;
		t->self_lb_en = (unsigned)lb;
	}
	return 0;
}

/* The values of an rx_setup into r->rx: 0, or -1 after vbad. */
static int setup_values(struct run *r, const json_t *s)
{
	const json_t *data = json_object_get(s, "data"), *rmp = json_object_get(s, "rmp"), *td,
		     *all, *v;
	uint64_t lcq, csz, tag, wqt, lwm;
	size_t i;
	if (num_max(r, NULL, s, "log_cq_size", 16, 6, &lcq, "the reference driver initialises "
							      "every CQE, PRM §7.12.3.1") ||
	    vec_rx_num_in(r, NULL, s, "cqe_sz", 1, 0, &csz) ||
	    vec_rx_num_in(r, "data", data, "addr", 64, RX_DATA_ADDR, &r->rx.data_addr) ||
	    vec_rx_num_in(r, "data", data, "size", 64, RX_DATA_SIZE, &r->rx.data_size) ||
	    vec_rx_num_in(r, NULL, s, "flow_tag", 24, 0, &tag))
		return -1;
	r->rx.log_cq_size = (unsigned)lcq;
	r->rx.cqe_sz = (unsigned)csz;
	r->rx.flow_tag = (uint32_t)tag;
	if (r->rx.data_size == 0 || r->rx.data_size > (1ull << 30)) {
		vbad(r, "data.size", "the data region has 1 byte to 1 GiB");
		return -1;
	}
	if (vec_range_ok(r, "data.addr", r->rx.data_addr, r->rx.data_size))
		return -1;
	if (r->rx.data_addr < RX_RMP_BUF + RX_RQ_SPAN &&
	    r->rx.data_addr + r->rx.data_size > 0x30000000ull) {
		vbad(r, "data", "overlaps the queues' buffers at 0x30000000-0x340FFFFF "
				"(docs/vectors.md \"Receive path\")");
		return -1;
	}
	r->rx.rmp = rmp != NULL;
	if (rmp) {
		if (wq_values(r, "rmp", rmp, &r->rx.rmp_wq) ||
		    vec_rx_num_in(r, "rmp", rmp, "wq_type", 1, 1, &wqt) ||
		    vec_rx_num_in(r, "rmp", rmp, "lwm", 16, 0, &lwm))
			return -1;
		r->rx.rmp_linked = wqt == 0;
		r->rx.lwm = (unsigned)lwm;
	}
	if (rqs_values(r, s) || rqt_values(r, s) || tirs_values(r, s))
		return -1;
	td = json_object_get(s, "td");
	r->rx.td_tx = td && !strcmp(json_string_value(td), "tx");
	if (r->rx.td_tx && !r->tx.setup) {
		vbad(r, "td", "\"tx\": the send path's transport domain needs a tx_setup before");
		return -1;
	}
	all = json_object_get(s, "steer_all");
	r->rx.nall = (unsigned)json_array_size(all);
	json_array_foreach(all, i, v)
	{
		char f[32];
		uint64_t k;
		snprintf(f, sizeof f, "steer_all[%zu]", i);
		if (vec_rx_index_in(r, f, v, r->rx.ntir, "TIRs", &k))
			return -1;
		r->rx.all[i] = (uint8_t)k;
	}
	if (r->rx.nall > REFDRV_FTE_MAX_LIST) {
		vbad(r, "steer_all", "at most %u TIRs", REFDRV_FTE_MAX_LIST);
		return -1;
	}
	if (r->tx.stage != REFDRV_INITIALIZED) {
		vbad(r, NULL, "needs a bring_up to \"initialized\" before it (in the group's setup or "
			      "the test)");
		return -1;
	}
	if (r->rx.setup) {
		vbad(r, NULL, "the receive path is set up once a test: this is a second rx_setup");
		return -1;
	}
	return 0;
}

static int status_fail(struct run *r, const char *what, int st)
{
	if (st == 0)
		return 0;
	if (st < 0)
		vfail(r, "rx_setup: %s: %s", what, r->drv->error);
	else
		vfail(r, "rx_setup: %s: status 0x%x, syndrome 0x%08x", what, (unsigned)st,
		      (unsigned)r->drv->last_syndrome);
	return -1;
}

static int alloc_handle(struct refdrv *d, const char *op, const char *out_layout,
			const char *field, uint32_t *h)
{
	uint8_t in[16] = { 0 }, out[16] = { 0 };
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode", (uint64_t)nicref_opcode_find(op));
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*h = (uint32_t)refdrv_field_get(out, sizeof out, out_layout, field);
	return st;
}

static struct refdrv_wq_attr wq_attr(const struct vec_rx_wq *q, uint64_t buf, uint64_t dbr,
				     unsigned wq_type, uint32_t pd)
{
	return (struct refdrv_wq_attr){ .buf = buf,
					.dbr = dbr,
					.wq_type = wq_type,
					.log_wq_sz = q->log_wq_sz,
					.log_wq_stride = q->log_stride,
					.wq_signature = q->signature,
					.end_padding_mode = q->end_pad,
					.pd = pd };
}

/* The driver's steps of rx_setup, in order (docs/vectors.md). */
static int setup_run(struct run *r, struct rx_stack *x)
{
	struct refdrv *d = r->drv;
	const struct vec_rx *v = &r->rx;
	if (status_fail(r, "ALLOC_PD", alloc_handle(d, "ALLOC_PD", "alloc_pd_out", "pd", &x->pd)))
		return -1;
	if (v->td_tx)
		x->td = r->sq->td;
	else if (status_fail(r, "ALLOC_TRANSPORT_DOMAIN",
			     alloc_handle(d, "ALLOC_TRANSPORT_DOMAIN", "alloc_transport_domain_out",
					  "transport_domain", &x->td)))
		return -1;
	if (status_fail(r, "ALLOC_UAR", refdrv_alloc_uar(d, &x->uar)))
		return -1;
	/* tx_setup's event types (04h, 05h, 10h-13h) and the RMP limit event (14h, D-EV-1), which
	 * a driver that sets an RMP's lwm maps to its EQ. */
	struct refdrv_eq_attr ea = { .buf = RX_EQ_BUF, .log_eq_size = RX_EQ_LOG, .uar = x->uar,
				     .events = 0x30ull | 0x1Full << 16 };
	if (status_fail(r, "CREATE_EQ", refdrv_create_eq(d, &ea, &x->eq)))
		return -1;
	refdrv_eq_doorbell(d, &x->eq, true);
	struct refdrv_cq_attr ca = { .buf = RX_CQ_BUF, .dbr = RX_DBR, .log_cq_size = v->log_cq_size,
				     .cqe_sz = v->cqe_sz, .uar = x->uar, .eqn = x->eq.eqn };
	if (status_fail(r, "CREATE_CQ", refdrv_create_cq(d, &ca, &x->cq)))
		return -1;
	refdrv_cq_arm(d, &x->cq, false);
	struct refdrv_mkey_attr m = { .access_mode = 0, .pd = x->pd, .tag = RX_MKEY_TAG, .lw = true,
				      .start_addr = v->data_addr, .len = v->data_size };
	if (status_fail(r, "CREATE_MKEY", refdrv_create_mkey(d, &m, &x->mkey_index)))
		return -1;
	x->lkey = x->mkey_index << 8 | RX_MKEY_TAG;
	if (v->rmp) {
		struct refdrv_rmp_attr pa = {
			.wq = wq_attr(&v->rmp_wq, RX_RMP_BUF, RX_DBR + 0x1000, v->rmp_linked ? 0 : 1,
				      x->pd),
			.lwm = v->lwm
		};
		if (status_fail(r, "CREATE_RMP", refdrv_create_rmp(d, &pa, &x->rmpn)))
			return -1;
		x->rmp_ring = (struct refdrv_rq_ring){ .buf = RX_RMP_BUF,
						       .dbr = RX_DBR + 0x1000,
						       .log_wq_sz = v->rmp_wq.log_wq_sz,
						       .log_wq_stride = v->rmp_wq.log_stride,
						       .wq_signature = v->rmp_wq.signature,
						       .shared = true,
						       .linked = v->rmp_linked,
						       .ctrl_segment = true,
						       .qn = x->rmpn };
	}
	for (unsigned i = 0; i < v->nrq; i++) {
		const struct vec_rx_rq *q = &v->rq[i];
		uint64_t buf = RX_RQ_BUF + i * RX_RQ_SPAN, dbr = RX_DBR + 0x40ull * (i + 1);
		struct refdrv_rq_attr ra = { .wq = wq_attr(&q->wq, buf, dbr, q->linked ? 0 : 1, x->pd),
					     .cqn = x->cq.cqn,
					     .user_index = q->user_index,
					     .flush_in_error_en = q->flush,
					     .vlan_strip_disable = q->vsd };
		if (q->on_rmp) {
			ra.on_rmp = true;
			ra.rmpn = x->rmpn;
			ra.flush_in_error_en = false;
			memset(&ra.wq, 0, sizeof ra.wq);
		}
		if (status_fail(r, "CREATE_RQ", refdrv_create_rq(d, &ra, &x->rqn[i])) ||
		    status_fail(r, "MODIFY_RQ", refdrv_modify_rq(d, x->rqn[i], 0, 1)))
			return -1;
		x->ring[i] = (struct refdrv_rq_ring){ .buf = buf,
						      .dbr = dbr,
						      .log_wq_sz = q->wq.log_wq_sz,
						      .log_wq_stride = q->wq.log_stride,
						      .wq_signature = q->wq.signature,
						      .shared = q->linked, /* T42's next segment */
						      .linked = q->linked,
						      .qn = x->rqn[i] };
	}
	if (v->rqt_n) {
		uint32_t list[256];
		for (unsigned i = 0; i < v->rqt_n; i++)
			list[i] = x->rqn[v->rqt[i]];
		if (status_fail(r, "CREATE_RQT",
				refdrv_create_rqt(d, v->rqt_max, list, v->rqt_n, &x->rqtn)))
			return -1;
	}
	for (unsigned i = 0; i < v->ntir; i++) {
		const struct vec_rx_tir *t = &v->tir[i];
		struct refdrv_tir_attr ta = { .indirect = t->indirect,
					      .inline_rqn = x->rqn[t->rq],
					      .rqt = x->rqtn,
					      .hash_fn = t->hash_fn,
					      .symmetric = t->symmetric,
					      .toeplitz_key = t->key,
					      .sel_outer = t->sel,
					      .td = x->td,
					      .self_lb_en = t->self_lb_en,
					      .lro_enable_mask = t->lro.mask,
					      .lro_timeout_usecs = t->lro.timeout,
					      .lro_max_msg_sz = t->lro.max_msg_sz };
		if (status_fail(r, "CREATE_TIR", refdrv_create_tir(d, &ta, &x->tirn[i])))
			return -1;
	}
	if (v->nall) {
		uint32_t ft, fg;
		struct refdrv_fte e = { .action = 1u << 2, .flow_tag = v->flow_tag, .ndest = v->nall };
		if (status_fail(r, "CREATE_FLOW_TABLE",
				refdrv_create_flow_table(d, 0, 0, 0, 0, 0, &ft)) ||
		    status_fail(r, "CREATE_FLOW_GROUP",
				refdrv_create_flow_group(d, 0, ft, 0, 0, 0, NULL, &fg)))
			return -1;
		e.group_id = fg;
		for (unsigned i = 0; i < v->nall; i++) {
			e.dest[i].type = 2; /* T433 TIR */
			e.dest[i].id = x->tirn[v->all[i]];
		}
		if (status_fail(r, "SET_FLOW_TABLE_ENTRY", refdrv_set_fte(d, 0, ft, 0, 0, 0, &e)))
			return -1;
		x->all_ft = ft;
		x->all_live = true;
	}
	return 0;
}

void st_rx_setup(struct run *r, const json_t *s)
{
	if (setup_values(r, s) != 0)
		return;
	r->rx.setup = true;
	if (r->checking)
		return;
	if (!r->drv_live || r->drv->reached != REFDRV_INITIALIZED) {
		vfail(r, "rx_setup: the bring_up did not reach initialized");
		return;
	}
	if (r->rx.td_tx && !r->tx.up) {
		vfail(r, "rx_setup: td \"tx\": no send queue (the tx_setup failed)");
		return;
	}
	struct rx_stack *x = vec_rx_stack(r);
	if (!x) {
		vbad(r, NULL, "out of memory");
		return;
	}
	memset(x, 0, sizeof *x - sizeof x->frame);
	/* Like bring_up: the driver's commands and events are not the test's. */
	if (setup_run(r, x) == 0)
		r->rx.up = true;
	r->ev_cursor = r->nev;
}

/* Whether an rx_setup ran before the step `what` (else the vector is refused, or fails when the
 * setup failed). */
bool vec_rx_ready(struct run *r, const char *what)
{
	if (!r->rx.setup) {
		vbad(r, NULL, "%s needs an rx_setup before it (in the group's setup or the test)", what);
		return false;
	}
	if (!r->checking && !r->rx.up) {
		vfail(r, "%s: no receive configuration (the rx_setup failed)", what);
		return false;
	}
	return true;
}

struct refdrv_cq *vec_rx_cq(struct run *r)
{
	return r->rxs && r->rx.up ? &r->rxs->cq : NULL;
}

/* ---- rq_post ---- */

void st_rq_post(struct run *r, const json_t *s)
{
	const json_t *rq = json_object_get(s, "rq"), *list = json_object_get(s, "entries"), *e;
	struct refdrv_rx_sge sge[MAX_RX_ENTRIES];
	uint64_t qi = 0, count, sigv = 0;
	bool rmp = json_is_string(rq), record = !json_is_false(json_object_get(s, "record"));
	bool sig = json_object_get(s, "signature") != NULL;
	size_t i;
	if (!vec_rx_ready(r, "an rq_post"))
		return;
	if (rmp && strcmp(json_string_value(rq), "rmp") != 0) {
		vbad(r, "rq", "\"%s\": an RQ's index, or \"rmp\"", json_string_value(rq));
		return;
	}
	if (rmp && !r->rx.rmp) {
		vbad(r, "rq", "\"rmp\": the rx_setup has no rmp");
		return;
	}
	if (!rmp && rq && vec_rx_index_in(r, "rq", rq, r->rx.nrq, "RQs", &qi))
		return;
	if (!rmp && r->rx.rq[qi].on_rmp) {
		vbad(r, "rq", "RQ %llu takes its WQEs from the RMP (PRM §7.10): post to \"rmp\"",
		     (unsigned long long)qi);
		return;
	}
	if (num_max(r, NULL, s, "count", 65536, 1, &count, "one ring's worth of WQEs") ||
	    vec_rx_num_in(r, NULL, s, "signature", 8, 0, &sigv))
		return;
	const struct vec_rx_wq *wq = rmp ? &r->rx.rmp_wq : &r->rx.rq[qi].wq;
	if (sig && !wq->signature) {
		vbad(r, "signature", "the queue has no wq_signature (PRM T55): no byte to give");
		return;
	}
	/* T22 / T42: the signature or next segment first (an RMP's WQE always has it). */
	size_t room = ((size_t)1 << wq->log_stride) / 16 - (rmp || wq->signature ? 1 : 0);
	if (json_array_size(list) > room || json_array_size(list) > MAX_RX_ENTRIES) {
		vbad(r, "entries", "%zu entries: the stride of %u bytes holds %zu (PRM §7.4.4.1.5)",
		     json_array_size(list), 1u << wq->log_stride, room);
		return;
	}
	json_array_foreach(list, i, e)
	{
		char what[32];
		uint64_t off, bc, pad, addr, lkey = 0;
		const json_t *lk = json_object_get(e, "lkey");
		snprintf(what, sizeof what, "entries[%zu]", i);
		if (json_is_true(json_object_get(e, "null"))) {
			if (json_object_size(e) != 1) {
				vbad(r, what, "a Null entry (PRM §7.4.1.2) has no other key");
				return;
			}
			sge[i] = (struct refdrv_rx_sge){ .lkey = NULL_LKEY };
			continue;
		}
		if (vec_rx_num_in(r, what, e, "offset", 64, 0, &off) ||
		    vec_rx_num_in(r, what, e, "byte_count", 31, 0, &bc) ||
		    vec_rx_num_in(r, what, e, "start_padding", 1, 0, &pad))
			return;
		if (json_object_get(e, "addr")) {
			if (json_object_get(e, "offset")) {
				vbad(r, what, "an entry gives offset (in the data region) or addr");
				return;
			}
			if (vec_rx_num_in(r, what, e, "addr", 64, 0, &addr))
				return;
		} else {
			if (off >= r->rx.data_size) {
				char f[48];
				snprintf(f, sizeof f, "%s.offset", what);
				vbad(r, f, "0x%llx is past the data region (0x%llx bytes)",
				     (unsigned long long)off, (unsigned long long)r->rx.data_size);
				return;
			}
			addr = r->rx.data_addr + off;
		}
		bool data_key = !lk || (json_is_string(lk) && !strcmp(json_string_value(lk), "data"));
		if (!data_key) {
			char f[48];
			snprintf(f, sizeof f, "%s.lkey", what);
			if (vnum_at(r, f, lk, NS_NONE, 32, &lkey))
				return;
		}
		sge[i] = (struct refdrv_rx_sge){ .addr = addr,
						 .lkey = !data_key ? (uint32_t)lkey
								   : (r->checking ? 0 : r->rxs->lkey),
						 .byte_count = (uint32_t)bc,
						 .start_padding = pad != 0 };
	}
	if (r->checking)
		return;
	struct refdrv_rq_ring *ring = rmp ? &r->rxs->rmp_ring : &r->rxs->ring[qi];
	for (uint64_t k = 0; k < count; k++) {
		if (refdrv_rq_write(r->drv, ring, sge, (unsigned)json_array_size(list))) {
			vbad(r, NULL, "the WQE could not be written: %s", r->drv->error);
			return;
		}
		if (sig) { /* T23 / T43: the signature byte, 04h[31:24] of the first segment */
			uint32_t slot = (uint16_t)(ring->pc - 1u) & ((1u << ring->log_wq_sz) - 1u);
			uint8_t b = (uint8_t)sigv;
			if (vec_host_write(r, ring->buf + ((uint64_t)slot << ring->log_wq_stride) + 4,
					   &b, 1)) {
				vec_host_refused(r, "the signature");
				return;
			}
		}
	}
	if (record && refdrv_rq_record(r->drv, ring))
		vbad(r, NULL, "the doorbell record could not be written: %s", r->drv->error);
}

/* ---- rx_frame ---- */

/* Record `index` (0-based) of a capture at the vector file's folder, read through the one
 * capture reader (harness/capture.h): an Ethernet frame, whole (not cut by the snapshot
 * length); its length into *len and bytes into buf, or -1 after vbad. */
static long pcap_frame(struct run *r, const char *name, uint64_t index, uint8_t *buf, size_t cap)
{
	char path[1024], err[512];
	const char *slash = strrchr(r->file, '/');
	int dir = slash ? (int)(slash - r->file + 1) : 0;
	if (!*name || strchr(name, '/') || name[0] == '.') {
		vbad(r, "pcap", "\"%s\": a file name beside the vector (no folder)", name);
		return -1;
	}
	snprintf(path, sizeof path, "%.*s%s", dir, r->file, name);
	struct capture *c;
	if (capture_open(path, &c, err, sizeof err) != 0) {
		vbad(r, "pcap", "%s", err);
		return -1;
	}
	long n = -1;
	if (capture_link(c) != CAP_LINK_ETHERNET) {
		vbad(r, "pcap", "%s: link type %s, not Ethernet", path, cap_link_name(capture_link(c)));
		goto out;
	}
	struct cap_frame f;
	for (uint64_t k = 0;; k++) {
		int got = capture_next(c, &f, err, sizeof err);
		if (got < 0) {
			vbad(r, "pcap", "%s", err);
			goto out;
		}
		if (got == 0) {
			vbad(r, "index", "%llu: %s holds %llu frames", (unsigned long long)index, path,
			     (unsigned long long)k);
			goto out;
		}
		if (k < index)
			continue;
		if (f.caplen != f.wirelen || f.caplen == 0 || f.caplen > cap) {
			vbad(r, "pcap", "%s: record %llu of %u bytes captured of %u (whole, 1 to %zu)",
			     path, (unsigned long long)k, f.caplen, f.wirelen, cap);
			goto out;
		}
		memcpy(buf, f.data, f.caplen);
		n = (long)f.caplen;
		goto out;
	}
out:
	capture_close(c);
	return n;
}

void st_rx_frame(struct run *r, const json_t *s)
{
	static uint8_t check_buf[MAX_TX_FRAME];
	const json_t *hex = json_object_get(s, "hex"), *pcap = json_object_get(s, "pcap");
	uint64_t port, index;
	long n;
	if (vnum(r, s, "port", NS_NONE, 8, 1, &port) || vnum(r, s, "index", NS_NONE, 32, 0, &index))
		return;
	if (!hex == !pcap) {
		vbad(r, NULL, "a frame is given as hex or as a pcap record, one of the two");
		return;
	}
	if (json_object_get(s, "index") && !pcap) {
		vbad(r, "index", "names a record of a pcap: give pcap");
		return;
	}
	uint8_t *buf = r->checking || !vec_rx_stack(r) ? check_buf : r->rxs->frame;
	if (hex) {
		if ((n = vec_hex_bytes(r, "hex", hex, MAX_TX_FRAME, false)) < 0)
			return;
		hex_parse(json_string_value(hex), buf, MAX_TX_FRAME);
	} else if ((n = pcap_frame(r, json_string_value(pcap), index, buf, MAX_TX_FRAME)) < 0) {
		return;
	}
	if (r->checking)
		return;
	if (nicref_wire_rx(r->dev, (unsigned)port, buf, (size_t)n) != 0)
		vnote(r, "rx_frame: port %llu is not a port of the device: nothing happened",
		      (unsigned long long)port);
}
