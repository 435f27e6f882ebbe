/* Private to harness/replay*.c (`nicref replay`, docs/replay.md): the options, one frame's
 * prediction, the counts of the summary, and the parts of the run:
 *   replay_cmd.c     the command line
 *   replay_setup.c   the SETUP file: the vector step language plus the high-level steps, run
 *                    through vectors_stack.h
 *   replay_frame.c   a capture record into the Ethernet frame the port receives (link types,
 *                    truncated records, runts), or the reason it is not injected
 *   replay_drv.c     the driver: polls the CQ, re-posts the WQEs, writes the doorbell records
 *   replay.c         the loop: virtual time, injection, the prediction, the summary
 *   replay_jsonl.c   the prediction as one JSON object (--jsonl, schema version below) and
 *                    the reader of an expectation file (--expect)
 *   replay_expect.c  frame-by-frame, field-by-field comparison and its reports
 *   replay_pcap.c    --pcap-dir: what each RQ received, one pcap per RQ
 * Nothing here allocates per frame: the prediction, the frame and the outputs' buffers are
 * made once. */
#ifndef NICREF_REPLAY_INT_H
#define NICREF_REPLAY_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "vectors_stack.h"

/* The --jsonl format (docs/replay.md, docs/schemas/replay.schema.json): raised whenever a
 * change could break a reader (a key removed or renamed, a value's meaning changed). */
#define REPLAY_SCHEMA_VERSION 1

struct replay_opts {
	const char *setup, *capture;
	const char *jsonl, *pcap_dir, *expect, *json, *junit;
	const char *ignore;   /* comma-separated fields --expect does not compare */
	unsigned port;        /* the port frames arrive on */
	bool no_repost;       /* the driver never re-posts a WQE: a starved ring */
	bool no_pad;          /* runts go in as captured (and are dropped as undersize) */
	int progress;         /* -1 when stderr is a terminal, 0 never, 1 always */
	const char *dut;      /* a device under test driven alongside (docs/dut.md) */
	unsigned dut_timeout_ms; /* a call into it lasting this long is a hang (0: no limit) */
};

/* Why a record is not injected (counted in the summary, named in --jsonl). */
#define REPLAY_SKIPS(X)                                                                         \
	X(TRUNCATED, "truncated")   /* cut by the snapshot length: its bytes are not all there */ \
	X(TOO_LONG, "too_long")     /* longer than a frame the port can receive (65536 bytes) */  \
	X(NOT_ETHERNET, "not_ethernet") /* a raw-IP or cooked record that is not IPv4/IPv6/... */
#define REPLAY_SKIP_ENUM(id, name) REPLAY_SKIP_##id,
enum replay_skip { REPLAY_SKIP_NONE = -1, REPLAY_SKIPS(REPLAY_SKIP_ENUM) REPLAY_SKIP_COUNT };
#undef REPLAY_SKIP_ENUM
const char *replay_skip_name(enum replay_skip s);

/* Drop reasons of the rx_drop event (docs/rx.md, D-RX-8), 1..10. */
#define REPLAY_DROP_MAX 11u
const char *replay_drop_name(unsigned reason);
/* The counters a drop of this reason moves (D-RX-8), "" when none. */
const char *replay_drop_counters(unsigned reason);
/* What num of a drop of this reason names: "port", "tir", "rq" or NULL. */
const char *replay_drop_num_kind(unsigned reason);

/* One copy of a frame: a CQE of an RQ, or a drop. */
#define REPLAY_MAX_COPIES 16u
struct replay_copy {
	bool drop;
	unsigned reason;      /* drop */
	int num;              /* drop: the port, or the index of the TIR / RQ in the setup (-1) */
	int rq;               /* CQE: the RQ's index in the setup, -1 when none matches */
	uint8_t cqe[64];      /* CQE: the 64-byte CQE (T67; the second half of a 128-byte one) */
	bool polled;          /* CQE: read from the CQ */
};

/* A copy cleared for a new CQE or drop (no RQ yet): zeroed 64 bytes at a time, which gcc
 * stores with vector moves, where one memset of the whole becomes `rep stos`, whose stores
 * the field stores and loads that follow at once wait for (a copy a frame). */
static inline void replay_copy_clear(struct replay_copy *k)
{
	_Static_assert(sizeof *k > 64 && sizeof *k <= 128, "two pieces");
	memset(k, 0, 64);
	memset((uint8_t *)k + 64, 0, sizeof *k - 64);
	k->rq = -1;
}

struct replay_pred {
	uint64_t frame, t_ns;   /* record number (1-based) and capture time */
	uint32_t len;           /* bytes injected (after conversion and padding) */
	uint32_t caplen, wirelen;
	enum replay_skip skip;
	bool padded, converted;
	unsigned ncopies, lost; /* lost: copies beyond REPLAY_MAX_COPIES (counted only) */
	struct replay_copy copy[REPLAY_MAX_COPIES];
	unsigned violations;    /* driver violations while the frame went through */
	unsigned rq_errors;     /* RQs that went to ERR */
};

/* What the summary counts. */
struct replay_counts {
	uint64_t records, injected, skipped[REPLAY_SKIP_COUNT];
	uint64_t padded, converted, link[CAP_LINK_COUNT];
	uint64_t delivered, errored, dropped, cqes, err_cqes, drops[REPLAY_DROP_MAX + 1];
	uint64_t per_rq[VEC_STACK_MAX_RQS], lost_copies, violations, rq_errors;
	uint64_t inversions, reposted, first_ns, last_ns;
	uint64_t untimed;         /* records without a time (capture.h enum cap_time) */
	uint64_t caplen_over_len; /* records whose captured length exceeds their wire length */
	uint64_t cut_by_reader;   /* skipped truncated: cut by libpcap to the header's snaplen */
	uint64_t starved_frame; /* the first frame dropped for want of a WQE (0: none) */
	uint64_t lost_frame;    /* the first frame with copies past REPLAY_MAX_COPIES (0: none) */
};

/* ---- replay_setup.c ---- */

/* Loads SETUP, expands the high-level steps, builds the stack: VEC_STACK_OK or _BAD (messages
 * on stderr). */
enum vec_stack_result replay_setup_open(const char *path, struct vec_stack **s);

/* ---- replay_frame.c ---- */

/* The largest frame nicref_wire_rx takes, and the buffer a converted frame needs. */
#define REPLAY_FRAME_MAX 65536u
/* The frame of record f into buf (REPLAY_FRAME_MAX bytes): its length, with p->skip,
 * p->padded, p->converted set. mac: the function's address (a cooked or raw-IP record has no
 * destination). */
uint32_t replay_frame(const struct cap_frame *f, const uint8_t mac[6], bool pad, uint8_t *buf,
		      struct replay_pred *p);
/* The same without the copy where the record's bytes are the frame (an Ethernet record that
 * needs no padding): *bytes is then f->data, otherwise buf, which holds the frame. The replay's
 * loop takes this one (one copy of every frame fewer). */
uint32_t replay_frame_at(const struct cap_frame *f, const uint8_t mac[6], bool pad, uint8_t *buf,
			 struct replay_pred *p, const uint8_t **bytes);

/* ---- replay_drv.c ---- */

/* Polls every CQE the CQ holds into the prediction's CQE copies (in order), re-posts the WQE
 * each good CQE consumed (unless no_repost), writes update_ci and the doorbell records. Returns
 * the CQEs polled. */
unsigned replay_drv_poll(const struct vec_stack_rx *x, struct replay_pred *p, bool repost,
			 uint64_t *reposted, unsigned *due);
/* replay_drv_poll's *due before its first poll: read the CQ until an entry is not valid. */
#define REPLAY_DUE_UNKNOWN UINT_MAX
/* The RQ index of a CQE's user_index, -1 when none. */
int replay_rq_of_user_index(const struct vec_stack_rx *x, uint32_t ui);

/* ---- replay_jsonl.c ---- */

/* One frame as one line of JSON (no newline) into buf: its length (cut at cap). */
size_t replay_jsonl_line(const struct replay_pred *p, char *buf, size_t cap);
/* The header line. */
size_t replay_jsonl_header(const struct replay_opts *o, char *buf, size_t cap);
/* The CQE fields --jsonl writes, in order, and their count. */
const char *replay_cqe_field_name(unsigned i);
unsigned replay_cqe_fields(void);
uint64_t replay_cqe_field(const uint8_t cqe[64], unsigned i);

/* ---- replay_pcap.c ---- */

struct replay_pcaps;
int replay_pcaps_open(const char *dir, const struct vec_stack_rx *x, struct replay_pcaps **out,
		      char *err, size_t errlen);
/* The data each CQE of p wrote, as its RQ's next record at t_ns. */
void replay_pcaps_frame(struct replay_pcaps *pc, const struct vec_stack_rx *x,
			const struct replay_pred *p);
int replay_pcaps_close(struct replay_pcaps *pc, char *err, size_t errlen);

/* ---- replay_expect.c ---- */

struct replay_expect;
/* Differences are printed to `to` (stdout, or stderr when --jsonl writes stdout). */
int replay_expect_open(const char *path, const char *ignore, FILE *to, struct replay_expect **out);
/* Compares frame p with the next expected line; differences printed and counted. */
void replay_expect_frame(struct replay_expect *e, const struct replay_pred *p);
/* After the last frame: lines left over. Returns 0 all agreed, 1 a disagreement, 2 bad input. */
int replay_expect_close(struct replay_expect *e, const struct replay_opts *o,
			const struct replay_counts *c, double seconds);

/* ---- replay.c ---- */

int replay_run(const struct replay_opts *o);

#endif
