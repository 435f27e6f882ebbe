/* The per-rule view of the conformance matrix: which passing vectors name each rule of the
 * model's rule tables, and the one table of rules no vector can reach (with the reason). The
 * runner credits a test with a rule when an expectation that held named it (expect.rule, an
 * event's rule) or matched it by clause (harness/vectors_expect.c, vectors_events.c). */
#include <string.h>

#include "conformance.h"
#include "nicref/nicref.h"

/* Rules no vector can reach, and why: X(table, ID, "reason"), table RULE (NICREF_CMD_RULES),
 * VIO (NICREF_VIOLATIONS) or ROCE (NICREF_ROCE_DROPS). A rule belongs here only when no stimulus a vector can give makes
 * the device apply it, or when reaching it takes more steps than a vector file can hold (the
 * reason then names the unit test that reaches it); `nicref conformance --check-rules` (make
 * check) fails both for a rule with no passing vector that is not listed here and for a listed
 * rule a vector names. */
#define UNREACHABLE_RULES(X)                                                                    \
	X(RULE, OBJ_NO_MEMORY,                                                                  \
	  "a failed allocation of the model's own (calloc/malloc of an object's host-side "      \
	  "state); no command input makes the host run out of memory")                           \
	X(RULE, QP_EXHAUSTED,                                                                   \
	  "every QPN live: 4,094 CREATE_QP in one test under roce_profile seed004, 2^24 - 2 "   \
	  "under connectx; the vector language has no repeat step, so the unit test "           \
	  "qp_create::seed004_holds_4094_qps reaches it (docs/roce.md D-QP-3)")                 \
	X(RULE, UMEM_EXHAUSTED,                                                                 \
	  "every umem_id live: 2^log_max_objects CREATE_UMEM (2^20 under the default "          \
	  "profile); the vector language has no repeat step, so the unit test "                 \
	  "umem::count_limit reaches it under log_max_objects 1 (docs/umem.md D-UMEM-1)")       \
	X(RULE, UNMODELLED_OPCODE,                                                              \
	  "every command of PRM §12.1 T127 is modelled since the flow steering commands "          \
	  "(§12.14, issue 13); an opcode outside T127 gets its own rule")


static const struct {
	unsigned id;
	const char *why;
} unreachable[] = {
#define UNREACHABLE_ROW_RULE(id) NICREF_RULE_##id
#define UNREACHABLE_ROW_VIO(id) (REPORT_RULE_VIOLATION | NICREF_VIO_##id)
#define UNREACHABLE_ROW_ROCE(id) (REPORT_RULE_ROCE_DROP | NICREF_ROCE_DROP_##id)
#define UNREACHABLE_ROW(table, id, why) { UNREACHABLE_ROW_##table(id), why },
	UNREACHABLE_RULES(UNREACHABLE_ROW)
#undef UNREACHABLE_ROW
#undef UNREACHABLE_ROW_ROCE
#undef UNREACHABLE_ROW_VIO
#undef UNREACHABLE_ROW_RULE
};

/* A file#tcId list longer than this is cut, with the number left out. */
#define LIST_MAX 4

/* The rule tables of the matrix, in the order the report prints them. */
static const char *roce_drop_name(unsigned r)
{
	return nicref_roce_drop_name(r);
}

static const char *roce_drop_citation(unsigned r)
{
	return nicref_roce_drop_citation(r);
}

static const struct rule_table {
	unsigned base, first, count; /* ids base | first .. base | (count - 1) */
	const char *plural, *singular, *heading, *column;
	const char *(*name)(unsigned i);
	const char *(*citation)(unsigned i);
	bool status; /* a command rule's return status is shown */
} tables[] = {
	/* command rules skip NONE, the success that refuses nothing */
	{ 0, 1, NICREF_RULE_COUNT, "command rules", "rule", "Command rules (`NICREF_CMD_RULES`)",
	  "rule", nicref_cmd_rule_name, nicref_cmd_rule_citation, true },
	{ REPORT_RULE_VIOLATION, 0, NICREF_VIO_COUNT, "driver violations", "violation",
	  "Driver violations (`NICREF_VIOLATIONS`)", "violation", nicref_violation_name,
	  nicref_violation_citation, false },
	{ REPORT_RULE_ROCE_DROP, 1, NICREF_ROCE_DROP_COUNT, "RoCE drop reasons",
	  "RoCE drop reason", "RoCE drop reasons (`NICREF_ROCE_DROPS`, a `roce_drop` event's reason)",
	  "reason", roce_drop_name, roce_drop_citation, false },
};
#define NTABLES (sizeof tables / sizeof tables[0])

static const struct rule_table *table_of(unsigned id)
{
	for (size_t t = NTABLES; t-- > 0;)
		if ((id & REPORT_RULE_TABLE_MASK) == tables[t].base)
			return &tables[t];
	return &tables[0];
}

const char *conformance_rule_name(unsigned id)
{
	return table_of(id)->name(id & ~REPORT_RULE_TABLE_MASK);
}

static const char *rule_citation(unsigned id)
{
	return table_of(id)->citation(id & ~REPORT_RULE_TABLE_MASK);
}

const char *conformance_unreachable(unsigned id)
{
	for (size_t i = 0; i < sizeof unreachable / sizeof unreachable[0]; i++)
		if (unreachable[i].id == id)
			return unreachable[i].why;
	return NULL;
}

static bool credited(const struct test_result *t, unsigned id)
{
	if (t->outcome != TEST_PASS)
		return false;
	for (unsigned k = 0; k < t->nrules; k++)
		if (t->rules[k] == id)
			return true;
	return false;
}

size_t conformance_rule_count(const struct report *rep, unsigned id)
{
	size_t n = 0;
	for (size_t t = 0; t < rep->n; t++)
		n += credited(&rep->tests[t], id);
	return n;
}

/* Table text: a '|' would end the cell. */
static void cell(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* "file#tcId, ..." of the passing tests credited with the rule, at most LIST_MAX. */
static void vector_list(FILE *out, const struct report *rep, unsigned id, size_t count)
{
	size_t shown = 0;
	for (size_t t = 0; t < rep->n && shown < LIST_MAX; t++)
		if (credited(&rep->tests[t], id)) {
			fprintf(out, "%s", shown ? ", " : "");
			cell(out, rep->tests[t].file);
			fprintf(out, "#%ld", rep->tests[t].tc_id);
			shown++;
		}
	if (count > shown)
		fprintf(out, " (+%zu more)", count - shown);
}

static void table_counts(const struct report *rep, const struct rule_table *tb, unsigned *named,
			 unsigned *unreach, unsigned *none)
{
	*named = *unreach = *none = 0;
	for (unsigned i = tb->first; i < tb->count; i++) {
		unsigned id = tb->base | i;
		if (conformance_rule_count(rep, id))
			(*named)++;
		else if (conformance_unreachable(id))
			(*unreach)++;
		else
			(*none)++;
	}
}

static void print_table(const struct report *rep, FILE *out, const struct rule_table *tb)
{
	unsigned named, unreach, none;
	table_counts(rep, tb, &named, &unreach, &none);
	fprintf(out, "%u %s: %u named by a passing vector, %u unreachable by a vector, %u with no "
		     "vector%s",
		tb->count - tb->first, tb->plural, named, unreach, none, none ? ":" : ".");
	for (unsigned i = tb->first, k = 0; i < tb->count; i++)
		if (!conformance_rule_count(rep, tb->base | i) &&
		    !conformance_unreachable(tb->base | i))
			fprintf(out, "%s`%s`", k++ ? ", " : " ", conformance_rule_name(tb->base | i));
	fprintf(out, "%s\n\n", none ? "." : "");
	if (tb->status)
		fprintf(out, "| %s | status | citation | vectors | named in |\n|---|---|---|---|---|\n",
			tb->column);
	else
		fprintf(out, "| %s | citation | vectors | named in |\n|---|---|---|---|\n", tb->column);
	for (unsigned i = tb->first; i < tb->count; i++) {
		unsigned id = tb->base | i;
		size_t count = conformance_rule_count(rep, id);
		const char *why = conformance_unreachable(id);
		fprintf(out, "| %s | ", conformance_rule_name(id));
		if (tb->status)
			fprintf(out, "%s | ", nicref_cmd_status_name(nicref_cmd_rule_status(i)));
		cell(out, rule_citation(id));
		fprintf(out, " | %zu | ", count);
		if (count)
			vector_list(out, rep, id, count);
		else if (why) {
			fprintf(out, "*unreachable*: ");
			cell(out, why);
		}
		fprintf(out, " |\n");
	}
}

/* X("what", "where in the model", "decision", "vectors") */
#define BEYOND_PRM(X)                                                                           \
	X("HOST_ENDIANNESS register (ACCESS_REG id 0x7004, he 00h[31:24])",                      \
	  "reference/reg/host_endianness.c", "D-VFIO-1", "vectors/reg/host_endianness.json")      \
	X("HCA_CAP umem_uid_0 (48h[13])", "reference/core/caps_default.c", "D-VFIO-2",             \
	  "vectors/caps/caps.json")                                                               \
	X("NIC vport context roce_en (00h[0]) and MODIFY_NIC_VPORT_CONTEXT field_select bit 1",   \
	  "reference/obj/vport_cmd.c", "D-VFIO-3", "vectors/vport/roce_en.json")                 \
	X("QP commands CREATE_QP 0x500, DESTROY_QP 0x501, RST2INIT_QP 0x502, INIT2RTR_QP 0x503, " \
	  "RTR2RTS_QP 0x504, RTS2RTS_QP 0x505, SQERR2RTS_QP 0x506, 2ERR_QP 0x507, 2RST_QP 0x50A, " \
	  "QUERY_QP 0x50B, SQD_RTS_QP 0x50C, INIT2INIT_QP 0x50E; layouts qpc, ads and the "        \
	  "commands' in/out (Linux mlx5_ifc.h; opt_param_mask: qp.h enum mlx5_qp_optpar and "       \
	  "mlx5 ib qp.c opt_mask; states and required attributes: IBTA Vol. 1 §10.3, §11.2.4)",    \
	  "reference/obj/qp.c, qp_modify.c", "D-QP-1..16 (docs/roce.md)", "vectors/qp/")          \
	X("UMEM commands CREATE_UMEM 0xA08, DESTROY_UMEM 0xA0A; layouts umem, mtt and the "     \
	  "commands' in/out (Linux mlx5_ifc.h; log_page_size, page_offset and the mtt list as "  \
	  "Linux devx.c devx_umem_reg_cmd_build fills them)",                                   \
	  "reference/obj/umem.c", "D-UMEM-1..4 (docs/umem.md)", "vectors/umem/umem.json")        \
	X("CREATE_CQ in UMEMs: create_cq_in cq_umem_offset (50h), cq_umem_id (58h), "         \
	  "cq_umem_valid (5Ch[31]); cqc dbr_umem_valid (00h[25]), dbr_umem_id (04h) (Linux "     \
	  "mlx5_ifc.h)",                                                                        \
	  "reference/obj/cq_cmd.c, umem.c", "D-UMEM-5, D-UMEM-6 (docs/umem.md)",                 \
	  "vectors/umem/umem.json")                                                             \
	X("SQ, RQ and RMP WQs in UMEMs: wq dbr_umem_valid (24h[31]), wq_umem_valid (24h[30]), " \
	  "dbr_umem_id (28h), wq_umem_id (2Ch), wq_umem_offset (30h) in the CREATE inputs "      \
	  "(Linux mlx5_ifc.h)",                                                                 \
	  "reference/obj/wq.c, umem.c", "D-UMEM-7 (docs/umem.md)", "vectors/umem/umem.json")    \
	X("GID table SET_ROCE_ADDRESS 0x761, QUERY_ROCE_ADDRESS 0x760, layout roce_addr_layout "  \
	  "(Linux mlx5_ifc.h)",                                                                 \
	  "reference/obj/roce_addr.c", "D-QP-10 (docs/roce.md)", "vectors/qp/gid.json")           \
	X("Device profile setting roce_profile: 0 connectx, 1 seed004 (seed 004 L33-44, L126-150)", \
	  "reference/obj/qp.c, qp_modify.c", "docs/roce.md Device profiles",                      \
	  "vectors/qp/seed004.json")

void conformance_beyond_print(FILE *out)
{
	fprintf(out, "\n## Beyond PRM Rev 0.40\n\n"
		     "Taken from the public mlx5 interface definitions (Linux `mlx5_ifc.h`, rdma-core's\n"
		     "`providers/mlx5/mlx5_ifc.h`), not from the PRM, because an unmodified real driver\n"
		     "(rdma-core's mlx5_vfio, docs/drivers.md) cannot bring the device up without them,\n"
		     "or, for RoCE (issue 17, docs/roce.md), because the PRM Rev 0.40 has no QP at all.\n\n"
		     "| addition | where | decision | vectors |\n|---|---|---|---|\n");
#define BEYOND_ROW(what, where, dec, vec) \
	fprintf(out, "| %s | `%s` | %s | `%s` |\n", what, where, dec, vec);
	BEYOND_PRM(BEYOND_ROW)
#undef BEYOND_ROW
}

void conformance_rules_print(const struct report *rep, FILE *out)
{
	fprintf(out, "\n## Rules\n\n"
		     "Every rule of the model's rule tables, in table order, with the passing vectors\n"
		     "that name it: by name (`expect.rule`, the `rule` of a `cmd_fail` or `violation`\n"
		     "event, the `reason` of a `roce_drop` event) or by clause (`expect.clause`, an\n"
		     "event's `clause`), counted for the rule that actually refused (the event's rule,\n"
		     "the rule whose syndrome the completion carries); in `any_of`, only the alternative\n"
		     "that held. A rule no vector can reach says why (*unreachable*; the one table of\n"
		     "them is in `harness/conformance.c`); `make check` fails when any other rule has no\n"
		     "vector. Lists of more than %d vectors are cut.\n",
		LIST_MAX);
	for (size_t t = 0; t < NTABLES; t++) {
		fprintf(out, "\n### %s\n\n", tables[t].heading);
		print_table(rep, out, &tables[t]);
	}
}

static unsigned check_table(const struct report *rep, FILE *err, const struct rule_table *tb)
{
	unsigned gaps = 0;
	for (unsigned i = tb->first; i < tb->count; i++) {
		unsigned id = tb->base | i;
		size_t count = conformance_rule_count(rep, id);
		const char *why = conformance_unreachable(id);
		if (!count && !why)
			fprintf(err, "nicref conformance: %s %s (%s) has no passing vector and is not "
				     "listed as unreachable (harness/conformance.c)\n",
				tb->singular, conformance_rule_name(id), rule_citation(id));
		else if (count && why)
			fprintf(err, "nicref conformance: %s %s is listed as unreachable "
				     "(harness/conformance.c) but %zu passing vector%s name%s it\n",
				tb->singular, conformance_rule_name(id), count, count == 1 ? "" : "s",
				count == 1 ? "s" : "");
		else
			continue;
		gaps++;
	}
	return gaps;
}

unsigned conformance_rules_check(const struct report *rep, FILE *err)
{
	unsigned gaps = 0;
	for (size_t t = 0; t < NTABLES; t++)
		gaps += check_table(rep, err, &tables[t]);
	for (size_t t = 0; t < rep->n; t++)
		if (rep->tests[t].rules_dropped) {
			fprintf(err, "nicref conformance: %s#%ld matched %u rules more than the %u a "
				     "test is credited with (REPORT_MAX_RULES)\n",
				rep->tests[t].file, rep->tests[t].tc_id, rep->tests[t].rules_dropped,
				REPORT_MAX_RULES);
			gaps++;
		}
	return gaps;
}
