/* The parts of `nicref repro` (repro.h): the record a target's run leaves
 * (repro_record.h) read back, and the draft vector and pcap written from it (repro_vec.c). */
#ifndef NICREF_REPRO_INT_H
#define NICREF_REPRO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "repro_record.h"

/* One stimulus of the record. */
struct repro_stim_rec {
	char kind;      /* enum repro_stim */
	uint64_t a, b;  /* offset and value, ns, address and length / port, flags */
	uint8_t *buf;   /* bytes of M and F */
	size_t len;
	unsigned line;  /* its line in the record */
};

struct repro_rec {
	struct repro_stim_rec *s;
	size_t n, cap;
	unsigned lines;      /* lines read */
	unsigned first_line; /* the line the vector starts after (the last create, or reset and
			      * clear) */
};

/* Reads a record: the stimuli after the last power-on state (C, or R and K together). 0, or
 * -1 with err (the file, the line, what is wrong: a reset alone, which no vector step can
 * express). */
int repro_rec_load(const char *path, struct repro_rec *rec, char *err, size_t errlen);
void repro_rec_free(struct repro_rec *rec);

/* What the draft vector says of itself. */
struct repro_meta {
	const char *target;  /* fuzz target */
	const char *input;   /* the (minimised) input's file */
	const char *finding; /* the finding's line, as the target printed it */
	const char *dut;     /* the DUT library the finding was against, or NULL */
};

/* What was written. */
struct repro_written {
	size_t steps;        /* steps of the test */
	size_t stimuli;      /* stimuli replayed */
	size_t frames_in, frames_out;
	size_t violations;
	bool pcap;           /* a pcap was written (frames crossed the wire) */
	long *stim_of_step;  /* for each step, the stimulus it belongs to (malloc'd) */
};

/* Replays the first `keep` stimuli of rec on a model device (the default profile) and writes
 * the draft vector to json_path and, when frames crossed the wire, a pcap of them (in and out,
 * at the model's virtual time) to pcap_path (NULL: none). 0, or -1 with err. */
int repro_vec_write(const struct repro_rec *rec, size_t keep, const struct repro_meta *meta,
		    const char *json_path, const char *pcap_path, struct repro_written *out,
		    char *err, size_t errlen);

#endif
