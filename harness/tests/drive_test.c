/* `nicref drive`'s record reader and verdict (harness/drive_record.c) on records written here
 * as the front end writes them (docs/drivers.md, "Record"). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "drive.h"

static char path[64];

static void fresh(void)
{
	strcpy(path, "/tmp/nicref-drive-test-XXXXXX");
}

static void write_file(const char *text)
{
	fresh();
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static const char record[] =
	"start pci 0000:00:01.0 group 42\n"
	"cmd 0x104 0x0 0 0x0 0x0\n"
	"cmd 0x104 0x0 0 0x0 0x0\n"
	"cmd 0x200 0x0 0 0xf 0x938d5b32\n"
	"cmdfail 0x200 ICM_PAGES_SHORT\n"
	"vio model CMDQ_ADDR_LSW_BEFORE_MSW V|PRM §8.2|first one\n"
	"vio model CMDQ_ADDR_LSW_BEFORE_MSW V|PRM §8.2|second one\n"
	"vio model MAILBOX_NEXT_NOT_ZERO W|PRM §7.14.1.1 T98|a warning\n"
	"vio front BROKEN LINE without bars\n"
	"state 3 pages 9 pds 0 bar_accesses 10 dma 2 time_ns 5\n"
	"end\n";

Test(drive, record_counts_rules_and_commands)
{
	write_file(record);
	static struct drive_run run;
	memset(&run, 0, sizeof run);
	run.program = "prog";
	cr_assert_eq(drive_record_load(&run, path), 0);
	unlink(path);
	cr_expect(run.front_ok && run.front_done && run.have_state);
	cr_expect_eq(run.commands, 3);
	cr_expect_eq(run.ncmd, 2, "ENABLE_HCA OK twice is one row");
	cr_expect_eq(run.cmd[0].count, 2);
	cr_expect_eq(run.nrule, 3, "the malformed line is no rule");
	cr_expect_str_eq(run.rule[1].name, "CMDQ_ADDR_LSW_BEFORE_MSW");
	cr_expect_eq(run.rule[1].count, 2);
	cr_expect_str_eq(run.rule[1].first, "first one", "the first occurrence's context");
	cr_expect_eq(run.rule[2].kind, DRIVE_WARNING);
	cr_expect_eq(run.rule[0].kind, DRIVE_REFUSAL);
}

Test(drive, verdict_against_expectation)
{
	write_file(record);
	static struct drive_run run;
	memset(&run, 0, sizeof run);
	run.program = "prog";
	run.end = DRIVE_EXITED;
	cr_assert_eq(drive_record_load(&run, path), 0);
	unlink(path);
	FILE *out = fopen("/dev/null", "w");
	struct drive_expect none = { 0 };
	cr_expect_eq(drive_verdict(&run, &none, out, NULL), 1, "a violation without expectation");
	struct drive_expect e = { .given = 1, .n = 2 };
	strcpy(e.name[0], "CMDQ_ADDR_LSW_BEFORE_MSW");
	strcpy(e.name[1], "MAILBOX_NEXT_NOT_ZERO");
	cr_expect_eq(drive_verdict(&run, &e, out, NULL), 0, "exactly the expected set");
	e.n = 1;
	cr_expect_eq(drive_verdict(&run, &e, out, NULL), 1, "a warning not expected");
	e.n = 2;
	strcpy(e.name[1], "BAR_WIDE");
	cr_expect_eq(drive_verdict(&run, &e, out, NULL), 1, "an expected rule not reported");
	strcpy(e.name[1], "MAILBOX_NEXT_NOT_ZERO");
	run.end = DRIVE_SIGNALLED;
	run.code = 11;
	cr_expect_eq(drive_verdict(&run, &e, out, NULL), 1, "a crash fails whatever is expected");
	fclose(out);
}

Test(drive, expectation_file)
{
	write_file("# comment\n  BAR_WIDE  # trailing\n\nDMA_UNMAPPED\n");
	struct drive_expect e;
	char err[256];
	cr_assert_eq(drive_expect_load(&e, path, err, sizeof err), 0, "%s", err);
	unlink(path);
	cr_expect_eq(e.n, 2);
	cr_expect_str_eq(e.name[0], "BAR_WIDE");
	write_file("BAR_WIDE\nnot a rule\n");
	cr_expect_eq(drive_expect_load(&e, path, err, sizeof err), -1);
	cr_expect(strstr(err, ":2:") != NULL, "names the line: %s", err);
	unlink(path);
	cr_expect_eq(drive_expect_load(&e, "/nonexistent/x", err, sizeof err), -1);
}

/* The wire's records (docs/drivers.md, "Frames"): frames out and in, drops and discards are
 * counted apart, listed as they came, and the verdict prints the counts and the inject line. */
Test(drive, frames_counted_and_listed)
{
	write_file("start pci 0000:00:01.0 group 42\n"
		   "frame out 1 60 0x4823d6c7\n"
		   "frame out 1 60 0x3298a17d\n"
		   "inject 1 frames after command 46\n"
		   "frame in 1 60 0xdf0c6de7\n"
		   "frame rx_drop reason 4 num 1 len 60\n"
		   "frame tx_discard sqn 1 wqe 2 reason 3\n"
		   "state 4 pages 0 bar_accesses 10 dma 2 time_ns 5\n"
		   "end\n");
	static struct drive_run run;
	memset(&run, 0, sizeof run);
	run.program = "prog";
	cr_assert_eq(drive_record_load(&run, path), 0);
	unlink(path);
	cr_expect_eq(run.frames_out, 2);
	cr_expect_eq(run.frames_in, 1);
	cr_expect_eq(run.rx_drops, 1);
	cr_expect_eq(run.tx_discards, 1);
	cr_expect_eq(run.nframe, 5);
	cr_expect_str_eq(run.frame[2], "in 1 60 0xdf0c6de7");
	cr_expect_str_eq(run.inject, "1 frames after command 46");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct drive_expect ex;
	memset(&ex, 0, sizeof ex);
	struct report rep;
	report_init(&rep);
	drive_verdict(&run, &ex, out, &rep);
	report_free(&rep);
	fclose(out);
	cr_expect(strstr(buf, "frames: 2 out, 1 in, 1 receive drops, 1 send discards\n") != NULL, "%s", buf);
	cr_expect(strstr(buf, "  inject 1 frames after command 46\n") != NULL);
	cr_expect(strstr(buf, "  frame out 1 60 0x3298a17d\n") != NULL);
	free(buf);
}
