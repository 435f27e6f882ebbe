/* Layouts of the init and general commands (PRM §12.3), ACCESS_REGISTER (§12.4.1) and
 * NOP (§12.18). Row format: see prm/layouts.h.
 *
 * Common to every command below: inputs carry opcode 00h[31:16] and op_mod 04h[15:0], outputs
 * status 00h[31:24] and syndrome 04h[31:0] (T99-T102). Sizes are the fixed part each layout
 * grid shows; rows only for named fields (everything else is reserved). */
#ifndef NICREF_PRM_LAYOUTS_INIT_H
#define NICREF_PRM_LAYOUTS_INIT_H

/* PRM §12.3.1 T130/T131: QUERY_PAGES input. op_mod 1 boot, 2 init, 3 regular pages. T131 lists
 * no row for 08h/0Ch; the T130 grid runs to 0Ch, so the size is 10h. */
#define PRM_L_query_pages_in(F, W, A, L)                                                        \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.1 T132/T133: QUERY_PAGES output. num_pages is signed (T133: > 0 the driver must
 * give pages, < 0 it may reclaim; the prose at L5347 says the opposite; D-PG-1 in
 * docs/decisions.md follows T133). */
#define PRM_L_query_pages_out(F, W, A, L)                                                       \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, num_pages, 0x0C, 31, 0)

/* PRM §12.3.2 T138/T139: Physical Address Structure (PAS), one 8-byte entry of pas[]. */
#define PRM_L_cmd_pas(F, W, A, L)                                                               \
	F(L, pa_h, 0x00, 31, 0)                                                                 \
	F(L, pa_l, 0x04, 31, 12)

/* PRM §12.3.2 T134/T135: MANAGE_PAGES input. T135 gives pas[...] at "10h-..." with Bits "64",
 * a width: one 64-bit cmd_pas entry (T138) per element, input_num_entries of them. */
#define PRM_L_manage_pages_in(F, W, A, L)                                                       \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, input_num_entries, 0x0C, 31, 0)                                                    \
	A(L, pas, 0x10, 64)

/* PRM §12.3.2 T136/T137: MANAGE_PAGES output. REC: the T136 grid is split in two blocks with
 * the same title and puts syndrome in the Offset column; T137 is followed (syndrome 04h[31:0],
 * output_num_entries 08h[31:0], pas[] of 64-bit cmd_pas entries from 10h, Bits "64" a width). */
#define PRM_L_manage_pages_out(F, W, A, L)                                                      \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, output_num_entries, 0x08, 31, 0)                                                   \
	A(L, pas, 0x10, 64)

/* PRM §12.3.3 T140/T141: QUERY_HCA_CAP input. op_mod bit 0: 0 maximum, 1 current; bits 15:1:
 * capability type (0 general, 1 Ethernet offload, 7 NIC flow table). */
#define PRM_L_query_hca_cap_in(F, W, A, L)                                                      \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.3 T142/T143: QUERY_HCA_CAP output. T143 is split in two blocks; capability is
 * 10h-100Ch, Bits "32768" a width (4 KB; its contents are T144-T153, not laid out here). */
#define PRM_L_query_hca_cap_out(F, W, A, L)                                                     \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	W(L, capability, 0x10, 32768)

/* PRM §12.3.4 T154/T155: SET_HCA_CAP input. T154 is split in two blocks (00h-08h, 0Ch-100Ch).
 * capability 10h-100Ch, Bits "32768" a width. T155 says op_mod bit 0 is reserved, yet its
 * capability description repeats op_mod[0] max/current from T143 (a copy; bit 0 reserved). */
#define PRM_L_set_hca_cap_in(F, W, A, L)                                                        \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	W(L, capability, 0x10, 32768)

/* PRM §12.3.4 T156/T157: SET_HCA_CAP output (T157 split; 08h-0Ch reserved). */
#define PRM_L_set_hca_cap_out(F, W, A, L)                                                       \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.5 T158/T159: QUERY_ADAPTER input (08h-0Ch reserved). */
#define PRM_L_query_adapter_in(F, W, A, L)                                                      \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.5 T160/T161: QUERY_ADAPTER output. "query_adapter struct" 10h-10Ch, Bits "2048" a
 * width: the query_adapter_param_block (T162-T164). */
#define PRM_L_query_adapter_out(F, W, A, L)                                                     \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	W(L, query_adapter_struct, 0x10, 2048)

/* PRM §12.3.5 T162/T163/T164: QUERY_ADAPTER parameters block (offsets relative to output 10h).
 * REC: the T162 grid is shifted (ieee_vendor_id under bit 13, vsd_vendor_id under bit 16);
 * T163 is followed: ieee_vendor_id 18h[23:0] (ISSI >= 1 only), vsd_vendor_id 1Ch[15:0],
 * vsd 20h-ECh (Bits "1664" a width), vsd_contd_psid F0h-FCh (Bits "128"; T164 gives its
 * byte order, first character in 0F0h[31:24]). 00h-14h reserved. */
#define PRM_L_query_adapter_param_block(F, W, A, L)                                             \
	F(L, ieee_vendor_id, 0x18, 23, 0)                                                       \
	F(L, vsd_vendor_id, 0x1C, 15, 0)                                                        \
	W(L, vsd, 0x20, 1664)                                                                   \
	W(L, vsd_contd_psid, 0xF0, 128)

/* PRM §12.3.6 T165/T166: INIT_HCA input (T166 "08-0Ch 31:0 reserved": 08h-0Ch reserved). */
#define PRM_L_init_hca_in(F, W, A, L)                                                           \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.6 T167/T168: INIT_HCA output (08h-0Ch reserved). */
#define PRM_L_init_hca_out(F, W, A, L)                                                          \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.7 T169/T170: TEARDOWN_HCA input. profile 0 graceful close, 1 panic close. */
#define PRM_L_teardown_hca_in(F, W, A, L)                                                       \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, profile, 0x08, 15, 0)

/* PRM §12.3.7 T171/T172: TEARDOWN_HCA output (08h-0Ch reserved). */
#define PRM_L_teardown_hca_out(F, W, A, L)                                                      \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.8 T173/T174: ENABLE_HCA input (grid runs to 0Ch; 08h-0Ch reserved). */
#define PRM_L_enable_hca_in(F, W, A, L)                                                         \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.8 T175/T176: ENABLE_HCA output. The T175 grid and T176 both end at 08h (reserved),
 * so the structure is 0Ch bytes, not the 10h of most command outputs. */
#define PRM_L_enable_hca_out(F, W, A, L)                                                        \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.9 T177/T178: DISABLE_HCA input (T177 split in two blocks; 08h-0Ch reserved). */
#define PRM_L_disable_hca_in(F, W, A, L)                                                        \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.9 T179/T180: DISABLE_HCA output. T179 and T180 end at 08h (reserved): 0Ch bytes,
 * not the 10h of most command outputs. */
#define PRM_L_disable_hca_out(F, W, A, L)                                                       \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.10 T181/T182: QUERY_ISSI input (T181 split, first part titled "QUERY_ISSi";
 * 08h-0Ch reserved). */
#define PRM_L_query_issi_in(F, W, A, L)                                                         \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.10 T183/T184: QUERY_ISSI output. 0Ch-1Ch reserved (T183 prints "0Ch-1C").
 * supported_issi 20h-6Ch, Bits "640" a width: a big-endian bitmask, bit N = ISSI N, so ISSI 0
 * is bit 0 of the dword at 6Ch. */
#define PRM_L_query_issi_out(F, W, A, L)                                                        \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, current_issi, 0x08, 15, 0)                                                         \
	W(L, supported_issi, 0x20, 640)

/* PRM §12.3.11 T185/T186: SET_ISSI input (0Ch reserved). */
#define PRM_L_set_issi_in(F, W, A, L)                                                           \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, current_issi, 0x08, 15, 0)

/* PRM §12.3.11 T187/T188: SET_ISSI output. T188 omits the 08h-0Ch row the T187 grid shows
 * (reserved); size 10h. */
#define PRM_L_set_issi_out(F, W, A, L)                                                          \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.12 T189/T190: SET_DRIVER_VERSION input. 08h-0Ch reserved; driver_version 10h-4Ch,
 * Bits "512" a width (64-byte string, NUL included). */
#define PRM_L_set_driver_version_in(F, W, A, L)                                                 \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	W(L, driver_version, 0x10, 512)

/* PRM §12.3.12 T191/T192: SET_DRIVER_VERSION output. T192 omits the 08h-0Ch row the T191 grid
 * shows (reserved); size 10h. */
#define PRM_L_set_driver_version_out(F, W, A, L)                                                \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.13 T193/T194: ALLOC_PD input (08h-0Ch reserved). */
#define PRM_L_alloc_pd_in(F, W, A, L)                                                           \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.13 T195/T196: ALLOC_PD output (0Ch reserved). */
#define PRM_L_alloc_pd_out(F, W, A, L)                                                          \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, pd, 0x08, 23, 0)

/* PRM §12.3.14 T197/T198: DEALLOC_PD input (0Ch reserved). */
#define PRM_L_dealloc_pd_in(F, W, A, L)                                                         \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, pd, 0x08, 23, 0)

/* PRM §12.3.14 T199/T200: DEALLOC_PD output (08h-0Ch reserved). */
#define PRM_L_dealloc_pd_out(F, W, A, L)                                                        \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.15 T201/T202: ALLOC_UAR input (08h-0Ch reserved). */
#define PRM_L_alloc_uar_in(F, W, A, L)                                                          \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.15 T203/T204: ALLOC_UAR output (0Ch reserved). */
#define PRM_L_alloc_uar_out(F, W, A, L)                                                         \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, uar, 0x08, 23, 0)

/* PRM §12.3.16 T205/T206: DEALLOC_UAR input (0Ch reserved). */
#define PRM_L_dealloc_uar_in(F, W, A, L)                                                        \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, uar, 0x08, 23, 0)

/* PRM §12.3.16 T207/T208: DEALLOC_UAR output (08h-0Ch reserved). */
#define PRM_L_dealloc_uar_out(F, W, A, L)                                                       \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.3.17 T209/T210: CONFIG_INT_MODERATION input. op_mod 0 write, 1 read; min_delay in
 * 1 us units; int_vector is the MSI-X vector (reserved without MSI-X). 0Ch reserved. */
#define PRM_L_config_int_moderation_in(F, W, A, L)                                              \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, min_delay, 0x08, 27, 16)                                                           \
	F(L, int_vector, 0x08, 15, 0)

/* PRM §12.3.17 T211/T212: CONFIG_INT_MODERATION output (T212 split in two blocks; 0Ch
 * reserved). */
#define PRM_L_config_int_moderation_out(F, W, A, L)                                             \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, min_delay, 0x08, 27, 16)                                                           \
	F(L, int_vector, 0x08, 15, 0)

/* PRM §12.3.18 T213/T214: ALLOC_TRANSPORT_DOMAIN input (08h-0Ch reserved). */
#define PRM_L_alloc_transport_domain_in(F, W, A, L)                                             \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.3.18 T215/T216: ALLOC_TRANSPORT_DOMAIN output (T216 split; 0Ch reserved). */
#define PRM_L_alloc_transport_domain_out(F, W, A, L)                                            \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	F(L, transport_domain, 0x08, 23, 0)

/* PRM §12.3.19 T217/T218: DEALLOC_TRANSPORT_DOMAIN input (0Ch reserved). */
#define PRM_L_dealloc_transport_domain_in(F, W, A, L)                                           \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, transport_domain, 0x08, 23, 0)

/* PRM §12.3.19 T219/T220: DEALLOC_TRANSPORT_DOMAIN output (08h-0Ch reserved). */
#define PRM_L_dealloc_transport_domain_out(F, W, A, L)                                          \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

/* PRM §12.4.1 T221/T222: ACCESS_REGISTER input. op_mod 0 write, 1 read. "register data[...]"
 * is 32-bit dwords from 10h to the end (the register's own layout; reserved on read). */
#define PRM_L_access_reg_in(F, W, A, L)                                                         \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	F(L, register_id, 0x08, 15, 0)                                                          \
	F(L, argument, 0x0C, 31, 0)                                                             \
	A(L, register_data, 0x10, 32)

/* PRM §12.4.1 T223/T224: ACCESS_REGISTER output. 08h-0Ch reserved (T224 prints it "08h-0Ch
 * 31:0"); register data[...] dwords from 10h (reserved on write). */
#define PRM_L_access_reg_out(F, W, A, L)                                                        \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	A(L, register_data, 0x10, 32)

/* PRM §12.18.1 T493/T494: NOP input. */
#define PRM_L_nop_in(F, W, A, L)                                                                \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)

/* PRM §12.18.1 T495/T496: NOP output. */
#define PRM_L_nop_out(F, W, A, L)                                                               \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)

#define NICREF_LAYOUTS_INIT(X)                                                                  \
	X(query_pages_in, 0x10, "PRM §12.3.1 T130/T131")                                        \
	X(query_pages_out, 0x10, "PRM §12.3.1 T132/T133")                                       \
	X(cmd_pas, 0x08, "PRM §12.3.2 T138/T139")                                               \
	X(manage_pages_in, 0x10, "PRM §12.3.2 T134/T135")                                       \
	X(manage_pages_out, 0x10, "PRM §12.3.2 T136/T137")                                      \
	X(query_hca_cap_in, 0x10, "PRM §12.3.3 T140/T141")                                      \
	X(query_hca_cap_out, 0x1010, "PRM §12.3.3 T142/T143")                                   \
	X(set_hca_cap_in, 0x1010, "PRM §12.3.4 T154/T155")                                      \
	X(set_hca_cap_out, 0x10, "PRM §12.3.4 T156/T157")                                       \
	X(query_adapter_in, 0x10, "PRM §12.3.5 T158/T159")                                      \
	X(query_adapter_out, 0x110, "PRM §12.3.5 T160/T161")                                    \
	X(query_adapter_param_block, 0x100, "PRM §12.3.5 T162/T163/T164")                       \
	X(init_hca_in, 0x10, "PRM §12.3.6 T165/T166")                                           \
	X(init_hca_out, 0x10, "PRM §12.3.6 T167/T168")                                          \
	X(teardown_hca_in, 0x10, "PRM §12.3.7 T169/T170")                                       \
	X(teardown_hca_out, 0x10, "PRM §12.3.7 T171/T172")                                      \
	X(enable_hca_in, 0x10, "PRM §12.3.8 T173/T174")                                         \
	X(enable_hca_out, 0x0C, "PRM §12.3.8 T175/T176")                                        \
	X(disable_hca_in, 0x10, "PRM §12.3.9 T177/T178")                                        \
	X(disable_hca_out, 0x0C, "PRM §12.3.9 T179/T180")                                       \
	X(query_issi_in, 0x10, "PRM §12.3.10 T181/T182")                                        \
	X(query_issi_out, 0x70, "PRM §12.3.10 T183/T184")                                       \
	X(set_issi_in, 0x10, "PRM §12.3.11 T185/T186")                                          \
	X(set_issi_out, 0x10, "PRM §12.3.11 T187/T188")                                         \
	X(set_driver_version_in, 0x50, "PRM §12.3.12 T189/T190")                                \
	X(set_driver_version_out, 0x10, "PRM §12.3.12 T191/T192")                               \
	X(alloc_pd_in, 0x10, "PRM §12.3.13 T193/T194")                                          \
	X(alloc_pd_out, 0x10, "PRM §12.3.13 T195/T196")                                         \
	X(dealloc_pd_in, 0x10, "PRM §12.3.14 T197/T198")                                        \
	X(dealloc_pd_out, 0x10, "PRM §12.3.14 T199/T200")                                       \
	X(alloc_uar_in, 0x10, "PRM §12.3.15 T201/T202")                                         \
	X(alloc_uar_out, 0x10, "PRM §12.3.15 T203/T204")                                        \
	X(dealloc_uar_in, 0x10, "PRM §12.3.16 T205/T206")                                       \
	X(dealloc_uar_out, 0x10, "PRM §12.3.16 T207/T208")                                      \
	X(config_int_moderation_in, 0x10, "PRM §12.3.17 T209/T210")                             \
	X(config_int_moderation_out, 0x10, "PRM §12.3.17 T211/T212")                            \
	X(alloc_transport_domain_in, 0x10, "PRM §12.3.18 T213/T214")                            \
	X(alloc_transport_domain_out, 0x10, "PRM §12.3.18 T215/T216")                           \
	X(dealloc_transport_domain_in, 0x10, "PRM §12.3.19 T217/T218")                          \
	X(dealloc_transport_domain_out, 0x10, "PRM §12.3.19 T219/T220")                         \
	X(access_reg_in, 0x10, "PRM §12.4.1 T221/T222")                                         \
	X(access_reg_out, 0x10, "PRM §12.4.1 T223/T224")                                        \
	X(nop_in, 0x10, "PRM §12.18.1 T493/T494")                                               \
	X(nop_out, 0x10, "PRM §12.18.1 T495/T496")

#endif
