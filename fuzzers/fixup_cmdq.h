/* Structure-aware fix-up of the command queue's signatures (PRM §7.14.1 T96, §7.14.1.1 T98,
 * §7.14.1.1.1) for the cmdq_sign target (cmdq_fuzz.c with CMDQ_FIXUP_SIGN): before every
 * command doorbell of an op stream (DOORBELL, or a BAR_WRITE of 18h) the entry of each slot
 * the doorbell rings, and the mailbox blocks of its input and output chains, are signed where
 * they lie in host memory, as the driver that posted them would have. A mutated entry or
 * mailbox then reaches the command behind the signature checks instead of stopping at
 * NICREF_VIO_ENTRY_SIGNATURE / MAILBOX_*_SIGNATURE; the cmdq target (no fix-up) keeps them.
 *
 * Only the signature bytes are written: entry 3Dh; each input block's ctrl_signature (23Eh)
 * and signature (23Fh); each output block's ctrl_signature (SW does not sign output blocks'
 * data, T98). The chains are followed the way the device walks them (next_pointer bits 63:10,
 * as many blocks as the length needs, none past the profile's max_mailbox_blocks), and the
 * queue's address is the one the stream itself wrote (T8 10h/14h, latched on the LSW:
 * docs/decisions.md D-CMD-11) — what a driver knows, nothing read from the device. Driver-side
 * code: the XOR is harness/cmdbuild.c's, not the model's. */
#ifndef NICREF_FIXUP_CMDQ_H
#define NICREF_FIXUP_CMDQ_H

#include <stdbool.h>
#include <stdint.h>

#include "nicref/nicref.h"

struct fixup_cmdq {
	unsigned log_size, log_stride; /* the profile's (T8 14h) */
	uint32_t max_blocks;           /* the profile's max_mailbox_blocks */
	uint32_t addr_hi;              /* the last 10h written */
	uint64_t addr;                 /* the queue address latched by the last 14h */
	bool valid;                    /* a 14h was written since the reset */
	/* What the fix-ups did (for the target's statistics, docs/fuzzing.md). */
	uint64_t entries, blocks;
};

struct fuzz_oracle;

/* fuzz_oracle_device's device (the same seed and trace), with the profile's cmdif_checksum (PRM
 * T145 40h[15:14]) set: 3 makes the device check every signature on input (D-CMD-5: the
 * default, 1, only generates them); NULL if it cannot be created. */
struct nicref_dev *fixup_cmdq_device(struct fuzz_oracle *o, unsigned cmdif_checksum);

/* At the device's reset: the profile's queue geometry, no address yet. */
void fixup_cmdq_reset(struct fixup_cmdq *f, const struct nicref_profile *p);

/* An opstream_pre_fn (harness/opstream.h); ctx is the struct fixup_cmdq. */
void fixup_cmdq_before(void *ctx, struct nicref_dev *dev, unsigned op, const uint8_t *operands);

/* Signs the entry of one slot and its chains; whether the entry is owned by HW (an entry not
 * owned is left as it is: the device refuses it before looking at its signature). */
bool fixup_cmdq_sign_slot(struct fixup_cmdq *f, struct nicref_dev *dev, unsigned slot);

#endif
