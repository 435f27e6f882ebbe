/* The receive path's driver violations (PRM §7.4.1.2, §7.4.4.3-§7.4.4.5, §3.3.9, §9.2.3): what
 * a receive WQE or the way it is posted can get wrong. Collected into NICREF_VIOLATIONS
 * (nicref/trace.h through nicref/rules_ctrl.h), rows X(ID, "citation", "what the driver did
 * wrong"), each citation naming its section so vectors match a violation by clause. What the
 * device does with each is in docs/rx.md (D-RX-*). The frame itself breaks no rule of the
 * driver: drops of frames (size, vport, steering, no WQE) are outcomes, traced as rx_drop. */
#ifndef NICREF_RULES_RX_H
#define NICREF_RULES_RX_H

#define NICREF_VIOLATIONS_RX(X)                                                                 \
	X(RX_WQE_SIGNATURE, "PRM §9.2.3, §7.4.1.2 T23 / §7.4.4.4 T43 signature (\"Should "        \
	  "result in 0xff\")",                                                                  \
	  "wq_signature is set and the receive WQE stride, the RQ (RMP) number and the WQE "     \
	  "index do not XOR to 0xFF: completion with error 0x2 (arg: rqn << 32 | wqe_counter << " \
	  "8 | xor)")                                                                           \
	X(RX_WQE_LKEY, "PRM §7.4.4.1.5 T40, §6.1",                                              \
	  "a scatter entry's L_Key does not translate its bytes for a local write with the "     \
	  "queue's PD: completion with error 0x4 (arg: rqn << 32 | wqe_counter << 8 | -mkey_err)") \
	X(RX_WQE_TOO_SHORT, "PRM §7.4.1.2 (the scatter list), §7.12.7 T74 0x1",                   \
	  "the frame (after VLAN stripping, with the start padding) is longer than the WQE's "  \
	  "scatter entries: completion with error 0x1 and the RQ to ERR (arg: rqn << 32 | "      \
	  "wqe_counter << 16 | capacity, 16 bits)")                                             \
	X(RX_START_PAD_UNSUPPORTED, "PRM §3.3.9 (\"supported only when HCA_CAP.start_pad==1\")", \
	  "start_padding set in a scatter entry while HCA_CAP.start_pad is 0; not padded (arg: " \
	  "rqn << 32 | wqe_counter)")                                                           \
	X(RX_START_PAD_NOT_FIRST, "PRM §3.3.9, §7.4.4.1.5 T40 start_padding",                   \
	  "start_padding set in a scatter entry other than the first; ignored (D-RX-1) (arg: "   \
	  "rqn << 32 | wqe_counter << 8 | entry)")                                               \
	X(RX_LL_NEXT_BEYOND_RING, "PRM §7.4.4.4 T43 Next_WQE_index (\"Index (pointer) in the "  \
	  "WQE buffer\"), T55 log_wq_sz",                                                       \
	  "a linked-list receive WQE (an RQ's or an RMP's, wq_type 0) names as the next WQE a "  \
	  "stride at or beyond the 2^log_wq_sz of the buffer; the device takes the stride it "   \
	  "names modulo the ring (D-RX-16, D-RMP-1) (arg: rqn << 32 | Next_WQE_index << 16 | "   \
	  "the stride taken)")

#endif
