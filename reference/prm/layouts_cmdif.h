/* Layouts of the initialization segment and the command interface transport.
 * Row format: see prm/layouts.h. */
#ifndef NICREF_PRM_LAYOUTS_CMDIF_H
#define NICREF_PRM_LAYOUTS_CMDIF_H

/* PRM §4.3 T7/T8: initialization segment at BAR0 offset 0. T7's grid is shifted in the
 * conversion; T8 is authoritative. The health buffer is at 1010h as T8 places it. */
#define PRM_L_init_seg(F, W, A, L)                                                              \
	F(L, fw_rev_minor, 0x0000, 31, 16)                                                      \
	F(L, fw_rev_major, 0x0000, 15, 0)                                                       \
	F(L, cmd_interface_rev, 0x0004, 31, 16)                                                 \
	F(L, fw_rev_subminor, 0x0004, 15, 0)                                                    \
	F(L, cmdq_phy_addr_63_32, 0x0010, 31, 0)                                                \
	F(L, cmdq_phy_addr_31_12, 0x0014, 31, 12)                                               \
	F(L, nic_interface, 0x0014, 9, 8)                                                       \
	F(L, log_cmdq_size, 0x0014, 7, 4)                                                       \
	F(L, log_cmdq_stride, 0x0014, 3, 0)                                                     \
	F(L, command_doorbell_vector, 0x0018, 31, 0)                                            \
	F(L, initializing, 0x01FC, 31, 31)                                                      \
	F(L, nic_interface_supported, 0x01FC, 26, 24)                                           \
	F(L, internal_timer_h, 0x1000, 31, 0)                                                   \
	F(L, internal_timer_l, 0x1004, 31, 0)                                                   \
	F(L, clear_int, 0x100C, 0, 0)                                                           \
	F(L, health_syndrome, 0x1010, 31, 24)                                                   \
	F(L, health_counter, 0x1010, 23, 0)

/* PRM §7.14.1 T95/T96: command queue entry. */
#define PRM_L_cmdq_entry(F, W, A, L)                                                            \
	F(L, type, 0x00, 31, 24)                                                                \
	F(L, input_length, 0x04, 31, 0)                                                         \
	F(L, input_mailbox_pointer_63_32, 0x08, 31, 0)                                          \
	F(L, input_mailbox_pointer_31_9, 0x0C, 31, 9)                                           \
	W(L, command_input_inline_data, 0x10, 128)                                              \
	W(L, command_output_inline_data, 0x20, 128)                                             \
	F(L, output_mailbox_pointer_63_32, 0x30, 31, 0)                                         \
	F(L, output_mailbox_pointer_31_9, 0x34, 31, 9)                                          \
	F(L, output_length, 0x38, 31, 0)                                                        \
	F(L, token, 0x3C, 31, 24)                                                               \
	F(L, signature, 0x3C, 23, 16)                                                           \
	F(L, status, 0x3C, 7, 1)                                                                \
	F(L, ownership, 0x3C, 0, 0)

/* PRM §7.14.1.1 T97/T98: command interface mailbox block. */
#define PRM_L_cmd_mailbox(F, W, A, L)                                                           \
	W(L, mailbox_data, 0x000, 4096)                                                         \
	F(L, next_pointer_63_32, 0x230, 31, 0)                                                  \
	F(L, next_pointer_31_10, 0x234, 31, 10)                                                 \
	F(L, block_number, 0x238, 31, 0)                                                        \
	F(L, token, 0x23C, 23, 16)                                                              \
	F(L, ctrl_signature, 0x23C, 15, 8)                                                      \
	F(L, signature, 0x23C, 7, 0)

/* PRM §7.14.1.2 T99/T100: command input header; command-specific data from 08h. */
#define PRM_L_cmd_in(F, W, A, L)                                                                \
	F(L, opcode, 0x00, 31, 16)                                                              \
	F(L, op_mod, 0x04, 15, 0)                                                               \
	A(L, command, 0x08, 32)

/* PRM §7.14.1.2 T101/T102: command output header; command output from 08h. */
#define PRM_L_cmd_out(F, W, A, L)                                                               \
	F(L, status, 0x00, 31, 24)                                                              \
	F(L, syndrome, 0x04, 31, 0)                                                             \
	A(L, command_output, 0x08, 32)

#define NICREF_LAYOUTS_CMDIF(X)                                                                 \
	X(init_seg, 0x1014, "PRM §4.3 T7/T8")                                                   \
	X(cmdq_entry, 0x40, "PRM §7.14.1 T95/T96")                                              \
	X(cmd_mailbox, 0x240, "PRM §7.14.1.1 T97/T98")                                          \
	X(cmd_in, 0x08, "PRM §7.14.1.2 T99/T100")                                               \
	X(cmd_out, 0x08, "PRM §7.14.1.2 T101/T102")

#endif
