/* --expect FILE.jsonl (docs/replay.md "Comparing with an implementation"): the lines of an
 * implementation's log in the --jsonl format, compared frame by frame and field by field with
 * the prediction. Every key of either side is compared unless --ignore names it; a key only
 * one side has is a difference too, so nothing is skipped silently. Differences are printed as
 * they are found (`frame 1041: cqe.l4_ok expected 1, got 0`) and go to the --json and --junit
 * reports (the vectors' formats, docs/vectors.md "Reports": one failing test per frame that
 * disagrees, named by its frame number, and one passing test for the frames that agree). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "replay_int.h"

#define MAX_IGNORE 32u
#define MAX_REPORTED 10000u /* frames that disagree kept for the reports; the rest counted */
#define LINE_MAX_BYTES (1u << 20)

struct replay_expect {
	const char *path;
	FILE *f, *out;          /* the log; where differences are printed */
	char *line;            /* LINE_MAX_BYTES, made once */
	uint64_t lineno, compared, frames_bad, diffs, reported_frames;
	bool ended, bad;       /* the file ended early; it cannot be read */
	char *ignore[MAX_IGNORE];
	unsigned nignore;
	char pred[16384];
	struct report rep;
	char msgs[8192];       /* this frame's differences */
	size_t nmsg;
};

/* Names --ignore accepts: the keys of the format (docs/replay.md). */
static bool known_field(const char *name)
{
	static const char *const keys[] = { "t_ns", "len", "outcome", "reason", "padded",
					    "converted", "copies", "rq", "cqe", "drop", "counters",
					    "port", "tir", "copies_lost" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(keys[i], name))
			return true;
	for (unsigned i = 0; i < replay_cqe_fields(); i++)
		if (!strcmp(replay_cqe_field_name(i), name))
			return true;
	return false;
}

int replay_expect_open(const char *path, const char *ignore, FILE *to, struct replay_expect **out)
{
	struct replay_expect *e = calloc(1, sizeof *e);
	*out = NULL;
	if (!e || !(e->line = malloc(LINE_MAX_BYTES))) {
		free(e);
		fprintf(stderr, "nicref replay: out of memory\n");
		return -1;
	}
	e->path = path;
	e->out = to;
	report_init(&e->rep);
	for (const char *s = ignore ? ignore : ""; *s;) {
		size_t n = strcspn(s, ",");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)n, s);
		if (n && !known_field(name)) {
			fprintf(stderr, "nicref replay: --ignore: \"%s\" is not a field of the --jsonl "
					"format (docs/replay.md lists them)\n", name);
			goto fail;
		}
		if (n && e->nignore < MAX_IGNORE)
			e->ignore[e->nignore++] = strdup(name);
		s += n + (s[n] == ',');
	}
	if (!(e->f = fopen(path, "r"))) {
		fprintf(stderr, "nicref replay: --expect %s: cannot read: %s\n", path, strerror(errno));
		goto fail;
	}
	*out = e;
	return 0;
fail:
	for (unsigned i = 0; i < e->nignore; i++)
		free(e->ignore[i]);
	free(e->line);
	free(e);
	return -1;
}

static bool ignored(const struct replay_expect *e, const char *key)
{
	for (unsigned i = 0; i < e->nignore; i++)
		if (!strcmp(e->ignore[i], key))
			return true;
	return false;
}

static void value_text(const json_t *v, char *buf, size_t len)
{
	if (!v) {
		snprintf(buf, len, "nothing");
		return;
	}
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(buf, len, "%s", s ? s : "?");
	free(s);
}

static void diff(struct replay_expect *e, uint64_t frame, const char *path, const json_t *want,
		 const json_t *got)
{
	char a[256], b[256], line[700];
	value_text(want, a, sizeof a);
	value_text(got, b, sizeof b);
	snprintf(line, sizeof line, "%s expected %s, got %s", path, a, b);
	fprintf(e->out, "frame %" PRIu64 ": %s\n", frame, line);
	e->diffs++;
	if (e->nmsg + strlen(line) + 2 < sizeof e->msgs)
		e->nmsg += (size_t)snprintf(e->msgs + e->nmsg, sizeof e->msgs - e->nmsg, "%s%s",
					    e->nmsg ? "\n" : "", line);
}

/* want and got at path: objects key by key (both sides' keys), arrays element by element,
 * anything else by equality. */
static void compare(struct replay_expect *e, uint64_t frame, const char *path, const json_t *want,
		    const json_t *got, bool one_copy)
{
	char sub[256];
	const char *key;
	json_t *v;
	if (json_is_object(want) && json_is_object(got)) {
		json_object_foreach((json_t *)want, key, v)
		{
			if (ignored(e, key) || !strcmp(key, "frame"))
				continue;
			snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", key);
			if (!strcmp(key, "copies") && one_copy && json_array_size(v) == 1 &&
			    json_array_size(json_object_get(got, key)) == 1)
				compare(e, frame, "", json_array_get(v, 0),
					json_array_get(json_object_get(got, key), 0), one_copy);
			else
				compare(e, frame, sub, v, json_object_get(got, key), one_copy);
		}
		json_object_foreach((json_t *)got, key, v) if (!ignored(e, key) && !json_object_get(want, key))
		{
			snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", key);
			diff(e, frame, sub, NULL, v);
		}
		return;
	}
	if (json_is_array(want) && json_is_array(got) && strcmp(path, "counters")) {
		size_t n = json_array_size(want) > json_array_size(got) ? json_array_size(want)
									: json_array_size(got);
		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof sub, "%s[%zu]", path, i);
			compare(e, frame, sub, json_array_get(want, i), json_array_get(got, i), one_copy);
		}
		return;
	}
	if (!want || !got || !json_equal(want, got))
		diff(e, frame, path, want, got);
}

/* One line into e->line, NUL-terminated, its newline kept: its length (a NUL byte in it
 * counted, unlike fgets, which would hide what follows it), LINE_MAX_BYTES when it does not fit,
 * SIZE_MAX at the end of the file. */
static size_t read_line(struct replay_expect *e)
{
	size_t n = 0;
	int ch;
	while ((ch = getc_unlocked(e->f)) != EOF) {
		if (n == LINE_MAX_BYTES - 1)
			return LINE_MAX_BYTES;
		e->line[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	e->line[n] = '\0';
	return n || ch != EOF ? n : SIZE_MAX;
}

/* The next line that is not empty (and not the header), or NULL at the end. */
static json_t *next_line(struct replay_expect *e)
{
	json_error_t jerr;
	size_t n;
	while ((n = read_line(e)) != SIZE_MAX) {
		e->lineno++;
		if (n == LINE_MAX_BYTES) {
			fprintf(stderr, "BAD %s: line %" PRIu64 ": longer than %u bytes\n", e->path,
				e->lineno, LINE_MAX_BYTES - 1);
			e->bad = true;
			return NULL;
		}
		const char *nul = memchr(e->line, '\0', n);
		if (nul) {
			fprintf(stderr, "BAD %s: line %" PRIu64 ": holds a NUL byte (byte %zu of the "
					"line): the format is JSON text, one object a line\n", e->path,
				e->lineno, (size_t)(nul - e->line) + 1);
			e->bad = true;
			return NULL;
		}
		if (strspn(e->line, " \t\r\n") == n)
			continue;
		json_t *v = json_loads(e->line, JSON_REJECT_DUPLICATES, &jerr);
		if (!json_is_object(v)) {
			fprintf(stderr, "BAD %s: line %" PRIu64 ": not a JSON object%s%s\n", e->path,
				e->lineno, v ? "" : ": ", v ? "" : jerr.text);
			json_decref(v);
			e->bad = true;
			return NULL;
		}
		const json_t *ver = json_object_get(v, "nicref_replay");
		if (ver) {
			if (json_integer_value(ver) != REPLAY_SCHEMA_VERSION) {
				char what[48];
				if (json_is_integer(ver))
					snprintf(what, sizeof what, "%" JSON_INTEGER_FORMAT,
						 json_integer_value(ver));
				else
					snprintf(what, sizeof what, "not a number");
				fprintf(stderr, "BAD %s: line %" PRIu64 ": format version %s, this nicref "
						"reads version %d (docs/replay.md)\n", e->path, e->lineno,
					what, REPLAY_SCHEMA_VERSION);
				json_decref(v);
				e->bad = true;
				return NULL;
			}
			json_decref(v);
			continue;
		}
		if (!json_is_integer(json_object_get(v, "frame"))) {
			fprintf(stderr, "BAD %s: line %" PRIu64 ": no \"frame\" number\n", e->path,
				e->lineno);
			json_decref(v);
			e->bad = true;
			return NULL;
		}
		return v;
	}
	return NULL;
}

static void record(struct replay_expect *e, uint64_t frame)
{
	if (e->reported_frames >= MAX_REPORTED)
		return;
	char comment[64];
	snprintf(comment, sizeof comment, "frame %" PRIu64, frame);
	struct test_result tr = { .file = strdup(e->path), .feature = strdup("replay"),
				  .tc_id = (long)frame, .comment = strdup(comment),
				  .result = strdup("valid"), .outcome = TEST_FAIL,
				  .failures = strdup(e->msgs) };
	report_add(&e->rep, &tr);
	e->reported_frames++;
}

void replay_expect_frame(struct replay_expect *e, const struct replay_pred *p)
{
	if (e->ended || e->bad)
		return;
	json_t *want = next_line(e);
	if (!want) {
		if (!e->bad) {
			/* One difference, said once: the frames after it are not compared. */
			e->ended = true;
			e->nmsg = (size_t)snprintf(e->msgs, sizeof e->msgs, "%s ends before this frame "
						   "(after line %" PRIu64 "): it and the frames after "
						   "it are not compared", e->path, e->lineno);
			fprintf(e->out, "frame %" PRIu64 ": %s\n", p->frame, e->msgs);
			e->diffs++;
			e->frames_bad++;
			record(e, p->frame);
		}
		return;
	}
	size_t n = replay_jsonl_line(p, e->pred, sizeof e->pred);
	e->pred[n] = '\0';
	json_t *got = json_loads(e->pred, 0, NULL);
	uint64_t before = e->diffs;
	e->nmsg = 0;
	json_int_t wf = json_integer_value(json_object_get(want, "frame"));
	if ((uint64_t)wf != p->frame) {
		char line[200];
		snprintf(line, sizeof line, "line %" PRIu64 " of %s", e->lineno, e->path);
		diff(e, p->frame, line, json_object_get(want, "frame"), json_object_get(got, "frame"));
	} else {
		compare(e, p->frame, "", want, got, true);
	}
	if (p->lost) {
		/* The copies past the prediction's slots were not compared: never an agreement. */
		char line[200];
		snprintf(line, sizeof line, "%u copies past the %u a frame's prediction holds (copies_lost): "
			 "not compared", p->lost, REPLAY_MAX_COPIES);
		fprintf(e->out, "frame %" PRIu64 ": %s\n", p->frame, line);
		e->diffs++;
		if (e->nmsg + strlen(line) + 2 < sizeof e->msgs)
			e->nmsg += (size_t)snprintf(e->msgs + e->nmsg, sizeof e->msgs - e->nmsg, "%s%s",
						    e->nmsg ? "\n" : "", line);
	}
	e->compared++;
	if (e->diffs != before) {
		e->frames_bad++;
		record(e, p->frame);
	}
	json_decref(want);
	json_decref(got);
}

int replay_expect_close(struct replay_expect *e, const struct replay_opts *o,
			const struct replay_counts *c, double seconds)
{
	int rc = 0;
	if (o) {
		json_t *extra = e->bad ? NULL : next_line(e);
		if (extra) {
			fprintf(e->out, "%s: line %" PRIu64 " (frame %" JSON_INTEGER_FORMAT ") and after: frames the "
			       "capture does not hold\n", e->path, e->lineno,
			       json_integer_value(json_object_get(extra, "frame")));
			e->diffs++;
			json_decref(extra);
		}
		uint64_t agree = e->compared - (e->frames_bad - e->ended);
		fprintf(e->out, "--expect %s: %" PRIu64 " frames compared, %" PRIu64 " agree, %" PRIu64
		       " disagree (%" PRIu64 " differences)%s\n", e->path, e->compared, agree,
		       e->frames_bad, e->diffs, e->nignore ? "; ignored:" : "");
		for (unsigned i = 0; i < e->nignore; i++)
			fprintf(e->out, "%s %s", i ? "," : "", e->ignore[i]);
		if (e->nignore)
			fprintf(e->out, "\n");
		if (agree) {
			char comment[96];
			snprintf(comment, sizeof comment, "%" PRIu64 " frames agree", agree);
			struct test_result tr = { .file = strdup(e->path), .feature = strdup("replay"),
						  .tc_id = 0, .comment = strdup(comment),
						  .result = strdup("valid"), .outcome = TEST_PASS,
						  .seconds = seconds };
			report_add(&e->rep, &tr);
		}
		if (e->frames_bad > e->reported_frames)
			fprintf(e->out, "(%" PRIu64 " frames that disagree are counted, not in the reports)\n",
			       e->frames_bad - e->reported_frames);
		if (o->json && report_write_json(&e->rep, o->json)) {
			fprintf(stderr, "nicref replay: --json %s: cannot write\n", o->json);
			rc = 2;
		}
		if (o->junit && report_write_junit(&e->rep, o->junit)) {
			fprintf(stderr, "nicref replay: --junit %s: cannot write\n", o->junit);
			rc = 2;
		}
		(void)c;
		if (!rc)
			rc = e->bad ? 2 : e->diffs ? 1 : 0;
	}
	if (e->f)
		fclose(e->f);
	for (unsigned i = 0; i < e->nignore; i++)
		free(e->ignore[i]);
	report_free(&e->rep);
	free(e->line);
	free(e);
	return rc;
}
