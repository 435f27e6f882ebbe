/* The guard around the calls into a DUT (dut_diff_guard, docs/dut.md "A DUT that crashes or
 * hangs"). A DUT runs in nicref's process: a crash in it would kill nicref with no word of
 * which test, step or stimulus, and with the lines still in stdout's buffer lost; a DUT that
 * never returns would hang it. So, while a call into the DUT is running (dut_guard_enter/
 * leave around every one, dut_diff_int.h):
 *   - a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) is the DUT's: reported, exit 1;
 *   - a watchdog (a periodic SIGALRM, a quarter of the limit) sees the same call still running
 *     for the limit: reported as a hang, exit 1.
 * Outside a DUT call the fatal signals go to whatever handled them before (ASan's handler,
 * the default action), so a crash of nicref or of the model is what it always was.
 *
 * The report. First one line written with write(2) only (async-signal-safe: it cannot fail
 * whatever state the DUT left the process in): the DUT, the signal or the time, the stimulus.
 * Then the program's own report of the device's divergence (its handler: nicref vectors'
 * FAIL line naming the file, tcId and step), which uses stdio and may allocate: best effort,
 * a DUT that died inside malloc could deadlock it, so the watchdog, if armed, ends a report
 * that does not finish within two ticks. stdout and stderr are flushed (only when their lock
 * is free) so the PASS/FAIL lines printed before survive, and the process exits 1. */
#define _GNU_SOURCE /* SA_NODEFER is POSIX, but glibc hides it behind XOPEN */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "dut_diff.h"
#include "dut_diff_int.h"

static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NFATAL (sizeof fatal_sigs / sizeof fatal_sigs[0])
static struct sigaction old_action[NFATAL];
static bool installed;
static unsigned limit_ms, tick_ms;
static volatile sig_atomic_t reporting;
static volatile unsigned long seen_calls;
static volatile unsigned ticks;
/* An alternate stack, so that a DUT that overflows its stack is reported too. */
static char alt_stack[1 << 16];

/* ---- async-signal-safe text ---- */

struct abuf {
	char b[1024];
	size_t n;
};

static void put(struct abuf *a, const char *s)
{
	while (*s && a->n < sizeof a->b - 1)
		a->b[a->n++] = *s++;
}

static void put_u(struct abuf *a, unsigned long long v)
{
	char t[24];
	int i = 0;
	do
		t[i++] = (char)('0' + v % 10);
	while ((v /= 10) && i < (int)sizeof t);
	while (i > 0 && a->n < sizeof a->b - 1)
		a->b[a->n++] = t[--i];
}

static void put_hex(struct abuf *a, unsigned long long v)
{
	char t[17];
	int i = 0;
	do
		t[i++] = "0123456789abcdef"[v & 15];
	while ((v >>= 4) && i < (int)sizeof t);
	put(a, "0x");
	while (i > 0 && a->n < sizeof a->b - 1)
		a->b[a->n++] = t[--i];
}

static void emit(struct abuf *a)
{
	a->b[a->n++] = '\n';
	for (size_t off = 0; off < a->n;) {
		ssize_t w = write(2, a->b + off, a->n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	default: return "a signal";
	}
}

static void flush_quietly(FILE *f)
{
	if (ftrylockfile(f) == 0) {
		fflush(f);
		funlockfile(f);
	}
}

/* `what` completes "the DUT ... " ("crashed (signal 11, SIGSEGV)"). Does not return. */
static void report(struct dut_pair *p, const char *what)
{
	ticks = 0;
	reporting = 1;
	flush_quietly(stdout);
	static const char *const names[] = {
#define STIM_NAME(id, name) name,
		DUT_STIMULI(STIM_NAME)
#undef STIM_NAME
	};
	const struct dut_stim *s = &p->stim;
	struct abuf a = { .n = 0 };
	put(&a, "nicref: the DUT ");
	put(&a, dut_diff_name());
	put(&a, " (");
	put(&a, dut_diff_path());
	put(&a, ") ");
	put(&a, what);
	put(&a, " in ");
	put(&a, names[s->kind]);
	if (s->kind == STIM_BAR_WRITE || s->kind == STIM_BAR_READ || s->kind == STIM_ADVANCE) {
		put(&a, "(");
		put_hex(&a, s->a);
		if (s->kind == STIM_BAR_WRITE) {
			put(&a, ", ");
			put_hex(&a, s->b);
		}
		put(&a, ")");
	} else if (s->kind == STIM_FRAME_IN) {
		put(&a, "(port ");
		put_u(&a, s->a);
		put(&a, ", ");
		put_u(&a, s->b);
		put(&a, " bytes)");
	}
	put(&a, ", stimulus ");
	put_u(&a, p->nstim);
	put(&a, " since the device's create or reset; nicref stops (exit 1)");
	emit(&a);
	/* The program's report, with the test and step (best effort, see above). */
	char text[200];
	snprintf(text, sizeof text, "the DUT %s inside the call, nicref stops here", what);
	dut_diverged_fatal(p, text);
	flush_quietly(stdout);
	flush_quietly(stderr);
	_exit(1);
}

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	struct dut_pair *p = dut_guard_pair;
	/* A signal another process sent (kill -SEGV) is not the DUT's doing. */
	bool sent_from_outside = si->si_code == SI_USER && si->si_pid != getpid();
	if (p && !reporting && !sent_from_outside) {
		struct abuf w = { .n = 0 };
		put(&w, "crashed (signal ");
		put_u(&w, (unsigned)sig);
		put(&w, ", ");
		put(&w, sig_name(sig));
		put(&w, ")");
		w.b[w.n] = 0;
		report(p, w.b);
	}
	if (reporting) {
		/* The report itself crashed: the first line is out; stop. */
		struct abuf w = { .n = 0 };
		put(&w, "nicref: a second fatal signal while reporting the DUT's; exit 1");
		emit(&w);
		_exit(1);
	}
	/* Not the DUT's: to whoever had it before. A fault the kernel raised (si_code > 0)
	 * happens again when this handler returns, now to the old action; a sent one (abort,
	 * kill) is sent again. */
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_sigs[i] == sig)
			sigaction(sig, &old_action[i], NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static void on_alarm(int sig)
{
	(void)sig;
	if (reporting) {
		if (++ticks >= 2) {
			struct abuf w = { .n = 0 };
			put(&w, "nicref: the report of the DUT's failure did not finish (a DUT that "
				"died holding a lock?); exit 1");
			emit(&w);
			_exit(1);
		}
		return;
	}
	struct dut_pair *p = dut_guard_pair;
	unsigned long calls = dut_guard_calls;
	if (!p || calls != seen_calls) {
		/* No call, or one that started since the last tick. */
		seen_calls = calls;
		ticks = 0;
		return;
	}
	/* The same call at ticks + 1 ticks in a row: it has run at least ticks * tick_ms. */
	if ((unsigned long)++ticks * tick_ms < limit_ms)
		return;
	struct abuf w = { .n = 0 };
	put(&w, "hung: did not return within ");
	put_u(&w, limit_ms);
	put(&w, " ms (--dut-timeout)");
	w.b[w.n] = 0;
	ticks = 0;
	report(p, w.b);
}

int dut_diff_guard(unsigned timeout_ms)
{
	if (!installed) {
		stack_t ss, cur;
		if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
			ss = (stack_t){ .ss_sp = alt_stack, .ss_size = sizeof alt_stack };
			if (sigaltstack(&ss, NULL) != 0)
				return -1;
		}
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sigemptyset(&sa.sa_mask);
		/* NODEFER: a fault inside the report reaches on_fatal again, which stops. */
		sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
		sa.sa_sigaction = on_fatal;
		for (size_t i = 0; i < NFATAL; i++)
			if (sigaction(fatal_sigs[i], &sa, &old_action[i]) != 0)
				return -1;
		installed = true;
	}
	limit_ms = timeout_ms;
	struct itimerval it = { { 0, 0 }, { 0, 0 } };
	if (timeout_ms) {
		tick_ms = timeout_ms / 4;
		tick_ms = tick_ms < 10 ? 10 : tick_ms > 1000 ? 1000 : tick_ms;
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sigemptyset(&sa.sa_mask);
		/* NODEFER: a tick can end a report that hangs inside the tick's own handler. */
		sa.sa_flags = SA_RESTART | SA_NODEFER;
		sa.sa_handler = on_alarm;
		if (sigaction(SIGALRM, &sa, NULL) != 0)
			return -1;
		it.it_interval.tv_sec = tick_ms / 1000;
		it.it_interval.tv_usec = (suseconds_t)(tick_ms % 1000) * 1000;
		it.it_value = it.it_interval;
	}
	return setitimer(ITIMER_REAL, &it, NULL);
}

int dut_diff_timeout_arg(const char *s, unsigned *ms)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v >= 0) || v > 86400)
		return -1;
	*ms = (unsigned)(v * 1000 + 0.5);
	if (v > 0 && *ms == 0)
		*ms = 1;
	return 0;
}
