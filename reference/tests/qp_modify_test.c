/* The QP state machine and its per-transition attributes (issue 17 stage 1, docs/roce.md
 * "States", "Attributes per transition"; D-QP-4, D-QP-7, D-QP-8, D-QP-9, D-QP-11, D-QP-14).
 * opt_param_mask bits: Linux include/linux/mlx5/qp.h enum mlx5_qp_optpar. */
#include "cmd/ctl_dev.h"
#include "qp_util.h"

enum {
	OPT_ALT_ADDR_PATH = 1u << 0,
	OPT_RRE = 1u << 1,
	OPT_RWE = 1u << 3,
	OPT_PKEY_INDEX = 1u << 4,
	OPT_Q_KEY = 1u << 5,
	OPT_RNR_TIMEOUT = 1u << 6,
	OPT_PRIMARY_ADDR_PATH = 1u << 7,
	OPT_RETRY_COUNT = 1u << 12,
	OPT_PRI_PORT = 1u << 16,
	OPT_SRQN = 1u << 18,
};

static int rst2init(struct qt *q, uint32_t qpn, uint32_t opt, unsigned port, unsigned pkey)
{
	struct qt_field f[] = { { "primary_address_path_vhca_port_num", port },
				{ "primary_address_path_pkey_index", pkey },
				{ "rwe", 1 },
				{ "q_key", 0x11111111 },
				{ NULL, 0 } };
	return qt_modify(q, "rst2init_qp_in", "RST2INIT_QP", qpn, opt, f);
}

static int init2rtr(struct qt *q, uint32_t qpn, uint32_t opt, unsigned mtu, unsigned sgid)
{
	struct qt_field f[] = { { "mtu", mtu },
				{ "remote_qpn", 0x00ABCD },
				{ "next_rcv_psn", 0x123456 },
				{ "min_rnr_nak", 12 },
				{ "log_rra_max", 2 },
				{ "primary_address_path_src_addr_index", sgid },
				{ "primary_address_path_hop_limit", 64 },
				{ "primary_address_path_rmac_31_0", 0x11223344 },
				{ NULL, 0 } };
	return qt_modify(q, "init2rtr_qp_in", "INIT2RTR_QP", qpn, opt, f);
}

static int rtr2rts(struct qt *q, uint32_t qpn, uint32_t opt)
{
	struct qt_field f[] = { { "next_send_psn", 0xFFFFFE },
				{ "primary_address_path_ack_timeout", 14 },
				{ "retry_count", 7 },
				{ "rnr_retry", 6 },
				{ "log_sra_max", 3 },
				{ "q_key", 0x22222222 },
				{ NULL, 0 } };
	return qt_modify(q, "rtr2rts_qp_in", "RTR2RTS_QP", qpn, opt, f);
}

/* An RC QP through RST -> INIT -> RTR -> RTS: each transition takes its required attributes
 * ([IBTA] §11.2.4.2) and QUERY_QP shows them; a field the transition neither requires nor
 * selects is not taken (q_key of an RC QP). */
Test(qp_modify, rc_to_rts_takes_the_required_attributes)
{
	struct qt q = qt_up(NULL);
	cr_assert_eq(qt_set_gid(&q, 3, 1, 0x10, 2, 0), 0);
	uint32_t qpn = qt_qp(&q, QT_RC);
	cr_assert_eq(rst2init(&q, qpn, 0, 1, 0), 0);
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_INIT);
	cr_expect_eq(qt_ctx(&q, "primary_address_path_vhca_port_num"), 1);
	cr_expect_eq(qt_ctx(&q, "rwe"), 1, "access flags required for RC");
	cr_expect_eq(qt_ctx(&q, "q_key"), 0, "no Q_Key for RC");
	cr_assert_eq(init2rtr(&q, qpn, 0, 5, 3), 0, "rule %s", tl_rule_of(q.t->d.last_syndrome));
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_RTR);
	cr_expect_eq(qt_ctx(&q, "mtu"), 5);
	cr_expect_eq(qt_ctx(&q, "remote_qpn"), 0xABCD);
	cr_expect_eq(qt_ctx(&q, "next_rcv_psn"), 0x123456);
	cr_expect_eq(qt_ctx(&q, "min_rnr_nak"), 12);
	cr_expect_eq(qt_ctx(&q, "log_rra_max"), 2);
	cr_expect_eq(qt_ctx(&q, "primary_address_path_src_addr_index"), 3);
	cr_expect_eq(qt_ctx(&q, "primary_address_path_hop_limit"), 64);
	cr_expect_eq(qt_ctx(&q, "primary_address_path_rmac_31_0"), 0x11223344);
	cr_expect_eq(qt_ctx(&q, "next_send_psn"), 0, "not yet");
	cr_assert_eq(rtr2rts(&q, qpn, 0), 0);
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_RTS);
	cr_expect_eq(qt_ctx(&q, "next_send_psn"), 0xFFFFFE);
	cr_expect_eq(qt_ctx(&q, "primary_address_path_ack_timeout"), 14);
	cr_expect_eq(qt_ctx(&q, "retry_count"), 7);
	cr_expect_eq(qt_ctx(&q, "rnr_retry"), 6);
	cr_expect_eq(qt_ctx(&q, "log_sra_max"), 3);
	cr_expect_eq(qt_ctx(&q, "q_key"), 0, "Q_Key is not an RC attribute");
	cr_expect_eq(qt_ctx(&q, "mtu"), 5, "kept");
	tl_down_clean(q.t);
}

/* D-QP-4: a transition from another state is BAD_RES_STATE and changes nothing; SQERR2RTS and
 * SQD_RTS have no source state reachable in stage 1. */
Test(qp_modify, wrong_state_is_bad_res_state)
{
	struct qt q = qt_up(NULL);
	uint32_t qpn = qt_qp(&q, QT_UD);
	cr_expect_eq(init2rtr(&q, qpn, 0, 5, 0), QT_BAD_RES_STATE, "INIT2RTR from RST");
	tl_expect_refused(q.t, QT_BAD_RES_STATE, NICREF_RULE_QP_STATE_MISMATCH);
	cr_expect_eq(rtr2rts(&q, qpn, 0), QT_BAD_RES_STATE, "RTR2RTS from RST");
	cr_assert_eq(rst2init(&q, qpn, 0, 1, 0), 0);
	cr_expect_eq(rst2init(&q, qpn, 0, 1, 0), QT_BAD_RES_STATE, "RST2INIT from INIT");
	cr_expect_eq(qt_modify(&q, "rts2rts_qp_in", "RTS2RTS_QP", qpn, 0, NULL), QT_BAD_RES_STATE);
	cr_expect_eq(qt_modify(&q, "sqerr2rts_qp_in", "SQERR2RTS_QP", qpn, 0, NULL),
		     QT_BAD_RES_STATE);
	cr_expect_eq(qt_modify(&q, "sqd2rts_qp_in", "SQD_RTS_QP", qpn, 0, NULL), QT_BAD_RES_STATE);
	cr_expect_eq(qt_modify(&q, "init2init_qp_in", "INIT2INIT_QP", qpn, 0, NULL), 0);
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_INIT);
	cr_expect_eq(qt_ctx(&q, "q_key"), 0x11111111, "UD RST2INIT takes the Q_Key");
	/* UD INIT2RTR needs nothing; the MTU is not checked for UD. */
	cr_expect_eq(init2rtr(&q, qpn, 0, 0, 200), 0);
	cr_expect_eq(rtr2rts(&q, qpn, OPT_Q_KEY), 0);
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(qt_ctx(&q, "q_key"), 0x22222222, "optional Q_KEY at RTR2RTS");
	cr_expect_eq(qt_ctx(&q, "next_send_psn"), 0xFFFFFE, "SQ PSN required for UD");
	cr_expect_eq(qt_ctx(&q, "remote_qpn"), 0, "no destination QPN for UD");
	cr_expect_eq(qt_by_qpn(&q, "qp_2err_in", "2ERR_QP", 9999, 0x10), QT_BAD_RESOURCE);
	tl_expect_refused(q.t, QT_BAD_RESOURCE, NICREF_RULE_QP_NOT_FOUND);
	tl_down_clean(q.t);
}

/* 2ERR and 2RST from any state (IBTA §10.3.1), keeping the context (D-QP-11); after 2RST the
 * QP starts over with RST2INIT. */
Test(qp_modify, to_err_and_to_rst_from_any_state)
{
	struct qt q = qt_up(NULL);
	uint32_t qpn = qt_qp(&q, QT_UD);
	cr_assert_eq(qt_by_qpn(&q, "qp_2err_in", "2ERR_QP", qpn, 0x10), 0, "RST -> ERR");
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_ERR);
	cr_expect_eq(rst2init(&q, qpn, 0, 1, 0), QT_BAD_RES_STATE, "RST2INIT from ERR");
	cr_assert_eq(qt_by_qpn(&q, "qp_2err_in", "2ERR_QP", qpn, 0x10), 0, "ERR -> ERR");
	cr_assert_eq(qt_by_qpn(&q, "qp_2rst_in", "2RST_QP", qpn, 0x10), 0, "ERR -> RST");
	cr_assert_eq(rst2init(&q, qpn, 0, 1, 0), 0);
	cr_assert_eq(init2rtr(&q, qpn, 0, 0, 0), 0);
	cr_assert_eq(rtr2rts(&q, qpn, 0), 0);
	cr_assert_eq(qt_by_qpn(&q, "qp_2rst_in", "2RST_QP", qpn, 0x10), 0, "RTS -> RST");
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_RST);
	cr_expect_eq(qt_ctx(&q, "pd"), q.pd, "created attributes kept");
	tl_down_clean(q.t);
}

/* D-QP-8: an opt_param_mask bit not optional for the transition and type ([MLX5IB] opt_mask)
 * is refused; an optional one is taken only when its bit is set. */
Test(qp_modify, opt_param_mask_per_transition)
{
	struct qt q = qt_up(NULL);
	uint32_t rc = qt_qp(&q, QT_RC), ud = qt_qp(&q, QT_UD);
	cr_expect_eq(rst2init(&q, rc, OPT_PKEY_INDEX, 1, 0), QT_BAD_PARAM, "none at RST2INIT");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_OPT_PARAM_BAD);
	cr_assert_eq(rst2init(&q, rc, 0, 1, 0), 0);
	cr_assert_eq(rst2init(&q, ud, 0, 1, 0), 0);
	cr_expect_eq(qt_modify(&q, "init2init_qp_in", "INIT2INIT_QP", rc, OPT_Q_KEY, NULL),
		     QT_BAD_PARAM, "Q_KEY is not an RC INIT2INIT option");
	struct qt_field rre[] = { { "rre", 1 }, { "rwe", 0 }, { NULL, 0 } };
	cr_assert_eq(qt_modify(&q, "init2init_qp_in", "INIT2INIT_QP", rc, OPT_RRE, rre), 0);
	cr_assert_eq(qt_query(&q, rc), 0);
	cr_expect_eq(qt_ctx(&q, "rre"), 1, "RRE selected: taken");
	cr_expect_eq(qt_ctx(&q, "rwe"), 1, "RWE not selected: kept");
	cr_expect_eq(qt_modify(&q, "init2init_qp_in", "INIT2INIT_QP", ud, OPT_RRE, NULL),
		     QT_BAD_PARAM, "RRE is not a UD option");
	cr_expect_eq(init2rtr(&q, ud, OPT_RETRY_COUNT, 0, 0), QT_BAD_PARAM);
	cr_assert_eq(init2rtr(&q, ud, 0, 0, 0), 0);
	cr_assert_eq(rtr2rts(&q, ud, 0), 0);
	cr_expect_eq(qt_modify(&q, "rts2rts_qp_in", "RTS2RTS_QP", ud, OPT_SRQN, NULL), QT_BAD_PARAM,
		     "SRQN of a QP on no RMP (D-QP-16)");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_OPT_PARAM_BAD);
	tl_down_clean(q.t);
}

/* D-QP-16: UD RTS2RTS with CQN_RCV ([MLX5IB] opt_mask) moves the receive CQ's reference: the
 * old CQ can then be destroyed, the new one cannot; a CQN naming no CQ is refused. */
Test(qp_modify, rts2rts_cqn_rcv_moves_the_reference)
{
	struct qt q = qt_up(NULL);
	uint32_t ud = qt_qp(&q, QT_UD);
	uint32_t cq2 = tl_cq(q.t, 6, q.eqn).cqn;
	cr_assert_eq(rst2init(&q, ud, 0, 1, 0), 0);
	cr_assert_eq(init2rtr(&q, ud, 0, 0, 0), 0);
	cr_assert_eq(rtr2rts(&q, ud, 0), 0);
	struct qt_field none[] = { { "cqn_rcv", cq2 + 5 }, { NULL, 0 } };
	cr_expect_eq(qt_modify(&q, "rts2rts_qp_in", "RTS2RTS_QP", ud, 1u << 19, none),
		     QT_BAD_RESOURCE);
	tl_expect_refused(q.t, QT_BAD_RESOURCE, NICREF_RULE_QP_CQ_MISSING);
	struct qt_field f[] = { { "cqn_rcv", cq2 }, { NULL, 0 } };
	cr_assert_eq(qt_modify(&q, "rts2rts_qp_in", "RTS2RTS_QP", ud, 1u << 19, f), 0);
	cr_assert_eq(qt_query(&q, ud), 0);
	cr_expect_eq(qt_ctx(&q, "cqn_rcv"), cq2);
	cr_expect_eq(qt_ctx(&q, "cqn_snd"), q.cqn, "the send CQ stays");
	cr_expect_eq(nicref_dev_check(q.t->dev), 0, "references add up");
	uint8_t in[16] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x401); /* DESTROY_CQ */
	tl_setf(in, 0x08, 23, 0, cq2);
	cr_expect_eq(tl_cmd(q.t, in, 16, out, 16), QT_BAD_RES_STATE, "the new receive CQ is held");
	cr_assert_eq(qt_by_qpn(&q, "destroy_qp_in", "DESTROY_QP", ud, 0x10), 0);
	cr_expect_eq(tl_cmd(q.t, in, 16, out, 16), QT_OK, "released with the QP");
	tl_down(q.t);
}

/* The values a transition takes: port 1..num_ports, pkey_index 0 (D-QP-9), RC/UC path MTU
 * 1..5, the primary path's source GID a set entry (D-QP-10); seed004 refuses rre/rae
 * (D-QP-14). Each refusal changes nothing. */
Test(qp_modify, attribute_values)
{
	struct qt q = qt_up(NULL);
	uint32_t rc = qt_qp(&q, QT_RC);
	cr_expect_eq(rst2init(&q, rc, 0, 0, 0), QT_BAD_PARAM, "port 0");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_PORT_BAD);
	cr_expect_eq(rst2init(&q, rc, 0, 2, 0), QT_BAD_PARAM, "port 2 of a 1-port device");
	cr_expect_eq(rst2init(&q, rc, 0, 1, 1), QT_BAD_PARAM, "pkey_index 1");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_PKEY_INDEX_BAD);
	cr_assert_eq(qt_query(&q, rc), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_RST, "nothing changed");
	cr_assert_eq(rst2init(&q, rc, 0, 1, 0), 0);
	cr_expect_eq(init2rtr(&q, rc, 0, 5, 0), QT_BAD_PARAM, "GID 0 not set");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_SGID_BAD);
	cr_assert_eq(qt_set_gid(&q, 0, 1, 0x20, 2, 0), 0);
	cr_expect_eq(init2rtr(&q, rc, 0, 0, 0), QT_BAD_PARAM, "mtu 0");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_MTU_BAD);
	cr_expect_eq(init2rtr(&q, rc, 0, 6, 0), QT_BAD_PARAM, "mtu 6");
	cr_expect_eq(init2rtr(&q, rc, 0, 1, 0), 0, "256 bytes");
	tl_down_clean(q.t);

	struct nicref_profile p;
	nicref_profile_default(&p);
	p.roce_profile = 1;
	q = qt_up(&p);
	rc = qt_qp(&q, QT_RC);
	struct qt_field rre[] = { { "primary_address_path_vhca_port_num", 1 }, { "rre", 1 },
				  { NULL, 0 } };
	cr_expect_eq(qt_modify(&q, "rst2init_qp_in", "RST2INIT_QP", rc, 0, rre), QT_BAD_PARAM);
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_REMOTE_ACCESS_UNSUPPORTED);
	struct qt_field rwe[] = { { "primary_address_path_vhca_port_num", 1 }, { "rwe", 1 },
				  { NULL, 0 } };
	cr_expect_eq(qt_modify(&q, "rst2init_qp_in", "RST2INIT_QP", rc, 0, rwe), 0,
		     "RDMA WRITE is the seed's");
	tl_down_clean(q.t);
}
