/* The headers the tx target sends: Ethernet (up to two tags), ARP, IPv4 (with options) or IPv6
 * (with extension headers), TCP or UDP, built from a template the input picks (its bits are
 * documented at the top of fuzzers/tx_fuzz.c and in fuzzers/tx_ops.h). */
#ifndef NICREF_FUZZ_TX_HDRS_H
#define NICREF_FUZZ_TX_HDRS_H

#include <stddef.h>
#include <stdint.h>

#define TX_HDR_MAX 256u

struct tx_hdrs {
	uint8_t b[TX_HDR_MAX];
	size_t len, l2, l3end; /* all headers; the Ethernet header with tags; the L3 end */
};

/* The template's headers (tmpl, var, cs as in tx_fuzz.c's header) for `payload` bytes; the
 * destination MAC is own_mac (the vport's permanent address) when var bits 1:0 are 3. */
void tx_hdrs_build(struct tx_hdrs *h, uint64_t own_mac, uint8_t tmpl, uint8_t var, uint8_t cs,
		   size_t payload);
/* How many header bytes are inlined (ihs as in tx_fuzz.c's header), at most total. */
size_t tx_hdrs_inline_size(const struct tx_hdrs *h, uint8_t sel, size_t total);

#endif
