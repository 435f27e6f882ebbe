/* Target: cmdq_sign, cmdq (cmdq_fuzz.c, which documents the input and the properties) on a
 * device that checks the command queue's signatures (cmdif_checksum = 3, as cmdq_strict), with
 * the signatures fixed up: before every command doorbell the entries it rings and their mailbox
 * blocks are signed where they lie in host memory (fixup_cmdq.h; PRM §7.14.1 T96, §7.14.1.1
 * T98, §7.14.1.1.1), so a mutated entry or mailbox gets past the signature checks to the
 * token, block-number, reserved-field and pointer checks and the command itself. Its twin that
 * keeps the signatures from the input is cmdq_strict. */
#define CMDQ_CMDIF_CHECKSUM 3
#define CMDQ_FIXUP_SIGN 1
#include "cmdq_fuzz.c"
