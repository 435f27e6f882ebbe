/* A device built by vector steps and kept (vectors_stack.h): the group becomes a vector file of
 * one empty test, checked whole by vec_check_doc (the schema, then every step with r->checking)
 * and run step by step as a test's group setup is, and the device is kept instead of destroyed. */
#include <stdlib.h>
#include <string.h>

#include "dut_diff.h"
#include "vector_schema.h"
#include "vectors_int.h"
#include "vectors_rx_int.h"
#include "vectors_stack.h"

struct vec_stack {
	struct run r;
	struct vec_options opt;
	struct vec_stack_rx rx;
	json_t *doc;
};

static void discard(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	(void)ev;
}

/* The vector file the group makes: it, and one test (the schema wants one, of at least one
 * step) that is only checked, never run: an advance of 0 ns. */
static json_t *as_vector_file(const json_t *group)
{
	json_t *g = json_deep_copy(group);
	json_t *t = json_pack("{s:i, s:s, s:s, s:[], s:s, s:[{s:i}]}", "tcId", 1, "comment",
			      "the replay's setup", "cite", "PRM §7.11", "flags", "result", "valid",
			      "steps", "advance_ns", 0);
	if (!g || !t || !json_is_object(g)) {
		json_decref(g);
		json_decref(t);
		return NULL;
	}
	json_object_set_new(g, "tests", json_pack("[o]", t));
	return json_pack("{s:s, s:s, s:[s], s:{}, s:i, s:[o]}", "schema", "nicref_vectors_v1",
			 "feature", "replay", "header", "a replay setup", "notes", "numberOfTests",
			 1, "testGroups", g);
}

static void fill_rx(struct vec_stack *s)
{
	struct run *r = &s->r;
	struct rx_stack *x = r->rxs;
	struct vec_stack_rx *v = &s->rx;
	v->dev = r->dev;
	v->drv = r->drv;
	v->cq = &x->cq;
	v->nrq = r->rx.nrq;
	v->ntir = r->rx.ntir;
	v->rmp_linked = r->rx.rmp && r->rx.rmp_linked;
	v->data_addr = r->rx.data_addr;
	v->data_size = r->rx.data_size;
	for (unsigned i = 0; i < v->nrq; i++) {
		v->rqn[i] = x->rqn[i];
		v->user_index[i] = r->rx.rq[i].user_index;
		v->on_rmp[i] = r->rx.rq[i].on_rmp;
		v->ring[i] = v->on_rmp[i] ? &x->rmp_ring : &x->ring[i];
	}
	for (unsigned i = 0; i < v->ntir; i++)
		v->tirn[i] = x->tirn[i];
}

enum vec_stack_result vec_stack_open(const char *file, const json_t *group, FILE *out,
				     struct vec_stack **sp)
{
	struct vec_stack *s = calloc(1, sizeof *s);
	struct report rep;
	char err[512];
	json_error_t jerr;
	*sp = NULL;
	report_init(&rep);
	if (!s)
		return VEC_STACK_BAD;
	struct run *r = &s->r;
	*r = (struct run){ .opt = &s->opt, .out = out, .tc_id = -1, .group = -1, .step = -1,
			   .tx = { .stage = -1 }, .file = file, .setup_only = true };
	s->opt.dut = dut_diff_active(); /* a DUT the program loaded is set up too (docs/dut.md) */
	json_t *sj = json_loads(vector_schema_json, JSON_REJECT_DUPLICATES, &jerr);
	r->schema = sj ? jschema_compile(sj, err, sizeof err) : NULL;
	json_decref(sj);
	r->inbuf = calloc(1, MAX_CMD_BYTES);
	opstream_init(&r->rec);
	json_t *doc = as_vector_file(group);
	if (!r->schema || !r->inbuf || !doc) {
		fprintf(out, "BAD %s: cannot prepare the setup (out of memory)\n", file);
		json_decref(doc);
		goto bad;
	}
	/* Pass 1: the whole setup, before anything runs. */
	r->checking = true;
	s->doc = vec_check_doc(r, file, doc, &rep);
	if (!s->doc)
		goto bad;
	const json_t *g = json_array_get(json_object_get(s->doc, "testGroups"), 0);
	if (!r->rx.setup) {
		fprintf(out, "BAD %s: setup: no rx_setup step: the replay needs a receive "
			     "configuration (docs/replay.md)\n", file);
		goto bad;
	}
	/* Pass 2: the steps on a fresh device. */
	r->checking = false;
	r->tc_id = 1;
	r->nev = r->ev_cursor = 0;
	if (vec_dev_open(r, g) != 0)
		goto bad;
	r->in_setup = true;
	size_t i;
	json_t *step;
	json_array_foreach(json_object_get(g, "setup"), i, step) vec_step(r, step, i);
	r->in_setup = false;
	vec_unexpected(r);
	if (r->bad.n || r->fail.n || !r->rx.up || !r->rxs) {
		if (!r->bad.n && !r->fail.n)
			fprintf(out, "FAIL %s: the receive configuration was not built\n", file);
		goto bad;
	}
	fill_rx(s);
	vec_stack_sink(s, discard, NULL);
	report_free(&rep);
	*sp = s;
	return VEC_STACK_OK;
bad:
	report_free(&rep);
	vec_stack_close(s);
	return VEC_STACK_BAD;
}

const struct vec_stack_rx *vec_stack_rx(const struct vec_stack *s)
{
	return &s->rx;
}

void vec_stack_sink(struct vec_stack *s, void (*fn)(void *ctx, const struct nicref_event *ev),
		    void *ctx)
{
	s->r.sink = fn ? fn : discard;
	s->r.sink_ctx = ctx;
}

void vec_stack_close(struct vec_stack *s)
{
	if (!s)
		return;
	struct run *r = &s->r;
	vec_tx_end(r);
	if (r->dev)
		nicref_dev_destroy(r->dev);
	vec_tx_free(r);
	free(r->ev);
	free(r->ev_matched);
	free(r->inbuf);
	lines_free(&r->fail);
	lines_free(&r->bad);
	lines_free(&r->notes);
	opstream_free(&r->rec);
	jschema_free(r->schema);
	json_decref(s->doc);
	free(s);
}
