/* The tx target's state (fuzzers/tx_state.h). It is defined here, not in tx_fuzz.c, because
 * every fuzzers file but the targets' own (<t>_fuzz.c) is linked into every target (fuzz.mk):
 * tx_follow.c refers to it, so every target must have it. */
#include "tx_state.h"

struct tx_target tx;
