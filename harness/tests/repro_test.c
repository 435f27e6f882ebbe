/* `nicref repro`'s record reader and draft vector (harness/repro_vec.c) on hand-made records:
 * where the vector starts, contiguous host writes joined, a reset the vector cannot express,
 * and the model's responses written as expectations. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repro_int.h"

static char path[64];

static const char *record(const char *text)
{
	snprintf(path, sizeof path, "/tmp/nicref-repro-test-%d.record", (int)getpid());
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static char *slurp(const char *p)
{
	FILE *f = fopen(p, "r");
	cr_assert(f, "%s", p);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

Test(repro, starts_at_the_last_reset_and_clear)
{
	struct repro_rec r;
	char err[256];
	cr_assert_eq(repro_rec_load(record("C\nW 10 0\nR\nK\nr 4\nT 5\n"), &r, err, sizeof err),
		     0, "%s", err);
	cr_expect_eq(r.first_line, 4);
	cr_assert_eq(r.n, 2);
	cr_expect_eq(r.s[0].kind, 'r');
	cr_expect_eq(r.s[0].a, 4);
	cr_expect_eq(r.s[1].kind, 'T');
	cr_expect_eq(r.s[1].a, 5);
	repro_rec_free(&r);
}

Test(repro, contiguous_host_writes_are_one_step)
{
	struct repro_rec r;
	char err[256];
	cr_assert_eq(repro_rec_load(record("C\nM 1000 aabb\nM 1002 cc\nM 2000 dd\nW 18 1\n"), &r,
				    err, sizeof err), 0, "%s", err);
	cr_assert_eq(r.n, 3);
	cr_expect_eq(r.s[0].a, 0x1000);
	cr_assert_eq(r.s[0].len, 3);
	cr_expect_eq(r.s[0].buf[2], 0xcc);
	cr_expect_eq(r.s[1].a, 0x2000);
	cr_expect_eq(r.s[2].kind, 'W');
	repro_rec_free(&r);
}

Test(repro, a_reset_alone_is_refused_naming_its_line)
{
	struct repro_rec r;
	char err[256];
	cr_expect_eq(repro_rec_load(record("C\nW 10 0\nR\nW 14 0\n"), &r, err, sizeof err), -1);
	cr_expect(strstr(err, ":3: a device reset"), "%s", err);
	cr_expect_eq(repro_rec_load(record("C\nQ 1\n"), &r, err, sizeof err), -1);
	cr_expect(strstr(err, ":2: not a stimulus line"), "%s", err);
	cr_expect_eq(repro_rec_load(record("W 10 0\n"), &r, err, sizeof err), -1);
	cr_expect(strstr(err, "before the device was created"), "%s", err);
}

Test(repro, the_models_responses_are_the_expectations)
{
	/* Two reads of the init segment: fw_rev (00h) and the command interface revision (04h),
	 * then a time step. The BAR reads expect what the model returns; the last stimulus wrote
	 * nothing, so there is no mem_expect. */
	struct repro_rec r;
	char err[256], json[96];
	cr_assert_eq(repro_rec_load(record("C\nr 0\nr 4\nT 1000\n"), &r, err, sizeof err), 0);
	snprintf(json, sizeof json, "%s.json", path);
	struct repro_meta meta = { "t", "in", "property X broken at f.c:1: y", NULL };
	struct repro_written w;
	cr_assert_eq(repro_vec_write(&r, r.n, &meta, json, NULL, &w, err, sizeof err), 0, "%s",
		     err);
	cr_expect_eq(w.steps, 3);
	cr_expect_eq(w.stimuli, 3);
	cr_expect_eq(w.stim_of_step[2], 2);
	char *v = slurp(json);
	cr_expect(strstr(v, "{\"bar_read\":{\"offset\":\"0x4\",\"expect\":\"0x"), "%s", v);
	cr_expect(strstr(v, "{\"advance_ns\":1000}"));
	cr_expect(strstr(v, "\"flags\": [\"DRAFT\"]"));
	cr_expect(strstr(v, "\"result\": \"valid\""));
	cr_expect(!strstr(v, "mem_expect"));
	/* keep 1: the vector stops after the first stimulus */
	free(w.stim_of_step);
	cr_assert_eq(repro_vec_write(&r, 1, &meta, json, NULL, &w, err, sizeof err), 0);
	cr_expect_eq(w.steps, 1);
	free(w.stim_of_step);
	remove(json);
	remove(path);
	repro_rec_free(&r);
}
