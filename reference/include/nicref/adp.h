/* Adaptive retransmission (ADP): the per-QP retransmission-timeout engine of NVIDIA's
 * adaptive retransmission (seeds 000 "ROCE_ACCL register" and 001 "adaptive retransmission
 * algorithm"), and the classic InfiniBand timer it replaces.
 *
 * The engine is pure: it reads no clock (times are arguments, in virtual nanoseconds), draws
 * no randomness of its own (the caller passes the draw), allocates nothing and has no
 * globals. The device uses it for RC QPs; the `nicref adp` tools, the vectors and the `adp`
 * fuzzer use it standalone. Every rule carries its seed citation in reference/adp/; the
 * choices where the seeds disagree are D-ADP-* in docs/decisions.md, and each alternative
 * reading is an option below so a vector can pin either. */
#ifndef NICREF_ADP_H
#define NICREF_ADP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/api.h"

#define NICREF_ADP_MAX_RANGES 4

/* One timeout_range[] entry of a profile (seed 000 range entry). */
struct nicref_adp_range {
	uint8_t prev_range_index;   /* 30:28 */
	uint8_t dec_mode;           /* 27:26: 0 TO_DIV_4, 1 TO_DIV_2, 2 TO_LOW_BOUND, 3 reserved */
	uint16_t timeout_retry_num; /* 25:16 */
	uint8_t range_low_bound;    /* 15:8 */
	uint8_t range_size;         /* 7:0 */
};

/* adp_retx_profile (seed 000 profile layout), field by field. */
struct nicref_adp_profile {
	uint8_t qp_total_timeout;  /* 00h[31] */
	uint8_t range_num;         /* 00h[30:28] */
	uint8_t start_range_index; /* 00h[26:24] */
	uint8_t time_unit;         /* 00h[23:22]: 1 TIME_USEC */
	uint16_t time_base;        /* 00h[15:0] */
	uint8_t retx_total_timeout;      /* 04h[31:24] */
	uint8_t timeout_init_low_bound;  /* 04h[15:8] */
	uint8_t timeout_init_range_size; /* 04h[7:0] */
	struct nicref_adp_range range[NICREF_ADP_MAX_RANGES]; /* 08h..14h */
};

/* The readings of the seeds' contradictions (docs/decisions.md D-ADP-*). Value 0 of each is
 * the default reading; the other value is the alternative, selectable per device profile or
 * per standalone run. */
enum nicref_adp_first_timeout {
	NICREF_ADP_FIRST_RETRY_ONCE = 0, /* in-range initial value retried once more (seed 001) */
	NICREF_ADP_FIRST_ESCALATE = 1,   /* in-range initial value escalates at once */
};
enum nicref_adp_dec_reading {
	NICREF_ADP_DEC_BY_NAME = 0,    /* TO_DIV_4 / TO_DIV_2 divide the timeout (seed 000 names):
					* exponent -2 / -1 */
	NICREF_ADP_DEC_BY_AMOUNT = 1,  /* "decrement by 2 / by 4" (seed 001 wording, in code
					* order) of the exponent: code 0 -2, code 1 -4 */
	NICREF_ADP_DEC_BY_FACTOR = 2,  /* seed 001's list in code order read as factors: code 0
					* halves (-1), code 1 quarters (-2) */
};
enum nicref_adp_init_range {
	NICREF_ADP_INIT_EXCLUSIVE = 0, /* [low, low + size - 1] (seed 001) */
	NICREF_ADP_INIT_INCLUSIVE = 1, /* [low, low + size] (seed 000 "upper bound") */
};
enum nicref_adp_dec_trigger {
	NICREF_ADP_DEC_EVERY_PROGRESS = 0, /* one decrease per forward-progress event */
	/* one decrease per forward-progress event that follows no retransmission: progress
	 * reached only by retransmitting keeps the value (D-ADP-14) */
	NICREF_ADP_DEC_CLEAN_PROGRESS = 1,
	NICREF_ADP_DEC_ALTERNATIVE = NICREF_ADP_DEC_CLEAN_PROGRESS,
};
/* timeout_retry_num after forward progress (D-ADP-14): the next message's first transmission
 * is armed at the current value too. */
enum nicref_adp_retry_uses {
	/* every arm at the value is a use (seed 001 L29 "used timeout_retry_num times"): the
	 * first transmission after progress is one, so timeout_retry_num - 1 retransmissions
	 * follow at the value before it increases */
	NICREF_ADP_USES_ARMS = 0,
	/* only retransmissions are uses (seed 000 L227 "consecutive retransmissions attempts with
	 * the same timeout value"): timeout_retry_num retransmissions at the value after
	 * progress, one more arm */
	NICREF_ADP_USES_RETRANSMISSIONS = 1,
};
struct nicref_adp_options {
	uint8_t first_timeout; /* enum nicref_adp_first_timeout */
	uint8_t dec_reading;   /* enum nicref_adp_dec_reading */
	uint8_t init_range;    /* enum nicref_adp_init_range */
	uint8_t dec_trigger;   /* enum nicref_adp_dec_trigger */
	uint8_t retry_uses;    /* enum nicref_adp_retry_uses */
};
/* Every option names one of its readings (device profiles are refused otherwise; the engine
 * runs an unknown value as the default reading). */
NICREF_API bool nicref_adp_options_ok(const struct nicref_adp_options *o);

/* What governs a QP's retransmission timer: ADP off (or no profile selected) is the classic
 * InfiniBand timer; otherwise the selected profile. */
struct nicref_adp_mode {
	bool adp;                            /* roce_adp_retrans_en and a profile is selected */
	bool retrans_en;                     /* roce_adp_retrans_en: the counters count (D-ADP-18)
					      * even on the classic timer (no profile selected) */
	struct nicref_adp_profile profile;   /* the selected profile (when adp) */
	uint32_t base_timeout_min_ns;        /* adp_retx_base_timeout_min (seed 000, ns) */
	struct nicref_adp_options opt;
};

/* The QP attributes the engine reads (IB: 5-bit local ACK timeout, 0 = infinite; 3-bit
 * retry count). */
struct nicref_adp_qp_attr {
	uint8_t timeout;
	uint8_t retry_cnt;
};

/* Profile validation: 0, or the first rule broken (its name by nicref_adp_rule_name). Used by
 * ROCE_ACCL writes and by the tools for profiles given as JSON. */
enum nicref_adp_rule {
	NICREF_ADP_OK = 0,
	NICREF_ADP_BAD_PROFILE_ID,
	NICREF_ADP_BAD_TIME_UNIT,
	NICREF_ADP_TIME_BASE_NOT_POW2,
	NICREF_ADP_TIME_BASE_BELOW_MIN,
	NICREF_ADP_BAD_RANGE_NUM,
	NICREF_ADP_BAD_START_RANGE,
	NICREF_ADP_RANGES_NOT_SORTED,
	NICREF_ADP_BAD_PREV_RANGE,
	NICREF_ADP_BAD_DEC_MODE,
	NICREF_ADP_BAD_RETRY_NUM,
	NICREF_ADP_OVERFLOW,
	NICREF_ADP_RULE_COUNT
};
/* Checked in the order of this enum (BAD_PROFILE_ID is the register's: reg/roce_accl.c). */
NICREF_API const char *nicref_adp_rule_name(enum nicref_adp_rule r);
NICREF_API const char *nicref_adp_rule_citation(enum nicref_adp_rule r);
NICREF_API enum nicref_adp_rule nicref_adp_profile_check(const struct nicref_adp_profile *p,
							 uint32_t base_timeout_min_ns,
							 unsigned max_range_num);

/* adp_retx_profile as ROCE_ACCL carries it at register 10h-3Fh (seed 000 L89-97): 30h bytes,
 * big-endian, 00h-17h defined, 18h-2Fh reserved. decode reads buf[0..len) (len >= 18h; -1
 * otherwise); encode writes 30h bytes (reserved bytes 0), -1 if len < 30h or a value does not
 * fit its field. */
#define NICREF_ADP_PROFILE_BYTES 0x30
NICREF_API int nicref_adp_profile_decode(const void *buf, size_t len, struct nicref_adp_profile *p);
NICREF_API int nicref_adp_profile_encode(const struct nicref_adp_profile *p, void *buf, size_t len);

/* Per-QP engine state. Callers treat it as opaque except for reading. The mode comes last:
 * the RC requester keeps the bytes before it per QP and the mode once per device
 * (reference/roce/rc.h RC_ADP_BYTES, D-ROCE-RC-24), so the per-QP part is 20 bytes whatever the
 * size of the mode. */
enum nicref_adp_phase { NICREF_ADP_INITIAL, NICREF_ADP_RANGED, NICREF_ADP_FAILED };
struct nicref_adp_qp {
	uint64_t t_progress; /* virtual ns of the last forward progress, send from idle or init */
	struct nicref_adp_qp_attr attr;
	uint8_t phase;      /* enum nicref_adp_phase */
	uint8_t e;          /* current exponent: timeout = base << e */
	int8_t r;           /* current range, -1 before the first timeout */
	uint8_t retries;    /* retries counted against retry_cnt: every retry (classic), NAK
			     * retries only (ADP, D-ADP-17) */
	uint8_t retx_since_progress; /* a retransmission since the last progress (D-ADP-14) */
	uint16_t uses;      /* expiries at the current value */
	struct nicref_adp_mode mode;
};

/* Why the engine armed the value it armed (timeline "reason" column). */
enum nicref_adp_reason {
	NICREF_ADP_R_INIT,          /* first transmission: the randomised initial value */
	NICREF_ADP_R_RETRY_SAME,    /* retransmission at the same value */
	NICREF_ADP_R_ENTER_RANGE,   /* first timeout: continue in the containing range */
	NICREF_ADP_R_START_RANGE,   /* first timeout: start at start_range_index */
	NICREF_ADP_R_DOUBLE,        /* doubled inside the range */
	NICREF_ADP_R_NEXT_RANGE,    /* moved to the next range */
	NICREF_ADP_R_CEILING,       /* at the top of the last range */
	NICREF_ADP_R_DECREASE,      /* decreased by dec_mode on forward progress */
	NICREF_ADP_R_PREV_RANGE,    /* moved to prev_range_index on forward progress */
	NICREF_ADP_R_CLASSIC,       /* classic IB timer */
	NICREF_ADP_R_KEEP,          /* forward progress, the value unchanged */
	NICREF_ADP_R_NAK,           /* retransmission for a NAK, at the same value */
	NICREF_ADP_R_RETRY_EXC,     /* total timeout or retry count exhausted: the QP fails */
	NICREF_ADP_R_COUNT
};
NICREF_API const char *nicref_adp_reason_name(enum nicref_adp_reason r);

/* The initial exponents a QP can draw (seed 001 L7 or seed 000 L175, by opt.init_range):
 * lo .. lo + count - 1. */
NICREF_API void nicref_adp_init_bounds(const struct nicref_adp_mode *mode, unsigned *lo,
				       unsigned *count);
/* The QP enters ready-to-send at `now`: draw the initial value from `random` (one 64-bit
 * draw of the caller's seeded PRNG): lo + random % count. A mode whose profile fails
 * nicref_adp_profile_check is run as the classic timer (bad input gets a defined outcome). */
NICREF_API void nicref_adp_qp_init(struct nicref_adp_qp *qp, const struct nicref_adp_mode *mode,
				   const struct nicref_adp_qp_attr *attr, uint64_t now_ns,
				   uint64_t random);
/* The same with the initial exponent given (capture checking tries each one); e outside the
 * bounds is taken as given. */
NICREF_API void nicref_adp_qp_init_e(struct nicref_adp_qp *qp, const struct nicref_adp_mode *mode,
				     const struct nicref_adp_qp_attr *attr, uint64_t now_ns,
				     uint8_t e);
/* The timer value to arm now, in ns: the current value, capped by the QP's ack timeout and
 * floored at the minimum (the floor wins if it is above the cap); 0 = no timer (classic timer
 * with timeout 0, or the QP failed). */
NICREF_API uint64_t nicref_adp_armed_ns(const struct nicref_adp_qp *qp);
/* The timer expired at `now`. Returns true when the QP must retransmit (and re-arm with
 * nicref_adp_armed_ns), false when retries are exhausted (IBV_WC_RETRY_EXC_ERR; the QP goes
 * to error). `why` gets the reason for the new armed value. */
NICREF_API bool nicref_adp_on_timeout(struct nicref_adp_qp *qp, uint64_t now_ns,
				      enum nicref_adp_reason *why);
/* A transmission leaves at `now` with nothing outstanding before it (the timer arms from
 * idle). While nothing was outstanding no forward progress was owed, so the total-timeout clock
 * starts again here (seed 001 "If no forward progress is made within the total timeout",
 * D-ADP-11); the timer value and the counts are untouched. A failed QP stays failed. */
NICREF_API void nicref_adp_on_send_idle(struct nicref_adp_qp *qp, uint64_t now_ns);
/* Forward progress (an ACK covering unacknowledged PSNs) at `now`. */
NICREF_API void nicref_adp_on_progress(struct nicref_adp_qp *qp, uint64_t now_ns,
				       enum nicref_adp_reason *why);
/* A NAK-sequence-error at `now` (progress: it acknowledged PSNs first): the QP retransmits at
 * the same value; the retry counts against retry_cnt in both modes (D-ADP-17). Returns false
 * when retry_cnt is exhausted (the QP fails). */
NICREF_API bool nicref_adp_on_nak(struct nicref_adp_qp *qp, uint64_t now_ns, bool progress,
				  enum nicref_adp_reason *why);
/* The profile value of exponent e in ns: time_base us << e (seed 000 L153, seed 001 L9),
 * UINT64_MAX if it does not fit. */
NICREF_API uint64_t nicref_adp_value_ns(const struct nicref_adp_profile *p, unsigned e);
/* The classic IB local ACK timer 4.096 us x 2^t in ns (t: the 5-bit QP timeout; 0 =
 * infinite, returned as 0). */
NICREF_API uint64_t nicref_adp_ib_timeout_ns(uint8_t timeout);
/* The total timeout (ns, UINT64_MAX = none) that ends retransmission: judged at each timer
 * expiry, which fails when now - t_progress >= it, t_progress being the last forward progress
 * or the last send from idle (D-ADP-11). Classic: none (retry_cnt ends it). */
NICREF_API uint64_t nicref_adp_total_timeout_ns(const struct nicref_adp_qp *qp);

/* Counters as mlx5 exposes them for RoCE adaptive retransmission. */
struct nicref_adp_counters {
	uint64_t roce_adp_retrans;    /* retransmissions under ADP */
	uint64_t roce_adp_retrans_to; /* ADP retransmission timeouts */
};
/* What one nicref_adp_on_timeout outcome adds (D-ADP-18): a retransmission counts
 * roce_adp_retrans, a failure roce_adp_retrans_to, when the QP runs a profile or ADP is
 * enabled (mode.adp || mode.retrans_en); nothing otherwise. */
NICREF_API void nicref_adp_count_timeout(const struct nicref_adp_qp *qp, bool retransmitted,
					 struct nicref_adp_counters *c);
/* The device's accumulators (the Q counters of the function, D-ADP-18), zero after reset. */
struct nicref_dev;
NICREF_API void nicref_adp_dev_counters(const struct nicref_dev *dev,
					struct nicref_adp_counters *out);
/* The mode a QP of the device takes when it enters ready-to-send (D-ADP-2): from ROCE_ACCL
 * (roce_adp_retrans_en, the selected profile) and the device profile (the minimum, the
 * options). */
NICREF_API void nicref_adp_dev_mode(const struct nicref_dev *dev, struct nicref_adp_mode *out);

/* A whole timeline, for tools, vectors and the fuzzer: transmission k (0 = the first send,
 * then each retransmission) is lost when bit k of `loss` is set (loss[k / 64] >> (k % 64));
 * a transmission not lost is acknowledged `rtt_ns` after it was sent, which is forward
 * progress, and the next message is sent at once, up to `messages` messages. The run ends
 * when every message is acknowledged, retries are exhausted, or `max_attempts` is reached. */
struct nicref_adp_attempt {
	uint32_t attempt;    /* 0-based transmission number */
	uint32_t message;    /* which message (0-based) */
	uint64_t sent_ns;
	uint64_t armed_ns;   /* timer armed with this transmission */
	int8_t range;        /* -1: none (initial value or classic) */
	uint8_t e;           /* exponent of the armed value (ADP) */
	uint8_t reason;      /* enum nicref_adp_reason */
	uint8_t lost;        /* 0 acknowledged, 1 lost (loss pattern), 2 its ACK would come at or
			      * after the expiry (rtt_ns >= armed_ns): the timer wins */
};
struct nicref_adp_run {
	struct nicref_adp_mode mode;
	struct nicref_adp_qp_attr attr;
	uint64_t seed;       /* splitmix64 seed of the initial draw */
	const uint64_t *loss;
	size_t loss_words;
	uint64_t rtt_ns;
	uint32_t messages;
	uint32_t max_attempts; /* 0: NICREF_ADP_TIMELINE_MAX */
};
#define NICREF_ADP_TIMELINE_MAX 65536u
enum nicref_adp_end {
	NICREF_ADP_END_DONE,
	NICREF_ADP_END_RETRY_EXC,
	NICREF_ADP_END_LIMIT, /* max_attempts transmissions, or cap records, reached */
	NICREF_ADP_END_STALL, /* a lost transmission with no timer (classic timeout 0) */
};
/* Fills out[0..n) and returns how the run ended. The run stops with END_LIMIT before an
 * attempt beyond max_attempts, or one that does not fit out[0..cap) (out NULL: nothing is
 * recorded and cap is not a limit). n and counters (added to) may be NULL. */
NICREF_API enum nicref_adp_end nicref_adp_timeline(const struct nicref_adp_run *run,
						   struct nicref_adp_attempt *out, size_t cap,
						   size_t *n, struct nicref_adp_counters *counters);

NICREF_API const char *nicref_adp_end_name(enum nicref_adp_end e);

/* splitmix64, the same generator as the device PRNG, for standalone runs. */
NICREF_API uint64_t nicref_splitmix64(uint64_t *state);

#endif
