/* One line of a PCIe link trace (docs/pcie.md "Trace format"), parsed and checked for form:
 * the checker (pcie_check.c) judges only well-formed records. */
#ifndef NICREF_PCIE_TRACE_H
#define NICREF_PCIE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/pcie.h"

struct pcie_trace_header {
	uint64_t ack_latency_limit, replay_limit, extended_synch, tolerance, delay;
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
