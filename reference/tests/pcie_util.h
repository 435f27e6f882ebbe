/* Shared by the PCIe data link layer's test files (pcie_*_test.c): one end under test with its
 * events recorded. Seed 003 (PCIe Base Specification §3.6); the rules T*, R*, D* and decisions
 * D-DLL-* are docs/pcie.md's. Expected values are worked out from the seed's rules in each test
 * (sequence numbers, timer values) or computed independently of reference/pcie/ (the CRCs:
 * zlib's crc32 and a bit-serial CRC written from the text, pcie_crc_test.c). */
#ifndef NICREF_TESTS_PCIE_UTIL_H
#define NICREF_TESTS_PCIE_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "nicref/pcie.h"

#define PU_MAX_EV 16384u
#define PU_TLP_MAX 64u

struct pu {
	struct nicref_pcie_dll d;
	uint8_t *store;
	struct nicref_pcie_event ev[PU_MAX_EV];
	unsigned n;
};

static void pu_event(void *ctx, const struct nicref_pcie_event *ev)
{
	struct pu *u = ctx;
	cr_assert_lt(u->n, PU_MAX_EV, "event log full");
	u->ev[u->n] = *ev;
	u->ev[u->n].tlp = NULL; /* the bytes are the model's; tests compare seq and LCRC */
	u->n++;
}

static inline struct pu *pu_new(const struct nicref_pcie_params *p)
{
	struct pu *u = calloc(1, sizeof *u);
	cr_assert(u);
	u->store = calloc(NICREF_PCIE_RETRY_SLOTS, PU_TLP_MAX);
	cr_assert(u->store);
	struct nicref_pcie_params def;
	nicref_pcie_params_default(&def);
	struct nicref_pcie_ops ops = { u, pu_event };
	cr_assert_eq(nicref_pcie_init(&u->d, p ? p : &def, &ops, u->store,
				      nicref_pcie_storage_bytes(PU_TLP_MAX)),
		     0);
	return u;
}

static inline void pu_free(struct pu *u)
{
	free(u->store);
	free(u);
}

/* The k-th event of a kind since index from (or NULL), and how many there are. */
static inline unsigned pu_count(const struct pu *u, unsigned from, unsigned kind, int is_dllp)
{
	unsigned c = 0;
	for (unsigned i = from; i < u->n; i++)
		if (u->ev[i].kind == kind && (is_dllp < 0 || u->ev[i].is_dllp == (bool)is_dllp))
			c++;
	return c;
}
static inline const struct nicref_pcie_event *pu_nth(const struct pu *u, unsigned from,
						      unsigned kind, int is_dllp, unsigned k)
{
	for (unsigned i = from; i < u->n; i++)
		if (u->ev[i].kind == kind && (is_dllp < 0 || u->ev[i].is_dllp == (bool)is_dllp) &&
		    k-- == 0)
			return &u->ev[i];
	return NULL;
}

/* A TLP of 12 bytes whose content is its index. */
static inline void pu_tlp(uint8_t out[12], unsigned i)
{
	for (unsigned k = 0; k < 12; k++)
		out[k] = (uint8_t)(i * 13u + k);
}

static inline void pu_send(struct pu *u, unsigned i)
{
	uint8_t t[12];
	pu_tlp(t, i);
	cr_assert_eq(nicref_pcie_tl_send(&u->d, t, sizeof t, false), NICREF_PCIE_SENT);
}

/* The wire bytes of a TLP from the other end: header (seq, reserved), tlp, LCRC (good, or
 * xor'ed with x). */
static inline size_t pu_wire_tlp(uint8_t *out, uint16_t seq, const uint8_t *tlp, size_t len,
				 uint32_t x)
{
	nicref_pcie_seqhdr(seq, 0, out);
	memcpy(out + 2, tlp, len);
	uint32_t l = nicref_pcie_lcrc(out, tlp, len) ^ x;
	for (unsigned k = 0; k < 4; k++)
		out[2 + len + k] = (uint8_t)(l >> (8 * k));
	return 2 + len + 4;
}

static inline void pu_rx(struct pu *u, uint16_t seq, unsigned i, uint32_t x, bool edb)
{
	uint8_t t[12], w[32];
	pu_tlp(t, i);
	size_t n = pu_wire_tlp(w, seq, t, sizeof t, x);
	nicref_pcie_rx_tlp(&u->d, w, n, edb, false);
}

static inline void pu_dllp(struct pu *u, uint8_t type, uint16_t seq)
{
	struct nicref_pcie_dllp p = { .type = type, .seq = seq };
	uint8_t b[6];
	nicref_pcie_dllp_encode(&p, b);
	p.crc = nicref_pcie_dllp_crc(b);
	nicref_pcie_dllp_encode(&p, b);
	nicref_pcie_rx_dllp(&u->d, b, false);
}

#endif
