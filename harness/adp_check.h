/* `nicref adp check`: are the retransmissions of a captured RC flow ones the adaptive
 * retransmission algorithm (seeds 000/001, reference/adp/) allows?
 *
 * Pure decision logic over records (adp_pkt.h), testable without a capture. The initial
 * timeout is random within the profile's init range (seed 001 L7), so the flow conforms when
 * SOME initial exponent gives an engine timeline that explains every observed gap within the
 * tolerance. The candidates are finite: every exponent of the init range. Per candidate, the
 * engine is replayed along the capture:
 *  - the QP has one transport timer (IBTA Vol. 1 §9.7.6.1.3, as the model's RC requester,
 *    D-ROCE-RC-2), armed with the engine's current value (nicref_adp_armed_ns) whenever it
 *    (re)starts: at a request sent with nothing outstanding (also a send from idle for the
 *    total timeout, nicref_adp_on_send_idle), at forward progress that leaves requests
 *    outstanding (the value after nicref_adp_on_progress), and at each retransmission that opens
 *    a burst; it stops when nothing is outstanding. A request sent behind outstanding ones
 *    leaves it running;
 *  - a request with a PSN beyond every PSN sent so far is a first transmission;
 *  - a request with a PSN sent before is a retransmission. The first of a go-back-N burst is a
 *    timer expiry: its gap from the timer's start must equal the value armed then (within the
 *    tolerance); the engine then takes the expiry (nicref_adp_on_timeout) and must still allow
 *    a retransmission (total timeout / retry count). Its followers (PSN + 1, PSN + 2, ... sent
 *    right after) take no timer decision;
 *  - an ACK (or a NAK PSN-sequence error) acknowledging an outstanding PSN is forward progress
 *    (nicref_adp_on_progress); a NAK's retransmission follows at once, no timer decides it;
 *  - any packet of the flow later than the timer's expiry plus the tolerance, while the oldest
 *    outstanding PSN was not retransmitted, shows a retransmission that should have happened
 *    and did not.
 * The capture is taken at the requester's port (what it sends, what it receives). */
#ifndef NICREF_ADP_CHECK_H
#define NICREF_ADP_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adp_pkt.h"
#include "nicref/adp.h"

/* Default tolerance: at most 1 us. Classic pcap timestamps have microsecond resolution, so a
 * gap read from them is off by less than 1 us. Two distinct profile values time_base << e differ
 * by at least 4 us (time_base >= adp_retx_base_timeout_min), but the armed value is also capped
 * by the QP timeout 4.096 us << T (seed 001 L43), which can lie within 1 us of a profile value
 * (T <= 3: 32.768 us against 32 us). adp_check_default_tol lowers the tolerance below half the
 * smallest difference between two distinct values the QP can arm, so no armed value passes for
 * another. */
#define ADP_CHECK_DEFAULT_TOL_NS 1000u

struct adp_check_cfg {
	struct nicref_adp_mode mode;
	struct nicref_adp_qp_attr attr;
	uint64_t tol_ns;
};

enum adp_fail {
	ADP_FAIL_NONE,
	ADP_FAIL_GAP,         /* retransmission gap differs from the armed timeout */
	ADP_FAIL_MISSING,     /* the timer expired and no retransmission followed */
	ADP_FAIL_EXHAUSTED,   /* retransmission after the total timeout / retry count */
	ADP_FAIL_INFINITE,    /* retransmission although the timer is infinite (timeout 0) */
	ADP_FAIL_ACKED,       /* retransmission of a PSN already acknowledged */
};
const char *adp_fail_name(enum adp_fail f);

#define ADP_CHECK_MAX_CAND 257

/* One flow's result. */
struct adp_verdict {
	bool conforming;
	/* Statistics (the same under every candidate). */
	uint32_t data, retransmissions, expiries, progress;
	/* Candidates: initial exponents (ADP) or one classic run. */
	uint32_t ncand;
	uint8_t cand_e[ADP_CHECK_MAX_CAND];
	/* Conforming: the candidates that explain everything. */
	uint32_t nexplain;
	uint8_t explain_e[ADP_CHECK_MAX_CAND];
	/* Non-conforming: the first record no candidate gets past, and what the candidates that
	 * reached it expected there. */
	size_t rec;          /* index into the record array */
	uint32_t frame;
	uint64_t t_ns;
	uint32_t psn;
	uint32_t retx;       /* 1-based retransmission number of psn */
	uint8_t kind;        /* enum adp_fail of the candidates that reached it (first one) */
	uint64_t gap_ns;     /* observed gap from the start of the QP's timer (the send, progress
			      * or retransmission that last started it) */
	uint32_t nallowed;   /* distinct expected values there, ascending */
	uint64_t allowed[ADP_CHECK_MAX_CAND];
	uint32_t nreach;     /* candidates that explained everything before it */
	uint8_t reach_e[ADP_CHECK_MAX_CAND];
	uint64_t total_ns;   /* ADP_FAIL_EXHAUSTED: the total timeout (UINT64_MAX none) */
	uint64_t since_progress_ns; /* ... and the time without progress at the expiry */
	uint64_t t0_ns;      /* the flow's first packet (its QP enters ready-to-send) */
};

/* Decides flow `flow` of recs[0..n) (other flows' records are skipped). 0, or -1 with a
 * message when the configuration cannot be checked (an invalid profile). It walks all n
 * records: to decide every flow of a capture, index them once (adp_flow_index_build) and use
 * adp_check_flow_indexed, whose cost is that flow's records. */
int adp_check_flow(const struct adp_check_cfg *cfg, const struct adp_rec *recs, size_t n,
		   uint32_t flow, struct adp_verdict *v, char *err, size_t errlen);

/* The records of each flow in capture order: flow f's are recs[rec[start[f]]],
 * ..., recs[rec[start[f + 1] - 1]]. Built in two passes over the records (a counting sort by
 * flow), two allocations in all. */
struct adp_flow_index {
	size_t nflows;
	size_t *start; /* nflows + 1 */
	size_t *rec;   /* one per record */
};
/* 0, or -1 (no memory, or a record naming a flow >= nflows). */
int adp_flow_index_build(const struct adp_rec *recs, size_t n, size_t nflows,
			 struct adp_flow_index *ix);
void adp_flow_index_free(struct adp_flow_index *ix);
/* adp_check_flow over the flow's own records. */
int adp_check_flow_indexed(const struct adp_check_cfg *cfg, const struct adp_rec *recs,
			   const struct adp_flow_index *ix, uint32_t flow, struct adp_verdict *v,
			   char *err, size_t errlen);

/* The default tolerance of a configuration: ADP_CHECK_DEFAULT_TOL_NS, or less when two distinct
 * values the QP can arm (every exponent up to the profile's highest, capped and floored as
 * nicref_adp_armed_ns does) differ by d <= 2 * ADP_CHECK_DEFAULT_TOL_NS: then (d - 1) / 2, so a
 * gap is within the tolerance of one value at most. The classic timer has one value: 1 us. */
uint64_t adp_check_default_tol(const struct nicref_adp_mode *mode,
			       const struct nicref_adp_qp_attr *attr);

/* The initial exponents a profile can draw (seed 001 L7, D-ADP-9 per options.init_range). */
uint32_t adp_init_candidates(const struct nicref_adp_mode *mode, uint8_t *e, uint32_t cap);

/* The one-paragraph explanation of a verdict ("QP 0x12 PSN 100 retransmission 3: ..."). */
void adp_verdict_explain(const struct adp_verdict *v, const struct adp_check_cfg *cfg,
			 uint32_t qp, char *buf, size_t len);

/* Nanoseconds as microseconds with three decimals ("131.072 us"), exact. */
void adp_fmt_us(uint64_t ns, char *buf, size_t len);

#endif
