/* The send-offload tests' own tools (reference/tests/tx_offload_*_test.c): a case is an input
 * packet, the request's fields, and the result and frames expected, as the Scapy generator
 * reference/tests/gen/tx_offload_gen.py wrote them into tx_offload_cases_<group>.h. */
#ifndef NICREF_TESTS_TX_OFFLOAD_UTIL_H
#define NICREF_TESTS_TX_OFFLOAD_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eth/tx_offload.h"

struct txo_frame {
	const uint8_t *bytes;
	size_t len;
};

/* The request's fields a case sets (pkt and len come from the case's input). */
struct txo_req {
	unsigned l3cs, l4cs, lso, mss, inline_hdr_sz, min_frame, max_lso_cap;
};

struct txo_case {
	const char *name;
	const char *why; /* the clause or decision the case pins */
	const uint8_t *in;
	size_t in_len;
	struct txo_req req;
	enum tx_result result;
	const struct txo_frame *out;
	size_t nout;
};

/* What tx_offload emitted: up to TXO_MAX_FRAMES frames, copied, and how many came. */
#define TXO_MAX_FRAMES 64
struct txo_sink {
	size_t n;
	uint8_t *frame[TXO_MAX_FRAMES];
	size_t len[TXO_MAX_FRAMES];
};

/* The emit callback for tx_offload: ctx is a struct txo_sink. */
void txo_sink_emit(void *ctx, const uint8_t *frame, size_t len);
void txo_sink_free(struct txo_sink *s);

/* Runs c through tx_offload, the packet in a heap buffer of exactly its length and a scratch
 * of max(len, min_frame) bytes (both exact, so ASan sees any read or write past them), and
 * expects the case's result and frames byte for byte. Returns whether all matched. */
bool txo_check_case(const char *group, const struct txo_case *c);
/* Every case of a group; the failures are named one by one. */
void txo_check_cases(const char *group, const struct txo_case *cases, size_t n);

#endif
