/* `nicref drive [options] -- PROGRAM ARGS`: PROGRAM runs with the VFIO front end preloaded
 * (libnicref_vfio.so beside the tool, or --shim / NICREF_VFIO_SO), a watchdog on real time,
 * and the record file the front end writes; then the verdict (drive_record.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "drive.h"
#include "vfio/vfio_profile.h"

#define HANG_STATUS 121  /* the front end's VFIO_EXIT_HANG (harness/vfio/vfio.h) */
#define SETUP_STATUS 120 /* VFIO_EXIT_SETUP */

const char drive_usage[] =
	"usage: nicref drive [--trace FILE] [--json FILE] [--junit FILE] [--expect FILE]\n"
	"                    [--profile NAME=VALUE[,NAME=VALUE...]]... [--pci NAME]\n"
	"                    [--shim FILE] [--timeout SECONDS] [--pcap FILE]\n"
	"                    [--inject PCAP@AFTER] -- PROGRAM [ARGS...]\n"
	"Runs PROGRAM, a user-space driver, with the VFIO front end preloaded: one PCI function\n"
	"(sysfs, /dev/vfio, config space, BAR0, DMA mappings, MSI-X eventfds) backed by libnicref in\n"
	"the program's process, on virtual time. Then prints the verdict: the commands the device\n"
	"executed by opcode and status, the driver's violations and warnings by rule and clause\n"
	"(counted, with the first occurrence's context), the commands refused, and the device's\n"
	"state at exit (docs/drivers.md).\n"
	"\n"
	"  --trace FILE      the model's canonical trace of the run\n"
	"  --json FILE       a JSON report (docs/schemas/report.schema.json)\n"
	"  --junit FILE      a JUnit XML report (docs/schemas/junit.xsd)\n"
	"  --expect FILE     the exact set of violation and warning rules the run must report,\n"
	"                    one rule name a line ('#' comments)\n"
	"  --profile S       device profile settings over the default (repeatable): cmdif_checksum,\n"
	"                    reserved_check, should_strict, page_wait, boot_pages, init_pages,\n"
	"                    msix_vectors, num_ports, init_delay_ns, health_period_ns\n"
	"  --pci NAME        the function's PCI name (default 0000:00:01.0)\n"
	"  --shim FILE       the front end (default: libnicref_vfio.so beside this tool, or\n"
	"                    $NICREF_VFIO_SO)\n"
	"  --timeout SECONDS real time before the program is killed (default 120)\n"
	"  --pcap FILE       the frames the device put on the wire, as a pcap file\n"
	"  --inject PCAP@AFTER  receive the frames of PCAP on port 1 once AFTER commands have\n"
	"                    completed (a count N) or once a command of opcode AFTER (0xNNN) has,\n"
	"                    at the program's next BAR0 access, clock query, sleep or poll\n"
	"  -h, --help        print this usage and exit\n"
	"\n"
	"Exit status: 0 the run matches --expect, or without it no violation and the program\n"
	"exited 0; 1 otherwise (violations, a crash, a hang, a timeout, a non-zero exit); 2 bad\n"
	"usage, a bad profile or expectation, or a program that cannot be run.\n";

/* The front end: --shim, $NICREF_VFIO_SO, or libnicref_vfio.so in the tool's directory. */
static int find_shim(const char *given, char *out, size_t len)
{
	const char *env = getenv("NICREF_VFIO_SO");
	if (given || (env && *env)) {
		const char *p = given ? given : env;
		if (!realpath(p, out)) /* LD_PRELOAD wants a path the child finds from anywhere */
			return -1;
		return 0;
	}
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = 0;
	if ((size_t)snprintf(out, len, "%s/libnicref_vfio.so", self) >= len)
		return -1;
	return access(out, R_OK);
}

static int setenv_join(const char *name, const char *value)
{
	const char *old = getenv(name);
	if (!old || !*old)
		return setenv(name, value, 1);
	size_t n = strlen(value) + strlen(old) + 2;
	char *v = malloc(n);
	if (!v)
		return -1;
	snprintf(v, n, "%s:%s", value, old);
	int r = setenv(name, v, 1);
	free(v);
	return r;
}

/* Runs argv with the front end; fills run's end and code. */
static void run_program(char **argv, const char *shim, const char *record, const char *trace,
			const char *profile, const char *pci, unsigned timeout, const char *pcap,
			const char *inject, struct drive_run *run)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		run->end = DRIVE_NO_EXEC;
		return;
	}
	if (pid == 0) {
		setenv_join("LD_PRELOAD", shim);
		setenv("NICREF_VFIO_RECORD", record, 1);
		if (trace)
			setenv("NICREF_VFIO_TRACE", trace, 1);
		else
			unsetenv("NICREF_VFIO_TRACE");
		setenv("NICREF_VFIO_PROFILE", profile, 1);
		setenv("NICREF_VFIO_PCI", pci, 1);
		if (pcap)
			setenv("NICREF_VFIO_PCAP", pcap, 1);
		else
			unsetenv("NICREF_VFIO_PCAP");
		if (inject)
			setenv("NICREF_VFIO_INJECT", inject, 1);
		else
			unsetenv("NICREF_VFIO_INJECT");
		execvp(argv[0], argv);
		fprintf(stderr, "nicref drive: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* The watchdog is real time: the program's own time is virtual (D-VFIO-5). */
	struct timespec step = { 0, 10 * 1000 * 1000 };
	unsigned long ticks = 0, limit = (unsigned long)timeout * 100;
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			run->end = DRIVE_NO_EXEC;
			return;
		}
		if (++ticks > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			run->end = DRIVE_TIMEOUT;
			run->code = (int)timeout;
			return;
		}
		nanosleep(&step, NULL);
	}
	if (WIFSIGNALED(status)) {
		run->end = DRIVE_SIGNALLED;
		run->code = WTERMSIG(status);
	} else {
		run->end = DRIVE_EXITED;
		run->code = WEXITSTATUS(status);
	}
}

int cmd_drive(const struct cli_call *call, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "trace", required_argument, NULL, 't' },  { "json", required_argument, NULL, 'j' },
		{ "junit", required_argument, NULL, 'u' },  { "expect", required_argument, NULL, 'e' },
		{ "profile", required_argument, NULL, 'p' }, { "pci", required_argument, NULL, 'P' },
		{ "shim", required_argument, NULL, 's' },   { "timeout", required_argument, NULL, 'T' },
		{ "pcap", required_argument, NULL, 'c' },   { "inject", required_argument, NULL, 'i' },
		CLI_HELP_OPTION,                             { 0 }
	};
	const char *trace = NULL, *json = NULL, *junit = NULL, *expect = NULL, *shim_opt = NULL;
	const char *pcap = NULL, *inject = NULL;
	const char *pci = "0000:00:01.0";
	unsigned timeout = 120;
	char profile[1024] = "";
	int o;
	while ((o = cli_getopt(call, argc, argv, "+h", longopts, NULL)) != -1) {
		switch (o) {
		case 't': trace = optarg; break;
		case 'j': json = optarg; break;
		case 'u': junit = optarg; break;
		case 'e': expect = optarg; break;
		case 'P': pci = optarg; break;
		case 's': shim_opt = optarg; break;
		case 'c': pcap = optarg; break;
		case 'i': {
			/* the capture must exist and AFTER be there; the front end reads it */
			char path[PATH_MAX];
			const char *at = strrchr(optarg, '@');
			if (!at || at == optarg || !at[1] || (size_t)(at - optarg) >= sizeof path)
				return cli_usage_error(call, "--inject: '%s' is not PCAP@AFTER", optarg);
			memcpy(path, optarg, (size_t)(at - optarg));
			path[at - optarg] = 0;
			char *end;
			errno = 0;
			unsigned long v = strtoul(at + 1, &end, 0);
			if (errno || *end || v == 0 || v > 0xFFFFFFul)
				return cli_usage_error(call, "--inject: AFTER '%s' is not a command count "
							     "or an opcode 0xNNN", at + 1);
			if (access(path, R_OK))
				return cli_usage_error(call, "--inject: %s: %s", path, strerror(errno));
			inject = optarg;
			break;
		}
		case 'p': {
			size_t n = strlen(profile);
			if (n + strlen(optarg) + 2 > sizeof profile)
				return cli_usage_error(call, "--profile: too many settings");
			snprintf(profile + n, sizeof profile - n, "%s%s", n ? "," : "", optarg);
			break;
		}
		case 'T': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || v == 0 || v > 86400)
				return cli_usage_error(call, "--timeout: '%s' is not 1 to 86400 seconds", optarg);
			timeout = (unsigned)v;
			break;
		}
		default:
			return cli_getopt_exit(o);
		}
	}
	if (optind >= argc)
		return cli_usage_error(call, "no PROGRAM to run");
	char err[512];
	struct nicref_profile scratch;
	nicref_profile_default(&scratch);
	if (vfio_profile_apply(&scratch, profile, err, sizeof err))
		return cli_usage_error(call, "--profile: %s", err);
	if (strlen(pci) > 16)
		return cli_usage_error(call, "--pci: '%s' is not a PCI name", pci);
	struct drive_expect ex;
	memset(&ex, 0, sizeof ex);
	if (expect && drive_expect_load(&ex, expect, err, sizeof err)) {
		fprintf(stderr, "nicref drive: --expect %s\n", err);
		return CLI_BAD;
	}
	char shim[PATH_MAX];
	if (find_shim(shim_opt, shim, sizeof shim)) {
		fprintf(stderr, "nicref drive: no front end at %s (build it: make vfio; or give "
				"--shim)\n",
			shim_opt ? shim_opt : "libnicref_vfio.so beside the tool or $NICREF_VFIO_SO");
		return CLI_BAD;
	}
	char record[] = "/tmp/nicref-drive-XXXXXX";
	int rfd = mkstemp(record);
	if (rfd < 0) {
		fprintf(stderr, "nicref drive: cannot make a record file: %s\n", strerror(errno));
		return CLI_BAD;
	}
	close(rfd);
	if (trace) {
		FILE *t = fopen(trace, "w");
		if (!t) {
			fprintf(stderr, "nicref drive: --trace %s: %s\n", trace, strerror(errno));
			unlink(record);
			return CLI_BAD;
		}
		fclose(t);
	}
	static struct drive_run run;
	memset(&run, 0, sizeof run);
	run.program = argv[optind];
	if (pcap) {
		FILE *t = fopen(pcap, "w");
		if (!t) {
			fprintf(stderr, "nicref drive: --pcap %s: %s\n", pcap, strerror(errno));
			unlink(record);
			return CLI_BAD;
		}
		fclose(t);
	}
	run_program(argv + optind, shim, record, trace, profile, pci, timeout, pcap, inject, &run);
	drive_record_load(&run, record);
	unlink(record);
	if (run.end == DRIVE_EXITED && run.code == HANG_STATUS && run.crash[0] &&
	    strncmp(run.crash, "hang", 4) == 0)
		run.end = DRIVE_HUNG;
	if (run.end == DRIVE_EXITED && run.code == 127 && !run.front_ok)
		run.end = DRIVE_NO_EXEC;
	if (run.end == DRIVE_NO_EXEC || (run.code == SETUP_STATUS && run.setup_error[0])) {
		fprintf(stderr, "nicref drive: %s could not be run%s%s\n", run.program,
			run.setup_error[0] ? ": " : "", run.setup_error);
		return CLI_BAD;
	}
	struct report rep;
	report_init(&rep);
	int bad = drive_verdict(&run, &ex, stdout, &rep);
	int rc = bad ? CLI_DISAGREE : CLI_OK;
	if (json && report_write_json(&rep, json)) {
		fprintf(stderr, "nicref drive: cannot write %s\n", json);
		rc = CLI_BAD;
	}
	if (junit && report_write_junit(&rep, junit)) {
		fprintf(stderr, "nicref drive: cannot write %s\n", junit);
		rc = CLI_BAD;
	}
	report_free(&rep);
	return rc;
}
