/* One receive stack for frames from the wire (harness/driver_rxstack.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_mkey.h"
#include "nicref/nicref.h"
#include "driver_steer.h"
#include "driver_vport.h"
#include "driver_wq.h"
#include "driver_rxstack.h"

#define RX_MKEY_TAG 0x4Cu

void refdrv_rx_stack_defaults(struct refdrv_rx_stack_attr *a)
{
	*a = (struct refdrv_rx_stack_attr){ .log_rq = 8,
					    .wqe_bytes = 65536 + 1024,
					    .log_cq = 10,
					    .promisc = true,
					    .flush_in_error_en = true,
					    .mem = 0x60000000ull,
					    .data = 0x100000000ull };
}

/* A step's outcome: 0, or -1 with d->error naming it. */
static int step(struct refdrv *d, const char *what, int st)
{
	if (st == 0)
		return 0;
	if (st > 0)
		snprintf(d->error, sizeof d->error, "%s: status 0x%x, syndrome 0x%08x", what,
			 (unsigned)st, (unsigned)d->last_syndrome);
	else {
		char why[sizeof d->error];
		memcpy(why, d->error, sizeof why);
		why[sizeof why - 64] = '\0'; /* room for the step's name */
		snprintf(d->error, sizeof d->error, "%.40s: %.96s", what, why);
	}
	return -1;
}

/* Every WQE of the ring from counter 0: slot i scatters into buffer i. The device never
 * writes a receive WQE, so once written the ring stays as it is: posting again (a recovery) is
 * the record alone (T24), as for a slot re-posted. */
static int post_all(struct refdrv *d, struct refdrv_rx_stack *s, bool written)
{
	s->ring.pc = 0;
	s->head = 0;
	memset(s->done, 0, sizeof s->done);
	if (written) {
		s->ring.pc = (uint16_t)(1u << s->a.log_rq);
		return refdrv_rq_record(d, &s->ring);
	}
	for (uint32_t i = 0; i < 1u << s->a.log_rq; i++) {
		struct refdrv_rx_sge e = { .addr = s->a.data + (uint64_t)i * s->a.wqe_bytes,
					   .lkey = s->lkey, .byte_count = s->a.wqe_bytes };
		if (refdrv_rq_post(d, &s->ring, &e, 1))
			return -1;
	}
	return 0;
}

int refdrv_rx_stack_up(struct refdrv *d, const struct refdrv_rx_stack_attr *a,
		       struct refdrv_rx_stack *s)
{
	memset(s, 0, sizeof *s);
	s->a = *a;
	if (a->log_rq > REFDRV_RX_MAX_LOG_RQ || a->wqe_bytes == 0) {
		snprintf(d->error, sizeof d->error, "rx stack: log_rq %u (at most %u), wqe_bytes %u",
			 a->log_rq, REFDRV_RX_MAX_LOG_RQ, a->wqe_bytes);
		return -1;
	}
	struct refdrv_sq_stack_attr sa;
	refdrv_sq_stack_defaults(&sa);
	if (refdrv_sq_stack_up(d, &sa, &s->sq))
		return -1;
	uint64_t nrq = 1ull << a->log_rq;
	struct refdrv_mkey_attr m = { .access_mode = 0, .pd = s->sq.pd, .tag = RX_MKEY_TAG,
				      .lw = true, .start_addr = a->data,
				      .len = nrq * a->wqe_bytes };
	if (step(d, "CREATE_MKEY", refdrv_create_mkey(d, &m, &s->mkey_index)))
		return -1;
	s->lkey = s->mkey_index << 8 | RX_MKEY_TAG;
	uint64_t cq_buf = a->mem, dbr = a->mem + (64ull << a->log_cq);
	uint64_t rq_buf = (dbr + 0x2000 + 0xFFF) & ~0xFFFull;
	struct refdrv_cq_attr ca = { .buf = cq_buf, .dbr = dbr, .log_cq_size = a->log_cq,
				     .uar = s->sq.uar, .eqn = s->sq.eq.eqn };
	if (step(d, "CREATE_CQ", refdrv_create_cq(d, &ca, &s->cq)))
		return -1;
	struct refdrv_wq_attr wq = { .buf = rq_buf, .dbr = dbr + 0x40, .wq_type = 1,
				     .log_wq_sz = a->log_rq, .log_wq_stride = 4, .pd = s->sq.pd };
	struct refdrv_rq_attr ra = { .wq = wq, .cqn = s->cq.cqn, .user_index = 1,
				     .flush_in_error_en = a->flush_in_error_en,
				     .vlan_strip_disable = a->vlan_strip_disable };
	if (step(d, "CREATE_RQ", refdrv_create_rq(d, &ra, &s->rqn)) ||
	    step(d, "MODIFY_RQ", refdrv_modify_rq(d, s->rqn, 0, 1)))
		return -1;
	s->ring = (struct refdrv_rq_ring){ .buf = rq_buf, .dbr = wq.dbr, .log_wq_sz = a->log_rq,
					   .log_wq_stride = 4, .qn = s->rqn };
	if (post_all(d, s, false))
		return -1;
	s->a.tir.indirect = false;
	s->a.tir.inline_rqn = s->rqn;
	s->a.tir.td = s->sq.td;
	if (step(d, "CREATE_TIR", refdrv_create_tir(d, &s->a.tir, &s->tirn)))
		return -1;
	if (a->promisc) {
		struct refdrv_nic_vport v = { .promisc_all = true };
		if (step(d, "MODIFY_NIC_VPORT_CONTEXT",
			 refdrv_modify_nic_vport_context(d, REFDRV_VPORT_PROMISC, &v)))
			return -1;
	}
	struct refdrv_fte e = { .action = 1u << 2, .ndest = 1 };
	if (step(d, "CREATE_FLOW_TABLE", refdrv_create_flow_table(d, 0, 0, 0, 0, 0, &s->ft)) ||
	    step(d, "CREATE_FLOW_GROUP",
		 refdrv_create_flow_group(d, 0, s->ft, 0, 0, 0, NULL, &s->fg)))
		return -1;
	e.group_id = s->fg;
	e.dest[0].type = 2; /* T433 TIR */
	e.dest[0].id = s->tirn;
	return step(d, "SET_FLOW_TABLE_ENTRY", refdrv_set_fte(d, 0, s->ft, 0, 0, 0, &e));
}

uint64_t refdrv_rx_stack_buf(const struct refdrv_rx_stack *s, uint16_t wqe_counter)
{
	uint32_t slot = wqe_counter & ((1u << s->a.log_rq) - 1);
	return s->a.data + (uint64_t)slot * s->a.wqe_bytes;
}

int refdrv_rx_stack_done(struct refdrv *d, struct refdrv_rx_stack *s, uint16_t wqe_counter)
{
	uint32_t mask = (1u << s->a.log_rq) - 1;
	uint16_t ahead = (uint16_t)(wqe_counter - s->head);
	if (ahead > mask)
		return 0; /* not a WQE the device holds (a flush of one already returned) */
	uint32_t slot = wqe_counter & mask;
	s->done[slot >> 3] |= (uint8_t)(1u << (slot & 7));
	bool moved = false;
	for (;;) {
		uint32_t h = s->head & mask;
		if (!(s->done[h >> 3] >> (h & 7) & 1))
			break;
		s->done[h >> 3] &= (uint8_t)~(1u << (h & 7));
		s->head++;
		moved = true;
	}
	if (!moved)
		return 0;
	s->ring.pc = (uint16_t)(s->head + mask + 1);
	return refdrv_rq_record(d, &s->ring);
}

int refdrv_rx_stack_stop(struct refdrv *d, struct refdrv_rx_stack *s)
{
	struct refdrv_wq_status st;
	if (step(d, "QUERY_RQ", refdrv_query_rq(d, s->rqn, &st)))
		return -1;
	if (st.state != 0 && step(d, "MODIFY_RQ", refdrv_modify_rq(d, s->rqn, st.state, 0)))
		return -1;
	return 0;
}

int refdrv_rx_stack_recover(struct refdrv *d, struct refdrv_rx_stack *s)
{
	if (refdrv_rx_stack_stop(d, s))
		return -1;
	if (refdrv_wq_dbr_write(d, s->ring.dbr, false, 0) ||
	    step(d, "MODIFY_RQ", refdrv_modify_rq(d, s->rqn, 0, 1)))
		return -1;
	return post_all(d, s, true);
}

int refdrv_rx_stack_modify_lro(struct refdrv *d, struct refdrv_rx_stack *s, unsigned enable_mask,
			       unsigned timeout_usecs, unsigned max_msg_sz)
{
	struct refdrv_tir_attr t = s->a.tir;
	t.lro_enable_mask = enable_mask;
	t.lro_timeout_usecs = timeout_usecs;
	t.lro_max_msg_sz = max_msg_sz;
	int st = refdrv_modify_tir(d, s->tirn, 1u, &t);
	if (st == 0)
		s->a.tir = t;
	return step(d, "MODIFY_TIR", st);
}

int refdrv_lro_caps_query(struct refdrv *d, struct refdrv_lro_caps *c)
{
	enum { OUT = 0x1010 };
	static const char L[] = "per_protocol_networking_offload_caps";
	uint8_t in[16] = { 0 }, *out = calloc(1, OUT);
	if (!out) {
		snprintf(d->error, sizeof d->error, "QUERY_HCA_CAP: out of memory");
		return -1;
	}
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode",
			 (uint64_t)refdrv_opcode("QUERY_HCA_CAP"));
	refdrv_field_set(in, sizeof in, "cmd_in", "op_mod", 1u << 1 | 1u); /* type 1, current */
	int st = refdrv_cmd(d, in, sizeof in, out, OUT);
	if (st == 0) {
		const uint8_t *cap = out + 0x10;
		c->lro_cap = refdrv_field_get(cap, 0x1000, L, "lro_cap");
		c->psh_flag = refdrv_field_get(cap, 0x1000, L, "lro_psh_flag");
		c->time_stamp = refdrv_field_get(cap, 0x1000, L, "lro_time_stamp");
		c->max_msg_sz_mode = (unsigned)refdrv_field_get(cap, 0x1000, L, "lro_max_msg_sz_mode");
		c->min_mss_size = (unsigned)refdrv_field_get(cap, 0x1000, L, "lro_min_mss_size");
		static const char *const pn[4] = {
			"lro_timer_supported_periods_0", "lro_timer_supported_periods_1",
			"lro_timer_supported_periods_2", "lro_timer_supported_periods_3"
		};
		for (unsigned i = 0; i < 4; i++)
			c->periods[i] = (uint32_t)refdrv_field_get(cap, 0x1000, L, pn[i]);
	}
	free(out);
	return step(d, "QUERY_HCA_CAP", st);
}

unsigned refdrv_lro_period(const struct refdrv_lro_caps *c, unsigned want)
{
	unsigned best = 0;
	for (unsigned i = 0; i < 4; i++)
		if (c->periods[i] <= want && c->periods[i] > best)
			best = c->periods[i];
	return best;
}
