/* The invariants' table (nicref/invariants.h) and nicref_dev_check_explain: every number a check
 * returns has a name, and a deliberately broken state is named and described as it is. The
 * states are broken by hand through the private headers: no input can break an invariant (that
 * would be a model bug), so this is the only way to see one fail. */
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_mkey.h"
#include "testlib.h"

static const int codes[] = {
#define CODE(id, code, cite, what) code,
	NICREF_INVARIANTS(CODE)
#undef CODE
};
#define NCODES (sizeof codes / sizeof codes[0])

Test(invariant, table_rows_are_complete_and_unique)
{
	cr_assert_gt(NCODES, 60);
	for (size_t i = 0; i < NCODES; i++) {
		cr_expect_lt(codes[i], 0, "row %zu: invariants are negative", i);
		const char *name = nicref_invariant_name(codes[i]);
		cr_assert_not_null(name, "%d", codes[i]);
		cr_expect_gt(strlen(name), 3);
		cr_expect_gt(strlen(nicref_invariant_citation(codes[i])), 0, "%s", name);
		cr_expect_gt(strlen(nicref_invariant_description(codes[i])), 10, "%s", name);
		for (size_t j = 0; j < i; j++)
			cr_expect_neq(codes[i], codes[j], "%s twice", name);
	}
	cr_expect_str_eq(nicref_invariant_name(NICREF_INV_REFCOUNT_MATCHES), "REFCOUNT_MATCHES");
	cr_expect_str_eq(nicref_invariant_name(-157), "CQ_TIMER_IFF_PERIOD");
	cr_expect_null(nicref_invariant_name(0));
	cr_expect_null(nicref_invariant_name(-16));
	cr_expect_null(nicref_invariant_description(1));
	cr_expect_null(nicref_invariant_citation(-99));
}

static bool in_table(int code)
{
	for (size_t i = 0; i < NCODES; i++)
		if (codes[i] == code)
			return true;
	return false;
}

/* Each family's check returns its own literal numbers (`return -157;`): every one must have a
 * row, or a finding would print a bare number. Reads the sources from the repository root,
 * where `make unit` runs. */
Test(invariant, every_number_a_family_check_returns_has_a_row)
{
	regex_t fn, ret;
	cr_assert_eq(regcomp(&fn, "^(static )?int ([a-z_]*check[a-z_]*)\\(", REG_EXTENDED), 0);
	cr_assert_eq(regcomp(&ret, "return -([0-9]+);", REG_EXTENDED), 0);
	DIR *d = opendir("reference/obj");
	cr_assert_not_null(d, "run from the repository root");
	unsigned seen = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 2, ".c") != 0)
			continue;
		char path[512], line[512], func[128] = "";
		snprintf(path, sizeof path, "reference/obj/%s", e->d_name);
		FILE *f = fopen(path, "r");
		cr_assert_not_null(f, "%s", path);
		for (unsigned no = 1; fgets(line, sizeof line, f); no++) {
			regmatch_t m[3];
			if (regexec(&fn, line, 3, m, 0) == 0)
				snprintf(func, sizeof func, "%.*s", (int)(m[2].rm_eo - m[2].rm_so),
					 line + m[2].rm_so);
			else if (line[0] == '}')
				func[0] = '\0';
			if (func[0] && regexec(&ret, line, 2, m, 0) == 0) {
				int code = -atoi(line + m[1].rm_so);
				cr_expect(in_table(code), "%s:%u: %s returns %d, which has no row in "
					  "nicref/invariants.h", path, no, func, code);
				seen++;
			}
		}
		fclose(f);
	}
	closedir(d);
	regfree(&fn);
	regfree(&ret);
	cr_expect_gt(seen, 50, "the scan found the family checks");
}

/* A device initialized by the reference driver, with one PD and one MKey on it (the MKey
 * holds the PD: one reference, D-OBJ-1). */
struct fixture {
	struct tl_dev *t;
	struct nicref_dev *dev;
	uint32_t pd, mkey;
};

static void up(struct fixture *f)
{
	f->t = tl_up_to(NULL, REFDRV_INITIALIZED);
	f->dev = f->t->dev;
	int64_t pd = obj_alloc_plain(f->dev, OBJ_PD);
	cr_assert_geq(pd, 0);
	f->pd = (uint32_t)pd;
	struct refdrv_mkey_attr a = { .access_mode = 0, .pd = f->pd, .len = 4096 };
	cr_assert_eq(refdrv_create_mkey(&f->t->d, &a, &f->mkey), 0);
	cr_assert_eq(nicref_dev_check(f->dev), 0);
}

/* Each test puts back what it broke: the invariants hold again at the end. */
static void down(struct fixture *f)
{
	tl_down(f->t);
}

static struct obj_hdr *hdr(struct fixture *f, enum obj_type t, uint32_t h)
{
	struct obj_hdr *o = obj_get(f->dev, t, h);
	cr_assert_not_null(o);
	return o;
}

/* Both entry points agree on the number; the explanation is exactly `want`. */
static void expect_broken(struct fixture *f, int code, const char *want)
{
	char buf[256];
	cr_expect_eq(nicref_dev_check(f->dev), code);
	cr_expect_eq(nicref_dev_check_explain(f->dev, buf, sizeof buf), code);
	cr_expect_str_eq(buf, want);
}

Test(invariant, healthy_device_explains_nothing)
{
	struct fixture f;
	up(&f);
	char buf[64] = "stale";
	cr_expect_eq(nicref_dev_check_explain(f.dev, buf, sizeof buf), 0);
	cr_expect_str_eq(buf, "");
	down(&f);
}

Test(invariant, refcount_names_the_object_and_its_holders)
{
	struct fixture f;
	up(&f);
	hdr(&f, OBJ_PD, f.pd)->refs = 2; /* one MKey holds it */
	char want[128];
	snprintf(want, sizeof want,
		 "PD %u: refs 2, held by 1 (EQ 0, CQ 0, SQ/RQ/RMP 0, MKEY 1, TIR/RQT/TIS 0, FT/FG/FTE 0, QP 0)", f.pd);
	expect_broken(&f, NICREF_INV_REFCOUNT_MATCHES, want);
	hdr(&f, OBJ_PD, f.pd)->refs = 1;
	cr_expect_eq(nicref_dev_check(f.dev), 0);
	down(&f);
}

Test(invariant, dangling_reference_names_holder_and_target)
{
	struct fixture f;
	up(&f);
	struct mkey *m = obj_get(f.dev, OBJ_MKEY, f.mkey);
	cr_assert_not_null(m);
	uint32_t pd = m->pd;
	m->pd = 77;
	expect_broken(&f, NICREF_INV_REFERENCE_NAMES_LIVE,
		      "a reference held by MKEY names PD 77, not live");
	m->pd = pd;
	down(&f);
}

Test(invariant, device_level_invariants)
{
	struct fixture f;
	up(&f);
	uint64_t addr = f.dev->iseg.cmdq_addr;
	f.dev->iseg.cmdq_addr = addr | 0x800;
	char want[96];
	snprintf(want, sizeof want, "command queue address 0x%llx latched",
		 (unsigned long long)(addr | 0x800));
	expect_broken(&f, NICREF_INV_CMDQ_ADDR_ALIGNED, want);
	f.dev->iseg.cmdq_addr = addr;

	f.dev->obj_charged[OBJ_MKEY]++;
	expect_broken(&f, NICREF_INV_ICM_CHARGED, "MKEY: 2 contexts charged, 1 live");
	f.dev->obj_charged[OBJ_MKEY]--;

	f.dev->hca.state = HCA_TORN_DOWN;
	expect_broken(&f, NICREF_INV_OBJECTS_ONLY_INITIALIZED, "PD: 1 live, HCA TORN_DOWN");
	f.dev->hca.state = HCA_INITIALIZED;

	f.dev->core.stats.events++;
	char ev[96];
	snprintf(ev, sizeof ev, "%llu events counted, trace seq %llu",
		 (unsigned long long)f.dev->core.stats.events, (unsigned long long)f.dev->core.trace_seq);
	expect_broken(&f, NICREF_INV_EVENTS_COUNTED, ev);
	f.dev->core.stats.events--;
	cr_expect_eq(nicref_dev_check(f.dev), 0);
	down(&f);
}

Test(invariant, family_invariant_is_named_with_the_objects_it_walked)
{
	struct fixture f;
	up(&f);
	struct mkey *m = obj_get(f.dev, OBJ_MKEY, f.mkey);
	cr_assert_not_null(m);
	m->length64 = true; /* with len 4096: T10 says len is ignored, the model keeps it 0 */
	char want[64];
	snprintf(want, sizeof want, "MKEY: 1 live (%u)", f.mkey);
	expect_broken(&f, NICREF_INV_MKEY_LENGTH64, want);
	cr_expect_str_eq(nicref_invariant_name(nicref_dev_check(f.dev)), "MKEY_LENGTH64");
	m->length64 = false;
	down(&f);
}

Test(invariant, explanation_truncates_safely)
{
	struct fixture f;
	up(&f);
	hdr(&f, OBJ_PD, f.pd)->refs = 5;
	char buf[12];
	memset(buf, 'x', sizeof buf);
	cr_expect_eq(nicref_dev_check_explain(f.dev, buf, sizeof buf), NICREF_INV_REFCOUNT_MATCHES);
	cr_expect_eq(strlen(buf), sizeof buf - 1, "terminated within the buffer");
	cr_expect_eq(nicref_dev_check_explain(f.dev, NULL, 0), NICREF_INV_REFCOUNT_MATCHES);
	hdr(&f, OBJ_PD, f.pd)->refs = 1;
	down(&f);
}
