/* The golden-vector runner: paths and files, the run, results and messages. The file format
 * is docs/vectors.md, its schema vectors/schemas/vector_file.schema.json (compiled in).
 *
 * A run has two passes. First every file under every path is read and checked whole (JSON with
 * no duplicate keys, the schema, then every name, number, width and address range; see
 * vectors_check.c): every problem is printed as a "BAD" line, and if there is any, nothing runs
 * and the run is bad input (exit 2). Then the tests run, each on a fresh device. A refusal that
 * only running can find (host memory full, ...) makes that test an ERROR and the run bad input
 * too, and so does a run in which no vector ran (all skipped). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "dut_diff.h"
#include "jschema.h"
#include "vector_schema.h"
#include "vectors_int.h"

/* ---- messages ---- */

void lines_add(struct lines *l, const char *line)
{
	size_t n = strlen(line);
	char *p = realloc(l->s, l->len + n + 2);
	if (!p)
		return;
	l->s = p;
	memcpy(l->s + l->len, line, n);
	l->len += n;
	l->s[l->len++] = '\n';
	l->s[l->len] = '\0';
	l->n++;
}

void lines_free(struct lines *l)
{
	free(l->s);
	memset(l, 0, sizeof *l);
}

/* Takes the lines as one string (without the last newline), leaving l empty. */
static char *lines_take(struct lines *l)
{
	char *s = l->s;
	if (s && l->len)
		s[l->len - 1] = '\0';
	memset(l, 0, sizeof *l);
	return s;
}

static void where_text(const struct run *r, bool with_test, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
#define PUT(...) at += (size_t)snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__)
	if (r->setup_only) /* a replay's SETUP: its steps are the only place */
		;
	else if (r->tc_id >= 0 && with_test)
		PUT("tcId %ld", r->tc_id);
	else if (r->tc_id < 0 && r->group >= 0)
		PUT("group %ld", r->group);
	if (r->step >= 0) {
		PUT("%s%sstep %ld", at ? ": " : "", r->in_setup ? "setup " : "", r->step);
		if (r->kind)
			PUT(" (%s)", r->kind);
	}
#undef PUT
	if (at >= len && len > 0)
		buf[len - 1] = '\0';
}

void vwhere(const struct run *r, char *buf, size_t len)
{
	where_text(r, true, buf, len);
}

void vbad(struct run *r, const char *field, const char *fmt, ...)
{
	char msg[768], where[160], line[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	where_text(r, true, where, sizeof where);
	snprintf(line, sizeof line, "%s%s%s%s%s", where, where[0] ? ": " : "", field ? field : "",
		 field ? ": " : "", msg);
	fprintf(r->out, "BAD %s: %s\n", r->file, line);
	lines_add(&r->bad, line);
	r->refusals++;
}

void vfail(struct run *r, const char *fmt, ...)
{
	char msg[1024], where[160], line[1300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	where_text(r, false, where, sizeof where);
	snprintf(line, sizeof line, "%s%s%s", where, where[0] ? ": " : "", msg);
	lines_add(&r->fail, line);
	if (r->setup_only)
		fprintf(r->out, "FAIL %s: %s\n", r->file, line);
	else
		fprintf(r->out, "FAIL %s#%ld: %s\n", r->file, r->tc_id, line);
}

void vnote(struct run *r, const char *fmt, ...)
{
	char msg[512], where[160], line[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	where_text(r, false, where, sizeof where);
	snprintf(line, sizeof line, "%s%s%s", where, where[0] ? ": " : "", msg);
	lines_add(&r->notes, line);
}

int vnum_at(struct run *r, const char *field, const json_t *v, enum name_space ns,
		      unsigned bits, uint64_t *out)
{
	char err[200];
	if (jv_num(v, ns, bits, out, err, sizeof err) == 0)
		return 0;
	vbad(r, field, "%s", err);
	return -1;
}

int vnum(struct run *r, const json_t *obj, const char *key, enum name_space ns, unsigned bits,
	 uint64_t dflt, uint64_t *out)
{
	const json_t *v = json_object_get(obj, key);
	if (!v) {
		*out = dflt;
		return 0;
	}
	return vnum_at(r, key, v, ns, bits, out);
}

/* ---- events ---- */

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct run *r = ctx;
	/* A caller that keeps the device past its setup (vectors_stack.h) takes the events from
	 * then on: the list below grows with every event, which a long run cannot afford. */
	if (r->sink) {
		r->sink(r->sink_ctx, ev);
		return;
	}
	if (r->nev == r->cap_ev) {
		size_t cap = r->cap_ev ? 2 * r->cap_ev : 64;
		struct nicref_event *e = realloc(r->ev, cap * sizeof *e);
		bool *m = realloc(r->ev_matched, cap * sizeof *m);
		if (e)
			r->ev = e;
		if (m)
			r->ev_matched = m;
		if (!e || !m)
			return;
		r->cap_ev = cap;
	}
	r->ev[r->nev] = *ev;
	r->ev_matched[r->nev] = false;
	r->nev++;
	if (r->opt->trace) {
		char line[256];
		nicref_event_format(ev, line, sizeof line);
		fprintf(r->opt->trace, "%s#%ld %s\n", r->file, r->tc_id, line);
	}
}

/* ---- one test ---- */

static char *dup_str(const json_t *v)
{
	return json_is_string(v) ? strdup(json_string_value(v)) : NULL;
}

static void write_ops_seed(struct run *r)
{
	/* A test with a refusal is no seed: its stream may hold a write the device never saw. */
	if (!r->opt->corpus_dir || r->rec.len == 0 || r->rec.failed || r->bad.n)
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/cmdq/vec-%s-%ld", r->opt->corpus_dir,
		 strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file, r->tc_id);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(r->rec.buf, 1, r->rec.len, f);
		fclose(f);
	}
}

static void slots_clear(struct run *r)
{
	memset(r->slot, 0, sizeof r->slot);
	r->dma_faults = 0;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- a device under test ---- */

/* The first divergence of the DUT from the model fails the test at the step that caused it. */
static void on_dut_divergence(void *ctx, const struct dut_divergence *d)
{
	struct run *r = ctx;
	vfail(r, "DUT differs: %s [stimulus %llu of the test: %s]", d->what, d->index,
	      d->stimulus);
	r->dut_differs = true;
}

int vec_dev_open(struct run *r, const json_t *group)
{
	r->cfg = (struct nicref_config){ 0 };
	nicref_config_default(&r->cfg);
	r->cfg.trace = on_event;
	r->cfg.trace_ctx = r;
	r->cfg.ops.ctx = r;
	r->cfg.ops.wire_tx = vec_wire_tx; /* frames for the frames step and --pcap */
	vec_tx_start(r);
	vec_pcie_start(r);
	if (vec_profile(r, &r->cfg.profile, group) != 0 || vec_roce_config(r, group) != 0)
		return -1;
	if (r->opt->dut)
		dut_diff_set_handler(on_dut_divergence, r);
	r->dev = nicref_dev_create(&r->cfg);
	dut_diff_set_handler(NULL, NULL);
	if (!r->dev) {
		vbad(r, "profile", "the device refuses this profile (nicref_dev_create)");
		return -1;
	}
	return vec_roce_open(r);
}

void vec_unexpected(struct run *r)
{
	/* Nothing lost: a driver violation of a "must" nobody expected fails the test; a warning
	 * (a "should", D-CMD-19) nobody expected is kept as a note of the test, in its report. */
	for (size_t i = 0; i < r->nev; i++) {
		if (r->ev[i].kind != NICREF_EV_VIOLATION || r->ev_matched[i])
			continue;
		unsigned rule = (unsigned)r->ev[i].arg[0];
		if (nicref_violation_is_warning(rule) == 1)
			vnote(r, "unexpected warning %s (%s): %s", nicref_violation_name(rule),
			      nicref_violation_citation(rule), nicref_violation_text(rule));
		else
			vfail(r, "unexpected violation %s (%s): %s", nicref_violation_name(rule),
			      nicref_violation_citation(rule), nicref_violation_text(rule));
	}
	/* A broken invariant is a model bug, never the vector's: name it and what it found. */
	char state[512];
	int inv = nicref_dev_check_explain(r->dev, state, sizeof state);
	if (inv != 0) {
		const char *name = nicref_invariant_name(inv);
		vfail(r, "model invariant %s (%d, %s) broken: %s", name ? name : "?", inv,
		      nicref_invariant_citation(inv) ? nicref_invariant_citation(inv) : "",
		      state);
	}
}

/* Runs the steps of the group's setup, then the test's own, on a fresh device. */
static void run_steps(struct run *r, const json_t *group, const json_t *t)
{
	if (vec_dev_open(r, group) != 0)
		return;
	const json_t *lists[2] = { json_object_get(group, "setup"), json_object_get(t, "steps") };
	for (int l = 0; l < 2; l++) {
		size_t i;
		json_t *step;
		r->in_setup = l == 0;
		json_array_foreach((json_t *)lists[l], i, step) vec_step(r, step, i);
		/* The test's event expectations start after the group setup. */
		if (l == 0)
			r->ev_cursor = r->nev;
	}
	r->in_setup = false;
	vec_roce_end(r);
	vec_unexpected(r);
	write_ops_seed(r);
	vec_tx_end(r);
	long long ndiv = r->opt->dut ? dut_diff_divergences(r->dev) : -1;
	if (ndiv > 1)
		vfail(r, "DUT differs: %lld more divergences after the first", ndiv - 1);
	if (ndiv >= 0)
		r->dut_tests++;
	r->dut_failed += r->dut_differs;
	r->dut_differs = false;
	nicref_dev_destroy(r->dev);
	r->dev = NULL;
}

static void run_test(struct run *r, const json_t *group, const json_t *t, const char *feature,
		     struct report *rep)
{
	struct test_result tr = { 0 };
	json_int_t id = json_integer_value(json_object_get(t, "tcId"));
	r->tc_id = (long)id;
	r->nev = 0;
	r->ev_cursor = 0;
	r->nopcodes = 0;
	r->nok = r->nrefused = 0;
	r->nrules = r->rules_dropped = 0;
	r->ncmd = 0;
	opstream_free(&r->rec);
	opstream_init(&r->rec);

	tr.file = strdup(r->file);
	tr.feature = strdup(feature);
	tr.tc_id = (long)id;
	tr.comment = dup_str(json_object_get(t, "comment"));
	tr.cite = dup_str(json_object_get(t, "cite"));
	tr.result = dup_str(json_object_get(t, "result"));

	const json_t *skip = json_object_get(t, "skip");
	if (skip) {
		tr.outcome = TEST_SKIP;
		tr.failures = dup_str(skip);
		report_add(rep, &tr);
		r->tc_id = -1;
		return;
	}
	double t0 = now_seconds();
	run_steps(r, group, t);
	tr.seconds = now_seconds() - t0;
	slots_clear(r);
	if (r->bad.n) {
		/* A refusal found only by running: the test is an ERROR; its differences so far
		 * follow the refusals. */
		tr.outcome = TEST_ERROR;
		char *diffs = lines_take(&r->fail);
		if (diffs)
			lines_add(&r->bad, diffs);
		free(diffs);
		tr.failures = lines_take(&r->bad);
	} else {
		tr.outcome = r->fail.n ? TEST_FAIL : TEST_PASS;
		tr.failures = lines_take(&r->fail);
	}
	lines_free(&r->fail);
	tr.notes = lines_take(&r->notes);
	memcpy(tr.opcodes, r->opcodes, sizeof tr.opcodes);
	tr.nopcodes = r->nopcodes;
	memcpy(tr.ok_ops, r->ok_ops, sizeof tr.ok_ops);
	tr.nok = r->nok;
	memcpy(tr.refused_ops, r->refused_ops, sizeof tr.refused_ops);
	tr.nrefused = r->nrefused;
	memcpy(tr.rules, r->rules, sizeof tr.rules);
	tr.nrules = r->nrules;
	tr.rules_dropped = r->rules_dropped;
	if (tr.outcome == TEST_PASS && r->opt->verbose)
		fprintf(r->out, "ok   %s#%ld %s\n", r->file, r->tc_id, tr.comment ? tr.comment : "");
	report_add(rep, &tr);
	r->tc_id = -1;
}

static void run_file(struct run *r, const char *path, const json_t *root, struct report *rep)
{
	const char *feature = json_string_value(json_object_get(root, "feature"));
	size_t gi, ti;
	json_t *g, *t;
	r->file = path;
	json_array_foreach(json_object_get(root, "testGroups"), gi, g)
	{
		r->group = (long)gi;
		json_array_foreach(json_object_get(g, "tests"), ti, t)
			run_test(r, g, t, feature ? feature : "", rep);
	}
	r->group = -1;
}

/* ---- refusals into the report ---- */

void vec_flush_bad(struct run *r, struct report *rep, long tc_id)
{
	if (!r->bad.n)
		return;
	struct test_result tr = { .file = strdup(r->file), .feature = strdup(""), .tc_id = tc_id,
				  .outcome = TEST_ERROR };
	tr.failures = lines_take(&r->bad);
	report_add(rep, &tr);
}

/* ---- paths ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push(char ***list, size_t *n, size_t *cap, const char *path)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		char **p = realloc(*list, *cap * sizeof *p);
		if (!p)
			return -1;
		*list = p;
	}
	if (!((*list)[*n] = strdup(path)))
		return -1;
	(*n)++;
	return 0;
}

/* Collects *.json under a folder (not its schemas/ folder), sorted, so runs are in a stable
 * order. A file given by name is taken whatever its name. */
static int collect(const char *path, char ***list, size_t *n, size_t *cap)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		return push(list, n, cap, path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *de;
	size_t first = *n;
	int rc = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char sub[4096];
		snprintf(sub, sizeof sub, "%s%s%s", path,
			 path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
		struct stat ss;
		if (stat(sub, &ss) != 0)
			continue;
		size_t len = strlen(de->d_name);
		if (S_ISDIR(ss.st_mode)) {
			if (strcmp(de->d_name, "schemas") != 0)
				rc |= collect(sub, list, n, cap);
		} else if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			rc |= push(list, n, cap, sub);
		}
	}
	closedir(d);
	if (*n > first)
		qsort(*list + first, *n - first, sizeof **list, cmp_str);
	return rc;
}

/* The paths' files into *files, refusing a path that cannot be read or holds no vector file. */
static size_t gather(struct run *r, char **paths, int npaths, char ***files, struct report *rep)
{
	size_t n = 0, cap = 0;
	for (int i = 0; i < npaths; i++) {
		size_t before = n;
		r->file = paths[i];
		errno = 0;
		if (collect(paths[i], files, &n, &cap) != 0)
			vbad(r, NULL, "cannot read: %s", errno ? strerror(errno) : "out of memory");
		else if (n == before)
			vbad(r, NULL, "no vector files (*.json) in this folder");
		vec_flush_bad(r, rep, 0);
	}
	return n;
}

int vectors_run_paths(char **paths, int npaths, const struct vec_options *opt,
		      struct report *rep, FILE *out)
{
	struct run r = { .opt = opt, .out = out, .tc_id = -1, .group = -1, .step = -1,
			 .tx = { .stage = -1 } };
	char err[512];
	json_error_t jerr;
	json_t *sj = json_loads(vector_schema_json, JSON_REJECT_DUPLICATES, &jerr);
	r.schema = sj ? jschema_compile(sj, err, sizeof err) : NULL;
	json_decref(sj);
	if (!r.schema) {
		fprintf(out, "BAD vectors/schemas/vector_file.schema.json: %s\n",
			sj ? err : jerr.text);
		return VEC_BAD_INPUT;
	}
	r.inbuf = calloc(1, MAX_CMD_BYTES);
	opstream_init(&r.rec);
	char **files = NULL;
	size_t n = r.inbuf ? gather(&r, paths, npaths, &files, rep) : 0;
	json_t **docs = calloc(n ? n : 1, sizeof *docs);

	/* Pass 1: every file, whole, before anything runs. */
	r.checking = true;
	for (size_t i = 0; docs && i < n; i++) {
		docs[i] = vec_check_file(&r, files[i], rep);
	}
	int rc = VEC_PASSED;
	if (!r.inbuf || !docs) {
		fprintf(out, "BAD: out of memory\n");
		rc = VEC_BAD_INPUT;
	} else if (r.refusals) {
		fprintf(out, "%u problem%s in the vectors: nothing was run\n", r.refusals,
			r.refusals == 1 ? "" : "s");
		rc = VEC_BAD_INPUT;
	} else {
		/* Pass 2: the tests. */
		r.checking = false;
		for (size_t i = 0; i < n; i++)
			run_file(&r, files[i], docs[i], rep);
		if (r.refusals)
			rc = VEC_BAD_INPUT;
		else if (rep->passed + rep->failed == 0) {
			r.file = npaths == 1 ? paths[0] : "(run)";
			vbad(&r, NULL, "no vector was run (%zu skipped)", rep->skipped);
			vec_flush_bad(&r, rep, 0);
			rc = VEC_BAD_INPUT;
		} else if (rep->failed)
			rc = VEC_FAILED;
	}
	if (opt->dut && !r.refusals)
		fprintf(out, "DUT %s (%s): %u vectors run against it and the model, %u with "
			"differences, %llu stimuli compared\n", dut_diff_name(), dut_diff_path(),
			r.dut_tests, r.dut_failed, dut_diff_stimuli());
	for (size_t i = 0; i < n; i++) {
		json_decref(docs ? docs[i] : NULL);
		free(files[i]);
	}
	free(docs);
	free(files);
	vec_tx_free(&r);
	vec_pcie_free(&r);
	vec_roce_free(&r);
	free(r.ev);
	free(r.ev_matched);
	free(r.inbuf);
	lines_free(&r.fail);
	lines_free(&r.bad);
	lines_free(&r.notes);
	opstream_free(&r.rec);
	jschema_free(r.schema);
	return rc;
}
