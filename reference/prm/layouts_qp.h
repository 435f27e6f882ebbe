/* Layouts of queue pairs and the RoCE GID table: beyond PRM Rev 0.40 (which has no QP), from
 * the public mlx5 interface, Linux include/linux/mlx5/mlx5_ifc.h (also rdma-core
 * providers/mlx5/mlx5_ifc.h): struct mlx5_ifc_qpc_bits, ads_bits, the QP command structures,
 * roce_addr_layout_bits and the ROCE_ADDRESS commands. Row format: prm/layouts.h. Names are
 * mlx5_ifc.h's ("[IFC]" in docs/roce.md); offsets are its bit offsets made byte offsets of
 * dwords (bit b: dword b / 32, msb 31 - b % 32).
 *
 * Contexts are written once, PRM_R_<ctx>(F, W, A, L, B) with every offset "B + <offset>" as the
 * TIR layouts do, so vectors name the qpc fields inside a command directly. The two address
 * paths inside the qpc take [IFC]'s dotted path with '.' made '_' as a prefix
 * (primary_address_path_pkey_index), pasted by PRM_R_ads's P. */
#ifndef NICREF_PRM_LAYOUTS_QP_H
#define NICREF_PRM_LAYOUTS_QP_H

/* [IFC] struct mlx5_ifc_ads_bits: 160h bits, 2Ch bytes. */
#define PRM_R_ads(F, W, A, L, B, P)                                                             \
	F(L, P##fl, B + 0x00, 31, 31)                                                           \
	F(L, P##free_ar, B + 0x00, 30, 30)                                                      \
	F(L, P##pkey_index, B + 0x00, 15, 0)                                                    \
	F(L, P##grh, B + 0x04, 23, 23)                                                          \
	F(L, P##mlid, B + 0x04, 22, 16)                                                         \
	F(L, P##rlid, B + 0x04, 15, 0)                                                          \
	F(L, P##ack_timeout, B + 0x08, 31, 27)                                                  \
	F(L, P##src_addr_index, B + 0x08, 23, 16)                                               \
	F(L, P##stat_rate, B + 0x08, 11, 8)                                                     \
	F(L, P##hop_limit, B + 0x08, 7, 0)                                                      \
	F(L, P##tclass, B + 0x0C, 27, 20)                                                       \
	F(L, P##flow_label, B + 0x0C, 19, 0)                                                    \
	W(L, P##rgid_rip, B + 0x10, 128)                                                        \
	F(L, P##f_dscp, B + 0x20, 27, 27)                                                       \
	F(L, P##f_ecn, B + 0x20, 26, 26)                                                        \
	F(L, P##f_eth_prio, B + 0x20, 24, 24)                                                   \
	F(L, P##ecn, B + 0x20, 23, 22)                                                          \
	F(L, P##dscp, B + 0x20, 21, 16)                                                         \
	F(L, P##udp_sport, B + 0x20, 15, 0)                                                     \
	F(L, P##dei_cfi, B + 0x24, 31, 31)                                                      \
	F(L, P##eth_prio, B + 0x24, 30, 28)                                                     \
	F(L, P##sl, B + 0x24, 27, 24)                                                           \
	F(L, P##vhca_port_num, B + 0x24, 23, 16)                                                \
	F(L, P##rmac_47_32, B + 0x24, 15, 0)                                                    \
	F(L, P##rmac_31_0, B + 0x28, 31, 0)
#define PRM_L_ads(F, W, A, L) PRM_R_ads(F, W, A, L, 0x00, )

/* [IFC] struct mlx5_ifc_qpc_bits: 740h bits, E8h bytes; primary_address_path at 18h,
 * secondary_address_path at 44h. */
#define PRM_R_qpc(F, W, A, L, B)                                                                \
	F(L, state, B + 0x00, 31, 28)                                                           \
	F(L, lag_tx_port_affinity, B + 0x00, 27, 24)                                            \
	F(L, st, B + 0x00, 23, 16)                                                              \
	F(L, isolate_vl_tc, B + 0x00, 13, 13)                                                   \
	F(L, pm_state, B + 0x00, 12, 11)                                                        \
	F(L, req_e2e_credit_mode, B + 0x00, 9, 8)                                               \
	F(L, offload_type, B + 0x00, 7, 4)                                                      \
	F(L, end_padding_mode, B + 0x00, 3, 2)                                                  \
	F(L, wq_signature, B + 0x04, 31, 31)                                                    \
	F(L, block_lb_mc, B + 0x04, 30, 30)                                                     \
	F(L, atomic_like_write_en, B + 0x04, 29, 29)                                            \
	F(L, latency_sensitive, B + 0x04, 28, 28)                                               \
	F(L, drain_sigerr, B + 0x04, 26, 26)                                                    \
	F(L, pd, B + 0x04, 23, 0)                                                               \
	F(L, mtu, B + 0x08, 31, 29)                                                             \
	F(L, log_msg_max, B + 0x08, 28, 24)                                                     \
	F(L, log_rq_size, B + 0x08, 22, 19)                                                     \
	F(L, log_rq_stride, B + 0x08, 18, 16)                                                   \
	F(L, no_sq, B + 0x08, 15, 15)                                                           \
	F(L, log_sq_size, B + 0x08, 14, 11)                                                     \
	F(L, ts_format, B + 0x08, 7, 6)                                                         \
	F(L, data_in_order, B + 0x08, 5, 5)                                                     \
	F(L, rlky, B + 0x08, 4, 4)                                                              \
	F(L, ulp_stateless_offload_mode, B + 0x08, 3, 0)                                        \
	F(L, counter_set_id, B + 0x0C, 31, 24)                                                  \
	F(L, uar_page, B + 0x0C, 23, 0)                                                         \
	F(L, user_index, B + 0x10, 23, 0)                                                       \
	F(L, log_page_size, B + 0x14, 28, 24)                                                   \
	F(L, remote_qpn, B + 0x14, 23, 0)                                                       \
	PRM_R_ads(F, W, A, L, B + 0x18, primary_address_path_)                                  \
	PRM_R_ads(F, W, A, L, B + 0x44, secondary_address_path_)                                \
	F(L, log_ack_req_freq, B + 0x70, 31, 28)                                                \
	F(L, log_sra_max, B + 0x70, 23, 21)                                                     \
	F(L, retry_count, B + 0x70, 18, 16)                                                     \
	F(L, rnr_retry, B + 0x70, 15, 13)                                                       \
	F(L, fre, B + 0x70, 11, 11)                                                             \
	F(L, cur_rnr_retry, B + 0x70, 10, 8)                                                    \
	F(L, cur_retry_count, B + 0x70, 7, 5)                                                   \
	F(L, next_send_psn, B + 0x78, 23, 0)                                                    \
	F(L, cqn_snd, B + 0x7C, 23, 0)                                                          \
	F(L, deth_sqpn, B + 0x80, 23, 0)                                                        \
	F(L, last_acked_psn, B + 0x88, 23, 0)                                                   \
	F(L, ssn, B + 0x8C, 23, 0)                                                              \
	F(L, log_rra_max, B + 0x90, 23, 21)                                                     \
	F(L, atomic_mode, B + 0x90, 19, 16)                                                     \
	F(L, rre, B + 0x90, 15, 15)                                                             \
	F(L, rwe, B + 0x90, 14, 14)                                                             \
	F(L, rae, B + 0x90, 13, 13)                                                             \
	F(L, page_offset, B + 0x90, 11, 6)                                                      \
	F(L, cd_slave_receive, B + 0x90, 2, 2)                                                  \
	F(L, cd_slave_send, B + 0x90, 1, 1)                                                     \
	F(L, cd_master, B + 0x90, 0, 0)                                                         \
	F(L, min_rnr_nak, B + 0x94, 28, 24)                                                     \
	F(L, next_rcv_psn, B + 0x94, 23, 0)                                                     \
	F(L, xrcd, B + 0x98, 23, 0)                                                             \
	F(L, cqn_rcv, B + 0x9C, 23, 0)                                                          \
	W(L, dbr_addr, B + 0xA0, 64)                                                            \
	F(L, q_key, B + 0xA8, 31, 0)                                                            \
	F(L, rq_type, B + 0xAC, 26, 24)                                                         \
	F(L, srqn_rmpn_xrqn, B + 0xAC, 23, 0)                                                   \
	F(L, rmsn, B + 0xB0, 23, 0)                                                             \
	F(L, hw_sq_wqebb_counter, B + 0xB4, 31, 16)                                             \
	F(L, sw_sq_wqebb_counter, B + 0xB4, 15, 0)                                              \
	F(L, hw_rq_counter, B + 0xB8, 31, 0)                                                    \
	F(L, sw_rq_counter, B + 0xBC, 31, 0)                                                    \
	F(L, cgs, B + 0xC4, 16, 16)                                                             \
	F(L, cs_req, B + 0xC4, 15, 8)                                                           \
	F(L, cs_res, B + 0xC4, 7, 0)                                                            \
	W(L, dc_access_key, B + 0xC8, 64)                                                       \
	F(L, dbr_umem_valid, B + 0xD0, 28, 28)                                                  \
	F(L, dbr_umem_id, B + 0xE4, 31, 0)
#define PRM_L_qpc(F, W, A, L) PRM_R_qpc(F, W, A, L, 0x00)

/* [IFC] struct mlx5_ifc_roce_addr_layout_bits: 100h bits, 20h bytes. */
#define PRM_R_roce_addr_layout(F, W, A, L, B)                                                   \
	W(L, source_l3_address, B + 0x00, 128)                                                  \
	F(L, vlan_valid, B + 0x10, 28, 28)                                                      \
	F(L, vlan_id, B + 0x10, 27, 16)                                                         \
	F(L, source_mac_47_32, B + 0x10, 15, 0)                                                 \
	F(L, source_mac_31_0, B + 0x14, 31, 0)                                                  \
	F(L, roce_l3_type, B + 0x18, 11, 8)                                                     \
	F(L, roce_version, B + 0x18, 7, 0)
#define PRM_L_roce_addr_layout(F, W, A, L) PRM_R_roce_addr_layout(F, W, A, L, 0x00)

/* Command headers of [IFC]: opcode 00h[31:16], uid 00h[15:0], op_mod 04h[15:0]; outputs
 * status 00h[31:24], syndrome 04h. */
#define PRM_QP_IN_HDR(F, L)                                                                     \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, uid, 0x00, 15, 0)                                                                  \
	F(L, op_mod, 0x04, 15, 0)
#define PRM_QP_OUT_HDR(F, L)                                                                    \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)
/* A transition's input ([IFC] rst2init_qp_in_bits and its siblings): qpn 08h[23:0],
 * opt_param_mask 10h, the qpc at 18h; 880h bits, 110h bytes. */
#define PRM_QP_TRANS_IN(F, W, A, L)                                                             \
	PRM_QP_IN_HDR(F, L)                                                                     \
	F(L, qpn, 0x08, 23, 0)                                                                  \
	F(L, opt_param_mask, 0x10, 31, 0)                                                       \
	PRM_R_qpc(F, W, A, L, 0x18)
/* A QPN-only input ([IFC] destroy_qp_in, qp_2err_in, qp_2rst_in, query_qp_in). */
#define PRM_QP_QPN_IN(F, W, A, L) PRM_QP_IN_HDR(F, L) F(L, qpn, 0x08, 23, 0)
#define PRM_QP_PLAIN_OUT(F, W, A, L) PRM_QP_OUT_HDR(F, L)

#define PRM_L_create_qp_in(F, W, A, L)                                                          \
	PRM_QP_IN_HDR(F, L)                                                                     \
	F(L, opt_param_mask, 0x10, 31, 0)                                                       \
	PRM_R_qpc(F, W, A, L, 0x18)                                                             \
	A(L, pas, 0x110, 64)
#define PRM_L_create_qp_out(F, W, A, L) PRM_QP_OUT_HDR(F, L) F(L, qpn, 0x08, 23, 0)
#define PRM_L_destroy_qp_in PRM_QP_QPN_IN
#define PRM_L_destroy_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_rst2init_qp_in PRM_QP_TRANS_IN
#define PRM_L_rst2init_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_init2init_qp_in PRM_QP_TRANS_IN
#define PRM_L_init2init_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_init2rtr_qp_in PRM_QP_TRANS_IN
#define PRM_L_init2rtr_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_rtr2rts_qp_in PRM_QP_TRANS_IN
#define PRM_L_rtr2rts_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_rts2rts_qp_in PRM_QP_TRANS_IN
#define PRM_L_rts2rts_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_sqerr2rts_qp_in PRM_QP_TRANS_IN
#define PRM_L_sqerr2rts_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_sqd2rts_qp_in PRM_QP_TRANS_IN
#define PRM_L_sqd2rts_qp_out PRM_QP_PLAIN_OUT
#define PRM_L_qp_2err_in PRM_QP_QPN_IN
#define PRM_L_qp_2err_out PRM_QP_PLAIN_OUT
#define PRM_L_qp_2rst_in PRM_QP_QPN_IN
#define PRM_L_qp_2rst_out PRM_QP_PLAIN_OUT
#define PRM_L_query_qp_in PRM_QP_QPN_IN
#define PRM_L_query_qp_out(F, W, A, L)                                                          \
	PRM_QP_OUT_HDR(F, L)                                                                    \
	F(L, opt_param_mask, 0x10, 31, 0)                                                       \
	PRM_R_qpc(F, W, A, L, 0x18)                                                             \
	A(L, pas, 0x110, 64)
/* [IFC] set_roce_address_in: roce_address_index 08h[31:16], vhca_port_num 08h[3:0], the entry
 * at 10h; query_roce_address_in the same index and port; query_roce_address_out the entry at
 * 10h. */
#define PRM_QP_ROCE_ADDR_SEL(F, L)                                                              \
	F(L, roce_address_index, 0x08, 31, 16)                                                  \
	F(L, vhca_port_num, 0x08, 3, 0)
#define PRM_L_set_roce_address_in(F, W, A, L)                                                   \
	PRM_QP_IN_HDR(F, L)                                                                     \
	PRM_QP_ROCE_ADDR_SEL(F, L)                                                              \
	PRM_R_roce_addr_layout(F, W, A, L, 0x10)
#define PRM_L_set_roce_address_out PRM_QP_PLAIN_OUT
#define PRM_L_query_roce_address_in(F, W, A, L) PRM_QP_IN_HDR(F, L) PRM_QP_ROCE_ADDR_SEL(F, L)
#define PRM_L_query_roce_address_out(F, W, A, L)                                                \
	PRM_QP_OUT_HDR(F, L)                                                                    \
	PRM_R_roce_addr_layout(F, W, A, L, 0x10)

#define NICREF_LAYOUTS_QP(X)                                                                    \
	X(ads, 0x2C, "beyond PRM: mlx5_ifc.h ads")                                              \
	X(qpc, 0xE8, "beyond PRM: mlx5_ifc.h qpc")                                              \
	X(roce_addr_layout, 0x20, "beyond PRM: mlx5_ifc.h roce_addr_layout")                    \
	X(create_qp_in, 0x110, "beyond PRM: mlx5_ifc.h create_qp_in (qpc at 18h, pas at 110h)") \
	X(create_qp_out, 0x10, "beyond PRM: mlx5_ifc.h create_qp_out")                          \
	X(destroy_qp_in, 0x10, "beyond PRM: mlx5_ifc.h destroy_qp_in")                          \
	X(destroy_qp_out, 0x10, "beyond PRM: mlx5_ifc.h destroy_qp_out")                        \
	X(rst2init_qp_in, 0x110, "beyond PRM: mlx5_ifc.h rst2init_qp_in (qpc at 18h)")          \
	X(rst2init_qp_out, 0x10, "beyond PRM: mlx5_ifc.h rst2init_qp_out")                      \
	X(init2init_qp_in, 0x110, "beyond PRM: mlx5_ifc.h init2init_qp_in (qpc at 18h)")        \
	X(init2init_qp_out, 0x10, "beyond PRM: mlx5_ifc.h init2init_qp_out")                    \
	X(init2rtr_qp_in, 0x110, "beyond PRM: mlx5_ifc.h init2rtr_qp_in (qpc at 18h)")          \
	X(init2rtr_qp_out, 0x10, "beyond PRM: mlx5_ifc.h init2rtr_qp_out")                      \
	X(rtr2rts_qp_in, 0x110, "beyond PRM: mlx5_ifc.h rtr2rts_qp_in (qpc at 18h)")            \
	X(rtr2rts_qp_out, 0x10, "beyond PRM: mlx5_ifc.h rtr2rts_qp_out")                        \
	X(rts2rts_qp_in, 0x110, "beyond PRM: mlx5_ifc.h rts2rts_qp_in (qpc at 18h)")            \
	X(rts2rts_qp_out, 0x10, "beyond PRM: mlx5_ifc.h rts2rts_qp_out")                        \
	X(sqerr2rts_qp_in, 0x110, "beyond PRM: mlx5_ifc.h sqerr2rts_qp_in (qpc at 18h)")        \
	X(sqerr2rts_qp_out, 0x10, "beyond PRM: mlx5_ifc.h sqerr2rts_qp_out")                    \
	X(sqd2rts_qp_in, 0x110, "beyond PRM: mlx5_ifc.h sqd2rts_qp_in (qpc at 18h)")            \
	X(sqd2rts_qp_out, 0x10, "beyond PRM: mlx5_ifc.h sqd2rts_qp_out")                        \
	X(qp_2err_in, 0x10, "beyond PRM: mlx5_ifc.h qp_2err_in")                                \
	X(qp_2err_out, 0x10, "beyond PRM: mlx5_ifc.h qp_2err_out")                              \
	X(qp_2rst_in, 0x10, "beyond PRM: mlx5_ifc.h qp_2rst_in")                                \
	X(qp_2rst_out, 0x10, "beyond PRM: mlx5_ifc.h qp_2rst_out")                              \
	X(query_qp_in, 0x10, "beyond PRM: mlx5_ifc.h query_qp_in")                              \
	X(query_qp_out, 0x110, "beyond PRM: mlx5_ifc.h query_qp_out (qpc at 18h)")              \
	X(set_roce_address_in, 0x30, "beyond PRM: mlx5_ifc.h set_roce_address_in")              \
	X(set_roce_address_out, 0x10, "beyond PRM: mlx5_ifc.h set_roce_address_out")            \
	X(query_roce_address_in, 0x10, "beyond PRM: mlx5_ifc.h query_roce_address_in")          \
	X(query_roce_address_out, 0x30, "beyond PRM: mlx5_ifc.h query_roce_address_out")

#endif
