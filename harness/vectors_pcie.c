/* The PCIe data link layer steps (docs/pcie.md "Vector language"): one end of
 * reference/pcie/ driven by the test, which plays the transaction layer above it and the other
 * end of the link. Each step checks its value (also while only checking), then runs; `expect`
 * compares the end's state and what it sent, delivered and reported since the previous expect.
 * The expectations are the vector's, computed from seed 003; this file only reads and compares.
 * The test's device is not used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors_pcie_int.h"

/* ---- the end's events into the logs ---- */

/* --trace: one line per event of the end, errors with their rule and citation. */
static void trace_line(const struct vec_pcie *p, const struct nicref_pcie_event *ev)
{
	FILE *f = p->r->opt->trace;
	fprintf(f, "%s#%ld pcie t=%llu ", p->r->file, p->r->tc_id, (unsigned long long)ev->t);
	switch (ev->kind) {
	case NICREF_PCIE_EV_TX:
		if (ev->is_dllp)
			fprintf(f, "tx dllp %s seq %u\n", ev->dllp[0] ? "nak" : "ack", ev->seq);
		else
			fprintf(f, "tx tlp seq %u lcrc 0x%08x%s%s\n", ev->seq, ev->lcrc,
				ev->nullified ? " nullified" : "", ev->replay ? " replay" : "");
		break;
	case NICREF_PCIE_EV_DELIVER:
		fprintf(f, "deliver seq %u (%u bytes)\n", ev->seq, ev->len);
		break;
	case NICREF_PCIE_EV_ERROR:
		fprintf(f, "error %s rule %s (%s)\n", nicref_pcie_error_name(ev->error),
			nicref_pcie_rule_name(ev->rule), nicref_pcie_rule_citation(ev->rule));
		break;
	case NICREF_PCIE_EV_RETRAIN:
		fprintf(f, "retrain (REPLAY_NUM rollover)\n");
		break;
	default:
		fprintf(f, "acked %u..%u\n", ev->first, ev->seq);
		break;
	}
}

static void on_event(void *ctx, const struct nicref_pcie_event *ev)
{
	struct vec_pcie *p = ctx;
	if (p->r->opt->trace)
		trace_line(p, ev);
	switch (ev->kind) {
	case NICREF_PCIE_EV_TX:
		if (p->nsent == MAX_SENT) {
			p->overflow = true;
			return;
		}
		struct nicref_pcie_dllp dl = { 0 };
		if (ev->is_dllp)
			nicref_pcie_dllp_decode(ev->dllp, &dl);
		p->sent[p->nsent++] = (struct sent){ ev->is_dllp, ev->nullified, ev->replay, dl.type,
						     ev->seq, dl.crc, ev->lcrc };
		return;
	case NICREF_PCIE_EV_DELIVER:
		if (p->ndel == MAX_DELIVERED ||
		    p->del_off[p->ndel] + ev->len > MAX_DELIVERED_BYTES) {
			p->overflow = true;
			return;
		}
		memcpy(p->del + p->del_off[p->ndel], ev->tlp, ev->len);
		p->del_off[p->ndel + 1] = p->del_off[p->ndel] + ev->len;
		p->ndel++;
		return;
	case NICREF_PCIE_EV_ERROR:
		if (p->nerr == MAX_ERRORS)
			p->overflow = true;
		else
			p->err[p->nerr++] = ev->error;
		return;
	default:
		return;
	}
}

void pcie_logs_clear(struct vec_pcie *p)
{
	p->nsent = p->ndel = p->nerr = 0;
	p->del_off[0] = 0;
	p->overflow = false;
}

void vec_pcie_start(struct run *r)
{
	if (r->pcie)
		r->pcie->live = false;
}

void vec_pcie_free(struct run *r)
{
	if (!r->pcie)
		return;
	free(r->pcie->store);
	free(r->pcie->del);
	free(r->pcie);
	r->pcie = NULL;
}

/* The end of this test (running only): made once a run, reset at each test's first step. */
struct vec_pcie *pcie_end(struct run *r)
{
	struct vec_pcie *p = r->pcie;
	if (!p) {
		p = calloc(1, sizeof *p);
		if (p) {
			p->store = malloc(nicref_pcie_storage_bytes(NICREF_PCIE_TLP_MAX));
			p->del = malloc(MAX_DELIVERED_BYTES);
		}
		if (!p || !p->store || !p->del) {
			if (p) {
				free(p->store);
				free(p->del);
				free(p);
			}
			vbad(r, NULL, "out of memory for the PCIe end");
			return NULL;
		}
		r->pcie = p;
	}
	p->r = r;
	if (!p->live) {
		struct nicref_pcie_params dp;
		struct nicref_pcie_ops ops = { p, on_event };
		nicref_pcie_params_default(&dp);
		(void)nicref_pcie_init(&p->d, &dp, &ops, p->store,
				       nicref_pcie_storage_bytes(NICREF_PCIE_TLP_MAX));
		pcie_logs_clear(p);
		p->stalled = false;
		p->live = true;
	}
	return p;
}

/* ---- reading the steps ---- */

static bool flag(const json_t *s, const char *key)
{
	return json_is_true(json_object_get(s, key));
}

/* A word of names[] (WORD(index)) or a number of `bits` bits: 0, or -1 after vbad. */
int pcie_word_or_num(struct run *r, const char *field, const json_t *v,
		       const char *const *names, unsigned n_names, unsigned bits, uint64_t *out)
{
	if (json_is_string(v))
		for (unsigned i = 0; i < n_names; i++)
			if (strcmp(json_string_value(v), names[i]) == 0) {
				*out = WORD(i);
				return 0;
			}
	uint64_t x;
	char err[160];
	if (jv_num(v, NS_NONE, bits, &x, err, sizeof err) != 0) {
		vbad(r, field, "%s, nor one of the words of docs/pcie.md", err);
		return -1;
	}
	*out = x;
	return 0;
}

/* "good" / "bad" / "inverted" (LCRC) or "good" / "bad" (CRC). */
static const char *const check_words[] = { "good", "bad", "inverted" };
#define W_GOOD WORD(0)
#define W_BAD WORD(1)
#define W_INVERTED WORD(2)

const char *const pcie_type_words[2] = { "ack", "nak" };
static const char *const prio_words[] = { "recommended", "replay_first" };

void step_pcie_dll(struct run *r, const json_t *s)
{
	struct nicref_pcie_params p;
	nicref_pcie_params_default(&p);
	if (!r->checking && pcie_end(r))
		p = r->pcie->d.p;
	uint64_t v;
	static const char *const keys32[] = { "ack_latency_limit", "replay_limit",
					      "replay_limit_es1" };
	uint32_t *dst[] = { &p.ack_latency_limit, &p.replay_limit, &p.replay_limit_es1 };
	for (unsigned k = 0; k < 3; k++)
		if (json_object_get(s, keys32[k])) {
			if (vnum(r, s, keys32[k], NS_NONE, 32, 0, &v) != 0)
				return;
			*dst[k] = (uint32_t)v;
		}
	if (json_object_get(s, "extended_synch")) {
		if (vnum(r, s, "extended_synch", NS_NONE, 1, 0, &v) != 0)
			return;
		p.extended_synch = (uint8_t)v;
	}
	const json_t *pr = json_object_get(s, "priority");
	if (pr) {
		if (pcie_word_or_num(r, "priority", pr, prio_words, 2, 1, &v) != 0)
			return;
		p.priority = (uint8_t)(v >= WORD(1) ? UINT64_MAX - v : v);
	}
	if (p.replay_limit == 0 || p.replay_limit_es1 == 0) {
		vbad(r, p.replay_limit ? "replay_limit_es1" : "replay_limit",
		     "0: REPLAY_TIMER would expire again the instant a replay restarts it");
		return;
	}
	if (!r->checking && r->pcie)
		(void)nicref_pcie_set_params(&r->pcie->d, &p);
}

static long tlp_bytes(struct run *r, const char *field, const json_t *v, uint8_t *buf)
{
	long n = vec_hex_bytes(r, field, v, NICREF_PCIE_TLP_MAX, false);
	if (n < 0 || !buf)
		return n;
	return hex_parse(json_string_value(v), buf, NICREF_PCIE_TLP_MAX);
}

void step_pcie_tl_send(struct run *r, const json_t *s)
{
	uint8_t buf[NICREF_PCIE_TLP_MAX];
	struct vec_pcie *p = NULL;
	if (!r->checking && !(p = pcie_end(r)))
		return;
	long n = tlp_bytes(r, "tlp", json_object_get(s, "tlp"), p ? buf : NULL);
	if (n < 0 || !p)
		return;
	p->stalled = nicref_pcie_tl_send(&p->d, buf, (size_t)n, flag(s, "nullify")) !=
		     NICREF_PCIE_SENT;
}

void step_pcie_rx_tlp(struct run *r, const json_t *s)
{
	uint8_t w[NICREF_PCIE_SEQHDR_BYTES + NICREF_PCIE_TLP_MAX + NICREF_PCIE_LCRC_BYTES];
	uint64_t seq, res, lc = W_GOOD;
	struct vec_pcie *p = NULL;
	if (!r->checking && !(p = pcie_end(r)))
		return;
	if (vnum(r, s, "seq", NS_NONE, 12, 0, &seq) || vnum(r, s, "reserved", NS_NONE, 4, 0, &res))
		return;
	const json_t *jl = json_object_get(s, "lcrc");
	if (jl && pcie_word_or_num(r, "lcrc", jl, check_words, 3, 32, &lc) != 0)
		return;
	long n = tlp_bytes(r, "tlp", json_object_get(s, "tlp"), p ? w + 2 : NULL);
	if (n < 0 || !p)
		return;
	nicref_pcie_seqhdr((uint16_t)seq, (uint8_t)res, w);
	uint32_t good = nicref_pcie_lcrc(w, w + 2, (size_t)n);
	/* "bad": the good value with bit 0 flipped: neither good nor a nullified TLP's. */
	uint32_t v = lc == W_GOOD ? good : lc == W_BAD ? good ^ 1u : lc == W_INVERTED ? ~good
										       : (uint32_t)lc;
	for (unsigned k = 0; k < 4; k++)
		w[2 + n + k] = (uint8_t)(v >> (8 * k)); /* little-endian (D-DLL-2) */
	nicref_pcie_rx_tlp(&p->d, w, (size_t)n + 6u, flag(s, "edb"), flag(s, "phy_error"));
}

void step_pcie_rx_dllp(struct run *r, const json_t *s)
{
	uint64_t type, seq, res, crc = W_GOOD;
	struct vec_pcie *p = NULL;
	if (!r->checking && !(p = pcie_end(r)))
		return;
	const json_t *jt = json_object_get(s, "type"), *jc = json_object_get(s, "crc");
	if (pcie_word_or_num(r, "type", jt, pcie_type_words, 2, 8, &type) != 0 ||
	    vnum(r, s, "seq", NS_NONE, 12, 0, &seq) || vnum(r, s, "reserved", NS_NONE, 12, 0, &res) ||
	    (jc && pcie_word_or_num(r, "crc", jc, check_words, 2, 16, &crc) != 0) || !p)
		return;
	struct nicref_pcie_dllp d = { .type = type == WORD(0)   ? NICREF_PCIE_DLLP_ACK
					      : type == WORD(1) ? NICREF_PCIE_DLLP_NAK
								: (uint8_t)type,
				      .reserved = (uint16_t)res, .seq = (uint16_t)seq };
	uint8_t b[NICREF_PCIE_DLLP_BYTES];
	nicref_pcie_dllp_encode(&d, b);
	uint16_t good = nicref_pcie_dllp_crc(b);
	d.crc = crc == W_GOOD ? good : crc == W_BAD ? (uint16_t)(good ^ 1u) : (uint16_t)crc;
	nicref_pcie_dllp_encode(&d, b);
	nicref_pcie_rx_dllp(&p->d, b, flag(s, "phy_error"));
}

void step_pcie_advance(struct run *r, const json_t *s)
{
	uint64_t n;
	if (vnum(r, s, "symbols", NS_NONE, 64, 0, &n) != 0)
		return;
	if (n > MAX_SYMBOLS) {
		vbad(r, "symbols", "%llu is above 2^40", (unsigned long long)n);
		return;
	}
	struct vec_pcie *p = r->checking ? NULL : pcie_end(r);
	if (p)
		nicref_pcie_advance(&p->d, n);
}

void step_pcie_retrain_done(struct run *r, const json_t *s)
{
	(void)s;
	struct vec_pcie *p = r->checking ? NULL : pcie_end(r);
	if (p)
		nicref_pcie_retrain_done(&p->d);
}

void step_pcie_link_down(struct run *r, const json_t *s)
{
	(void)s;
	struct vec_pcie *p = r->checking ? NULL : pcie_end(r);
	if (p)
		nicref_pcie_link_down(&p->d);
}
