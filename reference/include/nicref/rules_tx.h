/* The send path's vocabulary (PRM §7.4, §7.9, §7.12, §10.1.1): the driver violations a send
 * doorbell, a send WQE or a UMR can carry, the send WQE opcodes, and the syndromes of a
 * completion with error. Violations are collected into NICREF_VIOLATIONS (nicref/trace.h
 * through nicref/rules_ctrl.h), rows X(ID, "citation", "what the driver did wrong"); each
 * citation names its section ("PRM §x.y") so vectors can match a violation by clause. What the
 * device does with each one is in docs/tx.md (D-TX-*). */
#ifndef NICREF_RULES_TX_H
#define NICREF_RULES_TX_H

#include "nicref/api.h"

/* Driver violations of the send path. Where the device refuses the WQE the text names the
 * syndrome of its completion with error (T74; 0x2 is D-TX-9). */
#define NICREF_VIOLATIONS_TX(X)                                                                 \
	/* the doorbell and the record (obj/sq_db.c, eth/sq_exec.c) */                            \
	X(SQ_DB_AHEAD_OF_RECORD, "PRM §7.4.3.1 (the doorbell points to the last WQE posted; "   \
	  "the record counts all WQEs posted)",                                                 \
	  "send doorbell whose wqe_index is not below the record's sq_wqebb_counter: nothing is " \
	  "executed (arg: sqn << 32 | wqe_index << 16 | record)")                               \
	X(SQ_DB_RECORD_OVERFLOW, "PRM §7.4.1.1 (the SQ holds 2^log_sq_size WQEBBs), §7.4.2",     \
	  "the record is more WQEBBs ahead of the device than the SQ holds: nothing is executed " \
	  "(arg: sqn << 32 | hw_counter << 16 | record)")                                        \
	X(SQ_BF_MISMATCH, "PRM §7.2.2.1 (the WQE is written to the Blue Flame buffer \"in "     \
	  "addition to memory\")",                                                              \
	  "Blue Flame copy differs from the WQE in memory; the copy is executed (arg: sqn << 32 " \
	  "| wqe_index)")                                                                       \
	X(SQ_BF_DS_ONE, "PRM §7.2.2.1 (\"For WQEs with DS=1, blue flame is not supported\")",   \
	  "a WQE of ds 1 written through a Blue Flame buffer; it is read from memory (arg: sqn " \
	  "<< 32 | wqe_index)")                                                                 \
	/* the ctrl segment (eth/wqe_ctrl.c) */                                                 \
	X(TX_WQE_BEYOND_RECORD, "PRM §7.4.3 (ownership passes by the record), §7.4.1.1",        \
	  "the WQE's WQEBBs run past the record's sq_wqebb_counter: it is not executed until the " \
	  "record covers it (arg: sqn << 32 | wqe_index << 16 | ds)")                             \
	X(TX_WQE_DS_ZERO, "PRM §7.4.4.1.1 T26 DS (\"accounts for all the segments\")",          \
	  "ds 0: local QP operation error 0x2 (arg: sqn << 32 | wqe_index)")                     \
	X(TX_WQE_INDEX, "PRM §7.4.4.1.1 T26 WQE Index (\"WQEBB number of the first block of "   \
	  "this WQE\")",                                                                        \
	  "ctrl wqe_index is not the WQEBB counter the WQE sits at: error 0x2 (arg: sqn << 32 | " \
	  "counter << 16 | wqe_index)")                                                         \
	X(TX_WQE_SQ_NUMBER, "PRM §7.4.4.1.1 T26 SQ number (\"SQ number this WQE is posted to\")", \
	  "ctrl sq_number is not the SQ: error 0x2 (arg: sqn << 32 | sq_number)")               \
	X(TX_WQE_SIGNATURE, "PRM §9.2.3, §7.4.4.1.1 T26 signature (\"Should result in 0xff\")",  \
	  "wq_signature is set and the WQE, SQ number and WQE index do not XOR to 0xFF: error " \
	  "0x2 (arg: sqn << 32 | wqe_index << 8 | xor)")                                        \
	X(TX_WQE_OPCODE, "PRM §7.4.4.1.1 T26 OPCODE, §7.4.4.2 T41",                             \
	  "opcode not NOP, SEND, LSO or UMR: error 0x2 (arg: sqn << 32 | wqe_index << 8 | "      \
	  "opcode)")                                                                            \
	X(TX_WQE_FENCE_RESERVED, "PRM §7.4.4.1.1 T26 FM (000 no fence, 001 small fence)",       \
	  "fm other than 0 or 1; executed as a small fence (arg: sqn << 32 | wqe_index << 8 | "  \
	  "fm)")                                                                                \
	X(TX_UMR_FENCE_MISSING, "PRM §10.1.1 (the WQE after a UMR \"should be marked with "     \
	  "small-fence\")",                                                                     \
	  "the WQE after a UMR has fm 0; executed (arg: sqn << 32 | wqe_index)")                 \
	/* segments (T41) */                                                                    \
	X(TX_NOP_SEGMENTS, "PRM §7.4.4.2 T41 (NOP: Ctrl only), §7.2.2.1 (zero-length data "     \
	  "segments may pad a WQE)",                                                            \
	  "a NOP with a segment other than a zero-length inline data segment: error 0x2 (arg: "  \
	  "sqn << 32 | wqe_index << 8 | byte offset / 16)")                                     \
	X(TX_ETH_SEGMENT_MISSING, "PRM §7.4.4.2 T41 (SEND: Ctrl, Eth, Data)",                   \
	  "a SEND or LSO WQE of ds 1 (no Eth segment): error 0x2 (arg: sqn << 32 | wqe_index)")  \
	X(TX_ETH_INLINE_BEYOND_DS, "PRM §7.4.4.1.2 T28 inline_header_size, §7.4.4.1.1 T26 DS",  \
	  "the inline headers run past ds: local length error 0x1 (arg: sqn << 32 | wqe_index "  \
	  "<< 16 | inline_header_size)")                                                        \
	X(TX_ETH_MSS_NOT_LSO, "PRM §7.4.4.1.2 T28 mss (\"Must be 0 on non LSO WQEs\")",         \
	  "mss not 0 in a SEND: error 0x2 (arg: sqn << 32 | wqe_index << 16 | mss)")             \
	X(TX_DATA_INLINE_BEYOND_DS, "PRM §7.4.4.1.4 T39 (\"byte_count should not exceed the "   \
	  "WQE length beyond that specified in the DS field\")",                                \
	  "an inline data segment runs past ds: error 0x1 (arg: sqn << 32 | wqe_index << 16 | "  \
	  "byte_count)")                                                                        \
	X(TX_DATA_LKEY, "PRM §7.4.4.1.4 T38 L_key, §6.1 (every MKey check)",                    \
	  "a memory-pointer data segment the MKey does not translate for a local read by the "   \
	  "SQ's PD: local protection error 0x4 (arg: sqn << 32 | wqe_index << 8 | -mkey error)") \
	X(TX_MESSAGE_TOO_LONG, "PRM §3.3.2 T147 max_lso_cap, §7.4.4.1.4",                       \
	  "the message (inline headers and data) is longer than 2^max_lso_cap plus the largest " \
	  "WQE: an LSO completes with error 0x1, a SEND is dropped (arg: sqn << 32 | wqe_index)") \
	X(TX_INLINE_HEADERS_SHORT, "PRM §7.9.3.1, §7.9 T61 min_wqe_inline_mode (\"the packet is " \
	  "silently dropped\")",                                                                \
	  "fewer inline header bytes than the SQ's inline mode requires: the packet is dropped, " \
	  "the WQE completes (arg: sqn << 32 | wqe_index << 16 | bytes required)")               \
	X(TX_OFFLOAD_LENGTH, "PRM §7.4.4.1.4 (a request of zero data), §3.3.1, §3.3.2 (LSO, "     \
	  "max_lso_cap)",                                                                       \
	  "no packet (no inline header and no data), or lengths that do not allow the requested " \
	  "offload: error 0x1 (arg: sqn << 32 | wqe_index)")                                     \
	X(TX_CSUM_NO_CAP, "PRM §3.3.1 (\"Checksum offload support is reported through the "   \
	  "csum_cap bit\"), T147 csum_cap, T28 l3cs/l4cs",                                       \
	  "a SEND asks l3cs or l4cs of a device whose csum_cap is 0: not applied, the frame "    \
	  "goes as posted and the WQE completes (D-TXO-16; arg: sqn << 32 | wqe_index << 2 | "   \
	  "l3cs << 1 | l4cs)")                                                                   \
	X(TX_OFFLOAD_LSO, "PRM §3.3.2 (LSO of TCP packets, mss)",                               \
	  "an LSO WQE the device cannot segment (not TCP, mss 0, headers not inline): error 0x2 " \
	  "(arg: sqn << 32 | wqe_index)")                                                       \
	X(TX_FRAME_OVER_MTU, "PRM §11.1.1 T106 oper_mtu (\"Packets exceeding this size will be " \
	  "dropped\"), §7.3 T16 mtu",                                                           \
	  "a frame whose L3 payload exceeds the MTU: dropped (arg: sqn << 32 | frame length)")   \
	/* UMR (§7.4.4.1.3, §10.1.1; eth/wqe_umr.c, obj/mkey_umr.c) */                          \
	X(TX_UMR_SEGMENTS, "PRM §7.4.4.1.3 T31, §7.4.4.2 T41 (UMR: Ctrl, UMR)",                 \
	  "a UMR WQE too short for its control segment, MKey context and pointer: error 0x2 "    \
	  "(arg: sqn << 32 | wqe_index << 8 | ds)")                                             \
	X(TX_UMR_MKEY_INVALID, "PRM §10.1.1.1 step 1 (the MKey is valid)",                      \
	  "umr_mkey names no MKey (index not live, or another tag): error 0x4 (arg: umr_mkey)")  \
	X(TX_UMR_CHECK_FREE, "PRM §10.1.1.1 step 2, §7.4.4.1.3 T33 Check_free",                 \
	  "check_free 01 on an MKey that is not free, or 10 on a free one: error 0x4 (arg: "     \
	  "umr_mkey)")                                                                          \
	X(TX_UMR_CHECK_FREE_RESERVED, "PRM §7.4.4.1.3 T33 Check_free (11 reserved)",            \
	  "check_free 11: error 0x2 (arg: umr_mkey)")                                            \
	X(TX_UMR_PD, "PRM §10.1.1.1 step 3 (the PD of the SQ matches the PD of the MKey)",      \
	  "the MKey's PD is not the SQ's: error 0x4 (arg: umr_mkey)")                            \
	X(TX_UMR_NOT_ENABLED, "PRM §10.1.1.1 step 4, §10.1.1 (umr_en)",                         \
	  "the MKey's umr_en is 0: error 0x4 (arg: umr_mkey)")                                   \
	X(TX_UMR_TRANSLATIONS_BEYOND, "PRM §10.1.1.1 step 5, §7.4.4.1.3 T33",                   \
	  "translation_offset + translation_octword_actual_size beyond the MKey's "              \
	  "translations_octword_size, or translation_offset past the octwords delivered so far " \
	  "(D-TX-13): error 0x1 (arg: umr_mkey)")                                                \
	X(TX_UMR_ALIGN, "PRM §7.4.4.1.3 T33 (\"translation_offset and size should be aligned to " \
	  "64B\")",                                                                             \
	  "translation_offset or translation_octword_actual_size not a multiple of 4 octwords: " \
	  "error 0x2 (arg: umr_mkey)")                                                          \
	X(TX_UMR_INLINE_BEYOND_DS, "PRM §7.4.4.1.3 T31, §7.4.4.1.1 T26 DS",                     \
	  "inline translations run past ds: error 0x1 (arg: sqn << 32 | wqe_index << 8 | ds)")   \
	X(TX_UMR_POINTER_ALIGN, "PRM §7.4.4.1.3 (\"the address of the UMR pointer must be "     \
	  "aligned to 2KB\")",                                                                  \
	  "UMR pointer address not 2 KB aligned: error 0x2 (arg: address)")                      \
	X(TX_UMR_POINTER_LKEY, "PRM §7.4.4.1.3 T35 mkey, §6.1",                                 \
	  "the UMR pointer's MKey does not translate the list for a local read by the SQ's PD: " \
	  "error 0x4 (arg: sqn << 32 | wqe_index << 8 | -mkey error)")                           \
	X(TX_UMR_POINTER_SELF, "PRM §10.1.1.1 steps 6-7, §7.4.4.1.3 T35 mkey; D-TX-13",         \
	  "the UMR pointer's list is translated through the MKey the UMR rewrites: error 0x4 "   \
	  "(arg: umr_mkey)")                                                                    \
	X(TX_UMR_MKEY_TOO_LONG,                                                                 \
	  "PRM §10.1.1.1 step 7, §7.4.4.1.3 T33 bit 0, T145 20h[22:16] log_max_mrw_sz; D-TX-13",  \
	  "the MkeyCtx sets len above 2^log_max_mrw_sz without length64: error 0x1 (arg: "       \
	  "umr_mkey)")                                                                          \
	X(TX_UMR_KLM_BYTE_COUNT, "PRM §7.4.4.1.3 T37 byte_count (\"Must be up to 2GB\")",       \
	  "a KLM of more than 2 GB: error 0x1 (arg: umr_mkey)")                                  \
	X(TX_UMR_MASK_RESERVED, "PRM §7.4.4.1.3 T33 MkeyCtx bit mask (\"other bits are "        \
	  "reserved\"), §10.1.1 (\"HW will block changing fields\")",                           \
	  "MkeyCtx bit mask bits other than 0, 1, 6, 13, 17-20, 29: those fields are not changed " \
	  "(arg: the reserved bits)")

/* Send WQE opcodes (T26 OPCODE; LSO is D-TX-1): X(ID, value, "citation"). */
#define NICREF_SEND_OPCODES(X)                                                                  \
	X(NOP, 0x00, "PRM §7.4.4.1.1 T26")                                                      \
	X(SEND, 0x0A, "PRM §7.4.4.1.1 T26")                                                     \
	X(LSO, 0x0E, "PRM §3.3.2 (\"WQE Large Send Offload opcode\"); value [PUB] mlx5, D-TX-1") \
	X(UMR, 0x25, "PRM §7.4.4.1.1 T26, §7.4.4.1.3")

enum nicref_send_opcode {
#define NICREF_SEND_OPCODE_ENUM(id, v, cite) NICREF_SEND_OP_##id = v,
	NICREF_SEND_OPCODES(NICREF_SEND_OPCODE_ENUM)
#undef NICREF_SEND_OPCODE_ENUM
};

/* Syndromes of a completion with error (T74; LOCAL_QP_OPERATION is D-TX-9): X(ID, value,
 * "citation"). */
#define NICREF_CQE_SYNDROMES(X)                                                                 \
	X(LOCAL_LENGTH, 0x01, "PRM §7.12.7 T74")                                                \
	X(LOCAL_QP_OPERATION, 0x02, "[PUB] mlx5 (absent from PRM §7.12.7 T74); D-TX-9")         \
	X(LOCAL_PROTECTION, 0x04, "PRM §7.12.7 T74")                                            \
	X(WR_FLUSHED, 0x05, "PRM §7.12.7 T74")                                                  \
	X(MW_BIND, 0x06, "PRM §7.12.7 T74")                                                     \
	X(BAD_RESPONSE, 0x10, "PRM §7.12.7 T74")                                                \
	X(LOCAL_ACCESS, 0x11, "PRM §7.12.7 T74")                                                \
	X(REMOTE_INVALID_REQUEST, 0x12, "PRM §7.12.7 T74")                                      \
	X(REMOTE_ACCESS, 0x13, "PRM §7.12.7 T74")                                               \
	X(REMOTE_OPERATION, 0x14, "PRM §7.12.7 T74")

enum nicref_cqe_syndrome {
#define NICREF_CQE_SYNDROME_ENUM(id, v, cite) NICREF_CQE_SYN_##id = v,
	NICREF_CQE_SYNDROMES(NICREF_CQE_SYNDROME_ENUM)
#undef NICREF_CQE_SYNDROME_ENUM
};

/* Names by value and values by name ("SEND", "LOCAL_LENGTH"): NULL or -1 when none. */
NICREF_API const char *nicref_send_opcode_name(unsigned opcode);
NICREF_API int nicref_send_opcode_find(const char *name);
NICREF_API const char *nicref_cqe_syndrome_name(unsigned syndrome);
NICREF_API int nicref_cqe_syndrome_find(const char *name);

#endif
