/* `nicref adp timeline --plot FILE.svg`: the timeline as a standalone SVG 1.1 picture. One row
 * per transmission: a bar from the send to the timer's expiry coloured by the timeout range,
 * a filled dot (acknowledged) or a cross (lost) at the send, a diamond where the ACK arrives.
 * Integer arithmetic only, so the file is the same byte for byte everywhere. */
#ifndef NICREF_ADP_PLOT_H
#define NICREF_ADP_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "nicref/adp.h"

struct adp_plot_info {
	const char *title;    /* first heading line */
	const char *subtitle; /* second heading line */
	bool adp;             /* false: classic IB timer (bars in one colour) */
	const struct nicref_adp_profile *profile; /* the profile (adp), for the cap notes */
	uint64_t rtt_ns;
	enum nicref_adp_end end;
};

/* 0, or -1 when writing failed. */
int adp_plot_svg(FILE *f, const struct nicref_adp_attempt *a, size_t n,
		 const struct adp_plot_info *info);

/* "capped by QP timeout" when the armed value is below the profile's value of its exponent,
 * "floored at minimum" when above, "" otherwise or without a profile. */
const char *adp_limit_note(const struct nicref_adp_profile *p, const struct nicref_adp_attempt *a);

/* The time the run ended (last ACK, or the last expiry) for a timeline. */
uint64_t adp_timeline_end_ns(const struct nicref_adp_attempt *a, size_t n, uint64_t rtt_ns,
			     enum nicref_adp_end end);

#endif
