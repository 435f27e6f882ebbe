/* Target: roce_rx_icrc, the twin of roce_rx (roce_rx_fuzz.c, which documents the input and the
 * properties) that keeps the ICRC check in the path: each PKT op's 4 ICRC bytes come from the
 * input (after the body), so a packet reaches the transport only when the input carries its
 * right ICRC (IBTA Vol. 1 §7.8.1; Annex A17 §A17.3.3) and every other one is dropped silently
 * and counted (docs/roce.md D-ROCE-*; drop reason "icrc"). The seeds carry the right ICRCs
 * (fuzzers/roce_seeds.py computes them independently of the model). */
#define ROCE_RX_KEEP_ICRC 1
#include "roce_rx_fuzz.c"
