/* Replays inputs through a fuzz target without a fuzzing engine (the idea of Wireshark's and
 * curl-fuzzer's standalone runners), so a gcc build can run a corpus as a regression test:
 *
 *   build/replay/cmdq_fuzz corpora/cmdq/ crash-1234
 *
 * Each file argument is one input; a directory argument replays every file below it, in name
 * order, so runs are repeatable. A finding stops the process as it would under libFuzzer (the
 * target prints what broke and traps, the sanitizers report) and names the input. An input
 * that runs longer than NICREF_REPLAY_TIMEOUT
 * seconds (default 25) stops the replay with its name: without that, a hang would stall the
 * whole replay with no trace of which input is at fault. Exit status: 0, or 1 when a file or
 * directory could not be read. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_target.h"

static unsigned long replayed;
static int read_errors;

/* The input being run, for the timeout and finding messages (a signal handler may only
 * write(2)); before the first one, the target's initialization. */
static char current[4096] = "(the target's initialization)";
static size_t current_len = sizeof "(the target's initialization)" - 1;

static void on_timeout(int sig)
{
	static const char msg[] = "standalone_main: timeout on input ";
	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)!write(STDERR_FILENO, current, current_len);
	(void)!write(STDERR_FILENO, "\n", 1);
	_exit(70); /* libFuzzer's exit code for a timeout */
}

/* A finding traps (SIGILL) or aborts (SIGABRT): name the input, then let the signal take its
 * default course (SA_RESETHAND: the trap runs again, abort raises again), so the exit status is
 * the one the finding gives without this handler. */
static void on_finding(int sig)
{
	static const char msg[] = "standalone_main: finding on input ";
	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)!write(STDERR_FILENO, current, current_len);
	(void)!write(STDERR_FILENO, "\n", 1);
}

static unsigned timeout_seconds(void)
{
	const char *s = getenv("NICREF_REPLAY_TIMEOUT");
	if (!s || !*s)
		return 25;
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	return *end == '\0' && v <= 3600 ? (unsigned)v : 25;
}

static int read_file(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	int failed = !buf || ferror(f);
	fclose(f);
	if (failed) {
		free(buf);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}

static void run_file(const char *path, unsigned timeout)
{
	uint8_t *data;
	size_t len;

	if (read_file(path, &data, &len) != 0) {
		fprintf(stderr, "standalone_main: cannot read %s: %s\n", path, strerror(errno));
		read_errors++;
		return;
	}
	/* An exact-size copy, so ASan sees a read one byte past the input as libFuzzer would. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		fprintf(stderr, "standalone_main: out of memory for %s\n", path);
		free(data);
		read_errors++;
		return;
	}
	memcpy(exact, data, len);
	free(data);

	current_len = strlen(path) < sizeof current ? strlen(path) : sizeof current;
	memcpy(current, path, current_len);
	alarm(timeout);
	(void)LLVMFuzzerTestOneInput(exact, len);
	alarm(0);
	free(exact);
	replayed++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path, unsigned timeout);

static void run_dir(const char *path, unsigned timeout)
{
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "standalone_main: cannot open %s: %s\n", path, strerror(errno));
		read_errors++;
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') /* ., .. and hidden files such as .gitkeep */
			continue;
		if (n == cap) {
			size_t c = cap ? cap * 2 : 64;
			char **bigger = realloc(names, c * sizeof *names);
			if (!bigger)
				break;
			names = bigger;
			cap = c;
		}
		size_t len = strlen(path) + 1 + strlen(e->d_name) + 1;
		names[n] = malloc(len);
		if (!names[n])
			break;
		snprintf(names[n], len, "%s/%s", path, e->d_name);
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		run_path(names[i], timeout);
		free(names[i]);
	}
	free(names);
}

static void run_path(const char *path, unsigned timeout)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		run_dir(path, timeout);
		return;
	}
	run_file(path, timeout);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_timeout;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_finding;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);

	unsigned timeout = timeout_seconds();
	(void)LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		/* libFuzzer-style flags (-runs=..., -dict=...) are accepted and ignored, so the
		 * same command line works for both builds. */
		if (argv[i][0] == '-' && argv[i][1] != '\0')
			continue;
		run_path(argv[i], timeout);
	}
	printf("replayed %lu inputs\n", replayed);
	return read_errors ? 1 : 0;
}
