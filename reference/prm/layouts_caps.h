/* Layouts of the capability structures of QUERY_HCA_CAP / SET_HCA_CAP (PRM §12.3.3,
 * T144-T153). Row format: see prm/layouts.h. Offsets are relative to the capability field
 * (QUERY_HCA_CAP output / SET_HCA_CAP input 10h). */
#ifndef NICREF_PRM_LAYOUTS_CAPS_H
#define NICREF_PRM_LAYOUTS_CAPS_H

/* PRM §12.3.3.1 T144/T145: general device capabilities (op_mod type 0). Names are T145's. */
#define PRM_L_hca_cap(F, W, A, L)                                                               \
	F(L, num_ports, 0x34, 7, 0)                                                             \
	F(L, cqe_version, 0x3C, 3, 0)                                                           \
	F(L, cmdif_checksum, 0x40, 15, 14)                                                      \
	F(L, uar_sz, 0x48, 21, 16)                                                              \
	F(L, driver_version, 0x4C, 30, 30)                                                      \
	F(L, log_max_transport_domain, 0x64, 28, 24)                                            \
	F(L, log_max_pd, 0x64, 20, 16)                                                          \
	F(L, log_uar_page_sz, 0x90, 15, 0)

#define NICREF_LAYOUTS_CAPS(X) X(hca_cap, 0x1000, "PRM §12.3.3.1 T144/T145")

#endif
