/* Internals of the PCIe data link layer steps (docs/pcie.md "Vector language"), shared by
 * vectors_pcie.c (the stimuli) and vectors_pcie_expect.c (the expect step). */
#ifndef NICREF_VECTORS_PCIE_INT_H
#define NICREF_VECTORS_PCIE_INT_H

#include "nicref/pcie.h"
#include "vectors_int.h"

#define MAX_SENT 16384u             /* transmissions between two expects (a replay: 2047) */
#define MAX_DELIVERED 8192u         /* TLPs delivered between two expects */
#define MAX_DELIVERED_BYTES (4u << 20)
#define MAX_ERRORS 4096u
#define MAX_SYMBOLS (1ull << 40)    /* one advance step */

struct sent {
	bool dllp, nullified, replay;
	uint8_t type;
	uint16_t seq, crc;
	uint32_t lcrc;
};

struct vec_pcie {
	struct nicref_pcie_dll d;
	struct run *r;  /* for --trace */
	uint8_t *store; /* NICREF_PCIE_RETRY_SLOTS * NICREF_PCIE_TLP_MAX */
	bool live;      /* initialised for this test */
	struct sent sent[MAX_SENT];
	unsigned nsent, ndel, nerr;
	uint32_t del_off[MAX_DELIVERED + 1];
	uint8_t *del; /* MAX_DELIVERED_BYTES */
	uint8_t err[MAX_ERRORS];
	bool overflow, stalled;
};

/* A word of a step's small vocabulary: WORD(i) is names[i] (numbers stay below 2^32). */
#define WORD(i) (UINT64_MAX - (uint64_t)(i))
int pcie_word_or_num(struct run *r, const char *field, const json_t *v,
		     const char *const *names, unsigned n_names, unsigned bits, uint64_t *out);
/* "ack", "nak": the DLLP types by name. */
extern const char *const pcie_type_words[2];
/* The end of this test (running only): made once a run, reset at each test's first step;
 * NULL after vbad. */
struct vec_pcie *pcie_end(struct run *r);
/* Clears what the expect step compares (sent, delivered, errors). */
void pcie_logs_clear(struct vec_pcie *p);

#endif
