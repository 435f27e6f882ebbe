/* The canonical trace (reference/core/trace.c): names generated from NICREF_EVENT_KINDS and
 * NICREF_VIOLATIONS, and the text form of trace.h, which is part of the contract:
 * "<time_ns> <name> k=v ...", values in lower-case hex with 0x, rules by name. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nicref/nicref.h"

/* The table as trace.h declares it, expanded here independently of the library. */
struct kind_row {
	enum nicref_event_kind kind;
	const char *name;
	const char *args[NICREF_EVENT_MAX_ARGS + 1];
};
#define KIND_ROW(id, nm, ...) { NICREF_EV_##id, nm, { __VA_ARGS__ } },
#define KIND_ROW_PAD(id, ...) KIND_ROW(id, __VA_ARGS__, NULL)
static const struct kind_row kinds[] = { NICREF_EVENT_KINDS(KIND_ROW_PAD) };
#undef KIND_ROW_PAD
#undef KIND_ROW

static unsigned row_nargs(const struct kind_row *r)
{
	unsigned n = 0;
	while (n < NICREF_EVENT_MAX_ARGS && r->args[n])
		n++;
	return n;
}

Test(trace_names, kinds_from_the_table)
{
	cr_assert_eq(sizeof kinds / sizeof kinds[0], (size_t)NICREF_EV_COUNT);
	for (size_t i = 0; i < NICREF_EV_COUNT; i++) {
		const struct kind_row *r = &kinds[i];
		cr_assert_str_eq(nicref_event_name(r->kind), r->name);
		cr_assert_eq(nicref_event_kind_find(r->name), (int)r->kind, "%s", r->name);
		cr_assert_eq(nicref_event_nargs(r->kind), row_nargs(r), "%s: %u args, expected %u",
			     r->name, nicref_event_nargs(r->kind), row_nargs(r));
		for (unsigned a = 0; a < row_nargs(r); a++) {
			cr_assert_str_eq(nicref_event_arg_name(r->kind, a), r->args[a]);
			cr_assert_eq(nicref_event_arg_find(r->kind, r->args[a]), (int)a);
		}
		cr_assert_null(nicref_event_arg_name(r->kind, row_nargs(r)));
		cr_assert_eq(nicref_event_arg_find(r->kind, "no_such_arg"), -1);
		for (size_t j = i + 1; j < NICREF_EV_COUNT; j++)
			cr_assert_str_neq(r->name, kinds[j].name);
	}
}

Test(trace_names, spot_checks)
{
	cr_assert_str_eq(nicref_event_name(NICREF_EV_CMD_DONE), "cmd_done");
	cr_assert_str_eq(nicref_event_name(NICREF_EV_READY), "ready");
	cr_assert_str_eq(nicref_event_name(NICREF_EV_VIOLATION), "violation");
	cr_assert_eq(nicref_event_nargs(NICREF_EV_CMD_DONE), 6);
	cr_assert_eq(nicref_event_nargs(NICREF_EV_READY), 0);
	cr_assert_eq(nicref_event_nargs(NICREF_EV_VIOLATION), 2);
	cr_assert_eq(nicref_event_nargs(NICREF_EV_DMA_ERROR), 3);
	cr_assert_str_eq(nicref_event_arg_name(NICREF_EV_CMD_DONE, 0), "slot");
	cr_assert_str_eq(nicref_event_arg_name(NICREF_EV_CMD_DONE, 5), "syndrome");
	cr_assert_null(nicref_event_arg_name(NICREF_EV_CMD_DONE, 6));
	cr_assert_null(nicref_event_arg_name(NICREF_EV_READY, 0));
	cr_assert_eq(nicref_event_arg_find(NICREF_EV_CMD_DONE, "status"), 4);
	cr_assert_eq(nicref_event_arg_find(NICREF_EV_READY, "slot"), -1);
	cr_assert_eq(nicref_event_kind_find("cmd_done"), NICREF_EV_CMD_DONE);
	cr_assert_eq(nicref_event_kind_find("no_such_event"), -1);
	cr_assert_eq(nicref_event_kind_find(""), -1);
}

/* ---- Text form ------------------------------------------------------------------------------ */

static void expect_format(const struct nicref_event *ev, const char *want)
{
	char buf[256];
	memset(buf, 'X', sizeof buf);
	int n = nicref_event_format(ev, buf, sizeof buf);
	cr_assert_str_eq(buf, want);
	cr_assert_eq(n, (int)strlen(want), "returned %d for \"%s\"", n, want);
}

Test(trace_format, cmd_done)
{
	struct nicref_event ev = { 0 };
	ev.kind = NICREF_EV_CMD_DONE;
	ev.arg[1] = 0x80D;
	expect_format(&ev, "0 cmd_done slot=0x0 opcode=0x80d op_mod=0x0 delivery=0x0 status=0x0 "
			   "syndrome=0x0");
	ev.time_ns = 123456789;
	ev.seq = 77; /* not printed */
	ev.arg[0] = 31;
	ev.arg[3] = 0x10;
	ev.arg[4] = 0x51;
	ev.arg[5] = 0xDEADBEEF;
	expect_format(&ev, "123456789 cmd_done slot=0x1f opcode=0x80d op_mod=0x0 delivery=0x10 "
			   "status=0x51 syndrome=0xdeadbeef");
}

Test(trace_format, extremes)
{
	struct nicref_event ev = { 0 };
	ev.kind = NICREF_EV_DMA_ERROR;
	ev.time_ns = UINT64_MAX;
	ev.arg[0] = UINT64_MAX;
	ev.arg[1] = 0x240;
	ev.arg[2] = 1;
	expect_format(&ev, "18446744073709551615 dma_error addr=0xffffffffffffffff len=0x240 "
			   "write=0x1");
}

Test(trace_format, no_args)
{
	struct nicref_event ev = { 0 };
	ev.kind = NICREF_EV_READY;
	ev.time_ns = 1000;
	ev.arg[0] = 5; /* ignored: ready has no arguments */
	expect_format(&ev, "1000 ready");
}

Test(trace_format, rules_print_by_name)
{
	struct nicref_event ev = { 0 };
	ev.kind = NICREF_EV_VIOLATION;
	ev.time_ns = 42;
	ev.arg[0] = NICREF_VIO_DB_NO_CMDQ;
	ev.arg[1] = 0x1;
	expect_format(&ev, "42 violation rule=DB_NO_CMDQ arg=0x1");
	ev.arg[0] = NICREF_VIO_CMDQ_ADDR_LSW_BEFORE_MSW;
	ev.arg[1] = 0x10000;
	expect_format(&ev, "42 violation rule=CMDQ_ADDR_LSW_BEFORE_MSW arg=0x10000");

	struct nicref_event f = { 0 };
	f.kind = NICREF_EV_CMD_FAIL;
	f.arg[0] = 2;
	f.arg[1] = 0x999;
	f.arg[2] = NICREF_RULE_UNKNOWN_OPCODE;
	expect_format(&f, "0 cmd_fail slot=0x2 opcode=0x999 rule=UNKNOWN_OPCODE");

	struct nicref_event u = { 0 };
	u.kind = NICREF_EV_UNMODELLED;
	u.arg[1] = 0x400;
	expect_format(&u, "0 unmodelled slot=0x0 opcode=0x400");
}

/* snprintf semantics: the return value is the full length; the buffer holds a terminated
 * prefix. */
Test(trace_format, truncation)
{
	struct nicref_event ev = { 0 };
	ev.kind = NICREF_EV_CMD_DONE;
	ev.arg[1] = 0x80D;
	const char *full = "0 cmd_done slot=0x0 opcode=0x80d op_mod=0x0 delivery=0x0 status=0x0 "
			   "syndrome=0x0";
	char buf[24];
	memset(buf, 'X', sizeof buf);
	int n = nicref_event_format(&ev, buf, 10);
	cr_assert_eq(n, (int)strlen(full));
	cr_assert_str_eq(buf, "0 cmd_don");
	cr_assert_eq(buf[10], 'X', "wrote past the given length");
	memset(buf, 'X', sizeof buf);
	n = nicref_event_format(&ev, buf, 20); /* ends inside " slot=0x0" */
	cr_assert_eq(n, (int)strlen(full));
	cr_assert_str_eq(buf, "0 cmd_done slot=0x0");
	memset(buf, 'X', sizeof buf);
	n = nicref_event_format(&ev, buf, 22); /* ends inside " opcode=..." */
	cr_assert_eq(n, (int)strlen(full));
	cr_assert_str_eq(buf, "0 cmd_done slot=0x0 o");
	cr_assert_eq(buf[22], 'X');
	n = nicref_event_format(&ev, NULL, 0);
	cr_assert_eq(n, (int)strlen(full));
}

/* ---- Violations ---------------------------------------------------------------------------- */

struct vio_row {
	const char *name, *cite, *text;
};
#define VIO_ROW(id, cite, text) { #id, cite, text },
static const struct vio_row vios[] = { NICREF_VIOLATIONS(VIO_ROW) };
#undef VIO_ROW

Test(trace_violations, names_and_citations)
{
	cr_assert_eq(sizeof vios / sizeof vios[0], (size_t)NICREF_VIO_COUNT);
	for (unsigned i = 0; i < NICREF_VIO_COUNT; i++) {
		const char *name = nicref_violation_name(i);
		const char *cite = nicref_violation_citation(i);
		const char *text = nicref_violation_text(i);
		cr_assert_not_null(name);
		cr_assert_not_null(cite);
		cr_assert_not_null(text);
		cr_assert_str_eq(name, vios[i].name);
		cr_assert_str_eq(cite, vios[i].cite);
		cr_assert_str_eq(text, vios[i].text);
		cr_assert_neq(name[0], '\0');
		cr_assert_neq(cite[0], '\0', "%s has no citation", name);
		cr_assert_neq(text[0], '\0', "%s has no text", name);
		cr_assert_eq(nicref_violation_find(name), (int)i);
		for (unsigned j = i + 1; j < NICREF_VIO_COUNT; j++) {
			cr_assert_str_neq(name, nicref_violation_name(j));
			cr_assert_str_neq(text, nicref_violation_text(j), "%s and %s share a text",
					  name, nicref_violation_name(j));
		}
	}
	cr_assert_null(nicref_violation_name(NICREF_VIO_COUNT));
	cr_assert_null(nicref_violation_citation(NICREF_VIO_COUNT));
	cr_assert_null(nicref_violation_text(NICREF_VIO_COUNT));
	cr_assert_eq(nicref_violation_find("NO_SUCH_RULE"), -1);
	cr_assert_str_eq(nicref_violation_name(NICREF_VIO_DB_NOT_OWNED), "DB_NOT_OWNED");
	cr_assert_str_eq(nicref_violation_citation(NICREF_VIO_CMDQ_ADDR_LSW_BEFORE_MSW), "PRM §8.2");
}

/* A device's trace: seq counts from 0, stats.events follows it. */
static struct nicref_event seen[8];
static size_t nseen;
static void collect(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	if (nseen < 8)
		seen[nseen] = *ev;
	nseen++;
}

Test(trace_device, sequence_numbers)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.trace = collect;
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	nicref_bar_write32(dev, 0x0000, 1); /* BAR_RO_WRITE */
	nicref_clock_advance(dev, 7);
	nicref_bar_write32(dev, 0x0001, 1); /* BAR_UNALIGNED */
	nicref_bar_write32(dev, 0x0018, 1); /* DB_NO_CMDQ */
	cr_assert_eq(nseen, 3);
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(seen[i].seq, i);
		cr_assert_eq(seen[i].kind, NICREF_EV_VIOLATION);
	}
	cr_assert_eq(seen[0].time_ns, 0);
	cr_assert_eq(seen[1].time_ns, 7);
	cr_assert_eq(seen[0].arg[0], (uint64_t)NICREF_VIO_BAR_RO_WRITE);
	cr_assert_eq(seen[1].arg[0], (uint64_t)NICREF_VIO_BAR_UNALIGNED);
	cr_assert_eq(seen[2].arg[0], (uint64_t)NICREF_VIO_DB_NO_CMDQ);
	struct nicref_stats st;
	nicref_stats_get(dev, &st);
	cr_assert_eq(st.events, 3);
	cr_assert_eq(st.violations, 3);
	cr_assert_eq(nicref_dev_check(dev), 0);
	nicref_dev_destroy(dev);
}
