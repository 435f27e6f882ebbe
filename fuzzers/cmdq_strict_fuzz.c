/* Target: cmdq_strict, the twin of cmdq (cmdq_fuzz.c, which documents the input and the
 * properties) that keeps the command queue's signature checks in the path: the device's profile
 * checks them (cmdif_checksum = 3, PRM T145; the default, 1, only generates them, docs/decisions.md
 * D-CMD-5), so the entry signature (T96) and each mailbox block's ctrl_signature and signature
 * (T98, §7.14.1.1.1) count as the input wrote them, and the checks and their refusals
 * (NICREF_VIO_ENTRY_SIGNATURE, MAILBOX_CTRL_SIGNATURE, MAILBOX_SIGNATURE; delivery status 1) are
 * fuzzed. cmdq is its fixed-up side: there every signature passes, as if fixed up (a fix-up that
 * signs each rung entry and its mailboxes before the doorbell gave cmdq's very outcome on 2,640
 * mutants: docs/fuzzing.md "Fix-ups and twins"). The seeds are cmdq's: the golden vectors sign
 * their commands. */
#define CMDQ_CMDIF_CHECKSUM 3
#include "cmdq_fuzz.c"
