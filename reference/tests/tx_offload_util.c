/* The send-offload tests' tools (tx_offload_util.h). */
#include "tx_offload_util.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

void txo_sink_emit(void *ctx, const uint8_t *frame, size_t len)
{
	struct txo_sink *s = ctx;
	if (s->n < TXO_MAX_FRAMES) {
		s->frame[s->n] = malloc(len ? len : 1);
		cr_assert_not_null(s->frame[s->n]);
		memcpy(s->frame[s->n], frame, len);
		s->len[s->n] = len;
	}
	s->n++;
}

void txo_sink_free(struct txo_sink *s)
{
	for (size_t i = 0; i < s->n && i < TXO_MAX_FRAMES; i++)
		free(s->frame[i]);
	s->n = 0;
}

static bool same_frame(const char *group, const struct txo_case *c, size_t i, const uint8_t *got,
		       size_t got_len)
{
	const struct txo_frame *want = &c->out[i];
	if (got_len != want->len) {
		cr_expect_eq(got_len, want->len, "%s/%s: frame %zu is %zu bytes, expected %zu (%s)",
			     group, c->name, i, got_len, want->len, c->why);
		return false;
	}
	for (size_t b = 0; b < got_len; b++)
		if (got[b] != want->bytes[b]) {
			cr_expect_eq(got[b], want->bytes[b],
				     "%s/%s: frame %zu byte %zu is 0x%02x, expected 0x%02x (%s)", group,
				     c->name, i, b, got[b], want->bytes[b], c->why);
			return false;
		}
	return true;
}

bool txo_check_case(const char *group, const struct txo_case *c)
{
	uint8_t *pkt = malloc(c->in_len ? c->in_len : 1);
	size_t scratch_len = c->in_len > c->req.min_frame ? c->in_len : c->req.min_frame;
	uint8_t *scratch = malloc(scratch_len ? scratch_len : 1);
	cr_assert(pkt && scratch);
	memcpy(pkt, c->in, c->in_len);
	struct tx_request rq = {
		.pkt = pkt,
		.len = c->in_len,
		.l3cs = c->req.l3cs & 1,
		.l4cs = c->req.l4cs & 1,
		.lso = c->req.lso & 1,
		.mss = (uint16_t)c->req.mss,
		.inline_hdr_sz = (uint16_t)c->req.inline_hdr_sz,
		.min_frame = (uint8_t)c->req.min_frame,
		.max_lso_cap = (uint8_t)c->req.max_lso_cap,
	};
	struct txo_sink sink = { 0 };
	enum tx_result r = tx_offload(&rq, scratch, scratch_len, txo_sink_emit, &sink);
	bool ok = r == c->result;
	cr_expect_eq(r, c->result, "%s/%s: %s, expected %s (%s)", group, c->name,
		     tx_result_name(r), tx_result_name(c->result), c->why);
	if (sink.n != c->nout) {
		cr_expect_eq(sink.n, c->nout, "%s/%s: %zu frames, expected %zu (%s)", group, c->name,
			     sink.n, c->nout, c->why);
		ok = false;
	}
	for (size_t i = 0; i < sink.n && i < c->nout && i < TXO_MAX_FRAMES; i++)
		ok &= same_frame(group, c, i, sink.frame[i], sink.len[i]);
	cr_expect(memcmp(pkt, c->in, c->in_len) == 0, "%s/%s: the input packet was written",
		  group, c->name);
	txo_sink_free(&sink);
	free(pkt);
	free(scratch);
	return ok;
}

void txo_check_cases(const char *group, const struct txo_case *cases, size_t n)
{
	cr_assert_gt(n, 0, "%s: no cases", group);
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += !txo_check_case(group, &cases[i]);
	cr_expect_eq(bad, 0, "%s: %zu of %zu cases differ", group, bad, n);
}
