/* Rules of queue pairs and the RoCE GID table (issue 17 stage 1; beyond PRM Rev 0.40: the
 * public mlx5 interface and the IBTA QP rules, docs/roce.md, decisions D-QP-*). Rows as in
 * nicref/rules_ctrl.h. Sources: [IFC] Linux include/linux/mlx5/mlx5_ifc.h; [QPH]
 * include/linux/mlx5/qp.h; [MLX5IB] drivers/infiniband/hw/mlx5/qp.c opt_mask; [IBTA] IB
 * Architecture Spec. Vol. 1 §10.3, §11.2.4; [S004] seed 004 by line. */
#ifndef NICREF_RULES_QP_H
#define NICREF_RULES_QP_H

#define NICREF_CMD_RULES_QP(X)                                                                  \
	X(QP_ST_UNSUPPORTED, BAD_PARAM,                                                         \
	  "mlx5_ifc.h qpc st, qp.h MLX5_QP_ST_*; seed 004 L33-37; D-QP-5",                      \
	  "a service type the profile does not model (connectx: RC, UC, UD; seed004: RC, UD)")  \
	X(QP_SIZE_EXCEEDS_CAP, BAD_PARAM, "mlx5_ifc.h qpc log_sq_size/log_rq_size; PRM T145 "          \
	  "log_max_wq_sz (D-QP-15)",                                                                    \
	  "log_sq_size or log_rq_size above HCA_CAP.log_max_wq_sz")                              \
	X(QP_RQ_TYPE_BAD, BAD_PARAM, "mlx5_ifc.h qpc rq_type (0 regular, 1 SRQ/RMP, 2 CRQ, 3 "   \
	  "zero-length)", "rq_type above 3")                                                     \
	X(QP_PAS_SHORT, BAD_INPUT_LEN, "mlx5_ifc.h create_qp_in pas[]; PRM T128 0x50; D-QP-12, "    \
	  "D-WQ-6",                                                                             \
	  "the input holds fewer pas[] entries than the pages the QP's buffer spans")             \
	X(QP_PD_MISSING, BAD_RESOURCE, "mlx5_ifc.h qpc pd; IBTA §11.2.4.1",                     \
	  "pd names no allocated PD")                                                            \
	X(QP_CQ_MISSING, BAD_RESOURCE, "mlx5_ifc.h qpc cqn_snd/cqn_rcv; IBTA §11.2.4.1",        \
	  "cqn_snd or cqn_rcv names no CQ")                                                      \
	X(QP_RMP_MISSING, BAD_RESOURCE, "mlx5_ifc.h qpc rq_type 1, srqn_rmpn_xrqn",             \
	  "an SRQ QP's srqn_rmpn_xrqn names no RMP")                                             \
	X(QP_UAR_MISSING, BAD_RESOURCE, "mlx5_ifc.h qpc uar_page",                              \
	  "uar_page names no allocated UAR")                                                     \
	X(QP_PD_OUT_OF_RANGE, BAD_INDEX, "mlx5_ifc.h qpc pd; PRM T128 0x0A; D-OBJ-2",            \
	  "pd outside the PD handle range")                                                      \
	X(QP_CQ_OUT_OF_RANGE, BAD_INDEX, "mlx5_ifc.h qpc cqn_snd/cqn_rcv; PRM T128 0x0A; D-OBJ-2", \
	  "cqn_snd or cqn_rcv outside the CQ handle range")                                       \
	X(QP_RMP_OUT_OF_RANGE, BAD_INDEX, "mlx5_ifc.h qpc srqn_rmpn_xrqn; PRM T128 0x0A; D-OBJ-2", \
	  "srqn_rmpn_xrqn outside the RMP handle range")                                           \
	X(QP_UAR_OUT_OF_RANGE, BAD_INDEX, "mlx5_ifc.h qpc uar_page; PRM T128 0x0A; D-OBJ-2",     \
	  "uar_page outside the UAR range")                                                      \
	X(QP_EXHAUSTED, EXCEED_LIM, "seed 004 L42-44 (QP0/QP1 reserved), L150 QP_NUM; D-QP-3",  \
	  "every QPN of the profile's range (from 2) is live")                                   \
	X(QP_NOT_FOUND, BAD_RESOURCE, "mlx5_ifc.h qpn; D-QP-4", "qpn names no QP")               \
	X(QP_INDEX_OUT_OF_RANGE, BAD_INDEX, "mlx5_ifc.h qpn; PRM T128 0x0A; D-OBJ-2, D-QP-3",   \
	  "qpn outside the QPN range (0, 1, or at or beyond the profile's count)")                \
	X(QP_STATE_MISMATCH, BAD_RES_STATE,                                                     \
	  "IBTA §10.3.1 QP state diagram, qp.c optab; D-QP-4",                                   \
	  "a transition command on a QP not in the command's source state")                     \
	X(QP_OPT_PARAM_BAD, BAD_PARAM, "qp.h enum mlx5_qp_optpar, qp.c opt_mask; D-QP-8",       \
	  "an opt_param_mask bit not optional for the transition and service type")              \
	X(QP_PORT_BAD, BAD_PARAM, "IBTA §11.2.4.2 (port required at RST->INIT), mlx5_ifc.h "     \
	  "ads vhca_port_num",                                                                  \
	  "primary_address_path_vhca_port_num is 0 or above num_ports")                          \
	X(QP_PKEY_INDEX_BAD, BAD_PARAM, "IBTA §11.2.4.2 (P_Key index), mlx5_ifc.h ads "         \
	  "pkey_index; D-QP-9",                                                                 \
	  "primary_address_path_pkey_index beyond the port's P_Key table (one entry)")           \
	X(QP_MTU_BAD, BAD_PARAM, "IBTA §11.2.4.2 (path MTU required at INIT->RTR for RC/UC), "   \
	  "mlx5_ifc.h qpc mtu",                                                                 \
	  "an RC/UC INIT2RTR with mtu outside 1 (256) to 5 (4096)")                              \
	X(QP_SGID_BAD, BAD_PARAM, "IBTA §11.2.4.2 (AV required at INIT->RTR for RC/UC), "        \
	  "mlx5_ifc.h ads src_addr_index; D-QP-10",                                             \
	  "an RC/UC INIT2RTR whose primary path names no set GID table entry")                   \
	X(QP_REMOTE_ACCESS_UNSUPPORTED, BAD_PARAM, "seed 004 L33-37 (RC: Send/Write); D-QP-14",  \
	  "seed004 profile: rre or rae set (no RDMA READ or atomics)")                          \
	X(ROCE_ADDR_INDEX_BAD, BAD_PARAM, "mlx5_ifc.h roce_address_index; D-QP-10",              \
	  "roce_address_index at or beyond the GID table (256 entries)")                         \
	X(ROCE_ADDR_PORT_BAD, BAD_PARAM, "mlx5_ifc.h vhca_port_num",                            \
	  "vhca_port_num above num_ports")                                                       \
	X(ROCE_ADDR_VERSION_BAD, BAD_PARAM, "mlx5_ifc.h enum roce_version (1 = 0, 2 = 2)",       \
	  "roce_version neither 0 (RoCE v1) nor 2 (RoCE v2)")                                    \
	X(ROCE_ADDR_L3_TYPE_BAD, BAD_PARAM, "mlx5_ifc.h roce_l3_type (0 IPv4, 1 IPv6)",          \
	  "roce_l3_type neither 0 nor 1")

#endif
