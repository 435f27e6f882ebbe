/* A run of reference/pcie/'s link of two ends written as a link trace (docs/pcie.md "Trace
 * format"): what `nicref pcie link` prints, and what the checker's tests feed it. */
#ifndef NICREF_PCIE_LINK_TRACE_H
#define NICREF_PCIE_LINK_TRACE_H

#include <stdio.h>

#include "nicref/pcie.h"

struct pcie_link_trace_opts {
	struct nicref_pcie_params dll;
	struct nicref_pcie_link_params link;
	unsigned tlps[2];   /* TLPs each end's TL sends (A, B) */
	unsigned tlp_bytes; /* 4 to 64 */
	unsigned tolerance; /* written into the header */
	unsigned long long max_symbols; /* stop there if the link is not idle yet */
};
void pcie_link_trace_defaults(struct pcie_link_trace_opts *o);
/* Runs the link and writes its trace to out: 0, or -1 (options refused, out of memory, or not
 * idle by max_symbols: the trace is written anyway). */
int pcie_link_trace(FILE *out, const struct pcie_link_trace_opts *o);

#endif
