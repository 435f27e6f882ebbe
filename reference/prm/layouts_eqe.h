/* Layouts of event queue entries (PRM §7.13.2.2, §7.13.7-§7.13.10): the EQE, the event data of
 * each event type, the whole EQE of each type, and the table of event types (T79). The device
 * writes every EQE field through these rows (obj/eq_event.c and the raisers of events), and
 * `nicref decode eqe_cq_error HEX` prints an EQE field by field. Row format: see
 * prm/layouts.h; PRM_R_<name>(F, W, A, L, B) as in prm/layouts_eq.h. */
#ifndef NICREF_PRM_LAYOUTS_EQE_H
#define NICREF_PRM_LAYOUTS_EQE_H

/* PRM §7.13.2.2 T77/T78: Event Queue Entry. REC: the T77 grid puts event_data at 04h-1Ch;
 * T78 (20h-38h, 224 bits) is followed, as is the owner at 3Ch[0] and signature at 3Ch[15:8]. */
#define PRM_R_eqe_hdr(F, W, A, L, B)                                                            \
	F(L, event_type, B + 0x00, 23, 16)                                                      \
	F(L, event_sub_type, B + 0x00, 7, 0)                                                    \
	F(L, signature, B + 0x3C, 15, 8)                                                        \
	F(L, owner, B + 0x3C, 0, 0)
#define PRM_L_eqe(F, W, A, L) PRM_R_eqe_hdr(F, W, A, L, 0x00) W(L, event_data, 0x20, 224)

/* Event data (EQE 20h-3Bh), offsets relative to event_data as the PRM prints them. */
/* PRM §7.13.7 T80/T81: completion event. */
#define PRM_R_eqe_data_completion(F, W, A, L, B) F(L, cq_number, B + 0x18, 23, 0)
/* PRM §7.13.8.1 T82/T83: SQ/RQ events (Last WQE Reached). type 1 RQ, 2 SQ. */
#define PRM_R_eqe_data_wq(F, W, A, L, B)                                                        \
	F(L, type, B + 0x14, 31, 24)                                                            \
	F(L, rqn_sqn, B + 0x18, 23, 0)
/* PRM §7.13.8.2 T84/T85: CQ error. syndrome 0x1 CQ_overrun, 0x2 CQ_access_violation_error. */
#define PRM_R_eqe_data_cq_error(F, W, A, L, B)                                                  \
	F(L, cqn, B + 0x00, 23, 0)                                                              \
	F(L, syndrome, B + 0x08, 7, 0)
/* PRM §7.13.9.2 T86/T87: port state change (sub_type T88). */
#define PRM_R_eqe_data_port_state(F, W, A, L, B) F(L, port_num, B + 0x08, 31, 28)
/* PRM §7.13.10.1 T89/T90: command interface completion. */
#define PRM_R_eqe_data_cmd(F, W, A, L, B) F(L, command_completion_vector, B + 0x00, 31, 0)
/* PRM §7.13.10.2 T91/T92: pages request (num_pages signed). */
#define PRM_R_eqe_data_page_request(F, W, A, L, B) F(L, num_pages, B + 0x04, 31, 0)

#define PRM_L_eqe_data_completion(F, W, A, L) PRM_R_eqe_data_completion(F, W, A, L, 0x00)
#define PRM_L_eqe_data_wq(F, W, A, L) PRM_R_eqe_data_wq(F, W, A, L, 0x00)
#define PRM_L_eqe_data_cq_error(F, W, A, L) PRM_R_eqe_data_cq_error(F, W, A, L, 0x00)
#define PRM_L_eqe_data_port_state(F, W, A, L) PRM_R_eqe_data_port_state(F, W, A, L, 0x00)
#define PRM_L_eqe_data_cmd(F, W, A, L) PRM_R_eqe_data_cmd(F, W, A, L, 0x00)
#define PRM_L_eqe_data_page_request(F, W, A, L) PRM_R_eqe_data_page_request(F, W, A, L, 0x00)

/* Whole EQEs: the header of T77/T78 with the event data at 20h. */
#define PRM_EQE_VIEW(F, W, A, L, data) PRM_R_eqe_hdr(F, W, A, L, 0x00) PRM_R_##data(F, W, A, L, 0x20)
#define PRM_L_eqe_completion(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_completion)
#define PRM_L_eqe_wq(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_wq)
#define PRM_L_eqe_cq_error(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_cq_error)
#define PRM_L_eqe_port_state(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_port_state)
#define PRM_L_eqe_cmd(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_cmd)
#define PRM_L_eqe_page_request(F, W, A, L) PRM_EQE_VIEW(F, W, A, L, eqe_data_page_request)

/* PRM §7.13.3 T79: the event types, one row per (event_type, event_sub_type) the device knows,
 * with the T79 name, the clause that gives its EQE format and the whole-EQE layout above that
 * the EQE is written through (`eqe`: T79 gives no event data format).
 *   X(ID, event_type, event_sub_type, "name", "clause", layout)
 * event_sub_type is "zero elsewhere" (T78) except Port_State_Change: T88 lists 0x1, 0x4 and 0x5
 * all as "port changed its state"; the public mlx5 encoding is followed (D-REG-23): 0x1 down,
 * 0x4 active, 0x5 initialized (InfiniBand's: never raised). The rows marked D-EV-1 are codes T79
 * lacks (public mlx5 values) for events the PRM names elsewhere; their data is T82/T83's. */
#define PRM_EQE_EVENTS(X)                                                                       \
	X(COMPLETION, 0x00, 0x0, "Completion_Events", "PRM §7.13.7 T80/T81", eqe_completion)    \
	X(CQ_ERROR, 0x04, 0x0, "CQ_Error", "PRM §7.13.8.2 T84/T85", eqe_cq_error)               \
	X(RQ_CATASTROPHIC, 0x05, 0x0, "RQ_Catastrophic_Error", "PRM §7.7.1 T57; D-EV-1", eqe_wq) \
	X(INTERNAL_ERROR, 0x08, 0x0, "Internal_Error",                                          \
	  "PRM §7.13.9.1 (no EQE: the health buffer, T8 1010h)", eqe)                           \
	X(PORT_DOWN, 0x09, 0x1, "Port_State_Change", "PRM §7.13.9.2 T86-T88; D-REG-23",         \
	  eqe_port_state)                                                                       \
	X(PORT_ACTIVE, 0x09, 0x4, "Port_State_Change", "PRM §7.13.9.2 T86-T88; D-REG-23",       \
	  eqe_port_state)                                                                       \
	X(PORT_INITIALIZED, 0x09, 0x5, "Port_State_Change", "PRM §7.13.9.2 T86-T88; D-REG-23",  \
	  eqe_port_state)                                                                       \
	X(CMD_COMPLETION, 0x0A, 0x0, "Command_Interface_Completion", "PRM §7.13.10.1 T89/T90",  \
	  eqe_cmd)                                                                              \
	X(PAGE_REQUEST, 0x0B, 0x0, "Page_Request", "PRM §7.13.10.2 T91/T92", eqe_page_request)  \
	X(RMP_CATASTROPHIC, 0x12, 0x0, "RMP_Catastrophic_Error", "PRM §7.7.2.2; D-EV-1", eqe_wq) \
	X(LAST_WQE_REACHED, 0x13, 0x0, "Last_WQE_Reached", "PRM §7.13.8.1 T82/T83", eqe_wq)     \
	X(RMP_LIMIT, 0x14, 0x0, "RMP_Limit", "PRM §7.4 T55 lwm; D-EV-1, D-WQ-2", eqe_wq)        \
	X(TEMP_WARNING, 0x17, 0x0, "Temp_Warning_Event", "PRM §7.13.3 T79 (no format)", eqe)

#define NICREF_LAYOUTS_EQE(X)                                                                   \
	X(eqe, 0x40, "PRM §7.13.2.2 T77/T78")                                                   \
	X(eqe_data_completion, 0x1C, "PRM §7.13.7 T80/T81")                                     \
	X(eqe_data_wq, 0x1C, "PRM §7.13.8.1 T82/T83")                                           \
	X(eqe_data_cq_error, 0x1C, "PRM §7.13.8.2 T84/T85")                                     \
	X(eqe_data_port_state, 0x1C, "PRM §7.13.9.2 T86/T87")                                   \
	X(eqe_data_cmd, 0x1C, "PRM §7.13.10.1 T89/T90")                                         \
	X(eqe_data_page_request, 0x1C, "PRM §7.13.10.2 T91/T92")                                \
	X(eqe_completion, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.7 T81 at 20h")                   \
	X(eqe_wq, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.8.1 T83 at 20h")                         \
	X(eqe_cq_error, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.8.2 T85 at 20h")                   \
	X(eqe_port_state, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.9.2 T87 at 20h")                 \
	X(eqe_cmd, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.10.1 T90 at 20h")                       \
	X(eqe_page_request, 0x40, "PRM §7.13.2.2 T77/T78 + §7.13.10.2 T92 at 20h")

#endif
