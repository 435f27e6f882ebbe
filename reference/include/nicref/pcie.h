/* The PCI Express data link layer (seed 003: PCI Express Base Specification §3.6, "Data
 * Integrity Mechanisms"): LCRC and sequence numbers, the retry buffer, REPLAY_TIMER and
 * REPLAY_NUM, Ack/Nak DLLPs with their CRC, and the TLP receiver; both ends of a link as pure
 * state machines over virtual time, and a link of two ends with seeded faults.
 *
 * Pure: no clock (time is an argument, in symbol times), no randomness but the link's seeded
 * stream, no allocation (the caller gives the retry buffer's storage once), no globals. Every
 * rule carries its citation ("PCIe Base §3.6.x (seed 003 L<line>)") in reference/pcie/; the
 * readings where the seed is open are D-DLL-* of docs/pcie.md.
 *
 * Interface version NICREF_PCIE_API_VERSION: 2 (2: struct nicref_pcie_dll gained symbol_cost and
 * replay_timer_wait, REPLAY_TIMER from a packet's last symbol in a link). */
#ifndef NICREF_PCIE_H
#define NICREF_PCIE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/api.h"

#define NICREF_PCIE_API_VERSION 2

#define NICREF_PCIE_SEQ_MOD 4096u     /* 12-bit sequence numbers (L21-22) */
#define NICREF_PCIE_WINDOW 2048u      /* (NEXT_TRANSMIT_SEQ - ACKD_SEQ) mod 4096 >= 2048 stops the
				       * TL (L48): at most 2047 TLPs unacknowledged */
#define NICREF_PCIE_RETRY_SLOTS 2048u /* ring slots: slot = seq mod 2048 */
/* The largest TLP: a 4-DW header, 1024 DW of payload, a 1-DW digest. */
#define NICREF_PCIE_TLP_MAX 4116u
#define NICREF_PCIE_SEQHDR_BYTES 2u
#define NICREF_PCIE_LCRC_BYTES 4u
#define NICREF_PCIE_DLLP_BYTES 6u
#define NICREF_PCIE_DLLP_ACK 0x00u /* DLLP type byte of an Ack */
#define NICREF_PCIE_DLLP_NAK 0x10u /* of a Nak */

/* ---- check values (D-DLL-2) ---- */

/* The CRC-32 register after bytes (reflected polynomial EDB88320h, no complement): start from
 * 0xFFFFFFFF; over seqhdr || TLP || LCRC a good TLP leaves NICREF_PCIE_LCRC_RESIDUE. */
#define NICREF_PCIE_LCRC_RESIDUE 0xDEBB20E3u
NICREF_API uint32_t nicref_pcie_crc32_update(uint32_t reg, const void *buf, size_t len);
/* The LCRC value of a TLP with its sequence header (T3): zlib's crc32 of hdr || tlp. Its four
 * bytes follow the TLP little-endian. A nullified TLP carries ~value. */
NICREF_API uint32_t nicref_pcie_lcrc(const uint8_t hdr[2], const uint8_t *tlp, size_t len);
/* The 2-byte sequence header (T2): 4 reserved bits (0 when sent), then the 12-bit seq. */
NICREF_API void nicref_pcie_seqhdr(uint16_t seq, uint8_t reserved, uint8_t out[2]);
/* The DLLP CRC value of a 4-byte body: polynomial 100Bh, initial FFFFh, reflected, complemented;
 * byte 4 of the DLLP is its bits 7:0, byte 5 bits 15:8. */
NICREF_API uint16_t nicref_pcie_dllp_crc(const uint8_t body[4]);

/* ---- DLLPs (layout pcie_dllp_acknak) ---- */

struct nicref_pcie_dllp {
	uint8_t type;      /* byte 0: NICREF_PCIE_DLLP_ACK, _NAK, or another type */
	uint16_t reserved; /* the 12 reserved bits of bytes 1-2 */
	uint16_t seq;      /* AckNak_Seq_Num, 12 bits */
	uint16_t crc;      /* the CRC value carried (bytes 4-5) */
};
/* The 6 bytes of d (crc as given: nicref_pcie_dllp_crc for a good one); fields too wide are cut
 * to their width. */
NICREF_API void nicref_pcie_dllp_encode(const struct nicref_pcie_dllp *d, uint8_t out[6]);
NICREF_API void nicref_pcie_dllp_decode(const uint8_t in[6], struct nicref_pcie_dllp *d);

/* ---- errors and rules ---- */

/* The errors the layer reports (the seed's classification), X(ID, "name", "citation"). */
#define NICREF_PCIE_ERRORS(X)                                                                   \
	X(BAD_TLP, "bad_tlp", "PCIe Base §3.6.3.1 (seed 003 L216, L235, L255)")                 \
	X(BAD_DLLP, "bad_dllp", "PCIe Base §3.6.2.2 (seed 003 L147)")                           \
	X(REPLAY_TIMEOUT, "replay_timer_timeout", "PCIe Base §3.6.2.1 (seed 003 L123, L131)")   \
	X(REPLAY_ROLLOVER, "replay_num_rollover", "PCIe Base §3.6.2.1 (seed 003 L90)")          \
	X(DL_PROTOCOL, "dl_protocol_error", "PCIe Base §3.6.2.2 (seed 003 L158-159)")
enum nicref_pcie_error {
#define NICREF_PCIE_ERR_ENUM(id, name, cite) NICREF_PCIE_ERR_##id,
	NICREF_PCIE_ERRORS(NICREF_PCIE_ERR_ENUM)
#undef NICREF_PCIE_ERR_ENUM
	NICREF_PCIE_ERR_COUNT
};
NICREF_API const char *nicref_pcie_error_name(unsigned e);
NICREF_API const char *nicref_pcie_error_citation(unsigned e);

/* The rules of the model that raise an error or drop a packet, X(ID, "name", "citation"):
 * an error event names the rule that raised it. */
#define NICREF_PCIE_RULES(X)                                                                    \
	X(R1_PHY_ERROR, "R1.phy_error", "PCIe Base §3.6.3.1 (seed 003 L200-204)")               \
	X(R2_NULLIFIED_BAD, "R2.nullified_bad", "PCIe Base §3.6.3.1 (seed 003 L206-216)")       \
	X(R3_LCRC, "R3.lcrc", "PCIe Base §3.6.3.1 (seed 003 L219-235)")                         \
	X(R4_LOST, "R4.out_of_sequence", "PCIe Base §3.6.3.1 (seed 003 L246-257)")              \
	X(D2_CRC, "D2.crc", "PCIe Base §3.6.2.2 (seed 003 L143-147)")                           \
	X(T7G_EXPIRY, "T7g.replay_timer", "PCIe Base §3.6.2.1 (seed 003 L123-131)")             \
	X(T10_ROLLOVER, "T10.rollover", "PCIe Base §3.6.2.1 (seed 003 L88-91)")                 \
	X(T8_SEQ, "T8.acknak_seq", "PCIe Base §3.6.2.2 (seed 003 L158-160)")
enum nicref_pcie_rule {
#define NICREF_PCIE_RULE_ENUM(id, name, cite) NICREF_PCIE_RULE_##id,
	NICREF_PCIE_RULES(NICREF_PCIE_RULE_ENUM)
#undef NICREF_PCIE_RULE_ENUM
	NICREF_PCIE_RULE_COUNT
};
NICREF_API const char *nicref_pcie_rule_name(unsigned r);
NICREF_API const char *nicref_pcie_rule_citation(unsigned r);

/* ---- one end ---- */

/* T11 (L137-140): the order in which one end transmits what is due at once. */
enum nicref_pcie_priority {
	NICREF_PCIE_PRIO_RECOMMENDED = 0, /* Nak, Ack, replay, new TLPs (the seed's list) */
	NICREF_PCIE_PRIO_REPLAY_FIRST = 1, /* replay, Nak, Ack, new TLPs */
	NICREF_PCIE_PRIO_COUNT
};

struct nicref_pcie_params {
	uint32_t ack_latency_limit; /* symbol times (D-DLL-8), default 1000 */
	uint32_t replay_limit;      /* REPLAY_TIMER limit with Extended Synch 0 (D-DLL-3), 24000 */
	uint32_t replay_limit_es1;  /* with Extended Synch 1, 80000 */
	uint8_t extended_synch;     /* Link Control Extended Synch, 0 or 1 */
	uint8_t priority;           /* enum nicref_pcie_priority */
};
NICREF_API void nicref_pcie_params_default(struct nicref_pcie_params *p);
/* 0, or -1 when a value is out of range: a replay limit of 0, extended_synch or priority
 * unknown. */
NICREF_API int nicref_pcie_params_check(const struct nicref_pcie_params *p);

enum nicref_pcie_ev_kind {
	NICREF_PCIE_EV_TX,      /* the end transmits a TLP or DLLP */
	NICREF_PCIE_EV_DELIVER, /* a TLP goes up to the transaction layer */
	NICREF_PCIE_EV_ERROR,   /* an error is reported */
	NICREF_PCIE_EV_RETRAIN, /* the end asks the PHY to retrain (REPLAY_NUM rollover) */
	NICREF_PCIE_EV_ACKED,   /* TLPs first..last left the retry buffer (forward progress) */
};
struct nicref_pcie_event {
	uint8_t kind;         /* enum nicref_pcie_ev_kind */
	uint64_t t;           /* symbol times */
	/* TX */
	bool is_dllp;
	bool nullified, replay; /* a TLP */
	bool replay_begins;     /* the first TLP of a replay (T10(5)) */
	uint16_t seq;           /* TLP seq, or AckNak_Seq_Num; ACKED: the last seq acknowledged */
	uint16_t first;         /* ACKED: the first seq acknowledged */
	uint32_t lcrc;          /* a TLP's LCRC value as sent */
	const uint8_t *tlp;     /* a TLP (TX) or the TLP delivered (DELIVER), len bytes */
	uint32_t len;
	uint8_t dllp[NICREF_PCIE_DLLP_BYTES]; /* a DLLP as sent */
	/* ERROR */
	uint8_t error; /* enum nicref_pcie_error */
	uint8_t rule;  /* enum nicref_pcie_rule */
};
struct nicref_pcie_ops {
	void *ctx;
	void (*event)(void *ctx, const struct nicref_pcie_event *ev);
};

/* One retry-buffer slot: the bytes live in the caller's storage at slot * tlp_max. */
struct nicref_pcie_slot {
	uint32_t lcrc;
	uint16_t len;
};

/* One end. Callers treat it as opaque except for reading (the vectors' expect.state). */
struct nicref_pcie_dll {
	struct nicref_pcie_params p;
	struct nicref_pcie_ops ops;
	uint8_t *store;   /* NICREF_PCIE_RETRY_SLOTS * tlp_max bytes */
	uint32_t tlp_max;
	bool paced;       /* one transmission per nicref_pcie_pump (the link); else all at once */
	/* Symbol times per byte a packet lasts on the wire (the link's symbol_cost); 0: packets
	 * are instantaneous (one end alone, D-DLL-12). */
	uint32_t symbol_cost;
	uint64_t now;

	/* transmitter (L20-40) */
	uint16_t next_transmit_seq, ackd_seq;
	uint8_t replay_num;
	bool replay_timer_running;
	uint64_t replay_timer;
	/* Symbol times until the last symbol of the packet that (re)started REPLAY_TIMER: it
	 * counts from there (L33-35, L102, L134; D-DLL-22); 0 when symbol_cost is 0. */
	uint64_t replay_timer_wait;
	uint32_t replay_limit_now; /* latched at the timer's last start or reset (D-DLL-14) */
	bool retraining;           /* not in L0: a retrain asked for (or the PHY's) until done */
	bool replay_pending;       /* a replay triggered and not yet begun */
	bool replaying;            /* a replay under way (paced ends only) */
	bool replay_again;         /* a Nak during the replay: one more afterwards (D-DLL-16) */
	uint16_t replay_next, replay_end;
	struct nicref_pcie_slot slot[NICREF_PCIE_RETRY_SLOTS];

	/* receiver (L180-197) */
	uint16_t next_rcv_seq;
	bool nak_scheduled;  /* NAK_SCHEDULED */
	bool nak_pending;    /* a Nak scheduled and not yet transmitted */
	bool ack_pending;    /* an Ack scheduled and not yet transmitted */
	bool rx_unacked;     /* a forwarded TLP not yet acknowledged by a transmitted Ack */
	uint64_t acknak_latency_timer;

	/* what happened, for tools and invariants */
	uint64_t errors[NICREF_PCIE_ERR_COUNT];
	uint64_t replays;            /* replays begun */
	uint32_t triggers_since_progress; /* replays triggered since the last forward progress */
};

/* The storage an end needs for TLPs of up to tlp_max bytes. */
NICREF_API size_t nicref_pcie_storage_bytes(uint32_t tlp_max);
/* An end in DL_Active with the reset values at time 0. storage: storage_len bytes, at least
 * nicref_pcie_storage_bytes(1); the largest TLP it takes is storage_len / 2048 (at most
 * NICREF_PCIE_TLP_MAX). 0, or -1 (params refused, storage too small). */
NICREF_API int nicref_pcie_init(struct nicref_pcie_dll *d, const struct nicref_pcie_params *p,
				const struct nicref_pcie_ops *ops, uint8_t *storage,
				size_t storage_len);
/* New parameters (checked as nicref_pcie_params_check: -1 leaves the old ones). The replay
 * limit applies from the next start or reset of REPLAY_TIMER (D-DLL-14). */
NICREF_API int nicref_pcie_set_params(struct nicref_pcie_dll *d, const struct nicref_pcie_params *p);
/* Paced: the end transmits only when nicref_pcie_pump is called (a link whose wire is busy);
 * unpaced (the default): everything due is transmitted at once, at the current instant. */
NICREF_API void nicref_pcie_set_paced(struct nicref_pcie_dll *d, bool paced);
/* DL_Inactive (L23, L25, L29, L184, L189, L194): every reset value, then DL_Active. */
NICREF_API void nicref_pcie_link_down(struct nicref_pcie_dll *d);

enum nicref_pcie_accept {
	NICREF_PCIE_SENT = 0,    /* accepted and transmitted */
	NICREF_PCIE_STALLED = 1, /* the window is full (T1, L48) */
	NICREF_PCIE_BLOCKED = 2, /* a replay is due or under way (L96) */
	NICREF_PCIE_TOO_LONG = 3 /* 0 bytes, or more than the storage's tlp_max */
};
/* The TL hands over a TLP (nullify: transmit it nullified, T6). A paced end's caller offers a
 * TLP only when its direction is free and nicref_pcie_pump had nothing to send. */
NICREF_API enum nicref_pcie_accept nicref_pcie_tl_send(struct nicref_pcie_dll *d,
						       const uint8_t *tlp, size_t len, bool nullify);
/* Whether tl_send would accept a TLP now. */
NICREF_API bool nicref_pcie_can_accept(const struct nicref_pcie_dll *d);
/* A TLP arrives: pkt = sequence header, TLP, LCRC (len bytes); edb: the PHY marks it nullified;
 * phy_error: a receiver error during it. */
NICREF_API void nicref_pcie_rx_tlp(struct nicref_pcie_dll *d, const uint8_t *pkt, size_t len,
				   bool edb, bool phy_error);
/* A DLLP arrives (6 bytes). */
NICREF_API void nicref_pcie_rx_dllp(struct nicref_pcie_dll *d, const uint8_t pkt[6],
				    bool phy_error);
/* Time passes: dt symbol times; what falls due inside is done at its instant. */
NICREF_API void nicref_pcie_advance(struct nicref_pcie_dll *d, uint64_t dt);
/* Symbol times until the next timer event (a replay or an Ack due), or UINT64_MAX. */
NICREF_API uint64_t nicref_pcie_next_due(const struct nicref_pcie_dll *d);
/* The PHY leaves L0 for Recovery without this end asking (the other end's retrain): the
 * timers hold and nothing is transmitted until nicref_pcie_retrain_done. */
NICREF_API void nicref_pcie_phy_recovery(struct nicref_pcie_dll *d);
/* The PHY is back in L0: pending DLLPs, then the replay waiting for it. No effect otherwise. */
NICREF_API void nicref_pcie_retrain_done(struct nicref_pcie_dll *d);
/* Paced ends: transmit the next thing due (Nak, Ack, a replayed TLP, by priority). true when
 * something was transmitted. */
NICREF_API bool nicref_pcie_pump(struct nicref_pcie_dll *d);
/* Whether something (a DLLP or a replayed TLP) waits to be transmitted. */
NICREF_API bool nicref_pcie_tx_pending(const struct nicref_pcie_dll *d);
/* The retry buffer: its number of TLPs and the seq of the i-th, oldest first. */
NICREF_API unsigned nicref_pcie_retry_count(const struct nicref_pcie_dll *d);
NICREF_API uint16_t nicref_pcie_retry_seq(const struct nicref_pcie_dll *d, unsigned i);
/* REPLAY_TIMER's current limit (the latched one, D-DLL-14). */
NICREF_API uint32_t nicref_pcie_replay_limit(const struct nicref_pcie_dll *d);

/* ---- a link of two ends (docs/pcie.md "The link of two ends") ---- */

/* Fault probabilities in 1/65536 per packet concerned. */
struct nicref_pcie_faults {
	uint16_t tlp_lcrc;    /* flip an LCRC bit: the receiver sees a Bad TLP */
	uint16_t tlp_nullify; /* the link nullifies a TLP (EDB, inverted LCRC): silently dropped */
	uint16_t tlp_dup;     /* the link delivers a TLP twice */
	uint16_t dllp_drop;   /* a DLLP is lost */
	uint16_t dllp_crc;    /* flip a DLLP CRC bit: a Bad DLLP */
	uint16_t ack_delay;   /* an Ack leaves ack_delay_symbols late */
	uint32_t ack_delay_symbols;
};
struct nicref_pcie_link_params {
	uint32_t symbol_cost;      /* symbol times per byte on the wire (>= 1) */
	uint32_t delay;            /* symbol times from transmission to arrival */
	uint32_t retrain_symbols;  /* how long a retrain keeps the link out of L0 */
	uint64_t seed;             /* the fault stream */
	struct nicref_pcie_faults faults;
};
NICREF_API void nicref_pcie_link_params_default(struct nicref_pcie_link_params *p);

/* What the link reports: every event of either end (end 0 = A, 1 = B) and each packet put on a
 * wire (WIRE: dir 0 down = A->B, 1 up; the bytes as transmitted and what the link did). */
enum nicref_pcie_link_fault {
	NICREF_PCIE_LF_NONE = 0,
	NICREF_PCIE_LF_CORRUPT = 1, /* the receiver sees a bad LCRC/CRC */
	NICREF_PCIE_LF_LOST = 2,    /* the receiver never sees it (dropped, or nullified) */
	NICREF_PCIE_LF_DUP = 4,     /* delivered twice */
	NICREF_PCIE_LF_DELAYED = 8, /* an Ack held back before transmission */
};
struct nicref_pcie_link_ops {
	void *ctx;
	void (*event)(void *ctx, unsigned end, const struct nicref_pcie_event *ev);
	/* End `end` may accept a TLP now: the next one (true, with tlp, len and nullify set) or none
	 * (false). The bytes must stay valid until the call returns. */
	bool (*tl_next)(void *ctx, unsigned end, const uint8_t **tlp, size_t *len, bool *nullify);
	/* A packet put on the wire in direction dir at time t (faults: enum
	 * nicref_pcie_link_fault bits), before any fault changes the bytes. NULL: not reported. */
	void (*wire)(void *ctx, unsigned dir, uint64_t t, bool is_dllp, const uint8_t *bytes,
		     size_t len, bool edb, unsigned faults);
	/* The link leaves (in_recovery) or regains L0 at t, asked by end `end`. */
	void (*phy)(void *ctx, unsigned end, uint64_t t, bool in_recovery);
};

/* Packets on one wire at once (FIFO); a full wire waits. */
#define NICREF_PCIE_LINK_INFLIGHT 256u
struct nicref_pcie_inflight {
	uint64_t arrive;
	uint32_t off; /* into the direction's byte ring */
	uint16_t len;
	bool is_dllp, edb;
};
struct nicref_pcie_link;
struct nicref_pcie_wire {
	struct nicref_pcie_link *link; /* the events of end `end` come through here */
	unsigned end;
	uint64_t busy_until;
	struct nicref_pcie_inflight q[NICREF_PCIE_LINK_INFLIGHT];
	unsigned head, n;
	uint8_t *bytes; /* NICREF_PCIE_LINK_INFLIGHT * (tlp_max + 6) */
	bool held;      /* an Ack held back (fault) */
	uint64_t held_until;
	uint8_t held_dllp[NICREF_PCIE_DLLP_BYTES];
};
struct nicref_pcie_link {
	struct nicref_pcie_link_params p;
	struct nicref_pcie_link_ops ops;
	struct nicref_pcie_dll end[2];
	struct nicref_pcie_wire wire[2];
	uint64_t now;
	uint64_t prng;
	uint32_t tlp_max;
	bool recovery;          /* a retrain under way */
	uint64_t recovery_until;
	unsigned recovery_end;  /* the end that asked */
	unsigned tx_dir;        /* while an end transmits: its direction */
};

/* Storage for a link whose TLPs are at most tlp_max bytes (both ends and both wires). */
NICREF_API size_t nicref_pcie_link_storage_bytes(uint32_t tlp_max);
/* 0, or -1 (parameters refused, storage too small, tlp_max 0 or above NICREF_PCIE_TLP_MAX). */
NICREF_API int nicref_pcie_link_init(struct nicref_pcie_link *l,
				     const struct nicref_pcie_params *dll,
				     const struct nicref_pcie_link_params *lp,
				     const struct nicref_pcie_link_ops *ops, uint32_t tlp_max,
				     uint8_t *storage, size_t storage_len);
/* Runs the link until virtual time `until` (symbol times). */
NICREF_API void nicref_pcie_link_run(struct nicref_pcie_link *l, uint64_t until);
/* Nothing in flight, nothing due, every TLP acknowledged, no retrain. */
NICREF_API bool nicref_pcie_link_idle(const struct nicref_pcie_link *l);

#endif
