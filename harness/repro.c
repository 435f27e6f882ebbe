/* `nicref repro FILE --target T` (repro.h, docs/repro.md). The target's own program runs the
 * input (its standalone build, build/replay/T_fuzz, or any build that takes a file operand) in
 * a child process, with the stimulus recorder on (NICREF_REPRO_RECORD, repro_record.h), the
 * target's trace on (NICREF_FUZZ_TRACE) and, for a divergence, the DUT (NICREF_DUT). A finding
 * is what the target prints before it traps (fuzzers/fuzz_report.c) or what a sanitizer
 * reports; its signature (kind, name, place) is what the minimisation keeps. The record of the
 * minimised input becomes the draft vector (repro_vec.c), which this command then runs with
 * `nicref vectors`: it must pass against the model and, with a DUT, fail against it; against a
 * DUT it is cut after the step of the first divergence. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "repro.h"
#include "repro_int.h"

const char repro_usage[] =
	"usage: nicref repro [OPTIONS] --target T FILE\n"
	"Replays FILE, a crash or divergence input of the fuzz target T, through the target's\n"
	"program, minimises it, prints the trace leading to the finding and writes a draft golden\n"
	"vector of its stimulus (every expectation the model's response, labelled DRAFT: review\n"
	"it against the spec) and, when frames crossed the wire, a pcap of them.\n"
	"\n"
	"  -t, --target T    the fuzz target (fuzzers/T_fuzz.c)\n"
	"  --fuzzer PROG     the target's program (default build/replay/T_fuzz, from\n"
	"                    make -f fuzzers/fuzz.mk replay)\n"
	"  --dut LIB         the device under test of a divergence (default $NICREF_DUT): the\n"
	"                    target runs with NICREF_DUT=LIB, the vector is checked to fail with\n"
	"                    nicref vectors --dut LIB and cut after the divergent step\n"
	"  -o, --out PREFIX  write PREFIX.json (the vector), PREFIX.pcap, PREFIX.input (the\n"
	"                    minimised input), PREFIX.trace and PREFIX.record (default repro-T)\n"
	"  --max-runs N      runs of the target the minimisation may take (default 300; 0 keeps\n"
	"                    the input as it is)\n"
	"  --context N       trace lines printed before the finding (default 40)\n"
	"  --json FILE       a summary of what was found and written, as JSON\n"
	"  -h, --help        print this usage and exit\n"
	"\n"
	"Exit status: 0 the finding reproduced and its vector written and checked (it passes\n"
	"against the model and, with a DUT, fails against it); 1 the input reproduces no finding,\n"
	"or the vector does not reproduce it; 2 bad input (a file, the target's program, the DUT)\n"
	"or a usage error.\n";

struct repro {
	const char *target, *input, *prog, *dut, *prefix, *json;
	long max_runs, context;
	char work[4200]; /* PREFIX.work: the candidate input of a minimisation run */
	char errf[4200]; /* PREFIX.stderr of the last run */
	unsigned long runs;
};

struct finding {
	bool found;
	int status; /* the wait status */
	char sig[640];  /* what the minimisation keeps */
	char line[1024]; /* the finding's first line */
};

/* ---- the target's program ---- */

static void chomp(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
}

/* "FILE:LINE" at p (up to the ':' after the line number). */
static size_t loc_len(const char *p)
{
	const char *c = strchr(p, ':');
	if (!c)
		return strlen(p);
	const char *e = c + 1;
	while (*e >= '0' && *e <= '9')
		e++;
	return (size_t)(e - p);
}

/* The signature of a finding line, or false when the line is none. */
static bool signature_of(const char *l, char *sig, size_t len)
{
	const char *at;
	if (!strncmp(l, "property ", 9) && (at = strstr(l, " broken at "))) {
		snprintf(sig, len, "property %.*s at %.*s", (int)(at - l - 9), l + 9,
			 (int)loc_len(at + 11), at + 11);
		return true;
	}
	if (!strncmp(l, "invariant ", 10) && (at = strstr(l, " broken at "))) {
		snprintf(sig, len, "invariant %.*s at %.*s", (int)(at - l - 10), l + 10,
			 (int)loc_len(at + 11), at + 11);
		return true;
	}
	static const char *const prefixed[] = { "fuzz check failed at ",
						"model assertion failed at " };
	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(prefixed[i]);
		if (!strncmp(l, prefixed[i], n)) {
			snprintf(sig, len, "%s%.*s", prefixed[i], (int)loc_len(l + n), l + n);
			return true;
		}
	}
	if ((at = strstr(l, "ERROR: AddressSanitizer: "))) {
		const char *k = at + 25;
		snprintf(sig, len, "AddressSanitizer %.*s", (int)strcspn(k, " "), k);
		return true;
	}
	if ((at = strstr(l, ": runtime error: "))) {
		snprintf(sig, len, "UndefinedBehaviorSanitizer at %.*s", (int)loc_len(l), l);
		return true;
	}
	if (strstr(l, "standalone_main: timeout") || strstr(l, "ERROR: libFuzzer: timeout")) {
		snprintf(sig, len, "timeout");
		return true;
	}
	return false;
}

static void read_finding(const char *errfile, struct finding *f)
{
	FILE *e = fopen(errfile, "r");
	char *l = NULL;
	size_t cap = 0;
	while (e && getline(&l, &cap, e) >= 0) {
		chomp(l);
		if (signature_of(l, f->sig, sizeof f->sig)) {
			snprintf(f->line, sizeof f->line, "%s", l);
			f->found = true;
			break;
		}
	}
	free(l);
	if (e)
		fclose(e);
	if (!f->found && (WIFSIGNALED(f->status) || (WIFEXITED(f->status) && WEXITSTATUS(f->status)))) {
		/* no line we know, yet it did not end well: its status is the signature */
		if (WIFSIGNALED(f->status))
			snprintf(f->sig, sizeof f->sig, "signal %d", WTERMSIG(f->status));
		else
			snprintf(f->sig, sizeof f->sig, "exit %d", WEXITSTATUS(f->status));
		snprintf(f->line, sizeof f->line, "the target's program ended with %s", f->sig);
		f->found = true;
	}
}

/* Runs the target's program on input; the finding (if any) into f. 0, or -1 when the program
 * could not run at all. */
static int run_target(struct repro *r, const char *input, const char *record, bool trace,
		      const char *errfile, struct finding *f)
{
	memset(f, 0, sizeof f[0]);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		FILE *e = freopen(errfile, "w", stderr);
		FILE *o = freopen("/dev/null", "w", stdout);
		(void)o;
		if (!e)
			_exit(127);
		setenv("NICREF_FUZZ_SNAPSHOT", "0", 1); /* every stimulus from power-on */
		setenv("NICREF_FUZZ_TRACE", trace ? "1" : "0", 1);
		if (!getenv("NICREF_REPLAY_TIMEOUT"))
			setenv("NICREF_REPLAY_TIMEOUT", "20", 1);
		if (r->dut)
			setenv("NICREF_DUT", r->dut, 1);
		else
			unsetenv("NICREF_DUT");
		if (record)
			setenv("NICREF_REPRO_RECORD", record, 1);
		else
			unsetenv("NICREF_REPRO_RECORD");
		char *argv[] = { (char *)r->prog, (char *)input, NULL };
		execv(r->prog, argv);
		fprintf(stderr, "nicref repro: cannot run %s: %s\n", r->prog, strerror(errno));
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	r->runs++;
	f->status = st;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -1;
	read_finding(errfile, f);
	return 0;
}

/* ---- files ---- */

static int read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096, n = 0;
	uint8_t *b = malloc(cap);
	size_t got;
	while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *p = realloc(b, cap *= 2);
			if (!p) {
				free(b);
				b = NULL;
			}
			b = p;
		}
	}
	int bad = ferror(f) || !b;
	fclose(f);
	if (bad) {
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

static int write_file(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t put = len ? fwrite(buf, 1, len, f) : 0;
	return fclose(f) == 0 && put == len ? 0 : -1;
}

/* ---- minimisation ---- */

/* Delta debugging over the bytes: chunks of half the input, then a quarter, ... one byte,
 * each removed when the finding keeps its signature without it; then each remaining byte set
 * to 0 where that keeps it (a plainer input to read). At most max_runs runs. */
static size_t minimise(struct repro *r, uint8_t *in, size_t len, const char *sig)
{
	uint8_t *cand = malloc(len ? len : 1);
	if (!cand)
		return len;
	unsigned long start = r->runs;
	struct finding f;
#define BUDGET() ((long)(r->runs - start) < r->max_runs)
	for (size_t chunk = len / 2 ? len / 2 : 1; chunk >= 1 && len > 0 && BUDGET(); chunk /= 2) {
		bool progress = true;
		while (progress && BUDGET()) {
			progress = false;
			for (size_t at = 0; at < len && BUDGET();) {
				size_t n = at + chunk <= len ? chunk : len - at;
				memcpy(cand, in, at);
				memcpy(cand + at, in + at + n, len - at - n);
				if (write_file(r->work, cand, len - n) == 0 &&
				    run_target(r, r->work, NULL, false, r->errf, &f) == 0 && f.found &&
				    !strcmp(f.sig, sig)) {
					memcpy(in, cand, len - n);
					len -= n;
					progress = true;
				} else {
					at += n;
				}
			}
		}
		if (chunk == 1)
			break;
	}
	for (size_t i = 0; i < len && BUDGET(); i++) {
		if (!in[i])
			continue;
		memcpy(cand, in, len);
		cand[i] = 0;
		if (write_file(r->work, cand, len) == 0 &&
		    run_target(r, r->work, NULL, false, r->errf, &f) == 0 && f.found &&
		    !strcmp(f.sig, sig))
			in[i] = 0;
	}
#undef BUDGET
	free(cand);
	return len;
}

/* ---- the trace ---- */

/* Prints the `context` trace lines before the finding's line and the finding's lines. */
static void print_trace(const char *tracefile, const char *finding_line, long context)
{
	FILE *t = fopen(tracefile, "r");
	if (!t)
		return;
	char **ring = calloc((size_t)context + 1, sizeof *ring);
	size_t seen = 0;
	char *l = NULL;
	size_t cap = 0;
	bool at_finding = false;
	unsigned after = 0;
	printf("trace (the last %ld lines before the finding; all of it in %s):\n", context,
	       tracefile);
	while (getline(&l, &cap, t) >= 0) {
		chomp(l);
		if (!at_finding && !strcmp(l, finding_line)) {
			at_finding = true;
			size_t first = seen > (size_t)context ? seen - (size_t)context : 0;
			for (size_t i = first; i < seen; i++)
				printf("  %s\n", ring[i % ((size_t)context + 1)]);
			printf("> %s\n", l);
			continue;
		}
		if (at_finding) {
			if (after++ < 12 && strncmp(l, "event ", 6))
				printf("> %s\n", l);
			continue;
		}
		if (ring && context > 0) {
			size_t k = seen % ((size_t)context + 1);
			free(ring[k]);
			ring[k] = strdup(l);
			seen++;
		}
	}
	for (long i = 0; ring && i <= context; i++)
		free(ring[i]);
	free(ring);
	free(l);
	fclose(t);
}

/* ---- the vector ---- */

/* repro_vec_write in a child process: a model that crashes on the stimulus must not take this
 * command with it. The result and the step map come back through a pipe. */
static int vec_write_isolated(const struct repro_rec *rec, size_t keep,
			      const struct repro_meta *meta, const char *json, const char *pcap,
			      struct repro_written *w, char *err, size_t errlen)
{
	int fd[2];
	memset(w, 0, sizeof *w);
	if (pipe(fd) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		char e[1024] = "";
		struct repro_written out;
		int rc = repro_vec_write(rec, keep, meta, json, pcap, &out, e, sizeof e);
		FILE *p = fdopen(fd[1], "w");
		fwrite(&rc, sizeof rc, 1, p);
		fwrite(&out, sizeof out, 1, p);
		fwrite(e, sizeof e, 1, p);
		if (rc == 0)
			fwrite(out.stim_of_step, sizeof(long), out.steps, p);
		fclose(p);
		_exit(0);
	}
	close(fd[1]);
	FILE *p = fdopen(fd[0], "r");
	int rc = -1;
	char e[1024] = "";
	bool ok = p && fread(&rc, sizeof rc, 1, p) == 1 && fread(w, sizeof *w, 1, p) == 1 &&
		  fread(e, sizeof e, 1, p) == 1;
	w->stim_of_step = NULL;
	if (ok && rc == 0) {
		w->stim_of_step = malloc((w->steps ? w->steps : 1) * sizeof(long));
		ok = w->stim_of_step &&
		     fread(w->stim_of_step, sizeof(long), w->steps, p) == w->steps;
	}
	if (p)
		fclose(p);
	int st = 0;
	waitpid(pid, &st, 0);
	if (!ok || !WIFEXITED(st)) {
		free(w->stim_of_step);
		w->stim_of_step = NULL;
		snprintf(err, errlen, "the model itself %s replaying the record: the stimulus "
			 "crashes the model, so no response can be written (the record is kept)",
			 WIFSIGNALED(st) ? "crashed" : "failed");
		return -1;
	}
	if (rc != 0)
		snprintf(err, errlen, "%s", e);
	return rc;
}

/* `nicref vectors [--dut LIB] FILE` (this very program): its exit status, and the first step
 * that failed (-1 none) and its line. */
static int run_vectors(const char *json, const char *dut, long *fail_step, char *fail_line,
		       size_t len)
{
	char out[4300];
	snprintf(out, sizeof out, "%s.vectors.out", json);
	*fail_step = -1;
	fail_line[0] = 0;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen(out, "w", stdout) || dup2(fileno(stdout), 2) < 0)
			_exit(127);
		unsetenv("NICREF_REPRO_RECORD");
		char *argv[6] = { "nicref", "vectors", NULL, NULL, NULL, NULL };
		int n = 2;
		if (dut) {
			argv[n++] = "--dut";
			argv[n++] = (char *)dut;
		}
		argv[n] = (char *)json;
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	FILE *f = fopen(out, "r");
	char *l = NULL;
	size_t cap = 0;
	while (f && getline(&l, &cap, f) >= 0) {
		chomp(l);
		const char *s;
		if (!strncmp(l, "FAIL ", 5) && (s = strstr(l, ": step ")) && *fail_step < 0) {
			*fail_step = strtol(s + 7, NULL, 10);
			snprintf(fail_line, len, "%s", l);
		} else if (!fail_line[0] && (!strncmp(l, "BAD ", 4) || !strncmp(l, "FAIL ", 5))) {
			snprintf(fail_line, len, "%s", l);
		}
	}
	free(l);
	if (f)
		fclose(f);
	remove(out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* What run_vectors' status says: nicref vectors died of a signal (128 + N: "crashed (signal
 * N)", not a refusal of the vector), refused it (2), or passed (0) or failed (1) it. */
static const char *vectors_outcome(int rc, const char *pass, const char *fail, char *buf,
				   size_t len)
{
	if (rc == 0)
		return pass;
	if (rc == 1)
		return fail;
	if (rc > 128) {
		snprintf(buf, len, "crashed (signal %d)", rc - 128);
		return buf;
	}
	return rc == 2 ? "refused (exit 2)" : rc < 0 ? "could not be run" : "refused";
}

/* ---- the command ---- */

static long num_opt(const struct cli_call *call, const char *name, const char *v, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || n < 0 || end == v)
		return cli_usage_error(call, "--%s: '%s' is not a number >= 0", name, v);
	*out = n;
	return 0;
}

int cmd_repro(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_FUZZER = 0x100, OPT_DUT, OPT_MAX_RUNS, OPT_CONTEXT, OPT_JSON };
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "fuzzer", required_argument, NULL, OPT_FUZZER },
		{ "dut", required_argument, NULL, OPT_DUT },
		{ "out", required_argument, NULL, 'o' },
		{ "max-runs", required_argument, NULL, OPT_MAX_RUNS },
		{ "context", required_argument, NULL, OPT_CONTEXT },
		{ "json", required_argument, NULL, OPT_JSON },
		CLI_HELP_OPTION,
		{ 0 }
	};
	struct repro r = { .max_runs = 300, .context = 40 };
	int o;
	while ((o = cli_getopt(call, argc, argv, "ht:o:", longopts, NULL)) != -1) {
		switch (o) {
		case 't':
			r.target = optarg;
			break;
		case OPT_FUZZER:
			r.prog = optarg;
			break;
		case OPT_DUT:
			r.dut = optarg;
			break;
		case 'o':
			r.prefix = optarg;
			break;
		case OPT_MAX_RUNS:
			if (num_opt(call, "max-runs", optarg, &r.max_runs))
				return CLI_BAD;
			break;
		case OPT_CONTEXT:
			if (num_opt(call, "context", optarg, &r.context))
				return CLI_BAD;
			break;
		case OPT_JSON:
			r.json = optarg;
			break;
		default:
			return cli_getopt_exit(o);
		}
	}
	if (optind == argc)
		return cli_usage_error(call, "missing FILE (the input of the finding)");
	if (argc - optind > 1)
		return cli_usage_error(call, "unexpected operand '%s'", argv[optind + 1]);
	if (!r.target)
		return cli_usage_error(call, "--target is needed (the fuzz target of FILE)");
	if (!*r.target || strspn(r.target, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
				  strlen(r.target))
		return cli_usage_error(call, "--target: '%s' is not a target name (fuzzers/T_fuzz.c)",
				       r.target);
	r.input = argv[optind];
	if (!r.dut) {
		const char *e = getenv("NICREF_DUT");
		r.dut = e && *e ? e : NULL;
	}
	char prog[4200], prefix[4200];
	if (!r.prog) {
		snprintf(prog, sizeof prog, "build/replay/%s_fuzz", r.target);
		r.prog = prog;
	}
	if (!r.prefix) {
		snprintf(prefix, sizeof prefix, "repro-%s", r.target);
		r.prefix = prefix;
	}
	uint8_t *in;
	size_t len;
	if (read_file(r.input, &in, &len) != 0) {
		fprintf(stderr, "nicref repro: %s: %s\n", r.input, strerror(errno));
		return CLI_BAD;
	}
	if (access(r.prog, X_OK) != 0) {
		fprintf(stderr, "nicref repro: %s: no program of the target %s (%s); build it with "
				"make -f fuzzers/fuzz.mk %s, or name it with --fuzzer\n",
			r.prog, r.target, strerror(errno), r.prog);
		free(in);
		return CLI_BAD;
	}
	if (r.dut && access(r.dut, R_OK) != 0) {
		fprintf(stderr, "nicref repro: --dut %s: %s\n", r.dut, strerror(errno));
		free(in);
		return CLI_BAD;
	}
	char p_in[4300], p_trace[4300], p_rec[4300], p_json[4300], p_pcap[4300];
	snprintf(r.work, sizeof r.work, "%s.work", r.prefix);
	snprintf(r.errf, sizeof r.errf, "%s.stderr", r.prefix);
	snprintf(p_in, sizeof p_in, "%s.input", r.prefix);
	snprintf(p_trace, sizeof p_trace, "%s.trace", r.prefix);
	snprintf(p_rec, sizeof p_rec, "%s.record", r.prefix);
	snprintf(p_json, sizeof p_json, "%s.json", r.prefix);
	snprintf(p_pcap, sizeof p_pcap, "%s.pcap", r.prefix);
	remove(p_pcap);

	int rc = CLI_OK;
	struct finding f;
	struct repro_rec rec = { 0 };
	struct repro_written w = { 0 };
	char err[1200] = "", vline[1400] = "", dline[1400] = "";
	long div_step = -1, keep = -1;
	int model_rc = -1, dut_rc = -1;
	size_t len0 = len;
	time_t t0 = time(NULL);

	/* 1. The input as it is. */
	if (run_target(&r, r.input, NULL, false, r.errf, &f) != 0) {
		fprintf(stderr, "nicref repro: cannot run %s (see %s)\n", r.prog, r.errf);
		rc = CLI_BAD;
		goto done;
	}
	if (!f.found) {
		printf("nicref repro: %s: no finding: %s runs it to the end%s\n", r.input, r.prog,
		       r.dut ? " with the DUT" : "");
		rc = CLI_DISAGREE;
		goto done;
	}
	printf("finding: %s\n  signature: %s\n", f.line, f.sig);
	char sig[sizeof f.sig];
	snprintf(sig, sizeof sig, "%s", f.sig);

	/* 2. Minimised, the signature kept. */
	if (r.max_runs > 0) {
		len = minimise(&r, in, len, sig);
		printf("minimised: %zu -> %zu bytes in %lu runs of %s\n", len0, len, r.runs - 1,
		       r.prog);
	}
	if (write_file(p_in, in, len) != 0) {
		fprintf(stderr, "nicref repro: cannot write %s\n", p_in);
		rc = CLI_BAD;
		goto done;
	}

	/* 3. The minimised input once more: recorded and traced. */
	if (run_target(&r, p_in, p_rec, true, p_trace, &f) != 0 || !f.found ||
	    strcmp(f.sig, sig) != 0) {
		printf("nicref repro: %s: the minimised input no longer gives the finding (%s): the "
		       "target is not deterministic?\n", p_in, f.found ? f.sig : "none");
		rc = CLI_DISAGREE;
		goto done;
	}
	print_trace(p_trace, f.line, r.context);

	/* 4. The record as a draft vector, then checked with the vector runner. */
	if (repro_rec_load(p_rec, &rec, err, sizeof err) != 0) {
		fprintf(stderr, "nicref repro: %s\n", err);
		rc = CLI_BAD;
		goto done;
	}
	struct repro_meta meta = { r.target, p_in, f.line, r.dut };
	keep = (long)rec.n;
	if (vec_write_isolated(&rec, (size_t)keep, &meta, p_json, p_pcap, &w, err, sizeof err)) {
		fprintf(stderr, "nicref repro: %s\n", err);
		rc = CLI_DISAGREE;
		goto done;
	}
	long dummy;
	if (r.dut) {
		dut_rc = run_vectors(p_json, r.dut, &div_step, dline, sizeof dline);
		if (dut_rc == 1 && div_step >= 0 && (size_t)div_step < w.steps) {
			/* cut after the stimulus of the first divergence, and check again */
			keep = w.stim_of_step[div_step] + 1;
			free(w.stim_of_step);
			if (vec_write_isolated(&rec, (size_t)keep, &meta, p_json, p_pcap, &w, err,
					       sizeof err)) {
				fprintf(stderr, "nicref repro: %s\n", err);
				rc = CLI_DISAGREE;
				goto done;
			}
			dut_rc = run_vectors(p_json, r.dut, &div_step, dline, sizeof dline);
		}
	}
	model_rc = run_vectors(p_json, NULL, &dummy, vline, sizeof vline);
	printf("vector: %s: %zu steps from %zu stimuli (record lines %u-%u), %zu frames in, %zu "
	       "out, %zu violations; result %s (DRAFT: review it against the spec)\n",
	       p_json, w.steps, w.stimuli, rec.first_line + 1, rec.lines, w.frames_in,
	       w.frames_out, w.violations, w.violations ? "invalid" : "valid");
	if (w.pcap)
		printf("pcap: %s: %zu frames (in and out)\n", p_pcap, w.frames_in + w.frames_out);
	else
		printf("pcap: none (no frame crossed the wire)\n");
	char model_word[40], dut_word[40];
	printf("model: nicref vectors %s: %s\n", p_json,
	       vectors_outcome(model_rc, "passes", "FAILS", model_word, sizeof model_word));
	if (model_rc != 0) {
		printf("  %s\n", vline);
		rc = CLI_DISAGREE;
	}
	if (r.dut) {
		printf("DUT: nicref vectors --dut %s %s: %s\n", r.dut, p_json,
		       vectors_outcome(dut_rc, "PASSES (the divergence is not in the vector)",
				       "fails", dut_word, sizeof dut_word));
		if (dline[0])
			printf("  %s\n", dline);
		if (dut_rc != 1)
			rc = CLI_DISAGREE;
	}
	printf("repro: %s, %lu runs, %ld s\n", rc == CLI_OK ? "reproduced" : "NOT reproduced",
	       r.runs, (long)(time(NULL) - t0));
done:
	if (r.json) {
		json_t *j = json_pack("{s:s,s:s,s:s,s:s*,s:b,s:s,s:s,s:I,s:I,s:I}", "target", r.target,
				      "input", r.input, "program", r.prog, "dut", r.dut,
				      "reproduced", rc == CLI_OK, "finding", f.line, "signature",
				      f.sig, "input_bytes", (json_int_t)len0, "minimised_bytes",
				      (json_int_t)len, "runs", (json_int_t)r.runs);
		if (w.steps) {
			json_object_set_new(j, "vector", json_string(p_json));
			json_object_set_new(j, "steps", json_integer((json_int_t)w.steps));
			json_object_set_new(j, "stimuli", json_integer((json_int_t)w.stimuli));
			json_object_set_new(j, "frames_in", json_integer((json_int_t)w.frames_in));
			json_object_set_new(j, "frames_out", json_integer((json_int_t)w.frames_out));
			json_object_set_new(j, "pcap", w.pcap ? json_string(p_pcap) : json_null());
			json_object_set_new(j, "model_exit", json_integer(model_rc));
			if (r.dut)
				json_object_set_new(j, "dut_exit", json_integer(dut_rc));
			if (dline[0])
				json_object_set_new(j, "dut_first_failure", json_string(dline));
		}
		if (json_dump_file(j, r.json, JSON_INDENT(2)) != 0) {
			fprintf(stderr, "nicref repro: cannot write %s\n", r.json);
			if (rc == CLI_OK)
				rc = CLI_BAD;
		}
		json_decref(j);
	}
	remove(r.work);
	remove(r.errf);
	free(w.stim_of_step);
	repro_rec_free(&rec);
	free(in);
	return rc;
}
