/* The receive path's LRO steps (docs/vectors.md "Large Receive Offload"; PRM §3.3.6, T45, T48,
 * T57): a TIR's LRO group as rx_setup.tirs[].lro and modify_tir give it, DESTROY_TIR, and
 * MODIFY_RQ to a state. Each command is the test's (its events are in the trace) and is
 * compared with the status the step expects (default OK). */
#include <stdio.h>
#include <string.h>

#include "driver_steer.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "vectors_rx_int.h"

/* T48 modify_bitmask bit 0: the LRO group. */
#define TIR_MODIFY_LRO 1u

int vec_rx_lro_values(struct run *r, const char *what, const json_t *o, struct vec_rx_lro *l)
{
	char w[48];
	uint64_t mask, tmo, msz;
	snprintf(w, sizeof w, "%s.lro", what);
	/* T45 10h: lro_enable_mask 4 bits, lro_timeout_period_usecs 16, lro_max_msg_sz 8; the
	 * defaults enable both IP versions with a supported period (T147) and 16 KiB. */
	if (vec_rx_num_in(r, w, o, "enable_mask", 4, 3, &mask) ||
	    vec_rx_num_in(r, w, o, "timeout_usecs", 16, 32, &tmo) ||
	    vec_rx_num_in(r, w, o, "max_msg_sz", 8, 64, &msz))
		return -1;
	*l = (struct vec_rx_lro){ (unsigned)mask, (unsigned)tmo, (unsigned)msz };
	return 0;
}

/* The step's TIR index and status matcher: 0, or -1 after vbad. */
static int tir_values(struct run *r, const char *what, const json_t *s, uint64_t *tir)
{
	if (!vec_rx_ready(r, what))
		return -1;
	const json_t *st = json_object_get(s, "status");
	if (st && cmp_check(r, "status", st, NS_STATUS, 8))
		return -1;
	return vec_rx_index_in(r, "tir", json_object_get(s, "tir"), r->rx.ntir, "TIRs", tir);
}

void st_modify_tir(struct run *r, const json_t *s)
{
	uint64_t tir;
	struct vec_rx_lro l;
	if (tir_values(r, "modify_tir", s, &tir) ||
	    vec_rx_lro_values(r, "modify_tir", json_object_get(s, "lro"), &l) || r->checking)
		return;
	/* T48 bit 0 with the group's three fields; with LRO off the other two stay unwritten
	 * (T45 10h: reserved when LRO is disabled). */
	struct refdrv_tir_attr a = { .lro_enable_mask = l.mask, .lro_timeout_usecs = l.timeout,
				     .lro_max_msg_sz = l.max_msg_sz };
	int st = refdrv_modify_tir(r->drv, r->rxs->tirn[tir], TIR_MODIFY_LRO, &a);
	vec_rx_status(r, "modify_tir: MODIFY_TIR", s, st);
}

void st_destroy_tir(struct run *r, const json_t *s)
{
	uint64_t tir;
	if (tir_values(r, "destroy_tir", s, &tir) || r->checking)
		return;
	struct rx_stack *x = r->rxs;
	/* D-TIR-1: a TIR a flow entry forwards to is not destroyed; the rx_setup's steer_all
	 * entry goes first when it names this TIR. */
	bool named = false;
	for (unsigned i = 0; i < r->rx.nall; i++)
		named |= r->rx.all[i] == tir;
	if (named && x->all_live) {
		int st = refdrv_delete_fte(r->drv, 0, x->all_ft, 0);
		vec_rx_status(r, "destroy_tir: DELETE_FLOW_TABLE_ENTRY (steer_all)", NULL, st);
		if (st != 0)
			return;
		x->all_live = false;
	}
	int st = refdrv_destroy_tir(r->drv, x->tirn[tir]);
	vec_rx_status(r, "destroy_tir: DESTROY_TIR", s, st);
}

/* T57 states by name. */
static const struct {
	const char *name;
	unsigned state;
} rq_states[] = { { "RST", 0 }, { "RDY", 1 }, { "ERR", 3 } };

void st_rq_state(struct run *r, const json_t *s)
{
	uint64_t rq;
	const char *to = json_string_value(json_object_get(s, "to"));
	size_t k = 0, n = sizeof rq_states / sizeof rq_states[0];
	while (to && k < n && strcmp(rq_states[k].name, to) != 0)
		k++;
	if (!vec_rx_ready(r, "rq_state") ||
	    vec_rx_index_in(r, "rq", json_object_get(s, "rq"), r->rx.nrq, "RQs", &rq))
		return;
	if (k == n) {
		vbad(r, "to", "\"RST\", \"RDY\" or \"ERR\" (PRM T57)");
		return;
	}
	const json_t *want = json_object_get(s, "status");
	if ((want && cmp_check(r, "status", want, NS_STATUS, 8)) || r->checking)
		return;
	struct rx_stack *x = r->rxs;
	struct refdrv_wq_status q;
	int st = refdrv_query_rq(r->drv, x->rqn[rq], &q);
	if (st != 0) {
		vec_rx_status(r, "rq_state: QUERY_RQ", NULL, st);
		return;
	}
	st = refdrv_modify_rq(r->drv, x->rqn[rq], q.state, rq_states[k].state);
	vec_rx_status(r, "rq_state: MODIFY_RQ", s, st);
	if (st == 0 && rq_states[k].state == 0 && !r->rx.rq[rq].on_rmp) {
		/* T57: software zeroes the doorbell record before RST2RDY; the queue starts over. */
		x->ring[rq].pc = 0;
		if (refdrv_rq_record(r->drv, &x->ring[rq]) != 0)
			vfail(r, "rq_state: the doorbell record: %s", r->drv->error);
	}
}
