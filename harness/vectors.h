/* The golden-vector runner: reads vector files (docs/vectors.md), drives a model device with
 * each test's steps and compares what the device does with what the test expects, field by
 * field. */
#ifndef NICREF_VECTORS_H
#define NICREF_VECTORS_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"

struct vec_options {
	FILE *trace;            /* every event of every test, "<file>#<tcId> <event>" */
	const char *corpus_dir; /* write seed corpora (cmdq op streams, cmd inputs) here */
	bool verbose;           /* print passing tests too */
};

/* Runs every vector file under each path (files, or folders searched recursively for *.json,
 * in sorted order). Results go into rep; failures are printed to `out` as they happen.
 * Returns -1 if a file could not be read or is malformed (reported as a failure too). */
int vectors_run_paths(char **paths, int npaths, const struct vec_options *opt,
		      struct report *rep, FILE *out);

#endif
