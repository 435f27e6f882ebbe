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
