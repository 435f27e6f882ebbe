/* One line of a PCIe link trace (docs/pcie.md "Trace format"), parsed and checked for form:
 * the checker (pcie_check.c) judges only well-formed records. */
#ifndef NICREF_PCIE_TRACE_H
#define NICREF_PCIE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/pcie.h"

struct pcie_trace_header {
	uint64_t ack_latency_limit, extended_synch, tolerance, delay;
	/* The Simplified REPLAY_TIMER Limit's range (L124-126, D-DLL-3): a device's limit lies
	 * somewhere in it; "replay_limit" in the header sets both. */
	uint64_t replay_limit_min, replay_limit_max;
	/* A packet of n bytes (sequence header, TLP and LCRC, or a DLLP) lasts
	 * ceil(n * symbol_cost / link_width) symbol times: its last symbol, where the timers
	 * start (D-DLL-22), is that long after its record's t. */
	uint64_t symbol_cost, link_width;
};

enum pcie_rec_kind { PCIE_REC_TLP, PCIE_REC_DLLP, PCIE_REC_PHY };
struct pcie_rec {
	uint64_t t;
	unsigned dir; /* 0 down (end A transmits), 1 up (end B) */
	uint8_t kind; /* enum pcie_rec_kind */
	bool corrupt, lost, duplicate;
	/* TLP */
	uint16_t seq;
	uint8_t reserved;
	uint32_t lcrc;
	bool nullified;
	size_t len;
	uint8_t data[NICREF_PCIE_TLP_MAX];
	/* DLLP (seq above) */
	uint8_t type;
	uint16_t crc, dreserved;
	/* PHY */
	bool retrain_done; /* else "retrain": the link leaves L0 */
};

/* The header line: 0, or -1 with err set. */
int pcie_trace_header(const char *line, struct pcie_trace_header *h, char *err, size_t errlen);
/* A record line: 1 a record, 0 a blank line, -1 with err set. */
int pcie_trace_record(const char *line, struct pcie_rec *r, char *err, size_t errlen);

#endif
