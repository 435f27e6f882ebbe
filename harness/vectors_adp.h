/* The adp_timeline step of the golden-vector runner (docs/vectors.md): a whole ADP timeline
 * (reference/include/nicref/adp.h, nicref_adp_timeline) from a profile, a QP setting, a seed
 * and a loss pattern, compared attempt by attempt with what the vector expects. */
#ifndef NICREF_VECTORS_ADP_H
#define NICREF_VECTORS_ADP_H

#include <jansson.h>

/* Reports one difference (one line, no newline); ctx is the runner's. */
typedef void (*vec_fail_fn)(void *ctx, const char *msg);

struct nicref_dev;
/* Runs the step's value (the object under "adp_timeline"); every difference goes to fail.
 * dev is the test's device, whose ADP mode a step with "device": true runs. */
void vec_adp_timeline(const json_t *step, const struct nicref_dev *dev, vec_fail_fn fail,
		      void *ctx);

#endif
