/* docs/caps.md agrees with the device: every row's offset, bits, maximum and current value, each
 * field of T145, T147 and T149-T153 listed once, and every bit no row lists reads 0. Shared
 * tools: caps_util.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps_util.h"

/* ==== docs/caps.md agrees with the device ================================================= */

/* The sub-structure a wide field holds (T149: T150 blocks; T151: T152 blocks). */
static const char *sub_layout(const char *field_name)
{
	if (strncmp(field_name, "flow_table_properties_", 22) == 0)
		return "flow_table_properties";
	if (strncmp(field_name, "ft_field_", 9) == 0)
		return "flow_table_fields_supported";
	return NULL;
}

static const char *top_layout(unsigned type)
{
	return type == T_GENERAL ? "hca_cap"
	       : type == T_ETH	 ? "per_protocol_networking_offload_caps"
				 : "flow_table_nic_cap";
}

/* Leaves of a layout tree (wide fields descend into their sub-structure). */
static unsigned count_leaves(const char *layout)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	unsigned n = 0;
	for (uint32_t i = 0; i < l->nfields; i++) {
		const char *sub = sub_layout(l->fields[i].name);
		n += sub ? count_leaves(sub) : 1;
	}
	return n;
}

static int parse_num(const char *s, uint64_t *v)
{
	while (*s == ' ')
		s++;
	char *end;
	*v = strtoull(s, &end, 0);
	return end == s ? -1 : 0;
}

struct doc_row {
	char path[128], off[16], bits[16], max[160], cur[160];
};

/* "| `path` | 18h | 23:16 | 22 | 22 | why |" */
static int parse_row(const char *line, struct doc_row *r)
{
	char cells[6][160];
	const char *p = line + 1;
	for (int k = 0; k < 6; k++) {
		const char *bar = strchr(p, '|');
		if (!bar)
			return -1;
		size_t n = (size_t)(bar - p);
		if (n >= sizeof cells[k])
			n = sizeof cells[k] - 1;
		memcpy(cells[k], p, n);
		cells[k][n] = '\0';
		p = bar + 1;
	}
	if (sscanf(cells[0], " `%127[^`]`", r->path) != 1 ||
	    sscanf(cells[1], " %15s", r->off) != 1 || sscanf(cells[2], " %15s", r->bits) != 1)
		return -1;
	snprintf(r->max, sizeof r->max, "%s", cells[3]);
	snprintf(r->cur, sizeof r->cur, "%s", cells[4]);
	return 0;
}

Test(caps_doc, docs_caps_md_is_the_default_profile)
{
	static uint8_t qmax[3][CAP], qcur[3][CAP], covered[3][CAP];
	static const unsigned types[3] = { T_GENERAL, T_ETH, T_FLOW };
	start(REFDRV_ENABLED, 1);
	for (int k = 0; k < 3; k++) {
		query_ok(types[k] << 1, qmax[k]);
		query_ok(types[k] << 1 | 1, qcur[k]);
	}
	stop();
	memset(covered, 0, sizeof covered);

	FILE *f = fopen("docs/caps.md", "r");
	cr_assert_not_null(f, "docs/caps.md not found (run from the repository root)");
	char line[1024];
	int k = -1;
	unsigned rows[3] = { 0 }, leaves[3] = { 0 };
	while (fgets(line, sizeof line, f)) {
		unsigned ty;
		if (sscanf(line, "### op_mod type %u", &ty) == 1) {
			k = ty == T_GENERAL ? 0 : ty == T_ETH ? 1 : ty == T_FLOW ? 2 : -1;
			cr_assert_geq(k, 0, "docs/caps.md: type %u", ty);
			continue;
		}
		if (strncmp(line, "## ", 3) == 0)
			k = -1;
		if (k < 0 || strncmp(line, "| `", 3) != 0)
			continue;
		struct doc_row r;
		cr_assert_eq(parse_row(line, &r), 0, "docs/caps.md: bad row %s", line);
		rows[k]++;
		/* Walk the path through the layouts: a.b.c or a.b.* */
		const char *layout = top_layout(types[k]);
		uint32_t base = 0;
		char path[128];
		snprintf(path, sizeof path, "%s", r.path);
		char *save = NULL;
		const struct nicref_field *fl = NULL;
		int all = 0;
		for (char *name = strtok_r(path, ".", &save); name;
		     name = strtok_r(NULL, ".", &save)) {
			if (strcmp(name, "*") == 0) {
				all = 1;
				break;
			}
			cr_assert_not_null(layout, "docs/caps.md: %s descends into a plain field",
					   r.path);
			fl = tl_field(layout, name);
			const char *sub = sub_layout(name);
			if (sub) {
				base += fl->bit_offset;
				layout = sub;
			} else {
				layout = NULL;
			}
		}
		uint64_t vmax, vcur;
		cr_assert_eq(parse_num(r.max, &vmax), 0, "%s: max '%s'", r.path, r.max);
		cr_assert_eq(parse_num(r.cur, &vcur), 0, "%s: current '%s'", r.path, r.cur);
		const struct nicref_layout *l = all ? nicref_layout_find(layout) : NULL;
		uint32_t n = all ? l->nfields : 1;
		if (all) {
			char want[16];
			snprintf(want, sizeof want, "%02Xh", base / 8);
			cr_expect_str_eq(r.off, want, "%s: offset", r.path);
		}
		for (uint32_t i = 0; i < n; i++) {
			struct nicref_field e = all ? l->fields[i] : *fl;
			if (!all) {
				/* the field itself, not a sub-structure */
				cr_assert_null(layout, "%s is a structure", r.path);
				char want_off[16], want_bits[16];
				snprintf(want_off, sizeof want_off, "%02Xh",
					 base / 8 + fl->prm_offset);
				if (fl->msb == fl->lsb)
					snprintf(want_bits, sizeof want_bits, "%u", fl->msb);
				else
					snprintf(want_bits, sizeof want_bits, "%u:%u", fl->msb,
						 fl->lsb);
				cr_expect_str_eq(r.off, want_off, "%s: offset", r.path);
				cr_expect_str_eq(r.bits, want_bits, "%s: bits", r.path);
			}
			e.bit_offset += base;
			uint64_t gm = 0, gc = 0;
			cr_assert_eq(nicref_field_get(qmax[k], CAP, &e, &gm), 0);
			cr_assert_eq(nicref_field_get(qcur[k], CAP, &e, &gc), 0);
			cr_expect_eq(gm, vmax, "%s%s%s: max %llu, docs/caps.md %llu", r.path,
				     all ? " " : "", all ? e.name : "", (unsigned long long)gm,
				     (unsigned long long)vmax);
			cr_expect_eq(gc, vcur, "%s%s%s: current %llu, docs/caps.md %llu", r.path,
				     all ? " " : "", all ? e.name : "", (unsigned long long)gc,
				     (unsigned long long)vcur);
			for (uint32_t b = e.bit_offset; b < e.bit_offset + e.bit_width; b++) {
				cr_expect_eq(covered[k][b / 8] >> (7 - b % 8) & 1, 0,
					     "%s: bit %u listed twice", r.path, b);
				covered[k][b / 8] |= (uint8_t)(0x80u >> (b % 8));
			}
			leaves[k]++;
		}
	}
	fclose(f);
	for (k = 0; k < 3; k++) {
		cr_expect_eq(leaves[k], count_leaves(top_layout(types[k])),
			     "type %u: docs/caps.md lists %u of %u fields", types[k], leaves[k],
			     count_leaves(top_layout(types[k])));
		cr_expect_gt(rows[k], 0);
		/* Every bit no row lists is reserved and reads 0. */
		for (unsigned b = 0; b < CAP; b++) {
			cr_expect_eq(qmax[k][b] & ~covered[k][b], 0, "type %u max byte %03Xh",
				     types[k], b);
			cr_expect_eq(qcur[k][b] & ~covered[k][b], 0, "type %u current byte %03Xh",
				     types[k], b);
		}
	}
}
