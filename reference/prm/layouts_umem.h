/* Layouts of user memory (UMEM) objects: beyond PRM Rev 0.40 (which has no UMEM), from the
 * public mlx5 interface, Linux include/linux/mlx5/mlx5_ifc.h (also rdma-core
 * providers/mlx5/mlx5_ifc.h): struct mlx5_ifc_umem_bits, mtt_bits, create_umem_in/out and
 * destroy_umem_in/out ("[IFC]" in docs/umem.md). Row format: prm/layouts.h. Offsets are
 * [IFC]'s bit offsets made byte offsets of dwords (bit b: dword b / 32, msb 31 - b % 32).
 *
 * [IFC] umem_bits (at 10h of create_umem_in): reserved 0h-0Fh; log_page_size 10h[4:0] (the
 * page size as a power of two above 4 KB: Linux devx.c writes order_base_2(page_size) -
 * MLX5_ADAPTER_PAGE_SHIFT); page_offset 14h; num_of_mtt 18h (64 bits); mtt[] from 20h, one
 * 64-bit entry each: ptag[63:8], reserved [7:2], wr_en [1], rd_en [0]. Newer [IFC] versions
 * name umem 10h[31] `ats`; the device has no ATS (HCA_CAP ats is not modelled), so the bit stays
 * reserved here (D-UMEM-4). */
#ifndef NICREF_PRM_LAYOUTS_UMEM_H
#define NICREF_PRM_LAYOUTS_UMEM_H

#define PRM_UMEM_IN_HDR(F, L)                                                                   \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, uid, 0x00, 15, 0)                                                                  \
	F(L, op_mod, 0x04, 15, 0)
#define PRM_UMEM_OUT_HDR(F, L)                                                                  \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* [IFC] create_umem_in: 180h bits (30h bytes) and the mtt entries from 30h. */
#define PRM_L_create_umem_in(F, W, A, L)                                                        \
	PRM_UMEM_IN_HDR(F, L)                                                                   \
	F(L, log_page_size, 0x20, 4, 0)                                                         \
	F(L, page_offset, 0x24, 31, 0)                                                          \
	W(L, num_of_mtt, 0x28, 64)                                                              \
	A(L, mtt, 0x30, 64)
/* [IFC] mtt_bits: one entry of create_umem_in's mtt[]; [7:2] reserved (D-CMD-8, D-UMEM-3). */
#define PRM_L_umem_mtt(F, W, A, L)                                                              \
	F(L, ptag_h, 0x00, 31, 0)                                                               \
	F(L, ptag_l, 0x04, 31, 8)                                                               \
	F(L, wr_en, 0x04, 1, 1)                                                                 \
	F(L, rd_en, 0x04, 0, 0)
/* [IFC] create_umem_out: umem_id 08h[23:0]. */
#define PRM_L_create_umem_out(F, W, A, L) PRM_UMEM_OUT_HDR(F, L) F(L, umem_id, 0x08, 23, 0)
/* [IFC] destroy_umem_in: umem_id 08h[23:0]. */
#define PRM_L_destroy_umem_in(F, W, A, L) PRM_UMEM_IN_HDR(F, L) F(L, umem_id, 0x08, 23, 0)
#define PRM_L_destroy_umem_out(F, W, A, L) PRM_UMEM_OUT_HDR(F, L)

#define NICREF_LAYOUTS_UMEM(X)                                                                  \
	X(create_umem_in, 0x30, "beyond PRM: mlx5_ifc.h create_umem_in (umem at 10h, mtt at 30h)") \
	X(umem_mtt, 0x08, "beyond PRM: mlx5_ifc.h mtt_bits")                                     \
	X(create_umem_out, 0x10, "beyond PRM: mlx5_ifc.h create_umem_out")                      \
	X(destroy_umem_in, 0x10, "beyond PRM: mlx5_ifc.h destroy_umem_in")                      \
	X(destroy_umem_out, 0x10, "beyond PRM: mlx5_ifc.h destroy_umem_out")

#endif
