/* Large Send Offload (PRM §3.3.2, D-TXO-9 to D-TXO-12): IPv4 and IPv6, 1, 2 and many segments,
 * a payload that is or is not a multiple of mss, mss larger than the payload, flags, identification
 * and sequence wrap, options and extension headers, VLAN and QinQ, the limits and their order.
 * Expected frames from the Scapy generator (tx_offload_cases_lso.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tx_offload_cases_lso.h"
#include "tx_offload_util.h"

#define NCASES (sizeof(txo_cases_lso) / sizeof(txo_cases_lso[0]))

Test(tx_offload_lso, scapy_cases)
{
	txo_check_cases("lso", txo_cases_lso, NCASES);
}

static struct tx_request request_of(const struct txo_case *c)
{
	return (struct tx_request){
		.pkt = c->in,
		.len = c->in_len,
		.l3cs = c->req.l3cs & 1,
		.l4cs = c->req.l4cs & 1,
		.lso = 1,
		.mss = (uint16_t)c->req.mss,
		.inline_hdr_sz = (uint16_t)c->req.inline_hdr_sz,
		.min_frame = (uint8_t)c->req.min_frame,
		.max_lso_cap = (uint8_t)c->req.max_lso_cap,
	};
}

/* The scratch an LSO needs is its longest segment, not the whole message: each case runs in a
 * heap scratch of exactly its longest expected frame (ASan sees a write past it), and one byte
 * less is refused before any frame goes out. */
Test(tx_offload_lso, scratch_is_the_longest_segment)
{
	for (size_t i = 0; i < NCASES; i++) {
		const struct txo_case *c = &txo_cases_lso[i];
		if (c->result != TX_OK)
			continue;
		size_t longest = 0;
		for (size_t k = 0; k < c->nout; k++)
			longest = c->out[k].len > longest ? c->out[k].len : longest;
		struct tx_request rq = request_of(c);
		uint8_t *scratch = malloc(longest);
		cr_assert_not_null(scratch);
		struct txo_sink sink = { 0 };
		cr_expect_eq(tx_offload(&rq, scratch, longest, txo_sink_emit, &sink), TX_OK,
			     "lso/%s with a scratch of %zu", c->name, longest);
		cr_expect_eq(sink.n, c->nout, "lso/%s: frames", c->name);
		txo_sink_free(&sink);
		cr_expect_eq(tx_offload(&rq, scratch, longest - 1, txo_sink_emit, &sink),
			     TX_ERR_SCRATCH, "lso/%s with a scratch of %zu", c->name, longest - 1);
		cr_expect_eq(sink.n, 0, "lso/%s: a frame went out before the refusal", c->name);
		txo_sink_free(&sink);
		free(scratch);
	}
}
