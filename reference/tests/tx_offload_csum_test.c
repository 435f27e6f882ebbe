/* The checksum offloads (PRM §3.3.1, Eth segment T28 l3cs/l4cs): IPv4 and IPv6, TCP and UDP,
 * options and extension headers, the cases §3.3.1 excludes, UDP 0 -> 0xFFFF, non-TCP/UDP and
 * non-IPv4 packets; expected frames from the Scapy generator (tx_offload_cases_csum.h). */
#include <criterion/criterion.h>

#include "tx_offload_cases_csum.h"
#include "tx_offload_util.h"

Test(tx_offload_csum, scapy_cases)
{
	txo_check_cases("csum", txo_cases_csum, sizeof(txo_cases_csum) / sizeof(txo_cases_csum[0]));
}

/* The interface (eth/tx_offload.h): the results' names, and a scratch too small for the frame
 * refused before any frame goes out. */
Test(tx_offload_csum, result_names)
{
	cr_expect_str_eq(tx_result_name(TX_OK), "TX_OK");
	cr_expect_str_eq(tx_result_name(TX_ERR_LSO_MSS), "TX_ERR_LSO_MSS");
	cr_expect_str_eq(tx_result_name(TX_ERR_SCRATCH), "TX_ERR_SCRATCH");
	cr_expect_str_eq(tx_result_name(TX_RESULT_COUNT), "?");
	cr_expect_str_eq(tx_result_name((enum tx_result)-1), "?");
}

Test(tx_offload_csum, scratch_too_small)
{
	const struct txo_case *c = &txo_cases_csum[0];
	struct tx_request rq = { .pkt = c->in, .len = c->in_len, .l3cs = 1, .l4cs = 1 };
	uint8_t scratch[2048];
	cr_assert_leq(c->in_len, sizeof(scratch));
	struct txo_sink sink = { 0 };
	cr_expect_eq(tx_offload(&rq, scratch, c->in_len - 1, txo_sink_emit, &sink), TX_ERR_SCRATCH);
	cr_expect_eq(sink.n, 0);
	rq.min_frame = 60;
	rq.len = 20;
	cr_expect_eq(tx_offload(&rq, scratch, 59, txo_sink_emit, &sink), TX_ERR_SCRATCH,
		     "the padded frame does not fit");
	cr_expect_eq(sink.n, 0);
	cr_expect_eq(tx_offload(&rq, scratch, 60, txo_sink_emit, &sink), TX_OK);
	cr_expect_eq(sink.n, 1);
	txo_sink_free(&sink);
}
