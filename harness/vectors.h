/* The golden-vector runner: reads vector files (docs/vectors.md), drives a model device with
 * each test's steps and compares what the device does with what the test expects, field by
 * field. */
#ifndef NICREF_VECTORS_H
#define NICREF_VECTORS_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"

struct pcap_out;

struct vec_options {
	FILE *trace;            /* every event of every test, "<file>#<tcId> <event>" */
	const char *corpus_dir; /* write seed corpora (cmdq op streams, cmd inputs) here */
	struct pcap_out *pcap;  /* every frame every test transmits (harness/pcap_write.h), at
				 * virtual time plus the time of the tests before it */
	bool verbose;           /* print passing tests too */
	/* A device under test is loaded (dut_diff_use): every test also drives it, and a
	 * divergence from the model fails the test (docs/dut.md). */
	bool dut;
};

/* What a run of vectors amounts to; the nicref tool exits with this number. */
enum vec_outcome {
	VEC_PASSED = 0,    /* every test ran and passed (skips allowed) */
	VEC_FAILED = 1,    /* a test disagreed with the model */
	VEC_BAD_INPUT = 2, /* a path, file, vector or step the runner cannot check: nothing is
			    * taken on trust, and a run that executed no vector is bad input too */
};

/* Runs every vector file under each path (files, or folders searched recursively for *.json,
 * in sorted order). Results go into rep; failures are printed to `out` as they happen.
 * Returns an enum vec_outcome. */
int vectors_run_paths(char **paths, int npaths, const struct vec_options *opt,
		      struct report *rep, FILE *out);

#endif
