/* The QP state machine: RST2INIT, INIT2INIT, INIT2RTR, RTR2RTS, RTS2RTS, SQERR2RTS, SQD_RTS,
 * 2ERR and 2RST (issue 17 stage 1; beyond PRM Rev 0.40, docs/roce.md "States" and "Attributes
 * per transition"). Sources: [IFC] Linux include/linux/mlx5/mlx5_ifc.h (the commands and the
 * qpc), [QPH] include/linux/mlx5/qp.h (enum mlx5_qp_optpar), [MLX5IB]
 * drivers/infiniband/hw/mlx5/qp.c (opt_mask[cur][new][st], optab), [IBTA] IB Architecture
 * Spec. Vol. 1 §10.3 (states), §11.2.4.2 (Modify QP: required and optional attributes, as
 * Linux drivers/infiniband/core/verbs.c qp_state_table lists them). */
#include <string.h>

#include "cmd/cmd_table.h"

/* [QPH] enum mlx5_qp_optpar: the opt_param_mask bits. */
enum {
	OPT_ALT_ADDR_PATH = 1u << 0,
	OPT_RRE = 1u << 1,
	OPT_RAE = 1u << 2,
	OPT_RWE = 1u << 3,
	OPT_PKEY_INDEX = 1u << 4,
	OPT_Q_KEY = 1u << 5,
	OPT_RNR_TIMEOUT = 1u << 6,
	OPT_PRIMARY_ADDR_PATH = 1u << 7,
	OPT_SRA_MAX = 1u << 8,
	OPT_RRA_MAX = 1u << 9,
	OPT_PM_STATE = 1u << 10,
	OPT_RETRY_COUNT = 1u << 12,
	OPT_RNR_RETRY = 1u << 13,
	OPT_ACK_TIMEOUT = 1u << 14,
	OPT_PRI_PORT = 1u << 16,
	OPT_SRQN = 1u << 18,
	OPT_CQN_RCV = 1u << 19,
};

/* The attributes of a transition, as groups of qpc fields. The optional ones share their
 * opt_param_mask bit; the required ones ([IBTA] §11.2.4.2) have a bit of their own above the
 * mask's 32 (mlx5 carries them always, D-QP-7). */
#define REQ_MTU (1ull << 32)      /* path MTU: mtu, log_msg_max */
#define REQ_DEST_QPN (1ull << 33) /* remote_qpn */
#define REQ_RQ_PSN (1ull << 34)   /* next_rcv_psn */
#define REQ_SQ_PSN (1ull << 35)   /* next_send_psn */
#define REQ_ACCESS_RC (OPT_RRE | OPT_RWE | OPT_RAE)

/* The qpc fields each attribute takes. */
static const struct attr_fields {
	uint64_t bit;
	unsigned first, last; /* PRMF_qpc__ range, both included */
} attr_fields[] = {
	{ OPT_ALT_ADDR_PATH, PRMF_qpc__secondary_address_path_fl,
	  PRMF_qpc__secondary_address_path_rmac_31_0 },
	{ OPT_RRE, PRMF_qpc__rre, PRMF_qpc__rre },
	{ OPT_RAE, PRMF_qpc__rae, PRMF_qpc__rae },
	{ OPT_RWE, PRMF_qpc__rwe, PRMF_qpc__rwe },
	{ OPT_PKEY_INDEX, PRMF_qpc__primary_address_path_pkey_index,
	  PRMF_qpc__primary_address_path_pkey_index },
	{ OPT_Q_KEY, PRMF_qpc__q_key, PRMF_qpc__q_key },
	{ OPT_RNR_TIMEOUT, PRMF_qpc__min_rnr_nak, PRMF_qpc__min_rnr_nak },
	/* The primary path but the pkey_index, the ack_timeout and the port, which have bits of
	 * their own. */
	{ OPT_PRIMARY_ADDR_PATH, PRMF_qpc__primary_address_path_fl,
	  PRMF_qpc__primary_address_path_free_ar },
	{ OPT_PRIMARY_ADDR_PATH, PRMF_qpc__primary_address_path_grh,
	  PRMF_qpc__primary_address_path_rlid },
	{ OPT_PRIMARY_ADDR_PATH, PRMF_qpc__primary_address_path_src_addr_index,
	  PRMF_qpc__primary_address_path_sl },
	{ OPT_PRIMARY_ADDR_PATH, PRMF_qpc__primary_address_path_rmac_47_32,
	  PRMF_qpc__primary_address_path_rmac_31_0 },
	{ OPT_SRA_MAX, PRMF_qpc__log_sra_max, PRMF_qpc__log_sra_max },
	{ OPT_RRA_MAX, PRMF_qpc__log_rra_max, PRMF_qpc__log_rra_max },
	{ OPT_PM_STATE, PRMF_qpc__pm_state, PRMF_qpc__pm_state },
	{ OPT_RETRY_COUNT, PRMF_qpc__retry_count, PRMF_qpc__retry_count },
	{ OPT_RNR_RETRY, PRMF_qpc__rnr_retry, PRMF_qpc__rnr_retry },
	{ OPT_ACK_TIMEOUT, PRMF_qpc__primary_address_path_ack_timeout,
	  PRMF_qpc__primary_address_path_ack_timeout },
	{ OPT_PRI_PORT, PRMF_qpc__primary_address_path_vhca_port_num,
	  PRMF_qpc__primary_address_path_vhca_port_num },
	{ OPT_SRQN, PRMF_qpc__srqn_rmpn_xrqn, PRMF_qpc__srqn_rmpn_xrqn },
	{ OPT_CQN_RCV, PRMF_qpc__cqn_rcv, PRMF_qpc__cqn_rcv },
	{ REQ_MTU, PRMF_qpc__mtu, PRMF_qpc__log_msg_max },
	{ REQ_DEST_QPN, PRMF_qpc__remote_qpn, PRMF_qpc__remote_qpn },
	{ REQ_RQ_PSN, PRMF_qpc__next_rcv_psn, PRMF_qpc__next_rcv_psn },
	{ REQ_SQ_PSN, PRMF_qpc__next_send_psn, PRMF_qpc__next_send_psn },
};
#define NATTR (sizeof attr_fields / sizeof attr_fields[0])

/* Required ([IBTA] §11.2.4.2, verbs.c qp_state_table req_param) and optional ([MLX5IB]
 * opt_mask) attributes of one transition, per service type RC, UC, UD. */
struct trans_attrs {
	uint64_t req[3];
	uint32_t opt[3];
};
#define ST_INDEX(st) ((st) == QP_ST_RC ? 0 : (st) == QP_ST_UC ? 1 : 2)

/* X(command, handler, from, to, input layout,
 *   required RC, UC, UD, optional RC, UC, UD) */
#define QP_TRANSITIONS(X)                                                                       \
	/* RESET->INIT: P_Key index, port, and the access flags (RC, UC) or the Q_Key (UD). */  \
	X(RST2INIT, cmd_rst2init_qp, QP_RST, QP_INIT, rst2init_qp_in,                           \
	  OPT_PKEY_INDEX | OPT_PRI_PORT | REQ_ACCESS_RC, OPT_PKEY_INDEX | OPT_PRI_PORT | OPT_RWE, \
	  OPT_PKEY_INDEX | OPT_PRI_PORT | OPT_Q_KEY, 0, 0, 0)                                    \
	X(INIT2INIT, cmd_init2init_qp, QP_INIT, QP_INIT, init2init_qp_in, 0, 0, 0,              \
	  OPT_RRE | OPT_RAE | OPT_RWE | OPT_PKEY_INDEX | OPT_PRI_PORT,                          \
	  OPT_RWE | OPT_PKEY_INDEX | OPT_PRI_PORT, OPT_PKEY_INDEX | OPT_Q_KEY | OPT_PRI_PORT)    \
	/* INIT->RTR RC: AV, path MTU, destination QPN, RQ PSN, responder resources, minimum     \
	 * RNR timer; UC: the first four; UD: none. */                                          \
	X(INIT2RTR, cmd_init2rtr_qp, QP_INIT, QP_RTR, init2rtr_qp_in,                           \
	  OPT_PRIMARY_ADDR_PATH | REQ_MTU | REQ_DEST_QPN | REQ_RQ_PSN | OPT_RRA_MAX |           \
		  OPT_RNR_TIMEOUT,                                                              \
	  OPT_PRIMARY_ADDR_PATH | REQ_MTU | REQ_DEST_QPN | REQ_RQ_PSN, 0,                       \
	  OPT_ALT_ADDR_PATH | OPT_RRE | OPT_RAE | OPT_RWE | OPT_PKEY_INDEX,                     \
	  OPT_ALT_ADDR_PATH | OPT_RWE | OPT_PKEY_INDEX, OPT_PKEY_INDEX | OPT_Q_KEY)              \
	/* RTR->RTS RC: timeout, retry count, RNR retry, SQ PSN, initiator depth; UC, UD: SQ    \
	 * PSN. */                                                                              \
	X(RTR2RTS, cmd_rtr2rts_qp, QP_RTR, QP_RTS, rtr2rts_qp_in,                               \
	  OPT_ACK_TIMEOUT | OPT_RETRY_COUNT | OPT_RNR_RETRY | REQ_SQ_PSN | OPT_SRA_MAX,         \
	  REQ_SQ_PSN, REQ_SQ_PSN,                                                               \
	  OPT_ALT_ADDR_PATH | OPT_RRE | OPT_RAE | OPT_RWE | OPT_PM_STATE | OPT_RNR_TIMEOUT,     \
	  OPT_ALT_ADDR_PATH | OPT_RWE | OPT_PM_STATE, OPT_Q_KEY)                                 \
	/* RTS->RTS UD: SRQN and CQN_RCV move the QP's references (D-QP-16). */                 \
	X(RTS2RTS, cmd_rts2rts_qp, QP_RTS, QP_RTS, rts2rts_qp_in, 0, 0, 0,                      \
	  OPT_RRE | OPT_RAE | OPT_RWE | OPT_RNR_TIMEOUT | OPT_PM_STATE | OPT_ALT_ADDR_PATH,      \
	  OPT_RWE | OPT_PM_STATE | OPT_ALT_ADDR_PATH, OPT_Q_KEY | OPT_SRQN | OPT_CQN_RCV)        \
	X(SQERR2RTS, cmd_sqerr2rts_qp, QP_SQER, QP_RTS, sqerr2rts_qp_in, 0, 0, 0,               \
	  OPT_RNR_TIMEOUT | OPT_RWE | OPT_RAE | OPT_RRE, OPT_RWE, OPT_Q_KEY)                     \
	/* [MLX5IB] opt_mask has no SQD->RTS row: nothing optional. */                          \
	X(SQD_RTS, cmd_sqd2rts_qp, QP_SQD, QP_RTS, sqd2rts_qp_in, 0, 0, 0, 0, 0, 0)

struct transition {
	uint8_t from, to;
	const struct nicref_layout *in;
	struct trans_attrs a;
};

enum {
#define TRANS_ENUM(id, fn, from, to, lin, r0, r1, r2, o0, o1, o2) TRANS_##id,
	QP_TRANSITIONS(TRANS_ENUM)
#undef TRANS_ENUM
};

static const struct transition transitions[] = {
#define TRANS_ROW(id, fn, from, to, lin, r0, r1, r2, o0, o1, o2)                                \
	{ from, to, &nicref_layout_##lin, { { r0, r1, r2 }, { o0, o1, o2 } } },
	QP_TRANSITIONS(TRANS_ROW)
#undef TRANS_ROW
};

static void take_attrs(struct qp *q, const uint8_t *qpc, size_t len, uint64_t attrs)
{
	for (size_t k = 0; k < NATTR; k++)
		if (attrs & attr_fields[k].bit)
			for (unsigned i = attr_fields[k].first; i <= attr_fields[k].last; i++)
				qp_copy_field(q->ctx, qpc, len, i);
}

/* The P_Key table of a RoCE port has one entry (D-QP-9). */
#define PKEY_TABLE_SIZE 1u
/* IB MTU encoding: 1 = 256 ... 5 = 4096 ([IBTA] §9.7.5 / the PathMTU field). */
#define MTU_MIN 1u
#define MTU_MAX 5u

/* The values of what the transition takes that can be invalid (D-QP-7). */
static enum nicref_cmd_rule check_values(struct cmd_ctx *c, const struct qp *q, uint64_t attrs,
					 const uint8_t *qpc, size_t len)
{
	struct nicref_dev *dev = c->dev;
	if (attrs & OPT_PRI_PORT) {
		uint64_t port = PRM_GET(qpc, primary_address_path_vhca_port_num, qpc, len);
		if (port == 0 || port > CAPS_CUR(dev, CAP_GENERAL, hca_cap, num_ports))
			return NICREF_RULE_QP_PORT_BAD;
	}
	if ((attrs & OPT_PKEY_INDEX) &&
	    PRM_GET(qpc, primary_address_path_pkey_index, qpc, len) >= PKEY_TABLE_SIZE)
		return NICREF_RULE_QP_PKEY_INDEX_BAD;
	if (attrs & REQ_MTU) {
		uint64_t mtu = PRM_GET(qpc, mtu, qpc, len);
		if (mtu < MTU_MIN || mtu > MTU_MAX)
			return NICREF_RULE_QP_MTU_BAD;
	}
	if (attrs & OPT_PRIMARY_ADDR_PATH) {
		/* RoCE carries a GRH: the path's source GID must be a set entry of the port's
		 * table (the port the QP took at RST2INIT). */
		unsigned port = (unsigned)PRM_GET(qpc, primary_address_path_vhca_port_num, q->ctx,
						  QP_CTX_BYTES);
		unsigned index = (unsigned)PRM_GET(qpc, primary_address_path_src_addr_index, qpc, len);
		static const uint8_t zero[ROCE_ADDR_BYTES];
		const uint8_t *e = roce_addr_entry(dev, port, index);
		if (!e || memcmp(e, zero, sizeof zero) == 0)
			return NICREF_RULE_QP_SGID_BAD;
	}
	/* seed004: RC offers Send and Write only ([S004] L33-37): no remote READ or atomics
	 * (D-QP-14). */
	if (dev->core.cfg.profile.roce_profile == ROCE_PROFILE_SEED004 &&
	    (((attrs & OPT_RRE) && PRM_GET(qpc, rre, qpc, len)) ||
	     ((attrs & OPT_RAE) && PRM_GET(qpc, rae, qpc, len))))
		return NICREF_RULE_QP_REMOTE_ACCESS_UNSUPPORTED;
	/* D-QP-16: a new receive CQ or RMP must exist; an RMP only for a QP on one (rq_type 1). */
	enum nicref_cmd_rule r = NICREF_RULE_NONE;
	if ((attrs & OPT_CQN_RCV) &&
	    !obj_find(dev, OBJ_CQ, (uint32_t)PRM_GET(qpc, cqn_rcv, qpc, len),
		      NICREF_RULE_QP_CQ_OUT_OF_RANGE, NICREF_RULE_QP_CQ_MISSING, &r))
		return r; /* D-OBJ-2: BAD_INDEX beyond the table */
	if (attrs & OPT_SRQN) {
		if (!(q->holds & QP_HOLDS_RMP))
			return NICREF_RULE_QP_OPT_PARAM_BAD;
		(void)obj_find(dev, OBJ_RMP, (uint32_t)PRM_GET(qpc, srqn_rmpn_xrqn, qpc, len),
			       NICREF_RULE_QP_RMP_OUT_OF_RANGE, NICREF_RULE_QP_RMP_MISSING, &r);
	}
	return r;
}

/* D-QP-16: the references follow the new receive CQ and RMP (checked above). */
static void move_refs(struct nicref_dev *dev, struct qp *q, uint64_t attrs)
{
	if (attrs & OPT_CQN_RCV) {
		if (q->holds & QP_HOLDS_CQ_RCV)
			qp_unref(dev, OBJ_CQ, q->cqn_rcv);
		q->cqn_rcv = (uint32_t)PRM_GET(qpc, cqn_rcv, q->ctx, QP_CTX_BYTES);
		q->holds |= QP_HOLDS_CQ_RCV;
		qp_ref(dev, OBJ_CQ, q->cqn_rcv);
	}
	if (attrs & OPT_SRQN) {
		qp_unref(dev, OBJ_RMP, q->rmpn);
		q->rmpn = (uint32_t)PRM_GET(qpc, srqn_rmpn_xrqn, q->ctx, QP_CTX_BYTES);
		qp_ref(dev, OBJ_RMP, q->rmpn);
	}
}

static enum nicref_cmd_rule run_transition(struct cmd_ctx *c, unsigned t)
{
	const struct transition *tr = &transitions[t];
	/* The qpn, opt_param_mask and qpc sit at the same place in every transition's input
	 * ([IFC] rst2init_qp_in and its siblings). */
	enum nicref_cmd_rule r;
	struct qp *q = qp_named(c->dev, (uint32_t)PRM_GET(rst2init_qp_in, qpn, c->in, c->in_len),
				&r);
	if (!q)
		return r;
	/* [IBTA] §10.3.1, [MLX5IB] optab: each command moves one source state (D-QP-4). */
	if (q->state != tr->from)
		return NICREF_RULE_QP_STATE_MISMATCH;
	unsigned s = ST_INDEX(q->st);
	uint32_t mask = (uint32_t)PRM_GET(rst2init_qp_in, opt_param_mask, c->in, c->in_len);
	/* D-QP-8: a bit [MLX5IB] opt_mask does not allow for this transition and type. */
	if (mask & ~tr->a.opt[s])
		return NICREF_RULE_QP_OPT_PARAM_BAD;
	uint64_t attrs = tr->a.req[s] | mask;
	const uint8_t *qpc = c->in + QP_CTX_OFF;
	size_t len = c->in_len - QP_CTX_OFF;
	r = check_values(c, q, attrs, qpc, len);
	if (r != NICREF_RULE_NONE)
		return r;
	take_attrs(q, qpc, len, attrs);
	move_refs(c->dev, q, attrs);
	uint8_t from = q->state;
	q->state = tr->to;
	PRM_SET(qpc, state, q->ctx, QP_CTX_BYTES, tr->to);
	qp_state_changed(c->dev, q, from);
	return NICREF_RULE_NONE;
}

#define TRANS_HANDLER(id, fn, from, to, lin, r0, r1, r2, o0, o1, o2)                            \
	enum nicref_cmd_rule fn(struct cmd_ctx *c)                                              \
	{                                                                                       \
		return run_transition(c, TRANS_##id);                                           \
	}
QP_TRANSITIONS(TRANS_HANDLER)
#undef TRANS_HANDLER

/* 2ERR and 2RST: from any state ([IBTA] §10.3.1: "any state" -> Error, -> Reset; [MLX5IB]
 * optab has both in every row). D-QP-11: the context is kept. */
static enum nicref_cmd_rule to_state(struct cmd_ctx *c, uint8_t to)
{
	enum nicref_cmd_rule r;
	struct qp *q = qp_named(c->dev, (uint32_t)PRM_GET(qp_2err_in, qpn, c->in, c->in_len), &r);
	if (!q)
		return r;
	uint8_t from = q->state;
	q->state = to;
	PRM_SET(qpc, state, q->ctx, QP_CTX_BYTES, to);
	qp_state_changed(c->dev, q, from);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_qp_2err(struct cmd_ctx *c)
{
	return to_state(c, QP_ERR);
}

enum nicref_cmd_rule cmd_qp_2rst(struct cmd_ctx *c)
{
	return to_state(c, QP_RST);
}
