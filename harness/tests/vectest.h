/* Shared by the runner's tests: write a vector file, run it through vectors_run_paths, keep
 * what it printed and its outcome. Header-only (static inline) so each test file links alone. */
#ifndef NICREF_VECTEST_H
#define NICREF_VECTEST_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vectors.h"

struct vt {
	struct report rep;
	char *out; /* what the runner printed */
	int rc;    /* enum vec_outcome */
};

/* Runs a vector file with the given text. */
static inline void vt_run_opt(struct vt *t, const char *json, const struct vec_options *opt)
{
	char path[] = "/tmp/nicref_vec_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(json, f);
	fclose(f);
	size_t len = 0;
	t->out = NULL;
	FILE *out = open_memstream(&t->out, &len);
	char *paths[] = { path };
	report_init(&t->rep);
	t->rc = vectors_run_paths(paths, 1, opt, &t->rep, out);
	fclose(out);
	unlink(path);
}

static inline void vt_run(struct vt *t, const char *json)
{
	struct vec_options opt = { 0 };
	vt_run_opt(t, json, &opt);
}

static inline void vt_free(struct vt *t)
{
	report_free(&t->rep);
	free(t->out);
}

/* The head of a vector file up to testGroups, and one test in one group with a bring-up to
 * the initialized device. */
#define VT_HEAD(notes)                                                                           \
	"{\"schema\":\"nicref_vectors_v1\",\"feature\":\"cmdq\",\"header\":[],\"notes\":{" notes \
	"},"
#define VT_GROUP_TEST(group_keys, steps)                                                         \
	"\"testGroups\":[{" group_keys "\"setup\":[{\"bring_up\":{\"to\":\"initialized\"}}],"    \
	"\"tests\":[{\"tcId\":7,\"comment\":\"c\",\"cite\":\"PRM §7.14.1\",\"flags\":[],"        \
	"\"result\":\"valid\",\"steps\":[" steps "]}]}]}"
#define VT_ONE(steps) VT_HEAD("") "\"numberOfTests\":1," VT_GROUP_TEST("", steps)
#define VT_ONE_IN(group_keys, steps) VT_HEAD("") "\"numberOfTests\":1," VT_GROUP_TEST(group_keys, steps)

/* A NOP with an expectation. */
#define VT_NOP(expect)                                                                           \
	"{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},\"expect\":" expect "}}"

#define vt_has(t, s) (strstr((t)->out ? (t)->out : "", (s)) != NULL)

#endif
