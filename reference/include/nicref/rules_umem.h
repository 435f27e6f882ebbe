/* Rules of user memory objects (issue 14 M2; beyond PRM Rev 0.40: the public mlx5 interface,
 * docs/umem.md, decisions D-UMEM-*). Rows as in nicref/rules_ctrl.h. Sources: [IFC] Linux
 * include/linux/mlx5/mlx5_ifc.h umem_bits, mtt_bits, create_umem_in, destroy_umem_in; [DEVX]
 * Linux drivers/infiniband/hw/mlx5/devx.c (how the kernel fills them). */
#ifndef NICREF_RULES_UMEM_H
#define NICREF_RULES_UMEM_H

#define NICREF_CMD_RULES_UMEM(X)                                                                \
	X(UMEM_NO_MTT, BAD_PARAM, "mlx5_ifc.h umem num_of_mtt; D-UMEM-2",                       \
	  "num_of_mtt is 0: a UMEM of no page")                                                  \
	X(UMEM_MTT_BEYOND_INPUT, BAD_INPUT_LEN,                                                 \
	  "mlx5_ifc.h create_umem_in (mtt[] from 30h); PRM §12.2 T128; D-UMEM-2",                \
	  "the num_of_mtt entries from 30h end beyond input_length")                             \
	X(UMEM_PAGE_OFFSET_BAD, BAD_PARAM, "mlx5_ifc.h umem page_offset; devx.c "               \
	  "ib_umem_dma_offset(umem, page_size); D-UMEM-3",                                      \
	  "page_offset is not below the page size 4 KB * 2^log_page_size")                       \
	X(UMEM_MTT_MISALIGNED, BAD_PARAM, "mlx5_ifc.h mtt ptag; devx.c mlx5_ib_populate_pas "    \
	  "(one entry per page); D-UMEM-3",                                                     \
	  "an mtt entry's address is not aligned to the UMEM's page size")                       \
	X(UMEM_EXHAUSTED, EXCEED_LIM, "mlx5_ifc.h create_umem_out umem_id (24 bits); D-UMEM-1",  \
	  "every umem_id of the profile's range is live")                                        \
	X(UMEM_NOT_FOUND, BAD_RESOURCE, "mlx5_ifc.h destroy_umem_in umem_id; D-UMEM-1",          \
	  "umem_id names no UMEM")                                                               \
	X(UMEM_INDEX_OUT_OF_RANGE, BAD_INDEX, "mlx5_ifc.h destroy_umem_in umem_id; PRM T128 "    \
	  "0x0A; D-OBJ-2, D-UMEM-1", "umem_id outside the UMEM ids (from 1, 2^log_max_objects)")  \
	X(UMEM_IN_USE, BAD_RES_STATE, "PRM §3.1 (objects named cannot go first); D-OBJ-1, "     \
	  "D-UMEM-5", "DESTROY_UMEM of a UMEM a live object keeps its buffer or doorbell in")    \
	X(UMEM_REF_NOT_FOUND, BAD_RESOURCE, "mlx5_ifc.h create_cq_in cq_umem_id, cqc "          \
	  "dbr_umem_id; D-UMEM-5", "a *_umem_valid object names a umem_id that is not live")     \
	X(UMEM_REF_OUT_OF_RANGE, BAD_INDEX, "mlx5_ifc.h create_cq_in cq_umem_id, cqc "          \
	  "dbr_umem_id, wq_bits wq_umem_id, dbr_umem_id; PRM T128 0x0A; D-OBJ-2, D-UMEM-5",      \
	  "a *_umem_valid object names a umem_id outside the UMEM ids")                          \
	X(UMEM_REF_MISALIGNED, BAD_PARAM, "mlx5_ifc.h create_cq_in cq_umem_offset; PRM T76 "    \
	  "page_offset 'Must be 0'; D-UMEM-5",                                                  \
	  "a queue buffer that does not start on a 4 KB boundary of its UMEM's pages")           \
	X(UMEM_REF_BEYOND, BAD_PARAM, "mlx5_ifc.h create_cq_in cq_umem_offset, cqc dbr_addr; "   \
	  "D-UMEM-5, D-UMEM-6",                                                                 \
	  "a queue buffer or doorbell record that does not lie inside its UMEM")

#endif
