/* Layouts of the RoCEv2 transport headers and of the mlx5 send WQE segments a QP uses: beyond
 * PRM Rev 0.40 (Ethernet-only). Row format: prm/layouts.h. Offsets are byte offsets of
 * big-endian dwords, as the headers travel (network order) and as the WQE segments are written
 * (mlx5 WQEs are big-endian).
 *
 * Sources (docs/roce.md): [IBTA] InfiniBand Architecture Specification Vol. 1, §9.2 (BTH
 * Figure 88, the extended transport headers: RETH §9.3.2 Figure 90, AETH §9.3.3 Figure 91,
 * DETH §9.3.1 Figure 89, ImmDt §9.3.5); [IFC] Linux include/linux/mlx5/qp.h (struct
 * mlx5_wqe_raddr_seg, struct mlx5_av / mlx5_wqe_datagram_seg; rdma-core mlx5dv.h names the same
 * layouts). */
#ifndef NICREF_PRM_LAYOUTS_ROCE_H
#define NICREF_PRM_LAYOUTS_ROCE_H

/* [IBTA] §9.2 Figure 88: the Base Transport Header, 12 bytes. RoCEv2 (IBTA Annex A17) puts the
 * FECN/BECN bits at the top of the byte IBTA 1.2 calls resv8a; the rest of it is resv6. */
#define PRM_L_roce_bth(F, W, A, L)                                                              \
	F(L, opcode, 0x00, 31, 24)                                                              \
	F(L, se, 0x00, 23, 23)                                                                  \
	F(L, m, 0x00, 22, 22)                                                                   \
	F(L, padcnt, 0x00, 21, 20)                                                              \
	F(L, tver, 0x00, 19, 16)                                                                \
	F(L, p_key, 0x00, 15, 0)                                                                \
	F(L, fecn, 0x04, 31, 31)                                                                \
	F(L, becn, 0x04, 30, 30)                                                                \
	F(L, resv6, 0x04, 29, 24)                                                               \
	F(L, dest_qp, 0x04, 23, 0)                                                              \
	F(L, ackreq, 0x08, 31, 31)                                                              \
	F(L, resv7, 0x08, 30, 24)                                                               \
	F(L, psn, 0x08, 23, 0)

/* [IBTA] §9.3.2 Figure 90: the RDMA Extended Transport Header, 16 bytes. */
#define PRM_L_roce_reth(F, W, A, L)                                                             \
	W(L, va, 0x00, 64)                                                                      \
	F(L, r_key, 0x08, 31, 0)                                                                \
	F(L, dma_length, 0x0C, 31, 0)

/* [IBTA] §9.3.3 Figure 91: the ACK Extended Transport Header, 4 bytes; the syndrome's bits 6:5
 * say ACK (00), RNR NAK (01), NAK (11); bits 4:0 the credit count, the RNR timer or the NAK
 * code ([IBTA] Table 44). */
#define PRM_L_roce_aeth(F, W, A, L)                                                             \
	F(L, syndrome, 0x00, 31, 24)                                                            \
	F(L, msn, 0x00, 23, 0)

/* [IBTA] §9.3.1 Figure 89: the Datagram Extended Transport Header, 8 bytes. */
#define PRM_L_roce_deth(F, W, A, L)                                                             \
	F(L, q_key, 0x00, 31, 0)                                                                \
	F(L, src_qp, 0x04, 23, 0)

/* [IBTA] §9.3.5: the Immediate Data Extended Transport Header, 4 bytes, carried as is. */
#define PRM_L_roce_immdt(F, W, A, L) F(L, immediate_data, 0x00, 31, 0)

/* [IFC] qp.h struct mlx5_wqe_raddr_seg: after the ctrl segment of an RDMA WRITE/READ, 16
 * bytes. */
#define PRM_L_send_wqe_raddr(F, W, A, L)                                                        \
	W(L, raddr, 0x00, 64)                                                                   \
	F(L, rkey, 0x08, 31, 0)                                                                 \
	F(L, reserved, 0x0C, 31, 0)

/* [IFC] qp.h struct mlx5_wqe_datagram_seg (= struct mlx5_av): after the ctrl segment of a UD
 * SEND, 48 bytes. key: the Q_Key in its first dword (the second is reserved; a DC key takes
 * both); dqp_dct bit 31 MLX5_EXTENDED_UD_AV, 23:0 the destination QP; stat_rate_sl; fl_mlid bit 7
 * force loopback; rlid, which RoCE uses as udp_sport; rmac; tclass; hop_limit; grh_gid_fl as
 * mlx5_ib writes it (bit 30 the GRH, 27:20 the source GID index, 19:0 the flow label); rgid. */
#define PRM_L_send_wqe_datagram(F, W, A, L)                                                     \
	F(L, q_key, 0x00, 31, 0)                                                                \
	F(L, key_reserved, 0x04, 31, 0)                                                         \
	F(L, extended_av, 0x08, 31, 31)                                                         \
	F(L, dqp_dct, 0x08, 23, 0)                                                              \
	F(L, stat_rate, 0x0C, 31, 28)                                                           \
	F(L, sl, 0x0C, 27, 24)                                                                  \
	F(L, fl, 0x0C, 23, 23)                                                                  \
	F(L, mlid, 0x0C, 22, 16)                                                                \
	F(L, udp_sport, 0x0C, 15, 0)                                                            \
	F(L, rmac_47_16, 0x14, 31, 0)                                                           \
	F(L, rmac_15_0, 0x18, 31, 16)                                                           \
	F(L, tclass, 0x18, 15, 8)                                                               \
	F(L, hop_limit, 0x18, 7, 0)                                                             \
	F(L, grh, 0x1C, 30, 30)                                                                 \
	F(L, sgid_index, 0x1C, 27, 20)                                                          \
	F(L, flow_label, 0x1C, 19, 0)                                                           \
	W(L, rgid, 0x20, 128)

/* [IFC] device.h struct mlx5_cqe64 as a QP's completions use it, with struct mlx5_err_cqe's
 * syndromes (they share the 64 bytes): flags_rqpn at 18h (bits 29:28 the GRH flag mlx5_ib reads
 * as "g", 25:24 the RoCE L3 header type MLX5_CQE_ROCE_L3_HEADER_TYPE_*, 23:0 the source QP of
 * a UD packet), l4_l3_hdr_type at 1Dh (bit 0: a VLAN tag was present) with vlan_info, srqn,
 * the immediate data at 24h, byte_cnt, the error syndromes at 36h/37h, sop_drop_qpn at 38h
 * (the WQE opcode of a requester CQE and the QPN), wqe_counter, signature, op_own. */
#define PRM_L_qp_cqe(F, W, A, L)                                                                \
	F(L, grh, 0x18, 29, 28)                                                                 \
	F(L, roce_l3_type, 0x18, 25, 24)                                                        \
	F(L, rqpn, 0x18, 23, 0)                                                                 \
	F(L, vlan_present, 0x1C, 16, 16)                                                        \
	F(L, vlan_info, 0x1C, 15, 0)                                                            \
	F(L, srqn, 0x20, 23, 0)                                                                 \
	F(L, immediate, 0x24, 31, 0)                                                            \
	F(L, byte_cnt, 0x2C, 31, 0)                                                             \
	F(L, vendor_err_synd, 0x34, 15, 8)                                                      \
	F(L, syndrome, 0x34, 7, 0)                                                              \
	F(L, s_wqe_opcode, 0x38, 31, 24)                                                        \
	F(L, qpn, 0x38, 23, 0)                                                                  \
	F(L, wqe_counter, 0x3C, 31, 16)                                                         \
	F(L, signature, 0x3C, 15, 8)                                                            \
	F(L, opcode, 0x3C, 7, 4)                                                                \
	F(L, owner, 0x3C, 0, 0)

#define NICREF_LAYOUTS_ROCE(X)                                                                  \
	X(roce_bth, 0x0C, "beyond PRM: IBTA Vol. 1 §9.2 BTH")                                   \
	X(roce_reth, 0x10, "beyond PRM: IBTA Vol. 1 §9.3.2 RETH")                               \
	X(roce_aeth, 0x04, "beyond PRM: IBTA Vol. 1 §9.3.3 AETH")                               \
	X(roce_deth, 0x08, "beyond PRM: IBTA Vol. 1 §9.3.1 DETH")                               \
	X(roce_immdt, 0x04, "beyond PRM: IBTA Vol. 1 §9.3.5 ImmDt")                             \
	X(send_wqe_raddr, 0x10, "beyond PRM: mlx5 qp.h mlx5_wqe_raddr_seg")                     \
	X(send_wqe_datagram, 0x30, "beyond PRM: mlx5 qp.h mlx5_wqe_datagram_seg (mlx5_av)")     \
	X(qp_cqe, 0x40, "beyond PRM: mlx5 device.h mlx5_cqe64 / mlx5_err_cqe of a QP")

#endif
