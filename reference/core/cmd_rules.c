/* The command rules (NICREF_CMD_RULES, nicref/cmd.h): names, citations, statuses and the
 * syndromes made from the names (D-CMD-6). A refused command's trace event names its rule
 * (nicref_event_format), so the table lives with the trace's other vocabularies (event kinds,
 * violations) in core; dispatch (cmd/dispatch.c) reads it through the same functions. */
#include <string.h>

#include "nicref/cmd.h"

struct rule_desc {
	const char *name, *cite;
	uint8_t status;
};
static const struct rule_desc rules[] = {
#define RULE_ROW(id, st, cite, text) { #id, cite, NICREF_STATUS_##st },
	NICREF_CMD_RULES(RULE_ROW)
#undef RULE_ROW
};

const char *nicref_cmd_rule_name(unsigned rule)
{
	return rule < NICREF_RULE_COUNT ? rules[rule].name : NULL;
}

const char *nicref_cmd_rule_citation(unsigned rule)
{
	return rule < NICREF_RULE_COUNT ? rules[rule].cite : NULL;
}

unsigned nicref_cmd_rule_status(unsigned rule)
{
	return rule < NICREF_RULE_COUNT ? rules[rule].status : NICREF_STATUS_INTERNAL_ERR;
}

uint32_t nicref_cmd_rule_syndrome(unsigned rule)
{
	/* D-CMD-6: FNV-1a (32-bit) of the rule name; 0 for success. */
	if (rule == NICREF_RULE_NONE || rule >= NICREF_RULE_COUNT)
		return 0;
	uint32_t h = 2166136261u;
	for (const char *p = rules[rule].name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return h;
}

int nicref_cmd_rule_find(const char *name)
{
	for (unsigned i = 0; i < NICREF_RULE_COUNT; i++)
		if (strcmp(rules[i].name, name) == 0)
			return (int)i;
	return -1;
}
