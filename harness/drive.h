/* `nicref drive`: a program run under the VFIO front end (libnicref_vfio.so, harness/vfio/),
 * and the verdict on what it did to the device (docs/drivers.md). The front end writes a
 * record file as the program runs (vfio/vfio_main.c); drive_record.c reads it back into a
 * struct drive_run, judges it against an expectation and prints the verdict. */
#ifndef NICREF_DRIVE_H
#define NICREF_DRIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"

#define DRIVE_MAX_OPS 256
#define DRIVE_MAX_RULES 128
#define DRIVE_CTX 512
#define DRIVE_MAX_FRAMES 32

/* A command outcome: opcode, return status and delivery status, and how often. */
struct drive_cmd {
	unsigned opcode, status, delivery;
	unsigned long count;
};

/* A rule broken: a driver violation of the model (NICREF_VIOLATIONS), a front-end rule
 * (vfio_rules.h), or a command rule that refused a command (NICREF_CMD_RULES). */
enum drive_rule_kind { DRIVE_VIOLATION, DRIVE_WARNING, DRIVE_REFUSAL };
struct drive_rule {
	char name[64];
	char source[8]; /* "model" or "front"; "cmd" for a refusal */
	enum drive_rule_kind kind;
	char clause[96];
	char first[DRIVE_CTX]; /* the first occurrence's context */
	unsigned long count;
};

/* How the program ended. */
enum drive_end { DRIVE_EXITED, DRIVE_SIGNALLED, DRIVE_HUNG, DRIVE_TIMEOUT, DRIVE_NO_EXEC };

struct drive_run {
	const char *program;
	enum drive_end end;
	int code;                   /* exit status, or signal number */
	char crash[DRIVE_CTX];      /* the front end's crash or hang line, if any */
	int front_ok;               /* the front end started (a "start" record) */
	int front_done;             /* and ended (the "end" record): the exit checks ran */
	char setup_error[DRIVE_CTX]; /* the front end refused to start (a bad profile) */
	struct drive_cmd cmd[DRIVE_MAX_OPS];
	size_t ncmd;
	unsigned long commands;
	struct drive_rule rule[DRIVE_MAX_RULES];
	size_t nrule;
	int have_state;
	char state[DRIVE_CTX]; /* the "state" record as it came */
	unsigned long records;
	/* The wire (docs/drivers.md, "Frames"): frames out and in, receive drops and send
	 * discards, and the first DRIVE_MAX_FRAMES of their record lines as they came. */
	unsigned long frames_out, frames_in, rx_drops, tx_discards;
	char frame[DRIVE_MAX_FRAMES][96];
	size_t nframe;
	char inject[DRIVE_CTX]; /* the front end's inject line, if any */
};

/* The expectation (--expect FILE): the exact set of violation and warning rules the run must
 * report. One rule name a line; '#' starts a comment. */
#define DRIVE_MAX_EXPECT 64
struct drive_expect {
	char name[DRIVE_MAX_EXPECT][64];
	size_t n;
	int given;
};

/* The command's usage text and handler (harness/drive.c), for main.c's table. */
struct cli_call;
extern const char drive_usage[];
int cmd_drive(const struct cli_call *call, int argc, char **argv);

/* 0, or -1 with a message naming the file and line in err. */
int drive_expect_load(struct drive_expect *e, const char *path, char *err, size_t len);

/* Reads the record file into run (whose end and code the caller set). 0, or -1 if the file
 * cannot be read. */
int drive_record_load(struct drive_run *run, const char *path);

/* The verdict: 0 the run matches the expectation (or, without one, no violation of a
 * "must" and the program exited 0), 1 otherwise. Prints the report to out and fills rep
 * (one test per rule and one for the program) for --json/--junit. */
int drive_verdict(const struct drive_run *run, const struct drive_expect *e, FILE *out,
		  struct report *rep);

#endif
