/* Property oracles shared by the fuzz targets: what must hold of the canonical trace and of the
 * device state whatever the input. A broken property is a model bug and traps.
 *
 * A target installs fuzz_oracle_event as the device's trace callback with a struct fuzz_oracle
 * as its context, calls fuzz_oracle_reset together with nicref_dev_reset at the start of each
 * input, and fuzz_oracle_check_dev after every step. */
#ifndef NICREF_FUZZ_ORACLE_H
#define NICREF_FUZZ_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "nicref/nicref.h"

struct fuzz_oracle {
	struct nicref_dev *dev;  /* set once the device exists */
	uint64_t next_seq;       /* the seq the next event must carry */
	uint64_t last_time_ns;   /* time of the previous event */
	uint64_t events, cmd_done, violations;
	bool ready;              /* READY seen since the reset */
	/* A CMD_FAIL waits for the CMD_DONE of its slot, which must report its rule's status;
	 * one per slot, since a command refused for want of pages may wait in its slot while
	 * others run (D-PG-6). Bit s of fail_pending: slot s has one. */
	uint32_t fail_pending;
	uint16_t fail_opcode[32];
	uint16_t fail_rule[32];
	bool write_error; /* a DMA write failed since the last CMD_DONE (D-CMD-15) */
	struct nicref_event last_done; /* the latest CMD_DONE, for targets that check memory */
	uint64_t last_rule;            /* the rule that refused it, NICREF_RULE_NONE if none */
	/* Violations by rule, and those of the transport (fuzz_oracle_transport_violation). */
	uint64_t vio_by_rule[NICREF_VIO_COUNT];
	uint64_t transport_violations;
};

/* Forget the previous input; call with nicref_dev_reset. */
void fuzz_oracle_reset(struct fuzz_oracle *o);

/* A device with the default profile, a fixed seed (a finding must replay) and this oracle on
 * its trace; NULL if it cannot be created. */
struct nicref_dev *fuzz_oracle_device(struct fuzz_oracle *o);

/* The trace callback (struct nicref_config.trace); ctx is the struct fuzz_oracle. */
void fuzz_oracle_event(void *ctx, const struct nicref_event *ev);

/* After a step: nicref_dev_check is 0, and the device's counters agree with the events seen.
 * A broken invariant is reported at the caller's file and line (fuzz_check_invariants). */
void fuzz_oracle_check_dev_at(const struct fuzz_oracle *o, const char *file, int line);
#define fuzz_oracle_check_dev(o) fuzz_oracle_check_dev_at((o), __FILE__, __LINE__)

/* After a step of a target that keeps the device in one state: nicref_hca_info says `state`,
 * and no object type (PD, UAR, TD, MKEY, EQ, CQ, TIS, SQ, RMP, RQ, RQT, TIR) counts more than
 * max_live live objects. Here rather than in the target so that the per-step comparisons carry
 * no coverage instrumentation (fuzzers/coverage_ignore.txt). */
void fuzz_oracle_check_hca(const struct fuzz_oracle *o, enum nicref_hca_state state,
			   uint32_t max_live);

/* nicref_dev_check is 0; otherwise prints "invariant NAME broken at FILE:LINE: STATE" and the
 * invariant's number, clause and text on stderr, and traps (fuzzers/fuzz_report.c). */
void fuzz_check_invariants(const struct nicref_dev *dev, const char *file, int line);
#define NICREF_FUZZ_CHECK_INVARIANTS(dev) fuzz_check_invariants((dev), __FILE__, __LINE__)

/* Whether NICREF_FUZZ_TRACE asks for the trace (fuzz_trace, fuzz_target.h). */
bool fuzz_tracing(void);

/* Whether a driver violation concerns the transport (init segment, doorbell, queue entry,
 * mailboxes: what cmdbuild.c and a correct bring-up get right whatever the command says) rather
 * than a command's content (reserved input bits, the order of the start-up commands, a
 * malformed driver version: what a fuzzed command may legitimately break). Every violation of
 * trace.h is classified explicitly: a new one fails the fuzz build (-Wswitch) until it is. */
bool fuzz_oracle_transport_violation(unsigned rule);

#endif
