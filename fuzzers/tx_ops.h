/* The input format of the tx fuzz target (fuzzers/tx_fuzz.c), shared with make_seeds.c, which
 * writes its seeds (corpora/tx/seed-*) and its dictionary (fuzzers/tx.dict).
 *
 * An input is a list of ops, each an op byte and its operands (big-endian; operands past the end
 * of the input read as 0, so every prefix of an input is an input). The op codes are fixed
 * numbers; 0x0D-0xFF are reserved: the op byte alone is consumed and nothing happens. A new op
 * takes the lowest reserved value. Operand selectors over sets the format fixes (the four WQE
 * kinds, the eight ring modes, ...) are taken modulo their fixed count. */
#ifndef NICREF_FUZZ_TX_OPS_H
#define NICREF_FUZZ_TX_OPS_H

enum tx_op {
	/* n:u8 flags:u8 bytes[16 * (n % 63 + 1)]: raw WQE bytes written at the producer
	 * counter (not rung). flags bit 0: ctrl wqe_index and sq_number := the producer counter
	 * and the SQ; bit 1: ds := the octowords given; bit 2: every memory-pointer data segment
	 * after the Eth segment gets the data MKey's l_key and an address in the data region;
	 * bit 3: the signature made right (§9.2.3, after the other fixes). */
	TX_OP_WQE_RAW = 0x00,
	/* kind:u8 ctrl:u8, then the kind's operands (tx_fuzz.c): a WQE built field by field from
	 * the segment layouts with likely-valid values, written at the producer counter. */
	TX_OP_WQE = 0x01,
	/* mode:u8 [delta:u8]: ring (enum tx_ring_mode, mode % 8). */
	TX_OP_RING = 0x02,
	/* buf:u8 dw:u8 value:u32: one dword into Blue Flame buffer buf % 8 of the SQ's UAR page,
	 * dword dw % 64; a dword 1 (the doorbell) carries the SQ number in 31:8 unless buf bit 7. */
	TX_OP_BF_WRITE = 0x03,
	/* mode:u8 v:u16: the doorbell record's sq_wqebb_counter := v (mode bit 0), else the
	 * producer counter + (int8)v. */
	TX_OP_DBR = 0x04,
	/* off:u24 len:u8 rep:u8 data[len + 1]: the bytes, rep % 16 + 1 times over, into the data
	 * region at off % 1 MiB (cut at its end). */
	TX_OP_MEM = 0x05,
	/* ns:u24: time advances 1 + ns nanoseconds. */
	TX_OP_TIME = 0x06,
	/* sol:u8: the CQ armed (solicited when bit 0). */
	TX_OP_CQ_ARM = 0x07,
	/* sel:u8: MODIFY_SQ (enum tx_sq_modify, sel % 4). */
	TX_OP_SQ_MODIFY = 0x08,
	/* sel:u8 v:u16: sel bit 0 clear, the port's admin_mtu := v (PMTU, §11.1.1); set, the
	 * vport's mtu := v (MODIFY_NIC_VPORT_CONTEXT, T16; 0: the port's). */
	TX_OP_MTU = 0x09,
	/* state:u8: MODIFY_VPORT_STATE admin_state := state % 3 (§12.16.2). */
	TX_OP_VPORT = 0x0A,
	/* sel:u8: the SQ destroyed and created again in RDY with min_wqe_inline_mode sel % 4
	 * (§7.9.3.1; raised to the vport's minimum), wq_signature sel bit 2 (§9.2.3); the built
	 * WQEs are then signed. */
	TX_OP_SQ_CONFIG = 0x0B,
	/* reg:u8: the next posting to Blue Flame register reg % 2 goes to the buffer its last one
	 * used, against §7.2.2.1 "must be used alternately" (SQ_DB_BF_ALTERNATE when it is a Blue
	 * Flame posting, D-DB-4); the ring modes alternate otherwise. */
	TX_OP_BF_AGAIN = 0x0C,
	TX_OP_FIRST_RESERVED = 0x0D
};

/* TX_OP_WQE kind bits 1:0 (T26 OPCODE; LSO is D-TX-1); bits 7:2 are ignored. */
enum tx_wqe_kind { TX_KIND_NOP = 0, TX_KIND_SEND = 1, TX_KIND_LSO = 2, TX_KIND_UMR = 3 };

/* SEND/LSO header templates (tmpl bits 2:0). */
enum tx_template {
	TX_T_V4_TCP = 0,
	TX_T_V4_UDP = 1,
	TX_T_V6_TCP = 2,
	TX_T_V6_UDP = 3,
	TX_T_V4_OPT_TCP = 4, /* IPv4 options by var bits 4:3: NOPs, LSRR, RR, unwalkable */
	TX_T_V6_EXT_UDP = 5, /* IPv6 extension headers by var bits 4:3: hop-by-hop, routing, */
	TX_T_V6_EXT_TCP = 6, /* destination options + atomic fragment, AH */
	TX_T_ARP = 7         /* not IP */
};

/* TX_OP_RING mode % 8. */
enum tx_ring_mode {
	TX_RING_DB = 0,        /* the record, then the doorbell (refdrv_sq_ring) */
	TX_RING_BF = 1,        /* the record, then the whole WQE through Blue Flame */
	TX_RING_RECORD = 2,    /* the record only */
	TX_RING_DB_ONLY = 3,   /* the doorbell only */
	TX_RING_DB_INDEX = 4,  /* the record, then a doorbell naming the last WQE + (int8)delta */
	TX_RING_BF_ONLY = 5,   /* the WQE through Blue Flame, no record */
	TX_RING_DB_OTHER = 6,  /* the record, then the doorbell on Blue Flame register 1 */
	TX_RING_DB_RESVD = 7   /* the record, then a doorbell with reserved bits set */
};

/* TX_OP_SQ_MODIFY sel % 4. */
enum tx_sq_modify {
	TX_SQ_RECOVER = 0, /* to RST (the record and the producer counter zeroed), then RDY */
	TX_SQ_TO_ERR = 1,  /* to ERR */
	TX_SQ_TO_RST = 2,  /* to RST (the record and the producer counter zeroed) */
	TX_SQ_TO_RDY = 3   /* to RDY from the current state */
};

#endif
