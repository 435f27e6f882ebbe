/* Internals of the golden-vector runner (docs/vectors.md), shared by its files:
 *   vectors.c          paths and files, the whole run, results, messages
 *   vectors_check.c    a file before anything runs: JSON, the schema, then every name, number
 *                      and width (the steps themselves check in their own words, below)
 *   vectors_steps.c    the steps: each validates its value, then (unless only checking) applies
 *                      it to the device
 *   vectors_expect.c   expectations: comparators, any_of, completions, host memory
 *   vectors_events.c   the events step, clauses, the widths of event arguments
 *   vectors_adp.c      the adp_timeline step
 *   vectors_pcie*.c    the PCIe data link layer steps (dll, tl_send, rx_tlp, rx_dllp, advance,
 *                      retrain_done, link_down, expect)
 *   vectors_tx.c       the send path: tx_setup, frames, cqes, and the frames the device
 *                      transmits (ops.wire_tx)
 *   vectors_wqe.c      the send path: wqe (a WQE built through the segment layouts), sq_ring
 *   vectors_rx.c       the receive path: rx_setup, rq_post, rx_frame, steer, flow_counters
 *   vectors_profile.c  a group's profile and capabilities
 *   vectors_roce*.c    RoCE: qp_setup, qp_post, qp_recv, the two-device form (dev, link,
 *                      link_counters; vectors_roce_int.h)
 * Every step is written once and run twice: first with r->checking set, over every file before
 * any test runs (nothing touches a device; every refusal is printed), then for real. So the
 * checks cannot drift from what the steps do. */
#ifndef NICREF_VECTORS_INT_H
#define NICREF_VECTORS_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmdbuild.h"
#include "driver.h"
#include "jschema.h"
#include "jsonval.h"
#include "nicref/nicref.h"
#include "opstream.h"
#include "vectors.h"

/* Where the runner places things in host memory unless a test says otherwise. */
#define DEFAULT_CMDQ_ADDR 0x10000ull
#define DEFAULT_IN_MBOX 0x100000ull  /* + slot * SLOT_MBOX_SPAN */
#define DEFAULT_OUT_MBOX 0x800000ull /* + slot * SLOT_MBOX_SPAN */
#define SLOT_MBOX_SPAN 0x40000ull     /* room for 256 blocks per slot and direction */

/* Bounds of what a vector may ask for. None of them scales an allocation with a number the
 * vector gives: the largest buffers are fixed. */
#define MAX_CMD_BYTES (16u + 1024u * 512u) /* command input built by a step (length, hex) */
#define MAX_CHAIN_BLOCKS 8193u /* mailbox blocks of input_length / output_length: one past the
				* largest max_mailbox_blocks a profile may set, so a vector can
				* go past the device's limit */
#define MAX_SLOTS 32u           /* command queue entries (PRM §7.14.1: 32 at most) */
#define MAX_PATCHES 32u         /* entry and mailbox patches of one command */
#define MAX_HEX_BYTES 65536u    /* bytes of one mem_write / mem_expect */
#define BAR_LIMIT 0x10000u      /* BAR0 offsets a vector may address: the op-stream seed format
				 * (harness/opstream.h) has 16-bit offsets */
#define MAX_DMA_FAULTS 8u       /* nicref_hostmem_fault ranges per device */
#define ADVANCE_RECORD_MAX (1ull << 40) /* longer advance_ns steps are not recorded as seeds */

struct refdrv_sq_stack;
struct vec_capture;
struct vec_pcie;

/* What the send-path steps know of the test so far: the same whether checking or running, so a
 * step refuses before anything runs what it would refuse later (vectors_tx.c). */
struct vec_tx {
	int stage;          /* the stage the last bring_up goes to; -1 none */
	bool setup;         /* tx_setup was given */
	bool posted;        /* a wqe was given */
	bool up;            /* running: the reference driver brought the stack up */
	unsigned log_sq_size;
	bool wq_signature;
	uint64_t data_addr, data_size, data_next; /* the data region, its next free offset */
};

/* What the receive-path steps know of the test so far (vectors_rx.c): the same whether checking
 * or running. Names of flow tables, groups and counters point into the vector document. */
#define VEC_RX_MAX_RQS 16u
#define VEC_RX_MAX_TIRS 16u
#define VEC_RX_MAX_NAMES 32u
struct vec_rx_wq {
	unsigned log_wq_sz, log_stride, end_pad;
	bool signature;
};
struct vec_rx_rq {
	struct vec_rx_wq wq;
	bool vsd, flush, on_rmp;
	bool linked; /* wq_type 0: a linked list (docs/rx.md D-RX-16) */
	uint32_t user_index;
};
struct vec_rx_lro {
	unsigned mask, timeout, max_msg_sz; /* T45 10h; mask 0: LRO off */
};
struct vec_rx_tir {
	struct vec_rx_lro lro;
	bool indirect, symmetric;
	unsigned rq, hash_fn, self_lb_en;
	uint32_t sel;
	uint8_t key[40];
};
struct vec_rx {
	bool setup, up, rmp, rmp_linked, td_tx;
	unsigned log_cq_size, cqe_sz, lwm;
	uint64_t data_addr, data_size;
	struct vec_rx_wq rmp_wq;
	unsigned nrq, ntir, rqt_max, rqt_n, nall;
	struct vec_rx_rq rq[VEC_RX_MAX_RQS];
	struct vec_rx_tir tir[VEC_RX_MAX_TIRS];
	uint8_t rqt[256], all[64];
	uint32_t flow_tag;
	const char *tables[VEC_RX_MAX_NAMES], *groups[VEC_RX_MAX_NAMES],
		*counters[VEC_RX_MAX_NAMES];
	uint8_t table_type[VEC_RX_MAX_NAMES], group_table[VEC_RX_MAX_NAMES];
	unsigned ntables, ngroups, ncounters;
};
struct rx_stack;
struct refdrv_cq;

struct posted {
	bool used;
	struct cmd_post post; /* post.in is valid only while the step posts it */
	unsigned opcode;      /* of the input, when it has one (in_len >= 2) */
	bool has_opcode;
	struct cmd_patch patches[MAX_PATCHES]; /* field names point into the document */
};

/* Newline-separated lines. */
struct lines {
	char *s;
	size_t len;
	unsigned n;
};
void lines_add(struct lines *l, const char *line);
void lines_free(struct lines *l);

struct run {
	const struct vec_options *opt;
	FILE *out;
	struct jschema *schema;
	const json_t *doc; /* the file being checked */
	uint8_t *inbuf; /* MAX_CMD_BYTES: the input a command step builds */
	bool checking;  /* validate only: no device, nothing runs */

	/* where we are, for messages */
	const char *file;
	long tc_id; /* -1 outside a test */
	long group; /* -1 outside a group */
	bool in_setup;
	long step; /* -1 outside a step */
	const char *kind;

	/* this test */
	struct nicref_dev *dev;
	struct nicref_config cfg;
	struct nicref_event *ev;
	bool *ev_matched;
	size_t nev, cap_ev, ev_cursor;
	struct lines fail, bad, notes; /* differences, refusals, information */
	struct posted slot[MAX_SLOTS];
	unsigned dma_faults;
	struct opstream rec;
	unsigned opcodes[REPORT_MAX_OPS], nopcodes;
	unsigned ok_ops[REPORT_MAX_OPS], nok, refused_ops[REPORT_MAX_OPS], nrefused;
	uint16_t rules[REPORT_MAX_RULES]; /* credited rules (struct test_result) */
	unsigned nrules, rules_dropped;
	unsigned ncmd;
	unsigned open_cmps; /* matchers of this test that admit more than one value (cmp_open) */

	/* the send path (vectors_tx.c) */
	struct vec_tx tx;
	struct refdrv *drv;               /* running: the last bring_up's driver, kept for the test */
	bool drv_live;
	struct refdrv_sq_stack *sq;       /* running: the tx_setup stack */
	struct vec_capture *cap;          /* frames since the last frames step, CQEs of a step */
	uint64_t pcap_base_ns;            /* --pcap: the virtual time of the tests before */

	/* the receive path (vectors_rx.c) */
	struct vec_rx rx;
	struct rx_stack *rxs;             /* running: the rx_setup's objects */

	/* the PCIe data link layer end (vectors_pcie.c), made once a run */
	struct vec_pcie *pcie;

	/* RoCE: the QP steps and the two-device form (vectors_roce.c), made on first use */
	struct vec_roce *roce;

	unsigned refusals; /* of the whole run */

	/* The steps are a SETUP's, not a vector file's (vectors_stack.h): messages name the step
	 * only, not a group or test the file does not have. */
	bool setup_only;
	/* When set, the device's events go here instead of the test's list (vectors_stack.h). */
	void (*sink)(void *ctx, const struct nicref_event *ev);
	void *sink_ctx;

	/* --dut (dut_diff.h): tests run against the DUT too, and those where it differed */
	unsigned dut_tests, dut_failed;
	bool dut_differs;
};

/* ---- messages (vectors.c) ---- */

/* The input cannot be checked: "BAD <file>: <where>: <field>: <message>" (field may be NULL).
 * While checking it marks the file; while running it makes the test an ERROR. */
void vbad(struct run *r, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The implementation disagrees with the vector: "FAIL <file>#<tcId>: <where>: <message>". */
void vfail(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Information for the test's notes (which any_of alternative held, ...). */
void vnote(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "tcId 4: step 2 (command)" (or the group's setup step, or ""), for messages. */
void vwhere(const struct run *r, char *buf, size_t len);

/* A number v for a destination bits wide: 0 and *out, or -1 after vbad naming field. */
int vnum_at(struct run *r, const char *field, const json_t *v, enum name_space ns, unsigned bits,
	    uint64_t *out);
/* A number of a step's object under key: 0 and *out (dflt when absent), or -1 after vbad. */
int vnum(struct run *r, const json_t *obj, const char *key, enum name_space ns, unsigned bits,
	 uint64_t dflt, uint64_t *out);

/* ---- steps (vectors_steps.c) ---- */

/* The name space of a field named key in a step's layout fields (NS_OPCODE for a command's
 * "opcode"). */
typedef enum name_space (*ns_of_fn)(const char *key);
enum name_space ns_command(const char *key);
/* Sets every "name": value of obj (but the key skip, when not NULL) into buf[0..len) through
 * layout l, each value in its field's width and name space; "name[i]" is element i of an array
 * field. 0, or -1 after vbad naming what.name. */
int vec_set_fields(struct run *r, const char *what, const struct nicref_layout *l,
		   const json_t *obj, uint8_t *buf, size_t len, ns_of_fn ns_of, const char *skip);
/* A hex string: its byte count (1..cap, or 0..cap when empty is allowed), or -1 after vbad. */
long vec_hex_bytes(struct run *r, const char *field, const json_t *v, size_t cap, bool empty_ok);
/* A host memory range that does not wrap past 2^64: 0, or -1 after vbad. */
int vec_range_ok(struct run *r, const char *field, uint64_t addr, uint64_t len);
/* A host memory write the built-in memory refused (it is full): vbad naming what. */
void vec_host_refused(struct run *r, const char *what);
/* The reference driver's BAR and time accessors on the run (recorded in the op stream). */
struct refdrv_ops vec_driver_ops(struct run *r);

/* One step (an object with one key); checks or runs it as r->checking says. */
void vec_step(struct run *r, const json_t *step, size_t index);
/* A group's "profile" and "caps" into p (which holds the default profile): 0, or -1 after
 * vbad. */
int vec_profile(struct run *r, struct nicref_profile *p, const json_t *group);
/* The host memory accessors of the steps (recorded into the op stream). */
int vec_host_write(void *ctx, uint64_t addr, const void *buf, size_t len);
int vec_host_read(void *ctx, uint64_t addr, void *buf, size_t len);
/* A completed command of opcode op: OK (delivery and status) or refused (conformance counts). */
void vec_note_outcome(struct run *r, unsigned op, bool ok);

/* ---- expectations (vectors_expect.c) ---- */

/* Differences of one expectation, before they become failures (any_of needs them apart), and
 * the rules it named or matched by clause (REPORT_RULE_VIOLATION | v for a violation): credited
 * to the test only when the expectation held (diffs_credit). A fixed set: no allocation. */
struct diffs {
	struct lines l;
	uint16_t rules[REPORT_MAX_RULES];
	unsigned nrules, dropped;
};
void diff_add(struct diffs *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The expectation matched this rule (by name or by clause). */
void diff_rule(struct diffs *d, unsigned rule);
/* The expectation held: its rules are credited to the test (struct test_result rules). */
void diffs_credit(struct run *r, const struct diffs *d);

/* A comparator: a plain value (equality) or a matcher object ({"ge": 1}, {"mask": .., "eq":
 * ..}, {"in": [...]}; docs/vectors.md "Comparators") for a destination bits wide whose names
 * are in ns. Check: 0, or -1 after vbad (field names it). */
int cmp_check(struct run *r, const char *field, const json_t *c, enum name_space ns,
	      unsigned bits);
/* Whether got satisfies a checked comparator. */
bool cmp_holds(const json_t *c, enum name_space ns, uint64_t got);
/* What a checked comparator admits among the values of its width (cmp_check refuses NONE, a
 * matcher that can never hold, and ALL, one that compares nothing). */
enum cmp_extent { CMP_NONE, CMP_ONE, CMP_SOME, CMP_ALL };
enum cmp_extent cmp_extent(const json_t *c, enum name_space ns, unsigned bits);
/* Whether a checked comparator admits more than one value of its width and refuses some
 * (CMP_SOME): it says what is acceptable (counted in r->open_cmps for the acceptable rule). */
bool cmp_open(const json_t *c, enum name_space ns, unsigned bits);
/* "BAD_OP (0x2)" or the matcher as JSON, for messages. */
void cmp_text(const json_t *c, enum name_space ns, char *buf, size_t len);

/* The expect object of a command or completion: check (output_length: what the command
 * states) and compare with slot's completed entry. */
int expect_check(struct run *r, const char *field, const json_t *e, uint32_t output_length);
/* Expected fields of layout l (comparators; wide fields as exact hex) lying within the first
 * `within` bytes: check, and compare with buf[0..len) adding a difference per field. */
int fields_check(struct run *r, const char *what, const struct nicref_layout *l,
		 const json_t *obj, uint64_t within, ns_of_fn ns_of);
void fields_compare(struct diffs *d, const char *what, const struct nicref_layout *l,
		    const json_t *obj, const uint8_t *buf, size_t len, ns_of_fn ns_of);
/* "BAD_OP (0x2)" or "5 (0x5)". */
void value_text(enum name_space ns, uint64_t v, char *buf, size_t len);
void expect_compare(struct run *r, unsigned slot, const json_t *e);

/* The events and mem_expect steps. */
void step_events(struct run *r, const json_t *s);
void step_mem_expect(struct run *r, const json_t *s);

/* "PRM §7.14" matches a citation naming §7.14 or §7.14.x, not §7.1 or §7.140. */
bool clause_matches(const char *citation, const char *clause);
/* A clause some rule of the table (violations, else command rules) cites: 0, or -1 after vbad. */
int clause_check(struct run *r, const char *field, const json_t *v, bool violations);

/* Each line of d as a failure, with a prefix (NULL: none). */
void diffs_fail(struct run *r, const struct diffs *d, const char *prefix);
/* The alternatives of any_of, in order, until one holds (compare fills each one's
 * differences): notes which held, or fails with every alternative's differences. Returns the
 * index that held, or the number of alternatives. */
size_t resolve_alternatives(struct run *r, const json_t *alts,
			    void (*compare)(const json_t *alt, struct diffs *d, void *ctx), void *ctx);

/* Event arguments: the name space and width of each (NICREF_EVENT_KINDS); NULL if none. */
struct ev_arg {
	enum nicref_event_kind kind;
	const char *arg;
	enum name_space ns;
	unsigned bits;
};
const struct ev_arg *ev_arg_find(enum nicref_event_kind kind, const char *arg);

/* ---- the send path (vectors_tx.c; docs/vectors.md "Send path") ---- */

/* Bounds of the send path: a frame kept is at most MAX_TX_FRAME bytes (more than any frame of a
 * 16-bit MTU), a test keeps at most MAX_TX_FRAMES frames and MAX_TX_CAPTURE bytes between two
 * frames steps, a cqes step reads at most MAX_STEP_CQES CQEs. Fixed buffers, made once a run. */
#define MAX_TX_FRAME 65536u
#define MAX_TX_FRAMES 16384u
#define MAX_TX_CAPTURE (4u << 20)
#define MAX_STEP_CQES 1024u
/* The bytes of one pointer data segment of a wqe step: more than an LSO message of the largest
 * max_lso_cap a vector needs (the default device's 64 KB and beyond it). */
#define MAX_TX_DATA (1u << 20)

void st_tx_setup(struct run *r, const json_t *s);
/* A send queue is set up (checking: a tx_setup came before), else vbad / vfail naming what. */
bool vec_tx_ready(struct run *r, const char *what);
void st_wqe(struct run *r, const json_t *s);
void st_sq_ring(struct run *r, const json_t *s);
void step_frames(struct run *r, const json_t *s);
void step_cqes(struct run *r, const json_t *s);
/* ops.wire_tx of the tests' devices (ctx: the run): the frame to --pcap and to the capture. */
void vec_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len);
/* A test starts (the send path forgets the last one) / its device goes. */
void vec_tx_start(struct run *r);
void vec_tx_end(struct run *r);
/* The run's buffers go. */
void vec_tx_free(struct run *r);

/* ---- the receive path (vectors_rx.c; docs/vectors.md "Receive path") ---- */

void st_rx_setup(struct run *r, const json_t *s);
void st_rq_post(struct run *r, const json_t *s);
void st_rx_frame(struct run *r, const json_t *s);
void st_steer(struct run *r, const json_t *s);
void st_flow_counters(struct run *r, const json_t *s);
void st_modify_tir(struct run *r, const json_t *s); /* vectors_rx_lro.c */
void st_destroy_tir(struct run *r, const json_t *s);
void st_rq_state(struct run *r, const json_t *s);
/* A receive configuration is set up (checking: an rx_setup came before), else vbad / vfail. */
bool vec_rx_ready(struct run *r, const char *what);
/* The rx_setup's CQ while running, or NULL. */
struct refdrv_cq *vec_rx_cq(struct run *r);
/* A test starts (the receive path forgets the last one) / the run's buffers go. */
void vec_rx_start(struct run *r);
void vec_rx_free(struct run *r);

/* ---- RoCE (vectors_roce.c, vectors_roce_qp.c; docs/vectors.md "RoCE") ---- */

struct vec_roce;
struct refdrv_wqe;
/* Running: before the test's device is made, the group's "devices" (2: the callbacks routed by
 * device); after it, device b and the link; before device a goes, device b's end checks and
 * its end. 0, or -1 after vbad. */
int vec_roce_config(struct run *r, const json_t *group);
int vec_roce_open(struct run *r);
/* The group joins two devices ("devices": 2). */
bool vec_roce_two_devices(const json_t *group);
void vec_roce_end(struct run *r);
void vec_roce_free(struct run *r);
/* Checking: a group starts; the state after its setup is saved, and restored for each test. */
void vec_roce_group(struct run *r, const json_t *group);
void vec_roce_save(struct run *r);
void vec_roce_restore(struct run *r);
/* A step's "dev": the device's fields into struct run. The previous device, or -2 after vbad
 * (the step does not run); vec_roce_step_end puts the previous device back and delivers the
 * frames the link holds that are due. */
int vec_roce_step_begin(struct run *r, const json_t *step, const char *kind);
void vec_roce_step_end(struct run *r, int prev);
/* advance_ns of a group of two devices (both devices and the link): true when it took it. */
bool vec_roce_advance(struct run *r, uint64_t ns);
/* The CQ of a cqes step that names a QP's ("qp", "cq": "send"/"recv"); *named says whether it
 * does (then *ok whether it is good). */
struct refdrv_cq *vec_roce_cq(struct run *r, const json_t *s, bool *named, bool *ok);
void st_link(struct run *r, const json_t *s);
void st_link_counters(struct run *r, const json_t *s);
void st_qp_setup(struct run *r, const json_t *s);
void st_qp_post(struct run *r, const json_t *s);
void st_qp_recv(struct run *r, const json_t *s);
/* The data segments of a wqe (vectors_wqe.c), for qp_post: bytes placed in r->tx's region. */
int vec_wqe_data(struct run *r, const json_t *list, struct refdrv_wqe *w);

/* ---- the adp_timeline step (vectors_adp.c) ---- */

void step_adp_timeline(struct run *r, const json_t *v);

/* ---- the PCIe data link layer steps (vectors_pcie.c, vectors_pcie_expect.c) ---- */

void step_pcie_dll(struct run *r, const json_t *s);
void step_pcie_tl_send(struct run *r, const json_t *s);
void step_pcie_rx_tlp(struct run *r, const json_t *s);
void step_pcie_rx_dllp(struct run *r, const json_t *s);
void step_pcie_advance(struct run *r, const json_t *s);
void step_pcie_retrain_done(struct run *r, const json_t *s);
void step_pcie_link_down(struct run *r, const json_t *s);
void step_pcie_expect(struct run *r, const json_t *s);
/* A test starts (its end is reset at its first step) / the run's end goes. */
void vec_pcie_start(struct run *r);
void vec_pcie_free(struct run *r);

/* ---- whole files (vectors_check.c) ---- */

/* Loads and checks a file, printing every refusal (and adding them to rep as ERROR results);
 * the document, or NULL when refused. */
json_t *vec_check_file(struct run *r, const char *path, struct report *rep);
/* vec_check_file of a document already loaded (which it takes: freed when refused). */
json_t *vec_check_doc(struct run *r, const char *path, json_t *doc, struct report *rep);
/* A fresh device for the group (its profile and caps) in r->dev: 0, or -1 after vbad. */
int vec_dev_open(struct run *r, const json_t *group);
/* The test's end checks: a violation no events step matched, a broken model invariant. */
void vec_unexpected(struct run *r);
/* The refusals gathered so far (r->bad) become one ERROR result of the file (tc_id 0: the file
 * or a group as a whole). */
void vec_flush_bad(struct run *r, struct report *rep, long tc_id);

#endif
