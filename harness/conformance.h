/* The per-rule view of the conformance matrix (docs/conformance.md, "Rules"): every command rule
 * (NICREF_CMD_RULES) and every driver violation (NICREF_VIOLATIONS), in table order, with the
 * passing vectors credited with it (struct test_result rules: named, or matched by clause), and
 * the one table of rules no vector can reach. */
#ifndef NICREF_CONFORMANCE_H
#define NICREF_CONFORMANCE_H

#include <stdio.h>

#include "report.h"

/* A rule as struct test_result stores it: a command rule r as r, a violation v as
 * REPORT_RULE_VIOLATION | v. */
const char *conformance_rule_name(unsigned id);

/* Why no vector can reach the rule, or NULL when a vector can (the table is in conformance.c). */
const char *conformance_unreachable(unsigned id);

/* How many passing tests of rep are credited with the rule. */
size_t conformance_rule_count(const struct report *rep, unsigned id);

/* The "Beyond PRM Rev 0.40" section: what the model takes from the public mlx5 interface
 * definitions because real drivers need it (docs/decisions.md, D-VFIO-*). */
void conformance_beyond_print(FILE *out);

/* The "Rules" sections in Markdown. */
void conformance_rules_print(const struct report *rep, FILE *out);

/* The gaps of the matrix, one line each to err: a rule no passing vector names that the
 * unreachable table does not list, a rule the table lists that a vector names after all, and
 * a test credited with more rules than it can hold. Returns their number. */
unsigned conformance_rules_check(const struct report *rep, FILE *err);

#endif
