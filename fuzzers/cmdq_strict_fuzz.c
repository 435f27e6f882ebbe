/* Target: cmdq_strict, cmdq (cmdq_fuzz.c, which documents the input and the properties) on a
 * device whose profile checks the command queue's signatures (cmdif_checksum = 3, PRM T145;
 * the default profile only generates them, docs/decisions.md D-CMD-5, so cmdq never meets the
 * checks): the entry signature (T96) and each mailbox block's ctrl_signature and signature
 * (T98, §7.14.1.1.1) as the input wrote them, so the checks and their refusals
 * (NICREF_VIO_ENTRY_SIGNATURE, MAILBOX_CTRL_SIGNATURE, MAILBOX_SIGNATURE, delivery status 1)
 * are fuzzed. Its fixed-up twin is cmdq_sign. */
#define CMDQ_CMDIF_CHECKSUM 3
#include "cmdq_fuzz.c"
