/* The op bytes of the bringup fuzz target's input (fuzzers/bringup_fuzz.c documents the format),
 * shared with fuzzers/make_seeds.c so the seeds and the dictionary cannot drift from it. */
#ifndef NICREF_BRINGUP_OPS_H
#define NICREF_BRINGUP_OPS_H

/* Op byte modulo BU_OP_COUNT. 0 .. BU_CMD_COUNT-1 are commands: op sel flags operands. */
enum bringup_op {
	BU_ENABLE_HCA,
	BU_QUERY_ISSI,
	BU_SET_ISSI,
	BU_QUERY_PAGES,
	BU_MANAGE_PAGES,
	BU_QUERY_HCA_CAP,
	BU_SET_HCA_CAP,
	BU_INIT_HCA,
	BU_SET_DRIVER_VERSION,
	BU_QUERY_ADAPTER,
	BU_ALLOC_PD,
	BU_DEALLOC_PD,
	BU_ALLOC_UAR,
	BU_DEALLOC_UAR,
	BU_ALLOC_TD,
	BU_DEALLOC_TD,
	BU_CONFIG_INT_MODERATION,
	BU_ACCESS_REG,
	BU_NOP,
	BU_TEARDOWN_HCA,
	BU_DISABLE_HCA,
	BU_BRING_UP,     /* stage:u8 (refdrv stage % 7) */
	BU_DRV_TEARDOWN, /* none */
	BU_ADVANCE,      /* us:u16 */
	BU_RESET,        /* none */
	BU_RAW,          /* opcode:u16 op_mod:u16 */
	BU_OP_COUNT
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
