/* The expect step of the PCIe data link layer vectors (docs/pcie.md "Vector language"): the
 * end's state, and what it sent, delivered and reported since the previous expect. Checked
 * before anything runs; compared, each difference naming the field. */
#include <string.h>

#include "vectors_pcie_int.h"

/* Numeric state keys: name, width, the value. */
static const struct {
	const char *key;
	unsigned bits;
} num_keys[] = { { "next_transmit_seq", 12 }, { "ackd_seq", 12 },     { "replay_num", 2 },
		 { "replay_timer", 64 },      { "next_rcv_seq", 12 }, { "nak_scheduled", 1 },
		 { "acknak_latency_timer", 64 } };

static uint64_t num_value(const struct nicref_pcie_dll *d, size_t k)
{
	const uint64_t v[] = { d->next_transmit_seq, d->ackd_seq,    d->replay_num,
			       d->replay_timer,	     d->next_rcv_seq, d->nak_scheduled,
			       d->acknak_latency_timer };
	return v[k];
}

static const char *const bool_keys[] = { "replay_timer_running", "retraining" };
static bool bool_value(const struct nicref_pcie_dll *d, size_t k)
{
	return k == 0 ? d->replay_timer_running : d->retraining;
}

/* Keys of a sent entry and their widths. */
static const struct {
	const char *key;
	unsigned bits;
} tlp_keys[] = { { "seq", 12 }, { "lcrc", 32 } }, dllp_keys[] = { { "seq", 12 }, { "crc", 16 } };

static int error_index(const char *name)
{
	for (unsigned e = 0; e < NICREF_PCIE_ERR_COUNT; e++)
		if (!strcmp(nicref_pcie_error_name(e), name))
			return (int)e;
	return -1;
}

/* ---- checking ---- */

static int check_sent(struct run *r, const json_t *list)
{
	size_t i;
	json_t *e;
	char f[96];
	json_array_foreach((json_t *)list, i, e)
	{
		const json_t *t = json_object_get(e, "tlp"), *d = json_object_get(e, "dllp");
		for (size_t k = 0; t && k < 2; k++) {
			const json_t *v = json_object_get(t, tlp_keys[k].key);
			snprintf(f, sizeof f, "expect.sent[%zu].tlp.%s", i, tlp_keys[k].key);
			if (v && cmp_check(r, f, v, NS_NONE, tlp_keys[k].bits) != 0)
				return -1;
		}
		for (size_t k = 0; d && k < 2; k++) {
			const json_t *v = json_object_get(d, dllp_keys[k].key);
			snprintf(f, sizeof f, "expect.sent[%zu].dllp.%s", i, dllp_keys[k].key);
			if (v && cmp_check(r, f, v, NS_NONE, dllp_keys[k].bits) != 0)
				return -1;
		}
		uint64_t ty;
		const json_t *jt = d ? json_object_get(d, "type") : NULL;
		snprintf(f, sizeof f, "expect.sent[%zu].dllp.type", i);
		if (jt && pcie_word_or_num(r, f, jt, pcie_type_words, 2, 8, &ty) != 0)
			return -1;
	}
	return 0;
}

static int check_expect(struct run *r, const json_t *s)
{
	const json_t *st = json_object_get(s, "state"), *v;
	char f[96];
	size_t i;
	json_t *e;
	for (size_t k = 0; st && k < sizeof num_keys / sizeof num_keys[0]; k++)
		if ((v = json_object_get(st, num_keys[k].key))) {
			snprintf(f, sizeof f, "expect.state.%s", num_keys[k].key);
			if (cmp_check(r, f, v, NS_NONE, num_keys[k].bits) != 0)
				return -1;
		}
	json_array_foreach(json_object_get(st, "retry_buffer"), i, e)
	{
		uint64_t x;
		snprintf(f, sizeof f, "expect.state.retry_buffer[%zu]", i);
		if (vnum_at(r, f, e, NS_NONE, 12, &x) != 0)
			return -1;
	}
	if (check_sent(r, json_object_get(s, "sent")) != 0)
		return -1;
	json_array_foreach(json_object_get(s, "delivered"), i, e)
	{
		snprintf(f, sizeof f, "expect.delivered[%zu]", i);
		if (vec_hex_bytes(r, f, e, NICREF_PCIE_TLP_MAX, false) < 0)
			return -1;
	}
	json_array_foreach(json_object_get(s, "errors"), i, e)
		if (error_index(json_string_value(e)) < 0) {
			snprintf(f, sizeof f, "expect.errors[%zu]", i);
			vbad(r, f, "\"%s\" is not an error of docs/pcie.md (bad_tlp, bad_dllp, "
				   "replay_timer_timeout, replay_num_rollover, dl_protocol_error)",
			     json_string_value(e));
			return -1;
		}
	return 0;
}

/* ---- comparing ---- */

static void cmp_num(struct run *r, const char *field, const json_t *want, uint64_t got)
{
	if (!want || cmp_holds(want, NS_NONE, got))
		return;
	char t[160];
	cmp_text(want, NS_NONE, t, sizeof t);
	vfail(r, "expect %s: expected %s, got %llu (0x%llx)", field, t, (unsigned long long)got,
	      (unsigned long long)got);
}

static void cmp_bool(struct run *r, const char *field, const json_t *want, bool got)
{
	if (want && json_is_true(want) != got)
		vfail(r, "expect %s: expected %s, got %s", field, json_is_true(want) ? "true" : "false",
		      got ? "true" : "false");
}

static void compare_state(struct run *r, const struct nicref_pcie_dll *d, const json_t *st)
{
	char f[96];
	for (size_t k = 0; k < sizeof num_keys / sizeof num_keys[0]; k++) {
		snprintf(f, sizeof f, "state.%s", num_keys[k].key);
		cmp_num(r, f, json_object_get(st, num_keys[k].key), num_value(d, k));
	}
	for (size_t k = 0; k < 2; k++) {
		snprintf(f, sizeof f, "state.%s", bool_keys[k]);
		cmp_bool(r, f, json_object_get(st, bool_keys[k]), bool_value(d, k));
	}
	const json_t *rb = json_object_get(st, "retry_buffer");
	if (!rb)
		return;
	size_t want = json_array_size(rb), got = nicref_pcie_retry_count(d);
	for (size_t i = 0; i < want && i < got; i++) {
		snprintf(f, sizeof f, "state.retry_buffer[%zu]", i);
		cmp_num(r, f, json_array_get(rb, i), nicref_pcie_retry_seq(d, (unsigned)i));
	}
	if (want != got)
		vfail(r, "expect state.retry_buffer: expected %zu TLPs, got %zu (oldest %u)", want, got,
		      got ? nicref_pcie_retry_seq(d, 0) : 0u);
}

static void describe(const struct sent *s, char *buf, size_t len)
{
	if (s->dllp)
		snprintf(buf, len, "dllp %s seq %u", s->type == NICREF_PCIE_DLLP_ACK ? "ack"
						     : s->type == NICREF_PCIE_DLLP_NAK ? "nak"
										       : "?",
			 s->seq);
	else
		snprintf(buf, len, "tlp seq %u%s%s", s->seq, s->replay ? " (replay)" : "",
			 s->nullified ? " (nullified)" : "");
}

static void compare_sent(struct run *r, const struct vec_pcie *p, const json_t *list)
{
	size_t n = json_array_size(list);
	char f[96], d[96];
	for (size_t i = 0; i < n && i < p->nsent; i++) {
		const struct sent *s = &p->sent[i];
		const json_t *e = json_array_get(list, i), *t = json_object_get(e, "tlp"),
			     *dl = json_object_get(e, "dllp");
		if ((t && s->dllp) || (dl && !s->dllp)) {
			describe(s, d, sizeof d);
			vfail(r, "expect sent[%zu]: expected a %s, got %s", i, t ? "tlp" : "dllp", d);
			continue;
		}
		if (t) {
			snprintf(f, sizeof f, "sent[%zu].tlp.seq", i);
			cmp_num(r, f, json_object_get(t, "seq"), s->seq);
			snprintf(f, sizeof f, "sent[%zu].tlp.lcrc", i);
			cmp_num(r, f, json_object_get(t, "lcrc"), s->lcrc);
			snprintf(f, sizeof f, "sent[%zu].tlp.nullified", i);
			cmp_bool(r, f, json_object_get(t, "nullified"), s->nullified);
			snprintf(f, sizeof f, "sent[%zu].tlp.replay", i);
			cmp_bool(r, f, json_object_get(t, "replay"), s->replay);
		} else {
			uint64_t ty;
			const json_t *jt = json_object_get(dl, "type");
			if (jt && jv_num(jt, NS_NONE, 8, &ty, NULL, 0) != 0)
				ty = !strcmp(json_string_value(jt), "ack") ? NICREF_PCIE_DLLP_ACK
									   : NICREF_PCIE_DLLP_NAK;
			if (jt && ty != s->type)
				vfail(r, "expect sent[%zu].dllp.type: expected %s, got 0x%02x", i,
				      json_is_string(jt) ? json_string_value(jt) : "?", s->type);
			snprintf(f, sizeof f, "sent[%zu].dllp.seq", i);
			cmp_num(r, f, json_object_get(dl, "seq"), s->seq);
			snprintf(f, sizeof f, "sent[%zu].dllp.crc", i);
			cmp_num(r, f, json_object_get(dl, "crc"), s->crc);
		}
	}
	if (n != p->nsent) {
		d[0] = 0;
		if (n < p->nsent)
			describe(&p->sent[n], d, sizeof d);
		vfail(r, "expect sent: expected %zu transmissions, got %u%s%s", n, p->nsent,
		      n < p->nsent ? "; the first not expected: " : "", d);
	}
}

static void compare_delivered(struct run *r, const struct vec_pcie *p, const json_t *list)
{
	size_t n = json_array_size(list);
	uint8_t w[NICREF_PCIE_TLP_MAX];
	for (size_t i = 0; i < n && i < p->ndel; i++) {
		long len = hex_parse(json_string_value(json_array_get(list, i)), w, sizeof w);
		uint32_t glen = p->del_off[i + 1] - p->del_off[i];
		if (len != (long)glen || memcmp(w, p->del + p->del_off[i], glen) != 0)
			vfail(r, "expect delivered[%zu]: the TLP differs (%ld bytes expected, %u "
				 "delivered)",
			      i, len, glen);
	}
	if (n != p->ndel)
		vfail(r, "expect delivered: expected %zu TLPs, got %u", n, p->ndel);
}

static void compare_errors(struct run *r, const struct vec_pcie *p, const json_t *list)
{
	size_t n = json_array_size(list);
	for (size_t i = 0; i < n && i < p->nerr; i++) {
		const char *w = json_string_value(json_array_get(list, i));
		if (error_index(w) != p->err[i])
			vfail(r, "expect errors[%zu]: expected %s, got %s (%s)", i, w,
			      nicref_pcie_error_name(p->err[i]),
			      nicref_pcie_error_citation(p->err[i]));
	}
	if (n != p->nerr)
		vfail(r, "expect errors: expected %zu, got %u%s%s", n, p->nerr,
		      n < p->nerr ? "; the first not expected: " : "",
		      n < p->nerr ? nicref_pcie_error_name(p->err[n]) : "");
}

void step_pcie_expect(struct run *r, const json_t *s)
{
	if (check_expect(r, s) != 0 || r->checking)
		return;
	struct vec_pcie *p = pcie_end(r);
	if (!p)
		return;
	if (p->overflow)
		vbad(r, NULL, "more than the runner keeps between two expects (%u transmissions, "
			      "%u TLPs delivered, %u errors): put an expect step in between",
		     MAX_SENT, MAX_DELIVERED, MAX_ERRORS);
	const json_t *v;
	if ((v = json_object_get(s, "state")))
		compare_state(r, &p->d, v);
	if ((v = json_object_get(s, "sent")))
		compare_sent(r, p, v);
	if ((v = json_object_get(s, "delivered")))
		compare_delivered(r, p, v);
	if ((v = json_object_get(s, "errors")))
		compare_errors(r, p, v);
	if ((v = json_object_get(s, "tl_stalled")))
		cmp_bool(r, "tl_stalled", v, p->stalled);
	pcie_logs_clear(p);
}
