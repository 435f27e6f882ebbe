/* The op bytes of the bringup fuzz target's input (fuzzers/bringup_fuzz.c documents the format),
 * shared with fuzzers/make_seeds.c so the seeds and the dictionary cannot drift from it. */
#ifndef NICREF_BRINGUP_OPS_H
#define NICREF_BRINGUP_OPS_H

/* The op codes: fixed numbers, never renumbered. BU_OP_COUNT..0xFF are reserved: the op byte
 * alone is consumed and nothing happens, so a new op takes the next free code and no existing
 * input changes meaning (fuzzers/README.md). 0 .. BU_CMD_COUNT-1 are commands: op sel flags
 * operands. */
enum bringup_op {
	BU_ENABLE_HCA = 0x00,
	BU_QUERY_ISSI = 0x01,
	BU_SET_ISSI = 0x02,
	BU_QUERY_PAGES = 0x03,
	BU_MANAGE_PAGES = 0x04,
	BU_QUERY_HCA_CAP = 0x05,
	BU_SET_HCA_CAP = 0x06,
	BU_INIT_HCA = 0x07,
	BU_SET_DRIVER_VERSION = 0x08,
	BU_QUERY_ADAPTER = 0x09,
	BU_ALLOC_PD = 0x0A,
	BU_DEALLOC_PD = 0x0B,
	BU_ALLOC_UAR = 0x0C,
	BU_DEALLOC_UAR = 0x0D,
	BU_ALLOC_TD = 0x0E,
	BU_DEALLOC_TD = 0x0F,
	BU_CONFIG_INT_MODERATION = 0x10,
	BU_ACCESS_REG = 0x11,
	BU_NOP = 0x12,
	BU_TEARDOWN_HCA = 0x13,
	BU_DISABLE_HCA = 0x14,
	BU_BRING_UP = 0x15,     /* stage:u8 (stage % 7: one of bu_stages[]) */
	BU_DRV_TEARDOWN = 0x16, /* none */
	BU_ADVANCE = 0x17,      /* us:u16 */
	BU_RESET = 0x18,        /* none */
	BU_RAW = 0x19,          /* opcode:u16 op_mod:u16 */
	BU_OP_COUNT             /* the first reserved code */
};
#define BU_CMD_COUNT BU_BRING_UP

/* sel values 00-DF pick the op_mods the PRM describes, in this order (sel % their number). */
enum { BU_PAGES_BOOT, BU_PAGES_INIT, BU_PAGES_REGULAR };        /* QUERY_PAGES T131: 1, 2, 3 */
enum { BU_MP_GIVE, BU_MP_RETURN, BU_MP_FAIL };                  /* MANAGE_PAGES T135: 1, 2, 0 */
enum { BU_CAP_GEN_CUR, BU_CAP_GEN_MAX, BU_CAP_ETH_CUR, BU_CAP_ETH_MAX, BU_CAP_FT_CUR,
       BU_CAP_FT_MAX };                                         /* QUERY_HCA_CAP T141 */
enum { BU_SETCAP_GEN, BU_SETCAP_ETH, BU_SETCAP_FT };            /* SET_HCA_CAP T155: 0, 2, 14 */
enum { BU_INTMOD_WRITE, BU_INTMOD_READ };                       /* T210: 0, 1 */
enum { BU_REG_READ, BU_REG_WRITE };                             /* ACCESS_REG T222: 1, 0 */

#endif
