/* `nicref pcie check`: judges a recorded PCIe link trace (docs/pcie.md "Trace format") against
 * the data link layer rules of both ends (seed 003, PCI Express Base Specification §3.6), and
 * names per direction the first violation with its rule and citation. */
#ifndef NICREF_PCIE_CHECK_H
#define NICREF_PCIE_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The checker's rules, X(ID, "name", "citation") (docs/pcie.md: the table of the checker). */
#define PCIE_CHECK_RULES(X)                                                                     \
	X(TX_SEQ, "tx.seq", "PCIe Base §3.6.2.1 (seed 003 L46-49)")                             \
	X(TX_LCRC, "tx.lcrc", "PCIe Base §3.6.2.1 (seed 003 L53-69, L76)")                      \
	X(TX_WINDOW, "tx.window", "PCIe Base §3.6.2.1 (seed 003 L48)")                          \
	X(TX_REPLAY_EARLY, "tx.replay_early", "PCIe Base §3.6.2.1 (seed 003 L84, L123)")        \
	X(TX_REPLAY_LATE, "tx.replay_late", "PCIe Base §3.6.2.1 (seed 003 L84, L123-126)")      \
	X(TX_REPLAY_ORDER, "tx.replay_order", "PCIe Base §3.6.2.1 (seed 003 L100, L106-107)")   \
	X(TX_NO_RETRAIN, "tx.no_retrain", "PCIe Base §3.6.2.1 (seed 003 L90)")                  \
	X(RX_ACK_SEQ, "rx.ack_seq", "PCIe Base §3.6.3.1 (seed 003 L293)")                       \
	X(RX_ACK_UNSENT, "rx.ack_unsent", "PCIe Base §3.6.2.2 (seed 003 L158-159)")             \
	X(RX_ACCEPTED_BAD, "rx.accepted_bad", "PCIe Base §3.6.3.1 (seed 003 L219-257)")         \
	X(RX_MISSED_NAK, "rx.missed_nak",                                                       \
	  "PCIe Base §3.6.3.1 (seed 003 L201-203, L210-214, L227-231, L248-252)")               \
	X(RX_ACK_LATE, "rx.ack_late", "PCIe Base §3.6.3.1 (seed 003 L244, L272-291)")           \
	X(DLLP_CRC, "dllp.crc", "PCIe Base §3.6.2.2 (seed 003 L143-147)")
enum pcie_check_rule {
#define PCIE_CHECK_ENUM(id, name, cite) PCIE_CK_##id,
	PCIE_CHECK_RULES(PCIE_CHECK_ENUM)
#undef PCIE_CHECK_ENUM
	PCIE_CK_COUNT
};
const char *pcie_check_rule_name(unsigned r);
const char *pcie_check_rule_citation(unsigned r);

/* The verdict of one direction (0 "down": end A's violations, 1 "up": end B's). */
struct pcie_verdict {
	bool violation;
	unsigned rule;   /* enum pcie_check_rule */
	uint64_t t;      /* the record's instant, or the deadline missed */
	long line;       /* where the checker saw it (1 = the header) */
	long cause_line; /* the record that opened the obligation (or line) */
	char message[256];
};
struct pcie_check_result {
	struct pcie_verdict dir[2];
	long records;
	char error[512]; /* bad input: "FILE:LINE: what" */
};

/* Checks the trace read from f (name: for messages). 0 both directions conform, 1 a violation,
 * 2 bad input (res->error). */
int pcie_check_stream(FILE *f, const char *name, struct pcie_check_result *res);

#endif
