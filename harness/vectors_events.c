/* The events step (docs/vectors.md "events") and clauses: the expected events, in order, among
 * those the device emitted since the previous events step; violations and refusals matched by
 * rule name or by the clause their rule cites. */
#include <stdlib.h>
#include <string.h>

#include "vectors_int.h"

/* ---- clauses ---- */

bool clause_matches(const char *citation, const char *clause)
{
	const char *want = strstr(clause, "§");
	if (!citation || !want)
		return false;
	want += strlen("§");
	size_t wn = strspn(want, "0123456789.");
	for (const char *p = strstr(citation, "§"); p; p = strstr(p + 1, "§")) {
		const char *sec = p + strlen("§");
		size_t n = strspn(sec, "0123456789.");
		while (n && sec[n - 1] == '.')
			n--; /* "§8.2." ends a sentence */
		if (n >= wn && !strncmp(sec, want, wn) && (n == wn || sec[wn] == '.'))
			return true;
	}
	return false;
}

/* Whether some rule of the table (violations, or command rules) cites the clause. */
static bool clause_names_a_rule(const char *clause, bool violations)
{
	unsigned n = violations ? NICREF_VIO_COUNT : NICREF_RULE_COUNT;
	for (unsigned i = 0; i < n; i++)
		if (clause_matches(violations ? nicref_violation_citation(i)
					      : nicref_cmd_rule_citation(i),
				   clause))
			return true;
	return false;
}

int clause_check(struct run *r, const char *field, const json_t *v, bool violations)
{
	if (json_is_string(v) && clause_names_a_rule(json_string_value(v), violations))
		return 0;
	vbad(r, field, "%s is cited by no %s", json_is_string(v) ? json_string_value(v) : "?",
	     violations ? "driver violation rule" : "command rule");
	return -1;
}

/* ---- events ---- */

/* The arguments of NICREF_EVENT_KINDS (nicref/trace.h): the names a value may take and the
 * width of the field the argument reports (a value wider can never occur: a typo). */
static const struct ev_arg ev_args[] = {
	{ NICREF_EV_CMD_DONE, "slot", NS_NONE, 5 },	  /* 32 entries at most (§7.14.1) */
	{ NICREF_EV_CMD_DONE, "opcode", NS_OPCODE, 16 },  /* T127 */
	{ NICREF_EV_CMD_DONE, "op_mod", NS_NONE, 16 },	  /* T100 */
	{ NICREF_EV_CMD_DONE, "delivery", NS_DELIVERY, 7 }, /* T96 3Ch[7:1] */
	{ NICREF_EV_CMD_DONE, "status", NS_STATUS, 8 },	  /* T128 */
	{ NICREF_EV_CMD_DONE, "syndrome", NS_NONE, 32 },
	{ NICREF_EV_CMD_FAIL, "slot", NS_NONE, 5 },
	{ NICREF_EV_CMD_FAIL, "opcode", NS_OPCODE, 16 },
	{ NICREF_EV_CMD_FAIL, "rule", NS_CMD_RULE, 16 },
	{ NICREF_EV_UNMODELLED, "slot", NS_NONE, 5 },
	{ NICREF_EV_UNMODELLED, "opcode", NS_OPCODE, 16 },
	{ NICREF_EV_VIOLATION, "rule", NS_VIOLATION, 16 },
	{ NICREF_EV_VIOLATION, "arg", NS_NONE, 64 },
	{ NICREF_EV_DMA_ERROR, "addr", NS_NONE, 64 },
	{ NICREF_EV_DMA_ERROR, "len", NS_NONE, 64 },
	{ NICREF_EV_DMA_ERROR, "write", NS_NONE, 1 },
	{ NICREF_EV_PORT_EVENT, "port", NS_NONE, 8 },	  /* local_port */
	{ NICREF_EV_PORT_EVENT, "subtype", NS_NONE, 8 },  /* EQE sub_type (T77) */
	{ NICREF_EV_EQE, "eqn", NS_NONE, 8 },		  /* EQ numbers are 8 bits (T80) */
	{ NICREF_EV_EQE, "index", NS_NONE, 32 },	  /* producer counter */
	{ NICREF_EV_EQE, "type", NS_NONE, 8 },		  /* T77 event_type */
	{ NICREF_EV_EQE, "sub_type", NS_NONE, 8 },
	{ NICREF_EV_EQE_DROPPED, "eqn", NS_NONE, 32 },	  /* 0xFFFFFFFF: no EQ */
	{ NICREF_EV_EQE_DROPPED, "type", NS_NONE, 8 },
	{ NICREF_EV_EQE_DROPPED, "reason", NS_NONE, 2 },  /* 0, 1, 2 */
	{ NICREF_EV_INTERRUPT, "vector", NS_NONE, 11 },	  /* MSI-X: 2048 vectors */
	{ NICREF_EV_INTERRUPT, "eqn", NS_NONE, 8 },
	{ NICREF_EV_CQE, "cqn", NS_NONE, 24 },
	{ NICREF_EV_CQE, "index", NS_NONE, 32 },	  /* producer counter */
	{ NICREF_EV_CQE, "opcode", NS_NONE, 4 },	  /* T68 3Ch[7:4] */
	{ NICREF_EV_CQE, "syndrome", NS_NONE, 8 },	  /* T74 34h[7:0] */
	{ NICREF_EV_CQE, "wqe_counter", NS_NONE, 16 },
	{ NICREF_EV_SQ_DOORBELL, "sqn", NS_NONE, 24 },
	{ NICREF_EV_SQ_DOORBELL, "wqe_index", NS_NONE, 16 },
	{ NICREF_EV_SQ_DOORBELL, "opcode", NS_NONE, 8 },  /* WQE ctrl opcode (T19) */
	{ NICREF_EV_SQ_DOORBELL, "ds", NS_NONE, 6 },
	{ NICREF_EV_SQ_DOORBELL, "bf", NS_NONE, 1 },
	{ NICREF_EV_WQ_STATE, "type", NS_NONE, 2 },
	{ NICREF_EV_WQ_STATE, "num", NS_NONE, 24 },
	{ NICREF_EV_WQ_STATE, "from", NS_NONE, 4 },
	{ NICREF_EV_WQ_STATE, "to", NS_NONE, 4 },
	{ NICREF_EV_WQ_STATE, "cause", NS_NONE, 1 },
	{ NICREF_EV_FRAME_OUT, "port", NS_NONE, 8 },	  /* local_port */
	{ NICREF_EV_FRAME_OUT, "len", NS_NONE, 32 },	  /* bytes, no FCS */
	{ NICREF_EV_FRAME_OUT, "crc", NS_NONE, 32 },	  /* CRC-32 of the bytes */
	{ NICREF_EV_TX_LOOPBACK, "sqn", NS_NONE, 24 },
	{ NICREF_EV_TX_LOOPBACK, "port", NS_NONE, 8 },
	{ NICREF_EV_TX_LOOPBACK, "decision", NS_NONE, 2 }, /* 1 local, 2 wire and local */
	{ NICREF_EV_TX_DISCARD, "sqn", NS_NONE, 24 },
	{ NICREF_EV_TX_DISCARD, "wqe_counter", NS_NONE, 16 },
	{ NICREF_EV_TX_DISCARD, "reason", NS_NONE, 4 },	  /* 1 inline, 2 MTU, 3 vport down, 4 NIC_TX DROP */
	{ NICREF_EV_FRAME_IN, "port", NS_NONE, 8 },	  /* the nicref_wire_rx port */
	{ NICREF_EV_FRAME_IN, "len", NS_NONE, 32 },	  /* bytes, no FCS */
	{ NICREF_EV_FRAME_IN, "crc", NS_NONE, 32 },	  /* CRC-32 of the bytes */
	{ NICREF_EV_RX_DROP, "reason", NS_NONE, 4 },	  /* enum rx_drop_reason, docs/rx.md */
	{ NICREF_EV_RX_DROP, "num", NS_NONE, 24 },	  /* port, TIRN or RQN */
	{ NICREF_EV_RX_DROP, "len", NS_NONE, 32 },
	{ NICREF_EV_LRO_OPEN, "tir", NS_NONE, 24 },
	{ NICREF_EV_LRO_OPEN, "rq", NS_NONE, 24 },
	{ NICREF_EV_LRO_OPEN, "wqe_counter", NS_NONE, 16 },
	{ NICREF_EV_LRO_OPEN, "len", NS_NONE, 32 },
	{ NICREF_EV_LRO_MERGE, "tir", NS_NONE, 24 },
	{ NICREF_EV_LRO_MERGE, "rq", NS_NONE, 24 },
	{ NICREF_EV_LRO_MERGE, "wqe_counter", NS_NONE, 16 },
	{ NICREF_EV_LRO_MERGE, "num_seg", NS_NONE, 8 },	  /* T68 lro_num_seg */
	{ NICREF_EV_LRO_MERGE, "bytes", NS_NONE, 32 },	  /* T68 byte_cnt */
	{ NICREF_EV_LRO_END, "tir", NS_NONE, 24 },
	{ NICREF_EV_LRO_END, "rq", NS_NONE, 24 },
	{ NICREF_EV_LRO_END, "wqe_counter", NS_NONE, 16 },
	{ NICREF_EV_LRO_END, "cause", NS_LRO_CAUSE, 8 },  /* enum nicref_lro_cause */
	{ NICREF_EV_LRO_END, "num_seg", NS_NONE, 8 },
	{ NICREF_EV_LRO_END, "byte_cnt", NS_NONE, 32 },
	{ NICREF_EV_LRO_PASS, "tir", NS_NONE, 24 },
	{ NICREF_EV_LRO_PASS, "rq", NS_NONE, 24 },
	{ NICREF_EV_LRO_PASS, "cause", NS_LRO_CAUSE, 8 },
	/* RoCEv2 (nicref/roce.h): QPNs and PSNs are 24 bits (IBTA §9.2). */
	{ NICREF_EV_ROCE_TX, "port", NS_NONE, 8 },
	{ NICREF_EV_ROCE_TX, "qpn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_TX, "dest_qp", NS_NONE, 24 },
	{ NICREF_EV_ROCE_TX, "opcode", NS_ROCE_OPCODE, 8 }, /* BTH opcode (IBTA Table 38) */
	{ NICREF_EV_ROCE_TX, "psn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_TX, "len", NS_NONE, 32 },
	{ NICREF_EV_ROCE_RX, "port", NS_NONE, 8 },
	{ NICREF_EV_ROCE_RX, "dest_qp", NS_NONE, 24 },
	{ NICREF_EV_ROCE_RX, "opcode", NS_ROCE_OPCODE, 8 },
	{ NICREF_EV_ROCE_RX, "psn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_RX, "len", NS_NONE, 32 },
	{ NICREF_EV_ROCE_DROP, "port", NS_NONE, 8 },
	{ NICREF_EV_ROCE_DROP, "reason", NS_ROCE_DROP, 8 }, /* enum nicref_roce_drop */
	{ NICREF_EV_ROCE_DROP, "qpn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_DROP, "psn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_NAK, "qpn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_NAK, "psn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_NAK, "syndrome", NS_NONE, 8 }, /* AETH syndrome */
	{ NICREF_EV_ROCE_RETX, "qpn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_RETX, "from_psn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_RETX, "reason", NS_NONE, 2 },
	{ NICREF_EV_ROCE_CNP, "qpn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_CNP, "dir", NS_NONE, 1 },
	{ NICREF_EV_ROCE_CC, "qpn", NS_NONE, 24 },
	{ NICREF_EV_ROCE_CC, "limit", NS_NONE, 8 },
	{ NICREF_EV_ROCE_CC, "cause", NS_NONE, 1 },
	{ NICREF_EV_QP_STATE, "qpn", NS_NONE, 24 },
	{ NICREF_EV_QP_STATE, "from", NS_NONE, 4 }, /* [IFC] qpc state */
	{ NICREF_EV_QP_STATE, "to", NS_NONE, 4 },
	{ NICREF_EV_QP_STATE, "cause", NS_NONE, 1 },
	{ NICREF_EV_FATAL, "syndrome", NS_NONE, 8 }, /* T8 1010h health_syndrome 31:24 */
};

/* The send path's events (the send engine's, TX_SPEC "Frames out"), by name until the kinds are
 * in NICREF_EVENT_KINDS: a row whose kind the trace does not have yet is never found. */
static const struct {
	const char *kind, *arg;
	enum name_space ns;
	unsigned bits;
} ev_args_by_name[] = {
	{ "frame_out", "port", NS_NONE, 8 },	   /* the wire_tx port */
	{ "frame_out", "len", NS_NONE, 32 },	   /* bytes, no FCS */
	{ "frame_out", "crc", NS_NONE, 32 },	   /* CRC-32 of the bytes */
	{ "tx_loopback", "sqn", NS_NONE, 24 },
	{ "tx_loopback", "port", NS_NONE, 8 },
	{ "tx_loopback", "decision", NS_NONE, 8 },
	{ "tx_discard", "sqn", NS_NONE, 24 },
	{ "tx_discard", "wqe_counter", NS_NONE, 16 }, /* the WQE's first WQEBB */
	{ "tx_discard", "reason", NS_NONE, 8 },
};

const struct ev_arg *ev_arg_find(enum nicref_event_kind kind, const char *arg)
{
	static struct ev_arg named[sizeof ev_args_by_name / sizeof ev_args_by_name[0]];
	for (size_t i = 0; i < sizeof ev_args / sizeof ev_args[0]; i++)
		if (ev_args[i].kind == kind && !strcmp(ev_args[i].arg, arg))
			return &ev_args[i];
	const char *name = nicref_event_name(kind);
	for (size_t i = 0; name && i < sizeof named / sizeof named[0]; i++)
		if (!strcmp(ev_args_by_name[i].kind, name) && !strcmp(ev_args_by_name[i].arg, arg)) {
			named[i] = (struct ev_arg){ kind, ev_args_by_name[i].arg, ev_args_by_name[i].ns,
						    ev_args_by_name[i].bits };
			return &named[i];
		}
	return NULL;
}

/* Violations and refusals may be matched by the clause their rule cites. */
static bool has_clause(enum nicref_event_kind k)
{
	return k == NICREF_EV_VIOLATION || k == NICREF_EV_CMD_FAIL;
}

static const char *rule_citation(const struct nicref_event *ev)
{
	int i = nicref_event_arg_find(ev->kind, "rule");
	if (i < 0)
		return NULL;
	return ev->kind == NICREF_EV_VIOLATION ? nicref_violation_citation((unsigned)ev->arg[i])
					       : nicref_cmd_rule_citation((unsigned)ev->arg[i]);
}

static int event_list_check(struct run *r, const char *at, const json_t *list)
{
	size_t i;
	json_t *want;
	int rc = 0;
	json_array_foreach(list, i, want)
	{
		char field[256];
		const json_t *kn = json_object_get(want, "event");
		int kind = json_is_string(kn) ? nicref_event_kind_find(json_string_value(kn)) : -1;
		const char *key;
		json_t *v;
		if (kind < 0) {
			snprintf(field, sizeof field, "%s[%zu].event", at, i);
			vbad(r, field, "not an event kind (NICREF_EVENT_KINDS)");
			rc = -1;
			continue;
		}
		json_object_foreach(want, key, v)
		{
			if (!strcmp(key, "event"))
				continue;
			snprintf(field, sizeof field, "%s[%zu].%s", at, i, key);
			const struct ev_arg *a = ev_arg_find((enum nicref_event_kind)kind, key);
			if (!strcmp(key, "clause") && has_clause((enum nicref_event_kind)kind)) {
				rc |= clause_check(r, field, v, kind == NICREF_EV_VIOLATION);
			} else if (!a) {
				vbad(r, field, "%s events have no argument \"%s\"",
				     json_string_value(kn), key);
				rc = -1;
			} else {
				rc |= cmp_check(r, field, v, a->ns, a->bits);
			}
		}
	}
	return rc;
}

static bool event_matches(const struct nicref_event *ev, int kind, const json_t *want)
{
	const char *key;
	json_t *v;
	if ((int)ev->kind != kind)
		return false;
	json_object_foreach((json_t *)want, key, v)
	{
		if (!strcmp(key, "event"))
			continue;
		if (!strcmp(key, "clause")) {
			if (!clause_matches(rule_citation(ev), json_string_value(v)))
				return false;
			continue;
		}
		int i = nicref_event_arg_find(ev->kind, key);
		const struct ev_arg *a = ev_arg_find(ev->kind, key);
		if (i < 0 || !a || !cmp_holds(v, a->ns, ev->arg[i]))
			return false;
	}
	return true;
}

static void describe(const json_t *want, char *buf, size_t len)
{
	char *s = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
	snprintf(buf, len, "%s", s ? s : "?");
	free(s);
}

/* The listed events occur in order among the events since the last events step (exact: and
 * nothing else); marks[i] is set for each event matched. */
static void events_compare(const struct run *r, const json_t *spec, bool *marks, struct diffs *d)
{
	const json_t *list = json_object_get(spec, "expect");
	bool exact = json_is_true(json_object_get(spec, "exact"));
	size_t i, at = r->ev_cursor;
	json_t *want;
	char text[512], got[256];
	json_array_foreach(list, i, want)
	{
		int kind = nicref_event_kind_find(json_string_value(json_object_get(want, "event")));
		size_t j = at;
		if (exact) {
			if (j >= r->nev || !event_matches(&r->ev[j], kind, want)) {
				describe(want, text, sizeof text);
				snprintf(got, sizeof got, "nothing");
				if (j < r->nev)
					nicref_event_format(&r->ev[j], got, sizeof got);
				diff_add(d, "events[%zu]: expected %s, got %s", i, text, got);
				return;
			}
		} else {
			while (j < r->nev && !event_matches(&r->ev[j], kind, want))
				j++;
			if (j == r->nev) {
				describe(want, text, sizeof text);
				diff_add(d, "events: expected %s (in order), not found", text);
				return;
			}
		}
		marks[j] = true;
		at = j + 1;
		/* A rule named or matched by clause: credit the rule the event carries. */
		if (has_clause(r->ev[j].kind) &&
		    (json_object_get(want, "rule") || json_object_get(want, "clause"))) {
			int k = nicref_event_arg_find(r->ev[j].kind, "rule");
			unsigned rule = (unsigned)r->ev[j].arg[k];
			diff_rule(d, r->ev[j].kind == NICREF_EV_VIOLATION ? REPORT_RULE_VIOLATION | rule
									  : rule);
		}
		/* A RoCE drop whose reason the test names (nicref/roce.h NICREF_ROCE_DROPS). */
		if (r->ev[j].kind == NICREF_EV_ROCE_DROP && json_object_get(want, "reason")) {
			int k = nicref_event_arg_find(r->ev[j].kind, "reason");
			diff_rule(d, REPORT_RULE_ROCE_DROP | (unsigned)r->ev[j].arg[k]);
		}
	}
	if (exact && at != r->nev) {
		nicref_event_format(&r->ev[at], got, sizeof got);
		diff_add(d, "events: unexpected further event %s", got);
	}
}

struct events_ctx {
	const struct run *r;
	bool *marks;
};

static void events_alt(const json_t *alt, struct diffs *d, void *ctx)
{
	const struct events_ctx *x = ctx;
	memset(x->marks, 0, x->r->nev * sizeof *x->marks);
	events_compare(x->r, alt, x->marks, d);
}

void step_events(struct run *r, const json_t *s)
{
	const json_t *alts = json_object_get(s, "any_of"), *alt;
	size_t i;
	if (alts && (json_object_get(s, "expect") || json_object_get(s, "exact"))) {
		vbad(r, "any_of", "replaces expect and exact: each alternative has its own");
		return;
	}
	if (!alts && event_list_check(r, "expect", json_object_get(s, "expect")) != 0)
		return;
	json_array_foreach(alts, i, alt)
	{
		char at[64];
		snprintf(at, sizeof at, "any_of[%zu].expect", i);
		if (event_list_check(r, at, json_object_get(alt, "expect")) != 0)
			return;
	}
	if (r->checking)
		return;
	if (!alts) {
		struct diffs d = { 0 };
		events_compare(r, s, r->ev_matched, &d);
		diffs_credit(r, &d);
		diffs_fail(r, &d, NULL);
		lines_free(&d.l);
	} else {
		bool *marks = calloc(r->nev ? r->nev : 1, sizeof *marks);
		struct events_ctx x = { r, marks };
		if (!marks) {
			vbad(r, NULL, "out of memory");
			return;
		}
		if (resolve_alternatives(r, alts, events_alt, &x) < json_array_size(alts))
			for (size_t j = 0; j < r->nev; j++)
				r->ev_matched[j] = r->ev_matched[j] || marks[j];
		free(marks);
	}
	r->ev_cursor = r->nev;
}

