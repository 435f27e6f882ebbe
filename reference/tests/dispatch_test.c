/* Command dispatch tables (reference/cmd/dispatch.c, include/nicref/cmd.h): the opcodes of PRM
 * §12.1 T127, the return statuses of §12.2 T128, the delivery statuses of §7.14.1 T96, and the
 * rules that refuse a command. The expected tables below are transcribed from the PRM. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nicref/nicref.h"

struct t127_row {
	unsigned opcode;
	const char *name;
	const char *section;
};

/* PRM T127 (Sheets 1-4), in table order. One correction: T127 links QUERY_RQ (0x90B) to
 * §12.11.3; the command is described in §12.11.4 (its heading; §12.11.3 is DESTROY_RQ). */
static const struct t127_row t127[] = {
	{ 0x100, "QUERY_HCA_CAP", "12.3.3" },
	{ 0x101, "QUERY_ADAPTER", "12.3.5" },
	{ 0x102, "INIT_HCA", "12.3.6" },
	{ 0x103, "TEARDOWN_HCA", "12.3.7" },
	{ 0x104, "ENABLE_HCA", "12.3.8" },
	{ 0x105, "DISABLE_HCA", "12.3.9" },
	{ 0x107, "QUERY_PAGES", "12.3.1" },
	{ 0x108, "MANAGE_PAGES", "12.3.2" },
	{ 0x109, "SET_HCA_CAP", "12.3.4" },
	{ 0x10A, "QUERY_ISSI", "12.3.10" },
	{ 0x10B, "SET_ISSI", "12.3.11" },
	{ 0x10D, "SET_DRIVER_VERSION", "12.3.12" },
	{ 0x200, "CREATE_MKEY", "12.5.1" },
	{ 0x201, "QUERY_MKEY", "12.5.2" },
	{ 0x202, "DESTROY_MKEY", "12.5.3" },
	{ 0x203, "QUERY_SPECIAL_CONTEXTS", "12.5.4" },
	{ 0x301, "CREATE_EQ", "12.6.1" },
	{ 0x302, "DESTROY_EQ", "12.6.2" },
	{ 0x303, "QUERY_EQ", "12.6.3" },
	{ 0x304, "GEN_EQE", "12.6.4" },
	{ 0x400, "CREATE_CQ", "12.7.1" },
	{ 0x401, "DESTROY_CQ", "12.7.2" },
	{ 0x402, "QUERY_CQ", "12.7.3" },
	{ 0x403, "MODIFY_CQ", "12.7.4" },
	{ 0x750, "QUERY_VPORT_STATE", "12.16.1" },
	{ 0x751, "MODIFY_VPORT_STATE", "12.16.2" },
	{ 0x754, "QUERY_NIC_VPORT_CONTEXT", "12.16.3" },
	{ 0x755, "MODIFY_NIC_VPORT_CONTEXT", "12.16.4" },
	{ 0x770, "QUERY_VPORT_COUNTER", "12.17.1" },
	{ 0x800, "ALLOC_PD", "12.3.13" },
	{ 0x801, "DEALLOC_PD", "12.3.14" },
	{ 0x802, "ALLOC_UAR", "12.3.15" },
	{ 0x803, "DEALLOC_UAR", "12.3.16" },
	{ 0x804, "CONFIG_INT_MODERATION", "12.3.17" },
	{ 0x805, "ACCESS_REG", "12.4.1" },
	{ 0x80D, "NOP", "12.18.1" },
	{ 0x816, "ALLOC_TRANSPORT_DOMAIN", "12.3.18" },
	{ 0x817, "DEALLOC_TRANSPORT_DOMAIN", "12.3.19" },
	{ 0x829, "SET_L2_TABLE_ENTRY", "12.15.1" },
	{ 0x82A, "QUERY_L2_TABLE_ENTRY", "12.15.2" },
	{ 0x82B, "DELETE_L2_TABLE_ENTRY", "12.15.3" },
	{ 0x900, "CREATE_TIR", "12.8.1" },
	{ 0x901, "MODIFY_TIR", "12.8.2" },
	{ 0x902, "DESTROY_TIR", "12.8.3" },
	{ 0x903, "QUERY_TIR", "12.8.4" },
	{ 0x904, "CREATE_SQ", "12.10.1" },
	{ 0x905, "MODIFY_SQ", "12.10.2" },
	{ 0x906, "DESTROY_SQ", "12.10.3" },
	{ 0x907, "QUERY_SQ", "12.10.4" },
	{ 0x908, "CREATE_RQ", "12.11.1" },
	{ 0x909, "MODIFY_RQ", "12.11.2" },
	{ 0x90A, "DESTROY_RQ", "12.11.3" },
	{ 0x90B, "QUERY_RQ", "12.11.4" },
	{ 0x90C, "CREATE_RMP", "12.13.1" },
	{ 0x90D, "MODIFY_RMP", "12.13.2" },
	{ 0x90E, "DESTROY_RMP", "12.13.3" },
	{ 0x90F, "QUERY_RMP", "12.13.4" },
	{ 0x912, "CREATE_TIS", "12.9.1" },
	{ 0x913, "MODIFY_TIS", "12.9.2" },
	{ 0x914, "DESTROY_TIS", "12.9.3" },
	{ 0x915, "QUERY_TIS", "12.9.4" },
	{ 0x916, "CREATE_RQT", "12.12.1" },
	{ 0x917, "MODIFY_RQT", "12.12.2" },
	{ 0x918, "DESTROY_RQT", "12.12.3" },
	{ 0x919, "QUERY_RQT", "12.12.4" },
	{ 0x92f, "SET_FLOW_TABLE_ROOT", "12.14.4" },
	{ 0x930, "CREATE_FLOW_TABLE", "12.14.1" },
	{ 0x931, "DESTROY_FLOW_TABLE", "12.14.3" },
	{ 0x932, "QUERY_FLOW_TABLE", "12.14.5" },
	{ 0x933, "CREATE_FLOW_GROUP", "12.14.6" },
	{ 0x934, "DESTROY_FLOW_GROUP", "12.14.7" },
	{ 0x935, "QUERY_FLOW_GROUP", "12.14.8" },
	{ 0x936, "SET_FLOW_TABLE_ENTRY", "12.14.9" },
	{ 0x937, "QUERY_FLOW_TABLE_ENTRY", "12.14.10" },
	{ 0x938, "DELETE_FLOW_TABLE_ENTRY", "12.14.11" },
	{ 0x939, "ALLOC_FLOW_COUNTER", "12.14.12" },
	{ 0x93a, "DEALLOC_FLOW_COUNTER", "12.14.13" },
	{ 0x93b, "QUERY_FLOW_COUNTER", "12.14.14" },
	{ 0x93c, "MODIFY_FLOW_TABLE", "12.14.2" },
};

Test(dispatch_opcodes, table_is_t127)
{
	const size_t n = sizeof t127 / sizeof t127[0];
	cr_assert_eq(n, 79, "transcription has %zu rows", n);
	/* T127, then the 14 public mlx5 QP and GID-table commands beyond PRM Rev 0.40 (issue 17,
	 * docs/roce.md) and the 2 UMEM commands (issue 14 M2, docs/umem.md), whose "section" is
	 * their source. */
	cr_assert_eq(nicref_opcode_count(), 79 + 16, "model has %u opcodes", nicref_opcode_count());
	static const struct t127_row beyond[] = {
		{ 0x500, "CREATE_QP", "mlx5_ifc.h" },	 { 0x501, "DESTROY_QP", "mlx5_ifc.h" },
		{ 0x502, "RST2INIT_QP", "mlx5_ifc.h" },	 { 0x503, "INIT2RTR_QP", "mlx5_ifc.h" },
		{ 0x504, "RTR2RTS_QP", "mlx5_ifc.h" },	 { 0x505, "RTS2RTS_QP", "mlx5_ifc.h" },
		{ 0x506, "SQERR2RTS_QP", "mlx5_ifc.h" }, { 0x507, "2ERR_QP", "mlx5_ifc.h" },
		{ 0x50A, "2RST_QP", "mlx5_ifc.h" },	 { 0x50B, "QUERY_QP", "mlx5_ifc.h" },
		{ 0x50C, "SQD_RTS_QP", "mlx5_ifc.h" },	 { 0x50E, "INIT2INIT_QP", "mlx5_ifc.h" },
		{ 0x760, "QUERY_ROCE_ADDRESS", "mlx5_ifc.h" },
		{ 0x761, "SET_ROCE_ADDRESS", "mlx5_ifc.h" },
		{ 0xA08, "CREATE_UMEM", "mlx5_ifc.h" },	 { 0xA0A, "DESTROY_UMEM", "mlx5_ifc.h" },
	};
	for (unsigned i = 0; i < 16; i++) {
		cr_assert_eq(nicref_opcode_at(79 + i), beyond[i].opcode, "beyond row %u", i);
		cr_assert_str_eq(nicref_opcode_name(beyond[i].opcode), beyond[i].name);
		cr_assert_str_eq(nicref_opcode_section(beyond[i].opcode), beyond[i].section);
		cr_assert_eq(nicref_opcode_modelled(beyond[i].opcode), 1, "%s", beyond[i].name);
	}
	for (unsigned i = 0; i < n; i++) {
		const struct t127_row *r = &t127[i];
		cr_assert_eq(nicref_opcode_at(i), r->opcode, "row %u: 0x%x, expected 0x%x (%s)", i,
			     nicref_opcode_at(i), r->opcode, r->name);
		const char *name = nicref_opcode_name(r->opcode);
		cr_assert_not_null(name, "0x%x unnamed", r->opcode);
		cr_assert_str_eq(name, r->name, "0x%x", r->opcode);
		cr_assert_eq(nicref_opcode_find(r->name), (int)r->opcode, "%s", r->name);
		const char *sec = nicref_opcode_section(r->opcode);
		cr_assert_not_null(sec);
		cr_assert_str_eq(sec, r->section, "%s", r->name);
	}
}

Test(dispatch_opcodes, names_unique)
{
	unsigned n = nicref_opcode_count();
	for (unsigned i = 0; i < n; i++) {
		const char *a = nicref_opcode_name(nicref_opcode_at(i));
		cr_assert_not_null(a);
		cr_assert_neq(a[0], '\0');
		for (unsigned j = i + 1; j < n; j++) {
			cr_assert_neq(nicref_opcode_at(i), nicref_opcode_at(j));
			cr_assert_str_neq(a, nicref_opcode_name(nicref_opcode_at(j)));
		}
	}
}

Test(dispatch_opcodes, lookups)
{
	cr_assert_str_eq(nicref_opcode_name(0x80D), "NOP");
	cr_assert_eq(nicref_opcode_find("NOP"), 0x80D);
	cr_assert_eq(NICREF_OP_NOP, 0x80D);
	cr_assert_eq(NICREF_OP_CREATE_CQ, 0x400);
	/* Not in T127. */
	static const unsigned absent[] = { 0x000, 0x106, 0x10C, 0x10E, 0x204, 0x300, 0x404,
					   0x752, 0x80E, 0x190A, 0x910, 0x911,
					   0x93D, 0x940, 0x999, 0xA00, 0xA09, 0xA0F, 0xA10,
					   0xFFFF, 0x10000, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
		cr_assert_null(nicref_opcode_name(absent[i]), "0x%x named", absent[i]);
		cr_assert_null(nicref_opcode_section(absent[i]), "0x%x has a section", absent[i]);
		cr_assert_eq(nicref_opcode_modelled(absent[i]), 0);
	}
	cr_assert_eq(nicref_opcode_find("NO_SUCH_COMMAND"), -1);
	cr_assert_eq(nicref_opcode_find("nop"), -1);
	cr_assert_eq(nicref_opcode_find(""), -1);
	cr_assert_eq(nicref_opcode_at(79 + 16), 0);
	/* Every command of T127 is modelled since flow steering (§12.14, issue 13). */
	cr_assert_eq(nicref_opcode_modelled(0x80D), 1);
	cr_assert_eq(nicref_opcode_modelled(0x930), 1);
	for (unsigned i = 0; i < 79; i++)
		cr_expect_eq(nicref_opcode_modelled(nicref_opcode_at(i)), 1, "T127 row %u", i);
}

/* PRM §12.2 T128. */
Test(dispatch_statuses, t128)
{
	static const struct {
		unsigned v;
		const char *name;
	} t128[] = {
		{ 0x00, "OK" },           { 0x01, "INTERNAL_ERR" },
		{ 0x02, "BAD_OP" },       { 0x03, "BAD_PARAM" },
		{ 0x04, "BAD_SYS_STATE" }, { 0x05, "BAD_RESOURCE" },
		{ 0x06, "RESOURCE_BUSY" }, { 0x08, "EXCEED_LIM" },
		{ 0x09, "BAD_RES_STATE" }, { 0x0A, "BAD_INDEX" },
		{ 0x0F, "NO_RESOURCES" },  { 0x50, "BAD_INPUT_LEN" },
		{ 0x51, "BAD_OUTPUT_LEN" }, { 0x10, "BAD_RESOURCE_STATE" },
		{ 0x40, "BAD_SIZE" },
	};
	unsigned named = 0;
	for (size_t i = 0; i < sizeof t128 / sizeof t128[0]; i++) {
		const char *n = nicref_cmd_status_name(t128[i].v);
		cr_assert_not_null(n, "0x%02x", t128[i].v);
		cr_assert_str_eq(n, t128[i].name);
	}
	for (unsigned v = 0; v < 0x100; v++)
		named += nicref_cmd_status_name(v) != NULL;
	cr_assert_eq(named, 15, "%u statuses named, T128 has 15", named);
	cr_assert_null(nicref_cmd_status_name(0x07));
	cr_assert_null(nicref_cmd_status_name(0x52));
	cr_assert_eq(NICREF_STATUS_BAD_OP, 0x02);
	cr_assert_eq(NICREF_STATUS_BAD_INPUT_LEN, 0x50);
	cr_assert_eq(NICREF_STATUS_BAD_OUTPUT_LEN, 0x51);
	cr_assert_eq(NICREF_STATUS_BAD_RESOURCE_STATE, 0x10);
	cr_assert_eq(NICREF_STATUS_BAD_SIZE, 0x40);
}

/* PRM §7.14.1 T96 3Ch[7:1]. */
Test(dispatch_statuses, t96_delivery)
{
	static const struct {
		unsigned v;
		const char *name;
	} t96[] = {
		{ 0x0, "OK" },         { 0x1, "SIGNATURE" },          { 0x2, "TOKEN" },
		{ 0x3, "BAD_BLOCK_NUMBER" }, { 0x4, "BAD_OUTPUT_POINTER" },
		{ 0x5, "BAD_INPUT_POINTER" }, { 0x6, "INTERNAL" },     { 0x7, "INPUT_LEN" },
		{ 0x8, "OUTPUT_LEN" }, { 0x9, "RESERVED_NOT_ZERO" }, { 0x10, "BAD_TYPE" },
	};
	for (size_t i = 0; i < sizeof t96 / sizeof t96[0]; i++) {
		const char *n = nicref_delivery_status_name(t96[i].v);
		cr_assert_not_null(n, "0x%x", t96[i].v);
		cr_assert_str_eq(n, t96[i].name);
	}
	for (unsigned v = 0xA; v < 0x10; v++)
		cr_assert_null(nicref_delivery_status_name(v), "0x%x named", v);
	for (unsigned v = 0x11; v < 0x80; v++)
		cr_assert_null(nicref_delivery_status_name(v), "0x%x named", v);
}

/* Rules that refuse a command: the status each returns (T128), and a syndrome (D-CMD-6):
 * zero on success, otherwise non-zero and one per rule. */
Test(dispatch_rules, statuses_and_syndromes)
{
	cr_assert_eq(nicref_cmd_rule_syndrome(NICREF_RULE_NONE), 0);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_NONE), 0x00);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_INPUT_TOO_SHORT), 0x50);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_OUTPUT_TOO_SHORT), 0x51);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_INPUT_TOO_LONG), 0x50);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_OUTPUT_TOO_LONG), 0x51);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_UNKNOWN_OPCODE), 0x02);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_UNMODELLED_OPCODE), 0x02);
	cr_assert_eq(nicref_cmd_rule_status(NICREF_RULE_BAD_OP_MOD), 0x02);
	for (unsigned r = 0; r < NICREF_RULE_COUNT; r++) {
		const char *name = nicref_cmd_rule_name(r);
		cr_assert_not_null(name);
		cr_assert_eq(nicref_cmd_rule_find(name), (int)r, "%s", name);
		cr_assert_not_null(nicref_cmd_status_name(nicref_cmd_rule_status(r)),
				   "%s returns status 0x%x, not in T128", name, nicref_cmd_rule_status(r));
		cr_assert_not_null(nicref_cmd_rule_citation(r));
		if (r == NICREF_RULE_NONE)
			continue;
		cr_assert_neq(nicref_cmd_rule_status(r), 0, "%s returns OK", name);
		cr_assert_neq(nicref_cmd_rule_citation(r)[0], '\0', "%s has no citation", name);
		uint32_t s = nicref_cmd_rule_syndrome(r);
		cr_assert_neq(s, 0, "%s has syndrome 0", name);
		cr_assert_eq(nicref_cmd_rule_syndrome(r), s, "%s: syndrome not stable", name);
		for (unsigned q = r + 1; q < NICREF_RULE_COUNT; q++) {
			cr_assert_neq(nicref_cmd_rule_syndrome(q), s, "%s and %s share syndrome 0x%08x",
				      name, nicref_cmd_rule_name(q), s);
			cr_assert_str_neq(name, nicref_cmd_rule_name(q));
		}
	}
	cr_assert_str_eq(nicref_cmd_rule_name(NICREF_RULE_NONE), "NONE");
	cr_assert_null(nicref_cmd_rule_name(NICREF_RULE_COUNT));
	cr_assert_null(nicref_cmd_rule_citation(NICREF_RULE_COUNT));
	cr_assert_eq(nicref_cmd_rule_syndrome(NICREF_RULE_COUNT), 0);
	cr_assert_eq(nicref_cmd_rule_find("NO_SUCH_RULE"), -1);
}
