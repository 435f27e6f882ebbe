/* The record file of a driver run read back, judged and reported (harness/drive.h). The
 * record's lines are the front end's (harness/vfio/vfio_main.c; docs/drivers.md, "Record"). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "drive.h"
#include "nicref/nicref.h"

static char *dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static void chomp(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
}

int drive_expect_load(struct drive_expect *e, const char *path, char *err, size_t len)
{
	memset(e, 0, sizeof *e);
	e->given = 1;
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	char line[256];
	unsigned ln = 0;
	int rc = 0;
	while (fgets(line, sizeof line, f)) {
		ln++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		chomp(line);
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			continue;
		size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (n == 0 || s[n] || n >= sizeof e->name[0]) {
			snprintf(err, len, "%s:%u: '%s' is not a rule name (A-Z, 0-9, _)", path, ln, s);
			rc = -1;
			break;
		}
		if (e->n == DRIVE_MAX_EXPECT) {
			snprintf(err, len, "%s:%u: more than %d rules", path, ln, DRIVE_MAX_EXPECT);
			rc = -1;
			break;
		}
		memcpy(e->name[e->n++], s, n + 1);
	}
	fclose(f);
	return rc;
}

static struct drive_rule *rule_at(struct drive_run *run, const char *name, const char *source)
{
	for (size_t i = 0; i < run->nrule; i++)
		if (strcmp(run->rule[i].name, name) == 0)
			return &run->rule[i];
	if (run->nrule == DRIVE_MAX_RULES)
		return NULL;
	struct drive_rule *r = &run->rule[run->nrule++];
	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", name);
	snprintf(r->source, sizeof r->source, "%s", source);
	return r;
}

/* "vio SOURCE RULE C|clause|context" */
static void parse_vio(struct drive_run *run, char *p)
{
	char source[8], name[64];
	int used = 0;
	if (sscanf(p, "%7s %63s %n", source, name, &used) != 2)
		return;
	char *cls = p + used, *bar1 = strchr(cls, '|');
	char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
	if (!bar1 || !bar2)
		return;
	*bar1 = *bar2 = 0;
	struct drive_rule *r = rule_at(run, name, source);
	if (!r)
		return;
	if (r->count++ == 0) {
		r->kind = cls[0] == 'W' ? DRIVE_WARNING : DRIVE_VIOLATION;
		snprintf(r->clause, sizeof r->clause, "%s", bar1 + 1);
		snprintf(r->first, sizeof r->first, "%s", bar2 + 1);
	}
}

static void add_cmd(struct drive_run *run, unsigned op, unsigned status, unsigned delivery)
{
	run->commands++;
	for (size_t i = 0; i < run->ncmd; i++)
		if (run->cmd[i].opcode == op && run->cmd[i].status == status &&
		    run->cmd[i].delivery == delivery) {
			run->cmd[i].count++;
			return;
		}
	if (run->ncmd == DRIVE_MAX_OPS)
		return;
	run->cmd[run->ncmd++] = (struct drive_cmd){ op, status, delivery, 1 };
}

int drive_record_load(struct drive_run *run, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1200];
	while (fgets(line, sizeof line, f)) {
		chomp(line);
		run->records++;
		unsigned op, opmod, deliv, status, synd;
		char rule[64];
		if (strncmp(line, "start ", 6) == 0) {
			run->front_ok = 1;
		} else if (strcmp(line, "end") == 0) {
			run->front_done = 1;
		} else if (sscanf(line, "cmd %x %x %u %x %x", &op, &opmod, &deliv, &status, &synd) == 5) {
			add_cmd(run, op, status, deliv);
		} else if (sscanf(line, "cmdfail %x %63s", &op, rule) == 2) {
			struct drive_rule *r = rule_at(run, rule, "cmd");
			if (r && r->count++ == 0) {
				unsigned id = (unsigned)nicref_cmd_rule_find(rule);
				r->kind = DRIVE_REFUSAL;
				snprintf(r->clause, sizeof r->clause, "%s",
					 nicref_cmd_rule_citation(id) ? nicref_cmd_rule_citation(id) : "?");
				const char *opn = nicref_opcode_name(op);
				snprintf(r->first, sizeof r->first, "%s (0x%x)", opn ? opn : "?", op);
			}
		} else if (strncmp(line, "vio ", 4) == 0) {
			parse_vio(run, line + 4);
		} else if (strncmp(line, "model_bug ", 10) == 0) {
			/* not the driver's: reported as a rule of its own, which no expectation
			 * should list */
			struct drive_rule *r = rule_at(run, "MODEL_INVARIANT", "model");
			if (r && r->count++ == 0) {
				r->kind = DRIVE_VIOLATION;
				snprintf(r->clause, sizeof r->clause, "a model bug (nicref_dev_check)");
				snprintf(r->first, sizeof r->first, "%.500s", line + 10);
			}
		} else if (strncmp(line, "crash ", 6) == 0 || strncmp(line, "hang ", 5) == 0) {
			if (!run->crash[0])
				snprintf(run->crash, sizeof run->crash, "%.500s", line);
		} else if (strncmp(line, "error ", 6) == 0) {
			snprintf(run->setup_error, sizeof run->setup_error, "%.500s", line + 6);
		} else if (strncmp(line, "frame ", 6) == 0) {
			const char *k = line + 6;
			if (strncmp(k, "out ", 4) == 0)
				run->frames_out++;
			else if (strncmp(k, "in ", 3) == 0)
				run->frames_in++;
			else if (strncmp(k, "rx_drop ", 8) == 0)
				run->rx_drops++;
			else if (strncmp(k, "tx_discard ", 11) == 0)
				run->tx_discards++;
			if (run->nframe < DRIVE_MAX_FRAMES)
				snprintf(run->frame[run->nframe++], sizeof run->frame[0], "%.90s", k);
		} else if (strncmp(line, "inject ", 7) == 0) {
			snprintf(run->inject, sizeof run->inject, "%.500s", line + 7);
		} else if (strncmp(line, "state ", 6) == 0) {
			run->have_state = 1;
			snprintf(run->state, sizeof run->state, "%.500s", line + 6);
		}
	}
	fclose(f);
	return 0;
}

/* ---- the verdict ---- */

static int expected(const struct drive_expect *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->name[i], name) == 0)
			return 1;
	return 0;
}

static const struct drive_rule *reported(const struct drive_run *run, const char *name)
{
	for (size_t i = 0; i < run->nrule; i++)
		if (run->rule[i].kind != DRIVE_REFUSAL && strcmp(run->rule[i].name, name) == 0)
			return &run->rule[i];
	return NULL;
}

static const char *const hca_states[] = { "disabled", "enabled", "initialized", "torn down",
					  "panic" };

static void print_state(FILE *out, const char *s)
{
	int st = -1, n = 0;
	if (sscanf(s, "%d %n", &st, &n) != 1) {
		fprintf(out, "  %s\n", s);
		return;
	}
	fprintf(out, "  HCA %s;", st >= 0 && st < 5 ? hca_states[st] : "?");
	/* the rest is "name value" pairs; the nonzero ones are what the device still holds */
	const char *p = s + n;
	char key[32];
	unsigned long long v;
	int used, any = 0;
	while (sscanf(p, "%31s %llu %n", key, &v, &used) == 2) {
		p += used;
		if (strcmp(key, "bar_accesses") == 0 || strcmp(key, "dma") == 0 ||
		    strcmp(key, "time_ns") == 0) {
			fprintf(out, " %s %llu;", key, v);
			continue;
		}
		if (v) {
			fprintf(out, " %s %llu;", key, v);
			any = 1;
		}
	}
	fprintf(out, "%s\n", any ? "" : " nothing held");
}

static void program_line(const struct drive_run *run, char *buf, size_t len)
{
	switch (run->end) {
	case DRIVE_EXITED:
		snprintf(buf, len, "exited with status %d", run->code);
		break;
	case DRIVE_SIGNALLED:
		snprintf(buf, len, "killed by signal %d (%s)", run->code, strsignal(run->code));
		break;
	case DRIVE_HUNG:
		snprintf(buf, len, "hung: waited for an event nothing would raise");
		break;
	case DRIVE_TIMEOUT:
		snprintf(buf, len, "timed out (killed after %d s of real time)", run->code);
		break;
	case DRIVE_NO_EXEC:
		snprintf(buf, len, "could not be run");
		break;
	}
}

static void add_test(struct report *rep, const struct drive_run *run, long id, const char *comment,
		     const char *cite, const char *result, enum test_outcome oc, const char *failure,
		     const char *note)
{
	if (!rep)
		return;
	struct test_result t;
	memset(&t, 0, sizeof t);
	t.file = dupstr(run->program);
	t.feature = dupstr("drive");
	t.tc_id = id;
	t.comment = dupstr(comment);
	t.cite = dupstr(cite);
	t.result = dupstr(result);
	t.outcome = oc;
	t.failures = failure ? dupstr(failure) : NULL;
	t.notes = note ? dupstr(note) : NULL;
	report_add(rep, &t);
}

int drive_verdict(const struct drive_run *run, const struct drive_expect *e, FILE *out,
		  struct report *rep)
{
	int bad = 0;
	long id = 1;
	char prog[256], msg[1024];
	program_line(run, prog, sizeof prog);
	fprintf(out, "nicref drive: %s\n", run->program);
	fprintf(out, "program: %s\n", prog);
	if (run->crash[0])
		fprintf(out, "  front end: %s\n", run->crash);
	if (run->setup_error[0])
		fprintf(out, "  front end refused to start: %s\n", run->setup_error);
	int ran_ok = run->end == DRIVE_EXITED && run->code == 0 && run->front_done;
	if (!run->front_ok && run->end != DRIVE_NO_EXEC)
		fprintf(out, "  the program never opened /dev/vfio/vfio (or is statically linked: the "
			     "front end is preloaded)\n");
	if (!ran_ok)
		bad = 1;
	snprintf(msg, sizeof msg, "the program %s%s", prog,
		 run->front_done || !run->front_ok ? "" : "; the front end's exit checks never ran");
	add_test(rep, run, id++, "the program runs to its end and exits 0", "docs/drivers.md",
		 "valid", ran_ok ? TEST_PASS : TEST_FAIL, ran_ok ? NULL : msg, NULL);

	fprintf(out, "commands: %lu executed\n", run->commands);
	for (size_t i = 0; i < run->ncmd; i++) {
		const struct drive_cmd *c = &run->cmd[i];
		const char *on = nicref_opcode_name(c->opcode), *sn = nicref_cmd_status_name(c->status);
		fprintf(out, "  0x%03x %-28s %s", c->opcode, on ? on : "?", sn ? sn : "?");
		if (c->delivery)
			fprintf(out, " (delivery %s)", nicref_delivery_status_name(c->delivery)
							  ? nicref_delivery_status_name(c->delivery)
							  : "?");
		fprintf(out, " x%lu\n", c->count);
	}
	static const char *const heads[] = { "violations", "warnings", "commands refused" };
	for (int k = 0; k < 3; k++) {
		unsigned long rules = 0, occ = 0;
		for (size_t i = 0; i < run->nrule; i++)
			if ((int)run->rule[i].kind == k)
				rules++, occ += run->rule[i].count;
		fprintf(out, "%s: %lu rule%s, %lu occurrence%s\n", heads[k], rules, rules == 1 ? "" : "s",
			occ, occ == 1 ? "" : "s");
		for (size_t i = 0; i < run->nrule; i++) {
			const struct drive_rule *r = &run->rule[i];
			if ((int)r->kind != k)
				continue;
			int allowed = k == DRIVE_REFUSAL || (e->given ? expected(e, r->name) : k == DRIVE_WARNING);
			fprintf(out, "  %-28s x%-4lu %s [%s]%s\n    first: %s\n", r->name, r->count, r->clause,
				r->source, allowed ? "" : "  <- not expected", r->first);
			if (k == DRIVE_REFUSAL)
				continue;
			if (!allowed)
				bad = 1;
			snprintf(msg, sizeof msg, "%s %s reported %lu time%s, not in the expectation; first: %s",
				 k == DRIVE_VIOLATION ? "violation" : "warning", r->name, r->count,
				 r->count == 1 ? "" : "s", r->first);
			char comment[160];
			snprintf(comment, sizeof comment, "%s %s", k == DRIVE_VIOLATION ? "violation" : "warning",
				 r->name);
			add_test(rep, run, id++, comment, r->clause, "invalid", allowed ? TEST_PASS : TEST_FAIL,
				 allowed ? NULL : msg, allowed ? r->first : NULL);
		}
	}
	for (size_t i = 0; e->given && i < e->n; i++) {
		if (reported(run, e->name[i]))
			continue;
		bad = 1;
		fprintf(out, "expected but not reported: %s\n", e->name[i]);
		snprintf(msg, sizeof msg, "%s is in the expectation but the run did not report it",
			 e->name[i]);
		add_test(rep, run, id++, e->name[i], "the expectation file", "invalid", TEST_FAIL, msg,
			 NULL);
	}
	fprintf(out, "frames: %lu out, %lu in, %lu receive drops, %lu send discards\n",
		run->frames_out, run->frames_in, run->rx_drops, run->tx_discards);
	if (run->inject[0])
		fprintf(out, "  inject %s\n", run->inject);
	for (size_t i = 0; i < run->nframe; i++)
		fprintf(out, "  frame %s\n", run->frame[i]);
	if (run->frames_out + run->frames_in + run->rx_drops + run->tx_discards > run->nframe)
		fprintf(out, "  (the first %zu listed)\n", run->nframe);
	fprintf(out, "state at exit:\n");
	if (run->have_state)
		print_state(out, run->state);
	else
		fprintf(out, "  unknown (the front end's exit checks did not run)\n");
	fprintf(out, "verdict: %s\n", bad ? (e->given ? "DIFFERS from the expectation" : "VIOLATIONS or a failed run")
					 : (e->given ? "matches the expectation" : "clean"));
	return bad;
}
