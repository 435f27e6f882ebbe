/* A capture's RoCE content for the commands: every frame read (capture.h) and classified
 * (roce_class.h) into the summary every capture command prints, the RC packets and the CM
 * messages kept in capture order, and the timestamps checked against the reorder tolerance
 * (docs/captures.md). */
#ifndef NICREF_ROCE_CAPTURE_H
#define NICREF_ROCE_CAPTURE_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "roce_class.h"

/* Inversions up to 100 us are tolerated (docs/captures.md "Timestamps", D-CAPT-1). */
#define CAP_REORDER_TOL_DEFAULT_NS 100000u

struct cap_summary {
	uint64_t frames;
	uint64_t link[CAP_LINK_COUNT];
	uint64_t truncated;          /* caplen < wire length, whatever the class */
	uint64_t roce_v1, roce_v2;   /* frames whose BTH was read */
	uint64_t cls[ROCE_CLASS_COUNT];
	uint64_t reorder_tol_ns, inv_tolerated, inv_beyond;
	/* Records without a time (capture.h enum cap_time: they take the time of the record
	 * before) and records whose captured length exceeds their wire length (taken whole), each
	 * with its first frame (0: none). */
	uint64_t untimed, untimed_first, caplen_over_len, caplen_over_len_first;
	uint64_t rc_flows;           /* filled by the command: request flows judged */
};

struct roce_load_opts {
	uint16_t roce_port;      /* RoCEv2 UDP destination port (ROCE_UDP_PORT) */
	uint64_t reorder_tol_ns; /* CAP_REORDER_TOL_DEFAULT_NS */
	/* Optional: called for every frame whose BTH was read (roce_class_is_roce), while its
	 * bytes are at hand (`nicref roce check` judges each frame there); k has its t_ns and
	 * frame. Returns 0, or -1 for no memory. */
	int (*frame_hook)(void *ctx, const struct cap_frame *f, enum roce_class cl,
			  const struct roce_pkt *k);
	void *hook_ctx;
};

struct roce_capture {
	struct roce_pkt *rc; /* frames of class rc, in capture order */
	size_t nrc;
	struct cm_msg *cm;   /* CM messages on QP1 (REQ, REP, RTU), in capture order */
	size_t ncm;
	struct cap_summary sum;
};

/* Reads and classifies every frame of `path`. 0, or -1 with a message naming the file (and the
 * frame) and what the user can do: a file that cannot be read, a timestamp inversion beyond the
 * tolerance, no memory. */
int roce_capture_load(const char *path, const struct roce_load_opts *o, struct roce_capture *out,
		      char *err, size_t errlen);
void roce_capture_free(struct roce_capture *c);

/* The summary as the "summary" object of --json (every key always present) and as text. */
json_t *cap_summary_json(const struct cap_summary *s);
void cap_summary_print(FILE *f, const struct cap_summary *s);

#endif
